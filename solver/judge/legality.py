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
from functools import lru_cache

from topology import BoardView, Kind, Location, UnitType

from ..values.orders import (
    CODES,
    MOVEMENT_ORDERS,
    Convoy,
    Given,
    Hold,
    Move,
    Place,
    SupportHold,
    SupportMove,
)
from ..values.outcomes import Illegal, Illegality, Invalid, Invalidity
from ..values.position import Position, Unit
from ..values.rules import (
    DATC_2025,
    ConvoyToAdjacent,
    RuleBook,
    SeveralOrders,
    SupportCoast,
    UnreachableCoast,
    WrongCoast,
)
from .routes import has_route, minimal_routes, seas_touching


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
    reason: Illegal | Invalid | None = None
    dest: Location | None = None  # where a move, supported move or convoy goes (board key)
    target: str | None = None  # the supported unit's or convoyed army's province (board key)
    by_convoy: bool = False  # a move that goes by convoy (4.A.3 decided here)
    reachable: bool = True  # False: possible only from the coast the order names (6.B.11)
    fallback: bool = False  # 1971: by convoy if the convoy is undisrupted, else over land

    @property
    def order(self):
        return self.given.order


@dataclass(frozen=True, slots=True)
class Turn:
    """A movement turn ready for adjudication: every submitted order judged, one order per unit."""

    position: Position
    checked: tuple[Checked, ...]
    orders: tuple[tuple[Unit, Checked | None], ...]  # each unit's order in force (None: holds)
    rules: RuleBook = DATC_2025

    @property
    def board(self) -> BoardView:
        return self.position.board

    def order_of(self, unit: Unit) -> Checked | None:
        return dict(self.orders)[unit]


def key_of(board: BoardView, place: Place) -> str | None:
    """The board's key for the province a place denotes, or None if there is none."""
    return board.key(place.province, place.timeline, place.turn)


def _name(board: BoardView, key: str) -> str:
    return board.province(key).name


def _fleets(position: Position, board: BoardView) -> frozenset[str]:
    """The provinces of the fleets at sea: the fleets that could convoy."""
    return position.derived(
        ("fleets at sea", id(board)),
        lambda: frozenset(
            u.province
            for u in position.units
            if u.type is UnitType.FLEET and board.province(u.province).kind is Kind.SEA
        ),
    )


def _can_reach(board: BoardView, unit: Unit, province: str) -> bool:
    """Whether the unit could move to the province by itself (no convoy), any coast."""
    if unit.type is UnitType.ARMY:
        return board.province(province).kind is not Kind.SEA and board.army_adjacent(
            unit.province, province
        )
    return bool(_coasts_towards(board, unit.location, province))


@lru_cache(maxsize=16384)
def _coasts_towards(board: BoardView, location: Location, province: str) -> tuple[str | None, ...]:
    """`Board.fleet_coasts_towards`, kept: boards and locations are immutable values."""
    return board.fleet_coasts_towards(location, province)


def _move_problem(
    board: BoardView,
    position: Position,
    unit: Unit,
    dest: str,
    coast: str | None,
    exclude: str | None = None,
    rules: RuleBook = DATC_2025,
) -> tuple[Illegal | None, Location | None, bool]:
    """Why a move by `unit` to dest is impossible (None if possible), its settled
    destination, and whether it can only go by convoy."""
    province = board.province(dest)
    if dest == unit.province:
        return Illegal.because(Illegality.OWN_PROVINCE), None, False
    if coast is not None and coast not in province.coasts:  # 4.B.6: an irrelevant coast
        if rules.wrong_coast is WrongCoast.ILLEGAL:
            return Illegal.because(Illegality.NO_SUCH_COAST, province.name, coast), None, False
        coast = None
    if unit.type is UnitType.ARMY:
        if province.kind is Kind.SEA:
            return Illegal.because(Illegality.ARMY_TO_SEA), None, False
        if coast is not None and rules.wrong_coast is WrongCoast.ILLEGAL:
            return Illegal.because(Illegality.ARMY_TO_COAST), None, False
        if board.army_adjacent(unit.province, dest):
            return None, Location(dest), False
        fleets = _fleets(position, board) - {exclude}
        if has_route(board, unit.province, dest, fleets):
            return None, Location(dest), True
        return Illegal.because(Illegality.UNREACHABLE, province.name), None, False
    if province.kind is Kind.LAND:
        return Illegal.because(Illegality.FLEET_INLAND), None, False
    reach = _coasts_towards(board, unit.location, dest)
    if not reach:
        here = board.location_name(unit.location)
        return Illegal.because(Illegality.FLEET_CANNOT_REACH, here, province.name), None, False
    if not province.coasts:
        return None, Location(dest), False
    if coast is not None:
        if coast in reach:
            return None, Location(dest, coast), False
        if rules.unreachable_coast is UnreachableCoast.IGNORED and len(reach) == 1:
            return None, Location(dest, reach[0]), False  # 4.B.3 (a)
        here = board.location_name(unit.location)
        target = f"{province.name}({coast})"
        return Illegal.because(Illegality.FLEET_CANNOT_REACH, here, target), None, False
    if len(reach) == 1 and rules.single_coast_default:  # 4.B.2
        return None, Location(dest, reach[0]), False
    return Illegal.because(Illegality.COAST_NEEDED, province.name), Location(dest), False


