"""What the checker reads of a resolution: the adjudicator's public claim about a movement
turn, stated as protocols so that the checker depends on no class of the adjudicator."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Protocol

from topology import Key, Location

from ..values.decisions import Decision
from ..values.orders import Given
from ..values.outcomes import BackupRule, Outcome
from ..values.position import Position, Unit
from ..values.rules import RuleBook


class SettledClaim(Protocol):
    """A dependency cycle of decisions and the rule that settled it."""

    @property
    def decisions(self) -> Sequence[Decision]: ...

    @property
    def rule(self) -> BackupRule: ...


class RetreatClaim(Protocol):
    """A dislodged unit, where its attacker came from, and where it may retreat."""

    @property
    def unit(self) -> Unit: ...

    @property
    def attacker_from(self) -> Key: ...

    @property
    def by_convoy(self) -> bool: ...

    @property
    def options(self) -> Sequence[Location]: ...


class Claim(Protocol):
    """A movement turn adjudicated: the position and orders, and what the adjudicator says
    they come to (`solver.values.resolution.Resolution` is one)."""

    @property
    def position(self) -> Position: ...  # before the turn; its board may be a joint board

    @property
    def orders(self) -> Sequence[Given]: ...  # as submitted

    @property
    def rules(self) -> RuleBook: ...

    @property
    def outcomes(self) -> Sequence[Outcome]: ...  # one per order, in submission order

    @property
    def values(self) -> Mapping[Decision, bool]: ...  # every decision of the turn

    @property
    def forced(self) -> Mapping[Decision, bool]: ...  # set by a backup rule

    @property
    def cores(self) -> Sequence[SettledClaim]: ...

    @property
    def recorded(self) -> Mapping[Decision, bool]: ...  # kept from history: exempt

    @property
    def dislodged(self) -> Sequence[RetreatClaim]: ...

    @property
    def standoffs(self) -> Collection[Key]: ...  # provinces left empty by a standoff

    @property
    def after(self) -> Position: ...  # the next position: the units standing after the turn
