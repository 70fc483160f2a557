"""Playing a run on a dask.distributed cluster (``simulate(..., client=client)``).

The run's unit indices are cut into chunks, each one task ``play_chunk(plan, start,
count)``; a bounded window of tasks is in flight, and their results (tallies, small) are
merged as they complete, in any order: merging is exact addition, so the result is
identical to a local run's whatever the workers, their number or the chunking.  A worker
lost mid-run loses only its tasks, which the scheduler runs again elsewhere; the result
does not change.  Chunks start small and grow (x4) while a task takes under a second,
up to about a million native games (fewer for slow players, since growth stops once a
chunk takes a second), and shrink again near the end.  Ctrl-C cancels the tasks in
flight and raises `Interrupted` with the finished chunks; a task plays its chunk in
pieces of a fraction of a second and stops between two once cancelled (dask lets a
running task run to its end), so that no worker goes on playing for a run that
stopped.  A failure of the cluster itself (the scheduler lost, the client closed
(by another thread, say), the run's tasks cancelled by a restart, workers dying on a
chunk again and again, a scheduler that has had no worker for `NO_WORKERS_WAIT`
seconds before the first task) raises
`ClusterError`, which carries the finished chunks as Ctrl-C's `Interrupted` does.  A
cluster whose workers all leave mid-run is waited for (an adaptive cluster brings
workers back; its tasks wait for them, dask's way), and the run says so on stderr
(`_Workers`), then again once a worker is back.  With a games CSV (or within
`in_index_order`) the chunks are merged in game-index order (later chunks wait in
memory for earlier ones; the window bounds how many), and so with a player in Python:
a policy that fails (`PolicyError`) keeps exactly the games before its game, as in a
local run, the chunks after it cancelled (`_Run`); its task hands the failure back
with the games of its chunk before it (`tasks.FailedChunk`: a raised error is logged
by the worker with its traceback, and crosses without them).

Before its first task, a run checks the cluster once per client and machine
(`check_cluster`): the scheduler must load cuttle (it unpickles the tasks), and each
worker must run this very build (`tasks.build`: version, games revision, a digest of
the engine's games and one of games with a player in Python, whose seats draw from
streams of their own), and every task checks its worker again (`tasks.play_checked`:
workers may join later).  Without the check a worker lacking cuttle was closed by dask on its first
task, then the next, and the run waited for workers for ever; one of another build
played other games, merged in without a word.

dask is imported only here, only when a client is given: ``pip install "pycuttle[dask]"``.

Reaching a scheduler by its address (the command line's ``--scheduler tcp://HOST:PORT``)
is `cuttle.simulation.connection`.  Ctrl-C while `start_local_cluster` starts its workers stops them quietly, and
while `close_local_cluster` closes them it ends them at once (`_end_workers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
import uuid
import weakref
from typing import TYPE_CHECKING, Any

from .._optional import missing
from ..errors import ClusterError
from ..formatting import plural, quantity
from ..progress import note
from .runner import Chunks, Plan, collect
from .tasks import FailedChunk, another_build, build, play_checked

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from distributed import Client, Future

    from .compare import ComparisonResult
    from .results import SimulationResult
    from .runner import GamesCsv

__all__ = ["CLUSTER_CHUNK", "ClusterError", "DEFAULT_PORT", "check_cluster", "in_index_order",
           "run_on_cluster"]

CLUSTER_CHUNK = 1 << 20       # largest native chunk on a cluster (units)
PYTHON_CLUSTER_CHUNK = 256
DEFAULT_PORT = 8786           # dask's scheduler port
NO_WORKERS_WAIT = 30.0        # seconds a run waits for a scheduler with no worker to get one
WORKERS_LOOK = 1.0            # seconds without a finished chunk before a run asks the
                              # scheduler whether it still has workers (then again as often)
WORKERS_LOOK_TIMEOUT = 5.0    # seconds the scheduler has to answer that (else: not known)
WAIT_STEP = 0.02              # seconds between two looks for a finished chunk


def _distributed():
    try:
        import distributed
    except ImportError as e:
        raise missing(e, "a cluster") from None
    return distributed


class _CancelledRuns(logging.Filter):
    """Drops what an in-process scheduler (a local cluster's) logs about a task that a
    stopped run cancelled: a result being gathered as the task was cancelled makes it
    log "Couldn't gather keys ... forgotten" at ERROR, after the run's own one line.
    The keys of a run carry its token; the tokens of stopped runs are kept (a few bytes
    per Ctrl-C)."""

    def __init__(self) -> None:
        super().__init__()
        self.tokens: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.tokens:
            return True
        text = record.getMessage()
        return not any(t in text for t in self.tokens)


_CANCELLED = _CancelledRuns()


def _said(e: BaseException) -> str:
    # (dask hands a worker's failure to unpickle over as Exception("ModuleNotFoundError(...)"))
    return str(e) if type(e) is Exception else f"{type(e).__name__}: {e}"


def _version() -> str:
    from .._version import __version__
    return __version__


# The scheduler and workers (addresses) of each client found to run this build.
_CHECKED: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()


def check_cluster(client: Client, workers: Iterable[str]) -> None:
    """ClusterError unless `client`'s scheduler can load cuttle (it unpickles the
    tasks) and each of `workers` (addresses) runs this very `build`; each is asked once
    per client.  A worker without cuttle would be closed by dask on its first task
    (which it cannot unpickle), then the next, and the run would wait for workers for
    ever; one of another build would play other games."""
    seen = _CHECKED.setdefault(client, set())
    ours = build()
    if "scheduler" not in seen:
        try:
            client.run_on_scheduler(_version)
        except Exception as e:      # noqa: BLE001 (said, whatever it is)
            raise (_unchecked(f"the dask scheduler at {client.scheduler.address}", e, ours)
                   or ClusterError(f"the dask scheduler at {client.scheduler.address} did "
                                   f"not answer ({_said(e)})")) from None
        seen.add("scheduler")
    for worker in workers:
        if worker in seen:
            continue
        try:
            theirs = client.run(build, workers=[worker])[worker]
        except Exception as e:      # noqa: BLE001
            error = _unchecked(f"the dask worker {worker}", e, ours)
            if error is None:
                continue            # (gone, say: its tasks check it, if it comes back)
            raise error from None
        if tuple(theirs) != ours:
            raise another_build(worker, theirs, ours)
        seen.add(worker)


def _unchecked(who: str, e: Exception, ours) -> ClusterError | None:
    """The error of a check of `who` that failed with `e` when its cuttle could not be
    loaded (dask hands a failure to unpickle a function of cuttle's over as an
    ImportError or AttributeError, or as an Exception whose text names one); None when
    the check did not get through (`who` went away, say)."""
    text = str(e) if type(e) is Exception else ""
    if isinstance(e, (ImportError, AttributeError)) or \
            text.startswith(("ModuleNotFoundError", "ImportError", "AttributeError")):
        return ClusterError(f"{who} cannot load cuttle ({_said(e)}); install pycuttle "
                            f"{ours[0]} on every machine of the cluster")
    return None


def _address(client: Client) -> str:
    """The address of `client`'s scheduler, as its messages name it."""
    return getattr(client.scheduler, "address", None) or "?"


