"""The cross-check harness: protocol, external programs that misbehave, the generator,
comparison, shrinking to a case file, and a campaign through Dask."""

from __future__ import annotations

import json
import os
import sys
import time

import pytest
from conftest import DATA, dipsat, first_fast, slow

from solver.crosschecking.campaign import campaign, check_turns, write_cases
from solver.crosschecking.disagreements import classify, differences
from solver.crosschecking.engines import DipsatEngine, ExternalEngine
from solver.crosschecking.generate import random_turn, random_turns
from solver.crosschecking.protocol import ProtocolError, read_reply, read_request, request
from solver.exploring.conformance import run_case
from solver.formats.cases import read_cases
from solver.judge.checked import Status
from solver.judge.legality import analyse
from solver.values.notation import parse_given
from solver.values.position import SPRING_1901, Position, Unit
from topology import Location, UnitType, standard, variant

SELF = f"{sys.executable} -m solver.crosschecking.dipsat_adapter"
BUGGY = f"{sys.executable} {DATA / 'buggy_adapter.py'}"


def test_a_request_reads_back_as_the_same_turn():
    position, orders = random_turn("round-trip")
    again, orders_again = read_request(json.loads(json.dumps(request("r1", position, orders))))
    assert again == position
    assert sorted(map(str, orders_again)) == sorted(map(str, orders))


def test_the_generator_is_reproducible_and_legal():
    first, second = random_turn("s5-17"), random_turn("s5-17")
    assert first == second
    for _, position, orders in random_turns(3, 0, 40):
        turn = analyse(position, orders)
        assert all(c.status is not Status.ILLEGAL for c in turn.checked), position


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "expected a JSON object on one line"),
        ('{"id": "other"}', "expected id 'r1'"),
        ('{"id": "r1", "results": {"PAR": "yes"}, "units": {}}', "expected 'results'"),
        ('{"id": "r1", "results": {}, "units": {"FRANCE": ["X PAR"]}}', "expected 'units'"),
    ],
)
def test_malformed_replies_are_rejected(line, message):
    with pytest.raises(ProtocolError, match=message):
        read_reply(line, "r1")


@pytest.mark.parametrize(
    ("command", "error"),
    [
        (f"{sys.executable} -c 'import sys; sys.exit(3)'", "exited (3)"),
        (f"{sys.executable} -c 'import time; time.sleep(30)'", "no reply within"),
        (f"{sys.executable} -c 'input(); print(\"garbage\", flush=True)'", "malformed reply"),
        (  # more on stderr than a pipe holds: the program must not block on it
            f'{sys.executable} -c \'import sys; sys.stderr.write("x" * 300000); input();'
            ' print("garbage", flush=True)\'',
            "malformed reply",
        ),
    ],
)
def test_a_misbehaving_program_gives_an_error_and_the_run_goes_on(command, error):
    program = ExternalEngine(command, timeout=1.0, startup=1.0)
    position, orders = random_turn("x")
    for name in ("a", "b"):  # it is started again for the next request
        reply = program.adjudicate(name, position, orders)
        assert error in reply["error"]
    program.close()


def test_a_slow_start_is_allowed_once_and_a_stopped_program_takes_its_children_along(tmp_path):
    """The first reply may take the start-up allowance, a later one only the timeout; a
    program stopped for a late reply is stopped with the processes it started."""
    pids = tmp_path / "pids"
    script = (
        "import json, subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(pids)!r}, 'a').write(str(child.pid) + chr(10))\n"
        "while True:\n"
        "    request = json.loads(input())\n"
        "    time.sleep(1.5)\n"
        "    reply = {'id': request['id'], 'results': {}, 'dislodged': {}, 'units': {}}\n"
        "    print(json.dumps(reply), flush=True)\n"
    )
    program = ExternalEngine([sys.executable, "-c", script], timeout=1.0, startup=5.0)
    position, orders = random_turn("x")
    assert "error" not in program.adjudicate("a", position, orders)  # 1.5 s: the start-up
    assert "no reply within" in program.adjudicate("b", position, orders)["error"]
    program.close()
    (pid,) = map(int, pids.read_text().split())
    for _ in range(100):  # killed with its group; give the kernel a moment to reap it
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        raise AssertionError(f"process {pid} outlived the program that started it")


def test_dipsat_agrees_with_itself_through_the_protocol():
    summary = check_turns(SELF, random_turns(2, 0, 30))
    assert (summary.turns, summary.agreed, summary.skipped) == (30, 30, 0)


