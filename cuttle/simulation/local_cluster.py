"""A dask cluster on this machine (``--scheduler local:N``): started with its workers
ignoring Ctrl-C, closed quietly, and ended at once when a Ctrl-C cuts its start or its
close short.  The runs themselves are `cuttle.simulation.cluster`'s, on any cluster.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import signal
import threading
from typing import TYPE_CHECKING, Any

from .cluster import _distributed

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["close_local_cluster", "start_local_cluster"]


def start_local_cluster(n_workers: int) -> Client:
    """A Client of a new LocalCluster of `n_workers` single-threaded worker processes
    (close it with `close_local_cluster`).

    A Ctrl-C during the start-up (a few seconds) is held until the workers are up, then
    they are stopped and KeyboardInterrupt is raised: cancelling dask half-way leaves
    half-started workers that print tracebacks (dask's assertion at exit, a worker
    process that lost its parent).  The worker processes ignore Ctrl-C (`dask_setup`),
    which a terminal sends to the whole process group: the client stops them, quietly,
    where each used to print its KeyboardInterrupt; and they log errors only, not the
    warnings of the tasks a Ctrl-C cancels."""
    distributed = _distributed()
    from distributed.deploy.spec import SpecCluster
    before = set(SpecCluster._instances)
    pressed = []

    def hold(signum, frame):
        if pressed:
            raise KeyboardInterrupt
        pressed.append(signum)

    # (Ctrl-C reaches only the main thread, and not at all where it is ignored)
    main = threading.current_thread() is threading.main_thread() and \
        signal.getsignal(signal.SIGINT) is not signal.SIG_IGN
    old = signal.signal(signal.SIGINT, hold) if main else None
    try:
        cluster = distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1,
                                           processes=True, dashboard_address=":0",
                                           silence_logs=logging.ERROR,
                                           preload=[__name__])     # (dask_setup below)
        client = distributed.Client(cluster)
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):        # the second Ctrl-C
            _abandon([c for c in list(SpecCluster._instances) if c not in before])
        elif pressed:
            raise KeyboardInterrupt from None
        raise
    finally:
        if main:
            signal.signal(signal.SIGINT, old)
    if pressed:
        close_local_cluster(client)
        raise KeyboardInterrupt
    return client


def close_local_cluster(client: Client) -> None:
    """Close a client of `start_local_cluster` and its cluster (half a second; dask
    waits for each worker to finish what it plays).  A Ctrl-C meanwhile ends the worker
    processes at once and takes the cluster off dask's list of clusters to close at
    exit (which waited 10 s for the interrupted close), then raises
    KeyboardInterrupt."""
    cluster = client.cluster
    try:
        client.close()
        cluster.close()
    except KeyboardInterrupt:
        _end_workers(cluster)
        raise


def _end_workers(cluster) -> None:
    """Kill the worker processes of a local cluster whose close was cut short, quietly
    (its nannies log their workers' deaths), and take it off dask's list of clusters to
    close at exit.

    Each nanny is first told that the cluster closes (`Nanny.close_gracefully`, as
    dask's own close tells it), unless its close has begun: a nanny still running
    started a new worker process in place of the one killed, and that process, spawned
    as this one exited, printed its traceback (an EOFError or a FileNotFoundError, its
    start-up data or semaphore gone) and left a semaphore behind.

    The queues between each nanny and its worker process are kept until this process
    exits (`_keep_queues`): their semaphores are then cleaned up by the exit itself."""
    from distributed.core import Status
    from distributed.deploy.spec import SpecCluster
    for name in ("distributed", "asyncio", "tornado"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    for nanny in list(getattr(cluster, "workers", {}).values()):
        if getattr(nanny, "status", None) == Status.running:
            nanny.close_gracefully()
        # (Nanny.process: its WorkerProcess, whose .process is the process)
        process = getattr(nanny, "process", None)
        _keep_queues(process)
        pid = getattr(getattr(process, "process", None), "pid", None)
        if pid:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    SpecCluster._instances.discard(cluster)
    # (the queues of workers that had already stopped: cleaned up here, at once)
    gc.collect()


# The multiprocessing queues of the worker processes of local clusters whose close was
# cut short, kept until exit (`_keep_queues`).
_KEPT_QUEUES: list[Any] = []


def _keep_queues(process) -> None:
    """Keep the queues between a nanny and its worker process (a WorkerProcess, or None)
    until this process exits.  Each holds multiprocessing semaphores, which Python's
    resource tracker is told of; a queue let go of is cleaned up by whichever thread
    collects it: the event-loop thread that goes on closing the cluster after a Ctrl-C,
    which the exit froze half-way, the semaphore gone but the tracker not told, and it
    warned of a leaked semaphore and of its missing file (rarely: under load).  Kept,
    they are cleaned up by the exit, in the main thread."""
    for name in ("init_result_q", "child_stop_q"):
        queue = getattr(process, name, None)
        if queue is not None:
            _KEPT_QUEUES.append(queue)


def dask_setup(worker: Any) -> None:
    """Run in each worker process of `start_local_cluster` as it starts (a dask
    preload): ignore Ctrl-C, which the terminal sends to the whole process group; the
    client that started the workers stops them."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _abandon(clusters):
    """Stop clusters whose start-up was interrupted.  Their workers may be half
    started, which dask's close asserts against (at exit too): close them as far as
    possible, quietly, and take them off dask's list of clusters to close at exit.  (A
    close that does not finish goes on as the command exits: the queues of the workers
    are kept till then, as `_end_workers` keeps them.)"""
    from distributed.deploy.spec import SpecCluster
    for name in ("distributed", "asyncio", "tornado"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    for cluster in clusters:
        for nanny in list(getattr(cluster, "workers", {}).values()):
            _keep_queues(getattr(nanny, "process", None))
        with contextlib.suppress(BaseException):
            cluster.close(timeout=2)
        SpecCluster._instances.discard(cluster)
