"""5D Diplomacy: one step of a multiverse, with time travel and forking (MDATC, rule set J).

One step adjudicates every head board.  The movement heads are adjudicated together with
every past board a new order points at, as one joint model on a spacetime board
(`solver.multiverse.spacetime`), with the same equations and the same fallback layer as a single
board.  Boards that those past boards' recorded orders point at, or that point at them,
take part with their recorded decisions fixed, except for the orders that act on a board
being re-adjudicated.  Heads advance; a past board forks into a new timeline when a new
move into it succeeds or when a move into it or a dislodgement on it comes out differently
from its record.  See docs/multiverse.md.

That is rule set J's reading of the past (`PastOrders.NAMED_BOARDS`); O's is in
`solver.multiverse.rewritten`, and a retreat pause in `solver.multiverse.pause`.  Under
`PastResults.REWRITTEN` the past boards taking part keep their new results; under
`PastRetreats.PAUSE` the units a step dislodges wait, on the boards made after theirs,
for their retreats.
"""

from __future__ import annotations

import gc
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import NamedTuple

from topology import Key, Location, Spot

from ..cycle.adjustments import adjudicate_adjustments
from ..cycle.retreats import adjudicate_retreats
from ..errors import DipsatError
from ..judge.checked import CheckedMove, JudgedTurn, destination
from ..judge.movement import Settled, judge
from ..judge.results import as_it_stands
from ..judge.retreat_options import retreating
from ..judge.solver_settings import SolverConfig
from ..values.calendar import after_movement
from ..values.decisions import DISLODGED, MOVE, ORDER_KINDS, Decision
from ..values.orders import (
    MOVEMENT_ORDERS,
    Disband,
    Given,
    Order,
    Retreat,
    Waive,
)
from ..values.outcomes import Illegal, Illegality, Outcome, Result
from ..values.position import DislodgedUnit, PhaseKind, Position, Unit, opening_phase
from ..values.resolution import Resolution
from ..values.rules import (
    DATC_2025,
    ForkWhen,
    PastOrders,
    PastResults,
    PastRetreats,
    RepeatFork,
    RuleBook,
    StepScope,
    Winters,
)
from . import rewritten
from .joint import board_groups
from .pause import held_retreats
from .retreating import retreat_options
from .rewritten import same_contents
from .spacetime import Reach, spacetime_board
from .state import (
    BoardKey,
    Fork,
    MBoard,
    Multiverse,
    MultiverseStep,
    Pause,
    Record,
    _boards_named,
    _plain,
    _recorded,
    board_name,
    board_of,
    complete,
    on_board,
    order_links,
    parts,
    spot,
    turn_phase,
    winner,
)

MAX_TIMELINES = 1024  # a step's joint turn grows with the timelines; 64 take about 0.2 s


# -- one step -----------------------------------------------------------------------------------
def step(
    mv: Multiverse,
    orders: Sequence[Given],
    rules: RuleBook = DATC_2025,
    config: SolverConfig | None = None,
) -> MultiverseStep:
    """Adjudicate every head board once (see the module docstring).

    Raises:
        DipsatError: the multiverse has more than `MAX_TIMELINES` timelines, or the step
            would make it have more (the step is refused: a multiverse past the bound
            could never be adjudicated again).
    """
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
        done = _step(mv, orders, rules, config)
    finally:
        if paused:
            gc.enable()
    made = len(done.after.origins)
    if made > MAX_TIMELINES:
        raise DipsatError(
            f"step refused: it would make {made} timelines ({made - len(mv.origins)} new), "
            f"and a multiverse of at most {MAX_TIMELINES} timelines is adjudicated; "
            "the multiverse is left as it was"
        )
    if done.after.pause is None or done.after.won is not None:
        return done
    return replace(done, waiting=tuple(retreat_options(done.after, rules, paused=True).items()))