def _judge(position: Position, index: int, given: Given, rules: RuleBook) -> Checked:
    """Legality of one order, from the board alone."""
    board = position.board
    order = given.order
    names = given.board or CODES  # the order's places are named by the map it was given on

    def illegal(code: Illegality, *names: object, unit: Unit | None = None) -> Checked:
        return Checked(index, given, unit, Status.ILLEGAL, Illegal.because(code, *names))

    def find(place: Place) -> tuple[str | None, Unit | None]:
        key = key_of(board, place)
        return key, position.unit_in(key) if key is not None else None

    if not isinstance(order, MOVEMENT_ORDERS):
        unit = find(order.unit.place)[1] if hasattr(order, "unit") else None
        return illegal(Illegality.NOT_A_MOVEMENT_ORDER, unit=unit)
    key, unit = find(order.unit.place)
    if unit is None:
        return illegal(Illegality.NO_UNIT, order.unit.place.text(names))
    if given.power is not None and given.power != unit.power:
        return illegal(Illegality.FOREIGN_UNIT, _name(board, key), unit.power, unit=unit)
    written = order.unit.place.coast
    if (
        rules.wrong_coast is WrongCoast.ILLEGAL
        and written is not None
        and written != unit.location.coast
        and not isinstance(order, Move)
    ):  # 4.B.5 (a); a move keeps the 6.B.11 reading below
        return illegal(Illegality.NOT_ON_THAT_COAST, position.name(unit), written, unit=unit)
    if isinstance(order, Hold):
        return Checked(index, given, unit, Status.ACTIVE)
    dest = key_of(board, order.dest) if not isinstance(order, SupportHold) else None
    if dest is None and not isinstance(order, SupportHold):
        return illegal(Illegality.NO_SUCH_BOARD, order.dest.text(names), unit=unit)
    match order:
        case Move(via_convoy=via):
            if via and unit.type is UnitType.FLEET:
                return illegal(Illegality.FLEET_CONVOYED, unit=unit)
            coast = order.dest.coast
            problem, settled, needs_convoy = _move_problem(
                board, position, unit, dest, coast, rules=rules
            )
            if (
                problem
                and unit.type is UnitType.FLEET
                and written not in (None, unit.location.coast)
            ):
                # DATC 6.B.11: possible from the coast the player wrote, so not illegal
                # (4.E.1 is read restrictively), but the fleet cannot change coast: it fails.
                ghost = Unit(Location(unit.province, written), unit.type, unit.power)
                ghost_problem, settled, _ = _move_problem(
                    board, position, ghost, dest, coast, rules=rules
                )
                if not ghost_problem:
                    return Checked(
                        index,
                        given,
                        unit,
                        Status.ACTIVE,
                        Invalid.because(Invalidity.ON_OTHER_COAST, unit.location.coast),
                        dest=settled,
                        reachable=False,
                    )
            if problem:
                return Checked(index, given, unit, Status.ILLEGAL, problem)
            if (
                via
                and not needs_convoy
                and not has_route(board, unit.province, dest, _fleets(position, board))
            ):
                return illegal(Illegality.NO_CONVOY_ROUTE, _name(board, dest), unit=unit)
            return Checked(
                index,
                given,
                unit,
                Status.ACTIVE,
                dest=settled,
                # in 1971 "via convoy" means nothing for an adjacent province
                by_convoy=needs_convoy
                or (via and rules.convoy_to_adjacent is not ConvoyToAdjacent.ANY_FLEET),
            )
        case SupportHold(supported=ref) | SupportMove(supported=ref):
            _, target = find(ref.place)
            if target is None:
                return illegal(Illegality.NOTHING_TO_SUPPORT, ref.place.text(names), unit=unit)
            if target is unit:
                return illegal(Illegality.SUPPORTS_ITSELF, unit=unit)
            if rules.wrong_coast is WrongCoast.ILLEGAL and ref.place.coast not in (
                None,
                target.location.coast,
            ):  # 4.B.5 (a): the wrong coast of the supported unit
                supported = position.name(target)
                return illegal(Illegality.NOT_ON_THAT_COAST, supported, ref.place.coast, unit=unit)
            into = dest if isinstance(order, SupportMove) else target.province
            if not _can_reach(board, unit, into):
                return illegal(
                    Illegality.SUPPORT_OUT_OF_REACH,
                    position.name(unit),
                    _name(board, into),
                    unit=unit,
                )
            settled = None
            if isinstance(order, SupportMove):
                problem, settled, _ = _move_problem(
                    board, position, target, dest, order.dest.coast, unit.province, rules
                )
                if problem is not None and problem.code is Illegality.COAST_NEEDED:  # 4.B.4
                    open_coast = rules.support_coast
                    if open_coast is SupportCoast.ANY or (
                        open_coast is SupportCoast.OWN_UNIT and target.power == unit.power
                    ):
                        problem = None
                if problem:
                    return illegal(Illegality.SUPPORTED_MOVE_IMPOSSIBLE, problem, unit=unit)
                settled = Location(dest, order.dest.coast)
            return Checked(index, given, unit, Status.ACTIVE, dest=settled, target=target.province)
        case Convoy(army=ref):
            if (
                unit.type is not UnitType.FLEET
                or board.province(unit.province).kind is not Kind.SEA
            ):
                return illegal(Illegality.CONVOY_NOT_AT_SEA, unit=unit)
            _, army = find(ref.place)
            if army is None or army.type is not UnitType.ARMY:
                return illegal(Illegality.NOTHING_TO_CONVOY, ref.place.text(names), unit=unit)
            if army.province == dest:
                return illegal(Illegality.OWN_PROVINCE, unit=unit)
            routes = minimal_routes(board, army.province, dest, _fleets(position, board))
            if not any(unit.province in route for route in routes):
                origin, goal = _name(board, army.province), _name(board, dest)
                return illegal(Illegality.OFF_ROUTE, position.name(unit), origin, goal, unit=unit)
            return Checked(
                index, given, unit, Status.ACTIVE, dest=Location(dest), target=army.province
            )
    raise AssertionError(order)


