"""The joint board of a multiverse step: several boards as one map for the same equations.

Each province of each board included becomes a province of the joint board, coded
'mun@1:0' (timeline 1, turn 0) and named 'b-Munich@0'.  Two provinces of the joint board
border each other when their provinces border on the map and their boards are within reach
(MDATC rule set J): at most one turn apart, on the same timeline or on adjacent ones.
A province never borders itself on another board, as on the map.

The joint board answers the questions the adjudicator asks of a board (a province, who
borders whom, which coasts a fleet reaches) from the standard map on demand, so a step
with many timelines costs no more per board than one with few.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from functools import cache

from topology import Location, Province, standard

from ..values.orders import Place, spacetime_code, timeline_name

BoardKey = tuple[int, int]  # (timeline, turn)


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


def _split(code: str) -> tuple[str, BoardKey]:
    province, _, board = code.partition("@")
    timeline, _, turn = board.partition(":")
    return province, (int(timeline), int(turn))


class _Neighbours:
    """A read-only view `graph[code]` of one adjacency relation of the joint board."""

    def __init__(self, board: SpacetimeBoard, kind: str) -> None:
        self.board = board
        self.kind = kind
        self.cache: dict[str, frozenset[str]] = {}

    def __getitem__(self, code: str) -> frozenset[str]:
        if code not in self.cache:
            self.cache[code] = self.board.neighbours(code, self.kind)
        return self.cache[code]


class SpacetimeBoard:
    """The provinces of several boards as one map (see the module docstring)."""

    name = "spacetime"

    def __init__(
        self,
        boards: Iterable[BoardKey],
        origins: Mapping[int, BoardKey | None],
        links: Iterable[tuple[BoardKey, BoardKey]] | None,
    ) -> None:
        self.boards = frozenset(boards)
        self.origins = dict(origins)
        self.links = None if links is None else {tuple(sorted(p)) for p in links}
        self.base = standard()
        self.powers = self.base.powers
        self._provinces: dict[str, Province] = {}
        self._graphs = {k: _Neighbours(self, k) for k in ("army", "fleet", "province")}

    def borders(self, a: BoardKey, b: BoardKey) -> bool:
        """Do provinces of these two boards border each other (when the map says so)?"""
        if a == b:
            return True
        linked = self.links is None or tuple(sorted((a, b))) in self.links
        return linked and within_reach(a, b, self.origins)

    def place_key(self, place: Place) -> str | None:
        """The joint province of a place with full coordinates, or None if its board is
        not part of this step."""
        if place.timeline is None or place.turn is None:
            return None
        if (place.timeline, place.turn) not in self.boards:
            return None
        return spacetime_code(place.province, place.timeline, place.turn)

    def province(self, code: str) -> Province:
        if code not in self._provinces:
            plain, (timeline, turn) = _split(code)
            base = self.base.province(plain)
            self._provinces[code] = replace(
                base, code=code, name=f"{timeline_name(timeline)}-{base.name}@{turn}", aliases=()
            )
        return self._provinces[code]

    def neighbours(self, code: str, kind: str) -> frozenset[str]:
        """The codes bordering a province (or, for fleets, a coast: 'spa@0:1/nc')."""
        location = Location.parse(code)
        plain, here = _split(location.province)
        if kind == "army":
            near = self.base.army_graph().adj.get(plain, {})
            found = [Location(n) for n in near]
        elif kind == "fleet":
            key = str(Location(plain, location.coast))
            near = self.base.fleet_graph().adj.get(key, {})
            found = [Location.parse(n) for n in near]
        else:
            found = [Location(n) for n in self.base.province_graph()[plain]]
        return frozenset(
            str(Location(spacetime_code(loc.province, *board), loc.coast))
            for board in self.boards
            if self.borders(here, board)
            for loc in found
        )

    def army_graph(self) -> _Neighbours:
        return self._graphs["army"]

    def fleet_graph(self) -> _Neighbours:
        return self._graphs["fleet"]

    def province_graph(self) -> _Neighbours:
        return self._graphs["province"]

    def army_adjacent(self, a: str, b: str) -> bool:
        (pa, ka), (pb, kb) = _split(a), _split(b)
        return self.borders(ka, kb) and self.base.army_adjacent(pa, pb)

    def fleet_coasts_towards(self, src: Location, dest_province: str) -> tuple[str | None, ...]:
        (ps, ks), (pd, kd) = _split(src.province), _split(dest_province)
        if not self.borders(ks, kd):
            return ()
        return self.base.fleet_coasts_towards(Location(ps, src.coast), pd)


def spacetime_board(
    boards: Iterable[BoardKey],
    origins: Mapping[int, BoardKey | None],
    links: Iterable[tuple[BoardKey, BoardKey]] | None = None,
) -> SpacetimeBoard:
    """The joint board of the given boards, given where each timeline branched off.

    With `links`, only those pairs of boards (within reach) border each other besides each
    board with itself: the pairs the step's orders span.  Borders that no order crosses
    change nothing, and leaving them out keeps a step with many timelines linear."""
    keys = tuple(sorted(set(boards)))
    pairs = None if links is None else tuple(sorted({tuple(sorted(p)) for p in links}))
    return _cached(keys, tuple(sorted(origins.items())), pairs)


@cache
def _cached(keys, origins, links) -> SpacetimeBoard:
    return SpacetimeBoard(keys, dict(origins), links)


__all__ = ["BoardKey", "SpacetimeBoard", "spacetime_board", "timelines_adjacent", "within_reach"]
