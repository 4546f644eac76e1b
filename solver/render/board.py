"""One board drawn as SVG: the schematic map, the units, the orders and their outcomes.

Every drawn thing carries classes a test (or a style sheet) can read: ``province land``,
``unit army England dislodged``, ``order move fails``, ``order support cut`` ...
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import networkx as nx

from topology import Board, Kind, Location, standard
from topology.layout import Layout, standard_layout

from ..orders import (
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
from ..outcomes import Outcome
from ..position import Position, Unit, location_name
from ..resolution import Retreating
from .svg import SVG_NS, Point, between, el, line_d, num, title, to_text, toward

POWER_COLOURS = {
    "Austria": "#c8312f",
    "England": "#2b3d9a",
    "France": "#2f9bd6",
    "Germany": "#595959",
    "Italy": "#2e9a48",
    "Russia": "#8a4fb0",
    "Turkey": "#d9a400",
}
OTHER_COLOUR = "#8c6d46"
FAIL = "#d0312d"

STYLE = """
.edge{stroke-width:1.4;fill:none;opacity:.75}
.edge.army{stroke:#b8a27a}.edge.fleet{stroke:#86b8de}.edge.both{stroke:#a3a3a3}
.province text,.coast-point text{font:600 12px sans-serif;fill:#3b3326;text-anchor:middle}
.province.land .shape{fill:#eee2c4;stroke:#b8a27a;stroke-width:1.5}
.province.coast .shape{fill:#e6dcb6;stroke:#3d86c0;stroke-width:2}
.province.sea .shape{fill:#d3e7f7;stroke:#8cbde2;stroke-width:1.5}
.province.sea text{fill:#2f5d80;font-style:italic}
.coast-point .shape{fill:#d3e7f7;stroke:#3d86c0;stroke-width:1.5}
.coast-point text{font-size:9px;fill:#2f5d80}
circle.centre{stroke:#fff;stroke-width:1}
.home{fill:none;stroke-width:2}
.unit text{font:700 10px sans-serif;fill:#fff;text-anchor:middle;pointer-events:none}
.unit .badge{stroke:#fff;stroke-width:1.5}
.unit.dislodged .badge{stroke:#d0312d;stroke-width:3}
.unit.destroyed .badge{stroke:#000;stroke-dasharray:2 2}
.order{fill:none;stroke-linecap:round}
.order.move .stem,.order.retreat .stem{stroke-width:3.5}
.order.fails .stem,.order.bounced .stem{stroke-dasharray:7 5}
.order.support .stem{stroke-width:2;stroke-dasharray:1 4}
.order.cut .stem,.order.disrupted .stem,.order.illegal .stem,.order.invalid .stem{stroke:#999}
.order.hold .ring,.order.convoy .ring{stroke-width:2.5}
.order.convoy .ring{stroke-dasharray:4 3}
.order.disrupted .ring{stroke:#d0312d}
.order .x{stroke:#d0312d;stroke-width:3}
.order.earlier{opacity:.4}
.option{stroke-width:1.6;stroke-dasharray:2 3;fill:none;opacity:.9}
.legend text{font:12px sans-serif;fill:#222}
.legend .heading{font-weight:700}
.panel text{font:12px sans-serif;fill:#222}
.panel .fails,.panel .cut,.panel .disrupted,.panel .illegal,.panel .invalid{fill:#b22222}
"""


def colour(power: str | None) -> str:
    return POWER_COLOURS.get(power or "", OTHER_COLOUR)


@dataclass(frozen=True, slots=True)
class Scene:
    """What one board shows: a position, the orders given in it and (once adjudicated) their
    outcomes and the units that must retreat."""

    position: Position
    orders: tuple[Given, ...] = ()
    outcomes: tuple[Outcome, ...] | None = None
    retreating: tuple[Retreating, ...] = ()
    title: str = ""
    tags: tuple[str, ...] = ()  # an extra class for each order ('earlier', 'revised'), or none


# -- the map --------------------------------------------------------------------------------
def draw_map(parent: ET.Element, position: Position, board: Board, layout: Layout) -> None:
    """Borders, provinces (land, coast, sea), split coasts and supply centres."""
    edges = el(parent, "g", {"class": "edges"})
    army = {frozenset(e) for e in board.army_graph().edges}
    fleet = {frozenset(e) for e in board.fleet_graph().edges}
    for pair in sorted(tuple(sorted(e)) for e in army | fleet):
        kind = "both" if frozenset(pair) in army and frozenset(pair) in fleet else None
        kind = kind or ("army" if frozenset(pair) in army else "fleet")
        a, b = (layout.point(p) for p in pair)
        el(edges, "path", {"class": f"edge {kind}", "d": line_d([a, b])})
    for key in sorted(k for k in layout.points if "/" in k):
        x, y = layout.point(key)
        px, py = layout.point(key.partition("/")[0])
        el(edges, "path", {"class": "edge fleet", "d": line_d([(x, y), (px, py)])})
    owners = dict(position.centres)
    provinces = el(parent, "g", {"class": "provinces"})
    for code, prov in board.provinces.items():
        x, y = layout.point(code)
        classes = ["province", prov.kind.value] + (["centre"] if prov.is_centre else [])
        g = el(provinces, "g", {"class": " ".join(classes), "data-province": code})
        about = [prov.name, {"land": "land", "coast": "coast", "sea": "sea"}[prov.kind.value]]
        if prov.is_centre:
            about.append("supply centre" + (f", home of {prov.home}" if prov.home else ""))
            if owners.get(code):
                about.append(f"owned by {owners[code]}")
        title(g, ", ".join(about))
        if prov.kind is Kind.SEA:
            el(g, "ellipse", {"class": "shape", "cx": x, "cy": y, "rx": 30, "ry": 19})
        else:
            attrs = {"class": "shape", "x": x - 27, "y": y - 16, "width": 54, "height": 32}
            el(g, "rect", {**attrs, "rx": 9})
        el(g, "text", {"x": x, "y": y - 4}, code.upper())
        if prov.is_centre:
            cx, cy = x + 25, y - 14
            fill = colour(owners[code]) if owners.get(code) else "#3b3326"
            if prov.home:
                el(
                    g,
                    "circle",
                    {"class": "home", "cx": cx, "cy": cy, "r": 7.5, "stroke": colour(prov.home)},
                )
            el(g, "circle", {"class": "centre", "cx": cx, "cy": cy, "r": 4.5, "fill": fill})
    for key in sorted(k for k in layout.points if "/" in k):
        x, y = layout.point(key)
        g = el(provinces, "g", {"class": "coast-point", "data-place": key})
        code, _, coast = key.partition("/")
        title(g, f"{board.province(code).name}, {coast} coast")
        el(g, "circle", {"class": "shape", "cx": x, "cy": y, "r": 11})
        el(g, "text", {"x": x, "y": y + 3}, coast)


# -- units ----------------------------------------------------------------------------------
def draw_unit(parent: ET.Element, unit: Unit, at: Point, extra: Sequence[str] = ()) -> None:
    kind = "army" if unit.type.value == "A" else "fleet"
    classes = " ".join(["unit", kind, unit.power.lower(), *extra])
    g = el(parent, "g", {"class": classes, "data-place": str(unit.location)})
    title(g, f"{unit.power} {unit}" + (f" ({', '.join(extra)})" if extra else ""))
    x, y = at
    fill = colour(unit.power)
    if kind == "army":
        el(g, "circle", {"class": "badge", "cx": x, "cy": y, "r": 9.5, "fill": fill})
    else:
        hull = [(x - 11, y - 7), (x + 11, y - 7), (x + 7, y + 8), (x - 7, y + 8)]
        el(g, "path", {"class": "badge", "d": line_d(hull) + "Z", "fill": fill})
    el(g, "text", {"x": x, "y": y + 3.5}, unit.type.value)


def unit_point(layout: Layout, location: Location) -> Point:
    """Where a unit's badge sits: the lower half of its province, or on its coast."""
    x, y = layout.point(str(location))
    return (x, y) if location.coast else (x, y + 9)


# -- orders ---------------------------------------------------------------------------------
Locate = Callable[[Place], Point | None]


def markers(defs: ET.Element, prefix: str) -> None:
    """Arrow heads in each power's colour, the bounce bar and the support dot."""
    for power, fill in [*POWER_COLOURS.items(), ("other", OTHER_COLOUR), ("grey", "#999")]:
        m = el(
            defs,
            "marker",
            {
                "id": f"{prefix}head-{power.lower()}",
                "viewBox": "0 0 10 10",
                "refX": 8,
                "refY": 5,
                "markerWidth": 4,
                "markerHeight": 4,
                "orient": "auto",
                "markerUnits": "strokeWidth",
            },
        )
        el(m, "path", {"d": "M0 0 L10 5 L0 10 Z", "fill": fill})
    m = el(
        defs,
        "marker",
        {
            "id": f"{prefix}bar",
            "viewBox": "0 0 4 12",
            "refX": 2,
            "refY": 6,
            "markerWidth": 2,
            "markerHeight": 5,
            "orient": "auto",
            "markerUnits": "strokeWidth",
        },
    )
    el(m, "rect", {"x": 0, "y": 0, "width": 4, "height": 12, "fill": FAIL})
    m = el(
        defs,
        "marker",
        {
            "id": f"{prefix}dot",
            "viewBox": "0 0 10 10",
            "refX": 5,
            "refY": 5,
            "markerWidth": 4,
            "markerHeight": 4,
            "markerUnits": "strokeWidth",
        },
    )
    el(m, "circle", {"cx": 5, "cy": 5, "r": 4, "fill": "#fff", "stroke": "#333", "stroke-width": 2})


def result_of(outcome: Outcome | None) -> str:
    if outcome is None:
        return "pending"
    return outcome.result.replace(" ", "-")


def order_text(given: Given, outcome: Outcome | None) -> str:
    if outcome is None:
        return str(given)
    reason = f" ({outcome.reason})" if outcome.reason else ""
    return f"{given}: {outcome.label}{reason}"


def draw_orders(
    parent: ET.Element,
    orders: Sequence[Given],
    outcomes: Sequence[Outcome] | None,
    locate: Locate,
    prefix: str,
    board: Board | None = None,
    tags: Sequence[str] = (),
) -> None:
    """Each order as a group classed by kind and result (and its tag, if any); places
    ``locate`` cannot place (another board not drawn) leave the order out of the picture."""
    board = board or standard()
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
            {"class": " ".join(["order", kind, result, *fate]), "data-order": str(given.order)},
        )
        title(g, order_text(given, outcome))
        stroke = colour(given.power)
        head = f"url(#{prefix}head-{(given.power or 'other').lower()})"
        if given.power not in POWER_COLOURS:
            head = f"url(#{prefix}head-other)"
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
                el(
                    g,
                    "circle",
                    {
                        "class": "ring",
                        "cx": start[0],
                        "cy": start[1],
                        "r": 15,
                        "stroke": stroke if result != "disrupted" else FAIL,
                    },
                )
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
                _cross(g, start, 11)
            case Build():
                el(
                    g,
                    "circle",
                    {
                        "class": "ring",
                        "cx": start[0],
                        "cy": start[1],
                        "r": 15,
                        "stroke": stroke,
                        "stroke-dasharray": "3 3",
                    },
                )


def _support(g: ET.Element, start: Point, end: Point, result: str, stroke: str, prefix: str):
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
        _cross(g, between(start, end, 0.5), 7)


def _cross(g: ET.Element, at: Point, size: float) -> None:
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


def _convoy_stops(order: Move, convoys: list[Convoy], locate: Locate, board: Board):
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


def draw_retreats(parent: ET.Element, retreating: Sequence[Retreating], locate: Locate) -> None:
    """Each dislodged unit's retreat options, as thin dotted arrows from the unit."""
    for r in retreating:
        start = locate(Place(r.unit.province, r.unit.location.coast))
        g = el(parent, "g", {"class": "retreat-options", "data-place": str(r.unit.location)})
        names = ", ".join(location_name(o) for o in r.options) or "none: the unit is destroyed"
        title(g, f"{r.unit.power} {r.unit} may retreat to: {names}")
        for option in r.options:
            end = locate(Place(option.province, option.coast))
            if start is None or end is None:
                continue
            end = toward(end, start, 12)
            el(
                g,
                "path",
                {"class": "option", "d": line_d([start, end]), "stroke": colour(r.unit.power)},
            )


# -- the whole picture ---------------------------------------------------------------------
def draw_board(
    parent: ET.Element,
    scene: Scene,
    prefix: str,
    board: Board | None = None,
    layout: Layout | None = None,
) -> None:
    """Map, units, retreat options and orders of one scene, in layout coordinates.

    In a movement phase the units that must retreat are marked where they stand; in a
    retreat phase they stand beside the unit that dislodged them."""
    board = board or standard()
    layout = layout or standard_layout()
    draw_map(parent, scene.position, board, layout)
    fate: dict[str, list[str]] = {}
    for r in scene.retreating:
        fate[r.unit.province] = ["dislodged"] + ([] if r.options else ["destroyed"])
    units = el(parent, "g", {"class": "units"})
    awaiting = bool(scene.position.dislodged)  # a retreat phase: the fates are theirs
    for unit in scene.position.units:
        extra = () if awaiting else fate.get(unit.province, ())
        draw_unit(units, unit, unit_point(layout, unit.location), extra)
    for d in scene.position.dislodged:
        x, y = unit_point(layout, d.unit.location)
        extra = ["retreating", *fate.get(d.unit.province, ())[1:]]
        draw_unit(units, d.unit, (x + 16, y + 10), extra)  # beside the attacker
    where = locator(scene.position, layout)
    draw_retreats(el(parent, "g", {"class": "retreats"}), scene.retreating, where)
    draw_orders(
        el(parent, "g", {"class": "orders"}),
        scene.orders,
        scene.outcomes,
        where,
        prefix,
        board,
        scene.tags,
    )


def locator(position: Position, layout: Layout) -> Locate:
    """Where an order's place is drawn: on the unit standing there (in a retreat phase, on
    the dislodged unit), else on the province or coast."""
    retreating = {d.unit.province: d.unit for d in position.dislodged}

    def locate(place: Place) -> Point | None:
        unit = retreating.get(place.province)
        if unit is not None:
            x, y = unit_point(layout, unit.location)
            return (x + 16, y + 10)
        unit = position.unit_in(place.province)
        if unit is not None and (place.coast is None or place.coast == unit.location.coast):
            return unit_point(layout, unit.location)
        key = f"{place.province}/{place.coast}" if place.coast else place.province
        if key in layout.points or place.province in layout.points:
            return layout.point(key)
        return None

    return locate


Box = tuple[float, float, float, float]


def focus_box(scenes: Scene | Sequence[Scene], layout: Layout, margin: float = 70) -> Box:
    """The part of the map the scenes are about (their units, the places their orders name
    and the retreat options), with a margin; the whole map when they name nothing. Pictures
    that are compared side by side share the box of all of them."""
    keys = []
    for scene in [scenes] if isinstance(scenes, Scene) else scenes:
        keys += [str(u.location) for u in scene.position.units]
        keys += [str(d.unit.location) for d in scene.position.dislodged]
        keys += [p.province for given in scene.orders for p in places_of(given.order)]
        keys += [str(o) for r in scene.retreating for o in r.options]
    points = [layout.point(k) for k in keys if k.partition("/")[0] in layout.points]
    if not points:
        return (0, 0, layout.width, layout.height)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, x1 = max(min(xs) - margin, 0), min(max(xs) + margin, layout.width)
    y0, y1 = max(min(ys) - margin, 0), min(max(ys) + margin, layout.height)
    width, height = max(x1 - x0, 320), max(y1 - y0, 260)
    x0 = min(max(0, (x0 + x1) / 2 - width / 2), layout.width - width)
    y0 = min(max(0, (y0 + y1) / 2 - height / 2), layout.height - height)
    return (x0, y0, width, height)


def places_of(order) -> list[Place]:
    """Every place an order names."""
    found = []
    for name in ("unit", "supported", "army"):
        ref = getattr(order, name, None)
        if ref is not None:
            found.append(ref.place)
    dest = getattr(order, "dest", None)
    if dest is not None:
        found.append(dest)
    return found


def board_svg(
    scene: Scene, whole: bool = False, prefix: str = "", legend: bool = True, box: Box | None = None
) -> str:
    """A standalone SVG picture of one scene: the map (cropped to what the scene is about
    unless ``whole``), and beside it the legend and the orders with their outcomes."""
    root = board_element(scene, whole, prefix, legend, box)
    return to_text(root)


def board_element(
    scene: Scene, whole: bool = False, prefix: str = "", legend: bool = True, box: Box | None = None
) -> ET.Element:
    """The picture of one scene (see `board_svg`); ``box`` frames the map if given."""
    layout = standard_layout()
    if box is None:
        box = (0, 0, layout.width, layout.height) if whole else focus_box(scene, layout)
    zoom = min(2.0, max(1.0, 640 / max(box[2], box[3])))
    map_w, map_h = box[2] * zoom, box[3] * zoom
    panel_w = 380 if legend else 0
    lines = _panel_lines(scene)
    panel_h = 40 + 18 * len(lines) + (LEGEND_HEIGHT if legend else 0)
    top = 34 if scene.title else 0
    width, height = map_w + panel_w, max(map_h, panel_h) + top
    root = el(
        None,
        "svg",
        {
            "xmlns": SVG_NS,
            "class": "board",
            "width": width,
            "height": height,
            "viewBox": f"0 0 {num(width)} {num(height)}",
            "font-family": "sans-serif",
        },
    )
    el(root, "style", text=STYLE)
    defs = el(root, "defs")
    markers(defs, prefix)
    el(root, "rect", {"width": width, "height": height, "fill": "#fff"})
    if scene.title:
        el(root, "text", {"x": 10, "y": 22, "font-size": 16, "font-weight": 700}, scene.title)
    view = el(
        root,
        "svg",
        {
            "class": "map",
            "x": 0,
            "y": top,
            "width": map_w,
            "height": map_h,
            "viewBox": " ".join(num(v) for v in box),
        },
    )
    el(
        view,
        "rect",
        {"x": box[0], "y": box[1], "width": box[2], "height": box[3], "fill": "#f4f9fd"},
    )
    draw_board(view, scene, prefix)
    if legend:
        panel = el(
            root,
            "g",
            {"class": "panel", "transform": f"translate({num(map_w + 16)},{num(top + 10)})"},
        )
        draw_panel(panel, lines)
        draw_legend(
            el(
                root,
                "g",
                {
                    "class": "legend",
                    "transform": (
                        f"translate({num(map_w + 16)},{num(top + 30 + 18 * len(lines))})"
                    ),
                },
            ),
            prefix,
        )
    return root


def _panel_lines(scene: Scene) -> list[tuple[str, str]]:
    """The phase, then each order with its outcome, wrapped to the panel's width."""
    lines = [("heading", str(scene.position.phase))]
    for index, given in enumerate(scene.orders):
        outcome = scene.outcomes[index] if scene.outcomes is not None else None
        wrapped = textwrap.wrap(order_text(given, outcome), 50, subsequent_indent="    ")
        lines += [(result_of(outcome), part) for part in wrapped]
    return lines


def draw_panel(panel: ET.Element, lines: list[tuple[str, str]]) -> None:
    for number, (kind, text) in enumerate(lines):
        attrs = {"x": 0, "y": 14 + 18 * number, "class": kind}
        if kind == "heading":
            attrs["font-weight"] = 700
        el(panel, "text", attrs, text)


LEGEND_HEIGHT = 300


def draw_legend(g: ET.Element, prefix: str) -> None:
    """What the shapes, lines and colours mean."""
    el(g, "text", {"class": "heading", "x": 0, "y": 12}, "Legend")
    y = 32
    samples = [
        ("land", "rect", "land (armies)"),
        ("coast", "rect", "coast (armies and fleets)"),
        ("sea", "ellipse", "sea (fleets)"),
    ]
    for kind, shape, label in samples:
        s = el(g, "g", {"class": f"province {kind}"})
        if shape == "rect":
            el(
                s,
                "rect",
                {"class": "shape", "x": 0, "y": y - 9, "width": 30, "height": 18, "rx": 6},
            )
        else:
            el(s, "ellipse", {"class": "shape", "cx": 15, "cy": y, "rx": 15, "ry": 9})
        el(g, "text", {"x": 40, "y": y + 4}, label)
        y += 24
    el(
        g,
        "circle",
        {
            "cx": 15,
            "cy": y,
            "r": 7.5,
            "fill": "none",
            "stroke": colour("France"),
            "stroke-width": 2,
        },
    )
    el(g, "circle", {"cx": 15, "cy": y, "r": 4.5, "fill": "#3b3326"})
    el(g, "text", {"x": 40, "y": y + 4}, "supply centre: dot owner, ring home")
    y += 26
    for label, d, attrs in (
        ("move succeeds", "", {"stroke-width": 3.5}),
        ("move fails (bounced, no path)", "bar", {"stroke-width": 3.5, "stroke-dasharray": "7 5"}),
        (
            "support given (to the move's arrow)",
            "dot",
            {"stroke-width": 2, "stroke-dasharray": "1 4"},
        ),
    ):
        end = f"url(#{prefix}{d})" if d else f"url(#{prefix}head-other)"
        el(
            g,
            "path",
            {
                "d": f"M0 {y} L30 {y}",
                "stroke": OTHER_COLOUR,
                "fill": "none",
                "marker-end": end,
                **attrs,
            },
        )
        el(g, "text", {"x": 40, "y": y + 4}, label)
        y += 22
    el(
        g,
        "path",
        {
            "d": f"M0 {y} L30 {y}",
            "stroke": "#999",
            "stroke-width": 2,
            "fill": "none",
            "stroke-dasharray": "1 4",
        },
    )
    _cross(el(g, "g", {"class": "order"}), (15, y), 6)
    el(g, "text", {"x": 40, "y": y + 4}, "support cut (or not given)")
    y += 24
    el(
        g,
        "circle",
        {
            "cx": 15,
            "cy": y,
            "r": 10,
            "fill": "none",
            "stroke": OTHER_COLOUR,
            "stroke-width": 2.5,
            "stroke-dasharray": "4 3",
        },
    )
    el(g, "text", {"x": 40, "y": y + 4}, "convoy (red: disrupted); hold: square")
    y += 26
    el(
        g,
        "circle",
        {"cx": 15, "cy": y, "r": 9.5, "fill": OTHER_COLOUR, "stroke": FAIL, "stroke-width": 3},
    )
    el(g, "text", {"x": 40, "y": y + 4}, "dislodged unit; dotted: its retreats")
    y += 24
    for n, (power, fill) in enumerate(POWER_COLOURS.items()):
        x = (n % 4) * 78
        yy = y + (n // 4) * 20
        el(g, "circle", {"cx": x + 8, "cy": yy, "r": 7, "fill": fill})
        el(g, "text", {"x": x + 20, "y": yy + 4}, power)
