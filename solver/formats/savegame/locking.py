"""One change of a saved game at a time: the lock a command holds from reading the game to
replacing it, so that two commands changing one game never both read the old file and
one of them lose the other's change.

The lock is `fcntl.flock` on the game file itself (the file a symbolic link points to, so
every link to a game shares its lock); no other file is made.  A save replaces the game by
renaming a new file over it, so the lock has to move with the game:

- the holder locks the new file before the rename (`hand_over`), then lets the old one go,
  so the game's current file is locked from the first read to the last save;
- a command that waited on the old file finds, once it has the lock, that the game's name
  now leads to another file, and locks that one instead (`_open_locked`).

Only a regular file is opened (a FIFO or a device would block the open itself, or be
replaced by a file): anything else is refused naming the file, before it is opened.  The
operating system releases the lock when its process ends, however it ends, so a killed
command never leaves a game locked.

Where `fcntl` is missing (Windows), games are not locked.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from ...errors import SaveFileError

try:
    fcntl: ModuleType | None = importlib.import_module("fcntl")
except ImportError:  # pragma: no cover - not on the platforms dipsat is tested on
    fcntl = None

LOCK_TIMEOUT_SECONDS = 10.0
"""How long a command waits for another to finish changing a game before it gives up."""
_POLL_SECONDS = 0.02
# Read-only is enough to lock (and opens a game another user may write); a FIFO put in
# place after the check still opens at once (O_NONBLOCK), and is then refused.
_OPEN_FLAGS: int = os.O_RDONLY
for _flag in ("O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC"):  # those this system has
    _OPEN_FLAGS |= getattr(os, _flag, 0)


class GameBusyError(SaveFileError):
    """Another command (or thread) held the game's lock for longer than the wait."""


_held = threading.local()  # game file -> the descriptor holding its lock, in this thread


def _holding() -> dict[Path, int]:
    games: dict[Path, int] = _held.__dict__.setdefault("games", {})
    return games


def target(path: str | os.PathLike[str]) -> Path:
    """The file a save replaces: the file a symbolic link points to (through every link),
    not the link, which a rename over it would replace by a copy."""
    return Path(os.path.realpath(path))


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a pipe"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "a special file"


def refuse_special(mode: int, name: str) -> None:
    """A saved game is a regular file: a pipe, a device or a folder is refused."""
    if not stat.S_ISREG(mode):
        raise SaveFileError(f"{_kind(mode)}, not a saved game; expected a regular file", name)


def open_game(path: str | os.PathLike[str]) -> int:
    """A read-only descriptor of the saved game at `path`, checked to be a regular file
    before it is opened (a FIFO would block the open) and again once open.

    Raises:
        SaveFileError: no such file ("cannot read: ..."), or not a regular file.
    """
    name = str(path)
    try:
        refuse_special(os.stat(path).st_mode, name)
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as error:
        raise SaveFileError(f"cannot read: {error.strerror or error}", name) from error
    try:
        refuse_special(os.fstat(fd).st_mode, name)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _same_file(fd: int, path: str | os.PathLike[str]) -> bool:
    """Whether the game's name still leads to the file open as `fd`."""
    try:
        now = os.stat(path)
    except OSError:
        return False  # gone or replaced: open it again, which says what is wrong
    held = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)


def _open_locked(path: str | os.PathLike[str], deadline: float) -> int:
    """A descriptor of the game's file holding its lock, waiting until `deadline`."""
    assert fcntl is not None
    busy = GameBusyError("another dipsat command is changing this game; try again", str(path))
    while True:
        fd = open_game(path)
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise busy from None
                    time.sleep(_POLL_SECONDS)
            if _same_file(fd, path):
                return fd
            if time.monotonic() >= deadline:  # replaced again and again, without the lock
                raise busy
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # the game was saved while this one waited: lock its new file


@contextlib.contextmanager
def holding(path: str | os.PathLike[str], timeout: float | None = None) -> Iterator[int]:
    """Hold the lock of the saved game at `path` for the `with` block; the descriptor of
    the game's file, read-only, to read the game from (the file locked, not whatever the
    name leads to a moment later).

    Raises:
        GameBusyError: the lock was still held when the wait ran out, or this thread
            holds it already.
        SaveFileError: no game at `path` ("cannot read: ..."), or not a regular file.
    """
    name = str(path)
    held = _holding()
    if target(path) in held:
        raise GameBusyError("this thread is changing the game already (a lock inside a lock)", name)
    if fcntl is None:  # pragma: no cover
        fd = open_game(path)
        try:
            yield fd
        finally:
            os.close(fd)
        return
    wait = LOCK_TIMEOUT_SECONDS if timeout is None else timeout
    fd = _open_locked(path, time.monotonic() + wait)
    game = target(path)
    held[game] = fd
    try:
        yield fd
    finally:
        os.close(held.pop(game))  # releases the lock (on the file saved last)


@contextlib.contextmanager
def locked(path: str | os.PathLike[str], timeout: float | None = None) -> Iterator[None]:
    """Hold the lock of the saved game at `path` (a regular file that exists) for the
    `with` block; a `save` inside it keeps the lock on the file it writes.

    Waits up to `timeout` seconds (`LOCK_TIMEOUT_SECONDS` by default) while another process
    or thread holds it.

    Raises:
        GameBusyError: the lock was still held when the wait ran out ("FILE: another dipsat
            command is changing this game; try again"), or this thread holds it already.
        SaveFileError: no game at `path` ("cannot read: No such file or directory"), or a
            pipe, a device or a folder there.
    """
    with holding(path, timeout):
        yield


@contextlib.contextmanager
def hand_over(game: Path, new: int) -> Iterator[None]:
    """Around the rename of the file open as `new` over `game`: if this thread holds the
    game's lock, lock the new file first and, once the rename is done, hold the lock by it
    and let the old file go.  A rename that fails leaves the lock where it was."""
    held = _holding()
    if fcntl is None or game not in held:
        yield
        return
    successor = os.dup(new)  # the lock lives on after the written file is closed
    try:
        fcntl.flock(successor, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a new file: no one has it
        yield
    except BaseException:
        os.close(successor)
        raise
    os.close(held[game])  # a command waiting on the old file finds it replaced
    held[game] = successor
