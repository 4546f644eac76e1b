"""A movement phase adjudicated: position + orders -> resolution, as a pure function (a
multiverse step runs the same stages itself, to settle what spills between boards)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..errors import DipsatError
from ..values.calendar import after_movement
from ..values.decisions import Decision
from ..values.orders import Given
from ..values.position import PhaseKind, Position
from ..values.resolution import Resolution
from ..values.rules import DATC_2025, RuleBook
from .fallback import settle
from .legality import analyse
from .model import Structure
from .resolution import NextPosition, resolve
from .solve import SolverConfig


def adjudicate(
    position: Position,
    orders: Sequence[Given],
    rules: RuleBook = DATC_2025,
    config: SolverConfig | None = None,
    recorded: Mapping[Decision, bool] | None = None,
    then: NextPosition = after_movement,
) -> Resolution:
    """Adjudicate a movement phase on the position's board (`recorded`: decisions kept
    from history, as a multiverse's past boards keep them; `then`: what follows the
    movement, the next phase of the game by default)."""
    if position.phase.kind is not PhaseKind.MOVEMENT:
        raise DipsatError(
            f"{position.phase} is not a movement phase; "
            "retreat and adjustment phases come with the full game cycle"
        )
    turn = analyse(position, orders, rules)
    structure = Structure.of(turn)
    return resolve(turn, structure, settle(structure, config, recorded), then)
