"""Immutable positions: the phase, the units, centre owners and units awaiting retreat; and a
position as lines of text, which `str(position)` writes and `Position.parse` reads."""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from topology import (
    MAX_YEAR,
    AmbiguousNameError,
    Board,
    BoardView,
    Key,
    Location,
    UnitType,
    UnknownNameError,
    standing_problem,
)
from topology.files import shown

from ..errors import DipsatError, OrderSyntaxError, PositionError, expect_type
from .notation import parse_unit
from .orders import CODES, Names
from .pictures import picture

T = TypeVar("T")


class Season(enum.Enum):
    SPRING = "Spring"
    FALL = "Fall"
    WINTER = "Winter"


class PhaseKind(enum.Enum):
    MOVEMENT = "movement"
    RETREAT = "retreat"
    ADJUSTMENT = "adjustment"


_SEASONS = {
    "s": Season.SPRING,
    "spring": Season.SPRING,
    "f": Season.FALL,
    "fall": Season.FALL,
    "autumn": Season.FALL,
    "w": Season.WINTER,
    "winter": Season.WINTER,
}
_KINDS = {
    "m": PhaseKind.MOVEMENT,
    "movement": PhaseKind.MOVEMENT,
    "moves": PhaseKind.MOVEMENT,
    "r": PhaseKind.RETREAT,
    "retreat": PhaseKind.RETREAT,
    "retreats": PhaseKind.RETREAT,
    "a": PhaseKind.ADJUSTMENT,
    "adjustment": PhaseKind.ADJUSTMENT,
    "adjustments": PhaseKind.ADJUSTMENT,
    "builds": PhaseKind.ADJUSTMENT,
}


@dataclass(frozen=True, slots=True)
class Phase:
    """A season of a year and what is done in it: Winter is for adjustments only, the other
    seasons for movement and retreats."""

    year: int
    season: Season
    kind: PhaseKind

    def __post_init__(self) -> None:
        if not isinstance(self.season, Season) or not isinstance(self.kind, PhaseKind):
            raise DipsatError(
                f"expected a Season and a PhaseKind, found {shown(self.season, 60)}, "
                f"{shown(self.kind, 60)}"
            )
        if (
            not isinstance(self.year, int)
            or isinstance(self.year, bool)
            or not 1 <= self.year <= MAX_YEAR
        ):
            raise DipsatError(f"expected a year from 1 to {MAX_YEAR}, found {shown(self.year, 40)}")
        if (self.season is Season.WINTER) != (self.kind is PhaseKind.ADJUSTMENT):
            raise DipsatError(
                f"{self.season.value} {self.year} {self.kind.value}: adjustments are in winter,"
                " movement and retreats in spring and fall"
            )

    def __str__(self) -> str:
        return f"{self.season.value} {self.year} {self.kind.value}"

    @property
    def code(self) -> str:
        """The MILA phase code, e.g. 'S1901M' (the year in four digits: 'S0001M')."""
        return f"{self.season.value[0]}{self.year:04d}{self.kind.value[0].upper()}"

    @classmethod
    def parse(cls, text: str) -> Phase:
        """'Spring 1901 movement', 'Fall 1902 retreats' or the MILA code 'F1902R'.

        Raises:
            TypeError: `text` is not text.
            DipsatError: no phase reads so.
        """
        expect_type("text", text, str, "a phase as text such as 'S1901M'")
        text = text.strip()
        expected = f"expected a phase like 'Spring 1901 movement' or 'S1901M', found {shown(text)}"
        short = re.fullmatch(r"([SFWsfw])([0-9]{1,6})([MRAmra])", text)
        if short:
            season, year, kind = short.groups()
        else:
            words = text.lower().replace(",", " ").split()
            if len(words) != 3 or not re.fullmatch("[0-9]{1,6}", words[1]):
                raise DipsatError(expected)
            season, year, kind = words
        try:
            return cls(int(year), _SEASONS[season.lower()], _KINDS[kind.lower()])
        except KeyError as err:
            raise DipsatError(expected) from err


SPRING_1901 = Phase(1901, Season.SPRING, PhaseKind.MOVEMENT)


def opening_phase(board: Board) -> Phase:
    """The phase a game on this board opens in: Spring of its first year (1901 standard)."""
    return Phase(board.start_year, Season.SPRING, PhaseKind.MOVEMENT)


@dataclass(frozen=True, slots=True, order=True)
class Unit:
    location: Location
    type: UnitType
    power: str

    def text(self, names: Names) -> str:
        """'A Munich', 'F b-St Petersburg(nc)@1': as orders write a unit."""
        return f"{self.type._value_} {names.location_name(self.location)}"  # no descriptor

    def __str__(self) -> str:
        return self.text(CODES)

    @property
    def province(self) -> Key:
        return self.location.province


@dataclass(frozen=True, slots=True, order=True)
class DislodgedUnit:
    """A unit awaiting retreat, with where its attacker came from."""

    unit: Unit
    attacker_from: Key  # "" when the attack came from another board
    by_convoy: bool = False


