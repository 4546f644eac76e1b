"""Orders drawn as arrows, lines and rings, classed by kind and outcome; retreat options.

Places are found by a ``Locate`` function and lines are routed round the labels and units
of a ``Field`` (`route`), both given by a `Where`, so the same drawing serves one board
(layout coordinates) and the multiverse grid (orders reaching from one board to another).
"""

from __future__ import annotations

import itertools
import math
import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import networkx as nx

from topology import Board
from topology.extents import RING

from ..values.orders import (
    Build,
    Convoy,
    Disband,
    Given,
    Hold,
    Move,
    Order,
    Place,
    Retreat,
    SupportHold,
    SupportMove,
)
from ..values.outcomes import Outcome
from ..values.resolution import Retreating
from .route import Curve, End, Field, Line, clear_spot, route
from .style import FAIL, colour, token
from .svg import Point, el, num, title


@dataclass(frozen=True, slots=True)
class DrawnSpot:
    """Where a place of an order is drawn: a point, the unit standing there (a key naming
    its badge among the obstacles; '' for none) and the scale its board is drawn at."""

    point: Point
    unit: str = ""
    scale: float = 1.0


Locate = Callable[[Place], DrawnSpot | None]


@dataclass(frozen=True, slots=True)
class Where:
    """How orders find their places (``locate``) and what their lines must not cross: the
    ``field``, or if given the field ``near`` makes for each order (on a grid of boards, the
    boards the order names)."""

    locate: Locate
    field: Field
    near: Callable[[Order], Field] | None = None

    def of(self, order: Order) -> Where:
        return self if self.near is None else replace(self, field=self.near(order))


# Stroke widths of the style sheet's lines, and how far from a place a line stops
MOVE_W, SUPPORT_W, OPTION_W = 3.5, 2.0, 1.6
FROM_UNIT = 11.0  # a line leaves a unit from under its badge's edge
TO_UNIT, TO_SLOT = 14.0, 12.0  # an arrow's tip stops at a unit's edge, or near its place
CROSS = 7.0  # half the size of the cross on a support that is cut
DISBAND = 9.0  # half the size of the cross on a disbanded unit: clear of a unit beside it
CROSS_SHAPE = ((-8.5, -8.5), (8.5, -8.5), (8.5, 8.5), (-8.5, 8.5))
DOT_SHAPE = tuple(
    (4.5 * math.cos(a * math.pi / 4), 4.5 * math.sin(a * math.pi / 4)) for a in range(8)
)


def _end(spot: DrawnSpot, to_unit: float, to_place: float) -> End:
    """A line's end at ``spot``: it stops ``to_unit`` from a unit standing there, else
    ``to_place`` from the place."""
    r = (to_unit if spot.unit else to_place) * spot.scale
    return End(spot.point, (r, r), spot.unit)


def _key(place: Place) -> tuple[str, int | None, int | None]:
    return (place.province, place.timeline, place.turn)


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
    where: Where,
    prefix: str,
    board: Board,
    tags: Sequence[str] = (),
) -> None:
    """Each order as a group classed by kind and result (and its tag, if any); places
    ``where`` cannot place (another board not drawn) leave the order out of the picture.
    Moves are drawn first, so that a support can end on the arrow it supports."""
    convoys = [g.order for g in orders if isinstance(g.order, Convoy)]
    drawn: list[tuple[ET.Element, Given, str, DrawnSpot]] = []
    for index, given in enumerate(orders):
        outcome = outcomes[index] if outcomes is not None else None
        result = result_of(outcome)
        order = given.order
        if not hasattr(order, "unit"):
            continue
        start = where.locate(order.unit.place)
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
        drawn.append((g, given, result, start))
    arrows: dict[tuple[object, object], Line] = {}
    for g, given, result, start in drawn:
        if isinstance(given.order, Move | Retreat):
            here = where.of(given.order)
            curve = _move(g, given, result, start, here, convoys, prefix, board)
            if curve is not None:
                arrows[(_key(given.order.unit.place), _key(given.order.dest))] = curve
    for g, given, result, start in drawn:
        if not isinstance(given.order, Move | Retreat):
            _other(g, given, result, start, where.of(given.order), arrows, prefix, board)


