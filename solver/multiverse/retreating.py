"""The retreats a multiverse owes: which units, where each may go, and the standoffs.

Under rule set J a unit owes its retreat on a head board (the board's position is in its
retreat phase); under rule set O it may owe it on any board, in the pause
(`Multiverse.pause`).  Units and places are on the joint board's spots, as
`Multiverse.awaiting` gives them.
"""

from __future__ import annotations

from topology import Location

from ..judge.retreat_options import retreating
from ..values.position import PhaseKind, Unit
from ..values.rules import RuleBook
from .rewritten import Results, retreat_position
from .state import Multiverse, Spot, on_board, spot


def retreat_options(mv: Multiverse, rules: RuleBook) -> dict[Unit, tuple[Location, ...]]:
    """Each unit owing a retreat, with the places on its board it may retreat to."""
    found: dict[Unit, tuple[Location, ...]] = {}
    for head in mv.heads().values():
        if head.position.phase.kind is PhaseKind.RETREAT:
            for d in head.position.dislodged:
                options = retreating(head.position, d, rules).options
                unit = Unit(on_board(d.unit.location, head.key), d.unit.type, d.unit.power)
                found[unit] = tuple(on_board(o, head.key) for o in options)
    pause = mv.pause
    if pause is not None:
        boards = {b.key: b for b in mv.boards}
        results = Results(boards)
        for key in sorted({k for k, _ in pause.waiting}):
            waiting = [d for k, d in pause.waiting if k == key]
            position = retreat_position(boards[key], results, waiting)
            for d in waiting:
                options = retreating(position, d, rules).options
                unit = Unit(on_board(d.unit.location, key), d.unit.type, d.unit.power)
                found[unit] = tuple(on_board(o, key) for o in options)
    return found


def standoffs(mv: Multiverse) -> tuple[Spot, ...]:
    """The provinces a standoff left empty, where units owe retreats (none may go there)."""
    found = [
        spot(p, *head.key)
        for head in mv.heads().values()
        if head.position.phase.kind is PhaseKind.RETREAT
        for p in head.position.standoffs
    ]
    if mv.pause is not None:
        results = Results({b.key: b for b in mv.boards})
        for key in sorted({k for k, _ in mv.pause.waiting}):
            found += [spot(p, *key) for p in results.standoffs(key)]
    return tuple(sorted(set(found)))


__all__ = ["retreat_options", "standoffs"]
