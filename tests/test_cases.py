"""Every case in cases/ passes, and the independent checker agrees with every resolution."""

from __future__ import annotations

import pytest
from conftest import all_cases

from solver.conformance import run_case


@pytest.mark.parametrize("case", all_cases(), ids=lambda c: c.id)
def test_case(case):
    result = run_case(case)
    assert result.passed, "\n".join(
        f"{f.order}: expected {f.expected}, got {f.got}" for f in result.failures
    )


def test_the_movement_cases_of_datc_are_all_there():
    ids = {c.id for c in all_cases() if c.id.startswith("6.")}
    expected = {
        f"6.{s}.{n}"
        for s, count in {"A": 12, "B": 19, "C": 9, "D": 35, "E": 15, "F": 30, "G": 20}.items()
        for n in range(1, count + 1)
    } - {"6.B.14"}  # 6.B.14 is a build
    assert ids >= expected
    assert len(expected) == 139
