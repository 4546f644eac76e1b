"""Reading input files safely, one way for every reader of dipsat (map files, case files,
rule books, saved games, game records): reads bounded by the bytes actually read (a
device or a pipe has no size to check first), a byte-order mark skipped, a UTF-8 error
placed by line and column, and JSON or TOML too deeply nested, or holding a number too
long for Python, refused like any other syntax error.

Each reader turns a `TextFileError` into its own error, which names the file.

Two helpers keep numbers and values from external text safe in every reader and every
message: `whole_number` reads a number of a bounded count of ASCII digits (Python refuses to
convert more than 4,300, and no count dipsat reads needs more than nine), and `shown` gives
any value, however large or odd, as a short text for a message (a `repr` of an integer of
thousands of digits raises)."""

from __future__ import annotations

import json
import os
import reprlib
import stat
import sys
import tomllib
from typing import Any, BinaryIO

BOM = "\ufeff"
NUMBER_DIGITS = 9
"""The most digits of a number read from text (a year, a turn, a count): more than any
count of a game needs, and far fewer than Python's limit for converting text to int."""


class PlacedError(ValueError):
    """A fault of some text, placed by `line` and `column` (1-based; both 0 for a fault of
    the whole text)."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        if self.line:
            return f"line {self.line}, column {self.column}: {self.message}"
        return self.message


class TextFileError(PlacedError):
    """Text that cannot be read or parsed (line and column 0: the whole file cannot be
    read, or is too large)."""


def probe(path: str | os.PathLike[str]) -> str:
    """What a name a user gave stands for: "file" (a regular file), "folder", "other" (a
    device, a pipe), or "" for nothing, also where the name cannot be looked up at all (too
    long for the system, or holding a NUL character), which `Path.exists` raises for."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return ""
    if stat.S_ISREG(mode):
        return "file"
    return "folder" if stat.S_ISDIR(mode) else "other"


def read_text(path: str | os.PathLike[str], limit: int) -> str:
    """The UTF-8 text of a file (``-`` for standard input) of at most `limit` bytes.

    Raises:
        TextFileError: the file cannot be opened or read, holds more than `limit` bytes
            (counted as they are read), or is not UTF-8 (placed by line and column).
        TypeError: `path` is not a file name (`open` would take a number for an open
            file descriptor, and close it).
    """
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"expected a file name, found {type(path).__name__} {shown(path)}")
    if str(path) == "-":
        return read_stream(sys.stdin.buffer, limit)
    try:
        with open(path, "rb") as stream:
            return read_stream(stream, limit)
    except OSError as error:  # opening it (a read that fails is told by read_stream)
        raise TextFileError(f"cannot read: {error.strerror or error}") from error


def read_stream(stream: BinaryIO, limit: int) -> str:
    """The UTF-8 text of a stream open for reading, as `read_text` reads a file.

    Raises:
        TextFileError: as `read_text`.
    """
    try:
        raw = _read_bounded(stream, limit)
    except OSError as error:
        raise TextFileError(f"cannot read: {error.strerror or error}") from error
    except TextFileError:
        raise
    except ValueError as error:  # a name holding a NUL character, which no file has
        raise TextFileError(f"cannot read: {error}") from error
    return decode(raw)


def _read_bounded(stream: BinaryIO, limit: int) -> bytes:
    raw = stream.read(limit + 1)
    if len(raw) > limit:
        raise TextFileError(f"larger than {limit:,} bytes; at most {limit:,} are read")
    return raw


def decode(raw: bytes) -> str:
    """UTF-8 bytes as text, without a leading byte-order mark.

    Raises:
        TextFileError: the bytes are not UTF-8, at the line and column of the first bad
            byte.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        start_of_line = raw.rfind(b"\n", 0, error.start) + 1
        column = len(raw[start_of_line : error.start].decode("utf-8", "replace")) + 1
        bad = raw[error.start : error.start + 1].hex()
        raise TextFileError(f"expected UTF-8 text, found byte 0x{bad}", line, column) from error
    return text.removeprefix(BOM)


def parse_json(text: str) -> Any:
    """The value JSON text holds.

    Raises:
        TextFileError: the text is not JSON, nests too deeply, or holds a number Python
            refuses to convert (an integer of thousands of digits).
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise TextFileError(f"not valid JSON: {error.msg}", error.lineno, error.colno) from error
    except RecursionError as error:
        raise TextFileError("not valid JSON: nested too deeply", 1, 1) from error
    except ValueError as error:  # an integer beyond Python's digit limit
        raise TextFileError(f"not valid JSON: {_too_long(error)}", 1, 1) from error


def parse_toml(text: str) -> dict[str, Any]:
    """The table TOML text holds.

    Raises:
        TextFileError: the text is not TOML (at its line and column), nests too deeply, or
            holds a number Python refuses to convert.
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message, line, column = _toml_place(str(error), text)
        raise TextFileError(f"not valid TOML: {message}", line, column) from error
    except RecursionError as error:
        raise TextFileError("not valid TOML: nested too deeply", 1, 1) from error
    except ValueError as error:
        raise TextFileError(f"not valid TOML: {_too_long(error)}", 1, 1) from error


def _too_long(error: ValueError) -> str:
    """Python's refusal of a number of too many digits, said plainly."""
    if "digits" in str(error):
        return f"a number of more than {sys.get_int_max_str_digits()} digits"
    return str(error)


def _toml_place(message: str, text: str) -> tuple[str, int, int]:
    """tomllib's message without its "(at line L, column C)" or "(at end of document)"
    tail, and that place."""
    head, found, _ = message.partition(" (at end of document)")
    if found:
        last = text.rsplit("\n", 1)[-1]
        return head, text.count("\n") + 1, len(last) + 1
    head, found, tail = message.rpartition(" (at line ")
    if not found or not tail.endswith(")"):
        return message, 1, 1
    line, _, column = tail[:-1].partition(", column ")
    if not (line.isdigit() and column.isdigit()):
        return message, 1, 1
    return head, int(line), int(column)


class NumberError(ValueError):
    """Text that should write a whole number does not, or writes one of too many digits;
    the message says what was expected (each reader adds the file and the place)."""


def whole_number(text: str, digits: int = NUMBER_DIGITS) -> int:
    """The whole number `text` writes in ASCII digits (no sign, no spaces), of at most
    `digits` digits, counted before it is converted.

    Raises:
        NumberError: the text is not such a number.
    """
    if not (text.isascii() and text.isdigit()):
        raise NumberError(f"expected a whole number such as 12, found {shown(text)}")
    if len(text) > digits:
        raise NumberError(
            f"expected a whole number of at most {digits} digits, found one of {len(text):,}"
        )
    return int(text)


class _Shown(reprlib.Repr):
    """`reprlib`'s short repr, with integers too long for `repr` named by their size."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 4 * self.maxlong:  # more digits than shown, fewer bits than 4 each
            return f"<an integer of more than {self.maxlong} digits>"
        return super().repr_int(x, level)

    def repr_instance(self, x: object, level: int) -> str:
        try:
            text = repr(x)
        except Exception:  # a user's object whose repr fails: its type is still known
            return f"<{type(x).__name__} object>"
        return text if len(text) <= self.maxother else text[: self.maxother - 3] + "..."


_SHOWN = _Shown()
_SHOWN.maxstring = _SHOWN.maxother = _SHOWN.maxlong = 40


def shown(value: object, width: int = 40) -> str:
    """`value` as a message shows what it found: its repr, cut to about `width` characters
    with "..." where it was cut; an integer of thousands of digits, a value whose repr
    raises and a long list all give a short text, in time bounded by `width`."""
    text = _SHOWN.repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."
