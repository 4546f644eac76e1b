"""Board pictures read back from the SVG: the map, and for every phase of every standard case
the units, orders, outcomes and retreats; then `dipsat render` as a user runs it."""

from __future__ import annotations

import itertools
import re
import struct
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from functools import cache

import pytest
from conftest import ROOT, all_cases, played, slow, under_hash_seeds
from typer.testing import CliRunner

from solver.cli import app
from solver.exploring.scenes import case_scenes
from solver.formats.rulebooks import rule_book
from solver.formats.savegame import save
from solver.render.board_drawing import board_svg
from solver.render.style import NEUTRAL_CENTRE, POWER_COLOURS, STYLE, colour, power_tokens
from topology import standard
from topology.layout import layout_of

NS = "{http://www.w3.org/2000/svg}"
F_CASES = str(ROOT / "cases" / "datc" / "6F.cases")
BOARD = standard()
POWERS = frozenset(p.lower() for p in BOARD.powers)
RESULTS = {
    "succeeds",
    "fails",
    "given",
    "cut",
    "available",
    "disrupted",
    "stands",
    "illegal",
    "invalid",
    "pending",
}
KINDS = {
    "Hold": "hold",
    "Move": "move",
    "SupportHold": "support-hold",
    "SupportMove": "support-move",
    "Convoy": "convoy",
    "Retreat": "retreat",
    "Disband": "disband",
    "Build": "build",
}


def classes(e: ET.Element) -> set[str]:
    return set(e.get("class", "").split())


def groups(root: ET.Element, cls: str, attribute: str) -> list[ET.Element]:
    """The `g` elements with class `cls` that carry `attribute` (legend samples do not)."""
    return [g for g in root.iter(f"{NS}g") if cls in classes(g) and attribute in g.attrib]


@cache
def scenes():
    """(label, scene, parsed SVG) for each phase block of every case on one board (the
    standard board's and the variants')."""
    drawn = []
    for case in all_cases():
        if case.multiverse:
            continue
        for number, scene in enumerate(case_scenes(case, rule_book(case.edition)), start=1):
            drawn.append((f"{case.id} block {number}", scene, ET.fromstring(board_svg(scene))))
    return drawn


def check_scenes(problems_of) -> None:
    problems = [
        f"{label}: {p}" for label, scene, root in scenes() for p in problems_of(scene, root)
    ]
    assert not problems, "\n".join(problems[:10])


@slow
def test_every_standard_case_is_drawn():
    assert len({label.split()[0] for label, _, _ in scenes()}) >= 176


# -- the map ----------------------------------------------------------------------------------
def map_problems(scene, root):
    board = scene.position.map  # the standard board, or a variant's
    drawn = groups(root, "province", "data-province")
    counts = Counter(g.get("data-province") for g in drawn)
    if counts != Counter(list(board.provinces)):
        wrong = {code: n for code, n in counts.items() if n != 1}
        missing = set(board.provinces) - counts.keys()
        yield f"provinces drawn more than once: {wrong}, never: {sorted(missing)}"
    owners = dict(scene.position.centres)
    for g in drawn:
        code = g.get("data-province")
        prov = board.provinces[code]
        kinds = classes(g) & {"land", "coast", "sea"}
        if kinds != {prov.kind.value}:
            yield f"{code}: classes {kinds}, expected {prov.kind.value}"
        if ("centre" in classes(g)) != prov.is_centre:
            yield f"{code}: 'centre' class {'centre' in classes(g)}, expected {prov.is_centre}"
        dots = [
            c
            for c in root.iter(f"{NS}circle")
            if "centre" in classes(c) and c.get("data-province") == code
        ]
        rings = [c for c in g.iter(f"{NS}circle") if "home" in classes(c)]
        if len(dots) != prov.is_centre:
            yield f"{code}: {len(dots)} centre dots"
        elif dots and dots[0].get("fill") != (
            colour(owners[code], board.powers) if owners.get(code) else NEUTRAL_CENTRE
        ):
            yield f"{code}: centre dot {dots[0].get('fill')}, owner {owners.get(code)}"
        elif dots and ("neutral" in classes(dots[0])) == bool(owners.get(code)):
            yield f"{code}: centre dot classes {classes(dots[0])}, owner {owners.get(code)}"
        home = [colour(prov.home, board.powers)] if prov.home else []
        if [r.get("stroke") for r in rings] != home:
            yield f"{code}: home rings {[r.get('stroke') for r in rings]}, home {prov.home}"
    coasts = Counter(g.get("data-place") for g in groups(root, "coast-point", "data-place"))
    if coasts != Counter(str(loc) for loc in board.locations() if loc.coast):
        yield f"split coasts drawn: {dict(coasts)}"


