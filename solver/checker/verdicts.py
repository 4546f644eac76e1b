"""Does the resolution say what the checker's reading and the claimed decisions say?

The verdict on each order (illegal, invalid or active), the set of decisions the orders in
force call for, the result and fate of each order, the dislodged units, the standoffs and
the units standing after the turn.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from typing import Any, TypeVar

from topology import Location

from ..values.decisions import CONVOY, MOVE, ORDER_KINDS, SUPPORT
from ..values.orders import Convoy, Hold, Move, SupportHold, SupportMove
from ..values.outcomes import BackupRule, Result
from ..values.position import Unit
from .claim import Claim
from .decided import ClaimedDecisions
from .reading import Reading, Verdict
from .turn import TurnReading

T = TypeVar("T")

_SAID = {Result.ILLEGAL: Verdict.ILLEGAL, Result.INVALID: Verdict.INVALID}
"""The verdict an outcome's result states (every other result: an active order)."""


def differences(
    expected: AbstractSet[T],
    claimed: AbstractSet[T],
    lacking: Callable[[T], str],
    extra: Callable[[T], str],
    order: Callable[[T], tuple[Any, ...]],
) -> list[str]:
    """What the resolution lacks of what the checker expects, then what it claims beyond
    that, each named, each part in order."""
    found = [lacking(x) for x in sorted(expected - claimed, key=order)]
    found += [extra(x) for x in sorted(claimed - expected, key=order)]
    return found


def verdict_problems(claim: Claim, turn: TurnReading) -> list[str]:
    """Orders whose result says illegal or invalid when the checker reads otherwise, or
    the other way round."""
    readings = turn.orders.readings
    found = []
    if len(claim.outcomes) != len(readings):
        found.append(f"{len(readings)} orders, but {len(claim.outcomes)} outcomes")
    for reading, outcome in zip(readings, claim.outcomes, strict=False):
        if outcome.given != reading.given:
            found.append(f"outcome {reading.index + 1} is not for the order {reading.given}")
            continue
        said = _SAID.get(outcome.result, Verdict.ACTIVE)
        if said is not reading.verdict:
            why = f" ({reading.why})" if reading.why else ""
            found.append(
                f"{reading.given}: the checker reads it as {reading.verdict.value}{why}, "
                f"the adjudicator says {outcome.result}"
            )
    return found


def decision_set_problems(claim: Claim, turn: TurnReading) -> list[str]:
    """Decisions the orders in force call for that the resolution lacks, and decisions it
    has that they do not call for."""
    return differences(
        turn.decisions,
        set(claim.values),
        lambda d: f"the resolution lacks the decision {turn.label(d)}",
        lambda d: (
            f"the resolution decides {turn.label(d)}, which the orders in force do not call for"
        ),
        order=lambda d: d,
    )


def result_of(reading: Reading, decided: ClaimedDecisions) -> Result:
    """The result the decisions give an active order in force."""
    assert reading.unit is not None
    p = reading.unit.province
    match reading.order:
        case Hold():
            return Result.STANDS
        case Move():
            return Result.SUCCEEDS if decided(MOVE, p) else Result.FAILS
        case SupportHold() | SupportMove():
            return Result.GIVEN if decided(SUPPORT, p) else Result.CUT
        case Convoy():
            return Result.AVAILABLE if decided(CONVOY, p) else Result.DISRUPTED
    raise AssertionError(reading.order)


