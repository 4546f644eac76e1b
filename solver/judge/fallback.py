"""The fallback rule layer: cores of the dependency graph and the backup rule (DATC 5.B).

Decisions that do not lie on a cycle have exactly one value.  Each strongly connected core is
examined in dependency order, with everything upstream already settled: if its equations have
exactly one solution it is taken; with none or several the backup rule applies to that core
only — a core with a convoy is a convoy paradox and its convoys fail (Szykman), any other
core is circular movement and its moves succeed (or, if that is inconsistent, its moves and
supports fail, the variant rule).  The paradox policy lives here, never in the equations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..values.outcomes import BackupRule
from ..values.rules import ConvoyParadox
from .cores import cores_in_order, downstream, is_cyclic, reads_of, sub_cores
from .propagate import propagate
from .solver_settings import SolverConfig, current_config
from .structure import R_CONVOY, R_MOVE, R_SUPPORT, Structure

if TYPE_CHECKING:
    from .cpsat import CpSatModel


@dataclass(frozen=True, slots=True)
class CoreFound:
    """A dependency cycle of a turn's decisions, and how it was settled."""

    decisions: tuple[int, ...]
    solutions: int  # consistent resolutions of the core itself: 0, 1 or 2 (= two or more)
    rule: BackupRule


@dataclass(frozen=True, slots=True)
class Settlement:
    """The value of every decision, and the cores met on the way (by decision number)."""

    values: dict[int, bool]  # those settled now in order, then those kept from history
    cores: tuple[CoreFound, ...]
    forced: dict[int, bool]  # decisions set by the backup rule, not by their equation
    recorded: dict[int, bool]  # kept from history


def settle(
    structure: Structure,
    config: SolverConfig | None = None,
    recorded: Mapping[int, bool] | None = None,
    decisions: Sequence[int] | None = None,
) -> Settlement:
    """Resolve a turn: every core settled by its unique solution or by the backup rule.

    `recorded` decisions (of past boards a multiverse step does not re-adjudicate) keep
    their values and are not subject to their equations.  `decisions`: those to settle,
    when they are a group no other decision reads or is read by (all by default)."""
    config = config or current_config()
    order = structure.decisions if decisions is None else decisions
    history = dict(recorded or {})
    fixed: dict[int, bool] = dict(history)
    forced: dict[int, bool] = {}
    cores: list[CoreFound] = []
    trusted: dict[int, bool] = {}
    if config.propagate:
        known, depends = propagate(structure, fixed, order)
        trusted = _upstream_known(known, depends, fixed)
    else:
        depends = _model(structure, fixed, order).depends
    fixed.update(trusted)
    # most turns have no cycle: no cores to look for; most cycles propagation settles
    reads = reads_of(depends) if is_cyclic(depends) else None
    pending = cores_in_order(reads) if reads is not None else []
    while pending:
        assert reads is not None  # the cores come from them
        core = tuple(d for d in pending.pop(0) if d not in fixed or d in trusted)
        if not core:
            continue
        if all(d in trusted for d in core):  # settled by propagation: its only resolution
            cores.append(CoreFound(core, 1, BackupRule.UNIQUE))
            continue
        from .cpsat import solutions

        scope = (set(core) | downstream(reads, core[0])) - fixed.keys()
        found = solutions(_model(structure, fixed, sorted(scope)), limit=2, config=config)
        if len(found) == 1:
            fixed.update({d: found[0][d] for d in core})
            cores.append(CoreFound(core, 1, BackupRule.UNIQUE))
            continue
        rule, name = _backup(structure, core, scope, fixed, config)
        cores.append(CoreFound(core, len(found), name))
        fixed.update(rule)
        if name.overrules:  # the DPTG picks a consistent resolution; the others overrule
            forced.update(rule)
        # What is left of the core may still hold cycles of its own: examine them first,
        # reading them in decision order (never in set order).
        pending = sub_cores([d for d in core if d not in fixed], reads, order) + pending
    # What is left is acyclic given the settled cores: propagation settles it, or one solve.
    settled = all(d in fixed for d in order)
    rest, _ = propagate(structure, fixed, order) if config.propagate and not settled else ({}, {})
    values = {**fixed, **rest}
    if any(d not in values for d in order):
        from .cpsat import solve_one

        solved = solve_one(_model(structure, fixed, order), config)
        if solved is None:  # cannot happen: an acyclic model has a solution
            raise AssertionError("acyclic turn model without a solution")
        values.update(solved)
    ordered = {d: values[d] for d in sorted(values) if d not in history}
    return Settlement({**ordered, **history}, tuple(cores), forced, history)


def _model(structure: Structure, fixed: Mapping[int, bool], include: Sequence[int]) -> CpSatModel:
    """The CP-SAT model of some decisions (OR-Tools is imported here, when first needed)."""
    from .cpsat import build

    return build(structure, fixed, include)


def _upstream_known(
    known: Mapping[int, bool],
    depends: Mapping[int, set[int]],
    fixed: Mapping[int, bool],
) -> dict[int, bool]:
    """The propagated values that read, however indirectly, only known decisions: those are
    right whatever the paradox rules later decide (a value propagated from inside a core
    without exactly one resolution is not)."""
    doubtful = [d for d in depends if d not in known and d not in fixed]
    if not doubtful:  # propagation settled the turn
        return dict(known)
    readers: dict[int, list[int]] = {}
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
    core: tuple[int, ...],
    scope: set[int],
    fixed: Mapping[int, bool],
    config: SolverConfig,
) -> tuple[dict[int, bool], BackupRule]:
    """The backup rule for a core without exactly one resolution: the values it sets, and
    which rule it is."""
    from .cpsat import solutions

    count = structure.count
    convoys = [d for d in core if d // count == R_CONVOY]
    moves = [d for d in core if d // count == R_MOVE]
    policy = structure.rules.convoy_paradox
    if convoys and policy is ConvoyParadox.DPTG:
        many = solutions(_model(structure, fixed, sorted(scope)), limit=64, config=config)
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
    trial = _model(structure, {**fixed, **succeed}, sorted(scope - succeed.keys()))
    if solutions(trial, limit=1, config=config):
        return succeed, BackupRule.CIRCULAR_MOVEMENT
    return {d: False for d in core if d // count in (R_MOVE, R_SUPPORT)}, BackupRule.ALL_FAIL
