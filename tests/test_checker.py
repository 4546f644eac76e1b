"""The checker is independent and can fail: tampered resolutions are caught."""

from __future__ import annotations

import dataclasses
import functools
import os
import random
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from conftest import ROOT, all_cases, first_fast
from hypothesis import given, settings
from hypothesis import strategies as st

import solver.judge.convoy_routes as judge_routes
import solver.judge.equations as equations
import solver.judge.legality as legality
import solver.judge.movement as movement
import solver.judge.structure as structure
from solver.checker import check_resolution
from solver.compiled import compiled_modules
from solver.crosschecking.generate import random_turn
from solver.cycle.game import advance
from solver.judge.movement import adjudicate
from solver.multiverse.state import Multiverse
from solver.multiverse.step import step
from solver.values.decisions import CONVOY, MOVE, SEA, SUPPORT
from solver.values.orders import Convoy, Given, Move, Place, SupportHold, SupportMove, UnitRef
from solver.values.outcomes import BackupRule, Illegality, Invalidity, Result
from solver.values.resolution import Core, Resolution
from solver.values.rules import (
    DATC_2025,
    POLICIES,
    RULE_BOOKS,
    PastResults,
    PastRetreats,
    RuleBook,
)
from topology import COASTS, Kind, Location, UnitType

CASES = {c.id: c for c in all_cases()}


def resolve(case_id, rules=DATC_2025):
    case = CASES[case_id]
    return adjudicate(case.position, [o.given for o in case.movement.orders], rules)


@pytest.mark.parametrize(
    "case_id", ["6.A.11", "6.C.1", "6.C.2", "6.D.15", "6.E.4", "6.F.3", "6.F.17", "6.G.9"]
)
def test_flipping_any_decision_breaks_an_equation(case_id):
    """Each decision's own kind of equation is named (not only the outcomes it changes);
    circular movement picks a consistent resolution, so the moves it sets are no exception
    (6.C.1)."""
    resolution = resolve(case_id)
    assert check_resolution(resolution) == []
    circular = {
        d for c in resolution.cores if c.rule is BackupRule.CIRCULAR_MOVEMENT for d in c.decisions
    }
    for decision, value in resolution.values.items():
        if decision in resolution.forced and decision not in circular:
            continue
        tampered = dataclasses.replace(
            resolution, values={**resolution.values, decision: not value}
        )
        problems = check_resolution(tampered)
        assert problems, f"flipping {decision} went unnoticed"
        broken = f"{decision[0].upper()} equation broken for "
        assert any(p.startswith(broken) for p in problems), (decision, problems)


def test_checker_names_the_equation():
    resolution = resolve("6.A.11")
    move = next(d for d in resolution.values if d[0] == "move")
    tampered = dataclasses.replace(
        resolution, values={**resolution.values, move: not resolution.values[move]}
    )
    assert any(p.startswith("MOVE equation broken") for p in check_resolution(tampered))


def test_forced_decision_must_follow_its_rule():
    resolution = resolve("6.F.14")
    assert resolution.forced
    decision = next(iter(resolution.forced))
    tampered = dataclasses.replace(
        resolution, values={**resolution.values, decision: not resolution.forced[decision]}
    )
    assert any("backup rule" in p for p in check_resolution(tampered))


@pytest.mark.parametrize(
    ("case_id", "movers", "name"),
    [("6.A.11", ["ven", "vie"], "Tyrolia"), ("6.E.12", ["gal", "vie"], "Budapest")],
)
def test_two_units_entering_one_province_are_named(case_id, movers, name):
    """Into an empty province (6.A.11) or one its unit leaves (6.E.12)."""
    resolution = resolve(case_id)
    both = {**resolution.values, **{(MOVE, p): True for p in movers}}
    problems = check_resolution(dataclasses.replace(resolution, values=both))
    assert f"two units enter {name}: {movers}" in problems, problems


def _relabelled(resolution, rule):
    """The resolution with every core that is a paradox claimed settled by another rule."""
    cores = tuple(
        dataclasses.replace(c, rule=rule) if c.rule is not BackupRule.UNIQUE else c
        for c in resolution.cores
    )
    return dataclasses.replace(resolution, cores=cores)


