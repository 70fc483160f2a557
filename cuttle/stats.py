"""Confidence intervals for simulation results.

Every function returns an `Estimate` ``(value, low, high)`` (a named tuple, so it unpacks
like a plain tuple).  Intervals are two-sided at `confidence` (default 95 %) and use the
normal quantile ``z = Phi^-1(1 - (1 - confidence) / 2)`` (1.959964 for 95 %).  Every
count (``k``, ``n``, a table's cells, a group's count) follows the library's integer rule
(`cuttle.validation`: an int or a numpy integer, never a bool or a float), at least 0:
anything else is a ValueError naming it.

* `wilson_interval(k, n)`: the Wilson score interval for a proportion ``k / n``
  (Wilson 1927).  Unlike the textbook ``p +- z sqrt(p(1-p)/n)`` it stays inside [0, 1]
  and keeps close to nominal coverage for rates near 0 or 1 and for small ``n``
  (0 / 10 gives [0, 0.278], not [0, 0]).
* `newcombe_interval(k1, n1, k2, n2)`: the difference ``k1/n1 - k2/n2`` of two
  *independent* proportions by Newcombe's hybrid score ("square-and-add") method,
  method 10 of R. G. Newcombe, "Interval estimation for the difference between
  independent proportions: comparison of eleven methods", Stat. Med. 17 (1998) 873-890.
  With ``(l_i, u_i)`` the Wilson interval of ``p_i``:
  ``low = d - sqrt((p1-l1)^2 + (u2-p2)^2)``, ``high = d + sqrt((u1-p1)^2 + (p2-l2)^2)``.
* `newcombe_paired_interval(both, only1, only2, neither)`: the difference of two
  proportions measured on the *same* units (here: the same deal and game index played
  under two rule sets, or "the first mover won" vs "the second mover won" in the same
  games), by the square-and-add method for paired data, method 10 of R. G. Newcombe,
  "Improved confidence intervals for the difference between binomial proportions based
  on paired data", Stat. Med. 17 (1998) 2635-2650.  It is the formula above with the
  cross terms ``- 2 phi (p1-l1)(u2-p2)`` and ``- 2 phi (u1-p1)(p2-l2)`` under the square
  roots, where ``phi`` estimates the correlation of the two outcomes:
  ``phi = (A D - B C) / sqrt((A+B)(C+D)(A+C)(B+D))`` for the 2x2 table
  ``A = both, B = only1, C = only2, D = neither``, with ``A D - B C`` shrunk towards 0
  by ``N / 2`` when positive (Newcombe's correction: 0 if ``0 <= AD-BC <= N/2``) and
  ``phi = 0`` when a margin is empty.  Positively correlated outcomes (common random
  numbers) give a narrower interval than treating the samples as independent.  It
  does not collapse when no unit changed (``only1 = only2 = 0``): of 10,000 games, none
  changed, it is +-1.96/n with half of them won and up to about +-4.3/n for a rate
  near 0 or 1, the size of the rule of three's bound on the share that changed.
* `mean_interval_from_moments(n, total, total_sq)`: a mean with the large-sample normal
  interval ``mean +- z s / sqrt(n)`` (``s`` the sample standard deviation) from the exact
  sums a tally keeps; of per-game differences, the same gives a paired difference of
  means.  Game lengths are sums over 10^3..10^6 games, where the normal approximation is
  good; a Wilson interval applies only to proportions.
* `score_interval(n, total, total_sq)`: a mean score (a win 1, a draw 1/2, a loss 0, per
  game; any values in [0, 1]) with the normal interval of the moments plus two
  pseudo-games, one scoring 0 and one scoring 1 (``n + 2`` games, ``total + 1``,
  ``total_sq + 1``), clipped to [0, 1]; the value is the plain mean.  The plain normal
  interval of a score has no width when every game scores the same: 20 wins of 20 gave
  [100%, 100%] and 20 draws [50%, 50%], where the win rate's Wilson interval says
  [83.9%, 100%].  The pseudo-games are the pseudo-counts of A. Agresti and B. A. Coull,
  "Approximate is better than 'exact' for interval estimation of binomial
  proportions", Am. Stat. 52 (1998) 119-126 (who add about ``z^2 / 2`` successes and as
  many failures; one of each here, as `paired_shift_interval` adds one
  pseudo-difference either way): the interval is centred on ``(total + 1) / (n + 2)``,
  ``|2 mean - 1| / (n + 2)`` from the mean, towards 1/2 (and widened to hold the mean,
  which only a level below about 65% needs).  20 wins of 20 read [86.5%, 100%]; 20
  draws [43.6%, 56.4%], ``1/2 +- z / sqrt(2 (n+1) (n+2))``, the two pseudo-games then
  the only spread.  Any other score's interval moves by O(1/n), at most about 2.2/n at
  95% (when all games but one score alike): at 10,000 games by 0.07% of its width at a
  score of 44%, 0.7% at 90%.  Of wins and losses alone its coverage is near nominal at
  any rate (at 20 games, over the rates from 50% to 100%: 96.2% on average and never
  under 91.8%, where Wilson's averages 95.3% with a minimum of 86.0%, and the plain
  interval's falls to 4.9% near 100%).  `elo_interval` and every figure of a mean score
  read it (`cuttle.figures`' SCORE_MEAN).
* `paired_shift_interval(n, total, total_sq, step)`: the mean of per-game differences
  between rule sets played on the same games, with the normal interval of the moments
  plus one pseudo-difference of ``+step`` and one of ``-step`` (one game more, changed
  either way), as Agresti and Caffo add pseudo-counts to proportions.  When almost
  every game is the same under both rule sets the plain interval collapses: of scores,
  4 games of 10,000 at +1 and none at -1 gave [+0.00001, +0.00079], which excludes 0
  although a sign test of 4 of 4 gives p = 0.125, and no difference at all gave
  [0, 0].  With the pseudo-differences at +-1 they are [-0.00008, +0.00088] and
  [-0.00028, +0.00028] (Newcombe's paired interval of the same 4 games: [-0.00006,
  +0.00103]); the interval of a shift that many games carry barely moves (by under a
  thousandth of its width at 10,000 games).  With no difference at all the interval is
  ``+-z step sqrt(2 / ((n+1)(n+2)))``, about ``+-2.8 step / n``: the rule of three's
  bound on the share of the games that changed (at most about 3/n at 95% when none of
  n did) times a change of `step`.  `score_shift_interval` is its step of 1 (a whole
  game's score, the largest change); a length's step is the spread of a changed game's
  length (`cuttle.figures.length_step`).  The value is the plain mean.
  `paired_shift_error` is its standard error, for intervals of another width (a game
  review's bounds of a loss, two standard errors either side).
* `elo_from_score(score)`: a score (a win 1, a draw 1/2, per game) as an Elo difference,
  ``400 log10(score / (1 - score))`` (the logistic model of the Elo scale: a player
  rated D above another expects ``1 / (1 + 10^(-D/400))`` of a game; 100 Elo is a 64%
  score), -inf and +inf at 0 and 1; `elo_interval(n, total, total_sq)` the same of a
  mean score with its interval (`score_interval`), each end mapped: the interval of the
  Elo difference is the score interval's ends as Elo, as docs/strength.md reports
  head-to-head matches (+43 Elo [+28, +58] from a score of 56.1% [54.0%, 58.3%]).  The
  one home of that formula.
* `ClusteredMean`: the mean of values that come in independent groups whose members
  may be correlated (the decisions of one game), ``sum / count`` over every value, with
  the normal interval of that ratio whose variance is taken between the groups:
  ``G / (G - 1) * sum_g (y_g - m n_g)^2 / N^2`` for G groups of n_g values summing to
  y_g, N values in all (the linearised variance of a ratio estimator from a cluster
  sample, Cochran, "Sampling Techniques", 3rd ed., 1977, section 6.5; the CR1
  cluster-robust standard error of a mean).  Treating a game's decisions as
  independent makes the interval too narrow when they are alike; with one value per
  group it is `mean_interval_from_moments`'s interval.  It keeps five running sums, so
  memory stays flat however many groups are added.
* `clustered_difference_interval(sums, step)`: the difference ``R1 - R2`` of two such
  means measured on the same groups (a match run's games under two rule sets: the
  groups are the matches, each played on the same deals under both, with as many games
  as each needed), ``R = sum y / sum n``, with the same linearised variance taken
  between the groups of the per-group contrast ``u_g = (y1_g - R1 n1_g) / N1 - (y2_g -
  R2 n2_g) / N2``, so that the correlation of the two rule sets' games on the same deals
  counts: ``(G+2)/(G+1) * (sum_g u_g^2 + 2 (step / N)^2)``, ``N = (N1 + N2) / 2``,
  where, as in `paired_shift_interval`, two pseudo-groups at ``+-step / N`` (one value
  more, moved by `step` either way) keep the interval from collapsing when no group
  differs; with one value per group it is that function's interval to within a factor
  ``1 + O(1/G)``.  The sums are `PairedSums`, exact, as the core tallies them.

Which figure uses which interval is the catalogue of statistics (`cuttle.figures`).
"""

