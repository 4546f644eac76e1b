"""What a turn came to: from the settled decisions to outcomes with typed reasons, the
dislodged units with their retreats, the standoffs and the next position."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..values.decisions import (
    CONVOY,
    DISLODGED,
    MOVE,
    ORDER_KINDS,
    PATH,
    SEA,
    SUPPORT,
    Decision,
    DecisionKind,
)
from ..values.orders import Hold
from ..values.outcomes import (
    BackupRule,
    Bounced,
    CutBy,
    DislodgedBy,
    NoPath,
    Outcome,
    ParadoxRule,
    Reason,
    Result,
)
from ..values.position import DislodgedUnit, Position, Unit
from ..values.resolution import Core, Resolution, Retreating
from .checked import Checked, CheckedConvoy, CheckedMove, CheckedSupport, Status, Turn
from .fallback import Settlement
from .model import Structure, cuts
from .retreat_options import retreating

NextPosition = Callable[
    [Position, tuple[Unit, ...], tuple[DislodgedUnit, ...], frozenset[str]], Position
]
"""What follows a movement phase: from the position before it, the units standing after it,
the dislodged units and the standoff provinces (`solver.values.calendar.after_movement` for
a game; the multiverse splits the joint board itself)."""


def as_it_stands(
    before: Position,
    units: tuple[Unit, ...],
    dislodged: tuple[DislodgedUnit, ...],
    standoffs: frozenset[str],
) -> Position:
    """The board right after the movement, its phase unchanged: what follows is the
    caller's business (a multiverse splits its joint board; the explorer needs nothing)."""
    return before.derive(before.phase, units, (), dislodged, standoffs)


class _Decided:
    """The settled value of each decision, read as the outcomes need it."""

    def __init__(self, s: Structure, values: Mapping[Decision, bool]) -> None:
        self.s = s
        # with what is known without deciding (a move over land has its path): one table
        self.values = {**s.trivial, **values}

    def __call__(self, kind: DecisionKind, p: str) -> bool:
        return self.values.get((kind, p), False)

    def moved(self, p: str) -> bool:
        return p in self.s.moves and self(MOVE, p)


def resolve(
    turn: Turn, structure: Structure, settlement: Settlement, then: NextPosition
) -> Resolution:
    """Turn the settled decisions into outcomes, dislodgements and the position `then`
    makes of what stands after the movement."""
    s = structure
    decided = _Decided(s, settlement.values)
    dislodger = dislodgers(s, decided)
    units, occupied = standing(s, decided, dislodger)
    empty = standoffs(s, decided, occupied)
    retreating = retreats(turn, s, decided, dislodger, units, empty)
    paradox_of = {d: c for c in settlement.cores if c.is_paradox for d in c.decisions}
    destroyed = {r.unit.province for r in retreating if not r.options}
    outcomes = tuple(
        outcome_of(checked, s, decided, dislodger, destroyed, paradox_of)
        for checked in turn.checked
    )
    dislodged = tuple(DislodgedUnit(r.unit, r.attacker_from, r.by_convoy) for r in retreating)
    return Resolution(
        position=turn.position,
        orders=tuple(c.given for c in turn.checked),
        rules=turn.rules,
        outcomes=outcomes,
        after=then(turn.position, units, dislodged, empty),
        values=dict(settlement.values),
        cores=settlement.cores,
        forced=settlement.forced,
        dislodged=retreating,
        standoffs=empty,
        recorded=dict(settlement.recorded),
    )


def dislodgers(s: Structure, decided: _Decided) -> dict[str, str]:
    """Each dislodged unit's province, with the province of the unit that came in."""
    return {
        p: next(m for m in s.attackers[p] if decided(MOVE, m))
        for p in s.unit_at
        if decided(DISLODGED, p)
    }


def standing(
    s: Structure, decided: _Decided, dislodger: Mapping[str, str]
) -> tuple[tuple[Unit, ...], set[str]]:
    """The units left on the board after the movement, and the provinces they occupy."""
    units = []
    occupied = set()
    for p, unit in s.unit_at.items():
        if p in dislodger:
            continue
        if decided.moved(p):
            loc = s.moves[p].dest
            units.append(Unit(loc, unit.type, unit.power))
            occupied.add(loc.province)
        else:
            units.append(unit)
            occupied.add(p)
    return tuple(units), occupied


def standoffs(s: Structure, decided: _Decided, occupied: set[str]) -> frozenset[str]:
    """Provinces left empty although a unit with a path tried to enter and was not beaten in
    a head-to-head battle: no retreat may go there (DATC 4.A.6, 6.H.11)."""
    found = set()
    for q, movers in s.attackers.items():
        if q in occupied:
            continue
        for m in movers:
            by_sea = any(decided(SEA, x) for x in (m, s.opposing.get(m)) if x in s.fallback)
            beaten = m in s.opposing and decided(MOVE, s.opposing[m]) and not by_sea
            if decided(PATH, m) and not beaten and not decided(MOVE, m):
                found.add(q)
    return frozenset(found)


