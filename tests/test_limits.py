"""Bounded inputs: oversized input and a solver out of time are errors that say so."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import dipsat, slow
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import CaseFormatError, DipsatError, OrderSyntaxError, SaveFileError
from solver.formats.cases import MAX_CASE_FILE_BYTES, read_cases
from solver.judge.movement import adjudicate
from solver.judge.solver_settings import SolverConfig, SolverTimeout
from solver.multiverse.state import MBoard, Multiverse
from solver.multiverse.step import MAX_TIMELINES, step
from solver.values.notation import MAX_ORDER_CHARS, parse_given
from solver.values.position import SPRING_1901, Position
from topology import standard

CASES = Path(__file__).parent.parent / "cases" / "datc"


def test_an_order_longer_than_the_limit_is_refused_with_its_length() -> None:
    text = "A Munich - " + "Ruhr " * MAX_ORDER_CHARS
    with pytest.raises(OrderSyntaxError, match=f"at most {MAX_ORDER_CHARS} characters"):
        parse_given(text, standard())
    assert (
        parse_given("A Munich - Ruhr", standard()).order is not None
    )  # ordinary orders still read


def test_a_case_file_over_the_size_limit_is_not_read(tmp_path: Path) -> None:
    big = tmp_path / "big.cases"
    big.write_bytes(b"#" * (MAX_CASE_FILE_BYTES + 1))
    with pytest.raises(CaseFormatError, match="at most") as caught:
        read_cases(big)
    assert str(big) in str(caught.value)


def test_a_multiverse_with_too_many_timelines_is_refused() -> None:
    board = Position(SPRING_1901, board=standard())
    boards = tuple(MBoard(t, 0, board) for t in range(MAX_TIMELINES + 1))
    origins = tuple((t, None if t == 0 else (0, 0)) for t in range(MAX_TIMELINES + 1))
    with pytest.raises(DipsatError, match=f"at most {MAX_TIMELINES} timelines"):
        step(Multiverse(boards, origins), [])


def test_a_solver_out_of_time_is_an_error_not_a_guess() -> None:
    """6.F.14 needs the solver (a convoy paradox core): with no time it must not answer."""
    (case,) = [c for c in read_cases(CASES / "6F.cases") if c.id.endswith("6.F.14")]
    orders = [o.given for o in case.movement.orders]
    with pytest.raises(SolverTimeout, match="time limit"):
        adjudicate(case.position, orders, config=SolverConfig(max_time_in_seconds=0.0))
    assert adjudicate(case.position, orders).cores  # with time, it is settled


@slow
def test_a_solver_out_of_time_is_no_bad_value_and_never_an_outcome() -> None:
    """Issue 29: `SolverTimeout` was a `ValueError` through `DipsatError`, so what treats
    bad input one way took a time-out for it: `rulebooks influence` listed "error: the
    solver reached its time limit" as an outcome that convoy_cut and brannan decide, and
    `rulebooks solve` said the case had no outcome 'paradox'. A time-out is a
    `LimitError`, not a `DipsatError`: the search stops, saying so."""
    import solver
    from solver.errors import LimitError

    assert SolverTimeout is solver.SolverTimeout  # solver.judge.solver_settings re-exports it
    assert issubclass(SolverTimeout, LimitError)
    assert not issubclass(SolverTimeout, ValueError)
    (case,) = [c for c in read_cases(CASES / "6F.cases") if c.id.endswith("6.F.14")]
    for search in (
        lambda: solver.influence(case),
        lambda: solver.solve_rules(case, "paradox => unresolved"),
    ):
        with solver.time_limit(1e-9), pytest.raises(SolverTimeout, match="time limit"):
            search()
    result = dipsat(
        "rulebooks",
        "influence",
        str(CASES / "6F.cases"),
        "--case",
        "6.F.14",
        "--time-limit",
        "1e-9",
    )
    out_of_time = "the solver reached its time limit (1e-09 s) before settling the turn\n"
    assert (result.returncode, result.stdout, result.stderr) == (2, "", out_of_time)


def test_a_saved_game_over_the_size_limit_is_not_read(tmp_path: Path, monkeypatch) -> None:
    import solver.formats.savegame as savegame
    import solver.formats.savegame.envelope as envelope

    monkeypatch.setattr(envelope, "MAX_SAVE_FILE_BYTES", 1000)
    path = tmp_path / "game.json"
    savegame.save(savegame.new_game(), path)
    assert path.stat().st_size > 1000
    with pytest.raises(SaveFileError, match="larger than 1,000 bytes") as caught:
        savegame.load(path)
    assert str(path) in str(caught.value)


def test_an_oversized_reply_from_another_adjudicator_is_refused() -> None:
    from solver.crosschecking.protocol import MAX_REPLY_BYTES, ProtocolError, read_reply

    line = '{"id": "t1", "padding": "' + "x" * MAX_REPLY_BYTES + '"}'
    with pytest.raises(ProtocolError, match=f"reply longer than {MAX_REPLY_BYTES:,} bytes"):
        read_reply(line, "t1")


@pytest.mark.parametrize("line", ['{"id": ' + "1" * 5000 + "}", "[" * 100_000])
def test_a_reply_python_cannot_parse_is_a_protocol_error(line: str) -> None:
    from solver.crosschecking.protocol import ProtocolError, read_reply

    with pytest.raises(ProtocolError, match="expected a JSON object"):
        read_reply(line, "t1")


def test_a_phase_of_more_orders_than_the_limit_is_refused_at_that_line(tmp_path: Path) -> None:
    """100,000 copies of one order took seconds to read before their refusal; the bound
    stops reading at the first order past it (a repeated order is legal: DATC 6.I.7)."""
    from solver.formats.cases import MAX_ORDERS_PER_PHASE

    many = tmp_path / "many.cases"
    many.write_text("case X.1: t\nEngland:\n" + "F London - North Sea\n" * 100_000)
    with pytest.raises(CaseFormatError) as caught:
        read_cases(many)
    line = 3 + MAX_ORDERS_PER_PHASE
    assert str(caught.value) == f"{many}:{line}:1: more than 10,000 orders in one phase"
    many.write_text("case X.1: t\nEngland:\n" + "F London - North Sea => fails\n" * 3)
    assert len(read_cases(many)[0].movement.orders) == 3  # below the bound, all are kept


def test_a_year_past_the_last_is_refused_and_the_last_year_reads_back() -> None:
    from solver.values.position import MAX_YEAR, Phase, PhaseKind, Season

    last = Phase(MAX_YEAR, Season.FALL, PhaseKind.RETREAT)
    assert Phase.parse(last.code) == last == Phase.parse(str(last))
    assert Phase.parse(Phase(7, Season.SPRING, PhaseKind.MOVEMENT).code).year == 7
    for year in (0, MAX_YEAR + 1, 10**23):
        with pytest.raises(DipsatError, match=f"a year from 1 to {MAX_YEAR}"):
            Phase(year, Season.SPRING, PhaseKind.MOVEMENT)
    for text in ("S10000M", "Spring 100000000000000000000000 movement", "S١٩٠١M"):
        with pytest.raises(DipsatError):
            Phase.parse(text)


def test_a_time_limit_block_bounds_the_solver_and_refuses_odd_values() -> None:
    import solver

    (case,) = [c for c in read_cases(CASES / "6F.cases") if c.id.endswith("6.F.14")]
    orders = [o.given for o in case.movement.orders]
    with solver.time_limit(1e-9), pytest.raises(SolverTimeout, match=r"time limit \(1e-09 s\)"):
        solver.adjudicate(case.position, orders)
    assert solver.adjudicate(case.position, orders).cores  # the block ended: 10 s again
    for odd in (float("nan"), float("inf"), 0, -1.0, 10**400, -(10**5000)):
        with pytest.raises(DipsatError, match="time limit: expected"), solver.time_limit(odd):
            pass
    for wrong in ("5", True, None, b"5", [5]):
        with pytest.raises(TypeError, match="seconds: expected a number"), solver.time_limit(wrong):
            pass


ABSURD = [
    ("--turns", "1" + "0" * 30, "--turns: expected a number of turns from 1 to 1,000,000,000"),
    ("--turns", "0", "--turns: expected a number of turns from 1 to 1,000,000,000, found 0"),
    ("--workers", "0", "--workers: expected a number of processes from 1 to 256, found 0"),
    ("--workers", "100000", "--workers: expected a number of processes from 1 to 256"),
    ("--timeout", "nan", "--timeout: expected seconds from 0.001 to 86,400, found nan"),
    ("--timeout", "inf", "--timeout: expected seconds from 0.001 to 86,400, found inf"),
    ("--timeout", "-1", "--timeout: expected seconds from 0.001 to 86,400, found -1.0"),
    ("--timeout", "0", "--timeout: expected seconds from 0.001 to 86,400, found 0.0"),
    ("--startup-timeout", "nan", "--startup-timeout: expected seconds from 0.001 to 86,400"),
    ("--startup-timeout", "1e9", "--startup-timeout: expected seconds from 0.001 to 86,400"),
]


@pytest.mark.parametrize(("option", "value", "message"), ABSURD)
def test_absurd_option_values_of_crosscheck_and_replay_are_refused_naming_the_range(
    option: str, value: str, message: str
) -> None:
    """--turns 10**30 ran out of memory making its chunks; NaN or no time-out was taken."""
    from typer.testing import CliRunner

    from solver.cli import app

    runs = [["crosscheck", "--against", "dipsat", option, value]]
    if option == "--workers":
        runs.append(["replay", option, value, "tests/data/games/game_433761_ENGLAND_AG.json"])
    for args in runs:
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2 and result.stderr.startswith(message), result.output
        assert result.stdout == ""


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(st.floats(), st.integers(min_value=-(10**40), max_value=10**40)),
    st.sampled_from([(1, 1_000, "turns"), (0.001, 86_400.0, "seconds")]),
)
def test_a_numeric_option_is_taken_exactly_within_its_range(
    value: float, bounds: tuple[float, float, str]
) -> None:
    """Any number, NaN and the infinities included: within the range it is taken, outside
    it refused with the option and the range named, exit status 2."""
    import contextlib
    import io

    import typer

    from solver.cli import _within

    low, high, what = bounds
    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said):
            _within("--x", value, low, high, what)
    except typer.Exit as refused:
        assert refused.exit_code == 2 and not low <= value <= high
        assert said.getvalue().startswith(f"--x: expected {what} from ")
    else:
        assert low <= value <= high and not said.getvalue()


def test_turns_are_made_as_they_are_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A campaign of 10**30 turns starts at once: its chunks are made one by one (all of
    them were made first, a MemoryError), and it stops where its reader stops."""
    from solver.crosschecking.campaign import campaign

    class Enough(Exception):
        pass

    seen: list[int] = []

    def progress(turns: int) -> None:
        seen.append(turns)
        if len(seen) == 2:
            raise Enough

    with pytest.raises(Enough):
        campaign("dipsat", 10**30, seed=1, chunk=2, progress=progress)
    assert seen == [2, 2]


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=60), st.integers(min_value=1, max_value=8))
def test_jobs_are_submitted_a_window_ahead_and_read_in_order(jobs: int, ahead: int) -> None:
    """However many jobs and however wide the window: the results come in the jobs' order,
    and never more than `ahead` jobs are submitted and not yet read."""
    from solver.workers import _in_order

    class Done:
        def __init__(self, value: int) -> None:
            self.value = value

        def result(self) -> int:
            return self.value

    submitted: list[int] = []
    read: list[int] = []

    def submit(job: int) -> Done:
        submitted.append(job)
        assert len(submitted) - len(read) <= ahead
        return Done(job * job)

    for value in _in_order(submit, iter(range(jobs)), ahead):
        read.append(value)
    assert read == [j * j for j in range(jobs)]


