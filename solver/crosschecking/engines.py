"""The adjudicators a cross-check compares: dipsat itself, and any program behind the
protocol, run as a child process with a time limit per request."""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from typing import IO, Any

from ..cycle.game import advance
from ..errors import DipsatError
from ..values.orders import Given
from ..values.position import Position
from ..values.resolution import Resolution
from ..values.rules import DATC_2025, RuleBook
from . import STARTUP_SECONDS, protocol
from .protocol import ProtocolError, read_reply, reply, request

ADAPTERS = {
    "mila": [sys.executable, "-m", "solver.crosschecking.mila_adapter"],
    "pydip": [sys.executable, "-m", "solver.crosschecking.pydip_adapter"],
}


class DipsatEngine:
    """dipsat in this process."""

    name = "dipsat"

    def __init__(self, rules: RuleBook = DATC_2025) -> None:
        self.rules = rules

    def adjudicate(
        self, request_id: str, position: Position, orders: Sequence[Given]
    ) -> dict[str, Any]:
        step = advance(position, orders, self.rules)
        dislodged = {}
        if isinstance(step, Resolution):
            dislodged = {r.unit: r.options for r in step.dislodged}
        return reply(request_id, step.outcomes, step.after, dislodged)

    def close(self, grace: float = 2.0) -> None:
        pass


class ProgramError(DipsatError):
    """Another adjudicator that cannot be run at all: no request could ever reach it."""


def command_line(command: str | list[str]) -> list[str]:
    """The words of a command ('mila' and 'pydip' name the shipped adapters), checked to
    name a program that exists.

    Raises:
        ProgramError: the command is empty, is not shell syntax (an unclosed quote), or its
            program is not found or not executable.
    """
    if isinstance(command, str):
        if command in ADAPTERS:
            return ADAPTERS[command]
        try:
            words = shlex.split(command)
        except ValueError as err:  # "No closing quotation", "No escaped character"
            raise ProgramError(f"{command!r}: {str(err).lower()}") from err
    else:
        words = list(command)
    if not words:
        raise ProgramError(f"expected a command, found {command!r}")
    if shutil.which(words[0]) is None:
        raise ProgramError(f"cannot start {words[0]!r}: no such executable program")
    return words


