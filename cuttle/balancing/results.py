"""The balance designer's results: what each stage measured, the candidates, the
winners of each size and the Pareto front.

A `Measure` is the games of one rule set in one stage (its tally, and its pair tally
against the base on the same games): the source of the figures of
`cuttle.figures.BALANCE` (`first_score`, the first player's wins plus half the draws;
`first_mover_win_rate`, `draw_rate`, `mean_moves`; `first_score_shift` against the
base).  A `CandidateResult` is a raced candidate: its prediction, its race games, and
for a winner its confirmation games (fresh deals) and its games under the check
policy.  `BalanceResult` holds them all; it renders through `cuttle.render` (text,
markdown, JSON, CSV, HTML, plot).
"""

from __future__ import annotations

from math import nan
from typing import TYPE_CHECKING, Any

from ..display import render
from ..figures import BALANCE, canonical
from ..simulation import Tally
from ..stats import Estimate
from ..validation import is_int
from .constraints import all_draws, verdict
from .racing import DRAWN, INFEASIBLE, OUT
from .space import Candidate

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from os import PathLike
    from typing import TextIO

    from ..errors import Interrupted
    from ..rules import Rules
    from ..simulation import PairTally
    from ..variants.interactions import Interaction
    from ..variants.rulesets import Variant
    from .config import BalanceConfig

__all__ = ["BalanceResult", "CandidateResult", "Measure", "Single"]

_NOTHING = Estimate(nan, nan, nan)


class Measure:
    """The games of a rule set in one stage: `tally`, and `pair` (its PairTally against
    the base on the same games, base first; None for the base itself).  It reads like a
    simulation's Summary (`n`, `first_wins`, `draws`, `tally`) for the figures of
    `cuttle.figures.BALANCE`; `estimate(name, confidence)` gives them."""

    __slots__ = ("tally", "pair", "confidence")

    def __init__(self, tally: Tally | None = None, pair: PairTally | None = None,
                 confidence: float = 0.95):
        self.tally = Tally() if tally is None else tally
        self.pair, self.confidence = pair, confidence

    def add(self, tally: Tally, pair: PairTally | None = None) -> None:
        """Add a chunk's games."""
        self.tally = self.tally + tally
        if pair is not None:
            self.pair = pair if self.pair is None else self.pair + pair

    @property
    def n(self) -> int:
        """Games played."""
        return self.tally.n_games

    @property
    def first_wins(self) -> int:
        """Games the first player (player A: it moves first in every game) won."""
        return int(self.tally.counts[1].sum())

    @property
    def second_wins(self) -> int:
        """Games the second player won."""
        return int(self.tally.counts[2].sum())

    @property
    def draws(self) -> int:
        """Drawn games."""
        return int(self.tally.counts[0].sum())

    @property
    def score_shift(self) -> tuple[float, float]:
        """(sum, sum of squares) of the per-game shift of the first player's score
        against the base (nan without a pair)."""
        if self.pair is None:
            return nan, nan
        return self.pair.score_moments(reverse=True)

    def estimate(self, name: str, confidence: float | None = None) -> Estimate:
        """A figure of `cuttle.figures.BALANCE` at `confidence` (default: the result's)."""
        f = BALANCE[canonical(name, BALANCE, "statistic")]
        if not self.n:
            return _NOTHING
        return f.estimate(self, self.confidence if confidence is None else confidence)

    @property
    def distance(self) -> float:
        """|first score - 1/2| (nan before any game)."""
        return abs(self.estimate("first_score").value - 0.5) if self.n else nan

    def __repr__(self):
        return f"<Measure of {self.n:,} games>"


class Single:
    """A change screened on its own: the `variant` (`rules`, `changes`, `label`), its
    screening games (`measure`, paired with the base) and `status`."""

    __slots__ = ("variant", "measure", "status", "chunks")

    def __init__(self, variant: Variant, measure: Measure, status: str = "playing"):
        self.variant, self.measure, self.status = variant, measure, status
        self.chunks = 0

    @property
    def shift(self) -> Estimate:
        """The shift of the first player's score against the base."""
        return self.measure.estimate("first_score_shift")

    def first_score(self, base: Measure | None) -> float:
        """Its first score as the tables give it: the base's (`base`, all the base's
        screening games) plus its paired shift, as the atlas gives a variant's, so that
        the two columns agree (its own games' score, `measure`'s, is of fewer games
        when it stopped before the base); nan before any game."""
        if base is None or not base.n or not self.measure.n:
            return nan
        v = base.estimate("first_score").value + self.shift.value
        return min(1.0, max(0.0, v)) if v == v else v

    def __repr__(self):
        return f"<Single {self.variant.label}: {self.measure.n:,} games, {self.status}>"


