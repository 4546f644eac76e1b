"""Where the places of a board are drawn: the map's own schematic coordinates.

A board whose map file names a ``drawing`` is drawn where that layout file puts its places
(the standard board's is ``data/standard-layout.toml``); any other board gets a layout made
from its graphs (:func:`topology.autolayout.generated_layout`). :func:`layout_of` picks one
and keeps it.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from types import MappingProxyType

from .board import Board
from .files import shown
from .loader import KeyLines, MapDataError, parse_toml, read_text, standard
from .points import Layout

MAX_PAGE = 100_000.0
"""The largest width or height of a layout's page, in picture units (the standard board's
is 1100 by 900)."""


def load_layout(path: str | os.PathLike[str], board: Board) -> Layout:
    """Read a layout file and check it names every place of ``board`` once, and no other.

    Raises:
        MapDataError: the file is unreadable, or is no layout of ``board``: no page size
            (finite, from 0 to ``MAX_PAGE``), no ``[places]`` table, a place missing,
            unknown or off the page (``FILE:LINE: what was expected``).
    """
    path = Path(path)
    text = read_text(path, "layout file")
    raw = parse_toml(text, path)
    lines = KeyLines(text)

    def fault(message: str, table: tuple[str, ...] = (), key: str = "") -> MapDataError:
        line = lines.line(table, key)
        return MapDataError(f"{path}:{line}: {message}" if line else f"{path}: {message}")

    width, height = raw.get("width"), raw.get("height")
    for key, value in (("width", width), ("height", height)):
        if not _length(value):
            found = "none" if value is None else shown(value)
            raise fault(
                f"expected positive numbers 'width' and 'height' of at most {MAX_PAGE:,g}; "
                f"{key}: found {found}",
                (),
                key,
            )
    assert isinstance(width, int | float) and isinstance(height, int | float)  # _length
    name = raw.get("name", board.name)
    if not isinstance(name, str):
        raise fault(f"expected 'name' as text, found {shown(name)}", (), "name")
    places = raw.get("places")
    if not isinstance(places, dict):
        raise fault("expected a [places] table of [x, y] points (a layout file)")
    wanted = {str(loc) for loc in board.locations()}
    missing = sorted(wanted - places.keys())
    unknown = sorted(places.keys() - wanted)
    if missing or unknown:
        raise fault(
            f"[places] must name every place of board {shown(board.name)} once; "
            f"missing: {_listed(missing)}; unknown: {_listed(unknown)}",
            ("places",),
            unknown[0] if unknown else "",
        )
    points: dict[str, tuple[float, float]] = {}
    for key, value in sorted(places.items()):
        ok = (
            isinstance(value, list)
            and len(value) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
            and 0 <= value[0] <= width
            and 0 <= value[1] <= height
        )
        if not ok:
            raise fault(
                f"places.{key}: expected [x, y] inside {width} x {height}, "
                f"found {shown(value, 60)}",
                ("places",),
                key,
            )
        points[key] = (float(value[0]), float(value[1]))
    return Layout(name, width, height, MappingProxyType(points))


def _length(value: object) -> bool:
    """A page's width or height: a finite number above 0, at most MAX_PAGE."""
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and 0 < value <= MAX_PAGE  # NaN compares false; infinity is above
    )


def _listed(places: list[str]) -> str:
    """Places as a message lists them: the first ten, then how many more."""
    more = f" and {len(places) - 10} more" if len(places) > 10 else ""
    return ", ".join(places[:10]) + more if places else "none"


@functools.lru_cache(maxsize=64)
def layout_of(board: Board) -> Layout:
    """The layout a board is drawn on: its map's drawing file if it names one, else one
    generated from its graphs (made once per board, then shared).

    Raises:
        MapDataError: the drawing file is unreadable or does not fit the board.
    """
    if board.drawing is not None:
        return load_layout(board.drawing, board)
    from .autolayout import generated_layout  # numpy and the search, for such a board only

    return generated_layout(board)


def standard_layout() -> Layout:
    """The schematic of the standard board (loaded once, then shared)."""
    return layout_of(standard())
