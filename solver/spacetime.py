"""The joint board of a multiverse step: several boards as one map for the same equations.

Each province of each board included becomes a province of the joint board, coded
'mun@1:0' (timeline 1, turn 0) and named 'b-Munich@0'.  Two provinces of the joint board
border each other when their provinces border on the map and their boards are within reach
(MDATC rule set J): at most one turn apart, on the same timeline or on adjacent ones.
A province never borders itself on another board, as on the map.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from functools import cache

from topology import Board, Location, Power, standard

from .orders import Place, spacetime_code, timeline_name

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


class SpacetimeBoard(Board):
    """A `Board` whose provinces are (province, board) pairs; see the module docstring."""

    __slots__ = ("boards",)

    def place_key(self, place: Place) -> str | None:
        """The joint province of a place with full coordinates, or None if its board is
        not part of this step."""
        if place.timeline is None or place.turn is None:
            return None
        if (place.timeline, place.turn) not in self.boards:
            return None
        return spacetime_code(place.province, place.timeline, place.turn)


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
    return _build(keys, tuple(sorted(origins.items())), pairs)


@cache
def _build(keys: tuple[BoardKey, ...], origins: tuple, links: tuple | None) -> SpacetimeBoard:
    origin_of = dict(origins)
    base = standard()
    provinces = [
        replace(
            province,
            code=spacetime_code(province.code, t, n),
            name=f"{timeline_name(t)}-{province.name}@{n}",
            aliases=(),
        )
        for t, n in keys
        for province in base.provinces.values()
    ]
    army_edges = []
    fleet_edges = []
    allowed = None if links is None else set(links)
    pairs = [
        (a, b)
        for a in keys
        for b in keys
        if within_reach(a, b, origin_of)
        and (a == b or allowed is None or tuple(sorted((a, b))) in allowed)
    ]
    army = list(base.army_graph().edges)
    fleet = [(Location.parse(x), Location.parse(y)) for x, y in base.fleet_graph().edges]
    for a, b in pairs:
        army_edges += [(spacetime_code(p, *a), spacetime_code(q, *b)) for p, q in army]
        army_edges += [(spacetime_code(q, *a), spacetime_code(p, *b)) for p, q in army]
        fleet_edges += [(_shift(x, a), _shift(y, b)) for x, y in fleet]
        fleet_edges += [(_shift(y, a), _shift(x, b)) for x, y in fleet]
    board = SpacetimeBoard.__new__(SpacetimeBoard)
    Board.__init__(
        board,
        "spacetime",
        provinces,
        (Power(p, base.power_adjective(p), (), base.home_centres(p)) for p in base.powers),
        army_edges,
        fleet_edges,
    )
    object.__setattr__(board, "boards", frozenset(keys))
    return board


def _shift(location: Location, board: BoardKey) -> Location:
    return Location(spacetime_code(location.province, *board), location.coast)


__all__ = ["BoardKey", "SpacetimeBoard", "spacetime_board", "timelines_adjacent", "within_reach"]
