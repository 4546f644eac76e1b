"""The functions of the public API (`import solver`): read orders, adjudicate a phase, lay
out the resolutions of its paradoxes, read case files and check them.

Each takes values and returns values; a rule book is given as a `RuleBook` or by the name
of an edition or preset (`solver.RULE_BOOKS`); `solver.rule_book` reads one from a file.
Each checks its arguments' types first: a wrong one is a `TypeError` naming the argument
(never an error from deep inside, nor an integer read as a file descriptor).  See
docs/api.md for a tour.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from topology import Board
from topology.files import shown

from .cycle.game import advance
from .errors import IllegalOrderError, expect_type
from .formats.cases import Case
from .formats.cases import read_cases as _read_cases
from .formats.rulebooks import rule_book
from .judge.checked import Status
from .judge.movement import judge
from .values.notation import read_order_lines
from .values.orders import Given
from .values.outcomes import Illegal, Result
from .values.position import PhaseKind, Position
from .values.resolution import PhaseResolution
from .values.rules import RuleBook

if TYPE_CHECKING:  # the tools are loaded by the functions that use them
    from .exploring.conformance import CaseResult
    from .exploring.explore import CoreReport
    from .rulesearch.fit import Fit
    from .rulesearch.influence import CaseInfluence
    from .rulesearch.solve import Solution

Orders = str | Iterable[str | Given]
"""Orders as text (one per line, as `parse_orders` reads it) or as a sequence of orders,
each a `Given` or one line of text."""


def parse_orders(
    text: str, position: Position, *, strict: bool = False, rules: str | RuleBook = "2025"
) -> list[Given]:
    """The orders of a text, one per line, in any notation dipsat reads, their places read
    against the position's board (and a move read as a retreat in a retreat phase).

    A line 'England: F London - North Sea' gives its power; a line holding only
    'England:' gives the power of the lines below it.  With `strict`, an order that is
    illegal in the position under the rule book (no such unit, another power's unit, an
    impossible move, a coast its policies refuse) is an error instead of an order the
    adjudicator ignores.

    Raises:
        TypeError: an argument of the wrong type, naming it.
        OrderSyntaxError: a line that cannot be read (with its line and column).
        IllegalOrderError: with `strict`, an illegal order (with its line and reason).
        DipsatError: no rule book of that name.
    """
    expect_type("text", text, str, "the orders as text")
    expect_type("position", position, Position, "a Position")
    expect_type("strict", strict, bool, "True or False")
    book = rule_book(rules, files=False)
    lines = read_order_lines(text, position.map, position.phase.kind.value)
    found = [given for _, _, given in lines]
    if strict:
        judged = _illegal(found, position, book)
        for (number, line, _), reason in zip(lines, judged, strict=True):
            if reason is not None:
                raise IllegalOrderError(reason.why, line, number, reason)
    return found


def _illegal(orders: list[Given], position: Position, rules: RuleBook) -> list[Illegal | None]:
    """Why each order is illegal in the position under the rules (None for the legal ones)."""
    if position.phase.kind is PhaseKind.MOVEMENT:
        return [
            c.reason if c.status is Status.ILLEGAL and isinstance(c.reason, Illegal) else None
            for c in judge(position, orders, rules).checked
        ]
    return [
        o.reason if o.result is Result.ILLEGAL and isinstance(o.reason, Illegal) else None
        for o in advance(position, orders, rules).outcomes
    ]


def _orders(orders: Orders, position: Position) -> list[Given]:
    """The orders as values (see `Orders`), read against the position."""
    expect_type("position", position, Position, "a Position")
    if isinstance(orders, str):
        return parse_orders(orders, position)
    expect_type("orders", orders, Iterable, "the orders as text or a list of orders")
    found: list[Given] = []
    for order in orders:
        if isinstance(order, str):
            found += parse_orders(order, position)
        else:
            expect_type("orders", order, Given, "an order (a Given) or its text")
            found.append(order)
    return found


def adjudicate(
    position: Position, orders: Orders, rules: str | RuleBook = "2025"
) -> PhaseResolution:
    """Adjudicate the phase the position is in (movement, retreats or adjustments) under
    a rule book.

    Returns a `Resolution` for a movement phase (every decision, the paradox cores, the
    dislodged units with their retreats), a `RetreatResolution` or an
    `AdjustmentResolution`; each has an outcome per order and `.after`, the next position.
    Units without orders hold; dislodged units without orders disband; owed disbands
    not ordered go to civil disorder.
    """
    return advance(position, _orders(orders, position), rule_book(rules, files=False))


def adjudicate_many(
    pairs: Iterable[tuple[Position, Orders]], rules: str | RuleBook = "2025"
) -> list[PhaseResolution]:
    """Adjudicate many phases, each a (position, orders) pair, under one rule book: their
    resolutions in order, each the one `adjudicate` gives.

    The rule book is read once; for corpora spread over processes, `dipsat replay
    --workers` and `dipsat crosscheck --workers` split files and turns between them."""
    book = rule_book(rules, files=False)
    expect_type("pairs", pairs, Iterable, "an iterable of (position, orders) pairs")
    done: list[PhaseResolution] = []
    # the resolutions kept make a large live heap: the cyclic garbage collector's passes
    # over it would cost a sixth of the batch (what it would find, it finds once enabled)
    paused = gc.isenabled()
    gc.disable()
    try:
        for number, pair in enumerate(pairs):
            if not (isinstance(pair, tuple) and len(pair) == 2):
                raise TypeError(
                    f"pairs[{number}]: expected a (position, orders) pair, found "
                    f"{type(pair).__name__} {shown(pair)}"
                )
            position, orders = pair
            done.append(advance(position, _orders(orders, position), book))
    finally:
        if paused:
            gc.enable()
    return done


def explore(position: Position, orders: Orders, rules: str | RuleBook = "2025") -> list[CoreReport]:
    """Every paradox core of a movement phase with all its consistent resolutions, and
    which one each edition picks, and why."""
    from .exploring.explore import explore as _explore

    return _explore(position, _orders(orders, position), rule_book(rules, files=False))


def read_cases(path: str | Path) -> list[Case]:
    """The cases of a case file (see docs/case-format.md).

    Raises:
        TypeError: `path` is not a path (an integer would be read as a file descriptor).
        CaseFormatError: the file does not follow the format (with file, line and column).
    """
    expect_type("path", path, (str, os.PathLike), "a case file's path")
    return _read_cases(path)


def check(case: Case, rules: str | RuleBook | None = None) -> CaseResult:
    """Adjudicate a case and compare every expectation it states (under the edition the
    case states, or `rules`); the independent checker verifies each resolution too."""
    expect_type("case", case, Case, "a Case (from read_cases)")
    from .exploring.conformance import run_case

    return run_case(case, None if rules is None else rule_book(rules, files=False))


def influence(
    cases: Case | Iterable[Case], rules: str | RuleBook = "2025", hold: Iterable[str] = ()
) -> list[CaseInfluence]:
    """For each case, the policies whose value changes some outcome: what each one's values
    give with the others as in `rules`, and, where policies interact, what their values
    give together (docs/rules.md, "Searching the rule books"); the policies in `hold` keep
    the value `rules` gives them.

    Raises:
        TypeError: an argument of the wrong type, naming it.
        DipsatError: an unknown policy to hold, or a case that reads too many policies.
    """
    book = rule_book(rules, files=False)
    chosen = _each("cases", cases, Case, "a Case or Cases (from read_cases)")
    held = _each("hold", hold, str, "a policy's name or names")
    from .rulesearch.influence import influence as _influence

    return [_influence(case, book, held) for case in chosen]


def solve_rules(
    case: Case,
    expect: str | Iterable[str],
    rules: str | RuleBook = "2025",
    hold: Iterable[str] = (),
) -> Solution:
    """Every rule book under which a case's expected outcomes all hold ('A Brest - London
    => succeeds', 'paradox => unresolved'), described compactly, and the named rule books
    among them (the policies in `hold` keep the value `rules` gives them).

    Raises:
        TypeError: an argument of the wrong type, naming it.
        DipsatError: an expectation that is malformed or names no outcome of the case, an
            unknown policy to hold, or a case that reads too many policies.
    """
    expect_type("case", case, Case, "a Case (from read_cases)")
    wanted = _each("expect", expect, str, "an outcome 'ORDER => OUTCOME' or several")
    held = _each("hold", hold, str, "a policy's name or names")
    from .rulesearch.solve import solve as _solve

    return _solve(case, wanted, rule_book(rules, files=False), held)


def fit_rules(
    games: str | Path | Iterable[str | Path],
    rules: str | RuleBook = "2025",
    board: Board | None = None,
) -> Fit:
    """The rule books under which recorded games (MILA JSON files) replay with the fewest
    mismatches: the policies they pin down, those they leave open, and the transitions no
    rule book explains.

    Raises:
        TypeError: an argument of the wrong type, naming it (a path that is an integer
            would be read as a file descriptor).
        DipsatError: the games depend on too many policies to score every combination.
    """
    paths = _each("games", games, (str, os.PathLike), "a game file's path or paths")
    expect_type("board", board, (Board, type(None)), "a Board, or None for each game's own")
    from .rulesearch.fit import fit as _fit

    return _fit(paths, rule_book(rules, files=False), board)


def _each(name: str, value: object, kind: type | tuple[type, ...], what: str) -> list[Any]:
    """The items of an argument that takes one `kind` or an iterable of them (text is
    one item, not its letters).

    Raises:
        TypeError: neither, naming the argument.
    """
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, (*kinds, str, bytes)) or not isinstance(value, Iterable):
        expect_type(name, value, kind, what)
        return [value]
    found = list(cast(Iterable[object], value))
    for item in found:
        expect_type(name, item, kind, what)
    return found


__all__ = [
    "Orders",
    "adjudicate",
    "adjudicate_many",
    "check",
    "explore",
    "fit_rules",
    "influence",
    "parse_orders",
    "read_cases",
    "solve_rules",
]
