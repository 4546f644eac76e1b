"""Every example in docs/api.md, docs/variants.md, docs/multiverse.md, docs/rules.md, the
README's Python section and the docstring of `solver` runs, with the output the page
shows; docs/api.md's reference lists the API, and the map file docs/variants.md shows is
the one its cases use; the differences of rule sets J and O are each explained."""

from __future__ import annotations

import doctest
import re

import pytest
from conftest import ROOT, first_fast

import solver

PAGES = ["docs/api.md", "README.md", "docs/variants.md", "docs/multiverse.md", "docs/rules.md"]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("page", first_fast(PAGES, 2))
def test_the_examples_of_the_page_run_as_written(page, monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples read case files under cases/
    failures, tried = doctest.testfile(
        str(ROOT / page),
        module_relative=False,
        optionflags=FLAGS,
        verbose=False,
    )
    assert tried > 0, f"{page} shows no Python examples"
    assert failures == 0


def test_the_map_file_of_the_variants_page_is_the_file_its_cases_use():
    page = (ROOT / "docs/variants.md").read_text(encoding="utf-8")
    shown = page.split("```toml\n", 1)[1].split("```", 1)[0]
    lines = (ROOT / "cases/variants/isthmus.toml").read_text(encoding="utf-8").splitlines()
    body = "\n".join(line for line in lines if not line.startswith("#")) + "\n"
    assert shown == body


def test_the_examples_of_the_package_docstring_run_as_written():
    failures, tried = doctest.testmod(solver, optionflags=FLAGS, verbose=False)
    assert tried > 0 and failures == 0


def test_the_reference_lists_every_name_import_solver_gives_once():
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    reference = page.split("## Reference: what `import solver` gives", 1)[1].split("\n## ")[0]
    listed = re.findall(r"^- `(\w+)", reference, flags=re.MULTILINE)
    assert sorted(listed) == sorted(solver.__all__)
    for method in ("Position.derive(", "Position.cached(", "rule_book("):
        assert f"`{method}" in reference, method


def test_the_world_example_of_the_case_format_passes(tmp_path):
    """docs/case-format.md's multiverse world, copied into a file, is a case that passes."""
    from solver.exploring.conformance import run_case
    from solver.formats.cases import read_cases

    page = (ROOT / "docs" / "case-format.md").read_text(encoding="utf-8")
    block = next(b for b in page.split("```text\n")[1:] if b.startswith("case O.B.3"))
    path = tmp_path / "world.cases"
    path.write_text(block.split("```")[0], encoding="utf-8")
    (case,) = read_cases(path)
    assert case.world is not None and run_case(case).passed, run_case(case).failures


def test_the_differences_of_j_and_o_are_each_explained():
    """docs/multiverse.md lists, under "J against O", exactly the cases compare-rules J O
    finds different among the multiverse cases."""
    import re

    from solver.formats.cases import read_cases
    from solver.rulesearch.compare import compare
    from solver.values.rules import RULE_BOOKS

    cases = [
        c
        for d in ("mdatc", "multiverse")
        for f in sorted((ROOT / "cases" / d).glob("*.cases"))
        for c in read_cases(f)
    ]
    differing = {d.id for d in compare(cases, RULE_BOOKS["J"], RULE_BOOKS["O"])}
    page = (ROOT / "docs" / "multiverse.md").read_text(encoding="utf-8")
    section = page.split("### J against O")[1].split("\n## ")[0]
    listed = set(
        re.findall(
            r"(?<![\w.-])((?:3\.A\.\d[\w-]*|O\.[A-E]\.\d+b?|MV\.(?:[OP]\.)?\d+))(?=[,.:\s])",
            section,
        )
    )
    assert listed == differing, (sorted(listed - differing), sorted(differing - listed))
    assert f"{len(cases)} multiverse cases, {len(differing)} differ" in " ".join(section.split())


def _blocks(kind: str) -> list[tuple[str, str]]:
    """Every ```KIND block of the pages under docs/ and of the README, with its page."""
    found = []
    for page in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]:
        text = page.read_text(encoding="utf-8")
        found += [(page.name, b.split("```", 1)[0]) for b in text.split(f"```{kind}\n")[1:]]
    return found


CASE_EXAMPLES = [
    (page, block)
    for page, block in _blocks("text")
    if next((line for line in block.splitlines() if not line.startswith("#")), "").startswith(
        "case "
    )
]


@pytest.mark.parametrize(("page", "block"), CASE_EXAMPLES, ids=lambda x: x[:20])
def test_every_case_example_of_the_docs_passes_or_is_an_excerpt_of_a_real_case(
    page, block, tmp_path, monkeypatch
):
    """A case shown whole, copied into a file, passes `dipsat check`; one shown with '...'
    is an excerpt of the case of that id in cases/, every line of which it shows."""
    from solver.exploring.conformance import run_case
    from solver.formats.cases import read_cases

    monkeypatch.chdir(ROOT)
    lines = block.splitlines()
    if "..." not in (line.strip() for line in lines):
        path = tmp_path / "example.cases"
        path.write_text(block, encoding="utf-8")
        (case,) = read_cases(path)
        result = run_case(case)
        assert result.passed, (page, [str(f) for f in result.failures])
        return
    case_id = next(line for line in lines if line.startswith("case ")).split()[1].rstrip(":")

    def plain(line: str) -> str:
        return " ".join(line.split("#", 1)[0].split())

    sources = [c for f in sorted((ROOT / "cases").rglob("*.cases")) for c in read_cases(f)]
    (source,) = [c for c in sources if c.id == case_id]
    text = (ROOT / source.path).read_text(encoding="utf-8").splitlines()
    body = {plain(line) for line in text[source.line - 1 :][:200]}
    shown = [plain(line) for line in lines if plain(line) and plain(line) != "..."]
    assert [line for line in shown if line not in body] == [], (page, case_id)


@pytest.mark.parametrize(("page", "block"), _blocks("toml"), ids=lambda x: x[:20])
def test_every_rule_book_of_the_docs_loads(page, block, tmp_path):
    """The TOML the pages show: rule books that load, a board that loads, or the top of a
    board file (`drawing = ...`) whose keys a board file takes."""
    import tomllib

    from solver.formats.rulebooks import rule_book
    from topology import load_board
    from topology.loader import _TOP_KEYS

    path = tmp_path / "shown.toml"
    path.write_text(block, encoding="utf-8")
    if "[[province]]" in block:
        assert load_board(path).provinces
    elif "drawing" in tomllib.loads(block):
        assert set(tomllib.loads(block)) <= _TOP_KEYS
    else:
        assert rule_book(str(path)).name
