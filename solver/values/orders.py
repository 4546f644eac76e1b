"""Typed orders for every phase: plain immutable values, printed in DATC notation.

An order names its unit by place and (optionally) type; the power that gives it and the map
it was given on travel beside it (`Given`).  Nothing here looks at a position: whether an
order is legal is decided later (`solver.judge.legality`).

Names come from a map: `order_text(order, board)` writes "A Munich - Tyrolia"; so does
`str(given)` for an order given on a board.  An order alone prints its province codes
("A mun - tyr"), which read back the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Protocol

from topology import Location, UnitType


class Names(Protocol):
    """Whatever names the places of a map (a `topology.Board`)."""

    def location_name(self, location: Location) -> str: ...


class _Codes:
    """Names places by their codes: 'mun', 'stp/nc'."""

    @staticmethod
    def location_name(location: Location) -> str:
        return str(location)


CODES: Names = _Codes()


def timeline_name(index: int) -> str:
    """Timeline 0 is 'a', 25 is 'z', 26 is 'aa' (the letter notation of the MDATC)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def timeline_index(name: str) -> int:
    """Inverse of `timeline_name`."""
    index = 0
    for letter in name:
        index = index * 26 + (ord(letter) - ord("a") + 1)
    return index - 1


@dataclass(frozen=True, slots=True, order=True)
class Place:
    """A province with optional coast and, in the multiverse, optional board coordinates."""

    province: str
    coast: str | None = None
    timeline: int | None = None
    turn: int | None = None

    @property
    def location(self) -> Location:
        return Location(self.province, self.coast)

    def with_board(self, timeline: int | None, turn: int | None) -> Place:
        """Fill the coordinates that are missing (MDATC default rules)."""
        if self.timeline is not None and self.turn is not None:
            return self
        return replace(
            self,
            timeline=self.timeline if self.timeline is not None else timeline,
            turn=self.turn if self.turn is not None else turn,
        )

    def text(self, names: Names) -> str:
        """'St Petersburg(nc)', 'b-Munich@1': as orders write places."""
        text = names.location_name(Location(self.province, self.coast))
        if self.timeline is not None:
            text = f"{timeline_name(self.timeline)}-{text}"
        if self.turn is not None:
            text += f"@{self.turn}"
        return text

    def __str__(self) -> str:
        return self.text(CODES)


@dataclass(frozen=True, slots=True, order=True)
class UnitRef:
    """A unit as an order names it: type (may be omitted, DATC 4.C.1) and place."""

    place: Place
    type: UnitType | None = None

    def text(self, names: Names) -> str:
        place = self.place.text(names)
        return f"{self.type._value_} {place}" if self.type else place  # no descriptor

    def __str__(self) -> str:
        return self.text(CODES)


@dataclass(frozen=True, slots=True)
class Hold:
    unit: UnitRef

    def __str__(self) -> str:
        return order_text(self, CODES)


@dataclass(frozen=True, slots=True)
class Move:
    unit: UnitRef
    dest: Place
    via_convoy: bool = False

    def __str__(self) -> str:
        return order_text(self, CODES)


@dataclass(frozen=True, slots=True)
class SupportHold:
    unit: UnitRef
    supported: UnitRef

    def __str__(self) -> str:
        return order_text(self, CODES)


@dataclass(frozen=True, slots=True)
class SupportMove:
    unit: UnitRef
    supported: UnitRef
    dest: Place

    def __str__(self) -> str:
        return order_text(self, CODES)


@dataclass(frozen=True, slots=True)
class Convoy:
    unit: UnitRef
    army: UnitRef
    dest: Place

    def __str__(self) -> str:
        return order_text(self, CODES)


@dataclass(frozen=True, slots=True)
class Retreat:
    unit: UnitRef
    dest: Place

    def __str__(self) -> str:
        return order_text(self, CODES)


@dataclass(frozen=True, slots=True)
class Disband:
    """Disband in a retreat phase, or remove in an adjustment phase."""

    unit: UnitRef

    def __str__(self) -> str:
        return order_text(self, CODES)


