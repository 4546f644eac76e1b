"""Spreading independent jobs over local processes or a Dask cluster, results in job order
(so that what a run reports does not depend on which worker finished first)."""

from __future__ import annotations

import os
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable
from types import FrameType
from typing import Any, Protocol, TypeVar

from .errors import DipsatError

Job = TypeVar("Job")
Part = TypeVar("Part")
Result = TypeVar("Result", covariant=True)

DASK_CONNECT_SECONDS = 5.0
"""How long to wait for a Dask scheduler to answer before saying it cannot be reached."""


class _Future(Protocol[Result]):
    def result(self) -> Result: ...


def spread(
    function: Callable[[Job], Part],
    jobs: Iterable[Job],
    workers: int = 1,
    dask: str | None = None,
) -> Generator[Part, None, None]:
    """Each job's result, in the order of the jobs: computed here (one worker), in
    `workers` local processes, or on the Dask cluster at `dask` ("local" starts one in
    this process); `function` and the jobs must pickle.  The jobs are taken as they are
    needed, a few per worker ahead, so that they may be many, or endless.

    Local worker processes ignore Ctrl-C (SIGINT): it interrupts this process alone, and
    when the results stop being read (Ctrl-C, an error, the generator closed) the workers
    are terminated, each running its `finally` blocks first (so that the programs they
    started are stopped).

    Raises:
        DipsatError: no Dask scheduler answers at `dask` within DASK_CONNECT_SECONDS.
    """
    if dask:
        from distributed import Client

        try:
            # distributed ships py.typed but leaves Client() and close() unannotated
            client = (
                Client(dask, timeout=DASK_CONNECT_SECONDS)  # type: ignore[no-untyped-call]
                if dask != "local"
                else Client(processes=False)  # type: ignore[no-untyped-call]
            )
        except Exception as err:  # a timeout, a bad address, garbage from a non-scheduler
            raise DipsatError(
                f"cannot connect to a Dask scheduler at {dask}: {str(err)[:200]}"
            ) from err
        try:
            ahead = 2 * max(1, workers, _dask_workers(client))
            yield from _in_order(lambda job: client.submit(function, job, pure=False), jobs, ahead)
        finally:
            client.close()  # type: ignore[no-untyped-call]
    elif workers <= 1:
        yield from map(function, jobs)
    else:
        from concurrent.futures import Future, ProcessPoolExecutor

        pool = ProcessPoolExecutor(workers, initializer=_worker_signals)
        try:

            def submit(job: Job) -> Future[Part]:
                return pool.submit(_guarded, function, job)

            yield from _in_order(submit, jobs, 2 * workers)
        except BaseException:
            for process in list(pool._processes.values()):  # no public way before 3.14
                process.terminate()
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def _in_order(
    submit: Callable[[Job], _Future[Part]], jobs: Iterable[Job], ahead: int
) -> Generator[Part, None, None]:
    """The results of the jobs in order, at most `ahead` of them submitted and not read."""
    waiting: deque[_Future[Part]] = deque()
    for job in jobs:
        waiting.append(submit(job))
        if len(waiting) >= ahead:
            yield waiting.popleft().result()
    while waiting:
        yield waiting.popleft().result()


def _dask_workers(client: Any) -> int:
    """The number of worker threads of a Dask cluster (0 if it cannot say)."""
    try:
        return sum(int(n) for n in client.nthreads().values())
    except Exception:  # a cluster that does not say is given a window of its own
        return 0


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
