"""The `dipsat` command line: parse, check, adjudicate, replay."""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from topology import Board, MapDataError, standard, variant, variant_names
from topology.files import TextFileError, parse_json, probe, read_text, shown

from .compiled import StaleBuildError
from .crosschecking import STARTUP_SECONDS
from .errors import CaseFormatError, DipsatError, LimitError, OrderSyntaxError
from .formats.rulebooks import rule_book
from .values.rules import RULE_BOOKS, RuleBook

if TYPE_CHECKING:  # the commands import what they run, so that `dipsat --help` stays quick
    from .crosschecking.replay import ReplayReport
    from .formats.cases import Case

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="A Diplomacy adjudicator built on a constraint solver.",
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


BOOKS_HELP = (
    "rule book: an edition (1971 1982 2000 2023 2025 dptg), a site or engine (webdiplomacy, "
    "godip, mila), a 5D rule set (J O O-strict), or a TOML file"
)
RulesOption = Annotated[
    str | None,
    typer.Option(
        "--rules", help=f"{BOOKS_HELP}; cases default to the rule book they state, else 2025"
    ),
]
GameRulesOption = Annotated[str, typer.Option("--rules", help=f"{BOOKS_HELP}; 2025 by default")]
VARIANT_HELP = (
    "the board: standard, a variant shipped with dipsat (see `dipsat variant list`), a map "
    "file NAME.toml, a MILA map file NAME.map or mila:NAME; cases that name their own "
    "variant keep it"
)
VariantOption = Annotated[str | None, typer.Option("--variant", help=VARIANT_HELP)]
HtmlOption = Annotated[
    str | None, typer.Option("--html", help="also write it as one self-contained HTML page")
]
TimeLimitOption = Annotated[
    float | None,
    typer.Option(
        "--time-limit",
        metavar="SECONDS",
        help="the most one call of the solver may take (10 by default); running out is an "
        "error, never a guess",
    ),
]


def _solver_time(ctx: typer.Context, seconds: float | None) -> None:
    """Bound the solver's time for the rest of the command (`--time-limit`)."""
    if seconds is None:
        return
    try:
        from .judge.solver_settings import time_limit

        ctx.with_resource(time_limit(seconds))
    except DipsatError as error:
        raise fail(f"--time-limit: {str(error).removeprefix('time limit: ')}") from error


MAX_TURNS = 1_000_000_000
MAX_WORKERS = 256
MAX_TIMEOUT_SECONDS = 86_400.0


def _within(option: str, value: float, low: float, high: float, what: str) -> None:
    """Refuse a numeric option outside low..high (NaN and infinities too), naming the
    option and the range it takes."""
    if not low <= value <= high:  # NaN compares false
        bounds = [f"{x:,}" if isinstance(x, int) else f"{x:,g}" for x in (low, high)]
        found = shown(value) if isinstance(value, int) else f"{value!s:.40}"
        raise fail(f"{option}: expected {what} from {bounds[0]} to {bounds[1]}, found {found}")


def fail(message: str, code: int = 2) -> typer.Exit:
    err.print(message, markup=False)
    return typer.Exit(code)


def _board(name: str | None) -> Board | None:
    """The board --variant names (None: each file's own, else the standard board)."""
    if name is None:
        return None
    try:
        return variant(name)
    except MapDataError as error:
        raise fail(f"--variant: {error}") from error


@app.command()
def parse(
    file: Annotated[str, typer.Argument(help="order file, or - for standard input")] = "-",
    phase: Annotated[
        str | None,
        typer.Option(
            help="movement, retreat or adjustment: in a retreat phase 'A X - Y' is a retreat"
        ),
    ] = None,
    board: VariantOption = None,
) -> None:
    """Print each order in canonical DATC notation, one per line."""
    from .formats.cases import MAX_CASE_FILE_BYTES
    from .values.notation import parse_given

    name = "<stdin>" if file == "-" else file
    try:
        text = read_text(file, MAX_CASE_FILE_BYTES)
    except TextFileError as error:
        raise fail(str(CaseFormatError(error.message, name, error.line, error.column))) from error
    if phase not in (None, "movement", "retreat", "adjustment"):
        raise fail(f"--phase: expected movement, retreat or adjustment, found {phase!r}")
    lines = []
    on = _board(board) or standard()
    for number, line in enumerate(text.splitlines(), start=1):
        body = line.split("#", 1)[0]
        if not body.strip():
            continue
        try:
            lines.append(str(parse_given(body, on, phase=phase)))
        except OrderSyntaxError as error:
            raise fail(f"{name}:{number}:{error.column}: {error.message}") from error
    for line in lines:
        out.print(line, markup=False)


