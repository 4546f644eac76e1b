"""Every DATC case drawn and measured from its SVG: no order's line, arrow head, bar, dot,
ring or cross lies on a province's label or a unit's letter, and the crop shows each
province whole or not at all. The measure is written here from the SVG alone (the style
sheet's stroke widths, the markers' definitions, the labels' font size and anchor), and is
shown to catch a misplaced element."""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import cache

import pytest
from conftest import ROOT, slow

import solver
from solver.exploring.scenes import case_scenes
from solver.render import board_drawing as drawing
from solver.render import route
from solver.render.board_drawing import Scene, board_svg
from topology.extents import label_width

NS = "{http://www.w3.org/2000/svg}"
Box = tuple[float, float, float, float]  # left, top, right, bottom
Point = tuple[float, float]
WIDTHS = {"move": 3.5, "retreat": 3.5, "support": 2.0, "option": 1.6, "ring": 2.5, "x": 3.0}
"""Stroke widths, as the style sheet gives them (solver/render/style.py)."""


def classes(e: ET.Element) -> set[str]:
    return set(e.get("class", "").split())


# -- plane geometry ---------------------------------------------------------------------------
def text_box(e: ET.Element, size: float) -> Box:
    """Bold capitals of ``size`` centred on x, the baseline at y, as wide as
    `label_width` says (at least as wide as DejaVu Sans Bold draws them)."""
    x, y, half = float(e.get("x")), float(e.get("y")), label_width(e.text, size) / 2
    return (x - half, y - 0.76 * size, x + half, y + 0.15 * size)


def point_to_box(p: Point, box: Box) -> float:
    dx = max(box[0] - p[0], 0.0, p[0] - box[2])
    dy = max(box[1] - p[1], 0.0, p[1] - box[3])
    return math.hypot(dx, dy)


