"""The MILA and pydip adapters, each run as a subprocess behind the cross-check protocol."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest
from conftest import ROOT

from solver.crosschecking.protocol import read_reply, reply, request
from solver.cycle.game import advance
from solver.values.notation import parse_given
from solver.values.position import (
    SPRING_1901,
    DislodgedUnit,
    Phase,
    PhaseKind,
    Position,
    Season,
    Unit,
)
from topology import Location, UnitType, standard

FALL_RETREAT = Phase(1901, Season.FALL, PhaseKind.RETREAT)
WINTER = Phase(1901, Season.WINTER, PhaseKind.ADJUSTMENT)


class Adapter:
    """A running adapter: one request line in, one reply line out."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.process = subprocess.Popen(
            [sys.executable, "-m", f"solver.crosschecking.{name}_adapter"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def raw(self, line: str) -> str:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline()

    def ask(self, rid: str, position: Position, orders: list[str]) -> dict:
        given = [parse_given(text, standard()) for text in orders]
        return read_reply(self.raw(json.dumps(request(rid, position, given))), rid)

    def close(self) -> None:
        assert self.process.stdin
        self.process.stdin.close()
        assert self.process.wait(timeout=10) == 0


@pytest.fixture(scope="module", params=["mila", "pydip"])
def adapter(request: pytest.FixtureRequest) -> Iterator[Adapter]:
    pytest.importorskip({"mila": "diplomacy", "pydip": "pydip"}[request.param])
    running = Adapter(request.param)
    yield running
    running.close()


def ours(rid: str, position: Position, orders: list[str]) -> dict:
    """dipsat's own reply, normalised the way read_reply normalises the adapters'."""
    step = advance(position, [parse_given(text, standard()) for text in orders])
    dislodged = {
        r.unit: r.options
        for r in getattr(step, "dislodged", ())
        if position.phase.kind is PhaseKind.MOVEMENT
    }
    return read_reply(json.dumps(reply(rid, step.outcomes, step.after, dislodged)), rid)


def board(*units: str, phase: Phase = SPRING_1901, dislodged=(), centres=()) -> Position:
    """Units written 'England F stp/sc'."""

    def unit(text: str) -> Unit:
        power, kind, where = text.split()
        return Unit(Location.parse(where), UnitType(kind), power)

    return Position(
        phase,
        tuple(map(unit, units)),
        centres=tuple(centres),
        dislodged=tuple(DislodgedUnit(unit(u), origin, via) for u, origin, via in dislodged),
        board=standard(),
    )


def check(adapter: Adapter, rid: str, position: Position, orders: list[str]) -> dict:
    """The adapter's reply, which must also be dipsat's."""
    got = adapter.ask(rid, position, orders)
    assert got == ours(rid, position, orders)
    return got


def test_bounce(adapter: Adapter) -> None:
    position = board("France A par", "Germany A mun")
    got = check(
        adapter, "bounce", position, ["France: A Paris - Burgundy", "Germany: A Munich - Burgundy"]
    )
    assert got["results"] == {"MUN": False, "PAR": False}
    assert got["dislodged"] == {}
    assert got["units"] == {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]}


def test_supported_attack_dislodges(adapter: Adapter) -> None:
    position = board("Austria A tri", "Austria A tyr", "Italy A ven")
    got = check(
        adapter,
        "dislodge",
        position,
        [
            "Austria: A Trieste - Venice",
            "Austria: A Tyrolia S A Trieste - Venice",
            "Italy: A Venice Hold",
        ],
    )
    assert got["results"] == {"TRI": True, "TYR": True}
    assert got["dislodged"] == {"A VEN": ["APU", "PIE", "ROM", "TUS"]}
    assert got["units"] == {"AUSTRIA": ["A TYR", "A VEN"]}


def test_convoy(adapter: Adapter) -> None:
    position = board("England A yor", "England F nth")
    got = check(
        adapter,
        "convoy",
        position,
        ["England: A Yorkshire - Norway", "England: F North Sea C A Yorkshire - Norway"],
    )
    assert got["results"] == {"NTH": True, "YOR": True}
    assert got["units"] == {"ENGLAND": ["A NWY", "F NTH"]}


def test_cut_support(adapter: Adapter) -> None:
    position = board("Austria A tri", "Austria A tyr", "Italy A ven", "Italy A pie")
    got = check(
        adapter,
        "cut",
        position,
        [
            "Austria: A Trieste - Venice",
            "Austria: A Tyrolia S A Trieste - Venice",
            "Italy: A Piedmont - Tyrolia",
        ],
    )
    assert got["results"] == {"PIE": False, "TRI": False, "TYR": False}
    assert got["dislodged"] == {}


def test_coasts(adapter: Adapter) -> None:
    position = board("France F mao", "Turkey F bla", "Russia F stp/sc", "Russia F bot")
    got = check(
        adapter,
        "coasts",
        position,
        [
            "France: F MAO - SPA/NC",
            "Turkey: F Black Sea - Bulgaria(ec)",
            "Russia: F St Petersburg(sc) - Livonia",
            "Russia: F bot S F stp/sc - lvn",
        ],
    )
    assert got["results"] == {"BLA": True, "BOT": True, "MAO": True, "STP": True}
    assert got["units"] == {
        "FRANCE": ["F SPA/NC"],
        "RUSSIA": ["F BOT", "F LVN"],
        "TURKEY": ["F BUL/EC"],
    }


