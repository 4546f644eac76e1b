"""Judging orders against a position before any adjudication (DATC 4.E.1).

An *illegal* order is impossible on this board whatever the other orders are: it is ignored
and the unit holds.  An *invalid* order is possible but does not fit the other orders (a
support that does not match, a move that needs a convoy nobody ordered): it takes part as an
order of its kind but fails.  Everything else is *active* and goes into the model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from topology import BoardView, Key, Kind, Location, UnitType

from ..values.orders import (
    MOVEMENT_ORDERS,
    Convoy,
    Given,
    Hold,
    Move,
    Place,
    SupportHold,
    SupportMove,
    Waive,
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
    ViaFallback,
    WrongCoast,
)
from .checked import Checked, CheckedConvoy, CheckedMove, CheckedSupport, JudgedTurn, Status
from .convoy_routes import has_route, minimal_routes


def key_of(board: BoardView, place: Place) -> Key | None:
    """The board's key for the province a place denotes, or None if there is none."""
    return board.key(place.province, place.timeline, place.turn)


_LOCATIONS: dict[tuple[Key, str | None], Location] = {}
"""Locations made once and kept (a location is an immutable value; making one checks its
coast, which costs more than finding it here)."""


def _location(province: Key, coast: str | None = None) -> Location:
    """The location of a province (and coast)."""
    found = _LOCATIONS.get((province, coast))
    if found is None:
        if len(_LOCATIONS) > 65536:  # the places of many multiverse steps: start afresh
            _LOCATIONS.clear()
        found = _LOCATIONS[(province, coast)] = Location(province, coast)
    return found


def _name(board: BoardView, key: Key) -> str:
    return board.province(key).name


def _fleets(position: Position) -> frozenset[Key]:
    """The provinces of the fleets at sea: the fleets that could convoy."""
    board = position.board
    return position.cached(
        "fleets at sea",
        lambda: frozenset(
            u.province
            for u in position.units
            if u.type is UnitType.FLEET and board.province(u.province).kind is Kind.SEA
        ),
    )


def _can_reach(board: BoardView, unit: Unit, province: Key) -> bool:
    """Whether the unit could move to the province by itself (no convoy), any coast."""
    if unit.type is UnitType.ARMY:
        return board.province(province).kind is not Kind.SEA and board.army_adjacent(
            unit.province, province
        )
    return bool(_coasts_towards(board, unit.location, province))


@lru_cache(maxsize=16384)
def _coasts_towards(board: BoardView, location: Location, province: Key) -> tuple[str | None, ...]:
    """`Board.fleet_coasts_towards`, kept: boards and locations are immutable values."""
    return board.fleet_coasts_towards(location, province)


