"""Boards by name: the standard board, the variants shipped in ``topology/data/variants/``,
a map file of dipsat's format (``*.toml``), or a MILA map (``*.map`` or ``mila:NAME``, read
from the file or from the installed ``diplomacy`` package).

Each source is read once per process and then shared, so that the same name always gives
the same :class:`~topology.board.Board` (a board is a value that keys caches)."""

from __future__ import annotations

import functools
from pathlib import Path

from .board import Board
from .files import probe, shown
from .loader import MapDataError, load_board, standard

VARIANTS_DIR = Path(__file__).parent / "data" / "variants"
"""The variants shipped with dipsat, one ``NAME.toml`` each (see docs/variants.md)."""


def variant_names() -> tuple[str, ...]:
    """The names :func:`variant` knows without a file: ``standard`` and the shipped ones."""
    shipped = sorted(p.stem for p in VARIANTS_DIR.glob("*.toml") if p.stem != "standard")
    return ("standard", *shipped)


def variant(source: str) -> Board:
    """The board ``source`` names: ``standard``, a shipped variant (``ancmed``), a map file
    (``my-map.toml``), a MILA map file (``x.map``) or a map of MILA's package (``mila:NAME``).

    Raises:
        TypeError: ``source`` is not text.
        MapDataError: no such variant, or the file is unreadable or breaks the format.
        TypeError: `source` is not text.
    """
    text = _text(source).strip()
    if text == "standard":
        return standard()
    if text.startswith("mila:"):
        return _mila(text.removeprefix("mila:"))
    path = Path(text)
    if path.suffix == ".map":
        return _mila(str(path.resolve()))
    if path.suffix == ".toml":
        return _file(path.resolve())
    shipped = VARIANTS_DIR / f"{text}.toml"
    if text and "/" not in text and probe(shipped) == "file":
        return _file(shipped)
    raise MapDataError(
        f"unknown variant {shown(source, 60)}: expected one of {', '.join(variant_names())}, "
        "a map file NAME.toml, a MILA map file NAME.map, or mila:NAME"
    )


def _text(source: object) -> str:
    """`source` itself if it is text (a Python caller may pass anything)."""
    if not isinstance(source, str):
        found = f"{type(source).__name__} {shown(source)}"
        raise TypeError(f"source: expected a variant's name or file as text, found {found}")
    return source


@functools.cache
def _file(path: Path) -> Board:
    return load_board(path)


@functools.cache
def _mila(source: str) -> Board:
    from .milamap import load_mila_map

    return load_mila_map(source)
