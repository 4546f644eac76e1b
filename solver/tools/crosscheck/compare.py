"""Comparing two replies, and naming a disagreement by its first differing decision."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import networkx as nx

from topology import Key

from ...judge.checked import Checked, CheckedMove, CheckedSupport, Status, destination
from ...judge.movement import judge
from ...judge.structure import Structure
from ...values.orders import Convoy, Given, Move, SupportHold, SupportMove
from ...values.outcomes import Illegality, Invalidity
from ...values.position import Position
from ...values.rules import DATC_2025, RuleBook


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
) -> str:
    """The kind of the first differing decision, in dependency order, with what makes it
    special (head-to-head, convoy, coast, a support against one's own unit, ...)."""
    judged = judge(position, orders, rules)
    turn = judged.turn
    structure = _ByProvince(judged.structure)
    graph = judged.dependencies()
    # (kind, province) as plain strings; equal to the graph's (DecisionKind, province) nodes
    differing: list[tuple[str, str]] = []
    touched = set()
    for key, (a, b) in found.items():
        where = key.partition(" ")[2]
        if where:
            touched.add(where.split()[-1].split("/")[0].lower())
        else:  # units that differ
            touched |= {u.split()[-1].split("/")[0].lower() for u in (*a, *b)}
    # An order dipsat finds invalid or illegal, about a province in question, is the root;
    # on the board, not a support or convoy of a move not so ordered: void in every engine.
    board = on_the_board(found)
    for unit, checked in turn.orders:
        if checked is None or checked.status is Status.ACTIVE:
            continue
        if board and checked.reason is not None and checked.reason.code in _VOID_EVERYWHERE:
            continue
        going = destination(checked)
        dest = going.province if going is not None else None
        if unit.province in touched or dest in touched:
            cls = type(checked.order).__name__
            name = "move" if cls == "Move" else "support" if "Support" in cls else "convoy"
            return f"{name}: {checked.status.value} for dipsat ({_why(checked)})"
    for key in found:
        what, _, where = key.partition(" ")
        if not where:  # the units afterwards: follows from the decisions
            continue
        province = where.split()[-1].split("/")[0].lower()
        checked = structure.order_of.get(province)
        if what == "result" and checked is not None:
            kind = {
                Move: "move",
                SupportHold: "support",
                SupportMove: "support",
                Convoy: "convoy",
            }.get(type(checked.order))
            if kind:
                differing.append((kind, province))
        elif what in ("dislodged", "retreats"):
            differing.append(("dislodged" if what == "dislodged" else "retreats", province))
    if not differing:
        return "position"
    known = [d for d in differing if d in graph]
    first: tuple[str, Key] = min(
        known or differing,
        key=lambda d: (
            sum(1 for e in known if e != d and nx.has_path(graph, d, e)) if d in graph else 99,
            d,
        ),
    )
    if first[0] == "dislodged":  # named by the strongest attack on the unit
        attacks = [m for m in structure.attackers.get(first[1], ()) if m in structure.moves]
        if attacks:
            first = (
                "move",
                max(attacks, key=lambda m: (len(structure.move_supports.get(m, ())), m)),
            )
    return f"{first[0]}: {_feature(structure, first)}"


def name_of(
    position: Position,
    orders: Sequence[Given],
    found: dict[str, tuple[Any, Any]],
    rules: RuleBook,
) -> str:
    """The class of a disagreement: its first differing decision (`classify`), except that
    one whose board differs in retreat options only is named by them, whatever labels
    differ beside."""
    board = [key for key in found if not key.startswith("result ")]
    if board and all(key.startswith("retreats ") for key in board):
        return "retreats: retreat options"
    return classify(position, orders, found, rules)


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


def _feature(s: _ByProvince, decision: tuple[str, Key]) -> str:
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
        return "contested province" if len(s.attackers.get(q, ())) > 1 else "attack"
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
