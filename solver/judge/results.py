"""What a turn came to: from the settled decisions to outcomes with typed reasons, the
dislodged units with their retreats, the standoffs and the next position."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from topology import Key

from ..values.decisions import Decision
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
from .checked import Checked, CheckedConvoy, CheckedMove, CheckedSupport, JudgedTurn, Status
from .equations import cuts
from .fallback import CoreFound, Settlement
from .retreat_options import retreating
from .structure import (
    KINDS,
    R_CONVOY,
    R_DISLODGED,
    R_MOVE,
    R_PATH,
    R_SEA,
    R_SUPPORT,
    Structure,
)

NextPosition = Callable[
    [Position, tuple[Unit, ...], tuple[DislodgedUnit, ...], frozenset[Key]], Position
]
"""What follows a movement phase: from the position before it, the units standing after it,
the dislodged units and the standoff provinces (`solver.values.calendar.after_movement` for
a game; the multiverse splits the joint board itself)."""


def as_it_stands(
    before: Position,
    units: tuple[Unit, ...],
    dislodged: tuple[DislodgedUnit, ...],
    standoffs: frozenset[Key],
) -> Position:
    """The board right after the movement, its phase unchanged: what follows is the
    caller's business (a multiverse splits its joint board; the explorer needs nothing)."""
    return before.derive(before.phase, units, (), dislodged, standoffs)


class Decided:
    """The settled value of each decision of a turn, read by kind and unit."""

    __slots__ = ("convoy0", "dislodged0", "move0", "path0", "s", "sea0", "support0", "values")

    def __init__(self, s: Structure, values: Mapping[int, bool]) -> None:
        self.s = s
        # with what is known without deciding (a move over land has its path): one table
        table = [False] * (6 * s.count)
        for known in (s.trivial, values):
            for d, v in known.items():
                table[d] = v
        self.values = table
        count = s.count
        self.move0, self.path0, self.sea0 = R_MOVE * count, R_PATH * count, R_SEA * count
        self.support0, self.convoy0 = R_SUPPORT * count, R_CONVOY * count
        self.dislodged0 = R_DISLODGED * count

    def moved(self, u: int) -> bool:
        return u in self.s.moves and self.values[self.move0 + u]