def _load(paths: list[str], board: str | None = None) -> list[Case]:
    """The cases of the files under the paths (a file named twice read once).

    Raises:
        DipsatError: no case is found, or a case id is defined in two files (their reports
            and pages would mix them up), naming both places.
    """
    from .formats.cases import case_files, read_cases

    cases: list[Case] = []
    on = _board(board)
    files = {path.resolve(): path for path in reversed(list(case_files(paths)))}
    for path in sorted(files.values(), key=list(case_files(paths)).index):
        cases += read_cases(path, on)
    if not cases:
        raise DipsatError(f"no cases under {' '.join(paths)}: expected case files (*.cases)")
    seen: dict[str, Case] = {}
    for case in cases:
        first = seen.setdefault(case.id, case)
        if first is not case:
            raise DipsatError(
                f"case {case.id} is defined twice: {first.path}:{first.line} and "
                f"{case.path}:{case.line}"
            )
    return cases


@app.command()
def check(
    ctx: typer.Context,
    paths: Annotated[list[str], typer.Argument(help="case files or folders of *.cases")],
    as_json: Annotated[bool, typer.Option("--json", help="print the report as JSON")] = False,
    rules: RulesOption = None,
    html: HtmlOption = None,
    board: VariantOption = None,
    time_limit: TimeLimitOption = None,
) -> None:
    """Run every case under the paths and report conformance by section."""
    from .exploring.conformance import run

    _solver_time(ctx, time_limit)
    try:
        book = rule_book(rules) if rules else None
        report = run(_load(paths, board), book)
        if html:
            from .exploring.pages import check_page

            _write_page(html, check_page(report, book))
    except (DipsatError, LimitError) as error:
        raise fail(str(error)) from error
    if as_json:
        print(json.dumps(report.as_json(), indent=2, sort_keys=False))
    else:
        table = Table(title="dipsat conformance report")
        table.add_column("section")
        table.add_column("passed", justify="right")
        table.add_column("total", justify="right")
        for section, counts in report.sections().items():
            colour = "green" if counts["passed"] == counts["total"] else "red"
            table.add_row(section, f"[{colour}]{counts['passed']}[/]", str(counts["total"]))
        table.add_row("all", f"[bold]{report.passed}[/]", f"[bold]{report.total}[/]")
        out.print(table)
        for result in report.results:
            for f in result.failures:
                out.print(f"[red]FAIL[/] {f.case}: {f.order}: expected {f.expected}, got {f.got}")
        out.print(f"{report.passed} passed, {report.total - report.passed} failed")
    if report.passed != report.total:
        raise typer.Exit(1)


@app.command()
def adjudicate(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(help="a case file (position and orders)")],
    case: Annotated[str | None, typer.Option("--case", help="the case to adjudicate")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the resolution as JSON")] = False,
    rules: RulesOption = None,
    board: VariantOption = None,
    time_limit: TimeLimitOption = None,
) -> None:
    """Adjudicate one case or position-and-orders file and explain each outcome."""
    from .exploring.explain import explain, render

    _solver_time(ctx, time_limit)
    chosen = [_one_case(file, case, board)]
    try:
        data = explain(chosen[0], rule_book(rules or chosen[0].edition))
    except (DipsatError, LimitError) as error:
        raise fail(f"{file}: {error}") from error
    if as_json:
        print(json.dumps(data, indent=2))
        return
    for line in render(data):
        out.print(line)


@app.command()
def replay(
    ctx: typer.Context,
    files: Annotated[list[str], typer.Argument(help="game files in the MILA JSON format")],
    as_json: Annotated[bool, typer.Option("--json", help="print the report as JSON")] = False,
    rules: GameRulesOption = "2025",
    board: Annotated[
        str | None,
        typer.Option(
            "--variant", help="the board (as for check); by default the map each game names"
        ),
    ] = None,
    workers: Annotated[int, typer.Option(help="local processes to spread the files over")] = 1,
    dask: Annotated[
        str | None, typer.Option(help="a Dask scheduler address to spread them over, or 'local'")
    ] = None,
    time_limit: TimeLimitOption = None,
) -> None:
    """Adjudicate every phase of recorded games and compare with the next recorded state."""
    from .crosschecking.replay import KINDS
    from .crosschecking.replay import replay as replay_games

    _solver_time(ctx, time_limit)  # checks it, and bounds the hint's adjudications here
    try:
        book = rule_book(rules or "2025")
    except DipsatError as error:
        raise fail(str(error)) from error
    _within("--workers", workers, 1, MAX_WORKERS, "a number of processes")
    try:
        report = replay_games(files, book, _board(board), workers, dask, time_limit)
    except DipsatError as error:  # a Dask scheduler that cannot be reached
        raise fail(str(error)) from error
    for problem in report.errors:
        err.print(str(problem), markup=False)
    if as_json:
        print(json.dumps(report.as_json(), indent=2))
    else:
        table = Table(title=f"dipsat replay ({report.games} games, rules {book.name})")
        table.add_column("phase kind")
        table.add_column("matched", justify="right")
        table.add_column("mismatched", justify="right")
        names = {code: kind.value for kind, code in KINDS.items()}
        for code, counts in report.by_kind.items():
            colour = "red" if counts["mismatched"] else "green"
            table.add_row(
                f"{names[code]} ({code})",
                f"[{colour}]{counts['matched']}[/]",
                str(counts["mismatched"]),
            )
        table.add_row("all", f"[bold]{report.matched}[/]", f"[bold]{report.mismatched}[/]")
        out.print(table)
        for m in report.mismatches:
            why = f" ({escape(m.cause)})" if m.cause else ""
            out.print(f"[red]MISMATCH[/] {escape(m.file)}: {m.phase} -> {m.next}{why}")
            if m.note:
                out.print(f"  {m.note}", markup=False)
            for aspect in m.expected:
                for label, items in (("expected", m.expected), ("produced", m.produced)):
                    text = "; ".join(items[aspect]) or "nothing"
                    out.print(f"  {aspect}: {label} {text}", markup=False)
        out.print(
            f"{report.transitions} transitions: {report.matched} matched, "
            f"{report.mismatched} mismatched"
        )
        if report.mismatched and (books := _explaining(report, book, _board(board))):
            cause = report.mismatches[0].cause
            listed = ", ".join(books[:-1]) + (" or " if len(books) > 1 else "") + books[-1]
            out.print(
                f"{report.mismatched} mismatch(es), all {cause}: each matches under "
                f"--rules {listed}. Was the game played under "
                f"{'one of them' if len(books) > 1 else 'it'}?",
                markup=False,
            )
    if report.errors:
        raise typer.Exit(2)
    if report.mismatched:
        raise typer.Exit(1)


