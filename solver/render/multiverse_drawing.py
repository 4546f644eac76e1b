"""The multiverse drawn as a grid of boards: timelines as rows, turns as columns.

Each board shows its position and the orders recorded on it (the ones of the step drawn in
full, earlier ones faded, past orders adjudicated again with their new outcome). Orders that
reach across boards are drawn between the boards; a forked timeline is joined to the board
it branched from.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from topology.layout import layout_of

from ..multiverse.state import (
    BoardKey,
    MBoard,
    Multiverse,
    MultiverseStep,
    board_of,
    complete,
    on_map,
)
from ..values.orders import Given, Order, Place, named_places, timeline_name
from ..values.outcomes import Outcome
from ..values.resolution import Retreating
from .arrows import DrawnSpot, Where, draw_orders, order_lines
from .board_drawing import (
    MAP_GROUPS,
    Scene,
    clip_path,
    draw_board,
    focus_box,
    locator,
    map_view,
    obstacles,
)
from .legend import draw_legend, legend_height
from .markers import markers
from .panel import LINE, arrange, draw_lines, translate
from .route import Field, Obstacle
from .style import STYLE
from .svg import SVG_NS, Point, el, line_d, num, share_groups, title, to_text

if TYPE_CHECKING:
    from ..formats.savegame.multiverse import SavedMultiverse

CELL_WIDTH = 320.0
GAP = 56.0
LABEL_W = 40.0
HEAD_H = 56.0
PANEL_W = 400.0

GRID_STYLE = """
.cell-label{font:700 13px sans-serif;fill:#222}
.cell-frame{fill:none;stroke:#777;stroke-width:1}
.cell-frame.new{stroke:#2e9a48;stroke-width:3}
.row-label{font:700 18px sans-serif;fill:#444}
.time{stroke:#999;stroke-width:2;fill:none}
.branch{stroke:#2e9a48;stroke-width:3;fill:none;stroke-dasharray:8 5}
.branch-label{font:italic 12px sans-serif;fill:#2e9a48}
"""


@dataclass(frozen=True, slots=True)
class Drawn:
    """An order to draw on the grid: what was given, its outcome and its tag."""

    given: Given
    outcome: Outcome | None
    tag: str  # 'current' (this step), 'revised' (adjudicated again), 'earlier', 'pending'


def step_drawing(done: MultiverseStep) -> tuple[list[Drawn], list[Retreating]]:
    """The orders of a step's multiverse (records, revised outcomes, the step's own orders)
    and the retreat options it opened (for a unit waiting in a retreat pause, those on its
    whole board)."""
    revised = {str(o.given): o for o in done.revised}
    now: dict[str, list[Outcome]] = {}  # an order given twice has two outcomes, in turn
    for o in done.outcomes:
        now.setdefault(str(o.given), []).append(o)
    drawn = []
    for board in done.after.boards:
        if board.record is None:
            continue
        left = {text: list(outcomes) for text, outcomes in now.items()}  # a board's own turn
        for given, outcome in zip(board.record.orders, board.record.outcomes, strict=True):
            if left.get(str(given)):
                drawn.append(Drawn(given, left[str(given)].pop(0), "current"))
            elif str(given) in revised:
                drawn.append(Drawn(given, revised[str(given)], "revised"))
            else:
                drawn.append(Drawn(given, outcome, "earlier"))
    recorded = {id(d.outcome) for d in drawn}
    drawn += [Drawn(o.given, o, "current") for o in done.outcomes if id(o) not in recorded]
    options = dict(done.waiting)  # a pause's units: where they may go on their whole boards
    retreating = [
        replace(r, options=options.get(r.unit, r.options))
        for r in (done.resolution.dislodged if done.resolution is not None else ())
    ]
    return drawn, retreating


def grid_element(
    mv: Multiverse,
    drawn: Sequence[Drawn],
    retreating: Sequence[Retreating] = (),
    heading: str = "",
    new: Sequence[BoardKey] = (),
    prefix: str = "",
    legend: bool = True,
    share: bool = True,
) -> ET.Element:
    """The grid picture of a multiverse with the given orders drawn on it (and beside it the
    orders in words and, if ``legend``, the legend). With ``share``, each distinct map is
    stored once and every board refers to it (boards differ only in units and owners)."""
    layout = layout_of(mv.map)
    boards = {b.key: b for b in mv.boards}
    local: dict[BoardKey, list[Drawn]] = {key: [] for key in boards}
    across: list[Drawn] = []
    for d in drawn:
        places = named_places(d.given.order)
        keys = {board_key for board_key in map(board_of, places) if board_key is not None}
        if len(keys) == 1 and next(iter(keys)) in local:
            local[next(iter(keys))].append(d)
        else:
            across.append(d)
    retreats: dict[BoardKey, list[Retreating]] = {key: [] for key in boards}
    for r in retreating:
        unit_location, key = on_map(r.unit.location)
        if key in retreats:
            options = tuple(on_map(o)[0] for o in r.options)
            unit = replace(r.unit, location=unit_location)
            retreats[key].append(replace(r, unit=unit, options=options))
    scenes = {
        key: Scene(
            b.position,
            tuple(d.given for d in local[key]),
            tuple(d.outcome for d in local[key]),
            tuple(retreats[key]),
            tags=tuple(d.tag for d in local[key]),
        )
        for key, b in boards.items()
    }
    box = focus_box(list(scenes.values()), layout, margin=60)
    zoom = CELL_WIDTH / box[2]
    cell_h = box[3] * zoom
    rows = sorted({t for t, _ in boards})
    first_turn = min(turn for _, turn in boards)
    columns = max(turn for _, turn in boards) - first_turn + 1

    def origin(key: BoardKey) -> Point:
        row = rows.index(key[0])
        return (LABEL_W + (key[1] - first_turn) * (CELL_WIDTH + GAP), HEAD_H + row * (cell_h + GAP))

    grid_w = LABEL_W + columns * (CELL_WIDTH + GAP)
    grid_h = HEAD_H + len(rows) * (cell_h + GAP)
    blocks = _panel(drawn)
    heights = [LINE * len(b) for b in blocks]
    if legend:
        heights.append(20 + legend_height(mv.map.powers))
    panel = arrange(heights, grid_w, grid_h - 30, PANEL_W)
    width = grid_w + PANEL_W * panel.count
    height = max(grid_h, 30 + panel.height)
    root = el(
        None,
        "svg",
        {
            "xmlns": SVG_NS,
            "class": "board multiverse",
            "width": width,
            "height": height,
            "viewBox": f"0 0 {num(width)} {num(height)}",
            "font-family": "sans-serif",
        },
    )
    el(root, "style", text=STYLE + GRID_STYLE)
    defs = el(root, "defs")
    markers(defs, prefix, mv.map.powers)
    clip = f"{prefix}view" if clip_path(defs, f"{prefix}view", mv.map, layout, box) else None
    el(root, "rect", {"width": width, "height": height, "fill": "#fff"})
    if heading:
        el(root, "text", {"x": 10, "y": 24, "font-size": 16, "font-weight": 700}, heading)
    for timeline in rows:
        y = origin((timeline, first_turn))[1] + cell_h / 2
        el(root, "text", {"class": "row-label", "x": 10, "y": y}, timeline_name(timeline))
    _draw_time(root, boards, origin, cell_h, prefix)
    for key, board in sorted(boards.items()):
        x, y = origin(key)
        cell = el(root, "g", {"class": "cell", "data-board": _name(key)})
        label = f"{_name(key)}  {board.position.phase}"
        el(cell, "text", {"class": "cell-label", "x": x, "y": y - 6}, label)
        view = map_view(cell, box, (x, y, CELL_WIDTH, cell_h))
        draw_board(view, scenes[key], prefix, layout, clip, box)
        frame = "cell-frame new" if key in new else "cell-frame"
        el(cell, "rect", {"class": frame, "x": x, "y": y, "width": CELL_WIDTH, "height": cell_h})
    _draw_branches(root, mv, boards, origin, cell_h)
    locators = {key: locator(b.position, layout) for key, b in boards.items()}

    def on_grid(key: BoardKey, point: Point) -> Point:
        x, y = origin(key)
        return (x + (point[0] - box[0]) * zoom, y + (point[1] - box[1]) * zoom)

    def locate(place: Place) -> DrawnSpot | None:
        key = board_of(place)
        if key not in locators:
            return None
        spot = locators[key](Place(place.province, place.coast))
        if spot is None:
            return None
        unit = f"{_name(key)} {spot.unit}" if spot.unit else ""
        return DrawnSpot(on_grid(key, spot.point), unit, zoom)

    blocked: dict[BoardKey, list[Obstacle]] = {}
    fields: dict[tuple[BoardKey, ...], Field] = {}
    page = (0.0, 0.0, grid_w, height)

    def near(order: Order) -> Field:
        """The labels and units of the boards an order names, which its lines keep off."""
        named = tuple(sorted({k for k in map(board_of, named_places(order)) if k in boards}))
        for key in named:
            if key not in blocked:
                blocked[key] = []
                for o in obstacles(boards[key].position, layout):
                    (left, top), (right, bottom) = on_grid(key, o.box[:2]), on_grid(key, o.box[2:])
                    owner = f"{_name(key)} {o.unit}" if o.unit else ""
                    blocked[key].append(Obstacle((left, top, right, bottom), owner))
        if named not in fields:
            fields[named] = Field([o for k in named for o in blocked[k]], page)
        return fields[named]

    draw_orders(
        el(root, "g", {"class": "orders across"}),
        [d.given for d in across],
        [d.outcome for d in across],
        Where(locate, Field([], page), near),
        prefix,
        mv.map,
        [d.tag for d in across],
    )
    panel_g = el(root, "g", {"class": "panel", "transform": translate(grid_w + 10, 30)})
    for lines, (column, y) in zip(blocks, panel.tops, strict=False):
        draw_lines(panel_g, lines, (PANEL_W * column, y))
    if legend:
        column, y = panel.tops[-1]
        transform = translate(grid_w + 10 + PANEL_W * column, 30 + y + 20)
        legend_g = el(root, "g", {"class": "legend", "transform": transform})
        draw_legend(legend_g, prefix, mv.map.powers)
    if share:
        maps: dict[str, ET.Element] = {}
        share_groups(root, maps, MAP_GROUPS, f"{prefix}map")
        defs.extend(maps.values())
    return root


def _name(key: BoardKey) -> str:
    return f"{timeline_name(key[0])}@{key[1]}"


def _draw_time(
    root: ET.Element,
    boards: dict[BoardKey, MBoard],
    origin: Callable[[BoardKey], Point],
    cell_h: float,
    prefix: str,
) -> None:
    """An arrow from each board to the next board of its timeline."""
    g = el(root, "g", {"class": "timelines"})
    for timeline, turn in sorted(boards):
        if (timeline, turn + 1) in boards:
            x, y = origin((timeline, turn))
            mid = y + cell_h / 2
            el(
                g,
                "path",
                {
                    "class": "time",
                    "d": line_d([(x + CELL_WIDTH + 4, mid), (x + CELL_WIDTH + GAP - 6, mid)]),
                    "marker-end": f"url(#{prefix}head-grey)",
                },
            )


def _draw_branches(
    root: ET.Element,
    mv: Multiverse,
    boards: dict[BoardKey, MBoard],
    origin: Callable[[BoardKey], Point],
    cell_h: float,
) -> None:
    """A dashed curve from the board a timeline forked from down to that timeline's first
    board, labelled under its last stretch."""
    g = el(root, "g", {"class": "branches"})
    for timeline, source in mv.origins:
        if source is None or source not in boards:
            continue
        first = min((k for k in boards if k[0] == timeline), default=None)
        if first is None:
            continue
        sx, sy = origin(source)
        fx, fy = origin(first)
        start = (sx + CELL_WIDTH / 2, sy + cell_h)
        end = (fx, fy + cell_h / 2)
        d = (
            f"M{num(start[0])} {num(start[1])} C{num(start[0])} {num(end[1])} "
            f"{num(start[0])} {num(end[1])} {num(end[0])} {num(end[1])}"
        )
        branch = el(
            g,
            "g",
            {"class": "fork", "data-timeline": timeline_name(timeline), "data-from": _name(source)},
        )
        title(branch, f"timeline {timeline_name(timeline)} forks from {_name(source)}")
        el(branch, "path", {"class": "branch", "d": d})
        # below the curve, which never dips under the row it ends on
        at = {"class": "branch-label", "x": start[0] + 8, "y": end[1] + 16}
        el(branch, "text", at, f"fork: {timeline_name(timeline)} from {_name(source)}")


def _panel(drawn: Sequence[Drawn]) -> list[list[tuple[str, str]]]:
    """The orders in words, grouped: the step's, those adjudicated again, the rest; one block
    per order (a group's heading goes with its first order)."""
    blocks = []
    for tag, heading in (
        ("current", "Orders of this step"),
        ("revised", "Past orders adjudicated again"),
        ("pending", "Orders submitted, not yet adjudicated"),
        ("earlier", "Earlier orders (faded)"),
    ):
        chosen = [d for d in drawn if d.tag == tag]
        for number, d in enumerate(chosen):
            lines = order_lines(d.given, d.outcome, 54)
            blocks.append([("heading", heading), *lines] if number == 0 else lines)
    return blocks


# -- from played steps and saved games --------------------------------------------------------
def step_element(
    done: MultiverseStep,
    heading: str = "",
    prefix: str = "",
    legend: bool = True,
    share: bool = True,
) -> ET.Element:
    """The grid after a step, with the step's orders and the boards it made new."""
    drawn, retreating = step_drawing(done)
    before = {b.key for b in done.before.boards}
    new = [b.key for b in done.after.boards if b.key not in before]
    return grid_element(done.after, drawn, retreating, heading, new, prefix, legend, share)


def step_svg(done: MultiverseStep, heading: str = "") -> str:
    return to_text(step_element(done, heading))


def multiverse_svg(
    mv: Multiverse, pending: Sequence[Given] = (), heading: str = "multiverse", prefix: str = ""
) -> str:
    """Every board with its recorded orders, and orders submitted for the next step."""
    drawn = []
    for board in mv.boards:
        if board.record is not None:
            drawn += [
                Drawn(g, o, "earlier")
                for g, o in zip(board.record.orders, board.record.outcomes, strict=True)
            ]
    heads = mv.heads()
    drawn += [Drawn(complete(mv, g, heads), None, "pending") for g in pending]
    return to_text(grid_element(mv, drawn, heading=heading, prefix=prefix))


def multiverse_game_svg(game: SavedMultiverse, prefix: str = "") -> str:
    """A saved multiverse game: every board with its recorded orders, and the orders
    submitted for the next step."""
    board = game.multiverse.map
    on = "" if board.name == "standard" else f" on {board.name}"
    heading = f"multiverse game{on} (rules {game.rules.name})"
    return multiverse_svg(game.multiverse, game.orders, heading, prefix)
