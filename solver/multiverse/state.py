"""The multiverse as values: timelines of boards, each board's position and record.

A multiverse is a tree of timelines.  Each timeline is a sequence of boards addressed by
(timeline, turn): turn 0 is Spring of the map's first year (1901 on the standard map),
turn 1 its Fall, and so on.  Every board's position carries the map, so a multiverse is
played on any map.  A board holds the position at the start of its turn (a head board may
first owe a retreat or an adjustment phase) and, once adjudicated, the record of its
movement: orders, decisions, outcomes.
`solver.multiverse.step` adjudicates a step; nothing here adjudicates.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from topology import Board, Key, Location, Spot

from ..errors import OrderSyntaxError, expect_type
from ..values.calendar import game_status
from ..values.decisions import Decision
from ..values.notation import parse_given, read_order_lines
from ..values.orders import (
    Convoy,
    Disband,
    Given,
    Order,
    Place,
    Retreat,
    UnitRef,
    Waive,
    apply_board_defaults,
    named_places,
    timeline_name,
)
from ..values.outcomes import Outcome
from ..values.pictures import picture
from ..values.position import DislodgedUnit, Phase, PhaseKind, Position, Season, Unit
from ..values.resolution import Resolution
from ..values.rules import DATC_2025, RuleBook, Victory, named_rules

BoardKey = tuple[int, int]  # (timeline, turn)


def spot(province: str, timeline: int, turn: int) -> Spot:
    """A province of the map on one board of the multiverse."""
    return Spot(province, timeline, turn)


def parts(key: Key) -> tuple[str, BoardKey]:
    """A province of the joint board as the map's province and its board."""
    assert isinstance(key, Spot), f"{key!r} is a province of a map, not of a joint board"
    return key.province, key.board


def on_board(location: Location, key: BoardKey) -> Location:
    """A place of the map, on one board of the joint board."""
    return Location(Spot(location.code, *key), location.coast)


def on_map(location: Location) -> tuple[Location, BoardKey]:
    """A place of the joint board as the map's place, and its board."""
    province, board = parts(location.province)
    return Location(province, location.coast), board


Origins = Mapping[int, BoardKey | None]


@dataclass(frozen=True, slots=True)
class SpotNames:
    """Names the places of a multiverse's boards as the MDATC letter notation writes them,
    ``"b-St Petersburg(nc)@1"`` (a plain place as the map names it)."""

    map: Board

    def location_name(self, location: Location) -> str:
        if not isinstance(location.province, Spot):
            return self.map.location_name(location)
        plain, (timeline, turn) = on_map(location)
        return f"{timeline_name(timeline)}-{self.map.location_name(plain)}@{turn}"


