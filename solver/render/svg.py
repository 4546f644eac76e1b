"""A small deterministic SVG writer: elements in the order they are made, numbers rounded."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping

from ..errors import DipsatError

SVG_NS = "http://www.w3.org/2000/svg"

Point = tuple[float, float]


def num(value: float) -> str:
    """A coordinate as short text: one decimal, no trailing zeros ('12', '3.5')."""
    text = f"{round(value, 1):.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def el(
    parent: ET.Element | None, tag: str, attrs: Mapping[str, object] | None = None, text: str = ""
) -> ET.Element:
    """A new element under ``parent``; attribute values are numbers or text, None left out."""
    clean = {
        k: num(v) if isinstance(v, float | int) and not isinstance(v, bool) else str(v)
        for k, v in (attrs or {}).items()
        if v is not None
    }
    node = ET.Element(tag, clean) if parent is None else ET.SubElement(parent, tag, clean)
    if text:
        node.text = text
    return node


def title(parent: ET.Element, text: str) -> None:
    """A tooltip for the element (and what a screen reader says)."""
    el(parent, "title", text=text)


def line_d(points: list[Point]) -> str:
    """Path data for a polyline."""
    return " ".join(f"{'M' if i == 0 else 'L'}{num(x)} {num(y)}" for i, (x, y) in enumerate(points))


def toward(a: Point, b: Point, distance: float) -> Point:
    """The point ``distance`` from ``a`` on the way to ``b`` (``a`` itself if they meet)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1e-9:
        return a
    step = min(distance, length / 2) / length
    return (a[0] + dx * step, a[1] + dy * step)


def between(a: Point, b: Point, share: float) -> Point:
    return (a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share)


def share_groups(
    root: ET.Element, store: dict[str, ET.Element], classes: tuple[str, ...], id_prefix: str
) -> None:
    """Replace each group of ``root`` whose class is one of ``classes`` by a ``<use>`` of one
    copy kept in ``store`` (keyed by the group's text), so that a map drawn many times is
    stored once; the caller puts ``store``'s groups in a ``<defs>``."""
    found = [
        (parent, index, child)
        for parent in root.iter()
        for index, child in enumerate(parent)
        if child.tag == "g" and child.get("class") in classes
    ]
    for parent, index, child in found:
        shared = store.setdefault(ET.tostring(child, encoding="unicode"), child)
        if shared is child:
            child.set("id", f"{id_prefix}{len(store)}")
        parent[index] = ET.Element("use", {"href": f"#{shared.get('id')}"})


def to_text(root: ET.Element) -> str:
    """The document as text, with the XML declaration left out (it embeds in HTML as is)."""
    ET.indent(root, space="")
    return ET.tostring(root, encoding="unicode") + "\n"


def write_png(svg: str, path: str, largest: float = 4000) -> None:
    """Rasterise an SVG picture to a PNG file at twice its size (at most ``largest`` wide).

    Raises:
        DipsatError: the Cairo library CairoSVG draws with is not installed.
    """
    try:
        import cairosvg
    except (ImportError, OSError) as error:  # cairocffi found no libcairo
        raise DipsatError(
            "PNG pictures need the Cairo library (Debian package libcairo2); "
            f"write .svg instead ({error})"
        ) from error

    width = float(ET.fromstring(svg).get("width", "1000"))
    scale = min(2.0, largest / width)
    cairosvg.svg2png(
        bytestring=svg.encode("utf-8"), write_to=path, output_width=round(width * scale)
    )
