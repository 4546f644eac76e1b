"""Outcomes of orders in the DATC v3.2 vocabulary, with typed reasons."""

from __future__ import annotations

from dataclasses import dataclass

from .orders import Given


# -- reasons -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Illegal:
    why: str

    def __str__(self) -> str:
        return self.why


@dataclass(frozen=True, slots=True)
class Invalid:
    why: str

    def __str__(self) -> str:
        return self.why


@dataclass(frozen=True, slots=True)
class Bounced:
    by: tuple[str, ...]  # the units that stood in the way

    def __str__(self) -> str:
        return "bounced by " + ", ".join(self.by)


@dataclass(frozen=True, slots=True)
class NoPath:
    def __str__(self) -> str:
        return "no convoy path"


@dataclass(frozen=True, slots=True)
class CutBy:
    by: tuple[str, ...]

    def __str__(self) -> str:
        return "cut by " + ", ".join(self.by)


@dataclass(frozen=True, slots=True)
class DislodgedBy:
    by: str

    def __str__(self) -> str:
        return f"dislodged by {self.by}"


@dataclass(frozen=True, slots=True)
class ParadoxRule:
    rule: str
    core: tuple[str, ...]

    def __str__(self) -> str:
        return _RULE_TEXT.get(self.rule, self.rule)


_RULE_TEXT = {
    "szykman": "convoy paradox: its convoys fail (Szykman rule)",
    "circular movement": "circular movement: all its moves succeed",
    "all fail": "paradox: its moves and supports fail",
    "all hold": "convoy paradox: its moves fail (all hold)",
    "dptg": "convoy paradox: the resolution that disrupts its convoys (DPTG)",
    "unresolved": "convoy paradox the rule book gives no answer to",
}


Reason = Illegal | Invalid | Bounced | NoPath | CutBy | DislodgedBy | ParadoxRule


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of one submitted order, in the DATC v3.2 vocabulary."""

    given: Given
    result: (
        str  # stands | succeeds | fails | given | cut | available | disrupted | invalid | illegal
    )
    dislodged: bool = False
    destroyed: bool = False
    reason: Reason | None = None

    @property
    def label(self) -> str:
        """'fails, dislodged' as the DATC writes it; a holding unit shows only its fate."""
        fate = "destroyed" if self.destroyed else "dislodged" if self.dislodged else ""
        if self.result == "stands" and fate:
            return fate
        return f"{self.result}, {fate}" if fate else self.result
