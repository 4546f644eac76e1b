"""The equations of DATC chapter 5, written once over an algebra of literals and strengths.

Decisions are booleans, one per order and kind: ``move`` (the move succeeds), ``path`` (a
convoyed army has a chain of available convoys), ``support`` (given, not cut), ``convoy``
(available) and ``dislodged`` (per unit).  The strengths ATTACK, HOLD, DEFEND and PREVENT
are integers fixed by those booleans.  Each equation is stated with a few shapes — `lit`,
`equivalent`, `all_of`, `any_of`, `switch`, `total`, `beats` — which two algebras read:

- propagation (`solver.judge.propagate`): a literal is True, False or `Unknown`, a strength
  an int or an interval (`Span`), and a decision becomes known when its equation evaluates
  to a constant;
- CP-SAT (`solver.judge.cpsat`): a literal is a Boolean variable, a strength a linear
  expression, and the shapes post constraints.

While a decision's equation is stated, every decision it reads is recorded: that is the
dependency graph the fallback layer (`solver.judge.fallback`) cuts into cores.  A decision
can be *fixed* to a value instead of defined; the fallback layer uses that to apply paradox
rules without touching the equations.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, TypeAlias

from mypy_extensions import mypyc_attr

from topology import UnitType

from ..values.orders import Move
from ..values.rules import ConvoyCut, DislodgedPrevent, MultiRoute
from .checked import Status
from .structure import R_CONVOY, R_DISLODGED, R_MOVE, R_PATH, R_SEA, R_SUPPORT, Structure

if TYPE_CHECKING:  # OR-Tools is imported only by a turn that needs CP-SAT (`cpsat.py`)
    from ortools.sat.python.cp_model_helper import LinearExpr, Literal


class Unknown:
    """A literal whose value propagation does not know yet: a decision's (with its
    polarity), or one made of several (`decision` None).

    A plain slotted class, never compared: a propagation keeps one per decision, and a
    positive one keeps its negation once made (not the other way round: a cycle of
    references would leave both to the garbage collector)."""

    __slots__ = ("decision", "negation", "positive")

    def __init__(self, decision: int | None = None, positive: bool = True) -> None:
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


Lit: TypeAlias = "bool | Unknown | Literal"
"""A literal of an equation: a constant, propagation's unknown, or a CP-SAT literal."""
Strength: TypeAlias = "int | Span | LinearExpr"
"""An integer strength: a constant, propagation's interval, or a CP-SAT expression."""
Name = Callable[[], str]
"""The name of a CP-SAT variable, made only when the variable is (propagation makes none)."""
Case: TypeAlias = "tuple[tuple[Lit, ...], Strength]"
"""A case of `switch`: the literals that select it, and its value."""


def negate(lit: Lit) -> Lit:
    if lit is True:
        return False
    if lit is False:
        return True
    return ~lit