@slow
def test_the_map_has_every_province_coast_and_centre_once():
    check_scenes(map_problems)


# -- units ------------------------------------------------------------------------------------
def unit_key(g: ET.Element, tokens: frozenset[str] = POWERS) -> tuple:
    power = classes(g) & tokens
    kind = classes(g) & {"army", "fleet"}
    return g.get("data-place"), *sorted(power), *sorted(kind), "retreating" in classes(g)


def unit_problems(scene, root):
    position = scene.position
    token = power_tokens(position.map.powers)  # a power's class: 'france', 'north'
    expected = Counter(
        (str(u.location), token[u.power], "army" if u.type.value == "A" else "fleet", False)
        for u in position.units
    )
    expected += Counter(
        (
            str(d.unit.location),
            token[d.unit.power],
            "army" if d.unit.type.value == "A" else "fleet",
            True,
        )
        for d in position.dislodged
    )
    drawn = groups(root, "unit", "data-place")
    keys = [unit_key(g, frozenset(token.values())) for g in drawn]
    if Counter(keys) != expected:
        yield f"units drawn {sorted(keys)}, expected {sorted(expected)}"
    fates = {str(r.unit.location): r for r in scene.retreating}
    for g in drawn:
        place, r = g.get("data-place"), fates.get(g.get("data-place"))
        if "retreating" in classes(g):  # a retreat phase: the fate is the waiting unit's
            if ("destroyed" in classes(g)) != (r is not None and not r.options):
                yield f"retreating unit {place}: destroyed class {'destroyed' in classes(g)}"
            continue
        if position.dislodged:  # the unit that dislodged it stands there: no fate of its own
            r = None
        if ("dislodged" in classes(g)) != (r is not None):
            yield f"unit {place}: dislodged class {'dislodged' in classes(g)}"
        if ("destroyed" in classes(g)) != (r is not None and not r.options):
            yield f"unit {place}: destroyed class {'destroyed' in classes(g)}"


@slow
def test_every_unit_is_drawn_once_in_its_powers_class():
    check_scenes(unit_problems)


@slow
def test_the_picture_is_cropped_around_the_units_and_orders():
    def problems(scene, root):
        layout = layout_of(scene.position.map)
        view = next(s for s in root.iter(f"{NS}svg") if "map" in classes(s))
        x, y, w, h = map(float, view.get("viewBox").split())
        for unit in scene.position.units:
            px, py = layout.point(str(unit.location))
            if not (x <= px <= x + w and y <= py <= y + h):
                yield f"{unit} at {px},{py} outside the view {x},{y},{w},{h}"

    check_scenes(problems)
    drawn = scenes()
    for board in ("standard", "pure"):  # a drawn board, and one laid out by dipsat
        _, scene, _ = next(s for s in drawn if s[1].position.map.name == board)
        whole = ET.fromstring(board_svg(scene, whole=True))
        view = next(s for s in whole.iter(f"{NS}svg") if "map" in classes(s))
        layout = layout_of(scene.position.map)
        assert [float(v) for v in view.get("viewBox").split()] == [
            0,
            0,
            layout.width,
            layout.height,
        ]