def _matches_move(checked: Checked | None, province: str, coast: str | None = None) -> bool:
    if checked is None or not isinstance(checked.order, Move) or checked.dest is None:
        return False
    if checked.dest.province != province:
        return False
    return coast is None or checked.dest.coast in (None, coast)


def _convoy_index(orders: dict[str, Checked | None]) -> dict[tuple[str, str], list[Unit]]:
    """Fleets with a legal convoy order, by (army's province, destination)."""
    index: dict[tuple[str, str], list[Unit]] = {}
    for checked in orders.values():
        if (
            checked is not None
            and checked.status is not Status.ILLEGAL
            and isinstance(checked.order, Convoy)
        ):
            index.setdefault((checked.target, checked.dest.province), []).append(checked.unit)
    return index


def analyse(
    position: Position,
    givens: Sequence[Given],
    rules: RuleBook = DATC_2025,
) -> Turn:
    """Judge every order of a movement turn and settle each unit's order in force."""
    board = position.board
    judged = [_judge(position, i, g, rules) for i, g in enumerate(givens)]
    # each unit's order in force, by the unit's province (cheaper keys than the units)
    in_force: dict[str, Checked | None] = {u.province: None for u in position.units}
    several: list[Unit] = []
    for i, checked in enumerate(judged):
        if checked.status is Status.ILLEGAL or checked.unit is None:
            continue
        if in_force[checked.unit.province] is not None:  # DATC 4.D.3: the first counts
            judged[i] = replace(
                checked,
                status=Status.ILLEGAL,
                reason=Illegal.because(Illegality.SECOND_ORDER, position.name(checked.unit)),
            )
            if checked.unit not in several:
                several.append(checked.unit)
            continue
        in_force[checked.unit.province] = checked
    if rules.several_orders is SeveralOrders.NONE:
        for unit in several:
            first = in_force[unit.province]
            judged[first.index] = replace(
                first,
                status=Status.ILLEGAL,
                reason=Illegal.because(Illegality.SEVERAL_ORDERS, position.name(unit)),
            )
            in_force[unit.province] = None

    convoys = _convoy_index(in_force)
    # 4.A.3: an army moving to an adjacent province goes by convoy when its order says "via
    # convoy", and (2025) when its own power orders a fleet to convoy it, or (1971) when any
    # fleet does; then there is no land route to fall back on.
    if rules.convoy_to_adjacent is not ConvoyToAdjacent.VIA_ONLY:
        own_only = rules.convoy_to_adjacent is ConvoyToAdjacent.OWN_FLEET_OR_VIA
        for p, checked in in_force.items():
            if checked is None or not isinstance(checked.order, Move) or checked.by_convoy:
                continue
            unit = checked.unit
            fleets = convoys.get((p, checked.dest.province), [])
            if unit.type is not UnitType.ARMY or not fleets:
                continue
            if own_only and any(f.power == unit.power for f in fleets):
                in_force[p] = replace(checked, by_convoy=True)
            elif not own_only and _swaps(in_force, p, checked):
                # 1971, as the DATC recommends: the convoy is used when the unit at the
                # destination moves the opposite way and the convoy is not disrupted;
                # otherwise the army goes over land (decided in the model)
                in_force[p] = replace(checked, fallback=True)

    # Validity: does each order fit the orders it refers to?
    for p, checked in list(in_force.items()):
        if checked is None:
            continue
        reason = _invalid_reason(board, position, in_force, convoys, checked.unit, checked)
        if reason:
            in_force[p] = replace(checked, status=Status.INVALID, reason=reason)
    for checked in in_force.values():
        if checked is not None:
            judged[checked.index] = checked
    orders = tuple((unit, in_force[unit.province]) for unit in position.units)
    return Turn(position, tuple(judged), orders, rules)


