"""Seeds: one rule for every seed the library takes, and how seeds are derived.

A seed is an int in [0, 2**64) (numpy integers too); anything else is a `ValueError`
naming the argument.  `None` asks for a fresh random seed, which the result records
(`game.seed`, `result.seed`, ...) so that the work can be repeated.  Work seeded from
Python derives its streams with `derive` (the core's splitmix64 rule, so a seed gives
the same results in every process and on every machine); the core's own streams are
named in cuttle/_rng.pxd.

A seeded run's game indices are below `GAME_INDEX_LIMIT` (2**62: every stream of a game
is its own), checked by `check_game_index` wherever a game of a run is named
(`Game.from_run`, a record's ``deal``, `game_record`).  In a game played in Python (a
callable player), each seat draws from a `random.Random` of its own, `seat_seed`: the
game's players' stream split by seat, so that neither seat's draws move the other's.
"""

from __future__ import annotations

import os

from ._core import derive as _derive
from ._core import players_stream
from ._play import GAME_INDEX_LIMIT
from .text import quoted
from .validation import check_int

__all__ = ["GAME_INDEX_LIMIT", "SEED_LIMIT", "SEED_WORDS", "check_game_index", "check_seed",
           "derive", "new_seed", "read_seed", "seat_seed", "seed_or_new"]

SEED_LIMIT = 2 ** 64
SEED_WORDS = "a whole number from 0 to 2**64-1"     # a seed, to a person (read_seed)
# The game indices of a run, 0 to 2**62-1, in words (from the core's limit).
_INDEX_WORDS = f"an int from 0 to 2**{GAME_INDEX_LIMIT.bit_length() - 1}-1"


def new_seed() -> int:
    """A fresh random seed from the operating system."""
    return int.from_bytes(os.urandom(8), "little")


def check_seed(seed: object, name: str = "seed") -> int:
    """`seed` as an int in [0, 2**64); ValueError for anything else (bools, floats,
    strings, negative or too large numbers), by the integer rule of
    `cuttle.validation`."""
    return check_int(seed, name, 0, SEED_LIMIT - 1, "an int from 0 to 2**64-1")


def read_seed(value: object, name: str = "seed") -> int:
    """A seed a person gave (the command line's ``--seed``, the web app's seed box): an
    int, or its text (decimal, leading zeros and underscores allowed, or 0x hex, 0o,
    0b), from 0 to 2**64-1; ValueError "seed must be a whole number from 0 to 2**64-1,
    not '-1'" otherwise, one wording whatever was wrong (`check_seed` says "an int" to
    Python code)."""
    given = value
    if isinstance(value, str):
        t = value.strip().replace("_", "")
        try:
            value = int(t, 0 if t[:2].lower() in ("0x", "0o", "0b") else 10) \
                if t.isascii() else None
        except ValueError:
            value = None
    try:
        return check_int(value, name, 0, SEED_LIMIT - 1, SEED_WORDS)
    except ValueError:
        raise ValueError(f"{name} must be {SEED_WORDS}, not {quoted(given)}") from None


def check_game_index(index: object, name: str = "index") -> int:
    """`index` as a game index of a seeded run, an int from 0 to 2**62-1
    (`GAME_INDEX_LIMIT`), by the integer rule; ValueError otherwise (a larger index
    would deal a game of a smaller one again)."""
    return check_int(index, name, 0, GAME_INDEX_LIMIT - 1, _INDEX_WORDS)


def seed_or_new(seed: int | None, name: str = "seed") -> int:
    """`check_seed(seed)`, or a fresh seed for None."""
    return new_seed() if seed is None else check_seed(seed, name)


def derive(seed: int, *keys: int) -> int:
    """A seed derived from `seed` and a path of int keys (each in [0, 2**64)): the same
    everywhere, and unrelated for different keys (splitmix64, as the core seeds its
    streams)."""
    for k in keys:
        seed = _derive(seed, check_seed(k, "key"))
    return seed


def seat_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the `random.Random` that the player in `seat` (0 or 1) of game
    `index` of a run seeded `seed` is handed, when the game is played in Python (a
    callable player's ``rng``, a native policy's choices there): the game's players'
    stream (`policy_stream` of cuttle/_rng.pxd) derived once more by the seat, so each
    seat has a stream of its own and a player's play does not depend on how many
    numbers its opponent draws."""
    return derive(seed, players_stream(check_game_index(index)), seat)
