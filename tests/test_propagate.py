"""Propagation settles turns without the solver; its answers must be the solver path's."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from conftest import first_fast

from solver.crosschecking.generate import random_turn
from solver.formats.cases import case_files, read_cases
from solver.judge.cpsat import build
from solver.judge.fallback import settle
from solver.judge.movement import judge
from solver.judge.propagate import propagate
from solver.judge.solver_settings import SolverConfig
from solver.values.position import PhaseKind
from solver.values.rules import RULE_BOOKS

CASES = Path(__file__).parent.parent / "cases" / "datc"
FAST, SLOW = SolverConfig(propagate=True), SolverConfig(propagate=False)


def _turns():
    for path in case_files([CASES]):
        for case in read_cases(path):
            if case.movement is not None and case.position.phase.kind is PhaseKind.MOVEMENT:
                yield case.position, [o.given for o in case.movement.orders]
    for i in range(150):
        yield random_turn(f"propagate-{i}", units=(20, 34))


@cache
def turns() -> list:
    """The turns, made once per process when a test first needs them (not at collection)."""
    return list(_turns())


@pytest.mark.parametrize("book", first_fast(sorted(RULE_BOOKS)))
def test_propagation_gives_the_solver_path_answers(book: str) -> None:
    settled_alone = 0
    for position, orders in turns():
        structure = judge(position, orders, RULE_BOOKS[book]).structure
        fast, slow = settle(structure, FAST), settle(structure, SLOW)
        assert fast.values == slow.values and list(fast.values) == list(slow.values)
        assert fast.cores == slow.cores and fast.forced == slow.forced
        known, _ = propagate(structure, {})
        settled_alone += len(known) == len(structure.decisions)
    # propagation does most of the work, and paradoxes still reach the solver
    assert len(turns()) // 2 < settled_alone < len(turns())


@pytest.mark.parametrize("book", first_fast(sorted(RULE_BOOKS)))
def test_propagation_records_the_reads_build_records(book: str) -> None:
    """Propagation puts what it finds to use at once, but for the kinds whose values change
    what an equation reads: the dependencies it reports are the model's all the same."""
    for position, orders in turns():
        structure = judge(position, orders, RULE_BOOKS[book]).structure
        assert propagate(structure, {})[1] == build(structure).depends


def test_a_joint_multiverse_turn_settles_alike_on_both_paths() -> None:
    """Sixteen timelines of random turns: propagation settles most of the joint turn and
    hands the cores it cannot settle to the solver."""
    from solver.multiverse.state import MBoard, Multiverse
    from solver.multiverse.step import step
    from solver.values.orders import apply_board_defaults

    boards = [MBoard(0, 0, random_turn("joint-root", (34, 34))[0])]
    orders = []
    for t in range(16):
        position, given = random_turn(f"joint-{t}", units=(34, 34))
        boards.append(MBoard(t, 1, position))
        orders += [replace(g, order=apply_board_defaults(g.order, t, 1)) for g in given]
    origins = tuple((t, None if t == 0 else (0, 0)) for t in range(16))
    mv = Multiverse(tuple(sorted(boards, key=lambda b: b.key)), origins)
    assert step(mv, orders, config=FAST) == step(mv, orders, config=SLOW)