# -- orders, outcomes and retreats ------------------------------------------------------------
def order_key(g: ET.Element) -> tuple:
    return (
        g.get("data-order"),
        *sorted(classes(g) & RESULTS),
        *sorted(classes(g) & set(KINDS.values())),
        "dislodged" in classes(g),
    )


def order_problems(scene, root):
    outcomes = scene.outcomes or [None] * len(scene.orders)
    expected = Counter()
    for given, outcome in zip(scene.orders, outcomes, strict=True):
        if not hasattr(given.order, "unit"):
            continue  # a waived build has no place on the map
        result = outcome.result.replace(" ", "-") if outcome else "pending"
        if result not in RESULTS:
            yield f"{given}: result {result!r} has no class"
        kind = KINDS[type(given.order).__name__]
        expected[(given.order_text, result, kind, bool(outcome and outcome.dislodged))] += 1
    drawn = Counter(map(order_key, groups(root, "order", "data-order")))
    if drawn != expected:
        yield f"orders drawn {sorted(drawn - expected)}, missing {sorted(expected - drawn)}"


@slow
def test_every_order_is_drawn_with_the_class_of_its_outcome():
    check_scenes(order_problems)
    results = {r for _, scene, _ in scenes() for r in (o.result for o in scene.outcomes)}
    assert results >= RESULTS - {"pending"}


def retreat_problems(scene, root):
    drawn = {g.get("data-place"): g for g in groups(root, "retreat-options", "data-place")}
    expected = {str(r.unit.location): r for r in scene.retreating}
    if drawn.keys() != expected.keys():
        yield f"retreat options drawn for {sorted(drawn)}, expected {sorted(expected)}"
    for place, g in drawn.items():
        arrows = [p for p in g.iter(f"{NS}path") if "option" in classes(p)]
        if place in expected and len(arrows) != len(expected[place].options):
            yield f"{place}: {len(arrows)} arrows, {len(expected[place].options)} options"
    for given, outcome in zip(scene.orders, scene.outcomes or (), strict=False):
        if outcome.dislodged and str(given.order.unit.place.province) not in {
            r.unit.province for r in scene.retreating
        }:
            yield f"{given}: dislodged but not retreating"


@slow
def test_dislodged_units_are_drawn_with_their_retreat_options():
    check_scenes(retreat_problems)
    assert sum(len(scene.retreating) for _, scene, _ in scenes()) > 50


@slow
def test_a_unit_waiting_to_retreat_has_the_red_edge_of_a_dislodged_one():
    waiting = [
        g
        for _, scene, root in scenes()
        if scene.position.dislodged
        for g in groups(root, "unit", "data-place")
        if "retreating" in classes(g)
    ]
    assert len(waiting) > 20
    rule = re.search(r"([^}\n]*)\{stroke:#d0312d;stroke-width:3\}", STYLE)
    assert rule is not None
    assert {".unit.dislodged .badge", ".unit.retreating .badge"} <= set(rule.group(1).split(","))


def test_every_power_has_a_colour():
    assert POWER_COLOURS.keys() == set(BOARD.powers)
    assert len(set(POWER_COLOURS.values())) == len(POWER_COLOURS)


_DRAW = """
import sys
from solver.formats.cases import read_cases
from solver.render.board_drawing import board_svg
from solver.exploring.scenes import case_scenes
from solver.formats.rulebooks import rule_book
for name in ("6F", "6H"):
    for case in read_cases(f"cases/datc/{name}.cases"):
        for scene in case_scenes(case, rule_book(case.edition)):
            sys.stdout.write(board_svg(scene))
            sys.stdout.write(board_svg(scene, whole=True))
"""


@slow
def test_pictures_do_not_depend_on_the_hash_seed():
    first, second = under_hash_seeds(_DRAW, "0", "9876")
    assert first.count(b"<svg ") > 100
    assert first == second


