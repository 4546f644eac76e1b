"""The errors dipsat reports: about its input (`DipsatError`, a `ValueError`: each says
where and what was expected), and about a bound on its own work that ran out (`LimitError`:
nothing was wrong with the input).  An argument of the wrong Python type is a `TypeError`
naming the argument (`expect_type`).  docs/api.md lists them."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from topology.files import PlacedError, shown


class DipsatError(ValueError):
    """Base of every error dipsat raises about bad input: a value it cannot take."""


class LimitError(Exception):
    """Base of the errors dipsat raises when one of its own bounds runs out before the work
    is done (docs/reliability.md, "Limits"): nothing is wrong with the input, and no answer
    is guessed.  Not a `DipsatError`: what treats bad input one way (a case that cannot be
    played, a combination no rule book may hold) must not treat running out so."""


class SolverTimeout(LimitError):
    """The solver hit its time limit (`solver.time_limit`): the turn is not adjudicated."""


class OrderSyntaxError(DipsatError):
    """Order text that cannot be read, with the 1-based column where reading stopped (and
    the line, when the order was one of several lines)."""

    def __init__(self, message: str, text: str = "", column: int = 1, line: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.column = column
        self.line = line

    def __str__(self) -> str:
        if self.line:
            return f"line {self.line}, column {self.column}: {self.message}"
        return f"column {self.column}: {self.message}"


class IllegalOrderError(DipsatError):
    """An order that is illegal in the position it is checked against; `reason` is the
    typed reason (`solver.values.outcomes.Illegal`) the adjudicator would give."""

    def __init__(self, message: str, text: str, line: int, reason: object) -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.line = line
        self.reason = reason

    def __str__(self) -> str:
        return f"line {self.line}: {self.text.strip()!r}: {self.message}"


class PositionError(DipsatError, PlacedError):
    """A position that cannot be (a fleet inland, an army at sea, an unknown power, two
    units in one province, a coast the province lacks), or position text that cannot be
    read, with the line and column of the trouble."""


class CaseFormatError(DipsatError):
    """A case or position file that does not follow the documented format; `line` 0 for a
    fault of the whole file (it cannot be read, it is too large), written `FILE: message`."""

    def __init__(self, message: str, path: str = "-", line: int = 0, column: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.column = column

    def __str__(self) -> str:
        if not self.line:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}:{self.column}: {self.message}"


class SaveFileError(DipsatError):
    """A saved game that cannot be read: cut short, not JSON, edited wrongly, or too new.

    `line` and `column` place a JSON syntax error; `where` names the JSON field at fault,
    such as `history[3].orders[2]`; with neither, the fault is the whole file's."""

    def __init__(
        self, message: str, path: str = "-", line: int = 0, column: int = 0, where: str = ""
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.where = where

    def __str__(self) -> str:
        if self.where:
            return f"{self.path}: {self.where}: {self.message}"
        if not self.line:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}:{self.column}: {self.message}"


def expect_type(name: str, value: object, kind: type | tuple[type, ...], what: str) -> None:
    """Refuse an argument of the wrong type, naming the parameter and what it takes.

    Raises:
        TypeError: `value` is not a `kind` ("position: expected a Position, found str ...").
    """
    if not isinstance(value, kind):
        raise TypeError(f"{name}: expected {what}, found {type(value).__name__} {shown(value)}")


def did_you_mean(found: object, known: Iterable[str]) -> str:
    """' (did you mean X?)' for the known name nearest a misspelt one, case and '-'
    against '_' aside; '' when none is near (or `found` is not text)."""
    if not isinstance(found, str):
        return ""
    names = {_folded(name): name for name in known}
    near = difflib.get_close_matches(_folded(found)[:200], names, n=1, cutoff=0.6)
    return f" (did you mean {names[near[0]]}?)" if near else ""


def _folded(name: str) -> str:
    return name.lower().replace("_", "-")