def test_endless_jobs_spread_over_processes_give_their_first_results() -> None:
    from itertools import count, islice

    from solver.workers import spread

    results = spread(abs, (-n for n in count()), workers=2)
    assert list(islice(results, 5)) == [0, 1, 2, 3, 4]
    results.close()  # the workers are stopped


def test_a_dask_scheduler_that_does_not_answer_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nothing listens there: a DipsatError saying so after the connect time-out (a
    traceback after 30 s before)."""
    import solver.workers as workers
    from solver.crosschecking.campaign import campaign

    monkeypatch.setattr(workers, "DASK_CONNECT_SECONDS", 0.2)
    with pytest.raises(
        DipsatError, match=r"cannot connect to a Dask scheduler at tcp://127\.0\.0\.1:1"
    ):
        campaign("dipsat", 2, seed=1, dask="tcp://127.0.0.1:1")


def test_an_out_folder_that_cannot_be_made_is_refused_before_the_campaign(
    tmp_path: Path,
) -> None:
    from typer.testing import CliRunner

    from solver.cli import app

    (tmp_path / "file").write_text("")
    target = tmp_path / "file" / "cases"
    result = CliRunner().invoke(
        app, ["crosscheck", "--against", "dipsat", "--turns", "5", "--out", str(target)]
    )
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"--out {target}: cannot make the folder: Not a directory\n"
