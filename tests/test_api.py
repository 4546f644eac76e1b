"""The public API (`import solver`): positions validate and read back what they write,
orders come as values or text, results print well and draw themselves."""

from __future__ import annotations

import inspect
import os
import xml.etree.ElementTree as ET

import pytest
from conftest import DATA, all_cases, table

import solver
from solver.crosschecking.generate import random_turn


@pytest.mark.parametrize(("text", "error"), table("bad_positions.txt"))
def test_an_impossible_position_is_refused_naming_line_column_and_why(text, error):
    with pytest.raises(solver.PositionError) as caught:
        solver.Position.parse(text.replace("|", "\n"))
    assert str(caught.value).startswith(error)
    assert isinstance(caught.value, solver.DipsatError)


def test_a_position_made_in_code_is_checked_too():
    board = solver.standard()
    army_at_sea = solver.Unit(solver.Place("nth").location, solver.UnitType.ARMY, "England")
    with pytest.raises(solver.PositionError, match="an army cannot stand at sea"):
        solver.Position(solver.Phase.parse("S1901M"), (army_at_sea,), board=board)
    unknown = solver.Unit(solver.Place("par").location, solver.UnitType.ARMY, "Frnace")
    with pytest.raises(solver.PositionError, match="unknown power 'Frnace'"):
        solver.Position(solver.Phase.parse("S1901M"), (unknown,), board=board)
    with pytest.raises(solver.PositionError, match="'ruh' is no supply centre"):
        solver.Position(solver.Phase.parse("S1901M"), (), (("ruh", "Germany"),), board=board)


def test_a_position_made_in_code_holds_values_of_the_right_kind_for_its_phase():
    board = solver.standard()
    army = solver.Unit(solver.Place("par").location, solver.UnitType.ARMY, "France")
    fall = solver.Phase.parse("F1901M")
    with pytest.raises(solver.PositionError, match="expected a Phase"):
        solver.Position("F1901M", (army,), board=board)  # type: ignore[arg-type]
    with pytest.raises(solver.PositionError, match="expected a Unit"):
        solver.Position(fall, ("A Paris",), board=board)  # type: ignore[arg-type]
    retreat = solver.Phase.parse("F1901R")
    dislodged = solver.DislodgedUnit(army, "bur", False)
    with pytest.raises(solver.PositionError, match="only a retreat phase has"):
        solver.Position(fall, (), dislodged=(dislodged,), board=board)
    with pytest.raises(solver.PositionError, match="attacked from 'par'"):
        solver.Position(
            retreat, (), dislodged=(solver.DislodgedUnit(army, "par", False),), board=board
        )
    with pytest.raises(solver.PositionError, match="a standoff leaves it empty"):
        solver.Position(retreat, (army,), standoffs=frozenset({"par"}), board=board)
    with pytest.raises(solver.PositionError, match="standoff in 'xyz'"):
        solver.Position(retreat, (), standoffs=frozenset({"xyz"}), board=board)
    held = solver.Position(retreat, (), dislodged=(dislodged,), board=board)
    assert held.dislodged == (dislodged,)


def positions():
    """Random positions, and what adjudicating them comes to (retreat phases with
    dislodged units and standoffs among them)."""
    for seed in range(60):
        position, orders = random_turn(f"api-{seed}")
        yield position
        yield solver.adjudicate(position, orders).after


@pytest.mark.parametrize("position", list(positions()), ids=lambda p: repr(p))
def test_a_position_reads_back_what_it_writes(position):
    again = solver.Position.parse(str(position))
    assert again == position
    assert again.standoffs == position.standoffs and again.dislodged == position.dislodged


def test_the_opening_is_the_map_s_opening():
    opening = solver.Position.opening()
    assert len(opening.units) == 22 and len(opening.centres) == 22
    assert opening.name(opening.unit_in("stp")) == "F St Petersburg(sc)"
    assert {p for p, _ in opening.centres} == {
        c for power in opening.board.powers for c in opening.board.home_centres(power)
    }


def test_orders_come_as_values_as_lines_or_as_one_text():
    position = solver.Position.opening()
    text = "Germany: A Munich - Burgundy\nFrance: A Paris - Burgundy"
    values = solver.parse_orders(text, position)
    as_text = solver.adjudicate(position, text)
    as_lines = solver.adjudicate(position, text.splitlines())
    as_values = solver.adjudicate(position, values)
    assert as_text.outcomes == as_lines.outcomes == as_values.outcomes
    assert [o.result for o in as_text.outcomes] == [solver.Result.FAILS, solver.Result.FAILS]
    with pytest.raises(TypeError, match="orders: expected an order"):
        solver.adjudicate(position, [42])


