"""Exceptions of the public API (all are ValueErrors, as python-chess does it)."""


class IllegalMoveError(ValueError):
    """A move that is not legal in the current position; the game is left unchanged."""


class InvalidMoveError(IllegalMoveError):
    """Move text that does not parse (unknown verb, bad card, wrong number of cards)."""
