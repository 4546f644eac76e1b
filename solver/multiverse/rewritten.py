"""A multiverse step that reads the past as O's engine does (`PastOrders.SHARED_PLACES`).

Rule set J adjudicates again only the past boards a new order names.  Rule set O, that of
Oliveriver's 5D engine, treats the whole history as one set of orders whose results a new
order can change:

- The orders adjudicated again are the new ones, every order that shares a place (a
  province of one board, coasts merged) with one of them, every order sharing a place with
  those, and so on (`touched`).  They are adjudicated together on the joint board, with the
  same equations as a single board; each keeps its new result in its board's record
  (`PastResults.REWRITTEN`; under `KEPT` the new results only make the next boards).
- Every head, and every board holding a place those orders name, makes its next board again
  from the results (`next_units`).  A head appends it.  A past board forks a new timeline
  only if no next board it has already (its timeline's own, or that of a timeline it forked
  before) holds the same units and centres (`ForkWhen.BOARD_DIFFERS`).
- A unit dislodged on any board, past ones too, retreats on its own board; until every such
  unit has, no board advances and only retreats are taken (`PastRetreats.PAUSE`; under
  `NEXT_BOARD` it is carried, dislodged, into the board made after its own).

See docs/multiverse.md for the rules, and docs/deviations.md where dipsat differs from that
engine's code.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from topology import Location, UnitType

from ..cycle.retreats import adjudicate_retreats
from ..judge.movement import judge
from ..judge.results import as_it_stands
from ..judge.retreat_options import retreating
from ..judge.solver_settings import SolverConfig
from ..values.calendar import after_movement
from ..values.decisions import DISLODGED, PATH, SEA, Decision
from ..values.orders import (
    MOVEMENT_ORDERS,
    Convoy,
    Disband,
    Given,
    Hold,
    Move,
    Place,
    Retreat,
    UnitRef,
    Waive,
    named_places,
)
from ..values.outcomes import Outcome, Result
from ..values.position import DislodgedUnit, PhaseKind, Position, Unit, opening_phase
from ..values.resolution import Resolution
from ..values.rules import ForkWhen, PastResults, PastRetreats, RepeatFork, RuleBook, Winters
from .joint import board_groups
from .pause import order_key, plain, record_retreats, sort_orders
from .spacetime import Reach, spacetime_board
from .state import (
    BoardKey,
    Fork,
    MBoard,
    Multiverse,
    Pause,
    Record,
    board_of,
    on_board,
    order_links,
    own_orders,
    parts,
    spot,
)

PlaceKey = tuple[int, int, str]  # (timeline, turn, province): a province of one board


@dataclass(frozen=True, slots=True)
class Moved:
    """What a movement step under a rewritten history comes to."""

    resolution: Resolution
    outcomes: tuple[Outcome, ...]  # one per new order, in order
    revised: tuple[Outcome, ...]  # recorded orders adjudicated again
    boards: dict[BoardKey, MBoard]  # boards changed (records rewritten) or made
    forks: tuple[Fork, ...]
    pause: Pause | None


# -- the orders of the whole history --------------------------------------------------------
def _unit_place(given: Given) -> PlaceKey | None:
    """The place of the unit an order is given to (None for a waived build, or a unit
    without its board)."""
    if isinstance(given.order, Waive):
        return None
    here = given.order.unit.place
    if here.timeline is None or here.turn is None:
        return None
    return (here.timeline, here.turn, here.province)


def places(given: Given) -> set[PlaceKey]:
    """The provinces of boards an order names (its unit's, the supported or convoyed unit's,
    its destination)."""
    return {
        (p.timeline, p.turn, p.province)
        for p in named_places(given.order)
        if p.timeline is not None and p.turn is not None
    }


def touched(new: Iterable[Given], history: Iterable[Given]) -> list[Given]:
    """The recorded orders adjudicated again: those sharing a place with a new order, or
    with an order already found, and so on (every order of the history takes part, illegal
    ones too), in the history's order."""
    history = list(history)
    by_place: dict[PlaceKey, list[Given]] = {}
    for given in history:
        for key in places(given):
            by_place.setdefault(key, []).append(given)
    seen: set[PlaceKey] = set()
    found: set[Given] = set()
    frontier = [key for g in new for key in places(g)]
    while frontier:
        key = frontier.pop()
        if key in seen:
            continue
        seen.add(key)
        for given in by_place.get(key, ()):
            if given not in found:
                found.add(given)
                frontier += places(given)
    return [g for g in history if g in found]  # not the search's order: that follows hashes


