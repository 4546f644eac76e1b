"""The static facts of a movement turn, in the compact form the equations read.

Inside one adjudication a unit is a small integer: its place among the position's units,
which are sorted by province, so that ordering units by number orders them by province.  A
decision is an integer too, ``rank * units + unit``, its kind's rank being the kind's
place in alphabetical order (`KINDS`): ordering decisions by number orders them as the
values `(DecisionKind, province)` order, which is the order every output lists them in.
The values users see (`Decision`, `Unit`, the orders' texts) are made from these numbers
at the boundary only, and texts only when read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from topology import BoardView, Key

from ..values.decisions import (
    Decision,
    DecisionKind,
)
from ..values.position import Unit
from ..values.rules import RuleBook
from .checked import Checked, CheckedConvoy, CheckedMove, CheckedSupport, JudgedTurn, Status
from .convoy_routes import minimal_routes

KINDS: tuple[DecisionKind, ...] = tuple(sorted(DecisionKind))
"""The kinds of decision by rank: convoy, dislodged, move, path, sea, support."""
RANK: Mapping[DecisionKind, int] = {kind: rank for rank, kind in enumerate(KINDS)}
R_CONVOY, R_DISLODGED, R_MOVE, R_PATH, R_SEA, R_SUPPORT = (RANK[k] for k in KINDS)

Routes = tuple[tuple[int, ...], ...]
"""The minimal convoy routes of a move: each a chain of the convoying fleets' units."""


class Texts:
    """The text of each unit's order (or of the unit), made when first read: a turn that
    propagation settles reads few of them, for its outcomes' reasons."""

    __slots__ = ("_describe", "_made")

    def __init__(self, count: int, describe: Callable[[int], str]) -> None:
        self._describe = describe
        self._made: list[str | None] = [None] * count

    def __getitem__(self, unit: int) -> str:
        text = self._made[unit]
        if text is None:
            text = self._made[unit] = self._describe(unit)
        return text