def outcome_problems(claim: Claim, turn: TurnReading, decided: ClaimedDecisions) -> list[str]:
    """Results and fates (dislodged, destroyed) that do not follow from the decisions: an
    order in force one of whose own decisions (`ORDER_KINDS`, 1971's SEA among them) lies on
    a paradox the rule book gives no answer to is unresolved."""
    unresolved = {d for c in claim.cores if c.rule is BackupRule.UNRESOLVED for d in c.decisions}
    options = {r.unit.province: r.options for r in claim.dislodged}
    found = []
    for reading, outcome in zip(turn.orders.readings, claim.outcomes, strict=False):
        if outcome.given != reading.given:
            continue  # named among the verdicts
        p = reading.unit.province if reading.unit is not None else None
        if reading.verdict is Verdict.ACTIVE and p is not None:
            open_paradox = any((kind, p) in unresolved for kind in ORDER_KINDS)
            expected = Result.UNRESOLVED if open_paradox else result_of(reading, decided)
            if outcome.result != expected:
                found.append(
                    f"{reading.given}: the decisions make it {expected}, "
                    f"the adjudicator says {outcome.result}"
                )
            if open_paradox:
                continue  # its fate is as unknown as its result
        dislodged = p is not None and decided.dislodged(p)
        destroyed = dislodged and p in options and not options[p]
        if (outcome.dislodged, outcome.destroyed) != (dislodged, destroyed):
            fate = "destroyed" if destroyed else "dislodged" if dislodged else "not dislodged"
            found.append(
                f"{reading.given}: the decisions leave its unit {fate}, not {outcome.label}"
            )
    return found


def dislodgement_problems(claim: Claim, turn: TurnReading, decided: ClaimedDecisions) -> list[str]:
    """The units listed to retreat are the dislodged ones, each with its attacker."""
    expected = {p for p in turn.units if decided.dislodged(p)}
    listed = {r.unit.province: r for r in claim.dislodged}
    found = differences(
        expected,
        listed.keys(),
        lambda p: f"{turn.units[p]} is dislodged but not listed to retreat",
        lambda p: f"{listed[p].unit} is listed to retreat but not dislodged",
        order=lambda p: (p,),
    )
    for p in sorted(expected & listed.keys()):
        entry = listed[p]
        movers = [m for m in turn.into(p) if decided.succeeds(m)]
        if entry.unit != turn.units[p]:
            found.append(f"{entry.unit} is listed to retreat, but {turn.units[p]} stands there")
        if entry.attacker_from not in movers:
            found.append(
                f"{entry.unit} is listed as dislodged from {entry.attacker_from}, not by {movers}"
            )
            continue
        m = entry.attacker_from
        by_sea = turn.convoyed(m) or decided.by_sea(m)
        if entry.by_convoy != by_sea:
            how = "by convoy" if entry.by_convoy else "not by convoy"
            found.append(f"{entry.unit} is listed as dislodged {how}, which it is not")
    return found


def standoff_problems(claim: Claim, turn: TurnReading, decided: ClaimedDecisions) -> list[str]:
    """4.A.6: the provinces left empty although a unit with a path tried to enter and was
    not beaten head to head (no retreat may go there)."""
    occupied = {turn.dest(p) for p in turn.moves if decided.succeeds(p)}
    occupied |= {p for p in turn.units if not decided.succeeds(p) and not decided.dislodged(p)}
    expected = set()
    for q in {turn.dest(p) for p in turn.moves} - occupied:
        for m in turn.into(q):
            opponent = decided.head_to_head(m)
            beaten = opponent is not None and decided.succeeds(opponent)
            if decided.path(m) and not beaten and not decided.succeeds(m):
                expected.add(q)
    return differences(
        expected,
        set(claim.standoffs),
        lambda q: f"a standoff leaves {turn.name(q)} empty, not listed",
        lambda q: f"{turn.name(q)} is listed as a standoff, which the decisions do not make",
        order=lambda q: (q,),
    )


def standing_problems(claim: Claim, turn: TurnReading, decided: ClaimedDecisions) -> list[str]:
    """The units on the board after the turn: none that is dislodged (a dislodgement kept
    from history included), each other one whose move succeeded where it went, the rest
    where they were."""
    expected = set()
    for p, unit in turn.units.items():
        if decided.dislodged(p):
            continue
        if decided.succeeds(p):
            move = turn.moves[p]
            expected.add(Unit(Location(turn.dest(p), move.coast), unit.type, unit.power))
        else:
            expected.add(unit)
    return differences(
        expected,
        set(claim.after.units),
        lambda u: f"{u} should stand after the turn",
        lambda u: f"{u} stands after the turn, which the decisions do not put there",
        order=lambda u: (str(u),),
    )