from __future__ import annotations

from fractions import Fraction
from math import inf, log10, nan, sqrt
from statistics import NormalDist
from typing import Iterable, NamedTuple

from .formatting import json_number
from .validation import check_confidence, check_int

__all__ = ["Estimate", "z_value", "wilson_interval", "newcombe_interval",
           "newcombe_paired_interval", "mean_interval_from_moments", "score_interval",
           "paired_shift_interval", "paired_shift_error", "score_shift_interval",
           "elo_from_score", "elo_interval", "ClusteredMean", "PairedSums",
           "clustered_difference_interval"]


class Estimate(NamedTuple):
    """A point estimate with its confidence interval: ``value, low, high = estimate``."""

    value: float
    low: float
    high: float

    def as_dict(self) -> dict[str, float | None]:
        """``{"value", "low", "high"}`` for JSON (None for a non-finite number)."""
        return {"value": json_number(self.value), "low": json_number(self.low),
                "high": json_number(self.high)}

    def contains(self, x: float) -> bool:
        """Whether `x` lies in the interval."""
        return self.low <= x <= self.high


def z_value(confidence: float = 0.95) -> float:
    """The two-sided normal quantile for `confidence` (1.959964 for 0.95); ValueError
    for a level `cuttle.validation.check_confidence` refuses."""
    return NormalDist().inv_cdf(0.5 + check_confidence(confidence) / 2.0)


