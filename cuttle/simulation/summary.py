"""The statistics of a simulation, each with its confidence interval."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from ..display import render
from ..figures import END_REASONS, MATCHES, SUMMARY, canonical
from ..stats import Estimate, wilson_interval
from ..validation import check_confidence, is_int
from .names import PLAYER_LABELS, SEATS

if TYPE_CHECKING:
    from os import PathLike
    from typing import TextIO

    from ..errors import Interrupted
    from .results import SimulationResult

__all__ = ["Summary"]


class Summary:
    """Statistics of a `SimulationResult`, each with a confidence interval.

    Every figure of the catalogue `cuttle.figures.SUMMARY` is ``estimate(name)``:
    rates (``win_rate_A``, ``draw_rate``, ``first_mover_win_rate``, ...) are
    ``(rate, low, high)`` `Estimate`s with the Wilson score interval;
    ``first_player_advantage`` is P(first mover wins) - P(second mover wins) with
    Newcombe's paired interval (both are measured on the same games); a player's score
    (``score_A``, ``score_B``: wins plus half the draws, per game) the normal interval,
    and ``elo_difference`` is A's score as an Elo difference over B, ``400 log10(score
    / (1 - score))``, its interval the score interval's ends so mapped (+-inf at a score
    of 0 or 1); means (``mean_moves``, ``mean_turns``, ``mean_score_A``: the final
    points) use the normal interval.  The
    methods below (`win_rate`, `draw_rate`, `seat_win_rate`, ...) are the same figures
    by their arguments.  `str(summary)` is a table, `as_dict()` its JSON form,
    `to_csv(path_or_file)` the same figures as CSV rows.  Everything is computed from
    the result's `tally` (exact counts and moments), never from per-game rows.
    """

    def __init__(self, result: SimulationResult, confidence: float = 0.95):
        self.result = result
        self.confidence = check_confidence(confidence)
        t = self.tally = result.tally
        c = t.counts                                   # [winner + 1, first, end]
        self.n = n = int(c.sum())
        by_wf = c.sum(axis=2)                          # [winner + 1, first]
        self.wins = by_wf.sum(axis=1)                  # draw, A, B
        self.draws = int(self.wins[0])
        # the first mover is A when first == 0: A won moving first, or B moving first
        self.first_wins = int(by_wf[1, 0] + by_wf[2, 1])
        self.second_wins = int(by_wf[1, 1] + by_wf[2, 0])
        # games[p][s], won[p][s]: games where player p sat in seat s (0 = moved first).
        a_first = int(by_wf[:, 0].sum())
        self.seat_games = ((a_first, n - a_first), (n - a_first, a_first))
        self.seat_wins = ((int(by_wf[1, 0]), int(by_wf[1, 1])),
                          (int(by_wf[2, 1]), int(by_wf[2, 0])))
        self.end_counts = c.sum(axis=(0, 1))
        self.lengths = t.lengths
        self.match = result.match
        if t.match_counts is not None:
            mc = t.match_counts                        # [winner + 1, first]
            self.n_matches: int | None = int(mc.sum())
            self.match_wins = tuple(int(x) for x in mc.sum(axis=1))   # undecided, A, B
            self.match_starter_wins = int(mc[1, 0] + mc[2, 1])
            self.slots = result.slots
        else:
            self.n_matches = None

    # -- the catalogue -------------------------------------------------------------------

    @property
    def figures(self) -> tuple[str, ...]:
        """The names of this summary's figures (the match figures only for matches)."""
        return tuple(name for name, f in SUMMARY.items()
                     if f.section != MATCHES or self.n_matches is not None)

    def estimate(self, name: str) -> Estimate:
        """The figure `name` of `cuttle.figures.SUMMARY`, with its interval."""
        return SUMMARY[canonical(name, SUMMARY, "statistic")].estimate(self, self.confidence)

    # -- lookups -------------------------------------------------------------------------

    def player_index(self, player: int | str) -> int:
        """0 or 1 from 0/1, "A"/"B", or a player's name when the two names differ."""
        if is_int(player) and player in (0, 1):
            return int(player)
        if isinstance(player, str):
            if player.upper() in PLAYER_LABELS:
                return PLAYER_LABELS.index(player.upper())
            names = self.result.players
            if names.count(player) == 1:
                return names.index(player)
            if names.count(player) == 2:
                raise ValueError(f"both players are {player!r}; say 'A' or 'B'")
        raise ValueError(f"unknown player {player!r}; use 0/'A' ({self.result.players[0]}) "
                         f"or 1/'B' ({self.result.players[1]})")

    @staticmethod
    def seat_index(seat: int | str) -> int:
        """0 or 1 from 0/1 or 'first'/'second'."""
        if is_int(seat) and seat in (0, 1):
            return int(seat)
        if isinstance(seat, str) and seat.lower() in SEATS:
            return SEATS.index(seat.lower())
        raise ValueError(f"unknown seat {seat!r}; use 'first' (0) or 'second' (1)")

    def _player(self, player):
        return PLAYER_LABELS[self.player_index(player)]

    # -- the figures by their arguments --------------------------------------------------

    def win_rate(self, player: int | str) -> Estimate:
        """The share of all games won by `player` (0/'A' or 1/'B')."""
        return self.estimate(f"win_rate_{self._player(player)}")

    def loss_rate(self, player: int | str) -> Estimate:
        """Deprecated: `win_rate` of the other player."""
        warnings.warn("Summary.loss_rate(p) is deprecated and will be removed in the next "
                      "release; use win_rate of the other player", DeprecationWarning,
                      stacklevel=2)
        return self.win_rate(1 - self.player_index(player))

    def draw_rate(self) -> Estimate:
        """The share of drawn games, with its Wilson interval."""
        return self.estimate("draw_rate")

    def seat_win_rate(self, seat: int | str) -> Estimate:
        """The share of games won by whoever moved first (seat 'first') or second."""
        return self.estimate(f"{SEATS[self.seat_index(seat)]}_mover_win_rate")

    def player_seat_win_rate(self, player: int | str, seat: int | str) -> Estimate:
        """`player`'s win rate in the games where they moved first (or second)."""
        return self.estimate(f"win_rate_{self._player(player)}_moving_"
                             f"{SEATS[self.seat_index(seat)]}")

    def first_player_advantage(self) -> Estimate:
        """P(first mover wins) - P(second mover wins), Newcombe's paired interval."""
        return self.estimate("first_player_advantage")

    def decisive_first_share(self) -> Estimate:
        """Deprecated: the share of decisive games won by the first mover."""
        warnings.warn("Summary.decisive_first_share() is deprecated and will be removed in "
                      "the next release; first_player_advantage() measures the same edge",
                      DeprecationWarning, stacklevel=2)
        return wilson_interval(self.first_wins, self.first_wins + self.second_wins,
                               self.confidence)

    def score(self, player: int | str) -> Estimate:
        """`player`'s score, wins plus half the draws per game, with its interval
        (`cuttle.stats.score_interval`: normal, a pseudo-game of 0 and one of 1 added)."""
        return self.estimate(f"score_{self._player(player)}")

    def elo_difference(self, player: int | str = "A") -> Estimate:
        """`player`'s Elo difference over the other (A's by default), from its score:
        ``400 log10(score / (1 - score))``, the interval the score interval's ends as
        Elo; +-inf where the score (or an end) is 0 or 1."""
        e = self.estimate("elo_difference")          # A over B
        return e if self.player_index(player) == 0 else Estimate(-e.value, -e.high, -e.low)

    def end_rate(self, reason: str) -> Estimate:
        """The share of games that ended so ('goal', 'passes', 'sudden_death', 'move_cap')."""
        if reason not in END_REASONS:
            raise ValueError(f"unknown end reason {reason!r}; valid: {', '.join(END_REASONS)}")
        return self.estimate(f"end_{reason}")

    def mean_moves(self) -> Estimate:
        """Mean moves per game, with its normal interval."""
        return self.estimate("mean_moves")

    def mean_turns(self) -> Estimate:
        """Mean turns per game, with its normal interval."""
        return self.estimate("mean_turns")

    def mean_score(self, player: int | str) -> Estimate:
        """`player`'s mean final score, with its normal interval."""
        return self.estimate(f"mean_score_{self._player(player)}")

    def length_histogram(self, unit: str = "moves") -> np.ndarray:
        """Games by length: an int64 array whose bin k counts the games of k moves (or
        turns); the last bin counts every game at least that long."""
        if unit not in ("moves", "turns"):
            raise ValueError(f"unit must be 'moves' or 'turns', not {unit!r}")
        return self.lengths[0 if unit == "moves" else 1].copy()

    # -- matches -------------------------------------------------------------------------

    def match_win_rate(self, player: int | str) -> Estimate:
        """The share of matches `player` won, with its Wilson interval."""
        return self.estimate(f"match_win_rate_{self._player(player)}")

    def match_draw_rate(self) -> Estimate:
        """The share of undecided matches, with its Wilson interval."""
        return self.estimate("match_draw_rate")

    def match_starter_win_rate(self) -> Estimate:
        """The share of matches won by the player who moved first in the first game."""
        return self.estimate("match_starter_win_rate")

    def mean_match_games(self) -> Estimate:
        """Mean games per match, with its normal interval."""
        return self.estimate("mean_match_games")

    # -- output (cuttle.render) ----------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready data (what `--json` writes)."""
        return render("data", self)

    def to_csv(self, path_or_file: str | PathLike[str] | TextIO, *,
               interrupted: Interrupted | None = None) -> None:
        """The figures of the table as CSV: statistic, value, low, high, count, n (one
        row per estimate; per-game rows are `SimulationResult.to_csv`).  `interrupted`:
        the Interrupted of a partial run, said in a last row (`cuttle.render.csv`)."""
        render("csv", self, path_or_file, interrupted=interrupted)

    def plot(self, path: str | PathLike[str], title: str | None = None, *,
             interrupted: Interrupted | None = None) -> None:
        """Save a figure to `path` (the format from its extension): win rates by player
        and seat with their intervals, and the game-length histogram (`interrupted`: a
        partial run's Interrupted, said under the title).  Needs matplotlib."""
        render("plot", self, path, title, interrupted=interrupted)

    def __repr__(self):
        return f"<Summary of {self.result!r}>"

    def __str__(self):
        return render("text", self)

    def _repr_html_(self):
        return render("html", self)
