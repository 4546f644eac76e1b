"""5D Diplomacy: timelines of boards, time travel and forking (MDATC, rule set J).

A multiverse is a tree of timelines.  Each timeline is a sequence of boards addressed by
(timeline, turn): turn 0 is Spring 1901, turn 1 Fall 1901, and so on.  A board holds the
position at the start of its turn (a head board may first owe a retreat or an adjustment
phase) and, once adjudicated, the record of its movement: orders, decisions, outcomes.

One step adjudicates every head board.  The movement heads are adjudicated together with
every past board a new order points at, as one joint model on a spacetime board
(`solver.spacetime`), with the same equations and the same fallback layer as a single
board.  Boards that those past boards' recorded orders point at, or that point at them,
take part with their recorded decisions fixed, except for the orders that act on a board
being re-adjudicated.  Heads advance; a past board forks into a new timeline when a new
move into it succeeds or when a move into it or a dislodgement on it comes out differently
from its record.  See docs/multiverse.md.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from topology import Location, standard

from .adjustments import adjudicate_adjustments
from .errors import DipsatError
from .fallback import settle
from .legality import Turn, analyse
from .model import Decision, Structure
from .orders import (
    MOVEMENT_ORDERS,
    Convoy,
    Disband,
    Given,
    Move,
    Place,
    Retreat,
    UnitRef,
    Waive,
    apply_board_defaults,
    named_places,
    spacetime_code,
    timeline_name,
)
from .outcomes import Illegal, Outcome
from .phases import SOLO_CENTRES, after_movement, game_status
from .position import SPRING_1901, DislodgedUnit, Phase, PhaseKind, Position, Season, Unit
from .resolution import Resolution, resolve
from .retreats import adjudicate_retreats
from .rules import DATC_2025, RepeatFork, RuleBook, StepScope, Victory
from .solve import SolverConfig
from .spacetime import BoardKey, spacetime_board

Origins = Mapping[int, BoardKey | None]


def turn_phase(turn: int) -> Phase:
    """The movement phase of a turn: 0 is Spring 1901, 1 Fall 1901, 2 Spring 1902."""
    return Phase(1901 + turn // 2, Season.FALL if turn % 2 else Season.SPRING, PhaseKind.MOVEMENT)


def board_turn(phase: Phase) -> int:
    """The turn of the board a phase belongs to: a movement phase is its own turn; a retreat
    or winter adjustment is owed by the board of the next turn."""
    turn = 2 * (phase.year - 1901) + (phase.season is not Season.SPRING)
    return turn if phase.kind is PhaseKind.MOVEMENT else turn + 1


@dataclass(frozen=True, slots=True)
class Record:
    """What a board's movement phase came to."""

    orders: tuple[Given, ...]  # with full coordinates
    decisions: Mapping[Decision, bool]  # keyed by spacetime codes ('mun@0:1')
    outcomes: tuple[Outcome, ...]


@dataclass(frozen=True, slots=True)
class MBoard:
    timeline: int
    turn: int
    position: Position  # on the standard map; its phase says what is owed next
    record: Record | None = None
    created: Position | None = None  # the position the board started with (for forks)

    @property
    def key(self) -> BoardKey:
        return (self.timeline, self.turn)


@dataclass(frozen=True)
class Multiverse:
    boards: tuple[MBoard, ...]  # sorted by (timeline, turn)
    origins: tuple[tuple[int, BoardKey | None], ...]  # each timeline and the board it left

    @classmethod
    def start(cls, position: Position) -> Multiverse:
        """A single timeline 'a' whose only board holds the given position."""
        return cls((MBoard(0, board_turn(position.phase), position),), ((0, None),))

    def board(self, key: BoardKey) -> MBoard | None:
        return next((b for b in self.boards if b.key == key), None)

    def heads(self) -> dict[int, MBoard]:
        heads: dict[int, MBoard] = {}
        for b in self.boards:
            if b.timeline not in heads or heads[b.timeline].turn < b.turn:
                heads[b.timeline] = b
        return heads

    def origin_map(self) -> dict[int, BoardKey | None]:
        return dict(self.origins)


