"""The bot's decision off the event loop, stoppable: a search runs in slices.

A stop needs no help from the native core.  `Bot` keeps its search trees between
calls and reuses them when the position has not changed, so ``ismcts:N`` is played as
`k` calls of ``ismcts:N/k`` on the same position: each call continues the same tree,
and the last call's answer is the most visited move of the whole search.  Between two
slices the worker looks at its `Control`: a stop plays the best move found so far, an
abort drops the decision.  A slice is at most `SLICE_ITERATIONS` iterations (a few
milliseconds), so a stop takes effect within one slice.  The other bots (random,
greedy, expert) decide in microseconds and are one call.

`Control` is the whole interface between the server and the worker, so a native
per-work cancel token can later replace the slicing without changing the callers.
"""

from __future__ import annotations

import math
import threading
from typing import TYPE_CHECKING

from ..policies import Bot, canonical_policy, is_search

if TYPE_CHECKING:
    from ..game import Game
    from ..moves import Move

__all__ = ["Control", "SLICE_ITERATIONS", "Thinker", "slices_of"]

SLICE_ITERATIONS = 2000         # about 7 ms of one core at ~285,000 iterations/s


class Control:
    """Asks a running decision to stop (play the best move so far) or to abort (drop
    it); thread-safe, one per decision."""

    def __init__(self) -> None:
        self._stop = threading.Event()
        self.aborted = False

    def stop(self) -> None:
        """Play the best move found so far, at the end of the current slice."""
        self._stop.set()

    def abort(self) -> None:
        """Stop, and tell the caller to drop the move."""
        self.aborted = True
        self._stop.set()

    @property
    def stopped(self) -> bool:
        """Whether a stop (or an abort) was asked."""
        return self._stop.is_set()


def slices_of(name: str) -> tuple[str, int]:
    """(the policy name of one slice, the number of slices) of a bot name: a search of
    N iterations runs in k = ceil(N / SLICE_ITERATIONS) slices of ceil(N / k)."""
    name = canonical_policy(name)               # ValueError for a bad name
    if not is_search(name):
        return name, 1
    kind, _, param = name.partition(":")        # (a search's full name has its count)
    n = int(param)
    k = max(1, math.ceil(n / SLICE_ITERATIONS))
    return f"{kind}:{math.ceil(n / k)}", k


class Thinker:
    """The bot of one web game: `decide(game, control)` returns its move for a copy
    of the game (called in a worker thread, one call at a time).  `progress` counts
    the slices finished in the current decision (for the thinking indicator)."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = canonical_policy(name)
        self.seed = seed
        slice_name, self.slices = slices_of(name)
        self.bot = Bot(slice_name, seed=seed, threads=1)
        self.progress = (0, self.slices)

    def decide(self, game: Game, control: Control) -> Move | None:
        """The bot's move for `game` (not changed); None if aborted before any slice."""
        move = None
        for k in range(self.slices):
            if control.stopped and move is not None:
                break
            if control.aborted:
                return None
            move = self.bot.choose(game)
            self.progress = (k + 1, self.slices)
        return None if control.aborted else move