# -- the next board, from the results ------------------------------------------------------
class Results:
    """The recorded result of every order of the history, indexed for making next boards.

    `carried`: the boards whose moves into another board bring the unit into that board's
    next board made again (None: every board's).  A fork made when an outcome changed
    (`ForkWhen.OUTCOME_CHANGED`, rule set J) takes only the arrivals of this step, from its
    heads: a unit that went to the board by an earlier order lives in the timeline its
    arrival made, as `solver.multiverse.step` keeps it, and is not carried into the fork."""

    def __init__(
        self, boards: Mapping[BoardKey, MBoard], carried: Collection[BoardKey] | None = None
    ) -> None:
        self.boards = boards
        self.carried = carried
        self.own: dict[PlaceKey, Outcome] = {}  # a unit's movement order, by its place
        self.retreats: dict[PlaceKey, Location] = {}  # where a dislodged unit retreated
        self.ended: set[PlaceKey] = set()  # dislodged units ordered to retreat or disband
        self.arrivals: dict[BoardKey, list[Unit]] = {}
        self.attacks: dict[PlaceKey, tuple[str, bool]] = {}  # a place moved into: the
        # province the move came from ("" from another board), and whether by convoy
        self.bounced: dict[PlaceKey, int] = {}  # moves into a place that failed
        for key in sorted(boards):
            for given, outcome in own_orders(boards[key]):
                order = given.order
                assert not isinstance(order, Waive)  # own_orders leaves waived builds out
                here = (key[0], key[1], order.unit.place.province)
                if isinstance(order, Retreat | Disband):
                    self.ended.add(here)
                if isinstance(order, Retreat):
                    if outcome.result is Result.SUCCEEDS:
                        self.retreats[here] = Location(order.dest.province, order.dest.coast)
                elif isinstance(order, MOVEMENT_ORDERS):
                    self.own[here] = outcome
                    if isinstance(order, Move) and _moved(outcome):
                        self._arrive(boards[key], order)
                        self._attack(key, order)
                    elif isinstance(order, Move) and outcome.result is Result.FAILS:
                        into = board_of(order.dest)
                        if into is not None:
                            there = (*into, order.dest.province)
                            self.bounced[there] = self.bounced.get(there, 0) + 1
        self._bounced_on: dict[BoardKey, list[tuple[str, int]]] = {}  # `bounced`, by board
        for (t, n, p), count in self.bounced.items():
            self._bounced_on.setdefault((t, n), []).append((p, count))
        self._next: dict[tuple[BoardKey, bool], tuple[Unit, ...]] = {}  # `next_units`, kept

    def _arrive(self, board: MBoard, move: Move) -> None:
        dest = board_of(move.dest)
        unit = board.position.unit_in(move.unit.place.province)
        if dest is None or unit is None:
            return
        if dest != board.key and self.carried is not None and board.key not in self.carried:
            return  # an earlier arrival from another board: not carried (see the class)
        there = Location(move.dest.province, move.dest.coast)
        if unit.type is UnitType.FLEET and there.coast is None:
            if move.dest.province == unit.province:
                there = unit.location  # its own place on another board: the same coast
            else:
                coasts = board.position.map.fleet_coasts_towards(unit.location, there.province)
                there = Location(there.province, coasts[0] if coasts else None)
        self.arrivals.setdefault(dest, []).append(Unit(there, unit.type, unit.power))

    def _attack(self, key: BoardKey, move: Move) -> None:
        into = board_of(move.dest)
        if into is None:
            return
        record = self.boards[key].record
        decisions = record.decisions if record is not None else {}
        mover = spot(move.unit.place.province, *key)
        by_convoy = (PATH, mover) in decisions and decisions.get((SEA, mover), True)
        origin = move.unit.place.province if into == key else ""
        self.attacks[(*into, move.dest.province)] = (origin, by_convoy)

    def owed(self, key: BoardKey) -> tuple[DislodgedUnit, ...]:
        """The units dislodged on a board that made no retreat there: each owes it on the
        board made after (`PastRetreats.NEXT_BOARD`), with where its attacker came from."""
        found = []
        for unit in self.boards[key].position.units:
            here = (key[0], key[1], unit.location.code)
            if self.dislodged(key, unit) and here not in self.ended:
                origin, by_convoy = self.attacks.get(here, ("", False))
                found.append(DislodgedUnit(unit, origin, by_convoy))
        return tuple(found)

    def dislodged(self, key: BoardKey, unit: Unit) -> bool:
        """Was the unit dislodged on its board (by its order's result, or by the board's
        recorded decisions: a unit that held without an order has no result)?"""
        found = self.own.get((key[0], key[1], unit.location.code))
        if found is not None and (found.dislodged or found.destroyed):
            return True
        record = self.boards[key].record
        return record is not None and record.decisions.get(
            (DISLODGED, spot(unit.location.code, *key)), False
        )

    def next_units(self, key: BoardKey, retreated: bool = True) -> tuple[Unit, ...]:
        """The units a board's next board starts with: those that did not leave it (moved
        away, or dislodged and not retreated), and those that arrived from any board.
        Worked out once per board: a board is asked again for each unit dislodged on it."""
        found = self._next.get((key, retreated))
        if found is None:
            found = self._next[(key, retreated)] = self._next_units(key, retreated)
        return found

    def _next_units(self, key: BoardKey, retreated: bool) -> tuple[Unit, ...]:
        units = []
        for unit in self.boards[key].position.units:
            here = (key[0], key[1], unit.location.code)
            outcome = self.own.get(here)
            if outcome is not None and _moved(outcome):
                continue
            if self.dislodged(key, unit):
                if retreated and here in self.retreats:
                    units.append(Unit(self.retreats[here], unit.type, unit.power))
                continue
            units.append(unit)
        return tuple(sorted(units + self.arrivals.get(key, [])))

    def standoffs(self, key: BoardKey) -> frozenset[str]:
        """The provinces of a board left empty by a standoff: two or more moves into it
        failed, and no unit is there after the movement."""
        held = {u.province for u in self.next_units(key, retreated=False)}
        return frozenset(
            p for p, count in self._bounced_on.get(key, ()) if count > 1 and p not in held
        )


