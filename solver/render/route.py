"""Where an order's line runs: from place to place without crossing a label or a unit.

A line is a cubic curve between two places. The straight line is tried first; when it (or
the arrow head, bar or dot at its end) would cross a province's label, a unit's letter or
a unit it does not start or end on, curves that leave and arrive at wider and wider angles
are tried, gentle arcs before S-bends and hooks (those whose ends would meet something at
once last), and the first that is clear is kept; failing that, two curves joined at a
point beside the way. Everything is decided by the geometry alone, so the same picture
always gets the same lines.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .geometry import (
    Box,
    bounds,
    contains,
    cubic,
    ellipse_reach,
    inflate,
    outline,
    polygon_meets_box,
    polyline_meets_box,
    turn,
    unit,
)
from .svg import Point, num

CLEARANCE = 1.0
"""How far a line keeps from what it must not cross, beyond its own half width."""
ANGLES = (0, 15, -15, 30, -30, 45, -45, 60, -60, 80, -80, 100, -100)
"""How far (degrees) a curve may leave and arrive off the straight line."""
HOOK = 40.0
"""The longest handle of a hook: a long line that turns only near its ends."""
TRIES = sorted(
    (abs(a) + abs(b) + 0.5 * abs(a + b) + hook * 30, a, b, hook)
    for a in ANGLES
    for b in ANGLES
    for hook in (0, 1)
    if a or b or not hook
)
"""Every pair of angles (leaving, arriving) and way of bending (0: an arc over the whole
line, 1: a hook at each end), gentlest first: an arc turns both ends the same way
(``b == -a``); an S-bend, which costs more, turns them alike."""
LOOPS = ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))
"""The sides a line from a place to itself loops out to, in turn."""

# The markers' outlines as (forward, sideways) offsets from the line's end, per unit of
# stroke width: they match the <marker> elements of `markers.markers`.
HEAD = ((0.8, 0.0), (-3.2, -2.0), (-3.2, 2.0))
BAR = ((0.834, -2.5), (0.834, 2.5), (-0.834, 2.5), (-0.834, -2.5))
DOT = tuple((2.0 * math.cos(a * math.pi / 4), 2.0 * math.sin(a * math.pi / 4)) for a in range(8))
SHAPES = {"head": HEAD, "bar": BAR, "dot": DOT}


@dataclass(frozen=True, slots=True)
class Obstacle:
    """Something a line must not cross: a label, a unit's letter, or a unit's badge (which a
    line starting or ending on that unit may touch)."""

    box: Box
    unit: str = ""  # the unit whose badge this is; '' for a label or letter


class Field:
    """The obstacles of a picture, and the box lines must stay in (None: anywhere)."""

    def __init__(self, obstacles: Sequence[Obstacle], frame: Box | None = None) -> None:
        self.obstacles = list(obstacles)
        self.frame = frame

    def near(self, region: Box) -> list[Obstacle]:
        """The obstacles that meet ``region``, in the order they were given."""
        left, top, right, bottom = region
        return [
            o
            for o in self.obstacles
            if o.box[0] < right and left < o.box[2] and o.box[1] < bottom and top < o.box[3]
        ]


@dataclass(frozen=True, slots=True)
class End:
    """One end of a line: a point, the oval round it the line stops on (0, 0: the point
    itself) and the unit standing there, if any."""

    point: Point
    gap: tuple[float, float] = (0.0, 0.0)
    unit: str = ""

    def edge(self, d: Point) -> Point:
        """Where a line leaving the point in direction ``d`` crosses the oval."""
        r = ellipse_reach(*self.gap, d)
        return (self.point[0] + d[0] * r, self.point[1] + d[1] * r)


@dataclass(frozen=True, slots=True)
class Curve:
    """A cubic curve (a straight line when its handles lie on it)."""

    p0: Point
    p1: Point
    p2: Point
    p3: Point
    straight: bool = False

    def at(self, t: float) -> Point:
        return cubic(self.p0, self.p1, self.p2, self.p3, t)

    def points(self, count: int | None = None) -> list[Point]:
        """Points along the curve, enough that the segments between them follow it."""
        if self.straight:
            return [self.p0, self.p3]
        length = sum(
            math.dist(a, b) for a, b in ((self.p0, self.p1), (self.p1, self.p2), (self.p2, self.p3))
        )
        count = count or max(6, min(32, math.ceil(length / 10)))
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = self.p0, self.p1, self.p2, self.p3
        ax, bx, cx = x3 - 3 * x2 + 3 * x1 - x0, 3 * x2 - 6 * x1 + 3 * x0, 3 * (x1 - x0)
        ay, by, cy = y3 - 3 * y2 + 3 * y1 - y0, 3 * y2 - 6 * y1 + 3 * y0, 3 * (y1 - y0)
        found = []
        for i in range(count + 1):
            t = i / count
            found.append((((ax * t + bx) * t + cx) * t + x0, ((ay * t + by) * t + cy) * t + y0))
        return found

    def heading(self) -> Point:
        """The direction the curve arrives in."""
        for before in (self.p2, self.p1, self.p0):
            if math.dist(before, self.p3) > 1e-6:
                return unit(self.p3[0] - before[0], self.p3[1] - before[1])
        return (1.0, 0.0)


@dataclass(frozen=True, slots=True)
class Line:
    """An order's line: one curve, or a few joined end to end."""

    pieces: tuple[Curve, ...]

    @property
    def end(self) -> Point:
        return self.pieces[-1].p3

    def at(self, share: float) -> Point:
        """The point ``share`` of the way along (each piece an equal share)."""
        count = len(self.pieces)
        index = min(int(share * count), count - 1)
        return self.pieces[index].at(share * count - index)

    def points(self) -> list[Point]:
        found = self.pieces[0].points()
        for piece in self.pieces[1:]:
            found += piece.points()[1:]
        return found

    def heading(self) -> Point:
        return self.pieces[-1].heading()

    def d(self) -> str:
        """The line as SVG path data."""
        first = self.pieces[0].p0
        parts = [f"M{num(first[0])} {num(first[1])}"]
        for piece in self.pieces:
            if piece.straight:
                parts.append(f"L{num(piece.p3[0])} {num(piece.p3[1])}")
            else:
                handles = (piece.p1, piece.p2, piece.p3)
                parts.append("C" + " ".join(f"{num(x)} {num(y)}" for x, y in handles))
        return " ".join(parts)


