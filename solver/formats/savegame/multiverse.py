"""Saved multiverse games: a `SavedMultiverse` is the envelope of a standard game with
"variant": "multiverse"; a document without "variant" is a standard game, so standard files
are unchanged and the version stays 1 (a reader older than the variant refuses such a file:
"variant" is an unknown field to it).  A multiverse on another map than the standard one
names it in "board", as a standard game does ("board": "ancmed").

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
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from topology import Board
from topology.files import NUMBER_DIGITS

from ...errors import DipsatError
from ...values.decisions import Decision, DecisionKind
from ...values.notation import parse_given, parse_unit
from ...values.orders import Build, Given, Names, Waive, timeline_name
from ...values.outcomes import (
    BackupRule,
    Bounced,
    CutBy,
    DislodgedBy,
    Illegal,
    Invalid,
    NoPath,
    Outcome,
    ParadoxRule,
    Reason,
    Result,
)
from ...values.position import DislodgedUnit, Position, Unit
from ...values.rules import RuleBook
from ..mila import read_unit, unit_text
from ..rulebooks import rule_book
from .envelope import (
    FORMAT,
    VERSION,
    _order_json,
    _orders_json,
    _parse,
    _position_json,
    _read_text,
    _SaveReader,
    board_json,
    position_lines,
    rules_json,
)

if TYPE_CHECKING:  # solver.multiverse.step pulls in the solver; it is imported when needed
    from ...multiverse.state import MBoard, Multiverse, Pause, Record


@dataclass(frozen=True, slots=True)
class SavedMultiverse:
    """A multiverse game: its rule book, the multiverse (every board with its record, and
    the origins of the timelines) and the orders submitted for the next step so far."""

    rules: RuleBook
    multiverse: Multiverse
    orders: tuple[Given, ...] = ()

    def submit(self, texts: Sequence[str]) -> tuple[SavedMultiverse, list[tuple[str, str]]]:
        """The game with these orders added (`submit_multiverse`), and the problems of
        those left out."""
        return submit_multiverse(self, texts)

    def adjudicated(self) -> tuple[SavedMultiverse, list[str]]:
        """The game after a step with the orders submitted, and what the step came to."""
        done = self.multiverse.step(self.orders, self.rules)
        lines = [f"  {o}" for o in done.outcomes]
        for fork in done.forks:
            source = f"{timeline_name(fork.source[0])}@{fork.source[1]}"
            lines.append(f"timeline {timeline_name(fork.timeline)} forks from {source}")
        heads = sorted(done.after.heads().items())
        lines += [f"head {h.name}: {h.position.phase}" for _, h in heads]
        return SavedMultiverse(self.rules, done.after, ()), lines

    def lines(self) -> list[str]:
        """The timelines and boards, each head's units and centres, and the orders."""
        mv = self.multiverse
        on = "" if mv.map.name == "standard" else f" on {mv.map.name}"
        found = [
            f"multiverse{on} (rules {self.rules.name}): {len(mv.origins)} timeline(s), "
            f"{len(mv.boards)} board(s)"
        ]
        for _, head in sorted(mv.heads().items()):
            found.append(f"head {head.name}: {head.position.phase}")
            found += position_lines(head.position, "  ")
        return found + [f"order: {g}" for g in self.orders]

    def to_json(self) -> dict[str, Any]:
        return _multiverse_json(self)


VARIANT_MULTIVERSE = "multiverse"
# a province on a board, 'mun@0:1': any code of the board ('ab1' too), then the timeline
# and the turn, each of at most NUMBER_DIGITS digits (a longer one is refused unread)
_CODE = re.compile(
    rf"^([a-z][a-z0-9]*)@(0|[1-9][0-9]{{0,{NUMBER_DIGITS - 1}}}):"
    rf"(0|[1-9][0-9]{{0,{NUMBER_DIGITS - 1}}})$"
)


def new_multiverse(rules: str | RuleBook = "2025", board: Board | None = None) -> SavedMultiverse:
    """A multiverse game: one timeline, whose only board is the opening of a map (standard
    by default; the rule book as for `new_game`)."""
    from ...multiverse.state import Multiverse

    return SavedMultiverse(rule_book(rules), Multiverse.start(Position.opening(board)))