@dataclass(frozen=True, slots=True)
class Fork:
    timeline: int
    source: BoardKey  # the past board whose outcome changed


@dataclass(frozen=True)
class MultiverseStep:
    before: Multiverse
    outcomes: tuple[Outcome, ...]  # one per submitted order
    revised: tuple[Outcome, ...]  # recorded orders of past boards, adjudicated again
    forks: tuple[Fork, ...]
    after: Multiverse
    resolution: Resolution | None = None
    problems: tuple[str, ...] = field(default_factory=tuple)


# -- coordinates -----------------------------------------------------------------------------
def _places(order, change: Callable[[Place], Place]):
    """The order with `change` applied to every place it names."""
    if isinstance(order, Waive):
        return order
    fields = {}
    place = change(order.unit.place)
    if place is not order.unit.place:
        fields["unit"] = replace(order.unit, place=place)
    dest = getattr(order, "dest", None)
    if dest is not None and (place := change(dest)) is not dest:
        fields["dest"] = place
    for name in ("supported", "army"):
        ref: UnitRef | None = getattr(order, name, None)
        if ref is not None and (place := change(ref.place)) is not ref.place:
            fields[name] = replace(ref, place=place)
    return replace(order, **fields) if fields else order


def complete(mv: Multiverse, given: Given, heads: Mapping[int, MBoard] | None = None) -> Given:
    """Fill the coordinates an order leaves out: a timeline without a turn means its head;
    an ordered unit without a board is on the only head (with one timeline); the rest follow
    the MDATC default rules (`apply_board_defaults`).  `heads`: `mv.heads()`, if known."""
    heads = mv.heads() if heads is None else heads
    if all(p.timeline is not None and p.turn is not None for p in named_places(given.order)):
        return given  # nothing left out: the order stands as written

    def head_turn(place: Place) -> Place:
        if place.timeline is not None and place.turn is None and place.timeline in heads:
            return replace(place, turn=heads[place.timeline].turn)
        return place

    order = _places(given.order, head_turn)
    if isinstance(order, Waive):
        return Given(given.power, order)
    here = order.unit.place
    if here.timeline is None and here.turn is None and len(heads) == 1:
        (only,) = heads.values()
        here = replace(here, timeline=only.timeline, turn=only.turn)
        order = replace(order, unit=replace(order.unit, place=here))
    return Given(given.power, apply_board_defaults(order, here.timeline, here.turn))


def _recorded(board: MBoard) -> tuple[Given, ...]:
    """The orders a board recorded (none for a board not yet adjudicated)."""
    return board.record.orders if board.record is not None else ()


def _board_name(key: BoardKey) -> str:
    return f"{timeline_name(key[0])}@{key[1]}"


def _board_of(place: Place) -> BoardKey | None:
    if place.timeline is None or place.turn is None:
        return None
    return (place.timeline, place.turn)


def _boards_named(order) -> set[BoardKey]:
    return {
        (p.timeline, p.turn)
        for p in named_places(order)
        if p.timeline is not None and p.turn is not None
    }


def _plain(order):
    """The order on a single board: coordinates dropped."""
    return _places(order, lambda p: Place(p.province, p.coast))


@lru_cache(maxsize=65536)
def _split(code: str) -> tuple[str, BoardKey]:
    place = Place.from_location(Location(code))
    return place.province, (place.timeline, place.turn)


MAX_TIMELINES = 1024  # a step's joint turn grows with the timelines; 64 take about 0.2 s


# -- one step -----------------------------------------------------------------------------------
def step(
    mv: Multiverse,
    orders: Sequence[Given],
    rules: RuleBook = DATC_2025,
    config: SolverConfig | None = None,
) -> MultiverseStep:
    """Adjudicate every head board once (see the module docstring)."""
    if len(mv.origins) > MAX_TIMELINES:
        raise DipsatError(
            f"a multiverse of at most {MAX_TIMELINES} timelines is adjudicated; "
            f"this one has {len(mv.origins)}"
        )
    # A step makes many short-lived objects beside a large live multiverse: the cyclic
    # garbage collector's passes over it cost about a third of a 64-timeline step.
    paused = gc.isenabled()
    gc.disable()
    try:
        return _step(mv, orders, rules, config)
    finally:
        if paused:
            gc.enable()


