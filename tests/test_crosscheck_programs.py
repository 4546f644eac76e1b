"""External adjudicators that misbehave: each is a small Python program written into
tmp_path, run behind the protocol as `dipsat crosscheck --against` runs it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.tools.crosscheck.engines import ExternalEngine, StderrTail, read_line
from solver.tools.crosscheck.generate import random_turn
from solver.tools.crosscheck.protocol import ProtocolError

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


def ask(engine: ExternalEngine, request_id: str = "a") -> dict[str, object]:
    position, orders = random_turn("x")
    return engine.adjudicate(request_id, position, orders)


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
    engine = ExternalEngine(command, timeout=0.5, startup=0.5)
    try:
        error = str(ask(engine)["error"])
    finally:
        engine.close()
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
    engine = ExternalEngine(command, timeout=30.0, startup=30.0)
    try:
        error = str(ask(engine)["error"])
    finally:
        engine.close()
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
