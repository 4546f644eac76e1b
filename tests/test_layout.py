"""The map layout: a point for every place of the board, and clear errors for a bad file; a
layout generated for a board without a drawing, read back from the pictures drawn on it."""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest
from conftest import DATA, first_fast, slow, under_hash_seeds

from solver.render.board_drawing import Scene, board_svg
from solver.render.style import OTHER_COLOUR, colour, power_colours, token
from solver.render.svg import num
from solver.values.position import DislodgedUnit, Phase, PhaseKind, Position, Season, Unit
from topology import (
    STANDARD_PATH,
    Board,
    Kind,
    Location,
    MapDataError,
    UnitType,
    layout_of,
    load_board,
    load_layout,
    standard,
    standard_layout,
)
from topology.autolayout import generated_layout
from topology.extents import label_width
from topology.loader import board_from_text

NS = "{http://www.w3.org/2000/svg}"
VARIANTS = DATA / "variants"


def test_every_place_has_a_point_on_the_page():
    layout = standard_layout()
    assert set(layout.points) == {str(loc) for loc in standard().locations()}
    for x, y in layout.points.values():
        assert 0 <= x <= layout.width and 0 <= y <= layout.height


def test_no_two_provinces_are_drawn_on_top_of_each_other():
    layout = standard_layout()
    points = sorted(layout.points.items())
    for i, (a, (ax, ay)) in enumerate(points):
        for b, (bx, by) in points[i + 1 :]:
            assert abs(ax - bx) >= 40 or abs(ay - by) >= 30, (a, b)


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda t: t.replace('"stp/nc" = [875, 125]\n', ""), "missing: stp/nc"),
        (lambda t: t + "xyz = [1, 1]\n", "unknown: xyz"),
        (lambda t: t.replace("nao = [90, 200]", "nao = [90, 2000]"), "places.nao: expected [x, y]"),
        (lambda t: t.replace("width = 1100", "width = -1"), "positive numbers"),
        (lambda t: t.replace("[places]", "[places"), "not valid TOML"),
    ],
)
def test_a_bad_layout_names_file_and_fault(tmp_path, edit, message):
    path = tmp_path / "layout.toml"
    path.write_text(edit(standard().drawing.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(MapDataError) as error:
        load_layout(path, standard())
    assert str(error.value).startswith(str(path))
    assert message in str(error.value)


# -- which layout a board is drawn on ---------------------------------------------------------
def test_the_standard_board_is_drawn_on_its_own_drawing():
    assert standard_layout() is layout_of(standard())
    assert standard_layout() == load_layout(standard().drawing, standard())
    assert standard_layout().points["mun"] == (545.0, 495.0)


def test_a_board_that_names_a_drawing_is_drawn_there():
    board = load_board(VARIANTS / "drawn.toml")
    assert board.drawing == VARIANTS / "drawn-layout.toml"
    layout = layout_of(board)
    assert layout.name == "drawn by hand"
    assert dict(layout.points) == {
        "lft": (70.0, 70.0),
        "mid": (200.0, 70.0),
        "rgt": (330.0, 70.0),
        "bay": (200.0, 190.0),
    }
    assert dict(layout.points) != dict(generated_layout(board).points)
    root = ET.fromstring(board_svg(Scene(Position.opening(board)), whole=True))
    assert map_view(root).get("viewBox") == "0 0 400 260"
    tiles = {g.get("data-province"): g for g in groups(root, "province", "data-province")}
    rect = tiles["mid"].find(f"{NS}rect")
    assert (float(rect.get("x")), float(rect.get("y"))) == (200 - 27, 70 - 16)
    assert tiles["bay"].find(f"{NS}ellipse").get("cx") == "200"


def test_a_board_without_a_drawing_gets_a_generated_layout_once():
    board = load_board(VARIANTS / "isthmus.toml")
    assert board.drawing is None
    assert layout_of(board) is layout_of(board)
    assert layout_of(board) == generated_layout(board)


# -- generated layouts ------------------------------------------------------------------------
def grid_text(columns: int, rows: int) -> str:
    """A map of columns x rows provinces, each bordering the four beside it: land in the
    first column, then two columns of coast and one of sea, over and over."""

    def kind(col: int, row: int) -> str:
        return "land" if col == 0 else "sea" if col % 3 == 2 else "coast"

    def code(col: int, row: int) -> str:
        return f"p{col}x{row}"

    lines = ['name = "grid"', "", "[powers.North]", 'adjective = "Northern"']
    lines += ['home = ["p0x0"]', 'start = ["A p0x0"]', ""]
    for col in range(columns):
        for row in range(rows):
            here = kind(col, row)
            near = [
                (c, r)
                for c, r in ((col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1))
                if 0 <= c < columns and 0 <= r < rows
            ]
            if here == "coast" and all(kind(*n) != "sea" for n in near):
                here = "land"
            lines += ["[[province]]", f'code = "{code(col, row)}"']
            lines += [f'name = "Grid {col} {row}"', f'kind = "{here}"']
            if (col, row) == (0, 0):
                lines.append("centre = true")
            if here != "sea":
                army = [code(*n) for n in near if kind(*n) != "sea"]
                lines.append("army = [" + ", ".join(f'"{a}"' for a in army) + "]")
            if here != "land":
                fleet = [code(*n) for n in near if kind(*n) != "land" and "sea" in (here, kind(*n))]
                lines.append("fleet = [" + ", ".join(f'"{f}"' for f in fleet) + "]")
            lines.append("")
    return "\n".join(lines)


GRID = (10, 11)


def standard_text() -> str:
    """The standard map file without its drawing."""
    text = STANDARD_PATH.read_text(encoding="utf-8")
    assert 'drawing = "standard-layout.toml"' in text
    return text.replace('drawing = "standard-layout.toml"', "")


@cache
def board_named(name: str) -> Board:
    if name == "grid":
        return board_from_text(grid_text(*GRID), "grid.toml")
    if name == "standard-generated":  # the standard board, as if it had no drawing
        return board_from_text(standard_text(), "standard.toml")
    return load_board(VARIANTS / f"{name}.toml")


GENERATED = ["pure", "isthmus", "odd", "grid", "standard-generated"]


def test_the_grid_board_is_what_the_tests_think():
    board = board_named("grid")
    assert len(board.provinces) == GRID[0] * GRID[1] > 100
    assert {p.kind for p in board.provinces.values()} == set(Kind)
    assert board.drawing is None


_PRINT = """
import sys
from pathlib import Path
from topology import load_board
from topology.autolayout import generated_layout
for path in sys.argv[1:] or {paths!r}:
    layout = generated_layout(load_board(path))
    print(layout.name, layout.width, layout.height, sorted(layout.points.items()))
"""


@slow
def test_a_generated_layout_is_the_same_in_every_process(tmp_path):
    grid = tmp_path / "grid.toml"
    grid.write_text(grid_text(*GRID), encoding="utf-8")
    plain = tmp_path / "standard.toml"  # the standard board without its drawing
    plain.write_text(standard_text(), encoding="utf-8")
    paths = [str(VARIANTS / "pure.toml"), str(VARIANTS / "isthmus.toml"), str(grid), str(plain)]
    runs = under_hash_seeds(_PRINT.format(paths=paths), "0", "1", "4242")
    assert runs[0] == runs[1] == runs[2]
    here = "".join(
        f"{lay.name} {lay.width} {lay.height} {sorted(lay.points.items())}\n"
        for lay in (generated_layout(load_board(p)) for p in paths)
    )
    assert runs[0].decode() == here


@pytest.mark.parametrize("name", first_fast(GENERATED))
def test_every_place_of_a_generated_layout_has_a_point_inside_the_page(name):
    board = board_named(name)
    layout = generated_layout(board)
    assert set(layout.points) == {str(loc) for loc in board.locations()}
    for x, y in layout.points.values():
        assert 0 < x < layout.width and 0 < y < layout.height
    assert len(set(layout.points.values())) == len(layout.points)


def test_the_page_grows_with_the_board():
    small, large = generated_layout(board_named("pure")), generated_layout(board_named("grid"))
    assert small.width * small.height < 300 * 300
    area = large.width * large.height
    assert 100 * 40 * 90 < area < 100 * 200 * 150  # room for each place, not much more


# -- read back from the picture ----------------------------------------------------------------
Box = tuple[float, float, float, float]


def classes(e: ET.Element) -> set[str]:
    return set(e.get("class", "").split())


def groups(root: ET.Element, cls: str, attribute: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if cls in classes(g) and attribute in g.attrib]


def map_view(root: ET.Element) -> ET.Element:
    return next(s for s in root.iter(f"{NS}svg") if "map" in classes(s))


def shape_box(e: ET.Element, pad: float = 1.0) -> Box:
    """The box of a drawn shape, with ``pad`` for its stroke (half its width)."""
    f = {k: float(v) for k, v in e.attrib.items() if re.fullmatch(r"-?[\d.]+", v)}
    tag = e.tag.removeprefix(NS)
    if tag == "rect":
        box = (f["x"], f["y"], f["x"] + f["width"], f["y"] + f["height"])
    elif tag == "ellipse":
        box = (f["cx"] - f["rx"], f["cy"] - f["ry"], f["cx"] + f["rx"], f["cy"] + f["ry"])
    elif tag == "circle":
        box = (f["cx"] - f["r"], f["cy"] - f["r"], f["cx"] + f["r"], f["cy"] + f["r"])
    else:  # a fleet's hull: a path of straight lines
        numbers = [float(n) for n in re.findall(r"-?[\d.]+", e.get("d"))]
        xs, ys = numbers[0::2], numbers[1::2]
        box = (min(xs), min(ys), max(xs), max(ys))
    return (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)


def text_box(e: ET.Element) -> Box:
    """A province's label as the renderer sizes it: bold capitals of 12, centred on x, the
    baseline at y."""
    x, y, half = float(e.get("x")), float(e.get("y")), label_width(e.text) / 2
    return (x - half, y - 0.76 * 12, x + half, y + 0.15 * 12)


def overlap(a: Box, b: Box) -> bool:
    """Do two boxes share more than a tenth of a unit each way (numbers are rounded so)?"""
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.11 and min(a[3], b[3]) - max(a[1], b[1]) > 0.11


def drawn_places(root: ET.Element) -> tuple[dict[str, list[Box]], dict[str, tuple[str, Box]]]:
    """Every shape drawn for each place (its tile or coast circle, centre dot, home ring, units
    standing or retreating), and each province's label with its box."""
    shapes: dict[str, list[Box]] = {}
    labels: dict[str, tuple[str, Box]] = {}
    for g in groups(root, "province", "data-province"):
        code = g.get("data-province")
        for e in g:
            if e.tag == f"{NS}text":
                labels[code] = (e.text, text_box(e))
            elif e.tag != f"{NS}title":
                shapes.setdefault(code, []).append(shape_box(e))
    for g in groups(root, "coast-point", "data-place"):
        circle = g.find(f"{NS}circle")
        shapes.setdefault(g.get("data-place"), []).append(shape_box(circle))
    for dot in root.iter(f"{NS}circle"):
        if "centre" in classes(dot) and "data-province" in dot.attrib:
            shapes.setdefault(dot.get("data-province"), []).append(shape_box(dot))
    for g in groups(root, "unit", "data-place"):
        for e in g:
            if e.tag.removeprefix(NS) in ("circle", "path"):
                pad = 1.5 if "retreating" in classes(g) else 1.0  # a red edge of 3
                shapes.setdefault(g.get("data-place"), []).append(shape_box(e, pad))
    return shapes, labels


def crowded(board: Board) -> Position:
    """A retreat phase with a unit on every province (a fleet on a sea or the first coast of
    a split province, an army elsewhere), another awaiting retreat there (on the last coast),
    and every centre owned: everything a place can show at once."""
    units, dislodged = [], []
    power = board.powers[0]
    for code, prov in board.provinces.items():
        first = Location(code, prov.coasts[0]) if prov.coasts else Location(code)
        last = Location(code, prov.coasts[-1]) if prov.coasts else Location(code)
        kind = UnitType.FLEET if prov.kind is Kind.SEA or prov.coasts else UnitType.ARMY
        units.append(Unit(first, kind, power))
        attacker = min(board.neighbours(code), default="")  # "": from another board
        dislodged.append(DislodgedUnit(Unit(last, kind, power), attacker))
    centres = tuple(
        (c, board.powers[i % len(board.powers)]) for i, c in enumerate(sorted(board.centres))
    )
    phase = Phase(board.start_year, Season.FALL, PhaseKind.RETREAT)
    return Position(phase, tuple(units), centres, tuple(dislodged), board=board)


@pytest.mark.parametrize("name", first_fast(GENERATED))
@pytest.mark.parametrize("scene", ["opening", "crowded"])
def test_what_one_place_draws_never_touches_what_another_draws(name, scene):
    board = board_named(name)
    position = Position.opening(board) if scene == "opening" else crowded(board)
    root = ET.fromstring(board_svg(Scene(position), whole=True))
    layout = layout_of(board)
    assert map_view(root).get("viewBox") == f"0 0 {num(layout.width)} {num(layout.height)}"
    shapes, labels = drawn_places(root)
    assert {code: text for code, (text, _) in labels.items()} == {
        code: code.upper() for code in board.provinces
    }
    page = (0.0, 0.0, layout.width, layout.height)
    problems = []
    everything = [(place, box) for place, boxes in shapes.items() for box in boxes]
    everything += [(code, box) for code, (_, box) in labels.items()]
    for place, box in everything:
        if not (
            page[0] <= box[0] and page[1] <= box[1] and box[2] <= page[2] and box[3] <= page[3]
        ):
            problems.append(f"{place} {box} leaves the page {page}")
    for i, (a, box_a) in enumerate(everything):
        for b, box_b in everything[i + 1 :]:
            if a != b and overlap(box_a, box_b):
                problems.append(f"{a} {box_a} meets {b} {box_b}")
    # a label lies on its own tile (drawn first), but nothing else of its place covers it
    for code, (_, box) in labels.items():
        for other in shapes[code][1:]:
            if overlap(box, other):
                problems.append(f"{code}: its label {box} is covered by its own {other}")
    assert not problems, "\n".join(problems[:10])
    if scene == "crowded":
        assert len(groups(root, "unit", "data-place")) == 2 * len(board.provinces)


def test_the_label_estimate_is_at_least_the_width_of_the_real_face():
    fonts = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
    if not fonts.is_file():
        pytest.skip("DejaVu Sans Bold is not installed")
    from PIL import ImageFont

    face = ImageFont.truetype(str(fonts), 1200)
    for text in [
        "W",
        "M",
        "I",
        "Q",
        "0",
        "MUN",
        "WWW",
        "STP",
        "P10X9",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
    ]:
        assert face.getlength(text) / 100 <= label_width(text), text


# -- what the layout looks like -------------------------------------------------------------------
def steps(layout) -> tuple[float, float]:
    """The grid a generated layout is on: the least distance between two columns, two rows."""
    xs = sorted({x for x, _ in layout.points.values()})
    ys = sorted({y for _, y in layout.points.values()})
    return (
        min(b - a for a, b in itertools.pairwise(xs)),
        min(b - a for a, b in itertools.pairwise(ys)),
    )


def test_a_grid_is_drawn_as_a_grid():
    board = board_named("grid")
    layout = generated_layout(board)
    sx, sy = steps(layout)
    for a, b in board.province_graph().edges:
        (ax, ay), (bx, by) = layout.point(a), layout.point(b)
        assert (abs(ax - bx), abs(ay - by)) in ((sx, 0), (0, sy)), (a, b)
    # with no room wasted: as many columns and rows as the grid has
    columns = {x for x, _ in layout.points.values()}
    rows = {y for _, y in layout.points.values()}
    assert sorted((len(columns), len(rows))) == sorted(GRID)


@pytest.mark.parametrize(("name", "share"), [("isthmus", 0.7), ("standard-generated", 0.4)])
def test_neighbours_are_drawn_near_each_other(name, share):
    """Every province has a neighbour in a cell beside it (or corner to corner), and most
    borders join two such cells; none runs across the whole map."""
    board = board_named(name)
    layout = generated_layout(board)
    sx, sy = steps(layout)

    def beside(a: str, b: str) -> bool:
        (ax, ay), (bx, by) = layout.point(a), layout.point(b)
        return abs(ax - bx) <= sx and abs(ay - by) <= sy

    assert [c for c in board.provinces if not any(beside(c, o) for o in board.neighbours(c))] == []
    edges = list(board.province_graph().edges)
    assert sum(beside(a, b) for a, b in edges) >= share * len(edges)
    longest = max(math.dist(layout.point(a), layout.point(b)) for a, b in edges)
    assert longest < 0.5 * math.hypot(layout.width, layout.height)


@pytest.mark.parametrize("name", ["isthmus", "standard-generated"])
def test_each_coast_is_drawn_beside_its_province_towards_its_seas(name):
    board = board_named(name)
    layout = generated_layout(board)
    sx, sy = steps(layout)
    split = [p for p in board.provinces.values() if p.coasts]
    assert split
    fleet = board.fleet_graph()
    for prov in split:
        px, py = layout.point(prov.code)
        keys = [f"{prov.code}/{c}" for c in prov.coasts]
        for key in keys:
            x, y = layout.point(key)
            assert (x, y) != (px, py)
            assert abs(x - px) <= sx and abs(y - py) <= sy, key  # in a cell beside it
            # nearer the fleet neighbours of this coast than any other coast of the province
            mine = [layout.point(n) for n in fleet.adj[key]]
            for other in keys:
                if other != key:
                    here = sum(math.dist((x, y), p) for p in mine)
                    there = sum(math.dist(layout.point(other), p) for p in mine)
                    assert here <= there, (key, other)


def test_isthmus_coasts_face_the_sea_of_each():
    layout = generated_layout(board_named("isthmus"))

    def side(key: str, sea: str) -> float:
        return math.dist(layout.point(key), layout.point(sea))

    assert side("ist/nc", "nor") < side("ist/sc", "nor")
    assert side("ist/sc", "sou") < side("ist/nc", "sou")


# -- the powers of a variant --------------------------------------------------------------------
def test_the_powers_of_a_variant_have_colours_and_a_legend_of_their_own():
    board = board_named("isthmus")
    colours = power_colours(board.powers)
    assert list(colours) == list(board.powers)
    assert len(set(colours.values())) == len(colours) and OTHER_COLOUR not in colours.values()
    assert token("North Kingdom", board.powers) == "north-kingdom"
    root = ET.fromstring(board_svg(Scene(Position.opening(board)), whole=True))
    for g in groups(root, "unit", "data-place"):
        unit = Position.opening(board).unit_in(g.get("data-place").partition("/")[0])
        assert token(unit.power, board.powers) in classes(g)
        badge = next(e for e in g if e.tag in (f"{NS}circle", f"{NS}path"))
        assert badge.get("fill") == colour(unit.power, board.powers)
    legend = next(g for g in root.iter(f"{NS}g") if "legend" in classes(g))
    texts = [t.text for t in legend.iter(f"{NS}text")]
    assert set(board.powers) <= set(texts)
    assert not {"Austria", "England"} & set(texts)
    ids = {m.get("id") for m in root.iter(f"{NS}marker")}
    assert {f"head-{token(p, board.powers)}" for p in board.powers} <= ids


def test_many_powers_get_distinct_colours():
    powers = (*sorted(f"Power {n}" for n in range(40)), "France")
    colours = power_colours(powers)
    assert colours["France"] == "#2f9bd6"  # a standard power keeps its colour
    assert len(set(colours.values())) == len(powers)
    assert power_colours(powers) == power_colours(tuple(powers))
    for value in colours.values():
        red, green, blue = (int(value[i : i + 2], 16) for i in (1, 3, 5))
        assert 0.2126 * red + 0.7152 * green + 0.0722 * blue < 190, value  # white text reads