def point_to_segment(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    share = 0.0
    if dx or dy:
        share = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.dist(p, (a[0] + share * dx, a[1] + share * dy))


def crosses(a: Point, b: Point, box: Box) -> bool:
    """Does the segment pass through the box (clipped against its four sides)?"""
    low, high = 0.0, 1.0
    for step, room in (
        (a[0] - b[0], a[0] - box[0]),
        (b[0] - a[0], box[2] - a[0]),
        (a[1] - b[1], a[1] - box[1]),
        (b[1] - a[1], box[3] - a[1]),
    ):
        if step == 0:
            if room < 0:
                return False
        elif step < 0:
            low = max(low, room / step)
        else:
            high = min(high, room / step)
    return low <= high


def segment_to_box(a: Point, b: Point, box: Box) -> float:
    if crosses(a, b, box):
        return 0.0
    corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
    return min(
        point_to_box(a, box),
        point_to_box(b, box),
        *(point_to_segment(c, a, b) for c in corners),
    )


def polygon_meets_box(polygon: list[Point], box: Box) -> bool:
    """A convex polygon and a box overlap unless one of their sides' normals separates them."""
    corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
    axes = [(1.0, 0.0), (0.0, 1.0)]
    axes += [
        (b[1] - a[1], a[0] - b[0]) for a, b in zip(polygon, polygon[1:] + polygon[:1], strict=False)
    ]
    for nx, ny in axes:
        mine = [nx * x + ny * y for x, y in polygon]
        theirs = [nx * x + ny * y for x, y in corners]
        if max(mine) <= min(theirs) or max(theirs) <= min(mine):
            return False
    return True


# -- what the SVG draws -----------------------------------------------------------------------
def path_lines(d: str) -> list[list[Point]]:
    """The subpaths of path data (absolute M, L and C), curves followed closely."""
    tokens = re.findall(r"[MLC]|-?\d+(?:\.\d+)?", d)
    lines: list[list[Point]] = []
    command, numbers = "", []
    for token in [*tokens, "M"]:
        if token in "MLC":
            pairs = [(numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2)]
            if command == "M":
                lines.append(pairs[:1])
                lines[-1] += pairs[1:]
            elif command == "L":
                lines[-1] += pairs
            elif command == "C":
                for n in range(0, len(pairs), 3):
                    p0, (p1, p2, p3) = lines[-1][-1], pairs[n : n + 3]
                    lines[-1] += [bezier(p0, p1, p2, p3, i / 32) for i in range(1, 33)]
            command, numbers = token, []
        else:
            numbers.append(float(token))
    return lines


def bezier(p0: Point, p1: Point, p2: Point, p3: Point, t: float) -> Point:
    s = 1 - t
    return tuple(
        s**3 * a + 3 * s * s * t * b + 3 * s * t * t * c + t**3 * e
        for a, b, c, e in zip(p0, p1, p2, p3, strict=False)
    )


def end_heading(d: str) -> tuple[Point, Point]:
    """The last point of path data and the direction the path arrives in."""
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
    points = [(numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2)]
    end = points[-1]
    before = next((p for p in reversed(points[:-1]) if math.dist(p, end) > 1e-6), None)
    if before is None:
        return end, (1.0, 0.0)
    length = math.dist(before, end)
    return end, ((end[0] - before[0]) / length, (end[1] - before[1]) / length)


def marker_outline(marker: ET.Element, end: Point, heading: Point, width: float) -> list[Point]:
    """The outline of a <marker> placed at the end of a path with stroke ``width``: its shape
    in viewBox units, the reference point on the end, scaled to fit markerWidth x
    markerHeight stroke widths, turned along the path if orient is auto."""
    _vx, _vy, vw, vh = map(float, marker.get("viewBox").split())
    scale = min(
        float(marker.get("markerWidth")) * width / vw,
        float(marker.get("markerHeight")) * width / vh,
    )
    rx, ry = float(marker.get("refX")), float(marker.get("refY"))
    shape = marker[0]
    tag = shape.tag.removeprefix(NS)
    if tag == "path":
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", shape.get("d"))]
        local = [(numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2)]
    elif tag == "rect":
        x, y = float(shape.get("x")), float(shape.get("y"))
        w, h = float(shape.get("width")), float(shape.get("height"))
        local = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    else:  # a circle and its stroke
        cx, cy = float(shape.get("cx")), float(shape.get("cy"))
        r = float(shape.get("r")) + float(shape.get("stroke-width", 0)) / 2
        local = [
            (cx + r * math.cos(a / 4 * math.pi), cy + r * math.sin(a / 4 * math.pi))
            for a in range(8)
        ]
        local = [
            (cx + (x - cx) / math.cos(math.pi / 8), cy + (y - cy) / math.cos(math.pi / 8))
            for x, y in local
        ]
    ax, ay = heading if marker.get("orient") == "auto" else (1.0, 0.0)
    placed = []
    for x, y in local:
        f, s = (x - rx) * scale, (y - ry) * scale
        placed.append((end[0] + f * ax - s * ay, end[1] + f * ay + s * ax))
    return placed


def ring_line(e: ET.Element) -> list[Point]:
    """The outline of a ring (an ellipse, a circle or a rectangle) as a closed line."""
    tag = e.tag.removeprefix(NS)
    if tag == "rect":
        x, y, w, h = (float(e.get(k)) for k in ("x", "y", "width", "height"))
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
    cx, cy = float(e.get("cx")), float(e.get("cy"))
    rx = float(e.get("rx", e.get("r", 0)))
    ry = float(e.get("ry", e.get("r", 0)))
    return [
        (cx + rx * math.cos(a * math.pi / 24), cy + ry * math.sin(a * math.pi / 24))
        for a in range(49)
    ]


Drawn = tuple[str, list[list[Point]], float, list[list[Point]], Point | None]


def covers(root: ET.Element) -> Iterator[Drawn]:
    """What orders and retreat options draw on the map: (what, lines, stroke width, filled
    shapes, the centre of the unit a disband's cross is on)."""
    markers = {m.get("id"): m for m in root.iter(f"{NS}marker")}
    for g in root.iter(f"{NS}g"):
        if "order" in classes(g) and "data-order" in g.attrib:
            kind = next(
                k
                for k in ("move", "retreat", "support", "convoy", "hold", "disband", "build")
                if k in classes(g)
            )
            for e in g:
                what = f"{g.get('data-order')} ({e.get('class')})"
                if "stem" in classes(e):
                    width = WIDTHS[kind]
                    shapes = []
                    if e.get("marker-end"):
                        marker = markers[e.get("marker-end")[5:-1]]
                        end, heading = end_heading(e.get("d"))
                        shapes.append(marker_outline(marker, end, heading, width))
                    yield what, path_lines(e.get("d")), width, shapes, None
                elif "ring" in classes(e):
                    yield what, [ring_line(e)], WIDTHS["ring"], [], None
                elif "x" in classes(e):
                    lines = path_lines(e.get("d"))
                    corners = [p for line in lines for p in line]
                    centre = (
                        sum(x for x, _ in corners) / len(corners),
                        sum(y for _, y in corners) / len(corners),
                    )
                    yield what, lines, WIDTHS["x"], [], centre if kind == "disband" else None
        if "retreat-options" in classes(g):
            for e in g.iter(f"{NS}path"):
                yield (
                    f"retreat option of {g.get('data-place')}",
                    path_lines(e.get("d")),
                    WIDTHS["option"],
                    [],
                    None,
                )


def readable(root: ET.Element) -> list[tuple[str, Box]]:
    """Every province's label and unit's letter, with its box."""
    found = []
    for g in root.iter(f"{NS}g"):
        if "province" in classes(g) and "data-province" in g.attrib:
            text = g.find(f"{NS}text")
            found.append((f"label {text.text}", text_box(text, 12)))
        if "unit" in classes(g) and "data-place" in g.attrib:
            text = g.find(f"{NS}text")
            found.append((f"letter {text.text} of {g.get('data-place')}", text_box(text, 10)))
    return found


def covered(root: ET.Element) -> list[str]:
    """Each label or letter an order's line, marker, ring or cross lies on."""
    problems = []
    marks = readable(root)
    for what, lines, width, shapes, own in covers(root):
        for name, box in marks:
            if own and name.startswith("letter") and point_to_box(own, box) == 0:
                continue  # a disbanded unit is crossed out
            hit = any(
                segment_to_box(a, b, box) < width / 2
                for line in lines
                for a, b in itertools.pairwise(line)
            ) or any(polygon_meets_box(shape, box) for shape in shapes)
            if hit:
                problems.append(f"{what} covers {name} {tuple(round(v, 1) for v in box)}")
    return problems


def shown(root: ET.Element) -> list[Box]:
    """The parts of the map's view the map is drawn in: the view less what its clip path
    leaves out."""
    view = next(s for s in root.iter(f"{NS}svg") if "map" in classes(s))
    x, y, w, h = map(float, view.get("viewBox").split())
    parts = [(x, y, x + w, y + h)]
    clipped = next((g for g in view.iter(f"{NS}g") if g.get("clip-path")), None)
    if clipped is not None:
        ident = clipped.get("clip-path")[5:-1]
        clip = next(c for c in root.iter(f"{NS}clipPath") if c.get("id") == ident)
        rects = [tuple(float(r.get(k)) for k in ("x", "y", "width", "height")) for r in clip]
        parts = [
            (max(x, rx), max(y, ry), min(x + w, rx + rw), min(y + h, ry + rh))
            for rx, ry, rw, rh in rects
        ]
    return [p for p in parts if p[0] < p[2] and p[1] < p[3]]


def shape_box(e: ET.Element) -> Box:
    f = {k: float(v) for k, v in e.attrib.items() if re.fullmatch(r"-?[\d.]+", v)}
    tag = e.tag.removeprefix(NS)
    if tag == "rect":
        return (f["x"], f["y"], f["x"] + f["width"], f["y"] + f["height"])
    rx, ry = f.get("rx", f.get("r")), f.get("ry", f.get("r"))
    return (f["cx"] - rx, f["cy"] - ry, f["cx"] + rx, f["cy"] + ry)


def less(box: Box, parts: list[Box]) -> list[Box]:
    """What of ``box`` no part covers."""
    left = [box]
    for p in parts:
        rest = []
        for b in left:
            if not (p[0] < b[2] and b[0] < p[2] and p[1] < b[3] and b[1] < p[3]):
                rest.append(b)
                continue
            if b[1] < p[1]:
                rest.append((b[0], b[1], b[2], p[1]))
            if p[3] < b[3]:
                rest.append((b[0], p[3], b[2], b[3]))
            top, bottom = max(b[1], p[1]), min(b[3], p[3])
            if b[0] < p[0]:
                rest.append((b[0], top, p[0], bottom))
            if p[2] < b[2]:
                rest.append((p[2], top, b[2], bottom))
        left = rest
    return [b for b in left if b[2] - b[0] > 0.05 and b[3] - b[1] > 0.05]


def cut(root: ET.Element) -> list[str]:
    """Each place the view shows in part: some of its tile, label, home ring or centre dot
    inside what the map shows, some outside."""
    parts = shown(root)
    places: dict[str, list[Box]] = {}
    for g in root.iter(f"{NS}g"):
        name = g.get("data-province") if "province" in classes(g) else g.get("data-place")
        if not ({"province", "coast-point"} & classes(g)) or name is None:
            continue
        for e in g:
            tag = e.tag.removeprefix(NS)
            if tag == "text" and "province" in classes(g):
                places.setdefault(name, []).append(text_box(e, 12))
            elif tag in ("rect", "ellipse", "circle"):
                places.setdefault(name, []).append(shape_box(e))
    for dot in root.iter(f"{NS}circle"):
        if "centre" in classes(dot) and "data-province" in dot.attrib:
            places.setdefault(dot.get("data-province"), []).append(shape_box(dot))
    problems = []
    for name, boxes in places.items():
        outside = [b for box in boxes for b in less(box, parts)]
        whole = sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes)
        hidden = sum((b[2] - b[0]) * (b[3] - b[1]) for b in outside)
        if outside and hidden < whole - 0.01:
            problems.append(f"{name} is cut: {[tuple(round(v, 1) for v in b) for b in outside]}")
    return problems


