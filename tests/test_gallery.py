"""The pictures in docs/pictures are the ones the gallery draws today, byte for byte."""

from __future__ import annotations

from conftest import ROOT

from solver.exploring.gallery import pictures

FOLDER = ROOT / "docs" / "pictures"


def test_docs_pictures_are_up_to_date():
    made = pictures()
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in FOLDER.glob("*.svg")}
    assert sorted(on_disk) == sorted(made), "run: python -m solver.exploring.gallery"
    stale = [name for name, svg in made.items() if on_disk[name] != svg]
    assert not stale, f"stale pictures {stale}; run: python -m solver.exploring.gallery"


def test_docs_page_shows_every_picture():
    page = (ROOT / "docs" / "pictures.md").read_text(encoding="utf-8")
    for name in pictures():
        assert f"(pictures/{name})" in page, name