@dataclass(frozen=True, slots=True, eq=False)
class Structure:
    """What the equations of a turn are written over (no solver involved), by number.

    `moves`, `supports` and `convoys` hold the active orders of those kinds by their unit;
    the other tables are keyed by unit as well.  The provinces moved into are numbered as
    *places*: a unit's place is its own number, an empty province moved into comes after
    the units (`places`), and `attackers` lists the movers into each place."""

    turn: JudgedTurn
    units: tuple[Unit, ...]  # unit number -> unit (the position's, sorted by province)
    keys: tuple[Key, ...]  # unit number -> its province
    number: Mapping[Key, int]  # province -> the number of the unit standing there
    order_of: tuple[Checked | None, ...]  # unit -> its order in force (None: holds)
    places: tuple[Key, ...]  # place -> its province: the units' own, then empty ones moved into
    moves: Mapping[int, CheckedMove]  # mover -> its active move
    into: Mapping[int, int]  # mover -> the place it moves to
    attackers: tuple[tuple[int, ...], ...]  # place -> the movers into it
    move_supports: Mapping[int, tuple[int, ...]]  # mover -> active supporters of its move
    hold_supports: Mapping[int, tuple[int, ...]]  # unit -> active hold supporters
    supports: Mapping[int, CheckedSupport]  # supporter -> its active support
    aims: Mapping[int, Key]  # supporter -> the province its support is aimed at
    convoys: Mapping[int, CheckedConvoy]  # fleet -> its active convoy
    routes: Mapping[int, Routes]  # convoyed mover -> its routes through active fleets
    opposing: Mapping[int, int]  # mover -> the mover it meets head to head
    origin: Mapping[int, int]  # mover -> the unit its attack comes from (4.A.4)
    returning: Mapping[int, int]  # mover -> the mover coming the other way, even by convoy
    fallback: frozenset[int]  # 1971: by sea if the convoy works, else by land
    text: Texts  # unit -> its order (or the unit) as text
    names: Texts  # unit -> the unit as text
    count: int = field(init=False)  # the number of units
    trivial: dict[int, bool] = field(init=False)  # decisions known without deciding
    decisions: tuple[int, ...] = field(init=False)  # every decision, in the turn's order
    known: tuple[bool | None, ...] = field(init=False)  # decision -> its trivial value, or None

    def __post_init__(self) -> None:
        count = len(self.units)
        object.__setattr__(self, "count", count)
        # a move over land has its path, unless the fleet stands on the wrong coast; a unit
        # nobody moves against is not dislodged
        trivial = {
            R_PATH * count + m: c.reachable
            for m, c in self.moves.items()
            if m not in self.routes or m in self.fallback
        }
        attackers = self.attackers
        trivial.update((R_DISLODGED * count + u, False) for u in range(count) if not attackers[u])
        object.__setattr__(self, "trivial", trivial)
        known: list[bool | None] = [None] * (len(KINDS) * count)
        for d, v in trivial.items():
            known[d] = v
        object.__setattr__(self, "known", tuple(known))
        object.__setattr__(self, "decisions", tuple(self._ordered()))

    @property
    def rules(self) -> RuleBook:
        return self.turn.rules

    @property
    def board(self) -> BoardView:
        return self.turn.position.board

    # -- decisions as numbers and as values ----------------------------------------------------
    def decision(self, kind: DecisionKind, unit: int) -> int:
        return RANK[kind] * self.count + unit

    def kind(self, decision: int) -> DecisionKind:
        return KINDS[decision // self.count]

    def unit_of(self, decision: int) -> int:
        return decision % self.count

    def value(self, decision: int) -> Decision:
        """The decision as users see it: ``(MOVE, "mun")``."""
        rank, unit = divmod(decision, self.count)
        return (KINDS[rank], self.keys[unit])

    def number_of(self, decision: Decision) -> int | None:
        """The number of a decision given as a value (None: not a decision of this turn's
        units)."""
        kind, key = decision
        unit = self.number.get(key)
        return None if unit is None else RANK[kind] * self.count + unit

    def label(self, decision: int) -> str:
        """A readable name: 'move[A Munich - Tyrolia]', 'dislodged[A Munich]'."""
        rank, unit = divmod(decision, self.count)
        if rank == R_DISLODGED:
            return f"dislodged[{self.names[unit]}]"
        return f"{KINDS[rank]}[{self.text[unit]}]"

    def _ordered(self) -> Iterator[int]:
        """Moves (each with its path or its 1971 way by sea), supports, convoys, then the
        units attacked: the order the equations are first evaluated in."""
        count = self.count
        for m in self.moves:
            yield R_MOVE * count + m
            if m in self.fallback:
                yield R_SEA * count + m
            elif m in self.routes:
                yield R_PATH * count + m
        yield from (R_SUPPORT * count + s for s in self.supports)
        yield from (R_CONVOY * count + f for f in self.convoys)
        attackers = self.attackers
        yield from (R_DISLODGED * count + u for u in range(count) if attackers[u])

    # -- what the equations ask ----------------------------------------------------------------
    def convoying(self, mover: int) -> set[int]:
        """The fleets on the routes of a convoyed move."""
        return {f for route in self.routes.get(mover, ()) for f in route}

    def necessary(self, mover: int) -> set[int]:
        """The fleets on every route of a convoyed move."""
        routes = self.routes.get(mover, ())
        return set.intersection(*(set(r) for r in routes)) if routes else set()

    @classmethod
    def of(cls, turn: JudgedTurn) -> Structure:
        """The structure of a judged turn."""
        units = tuple(u for u, _ in turn.orders)  # the position's units, in its order
        keys = tuple(u.location.province for u in units)
        number = {key: i for i, key in enumerate(keys)}
        order_of = tuple(c for _, c in turn.orders)
        moves: dict[int, CheckedMove] = {}
        into_province: dict[int, Key] = {}
        supports: dict[int, CheckedSupport] = {}
        aims: dict[int, Key] = {}
        convoys: dict[int, CheckedConvoy] = {}
        move_supports: dict[int, list[int]] = {}
        hold_supports: dict[int, list[int]] = {}
        for i, c in enumerate(order_of):  # in unit order: every table below is too
            if c is None or c.status is not Status.ACTIVE:
                continue
            if isinstance(c, CheckedMove):
                moves[i] = c
                into_province[i] = c.dest.province
            elif isinstance(c, CheckedSupport):
                supports[i] = c
                target = number[c.target]
                if c.dest is None:
                    aims[i] = c.target
                    hold_supports.setdefault(target, []).append(i)
                else:
                    aims[i] = c.dest.province
                    move_supports.setdefault(target, []).append(i)
            elif isinstance(c, CheckedConvoy):
                convoys[i] = c
        empty = sorted({q for q in into_province.values() if q not in number})
        places = keys + tuple(empty)
        place_of = {**number, **{q: len(keys) + i for i, q in enumerate(empty)}}
        into = {m: place_of[q] for m, q in into_province.items()}
        attackers: list[list[int]] = [[] for _ in places]
        for m, q in into.items():
            attackers[q].append(m)
        routes, fallback = convoy_routes(turn, keys, number, moves, convoys)
        origin = attack_origins(turn.rules, moves, routes, fallback)
        opposing, returning = head_to_head(len(keys), moves, into, origin)
        board = turn.position.board
        # neither reads the other: each keeps only what it needs
        names = Texts(len(units), lambda u: units[u].text(board))
        text = Texts(len(units), lambda u: _order_text(order_of[u], units[u], board))
        return cls(
            turn,
            units,
            keys,
            number,
            order_of,
            places,
            moves,
            into,
            tuple(map(tuple, attackers)),
            _frozen(move_supports),
            _frozen(hold_supports),
            supports,
            aims,
            convoys,
            routes,
            opposing,
            origin,
            returning,
            fallback,
            text,
            names,
        )


def _order_text(checked: Checked | None, unit: Unit, board: BoardView) -> str:
    """An order as text, or the unit's text for a unit without one."""
    if checked is None:
        return unit.text(board)
    return checked.given.order_text


def _frozen(table: Mapping[int, list[int]]) -> dict[int, tuple[int, ...]]:
    return {k: tuple(v) for k, v in table.items()}


def convoy_routes(
    turn: JudgedTurn,
    keys: Sequence[Key],
    number: Mapping[Key, int],
    moves: Mapping[int, CheckedMove],
    convoys: Mapping[int, CheckedConvoy],
) -> tuple[dict[int, Routes], frozenset[int]]:
    """The minimal routes of each convoyed move through the fleets ordered to convoy it,
    and the 1971 fallback moves that have one (by sea if the convoy works, else by land;
    one without a route is a plain move over land)."""
    convoying: dict[tuple[Key, Key], set[Key]] = {}
    for f, cv in convoys.items():
        convoying.setdefault((cv.target, cv.dest.province), set()).add(keys[f])
    routes: dict[int, Routes] = {}
    board = turn.position.board
    for m, c in moves.items():
        if c.by_convoy or c.fallback:
            origin = keys[m]
            fleets = frozenset(convoying.get((origin, c.dest.province), ()))
            found = minimal_routes(board, origin, c.dest.province, fleets)
            routes[m] = tuple(tuple(number[f] for f in route) for route in found)
    fallback = frozenset(m for m, c in moves.items() if c.fallback and routes.get(m))
    return {m: r for m, r in routes.items() if r or not moves[m].fallback}, fallback


def attack_origins(
    rules: RuleBook,
    moves: Mapping[int, CheckedMove],
    routes: Mapping[int, Routes],
    fallback: frozenset[int],
) -> dict[int, int]:
    """Where each attack comes from: the mover itself, or (DATC 4.A.4, the Brannan rule)
    the last fleet of a convoy whose every route ends there."""
    origin = {m: m for m in moves}
    for m, found in routes.items():
        if m in fallback:
            continue
        lasts = {route[-1] for route in found}
        if len(lasts) == 1 and rules.brannan:  # read where a convoy has one last fleet
            origin[m] = lasts.pop()
    return origin


def head_to_head(
    count: int,
    moves: Mapping[int, CheckedMove],
    into: Mapping[int, int],
    origin: Mapping[int, int],
) -> tuple[dict[int, int], dict[int, int]]:
    """Each move's opponent in a head-to-head battle (two units swapping over land, or from
    their attack origins, not by convoy), and the move coming the other way by any route
    (`count`: the number of units, the places below it theirs)."""
    opposing: dict[int, int] = {}
    returning: dict[int, int] = {}
    heading: dict[int, list[int]] = {}  # place -> the movers into it
    for q, dest in into.items():
        heading.setdefault(dest, []).append(q)
    for m, dest in into.items():
        from_m = origin[m]
        for q in heading.get(from_m, ()):
            if q == m or dest != origin[q]:
                continue
            if from_m != m or origin[q] != q or not (moves[m].by_convoy or moves[q].by_convoy):
                opposing[m] = q
        if dest < count and into.get(dest) == m:
            returning[m] = dest
    return opposing, returning
