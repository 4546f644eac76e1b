"""The groups of boards of a multiverse step's joint turn.

Two boards of a joint turn border each other only when an order spans them (the spacetime
board's `links`), so the boards fall into groups that no order, no border and no decision
crosses: the boards of one group are linked to each other, directly or through other boards
of the group.  The judge settles each group alone (`Judgement.settle`), with the same
equations, the same fallback layer and the same values as the whole turn: the work per step
stays proportional to the boards (a core on one board no longer makes the whole turn's
dependency graph), and the cores of several groups come group after group, the groups
numbered in the order of their first board.
"""

from __future__ import annotations

from collections.abc import Callable

from topology import BoardView, Key, Spot

from .spacetime import SpacetimeBoard
from .state import BoardKey


def board_groups(board: BoardView) -> Callable[[Key], int] | None:
    """The group of each province of a joint board (by its board), or None when the
    turn is one group."""
    if not isinstance(board, SpacetimeBoard) or board.links is None:
        return None
    parent: dict[BoardKey, BoardKey] = {}

    def root(key: BoardKey) -> BoardKey:
        top = parent.setdefault(key, key)
        while top != parent[top]:
            top = parent[top]
        while key != top:  # compress the path
            parent[key], key = top, parent[key]
        return top

    for key in board.boards:
        root(key)
    for a, b in board.links:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    number: dict[BoardKey, int] = {}
    group: dict[BoardKey, int] = {}
    for key in sorted(parent):
        group[key] = number.setdefault(root(key), len(number))
    if len(number) < 2:
        return None

    def group_of(key: Key) -> int:
        assert isinstance(key, Spot)  # the joint board's keys are spots
        return group[key.board]

    return group_of


__all__ = ["board_groups"]
