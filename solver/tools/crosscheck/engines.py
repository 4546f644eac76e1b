"""The adjudicators a cross-check compares: dipsat itself, and any program behind the
protocol, run as a child process with a time limit per request."""

from __future__ import annotations

import json
import os
import selectors
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

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


class ExternalEngine:
    """A program speaking the protocol on its standard input and output.  A crash, a hang
    past the time limit or a malformed reply becomes an error reply, and the program is
    started again for the next request."""

    def __init__(self, command: str | list[str], timeout: float = 10.0) -> None:
        self.command = ADAPTERS.get(command, command) if isinstance(command, str) else command
        if isinstance(self.command, str):
            self.command = shlex.split(self.command)
        self.name = command if isinstance(command, str) else " ".join(command)
        self.timeout = timeout
        self.process: subprocess.Popen[bytes] | None = None
        self.buffer = b""

    def _start(self) -> subprocess.Popen[bytes]:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
            assert self.process.stdout is not None  # stdout=PIPE
            os.set_blocking(self.process.stdout.fileno(), False)
            self.buffer = b""
        return self.process

    def _restart(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
        self.process = None

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
            self._restart()
            return {"id": request_id, "error": f"{self.name}: no reply within {self.timeout} s"}
        except OSError as err:
            self._restart()
            return {"id": request_id, "error": f"{self.name}: cannot talk to it: {err}"}
        except EOFError:
            code = self.process.wait() if self.process else None
            tail = (
                self.process.stderr.read()[-300:].decode(errors="replace")
                if self.process and self.process.stderr  # stderr=PIPE: not None
                else ""
            )
            self._restart()
            return {"id": request_id, "error": f"{self.name} exited ({code}): {tail.strip()}"}
        except ProtocolError as err:
            self._restart()
            return {"id": request_id, "error": f"{self.name}: malformed reply: {err}"}

    def _read_line(self, process: subprocess.Popen[bytes]) -> str:
        assert process.stdout is not None  # stdout=PIPE
        deadline = time.monotonic() + self.timeout
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
        return line.decode(errors="replace")

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            assert self.process.stdin is not None  # stdin=PIPE
            self.process.stdin.close()
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


def engine(
    name: str, timeout: float = 10.0, rules: RuleBook = DATC_2025
) -> DipsatEngine | ExternalEngine:
    """An engine by name: 'dipsat', 'mila', 'pydip', or a command line."""
    if name == "dipsat":
        return DipsatEngine(rules)
    return ExternalEngine(name, timeout)