class ExternalEngine:
    """A program speaking the protocol on its standard input and output.  A crash, a hang
    past the time limit or a malformed reply becomes an error reply, and the program is
    started again for the next request.  The first reply after a start may take `startup`
    seconds; each later one `timeout`.  The program runs in a process group of its own, so
    that stopping it stops whatever it started; what it writes to stderr is read as it comes
    (a full pipe would block it), its last 64 KB kept, and its last lines are quoted in the
    error when it fails.  A program that cannot be started at all raises `ProgramError`
    instead: every request would fail."""

    def __init__(
        self, command: str | list[str], timeout: float = 10.0, startup: float = STARTUP_SECONDS
    ) -> None:
        self.command = command_line(command)
        self.name = command if isinstance(command, str) else " ".join(command)
        self.timeout = timeout
        self.startup = max(startup, timeout)
        self.process: subprocess.Popen[bytes] | None = None
        self.errors: StderrTail | None = None
        self.fresh = False  # no reply read yet from the running program
        self.buffer = b""

    def _start(self) -> subprocess.Popen[bytes]:
        if self.process is None or self.process.poll() is not None:
            self._stop()
            try:
                self.process = subprocess.Popen(
                    self.command,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    env={**os.environ, "PYTHONUNBUFFERED": "1"},
                    start_new_session=True,
                )
            except OSError as err:  # no such file, not executable, not a program
                raise ProgramError(f"cannot start {self.name}: {err.strerror or err}") from err
            assert self.process.stdout is not None and self.process.stderr is not None  # PIPE
            self.errors = StderrTail()
            self.errors.follow(self.process.stderr)
            os.set_blocking(self.process.stdout.fileno(), False)
            self.buffer = b""
            self.fresh = True
        return self.process

    def _stop(self) -> None:
        """Stop the program and everything in its process group."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            for pipe in (self.process.stdin, self.process.stdout):
                if pipe is not None:
                    with contextlib.suppress(OSError):
                        pipe.close()
        if self.errors is not None:
            self.errors.wait()  # the group is gone: its stderr ends
        self.process = None

    def _failed(self, request_id: str, what: str) -> dict[str, Any]:
        """The error reply for a request the program failed: it is stopped, and the last
        lines it wrote on stderr are quoted."""
        self._stop()
        tail = self.errors.last_lines() if self.errors is not None else ""
        self.errors = None
        return {
            "id": request_id,
            "error": f"{self.name} {what}" + (f"; stderr: {tail}" if tail else ""),
        }

    def adjudicate(
        self, request_id: str, position: Position, orders: Sequence[Given]
    ) -> dict[str, Any]:
        line = json.dumps(request(request_id, position, orders)) + "\n"
        try:
            process = self._start()
            assert process.stdin is not None  # stdin=PIPE
            process.stdin.write(line.encode())
            process.stdin.flush()
            text = self._read_line(process)
            return read_reply(text, request_id, position.map)
        except TimeoutError:  # before OSError, of which it is a kind
            waited = self.startup if self.fresh else self.timeout
            return self._failed(request_id, f"gave no reply within {waited:g} s")
        except EOFError:
            code = self.process.wait() if self.process else None
            return self._failed(request_id, f"exited ({code})")
        except OSError as err:  # a broken pipe: it exited before reading the request
            code = self.process.wait() if self.process else None
            return self._failed(request_id, f"exited ({code}): cannot talk to it: {err}")
        except ProtocolError as err:
            return self._failed(request_id, f"gave a malformed reply: {err}")

    def _read_line(self, process: subprocess.Popen[bytes]) -> str:
        assert process.stdout is not None  # stdout=PIPE
        seconds = self.startup if self.fresh else self.timeout
        line, self.buffer = read_line(process.stdout, self.buffer, seconds)
        self.fresh = False
        return line.decode(errors="replace")

    def close(self, grace: float = 2.0) -> None:
        """End the program: its standard input closed, `grace` seconds to exit, then
        stopped (at once with no grace: the run was interrupted)."""
        if grace > 0 and self.process is not None and self.process.poll() is None:
            assert self.process.stdin is not None  # stdin=PIPE
            with contextlib.suppress(OSError):
                self.process.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=grace)
        self._stop()


def read_line(
    stream: IO[bytes], buffer: bytes, seconds: float, limit: int | None = None
) -> tuple[bytes, bytes]:
    """The next line of a non-blocking stream (without its newline) and what was read past
    it, `buffer` being what an earlier call read past its line.  Reading stops as soon as
    the line is longer than `limit` bytes (`MAX_REPLY_BYTES` by default), so a program
    that writes without end costs at most that much memory.

    Raises:
        ProtocolError: the line is longer than `limit`.
        TimeoutError: no whole line within `seconds`.
        EOFError: the stream ended first.
    """
    limit = protocol.MAX_REPLY_BYTES if limit is None else limit
    deadline = time.monotonic() + seconds
    with selectors.DefaultSelector() as selector:
        selector.register(stream, selectors.EVENT_READ)
        while (end := buffer.find(b"\n")) < 0:
            if len(buffer) > limit:
                raise protocol.reply_too_long(limit)
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            if not selector.select(left):
                continue
            chunk = stream.read(65536)
            if not chunk:
                raise EOFError
            buffer += chunk
    if end > limit:
        raise protocol.reply_too_long(limit)
    return buffer[:end], buffer[end + 1 :]


STDERR_TAIL_BYTES = 65_536
"""How much of the end of a program's stderr is kept, to quote when it fails."""


class StderrTail:
    """The last `limit` bytes of a stream, read to its end by a thread of its own (a
    program whose stderr nobody reads blocks once the pipe is full)."""

    def __init__(self, limit: int = STDERR_TAIL_BYTES) -> None:
        self.limit = limit
        self.data = bytearray()
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def feed(self, chunk: bytes) -> None:
        with self.lock:
            self.data += chunk
            del self.data[: max(0, len(self.data) - self.limit)]

    def follow(self, stream: IO[bytes]) -> None:
        """Read `stream` to its end in a thread, keeping its tail; the thread closes it."""

        def drain() -> None:
            with stream:
                while chunk := os.read(stream.fileno(), 65536):
                    self.feed(chunk)

        self.thread = threading.Thread(target=drain, name="stderr", daemon=True)
        self.thread.start()

    def wait(self, seconds: float = 1.0) -> None:
        """Let the thread read what is left (a process that outlived its group may keep the
        pipe open: then give up after `seconds`)."""
        if self.thread is not None:
            self.thread.join(seconds)

    def last_lines(self, count: int = 5, chars: int = 1000) -> str:
        """The last `count` non-blank lines, joined with ' | ', at most `chars` characters."""
        with self.lock:
            text = self.data.decode(errors="replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()][-count:]
        joined = " | ".join(lines)
        return joined if len(joined) <= chars else "..." + joined[-chars:]


def engine(
    name: str,
    timeout: float = 10.0,
    rules: RuleBook = DATC_2025,
    startup: float = STARTUP_SECONDS,
) -> DipsatEngine | ExternalEngine:
    """An engine by name: 'dipsat', 'mila', 'pydip', or a command line."""
    if name == "dipsat":
        return DipsatEngine(rules)
    return ExternalEngine(name, timeout, startup)
