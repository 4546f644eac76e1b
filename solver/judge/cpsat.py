"""The equations as a CP-SAT model, and the solver run deterministically on it.

Only the turns propagation cannot settle alone come here (the cores of paradoxes), so
OR-Tools is imported only when this module is: `solver.judge.fallback` imports it when a
turn first needs it.  Each decision in scope gets a Boolean variable named after its order
(``move[A Munich - Tyrolia]``), every strength is an integer variable pinned by reified
constraints to an expression of those booleans, and each decision is *equivalent* to its
equation, so every integer is fixed by the booleans and counting solutions counts
resolutions.  One worker, a fixed seed, a time limit, and enumeration instead of "the first
solution found".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ortools.sat.python import cp_model
from ortools.sat.python.cp_model_helper import LinearExpr, Literal

from .equations import Case, Equations, Lit, Name, Span, Strength, Unknown, negate
from .solver_settings import SolverConfig, SolverTimeout, current_config
from .structure import Structure


class CpModel(cp_model.CpModel):
    """CP-SAT's model without the camel-case aliases its constructor adds to every instance
    (about 0.5 ms each time; dipsat uses the snake-case API only)."""

    def _add_pre_pep8_methods(self) -> None:
        pass


def _literal(lit: Lit) -> Literal | bool:
    """A literal as CP-SAT takes it (propagation's unknowns never come here)."""
    assert not isinstance(lit, Unknown)
    return lit


def _expression(strength: Strength) -> LinearExpr | int:
    """A strength as CP-SAT takes it (propagation's intervals never come here)."""
    assert not isinstance(strength, Span)
    return strength


class CpSatModel(Equations):
    """A CP-SAT model over some of a turn's decisions, with the dependencies it read."""

    def __init__(self, structure: Structure, fixed: dict[int, bool]) -> None:
        super().__init__(structure, fixed)
        self.model = CpModel()
        self.lits: dict[int, cp_model.IntVar] = {}  # decision -> its Boolean variable

    def lit(self, decision: int) -> Lit:
        if self._reads is not None:
            self._reads.add(decision)
        constant = self.constant(decision)
        if constant is not None:
            return constant
        var = self.lits.get(decision)
        if var is None:
            var = self.lits[decision] = self.model.new_bool_var(self.structure.label(decision))
        return var

    def equivalent(self, target: Lit, conjunction: Sequence[Lit]) -> None:
        terms = [_literal(c) for c in conjunction if c is not True]
        if any(c is False for c in terms):
            self.model.add_bool_and([_literal(negate(target))])
        elif not terms:
            self.model.add_bool_and([_literal(target)])
        else:
            self.model.add_bool_and(terms).only_enforce_if(_literal(target))
            self.model.add_bool_or([_literal(negate(t)) for t in terms] + [_literal(target)])

    def any_of(self, lits: Sequence[Lit], name: Name) -> Lit:
        lits = [x for x in lits if x is not False]
        if any(x is True for x in lits):
            return True
        if len(lits) <= 1:
            if not lits:
                return False
            return lits[0]
        var = self.model.new_bool_var(name())
        self.equivalent(~var, [negate(x) for x in lits])
        return var

    def all_of(self, lits: Sequence[Lit], name: Name) -> Lit:
        terms = [x for x in lits if x is not True]
        if any(x is False for x in terms):
            return False
        if len(terms) < 2:
            if not terms:
                return True
            return terms[0]
        var = self.model.new_bool_var(name())
        self.equivalent(var, terms)
        return var

    def switch(self, name: Name, upper: int, cases: Sequence[Case]) -> Strength:
        live = [
            (tuple(x for x in lits if x is not True), value)
            for lits, value in cases
            if not any(x is False for x in lits)
        ]
        if len(live) == 1 and isinstance(live[0][1], int):
            return live[0][1]
        var = self.model.new_int_var(0, upper, name())
        for lits, value in live:
            constraint = self.model.add(var == _expression(value))
            if lits:
                constraint.only_enforce_if([_literal(x) for x in lits])
        return var

    def total(self, lits: Iterable[Lit]) -> Strength:
        lits = list(lits)
        constant = sum(1 for x in lits if x is True)
        variables = [_literal(x) for x in lits if not isinstance(x, bool)]
        if not variables:
            return constant
        total = variables[0] if len(variables) == 1 else cp_model.LinearExpr.sum(variables)
        return total + constant if constant else total

    def beats(self, a: Strength, b: Strength, name: Name) -> Lit:
        if isinstance(a, int) and isinstance(b, int):
            return a > b
        var = self.model.new_bool_var(name())
        left, right = _expression(a), _expression(b)
        self.model.add(left > right).only_enforce_if(var)
        self.model.add(left <= right).only_enforce_if(~var)
        return var


def build(
    structure: Structure,
    fixed: Mapping[int, bool] | None = None,
    include: Iterable[int] | None = None,
) -> CpSatModel:
    """The model of the decisions in `include` (all by default); others are read as fixed."""
    model = CpSatModel(structure, dict(fixed or {}))
    for decision in include if include is not None else structure.decisions:
        model.define(decision)
    return model


def _solver(config: SolverConfig, enumerate_all: bool) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = 1
    params.random_seed = config.random_seed
    params.max_time_in_seconds = config.max_time_in_seconds
    params.enumerate_all_solutions = enumerate_all
    # Turn-shaped models are decided by propagation: skip what costs more than it saves
    # (and presolve could merge distinct solutions when enumerating).
    params.cp_model_presolve = False
    params.symmetry_level = 0
    params.linearization_level = 0
    params.use_sat_inprocessing = False
    params.cp_model_probing_level = 0
    return solver


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, lits: Sequence[tuple[int, cp_model.IntVar]], limit: int) -> None:
        super().__init__()
        self._lits = lits
        self._limit = limit
        self.found: list[dict[int, bool]] = []

    def on_solution_callback(self) -> None:
        self.found.append({d: bool(self.value(v)) for d, v in self._lits})
        if len(self.found) >= self._limit:
            self.stop_search()


def solutions(
    model: CpSatModel, limit: int, config: SolverConfig | None = None
) -> list[dict[int, bool]]:
    """Up to `limit` distinct assignments of the model's decisions, in a canonical order."""
    config = config or current_config()
    lits = sorted(model.lits.items())
    collector = _Collector(lits, limit)
    status = _solver(config, True).solve(model.model, collector)
    if status == cp_model.UNKNOWN or (
        status == cp_model.FEASIBLE and len(collector.found) < limit and not collector.found
    ):
        raise SolverTimeout(config.out_of_time())
    unique = {tuple(sorted(s.items())): s for s in collector.found}
    return [unique[k] for k in sorted(unique)]


def solve_one(model: CpSatModel, config: SolverConfig | None = None) -> dict[int, bool] | None:
    """One solution of a model known to have at most one, or None if it has none."""
    config = config or current_config()
    solver = _solver(config, False)
    status = solver.solve(model.model)
    if status == cp_model.UNKNOWN:
        raise SolverTimeout(config.out_of_time())
    if status == cp_model.INFEASIBLE:
        return None
    return {d: bool(solver.value(v)) for d, v in sorted(model.lits.items())}
