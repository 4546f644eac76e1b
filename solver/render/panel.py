"""The orders in words beside a map, and the legend after them, laid out in columns.

A list longer than the map would leave the map's side of the page empty below it; so the
blocks (the heading, each order's lines, the legend) are laid out in as many columns, each
as tall as the map or a little more, as make the page smallest.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

from .svg import el, num

LINE = 18.0
"""The height of a line of text."""
PAD = 10.0
"""Room above and below a column's blocks."""
MOST_COLUMNS = 8


@dataclass(frozen=True, slots=True)
class Columns:
    """Where each block goes: its column and its top, and how tall the tallest column is."""

    count: int
    height: float
    tops: tuple[tuple[int, float], ...]


def _fill(heights: Sequence[float], room: float) -> tuple[int, float, list[tuple[int, float]]]:
    """Blocks in order into columns of height ``room``, a block never split: the columns
    used, the tallest, and each block's place."""
    column, y, tallest, tops = 0, PAD, 0.0, []
    for height in heights:
        if y > PAD and y + height + PAD > room:
            column, y = column + 1, PAD
        tops.append((column, y))
        y += height
        tallest = max(tallest, y + PAD)
    return column + 1, tallest, tops


def arrange(heights: Sequence[float], map_w: float, map_h: float, column_w: float) -> Columns:
    """The blocks of ``heights`` in columns of ``column_w`` beside a map of ``map_w`` by
    ``map_h``: the number of columns (at most `MOST_COLUMNS`) whose page is smallest, the
    fewest when two are alike."""
    if not heights:
        return Columns(0, 0.0, ())
    best: tuple[float, Columns] | None = None
    base = max(map_h, max(heights) + 2 * PAD)
    most = min(_fill(heights, base)[0], MOST_COLUMNS)
    for count in range(1, most + 1):
        low, high = 0, math.ceil(sum(heights) / LINE)  # lines added to the base height
        while low < high:  # the fewest that fit the blocks in ``count`` columns
            middle = (low + high) // 2
            if _fill(heights, base + middle * LINE)[0] <= count:
                high = middle
            else:
                low = middle + 1
        used, tallest, tops = _fill(heights, base + low * LINE)
        area = (map_w + used * column_w) * max(map_h, tallest)
        if best is None or area < best[0] - 1e-6:
            best = (area, Columns(used, tallest, tuple(tops)))
    assert best is not None
    return best[1]


def draw_lines(
    parent: ET.Element, lines: Sequence[tuple[str, str]], at: tuple[float, float]
) -> None:
    """Lines of text, each classed (a heading is bold), the first line's top at ``at``."""
    for number, (kind, text) in enumerate(lines):
        attrs: dict[str, object] = {
            "x": at[0],
            "y": at[1] + 14 + LINE * number,
            "class": kind,
        }
        if kind == "heading":
            attrs["font-weight"] = 700
        el(parent, "text", attrs, text)


def translate(x: float, y: float) -> str:
    return f"translate({num(x)},{num(y)})"
