"""Multiverse pieces that cases/ cannot express: reach, and the rule-book choices where the
MDATC is silent (a fork that repeats, victory)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import ROOT

from solver.errors import OrderSyntaxError
from solver.multiverse.spacetime import spacetime_board, timelines_adjacent, within_reach
from solver.multiverse.state import MBoard, Multiverse, board_turn, spot, turn_phase, winner
from solver.multiverse.step import step
from solver.values.notation import parse_given
from solver.values.orders import Retreat
from solver.values.position import SPRING_1901, Phase, Position, Unit
from solver.values.rules import DATC_2025, RepeatFork, Victory
from topology import Location, UnitType, standard, variant

# b branches from a@0, c from a@0 too, d from a@1, e from b@2
ORIGINS = {0: None, 1: (0, 0), 2: (0, 0), 3: (0, 1), 4: (1, 2)}


@pytest.mark.parametrize(
    ("a", "b", "adjacent"),
    [
        (0, 0, True),
        (0, 1, True),
        (1, 0, True),
        (1, 2, True),
        (0, 3, True),
        (1, 3, False),
        (2, 3, False),
        (1, 4, True),
        (0, 4, False),
        (3, 4, False),
    ],
)
def test_timelines_are_adjacent_along_the_tree(a, b, adjacent):
    assert timelines_adjacent(a, b, ORIGINS) is adjacent


def test_reach_is_one_turn_either_way_diagonals_included():
    assert within_reach((0, 2), (1, 1), ORIGINS)
    assert within_reach((0, 1), (0, 2), ORIGINS)
    assert not within_reach((0, 0), (0, 2), ORIGINS)
    board = spacetime_board(standard(), [(0, 0), (0, 1)], {0: None})
    assert board.army_adjacent(spot("mun", 0, 1), spot("tyr", 0, 0))
    assert not board.army_adjacent(spot("mun", 0, 1), spot("mun", 0, 0))  # never itself


def test_board_turns_follow_phases():
    phases = [Phase.parse(p) for p in ("S1901M", "F1901M", "S1901R", "W1901A")]
    assert [board_turn(p, standard()) for p in phases] == [0, 1, 1, 2]


def test_turns_count_from_the_first_year_of_the_map():
    """Turn 0 is Spring of the map's first year: Spring 1 on ancmed, Spring 1994 on modern
    (they were counted from 1901 on every map, and a multiverse on ancmed began at turn
    -3800)."""
    for name, year in (("ancmed", 1), ("modern", 1994)):
        board = variant(name)
        assert [str(turn_phase(n, board)) for n in (0, 1, 2)] == [
            f"Spring {year} movement",
            f"Fall {year} movement",
            f"Spring {year + 1} movement",
        ]
        winter = Phase.parse(f"W{year:04d}A")
        assert [board_turn(turn_phase(n, board), board) for n in range(4)] == [0, 1, 2, 3]
        assert board_turn(winter, board) == 2  # owed by the board of the next Spring
        mv = Multiverse.start(Position.opening(board))
        assert [b.name for b in mv.boards] == ["a@0"]


def army(province: str, power: str) -> Unit:
    return Unit(Location(province), UnitType.ARMY, power)


def play(rules, *steps: list[str]) -> Multiverse:
    centres = tuple((c, p) for p in standard().powers for c in standard().home_centres(p))
    start = Position(
        SPRING_1901,
        (army("mun", "Germany"), army("boh", "Germany"), army("tyr", "Austria")),
        centres,
        board=standard(),
    )
    mv = Multiverse.start(start)
    for orders in steps:
        mv = step(mv, [parse_given(o, standard()) for o in orders], rules).after
    return mv


REPEATED = (
    ["Austria: A Tyrolia hold", "Germany: A Munich - Tyrolia", "Germany: A Bohemia hold"],
    ["Germany: A Munich supports A a-Munich@0 - Tyrolia"],
    # the same support again, from timeline b, gives a@0 the same new future once more
    ["Germany: A b-Bohemia supports A a-Munich@0 - a-Tyrolia@0"],
)


def test_a_repeated_fork_makes_a_new_timeline_by_default():
    mv = play(DATC_2025, *REPEATED)
    assert dict(mv.origins) == {0: None, 1: (0, 0), 2: (0, 0)}
    assert mv.board((2, 1)).created == mv.board((1, 1)).created


def test_a_repeated_fork_can_reuse_the_identical_future():
    mv = play(replace(DATC_2025, repeat_fork=RepeatFork.REUSE_IDENTICAL), *REPEATED)
    assert dict(mv.origins) == {0: None, 1: (0, 0)}


def test_victory_rules():
    board = standard()
    eighteen = sorted(board.centres)[:18]
    rest = sorted(board.centres)[18:]
    head_a = Position(SPRING_1901, (), tuple((c, "France") for c in eighteen), board=standard())
    head_b = Position(
        SPRING_1901,
        (),
        tuple((c, "France") for c in eighteen[:10]) + tuple((c, "England") for c in rest),
        board=standard(),
    )
    mv = Multiverse(
        (
            replace(Multiverse.start(head_a).boards[0]),
            replace(Multiverse.start(head_b).boards[0], timeline=1),
        ),
        ((0, None), (1, (0, 0))),
    )
    assert winner(mv) == "France"
    assert winner(mv, replace(DATC_2025, victory=Victory.DISTINCT_CENTRES)) == "France"
    split = Position(SPRING_1901, (), tuple((c, "England") for c in eighteen), board=standard())
    mv = Multiverse(
        (
            Multiverse.start(split).boards[0],
            replace(Multiverse.start(head_a).boards[0], timeline=1),
        ),
        ((0, None), (1, (0, 0))),
    )
    assert winner(mv, replace(DATC_2025, victory=Victory.DISTINCT_CENTRES)) is None


def test_a_step_reads_its_text_as_parse_orders_does():
    """Comments, blank lines and 'Power:' headers, and the line of an error; an order to
    a head owing a retreat reads as a retreat under its header's power."""
    mv = Multiverse.start(Position.opening())
    text = "Germany:\nA Munich - Tyrolia  # east\n\nAustria: A Vienna - Bohemia"
    as_text = mv.step(text)
    as_lines = mv.step(["Germany: A Munich - Tyrolia", "Austria: A Vienna - Bohemia"])
    assert as_text.outcomes == as_lines.outcomes
    assert [o.given.power for o in as_text.outcomes] == ["Germany", "Austria"]
    with pytest.raises(OrderSyntaxError) as caught:
        mv.step("Germany: A Munich - Tyrolia\n# next\nGermany: A Kiel - Atlantis")
    assert (caught.value.line, caught.value.column) == (3, 19)
    owing = Multiverse.start(
        Position.parse(
            "Spring 1901 retreat\nItaly dislodged: A Marseilles from Gascony by convoy"
            "\nFrance: A Marseilles"
        )
    )
    (retreat,) = owing.step("Italy:\nA Marseilles - Gascony  # back").outcomes
    assert isinstance(retreat.given.order, Retreat) and retreat.given.power == "Italy"
    with pytest.raises(OrderSyntaxError) as refused:  # no convoy in a retreat
        owing.step("Italy:\nA Marseilles - Gascony via convoy")
    assert refused.value.line == 2


