"""Saved standard games: a JSON document, read with every field checked, saved atomically.

    {"format": "dipsat-game", "version": 1, "rules": "2025", "position": {...},
     "orders": ["England: F London - North Sea", ...], "history": [...]}

Positions are written as the cross-check protocol writes them (MILA units such as
'F STP/SC', upper-case powers), plus the provinces left empty by a standoff.  Orders are
their canonical text, `str(Given)`, which `parse_given` reads back.  The format and the
guarantees are described in docs/reliability.md; the JSON Schema is
docs/savegame.schema.json.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from topology import Location, UnitType, standard

from .crosscheck.protocol import ProtocolError, read_request, request
from .errors import DipsatError, SaveFileError
from .notation import parse_given
from .orders import (
    Build,
    Convoy,
    Disband,
    Given,
    Hold,
    Move,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from .position import SPRING_1901, Phase, PhaseKind, Position, Unit
from .rules import RULE_BOOKS

FORMAT = "dipsat-game"
VERSION = 1
MAX_SAVE_FILE_BYTES = 64_000_000
_UNIT = re.compile(r"^([AF]) ([A-Z]{3})(?:/([NSEW]C))?$")
_PROVINCE = re.compile(r"^[A-Z]{3}$")


@dataclass(frozen=True, slots=True)
class Recorded:
    """The outcome of one order as the adjudicator reported it, kept as text."""

    order: str  # the order, as `str(Given)`
    result: str  # e.g. 'succeeds', 'fails, dislodged'
    reason: str | None = None  # e.g. 'bounced by A Munich'


@dataclass(frozen=True, slots=True)
class PastPhase:
    """An adjudicated phase: the position before it, the orders given, their outcomes."""

    position: Position
    orders: tuple[Given, ...]
    outcomes: tuple[Recorded, ...]


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A standard game: its rule book, the current position, the orders submitted for the
    current phase so far and the phases played."""

    rules: str
    position: Position
    orders: tuple[Given, ...] = ()
    history: tuple[PastPhase, ...] = ()


def _start() -> Position:
    board = standard()
    fleets = {"tri", "lon", "edi", "bre", "kie", "nap", "sev", "ank"}
    units = [
        Unit(Location(code), UnitType.FLEET if code in fleets else UnitType.ARMY, power)
        for power in board.powers
        for code in board.home_centres(power)
        if code != "stp"
    ]
    units.append(Unit(Location("stp", "sc"), UnitType.FLEET, "Russia"))
    centres = [(code, power) for power in board.powers for code in board.home_centres(power)]
    return Position(SPRING_1901, tuple(units), tuple(centres))


STANDARD_START = _start()


def new_game(rules: str = "2025") -> SavedGame:
    """A game at the standard opening position, Spring 1901."""
    if rules not in RULE_BOOKS:
        raise DipsatError(f"unknown rule book {rules!r}; known: {', '.join(RULE_BOOKS)}")
    return SavedGame(rules, STANDARD_START)


def adjudicate_game(game: SavedGame) -> SavedGame:
    """Adjudicate the current phase with the orders submitted and move to the next one."""
    from .game import advance
    from .rules import rule_book

    step = advance(game.position, game.orders, rule_book(game.rules))
    outcomes = tuple(
        Recorded(str(o.given), o.label, str(o.reason) if o.reason is not None else None)
        for o in step.outcomes
    )
    past = PastPhase(game.position, game.orders, outcomes)
    return SavedGame(game.rules, step.after, (), (*game.history, past))


_ALLOWED = {
    PhaseKind.MOVEMENT: (Hold, Move, SupportHold, SupportMove, Convoy),
    PhaseKind.RETREAT: (Retreat, Disband),
    PhaseKind.ADJUSTMENT: (Build, Disband, Waive),
}


