"""Property tests of the standard adjudication pipeline on random turns.

Each test states one guarantee (docs/reliability.md lists them).  The turns come from
solver.crosschecking.generate.random_turn, so a failing example is reproduced by its seed
string, which every assertion message names.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from conftest import ROOT, fuzz_examples, slow, under_hash_seeds
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.checker.check import check_resolution
from solver.crosschecking.generate import random_turn
from solver.cycle.adjustments import adjudicate_adjustments
from solver.cycle.retreats import adjudicate_retreats
from solver.errors import DipsatError
from solver.exploring.explain import explain
from solver.formats.cases import read_cases
from solver.formats.rulebooks import rule_book
from solver.judge.movement import adjudicate
from solver.values.notation import parse_given
from solver.values.orders import Disband, Given, Move, Place, Retreat, UnitRef
from solver.values.position import Phase, PhaseKind, Position, Season
from solver.values.rules import RULE_BOOKS
from topology import standard

BOOKS = sorted(RULE_BOOKS)


@st.composite
def turns(draw, foreign: bool = True):
    """A random movement turn: a label to reproduce it, its position and orders.  Some
    orders may be dropped (those units hold) and, with `foreign`, orders of another turn
    added (mostly orders for units that are not there, of the wrong power or type, or
    second orders for one unit)."""
    n = draw(st.integers(0, 10**9))
    k = draw(st.one_of(st.integers(20, 34), st.integers(2, 34)))  # mostly crowded boards
    seed = f"prop-{n}"
    position, orders = random_turn(seed, units=(k, k))
    label = f"random_turn({seed!r}, units=({k}, {k}))"
    drop = draw(st.sampled_from((0, 0, 2, 3)))  # drop every drop-th order: those units hold
    if drop:
        orders = [o for i, o in enumerate(orders) if i % drop]
        label += f" dropping orders[::{drop}]"
    if foreign and draw(st.booleans()):
        extra = draw(st.integers(1, 8))
        other = f"prop-other-{draw(st.integers(0, 10**9))}"
        orders = orders + random_turn(other)[1][:extra]
        label += f" + random_turn({other!r})[1][:{extra}]"
    return label, position, orders


def _in(position: Position, season: Season) -> Position:
    """The same units and centres in another season's movement phase."""
    return Position(
        Phase(1901, season, PhaseKind.MOVEMENT), position.units, position.centres, board=standard()
    )


# -- 1. no crash under any rule book ------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(turns())
def test_every_rule_book_adjudicates_random_turns(turn):
    label, position, orders = turn
    for name in BOOKS:
        try:
            resolution = adjudicate(position, orders, RULE_BOOKS[name])
        except DipsatError as error:  # documented, but these turns are legal input
            raise AssertionError(f"{label} under {name}: {error}") from error
        assert len(resolution.outcomes) == len(orders), (label, name)
        assert [o.given for o in resolution.outcomes] == list(orders), (label, name)


# -- 2. the independent checker accepts every resolution -----------------------------------
@settings(max_examples=100, deadline=None)
@given(turns(), st.sampled_from(BOOKS))
def test_checker_accepts_every_resolution(turn, name):
    label, position, orders = turn
    resolution = adjudicate(position, orders, RULE_BOOKS[name])
    assert check_resolution(resolution) == [], f"{label} under {name}"


# -- 3. one unit per province; dislodged units give way to their attacker ------------------
@settings(max_examples=150, deadline=None)
@given(turns(), st.sampled_from(BOOKS))
def test_no_two_units_share_a_province_after_movement(turn, name):
    label, position, orders = turn
    resolution = adjudicate(position, orders, RULE_BOOKS[name])
    after = resolution.after
    provinces = [u.province for u in after.units]
    assert len(provinces) == len(set(provinces)), label
    for retreating in resolution.dislodged:
        here = retreating.unit.province
        attacker = position.unit_in(retreating.attacker_from)
        assert attacker is not None, label
        standing = after.unit_in(here)
        assert standing is not None, f"{label}: {here} left empty by its dislodger"
        assert (standing.type, standing.power) == (attacker.type, attacker.power), label
        for option in retreating.options:  # a retreat goes only where nobody is
            assert after.unit_in(option.province) is None, label
            assert option.province not in resolution.standoffs, label
    for province in resolution.standoffs:
        assert after.unit_in(province) is None, f"{label}: standoff in occupied {province}"


