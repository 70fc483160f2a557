"""The result of a simulation: exact statistics (a `Tally`) of the games it played, and
their per-game rows only when asked for (``keep_games=True``).  Results of disjoint
ranges of one run merge exactly (``a.merge(b)``, ``a + b``, ``sum([...])``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._core import END_NAMES
from ..display import render
from ..files import write_csv
from ..validation import check_confidence, check_count
from .names import COMPARED_KINDS
from .rows import GameRows, game_columns, game_rows
from .summary import Summary
from .tally import Tally, tallies_from_rows

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from os import PathLike
    from typing import TextIO

    import numpy as np

    from ..errors import Interrupted
    from ..rules import Rules
    from ..stats import Estimate

__all__ = ["GamesNotKept", "MatchResults", "SimulationResult", "merge_ranges"]


class GamesNotKept(AttributeError):
    """Per-game rows were asked of a result that kept only statistics."""

    def __init__(self, what: str = "per-game arrays"):
        self.what = what
        super().__init__(
            f"{what} were not kept: this result holds only the statistics of its games "
            f"(its summary); pass keep_games=True to simulate/compare to keep one row per "
            f"game (or games_csv=PATH to stream them to a file)")

    def __reduce__(self):           # (unpickled from `what`, not from the message)
        return (type(self), (self.what,))


def merge_ranges(a: Iterable[tuple[int, int]],
                 b: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The sorted union of two lists of disjoint [lo, hi) ranges; ValueError if they
    overlap."""
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(list(a) + list(b)):
        if out and lo < out[-1][1]:
            raise ValueError(f"the results overlap: units {lo}..{min(hi, out[-1][1]) - 1} "
                             f"are in both")
        if out and lo == out[-1][1]:
            out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return tuple(out)


def _rows_property(name: str, doc: str) -> property:
    def get(self: SimulationResult) -> np.ndarray:
        if self._rows is None:
            raise GamesNotKept(f"per-game arrays ({name})")
        return self._rows.arrays[name]
    return property(get, doc=doc)


def _match_property(name: str, doc: str) -> property:
    def get(self: MatchResults) -> np.ndarray:
        return self._get(name)
    return property(get, doc=doc)


class MatchResults:
    """The matches of a match run: `format`, `need` (wins to take a match), `slots`
    (game indices each match owns), `n_matches`, and when the games were kept the
    per-match arrays `winner` (0 = A, 1 = B, -1 = undecided), `first` (who moved first
    in the match's first game), `games` (games played), `wins` (n, 2) games won by A
    and B."""

    def __init__(self, fmt: str, need: int, slots: int, n_matches: int,
                 rows: GameRows | None = None):
        self.format, self.need, self.slots, self.n_matches = fmt, need, slots, n_matches
        self._rows = rows

    def _get(self, name: str) -> np.ndarray:
        if self._rows is None:
            raise GamesNotKept(f"per-match arrays ({name})")
        return self._rows.matches[name]

    winner = _match_property("winner", "Per match: 0 = A won, 1 = B won, -1 = undecided.")
    first = _match_property("first",
                            "Per match: who moved first in its first game (0 = A, 1 = B).")
    games = _match_property("games", "Per match: games played.")
    wins = _match_property("wins", "Per match: games won by A and B.")

    def __len__(self):
        return self.n_matches

    def __repr__(self):
        return f"<MatchResults {self.format}: {self.n_matches:,} matches>"