def step_multiverse(game: SavedMultiverse) -> SavedMultiverse:
    """Adjudicate one step with the orders submitted and clear them."""
    return game.adjudicated()[0]


def submit_multiverse(
    game: SavedMultiverse, texts: Sequence[str]
) -> tuple[SavedMultiverse, list[tuple[str, str]]]:
    """Add orders given as 'Power: order' text for the next step, their coordinates filled
    in (`Multiverse.read`).  Each order with a problem (unreadable, no power, a
    waive, not on a head board, no such unit, unit already ordered) is left out and
    reported as (text, problem); the others are added.  The step judges the rest."""
    mv = game.multiverse
    board = mv.map
    # looked up with a place's coordinates, which may be missing (None)
    on_head: dict[tuple[int | None, int | None], MBoard] = {
        (b.timeline, b.turn): b for b in mv.heads().values()
    }
    ordered = {_spot(g.order.unit.place) for g in game.orders if not isinstance(g.order, Waive)}
    added: list[Given] = []
    problems: list[tuple[str, str]] = []
    for text in texts:
        try:
            given = mv.read(text)
        except DipsatError as err:
            problems.append((text, str(err)))  # "column 1: expected a power before ':' ..."
            continue
        place = given.order.unit.place if not isinstance(given.order, Waive) else None
        head = on_head.get((place.timeline, place.turn)) if place else None
        if given.power is None:
            problems.append((text, "expected 'Power: order', e.g. 'Germany: A a-Munich - Tyrolia'"))
            continue
        if place is None:
            problems.append((text, "a waive names no board; leave the build out instead"))
            continue
        if head is None:
            problems.append((text, f"{place.text(board)} is not on a head board"))
            continue
        if not isinstance(given.order, Build):
            units = [head.position.unit_in(place.province)]
            units += [d.unit for d in head.position.dislodged if d.unit.province == place.province]
            if not any(u is not None and u.power == given.power for u in units):
                problems.append((text, f"no {given.power} unit in {place.text(board)}"))
                continue
        if _spot(place) in ordered:
            problems.append((text, f"{place.text(board)} already has an order this step"))
            continue
        ordered.add(_spot(place))
        added.append(given)
    return replace(game, orders=(*game.orders, *added)), problems


def _spot(place: Any) -> tuple[str, int | None, int | None]:
    return (place.province, place.timeline, place.turn)


def _reason_json(reason: Reason | None, names: Names) -> dict[str, Any] | None:
    """A reason as saved games keep it (the one mapping; `_MultiverseReader.reason` reads
    it back)."""
    match reason:
        case None:
            return None
        case Illegal(why=why):
            return {"kind": "illegal", "why": why}
        case Invalid(why=why):
            return {"kind": "invalid", "why": why}
        case Bounced(by=by):
            return {"kind": "bounced", "by": [unit.text(names) for unit in by]}
        case NoPath():
            return {"kind": "no path"}
        case CutBy(by=by):
            return {"kind": "cut", "by": [unit.text(names) for unit in by]}
        case DislodgedBy(by=by):
            return {"kind": "dislodged", "by": by.text(names)}
        case ParadoxRule(rule=rule, core=core):
            return {"kind": "paradox", "rule": str(rule), "core": list(core)}
    raise AssertionError(f"no saved form for {reason!r}")


_REASON_FIELDS = {
    "illegal": ("why",),
    "invalid": ("why",),
    "bounced": ("by",),
    "no path": (),
    "cut": ("by",),
    "dislodged": ("by",),
    "paradox": ("rule", "core"),
}