def _closed(client: Client) -> bool:
    """Whether `client` is closed or closing."""
    return getattr(client, "status", "running") in ("closing", "closed")


def _connected(client: Client) -> None:
    """ClusterError unless `client` is connected to its scheduler (a closed client
    failed with "IOLoop is closed", one whose scheduler had gone waited for dask's
    reconnection, 30 s)."""
    if _closed(client):
        raise ClusterError("the dask client is closed")
    status = getattr(client, "status", "running")
    if status != "running":
        raise ClusterError(f"the dask client is not connected to its scheduler at "
                           f"{_address(client)} ({status})")


_IN_ORDER: contextvars.ContextVar[bool] = contextvars.ContextVar("cuttle_in_order",
                                                                 default=False)


@contextlib.contextmanager
def in_index_order() -> Iterator[None]:
    """Within the block, a run on a cluster merges its chunks in index order (a chunk
    that finished early waits for the ones before it, as the rows of a games CSV do),
    so that the result of a run Ctrl-C stopped is its first units without a gap: what
    a results file needs to keep the finished games of the chunk it cut short
    (`cuttle.variants.chunks`).  Out of order, the stopped run keeps every finished
    chunk, gaps and all."""
    token = _IN_ORDER.set(True)
    try:
        yield
    finally:
        _IN_ORDER.reset(token)


