"""Propagation: the equations of `solver.judge.model` read with known values instead of a solver.

The same equation code runs with three-valued literals (True, False, unknown) and strengths
as integer intervals, the way a hand-written adjudicator reasons with minimum and maximum
strengths.  A decision becomes known only when its equation evaluates to a constant from
values that are already known, so whatever propagation finds holds in every solution.  When
it settles every decision the turn has exactly one resolution and no solver is needed; when
it does not, the caller hands the turn to CP-SAT and the fallback layer unchanged.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from ..values.decisions import CONVOY, SEA, Decision
from .model import EQUATIONS, Lit, Name, Strength, Structure, TurnModel


class Unknown:
    """A literal whose value is not known yet: a decision's (with its polarity) or not.

    A plain slotted class rather than a frozen dataclass, and nothing compares them: a
    propagation keeps one per decision and reads it for nearly every literal, and a positive
    one keeps its negation once made (not the other way round: a cycle of references would
    leave both to the garbage collector)."""

    __slots__ = ("decision", "negation", "positive")

    def __init__(self, decision: Decision | None = None, positive: bool = True) -> None:
        self.decision = decision
        self.positive = positive
        self.negation: Unknown | None = None

    def __invert__(self) -> Unknown:
        if not self.positive:
            return Unknown(self.decision)
        negation = self.negation
        if negation is None:
            negation = self.negation = Unknown(self.decision, False)
        return negation

    def __rsub__(self, other: int) -> Span:  # HOLD of a unit that may leave: 1 - move
        return Span(other - 1, other)


class Span:
    """An integer known to lie in [low, high]."""

    __slots__ = ("high", "low")

    def __init__(self, low: int, high: int) -> None:
        self.low = low
        self.high = high

    def __add__(self, other: int | Span) -> Span:
        if isinstance(other, Span):
            return Span(self.low + other.low, self.high + other.high)
        return Span(self.low + other, self.high + other)

    def __radd__(self, other: int) -> Span:
        return Span(self.low + other, self.high + other)

    def __repr__(self) -> str:
        return f"Span({self.low}, {self.high})"


_UNKNOWN = Unknown()


def _unnamed() -> str:
    raise AssertionError("propagation makes no variable")


class Propagation(TurnModel):
    """A turn model whose constraint shapes evaluate instead of posting constraints.

    The shapes are written as plain loops: they run for nearly every literal of the turn, on
    lists of one to four items, where generator expressions cost more than the work.

    `record`: whether `evaluate` records what each equation reads (the first pass does; what
    follows only needs the values)."""

    def __init__(
        self, structure: Structure, fixed: dict[Decision, bool], record: bool = True
    ) -> None:
        super().__init__(structure, fixed, model=None)
        self.record = record
        # what `lit` reads: the fixed decisions and the trivially known ones, in one table
        self.values: dict[Decision, bool] = {**structure.trivial, **fixed}
        self.found: dict[Decision, bool] = {}
        self.unknown: dict[Decision, Unknown] = {}  # each decision's literal, made once

    def lit(self, decision: Decision) -> Lit:
        if self._reads is not None:
            self._reads.add(decision)
        value = self.values.get(decision)  # `constant`, inlined: this is the hottest call
        if value is None:
            unknown = self.unknown.get(decision)
            if unknown is None:
                unknown = self.unknown[decision] = Unknown(decision)
            return unknown
        return value

    def learn(self, decision: Decision, value: bool) -> None:
        """Fix a decision to the value propagation found for it."""
        self.fixed[decision] = self.values[decision] = value

    def equivalent(self, target: Lit, conjunction: Sequence[Lit]) -> None:
        value = self.all_of(conjunction, _unnamed)
        if value is not _UNKNOWN and isinstance(target, Unknown):
            assert target.decision is not None  # a decision's own literal
            self.found[target.decision] = value if target.positive else not value

    def all_of(self, lits: Sequence[Lit], name: Name) -> Lit:
        value: Lit = True
        for x in lits:
            if x is False:
                return False
            if x is not True:
                value = _UNKNOWN
        return value

    def any_of(self, lits: Sequence[Lit], name: Name) -> Lit:
        value: Lit = False
        for x in lits:
            if x is True:
                return True
            if x is not False:
                value = _UNKNOWN
        return value

    def switch(
        self, name: Name, upper: int, cases: Sequence[tuple[tuple[Lit, ...], Strength]]
    ) -> Strength:
        low: int | None = None
        high: int | None = None
        for lits, value in cases:
            holds = True
            for x in lits:
                if x is False:
                    break  # the case is ruled out
                if x is not True:
                    holds = False
            else:
                if holds:  # the cases are exclusive: this is the value
                    return value
                v_low, v_high = (value.low, value.high) if isinstance(value, Span) else (value,) * 2
                low = v_low if low is None else min(low, v_low)
                high = v_high if high is None else max(high, v_high)
        assert low is not None and high is not None  # the cases are exhaustive
        return Span(low, high)

    def total(self, lits: Iterable[Lit]) -> Strength:
        constant = unknown = 0
        for x in lits:
            if x is True:
                constant += 1
            elif x is not False:
                unknown += 1
        return Span(constant, constant + unknown) if unknown else constant

    def beats(self, a: Strength, b: Strength, name: Name) -> Lit:
        a_low, a_high = (a.low, a.high) if isinstance(a, Span) else (a, a)
        b_low, b_high = (b.low, b.high) if isinstance(b, Span) else (b, b)
        if a_low > b_high:
            return True
        return False if a_high <= b_low else _UNKNOWN

    def evaluate(self, decision: Decision) -> bool | None:
        """The value the decision's equation gives from what is known (None: not yet).
        `define`, for a decision that is not fixed, its reads recorded only if asked."""
        target = self.lit(decision)
        if self.record:
            self._reads = self.depends[decision] = set()
        kind, province = decision
        EQUATIONS[kind](self, province, target)
        self._reads = None
        return self.found.pop(decision, None)


def propagate(
    structure: Structure, fixed: Mapping[Decision, bool]
) -> tuple[dict[Decision, bool], dict[Decision, set[Decision]]]:
    """The values propagation forces, and each decision's reads as `build` records them.

    The first pass evaluates every decision once, recording its reads, and puts what it
    finds to use at once, except the values of the kinds in `_WITHHELD`: the equations read
    differently only when those are known, so the reads are the ones `build` records with
    just `fixed` known.  Then each decision that read a value found after it was evaluated
    is evaluated again, until nothing more is found."""
    state = Propagation(structure, dict(fixed))
    readers: dict[Decision, list[Decision]] = defaultdict(list)
    known: dict[Decision, bool] = {}
    withheld: list[Decision] = []
    queue: list[Decision] = []
    for d in structure.decisions():
        if d in fixed:
            continue
        value = state.evaluate(d)
        for read in state.depends[d]:
            readers[read].append(d)
        if value is not None:
            known[d] = value
            if d[0] in _WITHHELD:
                withheld.append(d)
            else:
                state.learn(d, value)
                queue += readers[d]  # those evaluated before it was known
    depends = {d: state.depends.get(d, set()) for d in structure.decisions()}
    state.record = False  # from here on, each decision evaluated again with what is known
    for d in withheld:
        state.learn(d, known[d])
        queue += readers[d]
    fixed_now = state.fixed
    while queue:
        d = queue.pop()
        if d in fixed_now:
            continue
        value = state.evaluate(d)
        if value is not None:
            state.learn(d, value)
            known[d] = value
            queue += [r for r in readers[d] if r not in fixed_now]
    return known, depends


_WITHHELD = frozenset((SEA, CONVOY))
"""The kinds of decision whose values change what the equations read (whether a route's
convoys all work; whether a 1971 army goes by sea): everything else reads the same
decisions whatever is known."""
