"""The judge: a movement phase from orders to outcomes (`solver.judge.movement`)."""

from ..compiled import check_build

check_build()  # before any module of the judge loads: a compiled one may be stale
