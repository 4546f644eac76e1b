"""A retreat pause (`PastRetreats.PAUSE`): units dislodged by a step retreat on their own
boards, ordered there, and no other order counts until they have.

How a pause ends depends on what the step that began it made:

- under `past_orders = named-boards` the boards after each dislodgement are made at once
  (a head's next board, a past board's fork); each waiting unit stands dislodged on one of
  them (`Multiverse.holder`) and retreats there (`held_retreats`);
- under `shared-places`, or from a world that starts in a pause, those boards are made once
  every unit has retreated (`solver.multiverse.rewritten.retreats`).

Either way the retreat is recorded on the board the unit was dislodged on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from ..cycle.retreats import adjudicate_retreats
from ..values.orders import (
    MOVEMENT_ORDERS,
    Disband,
    Given,
    Hold,
    Move,
    Place,
    Retreat,
    UnitRef,
    Waive,
)
from ..values.outcomes import Illegal, Illegality, Outcome, Result
from ..values.position import DislodgedUnit
from ..values.rules import RuleBook
from .state import (
    BoardKey,
    MBoard,
    Multiverse,
    MultiverseStep,
    Record,
    _plain,
    board_name,
    board_of,
    on_board,
    own_orders,
)


class PauseOrders(NamedTuple):
    """A pause's orders, sorted: the retreats and disbands of the waiting units by the
    board each was dislodged on, every other order illegal."""

    orders: list[Given]  # as given, a move read as a retreat
    by_board: dict[BoardKey, list[int]]  # indices of the orders for the units of each board
    units: dict[int, DislodgedUnit]  # the waiting unit each of those orders
    outcomes: list[Outcome | None]  # those settled already: the illegal ones


def sort_orders(mv: Multiverse, givens: Sequence[Given]) -> PauseOrders:
    """Read a pause's orders: a retreat or disband of a waiting unit counts, to a place of
    its own board (a retreat to another board is illegal, and the unit disbands if nothing
    else is ordered); any other order is illegal."""
    assert mv.pause is not None  # only a pause's orders are sorted
    waiting: dict[tuple[int | None, int | None, str], tuple[BoardKey, DislodgedUnit]] = {
        (k[0], k[1], d.unit.location.code): (k, d) for k, d in mv.pause.waiting
    }
    held: dict[tuple[int | None, int | None, str], str] = {}  # a waiting unit where a board
    # made already holds it: the place to order it from
    for key, d in mv.pause.waiting:
        holder = mv.holder(key, d)
        if holder is not None:
            place = on_board(d.unit.location, key)
            held[(*holder.key, d.unit.location.code)] = mv.names.location_name(place)
    orders = list(givens)
    found = PauseOrders(orders, {}, {}, [None] * len(givens))
    for i, given in enumerate(givens):
        order = given.order
        if isinstance(order, Move):
            order = Retreat(order.unit, order.dest)
            orders[i] = replace(given, order=order)
        here = order.unit.place if isinstance(order, Retreat | Disband) else None
        at = (here.timeline, here.turn, here.province) if here is not None else None
        entry = waiting.get(at) if at is not None else None
        if entry is None:
            elsewhere = held.get(at) if at is not None else None
            reason = (
                Illegal.because(Illegality.RETREAT_WHERE_DISLODGED, elsewhere)
                if elsewhere
                else Illegal.because(Illegality.RETREATS_FIRST)
            )
            found.outcomes[i] = Outcome(given, Result.ILLEGAL, reason=reason)
            continue
        key, dislodged = entry
        if isinstance(order, Retreat) and board_of(order.dest) not in (None, key):
            there = order.dest.text(mv.map)
            reason = Illegal.because(Illegality.RETREAT_OFF_BOARD, board_name(key), there)
            found.outcomes[i] = Outcome(given, Result.ILLEGAL, reason=reason)
            continue
        found.by_board.setdefault(key, []).append(i)
        found.units[i] = dislodged
    return found


def plain(given: Given) -> Given:
    """An order on a single board: its coordinates dropped."""
    return replace(given, order=_plain(given.order))


def held_retreats(mv: Multiverse, givens: Sequence[Given], rules: RuleBook) -> MultiverseStep:
    """End a pause whose boards are made already: each waiting unit retreats on the board
    that holds it (`Multiverse.holder`), which then goes on to its next phase; the retreat
    is recorded on the board it was dislodged on."""
    pause = mv.pause
    assert pause is not None  # the step calls this only in a pause
    found = sort_orders(mv, givens)
    orders, outcomes = found.orders, found.outcomes
    boards = {b.key: b for b in mv.boards}
    by_holder: dict[BoardKey, list[int]] = {}
    for key, unit in pause.waiting:
        by_holder.setdefault(_held(mv, key, unit), [])
    for key, indices in found.by_board.items():
        for i in indices:
            by_holder[_held(mv, key, found.units[i])].append(i)
    for held, indices in sorted(by_holder.items()):
        done = adjudicate_retreats(
            boards[held].position, [plain(orders[i]) for i in indices], rules
        )
        for i, outcome in zip(indices, done.outcomes, strict=True):
            outcomes[i] = replace(outcome, given=givens[i])
        boards[held] = replace(boards[held], position=done.after)
    for key in sorted({k for k, _ in pause.waiting}):
        mine = found.by_board.get(key, [])
        dislodged = [d for k, d in pause.waiting if k == key]
        made = [(orders[i], outcomes[i]) for i in mine]
        boards[key] = record_retreats(boards[key], dislodged, made)
    after = Multiverse(tuple(boards[k] for k in sorted(boards)), mv.origins)
    settled = tuple(o for o in outcomes if o is not None)
    assert len(settled) == len(outcomes)  # every order has its outcome
    return MultiverseStep(mv, settled, (), (), after)


def _held(mv: Multiverse, key: BoardKey, dislodged: DislodgedUnit) -> BoardKey:
    holder = mv.holder(key, dislodged)
    assert holder is not None  # the step ends only a held pause here
    return holder.key


def record_retreats(
    board: MBoard,
    dislodged: Sequence[DislodgedUnit],
    retreats: Sequence[tuple[Given, Outcome | None]],
) -> MBoard:
    """A board's record with its retreats, every unit that owed one marked dislodged (a
    unit of the world a case starts from may have no order recorded: it held)."""
    entries = own_orders(board)
    marked = []
    owing = {d.unit.location.code: d.unit for d in dislodged}
    found: set[str] = set()
    for given, outcome in entries:
        province = given.order.unit.place.province if not isinstance(given.order, Waive) else ""
        if province in owing and isinstance(given.order, MOVEMENT_ORDERS):
            outcome = replace(outcome, dislodged=True)
            found.add(province)
        marked.append((given, outcome))
    for province, unit in sorted(owing.items()):
        if province not in found:
            place = Place(province, unit.location.coast, *board.key)
            hold = Given(unit.power, Hold(UnitRef(place, unit.type)), board.position.map)
            marked.append((hold, Outcome(hold, Result.STANDS, dislodged=True)))
    for given, made in retreats:
        assert made is not None  # a retreat recorded is one adjudicated
        marked.append((given, made))
    marked.sort(key=lambda e: order_key(e[0]))
    decisions = dict(board.record.decisions) if board.record is not None else {}
    record = Record(tuple(g for g, _ in marked), decisions, tuple(o for _, o in marked))
    return replace(board, record=record)


def order_key(given: Given) -> tuple[int, str]:
    """Orders of a record: movement before retreats, then by the unit's province."""
    order = given.order
    assert not isinstance(order, Waive)
    return (not isinstance(order, MOVEMENT_ORDERS), order.unit.place.province)


__all__ = ["held_retreats", "record_retreats", "sort_orders"]
