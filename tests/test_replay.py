"""Replay of recorded webDiplomacy games (MILA JSON): every transition matches the record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import DATA, dipsat, slow

from solver.crosschecking.replay import explaining, replay
from solver.formats.mila import read_game
from solver.values.rules import DATC_2025, RULE_BOOKS, WEBDIPLOMACY

GAMES = DATA / "games"
FIRST = GAMES / "game_433761_ENGLAND_AG.json"
SECOND = GAMES / "game_433762_ITALY_AEFT.json"


def write_game(tmp_path: Path, name: str, data: dict | str) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def first_game(phases: int | None = None) -> dict:
    data = json.loads(FIRST.read_text(encoding="utf-8"))
    if phases is not None:
        data["phases"] = data["phases"][:phases]
    return data


def test_two_games_match_every_transition_under_webdiplomacy_rules():
    report = replay([FIRST, SECOND], WEBDIPLOMACY)
    assert not report.errors
    assert report.mismatches == []
    assert (report.games, report.transitions, report.matched) == (2, 69, 69)
    assert report.by_kind == {
        "M": {"transitions": 31, "matched": 31, "mismatched": 0},
        "R": {"transitions": 23, "matched": 23, "mismatched": 0},
        "A": {"transitions": 15, "matched": 15, "mismatched": 0},
    }


def test_civil_disorder_by_owned_centres_is_a_rule_difference():
    """DATC 2025 counts distance from owned centres; webDiplomacy from home centres."""
    report = replay([FIRST], DATC_2025)
    assert [(m.phase, m.next, m.kind) for m in report.mismatches] == [("W1908A", "S1909M", "A")]
    mismatch = report.mismatches[0]
    assert mismatch.expected == {"units": ["FRANCE: A RUH"]}
    assert mismatch.produced == {"units": ["FRANCE: A WAR"]}


def test_all_ten_games_match_every_transition():
    report = replay(sorted(GAMES.glob("*.json")), WEBDIPLOMACY)
    assert not report.errors
    assert [m.as_json() for m in report.mismatches] == []
    assert (report.games, report.transitions) == (10, 362)


def test_a_wrong_retreat_option_in_the_record_is_a_mismatch(tmp_path):
    data = first_game(7)  # to W1902A; F SWE is dislodged in F1902M
    retreat = data["phases"][5]
    assert retreat["name"] == "F1902R"
    retreat["state"]["retreats"]["RUSSIA"]["F SWE"].remove("FIN")
    report = replay([write_game(tmp_path, "game.json", data)], WEBDIPLOMACY)
    assert [m.as_json() for m in report.mismatches] == [
        {
            "file": str(tmp_path / "game.json"),
            "phase": "F1902M",
            "next": "F1902R",
            "kind": "M",
            "expected": {"dislodged": ["RUSSIA: *F SWE -> BAL, BOT"]},
            "produced": {"dislodged": ["RUSSIA: *F SWE -> BAL, BOT, FIN"]},
            "cause": "retreats: retreat options",
        }
    ]
    assert report.matched == report.transitions - 1


def test_a_retreat_phase_we_cannot_rebuild_says_why(tmp_path):
    data = first_game(7)
    state = data["phases"][5]["state"]
    state["units"]["RUSSIA"] = ["*A SWE" if u == "*F SWE" else u for u in state["units"]["RUSSIA"]]
    state["retreats"]["RUSSIA"] = {"A SWE": ["FIN"]}
    data["phases"][5]["orders"]["RUSSIA"] = ["A SWE R FIN"]
    report = replay([write_game(tmp_path, "game.json", data)], WEBDIPLOMACY)
    assert [(m.phase, m.kind) for m in report.mismatches] == [("F1902M", "M"), ("F1902R", "R")]
    assert report.mismatches[1].note == (
        "RUSSIA *A SWE was not dislodged by our adjudication of F1902M"
    )


ROME = DATA / "replay" / "godip-rome-standoff.json"


@slow
def test_a_record_the_site_adjudicated_otherwise_is_a_mismatch_and_the_replay_goes_on():
    """The site let France into Rome, where the 2025 rules leave a standoff (the supported
    F Naples - Rome is dislodged but still bounces A Tuscany).  The retreat phase after it
    records A Rome where our adjudication has a standoff: once that aborted the whole
    replay with one message naming neither game nor phase.  Now the movement phase is a
    mismatch saying what differs, the retreat phase is played from the record as it stands,
    and the other games of the invocation are replayed too."""
    report = replay([ROME, FIRST], DATC_2025)
    assert report.errors == []
    assert report.games == 2
    rome = [m.as_json() for m in report.mismatches if m.file == str(ROME)]
    assert rome == [
        {
            "file": str(ROME),
            "phase": "F1905M",
            "next": "F1905R",
            "kind": "M",
            "expected": {"units": ["FRANCE: A ROM"]},
            "produced": {"units": ["FRANCE: A TUS"]},
            "cause": "move: contested province",
        }
    ]
    assert report.transitions == 3 + 35  # F1905R and W1905A played from the record, matching
    shown = dipsat("replay", "--rules", "2025", "--json", str(ROME), str(FIRST))
    assert shown.returncode == 1, shown.stderr
    assert shown.stderr == ""
    assert json.loads(shown.stdout) == report.as_json()


def test_a_movement_phase_is_named_by_the_move_the_record_shows_otherwise(tmp_path):
    """A record keeps no results of orders: a replay reads each move off where the record
    puts its unit, and names the mismatch by the move that differs, not 'position'."""
    data = first_game(2)  # S1901M and F1901M
    units = data["phases"][1]["state"]["units"]["FRANCE"]
    assert "A BUR" in units  # A PAR - BUR succeeded
    data["phases"][1]["state"]["units"]["FRANCE"] = ["A PAR" if u == "A BUR" else u for u in units]
    report = replay([write_game(tmp_path, "game.json", data)], WEBDIPLOMACY)
    (mismatch,) = report.mismatches
    assert (mismatch.expected, mismatch.produced) == (
        {"units": ["FRANCE: A PAR"]},
        {"units": ["FRANCE: A BUR"]},
    )
    assert mismatch.cause == "move: attack"


def test_a_power_is_read_by_any_name_its_board_gives_it(tmp_path):
    """MILA writes the powers of `world` without their hyphen (PACIFICRUSSIA for
    Pacific-Russia): a game file naming them so is read on that board."""
    from solver.formats.mila import position_json
    from solver.values.position import Position
    from topology import variant

    board = variant("world")
    state = position_json(Position.opening(board))
    assert "PACIFIC-RUSSIA" in state["units"]

    def mila(names: dict) -> dict:
        return {name.replace("-", ""): value for name, value in names.items()}

    phase = {"name": state["phase"], "units": mila(state["units"]), "retreats": {}}
    phase["centers"] = mila(state["centers"])
    data = {"map": "world", "phases": [{"name": state["phase"], "orders": {}, "state": phase}]}
    game = read_game(write_game(tmp_path, "world.json", data))
    assert game.phases[0].position() == Position.opening(board)
    data["phases"][0]["state"]["units"]["ATLANTIS"] = []
    report = replay([write_game(tmp_path, "bad.json", data)], DATC_2025)
    assert report.errors[0].message.startswith("unknown power 'ATLANTIS'; expected one of ARG")


def malformed(tmp_path: Path) -> dict[str, Path]:
    text = SECOND.read_text(encoding="utf-8")
    unit = json.loads(text)
    unit["phases"][3]["state"]["units"]["AUSTRIA"][0] = "A VIEX"
    order = json.loads(text)
    order["phases"][4]["orders"]["ITALY"].append("A ROM -> -> TUN")
    key = json.loads(text)
    del key["phases"][2]["state"]["centers"]
    return {
        "truncated": write_game(tmp_path, "truncated.json", text[:5000]),
        "unit": write_game(tmp_path, "unit.json", unit),
        "order": write_game(tmp_path, "order.json", order),
        "key": write_game(tmp_path, "key.json", key),
    }


def test_malformed_files_name_file_and_phase_and_the_others_still_run(tmp_path):
    bad = malformed(tmp_path)
    report = replay([bad["truncated"], bad["unit"], FIRST, bad["order"], bad["key"]], WEBDIPLOMACY)
    assert report.games == 1
    assert report.mismatched == 0
    assert report.transitions == 36 - 1
    assert [str(e) for e in report.errors] == [
        f"{bad['truncated']}: line 1, column 4991: not valid JSON: Unterminated string starting at",
        f"{bad['unit']}: S1902M: state.units.AUSTRIA: unknown place 'VIEX'",
        f"{bad['order']}: S1902R: orders.ITALY: cannot read 'A ROM -> -> TUN': column 10: "
        "expected a province, found '->'",
        f"{bad['key']}: W1901A: state: missing key 'centers'",
    ]


@pytest.mark.parametrize(
    ("phases", "message"),
    [
        ("oops", "game.phases: expected list"),
        ([{"name": "S1901X", "orders": {}, "state": {}}], "expected a phase name such as"),
        ([{"name": "S1901M", "orders": {}, "state": {"name": "F1901M"}}], "state.name is"),
    ],
)
def test_structural_errors(tmp_path, phases, message):
    path = write_game(tmp_path, "game.json", {"phases": phases})
    report = replay([path], WEBDIPLOMACY)
    assert len(report.errors) == 1
    assert message in report.errors[0].message


def test_reading_keeps_starred_units_and_their_options():
    game = read_game(FIRST)
    retreat = game.phases[5]
    assert retreat.name == "F1902R"
    assert "RUSSIA: *F SWE -> BAL, BOT, FIN" in retreat.snapshot.dislodged
    assert "RUSSIA: F SWE" not in retreat.snapshot.units


@slow
def test_cli_json_report_and_exit_status(tmp_path):
    result = dipsat("replay", "--rules", "webdiplomacy", "--json", str(FIRST))
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert list(report) == [
        "games",
        "transitions",
        "matched",
        "mismatched",
        "by_kind",
        "mismatches",
        "errors",
    ]
    assert (report["games"], report["transitions"], report["mismatched"]) == (1, 35, 0)
    assert set(report["by_kind"]) == {"M", "R", "A"}

    mismatched = dipsat("replay", "--json", str(FIRST))  # the 2025 rules differ once
    assert mismatched.returncode == 1
    assert json.loads(mismatched.stdout)["mismatches"][0]["phase"] == "W1908A"

    truncated = write_game(tmp_path, "truncated.json", FIRST.read_text(encoding="utf-8")[:100])
    broken = dipsat("replay", "--rules", "webdiplomacy", str(truncated), str(FIRST))
    assert broken.returncode == 2
    assert broken.stderr.startswith(f"{truncated}: line 1, column ")
    assert "not valid JSON" in broken.stderr
    assert "35 transitions: 35 matched, 0 mismatched" in broken.stdout
    assert "Traceback" not in broken.stderr


def test_the_end_marker_is_compared_without_a_phase_name(tmp_path):
    data = first_game(3)  # S1901M, F1901M, W1901A
    data["phases"][2]["name"] = data["phases"][2]["state"]["name"] = "COMPLETED"
    data["phases"][2]["orders"] = {}
    report = replay([write_game(tmp_path, "ended.json", data)], WEBDIPLOMACY)
    assert (report.transitions, report.matched, report.errors) == (2, 2, [])
    data["phases"].append(first_game(4)["phases"][3])
    report = replay([write_game(tmp_path, "after_end.json", data)], WEBDIPLOMACY)
    assert [str(e) for e in report.errors] == [
        f"{tmp_path / 'after_end.json'}: COMPLETED: COMPLETED is not the last phase"
    ]


def test_games_mila_played_on_its_variant_maps_match_every_transition():
    """Five games MILA's engine played on its own maps (tests/data/games/variants/
    generate.py): dipsat reads each on the map the file names and agrees with every
    phase MILA recorded, movement, retreats and adjustments, builds anywhere included."""
    files = sorted((GAMES / "variants").glob("*.json"))
    report = replay(files, DATC_2025)
    assert not report.errors
    assert [m.as_json() for m in report.mismatches] == []
    assert report.games == 5 and report.transitions == 180
    assert all(report.by_kind[k]["transitions"] > 0 for k in ("M", "R", "A"))
    boards = {read_game(f).phases[0].position().map.name for f in files}
    assert boards == {f.stem for f in files}


def test_a_power_mila_records_with_no_orders_has_none(tmp_path):
    data = first_game(3)
    data["phases"][0]["orders"]["AUSTRIA"] = None  # as MILA writes a power without orders
    game = read_game(write_game(tmp_path, "nulls.json", data))
    assert not any(g.power == "Austria" for g in game.phases[0].orders)


def test_a_retreat_phase_mila_skips_is_played_through(tmp_path):
    """On pure every province is full at the opening, so an army dislodged there has
    nowhere to go: MILA disbands it and goes on to the fall; dipsat opens a retreat phase
    (DATC 6.H.15 orders such a unit), which the replay plays through with no orders."""
    from diplomacy import Game as MilaGame
    from diplomacy.utils.export import to_saved_game_format

    game = MilaGame(map_name="pure")
    game.set_orders("AUSTRIA", ["A VIE - ROM"])
    game.set_orders("FRANCE", ["A PAR S A VIE - ROM"])
    game.process()
    path = write_game(tmp_path, "pure.json", to_saved_game_format(game))
    assert [p.name for p in read_game(path).phases] == ["S1901M", "F1901M"]
    report = replay([path], DATC_2025)
    assert (report.transitions, report.matched) == (1, 1), [m.as_json() for m in report.mismatches]


@slow
def test_a_replay_whose_mismatches_are_one_policy_names_the_rule_books_that_explain_them():
    """The ten real games under 2025: seven adjustment phases differ, all civil disorder
    (webDiplomacy counts from home centres); the hint names the rule books under which
    each of them matches, webdiplomacy among them, and no edition that counts as 2025."""
    report = replay(sorted(GAMES.glob("*.json")), DATC_2025)
    assert {m.cause for m in report.mismatches} == {"civil disorder"}
    books = explaining(report, DATC_2025)
    assert "webdiplomacy" in books and "2023" not in books
    shown = dipsat("replay", *map(str, sorted(GAMES.glob("*.json"))))
    assert shown.returncode == 1
    assert f"{report.mismatched} mismatch(es), all civil disorder" in shown.stdout
    assert "webdiplomacy" in shown.stdout.splitlines()[-1]


def _mila_bugs() -> set[str]:
    """The classes docs/crosscheck.md lists under "MILA's bugs": `class` in the table."""
    page = (DATA.parent.parent / "docs" / "crosscheck.md").read_text(encoding="utf-8")
    section = page.split("### MILA's bugs")[1].split("\n## ")[0].split("\n### ")[0]
    return {line.split("`")[1] for line in section.splitlines() if line.startswith("| `")}


@slow
def test_random_games_mila_wrote_replay_under_mila_every_difference_a_named_bug():
    """Games MILA's engine played and saved itself (tests/data/games/mila/generate.py, with
    "via convoy", convoys, retreats and civil disorder): under --rules mila each transition
    matches, or its cause is one of MILA's bugs docs/crosscheck.md names (a retreat phase
    that cannot be rebuilt follows a movement phase that differed). Under 2025 many more
    differ: the preset's policies are what MILA does."""
    files = sorted((GAMES / "mila").glob("standard-*.json"))
    report = replay(files, RULE_BOOKS["mila"])
    assert not report.errors and report.games == 24
    assert all(report.by_kind[k]["transitions"] > 0 for k in ("M", "R", "A"))
    bugs = _mila_bugs()
    assert bugs, "docs/crosscheck.md lists no MILA bug"
    moved = {(m.file, m.phase) for m in report.mismatches if m.kind == "M"}
    for m in report.mismatches:
        if m.cause is None:
            assert m.note and (m.file, m.phase[:-1] + "M") in moved, m.as_json()
        else:
            assert m.cause in bugs, m.as_json()
    assert report.mismatched * 5 < replay(files, DATC_2025).mismatched


