"""Playing a run on a dask.distributed cluster (``simulate(..., client=client)``).

The run's unit indices are cut into chunks, each one task ``play_chunk(plan, start,
count)``; a bounded window of tasks is in flight, and their results (tallies, small) are
merged as they complete, in any order: merging is exact addition, so the result is
identical to a local run's whatever the workers, their number or the chunking.  A worker
lost mid-run loses only its tasks, which the scheduler runs again elsewhere; the result
does not change.  Chunks start small and grow (x4) while a task takes under a second,
up to about a million native games (fewer for slow players, since growth stops once a
chunk takes a second), and shrink again near the end.  Ctrl-C cancels the tasks in
flight and raises `Interrupted` with the finished chunks.  With a games CSV the rows
are written in game-index order (later chunks wait in memory for earlier ones; the
window bounds how many).

dask is imported only here, only when a client is given: ``pip install "pycuttle[dask]"``.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from .._optional import missing
from .runner import FIRST_CHUNK, Chunks, collect, play_chunk

if TYPE_CHECKING:
    from collections.abc import Callable

    from distributed import Client, Future

    from .compare import ComparisonResult
    from .results import SimulationResult
    from .runner import GamesCsv, Plan

__all__ = ["CLUSTER_CHUNK", "run_on_cluster", "start_local_cluster", "connect"]

CLUSTER_CHUNK = 1 << 20       # largest native chunk on a cluster (units)
PYTHON_CLUSTER_CHUNK = 256


def _distributed():
    try:
        import distributed
    except ImportError as e:
        raise missing(e, "a cluster") from None
    return distributed


def _worker_threads(client) -> int:
    workers = client.scheduler_info().get("workers", {})
    return max(1, sum(w.get("nthreads", 1) for w in workers.values()))


def run_on_cluster(client: Client, plan: Plan, n: int, fixed_chunk: int | None,
                   progress: bool | Callable[[int, int], object] | None,
                   sink: GamesCsv | None, desc: str,
                   start: int = 0) -> SimulationResult | ComparisonResult:
    """Play units start..start+n-1 of `plan` on `client`'s cluster; fixed_chunk: units
    per task, or None for adaptive chunks."""
    distributed = _distributed()
    if fixed_chunk is None:
        limit = max(1, (CLUSTER_CHUNK if plan.native else PYTHON_CLUSTER_CHUNK) // plan.slots)
        chunks = Chunks(limit, True, target=1.0, factor=4)
    else:
        chunks = Chunks(fixed_chunk, False)
    workers = _worker_threads(client)
    window = 2 * workers + 2
    token = uuid.uuid4().hex[:12]
    pending: dict[Future, tuple[int, int]] = {}       # future -> (start, count)
    # start -> (count, result), waiting for the CSV order
    buffered: dict[int, tuple[int, SimulationResult | ComparisonResult]] = {}
    done = distributed.as_completed(with_results=True)
    stop = start + n
    state = {"next": start, "write": start}

    def fill():
        while state["next"] < stop and len(pending) + len(buffered) < window:
            lo = state["next"]
            # Near the end chunks shrink (guided scheduling), so that no worker is left
            # with a long last chunk while the others idle.
            tail = max(FIRST_CHUNK, -(-(stop - lo) // (2 * workers)))
            count = min(chunks.size, tail, stop - lo)
            fut = client.submit(play_chunk, plan, lo, count, pure=False,
                                key=f"cuttle-{desc}-{token}-{lo}")
            pending[fut] = (lo, count)
            done.add(fut)
            state["next"] = lo + count

    def parts():
        fill()
        for fut, result in done:
            lo, count = pending.pop(fut)
            chunks.took(result.elapsed, count)
            if sink is None:
                yield count, result
            else:
                buffered[lo] = (count, result)
                while state["write"] in buffered:
                    c, r = buffered.pop(state["write"])
                    state["write"] += c
                    yield c, r
            fill()

    def cancel():
        if pending:
            client.cancel(list(pending))
        pending.clear()
        buffered.clear()
        done.clear()

    return collect(parts(), plan, n, progress, sink, desc, cancel)


def start_local_cluster(n_workers: int) -> Client:
    """A Client of a new LocalCluster of `n_workers` single-threaded worker processes
    (close it with ``client.close(); client.cluster.close()``)."""
    distributed = _distributed()
    cluster = distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1,
                                       processes=True, dashboard_address=":0")
    return distributed.Client(cluster)


def connect(address: str, timeout: float = 10.0) -> Client:
    """A Client of the scheduler at `address` (tcp://HOST:PORT); OSError if it cannot be
    reached within `timeout` seconds."""
    return _distributed().Client(address, timeout=f"{timeout}s")