@dataclass(frozen=True, slots=True)
class Build:
    unit: UnitRef

    def __str__(self) -> str:
        return order_text(self, CODES)


@dataclass(frozen=True, slots=True)
class Waive:
    """Decline one build (DATC 4.D.7)."""

    def __str__(self) -> str:
        return order_text(self, CODES)


Order = Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build | Waive
MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)


def order_text(order: Order, names: Names) -> str:
    """The order in DATC notation, its places named by `names`."""
    match order:
        case Hold(unit=unit):
            return f"{unit.text(names)} Holds"
        case Move(unit=unit, dest=dest, via_convoy=via):
            return f"{unit.text(names)} - {dest.text(names)}" + (" via Convoy" if via else "")
        case SupportHold(unit=unit, supported=supported):
            return f"{unit.text(names)} Supports {supported.text(names)}"
        case SupportMove(unit=unit, supported=supported, dest=dest):
            return f"{unit.text(names)} Supports {supported.text(names)} - {dest.text(names)}"
        case Convoy(unit=unit, army=army, dest=dest):
            return f"{unit.text(names)} Convoys {army.text(names)} - {dest.text(names)}"
        case Retreat(unit=unit, dest=dest):
            return f"{unit.text(names)} Retreats to {dest.text(names)}"
        case Disband(unit=unit):
            return f"Disband {unit.text(names)}"
        case Build(unit=unit):
            return f"Build {unit.text(names)}"
    return "Waive"


@dataclass(frozen=True, slots=True)
class Given:
    """An order together with the power that gave it (None when the text did not say) and
    the map it was given on, which names its places when it is printed."""

    power: str | None
    order: Order
    board: Names | None = field(default=None, compare=False, repr=False)

    @property
    def names(self) -> Names:
        """What names the order's places: the map it was given on, or the codes."""
        return self.board or CODES

    @property
    def order_text(self) -> str:
        """The order alone, in DATC notation."""
        return order_text(self.order, self.names)

    def __str__(self) -> str:
        return f"{self.power}: {self.order_text}" if self.power else self.order_text

    def __repr__(self) -> str:
        return f"<Given {self}>"


def named_places(order: Order) -> list[Place]:
    """Every place an order names: its unit's, the supported or convoyed unit's, the
    destination (none for a waived build)."""
    if isinstance(order, Waive):
        return []
    found = [order.unit.place]
    for name in ("supported", "army"):
        ref: UnitRef | None = getattr(order, name, None)
        if ref is not None:
            found.append(ref.place)
    dest = getattr(order, "dest", None)
    if dest is not None:
        found.append(dest)
    return found


def apply_board_defaults(order: Order, timeline: int | None, turn: int | None) -> Order:
    """Fill omitted multiverse coordinates by the MDATC 2.B default rules.

    The ordered unit takes the season of the header; a supported-to-hold unit the
    supporter's; a move destination (own or supported) the moving unit's.
    """
    if isinstance(order, Waive):
        return order
    unit = replace(order.unit, place=order.unit.place.with_board(timeline, turn))
    here = unit.place
    match order:
        case Move(dest=dest):
            return replace(order, unit=unit, dest=dest.with_board(here.timeline, here.turn))
        case Retreat(dest=dest):
            return replace(order, unit=unit, dest=dest.with_board(here.timeline, here.turn))
        case SupportHold(supported=sup):
            sup = replace(sup, place=sup.place.with_board(here.timeline, here.turn))
            return replace(order, unit=unit, supported=sup)
        case SupportMove(supported=sup, dest=dest):
            sup = replace(sup, place=sup.place.with_board(here.timeline, here.turn))
            there = sup.place
            dest = dest.with_board(there.timeline, there.turn)
            return replace(order, unit=unit, supported=sup, dest=dest)
        case Convoy(army=army, dest=dest):
            army = replace(army, place=army.place.with_board(here.timeline, here.turn))
            dest = dest.with_board(army.place.timeline, army.place.turn)
            return replace(order, unit=unit, army=army, dest=dest)
    return replace(order, unit=unit)
