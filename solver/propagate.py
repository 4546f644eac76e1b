"""Propagation: the equations of `solver.model` read with known values instead of a solver.

The same equation code runs with three-valued literals (True, False, unknown) and strengths
as integer intervals, the way a hand-written adjudicator reasons with minimum and maximum
strengths.  A decision becomes known only when its equation evaluates to a constant from
values that are already known, so whatever propagation finds holds in every solution.  When
it settles every decision the turn has exactly one resolution and no solver is needed; when
it does not, the caller hands the turn to CP-SAT and the fallback layer unchanged.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .model import Decision, Structure, TurnModel


@dataclass(frozen=True, slots=True)
class Unknown:
    """A literal whose value is not known yet: a decision's (with its polarity) or not."""

    decision: Decision | None = None
    positive: bool = True

    def __invert__(self) -> Unknown:
        return Unknown(self.decision, not self.positive)

    def __rsub__(self, other: int) -> Span:  # HOLD of a unit that may leave: 1 - move
        return Span(other - 1, other)


@dataclass(frozen=True, slots=True)
class Span:
    """An integer known to lie in [low, high]."""

    low: int
    high: int

    def __add__(self, other: int | Span) -> Span:
        if isinstance(other, Span):
            return Span(self.low + other.low, self.high + other.high)
        return Span(self.low + other, self.high + other)

    __radd__ = __add__


_UNKNOWN = Unknown()


def _bounds(x: int | Span) -> tuple[int, int]:
    return (x.low, x.high) if isinstance(x, Span) else (x, x)


class Propagation(TurnModel):
    """A turn model whose constraint shapes evaluate instead of posting constraints."""

    def lit(self, decision: Decision):
        if self._current is not None:
            self.depends[self._current].add(decision)
        value = self.constant(decision)
        return Unknown(decision) if value is None else value

    def equivalent(self, target, conjunction) -> None:
        value = self.all_of(conjunction, "")
        if isinstance(value, bool) and isinstance(target, Unknown):
            self.found[target.decision] = value if target.positive else not value

    def all_of(self, lits, name: str):
        if any(x is False for x in lits):
            return False
        return True if all(x is True for x in lits) else _UNKNOWN

    def any_of(self, lits, name: str):
        if any(x is True for x in lits):
            return True
        return False if all(x is False for x in lits) else _UNKNOWN

    def switch(self, name: str, upper: int, cases):
        live = [(lits, value) for lits, value in cases if not any(x is False for x in lits)]
        for lits, value in live:
            if all(x is True for x in lits):
                return value
        lows, highs = zip(*(_bounds(value) for _, value in live), strict=True)
        return Span(min(lows), max(highs))

    def total(self, lits: Iterable):
        lits = list(lits)
        constant = sum(1 for x in lits if x is True)
        unknown = sum(1 for x in lits if not isinstance(x, bool))
        return Span(constant, constant + unknown) if unknown else constant

    def beats(self, a, b, name: str):
        (a_low, a_high), (b_low, b_high) = _bounds(a), _bounds(b)
        if a_low > b_high:
            return True
        return False if a_high <= b_low else _UNKNOWN

    def evaluate(self, decision: Decision) -> bool | None:
        """The value the decision's equation gives from what is known (None: not yet)."""
        self.found: dict[Decision, bool] = {}
        self.depends[decision] = set()
        self.define(decision)
        return self.found.get(decision)


def propagate(
    structure: Structure, fixed: Mapping[Decision, bool]
) -> tuple[dict[Decision, bool], dict[Decision, set[Decision]]]:
    """The values propagation forces, and each decision's reads as `build` records them."""
    order = [d for d in structure.decisions() if d not in fixed]
    first = Propagation(structure, dict(fixed), model=None)
    found = {d: first.evaluate(d) for d in order}
    depends = {d: first.depends.get(d, set()) for d in structure.decisions()}
    readers: dict[Decision, list[Decision]] = defaultdict(list)
    for d in order:
        for read in depends[d]:
            readers[read].append(d)
    known = {d: v for d, v in found.items() if v is not None}
    state = Propagation(structure, {**fixed, **known}, model=None)
    queue = [r for d in known for r in readers[d] if r not in state.fixed]
    while queue:
        d = queue.pop()
        if d in state.fixed:
            continue
        value = state.evaluate(d)
        if value is not None:
            state.fixed[d] = known[d] = value
            queue += [r for r in readers[d] if r not in state.fixed]
    return known, depends
