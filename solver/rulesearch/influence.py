"""Which policies decide a case: for each, what its values change (the others as in the base
rule book), and where policies interact, what their values give together."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..formats.cases import Case
from ..values.rules import POLICIES, RuleBook
from .compare import case_outcomes
from .describe import Cube, described, merged
from .tracing import Tree, Value, branches, held_policies, options

Outcomes = tuple[tuple[str, str], ...]
"""What a case comes to: each order's outcome label (and civil disorder, paradoxes), keyed
as `dipsat compare-rules` keys them; or a single ("error", message)."""

PRODUCT_LIMIT = 65_536
"""The most combinations of a case's policies whose interactions are worked out."""


@dataclass(frozen=True, slots=True)
class OutcomeChange:
    """An outcome that differs from the base rule book's."""

    key: str
    base: str
    now: str

    def text(self) -> str:
        return f"{self.key}: {self.base} → {self.now}"


@dataclass(frozen=True, slots=True)
class Effect:
    """Values of one policy (the others as in the base) and what they change."""

    values: tuple[Value, ...]
    changes: tuple[OutcomeChange, ...]  # none: the base rule book's outcomes


@dataclass(frozen=True, slots=True)
class Alone:
    """A policy that changes some outcome on its own: its values grouped by what they give,
    the base rule book's value first."""

    policy: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Joint:
    """One outcome of several policies that interact, and the rule books giving it."""

    cubes: tuple[Cube, ...]
    changes: tuple[OutcomeChange, ...]

    @property
    def description(self) -> str:
        return described(self.cubes)


@dataclass(frozen=True, slots=True)
class CaseInfluence:
    """What the policies do to one case.

    `read` are the policies some run consulted (no other can matter); `alone` those that
    change an outcome with the others as in the base rule book; `interacting` the pairs
    whose effects depend on each other (the outcomes one policy's values give differ with
    the other's value); when there are any, `joint` gives every outcome of the policies
    that matter (alone or together) with the rule books that give it."""

    case: str
    title: str
    base: str
    runs: int
    read: tuple[str, ...]
    matter: tuple[str, ...]
    alone: tuple[Alone, ...]
    interacting: tuple[tuple[str, str], ...]
    joint: tuple[Joint, ...]
    complete: bool = True  # False: too many combinations to work out interactions


def influence(case: Case, base: RuleBook, held: Iterable[str] = ()) -> CaseInfluence:
    """The policies that decide a case, found by a search that branches only on the
    policies its runs read (those `held` keep the base's value)."""
    tree = Tree(branches(case_outcomes(case), base, held_policies(held)))
    return analysed(case.id, case.title, tree, base)


def analysed(name: str, title: str, tree: Tree[Outcomes], base: RuleBook) -> CaseInfluence:
    """What a search's leaves say about the policies."""
    read = tree.policies
    base_values = {p: getattr(base, p) for p in POLICIES}
    at_base = tree.leaf(base).result
    alone = tuple(a for p in read if (a := _alone(tree, p, base_values, at_base)) is not None)
    size = 1
    for p in read:
        size *= len(options(p))
    if size > PRODUCT_LIMIT:
        matter = tuple(a.policy for a in alone)
        return CaseInfluence(
            name,
            title,
            base.name,
            len(tree.leaves),
            tuple(read),
            matter,
            alone,
            (),
            (),
            complete=False,
        )
    table = _table(tree, read, base_values)
    matter = tuple(p for p in read if _matters(table, read, p))
    pairs = tuple(
        (p, q)
        for p, q in itertools.combinations(matter, 2)
        if _splits_by(table, read, p, q) or _splits_by(table, read, q, p)
    )
    joint: tuple[Joint, ...] = ()
    if pairs:
        joint = _joint(table, read, matter, at_base)
    return CaseInfluence(
        name, title, base.name, len(tree.leaves), tuple(read), matter, alone, pairs, joint
    )


def _changes(base: Outcomes, now: Outcomes) -> tuple[OutcomeChange, ...]:
    before, after = dict(base), dict(now)
    keys = list(before) + [k for k in after if k not in before]
    return tuple(
        OutcomeChange(k, before.get(k, "-"), after.get(k, "-"))
        for k in keys
        if before.get(k) != after.get(k)
    )


def _alone(
    tree: Tree[Outcomes], policy: str, base: Mapping[str, Value], at_base: Outcomes
) -> Alone | None:
    by_result: dict[Outcomes, list[Value]] = {}
    for value in sorted(options(policy), key=lambda v: v != base[policy]):
        found = tree.find({**base, policy: value})
        if found is None:  # a value held still, or one the others forbid
            continue
        by_result.setdefault(found.result, []).append(value)
    if len(by_result) < 2:
        return None
    effects = tuple(Effect(tuple(vs), _changes(at_base, r)) for r, vs in by_result.items())
    return Alone(policy, effects)


Table = dict[tuple[Value, ...], Outcomes]


def _table(tree: Tree[Outcomes], read: list[str], base: Mapping[str, Value]) -> Table:
    """The outcomes under every combination of the read policies' values."""
    table: Table = {}
    for values in itertools.product(*(options(p) for p in read)):
        found = tree.find({**base, **dict(zip(read, values, strict=True))})
        if found is not None:  # not values held still at others, or forbidden together
            table[values] = found.result
    return table


def _matters(table: Table, read: list[str], policy: str) -> bool:
    i = read.index(policy)
    return any(
        table.get((*key[:i], v, *key[i + 1 :]), result) != result
        for key, result in table.items()
        for v in options(policy)
    )


def _splits_by(table: Table, read: list[str], p: str, q: str) -> bool:
    """Whether the way p's values split by outcome changes with q's value (two policies
    interact when either's split changes with the other)."""
    i, j = read.index(p), read.index(q)

    def split(key: tuple[Value, ...]) -> tuple[int, ...]:
        results = [table.get((*key[:i], v, *key[i + 1 :])) for v in options(p)]
        return tuple(results.index(r) for r in results)

    for key in table:
        mine = split(key)
        for w in options(q):
            other = (*key[:j], w, *key[j + 1 :])
            if other in table and split(other) != mine:
                return True
    return False


def _joint(
    table: Table, read: list[str], matter: tuple[str, ...], at_base: Outcomes
) -> tuple[Joint, ...]:
    """Every outcome of the policies that matter, with the rule books giving it (the policies
    that do not matter are free: they change nothing)."""
    cubes: dict[Outcomes, list[Cube]] = {}
    index = [read.index(p) for p in matter]
    seen = set()
    for key, result in table.items():
        values = tuple(key[i] for i in index)
        if values in seen:
            continue
        seen.add(values)
        cubes.setdefault(result, []).append(Cube.of(dict(zip(matter, values, strict=True))))
    return tuple(
        Joint(tuple(merged(found)), _changes(at_base, result))
        for result, found in sorted(cubes.items(), key=lambda item: item[0] != at_base)
    )
