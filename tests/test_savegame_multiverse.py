"""Saved multiverse games: round trips of every board and record, stepping on after loading,
bad files refused with their place, the published schema."""

from __future__ import annotations

import copy
import json

import pytest
from conftest import ROOT, first_fast, fuzz_examples, json_set
from hypothesis import event, given, settings
from hypothesis import strategies as st
from test_multiverse import REPEATED, play
from test_properties_multiverse import BOOKS, orders_for, scenarios, start

from solver.errors import DipsatError, SaveFileError
from solver.formats.savegame import (
    SavedMultiverse,
    any_from_json,
    from_json,
    load,
    load_any,
    load_multiverse,
    multiverse_from_json,
    new_game,
    new_multiverse,
    save,
    step_multiverse,
    to_json,
)
from solver.multiverse.step import step
from solver.values.notation import parse_given
from solver.values.rules import DATC_2025
from topology import standard, variant

NEXT = (
    "Austria: A c-Tyrolia@1 Retreats to c-Vienna@1",
    "Germany: A a-Munich@3 - a-Tyrolia@2",
    "Austria: A a-Tyrolia@3 Holds",
    "Germany: A a-Bohemia@3 Supports A a-Munich@3 - a-Tyrolia@2",
)


@pytest.fixture(scope="module")
def game() -> SavedMultiverse:
    """Three steps with two forks off a@0 (timelines b and c): past boards with records,
    a fork owing a retreat, one owing an adjustment, and orders submitted for the next step."""
    mv = play(DATC_2025, *REPEATED)
    return SavedMultiverse(DATC_2025, mv, tuple(parse_given(t, standard()) for t in NEXT))


def test_the_sample_is_not_trivial(game):
    mv = game.multiverse
    assert dict(mv.origins) == {0: None, 1: (0, 0), 2: (0, 0)}
    assert sum(b.record is not None for b in mv.boards) >= 3
    assert any(b.created is not None for b in mv.boards)
    assert any(b.position.dislodged for b in mv.boards)
    assert any(o.reason is not None for b in mv.boards if b.record for o in b.record.outcomes)


