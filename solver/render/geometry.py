"""Plane geometry for laying out what a picture draws: boxes, segments, convex polygons and
cubic curves, and the boxes of a label's and a unit letter's text."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from topology.extents import LABEL_SIZE, label_width

from .svg import Point

Box = tuple[float, float, float, float]
"""(left, top, right, bottom)."""

ASCENT, DESCENT = 0.76, 0.15
"""How far bold capitals reach above and below their baseline, in ems (an estimate with
room to spare)."""


def text_box(x: float, baseline: float, text: str, size: float = LABEL_SIZE) -> Box:
    """The box of ``text`` in bold capitals of ``size``, centred on ``x``."""
    half = label_width(text, size) / 2
    return (x - half, baseline - ASCENT * size, x + half, baseline + DESCENT * size)


def inflate(box: Box, pad: float) -> Box:
    return (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def contains(outer: Box, inner: Box) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def union(boxes: Sequence[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def bounds(points: Sequence[Point]) -> Box:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def segment_meets_box(p: Point, q: Point, box: Box) -> bool:
    """Does the segment from ``p`` to ``q`` touch the inside of ``box`` (Liang-Barsky)?"""
    low, high = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for step, room in (
        (-dx, p[0] - box[0]),
        (dx, box[2] - p[0]),
        (-dy, p[1] - box[1]),
        (dy, box[3] - p[1]),
    ):
        if abs(step) < 1e-12:
            if room <= 0:
                return False
            continue
        share = room / step
        if step < 0:
            low = max(low, share)
        else:
            high = min(high, share)
        if low >= high:
            return False
    return True


def polyline_meets_box(points: Sequence[Point], box: Box, pad: float) -> bool:
    """Does a line through ``points``, ``2 * pad`` wide, touch ``box``? (Its ends and
    corners are taken square, so the answer errs towards yes.)"""
    left, top, right, bottom = inflate(box, pad)
    for a, b in itertools.pairwise(points):
        if (a[0] <= left and b[0] <= left) or (a[0] >= right and b[0] >= right):
            continue
        if (a[1] <= top and b[1] <= top) or (a[1] >= bottom and b[1] >= bottom):
            continue
        if segment_meets_box(a, b, (left, top, right, bottom)):
            return True
    return False


def polygon_meets_box(polygon: Sequence[Point], box: Box) -> bool:
    """Does a convex polygon overlap a box (separating axes)?"""
    if not overlaps(bounds(polygon), box):
        return False
    corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
    for a, b in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        nx, ny = b[1] - a[1], a[0] - b[0]
        mine = [nx * x + ny * y for x, y in polygon]
        theirs = [nx * x + ny * y for x, y in corners]
        if max(mine) <= min(theirs) or max(theirs) <= min(mine):
            return False
    return True


def cubic(p0: Point, p1: Point, p2: Point, p3: Point, t: float) -> Point:
    s = 1 - t
    a, b, c, d = s * s * s, 3 * s * s * t, 3 * s * t * t, t * t * t
    return (
        a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
        a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1],
    )


def unit(dx: float, dy: float) -> Point:
    """The direction of (dx, dy), or east if it has none."""
    length = math.hypot(dx, dy)
    return (dx / length, dy / length) if length > 1e-9 else (1.0, 0.0)


def turn(d: Point, degrees: float) -> Point:
    """``d`` turned clockwise on the picture (y grows down) by ``degrees``."""
    a = math.radians(degrees)
    return (d[0] * math.cos(a) - d[1] * math.sin(a), d[0] * math.sin(a) + d[1] * math.cos(a))


def ellipse_reach(rx: float, ry: float, d: Point) -> float:
    """How far from its centre an ellipse's edge lies in direction ``d`` (a unit vector)."""
    if rx <= 0 or ry <= 0:
        return 0.0
    return 1 / math.sqrt((d[0] / rx) ** 2 + (d[1] / ry) ** 2)


def outline(centre: Point, along: Point, shape: Sequence[Point]) -> list[Point]:
    """``shape``, given as (forward, sideways) offsets, placed at ``centre`` facing ``along``."""
    ax, ay = along
    return [(centre[0] + f * ax - s * ay, centre[1] + f * ay + s * ax) for f, s in shape]


def visible_parts(view: Box, hidden: Sequence[Box]) -> list[Box]:
    """``view`` less the ``hidden`` boxes, as boxes: bands between the hidden boxes' tops and
    bottoms, each split where a hidden box crosses it."""
    cuts = sorted({view[1], view[3], *(v for b in hidden for v in (b[1], b[3]))})
    cuts = [y for y in cuts if view[1] <= y <= view[3]]
    parts: list[Box] = []
    for top, bottom in itertools.pairwise(cuts):
        if bottom - top < 1e-9:
            continue
        blocked = sorted(
            (max(b[0], view[0]), min(b[2], view[2]))
            for b in hidden
            if b[1] < bottom and top < b[3] and b[0] < view[2] and view[0] < b[2]
        )
        x = view[0]
        for left, right in blocked:
            if left > x:
                parts.append((x, top, left, bottom))
            x = max(x, right)
        if x < view[2]:
            parts.append((x, top, view[2], bottom))
    return parts
