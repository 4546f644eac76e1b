"""dipsat itself behind the cross-check protocol
(`python -m solver.crosschecking.dipsat_adapter`): a reference for writing an adapter, and
the engine the harness tests run against."""

from __future__ import annotations

import json
import sys
from typing import IO, Any

from ..errors import DipsatError, LimitError
from .engines import DipsatEngine
from .protocol import ProtocolError, read_request


def serve(stdin: IO[str] = sys.stdin, stdout: IO[str] = sys.stdout) -> None:
    engine = DipsatEngine()
    for line in stdin:
        request_id: Any = None  # echoed back as the request gave it (untyped JSON)
        try:
            data = json.loads(line)
            request_id = data.get("id") if isinstance(data, dict) else None
            position, orders = read_request(data)
            reply = engine.adjudicate(request_id, position, orders)
        except (json.JSONDecodeError, ProtocolError, DipsatError, LimitError, AttributeError) as e:
            reply = {"id": request_id, "error": str(e)}  # out of time too: the next may not be
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()


if __name__ == "__main__":
    serve()