def _step(
    mv: Multiverse, orders: Sequence[Given], rules: RuleBook, config: SolverConfig | None
) -> MultiverseStep:
    heads = mv.heads()
    givens = [complete(mv, g, heads) for g in orders]
    if mv.won is not None:  # nothing more is adjudicated
        reason = Illegal.because(Illegality.GAME_OVER, mv.won)
        over = tuple(Outcome(g, Result.ILLEGAL, reason=reason) for g in givens)
        return MultiverseStep(mv, over, (), (), mv)
    if mv.pause is not None:
        if all(mv.holder(k, d) is not None for k, d in mv.pause.waiting):
            done = held_retreats(mv, givens, rules)
            return replace(done, after=replace(done.after, won=winner(done.after, rules)))
        retreated, after, made = rewritten.retreats(mv, givens, rules)
        return MultiverseStep(mv, retreated, (), made, replace(after, won=winner(after, rules)))
    head_keys = {b.key for b in heads.values()}
    outcomes: list[Outcome | None] = [None] * len(givens)
    by_head: dict[BoardKey, list[int]] = {k: [] for k in head_keys}
    for i, given in enumerate(givens):
        place = given.order.unit.place if not isinstance(given.order, Waive) else None
        key = board_of(place) if place is not None else None
        if key is not None and key in by_head:
            by_head[key].append(i)
        else:
            where = place.text(mv.map) if place is not None and key is not None else "its board"
            reason = Illegal.because(Illegality.NOT_ON_A_HEAD, where)
            outcomes[i] = Outcome(given, Result.ILLEGAL, reason=reason)

    boards = {b.key: b for b in mv.boards}
    new_boards: dict[BoardKey, MBoard] = {}
    movement_heads: set[BoardKey] = set()
    one_phase = rules.multiverse_step is StepScope.PHASE
    for key, indices in sorted(by_head.items()):
        owing = boards[key].position.phase
        owed = owing.kind is not PhaseKind.MOVEMENT
        settled = _settle_owed(boards[key], givens, indices, outcomes, rules, one_phase)
        if settled is not boards[key]:
            new_boards[key] = settled
            boards[key] = settled
        if owed and one_phase:
            for i in indices:
                if outcomes[i] is None:
                    why = Illegal.because(Illegality.PHASE_FIRST, board_name(key), owing)
                    outcomes[i] = Outcome(givens[i], Result.ILLEGAL, reason=why)
        else:
            movement_heads.add(key)
    # A head that owes another phase this step takes no part in the movement.
    elsewhere = head_keys - movement_heads
    for k in sorted(movement_heads) if elsewhere else ():
        for i in by_head[k]:
            busy = sorted(_boards_named(givens[i].order) & elsewhere)
            if outcomes[i] is None and busy:
                phase = heads[busy[0][0]].position.phase
                why = Illegal.because(Illegality.BOARD_BUSY, board_name(busy[0]), phase)
                outcomes[i] = Outcome(givens[i], Result.ILLEGAL, reason=why)
    moving = [i for k in sorted(movement_heads) for i in by_head[k] if outcomes[i] is None]
    forks: Sequence[Fork] = []
    revised: tuple[Outcome, ...] = ()
    resolution = None
    pause = None
    if movement_heads and rules.past_orders is PastOrders.SHARED_PLACES:
        moved = rewritten.movement(
            mv, boards, movement_heads, [givens[i] for i in moving], rules, config
        )
        resolution, revised, forks, pause = (
            moved.resolution,
            moved.revised,
            moved.forks,
            moved.pause,
        )
        for i, outcome in zip(moving, moved.outcomes, strict=True):
            outcomes[i] = _given_as(outcome, givens[i])
        new_boards.update(moved.boards)
    elif movement_heads:
        resolution, revised, forks, advanced, pause = _movement(
            mv, boards, movement_heads, [givens[i] for i in moving], rules, config
        )
        for i, outcome in zip(moving, resolution.outcomes[: len(moving)], strict=True):
            outcomes[i] = _given_as(outcome, givens[i])
        new_boards.update(advanced)

    merged = {**boards, **new_boards}
    origins = dict(mv.origins)
    for fork in forks:
        origins[fork.timeline] = fork.source
    after = Multiverse(
        tuple(merged[k] for k in sorted(merged)), tuple(sorted(origins.items())), pause
    )
    after = replace(after, won=winner(after, rules))
    adjudicated = tuple(o for o in outcomes if o is not None)
    assert len(adjudicated) == len(outcomes)  # every order has its outcome
    return MultiverseStep(mv, adjudicated, revised, tuple(forks), after, resolution)


def _given_as(outcome: Outcome, given: Given) -> Outcome:
    """The outcome, for the order as it was submitted (most often it is that order)."""
    return outcome if outcome.given is given else replace(outcome, given=given)


