"""Shared helpers: where the data lives, and the cases of cases/ loaded once."""

from __future__ import annotations

from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


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
    from solver.cases import case_files, read_cases

    return [case for path in case_files([ROOT / "cases"]) for case in read_cases(path)]