def submit(game: SavedGame, texts: Sequence[str]) -> tuple[SavedGame, list[tuple[str, str]]]:
    """Add orders given as 'Power: order' text to the current phase.  Each order with a
    problem (unreadable, no power, wrong phase, no such unit, unit already ordered) is
    left out and reported as (text, problem); the others are added."""
    position, board = game.position, standard()
    kind = position.phase.kind
    dislodged = {d.unit.province: d.unit for d in position.dislodged}
    ordered = {g.order.unit.place.province for g in game.orders if not isinstance(g.order, Waive)}
    added: list[Given] = []
    problems: list[tuple[str, str]] = []
    for text in texts:
        try:
            given = parse_given(text, board, kind.value)
        except DipsatError as err:
            problems.append((text, f"cannot read: {err}"))
            continue
        order = given.order
        if given.power is None:
            problems.append((text, "expected 'Power: order', e.g. 'England: F London - North Sea'"))
            continue
        if not isinstance(order, _ALLOWED[kind]):
            problems.append((text, f"not an order for a {kind.value} phase"))
            continue
        if isinstance(order, Waive):
            added.append(given)
            continue
        province = order.unit.place.province
        if not isinstance(order, Build):
            retreat = kind is PhaseKind.RETREAT
            unit = dislodged.get(province) if retreat else position.unit_in(province)
            if unit is None or unit.power != given.power:
                where = "dislodged " if retreat else ""
                problems.append((text, f"no {where}{given.power} unit in {order.unit.place}"))
                continue
        if province in ordered:
            problems.append((text, f"{order.unit.place} already has an order this phase"))
            continue
        ordered.add(province)
        added.append(given)
    return replace(game, orders=(*game.orders, *added)), problems


# -- writing -------------------------------------------------------------------------------------
def _position_json(position: Position) -> dict[str, Any]:
    data = request("", position, [])
    return {
        "phase": data["phase"],
        "units": data["units"],
        "centers": data["centers"],
        "dislodged": data["dislodged"],
        "standoffs": sorted(p.upper() for p in position.standoffs),
    }


def _orders_json(orders: Sequence[Given]) -> list[str]:
    return [str(given) for given in orders]


def to_json(game: SavedGame) -> str:
    """The saved game as JSON text: sorted keys, orders in submission order, a final newline."""
    data = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules,
        "position": _position_json(game.position),
        "orders": _orders_json(game.orders),
        "history": [
            {
                "position": _position_json(past.position),
                "orders": _orders_json(past.orders),
                "outcomes": [
                    {"order": r.order, "result": r.result, "reason": r.reason}
                    for r in past.outcomes
                ],
            }
            for past in game.history
        ],
    }
    return json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def save(game: SavedGame, path: str | os.PathLike[str]) -> None:
    """Write the game to `path` atomically: a reader sees the old file or the new, whole.

    The text goes to a temporary file beside `path`, is flushed to disk and renamed over
    `path`; on any failure the temporary file is removed and `path` is left as it was."""
    target = Path(path)
    data = to_json(game).encode("utf-8")
    temporary = ""
    try:
        with tempfile.NamedTemporaryFile(
            dir=target.parent, prefix=f".{target.name}.", suffix=".tmp", delete=False
        ) as tmp:
            temporary = tmp.name
            tmp.write(data)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.replace(temporary, target)
    except BaseException:
        if temporary:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise
    with contextlib.suppress(OSError, AttributeError):  # make the rename itself durable
        folder = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