@pytest.mark.parametrize(
    ("case_id", "book", "claimed", "objection"),
    [
        ("6.F.14", "2025", BackupRule.ALL_HOLD, "settles a convoy paradox by szykman, not all"),
        ("6.F.14", "2025", BackupRule.DPTG, "settles a convoy paradox by szykman, not dptg"),
        ("6.F.16", "dptg", BackupRule.SZYKMAN, "by dptg or all hold, not szykman"),
        ("6.F.18", "1971", BackupRule.ALL_HOLD, "by unresolved, not all hold"),
        ("6.F.14", "2025", BackupRule.CIRCULAR_MOVEMENT, "by szykman, not circular movement"),
        ("6.C.1", "2025", BackupRule.SZYKMAN, "a core without a convoy is no convoy paradox"),
    ],
)
def test_a_paradox_is_settled_by_the_rule_the_rule_book_gives(case_id, book, claimed, objection):
    """A convoy paradox by the rule of the rule book's convoy paradox policy; any other
    paradox by circular movement."""
    resolution = resolve(case_id, RULE_BOOKS[book])
    assert check_resolution(resolution) == []
    problems = check_resolution(_relabelled(resolution, claimed))
    assert any(objection in p for p in problems), problems


def test_a_backup_rule_sets_every_decision_of_its_kinds_and_no_other():
    resolution = resolve("6.F.14")  # Szykman: the convoy of the paradox fails
    assert resolution.forced
    convoy = next(iter(resolution.forced))
    unforced = dataclasses.replace(resolution, forced={})
    problems = check_resolution(unforced)
    assert any("lies on a core settled by szykman, but is not set by it" in p for p in problems)
    core = next(c for c in resolution.cores if convoy in c.decisions)
    other = next(d for d in core.decisions if d[0] != "convoy")
    overset = {**resolution.forced, other: resolution.values[other]}
    problems = check_resolution(dataclasses.replace(resolution, forced=overset))
    assert any("was set by a backup rule it does not follow" in p for p in problems), problems
    nowhere = {**resolution.forced, (SUPPORT, "nth"): True}
    problems = check_resolution(dataclasses.replace(resolution, forced=nowhere))
    assert any("was set by a backup rule it does not follow" in p for p in problems), problems


def test_an_order_whose_sea_lies_on_an_unresolved_paradox_is_unresolved():
    """1971: a swap by convoy is unresolved when its SEA decision lies on a paradox the rule
    book gives no answer to, as when its MOVE or PATH does."""
    resolution = resolve("6.G.1", RULE_BOOKS["1971"])
    assert (SEA, "nwy") in resolution.values
    paradox = Core(((SEA, "nwy"), (CONVOY, "ska")), 0, BackupRule.UNRESOLVED)
    tampered = dataclasses.replace(resolution, cores=(*resolution.cores, paradox))
    problems = check_resolution(tampered)
    said = "A Norway - Sweden: the decisions make it unresolved, the adjudicator says succeeds"
    assert any(p.endswith(said) for p in problems), problems


@pytest.mark.parametrize(
    ("case_id", "index", "verdict"),
    [("6.D.9", 2, "invalid"), ("6.A.1", 0, "illegal"), ("6.B.11", 0, "active")],
)
def test_a_wrong_verdict_is_named(case_id, index, verdict):
    """An outcome that says illegal or invalid against the checker's reading is named."""
    resolution = resolve(case_id)
    outcomes = list(resolution.outcomes)
    wrong = Result.INVALID if verdict != "invalid" else Result.GIVEN
    outcomes[index] = dataclasses.replace(outcomes[index], result=wrong)
    problems = check_resolution(dataclasses.replace(resolution, outcomes=tuple(outcomes)))
    assert any(f"the checker reads it as {verdict}" in p for p in problems), problems


@pytest.mark.parametrize("case_id", ["6.C.1", "6.D.2", "6.B.2"])
def test_units_left_where_they_were_after_the_turn_are_named(case_id):
    """The next position must hold the units the decisions move, on the coast they reach,
    and not the ones dislodged (6.C.1 a circle, 6.D.2 a dislodgement, 6.B.2 a coast)."""
    resolution = resolve(case_id)
    unmoved = dataclasses.replace(resolution.after, units=resolution.position.units)
    problems = check_resolution(dataclasses.replace(resolution, after=unmoved))
    assert any("should stand after the turn" in p for p in problems), problems
    assert any("which the decisions do not put there" in p for p in problems), problems


def test_a_missing_or_extra_decision_is_named():
    resolution = resolve("6.C.4")  # a convoyed army: it has a path decision
    path = next(d for d in resolution.values if d[0] == "path")
    values = {d: v for d, v in resolution.values.items() if d != path}
    problems = check_resolution(dataclasses.replace(resolution, values=values))
    assert any(p.startswith("the resolution lacks the decision path[") for p in problems)
    extra = {**resolution.values, (SUPPORT, "nth"): True}
    problems = check_resolution(dataclasses.replace(resolution, values=extra))
    assert any(p.startswith("the resolution decides support[") for p in problems), problems


