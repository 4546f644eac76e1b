"""The multiverse grid: every board of every step of the multiverse cases drawn once, with
its provinces, units, the step's orders (and past orders adjudicated again) classed by their
outcome, the forks joined to the board they left."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from conftest import all_cases, first_fast, slow, under_hash_seeds

from solver.exploring.scenes import case_steps, case_svg
from solver.formats.rulebooks import rule_book
from solver.render.multiverse_drawing import grid_element, step_drawing
from solver.render.svg import to_text
from solver.values.orders import timeline_name
from solver.values.rules import DATC_2025

NS = "{http://www.w3.org/2000/svg}"
MULTIVERSE = [c for c in all_cases() if c.multiverse]


def classes(node: ET.Element) -> set[str]:
    return set(node.get("class", "").split())


def groups(root: ET.Element, kind: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if kind in classes(g)]


def drawn(root: ET.Element, cell: ET.Element, kind: str) -> list[ET.Element]:
    """The groups of a kind a cell draws, itself or through a `<use>` of a shared map."""
    by_id = {n.get("id"): n for n in root.iter() if n.get("id")}
    found = groups(cell, kind)
    for use in cell.iter(f"{NS}use"):
        found += groups(by_id[use.get("href")[1:]], kind)
    return found


def board_name(key) -> str:
    return f"{timeline_name(key[0])}@{key[1]}"


def test_there_are_multiverse_cases():
    assert len(MULTIVERSE) >= 20


@pytest.mark.parametrize("case", first_fast(MULTIVERSE, 3), ids=lambda c: c.id)
def test_every_step_is_drawn(case):
    rules = rule_book(case.edition)
    for done in case_steps(case, rules):
        orders, retreating = step_drawing(done)
        root = ET.fromstring(to_text(grid_element(done.after, orders, retreating)))
        cells = {g.get("data-board"): g for g in groups(root, "cell")}
        assert sorted(cells) == sorted(board_name(b.key) for b in done.after.boards)
        for b in done.after.boards:
            cell = cells[board_name(b.key)]
            provinces = Counter(g.get("data-province") for g in drawn(root, cell, "province"))
            assert provinces == Counter(list(b.position.map.provinces)), board_name(b.key)
            units = Counter(g.get("data-place") for g in groups(cell, "unit"))
            wanted = [str(u.location) for u in b.position.units]
            wanted += [str(d.unit.location) for d in b.position.dislodged]
            assert units == Counter(wanted), board_name(b.key)
        forks = {(g.get("data-timeline"), g.get("data-from")) for g in groups(root, "fork")}
        assert forks == {
            (timeline_name(t), board_name(source))
            for t, source in done.after.origins
            if source is not None
        }
        orders = {}
        for g in groups(root, "order"):
            orders.setdefault(g.get("data-order"), []).append(classes(g))
        for outcome in done.outcomes:
            assert any(
                outcome.result in c and "current" in c for c in orders[outcome.given.order_text]
            ), outcome
        for outcome in done.revised:
            assert any(
                outcome.result in c and "revised" in c for c in orders[outcome.given.order_text]
            ), outcome


def test_orders_across_boards_are_drawn_between_them():
    case = next(c for c in MULTIVERSE if c.id == "3.A.2")
    root = ET.fromstring(case_svg(case, rule_book(case.edition)))
    across = [g for g in root.iter(f"{NS}g") if {"orders", "across"} <= classes(g)]
    (layer,) = across
    (support,) = list(layer)
    assert support.get("data-order") == "A a-Munich@1 Supports A a-Munich@0 - a-Tyrolia@0"
    assert {"support", "given", "current"} <= classes(support)
    new = [r for r in root.iter(f"{NS}rect") if "new" in classes(r)]
    assert len(new) == 2  # a@2 and the fork b@1


@slow
def test_a_fork_label_is_not_crossed_by_its_curve():
    """The label's box (12 italic, at most 0.65 em a letter, from its baseline up 0.76 em
    and down 0.25) keeps clear of every point of the dashed curve, 3 wide."""
    forks = 0
    for case in MULTIVERSE:
        root = ET.fromstring(case_svg(case, rule_book(case.edition)))
        for fork in groups(root, "fork"):
            path, text = fork.find(f"{NS}path"), fork.find(f"{NS}text")
            numbers = [float(n) for n in re.findall(r"-?[\d.]+", path.get("d"))]
            p0, p1, p2, p3 = (tuple(numbers[i : i + 2]) for i in range(0, 8, 2))
            x, y = float(text.get("x")), float(text.get("y"))
            box = (x, y - 0.76 * 12, x + 0.65 * 12 * len(text.text), y + 0.25 * 12)
            for i in range(101):
                t, u = i / 100, 1 - i / 100
                px, py = (
                    u**3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t**3 * d
                    for a, b, c, d in zip(p0, p1, p2, p3, strict=True)
                )
                inside = box[0] - 1.5 < px < box[2] + 1.5 and box[1] - 1.5 < py < box[3] + 1.5
                assert not inside, (case.id, text.text, (px, py), box)
            forks += 1
    assert forks >= 10


@slow
def test_the_grid_is_the_same_under_any_hash_seed():
    script = (
        "from conftest import all_cases\n"
        "from solver.exploring.scenes import case_svg\n"
        "from solver.formats.rulebooks import rule_book\n"
        "import sys\n"
        "for c in all_cases():\n"
        "    if c.multiverse:\n"
        "        sys.stdout.write(case_svg(c, rule_book(c.edition)))\n"
    )
    first, second = under_hash_seeds(
        f"import sys; sys.path.insert(0, 'tests')\n{script}", "0", "4242"
    )
    assert first == second
    assert first.count(b"<svg") >= len(MULTIVERSE)


def test_a_saved_multiverse_game_shows_records_and_pending_orders():
    from solver.formats.savegame import SavedMultiverse, new_multiverse, submit_multiverse
    from solver.multiverse.step import step
    from solver.render.multiverse_drawing import multiverse_game_svg

    game = new_multiverse("2025")
    game, problems = submit_multiverse(game, ["Germany: A Munich - Burgundy"])
    assert problems == []
    done = step(game.multiverse, game.orders, rule_book("2025"))
    game = SavedMultiverse(DATC_2025, done.after, ())
    game, problems = submit_multiverse(game, ["France: A Paris - Picardy"])
    assert problems == []
    root = ET.fromstring(multiverse_game_svg(game))
    cells = {g.get("data-board") for g in groups(root, "cell")}
    assert cells == {"a@0", "a@1"}
    orders = {g.get("data-order"): classes(g) for g in groups(root, "order")}
    assert {"move", "succeeds", "earlier"} <= orders["A a-Munich@0 - a-Burgundy@0"]
    assert {"move", "pending"} <= orders["A a-Paris@1 - a-Picardy@1"]


def test_a_paused_step_draws_where_the_waiting_unit_may_go_on_its_whole_board():
    """MV.O.1: the joint turn of O's step holds only the places it adjudicated again, so it
    would offer Bohemia and Vienna to the army dislodged on a@0; on the whole board Bohemia
    is left empty by a recorded standoff and Vienna is held. The picture offers neither."""
    (case,) = [c for c in all_cases() if c.id == "MV.O.1"]
    done = case.game().step([o.given for o in case.blocks[0].orders], rule_book(case.edition))
    assert done.after.pause is not None
    (joint,) = done.resolution.dislodged
    (drawn,) = step_drawing(done)[1]
    places = lambda r: sorted(o.province.province for o in r.options)  # noqa: E731
    assert {"boh", "vie"} <= set(places(joint))
    assert places(drawn) == ["pie", "tri", "ven"]