def decision_values(s: Structure, values: Mapping[int, bool]) -> dict[Decision, bool]:
    """Decisions by number as the values users see, in the same order."""
    if not values:
        return {}
    count, keys = s.count, s.keys
    return {(KINDS[d // count], keys[d % count]): v for d, v in values.items()}


def cores_of(s: Structure, found: Sequence[CoreFound]) -> tuple[Core, ...]:
    """The cores met, as the values users see, each decision named after its order."""
    return tuple(
        Core(
            tuple(s.value(d) for d in c.decisions),
            c.solutions,
            c.rule,
            tuple(s.label(d) for d in c.decisions),
        )
        for c in found
    )


def resolve(
    turn: JudgedTurn, structure: Structure, settlement: Settlement, then: NextPosition
) -> Resolution:
    """Turn the settled decisions into outcomes, dislodgements and the position `then`
    makes of what stands after the movement."""
    s = structure
    decided = Decided(s, settlement.values)
    dislodger = dislodgers(s, decided)
    units, occupied = standing(s, decided, dislodger)
    empty = standoffs(s, decided, occupied)
    retreats_found = retreats(turn, s, decided, dislodger, units, empty)
    cores = cores_of(s, settlement.cores)
    paradox_of = {
        d: core
        for found, core in zip(settlement.cores, cores, strict=True)
        if core.is_paradox
        for d in found.decisions
    }
    destroyed = {s.number[r.unit.province] for r in retreats_found if not r.options}
    outcomes = tuple(
        outcome_of(checked, s, decided, dislodger, destroyed, paradox_of)
        for checked in turn.checked
    )
    dislodged = tuple(DislodgedUnit(r.unit, r.attacker_from, r.by_convoy) for r in retreats_found)
    return Resolution(
        position=turn.position,
        orders=tuple(c.given for c in turn.checked),
        rules=turn.rules,
        outcomes=outcomes,
        after=then(turn.position, units, dislodged, empty),
        values=decision_values(s, settlement.values),
        cores=cores,
        forced=decision_values(s, settlement.forced),
        dislodged=retreats_found,
        standoffs=empty,
        recorded=decision_values(s, settlement.recorded),
    )


def dislodgers(s: Structure, decided: Decided) -> dict[int, int]:
    """Each dislodged unit, with the unit that came in."""
    values, move0, dislodged0 = decided.values, decided.move0, decided.dislodged0
    return {
        u: next(m for m in s.attackers[u] if values[move0 + m])
        for u in range(s.count)
        if values[dislodged0 + u]
    }


def standing(
    s: Structure, decided: Decided, dislodger: Mapping[int, int]
) -> tuple[tuple[Unit, ...], set[Key]]:
    """The units left on the board after the movement, and the provinces they occupy."""
    units = []
    occupied = set()
    for u, unit in enumerate(s.units):
        if u in dislodger:
            continue
        if decided.moved(u):
            loc = s.moves[u].dest
            units.append(Unit(loc, unit.type, unit.power))
            occupied.add(loc.province)
        else:
            units.append(unit)
            occupied.add(s.keys[u])
    return tuple(units), occupied


def standoffs(s: Structure, decided: Decided, occupied: set[Key]) -> frozenset[Key]:
    """Provinces left empty although a unit with a path tried to enter and was not beaten in
    a head-to-head battle: no retreat may go there (DATC 4.A.6, 6.H.11)."""
    found = set()
    values = decided.values
    for place, movers in enumerate(s.attackers):
        q = s.places[place]
        if not movers or q in occupied:
            continue
        for m in movers:
            other = s.opposing.get(m)
            by_sea = any(
                values[decided.sea0 + x] for x in (m, other) if x is not None and x in s.fallback
            )
            beaten = other is not None and values[decided.move0 + other] and not by_sea
            if values[decided.path0 + m] and not beaten and not values[decided.move0 + m]:
                found.add(q)
    return frozenset(found)


def retreats(
    turn: JudgedTurn,
    s: Structure,
    decided: Decided,
    dislodger: Mapping[int, int],
    units: tuple[Unit, ...],
    empty: frozenset[Key],
) -> tuple[Retreating, ...]:
    """Each dislodged unit with its attacker's origin and the places it may retreat to."""
    if not dislodger:
        return ()
    after = turn.position.derive(turn.position.phase, units, (), (), empty)
    found = []
    for u, m in sorted(dislodger.items()):
        by_sea = s.moves[m].by_convoy or (m in s.fallback and decided.values[decided.sea0 + m])
        found.append(retreating(after, DislodgedUnit(s.units[u], s.keys[m], by_sea), turn.rules))
    return tuple(found)


def outcome_of(
    checked: Checked,
    s: Structure,
    decided: Decided,
    dislodger: Mapping[int, int],
    destroyed: set[int],
    paradox_of: Mapping[int, Core],
) -> Outcome:
    """The outcome of one submitted order, with its reason."""
    u = s.number[checked.unit.location.province] if checked.unit is not None else None
    is_dislodged = u is not None and u in dislodger
    is_destroyed = is_dislodged and u in destroyed
    if checked.status is Status.ILLEGAL:
        return Outcome(checked.given, Result.ILLEGAL, is_dislodged, is_destroyed, checked.reason)
    if checked.status is Status.INVALID:
        return Outcome(checked.given, Result.INVALID, is_dislodged, is_destroyed, checked.reason)
    assert u is not None
    unresolved = _unresolved(checked, s, u, paradox_of) if paradox_of else None
    if unresolved is not None:  # its fate is as unknown as its result
        return Outcome(checked.given, Result.UNRESOLVED, reason=unresolved)
    result, reason = _result(checked, s, decided, u, paradox_of)
    if reason is None and is_dislodged and result in _FAILS_BY_DISLODGEMENT:
        reason = DislodgedBy(s.units[dislodger[u]], s.board)
    return Outcome(checked.given, result, is_dislodged, is_destroyed, reason)


_FAILS_BY_DISLODGEMENT = (Result.STANDS, Result.CUT, Result.DISRUPTED)
"""Results whose reason, when no other is given, is the dislodgement."""

_ORDER_RANKS = (R_MOVE, R_PATH, R_SEA, R_SUPPORT, R_CONVOY)
"""The kinds that decide an order's own success (DISLODGED is about the unit), in the
order they are looked up."""


def _unresolved(
    checked: Checked, s: Structure, u: int, paradox_of: Mapping[int, Core]
) -> ParadoxRule | None:
    """The unresolved paradox the order in force lies on, if any."""
    if s.order_of[u] is not checked:
        return None
    for rank in _ORDER_RANKS:
        core = paradox_of.get(rank * s.count + u)
        if core is not None and core.unresolved:
            return ParadoxRule(core.rule, core.labels)
    return None


def _result(
    checked: Checked,
    s: Structure,
    decided: Decided,
    u: int,
    paradox_of: Mapping[int, Core],
) -> tuple[Result, Reason | None]:
    """The result of an order in force, and its reason (None: whatever dislodged it)."""
    values = decided.values
    match checked:
        case CheckedMove():
            core = (
                (paradox_of.get(decided.move0 + u) or paradox_of.get(decided.path0 + u))
                if paradox_of
                else None
            )
            if values[decided.move0 + u]:
                if core is not None and core.rule is BackupRule.CIRCULAR_MOVEMENT:
                    return Result.SUCCEEDS, ParadoxRule(core.rule, core.labels)
                return Result.SUCCEEDS, None
            if not checked.reachable:
                return Result.FAILS, checked.reason
            if not values[decided.path0 + u]:
                return Result.FAILS, ParadoxRule(core.rule, core.labels) if core else NoPath()
            q = s.into[u]
            blockers = [s.units[r] for r in s.attackers[q] if r != u]
            if q < s.count:  # the unit standing there
                blockers.insert(0, s.units[q])
            return Result.FAILS, Bounced(tuple(blockers), s.board)
        case CheckedSupport():
            if values[decided.support0 + u]:
                return Result.GIVEN, None
            cutters = tuple(
                s.units[m] for m in s.attackers[u] if cuts(s, m, u) and values[decided.path0 + m]
            )
            return Result.CUT, CutBy(cutters, s.board) if cutters else None
        case CheckedConvoy():
            if values[decided.convoy0 + u]:
                return Result.AVAILABLE, None
            core = paradox_of.get(decided.convoy0 + u)
            return Result.DISRUPTED, ParadoxRule(core.rule, core.labels) if core else None
    if isinstance(checked.order, Hold):
        return Result.STANDS, None
    raise AssertionError(f"not a movement order in force: {checked.order}")
