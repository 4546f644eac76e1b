"""Comparing two replies, and naming a disagreement by its root: the differing decision
whose own inputs agree between the two engines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import networkx as nx

from topology import Key

from ..errors import DipsatError, LimitError
from ..judge.checked import Checked, CheckedMove, CheckedSupport, Status, destination
from ..judge.movement import judge
from ..judge.structure import Structure
from ..values.decisions import Decision
from ..values.orders import Convoy, Given, Move, SupportHold, SupportMove
from ..values.outcomes import Illegality, Invalidity
from ..values.position import Position, Unit
from ..values.rules import DATC_2025, RuleBook


def differences(
    ours: dict[str, Any], theirs: dict[str, Any], convoys: frozenset[str] = frozenset()
) -> dict[str, tuple[Any, Any]]:
    """Per aspect, what differs: results by place, dislodged units, retreat options, units.

    The results of the convoying fleets in `convoys` are left out: engines do not agree on
    what to call a convoy (DATC: available unless the fleet is dislodged or a paradox rule
    fails it; MILA: void when the army does not use it), and whether it worked shows in the
    army's move and the fleet's dislodgement."""
    found: dict[str, tuple[Any, Any]] = {}
    for place in sorted(set(ours["results"]) | set(theirs["results"])):
        if place in convoys:
            continue
        a, b = ours["results"].get(place), theirs["results"].get(place)
        if a != b:
            found[f"result {place}"] = (a, b)
    for unit in sorted(set(ours["dislodged"]) | set(theirs["dislodged"])):
        a, b = ours["dislodged"].get(unit), theirs["dislodged"].get(unit)
        if (a is None) != (b is None):
            found[f"dislodged {unit}"] = (a is not None, b is not None)
        elif a != b:
            found[f"retreats {unit}"] = (a, b)
    units_a = {f"{power}: {u}" for power, v in ours["units"].items() for u in v}
    units_b = {f"{power}: {u}" for power, v in theirs["units"].items() for u in v}
    if units_a != units_b:
        found["units"] = (sorted(units_a - units_b), sorted(units_b - units_a))
    return found


def classify(
    position: Position,
    orders: Sequence[Given],
    found: dict[str, tuple[Any, Any]],
    rules: RuleBook = DATC_2025,
    *,
    results: bool = True,
) -> str:
    """The kind of the root of a disagreement, with what makes it special (head-to-head,
    convoy, coast, a support against one's own unit, ...).

    The root is a differing decision whose own inputs (the decisions its equation reads)
    agree between the two engines: the place where the engines part, every other
    difference following from it.  `results` says whether the other engine's result of
    each order is known (a cross-check's reply), or only the board after (a recorded game:
    a move is then read off where its unit ends up, and a support's result is unknown).
    Decisions a reply does not show (a support without results, a convoy's availability,
    an army's convoy path) are looked through: their own inputs stand for them.  An order
    dipsat finds void that another engine may carry out is an input of the decisions it
    would change (`_Seen.suspect_void_orders`).  Differences that read one another in a
    cycle are named by the one whose equation the other engine breaks.  When a
    disagreement is on the board, a root that leads to the board difference is named
    before one that only changes a label."""
    judged = judge(position, orders, rules)
    structure = _ByProvince(judged.structure)
    graph = judged.dependencies()
    reads: dict[Named, list[Named]] = {
        (d.value, p): sorted((k.value, q) for k, q in graph.successors((d, p)))
        for d, p in sorted(graph)
        if graph.out_degree((d, p))
    }
    seen = _Seen(structure, found, results)
    seen.suspect_void_orders(reads)
    roots = _roots(position, orders, rules, seen, reads)
    if not roots:
        return "position"
    order = {(k.value, p): i for i, (k, p) in enumerate(structure.decisions)}
    below = {d: _downstream(d, reads) & seen.differing.keys() for d in roots}
    board = on_the_board(found)

    def rank(d: Named) -> tuple[bool, bool, bool, int, int, Named]:
        explains = d in seen.board or bool(below[d] & seen.board)
        return (
            board and not explains,  # on the board: a root that leads there first
            d in seen.suspects,  # a difference seen before one only supposed
            d not in seen.inactive,  # an order dipsat finds void, the other engine not
            -len(below[d]),  # then the root more differences follow from
            order.get(d, len(order)),  # then dependency order, for a fixed choice
            d,
        )

    first = min(roots, key=rank)
    if first in seen.inactive:
        checked = seen.inactive[first]
        return f"{first[0]}: {checked.status.value} for dipsat ({_why(checked)})"
    if first[0] == "dislodged":  # named by the strongest attack on the unit
        attacks = [m for m in structure.attackers.get(first[1], ()) if m in structure.moves]
        if attacks:
            first = (
                "move",
                max(attacks, key=lambda m: (len(structure.move_supports.get(m, ())), m)),
            )
    return f"{first[0]}: {_feature(structure, first)}"


Named = tuple[str, Key]
"""A decision, (kind, province), its kind as a plain string: equal to the judge's
(DecisionKind, province); besides the judge's kinds, 'retreats' (a dislodged unit's
options) and the kind of an order dipsat finds invalid or illegal."""

_HIDDEN = frozenset({"path", "sea", "convoy"})
"""Decisions no reply shows: an army's convoy path, and a convoy's availability (its result
is left out of the comparison, `differences`)."""


class _Seen:
    """What the two replies show of each decision: the ones that differ (with dipsat's value
    and the other engine's), those about the board, and the orders dipsat finds void that
    the other engine answers differently."""

    def __init__(
        self, structure: _ByProvince, found: dict[str, tuple[Any, Any]], results: bool
    ) -> None:
        self.structure = structure
        self.results = results
        self.differing: dict[Named, tuple[Any, Any]] = {}
        self.board: set[Named] = set()
        self.inactive: dict[Named, Checked] = {}
        self.suspects: set[Named] = set()  # void orders supposed to differ, not seen to
        units: tuple[list[str], list[str]] = ([], [])
        for key, (a, b) in found.items():
            what, _, where = key.partition(" ")
            if not where:
                units = (list(a), list(b))
                continue
            province = _province(where)
            if what == "result":
                self._result(province, a, b)
            elif what in ("dislodged", "retreats"):
                self.differing[(what, province)] = (a, b)
                self.board.add((what, province))
        if not results:  # a move is read off the board: where its unit stands after
            for p, checked in sorted(structure.order_of.items()):
                going = destination(checked) if checked is not None else None
                if checked is None or going is None or not isinstance(checked.order, Move):
                    continue
                unit = structure.unit_at[p]
                ours, theirs = (_stands(unit, going.province, side) for side in units)
                if ours != theirs:
                    self._result(p, ours, theirs)
        touched: set[Key] = {_province(u) for side in units for u in side}
        touched |= {p for kind, p in self.board}
        for d in list(self.differing):
            if d[0] == "move" and (d[1] in touched or self._dest(d[1]) in touched):
                self.board.add(d)
        for d, checked in self.inactive.items():
            # void in every engine (a support of a move not so ordered): no board follows
            if checked.reason is not None and checked.reason.code in _VOID_EVERYWHERE:
                continue
            going = destination(checked)
            if d[1] in touched or (going is not None and going.province in touched):
                self.board.add(d)

    def suspect_void_orders(self, reads: dict[Named, list[Named]]) -> None:
        """An order dipsat finds invalid or illegal that a differing decision would read, were
        it valid, is an input the other engine may well see otherwise (it moved the army
        over land, it counted the support): it joins the differences, as an input of those
        decisions (`reads` gains the edges).  Not an order void in every engine: a support
        of a move not so ordered, or a move or support to a province the unit does not
        border (no engine moves an army there with no convoy ordered)."""
        s = self.structure
        board = s.turn.board
        for p, checked in sorted(s.order_of.items()):
            if checked is None or checked.status is Status.ACTIVE:
                continue
            if checked.reason is not None and checked.reason.code in _VOID_EVERYWHERE:
                continue
            order = checked.order
            if isinstance(order, Move | SupportMove):
                going = order.dest.province
            elif isinstance(order, SupportHold):
                going = order.supported.place.province
            else:
                going = None
            if going is not None and going not in board.neighbours(p):
                continue
            kind = _kind(checked)
            if kind is None:
                continue  # a hold, a retreat, a build: no decision would read it
            # an order dipsat finds void whose own result differs is a root already
            readers = {
                d
                for d, pushed in _would_read(s, p, checked).items()
                if d in self.differing
                and d not in self.inactive
                and pushed in (None, self.differing[d][1])
            }
            if not readers or (kind, p) in self.differing:
                continue
            self.inactive[(kind, p)] = checked
            self.suspects.add((kind, p))
            self.differing[(kind, p)] = (False, None)
            for d in sorted(readers):
                reads.setdefault(d, []).append((kind, p))

    def _result(self, province: Key, a: Any, b: Any) -> None:
        checked = self.structure.order_of.get(province)
        if checked is None:
            return
        kind = _kind(checked)
        if kind is None or (kind == "convoy" and checked.status is Status.ACTIVE):
            return  # no result, or one left out of the comparison
        if checked.status is not Status.ACTIVE:
            self.inactive[(kind, province)] = checked
        self.differing[(kind, province)] = (a, b)

    def _dest(self, province: Key) -> Key | None:
        move = self.structure.moves.get(province)
        return move.dest.province if move is not None else None

    def shown(self, d: Named) -> bool:
        """Whether the replies show this decision's value in both engines."""
        if d[0] in _HIDDEN:
            return False
        return self.results or d[0] != "support"


def _kind(checked: Checked) -> str | None:
    """The kind of decision an order is about: 'move', 'support', 'convoy' (None: a hold,
    a retreat, a build)."""
    order = checked.order
    if isinstance(order, Move):
        return "move"
    if isinstance(order, SupportHold | SupportMove):
        return "support"
    return "convoy" if isinstance(order, Convoy) else None


def _would_read(s: _ByProvince, p: Key, checked: Checked) -> dict[Named, bool | None]:
    """The decisions that would read the order at `p`, were it valid, each with the value
    that order could push it to (None: either).  A move attacks where it goes: the moves
    there and the unit there may fail, its support be cut, the unit be dislodged; and it
    leaves its province, which a move into it may then enter.  A support counts for the
    unit it supports and against the moves it competes with; a convoy for its army."""
    order = checked.order
    found: dict[Named, bool | None] = {}

    def push(d: Named, value: bool | None) -> None:
        found[d] = value if found.get(d, value) == value else None  # both ways: either

    if isinstance(order, Convoy):
        push(("move", order.army.place.province), None)
    elif isinstance(order, Move):
        q = order.dest.province
        for r in s.attackers.get(q, ()):
            push(("move", r), False)
        push(("move", q), False)  # a head-to-head battle, or its way out contested
        push(("support", q), False)
        push(("dislodged", q), True)
        for r in s.attackers.get(p, ()):
            push(("move", r), True)
    elif isinstance(order, SupportHold | SupportMove):
        places = {order.supported.place.province}
        if isinstance(order, SupportMove):
            places.add(order.dest.province)
        for q in sorted(places):
            for r in s.attackers.get(q, ()):
                push(("move", r), None)
            push(("move", q), None)
            push(("dislodged", q), None)
    found.pop(("move", p), None)
    return found


def _province(text: str) -> str:
    """'nwy' from 'A NWY', 'ENGLAND: F STP/NC' or 'NWY'."""
    return text.split()[-1].split("/")[0].lower()


def _stands(unit: Unit, province: Key, units: list[str]) -> bool:
    """Whether a reply's units that differ put this unit (its power and type) in
    `province`: the board shows its move succeeded."""
    power, kind = unit.power.upper(), unit.type.value
    for text in units:
        who, _, what = text.rpartition(": ")
        if what.split()[0] == kind and _province(what) == province and who in ("", power):
            return True
    return False


def _differences_read(d: Named, reads: dict[Named, list[Named]], seen: _Seen) -> set[Named]:
    """The differing decisions `d` reads, looking through the inputs no reply shows."""
    stack, visited, found = list(reads.get(d, ())), set(), set()
    while stack:
        e = stack.pop()
        if e in visited or e == d:
            continue
        visited.add(e)
        if e in seen.differing:
            found.add(e)
        elif not seen.shown(e):
            stack += reads.get(e, ())
    return found


def _roots(
    position: Position,
    orders: Sequence[Given],
    rules: RuleBook,
    seen: _Seen,
    reads: dict[Named, list[Named]],
) -> list[Named]:
    """The differing decisions that read no other difference.  Differences that read one
    another in a cycle, and no difference outside it, are a root together: of them, those
    whose equation the other engine's answer breaks (`_broken_equations`), else all."""
    graph = nx.DiGraph()
    graph.add_nodes_from(seen.differing)
    graph.add_edges_from(
        (d, e) for d in seen.differing for e in sorted(_differences_read(d, reads, seen))
    )
    condensed = nx.condensation(graph)
    roots: list[Named] = []
    for part in sorted(condensed.nodes, key=lambda n: min(condensed.nodes[n]["members"])):
        if condensed.out_degree(part):
            continue
        members = sorted(condensed.nodes[part]["members"])
        if len(members) > 1:
            members = _broken_equations(position, orders, rules, seen, members) or members
        roots += members
    return roots


def _downstream(d: Named, reads: dict[Named, list[Named]]) -> set[Named]:
    """The decisions that read `d`, directly or through others."""
    readers: dict[Named, list[Named]] = {}
    for e, inputs in reads.items():
        for i in inputs:
            readers.setdefault(i, []).append(e)
    found: set[Named] = set()
    stack = list(readers.get(d, ()))
    while stack:
        e = stack.pop()
        if e not in found:
            found.add(e)
            stack += readers.get(e, ())
    return found - {d}


def _broken_equations(
    position: Position, orders: Sequence[Given], rules: RuleBook, seen: _Seen, cycle: list[Named]
) -> list[Named]:
    """Of a cycle of differences, the decisions whose equation the other engine's answer
    breaks: given the values it shows for every other decision, the equation gives another
    value than the one it shows for this one."""
    judged = judge(position, orders, rules)
    ours = judged.settle().values
    theirs: dict[Decision, bool] = {}
    for kind, p in seen.structure.decisions:
        key = (kind.value, p)
        if seen.shown(key) and (kind, p) in ours:
            value = seen.differing[key][1] if key in seen.differing else ours[(kind, p)]
            if isinstance(value, bool):
                theirs[(kind, p)] = value
    broken = []
    for kind, p in theirs:
        key = (kind.value, p)
        if key not in cycle:
            continue
        given = {d: v for d, v in theirs.items() if d != (kind, p)}
        try:
            worked_out = judged.settle(recorded=given).values
        except (DipsatError, LimitError):  # no resolution for their values (or out of time)
            continue
        if worked_out.get((kind, p)) != theirs[(kind, p)]:
            broken.append(key)
    return broken


def name_of(
    position: Position,
    orders: Sequence[Given],
    found: dict[str, tuple[Any, Any]],
    rules: RuleBook,
    *,
    results: bool = True,
) -> str:
    """The class of a disagreement: its root decision (`classify`), except that one whose
    board differs in retreat options only is named by them, whatever labels differ
    beside."""
    board = [key for key in found if not key.startswith("result ")]
    if board and all(key.startswith("retreats ") for key in board):
        return "retreats: retreat options"
    return classify(position, orders, found, rules, results=results)


def on_the_board(found: dict[str, tuple[Any, Any]]) -> bool:
    """Does a disagreement reach the board (units, dislodgements, retreat options), or is
    it only what some order's result is called?"""
    return any(not key.startswith("result ") for key in found)


_VOID_EVERYWHERE = (Invalidity.NOT_ORDERED_SO, Invalidity.SUPPORTED_UNIT_MOVES)
"""Reasons an order is invalid that every engine shares (it is void, whatever it is called)."""
_WHY = {
    Invalidity.NOT_ORDERED_SO: "supports or convoys a move not ordered: 6.D.9, 6.D.27",
    Invalidity.SUPPORTED_UNIT_MOVES: "hold support for a moving unit: 6.D.7",
    Illegality.SECOND_ORDER: "a second order for the unit: 4.D.3",
}


def _why(checked: Checked) -> str:
    """The reason an order is invalid or illegal, in a few words, with the DATC case."""
    reason = checked.reason
    assert reason is not None
    if reason.code is Invalidity.NO_CONVOY_ORDERED:
        if getattr(checked.order, "via_convoy", False):
            return "via convoy, but no convoy is ordered: 6.G.8"
        return "needs a convoy nobody ordered: 6.D.8"
    return _WHY.get(reason.code, reason.why)


class _ByProvince:
    """A turn's structure with its units named by province, as disagreements name them."""

    def __init__(self, s: Structure) -> None:
        keys = s.keys
        self.turn = s.turn
        self.unit_at = dict(zip(keys, s.units, strict=True))
        self.order_of = {keys[u]: c for u, c in enumerate(s.order_of)}
        self.moves: dict[Key, CheckedMove] = {keys[m]: c for m, c in s.moves.items()}
        self.supports: dict[Key, CheckedSupport] = {keys[p]: c for p, c in s.supports.items()}
        self.attackers = {
            s.places[q]: [keys[m] for m in ms] for q, ms in enumerate(s.attackers) if ms
        }
        self.move_supports = {keys[m]: [keys[p] for p in ps] for m, ps in s.move_supports.items()}
        self.opposing = {keys[m]: keys[q] for m, q in s.opposing.items()}
        self.routes = {keys[m] for m in s.routes}
        self.decisions = [s.value(d) for d in s.decisions]  # in the turn's order


def _feature(s: _ByProvince, decision: Named) -> str:
    kind, p = decision
    if kind == "move" and p in s.moves:
        move = s.moves[p]
        q = move.dest.province
        if p in s.opposing:
            against = s.unit_at[q].power
            if any(s.unit_at[r].power == against for r in s.move_supports.get(p, ())):
                return "head-to-head, supported by the defender's own power"
            if any(s.unit_at[r].power == s.unit_at[p].power for r in s.move_supports.get(q, ())):
                return "head-to-head, the other side supported by this power"
            return "head-to-head"
        own = q in s.unit_at and any(
            s.unit_at[r].power == s.unit_at[q].power for r in s.move_supports.get(p, ())
        )
        if move.by_convoy:
            return "by convoy, supported by the defender's own power" if own else "by convoy"
        if move.dest.coast or s.unit_at[p].location.coast:
            return "split coast"
        if own:
            return "supported by the defender's own power"
        rivals = [r for r in s.attackers.get(q, ()) if r != p]
        if any(r in s.routes for r in rivals):
            return "contested by a convoyed army"
        return "contested province" if rivals else "attack"
    if kind == "support" and p in s.supports:
        cutters = [m for m in s.attackers.get(p, ()) if m in s.routes]
        if cutters:
            return "attacked by a convoyed army"
        supported = s.order_of.get(s.supports[p].target)
        if supported is not None and supported.status is Status.INVALID:
            return "supports a move that is invalid"
        target = s.supports[p].dest
        if (
            target is not None
            and target.province in s.unit_at
            and s.unit_at[target.province].power == s.unit_at[p].power
        ):
            return "supports an attack on its own power's unit"
        return "support"
    if kind == "convoy":
        return "convoy"
    if kind == "retreats":
        return "retreat options"
    return kind
