"""The cores of a dependency graph, read off the recorded reads without building a graph.

`depends` maps each decision to the decisions its equation reads.  The cores are its
strongly connected parts that hold a cycle, each listed before the cores that read it, in
the order networkx's strongly connected components and level-by-level topological sort give
on the same graph (tests/test_fallback.py holds the two to the same answer).  A turn with
a cycle meets these functions every time; most cycles propagation settles already, so
building a graph object for them cost more than settling them.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence, Set
from typing import Any, Protocol, TypeVar


class _Decision(Hashable, Protocol):
    """What a decision is to these functions: hashable and ordered (a number in the judge)."""

    def __lt__(self, other: Any, /) -> bool: ...


D = TypeVar("D", bound=_Decision)

Reads = dict[D, list[D]]
"""Each decision (by number, `solver.judge.structure`) with the decisions of the turn it
reads, in order."""


def reads_of(depends: Mapping[D, Set[D]]) -> Reads[D]:
    """The reads within the turn, in sorted order (never in set order, which changes with
    the interpreter's hash seed)."""
    return {d: [r for r in sorted(reads) if r in depends] for d, reads in depends.items()}


def is_cyclic(depends: Mapping[D, Set[D]]) -> bool:
    """Does some decision depend on itself?  A depth-first search: a read that is still on
    the search path closes a cycle."""
    done: set[D] = set()
    for root in depends:
        if root in done:
            continue
        on_path = {root}
        stack = [(root, iter(depends[root]))]
        while stack:
            node, reads = stack[-1]
            for read in reads:
                if read in on_path:
                    return True
                if read not in done and read in depends:
                    on_path.add(read)
                    stack.append((read, iter(depends[read])))
                    break
            else:
                stack.pop()
                on_path.discard(node)
                done.add(node)
    return False


def components(reads: Reads[D]) -> list[list[D]]:
    """The strongly connected parts, each completed after every part it reads (Tarjan's
    depth-first search, from the decisions in turn order, along their reads in order)."""
    number: dict[D, int] = {}
    low: dict[D, int] = {}
    path: list[D] = []
    on_path: set[D] = set()
    found: list[list[D]] = []
    for root in reads:
        if root in number:
            continue
        number[root] = low[root] = len(number)
        path.append(root)
        on_path.add(root)
        stack = [(root, iter(reads[root]))]
        while stack:
            node, pending = stack[-1]
            for read in pending:
                if read not in number:
                    number[read] = low[read] = len(number)
                    path.append(read)
                    on_path.add(read)
                    stack.append((read, iter(reads[read])))
                    break
                if read in on_path:
                    low[node] = min(low[node], number[read])
            else:
                stack.pop()
                if stack:
                    parent = stack[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == number[node]:
                    part = []
                    while True:
                        member = path.pop()
                        on_path.discard(member)
                        part.append(member)
                        if member == node:
                            break
                    found.append(part)
    return found


def cores_in_order(reads: Reads[D]) -> list[tuple[D, ...]]:
    """The cores, each before those that read it (see the module docstring): the parts in
    the order of a level-by-level topological sort of the parts, from the parts nothing
    reads, reversed."""
    parts = components(reads)
    if all(len(p) == 1 and p[0] not in reads[p[0]] for p in parts):
        return []  # acyclic
    part_of = {d: i for i, part in enumerate(parts) for d in part}
    readers_in: list[int] = [0] * len(parts)
    read_parts: list[dict[int, None]] = [{} for _ in parts]  # ordered, without repeats
    for d, rs in reads.items():
        a = part_of[d]
        for r in rs:
            b = part_of[r]
            if a != b and b not in read_parts[a]:
                read_parts[a][b] = None
                readers_in[b] += 1
    order: list[int] = []
    level = [i for i in range(len(parts)) if readers_in[i] == 0]
    while level:
        order += level
        following = []
        for i in level:
            for j in read_parts[i]:
                readers_in[j] -= 1
                if readers_in[j] == 0:
                    following.append(j)
        level = following
    return [
        tuple(sorted(parts[i]))
        for i in reversed(order)
        if len(parts[i]) > 1 or parts[i][0] in reads[parts[i][0]]
    ]


def downstream(reads: Reads[D], start: D) -> set[D]:
    """The decisions `start` reads, however indirectly (itself only through a cycle)."""
    seen: set[D] = set()
    todo = list(reads[start])
    while todo:
        d = todo.pop()
        if d not in seen:
            seen.add(d)
            todo += reads[d]
    return seen


def sub_cores(left: Iterable[D], reads: Reads[D], order: Sequence[D]) -> list[tuple[D, ...]]:
    """The cores among the decisions of a core a backup rule left unsettled, each before
    those that read it: read in the turn's decision `order`, never in the order of a set
    (which follows the interpreter's hash seed for text)."""
    kept = set(left)
    within = {d: [r for r in reads[d] if r in kept] for d in order if d in kept}
    return cores_in_order(within)