def _settle_owed(
    head: MBoard,
    givens: Sequence[Given],
    indices: Sequence[int],
    outcomes: list[Outcome | None],
    rules: RuleBook,
    one_phase: bool,
) -> MBoard:
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
                isinstance(order := givens[i].order, Disband)
                and order.unit.place.province in dislodged
            )
        ]
        for i in [i for i in mine if _off_board(givens[i].order, head)]:
            order = givens[i].order
            assert isinstance(order, Retreat)  # _off_board is true of retreats only
            there = order.dest.text(head.position.map)
            reason = Illegal.because(Illegality.RETREAT_OFF_BOARD, head.name, there)
            outcomes[i] = Outcome(givens[i], Result.ILLEGAL, reason=reason)
            mine.remove(i)  # as if not given: the unit disbands, or takes its own retreat
            waiting.remove(i)
        retreated = adjudicate_retreats(position, [_plain_given(givens[i]) for i in mine], rules)
        for i, outcome in zip(mine, retreated.outcomes, strict=True):
            outcomes[i] = replace(outcome, given=givens[i])
        waiting = [i for i in waiting if i not in mine]
        position = retreated.after
    if position.phase.kind is PhaseKind.ADJUSTMENT and not (
        one_phase and head.position.phase.kind is PhaseKind.RETREAT
    ):
        adjusted = adjudicate_adjustments(
            position, [_plain_given(givens[i]) for i in waiting], rules
        )
        for i, outcome in zip(waiting, adjusted.outcomes, strict=True):
            outcomes[i] = replace(outcome, given=givens[i])
        waiting = []
        position = adjusted.after
    for i in waiting:
        reason = Illegal.because(Illegality.NOTHING_OWED, turn_phase(head.turn, head.position.map))
        outcomes[i] = Outcome(givens[i], Result.ILLEGAL, reason=reason)
    return head if position is head.position else replace(head, position=position)


def _off_board(order: Order, head: MBoard) -> bool:
    """A retreat to another board than the unit's own (a retreat stays on its board)."""
    if not isinstance(order, Retreat):
        return False
    dest = order.dest
    return dest.timeline not in (None, head.timeline) or dest.turn not in (None, head.turn)


def _plain_given(given: Given) -> Given:
    return replace(given, order=_plain(given.order))


def _movement(
    mv: Multiverse,
    boards: Mapping[BoardKey, MBoard],
    heads: set[BoardKey],
    givens: list[Given],
    rules: RuleBook,
    config: SolverConfig | None,
) -> tuple[Resolution, tuple[Outcome, ...], list[Fork], dict[BoardKey, MBoard], Pause | None]:
    """The joint movement of the heads and of the past boards the orders reach: its
    resolution, the recorded orders adjudicated again, the forks, the boards made or whose
    records change, and a retreat pause if one begins."""
    origins = mv.origin_map()
    named = [_boards_named(g.order) for g in givens]  # read once: they are many
    past: set[BoardKey] = set()
    for on in named:
        if not on <= heads:
            past |= {k for k in on if k in boards and k not in heads}
    while True:
        turn, parted, history, context, every = _joint_turn(
            boards, heads, past, givens, named, origins, rules, config
        )
        # A board only brought in with its record fixed must be adjudicated again when a
        # re-adjudicated order that reaches into it comes out differently from its record.
        spilled = _spilled(turn, parted.values, boards, past, context)
        if not spilled:
            break
        past |= spilled
    resolution = parted.resolution(as_it_stands)

    index = {g: i for i, g in enumerate(every)} if history else {}
    revised = tuple(resolution.outcomes[index[g]] for g in history)
    recorded_moves: dict[Decision, bool] = {}
    for key in past | context:
        record = boards[key].record
        if record is not None:
            recorded_moves.update(record.decisions)

    ordered_now = {c.unit.province for c in turn.checked[: len(givens)] if c.unit}
    # Under BOARD_DIFFERS a past board made again is compared with the next boards it has,
    # which hold the units that arrived on it from other boards: so must it, those whose
    # recorded moves succeeded and still do (read only if a past board is made again).
    arrived: set[Key] = set()
    if past and rules.fork_when is ForkWhen.BOARD_DIFFERS:
        arrived = {d[1] for d, v in recorded_moves.items() if v and d[0] == MOVE}
    per_board = _split_results(resolution, turn, ordered_now, boards, past, arrived)

    def every_winter() -> bool:  # read only after a fall where no power adjusts
        return rules.winters is Winters.ALWAYS

    advanced: dict[BoardKey, MBoard] = {}
    if (past or context) and rules.past_results is PastResults.REWRITTEN:
        changed = _rewritten(boards, past, context, resolution, parted, every, len(givens))
        advanced.update(changed)
    records = _records(resolution, parted, heads, len(givens))
    made_after: dict[BoardKey, BoardKey] = {}  # each board made, and the board it follows
    for key in sorted(heads):
        head = boards[key]
        units_after, dislodged, standoffs = per_board.get(key, ((), (), frozenset()))
        nxt = after_movement(head.position, units_after, dislodged, standoffs, every_winter)
        advanced[key] = replace(head, record=records[key])
        advanced[(key[0], key[1] + 1)] = MBoard(key[0], key[1] + 1, nxt, created=nxt)
        made_after[(key[0], key[1] + 1)] = key

    forks: list[Fork] = []
    next_timeline = max(t for t, _ in mv.origins) + 1
    for key in sorted(past, key=lambda k: (k[1], k[0])):
        by_outcome = rules.fork_when is ForkWhen.OUTCOME_CHANGED  # read where a board forks
        if by_outcome and not _changed(resolution, turn, key, recorded_moves):
            continue
        board = boards[key]
        units_after, dislodged, standoffs = per_board.get(key, ((), (), frozenset()))
        start = after_movement(board.position, units_after, dislodged, standoffs, every_winter)
        own = boards.get((key[0], key[1] + 1))
        if not by_outcome and own is not None and same_contents(own.created or own.position, start):
            continue  # its next board, made again, is the one it has
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
        made_after[(next_timeline, key[1] + 1)] = key
        next_timeline += 1
    pause = None
    if rules.past_retreats is PastRetreats.PAUSE:
        pause = _held_pause(advanced, made_after, rules)
    return resolution, revised, forks, advanced, pause