def _step(mv: Multiverse, orders: Sequence[Given], rules: RuleBook, config) -> MultiverseStep:
    heads = mv.heads()
    givens = [complete(mv, g, heads) for g in orders]
    head_keys = {b.key for b in heads.values()}
    outcomes: list[Outcome | None] = [None] * len(givens)
    by_head: dict[BoardKey, list[int]] = {k: [] for k in head_keys}
    for i, given in enumerate(givens):
        key = _board_of(given.order.unit.place) if not isinstance(given.order, Waive) else None
        if key in by_head:
            by_head[key].append(i)
        else:
            where = given.order.unit.place if key is not None else "its board"
            reason = f"only units on a head board take orders; {where} is not on one"
            outcomes[i] = Outcome(given, "illegal", reason=Illegal(reason))

    boards = {b.key: b for b in mv.boards}
    new_boards: dict[BoardKey, MBoard] = {}
    movement_heads = set()
    one_phase = rules.multiverse_step is StepScope.PHASE
    for key, indices in sorted(by_head.items()):
        owed = boards[key].position.phase.kind is not PhaseKind.MOVEMENT
        settled = _settle_owed(boards[key], givens, indices, outcomes, rules, one_phase)
        if settled is not boards[key]:
            new_boards[key] = settled
            boards[key] = settled
        if owed and one_phase:
            for i in indices:
                if outcomes[i] is None:
                    why = f"{boards[key].position.phase} comes first"
                    outcomes[i] = Outcome(givens[i], "illegal", reason=Illegal(why))
        else:
            movement_heads.add(key)
    # A head that owes another phase this step takes no part in the movement.
    elsewhere = head_keys - movement_heads
    for k in sorted(movement_heads) if elsewhere else ():
        for i in by_head[k]:
            busy = sorted(_boards_named(givens[i].order) & elsewhere)
            if outcomes[i] is None and busy:
                owed = heads[busy[0][0]].position.phase
                why = f"{_board_name(busy[0])} settles its {owed} this step"
                outcomes[i] = Outcome(givens[i], "illegal", reason=Illegal(why))
    moving = [i for k in sorted(movement_heads) for i in by_head[k] if outcomes[i] is None]
    forks: list[Fork] = []
    revised: tuple[Outcome, ...] = ()
    resolution = None
    if movement_heads:
        resolution, revised, forks, advanced = _movement(
            mv, boards, movement_heads, [givens[i] for i in moving], rules, config
        )
        for i, outcome in zip(moving, resolution.outcomes[: len(moving)], strict=True):
            outcomes[i] = replace(outcome, given=givens[i])
        new_boards.update(advanced)

    merged = {**boards, **new_boards}
    origins = dict(mv.origins)
    for fork in forks:
        origins[fork.timeline] = fork.source
    after = Multiverse(tuple(merged[k] for k in sorted(merged)), tuple(sorted(origins.items())))
    return MultiverseStep(mv, tuple(outcomes), revised, tuple(forks), after, resolution)