def test_strict_orders_refuse_what_the_adjudicator_would_ignore():
    position = solver.Position.opening()
    assert solver.parse_orders("England: A Paris - Picardy", position)  # read, not judged
    with pytest.raises(solver.IllegalOrderError) as caught:
        solver.parse_orders(
            "# two orders\nEngland: F London H\nEngland: A Paris - Picardy", position, strict=True
        )
    assert caught.value.line == 3
    assert caught.value.reason.code is solver.Illegality.FOREIGN_UNIT
    with pytest.raises(solver.OrderSyntaxError) as unreadable:
        solver.parse_orders("England:\nF London - Atlantis", position)
    assert (unreadable.value.line, unreadable.value.column) == (2, 12)


def test_strict_orders_are_judged_under_the_rule_book_given():
    """What is legal is a policy: 4.B.3 (an unreachable coast) in a movement phase, 4.A.5
    (a retreat to a convoyed attacker's origin) in a retreat phase."""
    movement = solver.Position.parse("France: F Gascony")
    ignore_coast = solver.rule_book(str(DATA / "rulebooks" / "4B3-ignore-coast.toml"))
    move = "France: F Gascony - Spain(sc)"
    with pytest.raises(solver.IllegalOrderError, match="cannot reach Spain"):
        solver.parse_orders(move, movement, strict=True)
    assert solver.parse_orders(move, movement, strict=True, rules=ignore_coast)
    retreat = solver.Position.parse(
        "Spring 1901 retreat\nItaly dislodged: A Marseilles from Gascony by convoy"
        "\nFrance: A Marseilles"
    )
    back = "Italy: A Marseilles - Gascony"
    assert solver.parse_orders(back, retreat, strict=True)
    with pytest.raises(solver.IllegalOrderError, match="cannot retreat to Gascony"):
        solver.parse_orders(back, retreat, strict=True, rules="1982")


def _with_rules(entry: str, rules: object) -> object:
    """Call an entry point of the API with the rule book `rules`."""
    opening = solver.Position.opening()
    case = next(c for c in all_cases() if c.id == "6.A.1")
    calls = {
        "adjudicate": lambda: solver.adjudicate(opening, "", rules),
        "explore": lambda: solver.explore(opening, "", rules),
        "parse_orders": lambda: solver.parse_orders("", opening, rules=rules),
        "check": lambda: solver.check(case, rules),
        "Multiverse.step": lambda: solver.Multiverse.start(opening).step("", rules),
    }
    return calls[entry]()


ENTRY_POINTS = ["adjudicate", "explore", "parse_orders", "check", "Multiverse.step"]


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ("dtpg", "unknown rule book 'dtpg' (did you mean dptg?); known: 1971, "),
        ("mine.toml", "unknown rule book 'mine.toml'; known: 1971, "),
        (2025, "rules: expected a rule book or its name (1971, "),
        (["2025"], "rules: expected a rule book or its name (1971, "),
    ],
)
def test_every_entry_point_takes_a_rule_book_or_its_name_only(entry, rules, message):
    """A name no rule book has is a bad value (DipsatError); anything but a name or a rule
    book is a wrong type (TypeError naming the argument)."""
    wrong = solver.DipsatError if isinstance(rules, str) else TypeError
    with pytest.raises(wrong) as caught:
        _with_rules(entry, rules)
    assert str(caught.value).startswith(message), str(caught.value)
    assert _with_rules(entry, solver.RULE_BOOKS["1982"]) is not None
    assert _with_rules(entry, "1982") is not None


def test_a_multiverse_step_points_to_rule_book_for_rule_book_files():
    mv = solver.Multiverse.start(solver.Position.opening())
    with pytest.raises(solver.DipsatError, match=r"solver\.rule_book reads a rule-book file"):
        mv.step("", "mine.toml")


OPENING = solver.Position.opening()
WRONG_ARGUMENTS = [
    # (a call with an argument of the wrong type, the start of its message)
    (lambda: solver.adjudicate("England: F London", ""), "position: expected a Position, "),
    (lambda: solver.adjudicate(OPENING, 42), "orders: expected the orders as text or a list"),
    (lambda: solver.adjudicate(OPENING, [42]), "orders: expected an order (a Given) or its"),
    (lambda: solver.explore(OPENING, OPENING), "orders: expected the orders as text or a list"),
    (lambda: solver.explore(None, ""), "position: expected a Position, found NoneType"),
    (lambda: solver.parse_orders(OPENING, ""), "text: expected the orders as text, found Pos"),
    (lambda: solver.parse_orders("", "S1901M"), "position: expected a Position, found str"),
    (lambda: solver.check("6.A.1"), "case: expected a Case (from read_cases), found str"),
    (lambda: solver.Position.parse(OPENING), "text: expected the position as text, found Pos"),
    (lambda: solver.Position.parse("", phase=1901), "phase: expected a Phase or its text"),
    (lambda: solver.Position.parse("", board="standard"), "board: expected a Board such as"),
    (lambda: solver.Multiverse.start("Spring 1901"), "position: expected a Position, found str"),
]


