"""Running cases: adjudicate each, compare with its expectations, check with the checker."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from topology import standard

from .adjustments import AdjustmentResolution
from .cases import Block, Case
from .checker import check_resolution
from .errors import DipsatError
from .game import advance
from .resolution import Resolution
from .rules import DATC_2025, RuleBook


@dataclass(frozen=True, slots=True)
class Failure:
    case: str
    order: str
    expected: str
    got: str

    def as_json(self) -> dict[str, str]:
        return {"id": self.case, "order": self.order, "expected": self.expected, "got": self.got}


@dataclass(frozen=True, slots=True)
class CaseResult:
    case: Case
    failures: tuple[Failure, ...]
    resolution: Resolution | None = None

    @property
    def passed(self) -> bool:
        return not self.failures


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


def _units(pairs) -> str:
    board = standard()
    return "; ".join(f"{power} {board.province(p).name}" for power, p in pairs) or "none"


def _compare(case: Case, block: Block, outcomes) -> list[Failure]:
    return [
        Failure(case.id, str(o.given), o.expected, got.label)
        for o, got in zip(block.orders, outcomes, strict=True)
        if o.expected is not None and got.label != o.expected
    ]


def run_case(case: Case, rules: RuleBook = DATC_2025) -> CaseResult:
    """Adjudicate the case phase by phase and compare every expected outcome."""
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
        failures += _compare(case, block, step.outcomes)
        if isinstance(step.detail, Resolution):
            resolution = step.detail
            failures += [
                Failure(case.id, "-", "the checker's agreement", f"checker: {v}")
                for v in check_resolution(resolution)
            ]
        if isinstance(step.detail, AdjustmentResolution):
            got = tuple(sorted((u.power, u.province) for u in step.detail.civil_disorder))
            if got != block.automatic:
                failures.append(
                    Failure(case.id, "automatic disbands", _units(block.automatic), _units(got))
                )
        position = step.after
    if case.after is not None and not failures:
        got = tuple(sorted(position.units))
        if got != case.after:
            describe = lambda units: "; ".join(f"{u.power} {u}" for u in units)  # noqa: E731
            failures.append(Failure(case.id, "AFTER", describe(case.after), describe(got)))
    return CaseResult(case, tuple(failures), resolution)


def run(cases: Iterable[Case], rules: RuleBook = DATC_2025) -> Report:
    report = Report()
    for case in cases:
        report.results.append(run_case(case, rules))
    return report
