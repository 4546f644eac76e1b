"""The benchmark's pieces run on small inputs, so `python -m benchmarks.run` cannot rot between
measurements (it times nothing here: the figures live in docs/performance.md)."""

from __future__ import annotations

import pytest

from benchmarks import run


@pytest.mark.parametrize("engine", ["dipsat", "dipsat-solver", "mila", "pydip"])
@pytest.mark.parametrize("inputs", ["datc", "games", "random"])
def test_each_engine_adjudicates_every_input_it_can_express(engine, inputs):
    row = run.section(engine, inputs, 5)
    expected = {"datc": len(run.datc_inputs()), "games": len(run.game_inputs()), "random": 5}
    assert row["turns"] + row["skipped"] == expected[inputs]
    # dipsat and MILA read every order; pydip cannot write illegal orders, which only the
    # DATC cases give
    assert row["skipped"] == 0 or (engine == "pydip" and inputs == "datc")
    assert row["turns"] > 0 and row["median_ms"] > 0
    if engine == "dipsat":
        assert 0 < row["propagated"] <= row["turns"]


def test_a_multiverse_step_and_a_throughput_part_run():
    step = run.multiverse_section(2)
    assert step["timelines"] == 2 and step["step_s"] > 0 and step["separate_s"] > 0
    assert step["step_o_s"] > 0
    part = run.part("dipsat", 6, 2, 1)
    assert part["turns"] == 3 and part["seconds"] > 0


def test_the_stages_the_growth_the_batch_and_the_replay_sections_run():
    stages = run.stages_section(5)
    assert stages["turns"] == 5 and set(stages["us"]) == set(run.STAGES)
    assert all(v >= 0 for v in stages["us"].values()) and stages["us"]["propagation"] > 0
    grown = run.growth_section("known_world_901", 40, 3)
    assert grown["units"] == 40 and grown["median_ms"] > 0
    assert run.batch_section(5)["per_second"] > 0
    replayed = run.replay_section(4, 2)
    assert replayed["games"] == 4 and replayed["transitions"] > 0 and replayed["seconds"] > 0


def test_the_rule_search_section_runs():
    found = run.rulesearch_section(limit=2)
    assert found["cases"] == 2 and found["influence_runs"] >= 2
    assert [s["case"] for s in found["solved"]] == [c for c, _ in run.SOLVED]
    assert [f["files"] for f in found["fits"]] == [2, 2]
    assert found["searched_runs"] < found["blind_runs"] == 576
    assert found["standard_books"] > 1_000_000
