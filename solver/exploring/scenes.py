"""Scenes to draw: the phases of a case, one consistent resolution of a paradox core, the
outcome each edition reaches."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from ..checker.check import check_resolution
from ..cycle.game import BoardStep, Played, advance
from ..errors import DipsatError
from ..formats.cases import Case
from ..formats.mila import RecordedGame, start_position
from ..judge.movement import adjudicate
from ..judge.retreat_options import retreating
from ..multiverse.state import MultiverseStep
from ..render.board_drawing import Scene, board_svg
from ..render.multiverse_drawing import step_element
from ..render.svg import to_text
from ..values.decisions import Decision
from ..values.orders import Given
from ..values.position import PhaseKind, Position
from ..values.resolution import PhaseResolution, Resolution, Retreating
from ..values.rules import EDITIONS, RuleBook


def play_case(case: Case, rules: RuleBook) -> list[Played]:
    """Every block of a case played in order, under ``rules``."""
    done: list[Played] = []
    game = case.game()
    for block in case.blocks:
        done.append(game.step([o.given for o in block.orders], rules))
        game = done[-1].after
    return done


def phase_scene(phase: PhaseResolution, title: str = "") -> Scene:
    """A phase adjudicated, as a scene: its orders and outcomes, and the units that must
    retreat with where they may go."""
    return Scene(phase.position, phase.orders, phase.outcomes, phase.retreating, title)


def case_scenes(case: Case, rules: RuleBook) -> list[Scene]:
    """Each phase of a standard case adjudicated under ``rules``, one scene per block."""
    title = f"{case.id} {case.title}"
    return [phase_scene(d.phase, title) for d in play_case(case, rules) if isinstance(d, BoardStep)]


def played_scene(
    position: Position, orders: Sequence[Given], rules: RuleBook, title: str = ""
) -> tuple[Scene, Position]:
    """A phase adjudicated: its scene, and the position after it."""
    step = advance(position, orders, rules)
    return phase_scene(step, title), step.after


def pending_scene(
    position: Position, orders: Sequence[Given], rules: RuleBook, title: str = ""
) -> Scene:
    """A phase not adjudicated yet: its orders drawn as pending."""
    return Scene(position, tuple(orders), None, awaiting(position, rules), title)


def awaiting(position: Position, rules: RuleBook) -> tuple[Retreating, ...]:
    """In a retreat phase, each dislodged unit with the places it may retreat to."""
    if position.phase.kind is not PhaseKind.RETREAT:
        return ()
    return tuple(retreating(position, d, rules) for d in position.dislodged)


def recorded_scene(game: RecordedGame, step: int | None, rules: RuleBook) -> Scene:
    """Phase ``step`` (from 1; by default the last played) of a recorded game (MILA JSON),
    adjudicated under ``rules`` from the position the file records for it; a retreat phase
    is rebuilt from our adjudication of the movement before it, as `dipsat replay` does."""
    phases = game.phases[:-1]  # the last entry is the state the game ended in
    number = len(phases) if step is None else step
    if not 1 <= number <= len(phases):
        raise DipsatError(f"{game.path}: --step {number}: the game has {len(phases)} phase(s)")
    previous = None
    for here in phases[: number - 1]:
        position, _ = start_position(here, previous)
        previous = advance(position, here.orders, rules) if position is not None else None
    here = phases[number - 1]
    position, why = start_position(here, previous)
    if position is None:
        raise DipsatError(f"{game.path}: {here.name}: {why}")
    name = Path(game.path).name
    title = f"{name}: {here.name}, phase {number} of {len(phases)}"
    scene, _ = played_scene(position, here.orders, rules, title)
    return scene


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


def case_steps(case: Case, rules: RuleBook) -> list[MultiverseStep]:
    """Every step of a multiverse case, played in order."""
    return [d for d in play_case(case, rules) if isinstance(d, MultiverseStep)]


def case_svg(case: Case, rules: RuleBook, number: int | None = None, whole: bool = False) -> str:
    """The picture of a case after its `number`th block (from 1; the last by default): the
    board of that phase, or the multiverse's grid after that step (the position itself, for
    a case without orders)."""
    steps = play_case(case, rules)
    title = f"{case.id} {case.title}"
    if not steps:
        return board_svg(Scene(case.position, title=title), whole)
    number = len(steps) if number is None else number
    if not 1 <= number <= len(steps):
        raise DipsatError(f"step {number} is out of range: the case has {len(steps)} step(s)")
    done = steps[number - 1]
    if isinstance(done, BoardStep):
        return board_svg(phase_scene(done.phase, title), whole)
    assert isinstance(done, MultiverseStep)
    return to_text(step_element(done, step_heading(case, number, len(steps))))


def step_heading(case: Case, number: int, total: int) -> str:
    """The heading of a multiverse case's grid after one of its steps."""
    return f"{case.id} {case.title} (step {number} of {total})"
