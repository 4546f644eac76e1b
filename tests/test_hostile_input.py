"""Hostile input that is not a whole file's fault (issue 29): numbers of thousands of
digits, lines of megabytes, a drawing that is no layout, province codes that are not three
letters, boards whose names are ambiguous. Each is read or refused with a clear error that
names the file and the line, in time linear in its size, and never gives a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import DATA, ROOT, dipsat, first_fast, slow

import solver
from solver.errors import CaseFormatError, DipsatError, OrderSyntaxError, SaveFileError
from solver.exploring.conformance import run
from solver.formats.cases import read_cases
from topology import MapDataError, files
from topology.milamap import load_mila_map

HUGE = "9" * 5000  # past the 4,300 digits Python converts from text to int


# -- numbers ------------------------------------------------------------------------------


def test_whole_numbers_are_ascii_digits_counted_before_they_are_converted() -> None:
    assert files.whole_number("1901") == 1901
    assert files.whole_number("007") == 7
    for text in (HUGE, "1" * 10):
        expected = f"at most 9 digits, found one of {len(text):,}"
        with pytest.raises(files.NumberError, match=expected):
            files.whole_number(text)
    for text in ("", "-1", "+1", " 1", "1_000", "²", "١٩٠١"):
        with pytest.raises(files.NumberError, match="expected a whole number such as 12"):
            files.whole_number(text)


def test_any_value_is_shown_shortly_even_where_repr_raises() -> None:
    class Unprintable:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    assert files.shown(10**5000) == "<an integer of more than 40 digits>"
    assert files.shown([10**5000]) == "[<an integer of more than 40 digits>]"
    assert files.shown(Unprintable()) == "<Unprintable object>"
    assert files.shown(12) == "12" and files.shown("Paris") == "'Paris'"
    assert len(files.shown("x" * 1_000_000)) <= 40
    assert len(files.shown(list(range(100_000)), 60)) <= 60


@slow
def test_a_case_id_of_thousands_of_digits_is_an_id_like_any_other(tmp_path: Path) -> None:
    """Sections are sorted by number: a number of 5,000 digits was converted to int."""
    path = tmp_path / "huge.cases"
    path.write_text(f"case {HUGE}.1: t\nEngland:\nF London - North Sea => succeeds\n")
    (case,) = read_cases(path)
    report = run([case, *read_cases(ROOT / "cases/datc/6A.cases")])
    assert list(report.sections())[-1] == HUGE  # after the DATC's section 6.A
    result = dipsat("check", str(path))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("line", "column"),
    [
        (f"Germany {HUGE}:0", 9),  # a multiverse season header: the turn
        (f"Germany 0:{HUGE}", 11),  # ... and the timeline
        (f"A Munich - a-Ruhr@{'9' * 10}", 19),  # a board of an order
        ("Germany 0:١", 11),  # digits that are not ASCII
    ],
)
def test_a_number_of_a_multiverse_case_is_bounded(tmp_path: Path, line: str, column: int) -> None:
    path = tmp_path / "numbers.cases"
    path.write_text(f"case X.1: t\nvariant: multiverse\nGermany 0:0\n{line}\n")
    with pytest.raises(CaseFormatError) as caught:
        read_cases(path)
    assert str(caught.value).startswith(f"{path}:4:{column}: expected a whole number"), str(
        caught.value
    )


def test_a_board_past_the_last_year_is_refused_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "late.cases"
    path.write_text("case X.1: t\nvariant: multiverse\nboards: a@99999\n")
    with pytest.raises(CaseFormatError, match=r"late.cases:3:1: board a@99999: expected a year"):
        read_cases(path)


def test_an_order_names_a_board_of_few_enough_digits() -> None:
    world = solver.Multiverse.start(solver.Position.opening())
    assert world.read("A a-Munich@0 - a-Ruhr@1").order.dest.turn == 1
    with pytest.raises(OrderSyntaxError, match="at most 9 digits, found one of 10"):
        world.read("A a-Munich@0 - a-Ruhr@9999999999")


@slow
@pytest.mark.parametrize(
    ("line", "message"),
    [
        (f"BEGIN SPRING {HUGE} MOVEMENT", "at most 9 digits, found one of 5,000"),
        ("BEGIN SPRING ² MOVEMENT", "expected a whole number such as 12, found '²'"),
        ("BEGIN SPRING 10000 MOVEMENT", "a year from 1 to 9999"),
        (f"VICTORY {HUGE}", "at most 9 digits, found one of 5,000"),
    ],
)
def test_a_number_of_a_mila_map_is_bounded(tmp_path: Path, line: str, message: str) -> None:
    source = (DATA / "mila_maps/islands.map").read_text().splitlines()
    key = line.split()[0]
    number = next(i for i, text in enumerate(source, 1) if text.startswith(key))
    source[number - 1] = line
    path = tmp_path / "odd.map"
    path.write_text("\n".join(source) + "\n")
    with pytest.raises(MapDataError) as caught:
        load_mila_map(path)
    assert str(caught.value).startswith(f"{path}:{number}: "), str(caught.value)
    assert message in str(caught.value)
    for command in (
        ("variant", "import", str(path), "--out", str(tmp_path / "odd.toml")),
        ("check", "--variant", str(path), "cases/datc/6A.cases"),
    ):
        result = dipsat(*command)
        assert result.returncode in (1, 2), result.stderr
        assert "Traceback" not in result.stderr and message in result.stderr, result.stderr


def test_a_saved_board_of_a_turn_of_thousands_of_digits_is_refused() -> None:
    from test_multiverse import REPEATED, play

    from solver.formats.savegame import SavedMultiverse, any_from_json, to_json
    from solver.values.rules import DATC_2025

    text = to_json(SavedMultiverse(DATC_2025, play(DATC_2025, *REPEATED), ()))
    spot = next(part for part in text.split('"') if part.startswith("mun@0:"))
    with pytest.raises(SaveFileError, match="expected a code such as 'mun@0:1'"):
        any_from_json(text.replace(f'"{spot}"', f'"mun@0:{HUGE}"', 1))


POSITION = solver.Position.opening()


@pytest.mark.parametrize(
    "call",
    [
        lambda v: solver.Position.parse(v),
        lambda v: solver.Position.parse("Spring 1901 movement", phase=v),
        lambda v: solver.Position(v, board=POSITION.board),
        lambda v: solver.Position(POSITION.phase, (v,), board=POSITION.board),
        lambda v: solver.Position(POSITION.phase, (), (("par", v),), board=POSITION.board),
        lambda v: solver.Phase(v, solver.Season.SPRING, solver.PhaseKind.MOVEMENT),
        lambda v: solver.Phase(1901, v, solver.PhaseKind.MOVEMENT),
        lambda v: solver.Phase.parse(v),
        lambda v: solver.parse_orders(v, POSITION),
        lambda v: solver.adjudicate(v, ""),
        lambda v: solver.adjudicate(POSITION, [v]),
        lambda v: solver.adjudicate(POSITION, "", rules=v),
        lambda v: solver.adjudicate_many([v]),
        lambda v: solver.RuleBook(v),
        lambda v: solver.RuleBook("mine", convoy_cut=v),
        lambda v: solver.rule_book(v),
        lambda v: solver.Multiverse.start(v),
        lambda v: solver.read_cases(v),
        lambda v: solver.variant(v),
    ],
)
@pytest.mark.parametrize(
    "value", [10**5000, [10**5000], {"x": -(10**5000)}], ids=["int", "list", "dict"]
)
def test_the_api_refuses_an_integer_of_thousands_of_digits_with_a_clear_error(call, value) -> None:
    """The message showing the value raised itself: repr() of such an integer fails."""
    with pytest.raises((DipsatError, TypeError)) as caught:
        call(value)
    assert "an integer of more than 40 dig" in str(caught.value), str(caught.value)


def test_a_file_is_read_by_name_never_by_descriptor() -> None:
    """open(1) would read standard output's descriptor, and close it."""
    with pytest.raises(TypeError, match="expected a file name, found int"):
        read_cases(1)  # type: ignore[arg-type]