def _settle_owed(head: MBoard, givens, indices, outcomes, rules, one_phase: bool) -> MBoard:
    """Settle the retreat and adjustment phases a head owes, from the orders for them
    (missing retreats disband, builds not ordered are waived, missing disbands go to civil
    disorder); orders of those kinds that nothing owes are illegal."""
    position = head.position
    waiting = [i for i in indices if not isinstance(givens[i].order, MOVEMENT_ORDERS)]
    if position.phase.kind is PhaseKind.RETREAT:
        dislodged = {d.unit.province for d in position.dislodged}
        mine = [
            i
            for i in waiting
            if isinstance(givens[i].order, Retreat)
            or (
                isinstance(givens[i].order, Disband)
                and givens[i].order.unit.place.province in dislodged
            )
        ]
        done = adjudicate_retreats(position, [_plain_given(givens[i]) for i in mine], rules)
        for i, outcome in zip(mine, done.outcomes, strict=True):
            outcomes[i] = replace(outcome, given=givens[i])
        waiting = [i for i in waiting if i not in mine]
        position = done.after
    if position.phase.kind is PhaseKind.ADJUSTMENT and not (
        one_phase and head.position.phase.kind is PhaseKind.RETREAT
    ):
        done = adjudicate_adjustments(position, [_plain_given(givens[i]) for i in waiting], rules)
        for i, outcome in zip(waiting, done.outcomes, strict=True):
            outcomes[i] = replace(outcome, given=givens[i])
        waiting = []
        position = done.after
    for i in waiting:
        reason = f"{turn_phase(head.turn)} owes no retreat or adjustment phase"
        outcomes[i] = Outcome(givens[i], "illegal", reason=Illegal(reason))
    return head if position is head.position else replace(head, position=position)


def _plain_given(given: Given) -> Given:
    return Given(given.power, _plain(given.order))


def _movement(mv, boards, heads: set[BoardKey], givens: list[Given], rules, config):
    origins = mv.origin_map()
    past = set()
    for given in givens:
        past |= {k for k in _boards_named(given.order) if k in boards and k not in heads}
    while True:
        turn, structure, settled, history, context, every = _joint_turn(
            boards, heads, past, givens, origins, rules, config
        )
        # A board only brought in with its record fixed must be adjudicated again when a
        # re-adjudicated order that reaches into it comes out differently from its record.
        spilled = _spilled(turn, settled.values, boards, past, context)
        if not spilled:
            break
        past |= spilled
    resolution = resolve(turn, structure, settled)

    index = {g: i for i, g in enumerate(every)}
    revised = tuple(resolution.outcomes[index[g]] for g in history)
    recorded_moves: dict[Decision, bool] = {}
    for key in past | context:
        if boards[key].record is not None:
            recorded_moves.update(boards[key].record.decisions)

    ordered_now = {c.unit.province for c in resolution.turn.checked[: len(givens)] if c.unit}
    per_board = _split_results(resolution, ordered_now)
    advanced: dict[BoardKey, MBoard] = {}
    records = _records(resolution, heads, len(givens))
    for key in sorted(heads):
        head = boards[key]
        units_after, dislodged, standoffs = per_board.get(key, ((), (), frozenset()))
        nxt = after_movement(
            head.position.phase, units_after, head.position.centres, dislodged, standoffs
        )
        advanced[key] = replace(head, record=records[key])
        advanced[(key[0], key[1] + 1)] = MBoard(key[0], key[1] + 1, nxt)

    forks: list[Fork] = []
    next_timeline = max(t for t, _ in mv.origins) + 1
    for key in sorted(past, key=lambda k: (k[1], k[0])):
        if not _changed(resolution, key, recorded_moves):
            continue
        board = boards[key]
        units_after, dislodged, standoffs = per_board.get(key, ((), (), frozenset()))
        start = after_movement(
            board.position.phase, units_after, board.position.centres, dislodged, standoffs
        )
        if rules.repeat_fork is RepeatFork.REUSE_IDENTICAL and any(
            source == key
            and boards.get((t, key[1] + 1)) is not None
            and boards[(t, key[1] + 1)].created == start
            for t, source in origins.items()
        ):
            continue  # this future exists already
        forks.append(Fork(next_timeline, key))
        advanced[(next_timeline, key[1] + 1)] = MBoard(
            next_timeline, key[1] + 1, start, created=start
        )
        next_timeline += 1
    return resolution, revised, forks, advanced


