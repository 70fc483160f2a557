"""The atlas's results: for each base preset and pairing, the base's own figures and
each variant's, with its shifts against the base measured on the same games.

Shifts (variant minus base) and their intervals: the first- and second-player win
rates and the draw rate by Newcombe's interval for paired proportions (the core tallies
the 2x2 tables of the same games under both rule sets; the pairing's policy moves first
in every game, so player A's wins are the first player's and B's the second's); the
mean lengths in moves and turns by the normal interval of the per-game differences
with a pseudo-difference either way (`cuttle.figures.paired_difference`);
how games end (goal, passes, sudden death, move cap) by Newcombe's interval for
independent proportions against the base's games of the same chunks (the core does not
pair end reasons, so these intervals are a little wide, never too narrow).
"""

from __future__ import annotations

import os
from math import isfinite, nan
from typing import TYPE_CHECKING, Any

from ..display import render
from ..figures import (ATLAS, END_REASONS, SUMMARY, canonical, independent_difference,
                       paired_difference)
from ..simulation import SimulationResult, Tally
from ..stats import Estimate, newcombe_paired_interval

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from os import PathLike
    from typing import TextIO

    from ..errors import Interrupted
    from ..rules import Rules
    from ..simulation import PairTally, Summary
    from .interactions import Interaction
    from .rulesets import Variant
    from .run import AtlasConfig, Pairing

__all__ = ["END_REASONS", "METRICS", "AtlasResult", "AtlasRow", "GroupResult",
           "first_shift", "half_width"]

METRICS = ATLAS
# The pairing's policy moves first in every game of the atlas, so the second mover is
# always player B: its shift is paired through B's win-rate table.
_PAIRED_AS = {"second_mover_win_rate": "win_rate_B"}
_NOTHING = Estimate(nan, nan, nan)


def first_shift(pair: PairTally, confidence: float = 0.95) -> Estimate:
    """The first-player win-rate shift (variant minus base) of a PairTally (base first)."""
    return newcombe_paired_interval(*pair.cells("first_mover_win_rate", reverse=True),
                                    confidence)


def half_width(e: Estimate) -> float:
    """Half the width of an interval (inf if unknown)."""
    w = (e.high - e.low) / 2
    return w if isfinite(w) else float("inf")


class AtlasRow:
    """One rule set of a group: the base (`variant` None) or a variant with its `pair`
    (the PairTally against the base on its games, base first) and `base_tally` (the
    base's games of the same chunks).  `status`: "base", "converged" (its first-player
    shift interval reached the target), "capped" (it played its cap first) or
    "unfinished" (interrupted, or the results file lacks its chunks)."""

    def __init__(self, variant: Variant | None, rules: Rules, tally: Tally | None,
                 pair: PairTally | None, base_tally: Tally | None, chunks: int, status: str,
                 *, players: Sequence[str], seed: int, max_moves: int,
                 confidence: float = 0.95):
        self.variant, self.rules = variant, rules
        self.tally = Tally() if tally is None else tally
        self.pair, self.base_tally = pair, base_tally
        self.chunks, self.status = chunks, status
        self.players, self.seed, self.max_moves = players, seed, max_moves
        self.confidence = confidence
        self._summary: Summary | None = None
        self._base: Summary | None = None

    @property
    def is_base(self) -> bool:
        """Whether this row is the base preset itself."""
        return self.variant is None

    @property
    def label(self) -> str:
        """The variant's label (``four=random``), or ``PRESET (base)``."""
        return f"{self.rules.preset} (base)" if self.is_base else self.variant.label

    @property
    def n_games(self) -> int:
        """Games played under this rule set."""
        return self.tally.n_games

    def summary(self) -> Summary:
        """The `Summary` of the rule set's own games."""
        if self._summary is None:
            self._summary = self._summarize(self.tally)
        return self._summary

    def estimate(self, metric: str) -> Estimate:
        """The rule set's value of `metric` (a name of METRICS) with its interval."""
        return self.summary().estimate(canonical(metric, METRICS))

    def shift(self, metric: str) -> Estimate:
        """Variant minus base for `metric`, on the same games, with its interval (nan
        for the base row or a variant without games): paired where the core tallies
        the pairs (rates of the first and second mover and draws, lengths), else
        against the base's games of the same chunks (end reasons)."""
        f = SUMMARY[canonical(metric, METRICS)]
        if self.is_base or self.pair is None:
            return _NOTHING
        if f.pair is not None or f.name in _PAIRED_AS:
            return paired_difference(f, self.pair, True, self.n_games, self.confidence,
                                     _PAIRED_AS.get(f.name), (self.tally, self.base_tally))
        return independent_difference(f, self.summary(), self._base_summary(),
                                      self.confidence)

    def _base_summary(self):
        """The summary of the base's games in the chunks this variant played."""
        if self._base is None:
            self._base = self._summarize(self.base_tally)
        return self._base

    def _summarize(self, tally):
        res = SimulationResult(tally, players=self.players, rules=self.rules, seed=self.seed,
                               swap_seats=False, max_moves=self.max_moves)
        return res.summary(self.confidence)

    @property
    def half_width(self) -> float:
        """Half-width of the first-player shift's interval (the stopping criterion)."""
        return half_width(self.shift("first_mover_win_rate")) if not self.is_base else nan

    def __repr__(self):
        return f"<AtlasRow {self.label}: {self.n_games:,} games, {self.status}>"


