"""The thread-count rule of all native work: None means all cores (one, for a bot's
search), otherwise an int from 1 to MAX_THREADS, a bound that keeps a typo from asking
OpenMP for a million threads.  Python checks the argument (check_threads, which gives
0 for None); the native calls turn 0 into the cores (thread_count)."""

from __future__ import annotations

import numbers
import os

__all__ = ["MAX_THREADS", "check_threads", "cores", "thread_count"]

MAX_THREADS = 1024


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
    """The threads a native call runs for `threads` as check_threads gives it: every
    core for 0 (None), else `threads`."""
    return threads if threads > 0 else cores()