def _held_pause(
    boards: Mapping[BoardKey, MBoard], made_after: Mapping[BoardKey, BoardKey], rules: RuleBook
) -> Pause | None:
    """The retreat pause a step begins (`PastRetreats.PAUSE`): each unit dislodged with
    somewhere to go waits on the board it was dislodged on, while the board made after that
    one holds it."""
    waiting = [
        (made_after[key], d)
        for key in sorted(made_after)
        for d in boards[key].position.dislodged
        if retreating(boards[key].position, d, rules).options
    ]
    if not waiting:
        return None
    return Pause(tuple(sorted(waiting, key=lambda w: (w[0], w[1].unit.province))), ())


def _rewritten(
    boards: Mapping[BoardKey, MBoard],
    past: set[BoardKey],
    context: set[BoardKey],
    resolution: Resolution,
    parted: Settled,
    every: Sequence[Given],
    count: int,
) -> dict[BoardKey, MBoard]:
    """Under a rewritten history (`PastResults.REWRITTEN`): the records of the past boards
    taking part, every order adjudicated again keeping its new result (decisions fixed from
    the record keep theirs); a past board adjudicated again also records the new orders
    that acted on it, as a head does."""
    fresh = {d: v for d, v in resolution.values.items() if d not in resolution.recorded}
    redone = {d[1] for d in fresh}  # the spots of units whose orders were decided afresh
    index = {g: i for i, g in enumerate(every)}
    acting = _records(resolution, parted, past, count)  # the `count` new orders acting on each
    changed: dict[BoardKey, MBoard] = {}
    for key in sorted(past | context):
        record = boards[key].record
        if record is None:
            continue
        outcomes = tuple(
            resolution.outcomes[index[g]] if g in index and _spot_of(g) in redone else o
            for g, o in zip(record.orders, record.outcomes, strict=True)
        )
        decisions = {
            **record.decisions,
            **{d: v for d, v in fresh.items() if parts(d[1])[1] == key},
        }
        orders, extra = record.orders, acting.get(key)
        if extra is not None:
            known = set(orders)
            new = [(g, o) for g, o in zip(extra.orders, extra.outcomes, strict=True)]
            new = [(g, o) for g, o in new if g not in known]
            orders += tuple(g for g, _ in new)
            outcomes += tuple(o for _, o in new)
        changed[key] = replace(boards[key], record=Record(orders, decisions, outcomes))
    return changed


def _spot_of(given: Given) -> Spot | None:
    """The spot of the unit an order is given to (None for a waived build)."""
    if isinstance(given.order, Waive):
        return None
    place = given.order.unit.place
    if place.timeline is None or place.turn is None:
        return None
    return spot(place.province, place.timeline, place.turn)


class _Joint(NamedTuple):
    """A joint turn, settled: and what went into it."""

    turn: JudgedTurn
    settled: Settled  # group of boards by group
    history: list[Given]  # the recorded orders of the past boards adjudicated again
    context: set[BoardKey]  # boards taking part with their recorded decisions
    every: list[Given]  # every order of the turn, in order