# -- 4. units are conserved and move only by their own successful orders ------------------
@settings(max_examples=150, deadline=None)
@given(turns(), st.sampled_from(BOOKS))
def test_units_are_conserved(turn, name):
    label, position, orders = turn
    resolution = adjudicate(position, orders, RULE_BOOKS[name])
    after = resolution.after
    gone = [r.unit for r in resolution.dislodged]
    assert len(after.units) + len(gone) == len(position.units), label
    before = Counter(u.power for u in position.units)
    assert Counter(u.power for u in after.units) + Counter(u.power for u in gone) == before
    assert set(gone) <= set(position.units), label
    # Where every unit should be: at its destination if its own move succeeded, else home.
    # Compared by province: an order may name no coast, or a coast the rule book ignores
    # (DATC 4.B.6: an army 'to Spain(nc)'), and the adjudicator picks the coast it reaches.
    moved: dict[str, Place] = {}
    for outcome in resolution.outcomes:
        order = outcome.given.order
        if isinstance(order, Move) and outcome.result == "succeeds":
            source = order.unit.place.province
            dest = Place(order.dest.province, order.dest.coast)
            assert moved.setdefault(source, dest) == dest, f"{label}: two moves from {source}"
    expected = Counter()
    for unit in position.units:
        if unit in gone:
            continue
        where = moved[unit.province].province if unit.province in moved else unit.province
        expected[(where, unit.type, unit.power)] += 1
    assert Counter((u.province, u.type, u.power) for u in after.units) == expected, label
    for unit in after.units:
        if unit.province not in moved.keys() | {d.province for d in moved.values()}:
            assert unit in position.units, f"{label}: {unit} changed where it stands"


# -- 5. centres change owner only when the Fall season is over ----------------------------
@settings(max_examples=80, deadline=None)
@given(turns(), st.sampled_from(BOOKS))
def test_spring_keeps_centre_owners(turn, name):
    label, position, orders = turn
    spring = _in(position, Season.SPRING)
    resolution = adjudicate(spring, orders, RULE_BOOKS[name])
    assert resolution.after.centres == spring.centres, label
    if resolution.after.phase.kind is PhaseKind.RETREAT:  # disband them all: still Spring
        done = adjudicate_retreats(resolution.after, [], RULE_BOOKS[name])
        assert done.after.phase == Phase(1901, Season.FALL, PhaseKind.MOVEMENT), label
        assert done.after.centres == spring.centres, label


def _retreat_orders(resolution, data) -> list[Given]:
    """A retreat or a disband for each dislodged unit, some to the same place."""
    orders = []
    for r in resolution.dislodged:
        ref = UnitRef(Place(r.unit.province, r.unit.location.coast), r.unit.type)
        if r.options and data.draw(st.booleans()):
            dest = data.draw(st.sampled_from(r.options))
            orders.append(Given(r.unit.power, Retreat(ref, Place(dest.province, dest.coast))))
        elif data.draw(st.booleans()):
            orders.append(Given(r.unit.power, Disband(ref)))
    return orders


@settings(max_examples=150, deadline=None)
@given(turns(foreign=False), st.sampled_from(BOOKS), st.data())
def test_fall_gives_centres_to_the_unit_on_them(turn, name, data):
    label, position, orders = turn
    rules = RULE_BOOKS[name]
    fall = _in(position, Season.FALL)
    resolution = adjudicate(fall, orders, rules)
    after = resolution.after
    if after.phase.kind is PhaseKind.RETREAT:
        assert after.centres == fall.centres, label
        after = adjudicate_retreats(after, _retreat_orders(resolution, data), rules).after
    assert after.phase.season is not Season.FALL, label
    board = standard()
    previous = dict(fall.centres)
    for centre in sorted(board.centres):
        unit = after.unit_in(centre)
        expected = unit.power if unit is not None else previous.get(centre)
        assert after.owner(centre) == expected, f"{label}: owner of {centre}"
    if after.phase.kind is PhaseKind.ADJUSTMENT:  # no orders: civil disorder, no builds
        winter = adjudicate_adjustments(after, [], rules).after
        assert winter.phase == Phase(1902, Season.SPRING, PhaseKind.MOVEMENT), label
        assert winter.centres == after.centres, label
        for power in board.powers:
            units = sum(1 for u in after.units if u.power == power)
            centres = sum(1 for _, owner in after.centres if owner == power)
            left = sum(1 for u in winter.units if u.power == power)
            assert left == min(units, centres), f"{label}: {power} keeps {left} units"
    else:
        assert after.phase == Phase(1902, Season.SPRING, PhaseKind.MOVEMENT), label


# -- 6. the same input gives the same bytes, whatever the hash seed -----------------------
_RENDER = """
import json
from solver.formats.cases import Block, Case, CaseOrder
from solver.crosschecking.generate import random_turn
from solver.exploring.explain import explain
from solver.values.position import PhaseKind
from solver.values.rules import RULE_BOOKS
from solver.formats.rulebooks import rule_book
data = []
for i in range(20):
    position, orders = random_turn(f"determinism-{i}")
    block = Block(PhaseKind.MOVEMENT, tuple(CaseOrder(g, None, n) for n, g in enumerate(orders)))
    case = Case(f"det-{i}", "random turn", "-", 0, position, (block,))
    book = sorted(RULE_BOOKS)[i % len(RULE_BOOKS)]
    data.append(explain(case, RULE_BOOKS[book]))
print(json.dumps(data, indent=2))
"""


