"""Replay recorded games: adjudicate every phase from its recorded state and compare.

How a position is built: the transition from phase i to phase i+1 starts from the recorded
state of phase i, never from our own result, so one mismatch does not spread.  A retreat
phase needs what the files do not keep: where each dislodged unit's attacker came from,
whether it came by convoy, and which provinces a standoff left empty.  These come from our
own adjudication of the movement phase just before, whose result (retreat options
included) was itself compared with the recorded retreat state.  A recorded dislodged unit
that our adjudication did not dislodge cannot be rebuilt: that transition is a mismatch
that says so.

Compared: units (type, place, coast), dislodged units with their retreat options, centre
owners and the phase name (not against the end marker COMPLETED).  The last phase has no
successor, so it is no transition.  A dislodged unit with nowhere to go stays in our retreat
phase with no options, as in the files, and that phase disbands it: the same outcome as a
unit destroyed in the movement phase.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from topology import Board, variant

from ..cycle.game import advance
from ..errors import DipsatError, LimitError
from ..formats.mila import (
    GameFileError,
    RecordedGame,
    RecordedPhase,
    read_game,
    snapshot,
    start_position,
)
from ..judge.solver_settings import time_limit as solver_time_limit
from ..values.orders import Given
from ..values.position import PhaseKind, Position
from ..values.resolution import PhaseResolution, Resolution
from ..values.rules import DATC_2025, RULE_BOOKS, RuleBook
from ..workers import spread as _spread
from .disagreements import name_of

KINDS = {PhaseKind.MOVEMENT: "M", PhaseKind.RETREAT: "R", PhaseKind.ADJUSTMENT: "A"}


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A transition whose result differs from the record: per aspect, what only the record
    has (`expected`) and what only we produced (`produced`)."""

    file: str
    phase: str
    next: str
    kind: str
    expected: dict[str, list[str]]
    produced: dict[str, list[str]]
    note: str | None = None
    cause: str | None = None  # what the difference comes from (`cause_of`)

    def as_json(self) -> dict[str, Any]:
        data = {
            "file": self.file,
            "phase": self.phase,
            "next": self.next,
            "kind": self.kind,
            "expected": self.expected,
            "produced": self.produced,
        }
        if self.note:
            data["note"] = self.note
        if self.cause:
            data["cause"] = self.cause
        return data


@dataclass(frozen=True, slots=True)
class ReplayError:
    """A game file, or one of its phases, that could not be replayed."""

    file: str
    phase: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}: {self.phase}" if self.phase else self.file
        return f"{where}: {self.message}"

    def as_json(self) -> dict[str, Any]:
        return {"file": self.file, "phase": self.phase, "message": self.message}


def _counts() -> dict[str, dict[str, int]]:
    return {kind: {"transitions": 0, "matched": 0, "mismatched": 0} for kind in KINDS.values()}


@dataclass
class ReplayReport:
    games: int = 0
    by_kind: dict[str, dict[str, int]] = field(default_factory=_counts)
    mismatches: list[Mismatch] = field(default_factory=list)
    errors: list[ReplayError] = field(default_factory=list)

    @property
    def transitions(self) -> int:
        return sum(c["transitions"] for c in self.by_kind.values())

    @property
    def matched(self) -> int:
        return sum(c["matched"] for c in self.by_kind.values())

    @property
    def mismatched(self) -> int:
        return sum(c["mismatched"] for c in self.by_kind.values())

    def merge(self, other: ReplayReport) -> None:
        """Add another report's games to this one (the order of the games is kept)."""
        self.games += other.games
        for kind, counts in other.by_kind.items():
            for key, value in counts.items():
                self.by_kind[kind][key] += value
        self.mismatches += other.mismatches
        self.errors += other.errors

    def as_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "transitions": self.transitions,
            "matched": self.matched,
            "mismatched": self.mismatched,
            "by_kind": self.by_kind,
            "mismatches": [m.as_json() for m in self.mismatches],
            "errors": [e.as_json() for e in self.errors],
        }


