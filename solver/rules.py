"""Rule books: the choices where rulebook editions and sites differ, as one immutable value.

A rule book holds one named policy per disputed issue of DATC chapter 4 that dipsat
implements.  The default is the DATC v3.2 preference (the 2025 edition).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .errors import DipsatError


class ConvoyToAdjacent(enum.Enum):
    """DATC 4.A.3: when does an army moving to an adjacent province go by convoy?"""

    OWN_FLEET_OR_VIA = "own-fleet-or-via"  # 2025: an own fleet convoys it, or "via convoy"
    VIA_ONLY = "via-only"  # DPTG, webDiplomacy, dipcc: only when the order says "via convoy"


class CivilDisorder(enum.Enum):
    """DATC 4.D.8: which units go when a power orders too few disbands."""

    OWNED_CENTRES = "owned-centres"  # 2023/2025: farthest from an owned centre, any border
    HOME_CENTRES = "home-centres"  # 1971/1982: farthest from a home centre


class StepScope(enum.Enum):
    """What one multiverse step does to a head board that owes a retreat or adjustment."""

    TURN = "turn"  # settle the owed phases first, then take part in the movement
    PHASE = "phase"  # settle one owed phase and stop: one phase per head, as in a game


class RepeatFork(enum.Enum):
    """When a past board that already forked changes again (the MDATC is silent)."""

    NEW_TIMELINE = "new-timeline"  # always a new timeline (rule set J's implementation)
    REUSE_IDENTICAL = "reuse-identical"  # not if an earlier fork of it starts the same (O)


class Victory(enum.Enum):
    """Who wins a multiverse (the MDATC is silent)."""

    ANY_HEAD = "any-head"  # 18 centres on some head board
    DISTINCT_CENTRES = "distinct-centres"  # 18 distinct centres over all heads, alone on top (O)


@dataclass(frozen=True, slots=True)
class RuleBook:
    name: str
    convoy_to_adjacent: ConvoyToAdjacent = ConvoyToAdjacent.OWN_FLEET_OR_VIA
    civil_disorder: CivilDisorder = CivilDisorder.OWNED_CENTRES
    multiverse_step: StepScope = StepScope.TURN
    repeat_fork: RepeatFork = RepeatFork.NEW_TIMELINE
    victory: Victory = Victory.ANY_HEAD


DATC_2025 = RuleBook("2025")
WEBDIPLOMACY = RuleBook(
    "webdiplomacy",
    convoy_to_adjacent=ConvoyToAdjacent.VIA_ONLY,
    civil_disorder=CivilDisorder.HOME_CENTRES,
)
RULE_BOOKS = {book.name: book for book in (DATC_2025, WEBDIPLOMACY)}


def rule_book(name: str) -> RuleBook:
    """A named rule book; unknown names are errors that list the known ones."""
    try:
        return RULE_BOOKS[name]
    except KeyError:
        raise DipsatError(
            f"unknown rule book {name!r}; known: {', '.join(sorted(RULE_BOOKS))}"
        ) from None
