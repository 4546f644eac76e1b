"""Build script: the judge compiled with mypyc for wheels and non-editable installs.

`pip install .` (or building a wheel) compiles the modules below into C extensions and
records, beside them, a digest of each module's source (`solver/compiled-sources.json`).
When the package is imported, a compiled module whose source no longer matches its digest is
refused with a message that says so (`solver/compiled.py`): the old code never runs.

`pip install -e .` (an editable install, the README's) compiles nothing: the sources you
edit are what runs.  DIPSAT_PURE=1 at install time compiles nothing either, and at run time
reads the sources even where compiled modules exist.  A compilation that fails warns and
leaves the pure Python package.  docs/performance.md measures the two builds.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

COMPILED = [
    "solver/judge/legality.py",
    "solver/judge/convoy_routes.py",
    "solver/judge/structure.py",
    "solver/judge/equations.py",
    "solver/judge/propagate.py",
    "solver/judge/cores.py",
    "solver/judge/fallback.py",
    "solver/judge/results.py",
    "solver/judge/retreat_options.py",
    "solver/judge/movement.py",
]
"""The judge's modules mypyc compiles.  solver/judge/checked.py (the judged orders) and
cpsat.py (deriving from OR-Tools' classes) stay Python."""

SOURCES_RECORD = "solver/compiled-sources.json"
"""Where the build records the digest of each compiled module's source."""

TOLERANT = [
    "--ignore-missing-imports",
    "--allow-subclassing-any",
    "--no-warn-unused-ignores",
    "--follow-imports=silent",
    "--explicit-package-bases",  # modules named from the project's folder, never above it
]
"""The build's type check, whatever the build environment holds: pip builds in one of its
own, without dipsat's dependencies, whose types are then unknown (mypy's own check, strict
over the whole package with them installed, is .ci/run's)."""


def _compiling() -> bool:
    """Does this run of setup.py build what installs (a wheel, an install), and not for an
    editable install (PEP 660), which must run the sources as they are?  Asking for the
    build's requirements or metadata compiles nothing either."""
    commands = set(sys.argv[1:])
    if commands & {"editable_wheel", "develop"}:
        return False
    return bool(commands & {"bdist_wheel", "build", "build_ext", "install"})


def extensions() -> list[Extension]:
    """The compiled modules, or none for an editable install, when asked for none, or when
    mypyc cannot make them."""
    if os.environ.get("DIPSAT_PURE", "") not in ("", "0") or not _compiling():
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


def digest(path: Path) -> str:
    """The digest a compiled module's source is recorded by (solver/compiled.py reads it)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


class RecordSources(build_py):
    """build_py that also records the digest of each compiled module's source."""

    def run(self) -> None:
        super().run()
        if not self.distribution.ext_modules:
            return
        record = {
            source.removesuffix(".py").replace("/", "."): digest(Path(source))
            for source in COMPILED
        }
        target = Path(self.build_lib) / SOURCES_RECORD
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")


setup(ext_modules=extensions(), cmdclass={"build_py": RecordSources})