def _joint_turn(
    boards: Mapping[BoardKey, MBoard],
    heads: set[BoardKey],
    past: set[BoardKey],
    givens: list[Given],
    named: Sequence[set[BoardKey]],
    origins: Mapping[int, BoardKey | None],
    rules: RuleBook,
    config: SolverConfig | None,
) -> _Joint:
    """The joint turn of the heads and the past boards to adjudicate again, with the boards
    their records name as context (recorded decisions fixed), settled (`named`: the boards
    each given order names)."""
    touched = heads | past
    # The recorded orders of those past boards: their own and those that acted on them.
    history = list(dict.fromkeys(g for k in sorted(past) for g in _recorded(boards[k])))
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
    spanned = [*givens, *history, *(g for k in context for g in _recorded(boards[k]))]
    links = order_links(spanned, joint, givens, named)
    base = boards[min(heads)].position.map
    st_board = spacetime_board(base, joint, origins, links, Reach.of(rules))

    units = [
        Unit(on_board(u.location, key), u.type, u.power)
        for key in sorted(joint)
        for u in boards[key].position.units
    ]
    known = [g for k in sorted(context) for g in _recorded(boards[k])]
    # every submitted order keeps its place (a repeated one too); history adds what it lacks
    every = list(givens)
    if history or known:
        submitted = set(givens)
        every += [g for g in dict.fromkeys(history + known) if g not in submitted]
    fixed = {
        d: v
        for key in sorted(context)
        for record in [boards[key].record]
        if record is not None
        for d, v in record.decisions.items()
        if parts(d[1])[1] == key
    }
    # Each board's units were checked on its position: on the joint board they are not
    # checked again (an empty position is, and derives the joint one).  Its phase is only
    # a movement phase: each board keeps its own.
    phase = opening_phase(base)
    joint_position = Position(phase, board=st_board).derive(phase, units)
    judged = judge(joint_position, every, rules)
    turn = judged.turn
    # Orders of the context that act on a re-adjudicated board are adjudicated afresh.
    if fixed:
        free = _acting_on(turn, touched)
        fixed = {d: v for d, v in fixed.items() if d not in free}
    settled = judged.settle(config, fixed, board_groups(st_board))
    return _Joint(turn, settled, history, context, every)


def _spilled(
    turn: JudgedTurn,
    values: Mapping[Decision, bool],
    boards: Mapping[BoardKey, MBoard],
    past: set[BoardKey],
    context: set[BoardKey],
) -> set[BoardKey]:
    """Context boards to adjudicate again: the board a re-adjudicated recorded move goes to,
    and the board of a context move freed because it goes to a re-adjudicated board, when
    the move comes out differently from its record (a unit would arrive where another stays,
    or stay where another arrives). A changed support or convoy moves no unit: no spill."""
    spilled: set[BoardKey] = set()
    if not past and not context:
        return spilled  # no order of the turn is recorded
    for unit, checked in turn.orders:
        key = parts(unit.province)[1]
        if checked is None or (key not in past and key not in context):
            continue
        into = {key} if key in context else _boards_named(checked.given.order) & context
        if not into or into <= spilled:
            continue
        record = boards[key].record
        recorded = record.decisions if record is not None else {}
        d = (MOVE, unit.province)
        if d in recorded and values.get(d) != recorded[d]:
            spilled |= into
    return spilled


def _acting_on(turn: JudgedTurn, touched: set[BoardKey]) -> set[Decision]:
    """Decisions of orders that move into, support into or convoy to a touched board."""
    free: set[Decision] = set()
    for unit, checked in turn.orders:
        dest = destination(checked) if checked is not None else None
        if dest is None:
            continue
        if parts(dest.province)[1] in touched:
            for kind in ORDER_KINDS:
                free.add((kind, unit.province))
    return free


PerBoard = dict[BoardKey, tuple[tuple[Unit, ...], tuple[DislodgedUnit, ...], frozenset[str]]]