def _moved(outcome: Outcome) -> bool:
    return isinstance(outcome.given.order, Move) and outcome.result is Result.SUCCEEDS


def same_contents(a: Position, b: Position) -> bool:
    """Do two boards hold the same units, dislodged units and centres (what decides a
    fork)?"""
    return (
        set(a.units) == set(b.units)
        and set(a.centres) == set(b.centres)
        and set(a.dislodged) == set(b.dislodged)
    )


def regenerate(
    boards: Mapping[BoardKey, MBoard],
    keys: Iterable[BoardKey],
    origins: dict[int, BoardKey | None],
    rules: RuleBook,
    changed: Collection[BoardKey] = (),
    owed: bool = False,
    *,
    heads: Collection[BoardKey],
) -> tuple[dict[BoardKey, MBoard], list[Fork]]:
    """Make the next board of each board given, earliest first (then by timeline): a head
    appends it; a past board forks unless a next board it has already holds the same
    (`ForkWhen.BOARD_DIFFERS`: every unit that arrived there, by any order, is in it), or
    only if it is among the `changed` boards, where an outcome changed
    (`ForkWhen.OUTCOME_CHANGED`; then a fork it made before that starts the same is
    reused, if `repeat_fork` says so, and of the units that arrived from other boards only
    those of this step, moved from the `heads`, are in it: see `Results`).  With `owed`, a
    unit dislodged there that made no retreat is carried into the next board, which opens
    in a retreat phase (`PastRetreats.NEXT_BOARD`)."""
    by_outcome = rules.fork_when is ForkWhen.OUTCOME_CHANGED

    def every_winter() -> bool:  # read only after a fall where no power adjusts
        return rules.winters is Winters.ALWAYS

    results = Results(boards, heads if by_outcome else None)
    made: dict[BoardKey, MBoard] = {}
    forks: list[Fork] = []
    for key in sorted(set(keys), key=lambda k: (k[1], k[0])):
        board = boards[key]
        if board.position.phase.kind is not PhaseKind.MOVEMENT:
            continue
        units = results.next_units(key)
        owes = results.owed(key) if owed else ()
        standoffs = results.standoffs(key) if owes else frozenset()
        nxt = after_movement(board.position, units, owes, standoffs, every_winter)
        later = (key[0], key[1] + 1)
        if later not in boards:
            made[later] = MBoard(later[0], later[1], nxt, created=nxt)
            continue
        if by_outcome and key not in changed:
            continue
        children = [] if by_outcome else [later]
        if rules.repeat_fork is RepeatFork.REUSE_IDENTICAL:
            children += [(t, key[1] + 1) for t, source in origins.items() if source == key]
        existing = [boards.get(k) or made.get(k) for k in children]
        if any(b is not None and same_contents(b.created or b.position, nxt) for b in existing):
            continue
        timeline = max(origins) + 1
        origins[timeline] = key
        forks.append(Fork(timeline, key))
        made[(timeline, key[1] + 1)] = MBoard(timeline, key[1] + 1, nxt, created=nxt)
    return made, forks


