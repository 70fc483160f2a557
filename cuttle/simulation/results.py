"""The results of a simulation: per-game arrays and per-match arrays."""

import numpy as np

from .._core import END_NAMES
from .formats import FIELDS, MATCH_FORMATS
from .report import game_columns, game_rows, write_csv
from .summary import Summary
from .tally import tally_from_arrays

__all__ = ["MatchResults", "SimulationResult", "empty_arrays"]


def empty_arrays(n):
    """Uninitialised per-game arrays for n games."""
    return {"winner": np.empty(n, np.int8), "first": np.empty(n, np.int8),
            "moves": np.empty(n, np.int32), "turns": np.empty(n, np.int32),
            "scores": np.empty((n, 2), np.int8), "end": np.empty(n, np.int8)}


class MatchResults:
    """Per-match arrays: `winner` (0 = A, 1 = B, -1 = undecided), `first` (who moved
    first in the match's first game), `games` (games played), `wins` (n, 2) games won
    by A and B."""

    def __init__(self, fmt, slots, winner, first, games, wins):
        self.format = fmt
        self.need = MATCH_FORMATS[fmt].wins
        self.slots = slots
        self.winner, self.first, self.games, self.wins = winner, first, games, wins

    @property
    def n_matches(self):
        return len(self.winner)

    def __len__(self):
        return len(self.winner)

    def __repr__(self):
        return f"<MatchResults {self.format}: {self.n_matches:,} matches>"


class SimulationResult:
    """The outcome of `simulate`: one row per game played, in game-index order.

    Arrays: `winner` int8 (0 = player A, 1 = player B, -1 = draw), `first` int8 (the
    player who moved first), `moves` int32, `turns` int32, `scores` int8 (n, 2) final
    points of (A, B), `end` int8 (index into `END_NAMES`: none, goal, passes,
    sudden_death, move_cap).  `game_index` gives each row's game index in the run.
    With matches, `matches` holds the per-match arrays.
    """

    END_NAMES = END_NAMES

    def __init__(self, arrays, *, players, rules, seed, swap_seats, max_moves,
                 match=None, matches=None, game_index=None, elapsed=None, threads=None):
        for k in FIELDS:
            setattr(self, k, arrays[k])
        self.players = tuple(players)
        self.rules = rules
        self.seed = seed
        self.swap_seats = swap_seats
        self.max_moves = max_moves
        self.match = match
        self.matches = matches
        self._game_index = game_index
        self.elapsed = elapsed
        self.threads = threads
        self._summaries = {}
        self.tally = tally_from_arrays(arrays, None if matches is None else
                                       {"winner": matches.winner, "first": matches.first,
                                        "games": matches.games})

    @property
    def n_games(self) -> int:
        return len(self.winner)

    @property
    def n_matches(self):
        return None if self.matches is None else self.matches.n_matches

    @property
    def slots(self):
        """Game indices per match (None for single games)."""
        return None if self.matches is None else self.matches.slots

    @property
    def game_index(self):
        if self._game_index is None:
            return np.arange(self.n_games, dtype=np.int64)
        return self._game_index

    def __len__(self):
        return self.n_games

    def __repr__(self):
        m = f", {self.n_matches:,} {self.match} matches" if self.matches is not None else ""
        return (f"<SimulationResult {self.n_games:,} games{m}, {self.rules}, "
                f"A={self.players[0]} B={self.players[1]}, seed={self.seed}>")

    def summary(self, confidence=0.95):
        """The statistics of the run (`str()` a table, `as_dict()` the JSON form)."""
        if confidence not in self._summaries:
            self._summaries[confidence] = Summary(self, confidence)
        return self._summaries[confidence]

    def __str__(self):
        return str(self.summary())

    # Shortcuts to the summary's estimates (95 %).
    def win_rate(self, player):
        return self.summary().win_rate(player)

    def draw_rate(self):
        return self.summary().draw_rate()

    def first_player_advantage(self):
        return self.summary().first_player_advantage()

    def as_dict(self):
        return self.summary().as_dict()

    def to_csv(self, path_or_file):
        """Write one row per game: game, [match,] winner (A/B/draw), first (A/B), moves,
        turns, score_a, score_b, end."""
        write_csv(path_or_file, game_columns(self.matches is not None),
                  game_rows(self, self.game_index,
                            None if self.matches is None else self.matches.slots))
