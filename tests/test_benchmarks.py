"""The benchmark run small, so `python -m benchmarks.run` cannot rot between measurements: the
report's sections and rows are checked, never its figures (they live in docs/performance.md)."""

from __future__ import annotations

import re

import pytest
from conftest import slow

from benchmarks import contestants, run

SMALL = run.Scale(
    turns=4,
    games=2,
    passes=1,
    repeats=2,
    startups=2,
    memory_turns=2,
    agreement_turns=3,
    growth=(("standard", (8,)), ("known_world_901", (40,))),
    growth_turns=2,
    timelines=(1, 2),
    rulesearch_limit=2,
)


@pytest.fixture(scope="module")
def report() -> str:
    return run.report(SMALL)


def _table(text: str, heading: str) -> list[list[str]]:
    """The rows of the first table under a heading, each a list of cells (header and rule
    left out)."""
    section = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def _number(cell: str) -> float:
    return float(cell.lstrip("×").split()[0])


@slow
def test_the_report_has_every_section(report):
    headings = re.findall(r"^## (.+)$", report, re.MULTILINE)
    assert headings[:6] == [
        "Targets",
        "Latency per turn, the engines interleaved",
        "Throughput on one core",
        "Memory, each engine in a process of its own",
        "Start-up",
        "Where the time goes",
    ]
    assert "Multiverse: one step against as many separate standard turns" in headings
    assert "Meta's dipcc" in headings and "Searching the rule books" in headings
    # what ran where
    for item in ("- machine: ", "- versions: dipsat ", "- the judge: ", "- engines: dipsat"):
        assert item in report


@slow
def test_every_engine_is_timed_on_every_input_in_cpu_and_wall_time(report):
    rows = _table(report, "Latency per turn, the engines interleaved")
    engines = contestants.engines()
    assert [(r[0], r[1]) for r in rows] == [(s, e) for s in run.INPUTS for e in engines]
    for row in rows:
        inputs, engine, turns = row[:3]
        assert _number(turns) > 0
        assert all(_number(cell) > 0 for cell in row[3:9])  # CPU and wall: median, mean, p90
        assert all(_number(cell) > 0 for cell in row[9:13])  # the four ratios
        if engine == "dipsat":
            assert row[9:13] == ["1.00"] * 4
        # pydip cannot write illegal orders, which only the DATC cases give
        assert "skipped" not in turns or (engine == "pydip" and inputs == "datc")
    random_turns = {r[1]: r[2] for r in rows if r[0] == "random"}
    assert set(random_turns.values()) == {str(SMALL.turns)}


@slow
def test_the_targets_throughput_and_start_up_are_reported(report):
    targets = _table(report, "Targets")
    assert len(targets) == 7 and all(row[2] in ("met", "missed") for row in targets)
    throughput = _table(report, "Throughput on one core")
    assert [r[0] for r in throughput] == ["dipsat `adjudicate_many`", "pydip"]
    assert all(_number(r[1]) == SMALL.turns and _number(r[2]) > 0 for r in throughput)
    assert throughput[1][4:] == ["1.00", "1.00"]
    startup = _table(report, "Start-up")
    assert [r[0] for r in startup] == [
        "`import solver`",
        "`python -c pass`",
        "`python -c 'import solver'`",
        "`dipsat --help`",
    ]
    assert all(_number(r[1]) > 0 and _number(r[2]) > 0 for r in startup)


@slow
def test_memory_stages_growth_multiverse_replay_and_search_are_reported(report):
    memory = _table(report, "Memory, each engine in a process of its own")
    assert [r[0] for r in memory] == [e for e in contestants.engines() if e != "dipsat-solver"]
    stages = _table(report, "Where the time goes")
    assert [r[0] for r in stages] == [*run.STAGES, "all"]
    growth = _table(report, "Growth with the number of units")
    assert [(r[0], r[1]) for r in growth] == [("standard", "8"), ("known_world_901", "40")]
    multiverse = _table(report, "Multiverse: one step against as many separate standard turns")
    assert [r[0] for r in multiverse] == ["1", "2"]
    assert multiverse[0][6] == "" and _number(multiverse[1][6]) > 0  # growth per doubling
    assert all(_number(cell) > 0 for row in multiverse for cell in row[1:5])
    replay = _table(report, "A corpus across processes")
    assert [r[0] for r in replay] == ["1", "2"]
    search = _table(report, "Searching the rule books")
    assert [r[0] for r in search] == ["influence"] + ["solve"] * len(run.SOLVED) + ["fit"] * 2


@slow
def test_the_dipcc_section_says_whether_it_ran(report):
    section = report.split("## Meta's dipcc\n", 1)[1]
    if contestants.dipcc_module() is None:
        assert "Not measured in this run" in section
    else:
        rows = _table(report, "Meta's dipcc")
        assert [r[0] for r in rows] == list(run.INPUTS)


def test_dipcc_is_optional(monkeypatch):
    """With no dipcc module to import, the engines are the other four."""
    monkeypatch.setattr(contestants, "dipcc_module", lambda: None)
    assert contestants.engines() == ["dipsat", "dipsat-solver", "mila", "pydip"]
    assert contestants.dipcc_game(None) is None


def test_an_engine_that_cannot_express_a_turn_skips_it():
    """pydip asserts legality: on an illegal DATC order it has no call to time."""
    turns = run.datc_inputs()
    pydip = contestants.preparer("pydip")
    prepared = [pydip(p, o, contestants.request_of(p, o)) for p, o in turns]
    assert None in prepared and any(c is not None for c in prepared)
