"""The judge as setup.py compiles it for wheels: what the garbage collector is told of its
objects, and a compiled module whose source changed refused, never run.  .ci/run builds the
wheel, compares its outputs with its sources' (DIPSAT_PURE=1, solver/compiled.py), edits an
installed source and requires the refusal."""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import ROOT, all_cases, slow

import solver.judge.movement  # noqa: F401 (the judge loaded, compiled or not)
from solver.compiled import StaleBuildError, stale_reason
from solver.crosschecking.generate import random_turn
from solver.judge.cpsat import build
from solver.judge.fallback import settle
from solver.judge.legality import analyse
from solver.judge.propagate import Propagation
from solver.judge.results import resolve
from solver.judge.structure import Structure
from solver.multiverse.state import MBoard, Multiverse
from solver.multiverse.step import step
from solver.values.calendar import after_movement
from solver.values.orders import Given, apply_board_defaults
from solver.values.rules import RULE_BOOKS


def _attributes(obj: object) -> Counter[int]:
    """How many of an object's attributes hold each value (values by identity)."""
    kind = type(obj)
    names = list(getattr(kind, "__mypyc_attrs__", ()))
    if not names and dataclasses.is_dataclass(obj):
        names = [f.name for f in dataclasses.fields(obj)]
    names += [n for k in kind.__mro__ for n in getattr(k, "__slots__", ()) if n not in names]
    held = [getattr(obj, n) for n in dict.fromkeys(names) if hasattr(obj, n)]  # each once
    held += list(getattr(obj, "__dict__", {}).values())
    return Counter(id(v) for v in held)


def _judge_objects(roots: list[object]) -> list[object]:
    """The objects reachable from the roots whose classes the judge's modules define."""
    seen: set[int] = set()
    found = []
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        if type(obj).__module__.startswith("solver.judge."):
            found.append(obj)
        todo += gc.get_referents(obj)
    return found


def _turns() -> list[tuple]:
    turns = [random_turn(f"compiled-{i}", units=(20, 34)) for i in range(40)]
    for case in all_cases():
        if not case.multiverse and case.position.phase.kind.name == "MOVEMENT":
            turns.append((case.position, [o.given for o in case.blocks[0].orders]))
    return turns


@slow
def test_each_object_of_the_judge_shows_the_collector_each_reference_once():
    """A class mypyc compiles must report what it holds once: counted twice, an object held
    from outside looks unreachable to the garbage collector, which empties it (mypyc 2.4
    does so for a frozen dataclass deriving from another: setup.py keeps those Python)."""
    roots: list[object] = []
    for position, orders in _turns():
        turn = analyse(position, orders, RULE_BOOKS["2025"])
        structure = Structure.of(turn)
        state = Propagation(structure, {})
        for decision in structure.decisions:
            state.evaluate(decision)
        settled = settle(structure)
        roots += [turn, structure, state, build(structure), settled]
        roots.append(resolve(turn, structure, settled, after_movement))
    objects = _judge_objects(roots)
    kinds = {type(o).__name__ for o in objects}
    assert {"Structure", "Propagation", "CpSatModel", "Settlement", "CheckedMove"} <= kinds, kinds
    for obj in objects:
        held = _attributes(obj)
        shown = Counter(id(r) for r in gc.get_referents(obj))
        twice = {i: n for i, n in shown.items() if i in held and n > held[i]}
        assert not twice, f"{type(obj).__qualname__} shows {len(twice)} references too often"


def test_the_orders_of_a_multiverse_step_survive_the_garbage_collector():
    """The step of two timelines that lost half its orders to the collector when the judged
    orders were compiled: the list of orders is old, its orders young, and what the step
    leaves to the collector holds judged orders; each order is whole after a collection of
    the young generations."""
    orders: list[Given] = []
    gc.collect()  # the list is in the oldest generation, which gc.collect(1) leaves alone
    boards = [MBoard(0, 0, random_turn("gc-root", (34, 34))[0])]
    for t in range(2):
        position, given = random_turn(f"gc-{t}", units=(34, 34))
        boards.append(MBoard(t, 1, position))
        orders += [Given(g.power, apply_board_defaults(g.order, t, 1)) for g in given]
    texts = [str(g) for g in orders]
    origins = ((0, None), (1, (0, 0)))
    mv = Multiverse(tuple(sorted(boards, key=lambda b: b.key)), origins)
    step(mv, orders)
    gc.collect(1)
    assert [str(g) if hasattr(g, "power") else "(emptied)" for g in orders] == texts


