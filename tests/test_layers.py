"""Dependencies point one way, and the folders show the layers:

    topology <- values <- judge <- game cycle <- multiverse <- formats <- the rooms <- CLI
                       \\- checker (values only)
    render beside them: values, formats and multiverse.state; the rooms import it

The rooms are the users' tasks above the core: cross-checking (and replaying real games),
exploring and reporting, searching rule books; `solver.workers` spreads their jobs.

Read from the source (the import statements, lazy ones inside functions included), so a new
import against the direction fails here before it can make a cycle."""

from __future__ import annotations

import ast

import pytest
from conftest import ROOT

CORE = {"solver.errors", "solver.values"}
ROOM = CORE | {
    "solver.judge",
    "solver.checker",
    "solver.cycle",
    "solver.multiverse",
    "solver.formats",
    "solver.render",
    "solver.workers",
}
LAYERS: dict[str, set[str]] = {
    # each part of solver/ and the parts it may import (besides itself and topology)
    "solver.errors": set(),
    "solver.compiled": set(),  # which modules run compiled; DIPSAT_PURE's switch
    "solver.values": {"solver.errors"},
    "solver.judge": CORE | {"solver.compiled"},  # refuses a stale compiled module first
    "solver.checker": CORE,
    "solver.cycle": CORE | {"solver.judge"},
    "solver.multiverse": CORE | {"solver.judge", "solver.cycle"},
    "solver.formats": CORE | {"solver.judge", "solver.cycle", "solver.multiverse"},
    # renderers draw values: the multiverse's state, results and case files, never the judge
    "solver.render": CORE | {"solver.formats", "solver.multiverse.state"},
    "solver.workers": {"solver.errors"},  # jobs spread over processes or Dask, for the rooms
    # the rooms, one per task of the users; each may use the core, the renderer and workers
    "solver.crosschecking": ROOM,
    "solver.exploring": ROOM
    | {
        # the compare page draws rule-book comparisons (rulesearch.compare's CaseDifference)
        "solver.rulesearch.compare",
    },
    "solver.rulesearch": ROOM
    | {
        # fitting a rule book to a site's games replays them (crosschecking.replay)
        "solver.crosschecking.replay",
    },
    "solver.api": CORE
    | {
        "solver.judge",
        "solver.checker",
        "solver.cycle",
        "solver.multiverse",
        "solver.formats",
        "solver.workers",
        "solver.crosschecking",
        "solver.exploring",
        "solver.rulesearch",
    },
    "solver.cli": {"solver"},
    "solver.__main__": {"solver.cli"},
    "solver": {"solver"},  # the public API: anything but the command line
}


def imports(path) -> set[str]:
    """The modules a file imports, relative ones made absolute, lazy ones inside functions
    included."""
    package = package_of(path)
    found = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            found.add(from_module(node, package))
    return found


