"""The paradox explorer: every consistent resolution of each dependency core, laid out.

The bare equations of a turn are solved without any fallback.  Each strongly connected
core of the dependency graph is enumerated with what it depends on settled: how many
consistent resolutions it has (0, 1 or more), which decisions differ between them, what
kind of core it is, and which resolution each named edition picks, and why.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from ..formats.cases import Case
from ..judge.movement import adjudicate, judge
from ..judge.results import as_it_stands
from ..judge.solver_settings import SolverConfig, current_config
from ..values.decisions import CONVOY, DISLODGED, MOVE, Decision
from ..values.orders import Given
from ..values.outcomes import BackupRule
from ..values.position import Position
from ..values.resolution import Resolution
from ..values.rules import EDITIONS, RuleBook

MAX_RESOLUTIONS = 256


class CoreKind(enum.StrEnum):
    """What a core of the dependency graph is made of."""

    CONVOY_PARADOX = "convoy paradox"  # a convoy lies on the cycle
    CIRCULAR_MOVEMENT = "circular movement"  # only moves (and dislodgements)
    OTHER = "other"


class NoCore(enum.StrEnum):
    """Why an edition meets no core where the rule book explored has one."""

    NO_CYCLE = "no cycle"  # its convoy-cut rule breaks the cycle
    DIFFERENT_ORDERS = "different orders"  # its legality rules give other orders


@dataclass(frozen=True, slots=True)
class EditionChoice:
    """Which consistent resolution of a core an edition reaches, and how."""

    picks: int | None  # index into the core's resolutions, or None
    rule: BackupRule | NoCore
    why: str


@dataclass(frozen=True, slots=True)
class CoreReport:
    decisions: tuple[Decision, ...]
    labels: tuple[str, ...]
    orders: tuple[str, ...]
    resolutions: tuple[dict[Decision, bool], ...]
    kind: CoreKind
    editions: dict[str, EditionChoice]
    capped: bool = False  # MAX_RESOLUTIONS found: none listed (a partial list is arbitrary)

    @property
    def solutions(self) -> int:
        return len(self.resolutions)

    @property
    def differing(self) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if len({r[d] for r in self.resolutions}) > 1)

    @property
    def heading(self) -> str:
        """'convoy paradox, 2 consistent resolution(s)'."""
        count = f"at least {MAX_RESOLUTIONS}" if self.capped else str(self.solutions)
        return f"{self.kind}, {count} consistent resolution(s)"

    def lines(self) -> list[str]:
        """The core's orders, its resolutions and each edition's choice, as `dipsat
        explore` prints them under the heading."""
        found = []
        if self.capped:
            found.append("too many to list: the explorer lists at most that many")
        found += list(self.orders)
        if self.solutions > 1:
            names = ", ".join(self.labels[self.decisions.index(d)] for d in self.differing)
            found.append(f"they differ in: {names}")
        for index, res in enumerate(self.resolutions):
            true = [self.labels[i] for i, d in enumerate(self.decisions) if res[d]]
            found.append(f"resolution {index}: true: " + ("; ".join(true) or "none"))
        for edition, choice in self.editions.items():
            pick = f"resolution {choice.picks}" if choice.picks is not None else "none of them"
            found.append(f"{edition}: {pick} ({choice.why})")
        return found

    def __str__(self) -> str:
        return "\n".join([self.heading, *(f"  {line}" for line in self.lines())])

    def __repr__(self) -> str:
        return f"<CoreReport {self.heading}>"


def _kind(core: Sequence[Decision]) -> CoreKind:
    kinds = {k for k, _ in core}
    if CONVOY in kinds:
        return CoreKind.CONVOY_PARADOX
    if kinds <= {MOVE, DISLODGED}:
        return CoreKind.CIRCULAR_MOVEMENT
    return CoreKind.OTHER


def explore(
    position: Position,
    orders: Sequence[Given],
    rules: RuleBook,
    recorded: Mapping[Decision, bool] | None = None,
    editions: Mapping[str, RuleBook] = EDITIONS,
    config: SolverConfig | None = None,
) -> list[CoreReport]:
    """Lay out every core of the turn under `rules` (legality and equations) and what each
    edition makes of it."""
    config = config or current_config()
    judged = judge(position, orders, rules)
    settled = judged.settle(config, recorded)
    graph = judged.dependencies(settled.recorded)
    by_edition = {
        name: adjudicate(position, orders, book, config, recorded, as_it_stands)
        for name, book in editions.items()
    }
    reports = []
    for core in judged.cores(settled.recorded):
        if set(core) <= settled.recorded.keys():
            continue
        upstream = nx.descendants(graph, core[0]) - set(core)
        cyclic = _cores_values(upstream, graph)
        fixed = {d: v for d, v in settled.values.items() if d in cyclic}
        fixed.update(settled.recorded)
        scope = (set(core) | upstream) - fixed.keys()
        found = judged.resolutions(fixed, scope, MAX_RESOLUTIONS, config)
        capped = len(found) >= MAX_RESOLUTIONS
        resolutions = () if capped else tuple({d: s[d] for d in core} for s in found)
        unique = list(dict.fromkeys(tuple(sorted(r.items())) for r in resolutions))
        resolutions = tuple(dict(r) for r in unique)
        labels = tuple(judged.label(d) for d in core)
        order_texts = tuple(
            sorted(
                {
                    str(checked.given)  # with its power: "France: A Brest - London"
                    for checked in (judged.order_in_force(p) for _, p in core)
                    if checked is not None
                }
            )
        )
        choices = {
            name: _choice(core, resolutions, resolution) for name, resolution in by_edition.items()
        }
        reports.append(
            CoreReport(tuple(core), labels, order_texts, resolutions, _kind(core), choices, capped)
        )
    return reports


def _cores_values(upstream: set[Decision], graph: nx.DiGraph) -> set[Decision]:
    """The upstream decisions that lie on cycles themselves (settled by the base rules);
    acyclic upstream decisions are left to the equations."""
    cyclic = set()
    for component in nx.strongly_connected_components(graph.subgraph(upstream)):
        first = next(iter(component))
        if len(component) > 1 or graph.has_edge(first, first):
            cyclic |= component
    return cyclic


_WHY = {
    BackupRule.UNIQUE: "the one consistent resolution",
    BackupRule.SZYKMAN: "Szykman: the convoys of the paradox fail",
    BackupRule.CIRCULAR_MOVEMENT: "circular movement: all its moves succeed",
    BackupRule.ALL_HOLD: "all hold: the moves of the paradox fail",
    BackupRule.DPTG: "DPTG: the resolution in which all its convoys fail",
    BackupRule.ALL_FAIL: "its moves and supports fail",
    BackupRule.UNRESOLVED: "the rule book gives no answer",
}


def _choice(
    core: tuple[Decision, ...],
    resolutions: Sequence[Mapping[Decision, bool]],
    resolution: Resolution,
) -> EditionChoice:
    values = resolution.values
    mine = next((c for c in resolution.cores if set(c.decisions) & set(core)), None)
    if any(d not in values for d in core):
        why = "its legality rules give other orders"
        return EditionChoice(None, NoCore.DIFFERENT_ORDERS, why)
    picked = {d: values[d] for d in core}
    index = next((i for i, r in enumerate(resolutions) if r == picked), None)
    if mine is None:
        return EditionChoice(index, NoCore.NO_CYCLE, "its convoy-cut rule breaks the cycle")
    if mine.unresolved:
        return EditionChoice(None, mine.rule, _WHY[mine.rule])
    return EditionChoice(index, mine.rule, _WHY[mine.rule])


def report_json(reports: list[CoreReport]) -> dict[str, Any]:
    """The cores as `dipsat explore --json` prints them."""
    return {
        "cores": [
            {
                "orders": list(r.orders),
                "decisions": list(r.labels),
                "solutions": r.solutions,
                "capped": r.capped,
                "kind": r.kind,
                "differing": [r.labels[r.decisions.index(d)] for d in r.differing],
                "resolutions": [
                    {r.labels[i]: res[d] for i, d in enumerate(r.decisions)}
                    for res in r.resolutions
                ],
                "editions": {
                    name: {"picks": c.picks, "rule": c.rule, "why": c.why}
                    for name, c in r.editions.items()
                },
            }
            for r in reports
        ]
    }


def explore_case(case: Case, rules: RuleBook) -> list[tuple[str, list[CoreReport]]]:
    """Explore every movement phase of a case (every step of a multiverse case)."""
    found = []
    game = case.game()
    for number, block in enumerate(case.blocks, start=1):
        done = game.step([o.given for o in block.orders], rules)
        if done.movement is not None:
            moved = done.movement
            reports = explore(moved.position, moved.orders, rules, moved.recorded)
            found.append((done.label(number), reports))
        game = done.after
    return found
