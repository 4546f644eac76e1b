"""The look of the pictures: each power's colour and the style sheet every picture carries."""

from __future__ import annotations

POWER_COLOURS = {
    "Austria": "#c8312f",
    "England": "#2b3d9a",
    "France": "#2f9bd6",
    "Germany": "#595959",
    "Italy": "#2e9a48",
    "Russia": "#8a4fb0",
    "Turkey": "#d9a400",
}
OTHER_COLOUR = "#8c6d46"
FAIL = "#d0312d"

STYLE = """
.edge{stroke-width:1.4;fill:none;opacity:.75}
.edge.army{stroke:#b8a27a}.edge.fleet{stroke:#86b8de}.edge.both{stroke:#a3a3a3}
.province text,.coast-point text{font:600 12px sans-serif;fill:#3b3326;text-anchor:middle}
.province.land .shape{fill:#eee2c4;stroke:#b8a27a;stroke-width:1.5}
.province.coast .shape{fill:#e6dcb6;stroke:#3d86c0;stroke-width:2}
.province.sea .shape{fill:#d3e7f7;stroke:#8cbde2;stroke-width:1.5}
.province.sea text{fill:#2f5d80;font-style:italic}
.coast-point .shape{fill:#d3e7f7;stroke:#3d86c0;stroke-width:1.5}
.coast-point text{font-size:9px;fill:#2f5d80}
circle.centre{stroke:#fff;stroke-width:1}
.home{fill:none;stroke-width:2}
.unit text{font:700 10px sans-serif;fill:#fff;text-anchor:middle;pointer-events:none}
.unit .badge{stroke:#fff;stroke-width:1.5}
.unit.dislodged .badge{stroke:#d0312d;stroke-width:3}
.unit.destroyed .badge{stroke:#000;stroke-dasharray:2 2}
.order{fill:none;stroke-linecap:round}
.order.move .stem,.order.retreat .stem{stroke-width:3.5}
.order.fails .stem,.order.bounced .stem{stroke-dasharray:7 5}
.order.support .stem{stroke-width:2;stroke-dasharray:1 4}
.order.cut .stem,.order.disrupted .stem,.order.illegal .stem,.order.invalid .stem{stroke:#999}
.order.hold .ring,.order.convoy .ring{stroke-width:2.5}
.order.convoy .ring{stroke-dasharray:4 3}
.order.disrupted .ring{stroke:#d0312d}
.order .x{stroke:#d0312d;stroke-width:3}
.order.earlier{opacity:.4}
.option{stroke-width:1.6;stroke-dasharray:2 3;fill:none;opacity:.9}
.legend text{font:12px sans-serif;fill:#222}
.legend .heading{font-weight:700}
.panel text{font:12px sans-serif;fill:#222}
.panel .fails,.panel .cut,.panel .disrupted,.panel .illegal,.panel .invalid{fill:#b22222}
"""


def colour(power: str | None) -> str:
    return POWER_COLOURS.get(power or "", OTHER_COLOUR)
