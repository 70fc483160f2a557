"""The catalogue of statistics: every figure cuttle reports, described once.

A `Figure` says what a number is (its `name`, the one name every output and every
lookup uses, and its `label` in tables and charts), how it is estimated from the exact
counts of a result (`kind`: a rate with its Wilson interval, a paired difference of rates
with Newcombe's interval, a mean with its normal interval; `data` reads the counts), how
it is printed (`format`), where it goes in the JSON form (`path`), in which chart of a
report page it is drawn (`chart`), and how two rule sets played on the same deals pair
it up (`pair`).  Every renderer reads this catalogue: the text, markdown and HTML tables,
the JSON and CSV forms, the report pages and the plots of `simulate`, `compare`,
`analyse`, the atlas and the balance designer.  Adding a figure to a simulation's summary
is one entry in `SUMMARY`; listing its name in `COMPARED` (or `ATLAS`) compares it across
rule sets too.

The names form one vocabulary (``win_rate_A``, ``draw_rate``, ``first_mover_win_rate``,
``mean_moves``, ...) for summaries, comparisons and the atlas.  The names comparisons and
the atlas used before (``win_A``, ``first_mover``, ``moves``, ``first``, ...) are
`FORMER_NAMES`: still accepted where a name is passed, with a DeprecationWarning, for
one release (`canonical`).  `SCHEMA_VERSION` is the version of the JSON forms; it went
to 2 with this vocabulary (see docs/architecture.md).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace
from math import nan, sqrt
from typing import TYPE_CHECKING, Any

from ._core import END_NAMES
from .stats import (Estimate, clustered_difference_interval, elo_interval,
                    mean_interval_from_moments, newcombe_interval, newcombe_paired_interval,
                    paired_shift_interval, score_interval, score_shift_interval,
                    wilson_interval)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from .simulation.tally import PairTally, Tally

__all__ = ["ALIASES", "ANALYSIS", "ATLAS", "BALANCE", "COMPARED", "DIFFERENCE", "EDGE_PARTS",
           "EDGE_STEP", "ELO", "END_REASONS", "FORMER_NAMES", "Figure", "INTERACTION",
           "LENGTH_SHIFT_INTERVAL", "MATCH_COMPARED", "MEAN", "NOT_COMPARED", "RATE",
           "SCHEMA_VERSION", "SCORE", "SCORES", "SCORE_MEAN",
           "SCORE_SHIFT", "SUMMARY", "AliasedDict", "canonical", "independent_difference",
           "length_step", "match_difference", "no_difference", "paired_difference"]

SCHEMA_VERSION = 2

# Kinds of figure: how each is estimated, with which interval, in which format.  A
# SCORE_MEAN is the mean of a per-game score in [0, 1] (a win 1, a draw 1/2), a
# SCORE_SHIFT the mean of per-game differences of such scores between rule sets played on
# the same games: both from exact moments, with the normal interval of the moments plus
# pseudo-games (a score's a game scoring 0 and one scoring 1: stats.score_interval; a
# shift's a pseudo-difference of +1 and one of -1: stats.score_shift_interval), printed
# in % and pp.  An ELO is a SCORE_MEAN as an Elo difference: the score's interval, each
# end mapped by stats.elo_from_score (the one home of the formula).
RATE, DIFFERENCE, MEAN, SCORE = "rate", "difference", "mean", "score"
SCORE_MEAN, SCORE_SHIFT, ELO = "score mean", "score shift", "elo"
_ESTIMATORS: dict[str, Callable[..., Estimate]] = {
    RATE: wilson_interval,                      # data: (k, n)
    DIFFERENCE: newcombe_paired_interval,       # data: (both, only1, only2, neither)
    MEAN: mean_interval_from_moments,           # data: (n, sum, sum of squares)
    SCORE: lambda total, n, confidence: Estimate(total / n if n else nan, nan, nan),
    SCORE_MEAN: score_interval,                 # data: (n, sum, sum of squares)
    SCORE_SHIFT: score_shift_interval,          # data: (n, sum, sum of squares)
    ELO: elo_interval,                          # data: (n, sum, sum of squares) of a score
}
INTERVALS = {RATE: "wilson", DIFFERENCE: "newcombe (paired)", MEAN: "normal", SCORE: None,
             SCORE_MEAN: "normal (pseudo-games 0 and 1)",
             SCORE_SHIFT: "normal (paired differences, pseudo-differences +1 and -1)",
             ELO: "normal interval of the score (pseudo-games 0 and 1), its ends as Elo"}
_FORMATS = {RATE: "pct", DIFFERENCE: "pp", MEAN: "num", SCORE: "pct", SCORE_MEAN: "pct",
            SCORE_SHIFT: "pp", ELO: "elo"}
# The JSON's names for the groups of kinds ("interval_methods").
KIND_GROUPS = {RATE: "rates", DIFFERENCE: "differences", MEAN: "means", SCORE_MEAN: "scores",
               ELO: "elo"}

# Sections of a summary: its table shows MATCHES (in a match run), GAMES, SCORES and
# MEANS, in this order with a blank line between them; ENDS are in the note under the
# table.
MATCHES, GAMES, SCORES, MEANS, ENDS = "matches", "games", "scores", "means", "ends"
END_REASONS = tuple(n for n in END_NAMES if n != "none")


@dataclass(frozen=True)
class Figure:
    """One statistic.

    `name`: its one name (lookups, JSON keys, the CSV's "statistic"); `label`: its name
    in tables and charts, where ``{A}`` and ``{B}`` become the players ("A (random)");
    `kind` and so its estimator and interval: RATE (Wilson; `data` gives (k, n)),
    DIFFERENCE of two rates on the same games (Newcombe paired; (both, only1, only2,
    neither)), MEAN (normal; (n, sum, sum of squares)), SCORE (a point value; (total,
    n)), SCORE_MEAN (a mean score, normal with a pseudo-game of 0 and one of 1; (n, sum,
    sum of squares)), ELO (a mean score as an Elo difference; the same data);
    `data(source)`: those counts, read from the result (a Summary, a MoveStats);
    `path`: its place in the JSON form; `section`: its block of the table; `chart`: the
    chart of the report page that draws it; `pair`: how two rule sets on the same deals
    pair it up (the PairTally row of a rate, the per-game variable of a mean or of the
    first-player advantage; None: it is not paired); `sub`: an indented row; `json`:
    "estimate" (value, low, high, with count and n for a rate) or "share" (count and
    rate only); `brief`: tables print its value without its interval."""

    name: str
    label: str
    kind: str
    data: Callable[[Any], tuple[Any, ...]]
    path: tuple[str, ...]
    section: str = GAMES
    chart: str | None = None
    pair: str | None = None
    sub: bool = False
    json: str = "estimate"
    brief: bool = False

    @property
    def format(self) -> str:
        """How it is printed: "pct" (a rate), "pp" (a difference of rates) or "num"."""
        return _FORMATS[self.kind]

    @property
    def difference_format(self) -> str:
        """How a difference of it (between rule sets) is printed: "pp" for a rate or a
        difference of rates, "num+" (a signed number) for a mean."""
        return "pp" if self.format in ("pct", "pp") else "num+"

    @property
    def interval(self) -> str | None:
        """The name of its interval method (None: a point value)."""
        return INTERVALS[self.kind]

    def estimate(self, source: Any, confidence: float = 0.95) -> Estimate:
        """Its value with its interval, from `source`'s counts."""
        return _ESTIMATORS[self.kind](*self.data(source), confidence)

    def count(self, source: Any) -> tuple[int, int] | None:
        """(k, n) behind a rate (None for other kinds)."""
        return tuple(int(x) for x in self.data(source)) if self.kind == RATE else None

    def units(self, source: Any) -> int:
        """How many games (matches, rollouts) it is measured on."""
        d = self.data(source)
        return int({RATE: d[-1], MEAN: d[0], SCORE: d[-1], SCORE_MEAN: d[0],
                    SCORE_SHIFT: d[0], ELO: d[0]}.get(self.kind, sum(d)))

    def text(self, players: Iterable[str]) -> str:
        """The label with the players' names: ``A (random) wins``."""
        a, b = (f"{lab} ({name})" for lab, name in zip("AB", players))
        return self.label.format(A=a, B=b)


def _figures(*entries: Figure) -> dict[str, Figure]:
    return {f.name: f for f in entries}


def _player_rates():
    """Win rates of A and B, overall and by seat (the summary's `wins`, `seat_wins`)."""
    out = []
    for i, lab in enumerate("AB"):
        out.append(Figure(f"win_rate_{lab}", f"{{{lab}}} wins", RATE,
                          lambda s, i=i: (s.wins[i + 1], s.n), ("win_rate", lab),
                          chart="rates", pair=f"win_rate_{lab}"))
    out.append(Figure("draw_rate", "draws", RATE, lambda s: (s.draws, s.n), ("draw_rate",),
                      chart="rates", pair="draw_rate"))
    for i, lab in enumerate("AB"):
        for j, seat in enumerate(("first", "second")):
            out.append(Figure(f"win_rate_{lab}_moving_{seat}", f"{lab} wins moving {seat}",
                              RATE, lambda s, i=i, j=j: (s.seat_wins[i][j], s.seat_games[i][j]),
                              ("win_rate_by_seat", lab, seat), chart="seats", sub=True))
    return out


def _mean(variable):
    return lambda s: (s.n, *s.tally.moments[variable])


def _score(i):
    """(n, sum, sum of squares) of player i's score per game (1 = A, 2 = B): a win 1, a
    draw 1/2."""
    return lambda s: (s.n, int(s.wins[i]) + s.draws / 2, int(s.wins[i]) + s.draws / 4)


def _need_matches(count):
    def data(s):
        if s.n_matches is None:
            raise ValueError("this simulation played single games, not matches")
        return count(s)
    return data


# A simulation's summary (`cuttle.simulation.Summary`), in the order of its table.  The
# source of `data` is the Summary: its counts (n, wins, draws, first_wins, seat_wins,
# end_counts, match_wins, ...) and its tally's moments.
SUMMARY: dict[str, Figure] = _figures(
    Figure("match_win_rate_A", "{A} wins the match", RATE,
           _need_matches(lambda s: (s.match_wins[1], s.n_matches)), ("win_rate", "A"),
           MATCHES, chart="match", pair="match_win_rate_A"),
    Figure("match_win_rate_B", "{B} wins the match", RATE,
           _need_matches(lambda s: (s.match_wins[2], s.n_matches)), ("win_rate", "B"),
           MATCHES, chart="match", pair="match_win_rate_B"),
    Figure("match_draw_rate", "undecided matches", RATE,
           _need_matches(lambda s: (s.match_wins[0], s.n_matches)), ("draw_rate",),
           MATCHES, chart="match", pair="match_draw_rate"),
    Figure("match_starter_win_rate", "match starter wins", RATE,
           _need_matches(lambda s: (s.match_starter_wins, s.n_matches)),
           ("starter_win_rate",), MATCHES),
    Figure("mean_match_games", "games per match (mean)", MEAN,
           _need_matches(lambda s: (s.n_matches, *s.tally.match_games)), ("mean_games",),
           MATCHES),
    *_player_rates(),
    Figure("first_mover_win_rate", "first mover wins", RATE, lambda s: (s.first_wins, s.n),
           ("first_mover_win_rate",), chart="seats", pair="first_mover_win_rate"),
    Figure("second_mover_win_rate", "second mover wins", RATE,
           lambda s: (s.second_wins, s.n), ("second_mover_win_rate",), chart="seats"),
    # P(first mover wins) - P(second mover wins): both measured on the same games.  Two
    # rule sets pair it game by game: a game's edge, +1 if the first mover won, -1 if
    # the second did, 0 for a draw (`PairTally.diff_moments`).
    Figure("first_player_advantage", "first-player advantage", DIFFERENCE,
           lambda s: (0, s.first_wins, s.second_wins, s.draws), ("first_player_advantage",),
           chart="advantage", pair="first_player_advantage"),
    # A player's score (wins plus half the draws, per game) and A's Elo difference over
    # B, read from it (stats.elo_from_score), as docs/strength.md rates head-to-head play.
    # The first player's score (wins plus half the draws, per game: the first-player
    # advantage, +1, 0, -1 a game, as 0 to 1), the balance designer's objective: the
    # summary and compare show it so a designer can check a balance winner in its own
    # measure.  Two rule sets pair it game by game as the edge, halved.
    Figure("first_score", "first player's score", SCORE_MEAN,
           lambda s: (s.n, s.first_wins + s.draws / 2, s.first_wins + s.draws / 4),
           ("first_score",), SCORES, pair="first_score"),
    # Two rule sets pair a player's score game by game (`PairTally.diff_moments`); the
    # Elo difference is not compared (NOT_COMPARED).
    Figure("score_A", "{A} score", SCORE_MEAN, _score(1), ("score", "A"), SCORES,
           pair="score_A"),
    Figure("score_B", "{B} score", SCORE_MEAN, _score(2), ("score", "B"), SCORES,
           pair="score_B"),
    Figure("elo_difference", "Elo of A over B", ELO, _score(1),
           ("elo_difference",), SCORES),
    Figure("mean_moves", "moves per game (mean)", MEAN, _mean("moves"), ("mean_moves",),
           MEANS, pair="moves"),
    Figure("mean_turns", "turns per game (mean)", MEAN, _mean("turns"), ("mean_turns",),
           MEANS, pair="turns"),
    Figure("mean_score_A", "final score A (mean)", MEAN, _mean("score_a"),
           ("mean_score", "A"), MEANS),
    Figure("mean_score_B", "final score B (mean)", MEAN, _mean("score_b"),
           ("mean_score", "B"), MEANS),
    *(Figure(f"end_{e}", e.replace("_", " "), RATE,
             lambda s, k=END_NAMES.index(e): (s.end_counts[k], s.n), ("end", e), ENDS,
             chart="ends", json="share") for e in END_REASONS),
)

# What `compare` compares, in its table's order (MATCH_COMPARED with matches), and the
# atlas's figures: names of SUMMARY figures.
COMPARED = ("win_rate_A", "win_rate_B", "draw_rate", "first_mover_win_rate",
            "first_player_advantage", "first_score", "score_A", "score_B", "mean_moves",
            "mean_turns")
MATCH_COMPARED = ("match_win_rate_A", "match_win_rate_B", "match_draw_rate")
# Why a summary's figure is not compared, where it is more than a choice of the table
# ("{entries}": the comparison's entries, `simulation.names.entries`).
NOT_COMPARED = {"elo_difference": "an Elo difference is no mean of per-game values, so its "
                                  "shift between {entries} has no per-game variable to "
                                  "pair; compare the score it is read from, score_A"}
ATLAS = ("first_mover_win_rate", "second_mover_win_rate", "draw_rate", "mean_moves",
         "mean_turns") + tuple(f"end_{e}" for e in END_REASONS)

# A move of an analysis (`cuttle.analysis.MoveStats`: rollouts, wins, draws of the
# player to decide), in the order of its table's columns.  The moves are ranked by the
# score, so the table's interval is the score's: a mean of per-rollout values 1, 1/2, 0,
# as a player's score in a summary (`_score`).  Its JSON is at "score_estimate": a move's
# "score" has been its bare value since the first schema, and stays so.
ANALYSIS: dict[str, Figure] = _figures(
    Figure("score", "score", SCORE_MEAN,
           lambda m: (m.rollouts, m.wins + m.draws / 2, m.wins + m.draws / 4),
           ("score_estimate",)),
    Figure("win_rate", "win rate", RATE, lambda m: (m.wins, m.rollouts), ("win_rate",),
           brief=True),
    Figure("draw_rate", "draws", RATE, lambda m: (m.draws, m.rollouts), ("draw_rate",),
           brief=True),
)

# The balance designer's figures of a rule set (`cuttle.balance`): its own games'
# (`first_score`, the first player's wins plus half the draws, the objective; the first
# player's wins, draws, length: the SUMMARY figures, under their names in the JSON as
# everywhere) and its shift against the base on the same games.  The source is
# a `cuttle.balancing.results.Measure` (a Summary's counts, and `score_shift`: the sum and
# sum of squares of the per-game differences of the first player's score to the base).
BALANCE: dict[str, Figure] = _figures(
    SUMMARY["first_score"],
    SUMMARY["first_mover_win_rate"],
    SUMMARY["draw_rate"],
    replace(SUMMARY["mean_moves"], section=GAMES),
    Figure("first_score_shift", "shift of the first player's score", SCORE_SHIFT,
           lambda s: (s.n, *s.score_shift), ("first_score_shift",)),
)

# An interaction of two rule changes A and B (`cuttle.variants.interactions.Interaction`:
# the base, A, B and A with B played on the same games): the pair's shift of the first
# player's score, each change's own shift and their sum, and the interaction (the pair's
# shift minus the sum: 0 when the changes add up), each from the exact moments of its
# per-game contrast on the same games (`moments[name]`).
INTERACTION: dict[str, Figure] = _figures(
    Figure("shift_a", "shift of the first change", SCORE_SHIFT,
           lambda x: (x.n, *x.moments["shift_a"]), ("shift_a",)),
    Figure("shift_b", "shift of the second change", SCORE_SHIFT,
           lambda x: (x.n, *x.moments["shift_b"]), ("shift_b",)),
    Figure("pair_shift", "shift of the pair", SCORE_SHIFT,
           lambda x: (x.n, *x.moments["pair_shift"]), ("pair_shift",)),
    Figure("sum_of_shifts", "sum of the two shifts", SCORE_SHIFT,
           lambda x: (x.n, *x.moments["sum_of_shifts"]), ("sum_of_shifts",)),
    Figure("interaction", "interaction (pair minus sum)", SCORE_SHIFT,
           lambda x: (x.n, *x.moments["interaction"]), ("interaction",)),
)

# The names comparisons and the atlas gave these figures before the one vocabulary
# (JSON schema 1): still accepted, with a DeprecationWarning, for one release, and still
# the "metric" column of their CSV files (beside the new "statistic" column).  The
# balance designer's JSON keyed two of its figures otherwise than its CSV until it took
# their names too: its `as_dict()` still answers to those keys for one release (its
# results files hold games, not figures, so the files of earlier searches read as
# they are).
FORMER_NAMES = {
    "comparison": dict(zip(("win_rate_A", "win_rate_B", "draw_rate", "first_mover_win_rate",
                            "mean_moves", "mean_turns") + MATCH_COMPARED,
                           ("win_A", "win_B", "draw", "first_mover", "moves", "turns",
                            "match_win_A", "match_win_B", "match_draw"))),
    "atlas": dict(zip(ATLAS, ("first", "second", "draw", "moves", "turns")
                      + tuple(f"end_{e}" for e in END_REASONS))),
    "balance": {"first_mover_win_rate": "first_wins", "draw_rate": "draws"},
}
ALIASES = {old: new for names in FORMER_NAMES.values() for new, old in names.items()
           if old != new}


def canonical(name: str, valid: Iterable[str], what: str = "metric",
              stacklevel: int = 3) -> str:
    """`name` in the vocabulary: an old name is translated (DeprecationWarning); a name
    not in `valid` is a ValueError naming the valid ones."""
    valid = tuple(valid)
    if name not in valid and name in ALIASES and ALIASES[name] in valid:
        warnings.warn(f"the {what} {name!r} is now called {ALIASES[name]!r}; the old name "
                      f"will be removed in the next release", DeprecationWarning,
                      stacklevel=stacklevel)
        name = ALIASES[name]
    if name not in valid:
        raise ValueError(f"unknown {what} {name!r}; valid: {', '.join(valid)}")
    return name


class AliasedDict(dict):
    """A JSON-ready dict keyed by figure names that still answers to the old names (with
    a DeprecationWarning) for one release; it iterates and serializes under the new
    names only."""

    def _key(self, key: object) -> object:
        if key not in self.keys() and isinstance(key, str) and ALIASES.get(key) in self.keys():
            canonical(key, self.keys(), "key", stacklevel=4)
            return ALIASES[key]
        return key

    def __getitem__(self, key: object) -> Any:
        return super().__getitem__(self._key(key))

    def __contains__(self, key: object) -> bool:
        return super().__contains__(self._key(key))

    def get(self, key: object, default: Any = None) -> Any:
        """The value of `key` (or of the new name of an old key), else `default`."""
        return super().get(self._key(key), default)


# -- differences between rule sets played on the same deals (compare, the atlas) ----------

# The interval of a length's paired shift, in the JSON forms' "interval_methods".
LENGTH_SHIFT_INTERVAL = ("normal, paired differences, a pseudo-difference of +-s (s: the "
                         "spread of two games' lengths)")


def length_step(variable: str, tallies: Iterable[Tally]) -> float:
    """The pseudo-difference of a length's paired shift (`stats.paired_shift_interval`):
    how much a game that changed changes, taken as the spread of the difference of two
    games' lengths, ``sqrt(s_i^2 + s_j^2)`` from each rule set's own games (`variable`:
    "moves" or "turns"); at least 1, a length's smallest change.  A game that plays
    otherwise under the variant is as two games from the move where they part."""
    var = 0.0
    for t in tallies:
        n = t.n_games
        total, sq = t.moments[variable]
        if n > 1:
            var += max(0, n * sq - total * total) / (n * (n - 1))     # exact ints, then /
    return max(1.0, sqrt(var))


# The largest change of a game's first-player edge (+1, 0, -1) between rule sets: a
# first mover's win become the second mover's; the pseudo-difference of its shift.
EDGE_STEP = 2.0
# The edge, game by game, is 2 x (the first mover won) + (a draw) - 1: its parts, with
# their weights (a match run pairs each by match).
EDGE_PARTS = (("first_mover_win_rate", 2), ("draw_rate", 1))
# A score, game by game: (its player won) + (a draw) / 2, the first player's by the
# first mover's wins; each score's parts, by the score's name.
SCORE_PARTS = {"first_score": (("first_mover_win_rate", 1), ("draw_rate", 0.5)),
               "score_A": (("win_rate_A", 1), ("draw_rate", 0.5)),
               "score_B": (("win_rate_B", 1), ("draw_rate", 0.5))}


def paired_difference(f: Figure, pair: PairTally, reverse: bool, n: int,
                      confidence: float = 0.95, row: str | None = None,
                      tallies: tuple[Tally, Tally] | None = None) -> Estimate:
    """Rule set i minus rule set j from their PairTally (reverse: the pair is stored as
    (j, i)): Newcombe's paired interval for a rate (`row`: the tally's row, by default
    `f.pair`); for a mean (n games), the normal interval of the per-game differences
    with a pseudo-difference of +-`length_step` of `tallies`, the two rule sets' own
    games, which a mean needs (ValueError without them): without it the interval of a
    shift that no game carries is [0, 0]; for the first-player advantage (a difference
    of rates), the same of the per-game differences of its edge, with a
    pseudo-difference of +-`EDGE_STEP`; for a score (a SCORE_MEAN: the first player's,
    A's or B's), of its per-game shifts, a pseudo-difference of +-1."""
    if f.kind == DIFFERENCE:
        total, sq = pair.diff_moments(f.pair, reverse)
        return paired_shift_interval(n, total, sq, EDGE_STEP, confidence)
    if f.kind == SCORE_MEAN:        # (the first player's score: its per-game shifts)
        return score_shift_interval(n, *pair.diff_moments(f.pair, reverse), confidence)
    if f.kind == MEAN:
        if tallies is None:
            raise ValueError(f"the paired difference of {f.name} needs both rule sets' "
                             f"tallies (the spread of their lengths)")
        total, sq = pair.diff_moments(f.pair, reverse)
        return paired_shift_interval(n, total, sq, length_step(f.pair, tallies), confidence)
    return newcombe_paired_interval(*pair.cells(row or f.pair, reverse), confidence)


def match_difference(f: Figure, pair: PairTally, reverse: bool,
                     tallies: tuple[Tally, Tally], confidence: float = 0.95) -> Estimate:
    """A game figure of a match run, rule set i minus rule set j (reverse: the pair is
    stored as (j, i)), with the match as the unit: match k is played on the same deals
    under both rule sets, so its games are paired with each other as a group, whatever
    their number under each (`stats.clustered_difference_interval`, its pseudo-games
    changed by 1 for a rate, by `length_step` of `tallies` for a length).  The
    first-player advantage is 2 x the first mover's wins plus the draws, less 1, game by
    game, and a score its player's wins (the first mover's for the first player's) plus
    half the draws (`SCORE_PARTS`): the difference of either is that sum of its parts',
    with the sum of their half-widths (its parts' correlation by match is not tallied:
    a conservative interval)."""
    if f.kind in (DIFFERENCE, SCORE_MEAN):
        weights = EDGE_PARTS if f.kind == DIFFERENCE else SCORE_PARTS[f.name]
        parts = [(match_difference(SUMMARY[name], pair, reverse, tallies, confidence), k)
                 for name, k in weights]
        value = sum(k * e.value for e, k in parts)
        return Estimate(value, value - sum(k * (e.value - e.low) for e, k in parts),
                        value + sum(k * (e.high - e.value) for e, k in parts))
    step = length_step(f.pair, tallies) if f.kind == MEAN else 1.0
    return clustered_difference_interval(pair.match_paired(f.pair, reverse), step,
                                         confidence)


def independent_difference(f: Figure, s1: Any, s0: Any, confidence: float = 0.95) -> Estimate:
    """`f` of s1 minus `f` of s0 measured on different games: Newcombe's interval for
    independent proportions, or the normal interval of a difference of means (of two
    first-player advantages, each interval's half-widths squared and added alike)."""
    if f.kind in (MEAN, DIFFERENCE, SCORE_MEAN):
        e1, e0 = f.estimate(s1, confidence), f.estimate(s0, confidence)
        d = e1.value - e0.value
        half = sqrt((e1.high - e1.value) ** 2 + (e0.high - e0.value) ** 2)
        return Estimate(d, d - half, d + half)
    return newcombe_interval(*f.data(s1), *f.data(s0), confidence)


def no_difference(f: Figure, s: Any, confidence: float = 0.95) -> Estimate:
    """A rule set against itself: every pair agrees, the difference is 0."""
    if f.kind == DIFFERENCE:        # (as paired_difference: every game's edge the same)
        return paired_shift_interval(f.units(s), 0, 0, EDGE_STEP, confidence)
    if f.kind == MEAN:
        return mean_interval_from_moments(f.units(s), 0, 0, confidence)
    if f.kind == SCORE_MEAN:
        return score_shift_interval(f.units(s), 0, 0, confidence)
    k, n = f.count(s)
    return newcombe_paired_interval(k, 0, 0, n - k, confidence)