# -- a movement step ---------------------------------------------------------------------
def movement(
    mv: Multiverse,
    boards: Mapping[BoardKey, MBoard],
    heads: set[BoardKey],
    givens: Sequence[Given],
    rules: RuleBook,
    config: SolverConfig | None,
) -> Moved:
    """The movement of the heads, with every order of the history the new ones touch."""
    base = boards[min(heads)].position.map  # names the places of the orders made here
    ordered = {_unit_place(g) for g in givens}
    holds = [
        Given(u.power, Hold(UnitRef(Place(u.location.code, u.location.coast, *k), u.type)), base)
        for k in sorted(heads)
        for u in boards[k].position.units
        if (k[0], k[1], u.province) not in ordered
    ]
    new = [*givens, *holds]
    recorded = {
        g: o
        for k in sorted(boards)
        for g, o in own_orders(boards[k])
        if isinstance(g.order, MOVEMENT_ORDERS)
    }
    fresh = set(new)
    again = [g for g in touched(new, recorded) if g not in fresh]
    keys = {key for g in [*new, *again] for key in places(g)}
    joint = heads | {(t, turn) for t, turn, _ in keys if (t, turn) in boards}
    # A move recorded illegal stays so (its unit held), unless a new convoy order now
    # offers it a route; supports and convoys are judged again (they may match now).
    convoyed = {(g.order.army.place, g.order.dest) for g in new if isinstance(g.order, Convoy)}
    stays_illegal = {
        g: Given(g.power, Hold(g.order.unit), base)
        for g in again
        if isinstance(g.order, Move)
        and recorded[g].result is Result.ILLEGAL
        and (g.order.unit.place, g.order.dest) not in convoyed
    }
    every = new + [stays_illegal.get(g, g) for g in again]
    units = [
        Unit(on_board(u.location, k), u.type, u.power)
        for k in sorted(joint)
        for u in boards[k].position.units
        if k in heads or (k[0], k[1], u.province) in keys
    ]
    # A unit of the past with no order recorded held (a case's world may give none).
    ordered_places = {_unit_place(g) for g in every}
    for u in units:
        province, k = parts(u.province)
        if (k[0], k[1], province) not in ordered_places:
            plain = Place(province, u.location.coast, *k)
            every.append(Given(u.power, Hold(UnitRef(plain, u.type)), base))
    links = order_links(every, joint, every)
    st_board = spacetime_board(base, joint, mv.origin_map(), links, Reach.of(rules))
    joint_position = Position(opening_phase(base), tuple(units), board=st_board)  # movement
    judged = judge(joint_position, every, rules)
    resolution = judged.settle(config, {}, board_groups(st_board)).resolution(as_it_stands)
    result = dict(zip(every, resolution.outcomes, strict=True))
    for g, hold in stays_illegal.items():  # the old result, with the unit's fate now
        fate = result.pop(hold)
        result[g] = replace(recorded[g], dislodged=fate.dislodged, destroyed=fate.destroyed)

    decided: dict[BoardKey, dict[Decision, bool]] = {}
    for decision, value in resolution.values.items():
        decided.setdefault(parts(decision[1])[1], {})[decision] = value
    again = [g for g in result if g not in fresh]
    changed = _rewrite(boards, new, again, result, decided)
    changed_boards = {**boards, **changed}
    if rules.past_results is PastResults.KEPT:  # the new results make the next boards only
        changed = {k: b for k, b in changed.items() if k in heads}
    regenerated = heads | {(t, turn) for t, turn, _ in keys if (t, turn) in boards}
    outcomes = tuple(result[g] for g in givens)
    revised = tuple(result[g] for g in again)
    differs = _outcome_changed(heads, new, again, recorded, result)
    if rules.fork_when is ForkWhen.OUTCOME_CHANGED:  # only those can fork, then
        regenerated = heads | differs
    if rules.past_retreats is PastRetreats.PAUSE:
        waiting = _waiting(resolution, changed_boards, rules)
        if waiting:
            pause = Pause(waiting, tuple(sorted(regenerated)))
            return Moved(resolution, outcomes, revised, changed, (), pause)
    origins = mv.origin_map()
    owed = rules.past_retreats is PastRetreats.NEXT_BOARD
    made, forks = regenerate(
        changed_boards, regenerated, origins, rules, differs, owed, heads=heads
    )
    return Moved(resolution, outcomes, revised, {**changed, **made}, tuple(forks), None)


