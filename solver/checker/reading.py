"""The checker's own reading of a movement turn's orders, from the DATC and the rule book.

Four passes, each one rule of the DATC:

1. each submitted order against the position alone: illegal when impossible whatever the
   other orders are (4.E.1, with the coast policies 4.B.2-4.B.6 and 6.B.11), else where it
   goes and whether it can only go by convoy;
2. each unit's order in force (4.D.3 and the `several_orders` policy);
3. which moves go by convoy (4.A.3, the `convoy_to_adjacent` policy, with the 1971 swap);
4. each order in force matched against the orders it names: invalid when it does not fit.

Nothing here comes from the adjudicator's legality: the two readings meet only in the
resolution the checker is given.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from topology import BoardView, Key, Kind, Location, UnitType

from ..values.orders import (
    MOVEMENT_ORDERS,
    Convoy,
    Given,
    Move,
    Order,
    Place,
    SupportHold,
    SupportMove,
    Waive,
)
from ..values.position import Position, Unit
from ..values.rules import (
    ConvoyToAdjacent,
    RuleBook,
    SeveralOrders,
    SupportCoast,
    UnreachableCoast,
    ViaFallback,
    WrongCoast,
)
from .chains import Seas, fleets_at_sea


class Verdict(enum.Enum):
    """What an order is, before any strength is counted (DATC 4.E.1)."""

    ACTIVE = "active"  # takes part in the equations
    INVALID = "invalid"  # possible, but does not fit the orders it names: it fails
    ILLEGAL = "illegal"  # impossible on this board: ignored, the unit holds


@dataclass(frozen=True, slots=True)
class Reading:
    """One submitted order as the checker reads it."""

    index: int  # its place among the submitted orders
    given: Given
    unit: Unit | None  # the unit standing where the order names its unit
    verdict: Verdict = Verdict.ACTIVE
    why: str = ""  # the rule that makes it illegal or invalid (or fail, 6.B.11)
    dest: Key | None = None  # board key: where a move, supported move or convoy goes
    coast: str | None = None  # a move's coast of arrival; a support's: where the move would
    # arrive when its way settles the coast (4.B.3 may ignore the coast named), else as named
    target: Key | None = None  # board key: the supported or convoyed unit's province
    by_convoy: bool = False  # 4.A.3: the move goes by convoy, not over land
    reachable: bool = True  # 6.B.11: False when possible only from the coast it names
    fallback: bool = False  # 4.A.3 (1971): a swap by convoy if the convoy works, else by land
    land: bool = False  # a move the army could also make over land (to an adjacent province)

    @property
    def order(self) -> Order:
        return self.given.order

    def refused(self, verdict: Verdict, why: str) -> Reading:
        return replace(self, verdict=verdict, why=why)


@dataclass(frozen=True, slots=True)
class Orders:
    """The orders of a turn as the checker reads them."""

    readings: tuple[Reading, ...]  # one per submitted order, in submission order
    in_force: Mapping[Key, Reading]  # unit's province -> its order in force (absent: holds)


def read_orders(position: Position, orders: Sequence[Given], rules: RuleBook) -> Orders:
    """Read a movement turn's orders: the four passes of the module docstring."""
    reader = _OrderReader(position, rules)
    readings = [reader.read(i, given) for i, given in enumerate(orders)]
    in_force = orders_in_force(readings, rules)
    in_force = {p: convoy_policy(r, in_force, rules, reader.seas) for p, r in in_force.items()}
    misfits = {p: misfit(r, in_force, reader.seas) for p, r in in_force.items()}
    in_force = {
        p: r.refused(Verdict.INVALID, why) if (why := misfits[p]) else r
        for p, r in in_force.items()
    }
    for reading in in_force.values():
        readings[reading.index] = reading
    return Orders(tuple(readings), in_force)


