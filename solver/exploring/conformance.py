"""Running cases: adjudicate each, compare with its expectations, check with the checker."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from topology import Board, Key, Location

from ..checker.check import check_resolution
from ..cycle.game import Game, OneBoard, Played
from ..errors import DipsatError, LimitError
from ..formats.cases import After, Block, Case
from ..formats.rulebooks import rule_book
from ..multiverse.retreating import retreat_options, standoffs
from ..multiverse.state import BoardKey, Multiverse, board_name, board_of, parts, winner
from ..values.calendar import game_status
from ..values.orders import Given, Names, Waive
from ..values.outcomes import Outcome
from ..values.position import Position, Unit
from ..values.resolution import Resolution
from ..values.rules import RuleBook, StepScope


@dataclass(frozen=True, slots=True)
class Failure:
    case: str
    order: str
    expected: str
    got: str

    def as_json(self) -> dict[str, str]:
        return {"id": self.case, "order": self.order, "expected": self.expected, "got": self.got}

    def __str__(self) -> str:
        return f"{self.order}: expected {self.expected}, got {self.got}"


@dataclass(frozen=True, slots=True)
class CaseResult:
    case: Case
    failures: tuple[Failure, ...]
    resolution: Resolution | None = None

    @property
    def passed(self) -> bool:
        return not self.failures

    def __str__(self) -> str:
        if self.passed:
            return f"{self.case.id}: passed"
        return "\n".join([f"{self.case.id}: FAILED", *(f"  {f}" for f in self.failures)])

    def __repr__(self) -> str:
        verdict = "passed" if self.passed else f"{len(self.failures)} failure(s)"
        return f"<CaseResult {self.case.id}: {verdict}>"


@dataclass
class Report:
    results: list[CaseResult] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.results)

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    def sections(self) -> dict[str, dict[str, int]]:
        sections: dict[str, dict[str, int]] = {}
        for r in self.results:
            entry = sections.setdefault(r.case.section, {"total": 0, "passed": 0})
            entry["total"] += 1
            entry["passed"] += r.passed
        return dict(sorted(sections.items(), key=lambda kv: _section_key(kv[0])))

    def as_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "passed": self.passed,
            "failed": self.total - self.passed,
            "sections": self.sections(),
            "failures": [f.as_json() for r in self.results for f in r.failures],
        }


def _section_key(section: str) -> tuple[tuple[int, int, str], ...]:
    """Sections in order, numbers by value ('6.B' before '10.A'), compared as digits: a
    case id is any text, and a number of it may be longer than Python converts to int."""
    return tuple(_part_key(p) for p in section.split("."))


def _part_key(part: str) -> tuple[int, int, str]:
    if part.isascii() and part.isdigit():
        number = part.lstrip("0")
        return (0, len(number), number)  # by value: a longer number is the larger
    return (1, 0, part)


def _units(board: Board, pairs: Iterable[tuple[str, Key]]) -> str:
    return "; ".join(f"{power} {board.province(p).name}" for power, p in pairs) or "none"


def _compare(
    case: Case, block: Block, outcomes: tuple[Outcome, ...], edition: str = "2025"
) -> list[Failure]:
    """Orders whose outcome differs from what the case expects under the edition; under an
    edition that gives no answer, orders are not compared (see `_unresolved`)."""
    if edition in case.paradox_editions:
        return []
    return [
        Failure(case.id, str(o.given), expected, got.label)
        for o, got in zip(block.orders, outcomes, strict=True)
        if (expected := o.expected_under(edition)) is not None and got.label != expected
    ]


def _unresolved(case: Case, resolution: Resolution, edition: str) -> list[Failure]:
    """Under an edition that gives no answer the adjudicator must say so, and only then."""
    says = any(c.unresolved for c in resolution.cores)
    expects = edition in case.paradox_editions
    if says == expects:
        return []
    wanted = "an unresolved paradox" if expects else "a resolution"
    got = "an unresolved paradox" if says else "a resolution"
    return [Failure(case.id, "-", f"{wanted} under {edition}", got)]


def run_case(case: Case, rules: RuleBook | None = None) -> CaseResult:
    """Adjudicate a case under a rule book (by default the edition the case states) and
    compare every expectation; a standard case runs through the multiverse engine too (a
    one-timeline multiverse is standard Diplomacy), its outcomes compared."""
    rules = rules or rule_book(case.edition)
    if not case.expects_something:  # else it would pass whatever came out
        wanted = "an outcome after '=>' or an AFTER section"
        return CaseResult(case, (Failure(case.id, "the case", wanted, "none"),), None)
    failures, resolution = _play(case, case.game(), rules)
    if not case.multiverse:
        one_timeline = Multiverse.start(case.position)
        again, _ = _play(case, one_timeline, replace(rules, multiverse_step=StepScope.PHASE), False)
        seen = {(f.order, f.expected, f.got) for f in failures}  # a failure is reported once
        failures += [
            replace(f, got=f"{f.got} (multiverse engine)")
            for f in again
            if (f.order, f.expected, f.got) not in seen
        ]
    return CaseResult(case, tuple(failures), resolution)


def play_block(game: Game, block: Block, rules: RuleBook) -> Played:
    """Play one block of a case's orders on the game as it stands.

    Raises:
        DipsatError: the block's orders are for another kind of phase than the game's
            (retreat orders where no unit was dislodged), or the step itself fails.
    """
    phase = game.phase
    if phase is not None and phase.kind is not block.kind:
        raise DipsatError(f"the case gives {block.kind.value} orders, but the game is in {phase}")
    return game.step([o.given for o in block.orders], rules)


def _play(
    case: Case, game: Game, rules: RuleBook, fully: bool = True
) -> tuple[list[Failure], Resolution | None]:
    """Play the blocks of a case and compare what they come to with what the case expects
    (only the outcomes of the orders unless `fully`); the last movement resolution."""
    failures: list[Failure] = []
    resolution: Resolution | None = None
    last: Played | None = None
    for number, block in enumerate(case.blocks, start=1):
        try:
            done = play_block(game, block, rules)
        except (DipsatError, LimitError) as err:  # the case fails, saying why
            wanted = f"a {block.kind.value} resolution"
            failures.append(Failure(case.id, f"block {number}", wanted, f"error: {err}"))
            break
        failures += _compare(case, block, done.outcomes, rules.name)
        if fully:
            failures += _revised(case, block, done.revised, rules.name)
            failures += _civil_disorder(case, block, done, rules.name)
            if done.movement is not None:
                resolution = done.movement
                failures += _unresolved(case, resolution, rules.name)
                failures += [
                    Failure(case.id, "-", "the checker's agreement", f"checker: {v}")
                    for v in check_resolution(resolution)
                ]
        game = done.after
        last = done
        step_after = block.after_under(rules.name)
        if fully and step_after is not None:
            label = f"AFTER step {number}"
            failures += _compare_expected(case, step_after, game, label, done, rules)
    if fully and not failures:
        expected = case.after_under(rules.name)
        failures += _compare_expected(case, expected, game, "AFTER", last, rules)
    return failures, resolution


def _revised(case: Case, block: Block, revised: tuple[Outcome, ...], edition: str) -> list[Failure]:
    """The recorded orders of past boards a multiverse step adjudicated again, against the
    case's REVISED expectations."""
    by_text = {str(o.given): o for o in revised}
    failures = []
    for order in block.revised:
        got = by_text.get(str(order.given))
        label = got.label if got is not None else "not adjudicated again"
        expected = order.expected_under(edition)
        if expected is not None and label != expected:
            failures.append(Failure(case.id, str(order.given), expected, label))
    return failures


