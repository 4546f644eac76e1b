"""The arrow heads, bars and dots that end order lines, in the picture's <defs>.

Their outlines, as `route` checks them against labels and units, are `route.HEAD`,
`route.BAR` and `route.DOT`: a change here must be made there too.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from .style import FAIL, OTHER_COLOUR, power_colours, token
from .svg import el


def markers(defs: ET.Element, prefix: str, powers: Sequence[str]) -> None:
    """Arrow heads in the colour of each of a board's ``powers``, the bounce bar and the
    support dot."""
    heads = [(token(p, powers), fill) for p, fill in power_colours(tuple(powers)).items()]
    for power, fill in [*heads, ("other", OTHER_COLOUR), ("grey", "#999")]:
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
