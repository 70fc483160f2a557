"""The outcome of `compare` (several rule sets played on the same deals) and of
`compare_players` (several players, each against the same opponent on the same deals
and seats)."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from ..display import render
from ..figures import (COMPARED, FORMER_NAMES, MATCH_COMPARED, NOT_COMPARED, SUMMARY,
                       canonical,
                       independent_difference, match_difference, no_difference,
                       paired_difference)
from ..validation import check_confidence, check_int
from .names import COMPARED_KINDS, ENTRY_NOUNS, entries

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from os import PathLike
    from typing import TextIO

    from ..errors import Interrupted
    from ..rules import Rules
    from ..stats import Estimate
    from .results import SimulationResult
    from .tally import PairTally

__all__ = ["CANDIDATE", "COMPARED_KINDS", "ComparisonResult", "METRICS", "MATCH_METRICS", "Metrics",
           "SHARED"]

METRICS = COMPARED
MATCH_METRICS = MATCH_COMPARED

# What a comparison's rule sets share, by `ComparisonResult.deals`: its title's words.
SHARED = {"same": "the same deals", "cut": "the same shuffles",
          "other": "the same seed and game indices"}

# Player A's name in a comparison of players, where A is each candidate in turn (what
# a comparison compares, and the word for its entries: `names.COMPARED_KINDS`).
CANDIDATE = ENTRY_NOUNS["players"]


class Metrics(tuple):
    """The names of the compared figures (a tuple).  Calling it, as when `metrics` was a
    method, still works for one release: it warns and returns the old names."""

    def __call__(self) -> tuple[str, ...]:
        warnings.warn("ComparisonResult.metrics is a property now: use cmp.metrics (no "
                      "call), whose names are the summaries' (win_rate_A, draw_rate, "
                      "first_mover_win_rate, mean_moves, ...); cmp.metrics() returns the "
                      "old names and will be removed in the next release",
                      DeprecationWarning, stacklevel=2)
        former = FORMER_NAMES["comparison"]     # (the figures compared then: no new one)
        return tuple(former[m] for m in self if m in former)


class ComparisonResult:
    """The outcome of `compare`: one `SimulationResult` per rule set, all played on the
    same deals (same seed and game indices), and their differences to the baseline.

    The same deals, as long as the rule sets shuffle the same cards and cut them alike
    (`deal_relations`, from `Rules.deal_relation`): a rule set with the joker shuffles
    53, so its game i is dealt otherwise than a 52-card rule set's and the two share no
    deal (`other_deals`); its differences are still paired by game index, validly, but
    gain nothing from it (the intervals are as wide as unpaired ones).  The `deal` flag
    (the hand sizes) keeps the shuffle and cuts it at other places (`cut_deals`): the
    deck below the cut is the same, the hands a card or more apart, so its games stay
    partly paired.  No other flag changes the deal.  The title says what the rule sets
    share, and a note under the rule sets names those whose deals differ (text, HTML,
    the report page; the JSON's "deals").

    `estimate(metric, i)` is rule set i's value, `difference(metric, i, baseline=0)` the
    difference (i minus baseline) with its interval; a rule set is named by its index or
    its label (`labels`).  `metrics`: "win_rate_A", "win_rate_B", "draw_rate",
    "first_mover_win_rate" (the first mover's win rate), "first_player_advantage" (the
    first mover's win rate minus the second's, as the summary's), "first_score",
    "score_A", "score_B" (the first player's, A's and B's wins plus half the draws per
    game), "mean_moves", "mean_turns" (mean game length), and with matches
    "match_win_rate_A", "match_win_rate_B", "match_draw_rate": the figures of the
    summaries (`cuttle.figures`) by the same names; the summaries' others are not
    compared (`figures.NOT_COMPARED` says why for the Elo difference: A's score, from
    which it is read, is), and a rule set's own are ``cmp[i].summary().estimate(name)``.
    `n_games` counts the units (matches in a match run; `n_matches` too), `unit` says
    which in the singular and `units` in the plural, as an `Interrupted` does.  Rate
    differences use Newcombe's interval for paired proportions (the same game index
    under both rule sets is one pair; with matches, the same match index), mean
    differences the normal interval of the per-game differences with a
    pseudo-difference either way (`figures.length_step`: so that a shift no game
    carries is not [0, 0]), and so does the first-player
    advantage's, of each game's edge (+1, 0, -1 for the first mover), a pseudo-difference
    of +-2 (`figures.EDGE_STEP`).  With matches the games played
    differ between rule sets (a match plays as many as it needs), but match k is played
    on the same deals under each, so game-level differences take the match as the unit
    (`figures.match_difference`): the normal interval of a difference of ratios whose
    variance is taken between the matches, which counts the correlation of the games of
    the same deals (a comparison pickled before the core tallied these sums falls back
    to the independent-samples intervals, which ignore it).

    The pairs are tallied while playing (`pairs[(i, j)]`, a `PairTally` for i < j: the
    2x2 tables, the sums of per-game differences, a match run's sums over matches), so
    no per-game rows are needed.

    **Players compared** (`compared` "players": `compare_players`): each entry is a
    candidate player A against the same opponent B under the same rules, on the same
    deals and seats, so everything above holds with "rule set" read as "candidate":
    `difference("score_A", i)` is candidate i's score minus the first's, paired game by
    game.  `candidates` are their names, `opponent` B's; `players` is then
    ``("candidate", opponent)``, the names the figures' labels read (``A (candidate)
    wins``), and ``cmp[i].players`` candidate i's own pair.
    Comparisons of disjoint ranges of the same run merge like results do.

    `confidence` is the level of every interval (`compare`'s ``confidence``);
    `summary(confidence)`, `as_dict(confidence)`, `to_csv(..., confidence=)` and
    `plot(..., confidence=)` give another.  Each rule set's `SimulationResult` has
    the comparison's `confidence`, and its `elapsed` is the whole comparison's wall
    time (`elapsed_rule_sets` = the number of rule sets): the rule sets are played
    together, chunk by chunk, and no one of them has a time of its own.  Comparing
    players, every text says "candidate" where it would say "rule set" (`entry`).
    """

    compared = "rules"          # (comparisons pickled before players were compared)

    def __init__(self, results: Iterable[SimulationResult],
                 pairs: Mapping[tuple[int, int], PairTally], labels: Iterable[str],
                 confidence: float = 0.95, *, compared: str = "rules"):
        if compared not in COMPARED_KINDS:
            raise ValueError(f"compared must be one of {', '.join(COMPARED_KINDS)}, not "
                             f"{compared!r}")
        self.compared = compared
        self.confidence = check_confidence(confidence)
        results = list(results)
        # Every entry's summary at the comparison's level, timed as all of them.
        timed = (self.confidence, len(results), compared)
        self.results = [r if (r.confidence, r.elapsed_rule_sets, r.elapsed_compared) == timed
                        else r._replace(confidence=self.confidence,
                                        elapsed_rule_sets=len(results),
                                        elapsed_compared=compared)
                        for r in results]
        self.pairs = dict(pairs)
        self.labels = list(labels)

    @property
    def rules(self) -> list[Rules]:
        """The rule sets, in order (the first is the baseline)."""
        return [r.rules for r in self.results]

    @property
    def seed(self) -> int:
        """The run's seed (the same deals under every rule set)."""
        return self.results[0].seed

    @property
    def deal_relations(self) -> tuple[str, ...]:
        """Each rule set's deals against the baseline's (`Rules.deal_relation`): "same",
        "cut" (the same shuffles cut at other hand sizes: partly paired) or "other" (no
        deal in common); the baseline's own is "same"."""
        base = self.rules[0]
        return tuple(base.deal_relation(r) for r in self.rules)

    @property
    def deals(self) -> str:
        """What all the rule sets share: "same" (the same deals), "cut" (the same
        shuffles, some cut at other hand sizes) or "other" (the seed and the game
        indices only: some share no deal with the baseline)."""
        relations = set(self.deal_relations)
        return "other" if "other" in relations else "cut" if "cut" in relations else "same"

    @property
    def other_deals(self) -> tuple[int, ...]:
        """The rule sets (by index) that shuffle another number of cards than the
        baseline (the joker: 53 against 52), so share none of its deals."""
        return tuple(i for i, d in enumerate(self.deal_relations) if d == "other")

    @property
    def cut_deals(self) -> tuple[int, ...]:
        """The rule sets (by index) that cut the baseline's shuffles at other hand sizes
        (the `deal` flag), so share part of each of its deals."""
        return tuple(i for i, d in enumerate(self.deal_relations) if d == "cut")

    @property
    def players(self) -> tuple[str, ...]:
        """The names of players A and B (comparing players: ``("candidate", opponent)``,
        A being each candidate in turn)."""
        if self.compared == "players":
            return (CANDIDATE, self.opponent)
        return self.results[0].players

    @property
    def candidates(self) -> tuple[str, ...]:
        """Each entry's player A, in order: comparing players, the candidates' names
        (comparing rule sets, A's name each time)."""
        return tuple(r.players[0] for r in self.results)

    @property
    def opponent(self) -> str:
        """Player B's name: comparing players, the opponent every candidate met."""
        return self.results[0].players[1]

    @property
    def match(self) -> str | None:
        """The match format, or None for single games."""
        return self.results[0].match

    @property
    def n_games(self) -> int:
        """The units played under each rule set: games, or **matches** in a match run
        (`match`), where `n_matches` says the same by its own name; the name is kept
        from before.  (A `SimulationResult`'s `n_games` counts games always: in a match
        run, rule set i's games, as many as its matches needed, are ``cmp[i].n_games``,
        and differ between rule sets.)"""
        return self.results[0].n_games if self.match is None else self.results[0].n_matches

    @property
    def n_matches(self) -> int | None:
        """The matches played under each rule set (None for single games), as a
        `SimulationResult`'s `n_matches`."""
        return self.results[0].n_matches

    @property
    def unit(self) -> str:
        """"match" or "game": what `n_games` counts, in the singular, as
        `Interrupted.unit` says it; `units` is the plural."""
        return "match" if self.match else "game"

    @property
    def units(self) -> str:
        """"matches" or "games": what `n_games` counts, in the plural (as
        `Interrupted.units`, and the JSON's "unit" and "units")."""
        return "matches" if self.match else "games"

    @property
    def ranges(self) -> tuple[tuple[int, int], ...]:
        """The game-index ranges played (merged results cover several)."""
        return self.results[0].ranges

    @property
    def elapsed(self) -> float | None:
        """Seconds of wall time the run took: every rule set's games."""
        return self.results[0].elapsed

    def __len__(self):
        return len(self.results)

    def __getitem__(self, i):
        """Rule set i's `SimulationResult`, by its index (as a list's: a slice, an
        IndexError past the end, which ends iteration) or its label."""
        return self.results[self._index(i) if isinstance(i, str) else i]

    @property
    def metrics(self) -> Metrics:
        """The names of the figures `estimate` and `difference` take (match figures with
        matches), in the order of the table."""
        return Metrics(COMPARED + (MATCH_COMPARED if self.match else ()))

    def _figure(self, metric):
        if isinstance(metric, str) and metric in SUMMARY and metric not in self.metrics:
            why = NOT_COMPARED.get(metric, "it is not compared between {entries}")
            why = why.format(entries=entries(self.compared))
            raise ValueError(f"{metric!r} is a figure of each {self.entry}'s summary, not of "
                             f"the comparison ({why}): cmp[i].summary().estimate({metric!r}) "
                             f"is {self.entry} i's; compared: {', '.join(self.metrics)}")
        return SUMMARY[canonical(metric, self.metrics, stacklevel=4)]

    def _index(self, i: int | str) -> int:
        """A rule set's index from its index (negative from the end) or its label (one
        rule set's: a label two share is refused, naming them)."""
        if isinstance(i, str):
            named = [k for k, label in enumerate(self.labels) if label == i]
            if len(named) == 1:
                return named[0]
            if named:
                raise ValueError(f"the label {i!r} names {self.entry}s {named[0]} and "
                                 f"{named[1]}: give its index")
            raise ValueError(f"no {self.entry} is labelled {i!r}; the labels: "
                             f"{', '.join(map(repr, self.labels))}, or an index from "
                             f"{-len(self)} to {len(self) - 1}")
        return check_int(i, f"{self.entry} index", -len(self), len(self) - 1,
                         f"an int from {-len(self)} to {len(self) - 1} or a "
                         f"{self.entry}'s label") % len(self)

    def _summary(self, i):
        return self.results[i].summary(self.confidence)

    def estimate(self, metric: str, i: int | str) -> Estimate:
        """Rule set i's value of `metric`, with its interval (i: an index or a label)."""
        f = self._figure(metric)
        return f.estimate(self._summary(self._index(i)), self.confidence)

    def _pair(self, i: int, baseline: int) -> tuple[PairTally, bool]:
        """The PairTally of (i, baseline) and whether it is stored as (baseline, i)."""
        if i < baseline:
            return self.pairs[(i, baseline)], False
        return self.pairs[(baseline, i)], True

    def difference(self, metric: str, i: int | str, baseline: int | str = 0) -> Estimate:
        """Rule set i minus the baseline rule set, with its interval (each an index or a
        label)."""
        f = self._figure(metric)
        i, baseline = self._index(i), self._index(baseline)
        if i == baseline:           # a rule set against itself: every pair agrees
            return no_difference(f, self._summary(i), self.confidence)
        pair, reverse = self._pair(i, baseline)
        tallies = (self.results[i].tally, self.results[baseline].tally)
        if self.match is not None and f.name not in MATCH_COMPARED:
            # match runs: the games played differ between rule sets, the matches pair up
            if pair.match_sums is None:     # (pickled before the core tallied them)
                return independent_difference(f, self._summary(i), self._summary(baseline),
                                              self.confidence)
            return match_difference(f, pair, reverse, tallies, self.confidence)
        return paired_difference(f, pair, reverse, self.results[i].n_games, self.confidence,
                                 tallies=tallies)

    def differences(self, i: int | str, baseline: int | str = 0) -> dict[str, Estimate]:
        """Every metric's difference of rule set i to the baseline, with its interval
        (each an index or a label)."""
        return {m: self.difference(m, i, baseline) for m in self.metrics}

    # -- merging -------------------------------------------------------------------------

    def merge(self, other: ComparisonResult) -> ComparisonResult:
        """The comparison over both ranges of units: the same rule sets, labels and run,
        disjoint ranges (checked by each rule set's `SimulationResult.merge`)."""
        if not isinstance(other, ComparisonResult):
            raise TypeError(f"cannot merge a ComparisonResult with {type(other).__name__}")
        if self.compared != other.compared:
            raise ValueError(f"cannot merge a comparison of {entries(self.compared)} with "
                             f"one of {entries(other.compared)}")
        if self.labels != other.labels or len(self) != len(other):
            raise ValueError(f"cannot merge comparisons of different {self.entry}s")
        if self.compared == "players" and self.candidates != other.candidates:
            raise ValueError(f"cannot merge comparisons of different {entries('players')}")
        results = [a.merge(b) for a, b in zip(self.results, other.results)]
        pairs = {k: p + other.pairs[k] for k, p in self.pairs.items()}
        return self._with(results, pairs)

    def _with(self, results, pairs=None, confidence=None):
        """The same comparison of other results (and pairs, or level)."""
        return ComparisonResult(results, self.pairs if pairs is None else pairs, self.labels,
                                self.confidence if confidence is None else confidence,
                                compared=self.compared)

    @property
    def entry(self) -> str:
        """What each entry is, in words: "rule set" or "candidate" (`compared`; the one
        word every text of the comparison says, `names.ENTRY_NOUNS`)."""
        return ENTRY_NOUNS[self.compared]

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
        return self._with([r.without_games() for r in self.results])

    def with_elapsed(self, elapsed: float | None) -> ComparisonResult:
        """The same comparison with another elapsed time."""
        return self._with([r.with_elapsed(elapsed) for r in self.results])

    def metric_label(self, metric: str) -> str:
        """A metric's label in tables and plots (``A (greedy) wins``)."""
        return self._figure(metric).text(self.players)

    def rows(self) -> list[tuple[str, int, str, Estimate, Estimate | None]]:
        """(metric, index, label, estimate, difference or None) for every metric and rule set."""
        out = []
        for metric in self.metrics:
            for i, lab in enumerate(self.labels):
                diff = None if i == 0 else self.difference(metric, i)
                out.append((metric, i, lab, self.estimate(metric, i), diff))
        return out

    def __repr__(self):
        m = f" {self.match} matches" if self.match else f" {self.units}"
        names = " | ".join(self.labels)
        if self.compared == "players":
            return (f"<ComparisonResult {len(self)} players against {self.opponent}, "
                    f"{self.n_games:,}{m} each on the same deals and seats, rules "
                    f"{self.rules[0]}, seed={self.seed}: {names}>")
        return (f"<ComparisonResult {len(self)} rule sets, {self.n_games:,}{m} each on "
                f"{SHARED[self.deals]}, A={self.players[0]} B={self.players[1]}, "
                f"seed={self.seed}: "
                f"{names}>")

    def __str__(self):
        return render("text", self)

    def _repr_html_(self):
        return render("html", self)

    def summary(self, confidence: float | None = None) -> ComparisonResult:
        """The comparison with its intervals at `confidence` (None: its own level, and
        the comparison itself): its `str()` is the table, `as_dict()` the JSON form.
        ValueError for a level `check_confidence` refuses."""
        if confidence is None or check_confidence(confidence) == self.confidence:
            return self
        return self._with(self.results, confidence=confidence)

    def as_dict(self, confidence: float | None = None) -> dict[str, Any]:
        """The comparison as JSON-ready data (what `--json` writes), its intervals at
        `confidence` (None: the comparison's)."""
        return render("data", self.summary(confidence))

    def to_csv(self, path_or_file: str | PathLike[str] | TextIO, *,
               interrupted: Interrupted | None = None,
               confidence: float | None = None) -> None:
        """One row per rule set and metric: rule_set, label, metric (the old name, for
        one release), value, low, high, diff, diff_low, diff_high (differences to the
        baseline, empty for it), statistic (the metric's name).  `interrupted`: the
        Interrupted of a partial run, said in a last row (`cuttle.render.csv`).
        `confidence`: the intervals' level (None: the comparison's)."""
        render("csv", self.summary(confidence), path_or_file, interrupted=interrupted)

    def plot(self, path: str | PathLike[str], title: str | None = None,
             confidence: float | None = None, *,
             interrupted: Interrupted | None = None) -> None:
        """Save a bar chart (win and draw rates per rule set with their intervals, and the
        differences to the baseline) to `path`, its intervals at `confidence` (None: the
        comparison's; `interrupted`: a partial run's Interrupted, said under the
        title).  Needs matplotlib."""
        render("plot", self.summary(confidence), path, title, interrupted=interrupted)
