"""What a phase came to, as values.

Every phase gives a `PhaseResolution`: the position before, the orders, the rule book, one
outcome per order and the position after.  A movement phase gives a `Resolution`, which adds
every decision, the paradox cores and how each was settled, the dislodged units with their
retreats and the standoffs; a retreat phase a `RetreatResolution`, an adjustment phase an
`AdjustmentResolution`.  They print as `dipsat adjudicate` writes them and draw themselves
in a notebook.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from topology import BoardView, Key, Location

from .decisions import Decision
from .orders import Given
from .outcomes import BackupRule, Outcome
from .pictures import picture
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

    def __str__(self) -> str:
        count = "2 or more" if self.solutions > 1 else str(self.solutions)
        return f"core ({self.rule}, {count} consistent resolutions): {'; '.join(self.labels)}"


@dataclass(frozen=True, slots=True)
class Retreating:
    """A dislodged unit, where its attacker came from, and where it may retreat."""

    unit: Unit
    attacker_from: Key
    by_convoy: bool
    options: tuple[Location, ...]


@dataclass(frozen=True, slots=True)
class PhaseResolution:
    """A phase adjudicated: the orders and their outcomes, and what the board came to."""

    position: Position  # before the phase
    orders: tuple[Given, ...]  # as submitted
    rules: RuleBook
    outcomes: tuple[Outcome, ...]  # one per submitted order, in submission order
    after: Position

    @property
    def retreating(self) -> tuple[Retreating, ...]:
        """The units that must retreat, with where they may go (none in most phases)."""
        return ()

    def lines(self) -> list[str]:
        """What the phase came to, line by line (`str` joins them)."""
        return [f"{o}" for o in self.outcomes]

    def __str__(self) -> str:
        head = f"{self.position.phase} (rules {self.rules.name})"
        return "\n".join(
            [head, *(f"  {line}" for line in self.lines()), f"then {self.after.phase}"]
        )

    def __repr__(self) -> str:
        kind = type(self).__name__
        count = len(self.outcomes)
        return (
            f"<{kind} {self.position.phase}: {count} order{'s' * (count != 1)}, "
            f"then {self.after.phase}>"
        )

    def _repr_svg_(self) -> str:
        """The phase drawn: the board, the orders and their outcomes (in a notebook;
        `solver.render.notebook`)."""
        return picture(self)


def _retreat_line(board: BoardView, r: Retreating) -> str:
    where = ", ".join(board.location_name(o) for o in r.options) or "nowhere: destroyed"
    origin = f" (attacked from {board.province(r.attacker_from).name})" if r.attacker_from else ""
    return f"dislodged: {r.unit.power} {r.unit.text(board)}{origin}; retreats: {where}"


@dataclass(frozen=True, slots=True, repr=False)
class Resolution(PhaseResolution):
    """A movement phase adjudicated: besides the outcomes, every decision of DATC chapter 5,
    the paradox cores, the dislodged units and the standoff provinces."""

    values: Mapping[Decision, bool]  # every decision of the turn
    cores: tuple[Core, ...]
    forced: Mapping[Decision, bool]  # set by a backup rule, not by their equations
    dislodged: tuple[Retreating, ...]
    standoffs: frozenset[Key]  # provinces left empty by a standoff
    recorded: Mapping[Decision, bool] = field(default_factory=dict)  # kept from history

    @property
    def retreating(self) -> tuple[Retreating, ...]:
        return self.dislodged

    @property
    def paradoxes(self) -> tuple[Core, ...]:
        """The cores settled by a backup rule, not by their one consistent resolution."""
        return tuple(c for c in self.cores if c.is_paradox)

    def lines(self) -> list[str]:
        board = self.position.board
        found = [f"{o}" for o in self.outcomes]
        found += [_retreat_line(board, r) for r in self.dislodged]
        found += [str(c) for c in self.cores]
        return found


@dataclass(frozen=True, slots=True, repr=False)
class RetreatResolution(PhaseResolution):
    """A retreat phase adjudicated: who retreated where and who was disbanded."""

    waiting: tuple[Retreating, ...]  # the dislodged units and where they might go
    disbanded: tuple[Unit, ...]

    @property
    def retreating(self) -> tuple[Retreating, ...]:
        return self.waiting

    def lines(self) -> list[str]:
        board = self.position.board
        found = [f"{o}" for o in self.outcomes]
        return found + [f"disbanded: {u.power} {u.text(board)}" for u in self.disbanded]


@dataclass(frozen=True, slots=True, repr=False)
class AdjustmentResolution(PhaseResolution):
    """A winter adjustment phase adjudicated: builds, disbands and civil disorder."""

    built: tuple[Unit, ...]
    disbanded: tuple[Unit, ...]  # by order
    civil_disorder: tuple[Unit, ...]  # removed automatically for the shortfall

    def lines(self) -> list[str]:
        board = self.position.board
        found = [f"{o}" for o in self.outcomes]
        return found + [
            f"civil disorder removes: {u.power} {u.text(board)}" for u in self.civil_disorder
        ]