@slow
def test_output_does_not_depend_on_the_hash_seed():
    """What `dipsat adjudicate --json` prints (explain, as JSON) for 20 random turns."""
    runs = under_hash_seeds(_RENDER, "0", "12345")
    reports = json.loads(runs[0])
    assert [r["case"] for r in reports] == [f"det-{i}" for i in range(20)]
    results = {o["result"] for r in reports for o in r["phases"][0]["orders"]}
    assert {"succeeds", "fails"} <= results
    assert runs[0] == runs[1]


# -- 7. the order parser fails only with documented errors --------------------------------
_ORDER_SAMPLES = [
    "A Paris - Burgundy",
    "F North Sea C A London - Norway",
    "Germany: A Munich S A Berlin - Kiel",
    "F Spain(nc) - Gascony",
    "A Liverpool - Edinburgh via Convoy",
    "F St Petersburg/sc H",
    "A Ber Build",
    "Russia: F Sevastopol Disband",
    "( ENG FLT LON ) MTO NTH",
    "( FRA AMY PAR ) SUP ( FRA AMY MAR ) MTO BUR",
    "(GER FLT (STP NCS)) RTO BAR",
    "AUS WVE",
]
_PHASES = st.sampled_from((None, "movement", "retreat", "adjustment"))


def _parse_or_documented_error(text: str, phase: str | None) -> None:
    try:
        result = parse_given(text, standard(), phase=phase)
    except DipsatError:
        return
    # The canonical print reads back without a phase ('A X - Y' in a retreat phase would
    # read as a retreat, so a DAIDE MTO parsed there is printed as a move that does not).
    assert parse_given(str(result), standard()) == result, text


@settings(max_examples=fuzz_examples(300), deadline=None)
@given(st.text(max_size=80), _PHASES)
def test_parser_raises_only_documented_errors_on_any_text(text, phase):
    _parse_or_documented_error(text, phase)


@settings(max_examples=fuzz_examples(300), deadline=None)
@given(
    st.sampled_from(_ORDER_SAMPLES),
    st.lists(st.tuples(st.integers(0, 60), st.integers(0, 3), st.text(max_size=3)), max_size=4),
    _PHASES,
)
def test_parser_raises_only_documented_errors_on_mutated_orders(order, edits, phase):
    text = order
    for at, cut, insert in edits:
        at = min(at, len(text))
        text = text[:at] + insert + text[at + cut :]
    _parse_or_documented_error(text, phase)


def test_parser_samples_are_valid():
    """The mutations above start from orders that parse (else they would test nothing)."""
    for text in _ORDER_SAMPLES:
        parse_given(text, standard())


# -- 8. the case-file reader fails only with documented errors ----------------------------
_CASE_FILES = sorted((ROOT / "cases" / "datc").glob("*.cases"))
_CASE_LINES = {p.name: p.read_text(encoding="utf-8").splitlines() for p in _CASE_FILES}


def _read_or_documented_error(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    try:
        cases = read_cases(path)
    except DipsatError:
        return
    # What was read adjudicates, or fails with a documented error: the whole pipeline of
    # `dipsat adjudicate FILE` (read, advance through every phase, explain).
    for case in cases:
        assert case.id and case.position is not None
        try:
            data = explain(case, rule_book(case.edition))
        except DipsatError:
            continue
        assert data["case"] == case.id


_FUZZ = settings(
    max_examples=fuzz_examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


@_FUZZ
@given(st.text(max_size=300))
def test_case_reader_raises_only_documented_errors_on_any_text(tmp_path, text):
    _read_or_documented_error(tmp_path / "fuzz.cases", text)


@slow
@_FUZZ
@given(
    st.sampled_from(sorted(_CASE_LINES)),
    st.lists(
        st.tuples(st.sampled_from(("delete", "duplicate", "cut")), st.integers(0, 10**6)),
        min_size=1,
        max_size=8,
    ),
)
def test_case_reader_raises_only_documented_errors_on_mutated_files(tmp_path, name, edits):
    lines = list(_CASE_LINES[name])
    for op, n in edits:
        if not lines:
            break
        i = n % len(lines)
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        else:  # cut the line short somewhere
            lines[i] = lines[i][: n % (len(lines[i]) + 1)]
    _read_or_documented_error(tmp_path / name, "\n".join(lines) + "\n")


def test_case_files_to_mutate_are_valid(tmp_path):
    assert len(_CASE_LINES) >= 10
    for name, lines in _CASE_LINES.items():
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        assert read_cases(path), name
