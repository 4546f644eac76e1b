"""Every case in cases/ passes, and the independent checker agrees with every resolution."""

from __future__ import annotations

import pytest
from conftest import all_cases

from solver.tools.conformance import run_case


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
