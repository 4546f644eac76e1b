"""The joint turn of a multiverse step, settled and resolved group of boards by group.

Two boards of a joint turn border each other only when an order spans them (the spacetime
board's `links`), so the boards fall into groups that no order, no border and no decision
crosses: the boards of one group are linked to each other, directly or through other boards
of the group.  Each group is a turn of its own, with the same equations, the same fallback
layer and the same values as in the whole turn; settling and resolving the groups one by one
keeps the work per step proportional to the boards (a core on one board no longer makes the
whole turn's dependency graph, and a turn whose groups propagation settles is never
propagated twice), and puts the groups' results back together in the whole turn's order.

The cores of several groups come group after group (the groups ordered by their first
board), each group's in its own upstream-first order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import attrgetter

from ..judge.checked import Checked, Turn
from ..judge.fallback import Settlement, settle
from ..judge.model import Structure
from ..judge.resolution import as_it_stands, resolve
from ..judge.solve import SolverConfig
from ..values.decisions import Decision
from ..values.outcomes import Outcome
from ..values.position import DislodgedUnit, Position, Unit
from ..values.resolution import Resolution, Retreating
from .spacetime import SpacetimeBoard
from .state import BoardKey


@dataclass(frozen=True, slots=True)
class Part:
    """One group of boards of a joint turn: its turn, structure and settlement, and where
    its submitted orders stand among the whole turn's."""

    turn: Turn
    structure: Structure
    settled: Settlement
    places: tuple[int, ...] | None  # where each of its submitted orders stands in the
    # whole turn (None: the part is the whole turn)
    boards: frozenset[BoardKey] = frozenset()  # its boards (none said: the whole turn's)


@dataclass(frozen=True, slots=True)
class Settled:
    """A joint turn settled group by group: the whole turn, its parts, and the settlement
    of the whole turn they come to."""

    turn: Turn
    parts: tuple[Part, ...]
    settled: Settlement


_board: Callable[[str], BoardKey] = attrgetter("board")
"""The board of a province of the joint board (a `Spot`), read without a Python call."""


def _groups(turn: Turn) -> dict[BoardKey, int] | None:
    """The group of each board holding a unit, numbered by their first board; None when
    the turn is one group."""
    board = turn.board
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
    return group if len(number) > 1 else None


def settle_parts(
    turn: Turn, config: SolverConfig | None, fixed: Mapping[Decision, bool]
) -> Settled:
    """Settle a joint turn group by group (see the module docstring); `fixed`: decisions
    kept from history, as `settle` takes them."""
    group = _groups(turn)
    if group is None:
        return _whole(turn, config, fixed)
    count = len(set(group.values()))
    orders: list[list[tuple[Unit, Checked | None]]] = [[] for _ in range(count)]
    for unit, checked in turn.orders:
        orders[group[_board(unit.location.province)]].append((unit, checked))
    checks: list[list[Checked]] = [[] for _ in range(count)]
    places: list[list[int]] = [[] for _ in range(count)]
    for i, checked in enumerate(turn.checked):
        # an order without a unit is illegal whatever the group: the first takes it
        g = group[_board(checked.unit.location.province)] if checked.unit is not None else 0
        checks[g].append(checked)
        places[g].append(i)
    kept: list[dict[Decision, bool]] = [{} for _ in range(count)]
    for d, v in fixed.items():
        g_of = group.get(_board(d[1]))
        if g_of is not None:
            kept[g_of][d] = v
    busy = [g for g in range(count) if orders[g] or checks[g]]  # boards without units
    boards: list[set[BoardKey]] = [set() for _ in range(count)]
    for key, g in group.items():
        boards[g].add(key)
    if len(busy) < 2:  # have nothing to settle
        return _whole(turn, config, fixed)
    position = turn.position
    parts = []
    for g in busy:
        units = [unit for unit, _ in orders[g]]
        at = position.derive(position.phase, units)
        mine = Turn(at, tuple(checks[g]), tuple(orders[g]), turn.rules)
        structure = Structure.of(mine)
        settled = settle(structure, config, kept[g])
        parts.append(Part(mine, structure, settled, tuple(places[g]), frozenset(boards[g])))
    return Settled(turn, tuple(parts), _merged([p.settled for p in parts], fixed))


def _whole(turn: Turn, config: SolverConfig | None, fixed: Mapping[Decision, bool]) -> Settled:
    """The joint turn settled at once, as one group."""
    structure = Structure.of(turn)
    whole = Part(turn, structure, settle(structure, config, fixed), None)
    return Settled(turn, (whole,), whole.settled)


def _merged(settled: list[Settlement], fixed: Mapping[Decision, bool]) -> Settlement:
    """The settlement of the whole turn, as `settle` orders it: the decisions settled now,
    sorted, then those kept from history, in the order they were given."""
    kept: dict[Decision, bool] = {}
    fresh: dict[Decision, bool] = {}
    forced: dict[Decision, bool] = {}
    for s in settled:
        if s.recorded:
            kept.update(s.recorded)
            fresh.update((d, v) for d, v in s.values.items() if d not in s.recorded)
        else:
            fresh.update(s.values)
        forced.update(s.forced)
    history = {d: kept[d] for d in fixed if d in kept}
    values = {d: fresh[d] for d in sorted(fresh)}
    values.update(history)
    cores = tuple(c for s in settled for c in s.cores)
    return Settlement(values, cores, forced, history)


def resolve_parts(done: Settled) -> Resolution:
    """The resolution of the whole joint turn (its position as it stands after the
    movement), from its groups' resolutions."""
    if done.parts[0].places is None:  # the whole turn
        (whole,) = done.parts
        return resolve(whole.turn, whole.structure, whole.settled, as_it_stands)
    turn = done.turn
    outcomes: list[Outcome | None] = [None] * len(turn.checked)
    units: list[Unit] = []
    dislodged: list[DislodgedUnit] = []
    retreating: list[Retreating] = []
    standoffs: set[str] = set()

    def kept(
        before: Position,
        standing: tuple[Unit, ...],
        gone: tuple[DislodgedUnit, ...],
        empty: frozenset[str],
    ) -> Position:
        """Keep what stands after a group's movement for the whole turn's position (the
        group's own position after it is not made: no one reads it)."""
        units.extend(standing)
        dislodged.extend(gone)
        return before

    for part in done.parts:
        resolved = resolve(part.turn, part.structure, part.settled, kept)
        assert part.places is not None  # a group of several
        for i, outcome in zip(part.places, resolved.outcomes, strict=True):
            outcomes[i] = outcome
        retreating += resolved.dislodged
        standoffs |= resolved.standoffs
    assert all(o is not None for o in outcomes)  # each order is in one group
    empty = frozenset(standoffs)
    settled = done.settled
    return Resolution(
        position=turn.position,
        orders=tuple(c.given for c in turn.checked),
        rules=turn.rules,
        outcomes=tuple(o for o in outcomes if o is not None),
        after=as_it_stands(turn.position, tuple(units), tuple(dislodged), empty),
        values=dict(settled.values),
        cores=settled.cores,
        forced=settled.forced,
        dislodged=tuple(sorted(retreating, key=lambda r: r.unit.province)),
        standoffs=empty,
        recorded=dict(settled.recorded),
    )


__all__ = ["Part", "Settled", "resolve_parts", "settle_parts"]
