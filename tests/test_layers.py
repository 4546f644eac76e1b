"""Dependencies point one way: topology <- the adjudicator <- pictures and the CLI.

Read from the source (the import statements), so a new import against the direction fails
here before it can make a cycle."""

from __future__ import annotations

import ast

from conftest import ROOT


def imports(path) -> set[str]:
    """The modules a file imports, relative ones made absolute."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            found.add(module)
            found |= {f"{module}.{alias.name}" for alias in node.names}
    return found


def sources(folder: str):
    return sorted((ROOT / folder).rglob("*.py"))


def test_the_board_knows_nothing_of_the_adjudicator():
    for path in sources("topology"):
        assert not {m for m in imports(path) if m.startswith("solver")}, path


def test_the_adjudicator_knows_nothing_of_pictures_or_the_command_line():
    for path in sources("solver"):
        if path.parts[-2] == "render" or path.name in ("cli.py", "__main__.py"):
            continue
        wrong = {m for m in imports(path) if m.startswith(("solver.render", "solver.cli"))}
        assert not wrong, (path, wrong)


def test_pictures_do_not_reach_into_the_command_line():
    for path in sources("solver/render"):
        assert not {m for m in imports(path) if m.startswith("solver.cli")}, path


def test_the_import_reader_sees_relative_imports():
    found = imports(ROOT / "solver" / "render" / "board.py")
    assert "solver.render.arrows" in found and "topology" in found


def test_saved_games_and_cross_checking_share_a_format_not_each_other():
    """Both write positions in MILA strings (`solver.mila`); neither imports the other."""
    for path in sources("solver/savegame"):
        assert not {m for m in imports(path) if m.startswith("solver.crosscheck")}, path
    for path in sources("solver/crosscheck"):
        assert not {m for m in imports(path) if m.startswith("solver.savegame")}, path
