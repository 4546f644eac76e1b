"""The CP-SAT model of one movement turn: DATC chapter 5 as constraints.

Decisions are booleans, one per order and kind: ``move`` (the move succeeds), ``path`` (a
convoyed army has a chain of available convoys), ``support`` (given, not cut), ``convoy``
(available) and ``dislodged`` (per unit).  The strengths ATTACK, HOLD, DEFEND and PREVENT are
integer variables pinned to expressions of those booleans, so a solution is fixed by its
booleans and counting solutions counts resolutions.

While a decision's definition is built, every decision it reads is recorded: that is the
dependency graph the fallback layer (`solver.judge.fallback`) cuts into cores.  A decision can be
*fixed* to a value instead of defined; the fallback layer uses that to apply paradox rules
without touching the equations.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from ortools.sat.python import cp_model

from topology import BoardView, UnitType

from ..values.decisions import (
    CONVOY,
    DISLODGED,
    MOVE,
    PATH,
    SEA,
    SUPPORT,
    Decision,
    DecisionKind,
)
from ..values.orders import Move
from ..values.position import Unit
from ..values.rules import ConvoyCut, DislodgedPrevent, MultiRoute, RuleBook
from .checked import Checked, CheckedConvoy, CheckedMove, CheckedSupport, Status, Turn
from .cpmodel import CpModel
from .routes import minimal_routes

Lit: TypeAlias = Any
"""A literal of an equation: True, False, a CP-SAT Boolean variable, or (when propagation
reads the same equations, `solver.judge.propagate`) an unknown.  The equations are written
once over all of them, so the type is left open."""
Strength: TypeAlias = Any
"""An integer strength: an int, a CP-SAT linear expression, or (propagation) an interval."""
Name: TypeAlias = Callable[[], str]
"""The name of a CP-SAT variable, made only when the variable is (propagation makes none,
so it spends no time on names)."""


@dataclass(frozen=True, slots=True)
class Structure:
    """The static facts of a turn the equations are written over (no solver involved)."""

    turn: Turn
    unit_at: Mapping[str, Unit]
    order_of: Mapping[str, Checked | None]  # province -> order in force
    moves: Mapping[str, CheckedMove]  # province -> active move
    attackers: Mapping[str, tuple[str, ...]]  # province -> provinces of active moves into it
    move_supports: Mapping[str, tuple[str, ...]]  # mover -> active supporters of its move
    hold_supports: Mapping[str, tuple[str, ...]]  # unit -> active hold supporters
    supports: Mapping[str, CheckedSupport]  # supporter -> active support order
    convoys: Mapping[str, CheckedConvoy]  # fleet -> active convoy order
    routes: Mapping[str, tuple[tuple[str, ...], ...]]  # convoyed mover -> routes of active fleets
    opposing: Mapping[str, str]  # mover -> the mover it meets head to head
    origin: Mapping[str, str]  # mover -> where its attack comes from (4.A.4)
    returning: Mapping[str, str]  # mover -> the mover coming the other way, even by convoy
    fallback: frozenset[str] = frozenset()  # 1971: by sea if the convoy works, else by land
    text: Mapping[str, str] = field(default_factory=dict)  # province -> its order, as text
    names: Mapping[str, str] = field(default_factory=dict)  # province -> its unit, as text
    # derived once per turn (the equations read them for nearly every literal):
    trivial: Mapping[Decision, bool] = field(init=False, repr=False, compare=False)
    _decisions: tuple[Decision, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # a move over land has its path, unless the fleet stands on the wrong coast; a unit
        # nobody moves against is not dislodged
        trivial = {
            (PATH, p): c.reachable
            for p, c in self.moves.items()
            if p not in self.routes or p in self.fallback
        }
        trivial.update(((DISLODGED, p), False) for p in self.unit_at if not self.attackers.get(p))
        object.__setattr__(self, "trivial", trivial)
        object.__setattr__(self, "_decisions", tuple(self._ordered()))

    @property
    def rules(self) -> RuleBook:
        return self.turn.rules

    def convoying(self, mover: str) -> set[str]:
        """The fleets on the routes of a convoyed move."""
        return {f for route in self.routes.get(mover, ()) for f in route}

    def necessary(self, mover: str) -> set[str]:
        """The fleets on every route of a convoyed move."""
        routes = self.routes.get(mover, ())
        return set.intersection(*(set(r) for r in routes)) if routes else set()

    @classmethod
    def of(cls, turn: Turn) -> Structure:
        """The structure of a judged turn."""
        unit_at: dict[str, Unit] = {}
        order_of: dict[str, Checked | None] = {}
        moves: dict[str, CheckedMove] = {}
        supports: dict[str, CheckedSupport] = {}
        convoys: dict[str, CheckedConvoy] = {}
        for u, c in turn.orders:  # one pass: a turn has every unit's order in force
            p = u.location.province
            unit_at[p] = u
            order_of[p] = c
            if c is None or c.status is not Status.ACTIVE:
                continue
            if isinstance(c, CheckedMove):
                moves[p] = c
            elif isinstance(c, CheckedSupport):
                supports[p] = c
            elif isinstance(c, CheckedConvoy):
                convoys[p] = c
        attackers: dict[str, list[str]] = defaultdict(list)
        for p, c in moves.items():
            attackers[c.dest.province].append(p)
        move_supports: dict[str, list[str]] = defaultdict(list)
        hold_supports: dict[str, list[str]] = defaultdict(list)
        for p, sc in supports.items():
            (hold_supports if sc.dest is None else move_supports)[sc.target].append(p)
        routes, fallback = convoy_routes(turn, moves, convoys)
        origin = attack_origins(turn.rules, moves, routes, fallback)
        opposing, returning = head_to_head(moves, origin)
        board = turn.board
        # neither reads the other: compiled, the two share one closure, which would then
        # hold itself through `names` and wait for the cyclic garbage collector
        names = _Described(lambda p: unit_at[p].text(board), unit_at)
        text = _Described(lambda p: _order_text(order_of[p], unit_at[p], board), order_of)
        return cls(
            turn,
            unit_at,
            order_of,
            moves,
            _frozen(attackers),
            _frozen(move_supports),
            _frozen(hold_supports),
            supports,
            convoys,
            routes,
            opposing,
            origin,
            returning,
            fallback,
            text,
            names,
        )

    def decisions(self) -> tuple[Decision, ...]:
        """Every decision of the turn, in a fixed order."""
        return self._decisions

    def _ordered(self) -> list[Decision]:
        found: list[Decision] = []
        for p in sorted(self.moves):
            found.append((MOVE, p))
            if p in self.fallback:
                found.append((SEA, p))
            elif p in self.routes:
                found.append((PATH, p))
        found += [(SUPPORT, p) for p in sorted(self.supports)]
        found += [(CONVOY, p) for p in sorted(self.convoys)]
        found += [(DISLODGED, p) for p in sorted(self.unit_at) if self.attackers.get(p)]
        return found

    def label(self, decision: Decision) -> str:
        """A readable name: 'move[A Munich - Tyrolia]', 'dislodged[A Munich]'."""
        kind, province = decision
        if kind is DISLODGED:
            return f"dislodged[{self.names[province]}]"
        return f"{kind}[{self.text[province]}]"


class _Described(Mapping[str, str]):
    """The text of each key of `of`, made by `describe` when first read (a turn that
    propagation settles reads few of them: only the outcomes' reasons name units)."""

    __slots__ = ("_describe", "_made", "_of")

    def __init__(self, describe: Callable[[str], str], of: Mapping[str, object]) -> None:
        self._describe = describe
        self._made: dict[str, str] = {}
        self._of = of

    def __getitem__(self, key: str) -> str:
        text = self._made.get(key)
        if text is None:
            if key not in self._of:
                raise KeyError(key)
            text = self._made[key] = self._describe(key)
        return text

    def __iter__(self) -> Iterator[str]:
        return iter(self._of)

    def __len__(self) -> int:
        return len(self._of)


def _order_text(checked: Checked | None, unit: Unit, board: BoardView) -> str:
    """An order as text, or the unit's text for a unit without one."""
    if checked is None:
        return unit.text(board)
    return checked.given.order_text


def _frozen(table: Mapping[str, list[str]]) -> dict[str, tuple[str, ...]]:
    return {k: tuple(v) for k, v in table.items()}


def convoy_routes(
    turn: Turn, moves: Mapping[str, CheckedMove], convoys: Mapping[str, CheckedConvoy]
) -> tuple[dict[str, tuple[tuple[str, ...], ...]], frozenset[str]]:
    """The minimal routes of each convoyed move through the fleets ordered to convoy it,
    and the 1971 fallback moves that have one (by sea if the convoy works, else by land;
    one without a route is a plain move over land)."""
    convoying: dict[tuple[str, str], set[str]] = defaultdict(set)
    for f, cv in convoys.items():
        convoying[(cv.target, cv.dest.province)].add(f)
    routes = {}
    for p, c in moves.items():
        if c.by_convoy or c.fallback:
            fleets = frozenset(convoying.get((p, c.dest.province), ()))
            routes[p] = tuple(minimal_routes(turn.board, p, c.dest.province, fleets))
    fallback = frozenset(p for p, c in moves.items() if c.fallback and routes.get(p))
    return {p: r for p, r in routes.items() if r or not moves[p].fallback}, fallback


def attack_origins(
    rules: RuleBook,
    moves: Mapping[str, CheckedMove],
    routes: Mapping[str, tuple[tuple[str, ...], ...]],
    fallback: frozenset[str],
) -> dict[str, str]:
    """Where each attack comes from: the mover's province, or (DATC 4.A.4, the Brannan
    rule) the last fleet of a convoy whose every route ends there."""
    origin = {p: p for p in moves}
    for p, found in routes.items():
        if p in fallback:
            continue
        lasts = {route[-1] for route in found}
        if len(lasts) == 1 and rules.brannan:  # read where a convoy has one last fleet
            origin[p] = lasts.pop()
    return origin


def head_to_head(
    moves: Mapping[str, CheckedMove], origin: Mapping[str, str]
) -> tuple[dict[str, str], dict[str, str]]:
    """Each move's opponent in a head-to-head battle (two units swapping over land, or from
    their attack origins, not by convoy), and the move coming the other way by any route."""
    opposing = {}
    returning = {}
    heading: dict[str, list[str]] = defaultdict(list)  # destination -> movers
    for q, other in moves.items():
        heading[other.dest.province].append(q)
    for p, c in moves.items():
        for q in heading.get(origin[p], ()):
            other = moves[q]
            if q == p or c.dest.province != origin[q]:
                continue
            if origin[p] != p or origin[q] != q or not (c.by_convoy or other.by_convoy):
                opposing[p] = q
        q = c.dest.province
        if q in moves and moves[q].dest.province == p:
            returning[p] = q
    return opposing, returning


@dataclass
class TurnModel:
    """A CP-SAT model over some of a turn's decisions, with the dependencies it read."""

    structure: Structure
    fixed: dict[Decision, bool]
    model: Any = field(default_factory=CpModel)  # None when propagation reads the equations
    lits: dict[Decision, cp_model.IntVar] = field(default_factory=dict)
    depends: dict[Decision, set[Decision]] = field(default_factory=dict)
    _reads: set[Decision] | None = None  # what the equation being defined has read

    # -- literals and the few constraint shapes the equations need ----------------------------
    def lit(self, decision: Decision) -> Lit:
        """The literal of a decision (a constant when fixed or trivially known)."""
        if self._reads is not None:
            self._reads.add(decision)
        constant = self.constant(decision)
        if constant is not None:
            return constant
        if decision not in self.lits:
            self.lits[decision] = self.model.new_bool_var(self.structure.label(decision))
        return self.lits[decision]

    def constant(self, decision: Decision) -> bool | None:
        """The value of a fixed or trivially known decision (None for the others)."""
        value = self.fixed.get(decision)
        return self.structure.trivial.get(decision) if value is None else value

    def equivalent(self, target: Lit, conjunction: Sequence[Lit]) -> None:
        """target <=> AND(conjunction) for a variable target, constants folded."""
        terms = [c for c in conjunction if c is not True]
        if any(c is False for c in terms):
            self.model.add_bool_and([_negate(target)])
        elif not terms:
            self.model.add_bool_and([target])
        else:
            self.model.add_bool_and(terms).only_enforce_if(target)
            self.model.add_bool_or([_negate(t) for t in terms] + [target])

    def any_of(self, lits: Sequence[Lit], name: Name) -> Lit:
        """A literal equal to OR(lits)."""
        lits = [x for x in lits if x is not False]
        if any(x is True for x in lits):
            return True
        if len(lits) <= 1:
            if not lits:
                return False
            return lits[0]
        var = self.model.new_bool_var(name())
        self.equivalent(_negate(var), [_negate(x) for x in lits])
        return var

    def switch(
        self, name: Name, upper: int, cases: Sequence[tuple[tuple[Lit, ...], Strength]]
    ) -> Strength:
        """An integer equal to the value of the case whose literals all hold; the cases are
        exhaustive and exclusive, so the integer is fixed by the booleans."""
        live = [
            (tuple(x for x in lits if x is not True), value)
            for lits, value in cases
            if not any(x is False for x in lits)
        ]
        if len(live) == 1 and isinstance(live[0][1], int):
            return live[0][1]
        var = self.model.new_int_var(0, upper, name())
        for lits, value in live:
            constraint = self.model.add(var == value)
            if lits:
                constraint.only_enforce_if(list(lits))
        return var

    def total(self, lits: Iterable[Lit]) -> Strength:
        """Sum of literals; an int when all are constants."""
        lits = list(lits)
        constant = sum(1 for x in lits if x is True)
        variables = [x for x in lits if not isinstance(x, bool)]
        if not variables:
            return constant
        total = variables[0] if len(variables) == 1 else cp_model.LinearExpr.sum(variables)
        return total + constant if constant else total

    def beats(self, a: Strength, b: Strength, name: Name) -> Lit:
        """A literal equal to a > b."""
        if isinstance(a, int) and isinstance(b, int):
            return a > b
        var = self.model.new_bool_var(name())
        self.model.add(a > b).only_enforce_if(var)
        self.model.add(a <= b).only_enforce_if(_negate(var))
        return var

    # -- the decisions -------------------------------------------------------------------------
    def define(self, decision: Decision) -> None:
        """Add the equation of one decision (nothing if it is fixed)."""
        reads = self.depends.setdefault(decision, set())
        if decision in self.fixed:
            return
        target = self.lit(decision)
        self._reads = reads
        kind, province = decision
        EQUATIONS[kind](self, province, target)
        self._reads = None

    def _define_sea(self, p: str, target: Lit) -> None:
        """SEA (1971 fallback): the convoy works, so the army goes by sea, else over land."""
        self._define_path(p, target)

    def h2h(self, m: str) -> Lit:
        """Is the move in a head-to-head battle with its opposing move?  Always, unless one
        of the two goes by sea when its convoy works (1971)."""
        s = self.structure
        if not s.fallback:  # no 1971 fallback move this turn (the usual case)
            return True
        pair = sorted(x for x in (m, s.opposing.get(m)) if x in s.fallback)
        over_land = [_negate(self.lit((SEA, x))) for x in pair]
        if len(over_land) < 2:
            if not over_land:
                return True
            return over_land[0]
        return self.both(over_land[0], over_land[1], lambda: f"head to head[{'-'.join(pair)}]")

    def both(self, a: Lit, b: Lit, name: Name) -> Lit:
        """A literal equal to a AND b."""
        return self.all_of([a, b], name)

    def all_of(self, lits: Sequence[Lit], name: Name) -> Lit:
        """A literal equal to AND(lits)."""
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

    def _define_path(self, p: str, target: Lit) -> None:
        """PATH: some route whose convoys are all available (4.A.1, 1971: all of them)."""
        # the policy decides only between several routes (one route: all its fleets)
        if (
            len(self.structure.routes[p]) > 1
            and self.structure.rules.multi_route is MultiRoute.ANY_ROUTE
        ):
            fleets = sorted(self.structure.convoying(p))
            self.equivalent(target, [self.lit((CONVOY, f)) for f in fleets] if fleets else [False])
            return
        routes: list[Lit] = []
        for route in self.structure.routes[p]:
            ok = self.all_of(
                [self.lit((CONVOY, f)) for f in route],
                lambda: f"route[{' '.join(route)}]",  # noqa: B023 (named at once)
            )
            if ok is True:
                routes = [True]
                break
            if ok is not False:
                routes.append(ok)
        self.equivalent(_negate(target), [_negate(r) for r in routes])

    def _define_convoy(self, p: str, target: Lit) -> None:
        """CONVOY: available unless the fleet is dislodged."""
        self.equivalent(target, [_negate(self.lit((DISLODGED, p)))])

    def _define_dislodged(self, p: str, target: Lit) -> None:
        """DISLODGED: the unit does not leave and another unit moves in."""
        arrivals = [self.lit((MOVE, m)) for m in self.structure.attackers.get(p, ())]
        someone = self.any_of(arrivals, lambda: f"arrives[{self.structure.names[p]}]")
        stays: Lit = True
        if p in self.structure.moves:
            stays = _negate(self.lit((MOVE, p)))
        self.equivalent(target, [stays, someone])

    def _define_support(self, p: str, target: Lit) -> None:
        """SUPPORT: given unless the supporter is dislodged, or attacked (with a path) by
        another power from anywhere but the province the support is aimed at."""
        s = self.structure
        support = s.supports[p]
        aim = support.dest.province if support.dest is not None else support.target
        attackers = s.attackers.get(p, ())
        if any(protected(s, m, p, aim) for m in attackers):
            # dislodged only by an attacker the clause does not cover
            intact = [
                _negate(self.lit((MOVE, m))) for m in attackers if not protected(s, m, p, aim)
            ]
        else:
            intact = [_negate(self.lit((DISLODGED, p)))]
        for m in attackers:
            if cuts(s, m, p, aim):
                intact.append(_negate(self.lit((PATH, m))))
        self.equivalent(target, intact)

    def supports(self, mover: str, excluding_power: str | None = None) -> Strength:
        """The number of given supports for a move (optionally not counting one power's)."""
        supporters = self.structure.move_supports.get(mover)
        if not supporters:
            return 0
        return self.total(
            self.lit((SUPPORT, q))
            for q in supporters
            if excluding_power is None or self.structure.unit_at[q].power != excluding_power
        )

    def attack(self, m: str) -> Strength:
        """ATTACK strength of a move (DATC 5, with no help to dislodge one's own unit)."""
        s = self.structure
        q = s.moves[m].dest.province
        path = self.lit((PATH, m))
        upper = 1 + len(s.move_supports.get(m, ()))
        name = lambda: f"attack[{s.text[m]}]"  # noqa: E731
        full = 1 + self.supports(m)
        defender = s.unit_at.get(q)
        if defender is None:
            return self.switch(name, upper, [((_negate(path),), 0), ((path,), full)])
        if defender.power == s.unit_at[m].power:
            stay: Strength = 0
        else:
            stay = 1 + self.supports(m, excluding_power=defender.power)
        if q not in s.moves:
            return self.switch(name, upper, [((_negate(path),), 0), ((path,), stay)])
        h2h: Lit = False
        if s.opposing.get(m) == q:
            h2h = self.h2h(m)
        if h2h is True:  # in a head-to-head battle the defender does not leave: no dependency
            return self.switch(name, upper, [((_negate(path),), 0), ((path,), stay)])
        # the defender leaving counts only when it is not a head-to-head battle
        away = self.lit((MOVE, q))
        leaves = self.both(away, _negate(h2h), lambda: f"leaves[{s.text[q]}]")
        return self.switch(
            name,
            upper,
            [((_negate(path),), 0), ((path, leaves), full), ((path, _negate(leaves)), stay)],
        )

    def prevent(self, m: str) -> Strength:
        """PREVENT strength: nothing without a path or after losing a head-to-head battle."""
        s = self.structure
        path = self.lit((PATH, m))
        upper = 1 + len(s.move_supports.get(m, ()))
        full = 1 + self.supports(m)
        cases: list[tuple[tuple[Lit, ...], Strength]] = [((_negate(path),), 0)]
        other = s.opposing.get(m)
        beaten = None
        if other is not None:  # lost a head-to-head battle
            beaten = self.both(self.h2h(m), self.lit((MOVE, other)), lambda: f"beaten[{s.text[m]}]")
        if m in s.returning and s.rules.dislodged_prevent is DislodgedPrevent.NEVER:
            # 4.A.7 (a): dislodged by the unit from its destination, whatever the route
            beaten = self.both(
                self.lit((MOVE, s.returning[m])),
                self.lit((DISLODGED, m)),
                lambda: f"dislodged from the front[{s.text[m]}]",
            )
        if beaten is not None:
            cases += [((path, beaten), 0), ((path, _negate(beaten)), full)]
        else:
            cases.append(((path,), full))
        return self.switch(lambda: f"prevent[{s.text[m]}]", upper, cases)

    def hold(self, q: str) -> Strength:
        """HOLD strength of a province."""
        s = self.structure
        if q not in s.unit_at:
            return 0
        if q in s.moves:
            leaves = self.lit((MOVE, q))
            if isinstance(leaves, bool):
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
        return 1 + self.total(self.lit((SUPPORT, r)) for r in supporters)

    def _define_move(self, m: str, target: Lit) -> None:
        """MOVE: the attack beats the resistance at the destination and every rival's
        prevent strength (DEFEND of the opposing move in a head-to-head battle)."""
        s = self.structure
        move = s.moves[m]
        q = move.dest.province
        attack = self.attack(m)
        conditions = []
        h2h: Lit = False
        if m in s.opposing:
            h2h = self.h2h(m)
        over_hold = None
        if h2h is not True or s.opposing.get(m, q) != q:  # 4.A.4: a unit holds there too
            over_hold = self.beats(
                attack, self.hold(q), lambda: f"beats[{s.text[m]} vs hold[{s.names.get(q, q)}]]"
            )
        if h2h is False:
            conditions.append(over_hold)
        else:
            opponent = s.opposing[m]
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
                conditions.append(
                    self.any_of(
                        [
                            self.both(h2h, over_defend, lambda: f"wins head to head[{s.text[m]}]"),
                            self.both(
                                _negate(h2h), over_hold, lambda: f"wins over the hold[{s.text[m]}]"
                            ),
                        ],
                        lambda: f"beats resistance[{s.text[m]}]",
                    )
                )
        for rival in s.attackers[q]:
            if rival != m:
                conditions.append(
                    self.beats(
                        attack,
                        self.prevent(rival),
                        lambda: f"beats[{s.text[m]} vs prevent[{s.text[rival]}]]",  # noqa: B023
                    )
                )
        self.equivalent(target, conditions)


EQUATIONS: dict[DecisionKind, Callable[[TurnModel, str, Lit], None]] = {
    MOVE: TurnModel._define_move,
    PATH: TurnModel._define_path,
    SEA: TurnModel._define_sea,
    SUPPORT: TurnModel._define_support,
    CONVOY: TurnModel._define_convoy,
    DISLODGED: TurnModel._define_dislodged,
}
"""Each kind of decision and the method that states its equation."""


def cuts(s: Structure, m: str, p: str, aim: str) -> bool:
    """Does an attack by the move from m (when it has a path) cut the support given from p,
    aimed at aim?  Not by the supporter's own power, not from the province it is aimed at,
    and not when the edition's paradox clause protects the support (4.A.2)."""
    if s.unit_at[m].power == s.unit_at[p].power or s.origin[m] == aim:
        return False
    return not protected(s, m, p, aim)


def protected(s: Structure, m: str, p: str, aim: str) -> bool:
    """Does the edition's paradox clause (4.A.2) keep a convoyed army from m from cutting
    the support from p, aimed at aim?  Such a support stands even when that army
    dislodges the supporter (the rulebooks' clause overrides the dislodgement rule)."""
    if m not in s.routes or m in s.fallback:
        return False
    rule = s.rules.convoy_cut
    support = s.supports[p]
    into = support.dest.province if support.dest is not None else None
    by_fleet = s.unit_at[p].type is UnitType.FLEET
    if rule is ConvoyCut.RULE_1971:  # a fleet supporting a fleet against one of its convoy
        fleet_move = s.unit_at[support.target].type is UnitType.FLEET
        return by_fleet and fleet_move and into in s.convoying(m)
    if rule is ConvoyCut.RULE_1982:  # a fleet supporting an action in a convoying sea
        return by_fleet and aim in s.convoys
    if rule is ConvoyCut.RULE_2000:  # any support against a fleet necessary to its convoy
        return into in s.necessary(m)
    return False


def _negate(lit: Lit) -> Lit:
    if isinstance(lit, bool):
        return not lit
    return ~lit


def build(
    structure: Structure,
    fixed: Mapping[Decision, bool] | None = None,
    include: Iterable[Decision] | None = None,
) -> TurnModel:
    """The model of the decisions in `include` (all by default); others are read as fixed."""
    turn_model = TurnModel(structure, dict(fixed or {}))
    for decision in include if include is not None else structure.decisions():
        turn_model.define(decision)
    return turn_model
