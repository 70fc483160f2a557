"""Simulations: many games (or matches) between two players, with summary statistics.

>>> import cuttle
>>> res = cuttle.simulate(100_000, players=("greedy", "random"), seed=1)
>>> print(res.summary())                  # a table; res.summary().as_dict() for JSON
>>> res.summary().win_rate("A")           # (rate, low, high), 95 % Wilson interval
>>> cmp = cuttle.compare(["classic", cuttle.Rules(four="random")], 100_000, seed=1)
>>> print(cmp)                            # each rule set and its difference to the first

**Players.**  A player is a policy name (`player_names()`: "random", "greedy"), played by
the native core over all cores, or a Python callable ``policy(game) -> move`` choosing
one of ``game.legal_moves`` (optionally ``policy(game, rng)``, where ``rng`` is a
`random.Random` seeded per game, for reproducible random choices).  A policy must not
change the game it is given (use ``game.copy()`` to look ahead); it is not consulted when
only one move is legal.  If either player is a callable, the games are played in Python
with `cuttle.Game` (much slower); a named policy then makes the core's own choice for
each position, drawing its randomness from the game's `rng`.  Game ``i`` is dealt
exactly as in a native run, so the deals are the same; the moves are reproducible too.

**Seeds and game indices.**  A run is identified by its ``seed``: game ``i`` is dealt and
played from the pair ``(seed, i)`` alone, so results do not depend on the thread count or
on how the run is cut into chunks (`chunk_size`, used to drive the progress bar), and
the first ``m`` games of a longer run are the games of a run of ``m``.  ``seed=None``
picks a random seed and records it in the result (``result.seed``) so the run can be
repeated.  With ``swap_seats`` (the default) player A moves first in even-numbered games
and B in odd-numbered ones; without it A always moves first.

**Matches.**  ``match="best_of_3"`` (first to 2 game wins) or ``"first_to_3"`` (first to 3
game wins) plays matches instead of games; ``n`` then counts matches.  Drawn games do not
count towards a match, and the first player alternates game by game.  Match ``j`` owns
the game indices ``j*K .. j*K+K-1`` (``K = MATCH_FORMATS[match].slots``: 7 for best of 3,
11 for first to 3; one more without ``swap_seats``) and plays them in order until a
player has won enough games; a match not decided within its ``K`` games is a drawn
match.  Because ``K`` is odd, A moves first in the first game of even-numbered matches
and B in odd-numbered ones (without ``swap_seats``, ``K`` is even and A starts every
match).  The native core plays all ``K`` games of a match (about 2.5 times the games
actually needed; they are cheap), Python players only the games needed.
"""

import numpy as np

from ..rules import Rules
from ..seeding import seed_or_new
from ..stats import z_value
from .compare import ComparisonResult
from .formats import DEFAULT_MAX_MOVES, MATCH_FORMATS
from .players import resolve_players
from .results import SimulationResult
from .runner import run

__all__ = ["compare", "simulate"]

DEFAULT_CHUNK = 1 << 16


def _positive_int(x, name):
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x <= 0:
        raise ValueError(f"{name} must be a positive int, not {x!r}")
    return int(x)


def _check_threads(threads):
    if threads is None:
        return 0
    return _positive_int(threads, "threads")


def _check_match(match):
    if match is None:
        return None
    if match not in MATCH_FORMATS:
        raise ValueError(f"unknown match format {match!r}; valid formats: "
                         f"{', '.join(MATCH_FORMATS)} (or None for single games)")
    return match


def simulate(n_games, rules=None, players=("random", "greedy"), seed=None, threads=None,
             swap_seats=True, progress=None, *, match=None, max_moves=DEFAULT_MAX_MOVES,
             chunk_size=None, _desc="simulate") -> SimulationResult:
    """Play `n_games` games (or matches, with `match`) and return a `SimulationResult`.

    rules: a `Rules`, a preset name or None (classic).  players: (A, B), each a policy
    name ("random", "greedy") or a callable ``policy(game) -> move``.  seed: an int, or
    None for a random seed (recorded in the result).  threads: cores for the native core
    (None: all).  swap_seats: A moves first in even-numbered games (else always).
    progress: True / False / None (a bar on stderr only if it is a terminal) / a
    callable(done, total).  match: None, "best_of_3" or "first_to_3".  max_moves: a game
    still running after this many moves ends as a draw ("move_cap").  chunk_size: games
    per native call (with matches, as many whole matches as fit, at least one); None:
    start small and grow while a call takes under 0.2 s, up to 65536 games (so slow
    policies still move the progress bar).  Chunking affects only the progress bar's
    steps, never the results.
    """
    n = _positive_int(n_games, "n_games")
    rules = Rules.coerce(rules)
    pl = resolve_players(players)
    seed = seed_or_new(seed)
    nthreads = _check_threads(threads)
    match = _check_match(match)
    max_moves = _positive_int(max_moves, "max_moves")
    if max_moves > 2**31 - 1:
        raise ValueError("max_moves must be below 2**31")
    adaptive = chunk_size is None
    chunk = DEFAULT_CHUNK if adaptive else _positive_int(chunk_size, "chunk_size")
    swap_seats = bool(swap_seats)
    # In a match the first player alternates game by game: game i's first player follows
    # the parity of i (the core's swap_seats), and the parity of the match's number of
    # game slots decides who starts each match.
    return run(n, rules, pl, seed, nthreads, swap_seats, match, max_moves, chunk, adaptive,
               progress, threads, _desc)


def compare(rule_sets, n_games, players=("random", "greedy"), seed=None, threads=None,
            swap_seats=True, progress=None, *, match=None, max_moves=DEFAULT_MAX_MOVES,
            chunk_size=None, labels=None, confidence=0.95) -> ComparisonResult:
    """Play the same `n_games` deals (or matches) under each rule set and compare.

    Common random numbers: every rule set is played with the same seed and game indices,
    so the deals are identical, and the differences between rule sets come with paired
    (tighter) intervals.  Rule sets are `Rules`, preset names or None; the first is the
    baseline.  Other arguments as for `simulate`; `seed=None` picks one seed for all.
    """
    if isinstance(rule_sets, (str, Rules)) or rule_sets is None:
        raise ValueError("compare needs a list of rule sets (at least two)")
    rule_sets = [Rules.coerce(r) for r in rule_sets]
    if len(rule_sets) < 2:
        raise ValueError(f"compare needs at least two rule sets, not {len(rule_sets)}")
    if labels is None:
        labels = [str(r) for r in rule_sets]
    else:
        labels = [str(x) for x in labels]
        if len(labels) != len(rule_sets):
            raise ValueError(f"{len(labels)} labels for {len(rule_sets)} rule sets")
    z_value(confidence)
    seed = seed_or_new(seed)        # one seed for all (the first run checks the rest)
    results = []
    for i, r in enumerate(rule_sets):
        results.append(simulate(n_games, r, players, seed, threads, swap_seats, progress,
                                match=match, max_moves=max_moves, chunk_size=chunk_size,
                                _desc=f"[{i + 1}/{len(rule_sets)}]"))
    return ComparisonResult(results, labels, confidence)
