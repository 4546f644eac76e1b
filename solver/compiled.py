"""Which modules of the judge run compiled, and the switch back to their Python sources.

`pip install -e .` compiles part of the judge with mypyc (setup.py).  With DIPSAT_PURE=1 in
the environment when `solver` is first imported, every module is read from its Python
source instead, compiled or not: the reference the compiled build is checked against
(outputs byte-identical, tests/test_compiled.py and .ci/run)."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType


def _asked(value: str) -> bool:
    """DIPSAT_PURE's value read: 1 asks for the sources, 0 or nothing for the compiled
    modules; anything else is named on standard error and read as 1 (the sources are the
    reference)."""
    if value in ("", "0"):
        return False
    if value != "1":
        print(f"dipsat: DIPSAT_PURE={value!r}: expected 1 or 0; reading 1", file=sys.stderr)
    return True


PURE = _asked(os.environ.get("DIPSAT_PURE", ""))
"""Whether the Python sources were asked for (DIPSAT_PURE=1)."""


class _Sources(importlib.abc.MetaPathFinder):
    """Finds dipsat's modules by their .py files, ahead of any compiled extension."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("solver.") or path is None:
            return None
        leaf = fullname.rpartition(".")[2]
        for entry in path:
            source = os.path.join(entry, f"{leaf}.py")
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def compiled_modules() -> tuple[str, ...]:
    """The names of dipsat's modules loaded so far that run as compiled extensions."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return tuple(
        sorted(
            name
            for name, module in list(sys.modules.items())
            if name.startswith("solver.")
            and (getattr(module, "__file__", None) or "").endswith(suffixes)
        )
    )


if PURE and not any(isinstance(f, _Sources) for f in sys.meta_path):
    sys.meta_path.insert(0, _Sources())