def _civil_disorder(case: Case, block: Block, done: Played, edition: str) -> list[Failure]:
    """The units civil disorder removed, against the case's 'Automatic disband' lines."""
    got = tuple(sorted((u.power, u.province) for u in done.civil_disorder or ()))
    wanted = case.automatic_under(block, edition)
    if got == wanted:
        return []
    board = case.position.map
    return [Failure(case.id, "automatic disbands", _units(board, wanted), _units(board, got))]


def _compare_expected(
    case: Case, expected: After, game: Game, label: str, done: Played | None, rules: RuleBook
) -> list[Failure]:
    """The game against an AFTER section: the units standing, those owing a retreat, (a
    multiverse) its boards, the forks and past boards of the step, and the winner, (one
    board) its centres and solo."""
    failures = []
    if expected.boards is not None:
        boards = game.board_names()
        if boards != expected.boards:
            failures.append(
                Failure(case.id, f"{label} boards", " ".join(expected.boards), " ".join(boards))
            )
    if isinstance(game, OneBoard):
        failures += _compare_centres(case, game.position, expected)
    standing = game.standing()
    if isinstance(game, Multiverse):
        failures += _compare_step(case, expected, game, label, done, rules)
        standing = _standing(game, (*(expected.units or ()), *(expected.retreating or ())))
    names = game.names
    for what, wanted, units in (
        (label, expected.units, standing),
        (f"{label} retreating", expected.retreating, game.awaiting()),
    ):
        got = tuple(sorted(units))
        if wanted is not None and got != wanted:
            failures.append(Failure(case.id, what, _describe(wanted, names), _describe(got, names)))
    return failures


