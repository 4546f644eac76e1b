"""The searches' results as text lines and as JSON (what `dipsat rulebooks` prints)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .describe import Cube
from .fit import Fit
from .influence import CaseInfluence, OutcomeChange
from .solve import Solution
from .tracing import options, spelled


def _changes(changes: Sequence[OutcomeChange], indent: str) -> list[str]:
    return [indent + c.text() for c in changes]


def influence_lines(found: Sequence[CaseInfluence]) -> list[str]:
    """Each case's deciding policies, then which cases each policy decides."""
    lines: list[str] = []
    for one in found:
        head = f"{one.case} {one.title}: {one.runs} run(s)"
        if not one.matter:
            read = f", read {', '.join(one.read)}" if one.read else ""
            lines.append(f"{head}; no policy changes an outcome{read}")
            continue
        lines.append(f"{head}; decided by {', '.join(one.matter)}")
        alone = {a.policy for a in one.alone}
        for a in one.alone:
            lines.append(f"  {a.policy} (the others as in {one.base}):")
            for effect in a.effects:
                values = ", ".join(spelled(v) for v in effect.values)
                if not effect.changes:
                    lines.append(f"    {values}: as under {one.base}")
                    continue
                lines.append(f"    {values}:")
                lines += _changes(effect.changes, "      ")
        together = [p for p in one.matter if p not in alone]
        if together:
            lines.append(f"  only together with others: {', '.join(together)}")
        if one.interacting:
            pairs = ", ".join(f"{p} × {q}" for p, q in one.interacting)
            lines.append(f"  jointly (interacting: {pairs}):")
            for joint in one.joint:
                if not joint.changes:
                    lines.append(f"    as under {one.base}: {joint.description}")
                    continue
                lines.append(f"    {joint.description}:")
                lines += _changes(joint.changes, "      ")
        if not one.complete:
            lines.append("  (too many combinations to work out how the policies interact)")
    if len(found) > 1:
        lines.append("")
        lines.append("the cases each policy decides (alone or together):")
        deciding: dict[str, list[str]] = {}
        for one in found:
            for p in one.matter:
                deciding.setdefault(p, []).append(one.case)
        for policy, cases in deciding.items():
            lines.append(f"  {policy}: {' '.join(cases)}")
        runs = sum(one.runs for one in found)
        lines.append(f"{len(found)} case(s), {runs} run(s), {len(deciding)} deciding policies")
    return lines


def solution_lines(solution: Solution) -> list[str]:
    """The rule books giving the expected outcomes, and the named ones among them."""
    lines = [f"{solution.case}: {e}" for e in solution.expectations]
    lines.append(f"hold under: {solution.description}")
    free = "any value of the policies not named"
    lines.append(f"  ({free}; the case reads {', '.join(solution.read) or 'no policy'})")
    lines.append(f"named rule books among them: {', '.join(solution.books) or 'none'}")
    if solution.not_searched:
        outside = ", ".join(solution.not_searched)
        lines.append(f"  (not searched, as they set a held policy otherwise: {outside})")
    lines.append(f"{solution.runs} run(s)")
    return lines


def fit_lines(fit: Fit) -> list[str]:
    """What the games pin down, leave open and leave unexplained."""
    lines = [
        f"{fit.games} game(s), {fit.transitions} transition(s), {fit.runs} run(s)",
        f"fewest mismatches: {fit.mismatches}, under {fit.description}",
    ]
    pinned = ", ".join(f"{p} = {spelled(v)}" for p, v in fit.pinned)
    lines.append(f"pinned down: {pinned or 'nothing'}")
    if fit.undecided:
        lines.append(f"left open by the best fits: {', '.join(fit.undecided)}")
    lines.append(f"no transition depends on: {', '.join(fit.open) or 'none'}")
    lines.append("named rule books (mismatches):")
    lines += [f"  {name}: {count}" for name, count in fit.books]
    if fit.unexplained:
        lines.append(f"as recorded under no rule book ({len(fit.unexplained)}):")
        lines += [f"  {t.text()}" for t in fit.unexplained]
    if fit.against_best:
        lines.append(f"as recorded only under rule books that fit worse ({len(fit.against_best)}):")
        lines += [f"  {t.text()}" for t in fit.against_best]
    return lines


def _cube(cube: Cube) -> dict[str, list[str | bool]]:
    """A cube as JSON: each constrained policy and its allowed values, in order."""
    return {
        p: [v if isinstance(v, bool) else spelled(v) for v in options(p) if v in allowed]
        for p, allowed in cube.allowed
    }


def _change(change: OutcomeChange) -> dict[str, str]:
    return {"order": change.key, "base": change.base, "now": change.now}


def influence_json(found: Sequence[CaseInfluence]) -> list[dict[str, Any]]:
    return [
        {
            "case": one.case,
            "title": one.title,
            "base": one.base,
            "runs": one.runs,
            "read": list(one.read),
            "decided_by": list(one.matter),
            "alone": [
                {
                    "policy": a.policy,
                    "effects": [
                        {
                            "values": [spelled(v) for v in e.values],
                            "changes": [_change(c) for c in e.changes],
                        }
                        for e in a.effects
                    ],
                }
                for a in one.alone
            ],
            "interacting": [list(pair) for pair in one.interacting],
            "joint": [
                {
                    "when": [_cube(c) for c in j.cubes],
                    "description": j.description,
                    "changes": [_change(c) for c in j.changes],
                }
                for j in one.joint
            ],
            "complete": one.complete,
        }
        for one in found
    ]


def solution_json(solution: Solution) -> dict[str, Any]:
    return {
        "case": solution.case,
        "base": solution.base,
        "expect": list(solution.expectations),
        "outcomes": list(solution.keys),
        "when": [_cube(c) for c in solution.cubes],
        "description": solution.description,
        "rule_books": list(solution.books),
        "not_searched": list(solution.not_searched),
        "read": list(solution.read),
        "runs": solution.runs,
    }


def fit_json(fit: Fit) -> dict[str, Any]:
    return {
        "base": fit.base,
        "games": fit.games,
        "transitions": fit.transitions,
        "runs": fit.runs,
        "mismatches": fit.mismatches,
        "best": [_cube(c) for c in fit.best],
        "description": fit.description,
        "pinned": {p: v if isinstance(v, bool) else spelled(v) for p, v in fit.pinned},
        "undecided": list(fit.undecided),
        "open": list(fit.open),
        "rule_books": dict(fit.books),
        "unexplained": [t.text() for t in fit.unexplained],
        "against_best": [t.text() for t in fit.against_best],
        "errors": list(fit.errors),
    }
