"""The decisions a resolution claims, read through the checker's own turn."""

from __future__ import annotations

from collections.abc import Mapping

from topology import Key

from ..values.decisions import DISLODGED, MOVE, PATH, SEA, Decision, DecisionKind
from .turn import TurnReading


class ClaimedDecisions:
    """The claimed value of each decision; one the turn does not decide reads as what is
    known without deciding (a move over land has its path, a unit nobody attacks stays)."""

    def __init__(self, turn: TurnReading, values: Mapping[Decision, bool]) -> None:
        self.turn = turn
        self.values = values

    def __call__(self, kind: DecisionKind, province: Key) -> bool:
        return self.values.get((kind, province), False)

    def path(self, mover: Key) -> bool:
        """PATH: a convoyed move's decision; over land, its path unless 6.B.11."""
        if self.turn.convoyed(mover):
            return self(PATH, mover)
        return self.turn.moves[mover].reachable

    def by_sea(self, mover: Key) -> bool:
        """1971: a swap goes by sea when its convoy works (its SEA decision)."""
        return self.turn.fallback(mover) and self(SEA, mover)

    def succeeds(self, province: Key) -> bool:
        return province in self.turn.moves and self(MOVE, province)

    def dislodged(self, province: Key) -> bool:
        return self(DISLODGED, province)

    def head_to_head(self, mover: Key) -> Key | None:
        """The move it battles head to head, unless one of the two goes by sea (1971)."""
        other = self.turn.opposing(mover)
        if other is None or self.by_sea(mover) or self.by_sea(other):
            return None
        return other
