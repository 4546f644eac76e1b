"""The joint board of a multiverse step: several boards as one map for the same equations.

Each province of each board included becomes a province of the joint board, keyed by a
`Spot` (province, timeline, turn), whose text is ``"mun@1:0"`` and whose name is
``"b-Munich@0"``.  Two boards are within reach when they are at most one turn apart, on the
same timeline or on adjacent ones (`Reach`: which timelines are adjacent, and whether a
board one turn away on another timeline counts, are policies of the rule book).  On boards
within reach, provinces border each other as the rule book's `cross_board_moves` says: under
rule set J where their provinces border on the map (a province never borders itself on
another board); under rule set O a province also borders itself on another board (loose),
or borders only itself there (strict).

The joint board answers the questions the adjudicator asks of a board
(`topology.BoardView`) from the map on demand, working out once per board which boards are
within its reach.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache

from topology import Board, Key, Kind, Location, Province, Spot, UnitType, UnknownNameError

from ..values.orders import timeline_name
from ..values.rules import DATC_2025, CrossBoardMoves, RuleBook, TimelineAdjacency
from .state import BoardKey, SpotNames, on_board, on_map, spot


@dataclass(frozen=True, slots=True)
class Reach:
    """The rule book's answer to "which boards, and which places on them, can a unit
    reach": the policies `timeline_adjacency`, `diagonal_moves` and `cross_board_moves`."""

    timelines: TimelineAdjacency = TimelineAdjacency.BRANCHES
    diagonals: bool = True
    across: CrossBoardMoves = CrossBoardMoves.NEIGHBOURS

    @classmethod
    def of(cls, rules: RuleBook) -> Reach:
        return cls(rules.timeline_adjacency, rules.diagonal_moves, rules.cross_board_moves)


RULE_SET_J_REACH = Reach.of(DATC_2025)


def timelines_adjacent(
    a: int, b: int, origins: Mapping[int, BoardKey | None], reach: Reach = RULE_SET_J_REACH
) -> bool:
    """Same timeline, or adjacent: numbered one apart (rule set O), or one branched directly
    off the other or both off the same board (rule set J)."""
    if a == b:
        return True
    if reach.timelines is TimelineAdjacency.NUMBERED:
        return abs(a - b) == 1
    oa, ob = origins.get(a), origins.get(b)
    if (oa is not None and oa[0] == b) or (ob is not None and ob[0] == a):
        return True
    return oa is not None and oa == ob


def within_reach(
    a: BoardKey,
    b: BoardKey,
    origins: Mapping[int, BoardKey | None],
    reach: Reach = RULE_SET_J_REACH,
) -> bool:
    """At most one turn apart on adjacent timelines (not both, without diagonals)."""
    if abs(a[1] - b[1]) > 1 or not timelines_adjacent(a[0], b[0], origins, reach):
        return False
    return reach.diagonals or a[0] == b[0] or a[1] == b[1]


