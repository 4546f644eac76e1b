"""Comparing rule books: the cases whose outcomes differ, with the outcomes that differ and
the policies that make them differ.

The tracing search (`rulesearch/tracing.py`) says which policies a run reads: the policies
the two set differently that the case reads under either are the candidates, and the
smallest set of them that, switched from the first's values to the second's, turns the
first's outcomes into the second's is the cause.  When there are too many sets to try, the
cause given is every candidate."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from ..errors import DipsatError
from ..formats.cases import Case
from ..multiverse.state import Multiverse
from ..values.rules import POLICIES, RuleBook, conflicting
from .tracing import Value, branches, spelled

Key = tuple[str, str]
"""What an outcome is of: its phase (or multiverse step), and the order as the case writes
it (or 'civil disorder', 'paradox', and what a multiverse step leaves)."""

CAUSE_RUNS = 130
"""The most runs spent on finding which policies make a case differ (then every policy the
case reads that the two rule books set differently is given): every set of up to three of
the nine policies J and O both read and set differently in the 5D cases."""


def played(case: Case, rules: RuleBook) -> dict[Key, str]:
    """Every order's outcome label under a rule book (and civil disorder, and whether a
    paradox is left unresolved), keyed by phase (or step) and order."""
    found: dict[Key, str] = {}
    game = case.game()
    for number, block in enumerate(case.blocks, start=1):
        done = game.step([o.given for o in block.orders], rules)
        label = done.label(number)
        for written, o in zip(block.orders, done.outcomes, strict=True):
            found[label, str(written.given)] = o.label  # as the case writes it
        if done.civil_disorder is not None:
            removed = ", ".join(u.text(game.names) for u in done.civil_disorder)
            found[label, "civil disorder"] = removed or "none"
        if done.movement is not None and any(c.unresolved for c in done.movement.cores):
            found[label, "paradox"] = "unresolved"
        for o in getattr(done, "revised", ()):  # a multiverse step's past orders
            found[label, f"again: {o.given}"] = o.label

        game = done.after
        if isinstance(game, Multiverse):  # what the step leaves: boards, forks, retreats
            found[label, "boards"] = " ".join(game.board_names())
            forks = [str(f) for f in done.forks]
            found[label, "forks"] = ", ".join(forks) or "none"
            waiting = ", ".join(u.text(game.names) for u in game.awaiting())
            found[label, "retreating"] = waiting or "none"
    return found


def outcomes(case: Case, rules: RuleBook) -> dict[str, str]:
    """`played`, each key written 'PHASE: ORDER' (as searches over rule books key them)."""
    return {f"{phase}: {what}": label for (phase, what), label in played(case, rules).items()}


def case_outcomes(case: Case) -> Callable[[RuleBook], tuple[tuple[str, str], ...]]:
    """The computation a search over rule books runs for a case: its `outcomes`, or a
    single ("error", message) where the case cannot be played under a rule book."""

    def run(book: RuleBook) -> tuple[tuple[str, str], ...]:
        try:
            return tuple(
                (key, str(getattr(label, "value", label)))
                for key, label in outcomes(case, book).items()
            )
        except DipsatError as error:
            return (("error", str(error)),)

    return run


@dataclass(frozen=True, slots=True)
class Setting:
    """A policy the two rule books set differently, and each one's value."""

    policy: str
    first: Value
    second: Value

    def text(self) -> str:
        """'convoy_cut (always → 1982)'."""
        return f"{self.policy} ({spelled(self.first)} → {spelled(self.second)})"


@dataclass(frozen=True, slots=True)
class Differing:
    """An outcome the two rule books give differently, and the policies that, switched from
    the first's values to the second's, turn the one into the other."""

    phase: str
    what: str
    first: str
    second: str
    policies: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CaseDifference:
    """A case the two rule books decide differently.

    `policies` is the smallest set of policies that, switched from the first rule book's
    values to the second's, turns every outcome of the case into the second's (`exact`);
    or, where the case reads too many of the policies the two set differently to try them,
    all of those it reads (`exact` false)."""

    id: str
    title: str
    outcomes: tuple[Differing, ...]
    settings: tuple[Setting, ...]  # the policies that make it differ, with their values
    exact: bool

    @property
    def policies(self) -> tuple[str, ...]:
        return tuple(s.policy for s in self.settings)

    def cause(self) -> str:
        """'because of convoy_cut (always → 1982)', or where the search could not single
        them out, 'because of some of ...'."""
        if self.exact:
            return f"because of {' and '.join(s.text() for s in self.settings)}"
        listed = ", ".join(s.text() for s in self.settings)
        return f"because of some of: {listed} (each read by the case; too many sets to try)"