def package_of(path) -> str:
    """The package a file's relative imports start from."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1])


def from_module(node: ast.ImportFrom, package: str) -> str:
    """The module a `from ... import` names, a relative one made absolute."""
    base = package.rsplit(".", node.level - 1)[0] if node.level else ""
    return ".".join(p for p in (base, node.module or "") if p)


def module_name(path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> str:
    """The most specific entry of LAYERS the module belongs to."""
    candidates = [k for k in LAYERS if module == k or module.startswith(k + ".")]
    return max(candidates, key=len)


def within(module: str, allowed: set[str]) -> bool:
    return any(module == a or module.startswith(a + ".") for a in allowed)


SOURCES = sorted((ROOT / "solver").rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_every_module_imports_only_from_the_layers_below(path):
    module = module_name(path)
    layer = layer_of(module)
    allowed = LAYERS[layer] | {layer, "topology"}
    if layer == "solver":
        allowed = {"solver", "topology"}
    wrong = sorted(
        m
        for m in imports(path)
        if (m.startswith(("solver", "topology")) and not within(m, allowed))
        or (layer == "solver" and m.startswith("solver.cli"))
    )
    assert not wrong, f"{module} ({layer}) imports {wrong}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_no_layer_imports_the_private_names_of_another(path):
    """A name that starts with '_' belongs to its layer; another layer uses a public one."""
    layer = layer_of(module_name(path))
    wrong = sorted(
        f"{module}.{alias.name}"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
        and (module := from_module(node, package_of(path))).startswith("solver")
        and layer_of(module) != layer
        for alias in node.names
        if alias.name.startswith("_")
    )
    assert not wrong, f"{module_name(path)} ({layer}) imports {wrong}"


def names_imported(path) -> set[str]:
    """The names a file imports from other modules (``from m import name``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


CORE_PACKAGES = ("values", "judge", "checker", "cycle", "multiverse")


def standard_imports(path) -> list[str]:
    """The functions of a file that import the standard map (`<module>` at the top)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        body = node.body if isinstance(node, ast.Module | ast.FunctionDef) else []
        for statement in body:
            names = {a.name for a in getattr(statement, "names", ())}
            if getattr(statement, "module", None) == "topology" and names & {
                "standard",
                "standard_layout",
            }:
                found.append(getattr(node, "name", "<module>"))
    return found


STANDARD_CONSTRUCTORS = {"opening", "parse"}
"""Making a position from nothing (`Position.opening()`, `Position.parse(text)`) may take
the standard map when no board is given; nothing else in the core may."""


@pytest.mark.parametrize("package", CORE_PACKAGES)
def test_the_core_never_fetches_the_standard_board(package):
    """The board travels inside the values (a position's, a multiverse's): no module of the
    core loads a map of its own."""
    for path in sorted((ROOT / "solver" / package).rglob("*.py")):
        assert set(standard_imports(path)) <= STANDARD_CONSTRUCTORS, path
        assert "STANDARD" not in names_imported(path), path


def test_values_draw_themselves_through_a_registered_drawer_not_the_renderer():
    """A value's `_repr_svg_` asks `solver.values.pictures`, where `import solver` registers
    the renderer: no value module imports `solver.render`, even inside a method."""
    for path in sorted((ROOT / "solver" / "values").rglob("*.py")):
        assert not {m for m in imports(path) if m.startswith("solver.render")}, path
    for path in sorted((ROOT / "solver" / "multiverse").rglob("*.py")):
        assert not {m for m in imports(path) if m.startswith("solver.render")}, path


def test_the_board_knows_nothing_of_the_adjudicator():
    for path in sorted((ROOT / "topology").rglob("*.py")):
        assert not {m for m in imports(path) if m.startswith("solver")}, path


def test_every_module_belongs_to_a_layer():
    top = {module_name(p).split(".")[1] for p in SOURCES if "." in module_name(p)}
    assert {f"solver.{name}" for name in top} <= LAYERS.keys()


def test_the_import_reader_sees_relative_and_lazy_imports():
    found = imports(ROOT / "solver" / "render" / "board_drawing.py")
    assert "solver.render.arrows" in found and "topology" in found
    assert "solver.exploring.pages" in imports(ROOT / "solver" / "cli.py")  # imported lazily


def test_saved_games_and_cross_checking_share_a_format_not_each_other():
    """Both write positions in MILA strings (`solver.formats.mila`); neither imports the
    other."""
    for path in sorted((ROOT / "solver" / "formats" / "savegame").rglob("*.py")):
        assert not {m for m in imports(path) if m.startswith("solver.crosschecking")}, path
    for path in sorted((ROOT / "solver" / "crosschecking").rglob("*.py")):
        wrong = {m for m in imports(path) if m.startswith("solver.formats.savegame")}
        assert not wrong, path


NAMED = sorted(p for p in [*(ROOT / "solver").rglob("*.py"), *(ROOT / "topology").rglob("*.py")])


def test_every_file_name_is_used_once_in_the_package():
    """A path in a traceback or a doc names one file: no two files of solver/ and
    topology/ share a name (`__init__.py` aside)."""
    seen: dict[str, list[str]] = {}
    for path in NAMED:
        if path.name != "__init__.py":
            seen.setdefault(path.name, []).append(str(path.relative_to(ROOT)))
    assert not {name: paths for name, paths in seen.items() if len(paths) > 1}


def test_every_class_name_is_used_once_in_the_package():
    """A class named in a traceback, a review or a doc is one class, private helpers too."""
    seen: dict[str, list[str]] = {}
    for path in NAMED:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                seen.setdefault(node.name, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not {name: where for name, where in seen.items() if len(where) > 1}


def import_graph() -> dict[str, set[str]]:
    """Which modules of solver/ and topology/ each module imports, lazy imports inside
    functions and those only for type checking included.  `from package import module`
    counts as importing the module; a package's own `__init__` running first is not counted
    (Python runs a parent package before any module in it)."""
    modules = {module_name(p): p for p in NAMED}

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {known(alias.name) for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = from_module(node, package)
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
                found |= set(subs) if len(subs) == len(node.names) else {known(base), *subs}
        graph[module] = {m for m in found if m and m != module}
    return graph


LOOPS_ALLOWED: dict[tuple[str, str], str] = {
    # the imports that close a circle, each inside one package, and why it stays
    ("solver.multiverse.state", "solver.multiverse.step"): (
        "a multiverse steps itself (`Multiverse.step`, the game interface every caller "
        "plays through), and the step builds the next multiverse"
    ),
    ("topology.loader", "topology.layout"): (
        "a board file naming its drawing has it checked when the board loads; the drawing "
        "is read with the loader's own TOML reader"
    ),
}


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                top = stack.pop()
                group.add(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_circle_of_imports_but_the_few_named_within_one_package():
    """Modules import each other in no circle, lazy imports inside functions included,
    once the few imports LOOPS_ALLOWED names (each inside one package) are left out.
    (`solver/__init__.py` and `solver/api.py` import lazily, downwards: no circle.)"""
    graph = import_graph()
    for importer, imported in LOOPS_ALLOWED:
        assert imported in graph[importer], f"{importer} no longer imports {imported}"
        assert importer.rpartition(".")[0] == imported.rpartition(".")[0]
        graph[importer] = graph[importer] - {imported}
    assert not circles(graph)


def test_the_circle_finder_sees_a_circle_made_by_a_lazy_import():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [{"a", "b", "c"}]
    assert "solver.render.board_drawing" in import_graph()["solver.render.notebook"]
