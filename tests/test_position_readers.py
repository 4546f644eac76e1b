"""Every reader of a position — case files, saved games, recorded games (MILA JSON) and
position text — refuses the same impossible positions, because each builds a `Position`,
which checks itself (issue 20: saved games and case files used to accept a fleet in
Bohemia that `replay` refused).

Hypothesis draws positions, possible or not (units of any type on any province and coast,
centres owned by one power or two, any phase code); the property is that the four readers
agree: all read the position, to the same units and phase, or all refuse it with a
documented error."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from conftest import fuzz_examples
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from solver.errors import DipsatError
from solver.formats.cases import read_cases
from solver.formats.mila import RecordedPhase, parse_game
from solver.formats.savegame import from_json, new_game, to_json
from solver.values.position import Position
from topology import standard

ROOT = Path(__file__).resolve().parents[1]
BOARD = standard()
POWERS = tuple(p.upper() for p in BOARD.powers)
PROVINCES = tuple(sorted(BOARD.provinces))
CENTRES = tuple(sorted(BOARD.centres))
RECORD = json.loads((ROOT / "tests/data/games/mila/standard-01.json").read_text())

units = st.lists(
    st.tuples(
        st.sampled_from(POWERS),
        st.sampled_from("AF"),
        st.sampled_from(PROVINCES),
        st.sampled_from(["", "/NC", "/SC", "/EC"]),
    ),
    max_size=6,
)
centres = st.lists(
    st.tuples(st.sampled_from(POWERS), st.sampled_from(CENTRES).map(str.upper)), max_size=4
)
phases = st.builds(
    lambda season, year, kind: f"{season}{year}{kind}",
    st.sampled_from("SFW"),
    st.sampled_from(["1901", "0007", "9999", "10000"]),
    st.sampled_from("MR"),  # 'A' phases need builds, a winter position of its own
)


def by_power(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for power, item in pairs:
        found.setdefault(power, []).append(item)
    return found


def case_text(phase: str, placed: list[tuple[str, str]], owned: list[tuple[str, str]]) -> str:
    lines = ["case X.1: t", f"phase: {phase}"]
    lines += [f"{power} owns {unit}" for power, unit in placed]
    lines += [f"{power} owns SC {province}" for power, province in owned]
    return "\n".join(lines) + "\n"


def position_text(phase: str, placed: list[tuple[str, str]], owned: list[tuple[str, str]]) -> str:
    lines = [phase]
    lines += [f"{power}: {', '.join(units)}" for power, units in by_power(placed).items()]
    lines += [f"{power} centres: {', '.join(c)}" for power, c in by_power(owned).items()]
    return "\n".join(lines) + "\n"


def state(phase: str, placed: list[tuple[str, str]], owned: list[tuple[str, str]]) -> dict:
    return {
        "phase": phase,
        "units": by_power(placed),
        "centers": by_power(owned),
        "dislodged": {},
        "standoffs": [],
    }


def saved_text(phase: str, placed: list[tuple[str, str]], owned: list[tuple[str, str]]) -> str:
    data = json.loads(to_json(new_game("2025")))
    data["position"] = state(phase, placed, owned)
    data["orders"] = []
    return json.dumps(data)


def record(phase: str, placed: list[tuple[str, str]], owned: list[tuple[str, str]]) -> Any:
    data = copy.deepcopy(RECORD)
    first, last = data["phases"][0], data["phases"][-1]
    first["name"] = first["state"]["name"] = phase
    first["orders"], first["results"] = {}, {}
    first["state"]["units"] = by_power(placed)
    first["state"]["centers"] = by_power(owned)
    data["phases"] = [first, last]
    return data


def summary(position: Position | RecordedPhase) -> tuple[str, tuple[str, ...]]:
    assert position.phase is not None
    return position.phase.code, tuple(sorted(f"{u.power} {u}" for u in position.units))


def outcome(read: Any) -> tuple[str, tuple[str, ...]] | str:
    """What a reader makes of the position: its summary, or 'refused'."""
    try:
        return summary(read())
    except DipsatError:
        return "refused"


@settings(
    max_examples=fuzz_examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(phase=phases, placed=units, owned=centres)
def test_every_reader_refuses_the_same_impossible_positions(
    tmp_path: Path, phase: str, placed: list, owned: list
) -> None:
    pieces = [
        (power, f"{kind} {province.upper()}{coast}") for power, kind, province, coast in placed
    ]
    path = tmp_path / "x.cases"
    path.write_text(case_text(phase, pieces, owned))
    readers = {
        "case file": lambda: read_cases(path)[0].position,
        "position text": lambda: Position.parse(position_text(phase, pieces, owned)),
        "saved game": lambda: from_json(saved_text(phase, pieces, owned)).position,
        "recorded game": lambda: parse_game(record(phase, pieces, owned)).phases[0],
    }
    found = {name: outcome(read) for name, read in readers.items()}
    assert len(set(found.values())) == 1, (phase, pieces, owned, found)
    event("refused" if found["case file"] == "refused" else "read")
