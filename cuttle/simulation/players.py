"""Players of a simulation: a native policy name (played by the core), a `Bot` (played
by the core as its policy's name: the run's seed decides its moves, not the bot's own
seed, threads or count of decisions), or a Python callable ``policy(game) -> move`` /
``policy(game, rng) -> move``.  A player is labelled by its policy's full name
(`cuttle.policies.canonical_policy`: ``"ismcts"`` plays and reads ``"ismcts:1000"``), a
callable by its ``__name__``.

A callable is handed the live `Game` of the run, hidden cards included (the opponent's
hand, the deck order): `cuttle.policies.fair(policy)` is the same policy on a
determinization of its player's view.  Its ``rng`` is a `random.Random` seeded by the
run's seed, the game's index and its seat (`cuttle.seeding.seat_seed`: each seat its
own, so the opponent's play never depends on how many numbers it draws), so a policy that
draws from it, rather than from the `random` module, plays the same moves in every run of
the same seed, whatever the threads, chunks or machines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._decide import decide
from ..moves import Move
from ..policies import CALLABLE_FORMS, POLICY_NAMES, Bot, canonical_policy, policy_code, with_rng

if TYPE_CHECKING:
    import random
    from collections.abc import Callable, Iterable

    from ..game import Game

__all__ = ["Player", "native_policy_code", "player_names", "resolve_players"]

# The forms of a Python player, added to a bad name's error (`cuttle.policies.takes_rng`
# checks a callable's).
_CALLABLE_HINT = f" (or, from Python, {CALLABLE_FORMS})"


def player_names() -> tuple[str, ...]:
    """The names of the native policies ("ismcts:N" stands for a family)."""
    return POLICY_NAMES


def native_policy_code(name: str, what: str = "a player") -> int:
    """The core's code for the policy `name` (see `cuttle.policies`); ValueError naming
    `what` ("player A") for anything else."""
    if not isinstance(name, str):
        raise ValueError(f"{what} must be a policy name ({', '.join(player_names())}) or "
                         f"{CALLABLE_FORMS}, not {name!r}")
    try:
        return policy_code(name)
    except ValueError as e:
        # (the policy's message names the value: said once)
        raise ValueError(f"{e}{_CALLABLE_HINT}") from None


def _plain_bot(spec):
    """Whether `spec` is a `Bot` that chooses as Bot does (a subclass changing how it
    chooses is a callable like any other)."""
    return (isinstance(spec, Bot) and type(spec).choose is Bot.choose
            and type(spec).__call__ is Bot.__call__)


class Player:
    """A resolved player: a native policy code (from a name or a `Bot`), or a Python
    function (game, rng) -> move; `name` labels it (a policy's full name)."""

    __slots__ = ("name", "code", "func")

    def __init__(self, spec: str | Bot | Callable[..., Move | str | int],
                 what: str = "a player"):
        if _plain_bot(spec):
            # its policy, natively: the run's seed decides (not the bot's own seed)
            self.code, self.name, self.func = spec.code, spec.name, None
        elif callable(spec):
            self.code = None
            self.name = getattr(spec, "__name__", None) or type(spec).__name__
            self.func = with_rng(spec, what)        # (a callable of neither form: refused)
        else:
            self.code = native_policy_code(spec, what)  # ValueError for a bad name
            self.name = canonical_policy(spec)
            self.func = None

    def __getstate__(self):
        return (self.name, self.code, self.func)

    def __setstate__(self, state):
        self.name, self.code, self.func = state

    @property
    def native(self) -> bool:
        """Whether the core plays this player itself (a policy name, not a callable)."""
        return self.code is not None

    def python_func(self) -> Callable[[Game, random.Random], Move | str | int]:
        """The player as a function (game, rng) -> move, for games played in Python (a
        named policy makes the core's own choice for the position, seeded from its
        seat's rng)."""
        if self.func is not None:
            return self.func
        return _NativeChoice(self.code)


class _NativeChoice:
    """A native policy called from a game played in Python (picklable, unlike a closure)."""

    __slots__ = ("code",)

    def __init__(self, code):
        self.code = code

    def __getstate__(self):
        return self.code

    def __setstate__(self, code):
        self.code = code

    def __call__(self, game, rng):
        return Move.from_code(decide(game, self.code, rng.getrandbits(64)))


def resolve_players(players: str | Iterable[str | Bot | Callable[..., Move | str | int]]
                    ) -> list[Player]:
    """[Player A, Player B] from a pair, one spec for both, or "A,B" text; each a
    policy name, a `Bot` or a callable ``policy(game)`` or ``policy(game, rng)`` (one of
    another form is refused here, naming the player: `cuttle.policies.takes_rng`)."""
    if isinstance(players, str):
        players = players.split(",")
    try:
        players = list(players)
    except TypeError:
        raise ValueError(f"players must be a pair (player A, player B), not {players!r}") from None
    if len(players) == 1:
        players = players * 2
    if len(players) != 2:
        raise ValueError(f"players must be a pair (player A, player B), not {players!r}")
    return [Player(p, f"player {ab}") for ab, p in zip("AB", players)]
