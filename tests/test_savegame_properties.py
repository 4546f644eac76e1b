"""Saved games generated, not mutated: whatever dipsat holds as a game it can save, and what
it saves loads back to an equal value that saves to the same bytes.

The games are drawn by the strategies below: any phase of the years 1 to `MAX_YEAR`,
units of random powers on random provinces of the right kind (fleets on a coast of a
province that has several), units awaiting retreat and standoffs in retreat phases, random
centre owners, random orders of the phase's kinds (with or without a power, a unit type, a
coast, a convoy), a history of such phases with random outcome texts, and a rule book named
or with random policies; multiverse games are a few random steps from a random start of
one to four timelines (the scenarios of tests/test_properties_multiverse.py).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from typing import Any

import pytest
from conftest import ROOT, fuzz_examples, slow
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_properties_multiverse import BOOKS, orders_for, start

from solver.errors import DipsatError, SaveFileError
from solver.formats.savegame import (
    PastPhase,
    Recorded,
    SavedGame,
    SavedMultiverse,
    any_from_json,
    from_json,
    new_game,
    to_json,
)
from solver.formats.savegame.standard import _LABELS
from solver.multiverse.state import winner
from solver.multiverse.step import step
from solver.values.orders import (
    Build,
    Convoy,
    Disband,
    Given,
    Hold,
    Move,
    Place,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from solver.values.position import (
    MAX_YEAR,
    DislodgedUnit,
    Phase,
    PhaseKind,
    Position,
    Season,
    Unit,
)
from solver.values.rules import POLICIES, RULE_BOOKS, RuleBook
from topology import Board, Kind, Location, UnitType, standard, variant

BOARDS = [standard(), variant("ancmed")]
SEASONS = [
    (Season.SPRING, PhaseKind.MOVEMENT),
    (Season.SPRING, PhaseKind.RETREAT),
    (Season.FALL, PhaseKind.MOVEMENT),
    (Season.FALL, PhaseKind.RETREAT),
    (Season.WINTER, PhaseKind.ADJUSTMENT),
]
years = st.integers(1, MAX_YEAR) | st.sampled_from([1, 9, 10, 99, 100, 999, 1000, 1901, MAX_YEAR])
phases = st.builds(lambda y, sk: Phase(y, *sk), years, st.sampled_from(SEASONS))


# -- positions -----------------------------------------------------------------------------------
@st.composite
def units_in(draw, board: Board, province: str, power: str) -> Unit:
    """A unit of `power` that may stand in `province`: an army on land, a fleet at sea, either
    on a coast (a fleet on one of the coasts of a province that has several)."""
    kind = board.province(province).kind
    if kind is Kind.LAND:
        return Unit(Location(province), UnitType.ARMY, power)
    if kind is Kind.SEA or draw(st.booleans()):
        coasts = board.province(province).coasts
        coast = draw(st.sampled_from(coasts)) if coasts else None
        return Unit(Location(province, coast), UnitType.FLEET, power)
    return Unit(Location(province), UnitType.ARMY, power)


@st.composite
def positions(draw, board: Board, phase: Phase | None = None) -> Position:
    phase = phase or draw(phases)
    codes = sorted(board.provinces)
    powers = st.sampled_from(sorted(board.powers))
    occupied = draw(st.lists(st.sampled_from(codes), unique=True, max_size=min(40, len(codes))))
    units = [draw(units_in(board, p, draw(powers))) for p in occupied]
    centres = draw(st.lists(st.sampled_from(sorted(board.centres)), unique=True))
    owners = tuple((c, draw(powers)) for c in centres)
    dislodged: list[DislodgedUnit] = []
    standoffs: frozenset[str] = frozenset()
    if phase.kind is PhaseKind.RETREAT:
        for province in draw(st.lists(st.sampled_from(occupied), unique=True)) if occupied else ():
            near = sorted(board.neighbours(province))
            attacker = draw(st.sampled_from(near)) if near else ""
            unit = draw(units_in(board, province, draw(powers)))
            dislodged.append(DislodgedUnit(unit, attacker, draw(st.booleans())))
        empty = sorted(set(codes) - set(occupied))
        standoffs = (
            frozenset(draw(st.lists(st.sampled_from(empty), max_size=6))) if empty else standoffs
        )
    return Position(phase, tuple(units), owners, tuple(dislodged), standoffs, board=board)


# -- orders --------------------------------------------------------------------------------------
@st.composite
def places(draw, board: Board, fleet: bool | None = None) -> Place:
    province = draw(st.sampled_from(sorted(board.provinces)))
    coasts = board.province(province).coasts
    if coasts and fleet is not False and draw(st.booleans()):
        return Place(province, draw(st.sampled_from(coasts)))
    return Place(province)


@st.composite
def unit_refs(draw, board: Board, typed: bool = False) -> UnitRef:
    kind = draw(st.sampled_from([UnitType.ARMY, UnitType.FLEET] + ([] if typed else [None])))
    return UnitRef(draw(places(board, fleet=kind is UnitType.FLEET)), kind)


@st.composite
def orders(draw, board: Board, kind: PhaseKind) -> Given:
    unit = draw(unit_refs(board))
    there = draw(places(board))
    if kind is PhaseKind.MOVEMENT:
        order = draw(
            st.sampled_from(
                [
                    Hold(unit),
                    Move(unit, there),
                    Move(unit, there, via_convoy=True),
                    SupportHold(unit, draw(unit_refs(board))),
                    SupportMove(unit, draw(unit_refs(board)), there),
                    Convoy(unit, draw(unit_refs(board)), there),
                ]
            )
        )
    elif kind is PhaseKind.RETREAT:
        order = draw(st.sampled_from([Retreat(unit, there), Disband(unit)]))
    else:
        order = draw(st.sampled_from([Build(draw(unit_refs(board, typed=True))), Disband(unit)]))
        order = Waive() if draw(st.integers(0, 5)) == 0 else order
    power = draw(st.sampled_from(sorted(board.powers)) | st.none())
    return Given(power, order, draw(st.sampled_from([board, None])))  # made in code: no board


# -- games ---------------------------------------------------------------------------------------
@st.composite
def rule_books(draw) -> RuleBook:
    """A named rule book, or one with random policies under any name (an edition's too)."""
    if draw(st.booleans()):
        return RULE_BOOKS[draw(st.sampled_from(sorted(RULE_BOOKS)))]
    values = {}
    for name in POLICIES:
        value = getattr(RULE_BOOKS["2025"], name)
        options = [False, True] if isinstance(value, bool) else list(type(value))
        values[name] = draw(st.sampled_from(options))
    name = draw(st.sampled_from(["mine", "2025", "J"]) | st.text(max_size=8))
    try:
        return RuleBook(name, **values)
    except DipsatError:
        assume(False)
        raise


texts = st.text(max_size=30)  # any code point, lone surrogates too


@st.composite
def past_phases(draw, board: Board) -> PastPhase:
    position = draw(positions(board))
    given = draw(st.lists(orders(board, position.phase.kind), max_size=4))
    outcomes = draw(
        st.lists(
            st.builds(Recorded, texts, st.sampled_from(sorted(_LABELS)), texts | st.none()),
            max_size=4,
        )
    )
    return PastPhase(position, tuple(given), tuple(outcomes))


@st.composite
def games(draw) -> SavedGame:
    board = draw(st.sampled_from(BOARDS))
    position = draw(positions(board))
    pending = draw(st.lists(orders(board, position.phase.kind), max_size=6))
    history = draw(st.lists(past_phases(board), max_size=3))
    return SavedGame(draw(rule_books()), position, tuple(pending), tuple(history))


@functools.cache
def schema() -> Any:
    import jsonschema

    published = json.loads((ROOT / "docs" / "savegame.schema.json").read_text())
    return jsonschema.Draft202012Validator(published)


def assert_round_trips(game: SavedGame | SavedMultiverse) -> None:
    """The game saves to text that follows the published schema and loads to an equal
    game, which saves to the same text."""
    text = to_json(game)
    schema().validate(json.loads(text))
    again = any_from_json(text, "generated.json")
    assert again == game
    assert to_json(again) == text


@slow
@settings(
    max_examples=fuzz_examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(games())
def test_a_generated_game_saves_and_loads_to_an_equal_value_and_the_same_bytes(game):
    assert_round_trips(game)


def multiverse_games(scenario, book: str) -> list[SavedMultiverse]:
    """The game after each step of a random scenario, with the next step's orders pending."""
    n, timelines, steps = scenario
    mv = start(n, timelines)  # made in code: whoever has won yet is worked out, as a step does
    mv = dataclasses.replace(mv, won=winner(mv, BOOKS[book]))
    rng = random.Random(f"saveprop-{n}")
    found = []
    for _ in range(steps):
        pending = orders_for(rng, mv)
        found.append(SavedMultiverse(BOOKS[book], mv, tuple(pending)))
        mv = step(mv, pending, BOOKS[book]).after
    return [*found, SavedMultiverse(BOOKS[book], mv, ())]


@slow
@settings(max_examples=fuzz_examples(12), deadline=None)
@given(
    st.tuples(st.integers(0, 10**9), st.integers(1, 4), st.integers(1, 3)),
    st.sampled_from(["2025", "J", "O", "J+pause", "J+shared-places", "2025+phase"]),
)
def test_a_multiverse_after_random_steps_saves_and_loads_to_the_same_bytes(scenario, book):
    for game in multiverse_games(scenario, book):
        assert_round_trips(game)


# -- phase codes ---------------------------------------------------------------------------------
@given(phases)
def test_every_phase_code_reads_back_as_its_phase(phase):
    assert Phase.parse(phase.code) == phase
    assert Phase.parse(str(phase)) == phase
    assert len(phase.code) == 6


@settings(max_examples=fuzz_examples(300))
@given(
    st.text(alphabet="SFWMRA sfwmra,0123456789²١" + "springfallmovementretreat", max_size=24)
    | st.from_regex(r"\A[SFWsfw][0-9]{1,8}[MRAmra]\Z")
)
def test_a_phase_either_reads_and_its_code_reads_back_or_is_refused(text):
    try:
        phase = Phase.parse(text)
    except DipsatError:
        return
    assert Phase.parse(phase.code) == phase


# -- regressions ---------------------------------------------------------------------------------
def phase_edited(phase: str) -> str:
    data = json.loads(to_json(new_game()))
    data["position"]["phase"] = phase
    return json.dumps(data)


def test_a_game_before_the_year_1000_saves_as_it_loads():
    """Issue 20: 'S999M' loaded but was saved as a code the reader refused."""
    game = from_json(phase_edited("S999M"))
    assert game.position.phase.year == 999
    assert json.loads(to_json(game))["position"]["phase"] == "S0999M"
    assert from_json(to_json(game)) == game


@pytest.mark.parametrize(
    ("phase", "message"),
    [
        ("S10000M", "expected a year from 1 to 9999, found 10000"),
        ("Spring 100000 movement", "expected a year from 1 to 9999, found 100000"),
        ("S0000M", "expected a year from 1 to 9999, found 0"),
        ("S" + "1" * 5000 + "M", "expected a phase like"),
        ("Spring ² movement", "expected a phase like"),  # a digit, but not an ASCII one
        ("Spring ١٩٠١ movement", "expected a phase like"),
    ],
)
def test_a_year_no_phase_code_can_hold_is_refused(phase, message):
    with pytest.raises(SaveFileError, match=r"position\.phase") as caught:
        from_json(phase_edited(phase), "g.json")
    assert message in str(caught.value)
    assert str(caught.value).startswith("g.json: ")


def test_a_phase_past_the_last_year_cannot_be_made():
    with pytest.raises(DipsatError, match="from 1 to 9999"):
        Phase(MAX_YEAR + 1, Season.SPRING, PhaseKind.MOVEMENT)
    with pytest.raises(DipsatError, match="from 1 to 9999"):
        Phase(True, Season.SPRING, PhaseKind.MOVEMENT)  # type: ignore[arg-type]


def test_an_order_made_in_code_is_saved_with_the_boards_names():
    """An order without a board prints its codes ('F lon - nth'); saved so, it would read
    back as 'F London - North Sea' and save to other bytes."""
    game = new_game()
    given = Given("England", Move(UnitRef(Place("lon"), UnitType.FLEET), Place("nth")))
    assert str(given) == "England: F lon - nth"
    game = dataclasses.replace(game, orders=(given,))
    assert json.loads(to_json(game))["orders"] == ["England: F London - North Sea"]
    assert_round_trips(game)


@slow
def test_the_property_draws_every_kind_of_part():
    """The strategies reach what they claim to (dislodged units, standoffs, every order)."""
    seen: set[str] = set()

    @settings(max_examples=120, database=None)
    @given(games())
    def look(game):
        for position in [game.position, *(p.position for p in game.history)]:
            seen.update(["dislodged"] * bool(position.dislodged))
            seen.update(["standoffs"] * bool(position.standoffs))
        for g in [*game.orders, *(o for p in game.history for o in p.orders)]:
            seen.add(type(g.order).__name__)
        seen.add("custom rules" if game.rules.name not in RULE_BOOKS else "named rules")
        seen.add(game.position.map.name)

    look()
    kinds = {"Hold", "Move", "SupportHold", "SupportMove", "Convoy", "Retreat", "Disband"}
    wanted = {"dislodged", "standoffs", "Build", "Waive", "standard", "ancmed", *kinds}
    assert wanted <= seen, wanted - seen
