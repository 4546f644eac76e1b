"""The pictures shown in docs/pictures.md, made from the data.

``python -m solver.exploring.gallery [FOLDER]`` writes them (default ``docs/pictures``);
tests/test_gallery.py checks the committed ones are what this makes today.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from topology import layout_of

from ..formats.cases import Case, read_cases
from ..formats.rulebooks import rule_book
from ..formats.savegame import STANDARD_START
from ..render.board_drawing import Scene, board_svg, focus_box
from ..values.rules import EDITIONS
from .explore import explore
from .scenes import case_scenes, case_svg, edition_scenes, resolution_scene

CASES = Path(__file__).resolve().parents[2] / "cases"


def _case(file: str, case_id: str) -> Case:
    return next(c for c in read_cases(CASES / file) if c.id == case_id)


def _opening() -> dict[str, str]:
    scene = Scene(STANDARD_START, title="The opening position, Spring 1901")
    return {"opening.svg": board_svg(scene, whole=True)}


def _paradox(file: str, case_id: str, name: str) -> dict[str, str]:
    """A paradox case under 2025, each consistent resolution of its cores, and the outcome
    each edition reaches, all in one frame."""
    case = _case(file, case_id)
    rules = rule_book("2025")
    (scene,) = case_scenes(case, rules)
    reports = explore(scene.position, scene.orders, rules)
    resolutions = [
        resolution_scene(scene, rules, values, f"{case.id}: consistent resolution {number}")
        for report in reports
        for number, values in enumerate(report.resolutions)
    ]
    editions = edition_scenes(scene)
    scenes = [scene, *(r for r in resolutions if r), *(s for _, s in editions)]
    box = focus_box(scenes, layout_of(scene.position.map))
    pictures = {f"{name}.svg": board_svg(scene, box=box)}
    for number, drawn in enumerate(resolutions):
        if drawn is not None:
            pictures[f"{name}-resolution-{number}.svg"] = board_svg(drawn, box=box)
    for names, drawn in editions:
        label = "every-edition" if len(names) == len(EDITIONS) else "-".join(names)
        titled = replace(drawn, title=f"{case.id} under {', '.join(names)}")
        pictures[f"{name}-{label}.svg"] = board_svg(titled, box=box)
    return pictures


def _multiverse() -> dict[str, str]:
    case = _case("mdatc/3A-letters.cases", "3.A.2")
    return {"3A2.svg": case_svg(case, rule_book(case.edition))}


MAKERS: tuple[Callable[[], dict[str, str]], ...] = (
    _opening,
    lambda: _paradox("datc/6F.cases", "6.F.16", "6F16"),
    lambda: _paradox("datc/6F.cases", "6.F.14", "6F14"),
    _multiverse,
)


def pictures() -> dict[str, str]:
    """Every picture of the gallery, by file name."""
    made: dict[str, str] = {}
    for maker in MAKERS:
        made.update(maker())
    return made


def main(argv: list[str]) -> None:
    folder = Path(argv[0] if argv else "docs/pictures")
    folder.mkdir(parents=True, exist_ok=True)
    for name, svg in pictures().items():
        (folder / name).write_text(svg, encoding="utf-8")
        print(f"wrote {folder / name}")


if __name__ == "__main__":
    main(sys.argv[1:])
