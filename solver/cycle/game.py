"""One phase of a game: whatever phase the position is in, adjudicate it and move on; and
the step interface a game on one board and a multiverse share (`Game`, `Played`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..judge.movement import adjudicate
from ..judge.solver_settings import SolverConfig
from ..values.orders import Given, Names
from ..values.outcomes import Outcome
from ..values.position import Phase, PhaseKind, Position, Unit
from ..values.resolution import AdjustmentResolution, PhaseResolution, Resolution
from ..values.rules import DATC_2025, RuleBook
from .adjustments import adjudicate_adjustments
from .retreats import adjudicate_retreats


def advance(
    position: Position,
    orders: Sequence[Given],
    rules: RuleBook = DATC_2025,
    config: SolverConfig | None = None,
) -> PhaseResolution:
    """Adjudicate the phase of the position.  Units without orders hold in a movement
    phase; dislodged units without orders disband; missing disbands go to civil disorder."""
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        return adjudicate(position, orders, rules, config)
    if kind is PhaseKind.RETREAT:
        return adjudicate_retreats(position, orders, rules)
    return adjudicate_adjustments(position, orders, rules)


class Played(Protocol):
    """What one step of a game came to (a phase on one board, or a multiverse step)."""

    @property
    def outcomes(self) -> tuple[Outcome, ...]: ...

    @property
    def revised(self) -> tuple[Outcome, ...]:
        """Recorded orders of past boards adjudicated again (a multiverse's)."""
        ...

    @property
    def forks(self) -> tuple[Any, ...]:
        """The timelines the step made (a multiverse's `Fork`s)."""
        ...

    @property
    def movement(self) -> Resolution | None:
        """The movement phase adjudicated in the step, if there was one."""
        ...

    @property
    def civil_disorder(self) -> tuple[Unit, ...] | None:
        """The units civil disorder removed in the step's adjustment phase (None: the step
        had no adjustment phase to report)."""
        ...

    @property
    def after(self) -> Game: ...

    def label(self, number: int) -> str:
        """What to call the step, the `number`th of its game: its phase, or 'step 2'."""
        ...


class Game(Protocol):
    """A game that steps: a position on one board (`OneBoard`), or a multiverse
    (`solver.multiverse.state.Multiverse`). Tools play a case through this, whichever it
    is."""

    def step(self, orders: Sequence[Given], rules: RuleBook) -> Played: ...

    @property
    def phase(self) -> Phase | None:
        """The phase its next step plays (None: a multiverse plays whatever its heads owe)."""
        ...

    @property
    def names(self) -> Names:
        """Names the places of its units."""
        ...

    def standing(self) -> tuple[Unit, ...]:
        """The units standing now (on the head boards, keyed by board, in a multiverse)."""
        ...

    def awaiting(self) -> tuple[Unit, ...]:
        """The units that owe a retreat."""
        ...

    def board_names(self) -> tuple[str, ...]:
        """Its boards: 'a@0 a@1 b@1' in a multiverse."""
        ...


@dataclass(frozen=True, slots=True)
class OneBoard:
    """A game on one board: each step plays the phase the position is in."""

    position: Position

    def step(
        self, orders: Sequence[Given], rules: RuleBook, config: SolverConfig | None = None
    ) -> BoardStep:
        return BoardStep(advance(self.position, orders, rules, config))

    @property
    def phase(self) -> Phase:
        return self.position.phase

    @property
    def names(self) -> Names:
        return self.position.board

    def standing(self) -> tuple[Unit, ...]:
        return self.position.units

    def awaiting(self) -> tuple[Unit, ...]:
        return tuple(d.unit for d in self.position.dislodged)

    def board_names(self) -> tuple[str, ...]:
        return ("a@0",)


@dataclass(frozen=True, slots=True)
class BoardStep:
    """A phase of a game on one board, adjudicated."""

    phase: PhaseResolution

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        return self.phase.outcomes

    @property
    def revised(self) -> tuple[Outcome, ...]:
        return ()

    @property
    def forks(self) -> tuple[Any, ...]:
        return ()

    @property
    def movement(self) -> Resolution | None:
        return self.phase if isinstance(self.phase, Resolution) else None

    @property
    def civil_disorder(self) -> tuple[Unit, ...] | None:
        if isinstance(self.phase, AdjustmentResolution):
            return self.phase.civil_disorder
        return None

    @property
    def after(self) -> OneBoard:
        return OneBoard(self.phase.after)

    def label(self, number: int) -> str:
        return str(self.phase.position.phase)