# -- long lines ---------------------------------------------------------------------------

LONG = 2_000_000
# Each shape made a regular expression backtrack over the whole line from each character:
# hours for a line of megabytes. Each must now be read (or refused) in time linear in it.
LONG_LINES = {
    "a power header": "f\"case X.1: t\\nvariant: multiverse\\na{'1' * LONG}!\\n\"",
    "an expected outcome": "f\"case X.1: t\\nEngland:\\nF London - North Sea => {'[' * LONG}\\n\"",
    "an order header": "f\"England{' ' * LONG}x:\\n\"",
    "a position's line": "f\"Spring 1901 movement\\nEngland{' ' * LONG}x\\n\"",
    "a dislodged unit": "f\"England dislodged: A Paris{'  ' * LONG}x\\n\"",
    "a map's table": 'f\'name = """\\n[a{" " * LONG}x\\n"""\\n\'',
}
READ = {
    "a power header": "read_cases(write('x.cases', text))",
    "an expected outcome": "read_cases(write('x.cases', text))",
    "an order header": "solver.parse_orders(text, solver.Position.opening())",
    "a position's line": "solver.Position.parse(text)",
    "a dislodged unit": "solver.Position.parse(text)",
    "a map's table": "board_from_text(text, 'x.toml')",
}


@pytest.mark.parametrize("shape", first_fast(LONG_LINES))
def test_a_line_of_megabytes_is_read_in_linear_time(shape: str, tmp_path: Path) -> None:
    script = textwrap.dedent(
        f"""
        import pathlib
        import solver
        from solver.formats.cases import read_cases
        from topology.loader import board_from_text
        from topology import MapDataError
        LONG = {LONG}
        def write(name, text):
            path = pathlib.Path({str(tmp_path)!r}) / name
            path.write_text(text)
            return path
        text = {LONG_LINES[shape]}
        try:
            {READ[shape]}
        except (solver.DipsatError, MapDataError) as error:
            print(str(error)[:200])
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=20,  # generous: the reading itself takes about a second
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert len(done.stdout) < 1000  # a message quotes a short part of what it found


# -- a drawing that is no layout ------------------------------------------------------------

ISTHMUS = ROOT / "cases/variants/isthmus.toml"
ISTHMUS_LAYOUT = """\
name = "isthmus"
width = 600
height = 400

[places]
nor = [100, 100]
sou = [100, 300]
hil = [300, 200]
ist = [200, 200]
"ist/nc" = [200, 150]
"ist/sc" = [200, 250]
col = [50, 50]
wam = [50, 350]
"""
BAD_LAYOUTS = {
    "the map itself": (None, ":6: top level: `drawing` is no layout", "width: found none"),
    "no page size": ("width = inf\nheight = 400\n", ":1: expected positive numbers", "inf"),
    "no places": ("width = 600\nheight = 400\n", ": expected a [places] table", ""),
    "a place missing": (ISTHMUS_LAYOUT.replace("wam = [50, 350]\n", ""), ":5: [places]", "wam"),
    "a place unknown": (ISTHMUS_LAYOUT + "par = [1, 1]\n", ":14: [places]", "unknown: par"),
    "a place off the page": (ISTHMUS_LAYOUT.replace("[50, 350]", "[50, 401]"), ":13: ", "wam"),
    "another board's": ((ROOT / "topology/data/standard-layout.toml").read_text(), "", "adr"),
}


def _drawn_isthmus(folder: Path, layout: str | None) -> Path:
    """The isthmus board with a `drawing` line (line 6) naming `layout` (None: itself)."""
    lines = ISTHMUS.read_text().splitlines()
    drawing = "isthmus.toml" if layout is None else "layout.toml"
    lines.insert(5, f'drawing = "{drawing}"')
    (folder / "isthmus.toml").write_text("\n".join(lines) + "\n")
    if layout is not None:
        (folder / "layout.toml").write_text(layout)
    (folder / "i.cases").write_text(
        "variant: isthmus.toml\ncase V.1: t\nNorth:\nF Northport - Cold Sea => succeeds\n"
    )
    return folder / "isthmus.toml"


@slow
@pytest.mark.parametrize("kind", BAD_LAYOUTS)
def test_a_drawing_that_is_no_layout_of_the_board_is_refused_when_the_board_loads(
    kind: str, tmp_path: Path
) -> None:
    """It was accepted, and `render` then died with a MapDataError traceback."""
    from topology import load_board

    layout, where, what = BAD_LAYOUTS[kind]
    path = _drawn_isthmus(tmp_path, layout)
    with pytest.raises(MapDataError) as caught:
        load_board(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:6: top level: `drawing` is no layout of this board: ")
    drawn = path if layout is None else tmp_path / "layout.toml"
    assert f"{drawn}{where}" in message and what in message, message
    for command in (
        ("render", "i.cases", "--out", "i.svg"),
        ("check", "--html", "i.html", "i.cases"),
        ("game", "new", "g.json", "--variant", "isthmus.toml"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "solver", *command],
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr and "is no layout" in done.stderr, done.stderr


@slow
def test_a_drawing_that_fits_the_board_is_used(tmp_path: Path) -> None:
    from topology import layout_of, load_board

    board = load_board(_drawn_isthmus(tmp_path, ISTHMUS_LAYOUT))
    assert layout_of(board).points["ist/nc"] == (200.0, 150.0)
    result = dipsat("render", str(tmp_path / "i.cases"), "--out", str(tmp_path / "i.svg"))
    assert result.returncode == 0, result.stderr


# -- province codes that are not three letters ------------------------------------------------

CODES = ROOT / "cases/variants/digit_codes.toml"  # codes ab1, p0, a, x2, col, wam


@slow
def test_a_game_on_a_board_of_codes_with_digits_plays_through(tmp_path: Path) -> None:
    """`game new` wrote such a game, and nothing could load it: "expected a unit such as
    'A PAR', found 'F AB1'"."""
    game = str(tmp_path / "g.json")

    def run(*args: str) -> str:
        result = dipsat(*args)
        assert result.returncode == 0, result.stderr
        return result.stdout

    run("game", "new", game, "--variant", str(CODES))
    assert "North: F Northport; 1 centres: AB1" in run("game", "show", game)
    run("game", "order", game, "North: F ab1 - col", "South: A Southport - x2")
    run("game", "adjudicate", game)
    run("game", "order", game, "North: F col - x2/nc", "South: A x2 - a")
    assert "F Cold Sea - Isthmus(nc): succeeds" in run("game", "adjudicate", game)
    assert "North: F Isthmus(nc); 2 centres: AB1 X2" in run("game", "show", game)
    run("game", "order", game, "North: Build F ab1", "South: Build A p0")
    run("game", "adjudicate", game)
    shown = run("game", "show", game)
    assert "North: F Northport, F Isthmus(nc)" in shown and "South: A Highlands, A Southport" in (
        shown
    )
    run("render", game, "--out", str(tmp_path / "g.svg"))


def test_a_recorded_game_on_such_a_board_is_read() -> None:
    from solver.formats.mila import parse_game
    from topology import variant

    state = {
        "units": {"NORTH": ["F X2/NC", "A A"], "SOUTH": ["A P0"]},
        "centers": {"NORTH": ["AB1", "A"], "SOUTH": ["P0"]},
        "retreats": {},
        "name": "S0001M",
    }
    phase = {"name": "S0001M", "state": state, "orders": {"NORTH": ["A A - AB1"]}}
    game = parse_game({"map": "digit_codes", "phases": [phase]}, "g.json", variant(str(CODES)))
    (recorded,) = game.phases
    assert sorted(str(u.location) for u in recorded.units) == ["a", "p0", "x2/nc"]
    assert str(recorded.orders[0].order) == "A a - ab1"


@slow
def test_a_cross_check_on_such_a_board_agrees_with_itself() -> None:
    result = dipsat("crosscheck", "--against", "dipsat", "--variant", str(CODES), "--turns", "20")
    assert result.returncode == 0, result.stderr
    assert "20 turns: 20 agree" in result.stdout


# -- ambiguous boards -------------------------------------------------------------------------

ISTHMUS_TEXT = ISTHMUS.read_text()
AMBIGUOUS = {
    "two provinces of one name": (
        ('name = "Southport"', 'name = "Northport"'),
        "province 'sou': name 'Northport' also names province 'nor': every order naming it",
    ),
    "a name with a line break": (
        ('name = "Southport"', 'name = "South\\nport"'),
        "province 'sou': name 'South\\nport' holds a line break",
    ),
    "a name written as a place of the multiverse": (
        ('name = "Highlands"', 'name = "a-Highlands@3"'),
        "province 'hil': name 'a-Highlands@3' holds '@', which marks a board",
    ),
    "a name starting as a timeline does": (
        ('name = "Highlands"', 'name = "b-Highlands"'),
        "province 'hil': name 'b-Highlands' starts as a place of the multiverse does",
    ),
    "an alias of another province": (
        ('aliases = ["Neck"]', 'aliases = ["Highlands"]'),
        "province 'ist': alias 'Highlands' also names province 'hil'",
    ),
    "an alias that is a power's name": (
        ('aliases = ["Neck"]', 'aliases = ["Meridia"]'),
        "province 'ist': alias 'Meridia' is also a name of power 'South'",
    ),
    "a power's alias that is a province's name": (
        ('aliases = ["Meridia"]', 'aliases = ["Warm Sea"]'),
        "power 'South': alias 'Warm Sea' is also a name of province 'wam'",
    ),
    "a power's name with a comma": (
        ('adjective = "Southern"', 'adjective = "South, ern"'),
        "power 'South': name 'South, ern' holds ',', which separates the units of a position",
    ),
}


@slow
@pytest.mark.parametrize("kind", AMBIGUOUS)
def test_an_ambiguous_board_is_refused_at_the_line_that_says_so(kind: str, tmp_path: Path) -> None:
    """Each was loaded without complaint: the orders naming the place were then refused,
    or the name could not be read back from a position or a case file."""
    from topology import load_board

    (old, new), message = AMBIGUOUS[kind]
    assert ISTHMUS_TEXT.count(old) == 1
    text = ISTHMUS_TEXT.replace(old, new)
    path = tmp_path / "ambiguous.toml"
    path.write_text(text)
    rows = zip(text.splitlines(), ISTHMUS_TEXT.splitlines(), strict=True)
    line = next(n for n, (row, was) in enumerate(rows, 1) if row != was)  # the changed line
    with pytest.raises(MapDataError) as caught:
        load_board(path)
    assert str(caught.value).startswith(f"{path}:{line}: {message}"), str(caught.value)
    result = dipsat("check", "--variant", str(path), "cases/datc/6A.cases")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr


def test_every_shipped_board_and_milas_maps_still_load() -> None:
    from topology import variant, variant_names
    from topology.milamap import load_mila_map, mila_map_names

    for name in variant_names():
        assert variant(name).provinces
    for name in mila_map_names():
        assert load_mila_map(name).provinces


LONG_NAME = "a" * 5000  # longer than any file name the system can look up


@slow
def test_a_name_too_long_to_look_up_is_no_file_of_that_name() -> None:
    """Path.exists and Path.is_file raise OSError for such a name (Python 3.11)."""
    with pytest.raises(MapDataError, match="unknown variant"):
        solver.variant(LONG_NAME)
    with pytest.raises(DipsatError, match="unknown rule book"):
        solver.rule_book(LONG_NAME)
    for command in (
        ("check", "--variant", LONG_NAME, "cases/datc/6A.cases"),
        ("check", "--rules", LONG_NAME, "cases/datc/6A.cases"),
        ("check", LONG_NAME),
        ("render", LONG_NAME, "--out", "x.svg"),
    ):
        result = dipsat(*command)
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr, result.stderr
