"""One change of a saved game at a time: the lock a command holds from reading the game to
replacing it, so that two commands changing one game never both read the old file and
one of them lose the other's change.

The lock is `fcntl.flock` on a hidden file beside the game, `.NAME.lock` (beside the file a
symbolic link points to, so every link to a game shares its lock).  It cannot be the game
itself: a save renames a new file over the game, and a lock on the old file would not keep
out a command that opens the new one.  The lock file stays when the lock is released
(removing it would let a waiting command lock a file no one else opens); it is empty and
harmless.  The operating system releases the lock when its process ends, however it ends,
so a killed command never leaves a game locked.

Where `fcntl` is missing (Windows), games are not locked.
"""

from __future__ import annotations

import contextlib
import importlib
import os
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


class GameBusyError(SaveFileError):
    """Another command (or thread) held the game's lock for longer than the wait."""


_held = threading.local()  # the games this thread has locked: a second lock would wait forever


def lock_path(target: Path) -> Path:
    """The lock file of the game at `target` (a path with no symbolic link to follow)."""
    return target.with_name(f".{target.name}.lock")


@contextlib.contextmanager
def locked(path: str | os.PathLike[str], timeout: float | None = None) -> Iterator[None]:
    """Hold the lock of the game at `path` (which need not exist yet) for the `with` block.

    Waits up to `timeout` seconds (`LOCK_TIMEOUT_SECONDS` by default) while another process
    or thread holds it.

    Raises:
        GameBusyError: the lock was still held when the wait ran out ("FILE: another dipsat
            command is changing this game; try again"), or this thread holds it already.
        SaveFileError: the lock file cannot be made ("cannot write: ...": the game's folder
            is missing or not writable).
    """
    from .envelope import _target

    name = str(path)
    target = _target(path)
    held: set[Path] = _held.__dict__.setdefault("games", set())
    if target in held:
        raise GameBusyError("this thread is changing the game already (a lock inside a lock)", name)
    if fcntl is None:  # pragma: no cover
        yield
        return
    flock, exclusive = fcntl.flock, fcntl.LOCK_EX | fcntl.LOCK_NB
    wait = LOCK_TIMEOUT_SECONDS if timeout is None else timeout
    try:
        # read-only is enough to lock, and opens a lock file that another user made
        fd = os.open(lock_path(target), os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o666)
    except OSError as error:  # no folder, or one this user may not write: nor the game
        raise SaveFileError(f"cannot write: {error.strerror or error}", name) from error
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                flock(fd, exclusive)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise GameBusyError(
                        "another dipsat command is changing this game; try again", name
                    ) from None
                time.sleep(_POLL_SECONDS)
        held.add(target)
        try:
            yield
        finally:
            held.discard(target)
    finally:
        os.close(fd)  # releases the lock