# -- 1. each order against the board (DATC 4.E.1, 4.B) -----------------------------------------
class Bar(enum.Enum):
    """Why a unit cannot go to a province by itself or by any convoy the board allows."""

    OWN_PROVINCE = "a unit cannot move to its own province"
    NO_SUCH_COAST = "4.B.6: the coast named does not exist"
    ARMY_AT_SEA = "an army cannot go to sea"
    ARMY_ON_COAST = "4.B.6: an army is not ordered to a coast"
    NO_WAY = "not adjacent, and no chain of fleets could convoy the army"
    FLEET_INLAND = "a fleet cannot go inland"
    OUT_OF_REACH = "the fleet borders no coast of the province"
    COAST_OUT_OF_REACH = "4.B.3: the fleet cannot reach the coast named"
    COAST_UNNAMED = "4.B.2: the coast must be named"


@dataclass(frozen=True, slots=True)
class Way:
    """How a unit can go to a province: the coast it arrives on, and whether only a convoy
    takes it there."""

    coast: str | None
    convoy_only: bool = False


class _OrderReader:
    """Reads single orders against one position under one rule book."""

    def __init__(self, position: Position, rules: RuleBook) -> None:
        self.position = position
        self.board: BoardView = position.board
        self.rules = rules
        self.seas = Seas(self.board)
        self.fleets = fleets_at_sea(position)

    def key(self, place: Place) -> Key | None:
        return self.board.key(place.province, place.timeline, place.turn)

    def unit_at(self, place: Place) -> Unit | None:
        key = self.key(place)
        return None if key is None else self.position.unit_in(key)

    def read(self, index: int, given: Given) -> Reading:
        order = given.order
        unit = None if isinstance(order, Waive) else self.unit_at(order.unit.place)
        reading = Reading(index, given, unit)
        if not isinstance(order, MOVEMENT_ORDERS):
            return reading.refused(Verdict.ILLEGAL, "not an order of a movement phase")
        if unit is None:
            return reading.refused(Verdict.ILLEGAL, "no unit stands there")
        if given.power is not None and given.power != unit.power:
            return reading.refused(Verdict.ILLEGAL, "the unit belongs to another power")
        if not isinstance(order, Move) and self.on_another_coast(order.unit.place, unit):
            return reading.refused(Verdict.ILLEGAL, "4.B.5: the unit is not on the coast named")
        match order:
            case Move():
                return self.read_move(reading, order, unit)
            case SupportHold() | SupportMove():
                return self.read_support(reading, order, unit)
            case Convoy():
                return self.read_convoy(reading, order, unit)
        return reading  # a hold

    def on_another_coast(self, place: Place, unit: Unit) -> bool:
        """4.B.5: with wrong coasts illegal, does the place name a coast the unit is not
        on?  (Not asked of a move's own unit: 6.B.11 reads that.)"""
        wrong = place.coast not in (None, unit.location.coast)
        return wrong and self.rules.wrong_coast is WrongCoast.ILLEGAL

    # -- the way to a province ----------------------------------------------------------------
    def way(
        self, kind: UnitType, at: Location, dest: Key, coast: str | None, fleets: frozenset[Key]
    ) -> Way | Bar:
        """How a unit of this kind at `at` can go to `dest` with `coast` named, or why not
        (an army by any chain of `fleets`)."""
        province = self.board.province(dest)
        if dest == at.province:
            return Bar.OWN_PROVINCE
        if coast is not None and coast not in province.coasts:
            if self.rules.wrong_coast is WrongCoast.ILLEGAL:
                return Bar.NO_SUCH_COAST
            coast = None  # 4.B.6: a coast that is not there is no part of the order
        if kind is UnitType.ARMY:
            return self.army_way(at.province, dest, coast, fleets)
        return self.fleet_way(at, dest, coast)

    def army_way(
        self, origin: Key, dest: Key, coast: str | None, fleets: frozenset[Key]
    ) -> Way | Bar:
        if self.board.province(dest).kind is Kind.SEA:
            return Bar.ARMY_AT_SEA
        if coast is not None and self.rules.wrong_coast is WrongCoast.ILLEGAL:
            return Bar.ARMY_ON_COAST
        if self.board.army_adjacent(origin, dest):
            return Way(None)
        if self.seas.chain_exists(origin, dest, fleets):
            return Way(None, convoy_only=True)
        return Bar.NO_WAY

    def fleet_way(self, at: Location, dest: Key, coast: str | None) -> Way | Bar:
        province = self.board.province(dest)
        if province.kind is Kind.LAND:
            return Bar.FLEET_INLAND
        reached = self.board.fleet_coasts_towards(at, dest)
        if not reached:
            return Bar.OUT_OF_REACH
        if not province.coasts:
            return Way(None)
        if coast in reached:
            return Way(coast)
        only = reached[0] if len(reached) == 1 else None
        if coast is not None:  # 4.B.3: the coast named is out of reach
            ignored = self.rules.unreachable_coast is UnreachableCoast.IGNORED
            return Way(only) if ignored and only else Bar.COAST_OUT_OF_REACH
        if only and self.rules.single_coast_default:  # 4.B.2: the one coast within reach
            return Way(only)
        return Bar.COAST_UNNAMED

    def reaches(self, unit: Unit, province: Key) -> bool:
        """Could the unit move to the province by itself (any coast)?  What a supporter
        must be able to do (4.E.1)."""
        if unit.type is UnitType.ARMY:
            sea = self.board.province(province).kind is Kind.SEA
            return not sea and self.board.army_adjacent(unit.province, province)
        return bool(self.board.fleet_coasts_towards(unit.location, province))

    # -- one kind of order each ---------------------------------------------------------------
    def read_move(self, reading: Reading, order: Move, unit: Unit) -> Reading:
        dest = self.key(order.dest)
        if dest is None:
            return reading.refused(Verdict.ILLEGAL, "the destination is on no board of the turn")
        if order.via_convoy and unit.type is UnitType.FLEET:
            return reading.refused(Verdict.ILLEGAL, "only an army is convoyed")
        way = self.way(unit.type, unit.location, dest, order.dest.coast, self.fleets)
        if isinstance(way, Bar):
            other = self.other_coast_way(order, unit, dest)
            if other is None:
                return reading.refused(Verdict.ILLEGAL, way.value)
            why = "6.B.11: possible only from the coast named, which the fleet is not on"
            return replace(reading, dest=dest, coast=other.coast, reachable=False, why=why)
        adjacent = not way.convoy_only
        if (
            order.via_convoy
            and adjacent
            and not self.seas.chain_exists(unit.province, dest, self.fleets)
        ):
            if self.rules.via_fallback is ViaFallback.LAND:  # over land, as if not written
                return replace(reading, dest=dest, coast=way.coast)
            return reading.refused(Verdict.ILLEGAL, "via convoy, but no fleets could convoy")
        # 4.A.3: "via convoy" to an adjacent province means nothing in 1971
        via = order.via_convoy and self.rules.convoy_to_adjacent is not ConvoyToAdjacent.ANY_FLEET
        return replace(
            reading, dest=dest, coast=way.coast, by_convoy=way.convoy_only or via, land=adjacent
        )

    def other_coast_way(self, order: Move, unit: Unit, dest: Key) -> Way | None:
        """6.B.11: the way of a fleet from the coast its order names, when it stands on
        another (4.E.1 read restrictively: such a move is not illegal, it fails)."""
        written = order.unit.place.coast
        here = self.board.province(unit.province)
        if unit.type is not UnitType.FLEET or written == unit.location.coast:
            return None
        if written not in here.coasts:
            return None
        way = self.way(
            unit.type, Location(unit.province, written), dest, order.dest.coast, self.fleets
        )
        return way if isinstance(way, Way) else None

    def read_support(
        self, reading: Reading, order: SupportHold | SupportMove, unit: Unit
    ) -> Reading:
        ref = order.supported
        target = self.unit_at(ref.place)
        if target is None:
            return reading.refused(Verdict.ILLEGAL, "no unit stands where the support names one")
        if target.province == unit.province:
            return reading.refused(Verdict.ILLEGAL, "a unit cannot support itself")
        if self.on_another_coast(ref.place, target):
            return reading.refused(Verdict.ILLEGAL, "4.B.5: the supported unit is not there")
        reading = replace(reading, target=target.province)
        if isinstance(order, SupportHold):
            if not self.reaches(unit, target.province):
                return reading.refused(Verdict.ILLEGAL, "the supporter cannot reach the unit")
            return reading
        dest = self.key(order.dest)
        if dest is None:
            return reading.refused(Verdict.ILLEGAL, "the destination is on no board of the turn")
        if not self.reaches(unit, dest):
            return reading.refused(Verdict.ILLEGAL, "the supporter cannot reach the destination")
        # the supporter does not convoy the move it supports
        way = self.way(
            target.type, target.location, dest, order.dest.coast, self.fleets - {unit.province}
        )
        if isinstance(way, Bar) and not (
            way is Bar.COAST_UNNAMED and self.coast_may_stay_open(unit, target)
        ):
            return reading.refused(
                Verdict.ILLEGAL, f"the supported move is impossible: {way.value}"
            )
        coast = order.dest.coast
        if isinstance(way, Way) and way.coast is not None:
            coast = way.coast  # where the move would go: 4.B.3 (a) may ignore the coast named
        return replace(reading, dest=dest, coast=coast)

    def coast_may_stay_open(self, supporter: Unit, supported: Unit) -> bool:
        """4.B.4: may a support leave open which coast the supported fleet goes to?"""
        policy = self.rules.support_coast
        own = supporter.power == supported.power
        return policy is SupportCoast.ANY or (policy is SupportCoast.OWN_UNIT and own)

    def read_convoy(self, reading: Reading, order: Convoy, unit: Unit) -> Reading:
        if (
            unit.type is not UnitType.FLEET
            or self.board.province(unit.province).kind is not Kind.SEA
        ):
            return reading.refused(Verdict.ILLEGAL, "only a fleet at sea convoys")
        dest = self.key(order.dest)
        if dest is None:
            return reading.refused(Verdict.ILLEGAL, "the destination is on no board of the turn")
        army = self.unit_at(order.army.place)
        if army is None or army.type is not UnitType.ARMY:
            return reading.refused(Verdict.ILLEGAL, "no army stands where the convoy names one")
        if army.province == dest:
            return reading.refused(Verdict.ILLEGAL, "the army would move to its own province")
        routes = self.seas.routes(army.province, dest, self.fleets)
        if not any(unit.province in route for route in routes):
            return reading.refused(Verdict.ILLEGAL, "4.E.1: the fleet is on no convoy route")
        return replace(reading, dest=dest, target=army.province)


