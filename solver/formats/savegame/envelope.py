"""The envelope every saved game shares: format and version, the size limit, JSON text in
and out (positions and orders as both kinds of game write them), the atomic save, and the
base reader that checks every field and reports a fault with the file and the place."""

from __future__ import annotations

import contextlib
import errno
import glob
import json
import os
import re
import stat
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from topology import Board, MapDataError, standard, variant, variant_names
from topology.files import TextFileError, parse_json, read_stream, read_text

from ...errors import CaseFormatError, DipsatError, SaveFileError
from ...values.orders import Given, Names
from ...values.position import Phase, Position
from ...values.rules import RuleBook, from_policy_table, is_edition, policy_table
from ..mila import position_json, read_position
from ..rulebooks import rule_book
from . import locking

FORMAT = "dipsat-game"
VERSION = 1
MAX_SAVE_FILE_BYTES = 64_000_000
_UNIT = re.compile(r"^([AF]) ([A-Z][A-Z0-9]*)(?:/([NSEW]C))?$")
_PROVINCE = re.compile(r"^[A-Z][A-Z0-9]*$")
_T = TypeVar("_T")


# -- writing -------------------------------------------------------------------------------------
def _position_json(position: Position) -> dict[str, Any]:
    data = position_json(position)
    return {
        "phase": data["phase"],
        "units": data["units"],
        "centers": data["centers"],
        "dislodged": data["dislodged"],
        "standoffs": sorted(str(p).upper() for p in position.standoffs),
    }


def _orders_json(orders: Sequence[Given], names: Names) -> list[str]:
    """Each order's text with its places named by the game's board (never by codes, as an
    order made in code without a board prints them: the text read back prints with the
    board's names, and must give the same bytes)."""
    return [_order_json(given, names) for given in orders]


def _order_json(given: Given, names: Names) -> str:
    return str(replace(given, board=names))


def _dump(data: dict[str, Any]) -> str:
    # ASCII only: a lone surrogate read from a hand-edited file is written back escaped
    return json.dumps(data, sort_keys=True, indent=1, ensure_ascii=True) + "\n"


def _save_text(text: str, path: str | os.PathLike[str], *, new: bool = False) -> None:
    """Write `text` to `path` atomically, as `save` describes: through a symbolic link to
    the file it points to, and never over a read-only file, a pipe, a device or a folder.
    `new`: refuse a name that exists (a symbolic link too), at the moment the game appears
    ("already exists"), not by a look beforehand."""
    if new:  # the name itself, in its folder (whose path may run through links)
        target = Path(os.path.realpath(Path(path).parent)) / Path(path).name
    else:
        target = locking.target(path)
        _refuse_unwritable(target, str(path))
    data = text.encode("utf-8")
    temporary = ""
    try:
        with tempfile.NamedTemporaryFile(
            dir=target.parent, prefix=f".{target.name}.", suffix=".tmp", delete=False
        ) as tmp:
            temporary = tmp.name
            os.chmod(temporary, _mode(target))  # the temporary file is private (0600)
            tmp.write(data)
            tmp.flush()
            os.fsync(tmp.fileno())
            if new:
                _link_new(temporary, target, str(path))
            else:
                with locking.hand_over(target, tmp.fileno()):  # the lock stays on the game
                    os.replace(temporary, target)
    except BaseException:
        if temporary:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise
    _sync_folder(target)
    _sweep(target)


def _link_new(temporary: str, target: Path, name: str) -> None:
    """Give the written temporary file the game's name, unless a file has it: a link fails
    if the name exists, so of two commands making one game exactly one succeeds.  The
    temporary file is gone afterwards."""
    try:
        os.link(temporary, target)
    except FileExistsError:
        raise _exists(target, name) from None
    except OSError as error:
        if error.errno not in _NO_LINKS:
            raise
        # a file system without hard links: claim the name, then rename over the claim
        try:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            raise _exists(target, name) from None
        os.replace(temporary, target)
        return
    with contextlib.suppress(OSError):  # the game is made; a stray is swept in an hour
        os.unlink(temporary)


def _exists(target: Path, name: str) -> SaveFileError:
    """A new game's name is taken: by a file, or by a symbolic link, which is not followed
    (it could lead anywhere, to a file that is no game)."""
    if target.is_symlink():
        return SaveFileError(
            "a symbolic link, not followed to make a new game; choose another file", name
        )
    return SaveFileError("already exists; choose another file", name)


_NO_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS, errno.EMLINK}
"""What `os.link` fails with where the file system has no hard links."""