Centres = tuple[tuple[str, str], ...]
"""Supply centres and their owners: (province, power), sorted by province."""


@dataclass(frozen=True)
class Position:
    """A board at one phase.  Collections are sorted tuples so equal positions compare equal;
    the board travels with them (the map, or a multiverse step's joint board)."""

    phase: Phase
    units: tuple[Unit, ...] = ()
    centres: Centres = ()
    dislodged: tuple[DislodgedUnit, ...] = ()
    standoffs: frozenset[Key] = frozenset()  # provinces left empty by a standoff
    board: BoardView = field(kw_only=True)
    _by_province: dict[Key, Unit] = field(init=False, repr=False, compare=False)
    _memo: dict[Hashable, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_kinds(self)
        self._arrange()
        _check_units(self.board, self.units)
        _check_units(self.board, [d.unit for d in self.dislodged])
        _check_retreats(self)
        _check_centres(self.board, self.centres)

    def derive(
        self,
        phase: Phase,
        units: Iterable[Unit],
        centres: Centres | None = None,
        dislodged: Iterable[DislodgedUnit] = (),
        standoffs: frozenset[Key] = frozenset(),
    ) -> Position:
        """The position that follows this one by the rules, on the same board (centres
        unchanged unless given).  Arranged like any other but not checked again: this one
        was, and the adjudicator puts units only where they may stand."""
        derived = object.__new__(Position)
        for name, value in (
            ("phase", phase),
            ("units", units),
            ("centres", self.centres if centres is None else centres),
            ("dislodged", dislodged),
            ("standoffs", standoffs),
            ("board", self.board),
        ):
            object.__setattr__(derived, name, value)
        derived._arrange()
        return derived

    def _arrange(self) -> None:
        """Sort the collections (so equal positions compare equal) and index the units."""
        # units stand in distinct provinces, so their places alone order them
        units = tuple(
            sorted(self.units, key=lambda u: (u.location.province, u.location.coast or ""))
        )
        object.__setattr__(self, "units", units)
        object.__setattr__(self, "centres", tuple(sorted(self.centres)))
        object.__setattr__(self, "dislodged", tuple(sorted(self.dislodged)))
        object.__setattr__(self, "standoffs", frozenset(self.standoffs))
        seen: dict[Key, Unit] = {}
        for unit in self.units:
            province = unit.location.province
            if province in seen:
                first, second = seen[province].text(self.board), unit.text(self.board)
                raise PositionError(f"two units in one province: {first} and {second}")
            seen[province] = unit
        object.__setattr__(self, "_by_province", seen)
        object.__setattr__(self, "_memo", {})

    @classmethod
    def opening(cls, board: Board | None = None) -> Position:
        """The opening of a game (Spring 1901 on the standard map, the default): every
        power's starting units on its home centres.

        Raises:
            TypeError: `board` is not a Board.
        """
        expect_type("board", board, (Board, type(None)), "a Board such as solver.standard()")
        if board is None:
            from topology import standard

            board = standard()
        units = [
            Unit(location, unit_type, power)
            for power in board.powers
            for unit_type, location in board.starting_units(power)
        ]
        return cls(opening_phase(board), tuple(units), _home_centres(board), board=board)

    @classmethod
    def parse(
        cls, text: str, phase: str | Phase | None = None, board: Board | None = None
    ) -> Position:
        """A position from lines of text, as `str(position)` writes them::

            Spring 1901 movement            (optional; else `phase`, else Spring 1901)
            England: F London, A Wales      (a power and its units)
            England centres: London, Wales  (optional; by default the home centres)
            Austria dislodged: A Serbia from Bulgaria   (a retreat phase's units)
            standoffs: Galicia

        Places are read in any notation dipsat reads (``RUSSIA: F STP/SC, A MOS``).

        Raises:
            TypeError: an argument of the wrong type, naming it.
            PositionError: text that cannot be read, or a position that cannot be (a fleet
                inland, an army at sea, an unknown power, two units in one province, a
                coast that does not exist), with the line and column.
        """
        if board is None:
            from topology import standard

            board = standard()
        return read_position(text, board, Phase.parse(phase) if isinstance(phase, str) else phase)

    def __str__(self) -> str:
        return position_text(self)

    def __repr__(self) -> str:
        count = len(self.units)
        return f"<Position {self.phase}: {count} unit{'s' * (count != 1)} on {self.board.name!r}>"

    def _repr_svg_(self) -> str:
        """The board, drawn (in a notebook; `solver.render.notebook`)."""
        return picture(self)

    def cached(self, key: Hashable, compute: Callable[[], T]) -> T:
        """A value computed from this (immutable) position once and kept with it."""
        if key not in self._memo:
            self._memo[key] = compute()
        found: T = self._memo[key]
        return found

    def unit_in(self, province: Key) -> Unit | None:
        """The unit standing in a province (any coast), or None."""
        return self._by_province.get(province)

    def owner(self, province: str) -> str | None:
        return dict(self.centres).get(province)

    @property
    def map(self) -> Board:
        """The map the position is on (a position of a whole game, not of the joint board
        of a multiverse step, whose units stand on several boards)."""
        if not isinstance(self.board, Board):
            raise DipsatError(f"{self.phase} on {self.board.name!r} is not on a map")
        return self.board

    def name(self, unit: Unit) -> str:
        """A unit of this position as orders write it: 'A Munich'."""
        return unit.text(self.board)


def _home_centres(board: Board) -> Centres:
    return tuple((code, power) for power in board.powers for code in board.home_centres(power))


def _check_units(board: BoardView, units: Iterable[Unit]) -> None:
    powers = board.powers
    for unit in units:
        if unit.power not in powers:
            known = ", ".join(powers)
            raise PositionError(f"unknown power {shown(unit.power, 60)}; expected one of {known}")
        try:
            province = board.province(unit.province)
        except UnknownNameError:
            raise PositionError(
                f"{unit} stands on no province of the board {board.name!r}"
            ) from None
        problem = standing_problem(province, unit.type, unit.location.coast)
        if problem is not None:
            raise PositionError(f"{unit.power} {unit.type.value}: {problem}")


def _check_kinds(position: Position) -> None:
    """Each part of a position is the value it should be (a `Phase`, `Unit`s, ...)."""
    if not isinstance(position.phase, Phase):
        raise PositionError(f"expected a Phase, found {shown(position.phase, 60)}")
    for unit in (*position.units, *(getattr(d, "unit", None) for d in position.dislodged)):
        if not (
            isinstance(unit, Unit)
            and isinstance(unit.location, Location)
            and isinstance(unit.type, UnitType)
        ):
            raise PositionError(
                f"expected a Unit (a Location, a UnitType, a power), found {shown(unit, 60)}"
            )
    if not all(isinstance(d, DislodgedUnit) for d in position.dislodged):
        raise PositionError(f"expected DislodgedUnits, found {shown(position.dislodged, 60)}")
    standoffs: object = position.standoffs
    if isinstance(standoffs, str) or not all(isinstance(p, str) for p in position.standoffs):
        raise PositionError(f"expected province codes, found {shown(position.standoffs, 60)}")


def _check_retreats(position: Position) -> None:
    """Units await retreat only in a retreat phase, each attacked from another province of the
    board (or from nowhere on it: '' when the attack came from another board); a standoff
    leaves a province of the board empty."""
    board = position.board
    if (position.dislodged or position.standoffs) and position.phase.kind is not PhaseKind.RETREAT:
        raise PositionError(
            f"{position.phase} has no units awaiting retreat and no standoffs: only a retreat"
            " phase has"
        )
    for d in position.dislodged:
        if d.attacker_from and (
            d.attacker_from == d.unit.province or not _known(board, d.attacker_from)
        ):
            raise PositionError(
                f"{d.unit.power} {d.unit.text(board)}: attacked from {shown(d.attacker_from, 60)},"
                " expected another province of the board"
            )
    for p in sorted(position.standoffs):
        if not _known(board, p):
            raise PositionError(f"standoff in {shown(p, 60)}: expected a province of the board")
        if position.unit_in(p) is not None:
            raise PositionError(
                f"standoff in {shown(p, 60)}, where a unit stands: a standoff leaves it empty"
            )


def _known(board: BoardView, province: Key) -> bool:
    try:
        board.province(province)
    except UnknownNameError:
        return False
    return True


def _check_centres(board: BoardView, centres: Centres) -> None:
    powers = board.powers
    previous = None
    for province, owner in centres:
        if province == previous:
            raise PositionError(f"{shown(province, 60)} is owned twice")
        previous = province
        if owner not in powers:
            known = ", ".join(powers)
            raise PositionError(f"unknown power {shown(owner, 60)}; expected one of {known}")
        try:
            centre = board.province(province).is_centre
        except UnknownNameError:
            centre = False
        if not centre:
            raise PositionError(
                f"{shown(province, 60)} is no supply centre of the board {shown(board.name, 60)}"
            )


# -- a position as text -------------------------------------------------------------------------
# Written by `str(position)` and read by `Position.parse`:
#
#     Spring 1901 movement
#     Austria: A Budapest, F Trieste, A Vienna
#     England centres: Edinburgh, London, Liverpool
#     Austria dislodged: A Serbia from Bulgaria by convoy
#     standoffs: Galicia
#
# The centres are written only when they are not the powers' home centres (what a position
# without centres lines owns); places read in any notation dipsat reads.
# 'by convoy' and 'from' of a dislodged unit, each matched from the start of a run of
# spaces only (the lookbehind): linear in the length of the text, as a lazy unit before
# them was not
_BY_CONVOY = re.compile(r"(?i)(?<=\S)\s+by\s+convoy\Z")
_FROM = re.compile(r"(?i)(?<=\S)\s+from\s+(?=\S)")
_LINE_KINDS = ("centres", "centers", "dislodged")


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
        kind = words[-1].lower() if len(words) > 1 and words[-1].lower() in _LINE_KINDS else None
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
