"""A position as lines of text, written by `str(position)` and read by `Position.parse`:

    Spring 1901 movement
    Austria: A Budapest, F Trieste, A Vienna
    England centres: Edinburgh, London, Liverpool
    Austria dislodged: A Serbia from Bulgaria by convoy
    standoffs: Galicia

The centres are written only when they are not the powers' home centres (what a position
without centres lines owns); places read in any notation dipsat reads.
"""

from __future__ import annotations

import re

from topology import AmbiguousNameError, Board, Key, Location, UnknownNameError, standing_problem
from topology.files import shown

from ..errors import DipsatError, OrderSyntaxError, PositionError, expect_type
from .notation import parse_unit
from .position import (
    DislodgedUnit,
    Phase,
    Position,
    Unit,
    _home_centres,
    opening_phase,
)

# 'by convoy' and 'from' of a dislodged unit, each matched from the start of a run of
# spaces only (the lookbehind): linear in the length of the text, as a lazy unit before
# them was not
_BY_CONVOY = re.compile(r"(?i)(?<=\S)\s+by\s+convoy\Z")
_FROM = re.compile(r"(?i)(?<=\S)\s+from\s+(?=\S)")
_KINDS = ("centres", "centers", "dislodged")


def position_text(position: Position) -> str:
    """The position as `Position.parse` reads it."""
    board = position.board
    lines = [str(position.phase)]
    by_power: dict[str, list[str]] = {}
    for unit in position.units:
        by_power.setdefault(unit.power, []).append(unit.text(board))
    lines += [f"{p}: {', '.join(by_power[p])}" for p in board.powers if p in by_power]
    home = isinstance(board, Board) and position.centres == tuple(sorted(_home_centres(board)))
    if not home:
        owned: dict[str, list[str]] = {}
        for province, owner in position.centres:
            owned.setdefault(owner, []).append(board.province(province).name)
        lines += [f"{p} centres: {', '.join(owned[p])}" for p in board.powers if p in owned]
        if not position.centres:
            lines.append("centres: none")
    for d in position.dislodged:
        text = f"{d.unit.power} dislodged: {d.unit.text(board)}"
        if d.attacker_from:
            text += f" from {board.province(d.attacker_from).name}"
        lines.append(text + (" by convoy" if d.by_convoy else ""))
    if position.standoffs:
        names = sorted(board.province(p).name for p in position.standoffs)
        lines.append(f"standoffs: {', '.join(names)}")
    return "\n".join(lines)