@mypyc_attr(allow_interpreted_subclasses=True)  # CP-SAT's algebra (cpsat.py) stays Python
class Equations(ABC):
    """The equations of one turn over an algebra (the subclasses), with what each reads.

    `fixed`: decisions with a value instead of an equation; `depends`: what each decision
    defined so far reads."""

    def __init__(self, structure: Structure, fixed: dict[int, bool]) -> None:
        self.structure = structure
        self.fixed = fixed
        self.depends: dict[int, set[int]] = {}
        self._reads: set[int] | None = None  # what the equation being stated has read
        self.count = count = structure.count
        self.move0 = R_MOVE * count  # each kind's first decision: the unit's number is added
        self.path0 = R_PATH * count
        self.sea0 = R_SEA * count
        self.support0 = R_SUPPORT * count
        self.convoy0 = R_CONVOY * count
        self.dislodged0 = R_DISLODGED * count

    # -- the shapes (the algebra) --------------------------------------------------------------
    @abstractmethod
    def lit(self, decision: int) -> Lit:
        """The literal of a decision (a constant when fixed or trivially known)."""

    @abstractmethod
    def equivalent(self, target: Lit, conjunction: Sequence[Lit]) -> None:
        """target <=> AND(conjunction)."""

    @abstractmethod
    def all_of(self, lits: Sequence[Lit], name: Name) -> Lit:
        """A literal equal to AND(lits)."""

    @abstractmethod
    def any_of(self, lits: Sequence[Lit], name: Name) -> Lit:
        """A literal equal to OR(lits)."""

    @abstractmethod
    def switch(self, name: Name, upper: int, cases: Sequence[Case]) -> Strength:
        """An integer equal to the value of the case whose literals all hold (the cases are
        exhaustive and exclusive, so the integer is fixed by the booleans)."""

    @abstractmethod
    def total(self, lits: Iterable[Lit]) -> Strength:
        """The number of literals that hold."""

    @abstractmethod
    def beats(self, a: Strength, b: Strength, name: Name) -> Lit:
        """A literal equal to a > b."""

    def constant(self, decision: int) -> bool | None:
        """The value of a fixed or trivially known decision (None for the others)."""
        value = self.fixed.get(decision)
        return self.structure.trivial.get(decision) if value is None else value

    def both(self, a: Lit, b: Lit, name: Name) -> Lit:
        """A literal equal to a AND b."""
        return self.all_of([a, b], name)

    # -- the decisions -------------------------------------------------------------------------
    def define(self, decision: int) -> None:
        """State the equation of one decision (nothing if it is fixed)."""
        reads = self.depends.setdefault(decision, set())
        if decision in self.fixed:
            return
        self.state(decision, reads)

    def state(self, decision: int, reads: set[int] | None) -> None:
        """State the equation of a decision, recording its reads in `reads` (if given)."""
        target = self.lit(decision)
        self._reads = reads
        rank, unit = divmod(decision, self.count)
        EQUATIONS[rank](self, unit, target)
        self._reads = None

    def _define_sea(self, m: int, target: Lit) -> None:
        """SEA (1971 fallback): the convoy works, so the army goes by sea, else over land."""
        self._define_path(m, target)

    def h2h(self, m: int) -> Lit:
        """Is the move in a head-to-head battle with its opposing move?  Always, unless one
        of the two goes by sea when its convoy works (1971)."""
        s = self.structure
        if not s.fallback:  # no 1971 fallback move this turn (the usual case)
            return True
        opponent = s.opposing.get(m)
        pair = sorted(x for x in (m, opponent) if x is not None and x in s.fallback)
        over_land = [negate(self.lit(self.sea0 + x)) for x in pair]
        if len(over_land) < 2:
            if not over_land:
                return True
            return over_land[0]
        names = "-".join(str(s.keys[x]) for x in pair)
        return self.both(over_land[0], over_land[1], lambda: f"head to head[{names}]")

    def _define_path(self, m: int, target: Lit) -> None:
        """PATH: some route whose convoys are all available (4.A.1, 1971: all of them)."""
        s = self.structure
        # the policy decides only between several routes (one route: all its fleets)
        if len(s.routes[m]) > 1 and s.rules.multi_route is MultiRoute.ANY_ROUTE:
            fleets = sorted(s.convoying(m))
            self.equivalent(target, [self.lit(self.convoy0 + f) for f in fleets] or [False])
            return
        routes: list[Lit] = []
        for route in s.routes[m]:
            ok = self.all_of(
                [self.lit(self.convoy0 + f) for f in route],
                lambda: f"route[{' '.join(str(s.keys[f]) for f in route)}]",  # noqa: B023 (at once)
            )
            if ok is True:
                routes = [True]
                break
            if ok is not False:
                routes.append(ok)
        self.equivalent(negate(target), [negate(r) for r in routes])

    def _define_convoy(self, f: int, target: Lit) -> None:
        """CONVOY: available unless the fleet is dislodged."""
        self.equivalent(target, [negate(self.lit(self.dislodged0 + f))])

    def _define_dislodged(self, u: int, target: Lit) -> None:
        """DISLODGED: the unit does not leave and another unit moves in."""
        s = self.structure
        arrivals = [self.lit(self.move0 + m) for m in s.attackers[u]]
        someone = self.any_of(arrivals, lambda: f"arrives[{s.names[u]}]")
        stays: Lit = True
        if u in s.moves:
            stays = negate(self.lit(self.move0 + u))
        self.equivalent(target, [stays, someone])

    def _define_support(self, p: int, target: Lit) -> None:
        """SUPPORT: given unless the supporter is dislodged, or attacked (with a path) by
        another power from anywhere but the province the support is aimed at."""
        s = self.structure
        attackers = s.attackers[p]
        if any(protected(s, m, p) for m in attackers):
            # dislodged only by an attacker the clause does not cover
            intact = [negate(self.lit(self.move0 + m)) for m in attackers if not protected(s, m, p)]
        else:
            intact = [negate(self.lit(self.dislodged0 + p))]
        for m in attackers:
            if cuts(s, m, p):
                intact.append(negate(self.lit(self.path0 + m)))
        self.equivalent(target, intact)

    def supports(self, mover: int, excluding_power: str | None = None) -> Strength:
        """The number of given supports for a move (optionally not counting one power's)."""
        s = self.structure
        supporters = s.move_supports.get(mover)
        if not supporters:
            return 0
        return self.total(
            self.lit(self.support0 + q)
            for q in supporters
            if excluding_power is None or s.units[q].power != excluding_power
        )

    def attack(self, m: int) -> Strength:
        """ATTACK strength of a move (DATC 5, with no help to dislodge one's own unit)."""
        s = self.structure
        path = self.lit(self.path0 + m)
        upper = 1 + len(s.move_supports.get(m, ()))
        name = lambda: f"attack[{s.text[m]}]"  # noqa: E731
        full = 1 + self.supports(m)
        q = s.into[m]
        if q >= s.count:  # an empty province
            return self.switch(name, upper, [((negate(path),), 0), ((path,), full)])
        defender = s.units[q].power
        if defender == s.units[m].power:
            stay: Strength = 0
        else:
            stay = 1 + self.supports(m, excluding_power=defender)
        if q not in s.moves:
            return self.switch(name, upper, [((negate(path),), 0), ((path,), stay)])
        h2h: Lit = False
        if s.opposing.get(m) == q:
            h2h = self.h2h(m)
        if h2h is True:  # in a head-to-head battle the defender does not leave: no dependency
            return self.switch(name, upper, [((negate(path),), 0), ((path,), stay)])
        # the defender leaving counts only when it is not a head-to-head battle
        away = self.lit(self.move0 + q)
        leaves = self.both(away, negate(h2h), lambda: f"leaves[{s.text[q]}]")
        return self.switch(
            name,
            upper,
            [((negate(path),), 0), ((path, leaves), full), ((path, negate(leaves)), stay)],
        )

    def prevent(self, m: int) -> Strength:
        """PREVENT strength: nothing without a path or after losing a head-to-head battle."""
        s = self.structure
        path = self.lit(self.path0 + m)
        upper = 1 + len(s.move_supports.get(m, ()))
        full = 1 + self.supports(m)
        cases: list[Case] = [((negate(path),), 0)]
        other = s.opposing.get(m)
        beaten: Lit | None = None
        if other is not None:  # lost a head-to-head battle
            beaten = self.both(
                self.h2h(m), self.lit(self.move0 + other), lambda: f"beaten[{s.text[m]}]"
            )
        if m in s.returning and s.rules.dislodged_prevent is DislodgedPrevent.NEVER:
            # 4.A.7 (a): dislodged by the unit from its destination, whatever the route
            beaten = self.both(
                self.lit(self.move0 + s.returning[m]),
                self.lit(self.dislodged0 + m),
                lambda: f"dislodged from the front[{s.text[m]}]",
            )
        if beaten is not None:
            cases += [((path, beaten), 0), ((path, negate(beaten)), full)]
        else:
            cases.append(((path,), full))
        return self.switch(lambda: f"prevent[{s.text[m]}]", upper, cases)

    def hold(self, q: int | None) -> Strength:
        """HOLD strength of a province: of the unit standing there, if any."""
        if q is None:
            return 0
        s = self.structure
        if q in s.moves:
            leaves = self.lit(self.move0 + q)
            if leaves is True or leaves is False:
                return int(not leaves)
            return 1 - leaves
        checked = s.order_of[q]
        if (
            checked is not None
            and checked.status is Status.INVALID
            and isinstance(checked.order, Move)
        ):
            return 1  # an invalid move fails; the unit stays, without hold support
        supporters = s.hold_supports.get(q)
        if not supporters:
            return 1
        return 1 + self.total(self.lit(self.support0 + r) for r in supporters)

    def _define_move(self, m: int, target: Lit) -> None:
        """MOVE: the attack beats the resistance at the destination and every rival's
        prevent strength (DEFEND of the opposing move in a head-to-head battle)."""
        s = self.structure
        into = s.into[m]
        q = into if into < s.count else None  # the unit standing there
        attack = self.attack(m)
        conditions: list[Lit] = []
        h2h: Lit = False
        opponent = s.opposing.get(m)
        if opponent is not None:
            h2h = self.h2h(m)
        over_hold: Lit | None = None
        if h2h is not True or (opponent if opponent is not None else q) != q:
            # 4.A.4: a unit holds there too
            over_hold = self.beats(
                attack,
                self.hold(q),
                lambda: (
                    f"beats[{s.text[m]} vs hold[{s.names[q] if q is not None else s.places[into]}]]"
                ),
            )
        if h2h is False:
            assert over_hold is not None  # asked for whenever h2h is not True
            conditions.append(over_hold)
        else:
            assert opponent is not None  # a head-to-head battle has an opponent
            over_defend = self.beats(
                attack,
                1 + self.supports(opponent),
                lambda: f"beats[{s.text[m]} vs defend[{s.text[opponent]}]]",
            )
            if h2h is True:
                conditions.append(over_defend)
                if over_hold is not None:
                    conditions.append(over_hold)
            else:  # 1971: head to head only if the army goes over land
                assert over_hold is not None
                conditions.append(
                    self.any_of(
                        [
                            self.both(h2h, over_defend, lambda: f"wins head to head[{s.text[m]}]"),
                            self.both(
                                negate(h2h), over_hold, lambda: f"wins over the hold[{s.text[m]}]"
                            ),
                        ],
                        lambda: f"beats resistance[{s.text[m]}]",
                    )
                )
        for rival in s.attackers[into]:
            if rival != m:
                conditions.append(
                    self.beats(
                        attack,
                        self.prevent(rival),
                        lambda: f"beats[{s.text[m]} vs prevent[{s.text[rival]}]]",  # noqa: B023
                    )
                )
        self.equivalent(target, conditions)


