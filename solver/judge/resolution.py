"""What a turn came to: outcomes with typed reasons, dislodged units, the next position."""

from __future__ import annotations

from dataclasses import dataclass, field

from topology import Location

from ..judge.retreat_options import retreat_options
from ..values.calendar import after_movement
from ..values.orders import Convoy, Hold, Move, SupportHold, SupportMove
from ..values.outcomes import (
    Bounced,
    CutBy,
    DislodgedBy,
    Illegal,
    Invalid,
    NoPath,
    Outcome,
    ParadoxRule,
)
from ..values.position import DislodgedUnit, Position, Unit
from .fallback import Core, Settlement
from .legality import Checked, Status, Turn
from .model import Decision, Structure, cuts


@dataclass(frozen=True, slots=True)
class Retreating:
    """A dislodged unit, where its attacker came from, and where it may retreat."""

    unit: Unit
    attacker_from: str
    by_convoy: bool
    options: tuple[Location, ...]


@dataclass(frozen=True, slots=True)
class Resolution:
    turn: Turn
    outcomes: tuple[Outcome, ...]  # one per submitted order, in submission order
    values: dict[Decision, bool]  # every decision of the model
    cores: tuple[Core, ...]
    forced: dict[Decision, bool]
    dislodged: tuple[Retreating, ...]
    standoffs: frozenset[str]
    after: Position
    recorded: dict[Decision, bool] = field(default_factory=dict)  # kept from history


def resolve(turn: Turn, structure: Structure, settlement: Settlement) -> Resolution:
    """Turn the settled decisions into outcomes, dislodgements and the next position."""
    board = turn.board
    values = settlement.values
    s = structure

    def value(kind: str, province: str) -> bool:
        if kind == "path" and (province not in s.routes or province in s.fallback):
            return s.moves[province].reachable
        return values.get((kind, province), False)

    def moved(p: str) -> bool:
        return p in s.moves and value("move", p)

    paradox_of: dict[Decision, Core] = {}
    for core in settlement.cores:
        if core.is_paradox:
            for d in core.decisions:
                paradox_of[d] = core

    # Dislodgements: who came in, and from where.
    dislodger: dict[str, str] = {}
    for p in s.unit_at:
        if value("dislodged", p):
            dislodger[p] = next(m for m in s.attackers[p] if value("move", m))

    after_units = []
    occupied = set()
    for p, unit in s.unit_at.items():
        if p in dislodger:
            continue
        if moved(p):
            loc = s.moves[p].dest
            after_units.append(Unit(loc, unit.type, unit.power))
            occupied.add(loc.province)
        else:
            after_units.append(unit)
            occupied.add(p)

    standoffs = set()
    for q, movers in s.attackers.items():
        if q in occupied:
            continue
        for m in movers:
            sea = any(value("sea", x) for x in (m, s.opposing.get(m)) if x in s.fallback)
            beaten = m in s.opposing and value("move", s.opposing[m]) and not sea
            if value("path", m) and not beaten and not value("move", m):
                standoffs.add(q)

    standing = Position(turn.position.phase, tuple(after_units), (), (), frozenset(standoffs))
    retreating = []
    for p, m in sorted(dislodger.items()):
        by_sea = s.moves[m].by_convoy or (m in s.fallback and value("sea", m))
        entry = DislodgedUnit(s.unit_at[p], m, by_sea)
        options = retreat_options(standing, entry, board, turn.rules)
        # A retreat stays on its own board (in a multiverse, codes end in '@timeline:turn').
        board_of = p.partition("@")[2]
        options = tuple(o for o in options if o.province.partition("@")[2] == board_of)
        retreating.append(Retreating(entry.unit, m, entry.by_convoy, options))
    destroyed = {r.unit.province for r in retreating if not r.options}

    outcomes = []
    unresolved = any(core.unresolved for core in paradox_of.values())
    for checked in turn.checked:
        outcome = _outcome(checked, s, value, dislodger, destroyed, paradox_of)
        if not unresolved:
            outcomes.append(outcome)
            continue
        p = checked.unit.province if checked.unit is not None else None
        core = next(
            (
                paradox_of[(k, p)]
                for k in ("move", "path", "support", "convoy")
                if (k, p) in paradox_of
                and paradox_of[(k, p)].unresolved
                and s.order_of.get(p) is checked
            ),
            None,
        )
        if core is not None:
            outcome = Outcome(
                checked.given, "unresolved", reason=ParadoxRule(core.rule, core.labels)
            )
        outcomes.append(outcome)

    dislodged_units = tuple(DislodgedUnit(r.unit, r.attacker_from, r.by_convoy) for r in retreating)
    if hasattr(board, "place_key"):  # a multiverse step: solver.multiverse.step splits it by board
        after = Position(
            turn.position.phase, tuple(after_units), (), dislodged_units, frozenset(standoffs)
        )
    else:
        after = after_movement(
            turn.position.phase,
            tuple(after_units),
            turn.position.centres,
            dislodged_units,
            frozenset(standoffs),
        )
    return Resolution(
        turn,
        tuple(outcomes),
        dict(values),
        settlement.cores,
        settlement.forced,
        tuple(retreating),
        frozenset(standoffs),
        after,
        dict(settlement.recorded),
    )


