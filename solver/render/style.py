"""The look of the pictures: each power's colour and the style sheet every picture carries."""

from __future__ import annotations

import colorsys
import functools
import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType

POWER_COLOURS = {
    "Austria": "#c8312f",
    "England": "#2b3d9a",
    "France": "#2f9bd6",
    "Germany": "#595959",
    "Italy": "#2e9a48",
    "Russia": "#8a4fb0",
    "Turkey": "#d9a400",
}
"""The colours of the standard powers, which keep them on any board that has them."""
PALETTE = (
    *POWER_COLOURS.values(),
    "#d9681a",  # orange
    "#17908f",  # teal
    "#b2368b",  # magenta
    "#7d9a1e",  # olive
    "#5566d6",  # periwinkle
    "#9c4a2a",  # rust
    "#1f1f1f",  # black
    "#d85c86",  # pink
    "#3c6b52",  # pine
    "#6a3d7a",  # plum
    "#b58b00",  # ochre
    "#2d6e99",  # steel
)
"""Colours for the powers of a board, in the order they are handed out: distinct, and dark
enough for the white letter of a unit; a board with more powers gets further hues."""
OTHER_COLOUR = "#8c6d46"
FAIL = "#d0312d"
NEUTRAL_CENTRE = "#fff"
"""A centre nobody owns: a white dot with a dark edge, unlike any power's filled dot."""

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
circle.centre.neutral{stroke:#3b3326;stroke-width:1.5}
.home{fill:none;stroke-width:2}
.unit text{font:700 10px sans-serif;fill:#fff;text-anchor:middle;pointer-events:none}
.unit .badge{stroke:#fff;stroke-width:1.5}
.unit.dislodged .badge,.unit.retreating .badge{stroke:#d0312d;stroke-width:3}
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


@functools.lru_cache(maxsize=64)
def power_colours(powers: tuple[str, ...]) -> Mapping[str, str]:
    """Each power's colour on a board with these powers: a standard power keeps its own;
    the others, in order, take the first colours of :data:`PALETTE` nobody has, then hues
    spaced by the golden angle."""
    found = {p: POWER_COLOURS[p] for p in powers if p in POWER_COLOURS}
    free = [c for c in PALETTE if c not in found.values()]
    extra = 0
    for power in powers:
        if power in found:
            continue
        if free:
            found[power] = free.pop(0)
            continue
        hue = (0.11 + 0.381966 * extra) % 1.0
        extra += 1
        red, green, blue = colorsys.hls_to_rgb(hue, 0.32 + 0.06 * (extra % 3), 0.7)
        found[power] = "#" + "".join(f"{round(v * 255):02x}" for v in (red, green, blue))
    return MappingProxyType({p: found[p] for p in powers})


def colour(power: str | None, powers: Sequence[str]) -> str:
    """The colour of ``power`` among a board's ``powers`` (a neutral brown for none)."""
    return power_colours(tuple(powers)).get(power or "", OTHER_COLOUR)


@functools.lru_cache(maxsize=64)
def power_tokens(powers: tuple[str, ...]) -> Mapping[str, str]:
    """Each power's name as a class and id token: lower case, runs of anything but letters
    and digits as one "-" ("Great Britain": "great-britain"), a number added where two
    would be alike."""
    tokens: dict[str, str] = {}
    for power in powers:
        token = re.sub(r"[^a-z0-9]+", "-", power.lower()).strip("-") or "power"
        if token in ("other", "grey") or token in tokens.values():
            token = next(
                f"{token}-{n}"
                for n in range(2, len(powers) + 3)
                if f"{token}-{n}" not in tokens.values()
            )
        tokens[power] = token
    return MappingProxyType(tokens)


def token(power: str, powers: Sequence[str]) -> str:
    """The class and id token of a power of the board (`power_tokens`; "other" for a power
    the board does not have)."""
    return power_tokens(tuple(powers)).get(power, "other")