def _record_json(record: Record | None, names: Board) -> dict[str, Any] | None:
    from ...multiverse.state import SpotNames

    if record is None:
        return None
    spots = SpotNames(names)  # a reason's units stand on boards: 'A a-Paris@0'
    return {
        "orders": _orders_json(record.orders, names),
        "decisions": sorted(
            [kind, str(code), value] for (kind, code), value in record.decisions.items()
        ),
        "outcomes": [
            {
                "order": _order_json(o.given, names),
                "result": o.result,
                "dislodged": o.dislodged,
                "destroyed": o.destroyed,
                "reason": _reason_json(o.reason, spots),
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
        "record": _record_json(board.record, board.position.map),
    }


def _multiverse_json(game: SavedMultiverse) -> dict[str, Any]:
    mv = game.multiverse
    data = {
        "format": FORMAT,
        "version": VERSION,
        "variant": VARIANT_MULTIVERSE,
        **board_json(mv.map),  # nothing for the standard map: its files are unchanged
        "rules": rules_json(game.rules),
        "boards": [_board_json(b) for b in mv.boards],
        "origins": [[t, None if src is None else list(src)] for t, src in mv.origins],
        "orders": _orders_json(game.orders, mv.map),
    }
    if mv.pause is not None:  # written only when there is one: other files are unchanged
        data["pause"] = {
            "waiting": [
                {
                    "board": list(key),
                    "power": d.unit.power.upper(),
                    "unit": unit_text(d.unit),
                    "from": str(d.attacker_from).upper(),
                    "by_convoy": d.by_convoy,
                }
                for key, d in mv.pause.waiting
            ],
            "boards": [list(key) for key in mv.pause.boards],
        }
    return data


class _MultiverseReader(_SaveReader):
    standing: dict[tuple[int, int], Position]  # each board's position, once the boards are read
    names: Names  # how the boards name their places ('a-Paris@0')

    def objects(
        self, data: dict[str, Any], key: str, where: str, fields: tuple[str, ...], what: str
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        """The objects of a list that must hold at least one, each with its place and only
        the fields given."""
        at = f"{where}.{key}" if where else key
        items = self.field(data, key, list, where)
        if not items:
            raise self.fail(at, f"expected at least one {what}")
        for i, item in enumerate(items):
            here = f"{at}[{i}]"
            if not isinstance(item, dict):
                raise self.fail(here, "expected an object")
            self.only(item, fields, here)
            yield here, item

    def count(self, data: dict[str, Any], key: str, where: str) -> int:
        value = self.field(data, key, int, where)
        if value < 0:
            raise self.fail(f"{where}.{key}", f"expected 0 or more, found {value}")
        return value

    def texts(self, items: Sequence[object], where: str, phase: str | None) -> tuple[Given, ...]:
        found = []
        for i, text in enumerate(items):
            if not isinstance(text, str):
                raise self.fail(f"{where}[{i}]", "expected an order as a string")
            try:
                found.append(parse_given(text, self.board, phase))
            except DipsatError as err:
                raise self.fail(f"{where}[{i}]", f"cannot read {text!r}: {err}") from err
        return tuple(found)

    def reason(self, data: Any, where: str) -> Reason | None:
        if data is None:
            return None
        if not isinstance(data, dict):
            raise self.fail(where, "expected an object or null")
        kind = self.field(data, "kind", str, where)
        if kind not in _REASON_FIELDS:
            known = ", ".join(_REASON_FIELDS)
            raise self.fail(f"{where}.kind", f"expected one of {known}, found {kind!r}")
        self.only(data, ("kind", *_REASON_FIELDS[kind]), where)

        def text(name: str) -> str:
            return self.field(data, name, str, where)

        def texts(name: str) -> tuple[str, ...]:
            value = self.field(data, name, list, where)
            if not all(isinstance(v, str) for v in value):
                raise self.fail(f"{where}.{name}", "expected a list of strings")
            return tuple(value)

        match kind:
            case "illegal" | "invalid":
                why = text("why")
                try:
                    return (Illegal if kind == "illegal" else Invalid).read(why)
                except DipsatError as err:  # no sentence of dipsat's reads so
                    message = f"expected a reason dipsat gives: {err}"
                    raise self.fail(f"{where}.why", message) from err
            case "bounced":
                return Bounced(self.units(texts("by"), f"{where}.by"), self.names)
            case "no path":
                return NoPath()
            case "cut":
                return CutBy(self.units(texts("by"), f"{where}.by"), self.names)
            case "dislodged":
                return DislodgedBy(self.standing_unit(text("by"), f"{where}.by"), self.names)
        rule = text("rule")
        if rule not in set(BackupRule):
            known = ", ".join(BackupRule)
            raise self.fail(f"{where}.rule", f"expected one of {known}, found {rule!r}")
        return ParadoxRule(BackupRule(rule), texts("core"))

    def units(self, texts: Sequence[str], where: str) -> tuple[Unit, ...]:
        """The units a reason lists ('A a-Paris@0'), each found on its board."""
        return tuple(self.standing_unit(text, f"{where}[{i}]") for i, text in enumerate(texts))

    def standing_unit(self, text: str, where: str) -> Unit:
        """The unit a reason names, found on its board of the multiverse (`self.standing`):
        a reason names a unit that stood there."""
        from ...multiverse.state import on_board

        try:
            ref = parse_unit(text, self.board)
        except DipsatError as err:
            raise self.fail(where, f"cannot read {text!r}: {err}") from err
        timeline, turn = ref.place.timeline, ref.place.turn
        position = None
        if timeline is not None and turn is not None:
            position = self.standing.get((timeline, turn))
        unit = position.unit_in(ref.place.province) if position is not None else None
        if unit is None or unit.type is not ref.type or timeline is None or turn is None:
            message = f"expected a unit that stands on a board of this game, found {text!r}"
            raise self.fail(where, message)
        return Unit(on_board(unit.location, (timeline, turn)), unit.type, unit.power)

    def record(self, data: Any, where: str, key: tuple[int, int]) -> Record | None:
        from ...multiverse.state import Record, spot

        if data is None:
            return None
        if not isinstance(data, dict):
            raise self.fail(where, "expected an object or null")
        self.only(data, ("orders", "decisions", "outcomes"), where)
        orders = self.texts(self.field(data, "orders", list, where), f"{where}.orders", "movement")
        decisions: dict[Decision, bool] = {}
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
            if kind not in set(DecisionKind):
                raise self.fail(f"{here}[0]", f"expected one of {', '.join(sorted(DecisionKind))}")
            match = _CODE.match(code)
            if not match or match.group(1) not in self.board.provinces:
                raise self.fail(f"{here}[1]", f"expected a code such as 'mun@0:1', found {code!r}")
            if (int(match.group(2)), int(match.group(3))) != key:
                raise self.fail(f"{here}[1]", f"{code} is not on this board")
            decision = (DecisionKind(kind), spot(match.group(1), *key))
            if decision in decisions:
                raise self.fail(here, f"a second {kind} decision for {code}")
            decisions[decision] = value
        outcomes = []
        for i, item in enumerate(self.field(data, "outcomes", list, where)):
            here = f"{where}.outcomes[{i}]"
            if not isinstance(item, dict):
                raise self.fail(here, "expected an object")
            self.only(item, ("order", "result", "dislodged", "destroyed", "reason"), here)
            (given,) = self.texts([self.field(item, "order", str, here)], f"{here}.order", None)
            result = self.field(item, "result", str, here)
            if result not in set(Result):
                known = ", ".join(Result)
                raise self.fail(f"{here}.result", f"expected one of {known}, found {result!r}")
            flags = []
            for name in ("dislodged", "destroyed"):
                if not isinstance(item.get(name), bool):
                    raise self.fail(f"{here}.{name}", "expected true or false")
                flags.append(item[name])
            if "reason" not in item:
                raise self.fail(f"{here}.reason", "missing")
            reason = self.reason(item["reason"], f"{here}.reason")
            outcomes.append(Outcome(given, Result(result), flags[0], flags[1], reason))
        return Record(orders, decisions, tuple(outcomes))

    def multiverse(self, data: Any) -> SavedMultiverse:
        from ...multiverse.state import MBoard, Multiverse, SpotNames, board_turn, winner
        from ...values.orders import timeline_name

        self.envelope(data)
        if data.get("variant") != VARIANT_MULTIVERSE:
            raise self.fail(
                "variant", f"expected {VARIANT_MULTIVERSE!r}, found {data.get('variant')!r}"
            )
        known = ("format", "version", "variant", "board", "rules", "boards", "origins")
        self.only(data, (*known, "orders", "pause"), "")
        self.read_board(data)  # every board of the multiverse is on this map
        rules = self.rules(data)
        boards: dict[tuple[int, int], MBoard] = {}
        seen: dict[tuple[int, int], int] = {}
        read: list[tuple[tuple[int, int], str, dict[str, Any], Position, Position | None]] = []
        fields = ("timeline", "turn", "position", "created", "record")
        for i, (here, item) in enumerate(self.objects(data, "boards", "", fields, "board")):
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
                if pos is not None and board_turn(pos.phase, self.board) != key[1]:
                    raise self.fail(
                        f"{here}.{field_name}.phase",
                        f"{pos.phase.code} is no phase of board {name} (turn {key[1]})",
                    )
            if "record" not in item:
                raise self.fail(f"{here}.record", "missing")
            read.append((key, here, item, position, created))
        # the records after the boards: a reason names units of other boards, later ones too
        self.standing = {key: position for key, _, _, position, _ in read}
        self.names = SpotNames(self.board)
        for key, here, item, position, created in read:
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
        pause = self.pause(data.get("pause"), boards)
        mv = Multiverse(
            tuple(boards[k] for k in sorted(boards)), tuple(sorted(origins.items())), pause
        )
        # a saved multiverse comes from its steps: whoever has won now had won at the last
        return SavedMultiverse(rules, replace(mv, won=winner(mv, rules)), orders)

    def pause(self, data: Any, boards: dict[tuple[int, int], MBoard]) -> Pause | None:
        """A retreat pause (rule set O): each waiting unit on a board that holds it, and
        the boards to make again once they have retreated."""
        from ...multiverse.state import Pause
        from ...values.orders import timeline_name

        if data is None:
            return None
        if not isinstance(data, dict):
            raise self.fail("pause", "expected an object or null")
        self.only(data, ("waiting", "boards"), "pause")

        def board_key(item: Any, where: str) -> tuple[int, int]:
            if not (
                isinstance(item, list)
                and len(item) == 2
                and all(isinstance(n, int) and not isinstance(n, bool) for n in item)
            ):
                raise self.fail(where, "expected [timeline, turn]")
            if (item[0], item[1]) not in boards:
                raise self.fail(where, f"no board {item}")
            return (item[0], item[1])

        waiting = []
        fields = ("board", "power", "unit", "from", "by_convoy")
        for here, item in self.objects(data, "waiting", "pause", fields, "unit waiting to retreat"):
            key = board_key(item.get("board"), f"{here}.board")
            power = self.field(item, "power", str, here)
            self.power(power, f"{here}.power")
            text = self.field(item, "unit", str, here)
            self.unit(text, f"{here}.unit")
            source = self.field(item, "from", str, here)
            if source:
                self.province(source, f"{here}.from")
            if not isinstance(item.get("by_convoy"), bool):
                raise self.fail(f"{here}.by_convoy", "expected true or false")
            unit = read_unit(text, self.board.lookup_power(power))
            if unit not in boards[key].position.units:
                name = f"{timeline_name(key[0])}@{key[1]}"
                raise self.fail(f"{here}.unit", f"board {name} has no {power} {text}")
            waiting.append((key, DislodgedUnit(unit, source.lower(), item["by_convoy"])))
        regenerated = [
            board_key(b, f"pause.boards[{i}]")
            for i, b in enumerate(self.field(data, "boards", list, "pause"))
        ]
        return Pause(tuple(waiting), tuple(regenerated))


def multiverse_from_json(text: str, path: str = "-") -> SavedMultiverse:
    """Read a saved multiverse game; any fault raises SaveFileError naming `path` and the place."""
    return _MultiverseReader(path).multiverse(_parse(text, path))


def load_multiverse(path: str | os.PathLike[str]) -> SavedMultiverse:
    """Read a saved multiverse game from a file."""
    return multiverse_from_json(_read_text(path), str(path))