@slow
def test_a_wrong_adjudicator_is_caught_classified_and_shrunk(tmp_path):
    summary = check_turns(BUGGY, random_turns(4, 0, 40))
    assert summary.agreed < summary.turns
    assert all(label.startswith("support") for label in summary.classes)
    (path, *_) = write_cases(summary, tmp_path)
    (case,) = read_cases(path)
    assert len(case.movement.orders) <= 4  # shrunk to the support and what cuts it
    assert run_case(case).passed  # the case holds dipsat's own resolution


@slow
def test_board_and_label_disagreements_are_told_apart_and_set_the_exit_status(tmp_path):
    """A label-only difference leaves exit status 0; one on the board makes it 1, and its
    minimal case keeps the board difference (a shrink to a mere label would hide it)."""
    labels = dipsat("crosscheck", "--against", BUGGY, "--turns", "40", "--seed", "4", "--json")
    assert labels.returncode == 0, labels.stderr
    data = json.loads(labels.stdout)
    assert data["board_disagreements"] == 0 and data["label_disagreements"] > 0
    assert all(v["board"] == 0 and v["label"] > 0 for v in data["by_class"].values())
    out = tmp_path / "cases"
    board = dipsat(
        "crosscheck",
        "--against",
        f"{BUGGY} --board",
        "--turns",
        "40",
        "--seed",
        "4",
        "--json",
        "--out",
        str(out),
    )
    assert board.returncode == 1, board.stderr
    data = json.loads(board.stdout)
    assert data["board_disagreements"] > 0
    assert data["disagreements"] == data["board_disagreements"] + data["label_disagreements"]
    kept = [p for p in sorted(out.glob("*.cases")) if "[board]" in p.read_text().splitlines()[0]]
    assert kept and all("dislodged" in p.read_text() for p in kept)


@slow
def test_crosscheck_adjudicates_under_the_rule_book_it_is_given():
    """dipsat served behind the protocol plays 2025: under --rules 1971 our side differs."""
    same = json.loads(dipsat("crosscheck", "--against", SELF, "--turns", "60", "--json").stdout)
    other = dipsat("crosscheck", "--against", SELF, "--turns", "60", "--json", "--rules", "1971")
    assert same["disagreements"] == 0 and same["rules"] == "2025"
    assert (
        json.loads(other.stdout)["disagreements"] > 0
        and json.loads(other.stdout)["rules"] == "1971"
    )


def test_differences_name_the_first_differing_decision():
    units = (
        Unit(Location("bud"), UnitType.ARMY, "Austria"),
        Unit(Location("ser"), UnitType.ARMY, "Austria"),
        Unit(Location("rum"), UnitType.ARMY, "Russia"),
    )
    position = Position(SPRING_1901, units, board=standard())
    orders = [
        parse_given("Austria: A Budapest - Rumania", standard()),
        parse_given("Austria: A Serbia Supports A Budapest - Rumania", standard()),
        parse_given("Russia: A Rumania - Budapest", standard()),
    ]
    ours = DipsatEngine().adjudicate("h", position, orders)
    theirs = json.loads(json.dumps(ours))
    theirs["results"]["BUD"] = False
    found = differences(ours, theirs)
    assert found == {"result BUD": (True, False)}
    assert classify(position, orders, found) == "move: head-to-head"


def faulty(fault: str) -> list[str]:
    """An adjudicator with one injected fault (tests/data/faulty_adapter.py)."""
    return [sys.executable, str(DATA / "faulty_adapter.py"), fault]


ROOT_OF = {
    "head-to-head": ("move: head-to-head",),
    "cut": ("support: ",),
    "convoy": (
        "move: by convoy",
        "move: contested by a convoyed army",
        "support: attacked by a convoyed army",
    ),
    "retreat": ("retreats: retreat options",),
}
"""The classes that name each injected fault right: the decision it breaks."""

KNOTTY = [
    *("s2-27", "s2-71", "s2-109", "s2-115", "s2-123", "s2-158", "s2-327", "s2-419"),
    *("s2-528", "s2-552", "s2-756", "s2-872", "s2-991"),
]
"""Turns where an order dipsat finds void, a cycle of differences or a move contested by a
convoyed army once made the class name another decision than the fault's."""


