"""A cross-check campaign: many turns, both engines, disagreements shrunk and written."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from topology import Board, variant

from ..errors import DipsatError, LimitError
from ..judge.solver_settings import time_limit as solver_time_limit
from ..values.orders import Given
from ..values.position import Position
from ..values.rules import DATC_2025, RuleBook
from ..workers import spread
from . import STARTUP_SECONDS
from .disagreements import differences, name_of, on_the_board
from .engines import DipsatEngine, ExternalEngine, engine
from .generate import random_turns
from .shrink import case_text, shrink


@dataclass
class Summary:
    turns: int = 0
    agreed: int = 0
    skipped: int = 0
    classes: Counter[str] = field(default_factory=Counter)  # class -> disagreements
    boards: Counter[str] = field(default_factory=Counter)  # class -> those on the board
    cases: dict[str, str] = field(default_factory=dict)  # class (kind) -> minimal case text
    errors: list[str] = field(default_factory=list)
    interrupted: bool = False  # stopped early (Ctrl-C): the counts are of the turns done

    def merge(self, other: Summary) -> None:
        self.interrupted |= other.interrupted
        self.turns += other.turns
        self.agreed += other.agreed
        self.skipped += other.skipped
        self.classes.update(other.classes)
        self.boards.update(other.boards)
        for name, text in other.cases.items():
            self.cases.setdefault(name, text)
        self.errors += other.errors[: max(0, 20 - len(self.errors))]

    @property
    def compared(self) -> int:
        """Turns both engines adjudicated: those that agree and those that do not."""
        return self.agreed + sum(self.classes.values())

    @property
    def board_disagreements(self) -> int:
        """Disagreements on the board: units, dislodgements or retreat options."""
        return sum(self.boards.values())

    @property
    def label_disagreements(self) -> int:
        """Disagreements on what an order's result is called only, the board the same."""
        return sum(self.classes.values()) - self.board_disagreements

    def as_json(self) -> dict[str, Any]:
        return {
            "turns": self.turns,
            "agreements": self.agreed,
            "disagreements": sum(self.classes.values()),
            "board_disagreements": self.board_disagreements,
            "label_disagreements": self.label_disagreements,
            "skipped": self.skipped,
            "by_class": {
                name: {"board": self.boards[name], "label": count - self.boards[name]}
                for name, count in sorted(self.classes.items())
            },
            "cases": sorted(self.cases),
            "errors": self.errors,
            "interrupted": self.interrupted,
        }


def check_turns(
    against: str,
    turns: Iterable[tuple[str, Position, list[Given]]],
    timeout: float = 10.0,
    shrink_cases: bool = True,
    rules: RuleBook = DATC_2025,
    time_limit: float | None = None,
    startup: float = STARTUP_SECONDS,
) -> Summary:
    """Run turns through dipsat (under `rules`, each call of its solver within
    `time_limit` seconds if given: a turn that runs out is an error, not compared) and
    another engine (`timeout` seconds for each reply, `startup` for the first after the
    program starts); shrink the first case of each class, and of each class the first that
    reaches the board.  Ctrl-C
    (KeyboardInterrupt) ends the run: the summary counts the turns finished before it and
    says it was interrupted.

    Raises:
        ProgramError: the other program cannot be started.
    """
    ours, theirs = DipsatEngine(rules), engine(against, timeout, startup=startup)
    summary, finished = Summary(), False
    try:
        with nullcontext() if time_limit is None else solver_time_limit(time_limit):
            for name, position, orders in turns:
                _check_turn(summary, name, position, orders, ours, theirs, shrink_cases)
        finished = True
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        theirs.close(grace=2.0 if finished else 0.0)  # stopped at once when interrupted
    return summary


def _check_turn(
    summary: Summary,
    name: str,
    position: Position,
    orders: list[Given],
    ours: DipsatEngine,
    theirs: DipsatEngine | ExternalEngine,
    shrink_cases: bool,
) -> None:
    """One turn through both engines, counted in `summary` once its verdict is known."""
    try:
        mine = ours.adjudicate(name, position, orders)
    except (DipsatError, LimitError) as err:  # the turn is an error, not compared
        summary.turns += 1
        summary.errors.append(f"{name}: dipsat: {err}")
        return
    other = theirs.adjudicate(name, position, orders)
    summary.turns += 1
    if "error" in other:
        summary.skipped += 1
        if len(summary.errors) < 20:
            summary.errors.append(f"{name}: {other['error']}")
        return
    found = differences(mine, other, _convoys(orders))
    if not found:
        summary.agreed += 1
        return
    label = name_of(position, orders, found, ours.rules)
    board = on_the_board(found)
    summary.classes[label] += 1
    summary.boards[label] += board
    if shrink_cases and _tagged(label, board) not in summary.cases:
        minimal = _minimal(name, label, board, position, orders, theirs, ours)
        if minimal is not None:
            summary.cases.setdefault(*minimal)


def _tagged(label: str, board: bool) -> str:
    """A class with the kind of its difference: 'support: support [board]'."""
    return f"{label} [{'board' if board else 'label'}]"


