"""The outcome of `compare`: several rule sets played on the same deals."""

from __future__ import annotations

from math import sqrt
from typing import TYPE_CHECKING, Any

from ..report import comparison_html
from ..stats import (Estimate, mean_interval_from_moments, newcombe_interval,
                     newcombe_paired_interval, wilson_interval)
from ..validation import check_confidence, check_int
from .formats import PLAYER_LABELS
from .output import (COMPARISON_COLUMNS, comparison_dict, comparison_rows, comparison_text,
                     write_csv)
from .plot import plot_comparison

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from os import PathLike
    from typing import TextIO

    from ..rules import Rules
    from .results import SimulationResult
    from .tally import PairTally

__all__ = ["ComparisonResult", "METRICS", "MATCH_METRICS"]

METRICS = ("win_A", "win_B", "draw", "first_mover", "moves", "turns")
MATCH_METRICS = ("match_win_A", "match_win_B", "match_draw")


class ComparisonResult:
    """The outcome of `compare`: one `SimulationResult` per rule set, all played on the
    same deals (same seed and game indices), and their differences to the baseline.

    `estimate(metric, i)` is rule set i's value, `difference(metric, i, baseline=0)` the
    difference (i minus baseline) with its interval.  Metrics: "win_A", "win_B", "draw",
    "first_mover" (the first mover's win rate), "moves", "turns" (mean game length), and
    with matches "match_win_A", "match_win_B", "match_draw".  Rate differences use
    Newcombe's interval for paired proportions (the same game index under both rule sets
    is one pair; with matches, the same match index), mean differences the normal
    interval of the per-game differences.  With matches the games played differ between
    rule sets, so game-level differences use the independent-samples intervals.

    The pairs are tallied while playing (`pairs[(i, j)]`, a `PairTally` for i < j: the
    2x2 tables and the sums of per-game differences), so no per-game rows are needed.
    Comparisons of disjoint ranges of the same run merge like results do.
    """

    def __init__(self, results: Iterable[SimulationResult],
                 pairs: Mapping[tuple[int, int], PairTally], labels: Iterable[str],
                 confidence: float = 0.95):
        self.results = list(results)
        self.pairs = dict(pairs)
        self.labels = list(labels)
        self.confidence = check_confidence(confidence)

    @property
    def rules(self) -> list[Rules]:
        """The rule sets, in order (the first is the baseline)."""
        return [r.rules for r in self.results]

    @property
    def seed(self) -> int:
        """The run's seed (the same deals under every rule set)."""
        return self.results[0].seed

    @property
    def players(self) -> tuple[str, ...]:
        """The names of players A and B."""
        return self.results[0].players

    @property
    def match(self) -> str | None:
        """The match format, or None for single games."""
        return self.results[0].match

    @property
    def n_games(self) -> int:
        """Games (matches, with `match`) per rule set."""
        return self.results[0].n_games if self.match is None else self.results[0].n_matches

    @property
    def unit(self) -> str:
        """"matches" or "games": what `n_games` counts."""
        return "matches" if self.match else "games"

    @property
    def ranges(self) -> tuple[tuple[int, int], ...]:
        """The game-index ranges played (merged results cover several)."""
        return self.results[0].ranges

    @property
    def elapsed(self) -> float | None:
        """Seconds of wall time the run took."""
        return self.results[0].elapsed

    def __len__(self):
        return len(self.results)

    def __getitem__(self, i):
        return self.results[i]

    def metrics(self) -> tuple[str, ...]:
        """The metrics `estimate` and `difference` take (match metrics with matches)."""
        return METRICS + (MATCH_METRICS if self.match else ())

    def _check_metric(self, metric):
        if metric not in self.metrics():
            raise ValueError(f"unknown metric {metric!r}; valid: {', '.join(self.metrics())}")

    def _index(self, i):
        return check_int(i, "rule set index", -len(self), len(self) - 1) % len(self)

    def _count(self, metric: str, i: int) -> tuple[int, int]:
        """(k, n): how often `metric` happened under rule set i, and out of how many."""
        s = self.results[i].summary(self.confidence)
        if metric in MATCH_METRICS:
            k = s.match_wins[(1, 2, 0)[MATCH_METRICS.index(metric)]]
            return k, s.n_matches
        k = {"win_A": int(s.wins[1]), "win_B": int(s.wins[2]), "draw": s.draws,
             "first_mover": s.first_wins}[metric]
        return k, s.n

    def estimate(self, metric: str, i: int) -> Estimate:
        """Rule set i's value of `metric`, with its interval."""
        self._check_metric(metric)
        res = self.results[self._index(i)]
        if metric in ("moves", "turns"):
            s = res.summary(self.confidence)
            return s.mean_moves() if metric == "moves" else s.mean_turns()
        return wilson_interval(*self._count(metric, self._index(i)), self.confidence)

    def _pair(self, i: int, baseline: int) -> tuple[PairTally, bool]:
        """The PairTally of (i, baseline) and whether it is stored as (baseline, i)."""
        if i < baseline:
            return self.pairs[(i, baseline)], False
        return self.pairs[(baseline, i)], True

    def difference(self, metric: str, i: int, baseline: int = 0) -> Estimate:
        """Rule set i minus the baseline rule set, with its interval."""
        self._check_metric(metric)
        i, baseline = self._index(i), self._index(baseline)
        if i == baseline:           # a rule set against itself: every pair agrees
            if metric in ("moves", "turns"):
                return mean_interval_from_moments(self.results[i].n_games, 0, 0,
                                                  self.confidence)
            k, n = self._count(metric, i)
            return newcombe_paired_interval(k, 0, 0, n - k, self.confidence)
        paired = self.match is None or metric in MATCH_METRICS
        if not paired:              # match runs: the games played differ between rule sets
            if metric in ("moves", "turns"):
                e1, e0 = self.estimate(metric, i), self.estimate(metric, baseline)
                d = e1.value - e0.value
                half = sqrt((e1.high - e1.value) ** 2 + (e0.high - e0.value) ** 2)
                return Estimate(d, d - half, d + half)
            return newcombe_interval(*self._count(metric, i), *self._count(metric, baseline),
                                     self.confidence)
        pair, reverse = self._pair(i, baseline)
        if metric in ("moves", "turns"):
            total, sq = pair.diff_moments(metric, reverse)
            return mean_interval_from_moments(self.results[i].n_games, total, sq,
                                              self.confidence)
        return newcombe_paired_interval(*pair.cells(metric, reverse), self.confidence)

    def differences(self, i: int, baseline: int = 0) -> dict[str, Estimate]:
        """Every metric's difference of rule set i to the baseline, with its interval."""
        return {m: self.difference(m, i, baseline) for m in self.metrics()}

    # -- merging -------------------------------------------------------------------------

    def merge(self, other: ComparisonResult) -> ComparisonResult:
        """The comparison over both ranges of units: the same rule sets, labels and run,
        disjoint ranges (checked by each rule set's `SimulationResult.merge`)."""
        if not isinstance(other, ComparisonResult):
            raise TypeError(f"cannot merge a ComparisonResult with {type(other).__name__}")
        if self.labels != other.labels or len(self) != len(other):
            raise ValueError("cannot merge comparisons of different rule sets")
        results = [a.merge(b) for a, b in zip(self.results, other.results)]
        pairs = {k: p + other.pairs[k] for k, p in self.pairs.items()}
        return ComparisonResult(results, pairs, self.labels, self.confidence)

    def __add__(self, other):
        if not isinstance(other, ComparisonResult):
            return NotImplemented
        return self.merge(other)

    def __radd__(self, other):
        if isinstance(other, int) and other == 0:
            return self
        return NotImplemented

    def without_games(self) -> ComparisonResult:
        """The same comparison without per-game rows (small, for merging and pickling)."""
        return ComparisonResult([r.without_games() for r in self.results], self.pairs,
                                self.labels, self.confidence)

    def with_elapsed(self, elapsed: float | None) -> ComparisonResult:
        """The same comparison with another elapsed time."""
        return ComparisonResult([r.with_elapsed(elapsed) for r in self.results], self.pairs,
                                self.labels, self.confidence)

    def metric_label(self, metric: str) -> str:
        """A metric's label in tables and plots."""
        a, b = (f"{lab} ({name})" for lab, name in zip(PLAYER_LABELS, self.players))
        return {"win_A": f"{a} wins", "win_B": f"{b} wins", "draw": "draws",
                "first_mover": "first mover wins", "moves": "moves per game (mean)",
                "turns": "turns per game (mean)", "match_win_A": f"{a} wins the match",
                "match_win_B": f"{b} wins the match", "match_draw": "undecided matches"}[metric]

    def rows(self) -> list[tuple[str, int, str, Estimate, Estimate | None]]:
        """(metric, index, label, estimate, difference or None) for every metric and rule set."""
        out = []
        for metric in self.metrics():
            for i, lab in enumerate(self.labels):
                diff = None if i == 0 else self.difference(metric, i)
                out.append((metric, i, lab, self.estimate(metric, i), diff))
        return out

    def __str__(self):
        return comparison_text(self)

    def _repr_html_(self):
        return comparison_html(self)

    def summary(self) -> ComparisonResult:
        """The comparison itself (its `str()` is the table, `as_dict()` the JSON form)."""
        return self

    def as_dict(self) -> dict[str, Any]:
        """The comparison as JSON-ready data (what `--json` writes)."""
        return comparison_dict(self)

    def to_csv(self, path_or_file: str | PathLike[str] | TextIO) -> None:
        """One row per rule set and metric: rule_set, label, metric, value, low, high,
        diff, diff_low, diff_high (differences to the baseline, empty for it)."""
        write_csv(path_or_file, COMPARISON_COLUMNS, comparison_rows(self))

    def plot(self, path: str | PathLike[str], title: str | None = None) -> None:
        """Save a bar chart (win and draw rates per rule set with their intervals, and the
        differences to the baseline) to `path`.  Needs matplotlib."""
        plot_comparison(self, path, title)
