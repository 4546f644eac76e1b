"""Spreading independent jobs over local processes or a Dask cluster, results in job order
(so that what a run reports does not depend on which worker finished first)."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Generator, Sequence
from functools import partial
from types import FrameType
from typing import TypeVar

Job = TypeVar("Job")
Part = TypeVar("Part")


def spread(
    function: Callable[[Job], Part], jobs: Sequence[Job], workers: int = 1, dask: str | None = None
) -> Generator[Part, None, None]:
    """Each job's result, in the order of the jobs: computed here (one worker), in
    `workers` local processes, or on the Dask cluster at `dask` ("local" starts one in
    this process); `function` and the jobs must pickle.

    Local worker processes ignore Ctrl-C (SIGINT): it interrupts this process alone, and
    when the results stop being read (Ctrl-C, an error, the generator closed) the workers
    are terminated, each running its `finally` blocks first (so that the programs they
    started are stopped)."""
    if dask:
        from distributed import Client

        # distributed ships py.typed but leaves Client() and close() unannotated
        client = Client(dask) if dask != "local" else Client(processes=False)  # type: ignore[no-untyped-call]
        try:
            for future in client.map(function, jobs, pure=False):
                yield future.result()
        finally:
            client.close()  # type: ignore[no-untyped-call]
    elif workers <= 1:
        yield from map(function, jobs)
    else:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(workers, initializer=_worker_signals)
        try:
            yield from pool.map(partial(_guarded, function), jobs)
        except BaseException:
            for process in list(pool._processes.values()):  # no public way before 3.14
                process.terminate()
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def _worker_signals() -> None:
    """In a worker process: Ctrl-C is for the parent; SIGTERM unwinds the job running."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminated)


def _terminated(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def _guarded(function: Callable[[Job], Part], job: Job) -> Part:
    """`function(job)`; a worker told to stop leaves at once once its job has unwound (the
    pool would otherwise catch the SystemExit and start the next job it holds)."""
    try:
        return function(job)
    except SystemExit as stop:
        os._exit(stop.code if isinstance(stop.code, int) else 1)
