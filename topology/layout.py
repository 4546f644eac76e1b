"""Where the places of a board are drawn: the map's own schematic coordinates.

A board whose map file names a ``drawing`` is drawn where that layout file puts its places
(the standard board's is ``data/standard-layout.toml``); any other board gets a layout made
from its graphs (:func:`topology.autolayout.generated_layout`). :func:`layout_of` picks one
and keeps it.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from .board import Board
from .files import shown
from .loader import MapDataError, read_toml, standard


@dataclass(frozen=True, slots=True)
class Layout:
    """A point for every place of a board (provinces and split coasts, ``"stp/nc"``)."""

    name: str
    width: float
    height: float
    points: Mapping[str, tuple[float, float]]

    def point(self, place: str) -> tuple[float, float]:
        """The point of a place key; a coast without a point of its own takes its province's."""
        found = self.points.get(place)
        return found if found is not None else self.points[place.partition("/")[0]]


def load_layout(path: str | os.PathLike[str], board: Board) -> Layout:
    """Read a layout file and check it names every place of ``board`` once, and no other.

    Raises:
        MapDataError: the file is unreadable, or a place is missing, unknown or off the page.
    """
    path = Path(path)
    raw = read_toml(path, "layout file")
    width, height = raw.get("width"), raw.get("height")
    if not (
        isinstance(width, int | float)
        and isinstance(height, int | float)
        and width > 0
        and height > 0
    ):
        raise MapDataError(f"{path}: expected positive numbers 'width' and 'height'")
    places = raw.get("places")
    if not isinstance(places, dict):
        raise MapDataError(f"{path}: expected a [places] table")
    wanted = {str(loc) for loc in board.locations()}
    missing = sorted(wanted - places.keys())
    unknown = sorted(places.keys() - wanted)
    if missing or unknown:
        raise MapDataError(
            f"{path}: [places] must name every place of board {board.name!r} once; "
            f"missing: {', '.join(missing) or 'none'}; unknown: {', '.join(unknown) or 'none'}"
        )
    points: dict[str, tuple[float, float]] = {}
    for key, value in sorted(places.items()):
        ok = (
            isinstance(value, list)
            and len(value) == 2
            and all(isinstance(v, int | float) for v in value)
            and 0 <= value[0] <= width
            and 0 <= value[1] <= height
        )
        if not ok:
            raise MapDataError(
                f"{path}: places.{key}: expected [x, y] inside {width} x {height}, "
                f"found {shown(value, 60)}"
            )
        points[key] = (float(value[0]), float(value[1]))
    return Layout(str(raw.get("name", board.name)), width, height, MappingProxyType(points))


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