def test_a_missing_or_extra_retreat_or_standoff_is_named():
    resolution = resolve("6.D.2")  # A Venice is dislodged
    (retreat,) = resolution.dislodged
    problems = check_resolution(dataclasses.replace(resolution, dislodged=()))
    assert "A ven is dislodged but not listed to retreat" in problems, problems
    tyrolia = next(u for u in resolution.position.units if u.province == "tyr")
    extra = (retreat, dataclasses.replace(retreat, unit=tyrolia))
    problems = check_resolution(dataclasses.replace(resolution, dislodged=extra))
    assert "A tyr is listed to retreat but not dislodged" in problems, problems
    resolution = resolve("6.A.11")  # a standoff in Tyrolia
    problems = check_resolution(dataclasses.replace(resolution, standoffs=frozenset()))
    assert "a standoff leaves Tyrolia empty, not listed" in problems, problems
    extra_standoff = frozenset({"tyr", "ven"})
    problems = check_resolution(dataclasses.replace(resolution, standoffs=extra_standoff))
    assert "Venice is listed as a standoff, which the decisions do not make" in problems


# -- fault injection: break the adjudicator, never the checker --------------------------------
# Each fault breaks one rule in the adjudicator's legality, its convoy routes or its
# equations.  The checker imports none of them (tests/test_layers.py), so the patch cannot
# reach it: wherever a fault changes what the adjudicator says about a case, under any rule
# book, the checker must object to some resolution of that case.

BOOKS = sorted(RULE_BOOKS)


def play(case, rules):
    """Every phase of a case: the outcomes' labels, and the movement resolutions (the
    adjudicator raising is a loud failure: it counts as an objection)."""
    labels, resolutions = [], []
    try:
        if case.multiverse:
            mv = Multiverse.start(case.position)
            for block in case.blocks:
                done = step(mv, [o.given for o in block.orders], rules)
                labels.append(tuple(o.label for o in done.outcomes))
                resolutions += [done.resolution] if done.resolution is not None else []
                mv = done.after
        else:
            position = case.position
            for block in case.blocks:
                done = advance(position, [o.given for o in block.orders], rules)
                labels.append(tuple(o.label for o in done.outcomes))
                resolutions += [done] if isinstance(done, Resolution) else []
                position = done.after
    except Exception as error:  # a fault may leave the adjudicator inconsistent
        return ("raised", repr(error)), None
    return tuple(labels), resolutions


@functools.cache
def unfaulted() -> dict[tuple[str, str], tuple]:
    return {(b, c.id): play(c, RULE_BOOKS[b])[0] for b in BOOKS for c in CASES.values()}


def _invalid_reason_unless(drop):
    """`legality._invalid_reason` that finds nothing wrong with the orders `drop` picks."""
    found = legality._invalid_reason

    def patched(position, in_force, convoys, unit, checked):
        reason = found(position, in_force, convoys, unit, checked)
        return None if reason is not None and drop(checked, reason) else reason

    return patched


def invalid_supports_count(mp):
    supports = SupportHold | SupportMove
    mp.setattr(
        legality,
        "_invalid_reason",
        _invalid_reason_unless(lambda c, _: isinstance(c.order, supports)),
    )


def hold_support_for_a_mover_counts(mp):
    moving = Invalidity.SUPPORTED_UNIT_MOVES
    mp.setattr(legality, "_invalid_reason", _invalid_reason_unless(lambda _, r: r.code is moving))


def nothing_is_invalid(mp):
    mp.setattr(legality, "_invalid_reason", lambda *args: None)


def convoyed_armies_flip_by_convoy(mp):
    """Every army move that a convoy order names goes over land if it went by convoy, and
    by convoy if it went over land."""
    analyse = legality.analyse

    def patched(position, givens, rules=DATC_2025):
        turn = analyse(position, givens, rules)
        named = {c.target for _, c in turn.orders if c and isinstance(c.order, Convoy)}
        flipped = {
            c.index: c.replaced(by_convoy=not c.by_convoy)
            for u, c in turn.orders
            if c and isinstance(c.order, Move) and u.type is UnitType.ARMY and u.province in named
        }
        checked = tuple(flipped.get(c.index, c) for c in turn.checked)
        orders = tuple((u, c and flipped.get(c.index, c)) for u, c in turn.orders)
        return dataclasses.replace(turn, checked=checked, orders=orders)

    mp.setattr(movement, "analyse", patched)


