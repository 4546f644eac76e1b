"""The joint board of a multiverse step: several boards as one map for the same equations.

Each province of each board included becomes a province of the joint board, keyed by a
`Spot` (province, timeline, turn), whose text is ``"mun@1:0"`` and whose name is
``"b-Munich@0"``.  Two provinces of the joint board border each other when their provinces
border on the map and their boards are within reach (MDATC rule set J): at most one turn
apart, on the same timeline or on adjacent ones.  A province never borders itself on another
board, as on the map.

The joint board answers the questions the adjudicator asks of a board
(`topology.BoardView`) from the map on demand, working out once per board which boards are
within its reach.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from functools import cache
from typing import cast

from topology import Board, Location, Province, UnitType

from ..values.orders import timeline_name
from .state import BoardKey, Spot, SpotNames, on_board, on_map, spot


def timelines_adjacent(a: int, b: int, origins: Mapping[int, BoardKey | None]) -> bool:
    """Same timeline, one branched directly off the other, or both off the same board."""
    if a == b:
        return True
    oa, ob = origins.get(a), origins.get(b)
    if (oa is not None and oa[0] == b) or (ob is not None and ob[0] == a):
        return True
    return oa is not None and oa == ob


def within_reach(a: BoardKey, b: BoardKey, origins: Mapping[int, BoardKey | None]) -> bool:
    return abs(a[1] - b[1]) <= 1 and timelines_adjacent(a[0], b[0], origins)


class SpacetimeBoard:
    """The provinces of several boards as one map (see the module docstring)."""

    name = "spacetime"

    def __init__(
        self,
        base: Board,
        boards: Iterable[BoardKey],
        origins: Mapping[int, BoardKey | None],
        links: Iterable[tuple[BoardKey, BoardKey]] | None,
    ) -> None:
        self.base = base
        self.boards = frozenset(boards)
        self.origins = dict(origins)
        self.links = None if links is None else {_pair(*p) for p in links}
        self.powers = base.powers
        self._provinces: dict[Spot, Province] = {}
        self._neighbours: dict[Spot, frozenset[Spot]] = {}
        self._in_reach: dict[BoardKey, tuple[BoardKey, ...]] = {}
        self._names = SpotNames(base)

    def borders(self, a: BoardKey, b: BoardKey) -> bool:
        """Do provinces of these two boards border each other (when the map says so)?"""
        if a == b:
            return True
        linked = self.links is None or _pair(a, b) in self.links
        return linked and within_reach(a, b, self.origins)

    def key(self, province: str, timeline: int | None, turn: int | None) -> Spot | None:
        """The joint province of a place with full coordinates, or None if its board is
        not part of this step."""
        if timeline is None or turn is None or (timeline, turn) not in self.boards:
            return None
        return spot(province, timeline, turn)

    def province(self, key: str) -> Province:
        here = cast(Spot, key)
        if here not in self._provinces:
            base = self.base.province(here.province)
            name = f"{timeline_name(here.timeline)}-{base.name}@{here.turn}"
            self._provinces[here] = replace(base, code=here, name=name, aliases=())
        return self._provinces[here]

    def neighbours(self, key: str) -> frozenset[Spot]:
        """The provinces bordering a province: on its own board and on those within reach."""
        here = cast(Spot, key)
        found = self._neighbours.get(here)
        if found is None:
            near = self.base.neighbours(here.province)
            found = frozenset(spot(p, *board) for board in self.in_reach(here.board) for p in near)
            self._neighbours[here] = found
        return found

    def in_reach(self, board: BoardKey) -> tuple[BoardKey, ...]:
        """The boards of the step whose provinces border this board's (itself included)."""
        found = self._in_reach.get(board)
        if found is None:
            found = self._in_reach[board] = tuple(b for b in self.boards if self.borders(board, b))
        return found

    def retreat_neighbours(self, location: Location, unit: UnitType) -> tuple[Location, ...]:
        """A retreat stays on its own board."""
        plain, board = on_map(location)
        return tuple(on_board(n, board) for n in self.base.retreat_neighbours(plain, unit))

    def army_adjacent(self, a: str, b: str) -> bool:
        here = cast(Spot, a)
        there = cast(Spot, b)
        return self.borders(here.board, there.board) and self.base.army_adjacent(
            here.province, there.province
        )

    def fleet_coasts_towards(self, src: Location, dest: str) -> tuple[str | None, ...]:
        plain, board = on_map(src)
        there = cast(Spot, dest)
        if not self.borders(board, there.board):
            return ()
        return self.base.fleet_coasts_towards(plain, there.province)

    def location_name(self, location: Location) -> str:
        """``"b-St Petersburg(nc)@1"``: as the MDATC letter notation writes a place."""
        return self._names.location_name(location)


def _pair(a: BoardKey, b: BoardKey) -> tuple[BoardKey, BoardKey]:
    return (a, b) if a <= b else (b, a)


def spacetime_board(
    base: Board,
    boards: Iterable[BoardKey],
    origins: Mapping[int, BoardKey | None],
    links: Iterable[tuple[BoardKey, BoardKey]] | None = None,
) -> SpacetimeBoard:
    """The joint board of the given boards of a map, given where each timeline branched
    off.

    With `links`, only those pairs of boards (within reach) border each other besides each
    board with itself: the pairs the step's orders span.  Borders that no order crosses
    change nothing, and leaving them out keeps a step with many timelines linear."""
    keys = tuple(sorted(set(boards)))
    pairs = None if links is None else tuple(sorted({_pair(*p) for p in links}))
    return _cached(base, keys, tuple(sorted(origins.items())), pairs)


@cache
def _cached(
    base: Board,
    keys: tuple[BoardKey, ...],
    origins: tuple[tuple[int, BoardKey | None], ...],
    links: tuple[tuple[BoardKey, BoardKey], ...] | None,
) -> SpacetimeBoard:
    return SpacetimeBoard(base, keys, dict(origins), links)


__all__ = ["SpacetimeBoard", "spacetime_board", "timelines_adjacent", "within_reach"]
