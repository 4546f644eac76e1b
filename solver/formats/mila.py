"""Game files in the MILA JSON format (webDiplomacy games as Cicero's data set stores them).

A file holds a list of phases; each has a name (`S1901M`, `F1902R`, `W1902A`, or the end
marker `COMPLETED`), the orders each power gave (`"A EDI - NWY VIA"`, `"F SWE R BAL"`,
`"F STP/NC B"`) and the state at the start of the phase: units per power (`"A PAR"`,
`"F STP/SC"`; a dislodged unit in a retreat phase is starred, `"*F SWE"`), the retreat
options of each dislodged unit and the centres each power owns.

`read_game` reads and checks a whole file before anything is adjudicated: every state,
unit and order must be readable, or a `GameFileError` names the file and the phase.  A
`Snapshot` is the comparable form of a state, written the way the files write it, so a
recorded state and one of our positions compare as sets of strings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from topology import (
    Board,
    Key,
    Kind,
    Location,
    MapDataError,
    UnitType,
    UnknownNameError,
    standard,
    variant,
)
from topology.files import TextFileError, parse_json, read_text, shown

from ..errors import DipsatError, OrderSyntaxError
from ..judge.retreat_options import retreat_options
from ..values.notation import parse_given
from ..values.orders import Given, Place
from ..values.position import DislodgedUnit, Phase, PhaseKind, Position, Unit, opening_phase
from ..values.resolution import PhaseResolution, Resolution
from ..values.rules import DATC_2025, RuleBook

MAX_GAME_FILE_BYTES = 64_000_000
"""The largest game file read."""

END = "COMPLETED"  # the pseudo-phase that ends some games
_PHASE = re.compile(r"([SF])(\d{4})([MR])|(W)(\d{4})(A)")
# a province is written by its code in capitals: three letters on the standard board, any
# letters and digits a board gives it ('AB1') on others
_UNIT = re.compile(r"(\*?)([AF]) ([A-Z][A-Z0-9]*)(?:/([NSEW]C))?")
_PLACE = re.compile(r"([A-Z][A-Z0-9]*)(?:/([NSEW]C))?")
_PARSER_KIND = {
    PhaseKind.MOVEMENT: "movement",
    PhaseKind.RETREAT: "retreat",
    PhaseKind.ADJUSTMENT: "adjustment",
}
_T = TypeVar("_T")


class GameFileError(DipsatError):
    """A game file that does not follow the format, with the phase where reading stopped."""

    def __init__(self, message: str, path: str, phase: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.phase = phase

    def __str__(self) -> str:
        where = f"{self.path}: {self.phase}" if self.phase else self.path
        return f"{where}: {self.message}"


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A state as sets of MILA strings: 'ENGLAND: A NWY', 'RUSSIA: *F SWE -> BAL, BOT',
    'NWY: ENGLAND', and the phase name."""

    phase: str
    units: frozenset[str]
    dislodged: frozenset[str]
    centres: frozenset[str]

    def compare(
        self, produced: Snapshot, *, with_phase: bool = True
    ) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """What only this (expected) snapshot has and what only `produced` has, per aspect;
        both empty when they agree."""
        expected: dict[str, list[str]] = {}
        got: dict[str, list[str]] = {}
        if with_phase and self.phase != produced.phase:
            expected["phase"], got["phase"] = [self.phase], [produced.phase]
        for aspect in ("units", "dislodged", "centres"):
            mine, theirs = getattr(self, aspect), getattr(produced, aspect)
            if mine != theirs:
                expected[aspect] = sorted(mine - theirs)
                got[aspect] = sorted(theirs - mine)
        return expected, got


def unit_text(unit: Unit) -> str:
    """'A PAR', 'F STP/NC': a unit as the game files write it."""
    return f"{unit.type.value} {place_text(unit.location)}"


def place_text(place: Location | Place) -> str:
    """'PAR', 'STP/NC': a place as the game files write it (board coordinates left out)."""
    coast = f"/{place.coast.upper()}" if place.coast else ""
    code = place.code if isinstance(place, Location) else place.province
    return f"{code.upper()}{coast}"