def _joint_turn(boards, heads, past, givens, origins, rules, config):
    """The joint turn of the heads and the past boards to adjudicate again, with the boards
    their records name as context (recorded decisions fixed), settled."""
    touched = heads | past
    # The recorded orders of those past boards: their own and those that acted on them.
    history = list(dict.fromkeys(g for k in sorted(past) for g in boards[k].record.orders))
    # Boards those orders name take part too, with their recorded decisions.
    # So do the boards their own recorded orders name, and so on: a recorded move must find
    # its destination in the joint turn, or the unit would stay where another arrives.
    context: set[BoardKey] = set()
    frontier = list(history)
    while frontier:
        for k in _boards_named(frontier.pop().order):
            if k in boards and k not in touched and k not in context:
                context.add(k)
                frontier += _recorded(boards[k])
    joint = touched | context
    links = set()
    for given in [*givens, *history, *(g for k in context for g in _recorded(boards[k]))]:
        named = sorted(k for k in _boards_named(given.order) if k in joint)
        links |= {(a, b) for a in named for b in named if a < b}
    convoying: dict[tuple, set[BoardKey]] = {}  # a chain of fleets may cross boards too
    for given in givens:
        if isinstance(given.order, Convoy):
            key = (given.order.army.place, given.order.dest)
            convoying.setdefault(key, set()).update(_boards_named(given.order))
    for named in convoying.values():
        links |= {(a, b) for a in named for b in named if a < b}
    st_board = spacetime_board(joint, origins, links)

    units = [
        Unit(Location(spacetime_code(u.province, *key), u.location.coast), u.type, u.power)
        for key in sorted(joint)
        for u in boards[key].position.units
    ]
    known = [g for k in sorted(context) for g in _recorded(boards[k])]
    every = list(dict.fromkeys(givens + history + known))
    fixed = {
        d: v
        for key in sorted(context)
        if boards[key].record is not None
        for d, v in boards[key].record.decisions.items()
        if _split(d[1])[1] == key
    }
    turn = analyse(Position(SPRING_1901, tuple(units)), every, rules, st_board)
    structure = Structure.of(turn)
    # Orders of the context that act on a re-adjudicated board are adjudicated afresh.
    free = _acting_on(turn, touched)
    fixed = {d: v for d, v in fixed.items() if d not in free}
    return turn, structure, settle(structure, config, fixed), history, context, every


def _spilled(turn: Turn, values, boards, past: set[BoardKey], context: set[BoardKey]):
    """Context boards to adjudicate again: the board a re-adjudicated recorded move goes to,
    and the board of a context move freed because it goes to a re-adjudicated board, when
    the move comes out differently from its record (a unit would arrive where another stays,
    or stay where another arrives). A changed support or convoy moves no unit: no spill."""
    spilled: set[BoardKey] = set()
    for unit, checked in turn.orders:
        key = _split(unit.province)[1]
        if checked is None or (key not in past and key not in context):
            continue
        into = {key} if key in context else _boards_named(checked.given.order) & context
        if not into or into <= spilled:
            continue
        recorded = boards[key].record.decisions if boards[key].record is not None else {}
        d = ("move", unit.province)
        if d in recorded and values.get(d) != recorded[d]:
            spilled |= into
    return spilled


def _acting_on(turn: Turn, touched: set[BoardKey]) -> set[Decision]:
    """Decisions of orders that move into, support into or convoy to a touched board."""
    free: set[Decision] = set()
    for unit, checked in turn.orders:
        if checked is None or checked.dest is None:
            continue
        if _split(checked.dest.province)[1] in touched:
            for kind in ("move", "path", "support", "convoy"):
                free.add((kind, unit.province))
    return free


