"""Sufficient statistics of a set of games: exact integer counts and moments that
merge by addition, from which every figure of a `Summary` (and of a comparison's paired
intervals) follows.  The core accumulates them per batch (`cuttle._play.play_units`);
`tallies_from_rows` computes the very same numbers from per-game rows (games played in
Python), so both paths meet in one format."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._core import END_NAMES
from ..figures import canonical

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["LENGTH_BINS", "MOMENTS", "PAIRED_METRICS", "PairTally", "Tally",
           "tallies_from_rows"]

NEND = len(END_NAMES)
LENGTH_BINS = 512           # game-length histograms: bins 0..510 and ">= 511"
MOMENTS = ("moves", "turns", "score_a", "score_b")
# The rates compare pairs up (the core's PairTally.table rows, in this order), by their
# names in the catalogue of statistics (cuttle.figures).
PAIRED_METRICS = ("win_rate_A", "win_rate_B", "draw_rate", "first_mover_win_rate",
                  "match_win_rate_A", "match_win_rate_B", "match_draw_rate")


def _add_pairs(a, b):
    return tuple((x0 + y0, x1 + y1) for (x0, x1), (y0, y1) in zip(a, b))


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

    def __init__(self, counts: np.ndarray | None = None,
                 moments: dict[str, tuple[int, int]] | None = None,
                 lengths: np.ndarray | None = None, match_counts: np.ndarray | None = None,
                 match_games: tuple[int, int] | None = None, matches: bool = False):
        self.counts = np.zeros((3, 2, NEND), np.int64) if counts is None else counts
        self.moments = moments if moments is not None else {k: (0, 0) for k in MOMENTS}
        self.lengths = np.zeros((2, LENGTH_BINS), np.int64) if lengths is None else lengths
        if match_counts is None and matches:
            match_counts, match_games = np.zeros((3, 2), np.int64), (0, 0)
        self.match_counts = match_counts
        self.match_games = match_games

    @classmethod
    def from_core(cls, d: Mapping[str, Any], matches: bool) -> Tally:
        """A tally from one of `play_units`' "tallies" dicts."""
        return cls(d["counts"], {k: (int(s), int(q)) for k, (s, q) in zip(MOMENTS, d["moments"])},
                   d["lengths"], d["match_counts"] if matches else None,
                   tuple(int(x) for x in d["match_games"]) if matches else None)

    def __getstate__(self):
        return (self.counts, self.moments, self.lengths, self.match_counts, self.match_games)

    def __setstate__(self, state):
        self.counts, self.moments, self.lengths, self.match_counts, self.match_games = state

    @property
    def n_games(self) -> int:
        """Games tallied."""
        return int(self.counts.sum())

    @property
    def n_matches(self) -> int | None:
        """Matches tallied (None for single games)."""
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
        moments = dict(zip(MOMENTS, _add_pairs([self.moments[k] for k in MOMENTS],
                                               [other.moments[k] for k in MOMENTS])))
        return Tally(self.counts + other.counts, moments, self.lengths + other.lengths, mc, mg)

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


class PairTally:
    """Two rule sets i < j played on the same units: for each rate of PAIRED_METRICS a
    2x2 table `table[m, x_i * 2 + x_j]` (so [3] = both, [2] = only i, [1] = only j,
    [0] = neither), and for moves and turns `diffs[k] = (sum, sum of squares)` of the
    per-game differences x_i - x_j (single games only)."""

    __slots__ = ("table", "diffs")

    def __init__(self, table: np.ndarray | None = None,
                 diffs: tuple[tuple[int, int], tuple[int, int]] | None = None):
        self.table = np.zeros((len(PAIRED_METRICS), 4), np.int64) if table is None else table
        self.diffs = ((0, 0), (0, 0)) if diffs is None else diffs

    @classmethod
    def from_core(cls, d: Mapping[str, Any]) -> PairTally:
        """A PairTally from the core's dict of counts and moments."""
        return cls(d["table"], tuple((int(s), int(q)) for s, q in d["diffs"]))

    def __getstate__(self):
        return (self.table, self.diffs)

    def __setstate__(self, state):
        self.table, self.diffs = state

    def __add__(self, other):
        if not isinstance(other, PairTally):
            return NotImplemented
        return PairTally(self.table + other.table, _add_pairs(self.diffs, other.diffs))

    def __eq__(self, other):
        if not isinstance(other, PairTally):
            return NotImplemented
        return np.array_equal(self.table, other.table) and self.diffs == other.diffs

    __hash__ = None

    def cells(self, metric: str, reverse: bool = False) -> tuple[int, int, int, int]:
        """(both, only the first, only the second, neither) for `metric`; reverse: the
        pair seen as (j, i)."""
        t = self.table[PAIRED_METRICS.index(canonical(metric, PAIRED_METRICS))]
        both, only_i, only_j, neither = (int(x) for x in (t[3], t[2], t[1], t[0]))
        return (both, only_j, only_i, neither) if reverse else (both, only_i, only_j, neither)

    def diff_moments(self, metric: str, reverse: bool = False) -> tuple[int, int]:
        """(sum, sum of squares) of the per-game differences of moves or turns."""
        s, q = self.diffs[("moves", "turns").index(metric)]
        return (-s if reverse else s), q

    def reversed(self) -> PairTally:
        """The same pair seen as (j, i)."""
        return PairTally(self.table[:, [0, 2, 1, 3]].copy(),
                         tuple((-s, q) for s, q in self.diffs))

    def score_moments(self, reverse: bool = False) -> tuple[float, float]:
        """(sum, sum of squares) of the per-game differences of player A's score (1 for a
        win, 1/2 for a draw, 0 for a loss) between the two rule sets, i minus j (reverse:
        j minus i); single games only.  Exact (quarters): a game's difference is +-1 when
        its winner changed sides, +-1/2 when a draw came or went, and the 2x2 tables of
        A's wins, B's wins and draws count both kinds of game.  (A's score is the first
        player's when A moves first in every game.)"""
        a, b, d = (self.cells(m) for m in ("win_rate_A", "win_rate_B", "draw_rate"))
        total = (a[1] - a[2]) + (d[1] - d[2]) / 2         # (only i) - (only j)
        off = (a[1] + a[2] + b[1] + b[2] - d[1] - d[2]) // 2   # winner changed sides
        squares = off + (d[1] + d[2]) / 4
        return (-total if reverse else total), squares


