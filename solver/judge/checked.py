"""A movement turn's orders as judged (`solver.judge.legality`): each submitted order with
its status and, for a move, a support or a convoy, what it means on the board.

A module of its own, and plain Python where the judge is compiled (setup.py): these are
frozen dataclasses deriving from one another, whose compiled form (mypyc 2.4) reports the
inherited fields twice to the garbage collector (tests/test_compiled.py)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from topology import BoardView, Location

from ..values.orders import Given, Order
from ..values.outcomes import Illegal, Invalid
from ..values.position import Position, Unit
from ..values.rules import DATC_2025, RuleBook


class Status(enum.Enum):
    ACTIVE = "active"
    INVALID = "invalid"
    ILLEGAL = "illegal"


@dataclass(frozen=True, slots=True)
class Checked:
    """One submitted order as judged against the board: a hold, an order that is illegal,
    or (the subclasses) what a move, a support or a convoy means on the board."""

    index: int  # its place among the submitted orders
    given: Given
    unit: Unit | None  # the unit it orders (None: there is none)
    status: Status
    reason: Illegal | Invalid | None = None

    @property
    def order(self) -> Order:
        return self.given.order


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckedMove(Checked):
    """A move: where it goes, and how (DATC 4.A.3 decided here)."""

    dest: Location  # the destination, its coast settled
    by_convoy: bool = False  # it goes by convoy
    reachable: bool = True  # False: possible only from the coast the order names (6.B.11)
    fallback: bool = False  # 1971: by convoy if the convoy is undisrupted, else over land


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckedSupport(Checked):
    """A support: whom it supports, and where to (None: a support to hold)."""

    target: str  # the supported unit's province (board key)
    dest: Location | None = None  # the supported move's destination, coast as the move settles


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckedConvoy(Checked):
    """A convoy: the army it carries and where."""

    target: str  # the army's province (board key)
    dest: Location


def destination(checked: Checked) -> Location | None:
    """Where a move, a support to move or a convoy goes (None for any other order)."""
    if isinstance(checked, CheckedMove | CheckedConvoy | CheckedSupport):
        return checked.dest
    return None


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


__all__ = [
    "Checked",
    "CheckedConvoy",
    "CheckedMove",
    "CheckedSupport",
    "Status",
    "Turn",
    "destination",
]