def compare(cases: Iterable[Case], first: RuleBook, second: RuleBook) -> list[CaseDifference]:
    """Cases whose outcomes differ between two rule books, with the policies that make them."""
    differences = []
    for case in cases:
        a, b = played(case, first), played(case, second)
        keys = _differing(a, b)
        if not keys:
            continue
        exact, whole, each = _causes(case, first, second, b, keys)
        differences.append(
            CaseDifference(
                case.id,
                case.title,
                tuple(Differing(*key, a.get(key, "-"), b.get(key, "-"), each[key]) for key in keys),
                tuple(Setting(p, getattr(first, p), getattr(second, p)) for p in whole),
                exact,
            )
        )
    return differences


def _differing(a: Mapping[Key, str], b: Mapping[Key, str]) -> list[Key]:
    """The outcomes that differ, in the first rule book's order, then the second's."""
    keys = list(a) + [k for k in b if k not in a]
    return [k for k in keys if a.get(k) != b.get(k) and not _scope_only(k, a, b)]


def _scope_only(key: Key, a: Mapping[Key, str], b: Mapping[Key, str]) -> bool:
    """A past order one rule book adjudicated again and the other did not: a difference of
    how far a step reaches into the past, not of what happened (the boards, forks and step
    outcomes show that)."""
    return key[1].startswith("again: ") and (key not in a or key not in b)


def _causes(
    case: Case, first: RuleBook, second: RuleBook, b: Mapping[Key, str], keys: Sequence[Key]
) -> tuple[bool, tuple[str, ...], dict[Key, tuple[str, ...]]]:
    """Whether the policies that make the case differ were singled out; those policies;
    and those that make each differing outcome differ.

    The candidates are the policies the two rule books set differently that a run under
    either reads (switching them all gives the second's run, which reads no other). Sets
    of them are tried, smallest first, each a run under the first rule book with the set
    switched, until one gives every outcome of the second, or `CAUSE_RUNS` runs are spent
    (then the case's cause is all the candidates; an outcome keeps the set that turned it,
    if one did)."""

    def run(book: RuleBook) -> dict[Key, str]:
        try:
            return played(case, book)
        except DipsatError as error:  # a mix of the two rule books the case cannot take
            return {("", "error"): str(error)}

    read = {p for book in (first, second) for p in _reads(run, book)}
    candidates = [p for p in POLICIES if getattr(first, p) != getattr(second, p) and p in read]
    base = {p: getattr(first, p) for p in POLICIES}
    each: dict[Key, tuple[str, ...]] = {}
    runs = 0
    for size in range(1, len(candidates) + 1):
        for chosen in itertools.combinations(candidates, size):
            switched = {**base, **{p: getattr(second, p) for p in chosen}}
            if conflicting(switched):
                continue  # no rule book holds these values together
            if runs == CAUSE_RUNS:
                whole = tuple(candidates)
                return False, whole, {k: each.get(k, whole) for k in keys}
            runs += 1
            got = run(replace(first, **switched))
            for k in keys:
                if k not in each and got.get(k) == b.get(k):
                    each[k] = chosen
            if not _differing(got, b):
                return True, chosen, {k: each.get(k, chosen) for k in keys}
    whole = tuple(candidates)  # only when a run under the second fails to repeat itself
    return False, whole, {k: each.get(k, whole) for k in keys}


def _reads(run: Callable[[RuleBook], object], book: RuleBook) -> list[str]:
    """The policies a run under a rule book reads (the tracing search's one run with
    every policy held)."""
    (leaf,) = branches(run, book, POLICIES)
    return [p for p, _ in leaf.read]


def as_json(differences: Sequence[CaseDifference]) -> list[dict[str, object]]:
    """The differences as `dipsat compare-rules --json` prints them."""

    def value(v: Value) -> str | bool:
        return v if isinstance(v, bool) else spelled(v)

    return [
        {
            "id": d.id,
            "title": d.title,
            "policies": [
                {"policy": s.policy, "first": value(s.first), "second": value(s.second)}
                for s in d.settings
            ],
            "exact": d.exact,
            "orders": [
                {
                    "phase": o.phase,
                    "order": o.what,
                    "first": o.first,
                    "second": o.second,
                    "policies": list(o.policies),
                }
                for o in d.outcomes
            ],
        }
        for d in differences
    ]


def lines(differences: Sequence[CaseDifference]) -> list[tuple[str, str]]:
    """The differences as text, one block per case: each line with its style ('case' for
    a case's heading, '' otherwise); the phase once for the outcomes of one phase, and an
    outcome's own policies where they are not the case's."""
    found: list[tuple[str, str]] = []
    for d in differences:
        found.append(("", ""))
        found.append(("case", f"{d.id} {d.title}".rstrip()))
        found.append(("", f"  {d.cause()}"))
        phase = None
        for o in d.outcomes:
            if o.phase != phase:
                phase = o.phase
                found.append(("", f"  {phase}:"))
            own = f"  [{', '.join(o.policies)}]" if o.policies != d.policies else ""
            found.append(("", f"    {o.what}: {o.first} → {o.second}{own}"))
    return found
