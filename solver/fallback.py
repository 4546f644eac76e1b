"""The fallback rule layer: cores of the dependency graph and the backup rule (DATC 5.B).

Decisions that do not lie on a cycle have exactly one value.  Each strongly connected core is
examined in dependency order, with everything upstream already settled: if its equations have
exactly one solution it is taken; with none or several the backup rule applies to that core
only — a core with a convoy is a convoy paradox and its convoys fail (Szykman), any other
core is circular movement and its moves succeed (or, if that is inconsistent, its moves and
supports fail, the variant rule).  The paradox policy lives here, never in the equations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import networkx as nx

from .model import Decision, Structure, TurnModel, build
from .rules import ConvoyParadox
from .solve import SolverConfig, solutions, solve_one


@dataclass(frozen=True, slots=True)
class Core:
    """A dependency cycle and how it was settled."""

    decisions: tuple[Decision, ...]
    solutions: int  # consistent resolutions of the core itself: 0, 1 or 2 (= two or more)
    rule: str  # "unique", "szykman", "circular movement", "all fail"
    labels: tuple[str, ...] = ()

    @property
    def is_paradox(self) -> bool:
        return self.rule != "unique"

    @property
    def unresolved(self) -> bool:
        return self.rule == "unresolved"


@dataclass(frozen=True, slots=True)
class Settlement:
    """The value of every decision, and the cores met on the way."""

    values: dict[Decision, bool]
    cores: tuple[Core, ...]
    forced: dict[Decision, bool]  # decisions set by the backup rule, not by their equation
    recorded: dict[Decision, bool] = field(default_factory=dict)  # kept from history


def dependency_graph(turn_model: TurnModel) -> nx.DiGraph:
    graph = nx.DiGraph()
    for decision, reads in turn_model.depends.items():
        graph.add_node(decision)
        graph.add_edges_from((decision, r) for r in reads if r in turn_model.depends)
    return graph


def _cores_upstream_first(graph: nx.DiGraph) -> list[tuple[Decision, ...]]:
    condensed = nx.condensation(graph)
    order = list(
        reversed(
            list(
                nx.lexicographical_topological_sort(
                    condensed, key=lambda n: min(condensed.nodes[n]["members"])
                )
            )
        )
    )
    cores = []
    for node in order:
        members = condensed.nodes[node]["members"]
        first = next(iter(members))
        if len(members) > 1 or graph.has_edge(first, first):
            cores.append(tuple(sorted(members)))
    return cores


def settle(
    structure: Structure,
    config: SolverConfig | None = None,
    recorded: Mapping[Decision, bool] | None = None,
) -> Settlement:
    """Resolve a turn: every core settled by its unique solution or by the backup rule.

    `recorded` decisions (of past boards a multiverse step does not re-adjudicate) keep
    their values and are not subject to their equations."""
    config = config or SolverConfig()
    known = set(structure.decisions())
    history = {d: v for d, v in (recorded or {}).items() if d in known}
    fixed: dict[Decision, bool] = dict(history)
    forced: dict[Decision, bool] = {}
    cores: list[Core] = []
    while True:
        full = build(structure, fixed)
        graph = dependency_graph(full)
        pending = [c for c in _cores_upstream_first(graph) if not set(c) <= fixed.keys()]
        if not pending:
            values = solve_one(full, config)
            if values is None:  # cannot happen: an acyclic system always has a solution
                raise AssertionError("acyclic turn model without a solution")
            values.update(fixed)
            return Settlement(values, tuple(cores), forced, history)
        core = pending[0]
        scope = set(core) | nx.descendants(graph, core[0])
        scope -= fixed.keys()
        found = solutions(build(structure, fixed, sorted(scope)), limit=2, config=config)
        labels = tuple(structure.label(d) for d in core)
        if len(found) == 1:
            fixed.update({d: found[0][d] for d in core})
            cores.append(Core(core, 1, "unique", labels))
            continue
        convoys = [d for d in core if d[0] == "convoy"]
        policy = structure.rules.convoy_paradox
        if convoys and policy is ConvoyParadox.DPTG:
            many = solutions(build(structure, fixed, sorted(scope)), limit=64, config=config)
            disrupting = [s for s in many if not any(s[c] for c in convoys)]
            if len(disrupting) == 1:  # the resolution in which all its convoys fail
                fixed.update({d: disrupting[0][d] for d in core})
                cores.append(Core(core, len(found), "dptg", labels))
                continue
            rule = {d: False for d in core if d[0] == "move"}
            cores.append(Core(core, len(found), "all hold", labels))
        elif convoys and policy is ConvoyParadox.SZYKMAN:
            rule = {d: False for d in convoys}
            cores.append(Core(core, len(found), "szykman", labels))
        elif convoys:
            # all hold, or no answer: the moves of the paradox fail; with no answer the
            # orders of the core are reported as unresolved
            rule = {d: False for d in core if d[0] == "move"}
            name = "all hold" if policy is ConvoyParadox.ALL_HOLD else "unresolved"
            cores.append(Core(core, len(found), name, labels))
        else:
            moves = [d for d in core if d[0] == "move"]
            rule = {d: True for d in moves}
            trial = build(structure, {**fixed, **rule}, sorted(scope - rule.keys()))
            if solutions(trial, limit=1, config=config):
                cores.append(Core(core, len(found), "circular movement", labels))
            else:
                rule = {d: False for d in core if d[0] in ("move", "support")}
                cores.append(Core(core, len(found), "all fail", labels))
        fixed.update(rule)
        forced.update(rule)