class CandidateResult:
    """A raced candidate: `candidate` (rules, changes, size), `prediction` (its predicted
    first-player score, an Estimate whose interval includes the model's allowance),
    `race` (its race games) with the race's `status` and the simultaneous `race_level`
    of the race's intervals; a winner of its size also has `confirm` (games on fresh
    deals) and, with a check policy, `check` (games under that policy).  Its figures
    (`estimate`) are those of its confirmation games when it has them, else of its race
    games; `constraints` is what those figures say of the search's constraints
    (`constraints_of`: None without constraints, else "met", "undecided: ..." or
    "broken: ...")."""

    def __init__(self, candidate: Candidate, prediction: Estimate | None, race: Measure,
                 status: str, race_level: float | None):
        self.candidate, self.prediction = candidate, prediction
        self.race, self.status, self.race_level = race, status, race_level
        self.confirm: Measure | None = None
        self.check: Measure | None = None
        self.winner = False
        self.pareto = False
        self.constraints: str | None = None

    @property
    def rules(self) -> Rules:
        """The rule set."""
        return self.candidate.rules

    @property
    def size(self) -> int:
        """The number of flags it changes."""
        return self.candidate.size

    @property
    def label(self) -> str:
        """Its changes, ``four=draw + joker=true``."""
        return self.candidate.label

    @property
    def measure(self) -> Measure:
        """The games its figures come from: the confirmation's, else the race's."""
        return self.confirm if self.confirm is not None and self.confirm.n else self.race

    @property
    def stage(self) -> str:
        """"confirmed" or "raced": where its figures come from."""
        return "confirmed" if self.measure is self.confirm else "raced"

    def estimate(self, name: str, confidence: float | None = None) -> Estimate:
        """A figure of `cuttle.figures.BALANCE` from `measure`."""
        return self.measure.estimate(name, confidence)

    @property
    def distance(self) -> float:
        """|first score - 1/2| of `measure`."""
        return self.measure.distance

    @property
    def level(self) -> float | None:
        """The level of its figures' intervals: the race's simultaneous level for race
        figures, None (the result's confidence) for its confirmation's."""
        return self.race_level if self.stage == "raced" else None

    def constraints_of(self, max_draws: float | None,
                       moves: tuple[float, float] | None) -> str | None:
        """What its figures (`measure`, at `level`) say of the constraints: None without
        any, "broken: draws" when an interval lies outside one, "undecided: length" when
        one straddles a limit, else "met" (`cuttle.balancing.constraints.verdict`)."""
        if max_draws is None and moves is None:
            return None
        v = verdict(self.measure, self.level, max_draws, moves)
        for word in ("broken", "undecided"):
            names = [k for k, x in v.items() if x == word]
            if names:
                return f"{word}: {', '.join(names)}"
        return "met" if v else "undecided: no games"

    def __repr__(self):
        return f"<CandidateResult {self.label}: {self.status}, {self.measure.n:,} games>"


def pareto_front(candidates: Iterable[CandidateResult]) -> list[CandidateResult]:
    """The candidates no other beats on all of: distance of the first score from 50%,
    number of changes, mean length (shorter is better), by their point estimates (their
    reported figures: a winner's confirmation, the others' race); a candidate that broke
    the constraints (infeasible in the race, or its figures' interval outside one) is not
    on it, nor one that decides no game (drawn in the race, or its figures' games all
    draws: `constraints.all_draws`)."""
    pool = [c for c in candidates if c.measure.n and c.status not in (INFEASIBLE, DRAWN)
            and not (c.constraints or "").startswith("broken") and not all_draws(c.measure)]

    def key(c):
        return (c.distance, c.size, c.estimate("mean_moves").value)

    front = []
    for c in pool:
        kc = key(c)
        if not any(all(a <= b for a, b in zip(key(o), kc)) and key(o) != kc
                   for o in pool if o is not c):
            front.append(c)
    return sorted(front, key=key)


