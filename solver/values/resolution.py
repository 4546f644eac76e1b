"""What a movement phase came to, as a value: every decision, the paradox cores and how
each was settled, the outcome of every order, the dislodged units and the next position."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from topology import Location

from .decisions import Decision
from .orders import Given
from .outcomes import BackupRule, Outcome
from .position import Position, Unit
from .rules import RuleBook


@dataclass(frozen=True, slots=True)
class Core:
    """A dependency cycle of decisions and how it was settled."""

    decisions: tuple[Decision, ...]
    solutions: int  # consistent resolutions of the core itself: 0, 1 or 2 (= two or more)
    rule: BackupRule
    labels: tuple[str, ...] = ()  # the decisions, named after their orders

    @property
    def is_paradox(self) -> bool:
        return self.rule is not BackupRule.UNIQUE

    @property
    def unresolved(self) -> bool:
        return self.rule is BackupRule.UNRESOLVED


@dataclass(frozen=True, slots=True)
class Retreating:
    """A dislodged unit, where its attacker came from, and where it may retreat."""

    unit: Unit
    attacker_from: str
    by_convoy: bool
    options: tuple[Location, ...]


@dataclass(frozen=True, slots=True)
class Resolution:
    """A movement phase adjudicated."""

    position: Position  # before the phase
    orders: tuple[Given, ...]  # as submitted
    rules: RuleBook
    outcomes: tuple[Outcome, ...]  # one per submitted order, in submission order
    values: Mapping[Decision, bool]  # every decision of the turn
    cores: tuple[Core, ...]
    forced: Mapping[Decision, bool]  # set by a backup rule, not by their equations
    dislodged: tuple[Retreating, ...]
    standoffs: frozenset[str]  # provinces left empty by a standoff
    after: Position
    recorded: Mapping[Decision, bool] = field(default_factory=dict)  # kept from history
    turn: Any = field(default=None, repr=False, compare=False)  # the judge's working