class GroupResult:
    """One base preset under one pairing: `rows[0]` the base, `rows[1:]` its variants
    (in the order of the flag table), and `interactions`: the pairs of the variants with
    the clearest shifts, played together (`cuttle.variants.interactions.Interaction`)."""

    def __init__(self, base: str, pairing: Pairing, rows: Iterable[AtlasRow],
                 interactions: Iterable[Interaction] = ()):
        self.base, self.pairing, self.rows = base, pairing, list(rows)
        self.interactions = list(interactions)

    @property
    def policy(self) -> str:
        """The policy playing both seats."""
        return self.pairing.policy

    @property
    def base_row(self) -> AtlasRow:
        """The base preset's row."""
        return self.rows[0]

    @property
    def variants(self) -> list[AtlasRow]:
        """The variants' rows, in the order of the flag table."""
        return self.rows[1:]

    @property
    def title(self) -> str:
        """``BASE, POLICY self-play``."""
        return f"{self.base}, {self.policy} self-play"

    def row(self, label: str) -> AtlasRow:
        """The row of a variant by its label (or the base's preset name)."""
        for r in self.rows:
            if label in (r.label, str(r.rules)) or (r.is_base and label == self.base):
                return r
        raise KeyError(f"no variant {label!r} in {self.title}")

    def counts(self) -> dict[str, int]:
        """How many variants converged, capped, are unfinished."""
        out = {"converged": 0, "capped": 0, "unfinished": 0}
        for r in self.variants:
            out[r.status] += 1
        return out

    @property
    def complete(self) -> bool:
        """Whether every variant and interaction converged or reached its cap."""
        return all(r.status != "unfinished" for r in self.variants) and \
            all(x.status != "unfinished" for x in self.interactions)

    def plot(self, path: str | PathLike[str], title: str | None = None, *,
             interrupted: Interrupted | None = None) -> None:
        """Save the group's forest plot (see `cuttle.render.plot`) to `path`
        (`interrupted`: a partial run's Interrupted, said under the title)."""
        render("plot", self, path, title, interrupted=interrupted)

    def __repr__(self):
        return f"<GroupResult {self.title}: {len(self.variants)} variants>"


class AtlasResult:
    """An atlas: `groups` (one `GroupResult` per pairing and base preset, pairings
    first), the `config` it was played with, how many whole chunks this run played
    (`played_records`: a chunk of one rule set's games, as the results file holds them;
    the rest came from the file), the games it played (`played_games`, every rule set's,
    those of a chunk Ctrl-C cut short too) and `elapsed` seconds.
    `str()` / `markdown()` give the tables, `as_dict()` the JSON form, `to_csv(path)`
    one row per rule set and metric, `plot(folder)` the forest plots."""

    def __init__(self, config: AtlasConfig, groups: Iterable[GroupResult],
                 played_records: int = 0, elapsed: float | None = None,
                 notes: Iterable[str] = (), played_games: int = 0):
        self.config, self.groups = config, list(groups)
        self.played_records, self.elapsed = played_records, elapsed
        self.played_games = played_games
        self.notes = list(notes)

    @property
    def confidence(self) -> float:
        """The confidence level of the intervals."""
        return self.config.confidence

    @property
    def n_games(self) -> int:
        """Games in the atlas: every rule set's games of every group."""
        return sum(r.n_games for g in self.groups for r in g.rows)

    @property
    def complete(self) -> bool:
        """Whether every variant of every group converged or reached its cap."""
        return all(g.complete for g in self.groups)

    def group(self, base: str, policy: str) -> GroupResult:
        """The group of a base preset and a pairing's policy; KeyError if none."""
        for g in self.groups:
            if g.base == base and g.policy == policy:
                return g
        raise KeyError(f"no group for base {base!r} and pairing {policy!r}")

    def markdown(self, command: str | None = None) -> str:
        """The tables in markdown, one per group (with `command`, the line that
        reproduces them)."""
        return render("markdown", self, command)

    def __str__(self):
        return self.markdown()

    def _repr_html_(self):
        return render("html", self)

    def as_dict(self) -> dict[str, Any]:
        """The JSON form (see `cuttle.render.data`)."""
        return render("data", self)

    def to_csv(self, path_or_file: str | PathLike[str] | TextIO, *,
               interrupted: Interrupted | None = None) -> None:
        """One row per group, rule set and metric: base, policy, variant, rules,
        status, games, metric (its old name, for one release), value, low, high, shift,
        shift_low, shift_high, statistic (the metric's name).  `interrupted`: the
        Interrupted of a partial run, said in a last row (`cuttle.render.csv`)."""
        render("csv", self, path_or_file, interrupted=interrupted)

    def plot(self, folder: str | PathLike[str], *,
             interrupted: Interrupted | None = None) -> list[str]:
        """Save one forest plot per group into `folder` (PNG, named BASE-POLICY.png;
        `interrupted`: a partial run's Interrupted, said under each title); returns the
        paths."""
        paths = []
        for g in self.groups:
            name = f"{g.base}-{g.policy}".replace(":", "-").replace("/", "-")
            path = os.path.join(os.fspath(folder), name + ".png")
            g.plot(path, interrupted=interrupted)
            paths.append(path)
        return paths

    def __repr__(self):
        return (f"<AtlasResult {len(self.groups)} groups, {self.n_games:,} games"
                f"{'' if self.complete else ', unfinished'}>")
