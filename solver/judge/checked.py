"""A movement turn's orders as judged (`solver.judge.legality`): each submitted order with
its status and, for a move, a support or a convoy, what it means on the board.

These live inside one adjudication, where every order of every turn makes one: they are
plain slotted classes (a frozen dataclass costs about three times as much to make), never
changed once made — `replaced` makes a changed copy."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Self

from topology import BoardView, Key, Location

from ..values.orders import Given, Order
from ..values.outcomes import Illegal, Invalid
from ..values.position import Position, Unit
from ..values.rules import DATC_2025, RuleBook


class Status(enum.Enum):
    ACTIVE = "active"
    INVALID = "invalid"
    ILLEGAL = "illegal"


class Checked:
    """One submitted order as judged against the board: a hold, an order that is illegal,
    or (the subclasses) what a move, a support or a convoy means on the board."""

    __slots__ = ("given", "index", "reason", "status", "unit")

    def __init__(
        self,
        index: int,  # its place among the submitted orders
        given: Given,
        unit: Unit | None,  # the unit it orders (None: there is none)
        status: Status,
        reason: Illegal | Invalid | None = None,
    ) -> None:
        self.index = index
        self.given = given
        self.unit = unit
        self.status = status
        self.reason = reason

    @property
    def order(self) -> Order:
        return self.given.order

    def replaced(self, **changes: Any) -> Self:
        """A copy with some fields changed."""
        copy = object.__new__(type(self))
        for cls in type(self).__mro__:
            for name in getattr(cls, "__slots__", ()):
                setattr(copy, name, changes.pop(name) if name in changes else getattr(self, name))
        if changes:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(changes)}")
        return copy

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.index} {self.status.value}: {self.given}>"


class CheckedMove(Checked):
    """A move: where it goes, and how (DATC 4.A.3 decided here)."""

    __slots__ = ("by_convoy", "dest", "fallback", "reachable")

    def __init__(
        self,
        index: int,
        given: Given,
        unit: Unit | None,
        status: Status,
        reason: Illegal | Invalid | None = None,
        *,
        dest: Location,  # the destination, its coast settled
        by_convoy: bool = False,  # it goes by convoy
        reachable: bool = True,  # False: possible only from the coast the order names (6.B.11)
        fallback: bool = False,  # 1971: by convoy if the convoy is undisrupted, else over land
    ) -> None:
        super().__init__(index, given, unit, status, reason)
        self.dest = dest
        self.by_convoy = by_convoy
        self.reachable = reachable
        self.fallback = fallback


class CheckedSupport(Checked):
    """A support: whom it supports, and where to (None: a support to hold)."""

    __slots__ = ("dest", "target")

    def __init__(
        self,
        index: int,
        given: Given,
        unit: Unit | None,
        status: Status,
        reason: Illegal | Invalid | None = None,
        *,
        target: Key,  # the supported unit's province (board key)
        dest: Location | None = None,  # the supported move's destination, coast as it settles
    ) -> None:
        super().__init__(index, given, unit, status, reason)
        self.target = target
        self.dest = dest


class CheckedConvoy(Checked):
    """A convoy: the army it carries and where."""

    __slots__ = ("dest", "target")

    def __init__(
        self,
        index: int,
        given: Given,
        unit: Unit | None,
        status: Status,
        reason: Illegal | Invalid | None = None,
        *,
        target: Key,  # the army's province (board key)
        dest: Location,
    ) -> None:
        super().__init__(index, given, unit, status, reason)
        self.target = target
        self.dest = dest


def destination(checked: Checked) -> Location | None:
    """Where a move, a support to move or a convoy goes (None for any other order)."""
    if isinstance(checked, CheckedMove | CheckedConvoy | CheckedSupport):
        return checked.dest
    return None


@dataclass(frozen=True, slots=True)
class JudgedTurn:
    """A movement turn ready for adjudication: every submitted order judged, one order per unit."""

    position: Position
    checked: tuple[Checked, ...]
    orders: tuple[tuple[Unit, Checked | None], ...]  # each unit's order in force (None: holds)
    rules: RuleBook = DATC_2025

    @property
    def board(self) -> BoardView:
        return self.position.board


__all__ = [
    "Checked",
    "CheckedConvoy",
    "CheckedMove",
    "CheckedSupport",
    "JudgedTurn",
    "Status",
    "destination",
]