# -- the DATC ---------------------------------------------------------------------------------
@cache
def datc_scenes() -> list[tuple[str, Scene]]:
    found = []
    for path in sorted((ROOT / "cases" / "datc").glob("*.cases")):
        for case in solver.read_cases(path):
            for number, scene in enumerate(case_scenes(case, solver.rule_book(case.edition)), 1):
                found.append((f"{case.id} block {number}", scene))
    return found


def problems_of(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return covered(root) + cut(root)


@slow
def test_every_datc_case_is_drawn_with_labels_and_letters_clear_and_no_province_cut():
    scenes = datc_scenes()
    assert len({label.split()[0] for label, _ in scenes}) == 176
    problems = [
        f"{label}{' (whole map)' if whole else ''}: {p}"
        for label, scene in scenes
        for whole in (False, True)
        for p in problems_of(board_svg(scene, whole=whole))
    ]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:20])


# -- the measure catches what it is for ---------------------------------------------------------
SNIPPET = """<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300">
<defs><marker id="bar" viewBox="0 0 4 12" refX="2" refY="6" markerWidth="2" markerHeight="5"
orient="auto" markerUnits="strokeWidth"><rect x="0" y="0" width="4" height="12"/></marker></defs>
<svg class="map" x="0" y="0" width="400" height="300" viewBox="{view}">
<g class="provinces">
<g class="province land" data-province="bur"><rect class="shape" x="173" y="84" width="54"
height="32" rx="9"/><text x="200" y="95">BUR</text></g>
</g>
<g class="units"><g class="unit army france" data-place="par"><circle class="badge" cx="100"
cy="111" r="9.5"/><text x="100" y="114.5">A</text></g></g>
<g class="orders"><g class="order move fails" data-order="A Paris - Burgundy">
<path class="stem" d="{d}" marker-end="url(#bar)"/></g></g>
</svg></svg>"""


