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

from ..values.decisions import CONVOY, MOVE, SUPPORT, Decision
from ..values.outcomes import BackupRule
from ..values.resolution import Core
from ..values.rules import ConvoyParadox
from .cores import cores_in_order, downstream, is_cyclic, reads_of
from .model import Structure, TurnModel, build
from .propagate import propagate
from .solve import SolverConfig, current_config, solutions, solve_one


@dataclass(frozen=True, slots=True)
class Settlement:
    """The value of every decision, and the cores met on the way."""

    values: dict[Decision, bool]
    cores: tuple[Core, ...]
    forced: dict[Decision, bool]  # decisions set by the backup rule, not by their equation
    recorded: dict[Decision, bool] = field(default_factory=dict)  # kept from history


def dependency_graph(turn_model: TurnModel) -> nx.DiGraph:
    """Each decision with an edge to every decision its equation reads."""
    return _graph(turn_model.depends)


def _graph(depends: Mapping[Decision, set[Decision]]) -> nx.DiGraph:
    return nx.DiGraph(reads_of(depends))


def cores_upstream_first(graph: nx.DiGraph) -> list[tuple[Decision, ...]]:
    """The cycles of a dependency graph (its strongly connected parts with a cycle), each
    before those that read it; none for an acyclic graph (`cores.cores_in_order`, reading
    the graph's nodes and edges in the order it gives them)."""
    return cores_in_order({d: list(graph.successors(d)) for d in graph})


def settle(
    structure: Structure,
    config: SolverConfig | None = None,
    recorded: Mapping[Decision, bool] | None = None,
) -> Settlement:
    """Resolve a turn: every core settled by its unique solution or by the backup rule.

    `recorded` decisions (of past boards a multiverse step does not re-adjudicate) keep
    their values and are not subject to their equations."""
    config = config or current_config()
    decisions = structure.decisions()
    in_turn = set(decisions)
    history = {d: v for d, v in (recorded or {}).items() if d in in_turn}
    fixed: dict[Decision, bool] = dict(history)
    forced: dict[Decision, bool] = {}
    cores: list[Core] = []
    trusted: dict[Decision, bool] = {}
    if config.propagate:
        known, depends = propagate(structure, fixed)
        trusted = _upstream_known(known, depends, fixed)
    else:
        depends = build(structure, fixed).depends
    fixed.update(trusted)
    # most turns have no cycle: no cores to look for; most cycles propagation settles
    reads = reads_of(depends) if is_cyclic(depends) else None
    pending = cores_in_order(reads) if reads is not None else []
    graph: nx.DiGraph | None = None  # what is left of a core after its backup rule
    while pending:
        assert reads is not None  # the cores come from them
        core = tuple(d for d in pending.pop(0) if d not in fixed or d in trusted)
        if not core:
            continue
        labels = tuple(structure.label(d) for d in core)
        if all(d in trusted for d in core):  # settled by propagation: its only resolution
            cores.append(Core(core, 1, BackupRule.UNIQUE, labels))
            continue
        scope = (set(core) | downstream(reads, core[0])) - fixed.keys()
        found = solutions(build(structure, fixed, sorted(scope)), limit=2, config=config)
        if len(found) == 1:
            fixed.update({d: found[0][d] for d in core})
            cores.append(Core(core, 1, BackupRule.UNIQUE, labels))
            continue
        rule, name = _backup(structure, core, scope, fixed, config)
        cores.append(Core(core, len(found), name, labels))
        fixed.update(rule)
        if name.overrules:  # the DPTG picks a consistent resolution; the others overrule
            forced.update(rule)
        # What is left of the core may still hold cycles of its own: examine them first.
        left = [d for d in core if d not in fixed]
        graph = graph if graph is not None else nx.DiGraph(reads)
        pending = cores_upstream_first(graph.subgraph(left)) + pending
    # What is left is acyclic given the settled cores: propagation settles it, or one solve.
    settled = len(fixed) == len(decisions)
    rest, _ = propagate(structure, fixed) if config.propagate and not settled else ({}, {})
    values = {**fixed, **rest}
    if len(values) < len(decisions):
        solved = solve_one(build(structure, fixed), config)
        if solved is None:  # cannot happen: an acyclic model has a solution
            raise AssertionError("acyclic turn model without a solution")
        values.update(solved)
    ordered = {d: values[d] for d in sorted(values) if d not in history}
    return Settlement({**ordered, **history}, tuple(cores), forced, history)


def _upstream_known(
    known: Mapping[Decision, bool],
    depends: Mapping[Decision, set[Decision]],
    fixed: Mapping[Decision, bool],
) -> dict[Decision, bool]:
    """The propagated values that read, however indirectly, only known decisions: those are
    right whatever the paradox rules later decide (a value propagated from inside a core
    without exactly one resolution is not)."""
    doubtful = [d for d in depends if d not in known and d not in fixed]
    if not doubtful:  # propagation settled the turn
        return dict(known)
    readers: dict[Decision, list[Decision]] = {}
    for d, reads in depends.items():
        for r in reads:
            readers.setdefault(r, []).append(d)
    seen = set(doubtful)
    while doubtful:
        for reader in readers.get(doubtful.pop(), ()):
            if reader not in seen:
                seen.add(reader)
                doubtful.append(reader)
    return {d: v for d, v in known.items() if d not in seen}


def _backup(
    structure: Structure,
    core: tuple[Decision, ...],
    scope: set[Decision],
    fixed: Mapping[Decision, bool],
    config: SolverConfig,
) -> tuple[dict[Decision, bool], BackupRule]:
    """The backup rule for a core without exactly one resolution: the values it sets, and
    which rule it is."""
    convoys = [d for d in core if d[0] is CONVOY]
    moves = [d for d in core if d[0] is MOVE]
    policy = structure.rules.convoy_paradox
    if convoys and policy is ConvoyParadox.DPTG:
        many = solutions(build(structure, fixed, sorted(scope)), limit=64, config=config)
        disrupting = [s for s in many if not any(s[c] for c in convoys)]
        if len(disrupting) == 1:  # the resolution in which all its convoys fail
            return {d: disrupting[0][d] for d in core}, BackupRule.DPTG
        return dict.fromkeys(moves, False), BackupRule.ALL_HOLD
    if convoys and policy is ConvoyParadox.SZYKMAN:
        return dict.fromkeys(convoys, False), BackupRule.SZYKMAN
    if convoys:
        # all hold, or no answer: the moves of the paradox fail; with no answer the orders
        # of the core are reported as unresolved
        rule = BackupRule.ALL_HOLD if policy is ConvoyParadox.ALL_HOLD else BackupRule.UNRESOLVED
        return dict.fromkeys(moves, False), rule
    succeed = dict.fromkeys(moves, True)
    trial = build(structure, {**fixed, **succeed}, sorted(scope - succeed.keys()))
    if solutions(trial, limit=1, config=config):
        return succeed, BackupRule.CIRCULAR_MOVEMENT
    return {d: False for d in core if d[0] in (MOVE, SUPPORT)}, BackupRule.ALL_FAIL
