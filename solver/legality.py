"""Judging orders against a position before any adjudication (DATC 4.E.1).

An *illegal* order is impossible on this board whatever the other orders are: it is ignored
and the unit holds.  An *invalid* order is possible but does not fit the other orders (a
support that does not match, a move that needs a convoy nobody ordered): it takes part as an
order of its kind but fails.  Everything else is *active* and goes into the model.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace

from topology import Board, Kind, Location, UnitType, standard

from .orders import (
    MOVEMENT_ORDERS,
    Convoy,
    Given,
    Hold,
    Move,
    SupportHold,
    SupportMove,
)
from .position import Position, Unit, location_name
from .routes import has_route, minimal_routes, seas_touching
from .rules import DATC_2025, ConvoyToAdjacent, RuleBook


class Status(enum.Enum):
    ACTIVE = "active"
    INVALID = "invalid"
    ILLEGAL = "illegal"


@dataclass(frozen=True, slots=True)
class Checked:
    """One submitted order as judged against the board."""

    index: int
    given: Given
    unit: Unit | None
    status: Status
    reason: str = ""
    dest: Location | None = None  # a move's destination with its coast settled
    by_convoy: bool = False  # a move that goes by convoy (4.A.3 decided here)
    reachable: bool = True  # False: possible only from the coast the order names (6.B.11)

    @property
    def order(self):
        return self.given.order


@dataclass(frozen=True, slots=True)
class Turn:
    """A movement turn ready for adjudication: every submitted order judged, one order per unit."""

    position: Position
    checked: tuple[Checked, ...]
    orders: tuple[tuple[Unit, Checked | None], ...]  # each unit's order in force (None: holds)

    def order_of(self, unit: Unit) -> Checked | None:
        return dict(self.orders)[unit]


def _name(province: str) -> str:
    return standard().province(province).name


def _fleets(position: Position, board: Board) -> frozenset[str]:
    return frozenset(
        u.province
        for u in position.units
        if u.type is UnitType.FLEET and board.province(u.province).kind is Kind.SEA
    )


def _can_reach(board: Board, unit: Unit, province: str) -> bool:
    """Whether the unit could move to the province by itself (no convoy), any coast."""
    if unit.type is UnitType.ARMY:
        return board.province(province).kind is not Kind.SEA and board.army_adjacent(
            unit.province, province
        )
    return bool(board.fleet_coasts_towards(unit.location, province))


def _move_problem(
    board: Board,
    position: Position,
    unit: Unit,
    dest: str,
    coast: str | None,
    exclude: str | None = None,
) -> tuple[str, Location | None, bool]:
    """Why a move by `unit` to dest is impossible ('' if possible), its settled destination,
    and whether it can only go by convoy."""
    kind = board.province(dest).kind
    if dest == unit.province:
        return "a unit cannot move to its own province", None, False
    if unit.type is UnitType.ARMY:
        if kind is Kind.SEA:
            return "an army cannot move to sea", None, False
        if board.army_adjacent(unit.province, dest):
            return "", Location(dest), False
        fleets = _fleets(position, board) - {exclude}
        if has_route(board, unit.province, dest, fleets):
            return "", Location(dest), True
        return f"{_name(dest)} is not adjacent and no fleets could convoy there", None, False
    if kind is Kind.LAND:
        return "a fleet cannot move inland", None, False
    reach = board.fleet_coasts_towards(unit.location, dest)
    if not reach:
        return f"a fleet in {location_name(unit.location)} cannot reach {_name(dest)}", None, False
    coasts = board.province(dest).coasts
    if not coasts:
        return "", Location(dest), False
    if coast is not None:
        if coast in reach:
            return "", Location(dest, coast), False
        return (
            (f"a fleet in {location_name(unit.location)} cannot reach {_name(dest)}({coast})"),
            None,
            False,
        )
    if len(reach) == 1:
        return "", Location(dest, reach[0]), False
    return f"the coast of {_name(dest)} must be given", Location(dest), False


def _judge(board: Board, position: Position, index: int, given: Given) -> Checked:
    """Legality of one order, from the board alone."""
    order = given.order

    def illegal(reason: str, unit: Unit | None = None) -> Checked:
        return Checked(index, given, unit, Status.ILLEGAL, reason)

    if not isinstance(order, MOVEMENT_ORDERS):
        return illegal(
            "not an order for a movement phase",
            position.unit_in(order.unit.place.province) if hasattr(order, "unit") else None,
        )
    unit = position.unit_in(order.unit.place.province)
    if unit is None:
        return illegal(f"there is no unit in {_name(order.unit.place.province)}")
    if given.power is not None and given.power != unit.power:
        return illegal(f"the unit in {_name(unit.province)} belongs to {unit.power}", unit)
    match order:
        case Hold():
            return Checked(index, given, unit, Status.ACTIVE)
        case Move(dest=dest, via_convoy=via):
            if via and unit.type is UnitType.FLEET:
                return illegal("only armies can be convoyed", unit)
            problem, settled, needs_convoy = _move_problem(
                board, position, unit, dest.province, dest.coast
            )
            written = order.unit.place.coast
            if (
                problem
                and unit.type is UnitType.FLEET
                and written not in (None, unit.location.coast)
            ):
                # DATC 6.B.11: possible from the coast the player wrote, so not illegal
                # (4.E.1 is read restrictively), but the fleet cannot change coast: it fails.
                ghost = Unit(Location(unit.province, written), unit.type, unit.power)
                if not _move_problem(board, position, ghost, dest.province, dest.coast)[0]:
                    _, settled, _ = _move_problem(board, position, ghost, dest.province, dest.coast)
                    return Checked(
                        index,
                        given,
                        unit,
                        Status.ACTIVE,
                        f"the fleet is on the {unit.location.coast} coast",
                        dest=settled,
                        reachable=False,
                    )
            if problem:
                return illegal(problem, unit)
            if (
                via
                and not needs_convoy
                and not has_route(board, unit.province, dest.province, _fleets(position, board))
            ):
                return illegal(f"no fleets could convoy to {_name(dest.province)}", unit)
            return Checked(
                index, given, unit, Status.ACTIVE, dest=settled, by_convoy=needs_convoy or via
            )
        case SupportHold(supported=ref) | SupportMove(supported=ref):
            target = position.unit_in(ref.place.province)
            if target is None:
                return illegal(f"there is no unit in {_name(ref.place.province)} to support", unit)
            if target is unit:
                return illegal("a unit cannot support itself", unit)
            into = order.dest.province if isinstance(order, SupportMove) else target.province
            if not _can_reach(board, unit, into):
                return illegal(f"{unit} cannot reach {_name(into)}", unit)
            if isinstance(order, SupportMove):
                problem, _, _ = _move_problem(
                    board,
                    position,
                    target,
                    order.dest.province,
                    order.dest.coast,
                    exclude=unit.province,
                )
                if problem.startswith("the coast of"):
                    problem = ""  # 4.B.4: a support may leave the coast open
                if problem:
                    return illegal(f"the supported move is impossible: {problem}", unit)
            return Checked(index, given, unit, Status.ACTIVE)
        case Convoy(army=ref, dest=dest):
            if (
                unit.type is not UnitType.FLEET
                or board.province(unit.province).kind is not Kind.SEA
            ):
                return illegal("only a fleet at sea can convoy", unit)
            army = position.unit_in(ref.place.province)
            if army is None or army.type is not UnitType.ARMY:
                return illegal(f"there is no army in {_name(ref.place.province)} to convoy", unit)
            if army.province == dest.province:
                return illegal("a unit cannot move to its own province", unit)
            routes = minimal_routes(board, army.province, dest.province, _fleets(position, board))
            if not any(unit.province in route for route in routes):
                return illegal(
                    f"{unit} is on no convoy route from {_name(army.province)} to "
                    f"{_name(dest.province)}",
                    unit,
                )
            return Checked(index, given, unit, Status.ACTIVE)
    raise AssertionError(order)


def _matches_move(checked: Checked | None, province: str, coast: str | None = None) -> bool:
    if checked is None or not isinstance(checked.order, Move) or checked.dest is None:
        return False
    if checked.dest.province != province:
        return False
    return coast is None or checked.dest.coast in (None, coast)


def _convoying_fleets(orders: dict[Unit, Checked | None], army: Unit, dest: str) -> list[Unit]:
    fleets = []
    for unit, checked in orders.items():
        if checked is None or checked.status is Status.ILLEGAL:
            continue
        order = checked.order
        if (
            isinstance(order, Convoy)
            and order.army.place.province == army.province
            and order.dest.province == dest
        ):
            fleets.append(unit)
    return fleets


def analyse(
    position: Position,
    givens: Sequence[Given],
    rules: RuleBook = DATC_2025,
    board: Board | None = None,
) -> Turn:
    """Judge every order of a movement turn and settle each unit's order in force."""
    board = board or standard()
    judged = [_judge(board, position, i, g) for i, g in enumerate(givens)]
    in_force: dict[Unit, Checked | None] = dict.fromkeys(position.units)
    for i, checked in enumerate(judged):
        if checked.status is Status.ILLEGAL or checked.unit is None:
            continue
        if in_force[checked.unit] is not None:  # DATC 4.D.3: the first legal order counts
            judged[i] = Checked(
                checked.index,
                checked.given,
                checked.unit,
                Status.ILLEGAL,
                f"{checked.unit} already has an order",
            )
            continue
        in_force[checked.unit] = checked

    # 4.A.3: an army moving to an adjacent province goes by convoy when its order says "via
    # convoy", and (2025) when its own power orders a fleet to convoy it; then there is no
    # land route to fall back on.
    for unit, checked in in_force.items():
        if checked is None or not isinstance(checked.order, Move) or checked.by_convoy:
            continue
        if rules.convoy_to_adjacent is not ConvoyToAdjacent.OWN_FLEET_OR_VIA:
            continue
        if unit.type is UnitType.ARMY and any(
            f.power == unit.power for f in _convoying_fleets(in_force, unit, checked.dest.province)
        ):
            in_force[unit] = replace(checked, by_convoy=True)

    # Validity: does each order fit the orders it refers to?
    for unit, checked in list(in_force.items()):
        if checked is None:
            continue
        reason = _invalid_reason(board, position, in_force, unit, checked)
        if reason:
            in_force[unit] = replace(checked, status=Status.INVALID, reason=reason)
    for checked in in_force.values():
        if checked is not None:
            judged[checked.index] = checked
    return Turn(position, tuple(judged), tuple(in_force.items()))