def _explaining(report: ReplayReport, rules: RuleBook, board: Board | None) -> list[str]:
    """The rule books that explain a replay's mismatches; none if trying them fails (the
    solver out of time): the hint is left out, the report stands."""
    from .crosschecking.replay import explaining

    try:
        return explaining(report, rules, board)
    except (DipsatError, LimitError):
        return []


@app.command()
def explore(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(help="a case file")],
    case: Annotated[str | None, typer.Option("--case", help="the case to explore")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the cores as JSON")] = False,
    rules: RulesOption = None,
    html: HtmlOption = None,
    board: VariantOption = None,
    time_limit: TimeLimitOption = None,
) -> None:
    """Every consistent resolution of each paradox core, and which one each edition picks."""
    from .exploring.explore import explore_case, report_json

    _solver_time(ctx, time_limit)
    target = _one_case(file, case, board)
    try:
        book = rule_book(rules or target.edition)
        phases = explore_case(target, book)
    except (DipsatError, LimitError) as error:
        raise fail(f"{file}: {error}") from error
    if html:
        from .exploring.pages import explore_page

        try:
            _write_page(html, explore_page(target, book, phases))
        except (DipsatError, LimitError) as error:
            raise fail(str(error)) from error
    if as_json:
        data = [{"phase": name, **report_json(reports)} for name, reports in phases]
        print(json.dumps(data[0] if len(data) == 1 else {"phases": data}, indent=2))
        return
    out.print(f"[bold]{target.id}[/] {target.title}")
    for name, reports in phases:
        out.print(f" {name}: {len(reports)} core(s)")
        for number, r in enumerate(reports, start=1):
            out.print(f"  core {number}: {r.heading}")
            for line in r.lines():
                out.print(f"    {line}")


def _write_page(path: str, page: str) -> None:
    """Write an HTML page and say where (on stderr: the standard output may be JSON)."""
    from .exploring.pages import write_page

    write_page(path, page)
    err.print(f"wrote {path}", markup=False)


def _one_case(file: str, case: str | None, board: str | None = None) -> Case:
    """The case chosen with --case in a case file, or in the case files of a folder (as
    `check` reads them); the only case of a file needs no --case."""
    from .formats.cases import case_files, read_cases

    on = _board(board)
    folder = probe(file) == "folder"
    if folder and case is None:
        raise fail(f"{file}: a folder of case files; choose the case with --case")
    try:
        cases = [c for f in case_files([file]) for c in read_cases(f, on)]
    except DipsatError as error:
        raise fail(str(error) if str(error).startswith(file) else f"{file}: {error}") from error
    if not cases:
        raise fail(f"{file}: holds no case; expected a 'case ID: TITLE' line")
    chosen = [c for c in cases if case is None or c.id == case]
    if not chosen and folder:
        raise fail(f"{file}: no case {case!r} in its {len(set(c.path for c in cases))} case files")
    if not chosen:
        raise fail(f"{file}: no case {case!r}; the file holds " + ", ".join(c.id for c in cases))
    if len(chosen) > 1 and case is not None:
        places = ", ".join(f"{c.path}:{c.line}" for c in chosen)
        raise fail(f"{file}: case {case!r} is defined {len(chosen)} times: {places}")
    if len(chosen) > 1:
        raise fail(f"{file}: holds {len(chosen)} cases; choose one with --case")
    return chosen[0]


