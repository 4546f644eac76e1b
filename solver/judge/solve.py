"""Running CP-SAT deterministically: one worker, a fixed seed, a time limit."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace

from ortools.sat.python import cp_model

from ..errors import DipsatError, shown
from ..errors import SolverTimeout as SolverTimeout  # defined with the other errors
from ..values.decisions import Decision
from .model import TurnModel


@dataclass(frozen=True, slots=True)
class SolverConfig:
    max_time_in_seconds: float = 10.0
    random_seed: int = 0
    propagate: bool = True  # settle what propagation can without the solver (same answers)

    def out_of_time(self) -> str:
        return (
            f"the solver reached its time limit ({self.max_time_in_seconds:g} s) "
            "before settling the turn"
        )

    def solver(self, enumerate_all: bool) -> cp_model.CpSolver:
        solver = cp_model.CpSolver()
        params = solver.parameters
        params.num_workers = 1
        params.random_seed = self.random_seed
        params.max_time_in_seconds = self.max_time_in_seconds
        params.enumerate_all_solutions = enumerate_all
        # Turn-shaped models are decided by propagation: skip what costs more than it saves
        # (and presolve could merge distinct solutions when enumerating).
        params.cp_model_presolve = False
        params.symmetry_level = 0
        params.linearization_level = 0
        params.use_sat_inprocessing = False
        params.cp_model_probing_level = 0
        return solver


_CONFIG: ContextVar[SolverConfig] = ContextVar(
    "solver_config",
    default=SolverConfig(),  # noqa: B039 (frozen, never changed in place)
)


def current_config() -> SolverConfig:
    """The solver settings of the code running now: the defaults, or those a `time_limit`
    block set."""
    return _CONFIG.get()


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Within the block, each call of the solver may take at most `seconds` (10 by
    default); running out raises `SolverTimeout`, never a guessed answer.  Turns that
    propagation settles never call the solver.

    Raises:
        TypeError: `seconds` is not a number.
        DipsatError: `seconds` is not a finite number above 0 (nor is an integer too
            large for a float).
    """
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        kind = type(seconds).__name__
        raise TypeError(f"seconds: expected a number, found {kind} {shown(seconds, 40)}")
    try:
        limit = float(seconds)
    except OverflowError:  # an integer past every float: no finite number of seconds
        limit = math.inf
    if not (math.isfinite(limit) and limit > 0):
        raise DipsatError(
            f"time limit: expected a finite number of seconds above 0, found {shown(seconds, 40)}"
        )
    token = _CONFIG.set(replace(_CONFIG.get(), max_time_in_seconds=limit))
    try:
        yield
    finally:
        _CONFIG.reset(token)


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, lits: Sequence[tuple[Decision, cp_model.IntVar]], limit: int) -> None:
        super().__init__()
        self._lits = lits
        self._limit = limit
        self.found: list[dict[Decision, bool]] = []

    def on_solution_callback(self) -> None:
        self.found.append({d: bool(self.value(v)) for d, v in self._lits})
        if len(self.found) >= self._limit:
            self.stop_search()


def solutions(
    turn_model: TurnModel, limit: int, config: SolverConfig | None = None
) -> list[dict[Decision, bool]]:
    """Up to `limit` distinct assignments of the model's decisions, in a canonical order."""
    config = config or current_config()
    lits = sorted(turn_model.lits.items())
    collector = _Collector(lits, limit)
    status = config.solver(True).solve(turn_model.model, collector)
    if status == cp_model.UNKNOWN or (
        status == cp_model.FEASIBLE and len(collector.found) < limit and not collector.found
    ):
        raise SolverTimeout(config.out_of_time())
    unique = {tuple(sorted(s.items())): s for s in collector.found}
    return [unique[k] for k in sorted(unique)]


def solve_one(
    turn_model: TurnModel, config: SolverConfig | None = None
) -> dict[Decision, bool] | None:
    """One solution of a model known to have at most one, or None if it has none."""
    config = config or current_config()
    solver = config.solver(False)
    status = solver.solve(turn_model.model)
    if status == cp_model.UNKNOWN:
        raise SolverTimeout(config.out_of_time())
    if status == cp_model.INFEASIBLE:
        return None
    return {d: bool(solver.value(v)) for d, v in sorted(turn_model.lits.items())}
