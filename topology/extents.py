"""What a picture draws round the point of a place, and how big: the sizes the renderer
(``solver/render/board_drawing.py``) uses for a province's label and tile, so that a generated
layout (:mod:`topology.autolayout`) can space its points far enough apart that nothing one
place draws touches what another draws."""

from __future__ import annotations

import functools

from .places import Kind

Box = tuple[float, float, float, float]
"""(left, top, right, bottom), in picture units."""


LABEL_SIZE = 12.0
"""Font size of a province's label, its code in capitals (bold, sans-serif)."""

_EMS = dict(
    zip(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
        [0.78, 0.77, 0.74, 0.83, 0.69, 0.69, 0.83, 0.84, 0.38, 0.38, 0.78, 0.64, 1.0]
        + [0.84, 0.85, 0.74, 0.85, 0.78, 0.72, 0.69, 0.82, 0.78, 1.11, 0.78, 0.73, 0.73]
        + [0.70] * 10,
        strict=True,
    )
)
"""Advance widths in ems of the capitals and digits in DejaVu Sans Bold, rounded up: the
face most systems draw bold sans-serif with, and wider than Helvetica's or Arial's."""


def label_width(text: str, size: float = LABEL_SIZE) -> float:
    """At most the width of ``text`` drawn in bold sans-serif at ``size``: its letters'
    widths (:data:`_EMS`; 1.11, the widest, for any other) and a twentieth of an em."""
    return (sum(_EMS.get(c, 1.11) for c in text) + 0.05) * size


@functools.cache
def tile_size(code: str, kind: Kind) -> tuple[float, float]:
    """Half the width and height of a province's tile: land and coast a rounded box of
    54 x 32, sea an oval of 60 x 38, each widened for a label that would not fit (a box so
    that the label clears the ring at its corner, an oval so that the label's corners stay
    inside it). Every code of up to three capitals but the widest fits."""
    half = label_width(code.upper()) / 2
    if kind is Kind.SEA:
        return (max(30.0, 1.45 * half), 19.0)
    return (max(27.0, half + 10.5), 16.0)


LABEL_DY = -5.0
"""The baseline of a province's label, below its point (negative: above)."""
UNIT_DY = 11.0
"""Where a unit stands in a province: this far below its point, under the label (a unit on
a split coast stands on the coast's point)."""
RETREAT_OFFSET = (16.0, 10.0)
"""Where a unit waiting to retreat is drawn, from the unit that dislodged it."""
RING = (16.0, 12.5)
"""Half the width and height of the oval (a convoy, a build) or the square (a hold) drawn
round a unit, its stroke 2.5 wide: it clears the label above the unit."""


def place_extent(code: str, kind: Kind | None) -> Box:
    """Everything a picture may draw around a place, as offsets (left, top, right, bottom)
    from its point: the tile with its label inside, the centre's dot and home ring at the
    tile's top right corner (not on a sea), a unit below the label and one waiting to
    retreat beside it, an order's ring round the unit. ``kind`` None: a split coast (its
    circle and the units standing on it)."""
    ring_x = RING[0] + 1.5  # the ring's stroke, and a little room
    beside = RETREAT_OFFSET[0] + 9.5 + 3  # a waiting unit's edge is 3 wide
    if kind is None:  # circle r 11; fleet 22 x 15 on the point, a waiting one beside it
        return (-ring_x, -16.5, beside, RETREAT_OFFSET[1] + 11.5)
    half_w, half_h = tile_size(code, kind)
    left = -max(half_w + 1, ring_x)  # the tile's edge, or the ring round the unit
    right = max(half_w + 1, beside)
    top = -(half_h + 1)
    if kind is not Kind.SEA:  # the home ring, r 7.5 and 2 wide, at (half_w - 2, -14)
        right, top = max(right, half_w + 6.5), -22.5
    return (left, top, right, UNIT_DY + RETREAT_OFFSET[1] + 11.5)