# -- dipsat render ----------------------------------------------------------------------------
def render(*args):
    return CliRunner().invoke(app, ["render", *map(str, args)])


def svg_of(path) -> ET.Element:
    return ET.fromstring(path.read_text(encoding="utf-8"))


def test_render_writes_svg_of_the_chosen_case(tmp_path):
    target = tmp_path / "pandin.svg"
    done = render(F_CASES, "--case", "6.F.16", "--out", target)
    assert done.exit_code == 0, done.output
    assert done.stdout == f"wrote {target}\n"
    root = svg_of(target)
    assert "board" in classes(root)
    orders = {g.get("data-order"): classes(g) for g in groups(root, "order", "data-order")}
    assert "disrupted" in orders["F English Channel Convoys A Brest - London"]
    whole = tmp_path / "whole.svg"
    assert render(F_CASES, "--case", "6.F.16", "--whole", "--out", whole).exit_code == 0
    view = next(s for s in svg_of(whole).iter(f"{NS}svg") if "map" in classes(s))
    assert view.get("viewBox") == "0 0 1100 900"


def test_render_writes_a_png(tmp_path):
    target = tmp_path / "pandin.png"
    done = render(F_CASES, "--case", "6.F.16", "--out", target)
    assert done.exit_code == 0, done.output
    data = target.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert 1200 <= width <= 4000 and 600 <= height <= 4000


def test_png_without_cairo_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if libcairo were not installed
    target = tmp_path / "pandin.png"
    done = render(F_CASES, "--case", "6.F.16", "--out", target)
    assert done.exit_code == 2
    assert f"{target}: PNG pictures need the Cairo library" in done.output
    assert not target.exists()


def test_render_draws_a_saved_game_phase_by_phase(tmp_path):
    game = tmp_path / "game.json"
    save(played(3), game)
    target = tmp_path / "now.svg"
    assert render(game, "--out", target).exit_code == 0
    results = {
        r for g in groups(svg_of(target), "order", "data-order") for r in classes(g) & RESULTS
    }
    assert results == {"pending"}
    assert render(game, "--step", 2, "--out", target).exit_code == 0
    results = {
        r for g in groups(svg_of(target), "order", "data-order") for r in classes(g) & RESULTS
    }
    assert "pending" not in results and "succeeds" in results


def test_render_draws_multiverse_cases_and_games(tmp_path):
    target = tmp_path / "mv.svg"
    done = render(ROOT / "cases/mdatc/3A-letters.cases", "--case", "3.A.2", "--out", target)
    assert done.exit_code == 0, done.output
    assert len([s for s in svg_of(target).iter(f"{NS}svg") if "board" in classes(s)]) >= 1
    game = tmp_path / "mv.json"
    assert CliRunner().invoke(app, ["game", "new", str(game), "--multiverse"]).exit_code == 0
    assert render(game, "--out", target).exit_code == 0
    assert groups(svg_of(target), "unit", "data-place")


def _files(tmp_path):
    (tmp_path / "cut.json").write_text('{"format": "dipsat-game", ', encoding="utf-8")
    (tmp_path / "odd.json").write_text('{"format": "dipsat-game", "version": 1}', encoding="utf-8")
    save(played(1), tmp_path / "game.json")
    return tmp_path


