"""One board drawn as SVG: the schematic map, the units, and around them the orders
(`arrows`), the panel of outcomes in words and the legend (`legend`).

Every drawn thing carries classes a test (or a style sheet) can read: ``province land``,
``unit army England dislodged``, ``order move fails``, ``order support cut`` ...
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

from topology import Board, Key, Kind, Location
from topology.extents import LABEL_DY, RETREAT_OFFSET, UNIT_DY, place_extent, tile_size
from topology.layout import layout_of
from topology.points import Layout

from ..values.orders import Given, Place, named_places
from ..values.outcomes import Outcome
from ..values.position import Position, Unit
from ..values.resolution import Retreating
from .arrows import DrawnSpot, Locate, Where, draw_orders, draw_retreats, order_lines
from .geometry import Box as Extent
from .geometry import contains, inflate, overlaps, text_box, union, visible_parts
from .legend import draw_legend, legend_height
from .markers import markers
from .panel import LINE, arrange, draw_lines, translate
from .route import Field, Obstacle
from .style import NEUTRAL_CENTRE, STYLE, colour, token
from .svg import SVG_NS, Point, el, line_d, num, title, to_text


@dataclass(frozen=True, slots=True)
class Scene:
    """What one board shows: a position, the orders given in it and (once adjudicated) their
    outcomes and the units that must retreat."""

    position: Position
    orders: tuple[Given, ...] = ()
    outcomes: tuple[Outcome | None, ...] | None = None  # None: not adjudicated (yet)
    retreating: tuple[Retreating, ...] = ()
    title: str = ""
    tags: tuple[str, ...] = ()  # an extra class for each order ('earlier', 'revised'), or none


MAP_GROUPS = ("edges", "provinces", "owners")  # what draw_map draws: alike in many pictures


# -- the map --------------------------------------------------------------------------------
def draw_map(
    parent: ET.Element, position: Position, board: Board, layout: Layout, clip: str | None = None
) -> None:
    """Borders, provinces (land, coast, sea), split coasts and supply centres; with ``clip``,
    inside that clip path (a picture's view less the places it would cut)."""
    if clip is not None:  # a view's clip path leaves out the places the view would cut
        parent = el(parent, "g", {"clip-path": f"url(#{clip})"})
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
    provinces = el(parent, "g", {"class": "provinces"})
    for code, prov in board.provinces.items():
        x, y = layout.point(code)
        classes = ["province", prov.kind.value] + (["centre"] if prov.is_centre else [])
        g = el(provinces, "g", {"class": " ".join(classes), "data-province": code})
        about = [prov.name, {"land": "land", "coast": "coast", "sea": "sea"}[prov.kind.value]]
        if prov.is_centre:
            about.append("supply centre" + (f", home of {prov.home}" if prov.home else ""))
        title(g, ", ".join(about))
        half_w, half_h = tile_size(code, prov.kind)  # wide enough for the label
        if prov.kind is Kind.SEA:
            el(g, "ellipse", {"class": "shape", "cx": x, "cy": y, "rx": half_w, "ry": half_h})
        else:
            attrs = {
                "class": "shape",
                "x": x - half_w,
                "y": y - half_h,
                "width": 2 * half_w,
                "height": 2 * half_h,
            }
            el(g, "rect", {**attrs, "rx": 9})
        el(g, "text", {"x": x, "y": y + LABEL_DY}, code.upper())
        if prov.home:
            ring = {"class": "home", "cx": x + corner(code, prov.kind), "cy": y - 14, "r": 7.5}
            el(g, "circle", {**ring, "stroke": colour(prov.home, board.powers)})
    for key in sorted(k for k in layout.points if "/" in k):
        x, y = layout.point(key)
        g = el(provinces, "g", {"class": "coast-point", "data-place": key})
        code, _, coast = key.partition("/")
        title(g, f"{board.province(code).name}, {coast} coast")
        el(g, "circle", {"class": "shape", "cx": x, "cy": y, "r": 11})
        el(g, "text", {"x": x, "y": y + 3}, coast)
    # who owns each centre: apart from the map, which is then the same on every board
    owners = dict(position.centres)
    dots = el(parent, "g", {"class": "owners"})
    for code in sorted(board.centres):
        x, y = layout.point(code)
        owner = owners.get(code)
        cx = x + corner(code, board.province(code).kind)
        dot = {"class": "centre", "data-province": code, "cx": cx, "cy": y - 14, "r": 4.5}
        fill = colour(owner, board.powers) if owner else NEUTRAL_CENTRE
        circle = el(dots, "circle", {**dot, "fill": fill})
        if not owner:
            circle.set("class", "centre neutral")
        title(
            circle,
            f"{board.province(code).name}: " + (f"owned by {owner}" if owner else "no owner"),
        )


def corner(code: str, kind: Kind) -> float:
    """How far right of a province's point its centre's dot and home ring sit: at the top
    right corner of its tile."""
    return tile_size(code, kind)[0] - 2


def drawn_extent(board: Board, layout: Layout, key: str) -> Extent:
    """The box of what the map draws for a place (left, top, right, bottom): a province's
    tile, label, centre dot and home ring, or a split coast's circle; strokes included."""
    x, y = layout.point(key)
    if "/" in key:
        return (x - 12, y - 12, x + 12, y + 12)
    prov = board.province(key)
    half_w, half_h = tile_size(key, prov.kind)
    box = (x - half_w - 1, y - half_h - 1, x + half_w + 1, y + half_h + 1)
    if prov.is_centre:  # the dot, or the home ring round it (r 7.5, 2 wide)
        cx, reach = x + corner(key, prov.kind), 8.5 if prov.home else 5.5
        box = union([box, (cx - reach, y - 14 - reach, cx + reach, y - 14 + reach)])
    return box


def cut_places(board: Board, layout: Layout, box: Box) -> list[Extent]:
    """The places a view onto ``box`` (x, y, width, height) would show only in part, each
    as the box of what the map draws for it (`drawn_extent`)."""
    view = (box[0], box[1], box[0] + box[2], box[1] + box[3])
    found = []
    for key in [*board.provinces, *sorted(k for k in layout.points if "/" in k)]:
        extent = drawn_extent(board, layout, key)
        if overlaps(extent, view) and not contains(view, extent):
            found.append(inflate(extent, 1))
    return found


def clip_path(parent: ET.Element, ident: str, board: Board, layout: Layout, box: Box) -> bool:
    """A clip path (id ``ident``) that leaves out the places the view onto ``box`` would
    cut, so that a province is on the picture whole or not at all; False if none is cut."""
    cut = cut_places(board, layout, box)
    if not cut:
        return False
    view = (box[0], box[1], box[0] + box[2], box[1] + box[3])
    clip = el(parent, "clipPath", {"id": ident})
    for left, top, right, bottom in visible_parts(view, cut):
        el(clip, "rect", {"x": left, "y": top, "width": right - left, "height": bottom - top})
    return True


# -- units ----------------------------------------------------------------------------------
def draw_unit(
    parent: ET.Element, unit: Unit, at: Point, board: Board, extra: Sequence[str] = ()
) -> None:
    kind = "army" if unit.type.value == "A" else "fleet"
    classes = " ".join(["unit", kind, token(unit.power, board.powers), *extra])
    g = el(parent, "g", {"class": classes, "data-place": str(unit.location)})
    title(g, f"{unit.power} {unit.text(board)}" + (f" ({', '.join(extra)})" if extra else ""))
    x, y = at
    fill = colour(unit.power, board.powers)
    if kind == "army":
        el(g, "circle", {"class": "badge", "cx": x, "cy": y, "r": 9.5, "fill": fill})
    else:
        el(g, "path", {"class": "badge", "d": line_d(_hull(x, y)) + "Z", "fill": fill})
    el(g, "text", {"x": x, "y": y + 3.5}, unit.type.value)


def _hull(x: float, y: float) -> list[Point]:
    return [(x - 11, y - 7), (x + 11, y - 7), (x + 7, y + 8), (x - 7, y + 8)]


def unit_point(layout: Layout, location: Location) -> Point:
    """Where a unit's badge sits: below its province's label, or on its coast."""
    x, y = layout.point(str(location))
    return (x, y) if location.coast else (x, y + UNIT_DY)


def waiting_point(layout: Layout, location: Location) -> Point:
    """Where a unit waiting to retreat is drawn: beside the unit that dislodged it."""
    x, y = unit_point(layout, location)
    return (x + RETREAT_OFFSET[0], y + RETREAT_OFFSET[1])


def unit_obstacles(key: str, letter: str, at: Point, edge: float) -> list[Obstacle]:
    """A unit's badge (a line that starts or ends on the unit may touch it) and its letter
    (which no line may cross); ``edge``: half the badge's stroke."""
    x, y = at
    reach = 9.5 + edge
    badge = (x - reach, y - reach, x + reach, y + reach)
    if letter == "F":
        badge = (x - 11 - edge, y - 7 - edge, x + 11 + edge, y + 8 + edge)
    return [Obstacle(badge, key), Obstacle(text_box(x, y + 3.5, letter, 10))]


def obstacles(position: Position, layout: Layout) -> list[Obstacle]:
    """What order lines must not cross on a board: every province's label, every unit."""
    found = []
    for code in position.map.provinces:
        x, y = layout.point(code)
        found.append(Obstacle(text_box(x, y + LABEL_DY, code.upper())))
    for u in position.units:
        at = unit_point(layout, u.location)
        found += unit_obstacles(f"u:{u.location}", u.type.value, at, 0.75)
    for d in position.dislodged:
        at = waiting_point(layout, d.unit.location)
        found += unit_obstacles(f"r:{d.unit.location}", d.unit.type.value, at, 1.5)
    return found


# -- the whole picture ---------------------------------------------------------------------
def draw_board(
    parent: ET.Element,
    scene: Scene,
    prefix: str,
    layout: Layout | None = None,
    clip: str | None = None,
    frame: Box | None = None,
) -> None:
    """Map, units, retreat options and orders of one scene, in layout coordinates; the map
    inside the clip path ``clip`` if given, the order lines inside ``frame`` (x, y, width,
    height) if given.

    In a movement phase the units that must retreat are marked where they stand; in a
    retreat phase they stand beside the unit that dislodged them."""
    board = scene.position.map
    layout = layout or layout_of(board)
    draw_map(parent, scene.position, board, layout, clip)
    fate: dict[Key, list[str]] = {}
    for r in scene.retreating:
        fate[r.unit.province] = ["dislodged"] + ([] if r.options else ["destroyed"])
    units = el(parent, "g", {"class": "units"})
    awaiting = bool(scene.position.dislodged)  # a retreat phase: the fates are theirs
    for unit in scene.position.units:
        extra = () if awaiting else fate.get(unit.province, ())
        draw_unit(units, unit, unit_point(layout, unit.location), board, extra)
    for d in scene.position.dislodged:
        extra = ["retreating", *fate.get(d.unit.province, ())[1:]]
        draw_unit(units, d.unit, waiting_point(layout, d.unit.location), board, extra)
    bounds = (
        None if frame is None else (frame[0], frame[1], frame[0] + frame[2], frame[1] + frame[3])
    )
    where = Where(locator(scene.position, layout), Field(obstacles(scene.position, layout), bounds))
    draw_retreats(el(parent, "g", {"class": "retreats"}), scene.retreating, where, board)
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
    the dislodged unit), else where a unit would stand on the province or coast."""
    retreating = {d.unit.province: d.unit for d in position.dislodged}

    def locate(place: Place) -> DrawnSpot | None:
        unit = retreating.get(place.province)
        if unit is not None:
            return DrawnSpot(waiting_point(layout, unit.location), f"r:{unit.location}")
        unit = position.unit_in(place.province)
        if unit is not None and (place.coast is None or place.coast == unit.location.coast):
            return DrawnSpot(unit_point(layout, unit.location), f"u:{unit.location}")
        key = f"{place.province}/{place.coast}" if place.coast else place.province
        if key in layout.points:
            return DrawnSpot(unit_point(layout, Location(place.province, place.coast)))
        if place.province in layout.points:
            return DrawnSpot(unit_point(layout, Location(place.province)))
        return None

    return locate


Box = tuple[float, float, float, float]
"""A part of the map: (x, y, width, height)."""


def focus_box(scenes: Scene | Sequence[Scene], layout: Layout, margin: float = 70) -> Box:
    """The part of the map the scenes are about (their units, the places their orders name
    and the retreat options), with a margin, and grown so that every place whose point is in
    it is in it whole; the whole map when they name nothing. Pictures that are compared side
    by side share the box of all of them."""
    keys = []
    for scene in [scenes] if isinstance(scenes, Scene) else scenes:
        keys += [str(u.location) for u in scene.position.units]
        keys += [str(d.unit.location) for d in scene.position.dislodged]
        keys += [p.province for given in scene.orders for p in named_places(given.order)]
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
    view = (x0, y0, x0 + width, y0 + height)
    board = (scenes if isinstance(scenes, Scene) else scenes[0]).position.map
    grown = [view]
    for key, (x, y) in sorted(layout.points.items()):
        if view[0] <= x <= view[2] and view[1] <= y <= view[3]:
            kind = None if "/" in key else board.province(key).kind
            left, top, right, bottom = place_extent(key.partition("/")[0], kind)
            grown.append((x + left, y + top, x + right, y + bottom))
    left, top, right, bottom = union(grown)
    left, top = max(left, 0), max(top, 0)
    right, bottom = min(right, layout.width), min(bottom, layout.height)
    return (left, top, right - left, bottom - top)


def map_view(parent: ET.Element, box: Box, at: Box) -> ET.Element:
    """A window at ``at`` (x, y, width, height) onto the part ``box`` of the map, with the
    sea behind it; what is drawn in it uses layout coordinates."""
    view = el(
        parent,
        "svg",
        {
            "class": "map",
            "x": at[0],
            "y": at[1],
            "width": at[2],
            "height": at[3],
            "viewBox": " ".join(num(v) for v in box),
        },
    )
    sea = {"x": box[0], "y": box[1], "width": box[2], "height": box[3], "fill": "#f4f9fd"}
    el(view, "rect", sea)
    return view


def board_svg(
    scene: Scene, whole: bool = False, prefix: str = "", legend: bool = True, box: Box | None = None
) -> str:
    """A standalone SVG picture of one scene: the map (cropped to what the scene is about
    unless ``whole``), and beside it the legend and the orders with their outcomes."""
    root = board_element(scene, whole, prefix, legend, box)
    return to_text(root)


COLUMN_W = 380.0
"""The width of a column of the orders in words (50 letters) or of the legend."""


def board_element(
    scene: Scene, whole: bool = False, prefix: str = "", legend: bool = True, box: Box | None = None
) -> ET.Element:
    """The picture of one scene (see `board_svg`); ``box`` frames the map if given.

    Beside the map, the phase, the orders in words and the legend, in as many columns as
    make the page smallest (`panel.arrange`)."""
    board = scene.position.map
    layout = layout_of(board)
    if box is None:
        box = (0, 0, layout.width, layout.height) if whole else focus_box(scene, layout)
    zoom = min(2.0, max(1.0, 640 / max(box[2], box[3])))
    map_w, map_h = box[2] * zoom, box[3] * zoom
    blocks = _panel_blocks(scene) if legend else []
    heights = [LINE * len(b) for b in blocks]
    if legend:
        heights.append(20 + legend_height(board.powers))
    columns = arrange(heights, map_w, map_h, COLUMN_W)
    top = 34 if scene.title else 0
    width, height = map_w + COLUMN_W * columns.count, max(map_h, columns.height) + top
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
    markers(defs, prefix, board.powers)
    clip = f"{prefix}view" if clip_path(defs, f"{prefix}view", board, layout, box) else None
    el(root, "rect", {"width": width, "height": height, "fill": "#fff"})
    if scene.title:
        el(root, "text", {"x": 10, "y": 22, "font-size": 16, "font-weight": 700}, scene.title)
    view = map_view(root, box, (0, top, map_w, map_h))
    draw_board(view, scene, prefix, layout, clip, box)
    if legend:
        panel = el(root, "g", {"class": "panel", "transform": translate(map_w + 16, top)})
        for lines, (column, y) in zip(blocks, columns.tops, strict=False):
            draw_lines(panel, lines, (COLUMN_W * column, y))
        column, y = columns.tops[-1]
        at = translate(map_w + 16 + COLUMN_W * column, top + y + 20)
        draw_legend(el(root, "g", {"class": "legend", "transform": at}), prefix, board.powers)
    return root


def _panel_blocks(scene: Scene) -> list[list[tuple[str, str]]]:
    """The phase, then each order with its outcome, wrapped to the panel's width: one block
    each, which a column never splits."""
    blocks = [[("heading", str(scene.position.phase))]]
    for index, given in enumerate(scene.orders):
        outcome = scene.outcomes[index] if scene.outcomes is not None else None
        blocks.append(order_lines(given, outcome, 50))
    return blocks
