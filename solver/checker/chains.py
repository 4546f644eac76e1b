"""Convoy routes as the checker finds them: chains of fleets at sea (DATC 4.A.1, 4.E.1).

A *chain* is a sequence of sea provinces holding fleets, each bordering the next, the first
bordering the army's coast and the last the destination's.  A *route* is a chain none of
whose fleets can be left out (the "proper routes" of 4.E.1): only the first fleet borders
the origin, only the last the destination, and no fleet borders any but its neighbours on
the route.  Both ends must be coastal: an inland army is never convoyed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from topology import BoardView, Key, Kind, UnitType

from ..values.position import Position

Route = tuple[Key, ...]
"""The seas of a route, from the army's province to its destination."""


def fleets_at_sea(position: Position) -> frozenset[Key]:
    """Where the position's fleets stand in sea provinces: every fleet that could convoy."""
    board = position.board
    return frozenset(
        unit.province
        for unit in position.units
        if unit.type is UnitType.FLEET and board.province(unit.province).kind is Kind.SEA
    )


@dataclass
class Seas:
    """Convoy routes on one board, each search done once."""

    board: BoardView
    _routes: dict[tuple[Key, Key, frozenset[Key]], tuple[Route, ...]] = field(default_factory=dict)

    def beside(self, province: Key, fleets: Iterable[Key]) -> set[Key]:
        """The fleets at sea bordering a province."""
        near = self.board.neighbours(province)
        return {f for f in fleets if f in near}

    def coastal(self, province: Key) -> bool:
        return self.board.province(province).kind is Kind.COAST

    def chain_exists(self, origin: Key, dest: Key, fleets: frozenset[Key]) -> bool:
        """Can an army at `origin` reach `dest` by a chain of these fleets?  (A search of
        the fleets reachable from the origin, fleet to bordering fleet.)"""
        if not (self.coastal(origin) and self.coastal(dest)):
            return False
        frontier = sorted(self.beside(origin, fleets))
        seen = set(frontier)
        while frontier:
            sea = frontier.pop()
            near = self.board.neighbours(sea)
            if dest in near:
                return True
            for nxt in fleets:
                if nxt in near and nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
        return False

    def routes(self, origin: Key, dest: Key, fleets: frozenset[Key]) -> tuple[Route, ...]:
        """Every route from `origin` to `dest` among these fleets, in a fixed order."""
        key = (origin, dest, fleets)
        if key not in self._routes:
            found: tuple[Route, ...] = ()
            if self.coastal(origin) and self.coastal(dest):
                found = tuple(sorted(self._extend(origin, dest, fleets, (), frozenset())))
            self._routes[key] = found
        return self._routes[key]

    def _extend(
        self, origin: Key, dest: Key, fleets: frozenset[Key], route: Route, barred: frozenset[Key]
    ) -> Iterator[Route]:
        """The routes that continue `route`; `barred` are the seas a further fleet may not
        be (those bordering the origin or a fleet before the last: they would shortcut)."""
        if route:
            last = route[-1]
            candidates = self.beside(last, fleets)
            barred_next = barred | frozenset(self.board.neighbours(last))
        else:
            candidates = self.beside(origin, fleets)
            barred_next = barred | candidates
        for sea in sorted(candidates - barred - set(route)):
            if dest in self.board.neighbours(sea):
                yield (*route, sea)
            else:
                yield from self._extend(origin, dest, fleets, (*route, sea), barred_next)