def _swaps(in_force: dict[str, Checked | None], province: str, checked: Checked) -> bool:
    order = in_force.get(checked.dest.province)
    return (
        order is not None
        and isinstance(order.order, Move)
        and order.dest is not None
        and order.dest.province == province
    )


def _invalid_reason(
    board: BoardView,
    position: Position,
    in_force: dict[str, Checked | None],
    convoys: dict[tuple[str, str], list[Unit]],
    unit: Unit,
    checked: Checked,
) -> Invalid | None:
    order = checked.order
    match order:
        case Move() if checked.by_convoy:
            fleets = frozenset(
                f.province
                for f in convoys.get((unit.province, checked.dest.province), [])
                if _convoy_matches(in_force, f)
            )
            if not has_route(board, unit.province, checked.dest.province, fleets):
                return Invalid.because(Invalidity.NO_CONVOY_ORDERED)
        case SupportHold():
            target_order = in_force.get(checked.target)
            if target_order is not None and isinstance(target_order.order, Move):
                return Invalid.because(Invalidity.SUPPORTED_UNIT_MOVES, _at(position, checked))
        case SupportMove():
            if not _matches_move(
                in_force.get(checked.target), checked.dest.province, checked.dest.coast
            ):
                dest = order.dest.text(checked.given.board or CODES)
                return Invalid.because(Invalidity.NOT_ORDERED_SO, _at(position, checked), dest)
        case Convoy():
            if not _matches_move(in_force.get(checked.target), checked.dest.province):
                dest = order.dest.text(checked.given.board or CODES)
                return Invalid.because(Invalidity.NOT_ORDERED_SO, _at(position, checked), dest)
    return None


def _at(position: Position, checked: Checked) -> str:
    """The supported or convoyed unit, named."""
    unit = position.unit_in(checked.target)
    assert unit is not None
    return position.name(unit)


def _convoy_matches(in_force: dict[str, Checked | None], fleet: Unit) -> bool:
    checked = in_force[fleet.province]
    return _matches_move(in_force.get(checked.target), checked.dest.province)


__all__ = ["Checked", "Status", "Turn", "analyse", "key_of", "seas_touching"]
