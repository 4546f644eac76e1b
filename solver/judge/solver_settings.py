"""The solver's settings: a time limit, a seed, and whether propagation runs first (the
solver itself, `solver.judge.cpsat`, is imported only by a turn that needs it)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace

from topology.files import shown

from ..errors import DipsatError
from ..errors import SolverTimeout as SolverTimeout  # defined with the other errors


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
