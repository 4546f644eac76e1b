"""One phase of a game: whatever phase the position is in, adjudicate it and move on."""

from __future__ import annotations

from collections.abc import Sequence

from ..judge.movement import adjudicate
from ..judge.solve import SolverConfig
from ..values.orders import Given
from ..values.position import PhaseKind, Position
from ..values.resolution import PhaseResolution
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