class BalanceResult:
    """A balance search: its `config` (base, policy, k, constraints, budget, seed),
    the base's games in each stage (`base`: {stage: Measure}), the `singles` screened,
    the `interactions` measured, `generation` (by size: how many rule sets the space
    holds, how many were pruned and why, how many raced), the raced `candidates` (best
    first: nearest 50% by their own figures), the `winners` ({size: CandidateResult};
    never one whose figures break a constraint, or whose games were all draws: each
    candidate's `constraints` says what its figures say of them), the `pareto` front
    (without what broke a constraint or drew every game),
    `allowance` (the model's allowance per unmeasured pair),
    `played_records` (the chunks this run played: a chunk of one rule set's games paired
    with another rule set's, as the results file holds them), `played_games` (the games
    this run played, every rule set's, the progress line's count), `elapsed` seconds, `notes`, `complete`, `read_only`
    (read from the results file without playing: play=False, --report-only),
    `results_file` (its path, or None).  `n_games` counts the games of the figures.  `str()` is the text report,
    `markdown()` the tables for docs, `as_dict()` the JSON form, `to_csv()`, `plot()`."""

    def __init__(self, config: BalanceConfig, base: dict[str, Measure],
                 singles: Sequence[Single], interactions: Sequence[Interaction],
                 generation: dict[int, dict[str, int]], candidates: Sequence[CandidateResult],
                 allowance: float, played_records: int = 0, elapsed: float | None = None,
                 notes: Iterable[str] = (), complete: bool = True, read_only: bool = False,
                 played_games: int = 0, results_file: str | None = None):
        self.config, self.base = config, base
        self.singles, self.interactions = list(singles), list(interactions)
        self.generation, self.allowance = generation, allowance
        for c in candidates:
            c.constraints = c.constraints_of(config.max_draws, config.moves)
        self.candidates = sorted(candidates, key=lambda c: (
            c.status in OUT, not c.winner, _sort_distance(c)))
        # (a winner whose figures break a constraint, or decide no game, is none: the
        # search replaces it; a partial run's leader may still be one)
        self.winners = {c.size: c for c in self.candidates
                        if c.winner and not (c.constraints or "").startswith("broken")
                        and not all_draws(c.measure)}
        self.pareto = pareto_front(self.candidates)
        for c in self.pareto:
            c.pareto = True
        self.played_records, self.elapsed = played_records, elapsed
        self.notes, self.complete = list(notes), complete
        self.read_only = read_only      # (read from the file without playing: play=False)
        self.played_games, self.results_file = played_games, results_file

    @property
    def confidence(self) -> float:
        """The confidence level of the reported intervals."""
        return self.config.confidence

    @property
    def n_games(self) -> int:
        """Games in the result's figures: every rule set's games of every stage, an
        interaction's once (not once for each of its four rule sets)."""
        total = sum(m.n for m in self.base.values())
        total += sum(s.measure.n for s in self.singles)
        total += sum(x.n for x in self.interactions)
        for c in self.candidates:
            total += c.race.n + sum(m.n for m in (c.confirm, c.check) if m is not None)
        return total

    def best(self, size: int | None = None) -> CandidateResult | None:
        """The winner of a size (default: the fairest winner of any size), None when no
        rule set of that size won.  Size 0 is the base, the tables' "0 changes" row: a
        CandidateResult of no changes (label "(base)", status "base") with the base's
        games (`base_result`).  ValueError for a size the search did not try (not a
        whole number from 0 to its `k`)."""
        if size is None:
            pool = list(self.winners.values())
            return min(pool, key=_sort_distance) if pool else None
        k = self.config.k
        if not is_int(size) or not 0 <= size <= k:
            raise ValueError(f"best(size): the search tried rule sets of 0 (the base) to "
                             f"{k} changes (k={k}), not {size!r}")
        return self.base_result() if size == 0 else self.winners.get(size)

    @property
    def measured(self) -> bool:
        """Whether any of its rule sets has finished games to report (the base, which
        every stage plays, or a candidate): False for a search stopped before its first
        chunk finished, whose report and plot say that nothing was measured yet."""
        return self.base_stage() is not None or any(c.measure.n for c in self.candidates)

    def base_stage(self) -> str | None:
        """The stage whose games the tables' "(base)" row reads: its confirmation's,
        else its race's, else its screening's, the first that has games (a search that
        raced nothing has the base's screening games only); None before any."""
        return next((s for s in ("confirm", "race", "screen")
                     if s in self.base and self.base[s].n), None)

    def base_result(self) -> CandidateResult | None:
        """The base as a CandidateResult, with the games the tables' "(base)" row reads
        (`base_stage`) and its check games; None before any of its games."""
        stage = self.base_stage()
        if stage is None:
            return None
        raced = next((self.base[s] for s in ("race", "screen")
                      if s in self.base and self.base[s].n), None)
        rules = self.config.base
        c = CandidateResult(Candidate(rules, (), rules), None,
                            raced or Measure(confidence=self.confidence), "base", None)
        c.confirm = self.base["confirm"] if stage == "confirm" else None
        c.check = self.base.get("check")
        return c

    def markdown(self) -> str:
        """The tables as markdown (docs/balance.md)."""
        return render("markdown", self)

    def __str__(self):
        return render("text", self)

    def _repr_html_(self):
        return render("html", self)

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"base", "policy", "candidates": [...], ...}`` (see
        `cuttle.render.data`)."""
        return render("data", self)

    def to_csv(self, path_or_file: str | PathLike[str] | TextIO, *,
               interrupted: Interrupted | None = None) -> None:
        """One row per candidate and figure (`interrupted`: the Interrupted of a
        partial run, said in a last row: `cuttle.render.csv`)."""
        render("csv", self, path_or_file, interrupted=interrupted)

    def plot(self, path: str | PathLike[str], *,
             interrupted: Interrupted | None = None) -> None:
        """Save the candidates' first-player scores against their length (a PNG, SVG or
        PDF, by the name; `interrupted`: a partial run's Interrupted, said above the
        title)."""
        render("plot", self, path, interrupted=interrupted)

    def __repr__(self):
        best = self.best()
        text = f", best {best.label}" if best is not None else ""
        return (f"<BalanceResult {self.config.base} under {self.config.policy}: "
                f"{len(self.candidates)} candidates raced{text}>")


def _sort_distance(c: CandidateResult) -> float:
    d = c.distance
    return d if d == d else float("inf")
