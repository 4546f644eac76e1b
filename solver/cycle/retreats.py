"""The retreat phase (DATC 6.H): only retreats and disbands, no solver needed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from topology import Key, Location, UnitType

from ..errors import DipsatError
from ..judge.retreat_options import retreating
from ..values.calendar import season_over
from ..values.orders import Disband, Given, Retreat, Waive
from ..values.outcomes import Bounced, Illegal, Illegality, Outcome, Result
from ..values.position import DislodgedUnit, PhaseKind, Position, Unit
from ..values.resolution import RetreatResolution
from ..values.rules import DATC_2025, RuleBook, Winters


def adjudicate_retreats(
    position: Position, orders: Sequence[Given], rules: RuleBook = DATC_2025
) -> RetreatResolution:
    """Move or disband every dislodged unit; two retreats to one province both disband."""
    if position.phase.kind is not PhaseKind.RETREAT:
        raise DipsatError(f"{position.phase} is not a retreat phase")
    pending = {d.unit.province: d for d in position.dislodged}
    waiting = tuple(retreating(position, d, rules) for d in position.dislodged)
    options = {r.unit.province: r.options for r in waiting}
    verdicts, chosen = _judge(position, orders, pending, options)
    targets = {
        p: target
        for p, order in chosen.items()
        if isinstance(order, Retreat)
        and (target := _target(options[p], pending[p], order)) is not None
    }
    crowded = Counter(t.province for t in targets.values())
    outcomes = []
    moved: dict[Key, Unit] = {}
    for given, verdict in zip(orders, verdicts, strict=True):
        if verdict is not None:
            outcomes.append(Outcome(given, Result.ILLEGAL, reason=verdict))
            continue
        assert not isinstance(given.order, Waive)
        province = given.order.unit.place.province
        if isinstance(given.order, Disband):
            outcomes.append(Outcome(given, Result.SUCCEEDS))
        elif crowded[targets[province].province] > 1:
            outcomes.append(
                Outcome(given, Result.FAILS, reason=_bounced(position, pending, targets, province))
            )
        else:
            unit = pending[province].unit
            moved[province] = Unit(targets[province], unit.type, unit.power)
            outcomes.append(Outcome(given, Result.SUCCEEDS))
    return RetreatResolution(
        position=position,
        orders=tuple(orders),
        rules=rules,
        outcomes=tuple(outcomes),
        after=season_over(
            position,
            position.units + tuple(moved.values()),
            position.centres,
            lambda: rules.winters is Winters.ALWAYS,
        ),
        waiting=waiting,
        disbanded=tuple(d.unit for p, d in sorted(pending.items()) if p not in moved),
    )


def _judge(
    position: Position,
    orders: Sequence[Given],
    pending: Mapping[Key, DislodgedUnit],
    options: Mapping[Key, tuple[Location, ...]],
) -> tuple[list[Illegal | None], dict[Key, Retreat | Disband]]:
    """Why each order is illegal (None: it is not), and each dislodged unit's order in
    force: the first legal one (DATC 4.D.3)."""
    board = position.map
    chosen: dict[Key, Retreat | Disband] = {}
    verdicts: list[Illegal | None] = []
    for given in orders:
        order = given.order
        if not isinstance(order, Retreat | Disband):
            verdicts.append(Illegal.because(Illegality.NOT_A_RETREAT_ORDER))
            continue
        entry = pending.get(order.unit.place.province)
        if entry is None:
            name = board.province(order.unit.place.province).name
            verdicts.append(Illegal.because(Illegality.NOT_DISLODGED, name))
        elif given.power is not None and given.power != entry.unit.power:
            verdicts.append(Illegal.because(Illegality.FOREIGN_DISLODGED, entry.unit.power))
        elif entry.unit.province in chosen:
            verdicts.append(Illegal.because(Illegality.SECOND_ORDER, position.name(entry.unit)))
        elif (
            isinstance(order, Retreat)
            and _target(options[entry.unit.province], entry, order) is None
        ):
            unit, dest = position.name(entry.unit), order.dest.text(board)
            verdicts.append(Illegal.because(Illegality.RETREAT_NOT_ALLOWED, unit, dest))
        else:
            chosen[entry.unit.province] = order
            verdicts.append(None)
    return verdicts, chosen


def _bounced(
    position: Position,
    pending: Mapping[Key, DislodgedUnit],
    targets: Mapping[Key, Location],
    province: str,
) -> Bounced:
    """The other units that retreat where the unit in `province` does (all of them fail)."""
    where = targets[province].province
    others = sorted(p for p, t in targets.items() if p != province and t.province == where)
    return Bounced(tuple(pending[p].unit for p in others), position.board)


def _target(options: Sequence[Location], entry: DislodgedUnit, order: Retreat) -> Location | None:
    """The place among a unit's retreat options a retreat goes to (coast settled), or None
    if it is not allowed."""
    there = [o for o in options if o.province == order.dest.province]
    if order.dest.coast is not None and entry.unit.type is UnitType.FLEET:
        there = [o for o in there if o.coast == order.dest.coast]
    return there[0] if len(there) == 1 else None
