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
memory for earlier ones; the window bounds how many).

Before its first task, a run checks the cluster once per client and machine
(`check_cluster`): the scheduler must load cuttle (it unpickles the tasks), and each
worker must run this very `build` (version, games revision, a digest of the engine's
games and one of games with a player in Python, whose seats draw from streams of their
own), and every task checks its worker again (`play_checked`: workers may join
later).  Without the check a worker lacking cuttle was closed by dask on its first
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
import functools
import hashlib
import json
import logging
import time
import uuid
import weakref
from typing import TYPE_CHECKING, Any

from .._optional import missing
from ..errors import ClusterError
from ..formatting import plural, quantity
from ..progress import note
from .names import DEFAULT_MAX_MOVES
from .players import resolve_players
from .runner import Chunks, Plan, collect, play_chunk

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from distributed import Client, Future

    from .compare import ComparisonResult
    from .results import SimulationResult
    from .runner import GamesCsv

__all__ = ["CLUSTER_CHUNK", "ChunkCancelled", "ClusterError", "DEFAULT_PORT", "build",
           "check_cluster", "in_index_order", "play_checked", "play_pieces", "run_on_cluster"]

CLUSTER_CHUNK = 1 << 20       # largest native chunk on a cluster (units)
PYTHON_CLUSTER_CHUNK = 256
DEFAULT_PORT = 8786           # dask's scheduler port
NO_WORKERS_WAIT = 30.0        # seconds a run waits for a scheduler with no worker to get one
WORKERS_LOOK = 1.0            # seconds without a finished chunk before a run asks the
                              # scheduler whether it still has workers (then again as often)
WORKERS_LOOK_TIMEOUT = 5.0    # seconds the scheduler has to answer that (else: not known)
WAIT_STEP = 0.02              # seconds between two looks for a finished chunk
BUILD_GAMES = 32              # games of `build`'s digest of the engine
BUILD_PYTHON_GAMES = 4        # games of its digest of games played in Python
PIECE_SECONDS = 0.05          # a chunk's pieces grow while quicker (so: < 0.2 s each)


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


def _uniform(game, rng):
    """`build`'s player in Python: a legal move drawn from its seat's rng."""
    moves = game.legal_moves
    return moves[rng.randrange(len(moves))]


def _digest(players, n: int) -> str:
    """A digest of the tally of the first `n` games of seed 0 under classic rules
    between `players`."""
    from ..rules import Rules
    plan = Plan([Rules()], resolve_players(players), 0, True, DEFAULT_MAX_MOVES, None, 1,
                False)
    state = [x.tolist() if hasattr(x, "tolist") else x
             for x in play_chunk(plan, 0, n).tally.__getstate__()]
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()[:16]


@functools.cache
def build() -> tuple[str, int, str, str]:
    """This process's cuttle, as the cluster checks it: (version, games revision, a
    digest of the engine: the tally of the first BUILD_GAMES games of random against
    greedy, and one of games played in Python: of BUILD_PYTHON_GAMES games of a
    player in Python against random, each seat drawing from its own stream,
    `seeding.seat_seed`).  A worker of another build would play other games (the
    digests are a cheap guard against a build that plays otherwise under the same
    version and revision, not a proof; the streams of games with a player in Python
    are no part of the games revision)."""
    from .._version import GAME_REVISION, __version__
    return (__version__, GAME_REVISION, _digest(("random", "greedy"), BUILD_GAMES),
            _digest((_uniform, "random"), BUILD_PYTHON_GAMES))


def _described(b) -> str:
    # (a worker of an older build says no digest of games in Python)
    return f"version {b[0]}, games revision {b[1]}, engine {b[2]}" + \
        (f", games in Python {b[3]}" if len(b) > 3 else "")


def _another_build(worker: str, theirs, ours) -> ClusterError:
    return ClusterError(f"the dask worker {worker} runs another cuttle ({_described(theirs)} "
                        f"there; {_described(ours)} here): install the same pycuttle on every "
                        f"machine of the cluster, so that no game depends on the machine")


class ChunkCancelled(Exception):
    """A chunk's task was cancelled while it played (`play_pieces`): nobody waits for
    its result any more."""