def _routes_changed(mp, change):
    found = judge_routes.minimal_routes

    def patched(board, origin, dest, fleets):
        return iter(change(list(found(board, origin, dest, fleets))))

    for module in (judge_routes, legality, structure):  # each holds its own name for it
        mp.setattr(module, "minimal_routes", patched)


def routes_lose_their_last_fleet(mp):
    _routes_changed(mp, lambda routes: [route[:-1] for route in routes])


def one_of_several_routes_is_lost(mp):
    _routes_changed(mp, lambda routes: routes[1:] if len(routes) > 1 else routes)


def moves_ignore_borders(mp):
    """A move (or supported move) to a province the unit does not border, nor reach by
    any chain of fleets, is legal: it goes over land."""
    found = legality._move_problem
    far = {Illegality.UNREACHABLE, Illegality.FLEET_CANNOT_REACH}

    def patched(board, position, unit, dest, coast, exclude=None, rules=DATC_2025):
        problem, settled, by_convoy = found(board, position, unit, dest, coast, exclude, rules)
        a_coast_within_reach = board.fleet_coasts_towards(unit.location, dest)
        if problem is not None and problem.code in far and not a_coast_within_reach:
            return None, Location(dest), False
        return problem, settled, by_convoy

    mp.setattr(legality, "_move_problem", patched)


def no_swap_by_convoy_in_1971(mp):
    mp.setattr(legality, "_swaps", lambda *args: False)


def no_head_to_head_battles(mp):
    """No two moves meet head to head: a swap is a circle of two moves, which the backup
    rule of circular movement lets succeed."""
    found = structure.head_to_head
    mp.setattr(structure, "head_to_head", lambda *facts: ({}, found(*facts)[1]))


def no_support_is_protected(mp):
    """The edition's paradox clause (4.A.2) never keeps a convoyed army from cutting a
    support."""
    mp.setattr(equations, "protected", lambda *args: False)


FAULTS = {
    # fault: (cases it must change under some rule book, words of an objection it meets)
    invalid_supports_count: ({"6.B.9", "6.D.9", "6.D.26", "6.H.14"}, "reads it as invalid"),
    hold_support_for_a_mover_counts: ({"6.D.7", "6.D.8", "6.D.25"}, "reads it as invalid"),
    nothing_is_invalid: ({"6.D.27", "6.G.8", "6.H.13"}, "reads it as invalid"),
    convoyed_armies_flip_by_convoy: ({"6.C.5", "6.F.14", "6.G.1"}, "lacks the decision path"),
    routes_lose_their_last_fleet: ({"6.C.4", "6.D.6", "6.F.10"}, "reads it as active"),
    one_of_several_routes_is_lost: ({"6.F.9", "6.F.19", "6.F.30"}, "reads it as active"),
    moves_ignore_borders: ({"6.A.1", "6.B.11", "6.D.28", "MV.1"}, "reads it as illegal"),
    no_swap_by_convoy_in_1971: ({"6.G.1", "6.G.7"}, "lacks the decision sea"),
    no_head_to_head_battles: ({"6.B.13", "6.E.2", "6.G.19", "PYDIP.s1-601"}, "MOVE equation"),
    no_support_is_protected: ({"6.F.14", "6.F.24", "6.G.11", "MILA.s1-480"}, "SUPPORT equation"),
}


FAULT_TEST = "test_the_checker_objects_wherever_a_fault_changes_the_outcomes"


