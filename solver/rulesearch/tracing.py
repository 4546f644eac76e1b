"""Every way the policies can decide something, found by watching which policies it reads.

The adjudicator reads a policy only where the policy decides something, so a computation
(adjudicating a case, replaying a transition) depends on the policies it reads and on no
other. `branches` runs the computation under a rule book that hands out a policy's value
when it is first read and records it; then runs it again once for every other value of
every policy read, the values read before it kept, and so on: the runs are the leaves of
the tree of the policies' values, each a partial assignment (the policies read, in the
order read) and what the computation came to. A policy never read can take any value.

For a turn without convoys this is one run per value of the few policies it touches, not
one per rule book: the search branches only where the rules are consulted."""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from ..errors import DipsatError
from ..values.rules import (
    POLICIES,
    RULE_BOOKS,
    RuleBook,
    conflicting,
    is_edition,
    policy_named,
    policy_options,
)

T = TypeVar("T")

Value = bool | enum.Enum
"""A policy's value: true or false, or an option of its enum."""


def options(policy: str) -> tuple[Value, ...]:
    """The values a policy takes, in the order its type lists them."""
    return policy_options(policy)


def spelled(value: Value) -> str:
    """A value as rule-book files write it: true/false or the option's name."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value.value)


def named_books(base: RuleBook) -> dict[str, RuleBook]:
    """The rule books a search reports on by name: the named ones, then the base when it is
    none of them unchanged (a user's own), under its name, or 'NAME (base)' when a named
    rule book is called that."""
    books = dict(RULE_BOOKS)
    if not is_edition(base):
        books[base.name if base.name not in books else f"{base.name} (base)"] = base
    return books


@dataclass(frozen=True, slots=True)
class Leaf(Generic[T]):
    """One run: the policies it read with their values, in the order read, and its result."""

    read: tuple[tuple[str, Value], ...]
    result: T

    @property
    def assignment(self) -> dict[str, Value]:
        return dict(self.read)


class SearchTooLarge(DipsatError):
    """A search that would take more runs than its limit."""


def held_policies(names: str | Iterable[str]) -> tuple[str, ...]:
    """The policies to hold still in a search, from their names (one name, or several).

    Raises:
        TypeError: `names` is not text or an iterable of text.
        DipsatError: a name that is no policy (the message suggests the nearest).
    """
    given = [names] if isinstance(names, str) else names
    if not isinstance(given, Iterable):
        raise TypeError(f"hold: expected policy names, found {type(names).__name__}")
    chosen = []
    for name in given:
        if not isinstance(name, str):
            raise TypeError(f"hold: expected policy names, found {type(name).__name__}")
        chosen.append(policy_named(name, " to hold"))
    return tuple(chosen)


class _Chooser:
    """Hands out each policy's value on its first read: the forced ones of a branch's
    prefix first, then the base rule book's."""

    def __init__(self, base: RuleBook, forced: tuple[tuple[str, Value], ...]) -> None:
        self.base = base
        self.forced = forced
        self.read: list[tuple[str, Value]] = []
        self.values: dict[str, Value] = {}

    def value(self, policy: str) -> Value:
        if policy in self.values:
            return self.values[policy]
        index = len(self.read)
        if index < len(self.forced):
            expected, value = self.forced[index]
            if expected != policy:  # the computation is not a function of its reads
                raise RuntimeError(f"read {policy} where {expected} was read before")
        else:
            value = getattr(self.base, policy)
        self.read.append((policy, value))
        self.values[policy] = value
        return value


class _Traced(RuleBook):
    """A rule book whose policies come from a chooser, which records each first read."""

    def __getattribute__(self, name: str) -> Any:
        if name in POLICIES:
            chooser: _Chooser = object.__getattribute__(self, "_chooser")
            return chooser.value(name)
        return object.__getattribute__(self, name)


def _traced(chooser: _Chooser) -> RuleBook:
    book = object.__new__(_Traced)
    object.__setattr__(book, "name", chooser.base.name)
    object.__setattr__(book, "_chooser", chooser)
    return book


def branches(
    run: Callable[[RuleBook], T],
    base: RuleBook,
    held: Iterable[str] = (),
    limit: int = 100_000,
) -> Iterator[Leaf[T]]:
    """Every leaf of the tree of policy values the computation `run` reads, the base rule
    book's values first; the policies `held` keep their base value (no branch).

    Raises:
        SearchTooLarge: more than `limit` runs (a computation that reads too many
            policies: hold some still).
    """
    held = set(held)
    pending: list[tuple[tuple[str, Value], ...]] = [()]
    runs = 0
    while pending:
        forced = pending.pop()
        runs += 1
        if runs > limit:
            branching = sorted({p for prefix in pending for p, _ in prefix} - held)
            raise SearchTooLarge(
                f"more than {limit:,} runs: the computation reads {len(branching)} policies "
                f"({', '.join(branching)}); hold some still at the base rule book's value "
                "(--hold POLICY)"
            )
        chooser = _Chooser(base, forced)
        result = run(_traced(chooser))
        read = tuple(chooser.read)
        for index in range(len(read) - 1, len(forced) - 1, -1):
            policy, value = read[index]
            if policy in held:
                continue
            for other in reversed(options(policy)):
                if other != value:
                    pending.append((*read[:index], (policy, other)))
        if not conflicting(dict(read)):  # values no rule book holds together: no leaf
            yield Leaf(read, result)


class Tree(Generic[T]):
    """The leaves of a search, looked up by rule book: every rule book falls in exactly one
    leaf (the runs branched on every value of every policy they read)."""

    def __init__(self, leaves: Iterable[Leaf[T]]) -> None:
        self.leaves = list(leaves)
        self._root: dict[str, Any] = {}
        for leaf in self.leaves:
            node = self._root
            for policy, value in leaf.read:
                node = node.setdefault(policy, {}).setdefault(value, {})
            node[_LEAF] = leaf

    @property
    def policies(self) -> list[str]:
        """The policies some run read, in the order rule books list them."""
        read = {policy for leaf in self.leaves for policy, _ in leaf.read}
        return [p for p in POLICIES if p in read]

    def find(self, values: Mapping[str, Value] | RuleBook) -> Leaf[T] | None:
        """The run a rule book (or a table of every policy read) gives; None for one the
        search left out: it holds a policy the search held still at another value, or
        values no rule book holds together."""
        get = values.get if isinstance(values, Mapping) else lambda p: getattr(values, p)
        node = self._root
        while _LEAF not in node:
            ((policy, children),) = node.items()
            node = children.get(get(policy))
            if node is None:
                return None
        leaf: Leaf[T] = node[_LEAF]
        return leaf

    def leaf(self, values: Mapping[str, Value] | RuleBook) -> Leaf[T]:
        """The run a rule book gives, for one the search covers (`find` for any other).

        Raises:
            LookupError: the search left it out.
        """
        found = self.find(values)
        if found is None:
            raise LookupError("a rule book outside the search: it holds a policy held still")
        return found


_LEAF = "leaf"


def blindly(
    run: Callable[[RuleBook], T], base: RuleBook, policies: Iterable[str]
) -> Iterator[tuple[dict[str, Value], T]]:
    """The reference the search is checked against: `run` under every combination of the
    policies' values (the others at the base rule book's), with no tracing at all."""
    chosen = list(policies)
    for values in itertools.product(*(options(p) for p in chosen)):
        table = dict(zip(chosen, values, strict=True))
        try:
            book = replace(base, **table)  # type: ignore[arg-type]
        except DipsatError:  # a combination no rule book may hold
            continue
        yield table, run(book)
