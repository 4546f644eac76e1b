"""The pictures values show in a notebook (`_repr_svg_`): a position as its board, a
resolution as its phase with orders and outcomes, a multiverse as its grid of boards, a
step as the multiverse after it.  `solver/__init__.py` registers `svg_of` as the drawer
of `solver.values.pictures`."""

from __future__ import annotations

from ..multiverse.state import Multiverse, MultiverseStep
from ..values.position import Position
from ..values.resolution import PhaseResolution
from .board_drawing import Scene, board_svg
from .multiverse_drawing import multiverse_svg, step_svg


def svg_of(value: object) -> str:
    """The picture of a position, a resolution, a multiverse or a multiverse's step."""
    if isinstance(value, Position):
        return board_svg(Scene(value), whole=True)
    if isinstance(value, PhaseResolution):
        scene = Scene(value.position, value.orders, value.outcomes, value.retreating)
        return board_svg(scene)
    if isinstance(value, Multiverse):
        return multiverse_svg(value)
    if isinstance(value, MultiverseStep):
        return step_svg(value)
    raise TypeError(f"no picture for a {type(value).__name__}")
