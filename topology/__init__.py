"""Map topology for dipsat: provinces, coasts, powers, names and adjacency graphs.

``standard()`` gives the standard board; ``variant(name)`` a variant by name or file
(``load_board(path)`` reads a map file as it is).
"""

from __future__ import annotations

from typing import Any

from .board import Board
from .layout import layout_of, load_layout, standard_layout
from .loader import MAX_YEAR, STANDARD_PATH, MapDataError, load_board, standard
from .names import AmbiguousNameError, UnknownNameError, normalize
from .places import (
    COASTS,
    BuildSites,
    Key,
    Kind,
    Location,
    Power,
    Province,
    Spot,
    UnitType,
    code,
    standing_problem,
)
from .points import Layout
from .variants import variant, variant_names
from .view import BoardView

__all__ = [
    "COASTS",
    "MAX_YEAR",
    "STANDARD",
    "STANDARD_PATH",
    "AmbiguousNameError",
    "Board",
    "BoardView",
    "BuildSites",
    "Key",
    "Kind",
    "Layout",
    "Location",
    "MapDataError",
    "Power",
    "Province",
    "Spot",
    "UnitType",
    "UnknownNameError",
    "code",
    "layout_of",
    "load_board",
    "load_layout",
    "normalize",
    "standard",
    "standard_layout",
    "standing_problem",
    "variant",
    "variant_names",
]


def __getattr__(name: str) -> Any:
    """``topology.STANDARD`` is the cached standard board, loaded on first use."""
    if name == "STANDARD":
        return standard()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
