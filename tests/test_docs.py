"""Every example in docs/api.md, docs/variants.md, the README's Python section and the
docstring of `solver` runs, with the output the page shows; docs/api.md's reference lists
the API, and the map file docs/variants.md shows is the one its cases use."""

from __future__ import annotations

import doctest
import re

import pytest
from conftest import ROOT

import solver

PAGES = ["docs/api.md", "docs/variants.md", "README.md"]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("page", PAGES)
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