def marker_outline(kind: str, at: Point, heading: Point, width: float) -> list[Point]:
    """The outline of a line's end marker (``head``, ``bar``, ``dot``) for a stroke of
    ``width``."""
    shape = [(f * width, s * width) for f, s in SHAPES[kind]]
    return outline(at, heading, shape)


def hits(
    line: Line,
    field: Field,
    width: float,
    marker: str | None,
    exempt: Sequence[str],
    enough: int = 1 << 30,
) -> int:
    """How many obstacles the line (and its end marker) crosses, counted up to ``enough``;
    1 when it leaves the frame."""
    points = line.points()
    shapes: list[list[Point]] = []
    if marker is not None:
        shapes.append(marker_outline(marker, line.end, line.heading(), width))
    pad = width / 2 + CLEARANCE
    region = inflate(bounds([*points, *(p for s in shapes for p in s)]), pad)
    if field.frame is not None and not contains(field.frame, region):
        return 1
    count = 0
    for o in field.near(region):
        if o.unit and o.unit in exempt:
            continue
        grown = inflate(o.box, CLEARANCE)
        if polyline_meets_box(points, o.box, pad) or any(
            polygon_meets_box(s, grown) for s in shapes
        ):
            count += 1
            if count >= enough:
                break
    return count


def _arm(length: float, degrees: float) -> float:
    """The handle of a cubic that bends by ``degrees`` off its chord, as a circle's arc
    would."""
    a = math.radians(abs(degrees))
    return length / 3 if a < 1e-6 else length * (2 / 3) * math.tan(a / 2) / math.sin(a)


def _curve(start: End, end: End, leave: float, arrive: float, hook: int) -> Curve | None:
    sx, sy = start.point
    ex, ey = end.point
    d = unit(ex - sx, ey - sy)
    out, back = turn(d, leave), turn((-d[0], -d[1]), arrive)
    p0, p3 = start.edge(out), end.edge(back)
    chord = (p3[0] - p0[0]) * d[0] + (p3[1] - p0[1]) * d[1]
    if chord <= 2:  # the ends overlap: no line to draw this way
        return None
    if leave == 0 and arrive == 0:
        return Curve(p0, p0, p3, p3, straight=True)
    length = math.dist(p0, p3)
    a, b = _arm(length, leave), _arm(length, arrive)
    if hook:
        a, b = min(a, HOOK), min(b, HOOK)
    p1 = (p0[0] + out[0] * a, p0[1] + out[1] * a)
    p2 = (p3[0] + back[0] * b, p3[1] + back[1] * b)
    return Curve(p0, p1, p2, p3)


def _loop(start: End, end: End, side: Point) -> Curve:
    """A line from a place back to itself: out on one side and back."""
    out, back = turn(side, -40), turn(side, 40)
    p0, p3 = start.edge(out), end.edge(back)
    reach = 34.0
    p1 = (p0[0] + out[0] * reach, p0[1] + out[1] * reach)
    p2 = (p3[0] + back[0] * reach, p3[1] + back[1] * reach)
    return Curve(p0, p1, p2, p3)