def _waiting(
    resolution: Resolution, boards: Mapping[BoardKey, MBoard], rules: RuleBook
) -> tuple[tuple[BoardKey, DislodgedUnit], ...]:
    """The units a movement dislodged that have somewhere to retreat, each with its board:
    those a retreat pause waits for."""
    results = Results(boards)
    waiting: list[tuple[BoardKey, DislodgedUnit]] = []
    for entry in resolution.dislodged:
        province, key = parts(entry.unit.province)
        origin, origin_key = parts(entry.attacker_from)
        unit = Unit(
            Location(province, entry.unit.location.coast), entry.unit.type, entry.unit.power
        )
        dislodged = DislodgedUnit(unit, origin if origin_key == key else "", entry.by_convoy)
        position = retreat_position(boards[key], results, [dislodged])
        if retreating(position, dislodged, rules).options:
            waiting.append((key, dislodged))
    return tuple(sorted(waiting, key=lambda w: (w[0], w[1].unit.province)))


def _outcome_changed(
    heads: set[BoardKey],
    new: Sequence[Given],
    again: Sequence[Given],
    recorded: Mapping[Given, Outcome],
    result: Mapping[Given, Outcome],
) -> set[BoardKey]:
    """The past boards where an outcome changed: a move into one comes out differently
    from its record (a new one succeeds), or a unit on one is dislodged, or no longer."""
    found: set[BoardKey] = set()
    for given in [*new, *again]:
        order, now = given.order, result[given]
        before = recorded.get(given) if recorded else None  # a Given hashes slowly
        if isinstance(order, Waive):
            continue
        if isinstance(order, Move):
            into = board_of(order.dest)
            if into is not None and (before is not None and _moved(before)) != _moved(now):
                found.add(into)
        here = board_of(order.unit.place)
        if here is not None and (before is not None and before.dislodged) != now.dislodged:
            found.add(here)
    return found - heads


