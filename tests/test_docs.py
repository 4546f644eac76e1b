"""Every example in docs/api.md and in the README's Python section runs, with the output
the page shows."""

from __future__ import annotations

import doctest

import pytest
from conftest import ROOT

PAGES = ["docs/api.md", "README.md"]


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