RAY = 18.0
"""How far from a line's end `_blocked` looks."""


def _blocked(end: End, d: Point, field: Field, width: float, exempt: Sequence[str]) -> set[int]:
    """The angles (of `ANGLES`) off direction ``d`` in which a line leaving ``end`` would
    cross something within `RAY`."""
    found = set()
    pad = width / 2 + CLEARANCE
    x, y = end.point
    reach = max(end.gap) + RAY + pad
    near = [
        o
        for o in field.near((x - reach, y - reach, x + reach, y + reach))
        if not (o.unit and o.unit in exempt)
    ]
    for angle in ANGLES:
        u = turn(d, angle)
        a = end.edge(u)
        b = (a[0] + u[0] * RAY, a[1] + u[1] * RAY)
        if any(polyline_meets_box([a, b], o.box, pad) for o in near):
            found.add(angle)
    return found


PIECE_TRIES = 24
"""How many of `TRIES` each piece of a line through a waypoint may try."""


def _best(
    start: End, end: End, field: Field, width: float, marker: str | None, tries: int
) -> tuple[int, Line]:
    """The gentlest of the first ``tries`` curves from ``start`` to ``end`` that crosses
    nothing, or the one that crosses least, with how much it crosses."""
    exempt = [u for u in (start.unit, end.unit) if u]
    curves: Iterable[Curve | None]
    if math.dist(start.point, end.point) < 1:
        curves = [_loop(start, end, side) for side in LOOPS]
    else:
        d = unit(end.point[0] - start.point[0], end.point[1] - start.point[1])
        out = _blocked(start, d, field, width, exempt)
        back = _blocked(end, (-d[0], -d[1]), field, width, exempt)
        chosen = TRIES[:tries]
        # the curves that leave and arrive where nothing is close by first: the others
        # almost always cross what is there
        order = [t for t in chosen if t[1] not in out and t[2] not in back]
        order += [t for t in chosen if t[1] in out or t[2] in back]
        curves = (_curve(start, end, a, b, hook) for _, a, b, hook in order)
    lines = []
    for curve in curves:
        if curve is None:
            continue
        line = Line((curve,))
        if hits(line, field, width, marker, exempt, 1) == 0:
            return (0, line)
        lines.append(line)
    if not lines:  # two places drawn on top of each other: the shortest line
        return (0, Line((Curve(start.point, start.point, end.point, end.point, True),)))
    best = (hits(lines[0], field, width, marker, exempt), lines[0])
    for line in lines[1:]:
        count = hits(line, field, width, marker, exempt, best[0])
        if count < best[0]:
            best = (count, line)
    return best


def _waypoints(a: Point, b: Point) -> list[Point]:
    """Points beside the line from ``a`` to ``b`` that a line may bend round, nearest
    first."""
    length = math.dist(a, b)
    d = unit(b[0] - a[0], b[1] - a[1])
    side = (-d[1], d[0])
    found = []
    for away in (0.2, -0.2, 0.35, -0.35):
        for share in (0.5, 0.35, 0.65):
            x = a[0] + (b[0] - a[0]) * share + side[0] * away * length
            found.append((x, a[1] + (b[1] - a[1]) * share + side[1] * away * length))
    return found


def route(start: End, end: End, field: Field, width: float, marker: str | None = None) -> Line:
    """The gentlest curve from ``start`` to ``end`` that crosses nothing in ``field``, else
    two curves joined at a point beside the way that cross nothing; if every line tried
    crosses something, the single curve that crosses least (the gentlest of those)."""
    count, line = _best(start, end, field, width, marker, len(TRIES))
    if count == 0:
        return line
    for point in _waypoints(start.point, end.point):
        middle = End(point)
        ahead, first = _best(start, middle, field, width, None, PIECE_TRIES)
        if ahead:
            continue
        behind, second = _best(middle, end, field, width, marker, PIECE_TRIES)
        if behind == 0:
            return Line(first.pieces + second.pieces)
    return line


def clear_spot(curve: Line, shares: Sequence[float], shape: Sequence[Point], field: Field) -> Point:
    """The first point of ``curve`` at one of ``shares`` (of the way along) where ``shape``
    (offsets round the point) crosses nothing; else the first share's."""
    for share in shares:
        x, y = curve.at(share)
        placed = [(x + dx, y + dy) for dx, dy in shape]
        box = inflate(bounds(placed), CLEARANCE)
        if field.frame is not None and not contains(field.frame, box):
            continue
        if not any(polygon_meets_box(placed, inflate(o.box, CLEARANCE)) for o in field.near(box)):
            return (x, y)
    return curve.at(shares[0])
