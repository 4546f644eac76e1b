"""Build script: the judge compiled with mypyc where a C compiler is at hand.

`pip install -e .` (or a wheel build) compiles the modules below into C extensions beside
their sources.  The Python sources stay the reference: they run where the extensions are
absent, or when DIPSAT_PURE=1 is set at run time (solver/compiled.py); DIPSAT_PURE=1 at
install time builds no extension.  A compilation that fails warns and leaves the pure
Python package.  docs/performance.md measures the two.

solver/judge/checked.py stays Python: its judged orders are frozen dataclasses deriving
from one another, whose compiled form (mypyc 2.4) reports the inherited fields twice to the
garbage collector, which then empties objects still in use.  tests/test_compiled.py checks
every compiled class for that.
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup

COMPILED = [
    "solver/judge/legality.py",
    "solver/judge/routes.py",
    "solver/judge/cores.py",
    "solver/judge/retreat_options.py",
]

TOLERANT = [
    "--ignore-missing-imports",
    "--allow-subclassing-any",
    "--no-warn-unused-ignores",
    "--follow-imports=silent",
]
"""The build's type check, whatever the build environment holds: pip builds in one of its
own, without dipsat's dependencies, whose types are then unknown (mypy's own check, strict
over the whole package with them installed, is .ci/run's)."""


def extensions() -> list[Extension]:
    """The compiled modules, or none when asked for none or mypyc cannot make them."""
    if os.environ.get("DIPSAT_PURE", "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify

        modules = mypycify(COMPILED + TOLERANT, opt_level="3", group_name="solver_judge")
    except (Exception, SystemExit) as problem:  # mypyc missing, or its type check failing
        print(f"dipsat: the judge stays pure Python ({problem})", file=sys.stderr)
        return []
    for module in modules:
        module.optional = True  # a compiler error leaves the pure module, with a warning
    return modules


setup(ext_modules=extensions())