def _count(k, name):
    """A count, by the library's integer rule (`cuttle.validation`: an int or a numpy
    integer, never a bool or a float), at least 0."""
    return check_int(k, name, 0, None, "a count (an int >= 0)")


def _clip(x):
    return min(1.0, max(0.0, x))


def wilson_interval(k: int, n: int, confidence: float = 0.95) -> Estimate:
    """The rate ``k / n`` with its Wilson score interval.

    ``center = (p + z^2/2n) / (1 + z^2/n)``,
    ``half = z / (1 + z^2/n) * sqrt(p(1-p)/n + z^2/4n^2)``.
    ``n == 0`` gives ``(nan, 0, 1)``: nothing is known.

    >>> wilson_interval(7, 10)     # doctest: +ELLIPSIS
    Estimate(value=0.7, low=0.3967..., high=0.8922...)
    """
    k = _count(k, "k")
    n = _count(n, "n")
    if k > n:
        raise ValueError(f"k ({k}) cannot exceed n ({n})")
    z = z_value(confidence)
    if n == 0:
        return Estimate(nan, 0.0, 1.0)
    p = k / n
    z2 = z * z
    denom = 1.0 + z2 / n
    center = (p + z2 / (2 * n)) / denom
    half = z / denom * sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n))
    low = 0.0 if k == 0 else _clip(center - half)
    high = 1.0 if k == n else _clip(center + half)
    return Estimate(p, low, high)


