"""Saved standard games: a JSON document, read with every field checked, saved atomically.

    {"format": "dipsat-game", "version": 1, "rules": "2025", "position": {...},
     "orders": ["England: F London - North Sea", ...], "history": [...]}

Positions are written as the cross-check protocol writes them (MILA units such as
'F STP/SC', upper-case powers), plus the provinces left empty by a standoff.  Orders are
their canonical text, `str(Given)`, which `parse_given` reads back.  The format and the
guarantees are described in docs/reliability.md; the JSON Schema is
docs/savegame.schema.json.

A multiverse game (`SavedMultiverse`) is the same envelope with "variant": "multiverse";
a document without "variant" is a standard game, so standard files are unchanged and the
version stays 1 (a reader older than the variant refuses such a file: "variant" is an
unknown field to it).

    {"format": "dipsat-game", "version": 1, "variant": "multiverse", "rules": "2025",
     "boards": [{"timeline": 0, "turn": 0, "position": {...}, "created": null,
                 "record": {"orders": [...], "decisions": [["move", "mun@0:0", false]],
                            "outcomes": [{"order": ..., "result": "fails", "dislodged":
                                          false, "destroyed": false, "reason": {"kind":
                                          "bounced", "by": ["A a-Tyrolia@0"]}}]}}, ...],
     "origins": [[0, null], [1, [0, 0]]], "orders": ["Germany: A a-Munich@1 Holds"]}

Everything a `Multiverse` holds is kept, so loading rebuilds an equal value: every board
(sorted by timeline and turn) with its position, the position it was created with (a fork)
or null, and its record or null; a record's orders as text with full coordinates, its
decisions as sorted [kind, spacetime code, value] triples, and its outcomes field by field
with the typed reason as a tagged object; the origins as [timeline, [timeline, turn] or
null]; and the orders submitted for the next step.  A board position is written as a
standard one, except that a unit dislodged from another board has "from": "".
`load` and `from_json` read standard games only; `load_multiverse` reads multiverse games
and `load_any` either.
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
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:  # solver.multiverse pulls in the solver; it is imported when needed
    from .multiverse import MBoard, Multiverse, Record

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


@dataclass(frozen=True, slots=True)
class SavedMultiverse:
    """A multiverse game: its rule book, the multiverse (every board with its record, and
    the origins of the timelines) and the orders submitted for the next step so far."""

    rules: str
    multiverse: Multiverse
    orders: tuple[Given, ...] = ()


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


def to_json(game: SavedGame | SavedMultiverse) -> str:
    """The saved game as JSON text: sorted keys, orders in submission order, a final newline."""
    if isinstance(game, SavedMultiverse):
        return _dump(_multiverse_json(game))
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
    return _dump(data)


def _dump(data: dict[str, Any]) -> str:
    # ASCII only: a lone surrogate read from a hand-edited file is written back escaped
    return json.dumps(data, sort_keys=True, indent=1, ensure_ascii=True) + "\n"


def save(game: SavedGame | SavedMultiverse, path: str | os.PathLike[str]) -> None:
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
        self.envelope(data)
        if "variant" in data:
            raise self.fail(
                "variant",
                f"a {data['variant']!r} game, not a standard one; "
                "read it with load_any or load_multiverse",
            )
        self.only(data, ("format", "version", "rules", "position", "orders", "history"), "")
        rules = self.rules(data)
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

    def rules(self, data: dict) -> str:
        rules = self.field(data, "rules", str, "")
        if rules not in RULE_BOOKS:
            raise self.fail("rules", f"unknown rule book {rules!r}; known: {', '.join(RULE_BOOKS)}")
        return rules

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


def from_json(text: str, path: str = "-") -> SavedGame:
    """Read a saved game; any fault raises SaveFileError naming `path` and the place."""
    return _Reader(path).game(_parse(text, path))


def load(path: str | os.PathLike[str]) -> SavedGame:
    """Read a saved game from a file."""
    return from_json(_read_text(path), str(path))


def _read_text(path: str | os.PathLike[str]) -> str:
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
    return text


# -- multiverse games ----------------------------------------------------------------------------
# The same envelope with "variant": "multiverse" (a document without "variant" is a standard
# game).  Every board is kept whole: its position and the position it was created with, as
# the standard format writes positions; its record's orders as text, its decisions as sorted
# [kind, spacetime code, value] triples and its outcomes field by field, with the reason as
# a tagged object, so that reading rebuilds an equal `Multiverse`.
VARIANT_MULTIVERSE = "multiverse"
_DECISION_KINDS = ("convoy", "dislodged", "move", "path", "sea", "support")
_CODE = re.compile(r"^([a-z]{3})@(0|[1-9][0-9]*):(0|[1-9][0-9]*)$")


def _reasons() -> dict[str, type]:
    from .outcomes import Bounced, CutBy, DislodgedBy, Illegal, Invalid, NoPath, ParadoxRule

    return {
        "illegal": Illegal,
        "invalid": Invalid,
        "bounced": Bounced,
        "no path": NoPath,
        "cut": CutBy,
        "dislodged": DislodgedBy,
        "paradox": ParadoxRule,
    }


def new_multiverse(rules: str = "2025") -> SavedMultiverse:
    """A multiverse game: one timeline, whose only board is the standard opening."""
    from .multiverse import Multiverse

    if rules not in RULE_BOOKS:
        raise DipsatError(f"unknown rule book {rules!r}; known: {', '.join(RULE_BOOKS)}")
    return SavedMultiverse(rules, Multiverse.start(STANDARD_START))


def step_multiverse(game: SavedMultiverse) -> SavedMultiverse:
    """Adjudicate one step with the orders submitted and clear them."""
    from .multiverse import step
    from .rules import rule_book

    after = step(game.multiverse, game.orders, rule_book(game.rules)).after
    return SavedMultiverse(game.rules, after, ())


def submit_multiverse(
    game: SavedMultiverse, texts: Sequence[str]
) -> tuple[SavedMultiverse, list[tuple[str, str]]]:
    """Add orders given as 'Power: order' text for the next step, their coordinates filled
    in (`solver.multiverse.complete`).  Each order with a problem (unreadable, no power, a
    waive, not on a head board, no such unit, unit already ordered) is left out and
    reported as (text, problem); the others are added.  The step judges the rest."""
    from .multiverse import complete

    mv, board = game.multiverse, standard()
    heads = mv.heads()
    on_head = {(b.timeline, b.turn): b for b in heads.values()}
    ordered = {_spot(g.order.unit.place) for g in game.orders if not isinstance(g.order, Waive)}
    added: list[Given] = []
    problems: list[tuple[str, str]] = []
    for text in texts:
        try:
            given = complete(mv, parse_given(text, board), heads)
            place = given.order.unit.place if not isinstance(given.order, Waive) else None
            head = on_head.get((place.timeline, place.turn)) if place else None
            if head is not None and head.position.phase.kind is PhaseKind.RETREAT:
                given = complete(mv, parse_given(text, board, "retreat"), heads)
        except DipsatError as err:
            problems.append((text, f"cannot read: {err}"))
            continue
        if given.power is None:
            problems.append((text, "expected 'Power: order', e.g. 'Germany: A a-Munich - Tyrolia'"))
            continue
        if place is None:
            problems.append((text, "a waive names no board; leave the build out instead"))
            continue
        if head is None:
            problems.append((text, f"{place} is not on a head board"))
            continue
        if not isinstance(given.order, Build):
            units = [head.position.unit_in(place.province)]
            units += [d.unit for d in head.position.dislodged if d.unit.province == place.province]
            if not any(u is not None and u.power == given.power for u in units):
                problems.append((text, f"no {given.power} unit in {place}"))
                continue
        if _spot(place) in ordered:
            problems.append((text, f"{place} already has an order this step"))
            continue
        ordered.add(_spot(place))
        added.append(given)
    return replace(game, orders=(*game.orders, *added)), problems


def _spot(place: Any) -> tuple[str, int | None, int | None]:
    return (place.province, place.timeline, place.turn)


def _reason_json(reason: Any) -> dict[str, Any] | None:
    if reason is None:
        return None
    kind = next(k for k, cls in _reasons().items() if type(reason) is cls)
    data: dict[str, Any] = {"kind": kind}
    for name in reason.__slots__:
        value = getattr(reason, name)
        data[name] = list(value) if isinstance(value, tuple) else value
    return data


def _record_json(record: Record | None) -> dict[str, Any] | None:
    if record is None:
        return None
    return {
        "orders": _orders_json(record.orders),
        "decisions": sorted(
            [kind, code, value] for (kind, code), value in record.decisions.items()
        ),
        "outcomes": [
            {
                "order": str(o.given),
                "result": o.result,
                "dislodged": o.dislodged,
                "destroyed": o.destroyed,
                "reason": _reason_json(o.reason),
            }
            for o in record.outcomes
        ],
    }


def _board_json(board: MBoard) -> dict[str, Any]:
    return {
        "timeline": board.timeline,
        "turn": board.turn,
        "position": _position_json(board.position),
        "created": None if board.created is None else _position_json(board.created),
        "record": _record_json(board.record),
    }


def _multiverse_json(game: SavedMultiverse) -> dict[str, Any]:
    mv = game.multiverse
    return {
        "format": FORMAT,
        "version": VERSION,
        "variant": VARIANT_MULTIVERSE,
        "rules": game.rules,
        "boards": [_board_json(b) for b in mv.boards],
        "origins": [[t, None if src is None else list(src)] for t, src in mv.origins],
        "orders": _orders_json(game.orders),
    }


class _MultiverseReader(_Reader):
    def count(self, data: dict, key: str, where: str) -> int:
        value = self.field(data, key, int, where)
        if value < 0:
            raise self.fail(f"{where}.{key}", f"expected 0 or more, found {value}")
        return value

    def texts(self, items: list, where: str, phase: str | None) -> tuple[Given, ...]:
        found = []
        for i, text in enumerate(items):
            if not isinstance(text, str):
                raise self.fail(f"{where}[{i}]", "expected an order as a string")
            try:
                found.append(parse_given(text, self.board, phase))
            except DipsatError as err:
                raise self.fail(f"{where}[{i}]", f"cannot read {text!r}: {err}") from err
        return tuple(found)

    def reason(self, data: Any, where: str) -> Any:
        if data is None:
            return None
        if not isinstance(data, dict):
            raise self.fail(where, "expected an object or null")
        reasons = _reasons()
        kind = self.field(data, "kind", str, where)
        if kind not in reasons:
            raise self.fail(
                f"{where}.kind", f"expected one of {', '.join(reasons)}, found {kind!r}"
            )
        cls = reasons[kind]
        self.only(data, ("kind", *cls.__slots__), where)
        values = {}
        for name in cls.__slots__:
            value = data.get(name)
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                value = tuple(value)
            elif not isinstance(value, str):
                raise self.fail(f"{where}.{name}", "expected a string or a list of strings")
            values[name] = value
        try:
            return cls(**values)
        except TypeError as err:
            raise self.fail(where, str(err)) from err

    def record(self, data: Any, where: str, key: tuple[int, int]) -> Record | None:
        from .multiverse import Record
        from .outcomes import Outcome

        if data is None:
            return None
        if not isinstance(data, dict):
            raise self.fail(where, "expected an object or null")
        self.only(data, ("orders", "decisions", "outcomes"), where)
        orders = self.texts(self.field(data, "orders", list, where), f"{where}.orders", "movement")
        decisions: dict[tuple[str, str], bool] = {}
        for i, item in enumerate(self.field(data, "decisions", list, where)):
            here = f"{where}.decisions[{i}]"
            if not (
                isinstance(item, list)
                and len(item) == 3
                and isinstance(item[0], str)
                and isinstance(item[1], str)
                and isinstance(item[2], bool)
            ):
                raise self.fail(here, "expected [kind, province code, true or false]")
            kind, code, value = item
            if kind not in _DECISION_KINDS:
                raise self.fail(f"{here}[0]", f"expected one of {', '.join(_DECISION_KINDS)}")
            match = _CODE.match(code)
            if not match or match.group(1) not in self.board.provinces:
                raise self.fail(f"{here}[1]", f"expected a code such as 'mun@0:1', found {code!r}")
            if (int(match.group(2)), int(match.group(3))) != key:
                raise self.fail(f"{here}[1]", f"{code} is not on this board")
            if (kind, code) in decisions:
                raise self.fail(here, f"a second {kind} decision for {code}")
            decisions[(kind, code)] = value
        outcomes = []
        for i, item in enumerate(self.field(data, "outcomes", list, where)):
            here = f"{where}.outcomes[{i}]"
            if not isinstance(item, dict):
                raise self.fail(here, "expected an object")
            self.only(item, ("order", "result", "dislodged", "destroyed", "reason"), here)
            (given,) = self.texts([self.field(item, "order", str, here)], f"{here}.order", None)
            result = self.field(item, "result", str, here)
            if not result:
                raise self.fail(f"{here}.result", "expected a result such as 'succeeds'")
            flags = []
            for name in ("dislodged", "destroyed"):
                if not isinstance(item.get(name), bool):
                    raise self.fail(f"{here}.{name}", "expected true or false")
                flags.append(item[name])
            if "reason" not in item:
                raise self.fail(f"{here}.reason", "missing")
            reason = self.reason(item["reason"], f"{here}.reason")
            outcomes.append(Outcome(given, result, flags[0], flags[1], reason))
        return Record(orders, decisions, tuple(outcomes))

    def multiverse(self, data: Any) -> SavedMultiverse:
        from .multiverse import MBoard, Multiverse, board_turn
        from .orders import timeline_name

        self.envelope(data)
        if data.get("variant") != VARIANT_MULTIVERSE:
            raise self.fail(
                "variant", f"expected {VARIANT_MULTIVERSE!r}, found {data.get('variant')!r}"
            )
        self.only(
            data, ("format", "version", "variant", "rules", "boards", "origins", "orders"), ""
        )
        rules = self.rules(data)
        boards: dict[tuple[int, int], MBoard] = {}
        seen: dict[tuple[int, int], int] = {}
        items = self.field(data, "boards", list, "")
        if not items:
            raise self.fail("boards", "expected at least one board")
        for i, item in enumerate(items):
            here = f"boards[{i}]"
            if not isinstance(item, dict):
                raise self.fail(here, "expected an object")
            self.only(item, ("timeline", "turn", "position", "created", "record"), here)
            key = (self.count(item, "timeline", here), self.count(item, "turn", here))
            name = f"{timeline_name(key[0])}@{key[1]}"
            if key in seen:
                raise self.fail(here, f"a second board {name}; the first is boards[{seen[key]}]")
            seen[key] = i
            position = self.position(item.get("position"), f"{here}.position", foreign=True)
            if "created" not in item:
                raise self.fail(f"{here}.created", "missing")
            created = item["created"]
            if created is not None:
                created = self.position(created, f"{here}.created", foreign=True)
            for field_name, pos in (("position", position), ("created", created)):
                if pos is not None and board_turn(pos.phase) != key[1]:
                    raise self.fail(
                        f"{here}.{field_name}.phase",
                        f"{pos.phase.code} is no phase of board {name} (turn {key[1]})",
                    )
            if "record" not in item:
                raise self.fail(f"{here}.record", "missing")
            record = self.record(item["record"], f"{here}.record", key)
            boards[key] = MBoard(key[0], key[1], position, record, created)
        origins: dict[int, tuple[int, int] | None] = {}
        for i, item in enumerate(self.field(data, "origins", list, "")):
            here = f"origins[{i}]"
            if not (isinstance(item, list) and len(item) == 2):
                raise self.fail(here, "expected [timeline, [timeline, turn] or null]")
            timeline, source = item
            if not isinstance(timeline, int) or isinstance(timeline, bool) or timeline < 0:
                raise self.fail(
                    f"{here}[0]", f"expected a timeline of 0 or more, found {timeline!r}"
                )
            if timeline in origins:
                raise self.fail(f"{here}[0]", f"a second origin for timeline {timeline}")
            if source is not None:
                if not (
                    isinstance(source, list)
                    and len(source) == 2
                    and all(isinstance(n, int) and not isinstance(n, bool) for n in source)
                ):
                    raise self.fail(f"{here}[1]", "expected [timeline, turn] or null")
                source = (source[0], source[1])
                if source not in boards:
                    where = (
                        f"{timeline_name(source[0])}@{source[1]}" if min(source) >= 0 else source
                    )
                    raise self.fail(f"{here}[1]", f"no board {where} to branch from")
            origins[timeline] = source
        for key, i in seen.items():
            if key[0] not in origins:
                raise self.fail(f"boards[{i}].timeline", f"timeline {key[0]} has no origin")
        orders = self.texts(self.field(data, "orders", list, ""), "orders", None)
        mv = Multiverse(tuple(boards[k] for k in sorted(boards)), tuple(sorted(origins.items())))
        return SavedMultiverse(rules, mv, orders)


def _parse(text: str, path: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise SaveFileError(f"not valid JSON: {err.msg}", path, err.lineno, err.colno) from err
    except RecursionError as err:
        raise SaveFileError("JSON nested too deeply", path, 1, 1) from err
    except ValueError as err:  # e.g. an integer beyond Python's digit limit
        raise SaveFileError(f"not valid JSON: {err}", path, 1, 1) from err


def multiverse_from_json(text: str, path: str = "-") -> SavedMultiverse:
    """Read a saved multiverse game; any fault raises SaveFileError naming `path` and the place."""
    return _MultiverseReader(path).multiverse(_parse(text, path))


def any_from_json(text: str, path: str = "-") -> SavedGame | SavedMultiverse:
    """Read a saved game of either kind, as its "variant" says."""
    data = _parse(text, path)
    if isinstance(data, dict) and "variant" in data:
        return _MultiverseReader(path).multiverse(data)
    return _Reader(path).game(data)


def load_multiverse(path: str | os.PathLike[str]) -> SavedMultiverse:
    """Read a saved multiverse game from a file."""
    return multiverse_from_json(_read_text(path), str(path))


def load_any(path: str | os.PathLike[str]) -> SavedGame | SavedMultiverse:
    """Read a saved game of either kind from a file."""
    return any_from_json(_read_text(path), str(path))
