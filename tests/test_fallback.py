"""Cores and the backup rule: counted, not guessed."""

from __future__ import annotations

import pytest
from conftest import all_cases

from solver.judge.legality import analyse
from solver.judge.model import Structure, build
from solver.judge.movement import adjudicate

CASES = {c.id: c for c in all_cases()}


def resolve(case_id):
    case = CASES[case_id]
    return adjudicate(case.position, [o.given for o in case.movement.orders])


# (case, rule applied to its paradox cores, number of consistent resolutions of each core)
PARADOXES = [
    ("6.C.1", ["circular movement"], [2]),
    ("6.F.14", ["szykman"], [2]),
    ("6.F.16", ["szykman"], [0]),
    ("6.F.18", ["szykman"], [0]),
    ("6.F.24", ["szykman"], [0]),
    ("6.F.27", ["szykman", "szykman"], [0, 2]),
    ("6.F.28", ["szykman"], [2]),
]


@pytest.mark.parametrize(("case_id", "rules", "counts"), PARADOXES)
def test_paradox_cores_are_counted_and_settled(case_id, rules, counts):
    cores = [c for c in resolve(case_id).cores if c.is_paradox]
    assert sorted(c.rule for c in cores) == sorted(rules)
    assert sorted(c.solutions for c in cores) == sorted(counts)


@pytest.mark.parametrize("case_id", ["6.C.2", "6.C.3", "6.F.19", "6.F.20", "6.F.25", "6.F.29"])
def test_cycles_with_one_resolution_are_not_paradoxes(case_id):
    resolution = resolve(case_id)
    assert not [c for c in resolution.cores if c.is_paradox]
    assert not resolution.forced


def test_model_variables_are_named_after_orders():
    case = CASES["6.A.11"]
    structure = Structure.of(analyse(case.position, [o.given for o in case.movement.orders]))
    turn_model = build(structure)  # keep the model alive while its proto is read
    names = {v.name for v in turn_model.model.model_proto.variables}
    assert "move[A Vienna - Tyrolia]" in names
    assert "move[A Venice - Tyrolia]" in names