def newcombe_interval(k1: int, n1: int, k2: int, n2: int,
                      confidence: float = 0.95) -> Estimate:
    """The difference ``k1/n1 - k2/n2`` of two independent proportions with Newcombe's
    hybrid score interval (method 10, 1998).  Either ``n`` zero: ``(nan, -1, 1)``."""
    p1, l1, u1 = wilson_interval(k1, n1, confidence)
    p2, l2, u2 = wilson_interval(k2, n2, confidence)
    if not (n1 and n2):
        return Estimate(nan, -1.0, 1.0)
    d = p1 - p2
    low = d - sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return Estimate(d, max(-1.0, low), min(1.0, high))


def newcombe_paired_interval(both: int, only1: int, only2: int, neither: int,
                             confidence: float = 0.95) -> Estimate:
    """The difference ``p1 - p2`` of two proportions observed on the same ``N`` units,
    ``p1 = (both + only1) / N`` and ``p2 = (both + only2) / N``, with Newcombe's
    square-and-add interval for paired data (method 10, 1998).  ``N == 0``:
    ``(nan, -1, 1)``."""
    a = _count(both, "both")
    b = _count(only1, "only1")
    c = _count(only2, "only2")
    d = _count(neither, "neither")
    n = a + b + c + d
    p1, l1, u1 = wilson_interval(a + b, n, confidence)
    p2, l2, u2 = wilson_interval(a + c, n, confidence)
    if n == 0:
        return Estimate(nan, -1.0, 1.0)
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    if margins == 0:
        phi = 0.0
    else:
        cross = a * d - b * c
        if cross > n / 2:
            cross -= n / 2
        elif cross >= 0:
            cross = 0
        phi = cross / sqrt(margins)
    diff = (b - c) / n
    dl = (p1 - l1) ** 2 - 2.0 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
    du = (u1 - p1) ** 2 - 2.0 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2
    low = diff - sqrt(max(dl, 0.0))
    high = diff + sqrt(max(du, 0.0))
    return Estimate(diff, max(-1.0, low), min(1.0, high))


def _mean_and_error(n, total, total_sq):
    """(mean, its standard error) of n >= 2 values from their sum and sum of squares."""
    mean = total / n
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    return mean, sqrt(var / n)


def mean_interval_from_moments(n: int, total: float, total_sq: float,
                               confidence: float = 0.95) -> Estimate:
    """A mean with its normal interval from ``n``, ``sum x`` and ``sum x^2``."""
    n = _count(n, "n")
    if n <= 0:
        return Estimate(nan, nan, nan)
    if n == 1:
        return Estimate(total / n, nan, nan)
    mean, se = _mean_and_error(n, total, total_sq)
    half = z_value(confidence) * se
    return Estimate(mean, mean - half, mean + half)


def score_interval(n: int, total: float, total_sq: float,
                   confidence: float = 0.95) -> Estimate:
    """A mean score (``n`` games' scores in [0, 1], their sum and sum of squares) with the
    normal interval of the moments plus a pseudo-game scoring 0 and one scoring 1,
    clipped to [0, 1] (see the module docstring: without them the interval has no width
    when every game scores the same), and never without the value, the plain mean.
    Fewer than two games: no interval, as for any mean.  ValueError for a sum outside
    [0, n].

    >>> score_interval(20, 20, 20)      # 20 wins of 20   # doctest: +ELLIPSIS
    Estimate(value=1.0, low=0.8654..., high=1.0)
    """
    n = _count(n, "n")
    if not 0 <= total <= max(n, 0):
        raise ValueError(f"a score's sum must lie in [0, n] = [0, {n}], not {total!r}")
    if n <= 1:
        return mean_interval_from_moments(n, total, total_sq, confidence)
    mean, se = _mean_and_error(n + 2, total + 1, total_sq + 1)
    half = z_value(confidence) * se
    value = total / n
    # (below a level of about 65% the pull towards 1/2 can exceed the half-width, 0 of 2
    # at 50% reading [8%, 42%]: the interval always holds its value)
    return Estimate(value, min(value, _clip(mean - half)), max(value, _clip(mean + half)))