def _split_results(
    resolution: Resolution,
    turn: JudgedTurn,
    ordered_now: set[Key],
    boards: Mapping[BoardKey, MBoard],
    remade: Collection[BoardKey] = (),
    arrived: Collection[Key] = (),
) -> PerBoard:
    """Units after the movement, dislodged units and standoffs, by board, on the plain map
    (`boards`: the boards of the joint turn, whose units stand where they stay).

    A unit that went to another board by an order recorded earlier arrived there then, and
    that arrival made the timeline it lives in: it is not carried into a new fork again
    (`ForkWhen.OUTCOME_CHANGED`).  Under `ForkWhen.BOARD_DIFFERS` a past board is made
    again to be compared with the next boards it has, which hold such units: of the units
    whose recorded moves succeeded (`arrived`, their spots), those that still do are carried
    into the past boards made again (`remade`)."""
    units: dict[BoardKey, list[Unit]] = {}
    values = resolution.values
    moved_in = {}
    for unit, checked in turn.orders:
        if isinstance(checked, CheckedMove):
            start = unit.location.province
            if values.get((MOVE, start)):
                moved_in[start] = checked.dest
    gone = {r.unit.location.province for r in resolution.dislodged}  # its DISLODGED is true
    for unit in turn.position.units:
        here = unit.location.province
        assert isinstance(here, Spot)  # the joint board's provinces are spots
        if here in gone:
            continue
        place = moved_in.get(here)
        if place is None:  # it stays: the unit its board's position holds
            stays = boards[here.board].position.unit_in(here.province)
            assert stays is not None  # the joint turn's units are the boards' own
            units.setdefault(here.board, []).append(stays)
            continue
        there = place.province
        assert isinstance(there, Spot)
        key = there.board
        earlier = key in remade and here in arrived  # an arrival of its record, again
        if key != here.board and here not in ordered_now and not earlier:
            continue
        where = Location(there.province, place.coast)
        units.setdefault(key, []).append(Unit(where, unit.type, unit.power))
    dislodged: dict[BoardKey, list[DislodgedUnit]] = {}
    for entry in resolution.dislodged:
        province, key = parts(entry.unit.province)
        origin, origin_key = parts(entry.attacker_from)
        plain = Unit(
            Location(province, entry.unit.location.coast), entry.unit.type, entry.unit.power
        )
        # An attack from another board leaves no province of this board barred.
        dislodged.setdefault(key, []).append(
            DislodgedUnit(plain, origin if origin_key == key else "", entry.by_convoy)
        )
    standoffs: dict[BoardKey, set[str]] = {}
    for code in resolution.standoffs:
        province, key = parts(code)
        standoffs.setdefault(key, set()).add(province)
    keys = set(units) | set(dislodged) | set(standoffs)
    return {
        k: (tuple(units.get(k, ())), tuple(dislodged.get(k, ())), frozenset(standoffs.get(k, ())))
        for k in keys
    }


def _records(
    resolution: Resolution, parted: Settled, heads: set[BoardKey], count: int
) -> dict[BoardKey, Record]:
    """Each head's record: its own new orders and the new orders from other boards that
    acted on it (moves, supports and convoys into it), with their decisions and outcomes
    (`parted`: the joint turn, settled group by group)."""
    turn = parted.turn
    mine: dict[BoardKey, list[int]] = {k: [] for k in heads}
    for i, checked in enumerate(turn.checked[:count]):
        order = checked.given.order
        here = board_of(order.unit.place) if not isinstance(order, Waive) else None
        dest = destination(checked)
        there = parts(dest.province)[1] if dest is not None else here
        if here in mine:
            mine[here].append(i)
        if there != here and there in mine:
            mine[there].append(i)
    # Each head's decisions, in the order the whole turn's are in (sorted, then those kept
    # from history).
    decisions: dict[BoardKey, dict[Decision, bool]] = {k: {} for k in heads}
    rest = decisions
    for d, v in resolution.values.items():
        on = rest.get(parts(d[1])[1])
        if on is not None:
            on[d] = v
    return {
        key: Record(
            tuple(turn.checked[i].given for i in indices),
            decisions[key],
            tuple(resolution.outcomes[i] for i in indices),
        )
        for key, indices in mine.items()
    }


def _changed(
    resolution: Resolution, turn: JudgedTurn, key: BoardKey, recorded: Mapping[Decision, bool]
) -> bool:
    """Did a move into this past board, or a dislodgement on it, come out differently?"""
    watched: list[Decision] = []
    for unit, checked in turn.orders:
        if isinstance(checked, CheckedMove) and parts(checked.dest.province)[1] == key:
            watched.append((MOVE, unit.province))
        if parts(unit.province)[1] == key:
            watched.append((DISLODGED, unit.province))
    return any(resolution.values.get(d, False) != recorded.get(d, False) for d in watched)


__all__ = ["MAX_TIMELINES", "step"]
