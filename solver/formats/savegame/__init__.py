"""Saved games: a JSON document, read with every field checked, saved atomically.

`standard` holds standard games (`SavedGame`), `multiverse` multiverse games
(`SavedMultiverse`: the same envelope with "variant": "multiverse") and `envelope` what both
share: format and version, the size limit, JSON text in and out, the atomic save and the
base reader.  `to_json` and `save` write either kind.  `load` and `from_json` read standard
games only; `load_multiverse` reads multiverse games and `load_any` either.  The format and
the guarantees are described in docs/reliability.md; the JSON Schema is
docs/savegame.schema.json.
"""

from __future__ import annotations

import os

from .envelope import FORMAT, MAX_SAVE_FILE_BYTES, VERSION, _dump, _parse, _read_text, _save_text
from .multiverse import (
    VARIANT_MULTIVERSE,
    SavedMultiverse,
    _MultiverseReader,
    load_multiverse,
    multiverse_from_json,
    new_multiverse,
    step_multiverse,
    submit_multiverse,
)
from .standard import (
    STANDARD_START,
    PastPhase,
    Recorded,
    SavedGame,
    _GameReader,
    adjudicate_game,
    from_json,
    load,
    new_game,
    submit,
)

__all__ = [
    "FORMAT",
    "MAX_SAVE_FILE_BYTES",
    "STANDARD_START",
    "VARIANT_MULTIVERSE",
    "VERSION",
    "PastPhase",
    "Recorded",
    "SavedGame",
    "SavedMultiverse",
    "adjudicate_game",
    "any_from_json",
    "from_json",
    "load",
    "load_any",
    "load_multiverse",
    "multiverse_from_json",
    "new_game",
    "new_multiverse",
    "save",
    "step_multiverse",
    "submit",
    "submit_multiverse",
    "to_json",
]


def to_json(game: SavedGame | SavedMultiverse) -> str:
    """The saved game as JSON text: sorted keys, orders in submission order, a final newline."""
    return _dump(game.to_json())


def save(game: SavedGame | SavedMultiverse, path: str | os.PathLike[str]) -> None:
    """Write the game to `path` atomically: a reader sees the old file or the new, whole.

    The text goes to a temporary file beside `path`, is flushed to disk and renamed over
    `path`; on any failure the temporary file is removed and `path` is left as it was.  A
    symbolic link is followed: the file it points to is replaced and the link stays.

    Raises:
        SaveFileError: `path` is read-only ("read-only; not changed").
        OSError: the file or its temporary file cannot be written."""
    _save_text(to_json(game), path)


def any_from_json(text: str, path: str = "-") -> SavedGame | SavedMultiverse:
    """Read a saved game of either kind, as its "variant" says."""
    data = _parse(text, path)
    if isinstance(data, dict) and "variant" in data:
        return _MultiverseReader(path).multiverse(data)
    return _GameReader(path).game(data)


def load_any(path: str | os.PathLike[str]) -> SavedGame | SavedMultiverse:
    """Read a saved game of either kind from a file."""
    return any_from_json(_read_text(path), str(path))