def turn_phase(turn: int, board: Board) -> Phase:
    """The movement phase of a turn on a map: 0 is Spring of its first year (Spring 1901 on
    the standard map, Spring 1 on ancmed), 1 the Fall of that year, 2 the next Spring."""
    season = Season.FALL if turn % 2 else Season.SPRING
    return Phase(board.start_year + turn // 2, season, PhaseKind.MOVEMENT)


def board_turn(phase: Phase, board: Board) -> int:
    """The turn of the board a phase belongs to on a map (the inverse of `turn_phase`): a
    movement phase is its own turn; a retreat or winter adjustment is owed by the board of
    the next turn."""
    turn = 2 * (phase.year - board.start_year) + (phase.season is not Season.SPRING)
    return turn if phase.kind is PhaseKind.MOVEMENT else turn + 1


@dataclass(frozen=True, slots=True)
class Record:
    """What a board's movement phase came to."""

    orders: tuple[Given, ...]  # with full coordinates
    decisions: Mapping[Decision, bool]  # keyed by the joint board's spots ('mun@0:1')
    outcomes: tuple[Outcome, ...]


@dataclass(frozen=True, slots=True)
class MBoard:
    timeline: int
    turn: int
    position: Position  # on the game's map; its phase says what is owed next
    record: Record | None = None
    created: Position | None = None  # the position the board started with (for forks)

    @property
    def key(self) -> BoardKey:
        return (self.timeline, self.turn)

    @property
    def name(self) -> str:
        """'b@1': the board's timeline letter and turn."""
        return board_name(self.key)


@dataclass(frozen=True, slots=True)
class Pause:
    """A retreat pause (`PastRetreats.PAUSE`, rule set O): units dislodged on boards of the
    past or present retreat on their own boards, and no other order counts until they have."""

    waiting: tuple[tuple[BoardKey, DislodgedUnit], ...]  # each with the board it stands on
    boards: tuple[BoardKey, ...]  # the boards whose next board is made once they retreat
    # (none when those boards are made already: see `Multiverse.holder`)


@dataclass(frozen=True)
class Multiverse:
    boards: tuple[MBoard, ...]  # sorted by (timeline, turn)
    origins: tuple[tuple[int, BoardKey | None], ...]  # each timeline and the board it left
    pause: Pause | None = None
    won: str | None = None  # the power that had won when the last step ended: no more steps

    @classmethod
    def start(cls, position: Position) -> Multiverse:
        """A single timeline 'a' whose only board holds the given position (on any map:
        the turn counts from the Spring of the map's first year)."""
        expect_type("position", position, Position, "a Position")
        turn = board_turn(position.phase, position.map)
        return cls((MBoard(0, turn, position),), ((0, None),))

    def board(self, key: BoardKey) -> MBoard | None:
        return next((b for b in self.boards if b.key == key), None)

    def heads(self) -> dict[int, MBoard]:
        heads: dict[int, MBoard] = {}
        for b in self.boards:
            if b.timeline not in heads or heads[b.timeline].turn < b.turn:
                heads[b.timeline] = b
        return heads

    @property
    def map(self) -> Board:
        """The map every board of the multiverse is on."""
        return self.boards[0].position.map

    def origin_map(self) -> dict[int, BoardKey | None]:
        return dict(self.origins)

    def read(self, text: str) -> Given:
        """An order for the next step, in either multiverse notation, its coordinates
        completed (`complete`); an order to a head that owes a retreat reads as a retreat.

        Raises:
            TypeError: `text` is not text.
            OrderSyntaxError: no order reads so.
        """
        expect_type("text", text, str, "an order as text")
        return self._completed(text, parse_given(text, self.map))

    def _completed(self, text: str, given: Given) -> Given:
        """The order `given` read from `text`, completed; read again as a retreat if it
        orders a unit of a head that owes one (the power a header gave it kept)."""
        heads = self.heads()
        given = complete(self, given, heads)
        if isinstance(given.order, Waive):
            return given
        place = given.order.unit.place
        head = heads.get(place.timeline) if place.timeline is not None else None
        if head is None or head.turn != place.turn:
            return given
        if head.position.phase.kind is not PhaseKind.RETREAT:
            return given
        again = parse_given(text, self.map, "retreat")
        return complete(self, replace(again, power=again.power or given.power), heads)

    def _lines(self, text: str) -> list[Given]:
        """The orders of a text as `solver.parse_orders` reads them (comments, 'Power:'
        headers, the line in an error), each completed."""
        found = []
        for number, line, given in read_order_lines(text, self.map):
            try:
                found.append(self._completed(line.split("#", 1)[0], given))
            except OrderSyntaxError as err:
                raise OrderSyntaxError(err.message, err.text, err.column, number) from None
        return found

    def step(
        self, orders: str | Iterable[str | Given], rules: str | RuleBook = "2025"
    ) -> MultiverseStep:
        """Adjudicate every head board once (`solver.multiverse.step.step`): the orders as
        values, lines or one text (read as `solver.parse_orders` reads it), under a rule
        book or the name of one.

        Raises:
            TypeError: `orders` is not text nor a list of orders and lines, or `rules` is
                not a rule book nor a name.
            DipsatError: an order that cannot be read, no rule book of that name, or a
                step the multiverse cannot take (see `solver.multiverse.step.step`).
        """
        from .step import step

        if isinstance(orders, str):
            givens = self._lines(orders)
        else:
            expect_type("orders", orders, Iterable, "the orders as text or a list of orders")
            givens = []
            for order in orders:
                expect_type("orders", order, (str, Given), "an order (a Given) or its text")
                givens.append(self.read(order) if isinstance(order, str) else order)
        return step(self, givens, named_rules(rules))

    @property
    def phase(self) -> None:
        """A step plays whatever phase each head owes."""
        return None

    @property
    def names(self) -> SpotNames:
        return SpotNames(self.map)

    def standing(self) -> tuple[Unit, ...]:
        """The units on the head boards, each on its board's `Spot`."""
        heads = self.heads().values()
        return tuple(
            sorted(
                Unit(on_board(u.location, h.key), u.type, u.power)
                for h in heads
                for u in h.position.units
            )
        )

    def units_on(self, key: BoardKey) -> tuple[Unit, ...]:
        """The units a board holds (at the start of its turn), each on its board's `Spot`."""
        board = self.board(key)
        units = board.position.units if board is not None else ()
        return tuple(sorted(Unit(on_board(u.location, key), u.type, u.power) for u in units))

    def awaiting(self) -> tuple[Unit, ...]:
        """The units owing a retreat: on the head boards, and in a retreat pause on any
        board (where it is ordered: the board it was dislodged on); each on its board's
        `Spot`."""
        waiting = list(self.pause.waiting) if self.pause is not None else []
        held = {(h.key, d) for k, d in waiting if (h := self.holder(k, d)) is not None}
        heads = self.heads().values()
        waiting += [
            (h.key, d) for h in heads for d in h.position.dislodged if (h.key, d) not in held
        ]
        return tuple(
            sorted(
                Unit(on_board(d.unit.location, k), d.unit.type, d.unit.power) for k, d in waiting
            )
        )

    def holder(self, key: BoardKey, dislodged: DislodgedUnit) -> MBoard | None:
        """In a retreat pause, the board a unit dislodged on board `key` stands on, owing
        its retreat, if that board was made already: a head one turn later, of its own
        timeline or of one forked from it, in its retreat phase (`past_orders =
        named-boards`; under `shared-places` the boards are made after the retreats)."""
        origins = self.origin_map()
        for head in self.heads().values():
            if (
                head.turn == key[1] + 1
                and (head.timeline == key[0] or origins.get(head.timeline) == key)
                and dislodged in head.position.dislodged
            ):
                return head
        return None

    def board_names(self) -> tuple[str, ...]:
        return tuple(sorted(b.name for b in self.boards))

    def __str__(self) -> str:
        heads = {b.key for b in self.heads().values()}
        lines = [f"multiverse: {len(self.origins)} timeline(s), {len(self.boards)} board(s)"]
        for board in self.boards:
            mark = " (head)" if board.key in heads else ""
            lines.append(f"{board.name}{mark}: {board.position.phase}")
            lines += [f"  {line}" for line in str(board.position).splitlines()[1:]]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Multiverse: {len(self.origins)} timeline(s), {len(self.boards)} board(s)>"

    def _repr_svg_(self) -> str:
        """Every board, as a grid of timelines and turns (in a notebook;
        `solver.render.notebook`)."""
        return picture(self)


@dataclass(frozen=True, slots=True)
class Fork:
    timeline: int
    source: BoardKey  # the past board it branched off

    def __str__(self) -> str:
        """'c from b@0', as a case's AFTER section writes it."""
        return f"{timeline_name(self.timeline)} from {board_name(self.source)}"


@dataclass(frozen=True)
class MultiverseStep:
    before: Multiverse
    outcomes: tuple[Outcome, ...]  # one per submitted order
    revised: tuple[Outcome, ...]  # recorded orders of past boards, adjudicated again
    forks: tuple[Fork, ...]
    after: Multiverse
    resolution: Resolution | None = None
    waiting: tuple[tuple[Unit, tuple[Location, ...]], ...] = ()  # in a retreat pause after
    # the step, each waiting unit with where it may go on its whole board (the joint turn
    # sees only the places it adjudicated again)

    @property
    def movement(self) -> Resolution | None:
        """The joint movement of the step, if the heads moved."""
        return self.resolution

    @property
    def civil_disorder(self) -> None:
        """Adjustments on the boards are not reported step by step."""
        return None

    def label(self, number: int) -> str:
        return f"step {number}"

    def __str__(self) -> str:
        lines = [f"{o}" for o in self.outcomes]
        if self.revised:
            lines.append("adjudicated again:")
            lines += [f"  {o}" for o in self.revised]
        for fork in self.forks:
            source = board_name(fork.source)
            lines.append(f"timeline {timeline_name(fork.timeline)} forks from {source}")
        heads = sorted(self.after.heads().values(), key=lambda b: b.key)
        lines += [f"head {b.name}: {b.position.phase}" for b in heads]
        if self.after.pause is not None:
            names = self.after.names
            waiting = ", ".join(u.text(names) for u in self.after.awaiting())
            lines.append(f"no board advances until these retreat: {waiting}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"<MultiverseStep: {len(self.outcomes)} order(s), {len(self.revised)} revised, "
            f"{len(self.forks)} fork(s)>"
        )

    def _repr_svg_(self) -> str:
        """The multiverse after the step, with the step's orders (in a notebook;
        `solver.render.notebook`)."""
        return picture(self)


# -- coordinates -----------------------------------------------------------------------------
def _places(order: Order, change: Callable[[Place], Place]) -> Order:
    """The order with `change` applied to every place it names."""
    if isinstance(order, Waive):
        return order
    fields: dict[str, Any] = {}
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
    if all(p.timeline is not None and p.turn is not None for p in named_places(given.order)):
        return given  # nothing left out: the order stands as written
    heads = mv.heads() if heads is None else heads

    def head_turn(place: Place) -> Place:
        if place.timeline is not None and place.turn is None and place.timeline in heads:
            return replace(place, turn=heads[place.timeline].turn)
        return place

    order = _places(given.order, head_turn)
    if isinstance(order, Waive):
        return replace(given, order=order)
    here = order.unit.place
    if here.timeline is None and here.turn is None and len(heads) == 1:
        (only,) = heads.values()
        here = replace(here, timeline=only.timeline, turn=only.turn)
        order = replace(order, unit=replace(order.unit, place=here))
    return replace(given, order=apply_board_defaults(order, here.timeline, here.turn))


def _recorded(board: MBoard) -> tuple[Given, ...]:
    """The orders a board recorded for its movement (none for a board not yet adjudicated;
    the retreats of a pause, recorded with them, are not adjudicated again)."""
    if board.record is None:
        return ()
    return tuple(g for g in board.record.orders if not isinstance(g.order, Retreat | Disband))


def own_orders(board: MBoard) -> list[tuple[Given, Outcome]]:
    """The orders recorded on a board for its own units, with their results."""
    if board.record is None:
        return []
    return [
        (g, o)
        for g, o in zip(board.record.orders, board.record.outcomes, strict=True)
        if not isinstance(g.order, Waive) and board_of(g.order.unit.place) == board.key
    ]


def board_name(key: BoardKey) -> str:
    return f"{timeline_name(key[0])}@{key[1]}"


def board_of(place: Place) -> BoardKey | None:
    if place.timeline is None or place.turn is None:
        return None
    return (place.timeline, place.turn)


def _boards_named(order: Order) -> set[BoardKey]:
    return {
        (p.timeline, p.turn)
        for p in named_places(order)
        if p.timeline is not None and p.turn is not None
    }


def order_links(
    orders: Iterable[Given],
    joint: Collection[BoardKey],
    convoys: Iterable[Given],
    known: Sequence[set[BoardKey]] = (),
) -> set[tuple[BoardKey, BoardKey]]:
    """The pairs of boards of a joint turn that some order spans (the boards it names), and
    the boards of the convoy orders for one army and destination: fleets on several boards
    may carry it.  Other borders between boards change nothing, and leaving them out keeps a
    step with many timelines linear.  `known`: the boards each of the first orders names,
    when the caller has them (`_boards_named`)."""
    links: set[tuple[BoardKey, BoardKey]] = set()
    for i, given in enumerate(orders):
        boards = known[i] if i < len(known) else _boards_named(given.order)
        if len(boards) < 2:
            continue  # an order on its own board links none (most orders)
        named = sorted(k for k in boards if k in joint)
        links |= {(a, b) for a in named for b in named if a < b}
    convoying: dict[tuple[Place, Place], set[BoardKey]] = {}
    for given in convoys:
        if isinstance(given.order, Convoy):
            key = (given.order.army.place, given.order.dest)
            convoying.setdefault(key, set()).update(_boards_named(given.order))
    for boards_of in convoying.values():
        links |= {(a, b) for a in boards_of for b in boards_of if a < b}
    return links


def _plain(order: Order) -> Order:
    """The order on a single board: coordinates dropped."""
    return _places(order, lambda p: Place(p.province, p.coast))


def winner(mv: Multiverse, rules: RuleBook = DATC_2025) -> str | None:
    """The power that has won the multiverse, if any (a rule-book choice, see Victory)."""
    heads = list(mv.heads().values())
    board = mv.map
    owned: dict[str, set[str]] = {power: set() for power in board.powers}
    for head in heads:  # one pass over the centres of every head
        for p, owner in head.position.centres:
            if owner in owned:
                owned[owner].add(p)
    counts = {power: len(centres) for power, centres in owned.items()}
    best = max(counts.values())
    if best < board.victory:  # no one can have won, whatever the rule (read it only then)
        return None
    if rules.victory is Victory.ANY_HEAD:
        for head in heads:
            status = game_status(head.position)
            if status.solo:
                return status.solo
        return None
    leaders = [p for p, n in counts.items() if n == best]
    return leaders[0] if best >= mv.map.victory and len(leaders) == 1 else None
