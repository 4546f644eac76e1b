"""One step of a game: whatever phase the position is in, adjudicate it and move on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..judge.movement import adjudicate
from ..judge.solve import SolverConfig
from ..values.calendar import GameStatus, game_status
from ..values.orders import Given
from ..values.outcomes import Outcome
from ..values.position import PhaseKind, Position
from ..values.resolution import Resolution
from ..values.rules import DATC_2025, RuleBook
from .adjustments import AdjustmentResolution, adjudicate_adjustments
from .retreats import RetreatResolution, adjudicate_retreats


@dataclass(frozen=True, slots=True)
class Step:
    """A phase adjudicated: the outcomes of its orders, the detail, the next position."""

    before: Position
    outcomes: tuple[Outcome, ...]
    detail: Resolution | RetreatResolution | AdjustmentResolution
    after: Position

    @property
    def status(self) -> GameStatus:
        return game_status(self.after)


def advance(
    position: Position,
    orders: Sequence[Given],
    rules: RuleBook = DATC_2025,
    config: SolverConfig | None = None,
) -> Step:
    """Adjudicate the phase of the position.  Units without orders hold in a movement
    phase; dislodged units without orders disband; missing disbands go to civil disorder."""
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        detail = adjudicate(position, orders, rules, config)
    elif kind is PhaseKind.RETREAT:
        detail = adjudicate_retreats(position, orders, rules)
    else:
        detail = adjudicate_adjustments(position, orders, rules)
    return Step(position, detail.outcomes, detail, detail.after)
