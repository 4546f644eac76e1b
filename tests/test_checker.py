"""The checker is independent and can fail: tampered resolutions are caught."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import all_cases

from solver.checker.equations import check_resolution
from solver.judge.movement import adjudicate

CASES = {c.id: c for c in all_cases()}


def resolve(case_id):
    case = CASES[case_id]
    return adjudicate(case.position, [o.given for o in case.movement.orders])


@pytest.mark.parametrize(
    "case_id", ["6.A.11", "6.C.2", "6.D.15", "6.E.4", "6.F.3", "6.F.17", "6.G.9"]
)
def test_flipping_any_decision_breaks_an_equation(case_id):
    resolution = resolve(case_id)
    assert check_resolution(resolution) == []
    for decision, value in resolution.values.items():
        if decision in resolution.forced:
            continue
        tampered = dataclasses.replace(
            resolution, values={**resolution.values, decision: not value}
        )
        problems = check_resolution(tampered)
        assert problems, f"flipping {decision} went unnoticed"


def test_checker_names_the_equation():
    resolution = resolve("6.A.11")
    move = next(d for d in resolution.values if d[0] == "move")
    tampered = dataclasses.replace(
        resolution, values={**resolution.values, move: not resolution.values[move]}
    )
    assert any(p.startswith("MOVE equation broken") for p in check_resolution(tampered))


def test_forced_decision_must_follow_its_rule():
    resolution = resolve("6.F.14")
    assert resolution.forced
    decision = next(iter(resolution.forced))
    tampered = dataclasses.replace(
        resolution, values={**resolution.values, decision: not resolution.forced[decision]}
    )
    assert any("backup rule" in p for p in check_resolution(tampered))