def _step(step):
    step = float(step)
    if not 0.0 < step < float("inf"):
        raise ValueError(f"step must be a positive finite number, not {step!r}")
    return step


def _with_pseudo_differences(n, total, total_sq, step):
    """(mean, standard error) of n >= 2 paired differences with one pseudo-difference of
    ``+step`` and one of ``-step`` added."""
    return _mean_and_error(n + 2, total, total_sq + 2.0 * step * step)


def paired_shift_interval(n: int, total: float, total_sq: float, step: float,
                          confidence: float = 0.95) -> Estimate:
    """The mean of ``n`` paired differences (one per game) from their sum and sum of
    squares, with the normal interval of the moments plus one pseudo-difference of
    ``+step`` and one of ``-step`` (a game changed by `step` either way; see the module's
    docstring: without them the interval collapses when almost every difference is 0);
    the value is the plain mean.  ValueError for a `step` that is not a positive
    finite number."""
    step = _step(step)
    n = _count(n, "n")
    if n <= 1:                            # (no interval from one game, as for any mean)
        return mean_interval_from_moments(n, total, total_sq, confidence)
    mean, se = _with_pseudo_differences(n, total, total_sq, step)
    half = z_value(confidence) * se
    return Estimate(total / n, mean - half, mean + half)


def paired_shift_error(n: int, total: float, total_sq: float, step: float) -> float:
    """The standard error of `paired_shift_interval` (its half-width is ``z`` times it),
    for intervals of another width (the review's, two standard errors): of the ``n``
    paired differences with one pseudo-difference of ``+step`` and one of ``-step``,
    so never 0, however alike the differences; inf for fewer than two.  ValueError for a
    `step` that is not a positive finite number."""
    step = _step(step)
    n = _count(n, "n")
    if n <= 1:
        return float("inf")
    return _with_pseudo_differences(n, total, total_sq, step)[1]


def score_shift_interval(n: int, total: float, total_sq: float,
                         confidence: float = 0.95) -> Estimate:
    """The mean of ``n`` per-game differences of scores (a win 1, a draw 1/2) from their
    sum and sum of squares: `paired_shift_interval` with a step of 1, a whole game's
    score."""
    return paired_shift_interval(n, total, total_sq, 1.0, confidence)


def elo_from_score(score: float) -> float:
    """A score (a win 1, a draw 1/2, a loss 0: the mean per game) as an Elo difference,
    ``400 log10(score / (1 - score))``: -inf at 0 (or below), +inf at 1 (or above), nan
    for nan."""
    if score != score:                  # nan
        return nan
    if score <= 0.0:
        return -inf
    if score >= 1.0:
        return inf
    return 400.0 * log10(score / (1.0 - score))


def elo_interval(n: int, total: float, total_sq: float,
                 confidence: float = 0.95) -> Estimate:
    """The Elo difference of a mean score (``n`` games' scores, their sum and sum of
    squares) with the interval of the score (`score_interval`), each end as Elo
    (`elo_from_score`; an end at 0 or 1 is -inf or +inf: no finite bound)."""
    return Estimate(*(elo_from_score(x)
                      for x in score_interval(n, total, total_sq, confidence)))


class PairedSums(NamedTuple):
    """The sums over G groups of two grouped means on the same groups (1 and 2): of the
    values ``y1``, ``y2`` and the counts ``n1``, ``n2`` per group, and of their products
    per group (``y1y1`` is ``sum_g y1_g^2``, ``y1n2`` is ``sum_g y1_g n2_g``, ...)."""

    groups: int
    y1: float
    n1: int
    y2: float
    n2: int
    y1y1: float
    y1n1: float
    n1n1: int
    y2y2: float
    y2n2: float
    n2n2: int
    y1y2: float
    y1n2: float
    n1y2: float
    n1n2: int