class SimulationResult:
    """The outcome of `simulate`: the exact statistics of the games played (`tally`,
    `summary()`), and one row per game when ``keep_games=True`` was given.

    Per-game arrays (in game-index order; kept games only, else `GamesNotKept` says how
    to keep them): `winner` int8 (0 = player A, 1 = player B, -1 = draw), `first` int8
    (the player who moved first), `moves` int32, `turns` int32, `scores` int16 (n, 2)
    final points of (A, B), `end` int8 (index into `END_NAMES`: none, goal, passes,
    sudden_death, move_cap), `game_index` (each row's game index in the run).  With
    matches, `matches` (a `MatchResults`).  `ranges`: the [lo, hi) ranges of game (or
    match) indices the result covers; results of disjoint ranges of the same run merge.

    `confidence`: the level of the intervals its summary gives unless told otherwise
    (`simulate`'s or `compare`'s ``confidence``, 0.95 by default): `summary()`, `str()`,
    `as_dict()`, `plot()` and the shortcuts (`win_rate`, `score`, ...) use it, and
    `summary(confidence)`, `as_dict(confidence)`, `plot(..., confidence)` take another.
    `elapsed`: seconds of wall time of the run; a rule set of a comparison was played
    with the others, chunk by chunk, so its `elapsed` is the whole comparison's, which
    timed `elapsed_rule_sets` rule sets' games (1 for a simulation), and its summary
    says so rather than give a rate of its own; `elapsed_compared` is what that
    comparison compared ("rules", or "players": then they are candidates' games, and
    its JSON says "elapsed_candidates" in place of "elapsed_rule_sets").
    """

    END_NAMES = END_NAMES
    # (results pickled before these were kept: the defaults)
    confidence = 0.95
    elapsed_rule_sets = 1
    elapsed_compared = "rules"

    def __init__(self, tally: Tally, *, players: Iterable[str], rules: Rules, seed: int,
                 swap_seats: bool, max_moves: int, match: str | None = None,
                 need: int | None = None, slots: int | None = None,
                 ranges: Iterable[tuple[int, int]] | None = None, rows: GameRows | None = None,
                 elapsed: float | None = None, threads: int | None = None,
                 confidence: float = 0.95, elapsed_rule_sets: int = 1,
                 elapsed_compared: str = "rules"):
        self.tally = tally
        self.players = tuple(players)
        self.rules = rules
        self.seed = seed
        self.swap_seats = swap_seats
        self.max_moves = max_moves
        self.match = match
        self.need = need
        self.slots = slots
        n_units = tally.n_games if match is None else tally.n_matches
        self.ranges: tuple[tuple[int, int], ...] = (((0, n_units),) if ranges is None
                                                    else tuple(ranges))
        self._rows = rows
        self.elapsed = elapsed
        self.threads = threads
        self.confidence = check_confidence(confidence)
        self.elapsed_rule_sets = check_count(elapsed_rule_sets, "elapsed_rule_sets")
        if elapsed_compared not in COMPARED_KINDS:
            raise ValueError(f"elapsed_compared must be one of {', '.join(COMPARED_KINDS)}, "
                             f"not {elapsed_compared!r}")
        self.elapsed_compared = elapsed_compared
        self._summaries: dict[float, Summary] = {}

    @classmethod
    def from_rows(cls, rows: Mapping[str, np.ndarray], start: int = 0,
                  **kw: Any) -> SimulationResult:
        """A result from per-game rows in play_units' format (kept in the result)."""
        need = kw.get("need") or 0
        tally = Tally.from_core(tallies_from_rows([rows], need)["tallies"][0], need > 0)
        n_units = len(rows["m_winner"]) if need else len(rows["winner"])
        return cls(tally, ranges=((start, start + n_units),),
                   rows=GameRows.from_core(rows, start, kw.get("slots") or 1), **kw)

    def __getstate__(self):
        d = dict(self.__dict__)
        d["_summaries"] = {}
        return d

    # -- size and identity ---------------------------------------------------------------

    @property
    def n_games(self) -> int:
        """Games played (with matches: the games the matches needed)."""
        return self.tally.n_games

    @property
    def n_matches(self) -> int | None:
        """Matches played (None for single games)."""
        return self.tally.n_matches

    def __len__(self):
        return self.n_games

    @property
    def keeps_games(self) -> bool:
        """Whether the per-game rows were kept."""
        return self._rows is not None

    @property
    def matches(self) -> MatchResults | None:
        """The matches (`MatchResults`), or None for single games."""
        if self.match is None:
            return None
        return MatchResults(self.match, self.need, self.slots, self.n_matches, self._rows)

    def run_key(self) -> tuple[Rules, tuple[str, ...], int, bool, int, str | None]:
        """What identifies the run: results merge only when these agree."""
        return (self.rules, self.players, self.seed, self.swap_seats, self.max_moves,
                self.match)

    def __repr__(self):
        m = f", {self.n_matches:,} {self.match} matches" if self.match is not None else ""
        return (f"<SimulationResult {self.n_games:,} games{m}, {self.rules}, "
                f"A={self.players[0]} B={self.players[1]}, seed={self.seed}>")

    # -- per-game rows -------------------------------------------------------------------

    winner = _rows_property("winner", "Per game: 0 = A won, 1 = B won, -1 = draw.")
    first = _rows_property("first", "Per game: who moved first (0 = A, 1 = B).")
    moves = _rows_property("moves", "Per game: moves played.")
    turns = _rows_property("turns", "Per game: turns played.")
    scores = _rows_property("scores", "Per game: final points of A and B, shape (n, 2).")
    end = _rows_property("end", "Per game: how it ended (index into END_NAMES).")

    @property
    def game_index(self) -> np.ndarray:
        """Per game: its index in the run."""
        if self._rows is None:
            raise GamesNotKept("per-game arrays (game_index)")
        return self._rows.index

    def without_games(self) -> SimulationResult:
        """The same result without its per-game rows."""
        return self._replace(rows=None)

    def with_elapsed(self, elapsed: float | None, rule_sets: int | None = None
                     ) -> SimulationResult:
        """The same result, timed at `elapsed` seconds (wall time of the whole run:
        `rule_sets` rule sets' games, by default as many as before; see
        `elapsed_rule_sets`)."""
        return self._replace(elapsed=elapsed, elapsed_rule_sets=(
            self.elapsed_rule_sets if rule_sets is None else rule_sets))

    def _replace(self, **changes):
        kw = dict(players=self.players, rules=self.rules, seed=self.seed,
                  swap_seats=self.swap_seats, max_moves=self.max_moves, match=self.match,
                  need=self.need, slots=self.slots, ranges=self.ranges, rows=self._rows,
                  elapsed=self.elapsed, threads=self.threads, confidence=self.confidence,
                  elapsed_rule_sets=self.elapsed_rule_sets,
                  elapsed_compared=self.elapsed_compared)
        tally = changes.pop("tally", self.tally)
        kw.update(changes)
        return SimulationResult(tally, **kw)

    # -- merging -------------------------------------------------------------------------

    def merge(self, other: SimulationResult) -> SimulationResult:
        """The result of both runs' games: they must come from the same run (rules,
        players, seed, seating, move cap, match format) and cover disjoint ranges of
        game indices.  Per-game rows are kept only if both kept them; the elapsed
        times add up (None unless both timed the same number of rule sets); the
        confidence is this result's."""
        if not isinstance(other, SimulationResult):
            raise TypeError(f"cannot merge a SimulationResult with {type(other).__name__}")
        if self.run_key() != other.run_key():
            names = ("rules", "players", "seed", "swap_seats", "max_moves", "match")
            diff = [n for n, a, b in zip(names, self.run_key(), other.run_key()) if a != b]
            raise ValueError(f"cannot merge results of different runs (they differ in "
                             f"{', '.join(diff)})")
        ranges = merge_ranges(self.ranges, other.ranges)
        rows = None
        if self._rows is not None and other._rows is not None:
            rows = self._rows + other._rows
        elapsed = None
        if (self.elapsed is not None and other.elapsed is not None
                and self.elapsed_rule_sets == other.elapsed_rule_sets):
            elapsed = self.elapsed + other.elapsed
        return self._replace(tally=self.tally + other.tally, ranges=ranges, rows=rows,
                             elapsed=elapsed)

    def __add__(self, other):
        if not isinstance(other, SimulationResult):
            return NotImplemented
        return self.merge(other)

    def __radd__(self, other):
        if isinstance(other, int) and other == 0:      # sum([...]) starts from 0
            return self
        return NotImplemented

    # -- statistics and output -----------------------------------------------------------

    def summary(self, confidence: float | None = None) -> Summary:
        """The statistics of the run (`str()` a table, `as_dict()` the JSON form), with
        intervals at `confidence` (None: the result's `confidence`, 0.95 unless the run
        was given another); ValueError for a level `check_confidence` refuses."""
        confidence = self.confidence if confidence is None else check_confidence(confidence)
        if confidence not in self._summaries:
            self._summaries[confidence] = Summary(self, confidence)
        return self._summaries[confidence]

    def __str__(self):
        return str(self.summary())

    def _repr_html_(self):
        return render("html", self)

    # Shortcuts to the summary's estimates (at the result's `confidence`).
    def win_rate(self, player: int | str) -> Estimate:
        """`summary().win_rate(player)`: (rate, low, high), the Wilson interval."""
        return self.summary().win_rate(player)

    def score(self, player: int | str) -> Estimate:
        """`summary().score(player)`: wins plus half the draws, per game."""
        return self.summary().score(player)

    def elo_difference(self, player: int | str = "A") -> Estimate:
        """`summary().elo_difference(player)`: `player`'s Elo over the other."""
        return self.summary().elo_difference(player)

    def draw_rate(self) -> Estimate:
        """`summary().draw_rate()`."""
        return self.summary().draw_rate()

    def first_player_advantage(self) -> Estimate:
        """`summary().first_player_advantage()`."""
        return self.summary().first_player_advantage()

    def as_dict(self, confidence: float | None = None) -> dict[str, Any]:
        """`summary(confidence).as_dict()`: the results as JSON-ready data."""
        return self.summary(confidence).as_dict()

    def plot(self, path: str | PathLike[str], title: str | None = None,
             confidence: float | None = None, *,
             interrupted: Interrupted | None = None) -> None:
        """Save the summary's figure (see `Summary.plot`) to `path`, its intervals at
        `confidence` (None: the result's)."""
        self.summary(confidence).plot(path, title, interrupted=interrupted)

    def to_csv(self, path_or_file: str | PathLike[str] | TextIO) -> None:
        """Write one row per game (needs keep_games=True): game, [match,] winner
        (A/B/draw), first (A/B), moves, turns, score_a, score_b, end."""
        if self._rows is None:
            raise GamesNotKept("per-game rows")
        write_csv(path_or_file, game_columns(self.match is not None),
                  game_rows(self._rows.arrays, self._rows.index, self.slots))
