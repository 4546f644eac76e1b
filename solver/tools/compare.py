"""Comparing rule books: the cases whose outcomes differ, with the orders that differ."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..formats.cases import Case
from ..multiverse.state import Multiverse
from ..values.rules import RuleBook


def outcomes(case: Case, rules: RuleBook) -> dict[str, str]:
    """Every order's outcome label under a rule book (and civil disorder, and whether a
    paradox is left unresolved), keyed by phase (or step) and order."""
    found: dict[str, str] = {}
    game = case.game()
    for number, block in enumerate(case.blocks, start=1):
        done = game.step([o.given for o in block.orders], rules)
        label = done.label(number)
        for written, o in zip(block.orders, done.outcomes, strict=True):
            found[f"{label}: {written.given}"] = o.label  # as the case writes it
        if done.civil_disorder is not None:
            removed = ", ".join(u.text(game.names) for u in done.civil_disorder)
            found[f"{label}: civil disorder"] = removed or "none"
        if done.movement is not None and any(c.unresolved for c in done.movement.cores):
            found[f"{label}: paradox"] = "unresolved"
        for o in getattr(done, "revised", ()):  # a multiverse step's past orders
            found[f"{label}: again: {o.given}"] = o.label

        game = done.after
        if isinstance(game, Multiverse):  # what the step leaves: boards, forks, retreats
            found[f"{label}: boards"] = " ".join(game.board_names())
            forks = [str(f) for f in done.forks]
            found[f"{label}: forks"] = ", ".join(forks) or "none"
            waiting = ", ".join(u.text(game.names) for u in game.awaiting())
            found[f"{label}: retreating"] = waiting or "none"
    return found


def compare(cases: Iterable[Case], first: RuleBook, second: RuleBook) -> list[dict[str, Any]]:
    """Cases whose outcomes differ between two rule books."""
    differences = []
    for case in cases:
        a, b = outcomes(case, first), outcomes(case, second)
        orders = [
            {"order": key, "first": a.get(key, "-"), "second": b.get(key, "-")}
            for key in sorted(
                set(a) | set(b), key=lambda k: (k not in a, list(a).index(k) if k in a else 0)
            )
            if a.get(key) != b.get(key) and not _scope_only(key, a, b)
        ]
        if orders:
            differences.append({"id": case.id, "orders": orders})
    return differences


def _scope_only(key: str, a: dict[str, str], b: dict[str, str]) -> bool:
    """A past order one rule book adjudicated again and the other did not: a difference of
    how far a step reaches into the past, not of what happened (the boards, forks and step
    outcomes show that)."""
    return ": again: " in key and (key not in a or key not in b)