class SpacetimeBoard:
    """The provinces of several boards as one map (see the module docstring)."""

    name = "spacetime"

    def __init__(
        self,
        base: Board,
        boards: Iterable[BoardKey],
        origins: Mapping[int, BoardKey | None],
        links: Iterable[tuple[BoardKey, BoardKey]] | None,
        reach: Reach = RULE_SET_J_REACH,
    ) -> None:
        self.base = base
        self.boards = frozenset(boards)
        self.origins = dict(origins)
        self.reach = reach
        self.links = None if links is None else {_pair(*p) for p in links}
        self.powers = base.powers
        self._provinces: dict[Key, Province] = {}
        self._neighbours: dict[Spot, frozenset[Key]] = {}
        self._in_reach: dict[BoardKey, tuple[BoardKey, ...]] = {}
        self._ranks: dict[BoardKey, int] | None = None
        self._partners: dict[BoardKey, set[BoardKey]] | None = None
        self._names = SpotNames(base)

    def borders(self, a: BoardKey, b: BoardKey) -> bool:
        """Do provinces of these two boards border each other (when the map says so)?"""
        if a == b:
            return True
        linked = self.links is None or _pair(a, b) in self.links
        return linked and within_reach(a, b, self.origins, self.reach)

    def _across(self, a: Spot, b: Spot) -> bool | None:
        """Whether places of two provinces on different boards border each other for the
        cross-board policy when it decides alone (None: as the map says, see `neighbours`)."""
        if a.board == b.board or not self.borders(a.board, b.board):
            return None if a.board == b.board else False
        if self.reach.across is CrossBoardMoves.NEIGHBOURS:
            return None
        if a.province == b.province:
            return True
        return None if self.reach.across is CrossBoardMoves.LOOSE else False

    def key(self, province: str, timeline: int | None, turn: int | None) -> Spot | None:
        """The joint province of a place with full coordinates, or None if its board is
        not part of this step."""
        if timeline is None or turn is None or (timeline, turn) not in self.boards:
            return None
        return spot(province, timeline, turn)

    def province(self, key: Key) -> Province:
        """The province of a spot: the map's, named after its board (its code the map's)."""
        found = self._provinces.get(key)
        if found is None:
            here = _spot(key)
            base = self.base.province(here.province)
            name = f"{timeline_name(here.timeline)}-{base.name}@{here.turn}"
            found = self._provinces[here] = replace(base, name=name, aliases=())
        return found

    def neighbours(self, key: Key) -> frozenset[Key]:
        """The provinces bordering a province: on its own board and on those within reach."""
        here = _spot(key)
        found = self._neighbours.get(here)
        if found is None:
            near = self.base.neighbours(here.province)
            found = frozenset(spot(p, *board) for board in self.in_reach(here.board) for p in near)
            if self.reach.across is not CrossBoardMoves.NEIGHBOURS:
                others = [b for b in self.in_reach(here.board) if b != here.board]
                itself = {spot(here.province, *b) for b in others}
                if self.reach.across is CrossBoardMoves.STRICT:
                    found = frozenset(spot(p, *here.board) for p in near)
                found |= itself
            self._neighbours[here] = found
        return found

    def in_reach(self, board: BoardKey) -> tuple[BoardKey, ...]:
        """The boards of the step whose provinces border this board's (itself included)."""
        found = self._in_reach.get(board)
        if found is None:
            if self.links is None:
                near: Iterable[BoardKey] = self.boards
            else:  # only the boards linked to it can: not every board of the step is asked
                near = sorted(self._linked().get(board, ()), key=self._rank().__getitem__)
            found = self._in_reach[board] = tuple(b for b in near if self.borders(board, b))
        return found

    def _rank(self) -> dict[BoardKey, int]:
        """Each board's place among `boards` (the order `in_reach` gives them in)."""
        if self._ranks is None:
            self._ranks = {b: i for i, b in enumerate(self.boards)}
        return self._ranks

    def _linked(self) -> dict[BoardKey, set[BoardKey]]:
        """Each board of the step with itself and the boards linked to it."""
        if self._partners is None:
            self._partners = {b: {b} for b in self.boards}
            for a, b in self.links or ():
                if a in self._partners and b in self._partners:
                    self._partners[a].add(b)
                    self._partners[b].add(a)
        return self._partners

    def retreat_neighbours(self, location: Location, unit: UnitType) -> tuple[Location, ...]:
        """A retreat stays on its own board."""
        plain, board = on_map(location)
        return tuple(on_board(n, board) for n in self.base.retreat_neighbours(plain, unit))

    def army_adjacent(self, a: Key, b: Key) -> bool:
        here, there = _spot(a), _spot(b)
        if here.board == there.board:  # on one board: as the map says
            return self.base.army_adjacent(here.province, there.province)
        across = self._across(here, there)
        if across is not None:
            return across and self.base.province(here.province).kind is not Kind.SEA
        return self.borders(here.board, there.board) and self.base.army_adjacent(
            here.province, there.province
        )

    def fleet_coasts_towards(self, src: Location, dest: Key) -> tuple[str | None, ...]:
        plain, board = on_map(src)
        there = _spot(dest)
        if board == there.board:  # on one board: as the map says
            return self.base.fleet_coasts_towards(plain, there.province)
        across = self._across(_spot(src.province), there)
        if across is not None:  # its own place on another board: no change of coast
            return (plain.coast,) if across else ()
        if not self.borders(board, there.board):
            return ()
        return self.base.fleet_coasts_towards(plain, there.province)

    def location_name(self, location: Location) -> str:
        """``"b-St Petersburg(nc)@1"``: as the MDATC letter notation writes a place."""
        return self._names.location_name(location)


def _spot(key: Key) -> Spot:
    """A key of the joint board as the spot it is (a map's province is none of its)."""
    if not isinstance(key, Spot):
        raise UnknownNameError(str(key))
    return key


def _pair(a: BoardKey, b: BoardKey) -> tuple[BoardKey, BoardKey]:
    return (a, b) if a <= b else (b, a)


def spacetime_board(
    base: Board,
    boards: Iterable[BoardKey],
    origins: Mapping[int, BoardKey | None],
    links: Iterable[tuple[BoardKey, BoardKey]] | None = None,
    reach: Reach = RULE_SET_J_REACH,
) -> SpacetimeBoard:
    """The joint board of the given boards of a map, given where each timeline branched
    off, under the rule book's reach.

    With `links`, only those pairs of boards (within reach) border each other besides each
    board with itself: the pairs the step's orders span.  Borders that no order crosses
    change nothing, and leaving them out keeps a step with many timelines linear."""
    keys = tuple(sorted(set(boards)))
    pairs = None if links is None else tuple(sorted({_pair(*p) for p in links}))
    return _cached(base, keys, tuple(sorted(origins.items())), pairs, reach)


@cache
def _cached(
    base: Board,
    keys: tuple[BoardKey, ...],
    origins: tuple[tuple[int, BoardKey | None], ...],
    links: tuple[tuple[BoardKey, BoardKey], ...] | None,
    reach: Reach,
) -> SpacetimeBoard:
    return SpacetimeBoard(base, keys, dict(origins), links, reach)


__all__ = ["Reach", "SpacetimeBoard", "spacetime_board", "timelines_adjacent", "within_reach"]