@pytest.mark.parametrize(
    ("value", "pure", "named"), [("1", True, False), ("0", False, False), ("yes", True, True)]
)
def test_dipsat_pure_reads_1_or_0_and_names_anything_else(value, pure, named):
    script = "import solver.compiled as c; print(c.PURE)"
    env = {**os.environ, "DIPSAT_PURE": value}
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert run.stdout.strip() == str(pure)
    assert ("DIPSAT_PURE='yes': expected 1 or 0" in run.stderr) is named


# -- stale compiled modules ---------------------------------------------------------------------
STALE = """
import importlib, sys
sys.path.insert(0, sys.argv[1])
import solver.compiled
try:
    import solver.judge  # the guard runs before any module of the judge loads
    importlib.import_module("solver.judge.fake")
except solver.compiled.StaleBuildError as error:
    print("refused:", error)
except ImportError as error:  # a fresh module goes to the usual loader: here, not a real one
    print("loaded:", type(error).__name__)
"""


def _fake_build(tmp_path: Path, recorded: str | None) -> Path:
    """A copy of the package with a compiled module (a file by the extension's name: the
    guard decides before anything loads it) beside a source, and a build record."""
    import hashlib
    import importlib.machinery
    import shutil

    copy = tmp_path / "site"
    shutil.copytree(ROOT / "solver", copy / "solver", ignore=shutil.ignore_patterns("*.so"))
    shutil.copytree(ROOT / "topology", copy / "topology")
    source = copy / "solver" / "judge" / "fake.py"
    source.write_text("ANSWER = 1\n")
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (copy / "solver" / "judge" / f"fake{suffix}").write_bytes(b"not a real extension")
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    record = {} if recorded is None else {"solver.judge.fake": recorded or digest}
    if recorded is None:  # no build at all: no record
        return copy
    (copy / "solver" / "compiled-sources.json").write_text(json.dumps(record))
    return copy


@pytest.mark.parametrize(
    ("recorded", "said"),
    [
        ("", "loaded"),  # the recorded digest is the source's: it may load
        ("0" * 64, "refused: " + "{site}/solver/judge/fake.py changed after it was compiled"),
        (None, "refused: {site}/solver/judge/fake"),  # no build recorded it
    ],
)
def test_a_compiled_module_whose_source_changed_is_refused(tmp_path, recorded, said):
    site = _fake_build(tmp_path, recorded)
    env = {k: v for k, v in os.environ.items() if k != "DIPSAT_PURE"}
    run = subprocess.run(
        [sys.executable, "-c", STALE, str(site)], capture_output=True, text=True, env=env
    )
    assert run.stdout.startswith(said.format(site=site)), run.stdout + run.stderr
    if said.startswith("refused"):
        assert "reinstall dipsat" in run.stdout and "DIPSAT_PURE=1" in run.stdout


def test_the_command_line_refuses_a_stale_module_in_one_line(tmp_path):
    """No traceback: the command says which source changed and exits 2."""
    site = _fake_build(tmp_path, "0" * 64)
    case = ROOT / "cases" / "datc" / "6A.cases"
    script = (
        f"import sys; sys.path.insert(0, {str(site)!r}); from solver.cli import main; "
        f"sys.argv = ['dipsat', 'adjudicate', {str(case)!r}, '--case', '6.A.1']; main()"
    )
    env = {k: v for k, v in os.environ.items() if k != "DIPSAT_PURE"}
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "fake.py changed after it was compiled" in run.stderr
    assert "Traceback" not in run.stderr and not run.stdout


def test_dipsat_pure_reads_the_sources_past_a_stale_module(tmp_path):
    site = _fake_build(tmp_path, "0" * 64)
    script = f"import sys; sys.path.insert(0, {str(site)!r}); import solver.judge.fake as f;"
    script += " print(f.ANSWER, f.__file__.endswith('.py'))"
    env = {**os.environ, "DIPSAT_PURE": "1"}
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert run.stdout.split() == ["1", "True"], run.stderr


def test_the_stale_reason_names_the_source_and_the_remedy(tmp_path):
    source = tmp_path / "legality.py"
    source.write_text("x = 1\n")
    extension = tmp_path / "legality.cpython-311-x86_64-linux-gnu.so"
    record = tmp_path / "record.json"
    record.write_text(json.dumps({"solver.judge.legality": "0" * 64}))
    reason = stale_reason("solver.judge.legality", extension, record)
    assert reason is not None and str(source) in reason and "changed" in reason
    assert issubclass(StaleBuildError, ImportError)