def _standing(mv: Multiverse, wanted: Iterable[Unit]) -> tuple[Unit, ...]:
    """The units on the head boards, and on the other boards an AFTER section names (for a
    unit standing or owing a retreat): those not owing a retreat."""
    named = {parts(u.province)[1] for u in wanted}
    heads = {h.key for h in mv.heads().values()}
    awaiting = set(mv.awaiting())
    past = [u for key in sorted(named - heads) for u in mv.units_on(key) if u not in awaiting]
    return (*mv.standing(), *past)


def _compare_step(
    case: Case, expected: After, mv: Multiverse, label: str, done: Played | None, rules: RuleBook
) -> list[Failure]:
    """A multiverse step's forks and the past boards it adjudicated again, and the winner,
    against an AFTER section."""
    forks = getattr(done, "forks", ())
    revised = getattr(done, "revised", ())
    got = {
        "forks": sorted(str(f) for f in forks),
        "revisited": sorted(
            {board_name(key) for o in revised if (key := _unit_board(o.given)) is not None}
        ),
        "solo": [mv.won or winner(mv, rules) or "none"],
    }
    wanted = {
        "forks": expected.forks,
        "revisited": expected.revisited,
        "solo": None if expected.solo is None else (expected.solo or "none",),
    }
    failures = [
        Failure(
            case.id, f"{label} {what}", ", ".join(want) or "none", ", ".join(got[what]) or "none"
        )
        for what, want in wanted.items()
        if want is not None and list(want) != got[what]
    ]
    names = mv.names
    if expected.standoffs is not None:
        found = standoffs(mv)
        if found != expected.standoffs:
            failures.append(
                Failure(
                    case.id,
                    f"{label} standoffs",
                    _places(expected.standoffs, names),
                    _places(found, names),
                )
            )
    options = retreat_options(mv, rules) if expected.options else {}
    for unit, want in expected.options:
        have = tuple(sorted(options.get(unit, ())))
        if have != want:
            failures.append(
                Failure(
                    case.id,
                    f"{label} retreat options of {unit.text(names)}",
                    ", ".join(names.location_name(p) for p in want) or "none",
                    ", ".join(names.location_name(p) for p in have) or "none",
                )
            )
    return failures


def _places(keys: Iterable[Key], names: Names) -> str:
    """Provinces of boards (`Spot` keys), as the letter notation names them."""
    return ", ".join(names.location_name(Location(k)) for k in keys) or "none"


def _unit_board(given: Given) -> BoardKey | None:
    return None if isinstance(given.order, Waive) else board_of(given.order.unit.place)


def _compare_centres(case: Case, position: Position, expected: After) -> list[Failure]:
    """The owners of the centres and the winner at the end, where the case states them."""
    failures = []
    board = position.map
    if expected.centres is not None and position.centres != expected.centres:
        failures.append(
            Failure(
                case.id,
                "AFTER centres",
                _owners(board, expected.centres),
                _owners(board, position.centres),
            )
        )
    solo = game_status(position).solo or ""
    if expected.solo is not None and solo != expected.solo:
        failures.append(Failure(case.id, "AFTER solo", expected.solo or "none", solo or "none"))
    return failures


def _owners(board: Board, centres: Iterable[tuple[str, str]]) -> str:
    return "; ".join(f"{p} {board.province(c).name}" for c, p in centres) or "none"


def _describe(units: Iterable[Unit], names: Names) -> str:
    return "; ".join(f"{u.power} {u.text(names)}" for u in units) or "none"


def run(cases: Iterable[Case], rules: RuleBook | None = None) -> Report:
    report = Report()
    for case in cases:
        report.results.append(run_case(case, rules))
    return report
