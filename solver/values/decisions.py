"""The decisions of DATC chapter 5: one boolean per order and kind, keyed by the province of
the unit whose order it is."""

from __future__ import annotations

import enum

from topology import Key


class DecisionKind(enum.StrEnum):
    """What a decision says about an order (its value is the model variable's prefix)."""

    MOVE = "move"  # the move succeeds
    PATH = "path"  # a convoyed army has a chain of available convoys
    SEA = "sea"  # 1971: an army that may swap goes by sea, its convoy being available
    SUPPORT = "support"  # the support is given (not cut)
    CONVOY = "convoy"  # the convoying fleet is available (not dislodged)
    DISLODGED = "dislodged"  # the unit stays and another unit moves in


MOVE, PATH, SEA, SUPPORT, CONVOY, DISLODGED = DecisionKind
"""The kinds as plain names, for the equations that build decisions in their inner loops."""

ORDER_KINDS = (MOVE, PATH, SEA, SUPPORT, CONVOY)
"""The kinds that decide an order's own success (DISLODGED is about the unit)."""

Decision = tuple[DecisionKind, Key]
"""(kind, province of the unit whose order it is): ``(MOVE, "mun")``; on a multiverse's
joint board the province is a `Spot`: ``(MOVE, Spot("mun", 1, 0))``."""
