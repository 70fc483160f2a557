"""Ctrl-C while a command writes its outputs: it waits until they are written.

A command's play stops at Ctrl-C and keeps what it finished (`cuttle.Interrupted`);
then the outputs are written, which takes well under a second.  A second Ctrl-C in that
moment (pressed again because the first seemed slow) would stop the writing and skip
the files still to write, losing the finished part after all; so every command writes
its outputs inside `ctrl_c_deferred()`, which holds such a Ctrl-C until they are
written.
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
    KeyboardInterrupt once the block is done (`cuttle.cli.main` then exits with status
    130); an exception of the block goes on as it is.  Only in the main thread while
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
