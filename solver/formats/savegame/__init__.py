"""Saved games: a JSON document, read with every field checked, saved atomically.

`standard` holds standard games (`SavedGame`), `multiverse` multiverse games
(`SavedMultiverse`: the same envelope with "variant": "multiverse") and `envelope` what both
share: format and version, the size limit, JSON text in and out, the atomic save and the
base reader.  `to_json` and `save` write either kind.  `load` and `from_json` read standard
games only; `load_multiverse` reads multiverse games and `load_any` either.  `create` writes
a new game file and refuses one that exists; `changing` reads a game and saves its change
under the game's lock (`locking`), so that two programs changing one game never lose a
change (the lock is on the game file itself: no other file is made).  The format and the
guarantees are described in docs/reliability.md; the JSON Schema is
docs/savegame.schema.json.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Iterator, Sequence

from ...errors import DipsatError, SaveFileError
from .envelope import (
    FORMAT,
    MAX_SAVE_FILE_BYTES,
    VERSION,
    _dump,
    _parse,
    _read_open,
    _read_text,
    _refuse_unwritable,
    _save_text,
)
from .locking import LOCK_TIMEOUT_SECONDS, GameBusyError, holding, locked, target
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
    "LOCK_TIMEOUT_SECONDS",
    "MAX_SAVE_FILE_BYTES",
    "STANDARD_START",
    "VARIANT_MULTIVERSE",
    "VERSION",
    "Change",
    "GameBusyError",
    "PastPhase",
    "Recorded",
    "SavedGame",
    "SavedMultiverse",
    "adjudicate_game",
    "any_from_json",
    "changing",
    "create",
    "from_json",
    "load",
    "load_any",
    "load_multiverse",
    "locked",
    "multiverse_from_json",
    "new_game",
    "new_multiverse",
    "save",
    "step_multiverse",
    "submit",
    "submit_multiverse",
    "to_json",
    "withdrawn",
]


def withdrawn(
    game: SavedGame | SavedMultiverse, powers: Sequence[str] = ()
) -> tuple[SavedGame | SavedMultiverse, int]:
    """The game without the orders the powers named submitted for the current phase (every
    order when none is named), and how many went.

    Raises:
        DipsatError: a name that is no power of the board (the message lists them).
    """
    board = game.position.map if isinstance(game, SavedGame) else game.multiverse.map
    known = {p.casefold(): p for p in board.powers}
    chosen = set()
    for name in powers:
        if name.casefold() not in known:
            raise DipsatError(f"no power {name!r} on this board; powers: {', '.join(board.powers)}")
        chosen.add(known[name.casefold()].casefold())
    kept = tuple(g for g in game.orders if chosen and (g.power or "").casefold() not in chosen)
    return dataclasses.replace(game, orders=kept), len(game.orders) - len(kept)


def to_json(game: SavedGame | SavedMultiverse) -> str:
    """The saved game as JSON text: sorted keys, orders in submission order, a final newline."""
    return _dump(game.to_json())


def save(game: SavedGame | SavedMultiverse, path: str | os.PathLike[str]) -> None:
    """Write the game to `path` atomically: a reader sees the old file or the new, whole.

    The text goes to a temporary file beside `path`, is flushed to disk and renamed over
    `path`; on any failure the temporary file is removed and `path` is left as it was.  A
    symbolic link is followed: the file it points to is replaced and the link stays.  Inside
    `changing` (or `locked`) the lock moves to the new file with the rename.

    Raises:
        SaveFileError: `path` is read-only ("read-only; not changed"), or a pipe, a device
            or a folder ("a pipe, not a saved game; expected a regular file").
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


def create(game: SavedGame | SavedMultiverse, path: str | os.PathLike[str]) -> None:
    """Write a new game file, atomically as `save` does; if a file has that name already
    (made by anyone, at any moment before this one) it is left alone.  A symbolic link of
    that name is not followed: the game would be made wherever it leads.  No lock is
    needed: the game appears whole, at once, and `changing` waits for nothing else.

    Raises:
        SaveFileError: the file exists ("already exists; choose another file"), the
            name is a symbolic link, or the file cannot be written ("cannot write: ...":
            the folder is missing or not writable)."""
    try:
        _save_text(to_json(game), path, new=True)
    except OSError as error:
        raise SaveFileError(f"cannot write: {error.strerror or error}", str(path)) from error


class Change:
    """A saved game being changed: `game` as read (or as last saved), `save` to replace it."""

    def __init__(self, path: str | os.PathLike[str], game: SavedGame | SavedMultiverse) -> None:
        self.path = path
        self.game = game

    def save(self, game: SavedGame | SavedMultiverse) -> None:
        """Replace the game on disk (atomically, as `save` does) while the lock is held."""
        save(game, self.path)
        self.game = game


@contextlib.contextmanager
def changing(path: str | os.PathLike[str], timeout: float | None = None) -> Iterator[Change]:
    """Read a saved game of either kind to change it, holding its lock until the block
    ends: no other `changing` (in this or another process, such as a dipsat command) reads
    the game meanwhile, so no change is lost::

        with changing("my.json") as change:
            game, problems = change.game.submit(["England: F London - North Sea"])
            change.save(game)

    Waits up to `timeout` seconds (`LOCK_TIMEOUT_SECONDS` by default) for another to
    finish.  A read-only game is refused before it is read, and anything but a regular file
    before it is opened (a pipe would block the open).  A symbolic link is followed to the
    game it leads to, which is read before anything is written beside it.  A block that
    does not call `save` leaves the file as it was; no other file is made.

    Raises:
        GameBusyError: the game was still locked when the wait ran out ("FILE: another
            dipsat command is changing this game; try again").
        SaveFileError: the game cannot be read, is read-only ("read-only; not changed"), or
            is a pipe, a device or a folder ("a pipe, not a saved game; expected a regular
            file").
    """
    with holding(path, timeout) as fd:
        _refuse_unwritable(target(path), str(path))
        yield Change(path, any_from_json(_read_open(fd, str(path)), str(path)))