def retreats(
    turn: Turn,
    s: Structure,
    decided: _Decided,
    dislodger: Mapping[str, str],
    units: tuple[Unit, ...],
    empty: frozenset[str],
) -> tuple[Retreating, ...]:
    """Each dislodged unit with its attacker's origin and the places it may retreat to."""
    if not dislodger:
        return ()
    after = turn.position.derive(turn.position.phase, units, (), (), empty)
    found = []
    for p, m in sorted(dislodger.items()):
        by_sea = s.moves[m].by_convoy or (m in s.fallback and decided(SEA, m))
        found.append(retreating(after, DislodgedUnit(s.unit_at[p], m, by_sea), turn.rules))
    return tuple(found)


def outcome_of(
    checked: Checked,
    s: Structure,
    decided: _Decided,
    dislodger: Mapping[str, str],
    destroyed: set[str],
    paradox_of: Mapping[Decision, Core],
) -> Outcome:
    """The outcome of one submitted order, with its reason."""
    p = checked.unit.province if checked.unit is not None else None
    is_dislodged = p is not None and p in dislodger
    is_destroyed = is_dislodged and p in destroyed
    if checked.status is Status.ILLEGAL:
        return Outcome(checked.given, Result.ILLEGAL, is_dislodged, is_destroyed, checked.reason)
    if checked.status is Status.INVALID:
        return Outcome(checked.given, Result.INVALID, is_dislodged, is_destroyed, checked.reason)
    assert p is not None
    unresolved = _unresolved(checked, s, p, paradox_of) if paradox_of else None
    if unresolved is not None:  # its fate is as unknown as its result
        return Outcome(checked.given, Result.UNRESOLVED, reason=unresolved)
    result, reason = _result(checked, s, decided, p, paradox_of)
    if reason is None and is_dislodged and result in _FAILS_BY_DISLODGEMENT:
        reason = DislodgedBy(s.names[dislodger[p]])
    return Outcome(checked.given, result, is_dislodged, is_destroyed, reason)


_FAILS_BY_DISLODGEMENT = (Result.STANDS, Result.CUT, Result.DISRUPTED)
"""Results whose reason, when no other is given, is the dislodgement."""


def _unresolved(
    checked: Checked, s: Structure, p: str, paradox_of: Mapping[Decision, Core]
) -> ParadoxRule | None:
    """The unresolved paradox the order in force lies on, if any."""
    if s.order_of.get(p) is not checked:
        return None
    for kind in ORDER_KINDS:
        core = paradox_of.get((kind, p))
        if core is not None and core.unresolved:
            return ParadoxRule(core.rule, core.labels)
    return None


def _result(
    checked: Checked,
    s: Structure,
    decided: _Decided,
    p: str,
    paradox_of: Mapping[Decision, Core],
) -> tuple[Result, Reason | None]:
    """The result of an order in force, and its reason (None: whatever dislodged it)."""
    match checked:
        case CheckedMove():
            core = (paradox_of.get((MOVE, p)) or paradox_of.get((PATH, p))) if paradox_of else None
            if decided(MOVE, p):
                if core is not None and core.rule is BackupRule.CIRCULAR_MOVEMENT:
                    return Result.SUCCEEDS, ParadoxRule(core.rule, core.labels)
                return Result.SUCCEEDS, None
            if not checked.reachable:
                return Result.FAILS, checked.reason
            if not decided(PATH, p):
                return Result.FAILS, ParadoxRule(core.rule, core.labels) if core else NoPath()
            q = checked.dest.province
            blockers = [s.names[r] for r in s.attackers[q] if r != p]
            if q in s.unit_at:
                blockers.insert(0, s.names[q])
            return Result.FAILS, Bounced(tuple(blockers))
        case CheckedSupport():
            if decided(SUPPORT, p):
                return Result.GIVEN, None
            aim = checked.dest.province if checked.dest is not None else checked.target
            cutters = tuple(
                s.names[m]
                for m in s.attackers.get(p, ())
                if cuts(s, m, p, aim) and decided(PATH, m)
            )
            return Result.CUT, CutBy(cutters) if cutters else None
        case CheckedConvoy():
            if decided(CONVOY, p):
                return Result.AVAILABLE, None
            core = paradox_of.get((CONVOY, p))
            return Result.DISRUPTED, ParadoxRule(core.rule, core.labels) if core else None
    if isinstance(checked.order, Hold):
        return Result.STANDS, None
    raise AssertionError(f"not a movement order in force: {checked.order}")