@pytest.mark.parametrize(("call", "message"), WRONG_ARGUMENTS)
def test_an_argument_of_the_wrong_type_is_refused_naming_the_parameter(call, message):
    with pytest.raises(TypeError) as caught:
        call()
    assert str(caught.value).startswith(message), str(caught.value)


def _entered(seconds):
    with solver.time_limit(seconds):
        return None


A_CASE = solver.read_cases(DATA.parent.parent / "cases" / "datc" / "6A.cases")[0]  # 6.A.1
A_GAME = str(DATA / "games" / "mila" / "standard-01.json")
PUBLIC_CALLS = {
    # name -> (the call, valid arguments, the wrong kinds an argument takes: "none" for an
    # argument that may be None, "int" for a number)
    "adjudicate": (solver.adjudicate, (OPENING, "", "2025"), {}),
    "adjudicate_many": (solver.adjudicate_many, ([(OPENING, "")], "2025"), {}),
    "check": (solver.check, (A_CASE, "2025"), {1: "none"}),
    "explore": (solver.explore, (OPENING, "", "2025"), {}),
    "fit_rules": (solver.fit_rules, (A_GAME, "2025", None), {2: "none"}),
    "influence": (solver.influence, (A_CASE, "2025", ()), {}),
    "load_board": (solver.load_board, (str(DATA / "variants" / "pure.toml"),), {}),
    "parse_orders": (solver.parse_orders, ("", OPENING), {}),
    "read_cases": (solver.read_cases, (str(DATA.parent.parent / "cases/datc/6A.cases"),), {}),
    "rule_book": (solver.rule_book, ("2025",), {}),
    "solve_rules": (
        solver.solve_rules,
        (A_CASE, "F North Sea - Picardy => illegal", "2025", ()),
        {},
    ),
    "standard": (solver.standard, (), {}),
    "time_limit": (_entered, (5,), {0: "int"}),
    "variant": (solver.variant, ("pure",), {}),
    "Position.parse": (solver.Position.parse, ("", "S1901M", None), {1: "none", 2: "none"}),
    "Position.opening": (solver.Position.opening, (None,), {0: "none"}),
    "Phase.parse": (solver.Phase.parse, ("S1901M",), {}),
    "Multiverse.start": (solver.Multiverse.start, (OPENING,), {}),
    "Multiverse.step": (solver.Multiverse.start(OPENING).step, ("", "2025"), {}),
    "Multiverse.read": (solver.Multiverse.start(OPENING).read, ("England: F LON H",), {}),
    "RuleBook": (solver.RuleBook, ("mine",), {}),
}
WRONG_TYPES = {"none": None, "int": 4242, "list of ints": [12345, 23456], "bytes": b"2025"}


def test_every_public_function_is_called_with_wrong_types_below():
    functions = {n for n in solver.__all__ if inspect.isfunction(getattr(solver, n))}
    assert functions <= PUBLIC_CALLS.keys(), functions - PUBLIC_CALLS.keys()


@pytest.mark.parametrize("name", sorted(PUBLIC_CALLS))
def test_every_public_entry_point_refuses_wrong_types_with_a_type_error(name):
    """Issue 29: `Multiverse.start(...).step([1])` raised AttributeError, and so did
    `fit_rules(board=42)`, `Phase.parse(None)`, `Position.opening(42)`, `variant(None)`
    and `solve_rules` given a list of integers. Each argument, given each wrong type, is a
    TypeError naming the argument or a DipsatError, never another exception; and the
    valid call works."""
    call, valid, accepts = PUBLIC_CALLS[name]
    call(*valid)
    parameters = list(inspect.signature(call).parameters)
    for number in range(len(valid)):
        for kind, wrong in WRONG_TYPES.items():
            if accepts.get(number) == kind:
                continue
            arguments = list(valid)
            arguments[number] = wrong
            with pytest.raises((TypeError, solver.DipsatError)) as caught:
                call(*arguments)
            if caught.type is TypeError:  # naming the argument, not Python's own words
                named = parameters[number] if name != "RuleBook" else "name"
                assert str(caught.value).startswith(f"{named}"), str(caught.value)