@pytest.mark.parametrize("fault", first_fast(sorted(ROOT_OF)))
def test_each_injected_fault_is_named_by_its_root(fault):
    """Both moves of a head-to-head fail, a support is never cut, an attacked fleet cannot
    convoy, a unit may retreat to where its attacker came from: each fault is named by the
    decision it breaks (its inputs agree between the engines, its value does not), not by
    the first differing decision in a fixed order, nor by a void order in the province."""
    turns = [(name, *random_turn(name)) for name in KNOTTY]
    summary = check_turns(faulty(fault), [*turns, *random_turns(2, 0, 30)], shrink_cases=False)
    assert summary.compared == summary.turns == len(KNOTTY) + 30, summary.errors
    assert summary.classes, "the fault changed nothing"
    wrong = [c for c in summary.classes if not c.startswith(ROOT_OF[fault])]
    assert wrong == [], dict(summary.classes)


def test_a_shrunk_case_is_tagged_by_its_own_difference():
    """s2-0 under a never-cut support is a label difference ('support: support'); shrunk
    with no regard to the board, it became a case whose own diff showed a dislodgement,
    still headed [label].  The tag is the written case's, and a label stays a label."""
    summary = check_turns(faulty("cut"), random_turns(2, 0, 1))
    assert list(summary.classes) == ["support: support"] and summary.board_disagreements == 0
    ((key, text),) = summary.cases.items()
    diff = [line[4:] for line in text.splitlines() if line.startswith("#   ")]
    assert diff and all(line.startswith("result ") for line in diff), text
    assert key == "support: support [label]"


def test_powers_are_compared_by_who_they_are_not_by_their_spelling(tmp_path):
    """On `world` MILA writes PACIFICRUSSIA where dipsat writes PACIFIC-RUSSIA: every turn
    was a board disagreement.  A reply's powers are read as the board names them."""
    name, position, orders = next(random_turns(1, 0, 1, variant("world")))
    ours = DipsatEngine().adjudicate(name, position, orders)
    assert "PACIFIC-RUSSIA" in ours["units"]
    mila = {**ours, "units": {p.replace("-", ""): u for p, u in ours["units"].items()}}
    assert differences(ours, read_reply(json.dumps(mila), name, position.map)) == {}
    with pytest.raises(ProtocolError, match=r"expected a power of 'world'.*found 'ATLANTIS'"):
        read_reply(json.dumps({**mila, "units": {"ATLANTIS": ["A PAR"]}}), name, position.map)
    judge = tmp_path / "judge.py"
    judge.write_text(  # dipsat behind the protocol, spelling powers as MILA does
        "import json, sys\n"
        "from solver.crosschecking.engines import DipsatEngine\n"
        "from solver.crosschecking.protocol import read_request\n"
        "for line in sys.stdin:\n"
        "    data = json.loads(line)\n"
        "    reply = DipsatEngine().adjudicate(data['id'], *read_request(data))\n"
        "    reply['units'] = {p.replace('-', ''): u for p, u in reply['units'].items()}\n"
        "    print(json.dumps(reply), flush=True)\n",
        encoding="utf-8",
    )
    summary = check_turns([sys.executable, str(judge)], random_turns(1, 0, 8, variant("world")))
    assert (summary.turns, summary.agreed) == (8, 8), dict(summary.classes)


@slow
def test_a_campaign_runs_on_a_dask_cluster():
    summary = campaign(SELF, turns=24, seed=9, dask="local", chunk=8)
    assert (summary.turns, summary.agreed) == (24, 24)


def test_requests_and_replies_follow_the_published_schema():
    import jsonschema

    schema = json.loads((DATA.parent.parent / "docs" / "crosscheck.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    for name, position, orders in random_turns(6, 0, 10):
        validator.validate(request(name, position, orders))
    for name, position, orders in random_turns(6, 0, 3, variant("world")):
        validator.validate(data := request(name, position, orders))
        assert data["map"] == "world"
        validator.validate(DipsatEngine().adjudicate(name, position, orders))
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({"id": "x", "results": {"Paris": True}, "units": {}})


@slow
def test_the_time_limit_reaches_every_worker_and_running_out_is_an_error():
    """Turn s36-0 needs the solver: with --time-limit 1e-9 dipsat's side is an error in
    every worker (never a guess), and a run where nothing was compared exits 2."""
    expected = "s36-0: dipsat: the solver reached its time limit (1e-09 s)"
    for workers in (1, 2):
        summary = campaign("dipsat", 2, 36, workers=workers, chunk=1, time_limit=1e-9)
        assert (summary.turns, summary.compared) == (2, 1), workers
        assert summary.errors[0].startswith(expected), summary.errors
    shown = dipsat(
        "crosscheck", "--against", "dipsat", "--seed", "36", "--turns", "1", "--json",
        "--time-limit", "1e-9",
    )  # fmt: skip
    assert shown.returncode == 2, shown.stderr
    assert json.loads(shown.stdout)["errors"][0].startswith(expected)