# -- 2. the order in force (DATC 4.D.3) -------------------------------------------------------
def orders_in_force(readings: list[Reading], rules: RuleBook) -> dict[Key, Reading]:
    """Each ordered unit's order in force: its first legal order (4.D.3; its last under
    `several_orders = last`); the others become illegal, and so does the first under
    `several_orders = none` (the unit holds)."""
    legal: dict[Key, list[Reading]] = {}
    for reading in readings:
        if reading.verdict is not Verdict.ILLEGAL and reading.unit is not None:
            legal.setdefault(reading.unit.province, []).append(reading)
    in_force = {}
    for province, found in legal.items():
        if rules.several_orders is SeveralOrders.LAST:  # a later order replaces an earlier
            found = found[::-1]
        first, *later = found
        for extra in later:
            readings[extra.index] = extra.refused(Verdict.ILLEGAL, "4.D.3: the unit has an order")
        if later and rules.several_orders is SeveralOrders.NONE:
            readings[first.index] = first.refused(Verdict.ILLEGAL, "4.D.3: several orders")
        else:
            in_force[province] = first
    return in_force


# -- 3. by convoy or over land (DATC 4.A.3) ---------------------------------------------------
def convoying_fleets(in_force: Mapping[Key, Reading], army: Key, dest: Key) -> list[Reading]:
    """The convoy orders in force for an army's move to a destination."""
    return [
        r
        for r in in_force.values()
        if isinstance(r.order, Convoy)
        and r.verdict is not Verdict.ILLEGAL
        and (r.target, r.dest) == (army, dest)
    ]


