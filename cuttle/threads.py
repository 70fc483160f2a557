"""The thread-count rule of all native work: None means all cores (one, for a bot's
search), otherwise an int from 1 to MAX_THREADS, a bound that keeps a typo from asking
OpenMP for a million threads.  Python checks the argument (check_threads, which gives
0 for None); the native calls turn it into the threads they start (thread_count): the
cores for 0, and never more than THREADS_PER_CORE per core, since results never depend
on the thread count, and more threads than that only cost memory (each reserves a
stack: 1,024 of them under a memory limit made OpenMP end the process).  A search bot's
`threads` trees are searched by as many threads, so its choices stay those of its
`threads` argument."""

from __future__ import annotations

import numbers
import os

# Waiting threads.  The threads of a native call wait for each other at its end, and
# libgomp's default is to spin there for about 3 ms before sleeping.  When other
# programs keep the cores busy, the spinning thread takes a core from the very thread
# it waits for: VectorEnv(threads=2) ran at a fifth of threads=1's speed beside one busy
# process (its steps are ~0.5 ms).  A short spin (about 30 us), then sleep: set before
# libgomp loads (cuttle/__init__ imports this module before any native one), and only
# when the user set neither variable.  (benchmarks/bench_rl.py --busy measures it.)
SPIN_COUNT = "3000"
if "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
    os.environ["GOMP_SPINCOUNT"] = SPIN_COUNT

__all__ = ["MAX_THREADS", "THREADS_PER_CORE", "check_threads", "cores", "thread_count"]

MAX_THREADS = 1024
THREADS_PER_CORE = 4


def check_threads(threads: object, none: str = "all cores") -> int:
    """`threads` as the core takes it: 0 for None (`none` says what None means), else
    the count, checked; ValueError otherwise."""
    if threads is None:
        return 0
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral) \
            or not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be None ({none}) or an int from 1 to "
                         f"{MAX_THREADS:,}, not {threads!r}")
    return int(threads)


def cores() -> int:
    """The cores of this machine (at least 1)."""
    return os.cpu_count() or 1


def thread_count(threads: int) -> int:
    """The threads a native call starts for `threads` as check_threads gives it: every
    core for 0 (None), else `threads`, at most THREADS_PER_CORE per core."""
    return min(threads, THREADS_PER_CORE * cores()) if threads > 0 else cores()