@app.command("render")
def render_picture(
    ctx: typer.Context,
    file: Annotated[
        str,
        typer.Argument(
            help="a case file, a saved game (JSON written by `dipsat game new`) or a recorded "
            "game in the MILA JSON format: a file named *.json or whose first non-blank "
            'character is \'{\' is a game (recorded if it has "phases" and no "format"), '
            "any other a case file"
        ),
    ],
    target: Annotated[
        str, typer.Option("--out", help="the picture to write: PATH.svg (SVG) or PATH.png (PNG)")
    ],
    case: Annotated[str | None, typer.Option("--case", help="the case to draw")] = None,
    step: Annotated[
        str | None,
        typer.Option(
            "--step",
            help="the phase to draw, from 1: a case's Nth phase block (default the last), "
            "adjudicated (a multiverse case: the grid after its Nth step); a saved game's Nth "
            "phase played (default the current phase, its orders pending); a recorded game's "
            "Nth phase (default its last). A game's phase may also be named: F1902M",
        ),
    ] = None,
    rules: RulesOption = None,
    whole: Annotated[
        bool,
        typer.Option(
            "--whole", help="draw the whole map, not just the part in play (standard boards)"
        ),
    ] = False,
    board: VariantOption = None,
    time_limit: TimeLimitOption = None,
) -> None:
    """Draw a case, a saved game or a recorded game as an SVG or PNG picture.

    The board, the units, the orders and their outcomes (a multiverse as a grid of
    boards)."""
    _solver_time(ctx, time_limit)
    suffix = Path(target).suffix.lower()
    if suffix not in (".svg", ".png"):
        raise fail(f"{target}: --out must name a .svg or a .png file")
    try:
        svg = _picture(file, case, step, rules, whole, board)
    except (DipsatError, LimitError) as error:
        raise fail(str(error) if str(error).startswith(file) else f"{file}: {error}") from error
    try:
        if suffix == ".svg":
            Path(target).write_text(svg, encoding="utf-8")
        else:
            from .render.svg import write_png

            write_png(svg, target)
    except DipsatError as error:
        raise fail(f"{target}: {error}") from error
    except OSError as error:
        raise fail(f"{target}: cannot write: {error.strerror or error}") from error
    out.print(f"wrote {target}", markup=False)


def _picture(
    file: str,
    case: str | None,
    step: str | None,
    rules: str | None,
    whole: bool,
    board: str | None = None,
) -> str:
    """The SVG text `dipsat render` writes (see its help for what FILE and --step mean)."""
    from .exploring.scenes import pending_scene, played_scene
    from .render.board_drawing import board_svg

    if _is_saved_game(file) and _is_recorded_game(file):
        from .exploring.scenes import recorded_scene
        from .formats.mila import read_game

        recorded = read_game(file, _board(board))
        number = _step_number(file, step, [p.name for p in recorded.phases[:-1]])
        return board_svg(recorded_scene(recorded, number, rule_book(rules or "2025")), whole)
    if _is_saved_game(file):
        from .formats.savegame import SavedMultiverse, load_any

        game = load_any(file)
        if isinstance(game, SavedMultiverse):
            if step is not None:
                raise fail(f"{file}: --step: a multiverse game is drawn whole, all its boards")
            from .render.multiverse_drawing import multiverse_game_svg

            return multiverse_game_svg(game)
        name = Path(file).name
        book = rule_book(rules) if rules else game.rules
        number = _step_number(file, step, [p.position.phase.code for p in game.history])
        if number is None:
            title = f"{name}: {game.position.phase}, orders pending"
            return board_svg(pending_scene(game.position, game.orders, book, title), whole)
        if number > len(game.history):
            raise fail(
                f"{file}: --step {step:.40}: the game has {len(game.history)} phase(s) played"
            )
        past = game.history[number - 1]
        title = f"{name}: phase {number} of {len(game.history)} played"
        scene, _ = played_scene(past.position, past.orders, book, title)
        return board_svg(scene, whole)
    chosen = _one_case(file, case, board)
    book = rule_book(rules or chosen.edition)
    blocks = len(chosen.blocks)
    number = _step_number(file, step, [])
    if number is not None and number > blocks:
        raise fail(f"{file}: --step {step:.40}: case {chosen.id} has {blocks} phase block(s)")
    from .exploring.scenes import case_svg

    return case_svg(chosen, book, number, whole)


def _step_number(file: str, step: str | None, phases: list[str]) -> int | None:
    """--step as a number from 1, or (for a game) the number of the phase it names."""
    if step is None:
        return None
    text = step.strip()
    if re.fullmatch(r"-?[0-9]+", text, re.ASCII):
        number = int(text) if len(text) <= 12 else 10**12  # past any game's end
        if number < 1:
            raise fail(f"{file}: --step {step:.40}: phases are counted from 1")
        return number
    named = [n for n, code in enumerate(phases, start=1) if code.upper() == text.upper()]
    if not named:
        known = (
            f"a number or one of its phases ({phases[0]} ... {phases[-1]})"
            if phases
            else "a number"
        )
        raise fail(f"{file}: --step {shown(step, 40)}: expected {known}")
    return named[0]