@pytest.fixture(scope="module")
def faults_on_the_sources(tmp_path_factory):
    """Each fault test's failure (None: it passed), run once in a process that reads the
    judge from its Python sources (DIPSAT_PURE=1): a compiled module calls its own functions
    directly, so a fault replacing one of them is injected into the sources."""
    report = tmp_path_factory.mktemp("faults") / "report.xml"
    test = f"{Path(__file__).resolve()}::{FAULT_TEST}"
    command = [sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider"]
    env = {**os.environ, "DIPSAT_PURE": "1"}
    subprocess.run([*command, test, f"--junitxml={report}"], cwd=ROOT, env=env, check=False)
    outcomes = {}
    for case in ElementTree.parse(report).iter("testcase"):
        failed = [e for e in case if e.tag in ("failure", "error", "skipped")]
        outcomes[case.get("name")] = failed[0].get("message") if failed else None
    return outcomes


@pytest.mark.parametrize("fault", first_fast(FAULTS), ids=lambda f: f.__name__)
def test_the_checker_objects_wherever_a_fault_changes_the_outcomes(fault, monkeypatch, request):
    if compiled_modules():  # the faults replace functions of the judge's sources
        outcomes = request.getfixturevalue("faults_on_the_sources")
        assert request.node.name in outcomes, "the test did not run on the sources"
        assert outcomes[request.node.name] is None, outcomes[request.node.name]
        return
    must_change, objection = FAULTS[fault]
    before = unfaulted()
    fault(monkeypatch)
    changed: dict[tuple[str, str], list[str]] = {}
    for book in BOOKS:
        for case in CASES.values():
            labels, resolutions = play(case, RULE_BOOKS[book])
            if labels == before[(book, case.id)]:
                continue
            if resolutions is None:
                changed[(book, case.id)] = [f"the adjudicator raised {labels[1]}"]
            else:
                changed[(book, case.id)] = [p for r in resolutions for p in check_resolution(r)]
    ids = {case for _, case in changed}
    assert must_change <= ids, f"the fault changes {sorted(ids)}"
    unnoticed = sorted(pair for pair, problems in changed.items() if not problems)
    assert not unnoticed, f"{len(unnoticed)} of {len(changed)} changes unnoticed: {unnoticed}"
    assert any(objection in p for problems in changed.values() for p in problems)


# -- agreement under any mix of policies --------------------------------------------------------
POLICY_CHOICES = {
    name: (False, True) if isinstance(value, bool) else tuple(type(value))
    for name in POLICIES
    if not isinstance(value := getattr(DATC_2025, name), str)
}


def _unsettled(rng: random.Random, position, orders: list[Given]) -> list[Given]:
    """The legal orders of a random turn, some made wrong the ways players get them wrong:
    a coast written for the unit or its destination, "via convoy" toggled, another power,
    a second order, a fleet ordered from the coast it is not on (6.B.11), and extra convoys
    and supports for the moves."""
    board = position.board
    units = list(position.units)
    moves = [g.order for g in orders if isinstance(g.order, Move)]
    seas = [
        u for u in units if u.type is UnitType.FLEET and board.province(u.province).kind is Kind.SEA
    ]

    def any_coast(province: str) -> str | None:
        return rng.choice((None, *board.province(province).coasts, rng.choice(COASTS)))

    found = []
    for submitted in orders:
        order, roll = submitted.order, rng.random()
        here = order.unit.place
        if roll < 0.08:
            order = dataclasses.replace(
                order, unit=UnitRef(Place(here.province, any_coast(here.province)))
            )
        elif roll < 0.16 and hasattr(order, "dest"):
            dest = order.dest
            order = dataclasses.replace(order, dest=Place(dest.province, any_coast(dest.province)))
        elif roll < 0.22 and isinstance(order, Move):
            order = dataclasses.replace(order, via_convoy=not order.via_convoy)
        elif roll < 0.25:
            submitted = dataclasses.replace(submitted, power=rng.choice(board.powers))
        elif roll < 0.35 and isinstance(order, Move):
            unit = position.unit_in(here.province)
            others = [c for c in board.province(here.province).coasts if c != unit.location.coast]
            if unit.type is UnitType.FLEET and others:
                there = rng.choice(
                    board.retreat_neighbours(Location(unit.province, others[0]), unit.type)
                )
                order = Move(
                    UnitRef(Place(here.province, others[0])), Place(there.province, there.coast)
                )
        found.append(dataclasses.replace(submitted, order=order))
        if rng.random() < 0.05:
            found.append(rng.choice(orders))
    for _ in range(rng.randint(0, 3) if moves else 0):
        move, fleet = rng.choice(moves), rng.choice(seas) if seas else rng.choice(units)
        found.append(
            Given(fleet.power, Convoy(UnitRef(Place(fleet.province)), move.unit, move.dest))
        )
        supporter = rng.choice(units)
        place = Place(supporter.province, supporter.location.coast)
        found.append(Given(supporter.power, SupportMove(UnitRef(place), move.unit, move.dest)))
    rng.shuffle(found)
    return found


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 10**9),
    st.integers(2, 34),
    st.fixed_dictionaries({n: st.sampled_from(c) for n, c in POLICY_CHOICES.items()}),
)
def test_the_checker_agrees_under_any_mix_of_policies(seed, units, policies):
    """Random turns with orders gone wrong, under rule books no edition has: the checker
    reads them as the adjudicator does (the named editions: tests/test_properties.py)."""
    position, orders = random_turn(f"mixed-{seed}", units=(units, units))
    orders = _unsettled(random.Random(seed), position, orders)
    if policies["past_retreats"] is PastRetreats.PAUSE:  # a pause records on the past board
        policies = {**policies, "past_results": PastResults.REWRITTEN}
    resolution = adjudicate(position, orders, RuleBook("mixed", **policies))
    assert check_resolution(resolution) == [], f"seed {seed}, {units} units, {policies}"