def play_checked(expected: tuple[str, ...], plan: Plan, start: int,
                 count: int) -> SimulationResult | ComparisonResult:
    """A cluster task: units start..start+count-1 of `plan` on a worker, which must
    run the client's build `expected` (ClusterError if it does not), played in pieces
    that stop once the task is cancelled (`play_pieces`)."""
    from distributed import get_worker
    try:
        worker = get_worker()
    except ValueError:              # (called outside a worker)
        worker = None
    here = build()
    if tuple(here) != tuple(expected):
        raise _another_build("(none)" if worker is None else worker.address, here, expected)
    if worker is None:
        return play_chunk(plan, start, count)
    key = worker.get_current_task()

    def cancelled() -> bool:
        task = worker.state.tasks.get(key)
        return task is None or task.state == "cancelled"
    return play_pieces(plan, start, count, cancelled)


def play_pieces(plan: Plan, start: int, count: int, cancelled: Callable[[], bool],
                first: int | None = None) -> SimulationResult | ComparisonResult:
    """`play_chunk(plan, start, count)`, played in pieces (from `first` units, or the
    plan's first chunk, growing x4 while a piece takes under PIECE_SECONDS) and merged:
    the same result, exactly.  Between two pieces, ChunkCancelled if `cancelled()`.
    (dask lets a running task whose future was cancelled run to its end: a whole chunk
    went on playing for seconds after Ctrl-C, minutes with a large chunk_size.)"""
    t0 = time.perf_counter()
    pieces = Chunks(count, True, target=PIECE_SECONDS, factor=4,
                    first=plan.first_chunk if first is None else first)
    parts = []
    lo, stop = start, start + count
    while lo < stop:
        if parts and cancelled():
            raise ChunkCancelled(f"units {start}..{stop - 1}: cancelled after {lo - start}")
        n = min(pieces.size, stop - lo)
        parts.append(play_chunk(plan, lo, n))
        pieces.took(parts[-1].elapsed, n)
        lo += n
    while len(parts) > 1:           # (pairwise: merging rows copies them)
        parts = [parts[i].merge(parts[i + 1]) if i + 1 < len(parts) else parts[i]
                 for i in range(0, len(parts), 2)]
    return parts[0].with_elapsed(time.perf_counter() - t0)


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
            raise _another_build(worker, theirs, ours)
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
    index order with a games CSV (`sink`) or within `in_index_order`."""
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
    window = 2 * workers + 2
    expected = build()
    token = uuid.uuid4().hex[:12]
    pending: dict[Future, tuple[int, int]] = {}       # future -> (start, count)
    # start -> (count, result), waiting for their turn (index order)
    buffered: dict[int, tuple[int, SimulationResult | ComparisonResult]] = {}
    done = distributed.as_completed(with_results=True)
    stop = start + n
    state = {"next": start, "write": start}

    def fill():
        while state["next"] < stop and len(pending) + len(buffered) < window:
            lo = state["next"]
            # Near the end chunks shrink (guided scheduling), so that no worker is left
            # with a long last chunk while the others idle.
            tail = max(plan.first_chunk, -(-(stop - lo) // (2 * workers)))
            count = min(chunks.size, tail, stop - lo)
            fut = _submit(client, address, f"cuttle-{desc}-{token}-{lo}", expected, plan,
                          lo, count)
            pending[fut] = (lo, count)
            done.add(fut)
            state["next"] = lo + count

    ordered = sink is not None or _IN_ORDER.get()

    def parts():
        fill()
        for fut, result in _finished(done, distributed, client, address,
                                     _Workers(client, plan.unit)):
            lo, count = pending.pop(fut)
            chunks.took(result.elapsed, count)
            if not ordered:
                yield count, result
            else:
                buffered[lo] = (count, result)
                while state["write"] in buffered:
                    c, r = buffered.pop(state["write"])
                    state["write"] += c
                    yield c, r
            fill()

    def cancel():
        log = logging.getLogger("distributed.scheduler")
        if _CANCELLED not in log.filters:
            log.addFilter(_CANCELLED)
        _CANCELLED.tokens.add(token)
        _cancel(client, list(pending))
        pending.clear()
        buffered.clear()
        done.clear()

    return collect(parts(), plan, n, progress, sink, desc, cancel)


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


def _finished(done, distributed, client, address: str, workers: _Workers):
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
        except distributed.KilledWorker as e:
            raise ClusterError(f"the dask workers kept dying on the run: {e}") from None
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