@pytest.mark.parametrize(
    ("d", "view", "found"),
    [
        ("M111 111 L188 111", "0 0 400 300", []),  # below the label: clear
        ("M111 111 L186 92", "0 0 400 300", ["covers label BUR"]),  # its bar on the label
        ("M111 106 C150 40 200 40 200 98", "0 0 400 300", ["covers label BUR"]),  # its line
        ("M100 130 L100 160", "0 0 400 300", []),
        ("M100 125 L100 102", "0 0 400 300", ["covers letter A of par"]),  # back over the A
        ("M111 111 L188 111", "0 0 210 300", ["bur is cut"]),  # the view ends inside BUR
        ("M111 111 L188 111", "0 0 170 300", []),  # ... or before it
    ],
)
def test_the_measure_finds_a_misplaced_element_in_a_hand_made_picture(d, view, found):
    problems = problems_of(SNIPPET.format(d=d, view=view))
    assert len(problems) == len(found), problems
    for problem, words in zip(problems, found, strict=False):
        assert words in problem


DISBAND = """<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300">
<svg class="map" x="0" y="0" width="400" height="300" viewBox="0 0 400 300">
<g class="units"><g class="unit army france" data-place="bur"><circle class="badge" cx="200"
cy="111" r="9.5"/><text x="200" y="114.5">A</text></g><g class="unit army germany
retreating" data-place="bur"><circle class="badge" cx="216" cy="121" r="9.5"/><text x="216"
y="124.5">A</text></g></g>
<g class="orders"><g class="order disband succeeds" data-order="A Burgundy Disband">
<path class="x" d="M{a} {b} L{c} {d} M{a} {d} L{c} {b}"/></g></g>
</svg></svg>"""