@slow
def test_a_replay_spread_over_processes_or_dask_reports_the_same():
    """--workers and --dask split the files; the report, its games in the order given, is
    the one a single process makes."""
    files = sorted(GAMES.glob("*.json"))[:3] + sorted((GAMES / "mila").glob("*.json"))[:3]
    alone = replay(files, RULE_BOOKS["mila"]).as_json()
    assert replay(files, RULE_BOOKS["mila"], workers=2).as_json() == alone
    assert replay(files, RULE_BOOKS["mila"], dask="local").as_json() == alone
    shown = dipsat("replay", "--json", "--rules", "mila", "--workers", "2", *map(str, files))
    assert json.loads(shown.stdout) == alone
    refused = dipsat("replay", "--workers", "0", str(files[0]))
    assert refused.returncode == 2 and "--workers" in refused.stderr


@slow
def test_the_time_limit_reaches_every_worker_and_running_out_is_an_error():
    """--time-limit is given to each worker's job (a context variable set here would not
    reach another process): S1903M of standard-22 needs the solver, and with no time it is
    an error of the report, never a guessed transition."""
    game = GAMES / "mila" / "standard-22.json"
    expected = f"{game}: S1903M: the solver reached its time limit (1e-09 s) before settling"
    for workers, dask in ((1, None), (2, None), (1, "local")):
        report = replay([game], RULE_BOOKS["mila"], workers=workers, dask=dask, time_limit=1e-9)
        assert [str(e) for e in report.errors] == [expected + " the turn"], (workers, dask)
    shown = dipsat("replay", "--rules", "mila", "--workers", "2", "--time-limit", "1e-9", str(game))
    assert shown.returncode == 2 and shown.stderr.startswith(expected), shown.stderr
    odd = dipsat("replay", "--time-limit", "nan", str(game))
    assert odd.returncode == 2
    assert odd.stderr.startswith("--time-limit: expected a finite number of seconds above 0")
