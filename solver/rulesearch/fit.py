"""Which rule book a site's games were played under: the rule books under which recorded
games replay with the fewest mismatches.

Each transition of a game (one phase to the next) is searched on its own: the runs branch
only on the policies its adjudication reads, and come to "as recorded" or not.  Most
transitions read no policy at all; those that do are grouped by what their search found,
and every combination of the policies some transition depends on is scored by the
mismatches it leaves.  The best combinations give the policies the games pin down (one
value in all of them); the policies no transition depends on are left open; and the
transitions that no rule book replays as recorded are the site's bugs, or the record's."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from topology import Board

from ..crosschecking.replay import ReplayReport, replay_game, transition_matches
from ..errors import DipsatError
from ..formats.mila import GameFileError, RecordedGame, read_game
from ..values.position import PhaseKind
from ..values.rules import POLICIES, RuleBook, conflicting
from .describe import Cube, described, merged
from .tracing import Leaf, Tree, Value, branches, named_books, options

SEARCH_LIMIT = 1_000_000
"""The most combinations of policies a fit scores (the policies the games depend on)."""

Signature = tuple[Leaf[bool], ...]


@dataclass(frozen=True, slots=True)
class Transition:
    """A transition of a recorded game: its file, and the phases it goes from and to."""

    file: str
    index: int  # the phase's place in the record
    phase: str
    next: str
    why: str = ""  # what differs from the record under a best rule book, as replay says

    def text(self) -> str:
        why = f" ({self.why})" if self.why else ""
        return f"{self.file}: {self.phase} → {self.next}{why}"


@dataclass(frozen=True, slots=True)
class Fit:
    """What a set of games says about the rule book they were played under."""

    base: str
    games: int
    transitions: int
    runs: int  # adjudications, each turn searched once however many games share it
    mismatches: int  # under the best rule books
    best: tuple[Cube, ...]  # the best combinations of the policies the games depend on
    pinned: tuple[tuple[str, Value], ...]  # one value in every best combination
    undecided: tuple[str, ...]  # policies some transition depends on, several values best
    open: tuple[str, ...]  # policies no transition depends on
    unexplained: tuple[Transition, ...]  # as recorded under no rule book
    against_best: tuple[Transition, ...]  # as recorded under some rule book, under no best
    books: tuple[tuple[str, int], ...]  # each named rule book (and the base if it is none)
    # and its mismatches
    errors: tuple[str, ...]  # game files that could not be read

    @property
    def description(self) -> str:
        return described(self.best)


def fit(paths: Iterable[str | Path], base: RuleBook, board: Board | None = None) -> Fit:
    """The rule books under which the games in `paths` replay with the fewest mismatches.

    Raises:
        DipsatError: the games depend on too many policies to score every combination.
    """
    groups: dict[Signature, list[Transition]] = {}
    searched: dict[Hashable, Signature] = {}  # each turn searched once (a shared opening)
    read_games: dict[str, RecordedGame] = {}
    games = runs = 0
    errors = []
    for path in paths:
        try:
            game = read_game(path, board)
        except GameFileError as error:
            errors.append(str(error))
            continue
        games += 1
        read_games[game.path] = game
        for index in range(len(game.phases) - 1):
            here, there = game.phases[index], game.phases[index + 1]
            key = _turn(game, index)
            leaves = searched.get(key)
            if leaves is None:
                run = functools.partial(transition_matches, game, index)
                leaves = searched[key] = tuple(branches(run, base))
                runs += len(leaves)
            groups.setdefault(leaves, []).append(
                Transition(game.path, index, here.name, there.name)
            )
    found = _scored(groups, base, games, runs, tuple(errors))
    return _explained(found, a_best_book(found, base), read_games)


def a_best_book(found: Fit, base: RuleBook) -> RuleBook:
    """One rule book among the best: the base, with each policy the first best cube
    constrains at the first value it allows."""
    first = found.best[0].allowed if found.best else ()
    values = {p: next(v for v in options(p) if v in allowed) for p, allowed in first}
    return replace(base, name="best fit", **values)  # type: ignore[arg-type]


def _explained(found: Fit, book: RuleBook, games: dict[str, RecordedGame]) -> Fit:
    """The transitions a best rule book leaves unexplained, each with what differs (the
    cause `dipsat replay` gives, or why the phase could not be rebuilt)."""
    files = sorted({t.file for t in (*found.unexplained, *found.against_best)})
    why: dict[tuple[str, str], str] = {}
    for path in files:
        report = ReplayReport()
        replay_game(games[path], book, report)
        why.update({(m.file, m.phase): m.cause or m.note or "" for m in report.mismatches})
        why.update({(e.file, e.phase or ""): e.message for e in report.errors})

    def told(transitions: tuple[Transition, ...]) -> tuple[Transition, ...]:
        return tuple(replace(t, why=why.get((t.file, t.phase), "")) for t in transitions)

    return replace(
        found, unexplained=told(found.unexplained), against_best=told(found.against_best)
    )


def _turn(game: RecordedGame, index: int) -> Hashable:
    """What a transition's replay depends on: the board, the recorded phase with its orders,
    the next recorded phase, and before a retreat phase the movement phase it follows."""
    here = game.phases[index]
    retreat = here.phase is not None and here.phase.kind is PhaseKind.RETREAT
    before = game.phases[index - 1] if retreat and index > 0 else None
    return (here.board.name, here, game.phases[index + 1], before)


def _scored(
    groups: dict[Signature, list[Transition]],
    base: RuleBook,
    games: int,
    runs: int,
    errors: tuple[str, ...],
) -> Fit:
    trees = [(Tree(leaves), found) for leaves, found in groups.items()]
    varies = [_varies(tree) for tree, _ in trees]
    read = {p for (tree, _), v in zip(trees, varies, strict=True) if v for p in tree.policies}
    deciding = [p for p in POLICIES if p in read]
    size = 1
    for p in deciding:
        size *= len(options(p))
    if size > SEARCH_LIMIT:
        raise DipsatError(
            f"the games depend on {len(deciding)} policies ({', '.join(deciding)}): "
            f"{size} combinations, more than {SEARCH_LIMIT} to score"
        )
    at_base = {p: getattr(base, p) for p in POLICIES}
    always = sum(
        len(found)
        for (tree, found), v in zip(trees, varies, strict=True)
        if not v and not tree.leaves[0].result
    )
    varying = [
        _projected(tree, len(found), deciding, at_base)
        for (tree, found), v in zip(trees, varies, strict=True)
        if v
    ]
    scores: dict[tuple[Value, ...], int] = {}
    for values in itertools.product(*(options(p) for p in deciding)):
        if conflicting(dict(zip(deciding, values, strict=True))):
            continue  # values no rule book holds together
        scores[values] = always + sum(
            n for at, n, matched in varying if not matched[tuple(values[i] for i in at)]
        )
    least = min(scores.values())
    best = [v for v, score in scores.items() if score == least]
    cubes = tuple(merged(Cube.of(dict(zip(deciding, v, strict=True))) for v in best))
    pinned = tuple(
        (p, best[0][i]) for i, p in enumerate(deciding) if len({v[i] for v in best}) == 1
    )
    undecided = tuple(p for i, p in enumerate(deciding) if len({v[i] for v in best}) > 1)
    tables = [{**at_base, **dict(zip(deciding, v, strict=True))} for v in best]
    unexplained, against = [], []
    for tree, found in trees:
        if not any(leaf.result for leaf in tree.leaves):
            unexplained += found
        elif not any(tree.leaf(table).result for table in tables):
            against += found
    books = tuple(
        (name, sum(len(found) for tree, found in trees if not tree.leaf(book).result))
        for name, book in named_books(base).items()
    )
    return Fit(
        base.name,
        games,
        sum(len(found) for found in groups.values()),
        runs,
        least,
        cubes,
        pinned,
        undecided,
        tuple(p for p in POLICIES if p not in deciding),
        tuple(sorted(unexplained, key=_order)),
        tuple(sorted(against, key=_order)),
        books,
        errors,
    )


def _projected(
    tree: Tree[bool], count: int, deciding: list[str], base: dict[str, Value]
) -> tuple[tuple[int, ...], int, dict[tuple[Value, ...], bool]]:
    """A group of transitions as a table: the places in `deciding` of the policies its
    search read, how many transitions it holds, and whether they come out as recorded
    under each combination of those policies' values."""
    read = [p for p in deciding if p in tree.policies]
    matched = {}
    for values in itertools.product(*(options(p) for p in read)):
        chosen = dict(zip(read, values, strict=True))
        if not conflicting(chosen):
            matched[values] = tree.leaf({**base, **chosen}).result
    return tuple(deciding.index(p) for p in read), count, matched


def _varies(tree: Tree[bool]) -> bool:
    """Whether the rule book changes whether a transition comes out as recorded."""
    return len({leaf.result for leaf in tree.leaves}) > 1


def _order(transition: Transition) -> tuple[str, int]:
    return (transition.file, transition.index)