def _outcome(
    checked: Checked,
    s: Structure,
    value,
    dislodger: dict[str, str],
    destroyed: set[str],
    paradox_of: dict[Decision, Core],
) -> Outcome:
    unit = checked.unit
    p = unit.province if unit is not None else None
    is_dislodged = p is not None and p in dislodger
    fate = {"dislodged": is_dislodged, "destroyed": is_dislodged and p in destroyed}
    order = checked.given.order
    if checked.status is Status.ILLEGAL:
        return Outcome(checked.given, "illegal", reason=Illegal(checked.reason), **fate)
    if checked.status is Status.INVALID:
        return Outcome(checked.given, "invalid", reason=Invalid(checked.reason), **fate)
    by = DislodgedBy(s.names[dislodger[p]]) if is_dislodged else None
    match order:
        case Hold():
            return Outcome(checked.given, "stands", reason=by, **fate)
        case Move():
            core = paradox_of.get(("move", p)) or paradox_of.get(("path", p))
            if value("move", p):
                circular = core is not None and core.rule == "circular movement"
                return Outcome(
                    checked.given,
                    "succeeds",
                    reason=ParadoxRule(core.rule, core.labels) if circular else None,
                    **fate,
                )
            if not checked.reachable:
                return Outcome(checked.given, "fails", reason=Invalid(checked.reason), **fate)
            if not value("path", p):
                reason = ParadoxRule(core.rule, core.labels) if core else NoPath()
                return Outcome(checked.given, "fails", reason=reason, **fate)
            q = checked.dest.province
            blockers = [s.names[r] for r in s.attackers[q] if r != p]
            if q in s.unit_at and q not in blockers:
                blockers.insert(0, s.names[q])
            return Outcome(checked.given, "fails", reason=Bounced(tuple(blockers)), **fate)
        case SupportHold() | SupportMove():
            if value("support", p):
                return Outcome(checked.given, "given", **fate)
            aim = checked.dest.province if isinstance(order, SupportMove) else checked.target
            cutters = tuple(
                s.names[m]
                for m in s.attackers.get(p, ())
                if cuts(s, m, p, aim) and value("path", m)
            )
            return Outcome(checked.given, "cut", reason=CutBy(cutters) if cutters else by, **fate)
        case Convoy():
            if value("convoy", p):
                return Outcome(checked.given, "available", **fate)
            core = paradox_of.get(("convoy", p))
            reason = ParadoxRule(core.rule, core.labels) if core else by
            return Outcome(checked.given, "disrupted", reason=reason, **fate)
    return Outcome(checked.given, "illegal", reason=Illegal("not a movement order"), **fate)


__all__ = ["Outcome", "Resolution", "Retreating", "resolve"]
