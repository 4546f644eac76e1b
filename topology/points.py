"""A layout: the point where each place of a board is drawn.  Read from a drawing file
(`topology.layout`) or generated from the board's graphs (`topology.autolayout`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


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
