"""Exceptions of the public API (all are ValueErrors, as python-chess does it)."""

from __future__ import annotations

from typing import Any


class IllegalMoveError(ValueError):
    """A move that is not legal in the current position; the game is left unchanged."""


class InvalidMoveError(IllegalMoveError):
    """Move text that does not parse (unknown verb, bad card, wrong number of cards)."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped long work (a simulation, a comparison, an analysis): `result` is
    what had finished (a result of the same kind covering the finished part, or None),
    `done` and `total` count the finished and asked-for units (`unit`: "game",
    "match", "rollout")."""

    # `result` is whichever result the interrupted work builds (or None): Any.
    def __init__(self, result: Any, done: int, total: int | None, unit: str = "game"):
        super().__init__()
        self.result, self.done, self.total, self.unit = result, done, total, unit

    def __str__(self):
        return f"interrupted after {self.done:,} of {self.total:,} {self.unit}s"