def clustered_difference_interval(sums: PairedSums, step: float,
                                  confidence: float = 0.95) -> Estimate:
    """``y1 / n1 - y2 / n2`` of two grouped means on the same groups, with the normal
    interval of the module's docstring: the variance between the groups of their
    contrasts, with a pseudo-group at ``+step / N`` and one at ``-step / N`` (`step`: how
    much one value may change, 1 for a rate; ``N``: the mean of n1 and n2).  No value
    on either side: all nan; fewer than two groups: no interval.  ValueError for a
    `step` that is not a positive finite number."""
    step = _step(step)
    z = z_value(confidence)
    s = sums
    if s.n1 <= 0 or s.n2 <= 0:
        return Estimate(nan, nan, nan)
    d = s.y1 / s.n1 - s.y2 / s.n2       # (as the two means' values are computed)
    # Exact rationals: the expansions below cancel nearly to 0 when the two rule sets'
    # games agree, where floats would leave their rounding as the spread.
    s = PairedSums(*(Fraction(x) for x in s))
    r1, r2 = s.y1 / s.n1, s.y2 / s.n2
    g = int(s.groups)
    if g < 2:
        return Estimate(d, nan, nan)
    e11 = s.y1y1 - 2 * r1 * s.y1n1 + r1 * r1 * s.n1n1      # sum (y1 - r1 n1)^2
    e22 = s.y2y2 - 2 * r2 * s.y2n2 + r2 * r2 * s.n2n2
    e12 = s.y1y2 - r2 * s.y1n2 - r1 * s.n1y2 + r1 * r2 * s.n1n2
    spread = max(0.0, float(e11 / s.n1 ** 2 + e22 / s.n2 ** 2 - 2 * e12 / (s.n1 * s.n2)))
    var = (g + 2) / (g + 1) * (spread + 2.0 * (2.0 * step / float(s.n1 + s.n2)) ** 2)
    half = z * sqrt(var)
    return Estimate(d, d - half, d + half)


class ClusteredMean:
    """A running mean of values added a group at a time (groups independent, values
    within a group possibly correlated), with the cluster-robust normal interval of the
    module's docstring::

        acc = ClusteredMean()
        for game in games:
            acc.add(values_of(game))          # or acc.add_group(sum, count)
        value, low, high = acc.estimate()
    """

    __slots__ = ("groups", "count", "total", "group_sq", "group_cross", "count_sq")

    def __init__(self) -> None:
        self.groups = 0           # G
        self.count = 0            # N = sum n_g
        self.total = 0.0          # sum y_g
        self.group_sq = 0.0       # sum y_g^2
        self.group_cross = 0.0    # sum y_g n_g
        self.count_sq = 0         # sum n_g^2

    def add_group(self, total: float, count: int) -> None:
        """One group of `count` values summing to `total` (a group of none is skipped:
        it tells nothing about the mean or its spread)."""
        count = _count(count, "count")
        total = float(total)
        if total != total or total in (float("inf"), float("-inf")):
            raise ValueError(f"total must be a finite number, not {total!r}")
        if count == 0:
            if total != 0.0:
                raise ValueError(f"a group of no values sums to 0, not {total!r}")
            return
        self.groups += 1
        self.count += count
        self.total += total
        self.group_sq += total * total
        self.group_cross += total * count
        self.count_sq += count * count

    def add(self, values: Iterable[float]) -> None:
        """One group: the values of one independent unit (e.g. one game's decisions)."""
        values = [float(x) for x in values]
        self.add_group(sum(values), len(values))

    def estimate(self, confidence: float = 0.95) -> Estimate:
        """The mean of every value added, and its interval (nan before two groups)."""
        z = z_value(confidence)
        if self.count == 0:
            return Estimate(nan, nan, nan)
        mean = self.total / self.count
        if self.groups < 2:
            return Estimate(mean, nan, nan)
        spread = max(0.0, self.group_sq - 2.0 * mean * self.group_cross
                     + mean * mean * self.count_sq)
        var = self.groups / (self.groups - 1) * spread / (self.count * self.count)
        half = z * sqrt(var)
        return Estimate(mean, mean - half, mean + half)
