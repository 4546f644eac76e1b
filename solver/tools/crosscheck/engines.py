"""The adjudicators a cross-check compares: dipsat itself, and any program behind the
protocol, run as a child process with a time limit per request."""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import IO, Any

from ...cycle.game import advance
from ...values.orders import Given
from ...values.position import Position
from ...values.resolution import Resolution
from ...values.rules import DATC_2025, RuleBook
from .protocol import ProtocolError, read_reply, reply, request

ADAPTERS = {
    "mila": [sys.executable, "-m", "solver.tools.adapters.mila"],
    "pydip": [sys.executable, "-m", "solver.tools.adapters.pydip"],
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

    def close(self) -> None:
        pass


STARTUP_SECONDS = 600.0
"""How long the first reply of a program may take: it starts its engine and loads its map
then (MILA works out the convoy routes of a large map the first time, minutes for some)."""


class ExternalEngine:
    """A program speaking the protocol on its standard input and output.  A crash, a hang
    past the time limit or a malformed reply becomes an error reply, and the program is
    started again for the next request.  The first reply after a start may take `startup`
    seconds; each later one `timeout`.  The program runs in a process group of its own, so
    that stopping it stops whatever it started; what it writes to stderr goes to a file (a
    full pipe would block it), whose end is quoted when it exits."""

    def __init__(
        self, command: str | list[str], timeout: float = 10.0, startup: float = STARTUP_SECONDS
    ) -> None:
        self.command = ADAPTERS.get(command, command) if isinstance(command, str) else command
        if isinstance(self.command, str):
            self.command = shlex.split(self.command)
        self.name = command if isinstance(command, str) else " ".join(command)
        self.timeout = timeout
        self.startup = max(startup, timeout)
        self.process: subprocess.Popen[bytes] | None = None
        self.errors: IO[bytes] | None = None
        self.fresh = False  # no reply read yet from the running program
        self.buffer = b""

    def _start(self) -> subprocess.Popen[bytes]:
        if self.process is None or self.process.poll() is not None:
            self._stop()
            self.errors = tempfile.TemporaryFile()  # noqa: SIM115 (closed by _stop)
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.errors,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                start_new_session=True,
            )
            assert self.process.stdout is not None  # stdout=PIPE
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
            self.errors.close()
        self.process, self.errors = None, None

    def _stderr_tail(self) -> str:
        if self.errors is None:
            return ""
        self.errors.seek(0, os.SEEK_END)
        self.errors.seek(max(0, self.errors.tell() - 300))
        return self.errors.read().decode(errors="replace")

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
            return read_reply(text, request_id)
        except TimeoutError:  # before OSError, of which it is a kind
            self._stop()
            return {"id": request_id, "error": f"{self.name}: no reply within {self.timeout} s"}
        except OSError as err:
            self._stop()
            return {"id": request_id, "error": f"{self.name}: cannot talk to it: {err}"}
        except EOFError:
            code = self.process.wait() if self.process else None
            tail = self._stderr_tail()
            self._stop()
            return {"id": request_id, "error": f"{self.name} exited ({code}): {tail.strip()}"}
        except ProtocolError as err:
            self._stop()
            return {"id": request_id, "error": f"{self.name}: malformed reply: {err}"}

    def _read_line(self, process: subprocess.Popen[bytes]) -> str:
        assert process.stdout is not None  # stdout=PIPE
        deadline = time.monotonic() + (self.startup if self.fresh else self.timeout)
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                if not selector.select(left):
                    continue
                chunk = process.stdout.read(65536)
                if not chunk:
                    raise EOFError
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        self.fresh = False
        return line.decode(errors="replace")

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            assert self.process.stdin is not None  # stdin=PIPE
            self.process.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=2)
        self._stop()


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
