"""Sets of rule books described compactly: "convoy_cut ∈ {1971, 1982} and brannan = false".

A set of rule books is a union of *cubes*: a cube constrains some policies to sets of their
values and leaves the others free.  The leaves of a search are cubes (the policies a run
read, each to one value); `merged` joins cubes that differ in one policy only, until none
can be joined, and drops those another cube contains, which reads as a short "or" of
"and"s.  The description is not always the shortest there is, but it describes exactly
the same set."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..values.rules import POLICIES
from .tracing import Value, options, spelled


@dataclass(frozen=True, slots=True)
class Cube:
    """The rule books giving each constrained policy one of its allowed values."""

    allowed: tuple[tuple[str, frozenset[Value]], ...]  # in the order rule books list them

    @classmethod
    def of(cls, values: Mapping[str, Value | Iterable[Value]]) -> Cube:
        """A cube from policies' values (one value, or several); a policy allowed all its
        values is left free."""
        allowed = {}
        for policy, given in values.items():
            chosen = frozenset([given] if isinstance(given, bool | enum.Enum) else given)
            if chosen != frozenset(options(policy)):
                allowed[policy] = chosen
        return cls(tuple(sorted(allowed.items(), key=lambda item: _RANK[item[0]])))

    @property
    def constrained(self) -> dict[str, frozenset[Value]]:
        return dict(self.allowed)

    def holds(self, values: Mapping[str, Value]) -> bool:
        """Whether a rule book (its policies by name) is in the cube."""
        return all(values[policy] in chosen for policy, chosen in self.allowed)

    def contains(self, other: Cube) -> bool:
        """Whether every rule book of `other` is in this cube."""
        mine, theirs = self.constrained, other.constrained
        return all(policy in theirs and theirs[policy] <= chosen for policy, chosen in mine.items())

    def text(self) -> str:
        """'convoy_cut ∈ {1971, 1982} and brannan = false', or 'any rule book'."""
        if not self.allowed:
            return "any rule book"
        return " and ".join(_condition(policy, chosen) for policy, chosen in self.allowed)


_RANK = {policy: rank for rank, policy in enumerate(POLICIES)}
"""Policies in the order rule books list them."""


def _condition(policy: str, chosen: frozenset[Value]) -> str:
    ordered = [v for v in options(policy) if v in chosen]  # in the order the policy lists them
    if len(ordered) == 1:
        return f"{policy} = {spelled(ordered[0])}"
    return f"{policy} ∈ {{{', '.join(spelled(v) for v in ordered)}}}"


def merged(cubes: Iterable[Cube]) -> list[Cube]:
    """The same set of rule books in fewer cubes: cubes that differ in one policy only
    become one (a round per policy, until nothing changes), then any cube inside another
    is dropped."""
    found = set(cubes)
    changed = True
    while changed:
        changed = False
        for policy in POLICIES:
            buckets: dict[tuple[tuple[str, frozenset[Value]], ...], list[Cube]] = {}
            for cube in found:
                rest = tuple(item for item in cube.allowed if item[0] != policy)
                buckets.setdefault(rest, []).append(cube)
            for rest, same in buckets.items():
                if len(same) > 1:
                    every = frozenset(options(policy))
                    union = frozenset().union(*(c.constrained.get(policy, every) for c in same))
                    found.difference_update(same)
                    found.add(Cube.of({**dict(rest), policy: union}))
                    changed = True
    ordered = sorted(found, key=_order)
    if len(ordered) <= SUBSUMPTION_LIMIT:
        ordered = [c for c in ordered if not any(o != c and o.contains(c) for o in ordered)]
    return ordered


SUBSUMPTION_LIMIT = 400
"""Up to how many cubes `merged` drops those inside others (it compares every pair)."""


def _order(cube: Cube) -> tuple[int, str]:
    """Broader cubes first, then by their text: a deterministic order."""
    return (len(cube.allowed), cube.text())


def described(cubes: Iterable[Cube]) -> str:
    """A set of rule books in words: its merged cubes joined by 'or'; 'no rule book' when
    it is empty."""
    found = merged(cubes)
    if not found:
        return "no rule book"
    if len(found) == 1:
        return found[0].text()
    return " or ".join(f"({c.text()})" if len(c.allowed) > 1 else c.text() for c in found)
