"""Seeded random movement turns on any board, biased towards what breaks adjudicators.

Positions have random units and centre owners.  Orders are legal and lean towards conflict:
attacks on occupied provinces, head-to-head battles, supports (also for attacks on one's
own units), cut supports, convoys with several fleets and to adjacent provinces, split
coasts, rings of moves and beleaguered garrisons.  The same seed gives the same turn.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from topology import Board, Kind, Location, UnitType, standard

from ..judge.convoy_routes import minimal_routes
from ..values.orders import (
    Convoy,
    Given,
    Hold,
    Move,
    Order,
    Place,
    SupportHold,
    SupportMove,
    UnitRef,
)
from ..values.position import Position, Unit, opening_phase


def random_turn(
    seed: str, units: tuple[int, int] | None = None, board: Board | None = None
) -> tuple[Position, list[Given]]:
    """One movement turn from a seed string: a position and an order for most units, on the
    standard board unless another is given.  The number of units is drawn from ``units``:
    by default from a little over half to all of the board's supply centres (18 to 34 on
    the standard board)."""
    rng = random.Random(seed)
    board = board or standard()
    count = rng.randint(*(units or unit_range(board)))
    codes = sorted(board.provinces)
    rng.shuffle(codes)
    placed: list[Unit] = []
    for code in codes:
        if len(placed) >= count:
            break
        province = board.province(code)
        power = rng.choice(board.powers)
        if province.kind is Kind.LAND:
            placed.append(Unit(Location(code), UnitType.ARMY, power))
        elif province.kind is Kind.SEA:
            placed.append(Unit(Location(code), UnitType.FLEET, power))
        elif rng.random() < 0.6:
            placed.append(Unit(Location(code), UnitType.ARMY, power))
        else:
            coast = rng.choice(province.coasts) if province.coasts else None
            placed.append(Unit(Location(code, coast), UnitType.FLEET, power))
    owners = tuple(
        (c, rng.choice(board.powers)) for c in sorted(board.centres) if rng.random() < 0.8
    )
    position = Position(opening_phase(board), tuple(placed), owners, board=board)
    return position, _orders(rng, position)


def unit_range(board: Board) -> tuple[int, int]:
    """How many units a random turn has: 18 to 34 on the standard board's 34 centres, in
    proportion elsewhere (at least one, at most one per province)."""
    centres = max(1, len(board.centres))
    return max(1, round(centres * 18 / 34)), min(centres, len(board.provinces))


def _ref(unit: Unit) -> UnitRef:
    return UnitRef(Place(unit.location.code, unit.location.coast), unit.type)


def _targets(board: Board, unit: Unit) -> list[Place]:
    """Where a unit can move by itself, coast-level for fleets."""
    if unit.type is UnitType.ARMY:
        return [Place(p) for p in sorted(board.army_graph()[unit.province])]
    places = []
    for key in sorted(board.fleet_graph()[str(unit.location)]):
        loc = Location.parse(key)
        places.append(Place(loc.code, loc.coast))
    return places


def _orders(rng: random.Random, position: Position) -> list[Given]:
    board = position.map

    def give(unit: Unit, order: Order) -> Given:
        return Given(unit.power, order, board)

    units = list(position.units)
    rng.shuffle(units)
    occupied = {u.province: u for u in units}
    moves: dict[Unit, Place] = {}
    # First the moves: attacks on occupied provinces are favoured, and a unit attacked by
    # a neighbour often attacks back (head-to-head) or moves on (rings).
    for unit in units:
        if rng.random() > 0.55:
            continue
        targets = _targets(board, unit)
        if not targets:
            continue
        attacks = [t for t in targets if t.province in occupied]
        back = [
            t
            for t in targets
            if occupied.get(t.province) in moves
            and moves[occupied[t.province]].province == unit.province
        ]
        pool = (
            back
            if back and rng.random() < 0.4
            else (attacks if attacks and rng.random() < 0.6 else targets)
        )
        moves[unit] = rng.choice(pool)
    fleets_at_sea = {
        u.province: u
        for u in units
        if u.type is UnitType.FLEET and board.province(u.province).kind is Kind.SEA
    }
    convoyed: dict[Unit, tuple[Place, bool]] = {}
    for unit in units:  # armies on the coast sometimes sail, even to a neighbour
        if unit.type is not UnitType.ARMY or unit in moves or rng.random() > 0.5:
            continue
        if board.province(unit.province).kind is not Kind.COAST:
            continue
        goals = sorted(
            p
            for p in board.provinces
            if board.province(p).kind is Kind.COAST and p != unit.province
        )
        rng.shuffle(goals)
        for province in goals[:12]:
            routes = list(minimal_routes(board, unit.province, province, frozenset(fleets_at_sea)))
            if routes:
                adjacent = board.army_adjacent(unit.province, province)
                convoyed[unit] = (Place(province), adjacent)
                break
    orders: list[Given] = []
    convoying: set[Unit] = set()
    for army, (goal, adjacent) in convoyed.items():
        routes = list(minimal_routes(board, army.province, goal.province, frozenset(fleets_at_sea)))
        for fleet_code in sorted({f for r in routes for f in r}):
            fleet = fleets_at_sea[fleet_code]
            if fleet in moves or fleet in convoying:
                continue
            convoying.add(fleet)
            orders.append(give(fleet, Convoy(_ref(fleet), _ref(army), goal)))
        via = adjacent and rng.random() < 0.5
        orders.append(give(army, Move(_ref(army), goal, via_convoy=via)))
    for unit, dest in moves.items():
        orders.append(give(unit, Move(_ref(unit), dest)))
    # Then supports, for moves and holds in reach, whoever's they are.
    for unit in units:
        if unit in moves or unit in convoyed or unit in convoying:
            continue
        if rng.random() < 0.15:
            orders.append(give(unit, Hold(_ref(unit))))
            continue
        reach = {t.province for t in _targets(board, unit)}
        candidates = [(m, d) for m, d in moves.items() if d.province in reach and m != unit]
        candidates += [(a, g) for a, (g, _) in convoyed.items() if g.province in reach]
        holders = [
            occupied[p]
            for p in sorted(reach)
            if p in occupied and occupied[p] not in moves and occupied[p] not in convoyed
        ]
        if candidates and (not holders or rng.random() < 0.7):
            mover, dest = rng.choice(sorted(candidates, key=lambda c: position.name(c[0])))
            orders.append(
                Given(
                    unit.power,
                    board=board,
                    order=SupportMove(_ref(unit), _ref(mover), Place(dest.province)),
                )
            )
        elif holders:
            orders.append(
                Given(
                    unit.power,
                    board=board,
                    order=SupportHold(_ref(unit), _ref(rng.choice(holders))),
                )
            )
    rng.shuffle(orders)
    return orders


def random_turns(
    seed: int, start: int, stop: int, board: Board | None = None
) -> Iterator[tuple[str, Position, list[Given]]]:
    """Turns number start..stop-1 of a campaign with a seed, each reproducible on its own."""
    for index in range(start, stop):
        name = f"s{seed}-{index}"
        yield (name, *random_turn(name, board=board))
