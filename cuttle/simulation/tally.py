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
from ..stats import PairedSums

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["LENGTH_BINS", "MATCH_PAIRED", "MOMENTS", "PAIRED_METRICS", "PairTally", "Tally",
           "tallies_from_rows"]

NEND = len(END_NAMES)
LENGTH_BINS = 512           # game-length histograms: bins 0..510 and ">= 511"
MOMENTS = ("moves", "turns", "score_a", "score_b")
# The rates compare pairs up (the core's PairTally.table rows, in this order), by their
# names in the catalogue of statistics (cuttle.figures).
PAIRED_METRICS = ("win_rate_A", "win_rate_B", "draw_rate", "first_mover_win_rate",
                  "match_win_rate_A", "match_win_rate_B", "match_draw_rate")
# A match run's game figures that compare pairs by match (the core's MatchPair, in this
# order; by the figures' `pair`): per figure the sums over matches of y_i, y_j, y_i^2,
# y_i n_i, y_j^2, y_j n_j, y_i y_j, y_i n_j, n_i y_j (y: a match's sum of the figure over
# its games, n: its games), and MATCH_UNITS.
MATCH_PAIRED = ("win_rate_A", "win_rate_B", "draw_rate", "first_mover_win_rate", "moves",
                "turns")
MATCH_UNITS = ("matches", "n_i", "n_j", "n_i^2", "n_j^2", "n_i n_j")


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
    per-game differences x_i - x_j (single games only).  A match run's pair also has
    `match_sums` (per figure of MATCH_PAIRED, its nine sums over the matches) and
    `match_units` (MATCH_UNITS), from which its game figures' differences take the
    match as the unit (`match_paired(figure)`); None for single games, and for a pair
    pickled before they were tallied."""

    __slots__ = ("table", "diffs", "match_sums", "match_units")

    def __init__(self, table: np.ndarray | None = None,
                 diffs: tuple[tuple[int, int], tuple[int, int]] | None = None,
                 match_sums: tuple[tuple[int, ...], ...] | None = None,
                 match_units: tuple[int, ...] | None = None):
        self.table = np.zeros((len(PAIRED_METRICS), 4), np.int64) if table is None else table
        self.diffs = ((0, 0), (0, 0)) if diffs is None else diffs
        if (match_sums is None) != (match_units is None):
            raise ValueError("a pair's match sums and match units come together")
        self.match_sums = None if match_sums is None else \
            tuple(tuple(int(x) for x in row) for row in match_sums)
        self.match_units = None if match_units is None else tuple(int(x) for x in match_units)

    @classmethod
    def from_core(cls, d: Mapping[str, Any]) -> PairTally:
        """A PairTally from the core's dict of counts and moments."""
        return cls(d["table"], tuple((int(s), int(q)) for s, q in d["diffs"]),
                   d.get("match_sums"), d.get("match_units"))

    def __getstate__(self):
        return (self.table, self.diffs, self.match_sums, self.match_units)

    def __setstate__(self, state):
        if len(state) == 2:             # pickled before the match sums were tallied
            state = (*state, None, None)
        self.table, self.diffs, self.match_sums, self.match_units = state

    def __add__(self, other):
        if not isinstance(other, PairTally):
            return NotImplemented
        sums = units = None
        if self.match_sums is not None and other.match_sums is not None:
            sums = tuple(tuple(a + b for a, b in zip(r, q))
                         for r, q in zip(self.match_sums, other.match_sums))
            units = tuple(a + b for a, b in zip(self.match_units, other.match_units))
        return PairTally(self.table + other.table, _add_pairs(self.diffs, other.diffs),
                         sums, units)

    def __eq__(self, other):
        if not isinstance(other, PairTally):
            return NotImplemented
        return (np.array_equal(self.table, other.table) and self.diffs == other.diffs
                and self.match_sums == other.match_sums
                and self.match_units == other.match_units)

    __hash__ = None

    def cells(self, metric: str, reverse: bool = False) -> tuple[int, int, int, int]:
        """(both, only the first, only the second, neither) for `metric`; reverse: the
        pair seen as (j, i)."""
        t = self.table[PAIRED_METRICS.index(canonical(metric, PAIRED_METRICS))]
        both, only_i, only_j, neither = (int(x) for x in (t[3], t[2], t[1], t[0]))
        return (both, only_j, only_i, neither) if reverse else (both, only_i, only_j, neither)

    def diff_moments(self, metric: str, reverse: bool = False) -> tuple[int, int]:
        """(sum, sum of squares) of the per-game differences of moves, turns, the
        first player's edge ("first_player_advantage": +1 when the first mover won, -1
        when the second did, 0 for a draw; single games only), the first player's
        score ("first_score": the edge halved, in quarters) or a player's score
        ("score_A", "score_B": `score_moments`; single games only), i minus j (reverse:
        j minus i).  The edge's are exact from the 2x2 tables: a game's difference is +-2
        when its winner changed sides (a game's seats are the same under both rule
        sets), +-1 when a draw came or went, and sums to twice the change of the first
        mover's wins plus the change of the draws."""
        if metric == "first_player_advantage":
            f, d = self.cells("first_mover_win_rate"), self.cells("draw_rate")
            total = 2 * (f[1] - f[2]) + (d[1] - d[2])       # (only i) - (only j)
            return (-total if reverse else total), 4 * self._sides_changed() + d[1] + d[2]
        if metric == "first_score":     # (wins + half the draws: the edge, halved)
            total, squares = self.diff_moments("first_player_advantage", reverse)
            return total / 2, squares / 4
        if metric in ("score_A", "score_B"):    # (B's score is 1 - A's, game by game)
            total, squares = self.score_moments(reverse)
            return (total if metric == "score_A" else -total), squares
        s, q = self.diffs[("moves", "turns").index(metric)]
        return (-s if reverse else s), q

    def _sides_changed(self) -> int:
        """The games whose winner changed sides (from A to B or back) between i and j:
        each counts in the only-i and only-j cells of A's and B's wins, a draw that came
        or went in one of them and in the draws'."""
        a, b, d = (self.cells(m) for m in ("win_rate_A", "win_rate_B", "draw_rate"))
        return (a[1] + a[2] + b[1] + b[2] - d[1] - d[2]) // 2

    def reversed(self) -> PairTally:
        """The same pair seen as (j, i)."""
        sums = units = None
        if self.match_sums is not None:
            sums = tuple(tuple(r[k] for k in (1, 0, 4, 5, 2, 3, 6, 8, 7))
                         for r in self.match_sums)
            units = tuple(self.match_units[k] for k in (0, 2, 1, 4, 3, 5))
        return PairTally(self.table[:, [0, 2, 1, 3]].copy(),
                         tuple((-s, q) for s, q in self.diffs), sums, units)

    def match_paired(self, figure: str, reverse: bool = False) -> PairedSums:
        """A match run's sums over the matches of `figure` (a name of MATCH_PAIRED) under
        rule sets i (1) and j (2), reverse: j and i; ValueError for a pair without them
        (single games)."""
        if self.match_sums is None:
            raise ValueError("this pair has no match sums (single games, or pickled "
                             "before they were tallied)")
        p = self.reversed() if reverse else self
        y1, y2, y1y1, y1n1, y2y2, y2n2, y1y2, y1n2, n1y2 = \
            p.match_sums[MATCH_PAIRED.index(figure)]
        g, n1, n2, n1n1, n2n2, n1n2 = p.match_units
        return PairedSums(g, y1, n1, y2, n2, y1y1, y1n1, n1n1, y2y2, y2n2, n2n2, y1y2, y1n2,
                          n1y2, n1n2)

    def score_moments(self, reverse: bool = False) -> tuple[float, float]:
        """(sum, sum of squares) of the per-game differences of player A's score (1 for a
        win, 1/2 for a draw, 0 for a loss) between the two rule sets, i minus j (reverse:
        j minus i); single games only.  Exact (quarters): a game's difference is +-1 when
        its winner changed sides, +-1/2 when a draw came or went, and the 2x2 tables of
        A's wins, B's wins and draws count both kinds of game.  (A's score is the first
        player's when A moves first in every game.)"""
        a, d = self.cells("win_rate_A"), self.cells("draw_rate")
        total = (a[1] - a[2]) + (d[1] - d[2]) / 2         # (only i) - (only j)
        squares = self._sides_changed() + (d[1] + d[2]) / 4
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


