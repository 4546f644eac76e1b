"""Every case in cases/ passes, and the independent checker agrees with every resolution."""

from __future__ import annotations

import pytest
from conftest import all_cases

from solver.exploring.conformance import run_case
from solver.multiverse.state import spot


@pytest.mark.parametrize("case", all_cases(), ids=lambda c: c.id)
def test_case(case):
    result = run_case(case)
    assert result.passed, "\n".join(
        f"{f.order}: expected {f.expected}, got {f.got}" for f in result.failures
    )


def test_every_case_of_datc_v3_2_is_there():
    ids = {c.id for c in all_cases() if c.id.startswith("6.")}
    sections = {
        "A": 12,
        "B": 19,
        "C": 9,
        "D": 35,
        "E": 15,
        "F": 30,
        "G": 20,
        "H": 17,
        "I": 7,
        "J": 12,
    }
    expected = {f"6.{s}.{n}" for s, count in sections.items() for n in range(1, count + 1)}
    assert ids == expected
    assert len(expected) == 176


def test_every_multiverse_test_of_oliveriver_is_there():
    ids = {c.id for c in all_cases() if c.id.startswith("O.")}
    counts = {"A": 11, "B": 10, "C": 4, "D": 3, "E": 8}
    expected = {f"O.{s}.{n}" for s, count in counts.items() for n in range(1, count + 1)}
    assert ids == expected | {"O.A.10b"}  # 10b: MDATC_A_10 on a winter head (the case says why)


def _world_cases() -> list:
    return [c for c in all_cases() if c.world is not None]


@pytest.mark.parametrize("case", _world_cases(), ids=lambda c: c.id)
def test_each_assertion_of_a_world_case_can_fail(case):
    """Every kind of expectation a multiverse case states is compared: a wrong one fails."""
    from dataclasses import replace

    wrong = {
        "after_forks": ("z from a@0",),
        "after_revisited": ("z@9",),
        "after_solo": "Germany" if case.after_solo != "Germany" else "",
        "after_boards": ("z@9",),
    }
    for name, value in wrong.items():
        if getattr(case, name) is None:
            continue
        result = run_case(replace(case, **{name: value}))
        assert not result.passed, f"{case.id}: a wrong {name} passed"
    if case.after:
        result = run_case(replace(case, after=case.after[1:]))
        assert not result.passed, f"{case.id}: a missing unit passed"
    if case.after_standoffs is not None:
        result = run_case(replace(case, after_standoffs=(spot("boh", 9, 9),)))
        assert not result.passed, f"{case.id}: a wrong standoff passed"
    for i, (unit, options) in enumerate(case.after_options):
        fewer = (*case.after_options[:i], (unit, options[1:]), *case.after_options[i + 1 :])
        result = run_case(replace(case, after_options=fewer))
        assert not result.passed, f"{case.id}: wrong retreat options passed"


def _books_named() -> list:
    from solver.values.rules import RULE_BOOKS

    def named(case) -> set[str]:
        found = {*case.after_by_edition, *case.paradox_editions}
        for block in case.blocks:
            found |= set(block.after_by_edition)
            found |= {e for o in (*block.orders, *block.revised) for e in o.by_edition}
            found |= {e for _, _, variants in block.automatic for e in variants}
        return found

    return [
        pytest.param(case, RULE_BOOKS[book], id=f"{case.id}-{book}")
        for case in all_cases()
        for book in sorted(named(case))
        if not case.id.startswith("6.")  # the DATC under every edition: test_rules.py
    ]


@pytest.mark.parametrize(("case", "book"), _books_named())
def test_a_case_passes_under_each_rule_book_it_names(case, book):
    """An 'AFTER [BOOK]' section, or an override '[BOOK: ...]', states what that rule book
    gives, so the case passes under it (the DATC under the editions: test_rules.py)."""
    result = run_case(case, book)
    assert result.passed, "\n".join(str(f) for f in result.failures)
