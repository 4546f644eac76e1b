"""Propagation settles turns without the solver; its answers must be the solver path's."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.cases import case_files, read_cases
from solver.crosscheck.generate import random_turn
from solver.fallback import settle
from solver.legality import analyse
from solver.model import Structure
from solver.position import PhaseKind
from solver.propagate import propagate
from solver.rules import RULE_BOOKS
from solver.solve import SolverConfig

CASES = Path(__file__).parent.parent / "cases" / "datc"
FAST, SLOW = SolverConfig(propagate=True), SolverConfig(propagate=False)


def _turns():
    for path in case_files([CASES]):
        for case in read_cases(path):
            if case.movement is not None and case.position.phase.kind is PhaseKind.MOVEMENT:
                yield case.position, [o.given for o in case.movement.orders]
    for i in range(150):
        yield random_turn(f"propagate-{i}", units=(20, 34))


TURNS = list(_turns())


@pytest.mark.parametrize("book", sorted(RULE_BOOKS))
def test_propagation_gives_the_solver_path_answers(book: str) -> None:
    settled_alone = 0
    for position, orders in TURNS:
        structure = Structure.of(analyse(position, orders, RULE_BOOKS[book], None))
        fast, slow = settle(structure, FAST), settle(structure, SLOW)
        assert fast.values == slow.values and list(fast.values) == list(slow.values)
        assert fast.cores == slow.cores and fast.forced == slow.forced
        known, _ = propagate(structure, {})
        settled_alone += len(known) == len(structure.decisions())
    # propagation does most of the work, and paradoxes still reach the solver
    assert len(TURNS) // 2 < settled_alone < len(TURNS)
