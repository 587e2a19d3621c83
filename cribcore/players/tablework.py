"""Running a table's units of work: in this process, in local processes, or on a Dask cluster.

A table (the pegging table, the win table's deals) is computed as independent units, each a function
of the profile and a range ``[start, stop)``; the results are put together by range, so the table is
the same however the units ran (`run_chunks`).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import TypeVar

from ..daskclient import dask_client, distributed_module
from ..profiles import Profile
from .tablefiles import Progress

__all__ = ["run_chunks"]

T = TypeVar("T")

Chunk = tuple[int, int]


def run_chunks(
    work: Callable[[Profile, int, int], T],
    profile: Profile,
    chunks: Sequence[Chunk],
    *,
    jobs: int = 1,
    dask: str | None = None,
    progress: Progress | None = None,
) -> dict[Chunk, T]:
    """``work(profile, start, stop)`` for every chunk, by chunk: in this process (``jobs`` 1), in
    ``jobs`` local processes, or on the Dask cluster whose scheduler is at ``dask`` (cribcore and the
    profile's plugins installed on its workers). ``progress(units done)`` after each chunk. Raises
    `ValueError` when the Dask scheduler cannot be used."""
    results: dict[Chunk, T] = {}
    done = 0

    def finished(chunk: Chunk, result: T) -> None:
        nonlocal done
        results[chunk] = result
        done += chunk[1] - chunk[0]
        if progress is not None:
            progress(done)

    if dask is not None:
        client = dask_client(dask)
        distributed = distributed_module()
        with client:
            futures = {client.submit(work, profile, *chunk, pure=False): chunk for chunk in chunks}
            for future in distributed.as_completed(list(futures), loop=client.loop):
                finished(futures[future], future.result())
    elif jobs <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            finished(chunk, work(profile, *chunk))
    else:
        # Forked, so that plugins registered in this process only (tests, scripts) are there too.
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(jobs, mp_context=context) as pool:
            local = {pool.submit(work, profile, *chunk): chunk for chunk in chunks}
            for future in as_completed(local):
                finished(local[future], future.result())
    return results
