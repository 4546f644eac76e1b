"""Every example in docs/api.md, docs/variants.md and the README's Python section runs, with
the output the page shows; the map file docs/variants.md shows is the one the cases use."""

from __future__ import annotations

import doctest

import pytest
from conftest import ROOT

PAGES = ["docs/api.md", "docs/variants.md", "README.md"]


@pytest.mark.parametrize("page", PAGES)
def test_the_examples_of_the_page_run_as_written(page, monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples read case files under cases/
    failures, tried = doctest.testfile(
        str(ROOT / page),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
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