_UNIT_TEXT = re.compile(r"^[AF] [A-Z][A-Z0-9]*(/[NSEW]C)?$")


def position_json(position: Position) -> dict[str, Any]:
    """A position's phase, units, centres and dislodged units in MILA strings, by upper-case
    power: the form the cross-check protocol and saved games share."""
    units: dict[str, list[str]] = {}
    for unit in position.units:
        units.setdefault(unit.power.upper(), []).append(unit_text(unit))
    centers: dict[str, list[str]] = {}
    for province, owner in position.centres:
        centers.setdefault(owner.upper(), []).append(province.upper())
    dislodged: dict[str, dict[str, dict[str, Any]]] = {}
    for d in position.dislodged:
        dislodged.setdefault(d.unit.power.upper(), {})[unit_text(d.unit)] = {
            "from": str(d.attacker_from).upper(),
            "by_convoy": d.by_convoy,
        }
    return {
        "phase": position.phase.code,
        "units": {p: sorted(v) for p, v in sorted(units.items())},
        "centers": {p: sorted(v) for p, v in sorted(centers.items())},
        "dislodged": dislodged,
    }


def read_unit(text: str, power: str) -> Unit:
    """A unit as `unit_text` writes it ('A PAR', 'F STP/SC'), of that power.

    Raises:
        DipsatError: the text is not such a unit.
    """
    if not isinstance(text, str) or not _UNIT_TEXT.match(text):
        raise DipsatError(f"expected a unit such as 'A PAR', found {text!r}")
    kind, _, place = text.partition(" ")
    province, _, coast = place.partition("/")
    return Unit(Location(province.lower(), coast.lower() or None), UnitType(kind), power)


def read_position(data: dict[str, Any], board: Board | None = None) -> Position:
    """The position `position_json` writes (standoffs are not part of it).

    Raises:
        DipsatError: a unit, power or phase that cannot be read, or an impossible position.
        KeyError, TypeError, AttributeError: data not shaped like `position_json`'s.
    """
    board = board or standard()
    unit = read_unit

    def power_of(name: str) -> str:
        try:
            return board.lookup_power(name)
        except ValueError as err:
            raise DipsatError(f"expected a power, found {name!r}") from err

    phase = Phase.parse(data["phase"])
    units = [unit(u, power_of(p)) for p, us in data.get("units", {}).items() for u in us]
    centres = [(c.lower(), power_of(p)) for p, cs in data.get("centers", {}).items() for c in cs]
    dislodged = [
        DislodgedUnit(unit(u, power_of(p)), info["from"].lower(), bool(info["by_convoy"]))
        for p, us in data.get("dislodged", {}).items()
        for u, info in us.items()
    ]
    return Position(phase, tuple(units), tuple(centres), tuple(dislodged), board=board)


def snapshot(position: Position, rules: RuleBook = DATC_2025) -> Snapshot:
    """Our position in the comparable form, with the retreat options of dislodged units."""
    dislodged = frozenset(
        _dislodged_text(d.unit, retreat_options(position, d, rules)) for d in position.dislodged
    )
    return Snapshot(
        position.phase.code,
        frozenset(f"{u.power.upper()}: {unit_text(u)}" for u in position.units),
        dislodged,
        frozenset(f"{p.upper()}: {owner.upper()}" for p, owner in position.centres),
    )


def _dislodged_text(unit: Unit, options: tuple[Location, ...]) -> str:
    where = ", ".join(sorted(place_text(o) for o in options)) or "nowhere"
    return f"{unit.power.upper()}: *{unit_text(unit)} -> {where}"


