"""The retreats a multiverse owes: which units, where each may go, and the standoffs.

Under rule set J a unit owes its retreat on a head board (the board's position is in its
retreat phase); in a retreat pause (`Multiverse.pause`, rule set O) it owes it on the board
it was dislodged on, any board.  Units and places are on the joint board's spots, as
`Multiverse.awaiting` gives them.
"""

from __future__ import annotations

from topology import Location, Spot, code

from ..judge.retreat_options import retreating
from ..values.position import DislodgedUnit, PhaseKind, Position, Unit
from ..values.rules import RuleBook
from .rewritten import Results, retreat_position
from .state import BoardKey, Multiverse, on_board, spot


def retreat_options(
    mv: Multiverse, rules: RuleBook, paused: bool = False
) -> dict[Unit, tuple[Location, ...]]:
    """Each unit owing a retreat (with `paused`, only those waiting in a retreat pause),
    with the places on its board it may retreat to."""
    found: dict[Unit, tuple[Location, ...]] = {}
    for key, position, waiting in _owing(mv, paused):
        for d in waiting:
            options = retreating(position, d, rules).options
            unit = Unit(on_board(d.unit.location, key), d.unit.type, d.unit.power)
            found[unit] = tuple(on_board(o, key) for o in options)
    return found


def standoffs(mv: Multiverse) -> tuple[Spot, ...]:
    """The provinces a standoff left empty, where units owe retreats (none may go there)."""
    found = [spot(code(p), *key) for key, position, _ in _owing(mv) for p in position.standoffs]
    return tuple(sorted(set(found)))


def _owing(
    mv: Multiverse, paused: bool = False
) -> list[tuple[BoardKey, Position, list[DislodgedUnit]]]:
    """Where units owe retreats: each board they are ordered on (a head in its retreat
    phase, or in a pause the board they were dislodged on), the position they retreat
    from, and the units (with `paused`, only those of a pause)."""
    owing: list[tuple[BoardKey, Position, list[DislodgedUnit]]] = []
    pause = mv.pause.waiting if mv.pause is not None else ()
    held = {h.key for k, d in pause if (h := mv.holder(k, d)) is not None}
    for head in mv.heads().values() if not paused else ():
        if head.position.phase.kind is PhaseKind.RETREAT and head.key not in held:
            owing.append((head.key, head.position, list(head.position.dislodged)))
    if pause:
        boards = {b.key: b for b in mv.boards}
        results = Results(boards)
        for key in sorted({k for k, _ in pause}):
            waiting = [d for k, d in pause if k == key]
            holder = mv.holder(key, waiting[0])
            if holder is not None:
                owing.append((key, holder.position, waiting))
            else:
                owing.append((key, retreat_position(boards[key], results, waiting), waiting))
    return owing


__all__ = ["retreat_options", "standoffs"]
