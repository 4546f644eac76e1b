"""Scenes to draw, from the things users bring: case files and saved games."""

from __future__ import annotations

from ..cases import Case
from ..game import advance
from ..resolution import Resolution
from ..rules import RuleBook
from .board import Scene


def case_scenes(case: Case, rules: RuleBook) -> list[Scene]:
    """Each phase of a standard case adjudicated under ``rules``, one scene per block."""
    scenes = []
    position = case.position
    for block in case.blocks:
        givens = tuple(o.given for o in block.orders)
        step = advance(position, givens, rules)
        retreating = step.detail.dislodged if isinstance(step.detail, Resolution) else ()
        scenes.append(Scene(position, givens, step.outcomes, retreating, f"{case.id} {case.title}"))
        position = step.after
    return scenes
