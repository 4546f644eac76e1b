"""Spreading independent jobs over local processes or a Dask cluster, results in job order
(so that what a run reports does not depend on which worker finished first)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

Job = TypeVar("Job")
Part = TypeVar("Part")


def spread(
    function: Callable[[Job], Part], jobs: Sequence[Job], workers: int = 1, dask: str | None = None
) -> Iterator[Part]:
    """Each job's result, in the order of the jobs: computed here (one worker), in
    `workers` local processes, or on the Dask cluster at `dask` ("local" starts one in
    this process); `function` and the jobs must pickle."""
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

        with ProcessPoolExecutor(workers) as pool:
            yield from pool.map(function, jobs)
