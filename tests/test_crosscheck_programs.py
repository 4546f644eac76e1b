"""External adjudicators that misbehave: each is a small Python program written into
tmp_path, run behind the protocol as `dipsat crosscheck --against` runs it."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

import pytest
from conftest import dipsat, slow
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from solver.cli import app
from solver.crosschecking.campaign import check_turns
from solver.crosschecking.engines import (
    ExternalEngine,
    ProgramError,
    StderrTail,
    command_line,
    read_line,
)
from solver.crosschecking.generate import random_turn, random_turns
from solver.crosschecking.protocol import ProtocolError

PREAMBLE = """\
import json, os, sys
def answer(request):
    reply = {"id": request["id"], "results": {}, "dislodged": {}, "units": {}}
    print(json.dumps(reply), flush=True)
"""


def program(tmp_path: Path, body: str, name: str = "judge.py") -> list[str]:
    """The command line of a Python program made of PREAMBLE and `body`."""
    path = tmp_path / name
    path.write_text(PREAMBLE + body, encoding="utf-8")
    return [sys.executable, str(path)]


def cli(*args: str) -> Result:
    """`dipsat ARGS` run in this process (quicker than a new one for a usage error)."""
    return CliRunner().invoke(app, list(args))


def ask(engine: ExternalEngine, request_id: str = "a") -> dict[str, object]:
    position, orders = random_turn("x")
    return engine.adjudicate(request_id, position, orders)


def first_error(command: list[str], seconds: float) -> str:
    """The error of the first request to a program given `seconds` to start and to reply."""
    engine = ExternalEngine(command, timeout=seconds, startup=seconds)
    try:
        return str(ask(engine)["error"])
    finally:
        engine.close()


def test_a_program_writing_much_on_stderr_is_not_blocked_and_its_last_lines_are_quoted(
    tmp_path: Path,
) -> None:
    """Megabytes on stderr (a pipe holds 64 KB) before each reply: the replies still come;
    when it then dies, the error quotes the last lines it wrote."""
    command = program(
        tmp_path,
        "for number, line in enumerate(sys.stdin):\n"
        "    sys.stderr.write('noise ' * 200_000 + '\\n')\n"
        "    if number == 2:\n"
        "        sys.stderr.write('parsing the map\\nout of coffee\\n')\n"
        "        sys.exit(3)\n"
        "    answer(json.loads(line))\n",
    )
    engine = ExternalEngine(command, timeout=5.0, startup=5.0)
    try:
        assert "error" not in ask(engine, "a")
        assert "error" not in ask(engine, "b")
        error = str(ask(engine, "c")["error"])
    finally:
        engine.close()
    assert "exited (3)" in error
    assert error.endswith("noise | parsing the map | out of coffee"), error[-200:]
    assert len(error) < len(" ".join(command)) + 1100  # the tail quoted, not the megabytes


def test_a_program_that_hangs_is_quoted_too(tmp_path: Path) -> None:
    command = program(
        tmp_path,
        "sys.stderr.write('waiting for a licence server\\n')\nimport time\ntime.sleep(60)\n",
    )
    error = first_error(command, 0.5)
    assert "gave no reply within 0.5 s" in error
    assert error.endswith("stderr: waiting for a licence server")


@settings(max_examples=200, deadline=None)
@given(
    chunks=st.lists(st.binary(max_size=300), max_size=30),
    limit=st.integers(min_value=1, max_value=500),
)
def test_the_stderr_tail_is_the_last_bytes_whatever_the_chunks(
    chunks: list[bytes], limit: int
) -> None:
    """However the stream is cut into reads, what is kept is its last `limit` bytes, and
    the lines quoted are the last ones of those, within the character bound."""
    tail = StderrTail(limit)
    for chunk in chunks:
        tail.feed(chunk)
    whole = b"".join(chunks)
    assert bytes(tail.data) == whole[-limit:]
    quoted = tail.last_lines(count=3, chars=80)
    assert len(quoted) <= 83
    kept = [x.strip() for x in whole[-limit:].decode(errors="replace").splitlines() if x.strip()]
    assert quoted.removeprefix("...") == " | ".join(kept[-3:])[-80:]


def test_a_reply_line_without_end_is_refused_at_the_bound_not_timed_out(tmp_path: Path) -> None:
    """100 MB without a newline used to be read whole (244 MB of memory), then reported as
    a time-out: reading now stops past MAX_REPLY_BYTES and says why."""
    command = program(
        tmp_path,
        "sys.stdin.readline()\n"
        "block = 'x' * 1_000_000\n"
        "for _ in range(100):\n"
        "    sys.stdout.write(block)\n"
        "sys.stdout.flush()\n"
        "import time\ntime.sleep(60)\n",
    )
    error = first_error(command, 30.0)
    assert "gave a malformed reply: reply longer than 1,000,000 bytes" in error


@settings(max_examples=100, deadline=None)
@given(
    size=st.integers(min_value=0, max_value=3000),
    newline=st.booleans(),
    limit=st.integers(min_value=0, max_value=1500),
)
def test_a_line_is_read_whole_or_refused_by_its_length_alone(
    size: int, newline: bool, limit: int
) -> None:
    """A line of `size` bytes: longer than the bound is "reply longer than", whether or not
    it ever ends; within it, the line itself, or the end of the stream if it has no newline."""
    reading, writing = os.pipe()
    os.write(writing, b"y" * size + (b"\nnext" if newline else b""))
    os.close(writing)
    with os.fdopen(reading, "rb") as stream:
        os.set_blocking(reading, False)
        try:
            line, rest = read_line(stream, b"", 5.0, limit)
        except ProtocolError as error:
            assert size > limit and str(error) == f"reply longer than {limit:,} bytes"
        except EOFError:
            assert size <= limit and not newline
        else:
            assert size <= limit and newline and (line, rest) == (b"y" * size, b"next")


@pytest.mark.parametrize(
    ("against", "message"),
    [
        ("/nonexistent/prog", "cannot start '/nonexistent/prog': no such executable program"),
        ("", "expected a command, found ''"),
        ("'x", '"\'x": no closing quotation'),
        ("{tmp}/judge.py --fast", "cannot start '{tmp}/judge.py': no such executable program"),
    ],
)
def test_a_command_that_cannot_be_run_is_a_usage_error_before_any_turn(
    tmp_path: Path, against: str, message: str
) -> None:
    """It used to give "0 agree, 0 disagree, 3 skipped" and exit 0 (an empty command, an
    IndexError; an unclosed quote, a ValueError)."""
    (tmp_path / "judge.py").write_text("print('not executable')\n")  # no x bit
    against, message = (text.replace("{tmp}", str(tmp_path)) for text in (against, message))
    result = cli("crosscheck", "--against", against, "--turns", "3")
    assert (result.exit_code, result.stderr, result.stdout) == (2, f"--against: {message}\n", "")


@slow
def test_a_program_the_system_cannot_execute_stops_the_run_at_its_first_turn(
    tmp_path: Path,
) -> None:
    """Executable but no program (no #! line): found, but starting it fails, which every
    later start would too: an error, not one skipped turn after another."""
    judge = tmp_path / "judge"
    judge.write_text("not a program\n")
    judge.chmod(0o755)
    with pytest.raises(ProgramError, match=f"cannot start {judge}: Exec format error"):
        check_turns(str(judge), random_turns(1, 0, 3))
    result = dipsat("crosscheck", "--against", str(judge), "--turns", "3", "--json")
    assert (result.returncode, result.stderr) == (2, f"cannot start {judge}: Exec format error\n")


@slow
def test_a_run_where_every_request_failed_is_an_error(tmp_path: Path) -> None:
    command = program(tmp_path, "sys.stderr.write('no licence\\n')\nsys.exit(1)\n")
    result = dipsat("crosscheck", "--against", " ".join(command), "--turns", "2", "--json")
    assert result.returncode == 2
    assert result.stderr == "no turn was compared: every request failed\n"
    summary = json.loads(result.stdout)
    assert (summary["turns"], summary["skipped"], summary["agreements"]) == (2, 2, 0)
    assert summary["errors"][0].endswith("exited (1); stderr: no licence")


@slow
def test_the_start_up_allowance_is_an_option_and_bounds_a_program_that_never_answers(
    tmp_path: Path,
) -> None:
    """The first reply of a program may take --startup-timeout seconds (600 by default,
    once fixed): a program that never answers holds the run that long, and no longer."""
    command = " ".join(program(tmp_path, "import time\ntime.sleep(3600)\n"))
    began = time.monotonic()
    result = dipsat(
        "crosscheck", "--against", command, "--turns", "2", "--json",
        "--timeout", "0.5", "--startup-timeout", "1",
    )  # fmt: skip
    assert time.monotonic() - began < 60
    assert result.returncode == 2, result.stderr
    errors = json.loads(result.stdout)["errors"]
    assert [e.split(": ", 1)[0] for e in errors] == ["s1-0", "s1-1"]
    assert all(e.endswith("gave no reply within 1 s") for e in errors), errors
    for value in ("0", "nan", "inf", "-1"):
        refused = cli("crosscheck", "--against", "dipsat", "--startup-timeout", value)
        assert refused.exit_code == 2
        assert refused.stderr.startswith("--startup-timeout: expected seconds from 0.001 to")


INTERRUPTING = """
pids = open(sys.argv[1], "a")
pids.write(f"{os.getpid()}\\n")
pids.flush()
for line in sys.stdin:
    request = json.loads(line)
    if request["id"] == "s1-3":
        target = os.getppid()
        if len(sys.argv) > 2:  # the parent is a worker: Ctrl-C goes to the command
            target = int(open(f"/proc/{target}/stat").read().rsplit(")", 1)[1].split()[1])
        os.kill(target, 2)
        import time
        time.sleep(60)
    answer(request)  # an empty board: a disagreement on every turn
"""


@slow
def test_ctrl_c_keeps_the_turns_compared_writes_their_cases_and_exits_130(
    tmp_path: Path,
) -> None:
    """The program presses Ctrl-C for us at the fourth turn (s1-3): three turns are
    compared, their cases written, the summary says it was interrupted, and the program,
    still busy, is stopped."""
    pids, out = tmp_path / "pids", tmp_path / "cases"
    against = " ".join([*program(tmp_path, INTERRUPTING), str(pids)])
    result = dipsat(
        "crosscheck", "--against", against, "--turns", "10", "--json", "--out", str(out)
    )
    assert result.returncode == 130, result.stderr
    assert result.stderr == "interrupted after 3 turn(s); the summary is of those\n"
    summary = json.loads(result.stdout)
    assert summary["interrupted"] is True
    assert (summary["turns"], summary["disagreements"]) == (3, 3)
    assert summary["written"] and all(Path(p).parent == out for p in summary["written"])
    assert all(gone(int(pid)) for pid in pids.read_text().split())


@slow
def test_ctrl_c_with_worker_processes_stops_them_and_their_programs(tmp_path: Path) -> None:
    """Workers ignore Ctrl-C; the command terminates them, each stopping its program, and
    reports the chunks finished (none here), interrupted, without a traceback."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("needs /proc to find the command from the program")
    pids = tmp_path / "pids"
    against = " ".join([*program(tmp_path, INTERRUPTING), str(pids), "worker"])
    result = dipsat("crosscheck", "--against", against, "--turns", "6", "--workers", "2", "--json")
    assert result.returncode == 130, result.stderr
    assert "Traceback" not in result.stderr
    summary = json.loads(result.stdout)
    assert (summary["interrupted"], summary["turns"]) == (True, 0)
    assert all(gone(int(pid)) for pid in pids.read_text().split())


def gone(pid: int) -> bool:
    """Whether a process has ended (a killed one may take the kernel a moment to reap)."""
    for _ in range(200):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.02)
    return False


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(" '\"\\/.-abxyz\t\n$"), max_size=20))
def test_any_command_text_is_a_program_or_a_program_error(text: str) -> None:
    """Whatever --against holds: the words of a command whose program exists, or a
    ProgramError that says why (never an IndexError or a ValueError of shlex)."""
    try:
        words = command_line(text)
    except ProgramError as error:
        assert str(error)
    else:
        assert words and shutil.which(words[0])