@dataclass(frozen=True, slots=True)
class RecordedPhase:
    """One phase of a game file: the recorded state at its start and the orders given."""

    name: str
    phase: Phase | None  # None for the end marker
    units: tuple[Unit, ...]
    retreats: tuple[tuple[Unit, tuple[Location, ...]], ...]  # starred units and options
    centres: tuple[tuple[str, str], ...]
    orders: tuple[Given, ...]
    board: Board = field(repr=False, compare=False)

    @property
    def snapshot(self) -> Snapshot:
        return Snapshot(
            self.name,
            frozenset(f"{u.power.upper()}: {unit_text(u)}" for u in self.units),
            frozenset(_dislodged_text(u, options) for u, options in self.retreats),
            frozenset(f"{p.upper()}: {owner.upper()}" for p, owner in self.centres),
        )

    def position(
        self, dislodged: tuple[DislodgedUnit, ...] = (), standoffs: frozenset[Key] = frozenset()
    ) -> Position:
        """The recorded state as a position; a retreat phase needs what the file does not
        keep (each attacker's origin, the standoff provinces) from the caller."""
        if self.phase is None:
            raise DipsatError(f"{self.name} is not a phase to adjudicate")
        board = self.board
        return Position(self.phase, self.units, self.centres, dislodged, standoffs, board=board)


@dataclass(frozen=True, slots=True)
class RecordedGame:
    path: str
    phases: tuple[RecordedPhase, ...]


def read_game(path: str | Path, board: Board | None = None) -> RecordedGame:
    """Read and check a game file; every problem is a `GameFileError` naming file and phase.
    The game is played on ``board``, or else on the map the file names (standard if none)."""
    name = str(path)
    try:
        data = parse_json(read_text(path, MAX_GAME_FILE_BYTES))
    except TextFileError as error:
        raise GameFileError(str(error), name) from error
    return parse_game(data, name, board)


def parse_game(data: object, path: str = "-", board: Board | None = None) -> RecordedGame:
    """A game from the decoded JSON of a game file (on ``board``, or the map it names)."""
    return _MilaReader(path, board).game(data)