class _PositionReader:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.units: list[Unit] = []
        self.where: dict[Key, int] = {}  # province -> the line that placed a unit there
        self.centres: dict[str, str] | None = None
        self.dislodged: list[DislodgedUnit] = []
        self.standoffs: set[str] = set()

    def power(self, text: str, number: int, column: int) -> str:
        try:
            return self.board.lookup_power(text)
        except (UnknownNameError, AmbiguousNameError):
            known = ", ".join(self.board.powers)
            raise PositionError(
                f"expected a power ({known}), found {shown(text, 60)}", number, column
            ) from None

    def province(self, text: str, number: int, column: int) -> str:
        try:
            return self.board.lookup(text)
        except (UnknownNameError, AmbiguousNameError) as err:
            raise PositionError(f"expected a province: {err}", number, column) from None

    def unit(self, text: str, power: str, number: int, column: int) -> Unit:
        try:
            ref = parse_unit(text, self.board)
        except OrderSyntaxError as err:
            raise PositionError(err.message, number, column + err.column - 1) from None
        if ref.type is None:
            raise PositionError(
                f"expected a unit such as 'A Paris', found {shown(text, 60)}", number, column
            )
        place = ref.place
        if place.timeline is not None or place.turn is not None:
            raise PositionError("a position is one board: no timelines or turns", number, column)
        unit = Unit(Location(place.province, place.coast), ref.type, power)
        province = self.board.province(place.province)
        problem = standing_problem(province, unit.type, place.coast)
        if problem is not None:
            raise PositionError(problem, number, column)
        return unit

    def place_unit(self, unit: Unit, number: int, column: int) -> None:
        earlier = self.where.get(unit.province)
        if earlier is not None:
            where = self.board.province(unit.province).name
            raise PositionError(
                f"two units in one province: {where} (also on line {earlier})", number, column
            )
        self.where[unit.province] = number
        self.units.append(unit)

    def line(self, text: str, number: int) -> None:
        head, colon, rest = text.partition(":")
        head, body = head.strip(), rest.strip()
        if not colon or not head:
            raise PositionError(
                "expected 'Power: A Place, F Place' or a phase such as 'Spring 1901 movement'",
                number,
                1,
            )
        column = len(text) - len(rest.lstrip()) + 1  # where the body starts
        words = head.split()
        kind = words[-1].lower() if len(words) > 1 and words[-1].lower() in _KINDS else None
        if head.lower() == "standoffs":
            for part, at in _parts(body, column):
                self.standoffs.add(self.province(part, number, at))
            return
        if head.lower() in ("centres", "centers") and body.lower() == "none":
            self.centres = self.centres or {}
            return
        power = self.power(" ".join(words[:-1]) if kind else head, number, 1)
        for part, at in _parts(body, column):
            if kind is None:
                self.place_unit(self.unit(part, power, number, at), number, at)
            elif kind == "dislodged":
                self.dislodged.append(self.dislodged_unit(part, power, number, at))
            else:
                self.centre(part, power, number, at)

    def centre(self, text: str, power: str, number: int, column: int) -> None:
        code = self.province(text, number, column)
        if not self.board.province(code).is_centre:
            raise PositionError(
                f"{self.board.province(code).name} is no supply centre", number, column
            )
        self.centres = self.centres or {}
        if code in self.centres:
            raise PositionError(f"{self.board.province(code).name} is owned twice", number, column)
        self.centres[code] = power

    def dislodged_unit(self, text: str, power: str, number: int, column: int) -> DislodgedUnit:
        """'A Serbia from Bulgaria by convoy': the unit, where its attacker came from (if
        written) and whether by convoy (if written)."""
        convoy = _BY_CONVOY.search(text)
        rest = text[: convoy.start()] if convoy else text
        origin = _FROM.search(rest)
        unit = self.unit(rest[: origin.start()] if origin else rest, power, number, column)
        attacker = self.province(rest[origin.end() :], number, column) if origin else ""
        return DislodgedUnit(unit, attacker, convoy is not None)


def _parts(body: str, column: int) -> list[tuple[str, int]]:
    """The comma-separated items of a line, with the column each starts at."""
    found = []
    start = 0
    for piece in body.split(","):
        lead = len(piece) - len(piece.lstrip())
        if piece.strip():
            found.append((piece.strip(), column + start + lead))
        start += len(piece) + 1
    return found


def read_position(text: str, board: Board, phase: Phase | None = None) -> Position:
    """See `Position.parse`.

    Raises:
        PositionError: as `Position.parse` says.
        DipsatError: an argument of the wrong type.
    """
    expect_type("text", text, str, "the position as text")
    expect_type("phase", phase, (Phase, type(None)), "a Phase or its text such as 'F1901M'")
    expect_type("board", board, Board, "a Board such as solver.standard()")
    reader = _PositionReader(board)
    lines = [(n, line.split("#", 1)[0]) for n, line in enumerate(text.splitlines(), start=1)]
    lines = [(n, line) for n, line in lines if line.strip()]
    if lines and ":" not in lines[0][1]:
        number, first = lines.pop(0)
        try:
            written = Phase.parse(first)
        except DipsatError as err:
            raise PositionError(str(err), number, 1) from None
        if phase is not None and written.code != phase.code:
            raise PositionError(f"the text is {written}, not {phase}", number, 1)
        phase = written
    for number, line in lines:
        reader.line(line, number)
    centres = _home_centres(board) if reader.centres is None else tuple(reader.centres.items())
    return Position(
        phase or opening_phase(board),
        tuple(reader.units),
        centres,
        tuple(reader.dislodged),
        frozenset(reader.standoffs),
        board=board,
    )
