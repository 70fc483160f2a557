"""Ctrl-C held while something that must be whole is written.

A run stops at Ctrl-C and keeps what it finished (`cuttle.Interrupted`).  Two moments
must not be cut in half: a finished chunk's per-game rows going to a games CSV together
with its counts going into the result (cuttle.simulation.runner.collect: a Ctrl-C
between them left rows in the file that the result did not count), and a command's
outputs being written after the run (a second Ctrl-C, pressed because the first seemed
slow, would skip the files still to write).  Both happen inside `ctrl_c_deferred()`,
which holds such a Ctrl-C until the block is done; either takes well under a second.

A `kill` (SIGTERM, what job schedulers and `timeout` send) would end the process at once,
leaving a half-written output's hidden temporary file behind and the finished work
unwritten: a command takes it as a Ctrl-C instead (`sigterm_as_ctrl_c`), also where
SIGINT is ignored, as in a job a script starts in the background (`cmd &`: a shell
without job control ignores SIGINT for it, so that the terminal's Ctrl-C leaves it be).
A script calling the library under a job scheduler does the same by running its work
inside `sigterm_as_ctrl_c()` (see its example).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["ctrl_c_deferred", "sigterm_as_ctrl_c"]

# The signals held by the open blocks of ctrl_c_deferred (main thread, innermost last),
# for a SIGTERM that stands for Ctrl-C where SIGINT is ignored.
_held: list[list[int]] = []


@contextlib.contextmanager
def ctrl_c_deferred() -> Iterator[None]:
    """A block that Ctrl-C does not interrupt: a Ctrl-C pressed inside it raises its
    KeyboardInterrupt once the block is done (a command then exits with status 130);
    an exception of the block goes on as it is.  Only in the main thread while
    Python's SIGINT handler is its default (a program that set its own keeps it), so
    this is a plain block elsewhere."""
    pressed: list[int] = []
    old = None
    main = threading.current_thread() is threading.main_thread()
    if main and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        old = signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(signum))
    if main:
        _held.append(pressed)
    try:
        yield
    finally:
        if main:
            _held.pop()                      # (this block's: they nest)
        if old is not None:
            signal.signal(signal.SIGINT, old)
    if pressed:
        raise KeyboardInterrupt


class Terminated:
    """Whether a SIGTERM stopped the block of `sigterm_as_ctrl_c` (a command then exits
    with 143, 128 + SIGTERM, rather than Ctrl-C's 130)."""

    def __init__(self) -> None:
        self.seen = False

    def __bool__(self) -> bool:
        return self.seen


@contextlib.contextmanager
def sigterm_as_ctrl_c() -> Iterator[Terminated]:
    """A block in which SIGTERM acts as Ctrl-C: the run stops within a second, keeps what
    it finished and writes its outputs.  In the main thread only.  While Python's
    SIGINT handler is its default, the handler raises SIGINT, so native work stops by
    the very path Ctrl-C takes.  Where SIGINT is ignored (a background job of a
    script), it stays ignored and the first SIGTERM raises KeyboardInterrupt itself
    (held, like Ctrl-C, while an output is written; later ones are ignored, since the
    outputs are being written).  Either way every thread of native work sees the
    SIGTERM at once, as it sees Ctrl-C (`stops_native_work`, read by
    cuttle._signals).  Where a program handles SIGINT its own way, SIGTERM keeps its
    own handler.

    The `cuttle` command runs inside it; a script calling the library (`simulate`,
    `compare`, `atlas`, `balance`, `review`, ...) under a job scheduler or `timeout`,
    whose time limit sends SIGTERM, keeps its finished work the same way: the call
    raises `cuttle.Interrupted` with what finished as its ``result``, as at Ctrl-C, and
    the block's value is true once a SIGTERM came (exit with 143, 128 + SIGTERM, to say
    so).  Without it a SIGTERM ends Python at once, the finished work lost:

        import sys
        import cuttle
        from cuttle.interrupts import sigterm_as_ctrl_c

        with sigterm_as_ctrl_c() as terminated:
            try:
                result = cuttle.simulate(10**9, players=("expert", "greedy"), seed=1)
            except cuttle.Interrupted as e:
                result = e.result               # the games that finished
        print(result.summary())
        sys.exit(143 if terminated else 0)
    """
    flag = Terminated()
    old = None

    def on_sigterm(signum, frame):
        flag.seen = True
        signal.raise_signal(signal.SIGINT)

    def on_sigterm_alone(signum, frame):
        if flag.seen:
            return
        flag.seen = True
        if _held:
            _held[-1].append(signum)
            return
        raise KeyboardInterrupt

    # Python runs a handler in the main thread only, which in native work is seen by
    # the batch's polling thread alone: while it waits for the other threads' long
    # items, a SIGTERM would wait with it.  A batch asks whether the handler raises
    # KeyboardInterrupt now; if so, every thread of it stops at the signal itself, as
    # at Ctrl-C (cuttle._signals).
    on_sigterm.stops_native_work = \
        lambda: signal.getsignal(signal.SIGINT) is signal.default_int_handler
    on_sigterm_alone.stops_native_work = lambda: not (flag.seen or _held)

    if threading.current_thread() is threading.main_thread():
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            old = signal.signal(signal.SIGTERM, on_sigterm)
        elif signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
            old = signal.signal(signal.SIGTERM, on_sigterm_alone)
    try:
        yield flag
    finally:
        if old is not None:
            signal.signal(signal.SIGTERM, old)