def replay(
    paths: Iterable[str | Path],
    rules: RuleBook = DATC_2025,
    board: Board | None = None,
    workers: int = 1,
    dask: str | None = None,
    time_limit: float | None = None,
) -> ReplayReport:
    """Replay every game file (on ``board``, or the map each names); a malformed file is
    reported and the others still run.  With ``workers`` above 1 the files are spread over
    that many local processes, with ``dask`` (a scheduler's address, or ``"local"``) over a
    Dask cluster; the report is the same, its games in the order given.  ``time_limit``
    bounds each call of the solver in every worker, local or not (a phase that runs out is
    an error of the report); a `solver.time_limit` block around the call reaches no other
    process."""
    files = [str(p) for p in paths]
    if workers <= 1 and not dask:
        return _replay_files((files, rules, board, time_limit))
    where = None if board is None else str(board.origin or board.name)
    size = max(1, len(files) // (4 * max(workers, 1)))
    jobs = [(files[i : i + size], rules, where, time_limit) for i in range(0, len(files), size)]
    report = ReplayReport()
    for part in _spread(_replay_files, jobs, workers, dask):
        report.merge(part)
    return report


def _replay_files(
    job: tuple[list[str], RuleBook, Board | str | None, float | None],
) -> ReplayReport:
    """One share of a replay: its files, the rule book, the board (or its name or file) and
    the solver's time limit, entered here: a context variable does not cross processes."""
    files, rules, where, seconds = job
    board = variant(where) if isinstance(where, str) else where
    report = ReplayReport()
    with nullcontext() if seconds is None else solver_time_limit(seconds):
        for path in files:
            try:
                game = read_game(path, board)
            except GameFileError as error:
                report.errors.append(ReplayError(error.path, error.phase, error.message))
                continue
            replay_game(game, rules, report)
    return report


def replay_game(game: RecordedGame, rules: RuleBook, report: ReplayReport) -> None:
    """Adjudicate each recorded phase that has a successor and add the verdicts to `report`.

    Each transition starts again from the record, so what one transition finds never stops
    the next: a recorded state our adjudication cannot lead to is a mismatch of the
    transition that differs, and the following one is played from the record as it stands.
    Only an adjudication that fails (the solver out of time) is an error of the report,
    naming the file and the phase."""
    report.games += 1
    previous: PhaseResolution | None = None
    for here, there in zip(game.phases, game.phases[1:], strict=False):
        assert here.phase is not None  # the end marker is always last
        kind = KINDS[here.phase.kind]
        try:
            mismatch, previous = _transition(game.path, here, there, previous, rules)
        except (DipsatError, LimitError) as error:  # the phase is an error, not compared
            report.errors.append(ReplayError(game.path, here.name, str(error)))
            previous = None
            continue
        counts = report.by_kind[kind]
        counts["transitions"] += 1
        if mismatch is None:
            counts["matched"] += 1
            continue
        counts["mismatched"] += 1
        report.mismatches.append(mismatch)


def _transition(
    path: str,
    here: RecordedPhase,
    there: RecordedPhase,
    previous: PhaseResolution | None,
    rules: RuleBook,
) -> tuple[Mismatch | None, PhaseResolution | None]:
    """One transition of a game: its mismatch (None when it matches the record) and our
    adjudication of it (None when its start could not be rebuilt), which a retreat phase
    that follows is rebuilt from.

    Raises:
        DipsatError: the adjudication failed (the solver ran out of time).
    """
    assert here.phase is not None
    kind = KINDS[here.phase.kind]
    position, note = start_position(here, previous)
    if position is None:
        return Mismatch(path, here.name, there.name, kind, {}, {}, note), None
    done = advance(position, here.orders, rules)
    after = _through_empty_retreats(done, there, rules)
    expected, produced = there.snapshot.compare(
        snapshot(after, rules), with_phase=there.phase is not None
    )
    if not expected and not produced:
        return None, done
    cause = cause_of(position, here.orders, done, expected, produced, rules)
    return Mismatch(path, here.name, there.name, kind, expected, produced, None, cause), done


def cause_of(
    position: Position,
    orders: Sequence[Given],
    done: PhaseResolution,
    expected: dict[str, list[str]],
    produced: dict[str, list[str]],
    rules: RuleBook,
) -> str:
    """What a mismatch comes from: in a movement phase the class of its root decision, as
    `dipsat crosscheck` names it ("retreats: retreat options", "move: contested province",
    ...), each move read off where the record puts its unit (a record keeps no results of
    orders); in an adjustment phase "civil disorder" when a power's units were removed for
    it, else "adjustments"; else "retreats"."""
    kind = position.phase.kind
    if kind is PhaseKind.ADJUSTMENT:
        differ = {line.split(":")[0] for a in ("units",) for line in expected.get(a, [])}
        differ |= {line.split(":")[0] for line in produced.get("units", [])}
        removed = {u.power.upper() for u in getattr(done, "civil_disorder", ())}
        return "civil disorder" if differ & removed else "adjustments"
    if kind is PhaseKind.RETREAT:
        return "retreats"
    found: dict[str, tuple[Any, Any]] = {}
    ours = {_unit_of(line): line for line in produced.get("dislodged", [])}
    theirs = {_unit_of(line): line for line in expected.get("dislodged", [])}
    for unit in sorted(ours.keys() | theirs.keys()):
        key = "retreats" if unit in ours and unit in theirs else "dislodged"
        found[f"{key} {unit}"] = (ours.get(unit), theirs.get(unit))
    if "units" in expected or "units" in produced:
        found["units"] = (produced.get("units", []), expected.get("units", []))
    if not found:
        return "centres" if "centres" in expected or "centres" in produced else "phase"
    return name_of(position, orders, found, rules, results=False)


def _unit_of(line: str) -> str:
    """'A SEV' from 'RUSSIA: *A SEV -> MOS, UKR'."""
    return line.split(": ", 1)[1].split(" -> ")[0].lstrip("*")


BOOKS = ("1971", "1982", "2000", "2023", "2025", "dptg", "webdiplomacy", "godip", "mila")
"""The named rule books of the standard game a hint may point to."""


def explaining(report: ReplayReport, rules: RuleBook, board: Board | None = None) -> list[str]:
    """When every mismatch of a replay is a movement or adjustment transition of one cause,
    the named rule books under which each of them matches (a hint at the rules a game was
    played under); else none."""
    causes = {m.cause for m in report.mismatches}
    kinds = {m.kind for m in report.mismatches}
    if len(causes) != 1 or None in causes or not kinds <= {"M", "A"}:
        return []
    games = {path: read_game(path, board) for path in sorted({m.file for m in report.mismatches})}
    found = []
    for name in BOOKS:
        if name == rules.name:
            continue
        other = RULE_BOOKS[name]
        for m in report.mismatches:
            phases = games[m.file].phases
            here, there = next((a, b) for a, b in pairwise(phases) if a.name == m.phase)
            done = advance(here.position(), here.orders, other)
            after = _through_empty_retreats(done, there, other)
            with_phase = there.phase is not None
            if any(there.snapshot.compare(snapshot(after, other), with_phase=with_phase)):
                break
        else:
            found.append(name)
    return found


def _through_empty_retreats(
    resolution: PhaseResolution, there: RecordedPhase, rules: RuleBook
) -> Position:
    """The position after a phase, as an engine that skips a retreat phase with nothing to
    decide records it: dipsat opens a retreat phase when a unit is dislodged, even one with
    nowhere to go (DATC 6.H.15 gives such a unit a retreat order); MILA and webDiplomacy
    disband it at once and go on.  So when every dislodged unit is destroyed and the record
    has no retreat phase, the retreat phase is played through with no orders."""
    after = resolution.after
    skipped = there.phase is None or there.phase.kind is not PhaseKind.RETREAT
    if (
        isinstance(resolution, Resolution)
        and after.phase.kind is PhaseKind.RETREAT
        and skipped
        and all(not r.options for r in resolution.dislodged)
    ):
        return advance(after, (), rules).after
    return after


def transition_matches(game: RecordedGame, index: int, rules: RuleBook) -> bool:
    """Whether the transition from a game's phase `index` to the next comes out as recorded
    under a rule book, as `replay_game` judges it (a retreat phase is rebuilt from the
    movement phase before it, adjudicated under the same rule book); an adjudication that
    fails is a mismatch."""
    phases = game.phases
    here, there = phases[index], phases[index + 1]
    assert here.phase is not None
    try:
        previous = None
        if here.phase.kind is PhaseKind.RETREAT and index > 0:
            before, _ = start_position(phases[index - 1], None)
            if before is not None:
                previous = advance(before, phases[index - 1].orders, rules)
        position, _ = start_position(here, previous)
        if position is None:
            return False
        after = _through_empty_retreats(advance(position, here.orders, rules), there, rules)
    except DipsatError:
        return False
    expected, produced = there.snapshot.compare(
        snapshot(after, rules), with_phase=there.phase is not None
    )
    return not expected and not produced
