"""Saved games: round trips, bad files refused with their place, atomic saves under SIGKILL."""

from __future__ import annotations

import json
import os
import random
import signal
import stat
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import DATA, ROOT, json_drop, json_set, played, slow

from solver.errors import DipsatError, SaveFileError
from solver.formats.rulebooks import rule_book
from solver.formats.savegame import (
    STANDARD_START,
    SavedGame,
    adjudicate_game,
    from_json,
    load,
    load_multiverse,
    new_game,
    new_multiverse,
    save,
    to_json,
)
from solver.values.notation import parse_given
from solver.values.position import Phase, Position
from solver.values.rules import DATC_2025, policy_table
from topology import standard


@pytest.fixture(scope="module")
def game() -> SavedGame:
    return played()


def test_the_standard_start():
    assert len(STANDARD_START.units) == 22
    assert len(STANDARD_START.centres) == 22
    assert STANDARD_START.name(STANDARD_START.unit_in("stp")) == "F St Petersburg(sc)"


def test_a_played_game_round_trips(game, tmp_path):
    assert len(game.history) == 7
    assert game.orders
    path = tmp_path / "game.json"
    save(game, path)
    again = load(path)
    assert again == game
    assert again.history[0].outcomes == game.history[0].outcomes
    save(again, tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == path.read_bytes()
    assert path.read_text().endswith("}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again.json", "game.json"]


def test_standoffs_and_dislodged_units_round_trip():
    text = to_json(new_game())
    data = json.loads(text)
    data["position"] = {
        "phase": "F1901R",
        "units": {"FRANCE": ["A BUR"], "RUSSIA": ["F STP/NC"]},
        "centers": {"FRANCE": ["PAR"]},
        "dislodged": {"GERMANY": {"F KIE": {"from": "HOL", "by_convoy": False}}},
        "standoffs": ["BEL", "RUH"],
    }
    data["orders"] = ["Germany: F Kiel - Berlin"]
    game = from_json(json.dumps(data))
    assert game.position.standoffs == frozenset({"bel", "ruh"})
    assert game.position.dislodged[0].attacker_from == "hol"
    assert game.orders[0].order.__class__.__name__ == "Retreat"
    assert from_json(to_json(game)) == game


def test_saved_files_follow_the_published_schema(game, tmp_path):
    import jsonschema

    schema = json.loads((ROOT / "docs" / "savegame.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    validator.check_schema(schema)
    for sample in (new_game(), game, played(4, seed=3)):
        path = tmp_path / "g.json"
        save(sample, path)
        validator.validate(json.loads(path.read_text()))
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**json.loads(to_json(game)), "version": 2})


def edited(game: SavedGame, change) -> str:
    data = json.loads(to_json(game))
    change(data)
    return json.dumps(data, indent=1)


def custom_rules(drop: str = "", **changes) -> dict:
    """The JSON of a custom rule book: 2025's policies, one dropped or some changed."""
    table = {**policy_table(DATC_2025), **changes}
    table.pop(drop, None)
    return {"name": "mine", "policies": table}


def test_a_custom_rule_book_is_kept_by_value(tmp_path):
    """A game under a rule book from a TOML file reads back with that book's policies,
    without the file, and follows the schema."""
    import jsonschema

    source = DATA / "rulebooks" / "4A2-1982.toml"
    book = rule_book(str(source))
    path = tmp_path / "g.json"
    save(adjudicate_game(replace(new_game(str(source)), orders=played(0).orders)), path)
    data = json.loads(path.read_text())
    assert data["rules"] == {"name": "4A2-1982", "policies": policy_table(book)}
    assert data["rules"]["policies"]["convoy_cut"] == "1982"
    schema = json.loads((ROOT / "docs" / "savegame.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(data)
    loaded = load(path)
    assert loaded.rules == book and loaded.rules != DATC_2025
    assert json.loads(to_json(new_game("dptg")))["rules"] == "dptg"  # an edition by name
    save(new_multiverse(str(source)), tmp_path / "m.json")
    assert load_multiverse(tmp_path / "m.json").rules == book
    done = dipsat("game", "new", str(tmp_path / "h.json"), "--rules", str(source))
    assert "rules 4A2-1982" in done.stdout
    assert "rules 4A2-1982" in dipsat("game", "show", str(tmp_path / "h.json")).stdout


def bad_files(game: SavedGame) -> dict[str, tuple[str, str]]:
    """Bad file text by name, with the place the error must name."""
    text = to_json(game)

    return {
        "truncated": (text[: len(text) // 2], ":"),
        "empty": ("", ":1:1:"),
        "corrupted": (text.replace('"orders"', '"orders" :: ', 1), ":"),
        "not an object": ("[1, 2]", "(top)"),
        "no format": (edited(game, json_drop(["format"])), "format"),
        "no position": (edited(game, json_drop(["position"])), "position"),
        "history not a list": (edited(game, json_set(["history"], {})), "history"),
        "unknown field": (edited(game, json_set(["extra"], 1)), "extra"),
        "ill-typed version": (edited(game, json_set(["version"], "1")), "version"),
        "unknown rules": (edited(game, json_set(["rules"], "1066")), "rules"),
        "rules naming a file": (  # kept by value, never read from a file again
            edited(game, json_set(["rules"], str(DATA / "rulebooks" / "4A2-1982.toml"))),
            "rules: unknown rule book",
        ),
        "custom rules without policies": (
            edited(game, json_set(["rules"], {"name": "mine"})),
            "rules.policies: missing",
        ),
        "custom rules, unknown policy": (
            edited(game, json_set(["rules"], custom_rules(convoy_parrot="szykman"))),
            "rules.policies: expected every policy once; missing: none; unknown: convoy_parrot",
        ),
        "custom rules, a policy misspelt": (
            edited(game, json_set(["rules"], custom_rules(drop="brannan", brannon=False))),
            "missing: brannan; unknown: brannon (did you mean brannan?)",
        ),
        "custom rules, a policy missing": (
            edited(game, json_set(["rules"], custom_rules(drop="brannan"))),
            "missing: brannan; unknown: none",
        ),
        "custom rules, a bad value": (
            edited(game, json_set(["rules"], custom_rules(convoy_paradox="maybe"))),
            "rules.policies: convoy_paradox: expected one of szykman",
        ),
        "custom rules, a flag not true or false": (
            edited(game, json_set(["rules"], custom_rules(brannan="yes"))),
            "rules.policies: brannan: expected true or false",
        ),
        "unknown province": (
            edited(game, json_set(["history", 3, "position", "units", "FRANCE"], ["A XYZ"])),
            "history[3].position.units.FRANCE[0]",
        ),
        "bad coast": (
            edited(game, json_set(["position", "units", "RUSSIA"], ["F MOS/NC"])),
            "position.units.RUSSIA[0]",
        ),
        "not a centre": (
            edited(game, json_set(["position", "centers", "FRANCE"], ["BUR"])),
            "position.centers.FRANCE[0]",
        ),
        "unknown power": (
            edited(game, json_set(["position", "units", "PRUSSIA"], [])),
            "position.units.PRUSSIA",
        ),
        "bad phase": (edited(game, json_set(["position", "phase"], "X1901M")), "position.phase"),
        "bad order": (
            edited(game, json_set(["history", 3, "orders", 2], "England: A Narnia - Paris")),
            "history[3].orders[2]",
        ),
        "order not text": (edited(game, json_set(["orders", 0], 7)), "orders[0]"),
        "outcome missing result": (
            edited(game, json_drop(["history", 1, "outcomes", 0, "result"])),
            "history[1].outcomes[0].result",
        ),
        "outcome result no label of dipsat's": (
            edited(game, json_set(["history", 1, "outcomes", 0, "result"], "wins")),
            "history[1].outcomes[0].result: expected an outcome as dipsat writes it",
        ),
        "two units in one province": (
            edited(game, json_set(["position", "units", "ENGLAND"], ["A PAR", "F PAR"])),
            "position",
        ),
        # positions that cannot be (issue 20): Position refuses them for every reader
        "a fleet inland": (
            edited(game, json_set(["position", "units", "AUSTRIA"], ["F BOH"])),
            "position: Austria F: a fleet cannot stand inland, in Bohemia",
        ),
        "an army at sea": (
            edited(game, json_set(["position", "units", "ENGLAND"], ["A NTH"])),
            "position: England A: an army cannot stand at sea, in North Sea",
        ),
        "a fleet on a split coast without its coast": (
            edited(game, json_set(["position", "units", "RUSSIA"], ["F STP"])),
            "a fleet in St Petersburg stands on one of its coasts (nc, sc)",
        ),
        "a centre owned twice": (
            edited(game, json_set(["position", "centers", "FRANCE"], ["PAR", "VIE"])),
            "position: 'vie' is owned twice",
        ),
        "a winter movement phase": (
            edited(game, json_set(["position", "phase"], "W1901M")),
            "position.phase: Winter 1901 movement: adjustments are in winter",
        ),
        "a year past the last": (
            edited(game, json_set(["position", "phase"], "S10000M")),
            "position.phase: expected a year from 1 to 9999, found 10000",
        ),
        "units awaiting retreat in a movement phase": (
            edited(
                game,
                json_set(
                    ["history", 0, "position", "dislodged"],
                    {"AUSTRIA": {"A GAL": {"from": "UKR", "by_convoy": False}}},
                ),
            ),
            "history[0].position: Spring 1901 movement has no units awaiting retreat",
        ),
        "a standoff where a unit stands": (
            edited(
                game,
                lambda data: (
                    json_set(["history", 0, "position", "phase"], "S1901R")(data),
                    json_set(["history", 0, "position", "standoffs"], ["VIE"])(data),
                ),
            ),
            "history[0].position: standoff in 'vie', where a unit stands",
        ),
    }


def test_bad_files_are_refused_with_file_and_place(game, tmp_path):
    for name, (text, place) in bad_files(game).items():
        path = tmp_path / f"{name.replace(' ', '-')}.json"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(SaveFileError) as caught:
            load(path)
        message = str(caught.value)
        assert message.startswith(f"{path}:"), (name, message)
        assert place in message, (name, message)
        assert isinstance(caught.value, DipsatError)


def test_a_json_error_names_line_and_column(tmp_path):
    path = tmp_path / "g.json"
    path.write_text('{\n "format": "dipsat-game",\n "version": 1,,\n}\n')
    with pytest.raises(SaveFileError) as caught:
        load(path)
    assert (caught.value.line, caught.value.column) == (3, 15)
    assert str(caught.value).startswith(f"{path}:3:15: not valid JSON")


def test_binary_and_missing_files_are_refused(tmp_path):
    path = tmp_path / "g.json"
    path.write_bytes(b'{"format":\n "\xff"}')
    with pytest.raises(SaveFileError, match=r":2:3: expected UTF-8 text, found byte 0xff"):
        load(path)
    with pytest.raises(SaveFileError) as caught:
        load(tmp_path / "absent.json")
    assert str(caught.value).startswith(f"{tmp_path / 'absent.json'}: cannot read: ")


def test_a_future_version_is_refused(tmp_path):
    data = json.loads(to_json(new_game()))
    data.update(version=2, timelines=[])
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    with pytest.raises(
        SaveFileError, match=r"version: written by a newer dipsat \(format version 2"
    ):
        load(path)


def test_stored_orders_read_back_as_given(game):
    for past in game.history:
        kind = past.position.phase.kind.value
        for given in past.orders:
            assert parse_given(str(given), standard(), phase=kind) == given


def test_a_failed_save_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    save(new_game(), path)
    before = path.read_bytes()

    def broken(fd):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(OSError, match="disk full"):
        save(played(2), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


def test_new_game_refuses_unknown_rules():
    with pytest.raises(DipsatError, match="unknown rule book"):
        new_game("1066")
    with pytest.raises(TypeError, match="rules: expected a rule book or its name"):
        new_game(2025)
    assert new_game("dptg").position == Position(
        Phase.parse("S1901M"), STANDARD_START.units, STANDARD_START.centres, board=standard()
    )


WRITER = """
import sys
from dataclasses import replace
from solver.formats.savegame import load, save
small = load(sys.argv[2])
padded = tuple(replace(p, orders=()) for p in small.history)
games = [replace(small, history=padded * n) for n in (120, 121)]
while True:
    for game in games:
        save(game, sys.argv[1])
        print(len(game.history), flush=True)
"""


@slow
def test_a_killed_save_leaves_the_old_or_the_new_file(game, tmp_path):
    """A writer saving games of 2.7 MB in a loop, killed at random moments: the file
    always loads, as one of the two games, and only hidden temporary files are left."""
    seed = tmp_path / "seed.json"
    save(game, seed)
    padded = tuple(replace(p, orders=()) for p in game.history)
    games = {n * len(padded): replace(game, history=padded * n) for n in (120, 121)}
    assert len(to_json(games[120 * len(padded)])) > 2_500_000
    path = tmp_path / "game.json"
    save(games[120 * len(padded)], path)
    rng = random.Random(9)
    for _ in range(10):
        child = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), str(seed)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(rng.randint(1, 3)):  # let it finish a few saves, then kill it
            assert int(child.stdout.readline()) in games
        time.sleep(rng.uniform(0.0, 0.2))  # most often in the middle of the next save
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        loaded = load(path)
        assert loaded == games[len(loaded.history)]
        for stray in tmp_path.iterdir():
            assert stray in (path, seed) or (
                stray.name.startswith(".game.json.") and stray.suffix == ".tmp"
            )


def test_a_save_replaces_an_existing_file_not_a_temporary_one(tmp_path):
    path = Path(tmp_path / "g.json")
    (tmp_path / ".g.json.leftover.tmp").write_text("half a fi")
    save(new_game(), path)
    assert load(path) == new_game()


def test_a_save_sweeps_away_what_a_killed_save_left_long_ago(tmp_path):
    """An hour-old temporary file of this game goes; a fresh one (a save that may still be
    running) and another game's stay."""
    path = tmp_path / "g.json"
    stale, fresh, other = (
        tmp_path / n for n in (".g.json.a.tmp", ".g.json.b.tmp", ".h.json.c.tmp")
    )
    for stray in (stale, fresh, other):
        stray.write_text("half a fi")
    long_ago = time.time() - 2 * 3600
    os.utime(stale, (long_ago, long_ago))
    os.utime(other, (long_ago, long_ago))
    save(new_game(), path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["g.json", fresh.name, other.name])


def test_a_saved_game_has_the_permissions_of_any_new_file_or_keeps_its_own(tmp_path):
    """The temporary file a save writes first is private; the game must not stay so."""
    old = os.umask(0o022)
    try:
        path = tmp_path / "g.json"
        save(new_game(), path)
        assert stat.S_IMODE(path.stat().st_mode) == 0o644
        path.chmod(0o640)
        save(new_game(), path)
        assert stat.S_IMODE(path.stat().st_mode) == 0o640
    finally:
        os.umask(old)


def test_a_save_through_a_symbolic_link_changes_the_file_it_points_to(tmp_path):
    """Issue 20: the rename replaced the link by a regular file and the game it pointed to
    kept its old content. Now the link stays, the game changes, and the temporary file is
    written beside the game (the rename stays within its folder)."""
    (tmp_path / "games").mkdir()
    real = tmp_path / "games" / "real.json"
    link, chain = tmp_path / "link.json", tmp_path / "chain.json"
    save(new_game(), real)
    link.symlink_to(Path("games") / "real.json")  # relative, as `ln -s` makes them
    chain.symlink_to("link.json")
    for through, sample in ((link, played(1)), (chain, played(2))):
        save(sample, through)
        assert (link.is_symlink(), chain.is_symlink()) == (True, True)
        assert load(real) == sample
        assert load(through) == sample
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chain.json", "games", "link.json"]
    assert [p.name for p in real.parent.iterdir()] == ["real.json"]
    save(new_game(), chain)
    result = dipsat("game", "order", str(link), "England: F LON - NTH")
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and load(real).orders[-1].order.dest.province == "nth"


def run_dipsat(*args: str, **kwargs) -> subprocess.CompletedProcess[str]:
    """The command in its own process, bounded: a command that blocks fails the test."""
    command = [sys.executable, "-m", "solver", *args]
    return subprocess.run(command, cwd=ROOT, text=True, timeout=60, check=False, **kwargs)


@slow
@pytest.mark.parametrize("at", ["game", "old lock"])
def test_a_pipe_where_the_game_or_its_lock_was_never_blocks_a_command(tmp_path, at):
    """Issue 29: a FIFO at the game's name, or at `.g.json.lock` where the lock used to be,
    blocked `game order` forever: open() waits for a writer, before any time-out applies.
    A game that is changed is a regular file; anything else is refused before it is
    opened, naming the file. The lock is on the game itself: nothing else is opened."""
    path = tmp_path / "g.json"
    if at == "game":
        os.mkfifo(path)
    else:
        save(new_game(), path)
        os.mkfifo(tmp_path / ".g.json.lock")
    for command in (
        ["order", str(path), "England: F LON - NTH"],
        ["withdraw", str(path)],
        ["adjudicate", str(path)],
    ):
        result = run_dipsat("game", *command, capture_output=True)
        if at == "game":
            said = f"{path}: a pipe, not a saved game; expected a regular file\n"
            assert (result.returncode, result.stderr) == (2, said)
        else:
            assert (result.returncode, result.stderr) == (0, "")
    assert stat.S_ISFIFO(os.stat(tmp_path / ("g.json" if at == "game" else ".g.json.lock")).st_mode)


@slow
def test_standard_output_as_the_game_is_refused_when_it_is_a_pipe(tmp_path):
    """`game order /dev/stdout | cat` blocked: /dev/stdout led to the pipe being written."""
    result = run_dipsat(
        "game",
        "order",
        "/dev/stdout",
        "England: F LON - NTH",
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    said = "/dev/stdout: a pipe, not a saved game; expected a regular file\n"
    assert (result.returncode, result.stdout, result.stderr) == (2, "", said)


def test_a_pipe_or_a_folder_is_not_replaced_by_a_saved_game(tmp_path):
    from solver.formats.savegame import changing

    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    (tmp_path / "folder.json").mkdir()
    for path, kind in ((fifo, "a pipe"), (tmp_path / "folder.json", "a folder")):
        said = f"{path}: {kind}, not a saved game; expected a regular file"
        with pytest.raises(SaveFileError) as caught:
            save(new_game(), path)
        assert str(caught.value) == said
        with pytest.raises(SaveFileError) as caught, changing(path):
            pass
        assert str(caught.value) == said
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo.json", "folder.json"]


def test_a_link_to_a_file_that_is_no_game_makes_nothing_beside_that_file(tmp_path):
    """Issue 29: the lock of a game reached through a symbolic link was made beside the
    link's target before the game was read, even when the target was no game (a link to
    /etc/passwd, run as root, made /etc/.passwd.lock); a symbolic link at the lock's name
    made a file wherever it led. A link is followed to a saved game only: it is read
    before anything is written, and no lock file is made at all."""
    other = tmp_path / "other"
    other.mkdir()
    (other / "passwd").write_text("root:x:0:0::/root:/bin/sh\n")
    (tmp_path / "link.json").symlink_to(other / "passwd")
    save(new_game(), tmp_path / "g.json")
    (tmp_path / ".g.json.lock").symlink_to(other / "made")  # where the lock used to be
    result = dipsat("game", "order", str(tmp_path / "link.json"), "England: F LON - NTH")
    assert (result.exit_code, result.stderr) == (
        2,
        f"{tmp_path / 'link.json'}:1:1: not valid JSON: Expecting value\n",
    )
    result = dipsat("game", "order", str(tmp_path / "g.json"), "England: F LON - NTH")
    assert (result.exit_code, result.stderr) == (0, "")
    assert sorted(p.name for p in other.iterdir()) == ["passwd"]
    assert (other / "passwd").read_text() == "root:x:0:0::/root:/bin/sh\n"


@pytest.mark.parametrize("mode", [0o444, 0o400, 0o555], ids=oct)
def test_a_read_only_game_is_not_rewritten(tmp_path, mode):
    """Issue 20: a read-only (0444) game was rewritten. A game no one may write is refused
    by the library and by every command that changes a game, and left as it was."""
    path = tmp_path / "g.json"
    save(new_game(), path)
    before = path.read_bytes()
    path.chmod(mode)
    try:
        with pytest.raises(SaveFileError) as caught:
            save(played(1), path)
        assert str(caught.value) == f"{path}: read-only; not changed"
        for command in (
            ["game", "order", str(path), "England: F LON - NTH"],
            ["game", "adjudicate", str(path)],
        ):
            result = dipsat(*command)
            assert (result.exit_code, result.stderr) == (2, f"{path}: read-only; not changed\n")
        assert path.read_bytes() == before
        assert stat.S_IMODE(path.stat().st_mode) == mode
        assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]
        assert "order: " not in dipsat("game", "show", str(path)).stdout  # still reads
    finally:
        path.chmod(0o644)


def dipsat(*args):
    """The command line run in this process (a subprocess per call would take seconds)."""
    from typer.testing import CliRunner

    from solver.cli import app

    return CliRunner().invoke(app, list(args))


def test_a_game_played_on_the_command_line(tmp_path):
    path = str(tmp_path / "g.json")
    assert dipsat("game", "new", path, "--rules", "dptg").exit_code == 0
    assert dipsat("game", "new", path).exit_code == 2  # never overwrites a game
    result = dipsat(
        "game",
        "order",
        path,
        "England: F LON - NTH",
        "France: A PAR - BUR",
        "Germany: A MUN - BUR",
        "England: F LON - ENG",
        "Prussia: A BER H",
        "France: A LON H",
        "France: A MAR R SPA",
    )
    assert result.exit_code == 1
    assert result.stdout.strip() == "3 of 7 order(s) accepted"
    problems = result.stderr.splitlines()
    assert problems == [
        f"{path}: 'England: F LON - ENG': London already has an order this phase",
        f"{path}: 'Prussia: A BER H': column 1: expected a power before ':', found 'Prussia'",
        f"{path}: 'France: A LON H': no France unit in London",
        f"{path}: 'France: A MAR R SPA': not an order for a movement phase",
    ]
    assert len(load(path).orders) == 3
    shown = dipsat("game", "show", path)
    assert "order: France: A Paris - Burgundy" in shown.stdout
    result = dipsat("game", "adjudicate", path)
    assert result.exit_code == 0, result.stderr
    assert "France: A Paris - Burgundy: fails (bounced by A Munich)" in result.stdout
    game = load(path)
    assert (game.rules.name, str(game.position.phase)) == ("dptg", "Fall 1901 movement")
    assert game.position.name(game.position.unit_in("nth")) == "F North Sea"
    assert game.history[0].outcomes[0].result == "succeeds"


def test_the_command_line_reports_a_bad_save_file(tmp_path):
    path = tmp_path / "g.json"
    path.write_text('{"format": "dipsat-game", "version": 1,')
    for command in ("show", "adjudicate"):
        result = dipsat("game", command, str(path))
        assert result.exit_code == 2
        assert result.stderr.startswith(f"{path}:1:")
        assert "Traceback" not in result.stderr
    result = dipsat("game", "order", str(path), "England: F LON H")
    assert (result.exit_code, result.stderr.startswith(f"{path}:1:")) == (2, True)
    assert path.read_text() == '{"format": "dipsat-game", "version": 1,'


def test_a_game_on_a_variant_keeps_its_board_through_a_year(tmp_path):
    """A game on the hand-written isthmus board: a year played, saved and read back on the
    same board (its file kept in the save), the solo reported when North takes three."""
    from topology import variant

    board = variant(str(ROOT / "cases/variants/isthmus.toml"))
    game = new_game("2025", board)
    assert str(game.position.phase) == "Spring 1 movement"
    for orders in (["North: F Northport - Isthmus"], ["North: F Isthmus(nc) H"]):
        game, problems = game.submit(orders)
        assert problems == []
        game = adjudicate_game(game)
    assert str(game.position.phase) == "Winter 1 adjustment"  # North owns Isthmus: a build
    path = tmp_path / "isthmus.json"
    save(game, path)
    data = json.loads(path.read_text())
    assert data["board"] == str(board.origin)
    again = load(path)
    assert again == game and again.position.map is board
    game, _ = again.submit(["North: Build A Northport"])
    game, lines = game.adjudicated()
    assert lines[-1] == "now Spring 2 movement"
    game, _ = game.submit(["North: A Northport - Highlands"])
    game = adjudicate_game(adjudicate_game(game))  # spring, then fall: Highlands is taken
    assert game.lines()[0].startswith("isthmus: ")
    assert "North has won: 3 centres of 3 needed" in game.lines()


def test_a_saved_board_that_cannot_be_found_is_refused(tmp_path):
    path = tmp_path / "lost.json"
    save(new_game("2025"), path)
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "board": "atlantis"}))
    with pytest.raises(SaveFileError, match="board: unknown variant 'atlantis'"):
        load(path)


def test_orders_are_withdrawn_by_power_or_all_from_the_command_line(tmp_path):
    """A power's orders go, the others stay; every order goes when no power is named; a
    misspelt power is refused naming the powers, and the file is left as it was."""
    path = str(tmp_path / "w.json")
    assert dipsat("game", "new", path).exit_code == 0
    given = ["England: F London - North Sea", "France: A Paris - Burgundy", "England: A LVP - YOR"]
    assert dipsat("game", "order", path, *given).exit_code == 0
    done = dipsat("game", "withdraw", path, "england")
    assert done.exit_code == 0 and "2 order(s) withdrawn" in done.stdout
    assert [str(g) for g in load(path).orders] == ["France: A Paris - Burgundy"]
    before = Path(path).read_bytes()
    wrong = dipsat("game", "withdraw", path, "Frnace")
    assert (
        wrong.exit_code == 2 and "no power 'Frnace' on this board; powers: Austria" in wrong.stderr
    )
    assert Path(path).read_bytes() == before
    assert dipsat("game", "withdraw", path).exit_code == 0
    assert load(path).orders == ()


def test_a_multiverse_game_withdraws_orders_too():
    from solver.formats.savegame import new_multiverse, withdrawn

    game, problems = new_multiverse().submit(["England: F London - North Sea"])
    assert problems == [] and len(game.orders) == 1
    kept, count = withdrawn(game, ["France"])
    assert (kept.orders, count) == (game.orders, 0)
    gone, count = withdrawn(game, ["England"])
    assert (gone.orders, count) == ((), 1)