def convoy_policy(
    reading: Reading, in_force: Mapping[Key, Reading], rules: RuleBook, seas: Seas
) -> Reading:
    """4.A.3: an army ordered to an adjacent province that a fleet convoys goes by convoy
    when the fleet is its own power's (2025; with `intent_fallback`, over land if that
    convoy fails); in 1971 it swaps places by convoy with the unit coming the other way, if
    that convoy works (else it goes over land). With `via_fallback`, an army ordered "via
    convoy" to an adjacent province that no chain of fleets is ordered to carry goes over
    land."""
    unit = reading.unit
    if (
        not isinstance(reading.order, Move)
        or unit is None
        or unit.type is not UnitType.ARMY
        or reading.dest is None
    ):
        return reading
    fleets = convoying_fleets(in_force, unit.province, reading.dest)
    if reading.by_convoy:
        ordered = frozenset(f.unit.province for f in fleets if f.unit is not None)
        if (
            rules.via_fallback is not ViaFallback.NONE
            and reading.land
            and not seas.chain_exists(unit.province, reading.dest, ordered)
        ):
            return replace(reading, by_convoy=False)  # "via convoy" dropped
        return reading
    if not fleets:
        return reading
    policy = rules.convoy_to_adjacent
    if policy is ConvoyToAdjacent.OWN_FLEET_OR_VIA:
        if any(f.unit is not None and f.unit.power == unit.power for f in fleets):
            return (
                replace(reading, fallback=True)
                if rules.intent_fallback
                else replace(reading, by_convoy=True)
            )
    elif policy is ConvoyToAdjacent.ANY_FLEET and swaps(reading, in_force):
        return replace(reading, fallback=True)
    return reading


