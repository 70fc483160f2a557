"""The thread-count rule of all native work: None means all cores (one, for a bot's
search), otherwise an int from 1 to MAX_THREADS, a bound that keeps a typo from asking
OpenMP for a million threads."""

from __future__ import annotations

import numbers

__all__ = ["MAX_THREADS", "check_threads"]

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