@pytest.mark.parametrize(
    ("args", "named", "says"),
    [
        ([F_CASES, "--case", "6.F.16", "--out", "{tmp}/x.jpg"], "x.jpg", ".svg"),
        ([F_CASES, "--case", "6.F.16", "--step", "2"], "6F.cases", "--step 2"),
        ([F_CASES, "--case", "6.F.16", "--step", "0"], "6F.cases", "--step 0"),
        ([F_CASES, "--case", "6.F.99"], "6F.cases", "no case '6.F.99'"),
        ([F_CASES], "6F.cases", "choose one with --case"),
        (["{tmp}/missing.cases"], "missing.cases", "cannot read"),
        (["{tmp}/cut.json"], "cut.json", "not valid JSON"),
        (["{tmp}/odd.json"], "odd.json", ""),
        (["{tmp}/game.json", "--step", "5"], "game.json", "1 phase(s) played"),
        ([F_CASES, "--case", "6.F.16", "--rules", "1066"], "6F.cases", "1066"),
    ],
)
def test_render_reports_bad_input_in_one_line(tmp_path, args, named, says):
    folder = _files(tmp_path)
    args = [a.replace("{tmp}", str(folder)) for a in args]
    if "--out" not in args:
        args += ["--out", str(folder / "out.svg")]
    done = render(*args)
    assert done.exit_code == 2, done.output
    assert len(done.stderr.strip().splitlines()) == 1
    assert named in done.stderr and says in done.stderr
    assert not (folder / "out.svg").exists()


@slow
def test_render_draws_every_phase_of_a_recorded_game(tmp_path):
    """A real game in the MILA format, phase by phase: each phase's orders drawn with the
    outcome our adjudication gives them; retreat phases rebuilt as `dipsat replay` does."""
    from solver.formats.mila import read_game

    path = ROOT / "tests" / "data" / "games" / "game_433761_ENGLAND_AG.json"
    game = read_game(path)
    phases = game.phases[:-1]
    target = tmp_path / "phase.svg"
    kinds = Counter()
    for number, here in enumerate(phases, start=1):
        done = render(path, "--step", number, "--out", target)
        assert done.exit_code == 0, (here.name, done.output)
        root = svg_of(target)
        assert here.name in next(root.iter(f"{NS}text")).text
        drawn = [classes(g) for g in groups(root, "order", "data-order")]
        assert len(drawn) == len(here.orders), here.name
        assert all(c & (RESULTS - {"pending"}) for c in drawn), here.name
        kinds[here.phase.kind.value] += 1
    assert kinds["movement"] and kinds["retreat"] and kinds["adjustment"]
    assert render(path, "--out", target).exit_code == 0  # the last phase by default
    done = render(path, "--step", "f1902m", "--out", target)  # a phase by its name
    assert done.exit_code == 0, done.output
    assert "F1902M, phase 5 of" in next(svg_of(target).iter(f"{NS}text")).text
    done = render(path, "--step", "X1902M", "--out", target)
    assert done.exit_code == 2
    assert "expected a number or one of its phases (S1901M ... " in done.output
    done = render(path, "--step", len(phases) + 1, "--out", target)
    assert done.exit_code == 2
    assert f"--step {len(phases) + 1}: the game has {len(phases)} phase(s)" in done.output


def test_a_long_order_list_goes_on_in_a_column_beside_the_map(tmp_path):
    """F1902M of a real game has more orders than fit beside the map: they go on in a second
    column, no order split between two, and nothing is drawn below the map."""
    path = ROOT / "tests" / "data" / "games" / "game_433761_ENGLAND_AG.json"
    target = tmp_path / "phase.svg"
    assert render(path, "--step", 5, "--out", target).exit_code == 0
    root = svg_of(target)
    view = next(s for s in root.iter(f"{NS}svg") if "map" in classes(s))
    bottom = float(view.get("y")) + float(view.get("height"))
    assert float(root.get("height")) == bottom
    panel = next(g for g in root.iter(f"{NS}g") if "panel" in classes(g))
    texts = [(float(t.get("x")), float(t.get("y")), t.text) for t in panel.iter(f"{NS}text")]
    assert len({x for x, _, _ in texts}) == 2
    assert all(y < bottom for _, y, _ in texts)
    for (x, _, _), (next_x, _, text) in itertools.pairwise(texts):
        assert x == next_x or not text.startswith("    "), text  # a wrapped line stays
    legend = next(g for g in root.iter(f"{NS}g") if "legend" in classes(g))
    legend_y = float(re.search(r",([\d.]+)\)", legend.get("transform")).group(1))
    assert legend_y + 300 <= bottom
