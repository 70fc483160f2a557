"""Ctrl-C held while something that must be whole is written.

A run stops at Ctrl-C and keeps what it finished (`cuttle.Interrupted`).  Two moments
must not be cut in half: a finished chunk's per-game rows going to a games CSV together
with its counts going into the result (cuttle.simulation.runner.collect: a Ctrl-C
between them left rows in the file that the result did not count), and a command's
outputs being written after the run (a second Ctrl-C, pressed because the first seemed
slow, would skip the files still to write).  Both happen inside `ctrl_c_deferred()`,
which holds such a Ctrl-C until the block is done; either takes well under a second.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["ctrl_c_deferred"]


@contextlib.contextmanager
def ctrl_c_deferred() -> Iterator[None]:
    """A block that Ctrl-C does not interrupt: a Ctrl-C pressed inside it raises its
    KeyboardInterrupt once the block is done (a command then exits with status 130);
    an exception of the block goes on as it is.  Only in the main thread while
    Python's SIGINT handler is its default (a program that set its own keeps it), so
    this is a plain block elsewhere."""
    pressed = []
    old = None
    if threading.current_thread() is threading.main_thread() and \
            signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        old = signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(signum))
    try:
        yield
    finally:
        if old is not None:
            signal.signal(signal.SIGINT, old)
    if pressed:
        raise KeyboardInterrupt
