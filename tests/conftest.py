"""Shared helpers: where the data lives, and the cases of cases/ loaded once."""

from __future__ import annotations

import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


def dipsat(*args: str, stdin: str | None = None, env: dict[str, str] | None = None):
    """The `dipsat` command run as a user runs it, from the repository's root."""
    return subprocess.run(
        [sys.executable, "-m", "solver", *args],
        input=stdin,
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


# The slow tier (`python -m pytest -m slow`, run by .ci/run after the README's command): the
# CLI through subprocesses, every case drawn, hash-seed grids, kills, concurrency, the browser,
# long property runs. The README's `python -m pytest` leaves it out (pyproject.toml).
slow = pytest.mark.slow
ParameterSet = type(pytest.param())


def first_fast(params, fast: int = 1) -> list:
    """The parameters of a grid with the first `fast` in the fast tier and the rest in the
    slow one. An item is a pytest.param, a tuple of a row's values when the test takes
    several arguments, or the value of its one argument (a tuple there goes in a pytest.param)."""
    tiered = []
    for i, item in enumerate(params):
        if i < fast:
            tiered.append(item)
        elif isinstance(item, ParameterSet):
            tiered.append(pytest.param(*item.values, id=item.id, marks=(*item.marks, slow)))
        else:
            values = item if isinstance(item, tuple) else (item,)
            tiered.append(pytest.param(*values, marks=slow))
    return tiered


def table(name: str) -> list[tuple[str, str]]:
    """Rows 'left => right' of a data file, skipping comments and blank lines."""
    rows = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        left, _, right = line.partition("=>")
        rows.append((left.strip(), right.strip()))
    return rows


@cache
def all_cases():
    from solver.formats.cases import case_files, read_cases

    return [case for path in case_files([ROOT / "cases"]) for case in read_cases(path)]


def played(phases: int = 7, seed: int | str = 0):
    """A game from the standard start with random movement orders and default
    retreats and builds, with orders submitted for the phase it stops in."""
    import random
    from dataclasses import replace

    from solver.crosschecking.generate import _orders
    from solver.formats.savegame import adjudicate_game, new_game

    game = new_game("2025")
    for number in range(phases + 1):
        if game.position.phase.kind.value == "movement":
            orders = _orders(random.Random(f"{seed}-{number}"), game.position)
            game = replace(game, orders=tuple(orders))
        if number < phases:
            game = adjudicate_game(game)
    return game


def under_hash_seeds(script: str, *seeds: str) -> list[bytes]:
    """What a Python script prints, run in a fresh process under each PYTHONHASHSEED."""
    runs = []
    for hash_seed in seeds:
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env=env,
            capture_output=True,
            timeout=120,
            check=True,
        )
        runs.append(done.stdout)
    return runs


def fuzz_examples(default: int) -> int:
    """How many examples a fuzz test tries: `default`, or DIPSAT_FUZZ_EXAMPLES when set
    (the longer run documented in docs/reliability.md)."""
    return int(os.environ.get("DIPSAT_FUZZ_EXAMPLES", default))


def json_set(path: list, value):
    """An edit of parsed JSON: put `value` at `path` (keys and indices)."""

    def change(data) -> None:
        *head, last = path
        for key in head:
            data = data[key]
        data[last] = value

    return change


def json_drop(path: list):
    """An edit of parsed JSON: delete what is at `path`."""

    def change(data) -> None:
        *head, last = path
        for key in head:
            data = data[key]
        del data[last]

    return change
