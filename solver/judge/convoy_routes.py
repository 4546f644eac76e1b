"""Convoy routes: chains of fleets in sea provinces from an army's province to its destination."""

from __future__ import annotations

from collections.abc import Iterator

from topology import BoardView, Key, Kind


def seas_touching(board: BoardView, province: Key) -> frozenset[Key]:
    """Sea provinces that border a province (any coast)."""
    return frozenset(n for n in board.neighbours(province) if board.province(n).kind is Kind.SEA)


def minimal_routes(
    board: BoardView, origin: Key, dest: Key, fleets: frozenset[Key]
) -> Iterator[tuple[Key, ...]]:
    """Every inclusion-minimal chain of seas in `fleets` leading from origin to dest.

    A chain is minimal when no fleet can be left out, i.e. the path has no chord: no sea
    touches a sea further along than the next one, only the first touches the origin and
    only the last touches the destination.  These are the "proper routes" of DATC 4.E.1.
    """
    touching = board.neighbours
    if board.province(origin).kind is not Kind.COAST or board.province(dest).kind is not Kind.COAST:
        return
    start = seas_touching(board, origin) & fleets
    goal = seas_touching(board, dest) & fleets
    if not start or not goal:
        return

    def extend(path: list[Key]) -> Iterator[tuple[Key, ...]]:
        last = path[-1]
        if last in goal:
            yield tuple(path)
            return
        for sea in sorted(fleets.intersection(touching(last))):
            if sea in path or sea in start or any(sea in touching(p) for p in path[:-1]):
                continue
            path.append(sea)
            yield from extend(path)
            path.pop()

    for first in sorted(start):
        yield from extend([first])


def has_route(board: BoardView, origin: Key, dest: Key, fleets: frozenset[Key]) -> bool:
    return next(minimal_routes(board, origin, dest, fleets), None) is not None
