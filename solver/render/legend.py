"""The legend: what the shapes, lines and colours of a picture mean."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from .arrows import cross
from .style import FAIL, NEUTRAL_CENTRE, OTHER_COLOUR, PALETTE, power_colours
from .svg import el

LEGEND_HEIGHT = 300
"""The height of the legend of a board of up to eight powers (`legend_height`)."""
LEGEND_WIDTH = 312.0


def _columns(powers: Sequence[str]) -> tuple[int, float]:
    """How many powers a row of the legend holds, and how far apart: four 78 wide, fewer
    for long names (at most 7.2 a letter)."""
    width = max([78.0, *(math.ceil(26 + 7.2 * len(p)) for p in powers)])
    return max(1, int(LEGEND_WIDTH // width)), width


def legend_height(powers: Sequence[str]) -> float:
    """The height of the legend for a board with these powers (a row of 20 per power row)."""
    per_row, _ = _columns(powers)
    rows = math.ceil(len(powers) / per_row)
    return LEGEND_HEIGHT + 20 * max(0, rows - 2)


def draw_legend(g: ET.Element, prefix: str, powers: Sequence[str]) -> None:
    """What the shapes, lines and colours mean; the colours of a board's ``powers``."""
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
            "stroke": PALETTE[2],  # a sample of a power's colour
            "stroke-width": 2,
        },
    )
    el(g, "circle", {"cx": 15, "cy": y, "r": 4.5, "fill": PALETTE[2], "stroke": "#fff"})
    neutral = {"cx": 50, "cy": y, "r": 4.5, "fill": NEUTRAL_CENTRE, "class": "centre neutral"}
    el(g, "circle", neutral)
    el(g, "text", {"x": 64, "y": y + 4}, "centre: dot owner (white: none), ring home")
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
    cross(el(g, "g", {"class": "order"}), (15, y), 6)
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
    el(g, "text", {"x": 40, "y": y + 4}, "dislodged or retreating; dotted: its retreats")
    y += 24
    per_row, width = _columns(powers)
    for n, (power, fill) in enumerate(power_colours(tuple(powers)).items()):
        x = (n % per_row) * width
        yy = y + (n // per_row) * 20
        el(g, "circle", {"cx": x + 8, "cy": yy, "r": 7, "fill": fill})
        el(g, "text", {"x": x + 20, "y": yy + 4}, power)
