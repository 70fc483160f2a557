"""Candidate generation: predict every rule set of the space from the single changes'
measured shifts and the measured interactions of pairs, and keep, for each size, the
few that could be the fairest.

**The model.**  A single change is measured directly (its own screening games).  A
rule set combining changes P is predicted additively: the base's first-player score,
plus each change's shift, plus the measured interaction of every pair of P that was
measured; a measured pair alone is its own measurement.  Its interval is the base's
half-width plus the parts' half-widths (each at the run's confidence; summing them
bounds the error whatever their correlation), plus the *allowance* for every pair of P
whose interaction was not measured and every triple: an interaction assumed no larger
than the allowance, which is the largest measured interaction (at least the budget's
floor, 1 point by default).  Draw rates and lengths are predicted alike (lengths with
their own allowance, in moves).

**Pruning, by size.**  Each rule set's distance from 50% lies in
``[dist_low, dist_high]`` under the model.  Of the rule sets of one size:

* those that decide no game are *all draws*: a single change whose screening games
  were all draws, or a rule set `Rules.degenerate` says can only draw (its 50% is no
  fairness: `cuttle.balancing.constraints`, "Draws"); they are not raced, and a measured
  one prunes nothing;
* those whose predicted draws or length surely break a constraint are *infeasible*;
  those whose predicted intervals lie within the constraints are *surely feasible*
  (without constraints, every rule set is);
* those whose ``dist_low`` exceeds the smallest ``dist_high`` of the surely feasible
  ones are *dominated*: under the model another rule set of the same size is fairer and
  meets the constraints (one that only might meet them dominates nothing: if it broke
  them, what it pruned could be the fairest left), so pruning them is safe as long
  as no interaction left unmeasured exceeds the allowance and the screening's intervals
  hold (each is a 95% interval of its own, not a simultaneous statement: summing the
  half-widths makes the bounds conservative, but a wrong screening interval can still
  prune a fair rule set);
* of the rest, the `per_size` with the smallest predicted distance are raced (when none
  of them is surely feasible and another is, the last place goes to the nearest surely
  feasible one, so that a size whose raced candidates all break the constraints still
  races one that meets them); the others are pruned *by the cap*, which is not safe: the
  count says how many.

Changes whose shift is negligible (its interval lies within ``±negligible``, a quarter
of a point by default) are not combined: under the model a rule set with such a change
is as fair as the same rule set without it, which has fewer changes (the counts call
the rule sets with them "not combined").
"""

from __future__ import annotations

from itertools import combinations
from math import comb, isfinite
from typing import TYPE_CHECKING, NamedTuple

from ..figures import SUMMARY, paired_difference
from ..stats import Estimate
from .constraints import all_draws, judge
from .racing import distance
from .space import Candidate, combinations_of

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..rules import Rules
    from ..variants.interactions import Interaction
    from ..variants.rulesets import Variant
    from .results import Measure, Single

__all__ = ["Prediction", "allowance", "generate", "pairs_to_measure", "predict"]

PRUNED = ("not_combined", "all_draws", "infeasible", "dominated", "beyond_cap")


class Prediction(NamedTuple):
    """A candidate's predicted first-player score, draw rate and mean length, each an
    Estimate whose interval includes the model's allowances."""

    score: Estimate
    draws: Estimate
    moves: Estimate


def _half(e: Estimate) -> float:
    h = (e.high - e.low) / 2
    return h if isfinite(h) else 0.0


def _widen(value: float, half: float) -> Estimate:
    return Estimate(value, value - half, value + half)


def allowance(interactions: Sequence[Interaction], floor: float) -> float:
    """The allowance for an unmeasured interaction: the largest measured one (its point
    value, in score), at least `floor`."""
    sizes = [abs(x.estimate("interaction").value) for x in interactions if x.n]
    return max([floor] + [s for s in sizes if isfinite(s)])


def _shift(m: Measure, metric: str, base: Measure) -> Estimate:
    """A single's paired shift against the base (score, draw rate or mean moves; `base`:
    the base's screening games, whose spread of lengths a length's interval reads)."""
    if metric == "first_score":
        return m.estimate("first_score_shift")
    return paired_difference(SUMMARY[metric], m.pair, True, m.n, m.confidence,
                             tallies=(m.tally, base.tally))


def _pair_shifts(x: Interaction) -> tuple[Estimate, Estimate, Estimate]:
    """A measured pair's own shifts (score, draws, moves) against the base."""
    ab = x.tallies[3]
    pair = x.pairs[(0, 3)]
    return (x.estimate("pair_shift"),
            paired_difference(SUMMARY["draw_rate"], pair, True, ab.n_games, x.confidence),
            paired_difference(SUMMARY["mean_moves"], pair, True, ab.n_games, x.confidence,
                              tallies=(ab, x.tallies[0])))