def test_adjustment(adapter: Adapter) -> None:
    position = board(
        "France A par",
        phase=WINTER,
        centres=[("par", "France"), ("bre", "France"), ("mar", "France")],
    )
    got = check(
        adapter, "builds", position, ["France: Build F Brest", "France: Build A Marseilles"]
    )
    assert got["units"] == {"FRANCE": ["A MAR", "A PAR", "F BRE"]}


def test_retreat_phase(adapter: Adapter) -> None:
    position = board(
        "Austria A ven",
        "Austria A tyr",
        "England F bel",
        phase=FALL_RETREAT,
        dislodged=[("Italy A ven", "tri", False), ("Germany F hol", "bel", False)],
    )
    orders = ["Italy: A VEN R ROM", "Germany: F HOL R BEL"]
    if adapter.name == "pydip":
        got = adapter.ask("retreat", position, orders)
        assert "retreat phase" in got["error"]
        return
    got = check(adapter, "retreat", position, orders)
    assert got["results"] == {} and got["dislodged"] == {}
    assert got["units"] == {"AUSTRIA": ["A TYR", "A VEN"], "ENGLAND": ["F BEL"], "ITALY": ["A ROM"]}


def test_retreat_to_attackers_province_fails(adapter: Adapter) -> None:
    position = board(
        "England F hol", phase=FALL_RETREAT, dislodged=[("Germany F hol", "bel", False)]
    )
    if adapter.name == "pydip":  # pydip has no retreat phases: it says so
        assert "retreat phase" in adapter.ask("retreat-back", position, [])["error"]
        return
    got = check(adapter, "retreat-back", position, ["Germany: F HOL R BEL"])
    assert got["units"] == {"ENGLAND": ["F HOL"]}


def test_illegal_order(adapter: Adapter) -> None:
    position = board("France A par")
    got = adapter.ask("illegal", position, ["France: A Paris - Munich"])
    if adapter.name == "pydip":  # pydip's constructors refuse illegal orders
        assert "illegal for pydip" in got["error"]
    else:  # NO_CHECK: kept and void
        assert got == ours("illegal", position, ["France: A Paris - Munich"])
        assert got["results"] == {"PAR": False}


def test_bad_lines_get_errors_and_service_goes_on(adapter: Adapter) -> None:
    answer = json.loads(adapter.raw("{not json"))
    assert answer["id"] is None and "malformed" in answer["error"]
    answer = read_reply(adapter.raw(json.dumps({"id": "odd", "protocol": "x"})), "odd")
    assert "protocol" in answer["error"]
    army_at_sea = {
        "protocol": "dipsat-crosscheck/1",
        "id": "sea",
        "phase": "S1901M",
        "units": {"FRANCE": ["A NTH"]},
        "orders": {},
    }
    assert "error" in read_reply(adapter.raw(json.dumps(army_at_sea)), "sea")
    test_bounce(adapter)


def test_pydip_coast_bug_is_reported_faithfully(adapter: Adapter) -> None:
    """peers.md §3: PyPI pydip 0.1.8 lets A SWE - NWY cut F NWY's support into Sweden."""
    position = board("England F nwy", "England F den", "Russia A swe")
    orders = [
        "England: F Norway S F Denmark - Sweden",
        "England: F Denmark - Sweden",
        "Russia: A Sweden - Norway",
    ]
    got = adapter.ask("coast-bug", position, orders)
    if adapter.name == "mila":
        assert got == ours("coast-bug", position, orders)
        assert got["dislodged"] == {"A SWE": ["FIN"]}
    else:
        assert got["results"] == {"DEN": False, "NWY": False, "SWE": False}
        assert got["dislodged"] == {}


def test_engine_prints_go_to_stderr() -> None:
    code = (
        "from solver.crosschecking.mila_adapter import serve\n"
        "def noisy(request):\n"
        "    print('noise')\n"
        "    return {'results': {}, 'dislodged': {}, 'units': {}}\n"
        "serve(noisy)\n"
    )
    line = json.dumps({"protocol": "dipsat-crosscheck/1", "id": "n", "phase": "S1901M"})
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        input=line + "\n",
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert read_reply(done.stdout, "n") == {"id": "n", "results": {}, "dislodged": {}, "units": {}}
    assert "noise" in done.stderr


def test_support_without_coast_backs_the_ordered_coast(adapter: Adapter) -> None:
    position = board("France F por", "France A gas", "Italy F lyo")
    got = check(
        adapter,
        "support-coast",
        position,
        ["France: F POR - SPA/SC", "France: A GAS - SPA", "Italy: F LYO S F POR - SPA"],
    )
    assert got["results"] == {"GAS": False, "LYO": True, "POR": True}
    assert got["units"] == {"FRANCE": ["A GAS", "F SPA/SC"], "ITALY": ["F LYO"]}
