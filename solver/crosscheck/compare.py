"""Comparing two replies, and naming a disagreement by its first differing decision."""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

from ..fallback import dependency_graph
from ..legality import analyse
from ..model import Decision, Structure, build
from ..orders import Convoy, Given, Move, SupportHold, SupportMove
from ..position import Position
from ..rules import DATC_2025, RuleBook


def differences(ours: dict, theirs: dict) -> dict[str, tuple]:
    """Per aspect, what differs: results by place, dislodged units, retreat options, units."""
    found: dict[str, tuple] = {}
    for place in sorted(set(ours["results"]) | set(theirs["results"])):
        a, b = ours["results"].get(place), theirs["results"].get(place)
        if a != b:
            found[f"result {place}"] = (a, b)
    for unit in sorted(set(ours["dislodged"]) | set(theirs["dislodged"])):
        a, b = ours["dislodged"].get(unit), theirs["dislodged"].get(unit)
        if (a is None) != (b is None):
            found[f"dislodged {unit}"] = (a is not None, b is not None)
        elif a != b:
            found[f"retreats {unit}"] = (a, b)
    units_a = {u for v in ours["units"].values() for u in v}
    units_b = {u for v in theirs["units"].values() for u in v}
    if units_a != units_b:
        found["units"] = (sorted(units_a - units_b), sorted(units_b - units_a))
    return found


def classify(
    position: Position,
    orders: Sequence[Given],
    found: dict[str, tuple],
    rules: RuleBook = DATC_2025,
) -> str:
    """The kind of the first differing decision, in dependency order, with what makes it
    special (head-to-head, convoy, coast, a support against one's own unit, ...)."""
    turn = analyse(position, orders, rules)
    structure = Structure.of(turn)
    graph = dependency_graph(build(structure))
    differing: list[Decision] = []
    for key in found:
        what, _, where = key.partition(" ")
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
    first = min(
        known or differing,
        key=lambda d: (
            sum(1 for e in known if e != d and nx.has_path(graph, d, e)) if d in graph else 99,
            d,
        ),
    )
    return f"{first[0]}: {_feature(structure, first)}"


def _feature(s: Structure, decision: Decision) -> str:
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
        if move.by_convoy:
            return "by convoy"
        if move.dest.coast or s.unit_at[p].location.coast:
            return "split coast"
        if q in s.unit_at and any(
            s.unit_at[r].power == s.unit_at[q].power for r in s.move_supports.get(p, ())
        ):
            return "supported by the defender's own power"
        return "contested province" if len(s.attackers.get(q, ())) > 1 else "attack"
    if kind == "support" and p in s.supports:
        cutters = [m for m in s.attackers.get(p, ()) if m in s.routes]
        if cutters:
            return "attacked by a convoyed army"
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
