"""Players: the native policies by name, and bots that pick a move for a Game.

Names (case-insensitive): ``"random"`` (uniform over legal moves), ``"greedy"`` (one-ply
heuristic: wins at once when it can, weighs points, threats, cards and Queens),
``"ismcts:N"`` (information-set Monte Carlo tree search, N iterations, greedy playouts;
plain ``"ismcts"`` means N = 1000) and ``"ismcts-random:N"`` (the same with random
playouts).  Every native policy sees only what its player may know: ISMCTS searches over
determinizations of its view, greedy uses the public table, hand sizes and its own
hand (it does not look at an opponent's hand made public by glasses or open hands).
"""

from ._play import decide
from ._policies import POLICIES, POLICY_PARAM_SHIFT
from .moves import Move
from .seeding import derive, seed_or_new

__all__ = ["Bot", "DEFAULT_ISMCTS_ITERATIONS", "MAX_ISMCTS_ITERATIONS", "POLICY_NAMES",
           "policy_code"]

DEFAULT_ISMCTS_ITERATIONS = 1000
MAX_ISMCTS_ITERATIONS = 1_000_000
POLICY_NAMES = tuple(f"{name}:N" if takes_n else name
                     for name, (_, takes_n) in POLICIES.items())


def policy_code(name: str) -> int:
    """The core's code for a policy name; ValueError naming the valid ones."""
    if not isinstance(name, str):
        raise ValueError(f"a policy is a name like 'greedy' or 'ismcts:1000', not {name!r}")
    kind, colon, param = name.strip().lower().partition(":")
    if kind not in POLICIES:
        raise ValueError(f"unknown policy {name!r}; valid: {', '.join(POLICY_NAMES)}")
    code, takes_n = POLICIES[kind]
    if not takes_n:
        if colon:
            raise ValueError(f"policy {kind!r} takes no parameter, not {name!r}")
        return code
    if not colon:
        iterations = DEFAULT_ISMCTS_ITERATIONS
    elif param.isascii() and param.isdigit() and 1 <= int(param) <= MAX_ISMCTS_ITERATIONS:
        iterations = int(param)
    else:
        raise ValueError(f"bad iteration count in {name!r}: use e.g. '{kind}:1000' "
                         f"(1 to {MAX_ISMCTS_ITERATIONS:,})")
    return code | (iterations << POLICY_PARAM_SHIFT)


class Bot:
    """A native policy as a player: ``Bot("greedy").choose(game) -> Move``.

    A seeded bot is reproducible in every process: its k-th call uses the seed
    ``derive(seed, k)``.
    """

    def __init__(self, name: str = "greedy", seed=None):
        self.code = policy_code(name)
        self.name = name.strip().lower()
        self.seed = seed_or_new(seed)
        self._calls = 0

    def choose(self, game) -> Move:
        """The bot's move for the player to decide in `game` (the game is not changed)."""
        if game.is_over:
            raise ValueError("the game is over: there is no move to choose")
        self._calls += 1
        return Move.from_code(decide(game, self.code, derive(self.seed, self._calls)))

    __call__ = choose

    def __repr__(self):
        return f"Bot({self.name!r})"