def _move(
    g: ET.Element,
    given: Given,
    result: str,
    start: DrawnSpot,
    where: Where,
    convoys: list[Convoy],
    prefix: str,
    board: Board,
) -> Line | None:
    """A move or retreat as an arrow (through the rings of its convoying fleets), ending in
    a bar if it fails; its last stretch, or None if its destination is not drawn."""
    order = given.order
    assert isinstance(order, Move | Retreat)
    end = where.locate(order.dest)
    if end is None:
        return None
    failed = result in ("fails", "illegal", "invalid", "unresolved")
    head = f"url(#{prefix}head-{token(given.power or '', board.powers)})"
    stops = _convoy_stops(order, convoys, where.locate, board) if isinstance(order, Move) else []
    ends = [_end(start, FROM_UNIT, FROM_UNIT)]
    ends += [End(s.point, (RING[0] * s.scale, RING[1] * s.scale), s.unit) for s in stops]
    ends.append(_end(end, TO_UNIT, TO_SLOT))
    curves = [
        route(a, b, where.field, MOVE_W, None if b is not ends[-1] else "bar" if failed else "head")
        for a, b in itertools.pairwise(ends)
    ]
    stroke = colour(given.power, board.powers)
    for curve in curves[:-1]:  # to a convoying fleet's ring, and on from it
        el(g, "path", {"class": "stem", "d": curve.d(), "stroke": stroke})
    last = {"class": "stem", "d": curves[-1].d(), "stroke": stroke}
    el(g, "path", {**last, "marker-end": f"url(#{prefix}bar)" if failed else head})
    return curves[-1]


def _other(
    g: ET.Element,
    given: Given,
    result: str,
    start: DrawnSpot,
    where: Where,
    arrows: dict[tuple[object, object], Line],
    prefix: str,
    board: Board,
) -> None:
    """Supports, convoys, holds, disbands and builds."""
    stroke = colour(given.power, board.powers)
    match given.order:
        case SupportHold(supported=sup):
            end = where.locate(sup.place)
            if end is None:
                return
            _support(g, start, _end(end, 13, TO_SLOT), result, stroke, where.field, prefix)
        case SupportMove(supported=sup, dest=dest):
            a, b = where.locate(sup.place), where.locate(dest)
            if a is None or b is None:
                return
            line = arrows.get((_key(sup.place), _key(dest)))
            line = line or Line((Curve(a.point, a.point, b.point, b.point, straight=True),))
            shares = (0.62, 0.55, 0.7, 0.48, 0.78, 0.4, 0.86, 0.3)
            on = clear_spot(line, shares, DOT_SHAPE, where.field)
            _support(g, start, End(on), result, stroke, where.field, prefix)
        case Convoy():
            _ring(g, start, stroke if result != "disrupted" else FAIL)
        case Hold():
            rx, ry = RING[0] * start.scale, RING[1] * start.scale
            x, y = start.point
            box = {"x": x - rx, "y": y - ry, "width": 2 * rx, "height": 2 * ry, "rx": 4}
            el(g, "rect", {"class": "ring", **box, "stroke": stroke})
        case Disband():
            cross(g, start.point, DISBAND * start.scale)
        case Build():
            _ring(g, start, stroke, "3 3")


def _ring(g: ET.Element, at: DrawnSpot, stroke: str, dashes: str | None = None) -> None:
    """An oval round a unit: a convoy (dashed by the style sheet) or a build."""
    (x, y), rx, ry = at.point, RING[0] * at.scale, RING[1] * at.scale
    attrs = {"class": "ring", "cx": x, "cy": y, "rx": rx, "ry": ry, "stroke": stroke}
    el(g, "ellipse", {**attrs, "stroke-dasharray": dashes})


def _support(
    g: ET.Element, start: DrawnSpot, end: End, result: str, stroke: str, field: Field, prefix: str
) -> None:
    """A dotted line ending in a dot; crossed out where it crosses nothing if not given."""
    curve = route(_end(start, FROM_UNIT, FROM_UNIT), end, field, SUPPORT_W, "dot")
    el(
        g,
        "path",
        {"class": "stem", "d": curve.d(), "stroke": stroke, "marker-end": f"url(#{prefix}dot)"},
    )
    if result in ("cut", "illegal", "invalid", "unresolved", "fails"):
        at = clear_spot(curve, (0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78), CROSS_SHAPE, field)
        cross(g, at, CROSS)


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


def _convoy_stops(
    order: Move, convoys: list[Convoy], locate: Locate, board: Board
) -> list[DrawnSpot]:
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
    parent: ET.Element, retreating: Sequence[Retreating], where: Where, board: Board
) -> None:
    """Each dislodged unit's retreat options, as thin dotted lines from the unit."""
    for r in retreating:
        start = where.locate(Place(r.unit.location.code, r.unit.location.coast))
        g = el(parent, "g", {"class": "retreat-options", "data-place": str(r.unit.location)})
        options = [board.location_name(o) for o in r.options]
        names = ", ".join(options) or "none: the unit is destroyed"
        title(g, f"{r.unit.power} {r.unit.text(board)} may retreat to: {names}")
        for option in r.options:
            end = where.locate(Place(option.code, option.coast))
            if start is None or end is None:
                continue
            curve = route(
                _end(start, FROM_UNIT, FROM_UNIT),
                _end(end, TO_SLOT, TO_SLOT),
                where.field,
                OPTION_W,
            )
            attrs = {"class": "option", "d": curve.d()}
            el(g, "path", {**attrs, "stroke": colour(r.unit.power, board.powers)})
