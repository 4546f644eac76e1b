"""Running cases: adjudicate each, compare with its expectations, check with the checker."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from topology import Board

from ..checker.equations import check_resolution
from ..cycle.game import advance
from ..errors import DipsatError
from ..formats.cases import Block, Case
from ..formats.rulebooks import rule_book
from ..multiverse.state import Multiverse, SpotNames, on_board
from ..multiverse.step import step
from ..values.orders import Names, timeline_name
from ..values.position import Unit
from ..values.resolution import AdjustmentResolution, Resolution
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

    def as_json(self) -> dict:
        return {
            "total": self.total,
            "passed": self.passed,
            "failed": self.total - self.passed,
            "sections": self.sections(),
            "failures": [f.as_json() for r in self.results for f in r.failures],
        }


def _section_key(section: str) -> tuple:
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in section.split("."))


def _units(board: Board, pairs: Iterable[tuple[str, str]]) -> str:
    return "; ".join(f"{power} {board.province(p).name}" for power, p in pairs) or "none"


def _compare(case: Case, block: Block, outcomes, edition: str = "2025") -> list[Failure]:
    """Orders whose outcome differs from what the case expects under the edition; under an
    edition that gives no answer, orders are not compared (see `_unresolved`)."""
    if edition in case.paradox_editions:
        return []
    return [
        Failure(case.id, str(o.given), o.expected_under(edition), got.label)
        for o, got in zip(block.orders, outcomes, strict=True)
        if o.expected_under(edition) is not None and got.label != o.expected_under(edition)
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
    one-timeline multiverse is standard Diplomacy)."""
    rules = rules or rule_book(case.edition)
    if case.multiverse:
        return _run_multiverse(case, rules)
    result = _run_standard(case, rules)
    once_more = replace(rules, multiverse_step=StepScope.PHASE)
    return CaseResult(
        case, result.failures + _through_multiverse(case, once_more), result.resolution
    )


def _run_standard(case: Case, rules: RuleBook) -> CaseResult:
    failures: list[Failure] = []
    resolution: Resolution | None = None
    position = case.position
    for block in case.blocks:
        try:
            if position.phase.kind is not block.kind:
                raise DipsatError(
                    f"the case gives {block.kind.value} orders, but the game is in {position.phase}"
                )
            step = advance(position, [o.given for o in block.orders], rules)
        except DipsatError as err:
            failures.append(
                Failure(case.id, "-", f"a {block.kind.value} resolution", f"error: {err}")
            )
            break
        failures += _compare(case, block, step.outcomes, rules.name)
        if isinstance(step, Resolution):
            resolution = step
            failures += _unresolved(case, resolution, rules.name)
            failures += [
                Failure(case.id, "-", "the checker's agreement", f"checker: {v}")
                for v in check_resolution(resolution)
            ]
        if isinstance(step, AdjustmentResolution):
            got = tuple(sorted((u.power, u.province) for u in step.civil_disorder))
            wanted = case.automatic_under(block, rules.name)
            if got != wanted:
                board = position.map
                failures.append(
                    Failure(
                        case.id, "automatic disbands", _units(board, wanted), _units(board, got)
                    )
                )
        position = step.after
    if case.after is not None and not failures:
        got = tuple(sorted(position.units))
        if got != case.after:
            names = case.position.board
            failures.append(
                Failure(case.id, "AFTER", _describe(case.after, names), _describe(got, names))
            )
    return CaseResult(case, tuple(failures), resolution)


def _through_multiverse(case: Case, rules: RuleBook) -> tuple[Failure, ...]:
    """The standard case again, as a one-timeline multiverse."""
    failures: list[Failure] = []
    mv = Multiverse.start(case.position)
    for block in case.blocks:
        try:
            done = step(mv, [o.given for o in block.orders], rules)
        except DipsatError as err:
            return (Failure(case.id, "-", "a multiverse step", f"error: {err}"),)
        failures += [
            replace(f, got=f"{f.got} (multiverse engine)")
            for f in _compare(case, block, done.outcomes, rules.name)
        ]
        mv = done.after
    return tuple(failures)


def _run_multiverse(case: Case, rules: RuleBook) -> CaseResult:
    """Play the steps of a multiverse case and compare outcomes, revised outcomes of past
    orders, and the multiverse at the end."""
    failures: list[Failure] = []
    mv = Multiverse.start(case.position)
    resolution = None
    for number, block in enumerate(case.blocks, start=1):
        try:
            done = step(mv, [o.given for o in block.orders], rules)
        except DipsatError as err:
            failures.append(Failure(case.id, f"step {number}", "a resolution", f"error: {err}"))
            break
        failures += _compare(case, block, done.outcomes, rules.name)
        revised = {str(o.given): o for o in done.revised}
        for order in block.revised:
            got = revised.get(str(order.given))
            label = got.label if got is not None else "not adjudicated again"
            if order.expected is not None and label != order.expected:
                failures.append(Failure(case.id, str(order.given), order.expected, label))
        if done.resolution is not None:
            resolution = done.resolution
            failures += [
                Failure(case.id, "-", "the checker's agreement", f"checker: {v}")
                for v in check_resolution(resolution)
            ]
        mv = done.after
    if not failures:
        failures += _compare_multiverse(case, mv)
    return CaseResult(case, tuple(failures), resolution)


def _compare_multiverse(case: Case, mv: Multiverse) -> list[Failure]:
    failures = []
    if case.after_boards is not None:
        got = tuple(sorted(f"{timeline_name(b.timeline)}@{b.turn}" for b in mv.boards))
        if got != case.after_boards:
            failures.append(
                Failure(case.id, "AFTER boards", " ".join(case.after_boards), " ".join(got))
            )
    heads = mv.heads().values()

    def on_heads(units_of) -> tuple[Unit, ...]:
        return tuple(
            sorted(
                Unit(
                    on_board(u.location, h.key),
                    u.type,
                    u.power,
                )
                for h in heads
                for u in units_of(h.position)
            )
        )

    for label, expected, units_of in (
        ("AFTER", case.after, lambda p: p.units),
        ("AFTER retreating", case.after_retreating, lambda p: [d.unit for d in p.dislodged]),
    ):
        if expected is None:
            continue
        got = on_heads(units_of)
        if got != expected:
            names = SpotNames(case.position.map)
            failures.append(
                Failure(case.id, label, _describe(expected, names), _describe(got, names))
            )
    return failures


def _describe(units: Iterable[Unit], names: Names) -> str:
    return "; ".join(f"{u.power} {u.text(names)}" for u in units) or "none"


def run(cases: Iterable[Case], rules: RuleBook | None = None) -> Report:
    report = Report()
    for case in cases:
        report.results.append(run_case(case, rules))
    return report