EQUATIONS: list[Callable[[Equations, int, Lit], None]] = [
    Equations._define_convoy,
    Equations._define_dislodged,
    Equations._define_move,
    Equations._define_path,
    Equations._define_sea,
    Equations._define_support,
]
"""The equation of each kind of decision, by the kind's rank (`structure.KINDS`)."""


def cuts(s: Structure, m: int, p: int) -> bool:
    """Does an attack by the move of m (when it has a path) cut the support given by p?
    Not by the supporter's own power, not from the province the support is aimed at, and
    not when the edition's paradox clause protects the support (4.A.2)."""
    if s.units[m].power == s.units[p].power or s.keys[s.origin[m]] == s.aims[p]:
        return False
    return not protected(s, m, p)


def protected(s: Structure, m: int, p: int) -> bool:
    """Does the edition's paradox clause (4.A.2) keep a convoyed army m from cutting the
    support given by p?  Such a support stands even when that army dislodges the supporter
    (the rulebooks' clause overrides the dislodgement rule)."""
    if m not in s.routes or m in s.fallback:
        return False
    rule = s.rules.convoy_cut
    support = s.supports[p]
    into = s.number.get(support.dest.province) if support.dest is not None else None
    by_fleet = s.units[p].type is UnitType.FLEET
    if rule is ConvoyCut.RULE_1971:  # a fleet supporting a fleet against one of its convoy
        fleet_move = s.units[s.number[support.target]].type is UnitType.FLEET
        return by_fleet and fleet_move and into in s.convoying(m)
    if rule is ConvoyCut.RULE_1982:  # a fleet supporting an action in a convoying sea
        return by_fleet and s.number.get(s.aims[p]) in s.convoys
    if rule is ConvoyCut.RULE_2000:  # any support against a fleet necessary to its convoy
        return into in s.necessary(m)
    return False