def test_a_multiverse_round_trips(game, tmp_path):
    path = tmp_path / "mv.json"
    save(game, path)
    again = load_multiverse(path)
    assert again == game
    assert again.multiverse == game.multiverse
    for mine, theirs in zip(again.multiverse.boards, game.multiverse.boards, strict=True):
        assert mine.record == theirs.record
        assert mine.created == theirs.created
    assert load_any(path) == game
    save(again, tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == path.read_bytes()
    data = json.loads(path.read_text())
    assert data["variant"] == "multiverse"
    assert data["version"] == 1


def test_a_loaded_multiverse_steps_on_like_the_original(game):
    again = multiverse_from_json(to_json(game))
    mine = step(game.multiverse, game.orders, DATC_2025)
    theirs = step(again.multiverse, again.orders, DATC_2025)
    assert mine.forks  # the supported move into a@2 succeeds and forks timeline d
    assert theirs.after == mine.after
    assert theirs.outcomes == mine.outcomes
    assert step_multiverse(again) == SavedMultiverse(DATC_2025, mine.after, ())
    after = step_multiverse(again)
    assert multiverse_from_json(to_json(after)) == after


def test_a_new_multiverse_and_the_standard_reader():
    fresh = new_multiverse("2023")
    assert multiverse_from_json(to_json(fresh)) == fresh
    assert len(fresh.multiverse.boards) == 1
    with pytest.raises(SaveFileError, match="variant"):
        from_json(to_json(fresh), "mv.json")
    standard = new_game()
    assert any_from_json(to_json(standard)) == standard
    with pytest.raises(SaveFileError, match="variant"):
        multiverse_from_json(to_json(standard))


def test_a_dislodgement_from_another_board_round_trips(game):
    data = json.loads(to_json(game))
    dislodged = data["boards"][-1]["position"]["dislodged"]
    (unit,) = dislodged["AUSTRIA"]
    dislodged["AUSTRIA"][unit]["from"] = ""
    loaded = multiverse_from_json(json.dumps(data))
    assert loaded.multiverse.boards[-1].position.dislodged[0].attacker_from == ""
    assert json.loads(to_json(loaded)) == data


def _edit(game: SavedMultiverse, change) -> str:
    data = json.loads(to_json(game))
    change(data)
    return json.dumps(data)


def _append_copy_of_first_board(data):
    data["boards"].append(copy.deepcopy(data["boards"][0]))


def _drop_last_origin(data):
    del data["origins"][-1]


BAD = {
    "negative timeline": (json_set(["boards", 0, "timeline"], -1), "boards[0].timeline"),
    "turn not a number": (json_set(["boards", 1, "turn"], "1"), "boards[1].turn"),
    "turn off its phase": (json_set(["boards", 1, "turn"], 5), "boards[1].position.phase"),
    "duplicate board": (_append_copy_of_first_board, "boards[7]"),
    "origin to a missing board": (json_set(["origins", 1, 1], [0, 9]), "origins[1][1]"),
    "origin not a pair": (json_set(["origins", 1], [1]), "origins[1]"),
    "timeline without origin": (_drop_last_origin, "boards[6].timeline"),
    "decision not a triple": (
        json_set(["boards", 0, "record", "decisions", 0], ["move", "mun@0:0"]),
        "boards[0].record.decisions[0]",
    ),
    "decision of no kind": (
        json_set(["boards", 0, "record", "decisions", 0, 0], "jump"),
        "boards[0].record.decisions[0][0]",
    ),
    "decision on another board": (
        json_set(["boards", 0, "record", "decisions", 0, 1], "tyr@1:0"),
        "boards[0].record.decisions[0][1]",
    ),
    "decision value not a bool": (
        json_set(["boards", 0, "record", "decisions", 1, 2], 1),
        "boards[0].record.decisions[1]",
    ),
    "unreadable recorded order": (
        json_set(["boards", 1, "record", "orders", 0], "Germany: A Nowhere - Tyrolia"),
        "boards[1].record.orders[0]",
    ),
    "unknown reason": (
        json_set(["boards", 0, "record", "outcomes", 1, "reason", "kind"], "teleported"),
        "boards[0].record.outcomes[1].reason.kind",
    ),
    "reason of the wrong type": (  # used to be wrapped in a second error about 'why'
        json_set(["boards", 0, "record", "outcomes", 1, "reason", "by"], "A a-Tyrolia@0"),
        "boards[0].record.outcomes[1].reason.by",
    ),
    "reason naming a unit its board does not hold": (
        json_set(["boards", 0, "record", "outcomes", 1, "reason", "by"], ["A a-Ruhr@0"]),
        "boards[0].record.outcomes[1].reason.by[0]",
    ),
    "reason naming no unit": (
        json_set(["boards", 0, "record", "outcomes", 1, "reason", "by"], ["A a-Nowhere@0"]),
        "boards[0].record.outcomes[1].reason.by[0]",
    ),
    "reason missing its field": (
        json_set(["boards", 0, "record", "outcomes", 1, "reason"], {"kind": "dislodged"}),
        "boards[0].record.outcomes[1].reason.by",
    ),
    "reason no sentence of dipsat's": (
        json_set(
            ["boards", 0, "record", "outcomes", 1, "reason"], {"kind": "illegal", "why": "because"}
        ),
        "boards[0].record.outcomes[1].reason.why",
    ),
    "outcome without flag": (
        json_set(["boards", 0, "record", "outcomes", 0, "dislodged"], None),
        "boards[0].record.outcomes[0].dislodged",
    ),
    "bad position": (json_set(["boards", 2, "position", "units"], []), "boards[2].position.units"),
    "bad pending order": (json_set(["orders", 0], "Austria: hold everything"), "orders[0]"),
    "future version": (json_set(["version"], 2), "version"),
    "unknown rules": (json_set(["rules"], "5d"), "rules"),
    "unknown field": (json_set(["boards", 0, "extra"], 1), "boards[0].extra"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_files_name_the_place(game, tmp_path, name):
    _refused(game, *BAD[name], tmp_path)


def _refused(sample: SavedMultiverse, change, where: str, tmp_path) -> None:
    """The sample, changed, is refused with one error naming the file and the place."""
    path = tmp_path / "bad.json"
    path.write_text(_edit(sample, change))
    with pytest.raises(SaveFileError) as caught:
        load_multiverse(path)
    assert caught.value.path == str(path)
    assert caught.value.where == where, str(caught.value)
    assert str(caught.value).startswith(f"{path}: {where}: ")
    assert str(caught.value).count(str(path)) == 1  # one error, not one wrapped in another
    with pytest.raises(SaveFileError):
        load_any(path)


def test_the_sample_has_the_shape_the_bad_files_assume(game):
    data = json.loads(to_json(game))
    assert len(data["boards"]) == 7
    assert data["boards"][6]["timeline"] == 2
    assert data["boards"][0]["record"]["outcomes"][1]["reason"]["kind"] == "bounced"


def test_saved_multiverse_files_follow_the_published_schema(game, tmp_path):
    import jsonschema

    schema = json.loads((ROOT / "docs" / "savegame.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    validator.check_schema(schema)
    on_ancmed, _ = new_multiverse("O", variant("ancmed")).submit(["Rome: A Roma - Etruria"])
    on_ancmed = step_multiverse(on_ancmed)  # with a record: decisions on ancmed's codes
    for sample in (new_multiverse(), game, step_multiverse(game), on_ancmed, new_game()):
        path = tmp_path / "mv.json"
        save(sample, path)
        validator.validate(json.loads(path.read_text()))
    data = json.loads(to_json(game))
    for change, _ in (BAD["decision of no kind"], BAD["future version"], BAD["unknown field"]):
        with pytest.raises(jsonschema.ValidationError):
            validator.validate(json.loads(_edit(game, change)))
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**data, "history": []})
    assert load(tmp_path / "mv.json") == new_game()


def dipsat(*args):
    from typer.testing import CliRunner

    from solver.cli import app

    return CliRunner().invoke(app, list(args))


def test_a_multiverse_game_played_on_the_command_line(tmp_path):
    path = str(tmp_path / "mv.json")
    assert dipsat("game", "new", path, "--multiverse").exit_code == 0
    result = dipsat("game", "order", path, "Germany: A MUN - TYR", "Austria: A VIE - TYR")
    assert (result.exit_code, result.stdout.strip()) == (0, "2 of 2 order(s) accepted")
    assert load_multiverse(path).orders[0] == parse_given(
        "Germany: A a-Munich@0 - a-Tyrolia@0", standard()
    )
    result = dipsat("game", "adjudicate", path)
    assert result.exit_code == 0, result.stderr
    assert "Germany: A a-Munich@0 - a-Tyrolia@0: fails" in result.stdout
    result = dipsat(
        "game",
        "order",
        path,
        "Germany: A Munich Supports A a-Munich@0 - a-Tyrolia@0",
        "Germany: A a-Berlin@0 Holds",
        "Austria: A Munich Holds",
        "Germany: A a-Munich@1 Holds",
        "Germany: Waive",
    )
    assert result.exit_code == 1
    assert result.stdout.strip() == "1 of 5 order(s) accepted"
    assert [line.split("': ")[1] for line in result.stderr.splitlines()] == [
        "a-Berlin@0 is not on a head board",
        "no Austria unit in a-Munich@1",
        "a-Munich@1 already has an order this step",
        "a waive names no board; leave the build out instead",
    ]
    assert all(line.startswith(f"{path}: '") for line in result.stderr.splitlines())
    result = dipsat("game", "adjudicate", path)
    assert result.exit_code == 0, result.stderr
    assert "timeline b forks from a@0" in result.stdout
    shown = dipsat("game", "show", path)
    assert shown.exit_code == 0, shown.stderr
    assert "2 timeline(s)" in shown.stdout
    assert "head b@1: Fall 1901 movement" in shown.stdout
    assert "Germany: A Berlin, F Kiel, A Tyrolia;" in shown.stdout
    game = load_multiverse(path)
    assert dict(game.multiverse.origins) == {0: None, 1: (0, 0)}
    assert load_any(path) == game


@pytest.mark.parametrize(
    ("name", "year", "leave", "back", "fork"),
    first_fast(
        [
            (
                "ancmed",
                1,
                "Rome: A Roma - Etruria",
                "Rome: A Etruria - a-Roma@0",
                "Rome: A Etruria, F Neapolis, A Ravenna, A Roma;",
            ),
            (
                "modern",
                1994,
                "Russia: F St-Petersburg - Gulf of Bothnia",
                "Russia: F Gulf of Bothnia - a-St-Petersburg@0",
                "Russia: F Gulf of Bothnia, A Gorky, A Moscow, F Murmansk, F Rostov, "
                "F St-Petersburg;",
            ),
        ]
    ),
)
def test_a_multiverse_game_on_a_variant_played_on_the_command_line(
    tmp_path, name, year, leave, back, fork
):
    """`game new --multiverse --variant V` (refused before: 'a multiverse game is played on
    the standard board'), then orders, a move into the past that forks, the game shown, the
    file read back and drawn: every board is on V's map, turn 0 its first Spring."""
    path = str(tmp_path / "mv.json")
    made = dipsat("game", "new", path, "--multiverse", "--variant", name)
    assert made.exit_code == 0, made.output
    assert made.stdout.strip().endswith(f"on {name}, rules 2025, Spring {year} movement")
    assert json.loads((tmp_path / "mv.json").read_text())["board"] == name
    assert dipsat("game", "order", path, leave).exit_code == 0
    assert dipsat("game", "adjudicate", path).exit_code == 0
    assert dipsat("game", "order", path, back).exit_code == 0
    result = dipsat("game", "adjudicate", path)
    assert result.exit_code == 0, result.output
    assert "timeline b forks from a@0" in result.stdout
    shown = dipsat("game", "show", path).stdout
    assert shown.startswith(f"multiverse on {name} (rules 2025): 2 timeline(s), 4 board(s)")
    assert f"head b@1: Fall {year} movement" in shown
    assert fork in shown
    game = load_multiverse(path)
    assert {b.position.map.name for b in game.multiverse.boards} == {name}
    assert load_any(path) == game and multiverse_from_json(to_json(game)) == game
    picture = tmp_path / "mv.svg"
    drawn = dipsat("render", path, "--out", str(picture))
    assert drawn.exit_code == 0, drawn.output
    assert f"multiverse game on {name} (rules 2025)" in picture.read_text()


# -- rule set O: a multiverse waiting for a retreat in the past -----------------------------
@pytest.fixture(scope="module")
def paused() -> SavedMultiverse:
    """O.B.3's world after its step: the army dislodged on a@0 owes its retreat there."""
    from solver.formats.cases import read_cases
    from solver.values.rules import RULE_BOOKS

    (case,) = [c for c in read_cases(ROOT / "cases/multiverse/oliveriver.cases") if c.id == "O.B.3"]
    rules = RULE_BOOKS["O"]
    done = case.game().step([o.given for o in case.blocks[0].orders], rules)
    assert done.after.pause is not None
    return SavedMultiverse(rules, done.after, ())


def test_a_retreat_pause_round_trips_and_steps_on(paused, tmp_path):
    import jsonschema

    path = tmp_path / "paused.json"
    save(paused, path)
    again = load_multiverse(path)
    assert again == paused and again.multiverse.pause == paused.multiverse.pause
    schema = json.loads((ROOT / "docs" / "savegame.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(json.loads(path.read_text()))
    retreat = [parse_given("Austria: A a-Tyrolia@0 - a-Bohemia@0", standard())]
    mine = again.multiverse.step(retreat, again.rules)
    theirs = paused.multiverse.step(retreat, paused.rules)
    assert mine.after == theirs.after and [str(f.timeline) for f in mine.forks] == ["1"]


def test_a_pause_held_by_boards_made_already_round_trips_and_steps_on(tmp_path):
    """Under J with O's pause the fork that holds the waiting army is made at once: the
    saved pause names the army where it was dislodged, and the loaded game ends it the
    same way (cases/multiverse/past.cases MV.P.2)."""
    from solver.formats.cases import read_cases
    from solver.formats.rulebooks import rule_book

    (case,) = [c for c in read_cases(ROOT / "cases/multiverse/past.cases") if c.id == "MV.P.2"]
    rules = rule_book(case.edition)
    mv = case.game()
    for block in case.blocks[:2]:
        mv = mv.step([o.given for o in block.orders], rules).after
    assert mv.pause is not None and mv.pause.boards == ()
    assert mv.holder(*mv.pause.waiting[0]) is not None
    path = tmp_path / "held.json"
    save(SavedMultiverse(rules, mv, ()), path)
    again = load_multiverse(path)
    assert again.multiverse == mv and again.rules == rules
    retreat = [parse_given("Austria: A a-Tyrolia@0 - a-Bohemia@0", standard())]
    mine, theirs = again.multiverse.step(retreat, rules), mv.step(retreat, rules)
    assert mine.after == theirs.after and mine.after.pause is None
    assert [o.result for o in mine.outcomes] == ["succeeds"]
    on_the_fork = [parse_given("Austria: A b-Tyrolia@1 - b-Bohemia@1", standard())]
    (refused,) = mv.step(on_the_fork, rules).outcomes
    assert refused.result == "illegal" and "where it was dislodged: a-Tyrolia@0" in str(refused)


def test_a_rule_book_saved_with_an_earlier_history_policy_reads_as_its_three(paused, tmp_path):
    """Files written before `history` was split name it; they read as J's or O's values."""
    from dataclasses import replace

    from solver.values.rules import RULE_BOOKS, policy_table

    table = policy_table(RULE_BOOKS["O"])
    for name in ("past_orders", "past_results", "past_retreats"):
        del table[name]
    data = json.loads(to_json(paused))
    data["rules"] = {"name": "mine", "policies": {**table, "history": "rewritten"}}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_multiverse(path).rules == replace(RULE_BOOKS["O"], name="mine")


PAUSED_BAD = {
    "pause not an object": (json_set(["pause"], 3), "pause"),
    "no unit waiting": (json_set(["pause", "waiting"], []), "pause.waiting"),
    "no such board": (json_set(["pause", "waiting", 0, "board"], [5, 5]), "pause.waiting[0].board"),
    "unit not on its board": (
        json_set(["pause", "waiting", 0, "unit"], "A BOH"),
        "pause.waiting[0].unit",
    ),
    "bad attacker": (json_set(["pause", "waiting", 0, "from"], "XYZ"), "pause.waiting[0].from"),
    "flag not a bool": (
        json_set(["pause", "waiting", 0, "by_convoy"], 0),
        "pause.waiting[0].by_convoy",
    ),
    "board to make again missing": (json_set(["pause", "boards", 0], [9, 9]), "pause.boards[0]"),
}


@pytest.mark.parametrize("name", sorted(PAUSED_BAD))
def test_a_bad_pause_names_its_place(paused, tmp_path, name):
    _refused(paused, *PAUSED_BAD[name], tmp_path)


def test_the_schema_names_every_rule_book_and_policy():
    """The published schema keeps up with the rule books: every named one, every policy."""
    from solver.values.rules import POLICIES, RULE_BOOKS

    schema = json.loads((ROOT / "docs" / "savegame.schema.json").read_text())

    def walk(node):
        if isinstance(node, dict):
            yield node
            for value in node.values():
                yield from walk(value)
        elif isinstance(node, list):
            for value in node:
                yield from walk(value)

    names = [n["enum"] for n in walk(schema) if "2025" in n.get("enum", ())]
    assert names and all(set(e) == set(RULE_BOOKS) for e in names)
    policies = [n for n in walk(schema) if "victory" in n.get("properties", {})]
    assert policies and all(set(n["properties"]) == set(POLICIES) for n in policies)


def test_a_step_past_the_timeline_bound_is_refused_and_the_file_kept(game, tmp_path, monkeypatch):
    """Issue 20: one step took a game from 980 to 1,316 timelines, after which it could
    never be adjudicated again. The bound is checked on the step's result: here, with the
    bound lowered to the game's three timelines, the step that forks a fourth is refused,
    by the library and on the command line, and the file is left as it was."""
    import solver.multiverse.step as stepping

    path = tmp_path / "mv.json"
    save(game, path)
    before = path.read_bytes()
    assert len(step(game.multiverse, game.orders, DATC_2025).after.origins) == 4
    monkeypatch.setattr(stepping, "MAX_TIMELINES", 3)
    refusal = (
        "step refused: it would make 4 timelines (1 new), and a multiverse of at most 3 "
        "timelines is adjudicated; the multiverse is left as it was"
    )
    with pytest.raises(DipsatError) as caught:
        step(game.multiverse, game.orders, DATC_2025)
    assert str(caught.value) == refusal
    result = dipsat("game", "adjudicate", str(path))
    assert (result.exit_code, result.stderr) == (2, f"{path}: {refusal}\n")
    assert path.read_bytes() == before
    monkeypatch.setattr(stepping, "MAX_TIMELINES", 4)  # at the bound: adjudicated
    assert dipsat("game", "adjudicate", str(path)).exit_code == 0
    assert len(load_multiverse(path).multiverse.origins) == 4


@settings(max_examples=fuzz_examples(40), deadline=None)
@given(scenarios, st.sampled_from(["2025", "J", "O"]), st.sampled_from([0, 0, 1]))
def test_no_step_takes_a_multiverse_past_the_timeline_bound(scenario, book, room):
    """Random multiverses stepped with random orders under a bound of their own timelines
    and `room` more: the step is the unbounded step when its result is within the bound,
    and refused, naming both counts, when it is not."""
    import random
    from unittest import mock

    import solver.multiverse.step as stepping

    n, timelines, _ = scenario
    mv = start(n, timelines)
    orders = orders_for(random.Random(f"bound-{n}"), mv)
    free = step(mv, orders, BOOKS[book])
    bound = len(mv.origins) + room
    with mock.patch.object(stepping, "MAX_TIMELINES", bound):
        event("within the bound" if len(free.after.origins) <= bound else "refused")
        if len(free.after.origins) <= bound:
            assert step(mv, orders, BOOKS[book]).after == free.after
            return
        with pytest.raises(DipsatError) as caught:
            step(mv, orders, BOOKS[book])
    assert f"make {len(free.after.origins)} timelines" in str(caught.value)
    assert f"at most {bound} timelines" in str(caught.value)
