"""Plane geometry for laying out what a picture draws: boxes, and what of a view is left
when some boxes are taken out of it."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

Box = tuple[float, float, float, float]
"""(left, top, right, bottom)."""


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