def swaps(reading: Reading, in_force: Mapping[Key, Reading]) -> bool:
    """Does the unit at the move's destination move to where this move comes from?"""
    other = in_force.get(reading.dest) if reading.dest is not None else None
    here = reading.unit.province if reading.unit is not None else None
    return other is not None and isinstance(other.order, Move) and other.dest == here


# -- 4. does each order fit the orders it names? (DATC 4.E.1) ---------------------------------
def misfit(reading: Reading, in_force: Mapping[Key, Reading], seas: Seas) -> str | None:
    """Why an order in force is invalid, or None when it fits."""
    order = reading.order
    partner = in_force.get(reading.target) if reading.target is not None else None
    match order:
        case Move() if reading.by_convoy and reading.unit is not None and reading.dest:
            army = reading.unit.province
            fleets = frozenset(
                f.unit.province for f in convoying_fleets(in_force, army, reading.dest) if f.unit
            )
            if not seas.chain_exists(army, reading.dest, fleets):
                return "it goes by convoy, and no chain of fleets is ordered to convoy it"
        case SupportHold() if partner is not None and isinstance(partner.order, Move):
            return "a hold support for a unit ordered to move"
        case SupportMove() if not moves_to(partner, reading.dest, reading.coast):
            return "the supported unit is not ordered to that move"
        case Convoy() if not moves_to(partner, reading.dest):
            return "the convoyed army is not ordered to that move"
    return None


def moves_to(reading: Reading | None, dest: Key | None, coast: str | None = None) -> bool:
    """Is this order in force a move to `dest` (arriving on `coast`, when both name one)?"""
    if reading is None or not isinstance(reading.order, Move) or reading.dest != dest:
        return False
    return coast is None or reading.coast in (None, coast)