def _refuse_unwritable(target: Path, name: str) -> None:
    """A pipe, a device or a folder is not replaced by a game.  A file its owner made
    read-only (no write permission for anyone: root could replace it, as `os.access`
    tells), or that this user may not write, is left alone."""
    try:
        mode = target.stat().st_mode
    except OSError:
        return  # no file yet (or none to read): the save itself says what is wrong
    locking.refuse_special(mode, name)
    if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(target, os.W_OK):
        raise SaveFileError("read-only; not changed", name)


def _sync_folder(target: Path) -> None:
    """Make a rename in the game's folder durable."""
    with contextlib.suppress(OSError, AttributeError):
        folder = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


STALE_SECONDS = 3600


def _sweep(target: Path) -> None:
    """Remove temporary files of this game left by a save that was killed (an hour old: no
    save still running writes that long)."""
    now = time.time()
    for stray in target.parent.glob(f".{glob.escape(target.name)}.*.tmp"):
        with contextlib.suppress(OSError):
            if now - stray.stat().st_mtime > STALE_SECONDS:
                stray.unlink()


def _mode(target: Path) -> int:
    """The permissions a saved game gets: those it had, or a new file's under the umask."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def board_json(board: Board) -> dict[str, str]:
    """The "board" field of a game on another board than the standard one: the variant's
    name if dipsat ships it, else the map file it was read from."""
    if board is standard():
        return {}
    if board.name in variant_names() and variant(board.name) is board:
        return {"board": board.name}
    if board.origin is None:
        raise SaveFileError("a board made in code has no name or file to save", board.name)
    return {"board": str(board.origin)}


def rules_json(book: RuleBook) -> str | dict[str, Any]:
    """A named rule book by its name; any other by its name and every policy, so that the
    game reads back without the file it came from."""
    return book.name if is_edition(book) else {"name": book.name, "policies": policy_table(book)}


# -- reading -------------------------------------------------------------------------------------
class _SaveReader:
    def __init__(self, path: str) -> None:
        self.path = path
        self.board = standard()

    def fail(self, where: str, message: str) -> SaveFileError:
        return SaveFileError(message, self.path, where=where)

    def only(self, data: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
        for key in data:
            if key not in allowed:
                here = f"{where}.{key}" if where else key
                raise self.fail(here, f"unknown field; expected {', '.join(allowed)}")

    def field(self, data: dict[str, Any], key: str, kind: type[_T], where: str) -> _T:
        here = f"{where}.{key}" if where else key
        if key not in data:
            raise self.fail(here, "missing")
        value = data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            name = {dict: "an object", list: "a list", str: "a string", int: "an integer"}[kind]
            raise self.fail(here, f"expected {name}, found {json.dumps(value)[:60]}")
        return value

    def power(self, name: Any, where: str) -> None:
        try:
            self.board.lookup_power(name)
            if name != name.upper():
                raise ValueError(name)
        except (ValueError, AttributeError, TypeError) as err:
            raise self.fail(where, f"expected a power such as 'ENGLAND', found {name!r}") from err

    def province(self, text: Any, where: str) -> None:
        if not isinstance(text, str) or not _PROVINCE.match(text):
            raise self.fail(where, f"expected a province such as 'PAR', found {text!r}")
        if text.lower() not in self.board.provinces:
            raise self.fail(where, f"unknown province {text!r}")

    def unit(self, text: Any, where: str) -> None:
        match = _UNIT.match(text) if isinstance(text, str) else None
        if not match:
            raise self.fail(where, f"expected a unit such as 'A PAR' or 'F STP/SC', found {text!r}")
        _, code, coast = match.groups()
        self.province(code, where)
        if coast and coast[0].lower() + "c" not in self.board.province(code.lower()).coasts:
            raise self.fail(where, f"{code} has no coast {coast}")

    def by_power(self, data: dict[str, Any], key: str, where: str) -> dict[str, Any]:
        value = self.field(data, key, dict, where)
        for power in value:
            self.power(power, f"{where}.{key}.{power}")
        return value

    def position(self, data: Any, where: str, foreign: bool = False) -> Position:
        """`foreign`: a dislodged unit may have been attacked from another board of a
        multiverse, written "from": ""."""
        if not isinstance(data, dict):
            raise self.fail(where, "expected an object")
        self.only(data, ("phase", "units", "centers", "dislodged", "standoffs"), where)
        phase = self.field(data, "phase", str, where)
        try:
            Phase.parse(phase)
        except DipsatError as err:
            raise self.fail(f"{where}.phase", str(err)) from err
        for key in ("units", "centers"):
            for power, items in self.by_power(data, key, where).items():
                here = f"{where}.{key}.{power}"
                if not isinstance(items, list):
                    raise self.fail(here, "expected a list")
                for i, item in enumerate(items):
                    if key == "units":
                        self.unit(item, f"{here}[{i}]")
                    else:
                        self.province(item, f"{here}[{i}]")
                        if item.lower() not in self.board.centres:
                            raise self.fail(f"{here}[{i}]", f"{item} is no supply centre")
        for power, units in self.by_power(data, "dislodged", where).items():
            here = f"{where}.dislodged.{power}"
            if not isinstance(units, dict):
                raise self.fail(here, "expected an object")
            for text, info in units.items():
                self.unit(text, f"{here}.{text}")
                if not isinstance(info, dict):
                    raise self.fail(f"{here}.{text}", "expected an object")
                self.only(info, ("from", "by_convoy"), f"{here}.{text}")
                source = self.field(info, "from", str, f"{here}.{text}")
                if not (foreign and source == ""):
                    self.province(source, f"{here}.{text}")
                if not isinstance(info.get("by_convoy"), bool):
                    raise self.fail(f"{here}.{text}.by_convoy", "expected true or false")
        standoffs = self.field(data, "standoffs", list, where)
        for i, code in enumerate(standoffs):
            self.province(code, f"{where}.standoffs[{i}]")
        try:
            position = read_position(data, self.board)
            return Position(
                position.phase,
                position.units,
                position.centres,
                position.dislodged,
                frozenset(c.lower() for c in standoffs),
                board=position.board,
            )
        except (DipsatError, KeyError, TypeError, AttributeError) as err:
            raise self.fail(where, str(err)) from err

    def read_board(self, data: dict[str, Any]) -> None:
        """The board the game is played on: "board" names a variant or a map file."""
        if "board" not in data:
            return
        name = self.field(data, "board", str, "")
        try:
            self.board = variant(name)
        except MapDataError as error:
            raise self.fail("board", str(error)) from error

    def rules(self, data: dict[str, Any]) -> RuleBook:
        """A named rule book, or a custom one kept as its name and every policy."""
        if isinstance(data.get("rules"), dict):
            custom = data["rules"]
            self.only(custom, ("name", "policies"), "rules")
            name = self.field(custom, "name", str, "rules")
            table = self.field(custom, "policies", dict, "rules")
            try:
                return from_policy_table(name, table, self.path)
            except CaseFormatError as error:
                raise self.fail("rules.policies", error.message) from error
        name = self.field(data, "rules", str, "")
        try:  # by name only: a saved game reads back without the file its rules came from
            return rule_book(name, files=False)
        except DipsatError as error:
            raise self.fail("rules", str(error)) from error

    def envelope(self, data: Any) -> None:
        """The format and version every saved document starts with."""
        if not isinstance(data, dict):
            raise self.fail("(top)", "expected a JSON object")
        if data.get("format") != FORMAT:
            raise self.fail("format", f"expected {FORMAT!r}, found {data.get('format')!r}")
        version = self.field(data, "version", int, "")
        if version > VERSION:
            raise self.fail(
                "version",
                f"written by a newer dipsat (format version {version}); "
                f"this one reads version {VERSION}",
            )
        if version < 1:
            raise self.fail("version", f"expected {VERSION}, found {version}")


def _parse(text: str, path: str) -> Any:
    try:
        return parse_json(text)
    except TextFileError as err:
        raise SaveFileError(err.message, path, err.line, err.column) from err


def _read_text(path: str | os.PathLike[str]) -> str:
    try:
        return read_text(path, MAX_SAVE_FILE_BYTES)
    except TextFileError as err:
        raise SaveFileError(err.message, str(path), err.line, err.column) from err


def _read_open(fd: int, path: str) -> str:
    """The text of a saved game open as `fd` (left open), read as `_read_text` reads."""
    try:
        with os.fdopen(os.dup(fd), "rb") as stream:
            return read_stream(stream, MAX_SAVE_FILE_BYTES)
    except TextFileError as err:
        raise SaveFileError(err.message, path, err.line, err.column) from err


def position_lines(position: Position, indent: str = "") -> list[str]:
    """Each power's units and centres, then the dislodged units, as `dipsat game show`
    prints a position."""
    lines = []
    for power in sorted({u.power for u in position.units} | {p for _, p in position.centres}):
        units = ", ".join(position.name(u) for u in position.units if u.power == power)
        centres = sorted(c.upper() for c, p in position.centres if p == power)
        line = f"{power}: {units or 'no units'}; {len(centres)} centres: {' '.join(centres)}"
        lines.append(indent + line)
    for d in position.dislodged:
        origin = f" (from {d.attacker_from})" if d.attacker_from else ""
        lines.append(f"{indent}dislodged: {d.unit.power} {position.name(d.unit)}{origin}")
    return lines