def _is_recorded_game(file: str) -> bool:
    """A JSON object with "phases" and no "format" is a recorded game in the MILA format."""
    from .formats.savegame import MAX_SAVE_FILE_BYTES

    try:
        data = parse_json(read_text(file, MAX_SAVE_FILE_BYTES))
    except TextFileError:
        return False  # the saved-game reader reports what is wrong with it
    return isinstance(data, dict) and "phases" in data and "format" not in data


def _is_saved_game(file: str) -> bool:
    """A file named *.json, or whose first non-blank character is '{', is a saved game."""
    if Path(file).suffix.lower() == ".json":
        return True
    try:
        with open(file, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False  # the case reader reports it
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")


@app.command("compare-rules")
def compare_rules(
    ctx: typer.Context,
    first: Annotated[str, typer.Argument(help="a rule book: edition name or TOML file")],
    second: Annotated[str, typer.Argument(help="another rule book")],
    paths: Annotated[list[str], typer.Argument(help="case files or folders")],
    as_json: Annotated[bool, typer.Option("--json", help="print the differences as JSON")] = False,
    html: HtmlOption = None,
    board: VariantOption = None,
    time_limit: TimeLimitOption = None,
) -> None:
    """The cases whose outcomes differ between two rule books: the outcomes that differ, and
    the policies that make them differ (the fewest that, switched from the first rule
    book's values to the second's, turn the one outcome into the other)."""
    from .rulesearch.compare import as_json as as_json_data
    from .rulesearch.compare import compare
    from .rulesearch.compare import lines as compare_lines

    _solver_time(ctx, time_limit)
    try:
        books = rule_book(first), rule_book(second)
        cases = _load(paths, board)
        differences = compare(cases, *books)
        if html:
            from .exploring.pages import compare_page

            _write_page(html, compare_page(cases, *books, differences))
    except (DipsatError, LimitError) as error:
        raise fail(str(error)) from error
    if as_json:
        print(json.dumps({"rules": [first, second], "cases": as_json_data(differences)}, indent=2))
        return
    one, other = (b.name for b in books)  # a rule-book file by its name, not its path
    if differences:
        out.print(f"what {one} and {other} decide differently (under {one} → under {other})")
    for style, line in compare_lines(differences):
        out.print(line, style="bold" if style == "case" else None, markup=False)
    out.print(f"{len(differences)} case(s) differ between {one} and {other}")


@app.command()
def crosscheck(
    ctx: typer.Context,
    against: Annotated[str, typer.Option(help="mila, pydip, or a command speaking the protocol")],
    turns: Annotated[int, typer.Option(help="random turns to generate")] = 1000,
    seed: Annotated[int, typer.Option(help="seed of the random turns")] = 1,
    workers: Annotated[int, typer.Option(help="local processes")] = 1,
    dask: Annotated[str | None, typer.Option(help="a Dask scheduler address, or 'local'")] = None,
    source: Annotated[
        list[str] | None,
        typer.Option("--from", help="case files or game files to check instead of random turns"),
    ] = None,
    out: Annotated[str | None, typer.Option(help="folder for the minimal cases")] = None,
    timeout: Annotated[
        float, typer.Option(metavar="SECONDS", help="seconds the program has for each reply")
    ] = 10.0,
    startup: Annotated[
        float,
        typer.Option(
            "--startup-timeout",
            metavar="SECONDS",
            help="seconds the program has for its first reply after it starts, when it loads "
            "its engine and map (600 by default; never less than --timeout)",
        ),
    ] = STARTUP_SECONDS,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
    board: Annotated[
        str,
        typer.Option(
            "--variant",
            help="the board of the random turns (standard, a shipped variant, a map file); "
            "for mila, a map MILA knows by that name",
        ),
    ] = "standard",
    rules: GameRulesOption = "2025",
    time_limit: TimeLimitOption = None,
) -> None:
    """Run another adjudicator side by side with dipsat and shrink each disagreement.

    Exits with status 1 when the engines disagree on a board (units, dislodgements,
    retreat options), 0 when they agree or differ only in what they call a result, 2 when
    no turn could be compared or the program cannot be started, 130 when interrupted
    (Ctrl-C: the summary is of the turns compared before)."""
    from rich.progress import Progress

    from .crosschecking.campaign import campaign, check_turns, recorded_turns, write_cases
    from .crosschecking.engines import command_line

    _solver_time(ctx, time_limit)
    if not source:
        _within("--turns", turns, 1, MAX_TURNS, "a number of turns")
    _within("--workers", workers, 1, MAX_WORKERS, "a number of processes")
    _within("--timeout", timeout, 0.001, MAX_TIMEOUT_SECONDS, "seconds")
    _within("--startup-timeout", startup, 0.001, MAX_TIMEOUT_SECONDS, "seconds")
    if out:
        try:  # before the campaign: a folder that cannot be made would lose its cases
            Path(out).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise fail(f"--out {out}: cannot make the folder: {error.strerror or error}") from error
    if against != "dipsat":
        try:
            command_line(against)
        except DipsatError as error:
            raise fail(f"--against: {error}") from error
    try:
        book = rule_book(rules or "2025")
        with Progress(console=err, disable=as_json) as bar:
            if source:
                chosen = recorded_turns(source, _board(board) if board != "standard" else None)
                task = bar.add_task(f"against {against}", total=len(chosen))
                summary = check_turns(
                    against, chosen, timeout, rules=book, time_limit=time_limit, startup=startup
                )
                bar.update(task, completed=len(chosen))
            else:
                task = bar.add_task(f"against {against}", total=turns)
                summary = campaign(
                    against,
                    turns,
                    seed,
                    workers,
                    dask,
                    timeout,
                    progress=lambda n: bar.advance(task, n),
                    board=board,
                    rules=book,
                    time_limit=time_limit,
                    startup=startup,
                )
    except (DipsatError, LimitError, MapDataError) as error:
        raise fail(str(error)) from error
    except KeyboardInterrupt:  # before any turn was compared
        raise fail("interrupted", 130) from None
    try:
        written = write_cases(summary, Path(out)) if out else []
    except OSError as error:
        raise fail(f"--out {out}: cannot write the cases: {error.strerror or error}") from error
    if as_json:
        data = {**summary.as_json(), "rules": book.name, "written": [str(p) for p in written]}
        print(json.dumps(data, indent=2))
    else:
        table = Table(title=f"dipsat (rules {book.name}) against {against}")
        table.add_column("disagreement")
        table.add_column("board", justify="right")
        table.add_column("label only", justify="right")
        for label, count in sorted(summary.classes.items()):
            table.add_row(label, str(summary.boards[label]), str(count - summary.boards[label]))
        console = Console(highlight=False, soft_wrap=True)
        console.print(table)
        console.print(
            f"{summary.turns} turns: {summary.agreed} agree, "
            f"{sum(summary.classes.values())} disagree ({summary.board_disagreements} on the "
            f"board, {summary.label_disagreements} in labels only), {summary.skipped} skipped"
        )
        for path in written:
            console.print(f"wrote {path}")
        for line in summary.errors[:5]:
            console.print(line, style="dim", markup=False)
    if summary.interrupted:
        raise fail(f"interrupted after {summary.turns} turn(s); the summary is of those", 130)
    if not summary.compared:
        why = "every request failed" if summary.turns else "there was no turn to compare"
        raise fail(f"no turn was compared: {why}", 2)
    if summary.board_disagreements:
        raise typer.Exit(1)


game_app = typer.Typer(
    no_args_is_help=True, help="Play a standard or a multiverse game kept in a JSON file."
)
app.add_typer(game_app, name="game")
GameFile = Annotated[str, typer.Argument(help="the saved game (JSON)")]


@game_app.command("new")
def game_new(
    file: GameFile,
    rules: Annotated[
        str,
        typer.Option(
            "--rules",
            help="rule book: an edition name, or a TOML file (the game keeps its policies)",
        ),
    ] = "2025",
    multiverse: Annotated[
        bool,
        typer.Option("--multiverse", help="a 5D game: timeline a at the opening of the board"),
    ] = False,
    board: Annotated[
        str | None,
        typer.Option(
            "--variant",
            help="the board (standard by default): a shipped variant, a map file NAME.toml, "
            "a MILA map NAME.map or mila:NAME; the game keeps its name or file",
        ),
    ] = None,
) -> None:
    """Start a game at the opening position of a board and save it to FILE (never over a
    file that exists)."""
    from .formats.savegame import SavedGame, create, new_game, new_multiverse

    on = _board(board)
    try:
        game = new_multiverse(rules, on) if multiverse else new_game(rules, on)
        create(game, file)  # refuses a file that exists, even one made a moment ago
    except DipsatError as error:
        raise fail(str(error)) from error
    except OSError as error:
        raise fail(f"{file}: cannot write: {error.strerror or error}") from error
    kind = "multiverse game" if multiverse else "game"
    opening = game.position if isinstance(game, SavedGame) else game.multiverse.boards[0].position
    where = "" if on is None or on is standard() else f" on {on.name}"
    out.print(f"{file}: new {kind}{where}, rules {game.rules.name}, {opening.phase}", markup=False)


@game_app.command("order")
def game_order(
    file: GameFile,
    orders: Annotated[list[str], typer.Argument(help="orders such as 'England: F LON - NTH'")],
) -> None:
    """Submit orders for the current phase; each order with a problem is reported and left
    out, the others are kept (exit status 1 when some were left out)."""
    from .formats.savegame import changing

    try:
        with changing(file) as change:  # no other command changes the game meanwhile
            game, problems = change.game.submit(orders)
            if game != change.game:
                change.save(game)
    except DipsatError as error:
        raise fail(str(error)) from error
    except OSError as error:
        raise fail(f"{file}: cannot write: {error.strerror or error}") from error
    for text, problem in problems:
        err.print(f"{file}: {text!r}: {problem}", markup=False)
    out.print(f"{len(orders) - len(problems)} of {len(orders)} order(s) accepted", markup=False)
    if problems:
        raise typer.Exit(1)


@game_app.command("withdraw")
def game_withdraw(
    file: GameFile,
    powers: Annotated[
        list[str] | None,
        typer.Argument(help="the powers whose orders go; every power's when none is named"),
    ] = None,
) -> None:
    """Withdraw the orders submitted for the current phase: some powers', or all."""
    from .formats.savegame import changing, withdrawn

    try:
        with changing(file) as change:  # no other command changes the game meanwhile
            game, count = withdrawn(change.game, powers or ())
            if count:
                change.save(game)
    except DipsatError as error:
        raise fail(str(error)) from error
    except OSError as error:
        raise fail(f"{file}: cannot write: {error.strerror or error}") from error
    out.print(f"{count} order(s) withdrawn", markup=False)


@game_app.command("adjudicate")
def game_adjudicate(ctx: typer.Context, file: GameFile, time_limit: TimeLimitOption = None) -> None:
    """Adjudicate the current phase with the orders submitted and save the next phase."""
    _solver_time(ctx, time_limit)
    from .errors import SaveFileError
    from .formats.savegame import changing

    try:
        with changing(file) as change:  # an order given meanwhile waits, and is kept
            game, lines = change.game.adjudicated()
            change.save(game)
    except SaveFileError as error:
        raise fail(str(error)) from error
    except (DipsatError, LimitError) as error:  # not adjudicated: the file is as it was
        raise fail(f"{file}: {error}") from error
    except OSError as error:
        raise fail(f"{file}: cannot write: {error.strerror or error}") from error
    for line in lines:
        out.print(line, markup=False)


@game_app.command("show")
def game_show(file: GameFile) -> None:
    """Print the phase, the units, the centres and the orders submitted so far."""
    from .formats.savegame import load_any

    try:
        game = load_any(file)
    except DipsatError as error:
        raise fail(str(error)) from error
    for line in game.lines():
        out.print(line, markup=False)


variant_app = typer.Typer(no_args_is_help=True, help="Boards other than the standard one.")
app.add_typer(variant_app, name="variant")


@variant_app.command("import")
def variant_import(
    source: Annotated[
        str,
        typer.Argument(help="a MILA map file (FILE.map), or the name of a map of MILA's package"),
    ],
    target: Annotated[str, typer.Option("--out", help="the board file to write (X.toml)")],
) -> None:
    """Convert a MILA map to dipsat's board format, check that the board loads, and write
    it (a fault of the map is reported as FILE:LINE, exit status 1)."""
    from topology.loader import board_from_text
    from topology.milamap import mila_map_text

    try:
        text = mila_map_text(source)
        board = board_from_text(text, target)
        Path(target).write_text(text, encoding="utf-8")
    except MapDataError as error:
        raise fail(str(error), 1) from error
    except OSError as error:
        raise fail(f"{target}: cannot write: {error.strerror or error}", 1) from error
    out.print(
        f"{target}: board {board.name!r}, {len(board.provinces)} provinces, "
        f"{len(board.powers)} powers, {len(board.centres)} supply centres",
        markup=False,
    )


@variant_app.command("list")
def variant_list() -> None:
    """The boards --variant knows by name: each with its provinces, powers, centres and the
    count that wins."""
    table = Table(title="dipsat variants")
    for column in ("variant", "provinces", "powers", "centres", "victory", "first year", "builds"):
        first = column == "variant"
        table.add_column(column, justify="left" if first else "right", no_wrap=first)
    for name in variant_names():
        board = variant(name)
        table.add_row(
            name,
            str(len(board.provinces)),
            str(len(board.powers)),
            str(len(board.centres)),
            str(board.victory),
            str(board.start_year),
            board.builds.value,
        )
    out.print(table)


rulebooks_app = typer.Typer(
    no_args_is_help=True,
    help="Search over rule books: which policies decide a case, which rule books give an "
    "outcome, which rule book a site's games were played under.",
)
app.add_typer(rulebooks_app, name="rulebooks")
HoldOption = Annotated[
    list[str] | None,
    typer.Option(
        "--hold",
        metavar="POLICY",
        help="keep this policy at the base rule book's value instead of searching it "
        "(repeat it for several): fewer runs, for cases that read many policies",
    ),
]
BaseOption = Annotated[
    str,
    typer.Option(
        "--rules",
        help=f"the base {BOOKS_HELP}: the values of the policies held still; 2025 by default",
    ),
]


def _search_base(rules: str) -> RuleBook:
    """The base of a search: a named rule book, or the user's own file called by its file
    name, under which the search lists it among the rule books it finds."""
    book = rule_book(rules)
    return book if rules in RULE_BOOKS else replace(book, name=Path(rules).name)


def _show(as_json: bool, data: Callable[[], Any], lines: list[str]) -> None:
    """A search's result: as JSON, or as its lines of text."""
    if as_json:
        print(json.dumps(data(), indent=2))
        return
    for line in lines:
        out.print(line, markup=False)


@rulebooks_app.command("influence")
def rulebooks_influence(
    ctx: typer.Context,
    paths: Annotated[list[str], typer.Argument(help="case files or folders")],
    case: Annotated[str | None, typer.Option(help="only this case")] = None,
    rules: BaseOption = "2025",
    hold: HoldOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
    board: VariantOption = None,
    time_limit: TimeLimitOption = None,
) -> None:
    """The policies that decide each case, and what their values give.

    For each case, the policies whose value changes some outcome: what each one's values
    give (the others as in the base rule book), and where policies interact, what their
    values give together; then the cases each policy decides."""
    from .rulesearch.influence import influence
    from .rulesearch.report import influence_json, influence_lines

    _solver_time(ctx, time_limit)
    try:
        book = _search_base(rules)
        cases = [_one_case(paths[0], case, board)] if case else _load(paths, board)
        found = [influence(c, book, hold or ()) for c in cases]
    except (DipsatError, LimitError) as error:
        raise fail(str(error)) from error
    _show(
        as_json,
        lambda: {"rules": book.name, "cases": influence_json(found)},
        influence_lines(found),
    )


@rulebooks_app.command("solve")
def rulebooks_solve(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(help="a case file, or a folder of them")],
    expect: Annotated[
        list[str],
        typer.Option(
            help="an outcome the rule books must give: 'ORDER => OUTCOME', as case files "
            "write it ('paradox => unresolved' too); repeat it for several",
        ),
    ],
    case: Annotated[
        str | None, typer.Option(help="the case (needed when there are several)")
    ] = None,
    rules: BaseOption = "2025",
    hold: HoldOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
    board: VariantOption = None,
    time_limit: TimeLimitOption = None,
) -> None:
    """The rule books under which a case's expected outcomes all hold.

    Every combination of the policies the case reads under which all the expected
    outcomes hold, described compactly, and the named rule books among them."""
    from .rulesearch.report import solution_json, solution_lines
    from .rulesearch.solve import solve

    _solver_time(ctx, time_limit)
    chosen = _one_case(file, case, board)
    try:
        solution = solve(chosen, expect, _search_base(rules), hold or ())
    except (DipsatError, LimitError) as error:
        raise fail(str(error)) from error
    _show(as_json, lambda: solution_json(solution), solution_lines(solution))


