"""The orders in force as DATC chapter 5 reads them: who moves where, who supports and
convoys whom, the convoy routes, the head-to-head battles, and the decisions they call for.

Everything here follows from the checker's reading of the orders (`solver.checker.reading`)
and the board, before any decision is looked at.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from topology import BoardView, Key

from ..values.decisions import CONVOY, DISLODGED, MOVE, PATH, SEA, SUPPORT, Decision
from ..values.orders import Convoy, Given, Move, SupportHold, SupportMove
from ..values.position import Position, Unit
from ..values.rules import RuleBook
from .chains import Route, Seas
from .reading import Orders, Reading, Verdict, read_orders


@dataclass(frozen=True)
class TurnReading:
    """A movement turn as the equations see it (the checker's reading, never the
    adjudicator's)."""

    board: BoardView
    rules: RuleBook
    units: Mapping[Key, Unit]  # province -> the unit standing there
    orders: Orders

    @classmethod
    def read(cls, position: Position, orders: Sequence[Given], rules: RuleBook) -> TurnReading:
        units = {u.province: u for u in position.units}
        return cls(position.board, rules, units, read_orders(position, orders, rules))

    # -- the orders in force ------------------------------------------------------------------
    @property
    def in_force(self) -> Mapping[Key, Reading]:
        return self.orders.in_force

    @cached_property
    def active(self) -> dict[Key, Reading]:
        return {p: r for p, r in self.in_force.items() if r.verdict is Verdict.ACTIVE}

    @cached_property
    def moves(self) -> dict[Key, Reading]:
        return {p: r for p, r in self.active.items() if isinstance(r.order, Move)}

    @cached_property
    def supports(self) -> dict[Key, Reading]:
        kinds = SupportHold | SupportMove
        return {p: r for p, r in self.active.items() if isinstance(r.order, kinds)}

    @cached_property
    def convoys(self) -> dict[Key, Reading]:
        return {p: r for p, r in self.active.items() if isinstance(r.order, Convoy)}

    def dest(self, mover: Key) -> Key:
        """Where an active move goes."""
        dest = self.moves[mover].dest
        assert dest is not None
        return dest

    @cached_property
    def _entering(self) -> dict[Key, list[Key]]:
        found: dict[Key, list[Key]] = {}
        for p in sorted(self.moves):
            found.setdefault(self.dest(p), []).append(p)
        return found

    def into(self, province: Key) -> list[Key]:
        """The active moves into a province (by the movers' provinces, sorted)."""
        return self._entering.get(province, [])

    def move_supporters(self, mover: Key) -> list[Key]:
        """The active supports of a move."""
        return sorted(
            s
            for s, r in self.supports.items()
            if isinstance(r.order, SupportMove) and r.target == mover
        )

    def hold_supporters(self, unit: Key) -> list[Key]:
        """The active supports for a unit to hold."""
        return sorted(
            s
            for s, r in self.supports.items()
            if isinstance(r.order, SupportHold) and r.target == unit
        )

    def aim(self, supporter: Key) -> Key:
        """The province a support is aimed at: the supported move's destination, or the
        supported unit's province."""
        support = self.supports[supporter]
        aim = support.dest if isinstance(support.order, SupportMove) else support.target
        assert aim is not None
        return aim

    # -- convoys ------------------------------------------------------------------------------
    def convoyed(self, mover: Key) -> bool:
        """Does the move go by convoy (its PATH a decision)?"""
        return self.moves[mover].by_convoy

    def convoyers(self, mover: Key) -> frozenset[Key]:
        """The fleets with an active convoy order for the move."""
        return frozenset(
            f for f, c in self.convoys.items() if (c.target, c.dest) == (mover, self.dest(mover))
        )

    @cached_property
    def seas(self) -> Seas:
        """The board's convoy routes, each searched once."""
        return Seas(self.board)

    def routes(self, mover: Key) -> tuple[Route, ...]:
        """The routes of the fleets convoying a move that may go by convoy (none for a move
        over land)."""
        move = self.moves[mover]
        if not (move.by_convoy or move.fallback):
            return ()
        return self.seas.routes(mover, self.dest(mover), self.convoyers(mover))

    def convoy_fleets(self, mover: Key) -> set[Key]:
        """The fleets on some route of a convoyed move."""
        return {f for route in self.routes(mover) for f in route}

    def necessary_fleets(self, mover: Key) -> set[Key]:
        """The fleets on every route of a convoyed move."""
        routes = self.routes(mover)
        return set.intersection(*(set(r) for r in routes)) if routes else set()

    def fallback(self, mover: Key) -> bool:
        """1971: a swap that goes by sea if its convoy works, else over land (its SEA a
        decision)."""
        return self.moves[mover].fallback and bool(self.routes(mover))

    def origin(self, mover: Key) -> Key:
        """Where the attack comes from: 4.A.4 (Brannan) makes it the last fleet of a
        convoyed move, when all its routes end on one fleet."""
        if not (self.rules.brannan and self.convoyed(mover)):
            return mover
        lasts = {route[-1] for route in self.routes(mover)}
        return lasts.pop() if len(lasts) == 1 else mover

    @cached_property
    def _opposing(self) -> dict[Key, Key]:
        found = {}
        for p in self.moves:
            for q in self.into(self.origin(p)):
                if q == p or self.dest(p) != self.origin(q):
                    continue
                by_brannan = self.origin(p) != p or self.origin(q) != q
                if by_brannan or not (self.convoyed(p) or self.convoyed(q)):
                    found[p] = q
        return found

    def opposing(self, mover: Key) -> Key | None:
        """The move it would meet head to head: the move into where its attack comes
        from, whose attack comes from where it goes.  Neither goes by convoy, save under
        4.A.4 (Brannan), where a convoyed attack comes from its last fleet's sea and meets
        the move into that sea.  A 1971 swap that may go by sea is among them (its move is
        not by convoy): `Decided.head_to_head` drops the battle when its convoy works."""
        return self._opposing.get(mover)

    def coming_back(self, mover: Key) -> Key | None:
        """4.A.7: the unit at the destination moving to the mover's province, any route."""
        q = self.dest(mover)
        return q if q in self.moves and self.dest(q) == mover else None

    # -- the decisions ------------------------------------------------------------------------
    @cached_property
    def decisions(self) -> frozenset[Decision]:
        """Every decision chapter 5 calls for: a move per move, a path per convoyed move
        (a sea per 1971 swap), a support, a convoy, and a dislodgement per unit someone
        moves against.  The others are known without deciding: a move over land has its
        path (unless 6.B.11), a unit nobody attacks stays."""
        found: set[Decision] = set()
        for p in self.moves:
            found.add((MOVE, p))
            if self.fallback(p):
                found.add((SEA, p))
            elif self.convoyed(p):
                found.add((PATH, p))
        found |= {(SUPPORT, p) for p in self.supports}
        found |= {(CONVOY, p) for p in self.convoys}
        found |= {(DISLODGED, p) for p in self.units if self.into(p)}
        return frozenset(found)

    def name(self, key: Key) -> str:
        """A province of the turn by name ('Munich'); any other key as it is."""
        known = key in self.units or key in self._entering
        return self.board.province(key).name if known else str(key)

    def label(self, decision: Decision) -> str:
        """'move[A mun - tyr]': the decision named after the order in force (or the unit)."""
        kind, p = decision
        reading = self.in_force.get(p)
        if reading is not None:
            return f"{kind}[{reading.order}]"
        return f"{kind}[{self.units.get(p, p)}]"
