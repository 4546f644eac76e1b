"""Reading input files safely, one way for every reader of dipsat (map files, case files,
rule books, saved games, game records): reads bounded by the bytes actually read (a
device or a pipe has no size to check first), a byte-order mark skipped, a UTF-8 error
placed by line and column, and JSON or TOML too deeply nested, or holding a number too
long for Python, refused like any other syntax error.

Each reader turns a `TextFileError` into its own error, which names the file."""

from __future__ import annotations

import json
import os
import sys
import tomllib
from typing import Any, BinaryIO

BOM = "\ufeff"


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


def read_text(path: str | os.PathLike[str], limit: int) -> str:
    """The UTF-8 text of a file (``-`` for standard input) of at most `limit` bytes.

    Raises:
        TextFileError: the file cannot be opened or read, holds more than `limit` bytes
            (counted as they are read), or is not UTF-8 (placed by line and column).
    """
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