def _invalid_reason(
    board: Board,
    position: Position,
    in_force: dict[Unit, Checked | None],
    unit: Unit,
    checked: Checked,
) -> str:
    order = checked.order
    match order:
        case Move() if checked.by_convoy:
            fleets = frozenset(
                f.province
                for f in _convoying_fleets(in_force, unit, checked.dest.province)
                if _convoy_matches(in_force, f)
            )
            if not has_route(board, unit.province, checked.dest.province, fleets):
                return "no convoy was ordered along any route"
        case SupportHold(supported=ref):
            target = position.unit_in(ref.place.province)
            target_order = in_force.get(target)
            if target_order is not None and isinstance(target_order.order, Move):
                return f"{target} is ordered to move"
        case SupportMove(supported=ref, dest=dest):
            target = position.unit_in(ref.place.province)
            if not _matches_move(in_force.get(target), dest.province, dest.coast):
                return f"{target} is not ordered to move to {dest}"
        case Convoy(army=ref, dest=dest):
            army = position.unit_in(ref.place.province)
            army_order = in_force.get(army)
            if not _matches_move(army_order, dest.province):
                return f"{army} is not ordered to move to {_name(dest.province)}"
    return ""


def _convoy_matches(in_force: dict[Unit, Checked | None], fleet: Unit) -> bool:
    checked = in_force[fleet]
    order = checked.order
    army = next(u for u in in_force if u.province == order.army.place.province)
    army_order = in_force.get(army)
    return _matches_move(army_order, order.dest.province)


__all__ = ["Checked", "Status", "Turn", "analyse", "seas_touching"]