def _move_problem(
    board: BoardView,
    position: Position,
    unit: Unit,
    dest: Key,
    coast: str | None,
    exclude: Key | None = None,
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
            return None, _location(dest), False
        fleets = _fleets(position)
        if exclude in fleets:  # not a copy of every fleet for each move: a board may be large
            fleets = fleets - {exclude}
        if has_route(board, unit.province, dest, fleets):
            return None, _location(dest), True
        return Illegal.because(Illegality.UNREACHABLE, province.name), None, False
    if province.kind is Kind.LAND:
        return Illegal.because(Illegality.FLEET_INLAND), None, False
    reach = _coasts_towards(board, unit.location, dest)
    if not reach:
        here = board.location_name(unit.location)
        return Illegal.because(Illegality.FLEET_CANNOT_REACH, here, province.name), None, False
    if not province.coasts:
        return None, _location(dest), False
    if coast is not None:
        if coast in reach:
            return None, _location(dest, coast), False
        if rules.unreachable_coast is UnreachableCoast.IGNORED and len(reach) == 1:
            return None, _location(dest, reach[0]), False  # 4.B.3 (a)
        here = board.location_name(unit.location)
        target = f"{province.name}({coast})"
        return Illegal.because(Illegality.FLEET_CANNOT_REACH, here, target), None, False
    if len(reach) == 1 and rules.single_coast_default:  # 4.B.2
        return None, _location(dest, reach[0]), False
    return Illegal.because(Illegality.COAST_NEEDED, province.name), _location(dest), False


_MOVEMENT_KINDS = frozenset(MOVEMENT_ORDERS)


def _illegal(
    index: int, given: Given, unit: Unit | None, code: Illegality, *named: object
) -> Checked:
    """An order judged illegal, its reason's sentence naming what the code's template needs."""
    return Checked(index, given, unit, Status.ILLEGAL, Illegal.because(code, *named))


class _Judge:
    """The legality of each order of a turn, from the board alone."""

    def __init__(self, position: Position, rules: RuleBook) -> None:
        self.position = position
        self.board = position.board
        self.rules = rules
        self.key = position.board.key
        self.unit_in = position.unit_in

    def find(self, place: Place) -> tuple[Key | None, Unit | None]:
        """The key of a place, and the unit standing there."""
        key = self.key(place.province, place.timeline, place.turn)
        return key, self.unit_in(key) if key is not None else None

    def __call__(self, index: int, given: Given) -> Checked:
        order = given.order
        kind = type(order)
        if kind not in _MOVEMENT_KINDS:
            unit = self.find(order.unit.place)[1] if not isinstance(order, Waive) else None
            return _illegal(index, given, unit, Illegality.NOT_A_MOVEMENT_ORDER)
        assert isinstance(order, MOVEMENT_ORDERS)
        place = order.unit.place
        key = self.key(place.province, place.timeline, place.turn)
        unit = self.unit_in(key) if key is not None else None
        if key is None or unit is None:
            named = place.text(given.names)
            return _illegal(index, given, None, Illegality.NO_UNIT, named)
        if given.power is not None and given.power != unit.power:
            return _illegal(
                index, given, unit, Illegality.FOREIGN_UNIT, _name(self.board, key), unit.power
            )
        written = place.coast
        if (
            written is not None
            and written != unit.location.coast
            and kind is not Move
            and self.rules.wrong_coast is WrongCoast.ILLEGAL
        ):  # 4.B.5 (a); a move keeps the 6.B.11 reading
            named = self.position.name(unit)
            return _illegal(index, given, unit, Illegality.NOT_ON_THAT_COAST, named, written)
        if isinstance(order, Hold):
            return Checked(index, given, unit, Status.ACTIVE)
        if isinstance(order, SupportHold):
            return self.support(index, given, unit, order, None)
        there = order.dest
        dest = self.key(there.province, there.timeline, there.turn)
        if dest is None:
            named = there.text(given.names)
            return _illegal(index, given, unit, Illegality.NO_SUCH_BOARD, named)
        if isinstance(order, Move):
            return self.move(index, given, unit, order, dest)
        if isinstance(order, SupportMove):
            return self.support(index, given, unit, order, dest)
        return self.convoy(index, given, unit, order, dest)

    def move(self, index: int, given: Given, unit: Unit, order: Move, dest: Key) -> Checked:
        """A move: possible by land, by convoy, or (6.B.11) only from the written coast."""
        board, position, rules = self.board, self.position, self.rules
        if order.via_convoy and unit.type is UnitType.FLEET:
            return _illegal(index, given, unit, Illegality.FLEET_CONVOYED)
        problem, settled, needs_convoy = _move_problem(
            board, position, unit, dest, order.dest.coast, rules=rules
        )
        written = order.unit.place.coast
        if problem and unit.type is UnitType.FLEET and written not in (None, unit.location.coast):
            # DATC 6.B.11: possible from the coast the player wrote, so not illegal (4.E.1
            # is read restrictively), but the fleet cannot change coast: it fails.
            ghost = Unit(Location(unit.province, written), unit.type, unit.power)
            ghost_problem, from_there, _ = _move_problem(
                board, position, ghost, dest, order.dest.coast, rules=rules
            )
            if not ghost_problem and from_there is not None:
                other = Invalid.because(Invalidity.ON_OTHER_COAST, unit.location.coast)
                return CheckedMove(
                    index, given, unit, Status.ACTIVE, other, dest=from_there, reachable=False
                )
        if problem or settled is None:
            return Checked(index, given, unit, Status.ILLEGAL, problem)
        if (
            order.via_convoy
            and not needs_convoy
            and not has_route(board, unit.province, dest, _fleets(position))
        ):
            if rules.via_fallback is not ViaFallback.LAND:
                return _illegal(index, given, unit, Illegality.NO_CONVOY_ROUTE, _name(board, dest))
            return CheckedMove(index, given, unit, Status.ACTIVE, dest=settled)  # over land
        # in 1971 "via convoy" means nothing for an adjacent province
        via = order.via_convoy and rules.convoy_to_adjacent is not ConvoyToAdjacent.ANY_FLEET
        return CheckedMove(
            index, given, unit, Status.ACTIVE, dest=settled, by_convoy=needs_convoy or via
        )

    def support(
        self,
        index: int,
        given: Given,
        unit: Unit,
        order: SupportHold | SupportMove,
        dest: Key | None,
    ) -> Checked:
        """A support: of a unit there, into a province the supporter reaches, of a move
        that is possible (4.B.4 decides a support that leaves the coast open)."""
        board, position, rules = self.board, self.position, self.rules
        names = given.names

        ref = order.supported
        _, target = self.find(ref.place)
        if target is None:
            return _illegal(
                index, given, unit, Illegality.NOTHING_TO_SUPPORT, ref.place.text(names)
            )
        if target is unit:
            return _illegal(index, given, unit, Illegality.SUPPORTS_ITSELF)
        if (
            ref.place.coast not in (None, target.location.coast)
            and rules.wrong_coast is WrongCoast.ILLEGAL
        ):  # 4.B.5 (a): the wrong coast of the supported unit
            return _illegal(
                index,
                given,
                unit,
                Illegality.NOT_ON_THAT_COAST,
                position.name(target),
                ref.place.coast,
            )
        into = target.province if dest is None else dest
        if not _can_reach(board, unit, into):
            return _illegal(
                index,
                given,
                unit,
                Illegality.SUPPORT_OUT_OF_REACH,
                position.name(unit),
                _name(board, into),
            )
        if not isinstance(order, SupportMove) or dest is None:
            return CheckedSupport(index, given, unit, Status.ACTIVE, target=target.province)
        problem, where, _ = _move_problem(
            board, position, target, dest, order.dest.coast, unit.province, rules
        )
        if problem is not None and problem.code is Illegality.COAST_NEEDED:  # 4.B.4
            open_coast = rules.support_coast
            if open_coast is SupportCoast.ANY or (
                open_coast is SupportCoast.OWN_UNIT and target.power == unit.power
            ):
                problem = None
        if problem:
            return _illegal(index, given, unit, Illegality.SUPPORTED_MOVE_IMPOSSIBLE, problem)
        # the coast as the move would settle it (4.B.3 (a) ignores one out of reach)
        settled = where if where is not None and where.coast else _location(dest, order.dest.coast)
        return CheckedSupport(
            index, given, unit, Status.ACTIVE, target=target.province, dest=settled
        )

    def convoy(self, index: int, given: Given, unit: Unit, order: Convoy, dest: Key) -> Checked:
        """A convoy: by a fleet at sea, of an army, on some minimal route (4.E.1)."""
        board, position = self.board, self.position
        names = given.names

        if unit.type is not UnitType.FLEET or board.province(unit.province).kind is not Kind.SEA:
            return _illegal(index, given, unit, Illegality.CONVOY_NOT_AT_SEA)
        _, army = self.find(order.army.place)
        if army is None or army.type is not UnitType.ARMY:
            return _illegal(
                index, given, unit, Illegality.NOTHING_TO_CONVOY, order.army.place.text(names)
            )
        if army.province == dest:
            return _illegal(index, given, unit, Illegality.OWN_PROVINCE)
        routes = minimal_routes(board, army.province, dest, _fleets(position))
        if not any(unit.province in route for route in routes):
            origin, goal = _name(board, army.province), _name(board, dest)
            return _illegal(
                index, given, unit, Illegality.OFF_ROUTE, position.name(unit), origin, goal
            )
        return CheckedConvoy(
            index, given, unit, Status.ACTIVE, target=army.location.province, dest=_location(dest)
        )


def _matches_move(checked: Checked | None, province: Key, coast: str | None = None) -> bool:
    """Is the order a move to the province (and, if given, the coast)?"""
    if not isinstance(checked, CheckedMove) or checked.dest.province != province:
        return False
    return coast is None or checked.dest.coast in (None, coast)


def _convoy_index(orders: Mapping[Key, Checked | None]) -> dict[tuple[Key, Key], list[Unit]]:
    """Fleets with a legal convoy order, by (army's province, destination)."""
    index: dict[tuple[Key, Key], list[Unit]] = {}
    for checked in orders.values():
        if isinstance(checked, CheckedConvoy) and checked.unit is not None:
            index.setdefault((checked.target, checked.dest.province), []).append(checked.unit)
    return index


def analyse(
    position: Position,
    givens: Sequence[Given],
    rules: RuleBook = DATC_2025,
) -> JudgedTurn:
    """Judge every order of a movement turn and settle each unit's order in force."""
    judge = _Judge(position, rules)
    judged = [judge(i, g) for i, g in enumerate(givens)]
    in_force = _in_force(position, judged, rules)
    convoys = _convoy_index(in_force)
    _by_convoy(position.board, in_force, convoys, rules)
    _validity(position, in_force, convoys)
    for checked in in_force.values():
        if checked is not None:
            judged[checked.index] = checked
    orders = tuple((unit, in_force[unit.location.province]) for unit in position.units)
    return JudgedTurn(position, tuple(judged), orders, rules)


def _in_force(
    position: Position, judged: list[Checked], rules: RuleBook
) -> dict[Key, Checked | None]:
    """Each unit's order in force, by the unit's province: the first legal one (DATC
    4.D.3; the last under `several_orders = last`); the others become illegal in `judged`,
    and under `several_orders = none` the first too."""
    in_force: dict[Key, Checked | None] = {u.location.province: None for u in position.units}
    several: list[Unit] = []
    ordered = [
        c.unit.location.province
        for c in judged
        if c.status is not Status.ILLEGAL and c.unit is not None
    ]
    # the policy is read only where a unit has several orders: where it decides something
    repeated = len(set(ordered)) < len(ordered)
    last = repeated and rules.several_orders is SeveralOrders.LAST
    for i in reversed(range(len(judged))) if last else range(len(judged)):
        checked = judged[i]
        if checked.status is Status.ILLEGAL or checked.unit is None:
            continue
        if in_force[checked.unit.location.province] is not None:
            named = position.name(checked.unit)
            why = Illegality.REPLACED_ORDER if last else Illegality.SECOND_ORDER
            judged[i] = checked.replaced(status=Status.ILLEGAL, reason=Illegal.because(why, named))
            if checked.unit not in several:
                several.append(checked.unit)
            continue
        in_force[checked.unit.location.province] = checked
    if several and rules.several_orders is SeveralOrders.NONE:
        for unit in several:
            first = in_force[unit.province]
            assert first is not None
            reason = Illegal.because(Illegality.SEVERAL_ORDERS, position.name(unit))
            judged[first.index] = first.replaced(status=Status.ILLEGAL, reason=reason)
            in_force[unit.province] = None
    return in_force


def _by_convoy(
    board: BoardView,
    in_force: dict[Key, Checked | None],
    convoys: Mapping[tuple[Key, Key], list[Unit]],
    rules: RuleBook,
) -> None:
    """DATC 4.A.3: an army moving to an adjacent province goes by convoy when its order says
    "via convoy", and (2025) when its own power orders a fleet to convoy it, or (1971) when
    any fleet does; then there is no land route to fall back on, unless `via_fallback`
    gives one to a "via convoy" move no chain of fleets is ordered to carry, or
    `intent_fallback` to an army its own fleet convoys when the convoy fails."""
    for p, checked in in_force.items():
        if not isinstance(checked, CheckedMove) or not checked.by_convoy:
            continue
        dest = checked.dest.province
        ordered = frozenset(f.province for f in convoys.get((p, dest), ()))
        if (
            board.army_adjacent(p, dest)
            and not has_route(board, p, dest, ordered)
            and rules.via_fallback is not ViaFallback.NONE
        ):
            in_force[p] = checked.replaced(by_convoy=False)  # "via convoy" dropped
    for p, checked in in_force.items():
        if not isinstance(checked, CheckedMove) or checked.by_convoy or checked.unit is None:
            continue
        unit = checked.unit
        dest = checked.dest.province
        fleets = convoys.get((p, dest), [])
        if unit.type is not UnitType.ARMY or not fleets or not board.army_adjacent(p, dest):
            continue  # the policy decides only a move to an adjacent province
        if rules.convoy_to_adjacent is ConvoyToAdjacent.VIA_ONLY:
            return
        own_only = rules.convoy_to_adjacent is ConvoyToAdjacent.OWN_FLEET_OR_VIA
        if own_only and any(f.power == unit.power for f in fleets):
            if rules.intent_fallback:  # by sea if the convoy works, else over land (MILA)
                in_force[p] = checked.replaced(fallback=True)
            else:
                in_force[p] = checked.replaced(by_convoy=True)
        elif not own_only and _swaps(in_force, p, checked):
            # 1971, as the DATC recommends: the convoy is used when the unit at the
            # destination moves the opposite way and the convoy is not disrupted; otherwise
            # the army goes over land (decided in the model)
            in_force[p] = checked.replaced(fallback=True)


def _validity(
    position: Position,
    in_force: dict[Key, Checked | None],
    convoys: Mapping[tuple[Key, Key], list[Unit]],
) -> None:
    """Does each order fit the orders it refers to?  Those that do not become invalid."""
    for p, checked in list(in_force.items()):
        if checked is None or checked.unit is None or type(checked) is Checked:
            continue  # a hold fits any orders
        reason = _invalid_reason(position, in_force, convoys, checked.unit, checked)
        if reason:
            in_force[p] = checked.replaced(status=Status.INVALID, reason=reason)


def _swaps(in_force: Mapping[Key, Checked | None], province: Key, checked: CheckedMove) -> bool:
    order = in_force.get(checked.dest.province)
    return isinstance(order, CheckedMove) and order.dest.province == province


def _invalid_reason(
    position: Position,
    in_force: Mapping[Key, Checked | None],
    convoys: Mapping[tuple[Key, Key], list[Unit]],
    unit: Unit,
    checked: Checked,
) -> Invalid | None:
    """Why an order in force does not fit the others (None if it does)."""
    names = checked.given.names
    match checked:
        case CheckedMove(by_convoy=True, dest=dest):
            # every fleet listed convoys this very move: the index is keyed by it
            fleets = frozenset(f.province for f in convoys.get((unit.province, dest.province), []))
            if not has_route(position.board, unit.province, dest.province, fleets):
                return Invalid.because(Invalidity.NO_CONVOY_ORDERED)
        case CheckedSupport(dest=None, target=target):
            if isinstance(in_force.get(target), CheckedMove):
                return Invalid.because(Invalidity.SUPPORTED_UNIT_MOVES, _at(position, target))
        case CheckedSupport(dest=Location() as dest, target=target):
            if not _matches_move(in_force.get(target), dest.province, dest.coast):
                written = _written_dest(checked).text(names)
                return Invalid.because(Invalidity.NOT_ORDERED_SO, _at(position, target), written)
        case CheckedConvoy(dest=dest, target=target):
            if not _matches_move(in_force.get(target), dest.province):
                written = _written_dest(checked).text(names)
                return Invalid.because(Invalidity.NOT_ORDERED_SO, _at(position, target), written)
    return None


def _written_dest(checked: Checked) -> Place:
    """The destination as the order writes it."""
    order = checked.order
    assert isinstance(order, SupportMove | Convoy)
    return order.dest


def _at(position: Position, province: Key) -> str:
    """The unit in a province, named."""
    unit = position.unit_in(province)
    assert unit is not None
    return position.name(unit)


__all__ = ["analyse"]