def _rewrite(
    boards: Mapping[BoardKey, MBoard],
    new: Sequence[Given],
    again: Sequence[Given],
    result: Mapping[Given, Outcome],
    decided: Mapping[BoardKey, Mapping[Decision, bool]],
) -> dict[BoardKey, MBoard]:
    """The boards whose records change: the heads record their new orders, and every
    recorded order adjudicated again keeps its new result, as do the decisions on its board
    (a unit's old retreat goes)."""
    by_board: dict[BoardKey, list[Given]] = {}
    for given in [*new, *again]:
        key = board_of(given.order.unit.place) if not isinstance(given.order, Waive) else None
        if key is not None and key in boards:
            by_board.setdefault(key, []).append(given)
    changed: dict[BoardKey, MBoard] = {}
    for key in decided:
        if key in boards:
            by_board.setdefault(key, [])
    for key, mine in sorted(by_board.items()):
        board = boards[key]
        redone = {g.order.unit.place.province for g in mine if not isinstance(g.order, Waive)}
        kept = [
            (g, o)
            for g, o in own_orders(board)
            if g not in result
            and not (
                isinstance(g.order, Retreat | Disband) and g.order.unit.place.province in redone
            )
        ]
        entries = sorted([*kept, *((g, result[g]) for g in mine)], key=lambda e: order_key(e[0]))
        decisions = dict(board.record.decisions) if board.record is not None else {}
        decisions.update(decided.get(key, {}))
        record = Record(tuple(g for g, _ in entries), decisions, tuple(o for _, o in entries))
        changed[key] = replace(board, record=record)
    return changed


def retreat_position(
    board: MBoard,
    results: Results,
    dislodged: Sequence[DislodgedUnit],
) -> Position:
    """A board after its movement, with its dislodged units owing their retreats."""
    gone = {d.unit.province for d in dislodged}
    units = tuple(
        u
        for u in results.next_units(board.key, retreated=False)
        if u.province not in gone or u not in board.position.units
    )
    return after_movement(board.position, units, tuple(dislodged), results.standoffs(board.key))


# -- the end of a retreat pause ------------------------------------------------------------
def retreats(
    mv: Multiverse, givens: Sequence[Given], rules: RuleBook
) -> tuple[tuple[Outcome, ...], Multiverse, tuple[Fork, ...]]:
    """The retreats of a pause, each on its unit's board; then every board the movement
    reached (and every head) makes its next board."""
    pause = mv.pause
    assert pause is not None  # the step calls this only in a pause
    found = sort_orders(mv, givens)
    orders, outcomes = found.orders, found.outcomes
    boards = dict((b.key, b) for b in mv.boards)
    results = Results(boards)
    for key in sorted({k for k, _ in pause.waiting}):
        mine = found.by_board.get(key, [])
        dislodged = [d for k, d in pause.waiting if k == key]
        position = retreat_position(boards[key], results, dislodged)
        done = adjudicate_retreats(position, [plain(orders[i]) for i in mine], rules)
        for i, outcome in zip(mine, done.outcomes, strict=True):
            outcomes[i] = replace(outcome, given=givens[i])
        made = [(orders[i], outcomes[i]) for i in mine]
        boards[key] = record_retreats(boards[key], dislodged, made)
        # a unit ordered off its board is disbanded: nothing recorded moves it
    origins = mv.origin_map()
    heads = {b.key for b in mv.heads().values()}
    keys = set(pause.boards) | {k for k, _ in pause.waiting} | heads
    made_boards, forks = regenerate(boards, keys, origins, rules, keys - heads, heads=heads)
    merged = {**boards, **made_boards}
    after = Multiverse(tuple(merged[k] for k in sorted(merged)), tuple(sorted(origins.items())))
    done_outcomes = tuple(o for o in outcomes if o is not None)
    assert len(done_outcomes) == len(outcomes)  # every order has its outcome
    return done_outcomes, after, tuple(forks)


__all__ = ["Moved", "movement", "regenerate", "retreats", "touched"]
