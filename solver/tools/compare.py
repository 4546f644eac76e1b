"""Comparing rule books: the cases whose outcomes differ, with the orders that differ."""

from __future__ import annotations

from collections.abc import Iterable

from ..cycle.game import advance
from ..formats.cases import Case
from ..multiverse.state import Multiverse
from ..multiverse.step import step
from ..values.resolution import AdjustmentResolution, Resolution
from ..values.rules import RuleBook


def outcomes(case: Case, rules: RuleBook) -> dict[str, str]:
    """Every order's outcome label under a rule book (and civil disorder, and whether a
    paradox is left unresolved), keyed by phase and order."""
    found: dict[str, str] = {}
    if case.multiverse:
        mv = Multiverse.start(case.position)
        for number, block in enumerate(case.blocks, start=1):
            done = step(mv, [o.given for o in block.orders], rules)
            for o in done.outcomes:
                found[f"step {number}: {o.given}"] = o.label
            mv = done.after
        return found
    position = case.position
    for block in case.blocks:
        done = advance(position, [o.given for o in block.orders], rules)
        for o in done.outcomes:
            found[f"{position.phase}: {o.given}"] = o.label
        if isinstance(done, AdjustmentResolution):
            removed = ", ".join(position.name(u) for u in done.civil_disorder)
            removed = removed or "none"
            found[f"{position.phase}: civil disorder"] = removed
        if isinstance(done, Resolution) and any(c.unresolved for c in done.cores):
            found[f"{position.phase}: paradox"] = "unresolved"
        position = done.after
    return found


def compare(cases: Iterable[Case], first: RuleBook, second: RuleBook) -> list[dict]:
    """Cases whose outcomes differ between two rule books."""
    differences = []
    for case in cases:
        a, b = outcomes(case, first), outcomes(case, second)
        orders = [
            {"order": key, "first": a.get(key, "-"), "second": b.get(key, "-")}
            for key in sorted(
                set(a) | set(b), key=lambda k: (k not in a, list(a).index(k) if k in a else 0)
            )
            if a.get(key) != b.get(key)
        ]
        if orders:
            differences.append({"id": case.id, "orders": orders})
    return differences