# -- reading -------------------------------------------------------------------------------------
class _Reader:
    def __init__(self, path: str) -> None:
        self.path = path
        self.board = standard()

    def fail(self, where: str, message: str) -> SaveFileError:
        return SaveFileError(message, self.path, where=where)

    def only(self, data: dict, allowed: tuple[str, ...], where: str) -> None:
        for key in data:
            if key not in allowed:
                here = f"{where}.{key}" if where else key
                raise self.fail(here, f"unknown field; expected {', '.join(allowed)}")

    def field(self, data: dict, key: str, kind: type, where: str) -> Any:
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

    def by_power(self, data: dict, key: str, where: str) -> dict:
        value = self.field(data, key, dict, where)
        for power in value:
            self.power(power, f"{where}.{key}.{power}")
        return value

    def position(self, data: Any, where: str) -> Position:
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
                self.province(self.field(info, "from", str, f"{here}.{text}"), f"{here}.{text}")
                if not isinstance(info.get("by_convoy"), bool):
                    raise self.fail(f"{here}.{text}.by_convoy", "expected true or false")
        standoffs = self.field(data, "standoffs", list, where)
        for i, code in enumerate(standoffs):
            self.province(code, f"{where}.standoffs[{i}]")
        try:
            position, _ = read_request({**data, "orders": {}})
        except (ProtocolError, DipsatError) as err:
            raise self.fail(where, str(err)) from err
        return Position(
            position.phase,
            position.units,
            position.centres,
            position.dislodged,
            frozenset(c.lower() for c in standoffs),
        )

    def orders(self, data: dict, where: str, phase: Phase) -> tuple[Given, ...]:
        items = self.field(data, "orders", list, where)
        here = f"{where}.orders" if where else "orders"
        found = []
        for i, text in enumerate(items):
            if not isinstance(text, str):
                raise self.fail(f"{here}[{i}]", "expected an order as a string")
            try:
                found.append(parse_given(text, self.board, phase.kind.value))
            except DipsatError as err:
                raise self.fail(f"{here}[{i}]", f"cannot read {text!r}: {err}") from err
        return tuple(found)

    def outcomes(self, data: dict, where: str) -> tuple[Recorded, ...]:
        found = []
        for i, item in enumerate(self.field(data, "outcomes", list, where)):
            here = f"{where}.outcomes[{i}]"
            if not isinstance(item, dict):
                raise self.fail(here, "expected an object")
            self.only(item, ("order", "result", "reason"), here)
            reason = item.get("reason")
            if reason is not None and not isinstance(reason, str):
                raise self.fail(f"{here}.reason", "expected a string or null")
            found.append(
                Recorded(
                    self.field(item, "order", str, here),
                    self.field(item, "result", str, here),
                    reason,
                )
            )
        return tuple(found)

    def game(self, data: Any) -> SavedGame:
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
        self.only(data, ("format", "version", "rules", "position", "orders", "history"), "")
        rules = self.field(data, "rules", str, "")
        if rules not in RULE_BOOKS:
            raise self.fail("rules", f"unknown rule book {rules!r}; known: {', '.join(RULE_BOOKS)}")
        position = self.position(data.get("position"), "position")
        orders = self.orders(data, "", position.phase)
        history = []
        for i, item in enumerate(self.field(data, "history", list, "")):
            here = f"history[{i}]"
            if not isinstance(item, dict):
                raise self.fail(here, "expected an object")
            self.only(item, ("position", "orders", "outcomes"), here)
            before = self.position(item.get("position"), f"{here}.position")
            history.append(
                PastPhase(before, self.orders(item, here, before.phase), self.outcomes(item, here))
            )
        return SavedGame(rules, position, orders, tuple(history))


def from_json(text: str, path: str = "-") -> SavedGame:
    """Read a saved game; any fault raises SaveFileError naming `path` and the place."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise SaveFileError(f"not valid JSON: {err.msg}", path, err.lineno, err.colno) from err
    except RecursionError as err:
        raise SaveFileError("JSON nested too deeply", path, 1, 1) from err
    return _Reader(path).game(data)


def load(path: str | os.PathLike[str]) -> SavedGame:
    """Read a saved game from a file."""
    name = str(path)
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_SAVE_FILE_BYTES + 1)
    except OSError as err:
        raise SaveFileError(f"cannot read: {err.strerror or err}", name) from err
    if len(raw) > MAX_SAVE_FILE_BYTES:
        raise SaveFileError(f"larger than {MAX_SAVE_FILE_BYTES} bytes", name, 1, 1)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        column = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        raise SaveFileError("not UTF-8 text", name, line, column) from err
    return from_json(text, name)
