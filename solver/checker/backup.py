"""Does each core follow the backup rule it claims?  (DATC 5.B, and the rule book's 4.A.2
convoy paradox policy.)

A core with a convoy is a convoy paradox, settled by the rule the rule book's
`convoy_paradox` policy gives; any other core is circular movement: its moves succeed, or,
when they cannot, its moves and supports fail.  Each rule sets every decision of its own
kinds in the core, to the rule's value, and no decision of another kind.

Szykman, all fail, all hold and the unresolved paradox overrule the equations: the
decisions they set are listed as forced and exempt from their equations.  Circular movement
and the DPTG rule pick a consistent resolution: the decisions they set still obey their
equations (`solver.checker.check` verifies them like any other).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..values.decisions import CONVOY, MOVE, SUPPORT, Decision, DecisionKind
from ..values.outcomes import BackupRule
from ..values.rules import ConvoyParadox
from .claim import Claim, SettledClaim
from .turn import TurnReading


@dataclass(frozen=True, slots=True)
class _Sets:
    """What a backup rule sets: the decisions of these kinds in its core, to this value."""

    kinds: frozenset[DecisionKind]
    value: bool
    overrules: bool  # against their equations (else it picks a consistent resolution)


_SETS = {
    BackupRule.SZYKMAN: _Sets(frozenset({CONVOY}), False, True),  # the convoys fail
    BackupRule.ALL_HOLD: _Sets(frozenset({MOVE}), False, True),  # the moves fail
    BackupRule.UNRESOLVED: _Sets(frozenset({MOVE}), False, True),  # so, reported unresolved
    BackupRule.DPTG: _Sets(frozenset({CONVOY}), False, False),  # the one resolution they fail
    BackupRule.CIRCULAR_MOVEMENT: _Sets(frozenset({MOVE}), True, False),  # the moves succeed
    BackupRule.ALL_FAIL: _Sets(frozenset({MOVE, SUPPORT}), False, True),  # moves and supports
}
"""What each backup rule sets (a unique core is no paradox: nothing is set)."""

_CONVOY_PARADOX = {
    ConvoyParadox.SZYKMAN: (BackupRule.SZYKMAN,),
    ConvoyParadox.ALL_HOLD: (BackupRule.ALL_HOLD,),
    ConvoyParadox.DPTG: (BackupRule.DPTG, BackupRule.ALL_HOLD),  # all hold when none fits
    ConvoyParadox.NONE: (BackupRule.UNRESOLVED,),
}
"""The rules each convoy paradox policy settles a convoy paradox by."""

_CIRCULAR_MOVEMENT = (BackupRule.CIRCULAR_MOVEMENT, BackupRule.ALL_FAIL)
"""The rules that settle any other paradox, whatever the rule book."""


def set_by(core: SettledClaim) -> list[Decision]:
    """The decisions of the core its rule sets."""
    sets = _SETS.get(core.rule)
    return [d for d in core.decisions if sets is not None and d[0] in sets.kinds]


def overruled(claim: Claim) -> frozenset[Decision]:
    """The forced decisions exempt from their equations: all but those set by a rule that
    picks a consistent resolution (a forced decision no rule sets is named by
    `backup_problems`, and not again by its equation)."""
    consistent = {d for c in claim.cores if not _overrules(c.rule) for d in set_by(c)}
    return frozenset(claim.forced.keys() - consistent)


def _overrules(rule: BackupRule) -> bool:
    sets = _SETS.get(rule)
    return sets is not None and sets.overrules


def backup_problems(claim: Claim, turn: TurnReading) -> list[str]:
    """Cores settled by a rule the rule book does not give them, decisions a core's rule
    sets that do not have its value, and forced decisions no core's rule sets."""
    policy = claim.rules.convoy_paradox
    found = []
    gives: dict[Decision, set[bool]] = {}
    for core in claim.cores:
        rule = core.rule
        if rule is BackupRule.UNIQUE:
            continue
        names = "; ".join(turn.label(d) for d in core.decisions)
        if any(kind is CONVOY for kind, _ in core.decisions):
            if rule not in _CONVOY_PARADOX[policy]:
                allowed = " or ".join(_CONVOY_PARADOX[policy])
                found.append(
                    f"the rule book settles a convoy paradox by {allowed}, not {rule}: {names}"
                )
        elif rule not in _CIRCULAR_MOVEMENT:
            found.append(f"a core without a convoy is no convoy paradox, not {rule}: {names}")
        sets = _SETS[rule]
        for d in set_by(core):
            gives.setdefault(d, set()).add(sets.value)
            label = turn.label(d)
            if claim.values.get(d) != sets.value:
                found.append(
                    f"{label} lies on a core settled by {rule}, which makes it {sets.value}"
                )
            elif sets.overrules and d not in claim.forced:
                found.append(f"{label} lies on a core settled by {rule}, but is not set by it")
    for d, value in claim.forced.items():
        if value not in gives.get(d, ()) or claim.values.get(d) != value:
            found.append(f"{turn.label(d)} was set by a backup rule it does not follow")
    return found
