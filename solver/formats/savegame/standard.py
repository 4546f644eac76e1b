"""Saved standard games (`SavedGame`): a JSON document, read with every field checked.

    {"format": "dipsat-game", "version": 1, "rules": "2025", "position": {...},
     "orders": ["England: F London - North Sea", ...], "history": [...]}

Positions are written as the cross-check protocol writes them (MILA units such as
'F STP/SC', upper-case powers), plus the provinces left empty by a standoff.  Orders are
their canonical text, `str(Given)`, which `parse_given` reads back.  The format and the
guarantees are described in docs/reliability.md; the JSON Schema is
docs/savegame.schema.json.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from topology import Board

from ...errors import DipsatError
from ...values.calendar import adjustment, game_status, owned_centres
from ...values.notation import parse_given
from ...values.orders import (
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
from ...values.outcomes import Result
from ...values.position import Phase, PhaseKind, Position
from ...values.rules import RuleBook
from ..rulebooks import rule_book
from .envelope import (
    FORMAT,
    VERSION,
    _orders_json,
    _parse,
    _position_json,
    _read_text,
    _SaveReader,
    board_json,
    position_lines,
    rules_json,
)


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

    rules: RuleBook
    position: Position
    orders: tuple[Given, ...] = ()
    history: tuple[PastPhase, ...] = ()

    def submit(self, texts: Sequence[str]) -> tuple[SavedGame, list[tuple[str, str]]]:
        """The game with these orders added (`submit`), and the problems of those left out."""
        return submit(self, texts)

    def adjudicated(self) -> tuple[SavedGame, list[str]]:
        """The game after its current phase, and what the phase came to, line by line."""
        game = adjudicate_game(self)
        past = game.history[-1]
        lines = [f"{past.position.phase}:"]
        for r in past.outcomes:
            reason = f" ({r.reason})" if r.reason else ""
            lines.append(f"  {r.order}: {r.result}{reason}")
        return game, [*lines, f"now {game.position.phase}", *_won(game.position)]

    def lines(self) -> list[str]:
        """The board (if not the standard one), the phase, the units and centres, who has
        won, and the orders submitted so far."""
        position = self.position
        played = len(self.history)
        board = position.map
        on = "" if board.name == "standard" else f"{board.name}: "
        head = f"{on}{position.phase} (rules {self.rules.name}, phases played: {played})"
        orders = (f"order: {g}" for g in self.orders)
        owed = _adjustments(position)
        return [head, *position_lines(position), *owed, *_won(position), *orders]

    def to_json(self) -> dict[str, Any]:
        return _game_json(self)


def _adjustments(position: Position) -> list[str]:
    """In a winter, what each power may build or must disband: 'France builds 2',
    'Italy disbands 1' (nothing outside a winter, or for a power that adjusts nothing)."""
    if position.phase.kind is not PhaseKind.ADJUSTMENT:
        return []
    found = []
    for power in position.map.powers:
        count = adjustment(position, power)
        if count:
            verb = "builds" if count > 0 else "disbands"
            found.append(f"{power} {verb} {abs(count)}")
    return found


def _won(position: Position) -> list[str]:
    """'France has won: 18 centres of 18 needed', when a power has."""
    solo = game_status(position).solo
    if solo is None:
        return []
    owned = len(owned_centres(position, solo))
    return [f"{solo} has won: {owned} centres of {position.map.victory} needed"]


STANDARD_START = Position.opening()  # the opening of the standard map


def new_game(rules: str | RuleBook = "2025", board: Board | None = None) -> SavedGame:
    """A game at the opening position of a board (standard by default: Spring 1901), under
    a rule book: a value, an edition's name or a TOML file (kept in the save by value, see
    `rules_json`)."""
    return SavedGame(rule_book(rules), Position.opening(board))


def adjudicate_game(game: SavedGame) -> SavedGame:
    """Adjudicate the current phase with the orders submitted and move to the next one."""
    from ...cycle.game import advance

    step = advance(game.position, game.orders, game.rules)
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
    position = game.position
    board = position.map
    kind = position.phase.kind
    dislodged = {d.unit.province: d.unit for d in position.dislodged}
    ordered = {g.order.unit.place.province for g in game.orders if not isinstance(g.order, Waive)}
    added: list[Given] = []
    problems: list[tuple[str, str]] = []
    for text in texts:
        try:
            given = parse_given(text, board, kind.value)
        except DipsatError as err:
            problems.append((text, str(err)))  # "column 1: expected a power before ':' ..."
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
                here = order.unit.place.text(board)
                problems.append((text, f"no {where}{given.power} unit in {here}"))
                continue
        if province in ordered:
            here = order.unit.place.text(board)
            problems.append((text, f"{here} already has an order this phase"))
            continue
        ordered.add(province)
        added.append(given)
    return replace(game, orders=(*game.orders, *added)), problems


def _game_json(game: SavedGame) -> dict[str, Any]:
    data = {
        "format": FORMAT,
        "version": VERSION,
        **board_json(game.position.map),
        "rules": rules_json(game.rules),
        "position": _position_json(game.position),
        "orders": _orders_json(game.orders, game.position.map),
        "history": [
            {
                "position": _position_json(past.position),
                "orders": _orders_json(past.orders, past.position.map),
                "outcomes": [
                    {"order": r.order, "result": r.result, "reason": r.reason}
                    for r in past.outcomes
                ],
            }
            for past in game.history
        ],
    }
    return data


_FATES = ("dislodged", "destroyed")
_LABELS = frozenset(
    [*Result, *_FATES, *(f"{r}, {f}" for r in Result if r is not Result.STANDS for f in _FATES)]
)
"""The outcome labels `Outcome.label` writes: a result, with the unit's fate if it has one
(a unit that stands shows only its fate)."""


class _GameReader(_SaveReader):
    def orders(self, data: dict[str, Any], where: str, phase: Phase) -> tuple[Given, ...]:
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

    def outcomes(self, data: dict[str, Any], where: str) -> tuple[Recorded, ...]:
        found = []
        for i, item in enumerate(self.field(data, "outcomes", list, where)):
            here = f"{where}.outcomes[{i}]"
            if not isinstance(item, dict):
                raise self.fail(here, "expected an object")
            self.only(item, ("order", "result", "reason"), here)
            order = self.field(item, "order", str, here)
            result = self.field(item, "result", str, here)
            if result not in _LABELS:
                raise self.fail(
                    f"{here}.result",
                    f"expected an outcome as dipsat writes it ({', '.join(Result)}, or "
                    f"'RESULT, dislodged', 'dislodged', 'destroyed'), found {result!r}",
                )
            reason = item.get("reason")
            if reason is not None and not isinstance(reason, str):
                raise self.fail(f"{here}.reason", "expected a string or null")
            found.append(Recorded(order, result, reason))
        return tuple(found)

    def game(self, data: Any) -> SavedGame:
        self.envelope(data)
        if "variant" in data:
            raise self.fail(
                "variant",
                f"a {data['variant']!r} game, not a standard one; "
                "read it with load_any or load_multiverse",
            )
        self.only(
            data, ("format", "version", "board", "rules", "position", "orders", "history"), ""
        )
        self.read_board(data)
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


def from_json(text: str, path: str = "-") -> SavedGame:
    """Read a saved game; any fault raises SaveFileError naming `path` and the place."""
    return _GameReader(path).game(_parse(text, path))


def load(path: str | os.PathLike[str]) -> SavedGame:
    """Read a saved game from a file."""
    return from_json(_read_text(path), str(path))