def _match_figures(rows):
    """(games played, [each MATCH_PAIRED figure's sum over them]) per match, as Python
    ints (their products may pass 64 bits)."""
    units = len(rows["m_winner"])
    shape = (units, len(rows["winner"]) // max(units, 1))      # (no unit: no game)
    played = (rows["winner"] >= -1).reshape(shape)
    w, f = rows["winner"].reshape(shape), rows["first"].reshape(shape)
    per_game = (w == 0, w == 1, w == -1, (w >= 0) & (w == f), rows["moves"].reshape(shape),
                rows["turns"].reshape(shape))
    sums = [[int(x) for x in np.where(played, v, 0).astype(np.int64).sum(axis=1)]
            for v in per_game]
    return [int(x) for x in played.sum(axis=1)], sums


def _match_pair(a, b):
    """The core's MatchPair sums of two rule sets' rows of the same matches."""
    na, ya = _match_figures(a)
    nb, yb = _match_figures(b)

    def dot(x, y):
        return sum(p * q for p, q in zip(x, y))
    sums = [[sum(yi), sum(yj), dot(yi, yi), dot(yi, na), dot(yj, yj), dot(yj, nb),
             dot(yi, yj), dot(yi, nb), dot(na, yj)] for yi, yj in zip(ya, yb)]
    units = [len(na), sum(na), sum(nb), dot(na, na), dot(nb, nb), dot(na, nb)]
    return sums, units


def _pair_dict(a, b, need):
    table = np.zeros((len(PAIRED_METRICS), 4), np.int64)
    xb = _indicators(b, need)
    for m, xa in _indicators(a, need).items():
        table[m] = np.bincount(xa.astype(np.intp) * 2 + xb[m], minlength=4)
    diffs = [(0, 0), (0, 0)]
    if not need:
        return {"table": table,
                "diffs": [_moments(a[k].astype(np.int64) - b[k]) for k in ("moves", "turns")]}
    sums, units = _match_pair(a, b)
    return {"table": table, "diffs": diffs, "match_sums": sums, "match_units": units}


def tallies_from_rows(rows_list: Sequence[Mapping[str, np.ndarray]],
                      need: int = 0) -> dict[str, Any]:
    """`play_units`' result structure ("tallies", "pairs", "rows") from per-game rows of
    the same units under each rule set (the rows format of play_units, keep_rows)."""
    n = len(rows_list)
    return {"tallies": [_tally_dict(r, need) for r in rows_list],
            "pairs": {(i, j): _pair_dict(rows_list[i], rows_list[j], need)
                      for i in range(n) for j in range(i + 1, n)},
            "rows": rows_list}