class _MilaReader:
    def __init__(self, path: str, board: Board | None = None) -> None:
        self.path = path
        self.phase: str | None = None
        self.board: Board = board or standard()
        self.chosen = board is not None

    def fail(self, message: str) -> GameFileError:
        return GameFileError(message, self.path, self.phase)

    def field(self, data: object, key: str, kind: type[_T], where: str) -> _T:
        if not isinstance(data, Mapping):
            raise self.fail(f"{where}: expected an object, found {type(data).__name__}")
        if key not in data:
            raise self.fail(f"{where}: missing key {key!r}")
        value = data[key]
        if not isinstance(value, kind):
            raise self.fail(f"{where}.{key}: expected {kind.__name__}, found {shown(value, 60)}")
        return value

    def game(self, data: object) -> RecordedGame:
        self.read_map(data)
        phases = self.field(data, "phases", list, "game")
        if not phases:
            raise self.fail("game: no phases")
        read = []
        for index, raw in enumerate(phases):
            self.phase = f"phase #{index + 1}"
            read.append(self.recorded(raw))
            if read[-1].phase is None and index != len(phases) - 1:
                raise self.fail(f"{END} is not the last phase")
        return RecordedGame(self.path, tuple(read))

    def read_map(self, data: object) -> None:
        """The board of the game: the one chosen, which must be the map the file names (if
        it names one), or else that map."""
        named = data.get("map") if isinstance(data, Mapping) else None
        if named is None:
            return
        if not isinstance(named, str):
            raise self.fail(f"game.map: expected a map name, found {shown(named, 60)}")
        if self.chosen:
            if named != self.board.name:
                raise self.fail(
                    f"game.map: the game is played on {named!r}, not on {self.board.name!r}"
                )
            return
        try:
            self.board = variant(named)
        except MapDataError as error:
            raise self.fail(f"game.map: {error}") from error

    def recorded(self, raw: object) -> RecordedPhase:
        name = self.field(raw, "name", str, "phase")
        self.phase = name
        phase = self.phase_name(name)
        orders = self.field(raw, "orders", dict, "phase")
        state = self.field(raw, "state", dict, "phase")
        state_name = self.field(state, "name", str, "state")
        if state_name != name:
            raise self.fail(f"state.name is {state_name!r}, not the phase name")
        units, starred = self.units(self.field(state, "units", dict, "state"), phase)
        retreats = self.retreats(self.field(state, "retreats", dict, "state"), starred)
        centres = self.centres(self.field(state, "centers", dict, "state"))
        try:
            Position(phase or opening_phase(self.board), units, centres, board=self.board)
        except DipsatError as error:
            raise self.fail(f"state.units: {error}") from error
        given = self.orders(orders, phase)
        return RecordedPhase(name, phase, units, retreats, centres, given, self.board)

    def phase_name(self, name: str) -> Phase | None:
        if name == END:
            return None
        if not _PHASE.fullmatch(name):
            raise self.fail(
                f"expected a phase name such as S1901M, F1901R, W1901A or {END}, found {name!r}"
            )
        return Phase.parse(name)

    def power(self, text: object) -> str:
        """A power by any name the board gives it: engines spell powers their own way
        (MILA writes `PACIFICRUSSIA` for the `world` map's `Pacific-Russia`)."""
        if isinstance(text, str):
            try:
                return self.board.lookup_power(text)
            except UnknownNameError:
                pass
        known = ", ".join(p.upper() for p in self.board.powers)
        raise self.fail(f"unknown power {text!r}; expected one of {known}")

    def location(self, text: object, unit_type: UnitType | None, where: str) -> Location:
        match = _PLACE.fullmatch(text) if isinstance(text, str) else None
        if match is None or match[1].lower() not in self.board.provinces:
            raise self.fail(f"{where}: unknown place {text!r}")
        province = self.board.provinces[match[1].lower()]
        coast = match[2].lower() if match[2] else None
        if coast is not None and coast not in province.coasts:
            raise self.fail(f"{where}: {province.name} has no coast {match[2]}")
        if unit_type is UnitType.ARMY and (coast is not None or province.kind is Kind.SEA):
            raise self.fail(f"{where}: an army cannot stand in {text}")
        if unit_type is UnitType.FLEET:
            if province.kind is Kind.LAND:
                raise self.fail(f"{where}: a fleet cannot stand in {text}")
            if province.coasts and coast is None:
                raise self.fail(f"{where}: a fleet in {province.name} needs its coast")
        return Location(province.code, coast)

    def unit(self, text: object, power: str, where: str) -> tuple[bool, Unit]:
        """(starred, unit) from 'A PAR', 'F STP/NC' or '*F SWE'."""
        match = _UNIT.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise self.fail(
                f"{where}: unknown unit string {text!r}; expected 'A PAR', 'F STP/NC' or '*F SWE'"
            )
        unit_type = UnitType(match[2])
        place = match[3] + (f"/{match[4]}" if match[4] else "")
        location = self.location(place, unit_type, where)
        return bool(match[1]), Unit(location, unit_type, power)

    def units(
        self, raw: dict[str, Any], phase: Phase | None
    ) -> tuple[tuple[Unit, ...], dict[tuple[str, str], Unit]]:
        units: list[Unit] = []
        starred: dict[tuple[str, str], Unit] = {}
        for key, texts in raw.items():
            power = self.power(key)
            if not isinstance(texts, list):
                raise self.fail(f"state.units.{key}: expected a list, found {shown(texts, 60)}")
            for text in texts:
                star, unit = self.unit(text, power, f"state.units.{key}")
                if not star:
                    units.append(unit)
                elif phase is None or phase.kind is not PhaseKind.RETREAT:
                    raise self.fail(f"state.units.{key}: dislodged unit {text!r} outside a retreat")
                else:
                    starred[power, unit_text(unit)] = unit
        return tuple(units), starred

    def retreats(
        self, raw: dict[str, Any], starred: dict[tuple[str, str], Unit]
    ) -> tuple[tuple[Unit, tuple[Location, ...]], ...]:
        found: list[tuple[Unit, tuple[Location, ...]]] = []
        for key, entries in raw.items():
            power = self.power(key)
            where = f"state.retreats.{key}"
            if not isinstance(entries, dict):
                raise self.fail(f"{where}: expected an object, found {shown(entries, 60)}")
            for text, options in entries.items():
                unit = starred.pop((power, text), None)
                if unit is None:
                    raise self.fail(f"{where}: {text!r} is not a dislodged (starred) unit")
                if not isinstance(options, list):
                    raise self.fail(f"{where}.{text}: expected a list, found {shown(options, 60)}")
                places = tuple(self.location(o, unit.type, f"{where}.{text}") for o in options)
                found.append((unit, places))
        if starred:
            missing = ", ".join(f"*{text}" for _, text in starred)
            raise self.fail(f"state.retreats: no retreat options for {missing}")
        return tuple(found)

    def centres(self, raw: dict[str, Any]) -> tuple[tuple[str, str], ...]:
        owners: dict[str, str] = {}
        for key, provinces in raw.items():
            power = self.power(key)
            if not isinstance(provinces, list):
                raise self.fail(
                    f"state.centers.{key}: expected a list, found {shown(provinces, 60)}"
                )
            for text in provinces:
                where = f"state.centers.{key}"
                location = self.location(text, None, where)
                province = self.board.provinces[location.code]
                if location.coast or not province.is_centre:
                    raise self.fail(f"{where}: {text!r} is not a supply centre")
                if province.code in owners:
                    raise self.fail(f"{where}: {text} is owned twice")
                owners[province.code] = power
        return tuple(owners.items())

    def orders(self, raw: dict[str, Any], phase: Phase | None) -> tuple[Given, ...]:
        kind = _PARSER_KIND[phase.kind] if phase else None
        given: list[Given] = []
        for key, texts in raw.items():
            power = self.power(key)
            if texts is None:  # MILA writes null for a power that gave no orders
                continue
            if not isinstance(texts, list):
                raise self.fail(f"orders.{key}: expected a list or null, found {shown(texts, 60)}")
            for text in texts:
                if not isinstance(text, str):
                    raise self.fail(
                        f"orders.{key}: expected an order string, found {shown(text, 60)}"
                    )
                try:
                    order = parse_given(text, self.board, kind)
                except OrderSyntaxError as error:
                    raise self.fail(
                        f"orders.{key}: cannot read {text!r}: column {error.column}: "
                        f"{error.message}"
                    ) from error
                if order.power not in (None, power):
                    raise self.fail(f"orders.{key}: {text!r} is an order of {order.power}")
                given.append(replace(order, power=power))
        return tuple(given)


