"""Orders drawn as arrows, lines and rings, classed by kind and outcome; retreat options.

Places are found by a ``Locate`` function, so the same drawing serves one board (layout
coordinates) and the multiverse grid (orders reaching from one board to another).
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence

import networkx as nx

from topology import Board

from ..values.orders import (
    Build,
    Convoy,
    Disband,
    Given,
    Hold,
    Move,
    Place,
    Retreat,
    SupportHold,
    SupportMove,
)
from ..values.outcomes import Outcome
from ..values.resolution import Retreating
from .style import FAIL, colour, token
from .svg import Point, between, el, line_d, num, title, toward

Locate = Callable[[Place], Point | None]


def result_of(outcome: Outcome | None) -> str:
    if outcome is None:
        return "pending"
    return outcome.result.replace(" ", "-")


def order_text(given: Given, outcome: Outcome | None) -> str:
    if outcome is None:
        return str(given)
    reason = f" ({outcome.reason})" if outcome.reason else ""
    return f"{given}: {outcome.label}{reason}"


def order_lines(given: Given, outcome: Outcome | None, width: int) -> list[tuple[str, str]]:
    """An order with its outcome in words, wrapped to ``width``, each line with its class."""
    wrapped = textwrap.wrap(order_text(given, outcome), width, subsequent_indent="    ")
    return [(result_of(outcome), part) for part in wrapped]


def draw_orders(
    parent: ET.Element,
    orders: Sequence[Given],
    outcomes: Sequence[Outcome | None] | None,
    locate: Locate,
    prefix: str,
    board: Board,
    tags: Sequence[str] = (),
) -> None:
    """Each order as a group classed by kind and result (and its tag, if any); places
    ``locate`` cannot place (another board not drawn) leave the order out of the picture."""
    convoys = [g.order for g in orders if isinstance(g.order, Convoy)]
    for index, given in enumerate(orders):
        outcome = outcomes[index] if outcomes is not None else None
        result = result_of(outcome)
        order = given.order
        if not hasattr(order, "unit"):
            continue
        start = locate(order.unit.place)
        if start is None:
            continue
        kind = type(order).__name__.lower()
        kind = {"supporthold": "support support-hold", "supportmove": "support support-move"}.get(
            kind, kind
        )
        fate = []
        if outcome is not None and outcome.dislodged:
            fate.append("dislodged")
        if tags:
            fate.append(tags[index])
        g = el(
            parent,
            "g",
            {"class": " ".join(["order", kind, result, *fate]), "data-order": given.order_text},
        )
        title(g, order_text(given, outcome))
        stroke = colour(given.power, board.powers)
        head = f"url(#{prefix}head-{token(given.power or '', board.powers)})"
        failed = result in ("fails", "illegal", "invalid", "unresolved")
        match order:
            case Move(dest=dest) | Retreat(dest=dest):
                end = locate(dest)
                if end is None:
                    continue
                points = [start]
                if isinstance(order, Move):
                    points += _convoy_stops(order, convoys, locate, board)
                points.append(end)
                points[0] = toward(start, points[1], 11)  # from the badge's edge
                points[-1] = toward(end, points[-2], 14)
                el(
                    g,
                    "path",
                    {
                        "class": "stem",
                        "d": line_d(points),
                        "stroke": stroke,
                        "marker-end": f"url(#{prefix}bar)" if failed else head,
                    },
                )
            case SupportHold(supported=sup):
                end = locate(sup.place)
                if end is None:
                    continue
                end = toward(end, start, 13)
                _support(g, start, end, result, stroke, prefix)
            case SupportMove(supported=sup, dest=dest):
                a, b = locate(sup.place), locate(dest)
                if a is None or b is None:
                    continue
                _support(g, start, between(a, b, 0.62), result, stroke, prefix)
            case Convoy():
                _ring(g, start, stroke if result != "disrupted" else FAIL)
            case Hold():
                el(
                    g,
                    "rect",
                    {
                        "class": "ring",
                        "x": start[0] - 14,
                        "y": start[1] - 14,
                        "width": 28,
                        "height": 28,
                        "rx": 4,
                        "stroke": stroke,
                    },
                )
            case Disband():
                cross(g, start, 11)
            case Build():
                _ring(g, start, stroke, {"stroke-dasharray": "3 3"})


def _ring(g: ET.Element, at: Point, stroke: str, extra: Mapping[str, object] | None = None) -> None:
    """A circle round a unit: a convoy (dashed by the style sheet) or a build."""
    attrs = {"class": "ring", "cx": at[0], "cy": at[1], "r": 15, "stroke": stroke}
    el(g, "circle", {**attrs, **(extra or {})})


def _support(
    g: ET.Element, start: Point, end: Point, result: str, stroke: str, prefix: str
) -> None:
    live = result not in ("cut", "illegal", "invalid", "unresolved", "fails")
    el(
        g,
        "path",
        {
            "class": "stem",
            "d": line_d([toward(start, end, 11), end]),
            "stroke": stroke,
            "marker-end": f"url(#{prefix}dot)",
        },
    )
    if not live:
        cross(g, between(start, end, 0.5), 7)


def cross(g: ET.Element, at: Point, size: float) -> None:
    x, y = at
    el(
        g,
        "path",
        {
            "class": "x",
            "d": f"M{num(x - size)} {num(y - size)} L{num(x + size)} "
            f"{num(y + size)} M{num(x - size)} {num(y + size)} L{num(x + size)} "
            f"{num(y - size)}",
        },
    )


def _convoy_stops(order: Move, convoys: list[Convoy], locate: Locate, board: Board) -> list[Point]:
    """The fleets that convoy this army, in the order the army passes them."""
    here, there = order.unit.place, order.dest
    fleets = [c.unit.place for c in convoys if c.army.place == here and c.dest == there]
    if not fleets:
        return []
    graph = board.province_graph()
    by_province = {f.province: f for f in fleets}
    nodes = {here.province, there.province, *by_province}
    try:
        path = nx.shortest_path(graph.subgraph(nodes), here.province, there.province)
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return []
    stops = [locate(by_province[p]) for p in path[1:-1] if p in by_province]
    return [s for s in stops if s is not None]


def draw_retreats(
    parent: ET.Element, retreating: Sequence[Retreating], locate: Locate, board: Board
) -> None:
    """Each dislodged unit's retreat options, as thin dotted arrows from the unit."""
    for r in retreating:
        start = locate(Place(r.unit.province, r.unit.location.coast))
        g = el(parent, "g", {"class": "retreat-options", "data-place": str(r.unit.location)})
        options = [board.location_name(o) for o in r.options]
        names = ", ".join(options) or "none: the unit is destroyed"
        title(g, f"{r.unit.power} {r.unit.text(board)} may retreat to: {names}")
        for option in r.options:
            end = locate(Place(option.province, option.coast))
            if start is None or end is None:
                continue
            end = toward(end, start, 12)
            el(
                g,
                "path",
                {
                    "class": "option",
                    "d": line_d([start, end]),
                    "stroke": colour(r.unit.power, board.powers),
                },
            )
