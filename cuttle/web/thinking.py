"""The bot's decision off the event loop, stoppable through a native cancel token.

The web's bot is the library's: each decision is the one call
``Bot(name, seed, threads=1).choose(game)`` makes, so a seeded game plays the library's
moves bit for bit.  The search is bound to the decision's cancel token
(`cuttle._signals.Cancel`, held by its `Control`), which the search polls every 16
iterations without the GIL: `Control.stop()`, from the event loop, makes it play its
best move so far within a millisecond; `abort()` stops it too and drops the move.  The
other bots (random, greedy, expert) decide in microseconds and never look at it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._signals import Cancel
from ..policies import Bot, canonical_policy, is_search

if TYPE_CHECKING:
    from ..game import Game
    from ..moves import Move

__all__ = ["Control", "Thinker"]


class Control:
    """Asks a running decision to stop (play the best move so far) or to abort (drop
    it); thread-safe, one per decision (a stop asked before the search starts stops it
    at its first poll)."""

    def __init__(self) -> None:
        self.token = Cancel()
        self.aborted = False

    def stop(self) -> None:
        """Play the best move found so far, now."""
        self.token.cancel()

    def abort(self) -> None:
        """Stop, and tell the caller to drop the move."""
        self.aborted = True
        self.token.cancel()

    @property
    def stopped(self) -> bool:
        """Whether a stop (or an abort) was asked."""
        return self.token.cancelled


class Thinker:
    """The bot of one web game: `decide(game, control)` returns its move for a copy
    of the game (called in a worker thread, one call at a time).  `progress` is the
    last decision's (iterations searched, the search's iterations): (0, 0) for a bot
    that does not search, fewer than all for a search stopped or settled early."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = canonical_policy(name)      # ValueError for a bad name
        self.seed = seed
        self.bot = Bot(self.name, seed=seed, threads=1)
        self.iterations = int(self.name.partition(":")[2]) if is_search(self.name) else 0
        self.progress = (0, self.iterations)

    def decide(self, game: Game, control: Control) -> Move | None:
        """The bot's move for `game` (not changed); None if aborted."""
        if control.aborted:
            return None
        move = self.bot._choose(game, control.token)
        self.progress = (control.token.done, self.iterations)
        return None if control.aborted else move