def _minimal(
    name: str,
    label: str,
    board: bool,
    position: Position,
    orders: list[Given],
    theirs: DipsatEngine | ExternalEngine,
    ours: DipsatEngine,
) -> tuple[str, str] | None:
    """The turn shrunk while the engines still disagree in the same class, on the board
    if they did and in labels only if they did (else a board bug could shrink to a mere
    label, or a label to a board difference of another cause), as (its class tagged by
    what the case's own difference is, the case text); None if the other engine no longer
    answers the shrunk turn."""

    def compared(pos: Position, given: Sequence[Given]) -> dict[str, tuple[Any, Any]] | None:
        try:
            mine = ours.adjudicate(name, pos, given)
        except (DipsatError, LimitError):  # a smaller turn dipsat cannot play: not this one
            return None
        other = theirs.adjudicate(name, pos, given)
        if "error" in other:
            return None
        return differences(mine, other, _convoys(given))

    def disagrees(pos: Position, given: Sequence[Given]) -> bool:
        found = compared(pos, given)
        if not found or on_the_board(found) != board:
            return False
        return name_of(pos, given, found, ours.rules) == label

    small, small_orders = shrink(position, orders, disagrees)
    found = compared(small, small_orders)
    if not found:
        return None
    text = case_text(f"X.{name}", label, small, small_orders, theirs.name, found, ours.rules)
    return _tagged(label, on_the_board(found)), text


def _convoys(orders: Sequence[Given]) -> frozenset[str]:
    from ..values.orders import Convoy

    return frozenset(
        g.order.unit.place.province.upper() for g in orders if isinstance(g.order, Convoy)
    )


Chunk = tuple[str, int, int, int, float, float, str, RuleBook, float | None]
"""A chunk of a campaign: the other engine, the seed, the turns start..stop, its reply
timeout and start-up allowance, the board, the rule book, the solver's time limit."""


def _chunk(args: Chunk) -> Summary:
    """One chunk of a campaign, in whichever process runs it: the solver's time limit
    comes with the chunk (a context variable does not cross processes)."""
    against, seed, start, stop, timeout, startup, board, rules, seconds = args
    turns = random_turns(seed, start, stop, variant(board))
    return check_turns(against, turns, timeout, rules=rules, time_limit=seconds, startup=startup)


def campaign(
    against: str,
    turns: int,
    seed: int,
    workers: int = 1,
    dask: str | None = None,
    timeout: float = 10.0,
    chunk: int = 250,
    progress: Callable[[int], None] | None = None,
    board: str = "standard",
    rules: RuleBook = DATC_2025,
    time_limit: float | None = None,
    startup: float = STARTUP_SECONDS,
) -> Summary:
    """Random turns 0..turns-1 of a seed on a board (a variant's name or file, as
    `topology.variant` reads it), spread over processes or a Dask cluster, dipsat playing
    under `rules` (its solver within `time_limit` seconds a call), the other engine given
    `timeout` seconds a reply and `startup` for its first after it starts.  Ctrl-C ends it with
    the summary of the chunks finished, marked interrupted (in one process, of the turns
    finished).

    Raises:
        ProgramError: `against` names no program that can be started.
    """
    variant(board)  # a bad name or command fails here, not in every worker
    engine(against, timeout).close()
    jobs: Iterator[Chunk] = (  # made as the workers need them: turns may be many
        (against, seed, s, min(s + chunk, turns), timeout, startup, board, rules, time_limit)
        for s in range(0, turns, chunk)
    )
    total = Summary()
    parts = spread(_chunk, jobs, workers, dask)
    try:
        for part in parts:
            total.merge(part)
            if progress:
                progress(part.turns)
            if part.interrupted:
                break
    except KeyboardInterrupt:  # the chunks still running are lost; those done are kept
        total.interrupted = True
    finally:
        parts.close()
    return total


def write_cases(summary: Summary, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for number, (label, text) in enumerate(sorted(summary.cases.items()), start=1):
        path = out / f"disagreement-{number:02d}.cases"
        path.write_text(f"# {label}\n{text}", encoding="utf-8")
        written.append(path)
    return written


def recorded_turns(
    paths: list[str], board: Board | None = None
) -> list[tuple[str, Position, list[Given]]]:
    """Movement phases from case files (*.cases) and game files (*.json), on ``board`` where
    a file names no board of its own."""
    from ..formats.cases import case_files, read_cases
    from ..formats.mila import read_game
    from ..values.position import PhaseKind

    turns = []
    for path in paths:
        if path.endswith(".json"):
            game = read_game(path, board)
            for phase in game.phases:
                if phase.phase is not None and phase.phase.kind is PhaseKind.MOVEMENT:
                    turns.append(
                        (f"{Path(path).stem}-{phase.name}", phase.position(), list(phase.orders))
                    )
            continue
        for file in case_files([path]):
            for case in read_cases(file, board):
                block = case.movement
                if block is not None and not case.multiverse:
                    turns.append((case.id, case.position, [o.given for o in block.orders]))
    return turns