def test_an_integer_is_never_read_as_a_file_descriptor(tmp_path):
    """`read_cases(True)` read standard output and closed it: open() takes an integer as
    a file descriptor."""
    path = tmp_path / "cases.cases"
    path.write_text("case X.1: t\nEngland:\nF London - North Sea => succeeds\n")
    fd = os.open(path, os.O_RDONLY)
    try:
        for call in (
            lambda: solver.read_cases(fd),
            lambda: solver.fit_rules([fd]),
            lambda: solver.load_board(fd),
        ):
            with pytest.raises(TypeError, match=r"^(path|games): expected"):
                call()
        assert os.read(fd, 4) == b"case"  # neither read nor closed
    finally:
        os.close(fd)


def test_a_multiverse_step_names_an_order_of_the_wrong_type():
    mv = solver.Multiverse.start(OPENING)
    with pytest.raises(TypeError) as caught:
        mv.step([1])
    assert str(caught.value) == "orders: expected an order (a Given) or its text, found int 1"
    with pytest.raises(TypeError, match=r"^orders: expected the orders as text or a list"):
        mv.step(None)


def test_every_phase_goes_through_the_one_entry_point():
    """A game's cycle played through solver.adjudicate alone: movement, retreats,
    adjustments, with the resolution kind of each."""
    fall = solver.Position.parse(
        "Austria: A Vienna, A Budapest|Russia: A Galicia".replace("|", "\n"), phase="F1901M"
    )
    moved = solver.adjudicate(
        fall, "Austria: A Vienna - Galicia\nAustria: A Budapest S A Vienna - Galicia"
    )
    assert isinstance(moved, solver.Resolution) and moved.after.phase.code == "F1901R"
    retreated = solver.adjudicate(moved.after, "Russia: A Galicia - Ukraine")
    assert isinstance(retreated, solver.RetreatResolution)
    assert retreated.after.phase.code == "W1901A"
    built = solver.adjudicate(retreated.after, "Austria: Build A Vienna")
    assert isinstance(built, solver.AdjustmentResolution)
    assert [built.after.name(u) for u in built.built] == ["A Vienna"]


def test_values_print_short_and_draw_themselves():
    case = next(c for c in all_cases() if c.id == "6.F.14")
    resolution = solver.adjudicate(case.position, [o.given for o in case.movement.orders])
    for value in (
        case.position,
        resolution,
        *resolution.outcomes,
        case,
        solver.check(case),
        *solver.explore(case.position, resolution.orders),
    ):
        assert len(repr(value)) < 160, repr(value)
    assert str(resolution).splitlines()[1:5] == [f"  {o}" for o in resolution.outcomes]
    mv = solver.Multiverse.start(solver.Position.opening())
    step = mv.step("Germany: A Munich - Tyrolia")
    for value in (case.position, resolution, mv, step, step.after):
        root = ET.fromstring(value._repr_svg_())
        assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_a_rule_book_is_a_value_or_a_name():
    case = next(c for c in all_cases() if c.id == "6.F.14")
    orders = [o.given for o in case.movement.orders]
    by_name = solver.adjudicate(case.position, orders, "dptg")
    by_value = solver.adjudicate(case.position, orders, solver.RULE_BOOKS["dptg"])
    assert by_name.outcomes == by_value.outcomes
    with pytest.raises(solver.DipsatError, match="unknown rule book 'dtpg'"):
        solver.adjudicate(case.position, orders, "dtpg")


def test_adjudicate_many_gives_what_adjudicating_one_at_a_time_gives():
    """solver.adjudicate_many: the resolutions of many (position, orders) pairs, in order,
    each the one solver.adjudicate gives (the DATC's movement, retreat and adjustment
    phases, and random turns)."""
    cases = list(solver.read_cases(DATA.parent.parent / "cases" / "datc" / "6J.cases"))[:4]
    pairs = [(c.position, [o.given for o in c.blocks[0].orders]) for c in cases]
    pairs += [random_turn(f"many-{i}") for i in range(20)]
    many = solver.adjudicate_many(pairs, rules="1982")
    assert [str(r) for r in many] == [str(solver.adjudicate(p, o, "1982")) for p, o in pairs]
    assert [r.after for r in many] == [solver.adjudicate(p, o, "1982").after for p, o in pairs]
    with pytest.raises(
        TypeError, match=r"pairs\[1\]: expected a \(position, orders\) pair, found str"
    ):
        solver.adjudicate_many([pairs[0], "A Paris - Burgundy"])
