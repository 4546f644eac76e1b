"""Scenes to draw: the phases of a case, one consistent resolution of a paradox core, the
outcome each edition reaches."""

from __future__ import annotations

from dataclasses import replace

from ..adjudicate import adjudicate
from ..cases import Case
from ..checker import check_resolution
from ..errors import DipsatError
from ..game import advance
from ..model import Decision
from ..resolution import Resolution
from ..rules import EDITIONS, RuleBook
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


def resolution_scene(
    scene: Scene, rules: RuleBook, values: dict[Decision, bool], title: str = ""
) -> Scene | None:
    """The scene adjudicated with one consistent resolution of a core kept as given, or None
    when the adjudicator cannot reproduce it with every equation holding."""
    try:
        resolution = adjudicate(scene.position, scene.orders, rules, recorded=values)
    except DipsatError:
        return None
    if any(resolution.values.get(d) != v for d, v in values.items()):
        return None
    if check_resolution(replace(resolution, recorded={})):  # the core's equations hold too
        return None
    return Scene(scene.position, scene.orders, resolution.outcomes, resolution.dislodged, title)


def edition_scenes(scene: Scene) -> list[tuple[tuple[str, ...], Scene]]:
    """The movement scene as each edition adjudicates it: one scene per distinct outcome,
    with the editions that reach it (in edition order), titled by them."""
    groups: dict[tuple[str, ...], list[str]] = {}
    drawn: dict[tuple[str, ...], Resolution] = {}
    for name, book in EDITIONS.items():
        try:
            resolution = adjudicate(scene.position, scene.orders, book)
        except DipsatError:
            continue
        key = tuple(o.label for o in resolution.outcomes)
        groups.setdefault(key, []).append(name)
        drawn.setdefault(key, resolution)
    return [
        (
            tuple(names),
            Scene(
                scene.position,
                scene.orders,
                drawn[key].outcomes,
                drawn[key].dislodged,
                ", ".join(names),
            ),
        )
        for key, names in groups.items()
    ]