def test_a_step_over_heads_without_units():
    """Boards without units make no group of boards of their own: a step over two empty
    heads (as in O.E.3) once found no group to resolve."""
    empty = Position(turn_phase(1, standard()), (), board=standard())
    mv = Multiverse((MBoard(0, 1, empty), MBoard(1, 1, empty)), ((0, None), (1, None)))
    done = step(mv, [])
    assert done.outcomes == () and done.forks == ()
    assert {b.key for b in done.after.boards} == {(0, 1), (0, 2), (1, 1), (1, 2)}


def test_a_multiverse_case_is_on_the_board_its_file_or_its_variant_line_names(tmp_path):
    """'variant: multiverse' plays on the board the case has otherwise (the file's
    'variant:' line, else the standard one); 'variant: multiverse NAME' names it (every
    multiverse case was played on the standard board)."""
    from solver.exploring.conformance import run_case
    from solver.formats.cases import read_cases

    body = "Rome:\nA Roma - Etruria => succeeds\n---\nRome:\nA Etruria - a-Roma@0 => succeeds\n"
    body += "AFTER\nRome owns A b-Etruria@1\nRome owns A b-Roma@1\nforks: b from a@0\n"
    path = tmp_path / "on.cases"
    path.write_text(
        f"variant: ancmed\ncase X.1: t\nvariant: multiverse\n{body}"
        f"case X.2: t\nvariant: multiverse modern\nTurkey:\nA Adana - Iran => succeeds\n"
    )
    first, second = read_cases(path)
    assert [c.multiverse for c in (first, second)] == [True, True]
    assert first.position.map is variant("ancmed") and second.position.map is variant("modern")
    assert str(first.game().boards[0].position.phase) == "Spring 1 movement"
    assert run_case(first).passed and run_case(second).passed
    standard_file = tmp_path / "standard.cases"
    standard_file.write_text(
        "case X.3: t\nvariant: multiverse\nGermany:\nA Munich hold => stands\n"
    )
    (third,) = read_cases(standard_file)
    assert third.multiverse and third.position.map is standard()


def test_orders_a_step_gives_unordered_units_name_places_as_the_map_does():
    """Under rule set O a step records a hold for every unordered unit it adjudicates (and
    a pause one for a dislodged unit of the world that had none): they print with the map's
    names, as the submitted orders do, on any map (they printed codes: 'A a-lon@1 Holds')."""
    from solver.formats.cases import read_cases
    from solver.values.rules import RULE_BOOKS

    for board in (standard(), variant("ancmed")):
        done = Multiverse.start(Position.opening(board)).step([], RULE_BOOKS["O"])
        record = done.after.board((0, 0)).record
        texts = [str(g) for g in record.orders]
        assert len(texts) == len(Position.opening(board).units)
        names = {board.location_name(u.location) for u in Position.opening(board).units}
        assert {t.split(" a-")[1].split("@")[0] for t in texts} == names, texts
    case = next(
        c for c in read_cases(ROOT / "cases/multiverse/oliveriver.cases") if c.id == "O.C.1"
    )
    rules = RULE_BOOKS["O"]
    mv = case.game()
    for block in case.blocks:
        mv = mv.step([o.given for o in block.orders], rules).after
    recorded = [str(g) for b in mv.boards if b.record for g in b.record.orders]
    assert "England: A a-London@1 Holds" in recorded, recorded
