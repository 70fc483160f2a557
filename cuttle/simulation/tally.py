"""Sufficient statistics of a set of games: exact integer counts and moments that
merge by addition, from which every figure of a `Summary` follows."""

import numpy as np

from .._core import END_NAMES

__all__ = ["LENGTH_BINS", "MOMENTS", "Tally", "tally_from_arrays"]

NEND = len(END_NAMES)
LENGTH_BINS = 512           # game-length histograms: bins 0..510 and ">= 511"
MOMENTS = ("moves", "turns", "score_a", "score_b")


class Tally:
    """Counts and moments of games (and of matches, for a match run).

    `counts[w + 1, f, e]`: games with winner w (-1 draw, 0 = A, 1 = B), first mover f
    (0 = A) and end reason e.  `moments[name] = (sum, sum of squares)` as exact ints for
    moves, turns, score_a, score_b.  `lengths[0]`, `lengths[1]`: histograms of moves and
    turns per game (the last bin counts every longer game).  With matches,
    `match_counts[w + 1, f]` (f: who moved first in the match's first game) and
    `match_games = (sum, sum of squares)` of the games each match played.
    """

    __slots__ = ("counts", "moments", "lengths", "match_counts", "match_games")

    def __init__(self, counts=None, moments=None, lengths=None, match_counts=None,
                 match_games=None, matches=False):
        self.counts = np.zeros((3, 2, NEND), np.int64) if counts is None else counts
        self.moments = moments if moments is not None else {k: (0, 0) for k in MOMENTS}
        self.lengths = np.zeros((2, LENGTH_BINS), np.int64) if lengths is None else lengths
        if match_counts is None and matches:
            match_counts, match_games = np.zeros((3, 2), np.int64), (0, 0)
        self.match_counts = match_counts
        self.match_games = match_games

    def __getstate__(self):
        return (self.counts, self.moments, self.lengths, self.match_counts, self.match_games)

    def __setstate__(self, state):
        self.counts, self.moments, self.lengths, self.match_counts, self.match_games = state

    @property
    def n_games(self) -> int:
        return int(self.counts.sum())

    @property
    def n_matches(self):
        return None if self.match_counts is None else int(self.match_counts.sum())

    def __add__(self, other):
        if not isinstance(other, Tally):
            return NotImplemented
        if (self.match_counts is None) != (other.match_counts is None):
            raise ValueError("cannot add the tally of a match run to one of single games")
        mc = mg = None
        if self.match_counts is not None:
            mc = self.match_counts + other.match_counts
            mg = tuple(a + b for a, b in zip(self.match_games, other.match_games))
        return Tally(self.counts + other.counts,
                     {k: tuple(a + b for a, b in zip(self.moments[k], other.moments[k]))
                      for k in MOMENTS},
                     self.lengths + other.lengths, mc, mg)

    def __eq__(self, other):
        if not isinstance(other, Tally):
            return NotImplemented
        return (np.array_equal(self.counts, other.counts) and self.moments == other.moments
                and np.array_equal(self.lengths, other.lengths)
                and (self.match_counts is None) == (other.match_counts is None)
                and (self.match_counts is None
                     or np.array_equal(self.match_counts, other.match_counts))
                and self.match_games == other.match_games)

    __hash__ = None

    def __repr__(self):
        m = "" if self.match_counts is None else f", {self.n_matches:,} matches"
        return f"<Tally of {self.n_games:,} games{m}>"


def _moments(x):
    x = np.asarray(x, dtype=np.int64)
    return int(x.sum()), int(np.dot(x, x))


def tally_from_arrays(arrays, match_arrays=None) -> Tally:
    """The tally of per-game arrays (winner, first, moves, turns, scores, end), and of
    per-match arrays (winner, first, games) for a match run."""
    w = np.asarray(arrays["winner"]).astype(np.intp)
    f = np.asarray(arrays["first"]).astype(np.intp)
    e = np.asarray(arrays["end"]).astype(np.intp)
    counts = np.bincount(((w + 1) * 2 + f) * NEND + e,
                         minlength=3 * 2 * NEND).astype(np.int64).reshape(3, 2, NEND)
    scores = np.asarray(arrays["scores"])
    moments = {"moves": _moments(arrays["moves"]), "turns": _moments(arrays["turns"]),
               "score_a": _moments(scores[:, 0]), "score_b": _moments(scores[:, 1])}
    lengths = np.stack([np.bincount(np.minimum(np.asarray(arrays[k], np.int64),
                                               LENGTH_BINS - 1), minlength=LENGTH_BINS)
                        for k in ("moves", "turns")]).astype(np.int64)
    mc = mg = None
    if match_arrays is not None:
        mw = np.asarray(match_arrays["winner"]).astype(np.intp)
        mf = np.asarray(match_arrays["first"]).astype(np.intp)
        mc = np.bincount((mw + 1) * 2 + mf, minlength=6).astype(np.int64).reshape(3, 2)
        mg = _moments(match_arrays["games"])
    return Tally(counts, moments, lengths, mc, mg)
