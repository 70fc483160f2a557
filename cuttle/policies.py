"""Players: the native policies by name, and bots that pick a move for a Game.

Names: ``"random"`` (uniform over legal moves), ``"greedy"`` (one-ply heuristic: wins at
once when it can, weighs points, threats, cards and Queens), ``"ismcts:N"``
(information-set Monte Carlo tree search, N iterations, greedy playouts) and
``"ismcts-random:N"`` (the same with random playouts).  Every native policy sees only
what its player may know: ISMCTS searches over determinizations of its view, greedy
uses the public table, hand sizes and its own hand.
"""

import os

from ._core import ISMCTS_KINDS, POLICY_CODES
from .moves import Move

DEFAULT_ISMCTS_ITERATIONS = 1000
POLICY_NAMES = ("random", "greedy", "ismcts:N", "ismcts-random:N")


def policy_code(name: str) -> int:
    """The core's code for a policy name; ValueError naming the valid ones."""
    if not isinstance(name, str):
        raise ValueError(f"a policy is a name like 'greedy' or 'ismcts:1000', not {name!r}")
    key = name.strip().lower()
    if key in POLICY_CODES:
        return POLICY_CODES[key]
    kind, _, param = key.partition(":")
    if kind in ISMCTS_KINDS:
        if not param:
            iterations = DEFAULT_ISMCTS_ITERATIONS
        elif param.isdigit() and 1 <= int(param) <= 1_000_000:
            iterations = int(param)
        else:
            raise ValueError(f"bad iteration count in {name!r}: use e.g. 'ismcts:1000' "
                             f"(1 to 1,000,000)")
        return ISMCTS_KINDS[kind] | (iterations << 8)
    raise ValueError(f"unknown policy {name!r}; valid: {', '.join(POLICY_NAMES)}")


class Bot:
    """A native policy as a player: ``Bot("greedy").choose(game) -> Move``.

    Seeded bots are reproducible: the k-th call of a bot with seed s uses stream (s, k).
    """

    def __init__(self, name: str = "greedy", seed=None):
        self.name = name
        self.code = policy_code(name)
        self.seed = int.from_bytes(os.urandom(8), "little") if seed is None else seed
        self._calls = 0

    def choose(self, game) -> Move:
        if game.is_over:
            raise ValueError("the game is over: there is no move to choose")
        self._calls += 1
        code = game._core_policy_move(self.code, hash((self.seed, self._calls)) & (2**64 - 1))
        return Move.from_code(code)

    __call__ = choose

    def __repr__(self):
        return f"Bot({self.name!r})"
