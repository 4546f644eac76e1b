"""Propagation: the equations of `solver.judge.equations` read with known values instead of a
solver.

The same equation code runs with three-valued literals (True, False, `Unknown`) and strengths
as integer intervals (`Span`), the way a hand-written adjudicator reasons with minimum and
maximum strengths.  A decision becomes known only when its equation evaluates to a constant
from values that are already known, so whatever propagation finds holds in every solution.
When it settles every decision the turn has exactly one resolution and no solver is needed;
when it does not, the caller hands the turn to CP-SAT and the fallback layer unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .equations import Case, Equations, Lit, Name, Span, Strength, Unknown
from .structure import R_CONVOY, R_SEA, Structure

_UNKNOWN = Unknown()


class Propagation(Equations):
    """The equations with shapes that evaluate instead of posting constraints.

    The shapes are written as plain loops: they run for nearly every literal of the turn, on
    lists of one to four items, where generator expressions cost more than the work.

    `record`: whether `evaluate` records what each equation reads (the first pass does; what
    follows only needs the values)."""

    def __init__(self, structure: Structure, fixed: dict[int, bool], record: bool = True) -> None:
        super().__init__(structure, fixed)
        self.record = record
        # what `lit` reads: the trivially known decisions and the fixed ones, in one table
        # (copied from the structure's: a multiverse settles its boards' groups one by one)
        values = list(structure.known)
        for d, v in fixed.items():
            values[d] = v
        self.values = values
        self.found: dict[int, bool] = {}
        self.unknown: dict[int, Unknown] = {}  # each decision's, made once

    def lit(self, decision: int) -> Lit:
        if self._reads is not None:
            self._reads.add(decision)
        value = self.values[decision]  # `constant`, read off one table: the hottest call
        if value is None:
            unknown = self.unknown.get(decision)
            if unknown is None:
                unknown = self.unknown[decision] = Unknown(decision)
            return unknown
        return value

    def learn(self, decision: int, value: bool) -> None:
        """Fix a decision to the value propagation found for it."""
        self.fixed[decision] = self.values[decision] = value

    def equivalent(self, target: Lit, conjunction: Sequence[Lit]) -> None:
        value = self.all_of(conjunction, _unnamed)
        if value is not _UNKNOWN and isinstance(target, Unknown):
            assert target.decision is not None and isinstance(value, bool)
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

    def switch(self, name: Name, upper: int, cases: Sequence[Case]) -> Strength:
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
                v_low, v_high = _bounds(value)
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
        a_low, a_high = _bounds(a)
        b_low, b_high = _bounds(b)
        if a_low > b_high:
            return True
        return False if a_high <= b_low else _UNKNOWN

    def evaluate(self, decision: int) -> bool | None:
        """The value the decision's equation gives from what is known (None: not yet); its
        reads are recorded in `depends` only if asked."""
        reads: set[int] | None = None
        if self.record:
            reads = self.depends[decision] = set()
        self.state(decision, reads)
        return self.found.pop(decision, None)


def _bounds(value: Strength) -> tuple[int, int]:
    """The least and greatest value of a strength propagation computes (never a CP-SAT
    expression)."""
    if isinstance(value, Span):
        return value.low, value.high
    assert isinstance(value, int)
    return value, value


def _unnamed() -> str:
    raise AssertionError("propagation makes no variable")


def propagate(
    structure: Structure, fixed: Mapping[int, bool], decisions: Sequence[int] | None = None
) -> tuple[dict[int, bool], dict[int, set[int]]]:
    """The values propagation forces, and each decision's reads as `build` records them.

    `decisions`: those to settle (the turn's by default; a group of them when no other
    decision reads them or is read by them).  The first pass evaluates each once, recording
    its reads, and puts what it finds to use at once, except the values of the kinds whose
    values change what the equations read (whether a route's convoys all work; whether a
    1971 army goes by sea): so the reads are the ones `build` records with just `fixed`
    known.  Then each decision that read a value found after it was evaluated is evaluated
    again, until nothing more is found."""
    order = structure.decisions if decisions is None else decisions
    state = Propagation(structure, dict(fixed))
    readers: dict[int, list[int]] = {}
    known: dict[int, bool] = {}
    withheld: list[int] = []
    queue: list[int] = []
    count = structure.count
    late = (R_SEA * count, R_CONVOY * count)  # the first decision of each withheld kind
    for d in order:
        if d in fixed:
            continue
        value = state.evaluate(d)
        for read in state.depends[d]:
            readers.setdefault(read, []).append(d)
        if value is not None:
            known[d] = value
            if d - d % count in late:
                withheld.append(d)
            else:
                state.learn(d, value)
                queue += readers.get(d, ())  # those evaluated before it was known
    depends = {d: state.depends.get(d, set()) for d in order}
    state.record = False  # from here on, each decision evaluated again with what is known
    for d in withheld:
        state.learn(d, known[d])
        queue += readers.get(d, ())
    fixed_now = state.fixed
    while queue:
        d = queue.pop()
        if d in fixed_now:
            continue
        value = state.evaluate(d)
        if value is not None:
            state.learn(d, value)
            known[d] = value
            queue += [r for r in readers.get(d, ()) if r not in fixed_now]
    return known, depends
