"""Which rule books give an outcome: every combination of the policies a case reads under
which all the expected outcomes hold, described compactly, and the named rule books among
them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from topology.files import shown

from ..errors import DipsatError, OrderSyntaxError
from ..formats.cases import Case, normalise_label
from ..values.notation import parse_given
from ..values.rules import RuleBook
from .compare import case_outcomes
from .describe import Cube, described, merged
from .influence import Outcomes
from .tracing import Tree, branches, held_policies, named_books


@dataclass(frozen=True, slots=True)
class Expectation:
    """'ORDER => OUTCOME': an order of the case (or 'paradox', 'civil disorder') and the
    outcome label expected for it."""

    text: str
    subject: str
    outcome: str

    @classmethod
    def read(cls, text: str) -> Expectation:
        """An expectation from its text.

        Raises:
            DipsatError: no '=>', or nothing on one side of it.
        """
        subject, arrow, outcome = text.partition("=>")
        if not arrow or not subject.strip() or not outcome.strip():
            raise DipsatError(
                f"expected 'ORDER => OUTCOME' (for example 'A Brest - London => succeeds'), "
                f"found {shown(text, 80)}"
            )
        return cls(text.strip(), subject.strip(), normalise_label(outcome))


@dataclass(frozen=True, slots=True)
class Solution:
    """The rule books under which a case's expected outcomes all hold."""

    case: str
    base: str
    expectations: tuple[str, ...]
    keys: tuple[str, ...]  # the outcome each expectation is about, as `outcomes` keys it
    cubes: tuple[Cube, ...]
    books: tuple[str, ...]  # the named rule books among them, and the base if it is none
    not_searched: tuple[str, ...]  # the named rule books setting a held policy otherwise
    read: tuple[str, ...]  # the policies the case reads (the others are free)
    runs: int

    @property
    def description(self) -> str:
        return described(self.cubes)


def solve(
    case: Case,
    expectations: Sequence[str | Expectation],
    base: RuleBook,
    held: Iterable[str] = (),
) -> Solution:
    """Every rule book under which each expectation holds in the case (the policies `held`
    at the base's value).

    Raises:
        DipsatError: an expectation that is malformed or names no order of the case.
    """
    wanted = [e if isinstance(e, Expectation) else Expectation.read(e) for e in expectations]
    if not wanted:
        raise DipsatError("expected at least one 'ORDER => OUTCOME' to solve for")
    tree = Tree(branches(case_outcomes(case), base, held_policies(held)))
    every = list(dict.fromkeys(key for leaf in tree.leaves for key, _ in leaf.result))
    keys = tuple(_key(case, e, every) for e in wanted)

    def holds(result: Outcomes) -> bool:
        found = dict(result)
        return all(
            normalise_label(found.get(k, "")) == e.outcome
            for k, e in zip(keys, wanted, strict=True)
        )

    cubes = tuple(merged(Cube.of(leaf.assignment) for leaf in tree.leaves if holds(leaf.result)))
    books, not_searched = [], []
    for name, book in named_books(base).items():
        leaf = tree.find(book)
        if leaf is None:  # it sets a held policy otherwise: the search did not reach it
            not_searched.append(name)
        elif holds(leaf.result):
            books.append(name)
    return Solution(
        case.id,
        base.name,
        tuple(e.text for e in wanted),
        keys,
        cubes,
        tuple(books),
        tuple(not_searched),
        tuple(tree.policies),
        len(tree.leaves),
    )


def _key(case: Case, expectation: Expectation, keys: Iterable[str]) -> str:
    """The outcome key an expectation is about: the order it names (read as the case's
    orders are, against its board), or a key ending the same way ('paradox').

    Raises:
        DipsatError: it names no outcome of the case, or several (in several phases).
    """
    keys = list(keys)
    wanted = _spaced(expectation.subject)
    read = {}  # the order as each kind of phase reads it, in DATC notation
    for kind in ("movement", "retreat", "adjustment"):
        try:
            given = parse_given(expectation.subject, case.position.map, kind)
        except (OrderSyntaxError, DipsatError):
            continue
        read[given.order_text] = given.power
    found = []
    for key in keys:
        tail = key.split(": ", 1)[1] if ": " in key else key
        order = tail.split(": ", 1)[1] if ": " in tail else tail  # without its power
        by_text = wanted in (_spaced(tail), _spaced(order))
        by_order = order in read and read[order] in (None, tail.split(": ", 1)[0])
        if by_text or by_order:
            found.append(key)
    if len(found) == 1:
        return found[0]
    if not found:
        orders = "; ".join(k.split(": ", 1)[-1] for k in keys)
        raise DipsatError(
            f"case {case.id} has no order or outcome {expectation.subject!r}; it has: {orders}"
        )
    raise DipsatError(
        f"{expectation.subject!r} names several outcomes of case {case.id}: "
        f"{'; '.join(found)}; write it as the case does, with its phase"
    )


def _spaced(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()
