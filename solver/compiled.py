"""Which modules of the judge run compiled; the guard against stale compiled modules; and
the switch back to the Python sources.

A wheel or a non-editable install (`pip install .`) compiles part of the judge with mypyc
(setup.py) and records a digest of each compiled module's source in
`solver/compiled-sources.json`.  An editable install (`pip install -e .`) compiles nothing.

Before the judge loads (`solver/judge/__init__.py`), each compiled module's source beside it
is checked against the recorded digest: a source changed since the build, or a compiled
module the build did not record (left behind by an older build), is refused with
`StaleBuildError`, which says so.  The old code never runs.

With DIPSAT_PURE=1 in the environment when `solver` is first imported, every module is read
from its Python source instead, compiled or not: the reference the compiled build is checked
against (.ci/run)."""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from types import ModuleType

RECORD = Path(__file__).with_name("compiled-sources.json")
"""The build's record of each compiled module's source digest (absent when nothing was
compiled)."""


class StaleBuildError(ImportError):
    """A compiled module of dipsat whose source changed after it was compiled (or that no
    build recorded): it is refused, never run."""


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


@cache
def recorded_digests(record: Path = RECORD) -> dict[str, str]:
    """Each compiled module's recorded source digest (none without a record)."""
    try:
        found = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}


def stale_reason(fullname: str, extension: Path, record: Path = RECORD) -> str | None:
    """Why the compiled module `extension` of `fullname` must not run (None: it may): its
    source, beside it, changed since the build recorded it, or no build recorded it."""
    source = extension.parent / f"{fullname.rpartition('.')[2]}.py"
    recorded = recorded_digests(record).get(fullname)
    remedy = (
        "reinstall dipsat (pip install . builds it again; pip install -e . runs the sources), "
        "or set DIPSAT_PURE=1 to run the sources"
    )
    if recorded is None:
        return (
            f"{extension} is a compiled module no build of dipsat recorded (left by an older "
            f"build?): delete it, or {remedy}"
        )
    if source.is_file() and hashlib.sha256(source.read_bytes()).hexdigest() != recorded:
        return f"{source} changed after it was compiled into {extension.name}: {remedy}"
    return None


def stale_modules(package: Path = Path(__file__).parent, record: Path = RECORD) -> list[str]:
    """Why each compiled module under `package` must not run (none: the build is fresh)."""
    suffixes = sorted(importlib.machinery.EXTENSION_SUFFIXES, key=len, reverse=True)
    found = []
    for extension in sorted(package.rglob("*.so")):
        name = extension.name
        suffix = next((s for s in suffixes if name.endswith(s)), None)
        if suffix is None:
            continue
        parts = extension.relative_to(package.parent).with_name(name.removesuffix(suffix)).parts
        reason = stale_reason(".".join(parts), extension, record)
        if reason is not None:
            found.append(reason)
    return found


def check_build() -> None:
    """Refuse to go on with a compiled module whose source changed since it was compiled
    (the judge's package calls this before any of its modules loads: modules compiled
    together load one another without asking Python's importers).

    Raises:
        StaleBuildError: naming each stale module and the remedy.
    """
    if PURE:
        return
    reasons = stale_modules()
    if reasons:
        raise StaleBuildError("; ".join(reasons))


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