@rulebooks_app.command("fit")
def rulebooks_fit(
    ctx: typer.Context,
    files: Annotated[list[str], typer.Argument(help="game files in the MILA JSON format")],
    rules: BaseOption = "2025",
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
    board: VariantOption = None,
    time_limit: TimeLimitOption = None,
) -> None:
    """The rule book a site's recorded games were played under.

    The rule books under which the games replay with the fewest mismatches: the policies
    the games pin down, those no transition depends on, and the transitions that no rule
    book explains."""
    from .rulesearch.fit import fit
    from .rulesearch.report import fit_json, fit_lines

    _solver_time(ctx, time_limit)
    try:
        found = fit(files, _search_base(rules), _board(board))
    except (DipsatError, LimitError) as error:
        raise fail(str(error)) from error
    for problem in found.errors:
        err.print(f"cannot read: {problem}", markup=False)
    if not found.games:
        raise fail("no game could be read: nothing to fit")
    _show(as_json, lambda: fit_json(found), fit_lines(found))


def _reflow_help(group: typer.Typer) -> None:
    """Hand typer each command's docstring as paragraphs of one line each.

    Docstrings are wrapped at the source's width, and typer's rich help keeps a single line
    break where it stands: a summary such as `dipsat game --help` shows broke mid-sentence at
    every terminal width. Joined, each paragraph is wrapped by rich to the terminal."""
    for command in group.registered_commands:
        if command.help is None and command.callback is not None:
            command.help = _paragraphs(command.callback.__doc__ or "")
    if isinstance(group.info.help, str):
        group.info.help = _paragraphs(group.info.help)
    for sub in group.registered_groups:
        if sub.typer_instance is not None:
            _reflow_help(sub.typer_instance)


def _paragraphs(text: str) -> str:
    """The text with each paragraph (blank-line separated) on one line."""
    blocks = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(block.split()) for block in blocks)


_reflow_help(app)


def main() -> None:
    try:
        app()
    except StaleBuildError as error:  # a compiled module edited after the build: never run
        err.print(escape(f"dipsat: {error}"))
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
