"""Seeds: one rule for every seed the library takes, and how seeds are derived.

A seed is an int in [0, 2**64) (numpy integers too); anything else is a `ValueError`
naming the argument.  `None` asks for a fresh random seed, which the result records
(`game.seed`, `result.seed`, ...) so that the work can be repeated.  Work seeded from
Python derives its streams with `derive` (the core's splitmix64 rule, so a seed gives
the same results in every process and on every machine); the core's own streams are
named in cuttle/_rng.pxd.
"""

from __future__ import annotations

import os

from ._core import derive as _derive
from .validation import check_int

__all__ = ["SEED_LIMIT", "check_seed", "derive", "new_seed", "seed_or_new"]

SEED_LIMIT = 2 ** 64


def new_seed() -> int:
    """A fresh random seed from the operating system."""
    return int.from_bytes(os.urandom(8), "little")


def check_seed(seed: object, name: str = "seed") -> int:
    """`seed` as an int in [0, 2**64); ValueError for anything else (bools, floats,
    strings, negative or too large numbers), by the integer rule of
    `cuttle.validation`."""
    return check_int(seed, name, 0, SEED_LIMIT - 1, "an int from 0 to 2**64-1")


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
