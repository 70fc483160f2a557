"""The outcome of `compare`: several rule sets played on the same deals."""

import numpy as np

from ..stats import (Estimate, mean_difference, newcombe_interval, newcombe_paired_interval,
                     paired_mean_difference, wilson_interval)
from .formats import PLAYER_LABELS
from .plot import plot_comparison
from .report import (COMPARISON_COLUMNS, comparison_dict, comparison_rows, comparison_text,
                     write_csv)

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
    """

    def __init__(self, results, labels, confidence=0.95):
        self.results = list(results)
        self.labels = list(labels)
        self.confidence = confidence

    @property
    def rules(self):
        return [r.rules for r in self.results]

    @property
    def seed(self):
        return self.results[0].seed

    @property
    def players(self):
        return self.results[0].players

    @property
    def match(self):
        return self.results[0].match

    @property
    def n_games(self):
        """Games (matches, with `match`) per rule set."""
        return self.results[0].n_games if self.match is None else self.results[0].n_matches

    @property
    def unit(self):
        return "matches" if self.match else "games"

    def __len__(self):
        return len(self.results)

    def __getitem__(self, i):
        return self.results[i]

    def metrics(self):
        return METRICS + (MATCH_METRICS if self.match else ())

    def _check_metric(self, metric):
        if metric not in self.metrics():
            raise ValueError(f"unknown metric {metric!r}; valid: {', '.join(self.metrics())}")

    @staticmethod
    def _indicator(res, metric):
        if metric == "win_A":
            return res.winner == 0
        if metric == "win_B":
            return res.winner == 1
        if metric == "draw":
            return res.winner < 0
        if metric == "first_mover":
            return (res.winner >= 0) & (res.winner == res.first)
        m = res.matches
        if metric == "match_win_A":
            return m.winner == 0
        if metric == "match_win_B":
            return m.winner == 1
        return m.winner < 0

    def estimate(self, metric, i) -> Estimate:
        """Rule set i's value of `metric`, with its interval."""
        self._check_metric(metric)
        res = self.results[i]
        if metric in ("moves", "turns"):
            s = res.summary(self.confidence)
            return s.mean_moves() if metric == "moves" else s.mean_turns()
        x = self._indicator(res, metric)
        return wilson_interval(int(np.count_nonzero(x)), len(x), self.confidence)

    def difference(self, metric, i, baseline=0) -> Estimate:
        """Rule set i minus the baseline rule set, with its interval."""
        self._check_metric(metric)
        r1, r0 = self.results[i], self.results[baseline]
        paired = self.match is None or metric in MATCH_METRICS
        if metric in ("moves", "turns"):
            x1, x0 = getattr(r1, metric), getattr(r0, metric)
            if paired:
                return paired_mean_difference(x1, x0, self.confidence)
            return mean_difference(x1, x0, self.confidence)
        x1, x0 = self._indicator(r1, metric), self._indicator(r0, metric)
        if paired:
            both = int(np.count_nonzero(x1 & x0))
            only1 = int(np.count_nonzero(x1)) - both
            only0 = int(np.count_nonzero(x0)) - both
            return newcombe_paired_interval(both, only1, only0, len(x1) - both - only1 - only0,
                                            self.confidence)
        return newcombe_interval(int(np.count_nonzero(x1)), len(x1),
                                 int(np.count_nonzero(x0)), len(x0), self.confidence)

    def differences(self, i, baseline=0) -> dict:
        return {m: self.difference(m, i, baseline) for m in self.metrics()}

    def metric_label(self, metric):
        a, b = (f"{lab} ({name})" for lab, name in zip(PLAYER_LABELS, self.players))
        return {"win_A": f"{a} wins", "win_B": f"{b} wins", "draw": "draws",
                "first_mover": "first mover wins", "moves": "moves per game (mean)",
                "turns": "turns per game (mean)", "match_win_A": f"{a} wins the match",
                "match_win_B": f"{b} wins the match", "match_draw": "undecided matches"}[metric]

    def rows(self):
        """(metric, index, label, estimate, difference or None) for every metric and rule set."""
        out = []
        for metric in self.metrics():
            for i, lab in enumerate(self.labels):
                diff = None if i == 0 else self.difference(metric, i)
                out.append((metric, i, lab, self.estimate(metric, i), diff))
        return out

    def __str__(self):
        return comparison_text(self)

    def summary(self):
        """The comparison itself (its `str()` is the table, `as_dict()` the JSON form)."""
        return self

    def as_dict(self) -> dict:
        return comparison_dict(self)

    def to_csv(self, path_or_file):
        """One row per rule set and metric: rule_set, label, metric, value, low, high,
        diff, diff_low, diff_high (differences to the baseline, empty for it)."""
        write_csv(path_or_file, COMPARISON_COLUMNS, comparison_rows(self))

    def plot(self, path, title=None):
        """Save a bar chart (win and draw rates per rule set with their intervals, and the
        differences to the baseline) to `path`.  Needs matplotlib."""
        plot_comparison(self, path, title)
