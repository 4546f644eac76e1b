"""Running cases: adjudicate each, compare with its expectations, check with the checker."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .adjudicate import adjudicate
from .cases import Block, Case
from .checker import check_resolution
from .errors import DipsatError
from .position import PhaseKind
from .resolution import Resolution
from .retreats import adjudicate_retreats


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


def _compare(case: Case, block: Block, outcomes) -> list[Failure]:
    return [
        Failure(case.id, str(o.given), o.expected, got.label)
        for o, got in zip(block.orders, outcomes, strict=True)
        if o.expected is not None and got.label != o.expected
    ]


def run_case(case: Case) -> CaseResult:
    """Adjudicate the case phase by phase and compare every expected outcome."""
    failures: list[Failure] = []
    resolution: Resolution | None = None
    position = case.position
    for block in case.blocks:
        try:
            if block.kind is PhaseKind.MOVEMENT:
                resolution = adjudicate(position, [o.given for o in block.orders])
                failures += _compare(case, block, resolution.outcomes)
                failures += [
                    Failure(case.id, "-", "the checker's agreement", f"checker: {v}")
                    for v in check_resolution(resolution)
                ]
                position = resolution.after
            elif block.kind is PhaseKind.RETREAT:
                retreats = adjudicate_retreats(position, [o.given for o in block.orders])
                failures += _compare(case, block, retreats.outcomes)
                position = retreats.after
            else:
                failures += [
                    Failure(
                        case.id,
                        str(o.given),
                        o.expected or "-",
                        "not adjudicated: adjustment phases are not supported yet",
                    )
                    for o in block.orders
                ]
        except DipsatError as err:
            failures.append(
                Failure(case.id, "-", f"a {block.kind.value} resolution", f"error: {err}")
            )
            break
    if case.after is not None and not failures:
        got = tuple(sorted(position.units))
        if got != case.after:
            describe = lambda units: "; ".join(f"{u.power} {u}" for u in units)  # noqa: E731
            failures.append(Failure(case.id, "AFTER", describe(case.after), describe(got)))
    return CaseResult(case, tuple(failures), resolution)


def run(cases: Iterable[Case]) -> Report:
    report = Report()
    for case in cases:
        report.results.append(run_case(case))
    return report