# ---------------------------------------------------------------------------------------
# The same numbers from per-game rows (games played in Python, and the tests' check).

def _moments(x):
    x = np.asarray(x, dtype=np.int64)
    return int(x.sum()), int(np.dot(x, x))


def _tally_dict(rows, need):
    played = rows["winner"] >= -1           # -2: a match slot not played
    w = rows["winner"][played].astype(np.intp)
    f = rows["first"][played].astype(np.intp)
    e = rows["end"][played].astype(np.intp)
    counts = np.bincount(((w + 1) * 2 + f) * NEND + e,
                         minlength=3 * 2 * NEND).astype(np.int64).reshape(3, 2, NEND)
    scores = rows["scores"][played]
    moves, turns = rows["moves"][played], rows["turns"][played]
    lengths = np.stack([np.bincount(np.minimum(x.astype(np.int64), LENGTH_BINS - 1),
                                    minlength=LENGTH_BINS) for x in (moves, turns)])
    d = {"counts": counts, "lengths": lengths.astype(np.int64),
         "moments": [_moments(moves), _moments(turns), _moments(scores[:, 0]),
                     _moments(scores[:, 1])],
         "match_counts": np.zeros((3, 2), np.int64), "match_games": (0, 0)}
    if need:
        mw = rows["m_winner"].astype(np.intp)
        mf = rows["m_first"].astype(np.intp)
        d["match_counts"] = np.bincount((mw + 1) * 2 + mf, minlength=6).astype(
            np.int64).reshape(3, 2)
        d["match_games"] = _moments(rows["m_games"])
    return d


def _indicators(rows, need):
    """{metric row: indicator per unit} of the rates paired in a run of games or matches."""
    if need:
        mw = rows["m_winner"]
        return {4: mw == 0, 5: mw == 1, 6: mw < 0}
    w, f = rows["winner"], rows["first"]
    return {0: w == 0, 1: w == 1, 2: w < 0, 3: (w >= 0) & (w == f)}


def _pair_dict(a, b, need):
    table = np.zeros((len(PAIRED_METRICS), 4), np.int64)
    xb = _indicators(b, need)
    for m, xa in _indicators(a, need).items():
        table[m] = np.bincount(xa.astype(np.intp) * 2 + xb[m], minlength=4)
    diffs = [(0, 0), (0, 0)]
    if not need:
        diffs = [_moments(a[k].astype(np.int64) - b[k]) for k in ("moves", "turns")]
    return {"table": table, "diffs": diffs}


def tallies_from_rows(rows_list: Sequence[Mapping[str, np.ndarray]],
                      need: int = 0) -> dict[str, Any]:
    """`play_units`' result structure ("tallies", "pairs", "rows") from per-game rows of
    the same units under each rule set (the rows format of play_units, keep_rows)."""
    n = len(rows_list)
    return {"tallies": [_tally_dict(r, need) for r in rows_list],
            "pairs": {(i, j): _pair_dict(rows_list[i], rows_list[j], need)
                      for i in range(n) for j in range(i + 1, n)},
            "rows": rows_list}
