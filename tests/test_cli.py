"""The dipsat command: parse, check and adjudicate, as a user runs them."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys

import pytest
from conftest import DATA, dipsat, first_fast, slow

from solver.errors import CaseFormatError
from solver.formats.cases import read_cases


def test_parse_prints_canonical_orders():
    result = dipsat("parse", "-", stdin="A EDI - NWY VIA\n# a comment\n\nF NWG C A EDI - NWY\n")
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        "A Edinburgh - Norway via Convoy",
        "F Norwegian Sea Convoys A Edinburgh - Norway",
    ]


@slow
def test_parse_output_parses_to_the_same_orders(tmp_path):
    first = dipsat("parse", str(DATA / "datc_v3_2_orders.txt"))
    assert first.returncode == 0
    again_file = tmp_path / "again.txt"
    again_file.write_text(first.stdout)
    second = dipsat("parse", str(again_file))
    assert second.stdout == first.stdout
    assert len(first.stdout.splitlines()) == 840


@slow
def test_parse_reports_file_line_and_column(tmp_path):
    bad = tmp_path / "orders.txt"
    bad.write_text("A Paris - Burgundy\n\nA Munich Tyrolia\n")
    result = dipsat("parse", str(bad))
    assert result.returncode == 2
    assert (
        result.stderr.strip() == f"{bad}:3:10: expected an order verb (Holds, -, Supports, "
        "Convoys, R, Disband, Build), found 'Tyrolia'"
    )
    assert "Traceback" not in result.stderr


@slow
def test_check_json_report():
    result = dipsat("check", "cases/datc/6A.cases", "--json")
    report = json.loads(result.stdout)
    assert result.returncode == 0
    assert report == {
        "total": 12,
        "passed": 12,
        "failed": 0,
        "sections": {"6.A": {"total": 12, "passed": 12}},
        "failures": [],
    }


@slow
def test_check_fails_on_a_wrong_expectation(tmp_path):
    case = tmp_path / "wrong.cases"
    case.write_text(
        "case X.1: a bounce\n\nAustria:\nA Vienna - Tyrolia => succeeds\n\n"
        "Italy:\nA Venice - Tyrolia => fails\n"
    )
    result = dipsat("check", str(case), "--json")
    report = json.loads(result.stdout)
    assert result.returncode == 1
    wrong = {"id": "X.1", "order": "Austria: A Vienna - Tyrolia", "expected": "succeeds"}
    # the standard engine and the multiverse engine (one timeline) both disagree: once
    assert report["failures"] == [{**wrong, "got": "fails"}]


def bad_case_files() -> list[tuple[str, str]]:
    """Rows of tests/data/bad_cases.txt: case text ('|' between lines) and the error after
    the file name; a row's last '=>' separates them, case text having its own."""
    rows = []
    for line in (DATA / "bad_cases.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            text, _, message = line.rpartition("=>")
            rows.append((text.rstrip().replace("|", "\n") + "\n", message.strip()))
    return rows


@pytest.mark.parametrize(("text", "message"), bad_case_files())
def test_bad_case_files_name_file_line_and_column(tmp_path, text, message):
    case = tmp_path / "bad.cases"
    case.write_text(text, encoding="utf-8")
    with pytest.raises(CaseFormatError) as caught:
        read_cases(case)
    assert str(caught.value).startswith(f"{case}{message}"), str(caught.value)


@slow
@pytest.mark.parametrize("command", ["check", "adjudicate", "explore"])
def test_a_bad_case_file_is_one_line_on_the_command_line(tmp_path, command):
    """Every command reading a case file reports its faults as the reader does, exit
    status 2 (an impossible unit used to escape as a traceback from adjudicate)."""
    case = tmp_path / "bad.cases"
    case.write_text("case X.1: t\nEngland:\nA North Sea H\n")
    result = dipsat(command, str(case))
    assert result.returncode == 2
    assert result.stderr == f"{case}:3:1: an army cannot stand at sea, in North Sea\n"


@slow
def test_a_fault_of_the_whole_file_names_the_file_alone(tmp_path):
    """No line is at fault: 'FILE: message', not 'FILE:0:1: message'."""
    missing = tmp_path / "absent.cases"
    absent = f"{missing}: cannot read: No such file or directory\n"
    for command in ("check", "adjudicate", "explore", "parse", "replay"):
        assert dipsat(command, str(missing)).stderr == absent, command  # one form for all
    binary = tmp_path / "binary.cases"
    binary.write_bytes(b"case X.1: t\nA \xff\n")  # a bad byte is placed by line and column
    assert (
        dipsat("check", str(binary)).stderr
        == f"{binary}:2:3: expected UTF-8 text, found byte 0xff\n"
    )


@slow
def test_adjudicate_explains_outcomes():
    result = dipsat("adjudicate", "cases/datc/6F.cases", "--case", "6.F.14", "--json")
    (phase,) = json.loads(result.stdout)["phases"]
    assert result.returncode == 0
    results = {o["order"]: o["result"] for o in phase["orders"]}
    assert results["France: F English Channel Convoys A Brest - London"] == "disrupted, dislodged"
    assert phase["paradoxes"][0]["rule"] == "szykman"
    reasons = {o["order"]: o["reason"] for o in phase["orders"]}
    assert "Szykman" in reasons["France: A Brest - London"]
    bounce = json.loads(
        dipsat("adjudicate", "cases/datc/6A.cases", "--case", "6.A.11", "--json").stdout
    )
    assert bounce["phases"][0]["orders"][0]["reason"] == "bounced by A Venice"


@slow
def test_adjudicate_shows_every_phase_and_the_multiverse_board_by_board():
    retreats = json.loads(
        dipsat("adjudicate", "cases/datc/6H.cases", "--case", "6.H.5", "--json").stdout
    )
    assert [p["phase"] for p in retreats["phases"]] == [
        "Spring 1901 movement",
        "Spring 1901 retreat",
    ]
    result = dipsat("adjudicate", "cases/mdatc/3A-letters.cases", "--case", "3.A.2")
    assert result.returncode == 0
    assert "timeline b forks from a@0" in result.stdout
    assert "b@1 (head) Spring 1901 retreat: Germany: A Tyrolia" in result.stdout
    assert "retreating: Austria: A Tyrolia" in result.stdout


@slow
def test_output_is_byte_identical_across_processes_and_hash_seeds():
    outputs = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        outputs.add(
            dipsat(
                "adjudicate", "cases/datc/6F.cases", "--case", "6.F.27", "--json", env=env
            ).stdout
        )
        outputs.add(dipsat("check", "cases/datc/6C.cases", "--json", env=env).stdout)
    assert len(outputs) == 2


@slow
def test_check_compares_the_expected_position(tmp_path):
    case = tmp_path / "after.cases"
    case.write_text(
        "case X.2: a move\n\nGermany:\nA Munich - Ruhr => succeeds\n\n"
        "AFTER\nGermany owns A Munich\n"
    )
    result = dipsat("check", str(case), "--json")
    assert result.returncode == 1
    assert json.loads(result.stdout)["failures"] == [
        {"id": "X.2", "order": "AFTER", "expected": "Germany A Munich", "got": "Germany A Ruhr"}
    ]


@slow
def test_a_game_on_a_variant_from_the_shell(tmp_path):
    """`game new --variant ancmed`, orders and a whole year, then the picture: the
    game stays on ancmed (its provinces, its first year) and every step succeeds."""
    game = str(tmp_path / "g.json")
    assert dipsat("game", "new", game, "--variant", "ancmed").returncode == 0
    shown = dipsat("game", "show", game).stdout
    assert shown.startswith("ancmed: Spring 1 movement") and "A Province of Carthage" in shown
    steps = [
        ("Rome: F Neapolis - Tyrrhenian Sea", "Egypt: F Alexandria - Egyptian Sea"),
        ("Rome: F Tyrrhenian Sea - Sicilia", "Egypt: F Egyptian Sea - Cyrene"),
    ]
    for orders in steps:
        assert dipsat("game", "order", game, *orders).returncode == 0
        played = dipsat("game", "adjudicate", game)
        assert played.returncode == 0 and "succeeds" in played.stdout, played.stdout
    winter = dipsat("game", "show", game).stdout
    assert winter.startswith("ancmed: Winter 1 adjustment"), winter
    assert dipsat("game", "order", game, "Rome: Build F Neapolis").returncode == 0
    assert "now Spring 2 movement" in dipsat("game", "adjudicate", game).stdout
    picture = tmp_path / "g.svg"
    drawn = dipsat("render", game, "--out", str(picture))
    assert drawn.returncode == 0, drawn.stderr
    svg = picture.read_text()
    assert 'data-province="sic"' in svg and 'data-province="cyr"' in svg


@slow
def test_a_variant_that_is_not_known_is_named_with_the_known_ones():
    result = dipsat("check", "cases/variants/isthmus.cases", "--variant", "atlantis")
    assert result.returncode == 2
    assert "--variant: unknown variant 'atlantis': expected one of standard, ancmed" in (
        result.stderr
    )


@slow
def test_check_says_what_a_case_file_gets_wrong_once(tmp_path):
    """A failure of a standard case is printed once (not again for the multiverse engine);
    a case that expects nothing fails instead of passing whatever comes out; a case id
    defined in two files is refused with both places."""
    once = tmp_path / "once.cases"
    once.write_text("case X.1: t\nGermany:\nA Munich - Tyrolia => fails\n")
    shown = dipsat("check", str(once))
    assert shown.returncode == 1
    assert [line for line in shown.stdout.splitlines() if line.startswith("FAIL")] == [
        "FAIL X.1: Germany: A Munich - Tyrolia: expected fails, got succeeds"
    ]
    empty = tmp_path / "empty.cases"
    empty.write_text("case X.2: t\nGermany:\nA Munich - Tyrolia\n")
    shown = dipsat("check", str(empty))
    assert shown.returncode == 1 and "X.2: the case: expected an outcome" in shown.stdout
    twice = tmp_path / "twice.cases"
    twice.write_text("case X.1: t\nGermany:\nA Munich - Tyrolia => succeeds\n")
    shown = dipsat("check", str(once), str(twice))
    assert shown.returncode == 2
    assert shown.stderr == f"case X.1 is defined twice: {once}:1 and {twice}:1\n"


@slow
def test_adjudicate_shows_what_the_case_expected_and_refuses_orders_for_another_phase(tmp_path):
    case = tmp_path / "c.cases"
    case.write_text(
        "case X.1: t\nEngland owns F London\nGermany:\nA Munich - Tyrolia => fails\n"
        "RETREATS\nEngland:\nF London - Wales => succeeds\n"
    )
    shown = dipsat("adjudicate", str(case))
    assert shown.returncode == 2  # as check: no unit was dislodged, no retreat phase follows
    assert "X.1: block 2: the case gives retreat orders, but the game is in" in shown.stderr
    case.write_text("case X.1: t\nGermany:\nA Munich - Tyrolia => fails\n")
    shown = dipsat("adjudicate", str(case))
    assert "succeeds" in shown.stdout and "expected fails" in shown.stdout
    assert "1 of 1 expected outcome(s) came out otherwise" in shown.stdout
    assert "eliminated" not in shown.stdout  # only Germany was playing
    data = json.loads(dipsat("adjudicate", str(case), "--json").stdout)
    assert data["phases"][0]["orders"][0]["expected"] == "fails"
    assert data["expectations"] == {"stated": 1, "met": 0}


@slow
def test_commands_on_one_case_find_it_in_a_folder_and_pages_say_where_they_went(tmp_path):
    found = dipsat("explore", "cases/", "--case", "6.F.14")
    assert found.returncode == 0 and "France: A Brest - London" in found.stdout
    assert "6.F.14" in dipsat("adjudicate", "cases/datc", "--case", "6.F.14").stdout
    refused = dipsat("explore", "cases/")
    assert refused.returncode == 2 and "choose the case with --case" in refused.stderr
    page = tmp_path / "page.html"
    shown = dipsat("explore", "cases/datc/6F.cases", "--case", "6.F.14", "--html", str(page))
    assert f"wrote {page}" in shown.stderr and page.exists()
    shown = dipsat("compare-rules", "2025", "1982", "cases/datc/6F.cases", "--html", str(page))
    assert f"wrote {page}" in shown.stderr
    assert "decide differently (under 2025 → under 1982)" in shown.stdout


@slow
def test_game_show_says_who_builds_and_who_disbands_in_a_winter(tmp_path):
    game = str(tmp_path / "g.json")
    assert dipsat("game", "new", game).returncode == 0
    dipsat("game", "order", game, "England: F Edinburgh - Norwegian Sea")
    dipsat("game", "adjudicate", game)
    dipsat("game", "order", game, "England: F Norwegian Sea - Norway")
    dipsat("game", "adjudicate", game)
    shown = dipsat("game", "show", game).stdout
    assert shown.startswith("Winter 1901 adjustment") and "England builds 1" in shown
    assert "France builds" not in shown and "disbands" not in shown


def test_the_case_reader_is_lenient_where_nothing_can_be_misread(tmp_path):
    """docs/case-format.md: indentation, tabs, a lower-case power and a header without its
    colon read as the plain form does."""
    from solver.formats.cases import read_cases

    plain = tmp_path / "plain.cases"
    plain.write_text("case X.1: t\nFrance:\nA Paris - Burgundy => succeeds\n")
    loose = tmp_path / "loose.cases"
    loose.write_text("case X.1: t\n\tfrance\n    A Paris - Burgundy => succeeds\n")
    (a,), (b,) = read_cases(plain), read_cases(loose)
    assert a.blocks == b.blocks and a.position == b.position


@slow
def test_time_limit_on_the_command_line_is_an_error_when_it_runs_out():
    slow = dipsat("adjudicate", "cases/datc/6F.cases", "--case", "6.F.14", "--time-limit", "1e-9")
    assert slow.returncode == 2
    assert slow.stderr.endswith(
        "the solver reached its time limit (1e-09 s) before settling the turn\n"
    )
    checked = dipsat("check", "cases/datc/6F.cases", "--time-limit", "1e-9", "--json")
    assert checked.returncode == 1  # the cases that need the solver fail, saying why
    assert "time limit" in json.loads(checked.stdout)["failures"][0]["got"]
    assert (
        dipsat(
            "adjudicate", "cases/datc/6F.cases", "--case", "6.F.14", "--time-limit", "5"
        ).returncode
        == 0
    )
    for odd in ("nan", "inf", "0", "-1"):
        result = dipsat("explore", "cases/datc/6F.cases", "--case", "6.F.14", "--time-limit", odd)
        assert result.returncode == 2
        assert result.stderr.startswith("--time-limit: expected a finite number of seconds above 0")


@slow
@pytest.mark.parametrize(
    ("step", "message"),
    [
        ("²", "--step '²': expected a number"),
        ("--1", "--step '--1': expected a number"),
        ("-1", "--step -1: phases are counted from 1"),
        ("9" * 5000, "--step " + "9" * 40 + ": case 6.A.1 has 1 phase block(s)"),
    ],
)
def test_odd_step_values_are_refused_with_a_message(tmp_path, step, message):
    picture = tmp_path / "p.svg"
    result = dipsat(
        "render", "cases/datc/6A.cases", "--case", "6.A.1", "--step", step, "--out", str(picture)
    )
    assert result.returncode == 2
    assert result.stderr == f"cases/datc/6A.cases: {message}\n"


@slow
def test_an_empty_case_file_and_a_byte_order_mark(tmp_path):
    empty = tmp_path / "empty.cases"
    empty.write_text("")
    for command in ("adjudicate", "explore"):
        result = dipsat(command, str(empty))
        assert (result.returncode, result.stderr) == (
            2,
            f"{empty}: holds no case; expected a 'case ID: TITLE' line\n",
        )
    marked = tmp_path / "marked.cases"
    marked.write_bytes(b"\xef\xbb\xbfcase X.1: t\nEngland:\nF London - North Sea => succeeds\n")
    assert dipsat("check", str(marked)).returncode == 0


@slow
def test_one_order_given_twice_is_illegal_the_second_time_in_every_command(tmp_path):
    """check used to crash in its multiverse pass on a repeated order (issue 20)."""
    twice = tmp_path / "twice.cases"
    twice.write_text(
        "case X.1: t\nEngland:\nF London - North Sea => succeeds\nF London - North Sea => illegal\n"
    )
    assert dipsat("check", str(twice)).returncode == 0
    adjudicated = dipsat("adjudicate", str(twice))
    assert adjudicated.returncode == 0
    assert "illegal  (F London already has an order)" in adjudicated.stdout
    assert dipsat("render", str(twice), "--out", str(tmp_path / "t.svg")).returncode == 0


def _odd_breaks(text: str, width: int) -> list[tuple[str, str]]:
    """Pairs of help lines where a sentence breaks although its next word fits on the first
    line: the break came from the source, not from the terminal's width. A line continues
    the one before when its only text starts at the column of that line's last cell (the
    help column of a panel, or the description); typer's own tags ([default: …],
    [required]) start a line of their own after a wrapped help, by typer's layout."""

    def cells(line: str) -> list[int]:
        return [m.end() for m in re.finditer(r"(?:^ |  ) *(?=\S)", line)]

    found = []
    for first, then in itertools.pairwise(text.splitlines()):
        if first.startswith("│") and then.startswith("│"):
            limit = first.rindex("│") - 1  # a panel: its text ends one space before the border
            first, then = " " + first[1:limit], " " + then[1:limit]
        elif first.startswith(" ") and then.startswith(" ") and "Usage:" not in first:
            limit = width - 1
        else:
            continue
        starts, then_starts = cells(first), cells(then)
        if not starts or then_starts != starts[-1:]:
            continue
        word = then.split()[0]
        if word.startswith("[default:") or word == "[required]":
            continue
        if len(first.rstrip()) + 1 + len(word) <= limit:
            found.append((first.strip(), then.strip()))
    return found


def _help_pages() -> list[list[str]]:
    """The command path of every help page: the root, each command, each subcommand."""
    from typer.main import get_command

    from solver.cli import app

    def walk(command, path):
        yield path
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            yield from walk(sub, [*path, name])

    return list(walk(get_command(app), []))


@pytest.mark.parametrize("width", first_fast([80, 60, 120]))
def test_help_breaks_lines_only_where_the_terminal_ends(monkeypatch, width):
    """Issue 29: `dipsat game --help` broke each command's summary where its docstring's
    source line ended ("save it to FILE (never over a" / "file that exists)."), and the
    longer descriptions of crosscheck and rulebooks influence and fit the same way."""
    from typer.testing import CliRunner

    from solver.cli import app

    monkeypatch.setenv("COLUMNS", str(width))
    pages = _help_pages()
    assert ["game", "new"] in pages and len(pages) == 22
    for path in pages:
        result = CliRunner().invoke(app, [*path, "--help"])
        assert result.exit_code == 0, path
        assert max(len(line) for line in result.output.splitlines()) == width, path
        assert _odd_breaks(result.output, width) == [], path


@slow
def test_help_piped_reads_as_sentences():
    """Piped (no terminal, 80 columns), each summary of `dipsat game --help` reads whole."""
    result = dipsat("game", "--help", env={**os.environ, "COLUMNS": "80"})
    assert result.returncode == 0
    assert _odd_breaks(result.stdout, 80) == []
    assert "save it to   │\n│             FILE (never over a file that exists)." in result.stdout


def test_the_command_line_loads_what_a_command_runs_only_when_it_runs():
    """`dipsat --help` and the start of every command read no judge, no formats of cases,
    no networkx and no OR-Tools: each command imports what it runs (benchmarks/run.py
    times the start-up)."""
    heavy = ("networkx", "ortools", "solver.judge.movement", "solver.formats.cases")
    script = f"import sys, solver.cli; print([m for m in {heavy!r} if m in sys.modules])"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.stdout.strip() == "[]", run.stdout + run.stderr