def predict(candidate: Candidate, singles: dict[Rules, Single],
            pairs: dict[frozenset, Interaction], base: Measure, tau: float,
            tau_moves: float) -> Prediction:
    """The prediction of a candidate (see the module docstring): `singles` by their
    rules, `pairs` (measured interactions) by the frozenset of their two parts' rules,
    `base` the base's screening games."""
    parts = [singles[p.rules] for p in candidate.parts]
    if len(parts) == 1:
        m = parts[0].measure
        return Prediction(m.estimate("first_score"), m.estimate("draw_rate"),
                          m.estimate("mean_moves"))
    metrics = ("first_score", "draw_rate", "mean_moves")
    bases = [base.estimate(name) for name in metrics]
    key = frozenset(p.rules for p in candidate.parts)
    if len(parts) == 2 and key in pairs:
        shifts = _pair_shifts(pairs[key])
        return Prediction(*(_widen(b.value + s.value, _half(b) + _half(s))
                            for b, s in zip(bases, shifts)))
    values = [b.value for b in bases]
    halves = [_half(b) for b in bases]
    for s in parts:
        for i, name in enumerate(metrics):
            e = _shift(s.measure, name, base)
            values[i] += e.value
            halves[i] += _half(e)
    unmeasured = 0
    for a, b in combinations(candidate.parts, 2):
        x = pairs.get(frozenset((a.rules, b.rules)))
        if x is None:
            unmeasured += 1
            continue
        e = x.estimate("interaction")
        values[0] += e.value
        halves[0] += _half(e)
        halves[1] += tau                 # (draws and lengths: interactions not measured)
        halves[2] += tau_moves
    extra = unmeasured + comb(len(parts), 3)
    halves[0] += tau * extra
    halves[1] += tau * extra
    halves[2] += tau_moves * extra
    return Prediction(*(_widen(v, h) for v, h in zip(values, halves)))


def _feasible(p: Prediction, max_draws, moves) -> bool:
    """Whether `p` might meet the constraints (its intervals break none)."""
    return "broken" not in judge(p.draws, p.moves, max_draws, moves).values()


def _surely_feasible(p: Prediction, max_draws, moves) -> bool:
    """Whether `p` meets the constraints on its whole predicted intervals."""
    return all(v == "met" for v in judge(p.draws, p.moves, max_draws, moves).values())


def generate(singles: Sequence[Single], interactions: Sequence[Interaction], base: Measure,
             base_rules: Rules, k: int, *, negligible: float, per_size: int, tau: float,
             tau_moves: float, max_draws: float | None = None,
             moves: tuple[float, float] | None = None,
             space: dict[int, int] | None = None
             ) -> tuple[list[tuple[Candidate, Prediction]], dict[int, dict[str, int]]]:
    """The candidates to race (at most `per_size` of each size from 1 to k, each with
    its prediction) and, by size, what happened to the rule sets of the space
    (`space`: their count by size): "space", "not_combined", "all_draws", "infeasible",
    "dominated", "beyond_cap", "raced"."""
    by_rules = {s.variant.rules: s for s in singles}
    drawn = {s.variant.rules for s in singles if all_draws(s.measure)}
    pairs = {frozenset((x.a.rules, x.b.rules)): x for x in interactions if x.n}
    pool = [Candidate(s.variant.rules, [s.variant], base_rules) for s in singles
            if s.measure.n and len(s.variant.changes) <= k]
    useful = [s.variant for s in singles if s.measure.n and len(s.variant.changes) < k
              and not -negligible <= s.shift.low <= s.shift.high <= negligible]
    pool += combinations_of(useful, base_rules, k)
    stats = {n: dict.fromkeys(("space",) + PRUNED + ("raced",), 0) for n in range(1, k + 1)}
    for n in stats:
        stats[n]["space"] = (space or {}).get(n, 0)
    chosen = []
    for n in range(1, k + 1):
        group = [(c, predict(c, by_rules, pairs, base, tau, tau_moves))
                 for c in pool if c.size == n]
        stats[n]["not_combined"] = max(0, stats[n]["space"] - len(group))
        decides = [(c, p) for c, p in group
                   if c.rules not in drawn and not c.rules.degenerate()]
        stats[n]["all_draws"] = len(group) - len(decides)
        group = decides
        feasible = [(c, p) for c, p in group if _feasible(p, max_draws, moves)]
        stats[n]["infeasible"] = len(group) - len(feasible)
        if not feasible:
            continue
        bounds = [distance(p.score) for _, p in feasible]
        sure = [_surely_feasible(p, max_draws, moves) for _, p in feasible]
        best_high = min([high for (_, high), s in zip(bounds, sure) if s],
                        default=float("inf"))
        open_ = [(c, p) for (c, p), (low, _) in zip(feasible, bounds) if low <= best_high]
        stats[n]["dominated"] = len(feasible) - len(open_)
        open_.sort(key=lambda cp: (abs(cp[1].score.value - 0.5), cp[0].label))
        raced = open_[:per_size]
        if not any(_surely_feasible(p, max_draws, moves) for _, p in raced):
            safe = [cp for cp in open_[per_size:]
                    if _surely_feasible(cp[1], max_draws, moves)]
            if safe:
                raced[-1] = safe[0]
        chosen += raced
        stats[n]["beyond_cap"] = max(0, len(open_) - per_size)
        stats[n]["raced"] = min(len(open_), per_size)
    return chosen, stats


def pairs_to_measure(chosen: Sequence[tuple[Candidate, Prediction]], limit: int
                     ) -> list[tuple[Variant, Variant]]:
    """The pairs of changes whose interactions matter most: the pairs of parts of the
    candidates of two or more changes, the candidates nearest 50% first, at most
    `limit`."""
    order = sorted((cp for cp in chosen if len(cp[0].parts) > 1),
                   key=lambda cp: abs(cp[1].score.value - 0.5))
    out: dict[frozenset, tuple[Variant, Variant]] = {}
    for cand, _ in order:
        for a, b in combinations(cand.parts, 2):
            if len(out) < limit:
                out.setdefault(frozenset((a.rules, b.rules)), (a, b))
    return list(out.values())
