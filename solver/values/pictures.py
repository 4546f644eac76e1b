"""A value's picture in a notebook (`_repr_svg_`), drawn by the drawer registered here.

The values know nothing of the renderer, which sits above them: `import solver` registers
one drawer (`solver/__init__.py`), which loads `solver.render` the first time a picture is
asked for, so the dependency points one way (solver -> render -> values) and a script that
never draws never loads the renderer."""

from __future__ import annotations

from collections.abc import Callable

Drawer = Callable[[object], str]
"""Draws a value as SVG text."""

_DRAWERS: list[Drawer] = []


def register(drawer: Drawer) -> None:
    """Make `drawer` the one that draws every value's picture."""
    _DRAWERS[:] = [drawer]


def picture(value: object) -> str:
    """`value` drawn as SVG text by the registered drawer."""
    if not _DRAWERS:
        raise RuntimeError("no drawer registered: `import solver` registers the renderer")
    return _DRAWERS[0](value)