def _split_results(resolution: Resolution, ordered_now: set[str]):
    """Units after the movement, dislodged units and standoffs, by board, on the plain map.

    A unit that went to another board by an order recorded earlier arrived there then, and
    that arrival made the timeline it lives in: it is not carried into a new fork again."""
    units: dict[BoardKey, list[Unit]] = {}
    moved_in = {}
    for unit, checked in resolution.turn.orders:
        if resolution.values.get(("move", unit.province), False):
            moved_in[unit.province] = checked.dest
    for unit in resolution.turn.position.units:
        if resolution.values.get(("dislodged", unit.province), False):
            continue
        place = moved_in.get(unit.province, unit.location)
        province, key = _split(place.province)
        if key != _split(unit.province)[1] and unit.province not in ordered_now:
            continue
        units.setdefault(key, []).append(
            Unit(Location(province, place.coast), unit.type, unit.power)
        )
    dislodged: dict[BoardKey, list[DislodgedUnit]] = {}
    for entry in resolution.dislodged:
        province, key = _split(entry.unit.province)
        origin, origin_key = _split(entry.attacker_from)
        plain = Unit(
            Location(province, entry.unit.location.coast), entry.unit.type, entry.unit.power
        )
        # An attack from another board leaves no province of this board barred.
        dislodged.setdefault(key, []).append(
            DislodgedUnit(plain, origin if origin_key == key else "", entry.by_convoy)
        )
    standoffs: dict[BoardKey, set[str]] = {}
    for code in resolution.standoffs:
        province, key = _split(code)
        standoffs.setdefault(key, set()).add(province)
    keys = set(units) | set(dislodged) | set(standoffs)
    return {
        k: (tuple(units.get(k, ())), tuple(dislodged.get(k, ())), frozenset(standoffs.get(k, ())))
        for k in keys
    }


def _records(resolution: Resolution, heads: set[BoardKey], count: int) -> dict[BoardKey, Record]:
    """Each head's record: its own new orders and the new orders from other boards that
    acted on it (moves, supports and convoys into it), with their decisions and outcomes."""
    mine: dict[BoardKey, list[int]] = {k: [] for k in heads}
    for i, checked in enumerate(resolution.turn.checked[:count]):
        boards = {_board_of(checked.given.order.unit.place)}
        if checked.dest is not None:
            boards.add(_split(checked.dest.province)[1])
        for key in boards & heads:
            mine[key].append(i)
    decisions: dict[BoardKey, dict[Decision, bool]] = {k: {} for k in heads}
    for d, v in resolution.values.items():
        key = _split(d[1])[1]
        if key in decisions:
            decisions[key][d] = v
    return {
        key: Record(
            tuple(resolution.turn.checked[i].given for i in indices),
            decisions[key],
            tuple(resolution.outcomes[i] for i in indices),
        )
        for key, indices in mine.items()
    }


def _changed(resolution: Resolution, key: BoardKey, recorded: Mapping[Decision, bool]) -> bool:
    """Did a move into this past board, or a dislodgement on it, come out differently?"""
    suffix = f"@{key[0]}:{key[1]}"
    watched: list[Decision] = []
    for unit, checked in resolution.turn.orders:
        moves = checked is not None and isinstance(checked.order, Move)
        if moves and checked.dest.province.endswith(suffix):
            watched.append(("move", unit.province))
        if unit.province.endswith(suffix):
            watched.append(("dislodged", unit.province))
    return any(resolution.values.get(d, False) != recorded.get(d, False) for d in watched)


def winner(mv: Multiverse, rules: RuleBook = DATC_2025) -> str | None:
    """The power that has won the multiverse, if any (a rule-book choice, see Victory)."""
    heads = list(mv.heads().values())
    if rules.victory is Victory.ANY_HEAD:
        for head in heads:
            status = game_status(head.position)
            if status.solo:
                return status.solo
        return None
    counts = {
        power: len({p for h in heads for p, owner in h.position.centres if owner == power})
        for power in standard().powers
    }
    best = max(counts.values())
    leaders = [p for p, n in counts.items() if n == best]
    return leaders[0] if best >= SOLO_CENTRES and len(leaders) == 1 else None


def run_steps(
    position: Position, steps: Sequence[Sequence[Given]], rules: RuleBook = DATC_2025
) -> list[MultiverseStep]:
    """Play several steps from a single-board start."""
    mv = Multiverse.start(position)
    done = []
    for orders in steps:
        result = step(mv, orders, rules)
        done.append(result)
        mv = result.after
    return done


__all__ = ["DipsatError", "MBoard", "Multiverse", "MultiverseStep", "Record", "step", "turn_phase"]