def start_position(
    here: RecordedPhase, previous: PhaseResolution | None
) -> tuple[Position | None, str | None]:
    """The position to adjudicate, or None and why it cannot be built.

    A retreat phase takes what its record does not keep from our adjudication of the
    movement phase before it: each dislodged unit's attacker and the provinces a standoff
    left empty.  Where that adjudication differs from the record (a mismatch of the
    movement phase, reported there), the record stands: a standoff in a province the record
    has a unit in is left out (a standoff only keeps retreats out of a province, and an
    occupied one takes none anyway), and a recorded dislodged unit we did not dislodge
    makes the phase one we cannot rebuild."""
    assert here.phase is not None
    if here.phase.kind is not PhaseKind.RETREAT:
        return here.position(), None
    before = previous.position.phase if previous is not None else None
    if (
        previous is None
        or not isinstance(previous, Resolution)
        or before is None
        or (before.year, before.season) != (here.phase.year, here.phase.season)
    ):
        return None, f"no adjudicated movement phase before {here.name} to rebuild it from"
    ours = {r.unit: r for r in previous.dislodged}
    dislodged = []
    for unit, _ in here.retreats:
        found = ours.get(unit)
        if found is None:
            return None, (
                f"{unit.power.upper()} *{unit_text(unit)} was not dislodged by our "
                f"adjudication of {before.code}"
            )
        dislodged.append(DislodgedUnit(unit, found.attacker_from, found.by_convoy))
    occupied = {unit.province for unit in here.units}
    standoffs = frozenset(p for p in previous.standoffs if p not in occupied)
    try:
        return here.position(tuple(dislodged), standoffs), None
    except DipsatError as error:  # what we rebuilt does not fit the record
        return None, f"cannot rebuild {here.name} from our adjudication of {before.code}: {error}"