@pytest.mark.parametrize(("size", "found"), [(9, 0), (11, 1)])
def test_a_disbands_cross_may_lie_on_its_own_letter_only(size, found):
    """The cross on the waiting unit at (216, 121) crosses out its letter; one as wide as
    the unit's badge keeps off the letter of the unit beside it, a wider one does not."""
    x, y = 216, 121
    svg = DISBAND.format(a=x - size, b=y - size, c=x + size, d=y + size)
    problems = problems_of(svg)
    assert len(problems) == found, problems
    assert all("covers letter A of bur (195.8" in p for p in problems)


@cache
def scene_of(case_id: str) -> Scene:
    return next(scene for label, scene in datc_scenes() if label == f"{case_id} block 1")


def test_the_measure_finds_lines_drawn_straight_through_labels(monkeypatch):
    """The lines of 6.F.14 and 6.G.3 drawn straight, as they once were, cross ENG's label."""
    monkeypatch.setattr(route, "TRIES", [(0.0, 0, 0, 0)])
    monkeypatch.setattr(route, "_waypoints", lambda a, b: [])
    for case_id in ("6.F.14", "6.G.3"):
        problems = problems_of(board_svg(scene_of(case_id)))
        assert any("covers label ENG" in p for p in problems), (case_id, problems)


def test_the_measure_finds_a_ring_on_a_label(monkeypatch):
    """With units drawn where they once stood, higher in their province, a convoy's ring
    touches the label above it."""
    monkeypatch.setattr(drawing, "UNIT_DY", 6.0)
    problems = problems_of(board_svg(scene_of("6.F.14")))
    assert any("(ring) covers label ENG" in p for p in problems), problems


def test_the_measure_finds_a_province_the_crop_cuts(monkeypatch):
    monkeypatch.setattr(drawing, "clip_path", lambda *args: False)
    problems = problems_of(board_svg(scene_of("6.F.14")))
    assert any(" is cut" in p for p in problems), problems