def run_on_cluster(client: Client, plan: Plan, n: int, fixed_chunk: int | None,
                   progress: bool | Callable[[int, int], object] | None,
                   sink: GamesCsv | None, desc: str,
                   start: int = 0) -> SimulationResult | ComparisonResult:
    """Play units start..start+n-1 of `plan` on `client`'s cluster; fixed_chunk: units
    per task, or None for adaptive chunks.  The chunks are merged as they finish, or in
    index order with a games CSV (`sink`), within `in_index_order` or with a player in
    Python (`_Run`)."""
    distributed = _distributed()
    if fixed_chunk is None:
        limit = max(1, (CLUSTER_CHUNK if plan.native else PYTHON_CLUSTER_CHUNK) // plan.slots)
        chunks = Chunks(limit, True, target=1.0, factor=4, first=plan.first_chunk)
    else:
        chunks = Chunks(fixed_chunk, False)
    _connected(client)
    address = _address(client)      # (a closed client forgets it)
    infos = _workers(client, NO_WORKERS_WAIT)
    check_cluster(client, infos)
    workers = max(1, sum(w.get("nthreads", 1) for w in infos.values()))
    run = _Run(distributed, client, address, plan, desc, chunks, workers, start, n,
               strict=sink is not None or _IN_ORDER.get())
    return collect(run.parts(), plan, n, progress, sink, desc, run.cancel)


class _Run:
    """The chunks of one run on a cluster: submitted in index order, a bounded window
    of them in flight (`pending`: future -> (start, count)), merged as they finish or
    in index order (`buffered`: start -> (count, result), waiting for their turn).

    A run with a player in Python merges in index order too, so that a policy failing
    in a chunk (its task hands a `FailedChunk` back) keeps exactly the units before its
    game, as a local run does: the chunks after it are cancelled and their results
    dropped (`dropped`: the futures the run cancelled itself, ignored when they come
    back), the chunks before it are waited for (one of them may fail earlier: that
    failure is then the run's), and the PolicyError is raised with the failed chunk's
    units before its game (`collect` keeps them).  Stopped otherwise (Ctrl-C, the
    cluster's failure), such a run keeps its chunks finished out of order too (`cancel`
    hands them over), as a run merging them as they finish does; a `strict` run (a
    games CSV, `in_index_order`) keeps only its first units, without a gap."""

    def __init__(self, distributed, client: Client, address: str, plan: Plan, desc: str,
                 chunks: Chunks, workers: int, start: int, n: int, strict: bool):
        self.distributed, self.client, self.address = distributed, client, address
        self.plan, self.desc, self.chunks, self.workers = plan, desc, chunks, workers
        self.window = 2 * workers + 2
        self.expected = build()
        self.token = uuid.uuid4().hex[:12]
        self.strict = strict
        self.ordered = strict or not plan.native
        self.pending: dict[Future, tuple[int, int]] = {}
        self.buffered: dict[int, tuple[int, SimulationResult | ComparisonResult]] = {}
        self.dropped: set[Future] = set()
        self.failed: tuple[int, FailedChunk] | None = None
        self.next = self.write = start
        self.stop = start + n
        self.done = distributed.as_completed(with_results=True, raise_errors=False)

    def fill(self) -> None:
        """Submit the next chunks while the window has room."""
        plan = self.plan
        while self.next < self.stop and len(self.pending) + len(self.buffered) < self.window:
            lo = self.next
            # Near the end chunks shrink (guided scheduling), so that no worker is left
            # with a long last chunk while the others idle.
            tail = max(plan.first_chunk, -(-(self.stop - lo) // (2 * self.workers)))
            count = min(self.chunks.size, tail, self.stop - lo)
            fut = _submit(self.client, self.address, f"cuttle-{self.desc}-{self.token}-{lo}",
                          self.expected, plan, lo, count)
            self.pending[fut] = (lo, count)
            self.done.add(fut)
            self.next = lo + count

    def parts(self) -> Iterator[tuple[int, SimulationResult | ComparisonResult]]:
        """(count, result) of each finished chunk, as `collect` merges them."""
        self.fill()
        for fut, result in _finished(self.done, self.distributed, self.client, self.address,
                                     _Workers(self.client, self.plan.unit), self.dropped):
            lo, count = self.pending.pop(fut)
            if isinstance(result, FailedChunk):
                self.fail(lo, result)
            else:
                self.chunks.took(result.elapsed, count)
                if not self.ordered:
                    yield count, result
                else:
                    self.buffered[lo] = (count, result)
            while self.write in self.buffered:
                c, r = self.buffered.pop(self.write)
                self.write += c
                yield c, r
            if self.failed is None:
                self.fill()
            elif self.write == self.failed[0]:      # (every chunk before it merged)
                raise self.failed[1].raised()
        if self.failed is not None:             # (not reached: its chunks came first)
            raise self.failed[1].raised()

    def fail(self, lo: int, failure: FailedChunk) -> None:
        """A policy failed in the chunk starting at `lo`: the run's failure (no chunk
        after it is left to fail); the chunks after it are cancelled and dropped."""
        self.failed = (lo, failure)
        later = [f for f, (s, _) in self.pending.items() if s > lo]
        for f in later:
            del self.pending[f]
        self.dropped.update(later)
        _cancel(self.client, later)
        for s in [s for s in self.buffered if s > lo]:
            del self.buffered[s]

    def cancel(self) -> list[tuple[int, SimulationResult | ComparisonResult]]:
        """Cancel the chunks in flight of a run that stopped; the chunks it holds
        finished out of order, which it keeps unless `strict`."""
        log = logging.getLogger("distributed.scheduler")
        if _CANCELLED not in log.filters:
            log.addFilter(_CANCELLED)
        _CANCELLED.tokens.add(self.token)
        _cancel(self.client, list(self.pending))
        held = [] if self.strict else [self.buffered[s] for s in sorted(self.buffered)]
        self.pending.clear()
        self.buffered.clear()
        self.done.clear()
        return held


def _submit(client: Client, address: str, key: str, *args: Any) -> Future:
    """The task ``play_checked(*args)`` under `key`; the run's ClusterError where the
    client was closed (dask refuses a closed client's tasks: ClosedClientError)."""
    try:
        return client.submit(play_checked, *args, pure=False, key=key)
    except Exception:       # noqa: BLE001 (whatever dask raised, if the client is not gone)
        gone = _gone(client, address)
        if gone is None:
            raise
        raise gone from None


def _cancel(client: Client, futures: list[Future]) -> None:
    """Cancel a stopped run's `futures`, unless its client is closed (its close
    released them; dask refuses to send a closed client's cancel)."""
    if not futures or _closed(client):
        return
    try:
        client.cancel(futures)
    except Exception:       # noqa: BLE001
        if not _closed(client):         # (closed meanwhile: as above)
            raise


def _workers(client: Client, wait: float) -> dict[str, Any]:
    """The workers of `client`'s scheduler (address -> info).  One with none yet is
    given `wait` seconds for a worker to join, then ClusterError: its tasks would wait
    for ever (dask's way), with nothing said."""
    deadline = time.monotonic() + wait
    while True:
        infos = client.scheduler_info().get("workers", {})
        if infos:
            return infos
        if time.monotonic() >= deadline:
            address = _address(client)
            raise ClusterError(f"the dask scheduler at {address} has no workers (waited "
                               f"{wait:g} s for one): start some with `dask worker "
                               f"{address}`")
        time.sleep(0.2)


def _finished(done, distributed, client, address: str, workers: _Workers,
              dropped: set[Future]):
    """(future, result) of each task as `done` (dask's as_completed) hands it over;
    ClusterError for a task whose result will never come.  (as_completed hands a
    cancelled future over with its CancelledError in place of the result, and raises
    a task's own exception, KilledWorker included: the cluster's, not the games'.)
    While none is ready, `workers` looks every WORKERS_LOOK seconds whether the
    cluster still has workers (a run without any waits for ever: it says so).

    A client that lost its scheduler (dask's "connecting", while it tries to reconnect)
    or was closed (by another thread, say) fails the run once no finished chunk is left
    to take, saying which (`_gone`).  dask cancels the tasks a client knows of as the
    connection drops, not those submitted after, which the run waited for until the
    client gave up reconnecting (its timeout); and a client's close cancels its tasks
    with no reason: either way the run said that the cluster cancelled a task, no
    reason given."""
    it = iter(done)
    while True:
        quiet = time.monotonic()
        while not done.has_ready() and not done.is_empty():
            gone = _gone(client, address)
            if gone is not None:
                raise gone
            if time.monotonic() - quiet >= WORKERS_LOOK:
                workers.look()
                quiet = time.monotonic()
            time.sleep(WAIT_STEP)           # (Ctrl-C lands here, at once)
        try:
            fut, result = next(it)
        except StopIteration:
            return
        if fut in dropped:
            dropped.discard(fut)
            continue
        if fut.status == "error":
            _, error, tb = result
            if isinstance(error, distributed.KilledWorker):
                raise ClusterError(f"the dask workers kept dying on the run: {error}") \
                    from None
            raise error.with_traceback(tb)
        if fut.status == "cancelled" or isinstance(result, BaseException):
            reason = getattr(result, "reason", None)
            gone = _gone(client, address) or \
                (_lost(address) if reason == "scheduler-connection-lost" else None)
            if gone is not None:
                raise gone from None
            raise ClusterError(f"the dask cluster cancelled the run's task {fut.key} "
                               f"({reason or 'no reason given'})") from None
        if workers.absent:
            workers.look()                  # (a chunk came: say that workers are back)
        yield fut, result


def _gone(client: Client, address: str) -> ClusterError | None:
    """The error of a run whose client no longer reaches its scheduler at `address`:
    closed during the run (by another thread, say), or lost the connection (dask's
    "connecting", while it tries to reconnect); None while it is connected."""
    if _closed(client):
        return ClusterError(f"the dask client of the scheduler at {address} was closed "
                            f"during the run")
    if getattr(client, "status", "running") == "connecting":
        return _lost(address)
    return None


def _lost(address: str) -> ClusterError:
    return ClusterError(f"lost the connection to the dask scheduler at {address} "
                        f"during the run")


def _worker_count(dask_scheduler=None) -> int:
    """(Run on the scheduler) how many workers it has."""
    return len(dask_scheduler.workers)


class _Workers:
    """Whether the cluster of a run still has workers, as its scheduler says when asked
    (`look`).  A run whose workers all left waits for new ones: its tasks wait on the
    scheduler (dask's way), and an adaptive cluster, or a batch system's next workers,
    may bring some back.  It waited without a word; now it says so on stderr (the
    finished chunks are kept, and Ctrl-C stops the run with them), and again once a
    worker is back."""

    def __init__(self, client: Client, unit: str):
        self.client, self.unit = client, unit
        self.absent = False

    def look(self) -> None:
        """Ask the scheduler how many workers it has, and say what changed: none left,
        or some back.  An answer that does not come (a scheduler lost or too busy to
        answer within WORKERS_LOOK_TIMEOUT seconds) says nothing: a lost scheduler
        stops the run through its tasks."""
        if getattr(self.client, "status", "running") != "running":
            return
        try:
            # (callback_timeout: taken by dask's sync, which gives up after it)
            count = self.client.run_on_scheduler(_worker_count,
                                                 callback_timeout=WORKERS_LOOK_TIMEOUT)
        except (Exception, asyncio.CancelledError):
            # (a probe, nothing more: a scheduler lost or closing fails it in dask's
            # ways, OSError, a timeout or a cancellation; the run's tasks say it)
            return
        address = _address(self.client)
        if count == 0 and not self.absent:
            note(f"cuttle: the dask scheduler at {address} has no workers left: the run "
                 f"waits for one to join (`dask worker {address}` starts one); its "
                 f"finished {plural(self.unit)} are kept, and Ctrl-C stops it with them")
        elif count and self.absent:
            note(f"cuttle: the dask scheduler at {address} has "
                 f"{quantity(count, 'worker')} again: the run goes on")
        self.absent = count == 0
