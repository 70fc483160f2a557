"""Means and differences of means computed from the samples themselves (numpy), the
tests' reference for the figures cuttle computes from exact moments (`cuttle.stats.
mean_interval_from_moments` and the catalogue's paired and independent differences)."""

from math import nan, sqrt

import numpy as np

from cuttle.stats import Estimate, z_value


def mean_interval(values, confidence=0.95):
    """The mean of `values` with the normal interval ``mean +- z s / sqrt(n)``."""
    x = np.asarray(values, dtype=np.float64).ravel()
    if x.size == 0:
        return Estimate(nan, nan, nan)
    mean = float(x.mean())
    if x.size == 1:
        return Estimate(mean, nan, nan)
    half = z_value(confidence) * float(x.std(ddof=1)) / sqrt(x.size)
    return Estimate(mean, mean - half, mean + half)


def paired_mean_difference(x1, x2, confidence=0.95):
    """``mean(x1 - x2)`` over paired observations, the normal interval of the per-pair
    differences."""
    a = np.asarray(x1, dtype=np.float64).ravel()
    b = np.asarray(x2, dtype=np.float64).ravel()
    if a.shape != b.shape:
        raise ValueError(f"paired samples differ in size ({a.size} and {b.size})")
    return mean_interval(a - b, confidence)


def paired_length_shift(x1, x2, confidence=0.95):
    """``mean(x1 - x2)`` over paired games' lengths with the interval of the per-game
    differences and two pseudo-differences, +s and -s, ``s = sqrt(var(x1) + var(x2))``
    (at least 1); the value is the plain mean (`cuttle.figures.paired_difference`)."""
    a = np.asarray(x1, dtype=np.float64).ravel()
    b = np.asarray(x2, dtype=np.float64).ravel()
    step = max(1.0, sqrt(float(a.var(ddof=1)) + float(b.var(ddof=1))))
    wide = mean_interval(np.concatenate([a - b, [step, -step]]), confidence)
    return Estimate(float((a - b).mean()), wide.low, wide.high)


def mean_difference(x1, x2, confidence=0.95):
    """``mean(x1) - mean(x2)`` for independent samples, the normal (Welch) interval
    ``d +- z sqrt(s1^2/n1 + s2^2/n2)``."""
    a = np.asarray(x1, dtype=np.float64).ravel()
    b = np.asarray(x2, dtype=np.float64).ravel()
    if a.size == 0 or b.size == 0:
        return Estimate(nan, nan, nan)
    d = float(a.mean() - b.mean())
    if a.size < 2 or b.size < 2:
        return Estimate(d, nan, nan)
    half = z_value(confidence) * sqrt(float(a.var(ddof=1)) / a.size
                                      + float(b.var(ddof=1)) / b.size)
    return Estimate(d, d - half, d + half)


def match_paired_difference(x1, m1, x2, m2, matches, step, confidence=0.95):
    """``mean(x1) - mean(x2)`` of the games of a match run under two rule sets (`m1`,
    `m2`: each game's match, 0 .. matches-1) with the match as the unit: the normal
    interval of the per-match contrasts ``(y1 - r1 n1) / N1 - (y2 - r2 n2) / N2`` (y: a
    match's sum, n: its games), ``(G+2)/(G+1) (sum u^2 + 2 (step/N)^2)``, N the mean of
    N1 and N2, computed per match here (`cuttle.stats.clustered_difference_interval`
    from the tallies' sums)."""
    sides = []
    for x, m in ((x1, m1), (x2, m2)):
        x = np.asarray(x, dtype=np.float64).ravel()
        m = np.asarray(m).ravel()
        y, n = np.bincount(m, x, minlength=matches), np.bincount(m, minlength=matches)
        sides.append((y, n, y.sum() / n.sum()))
    (y1, n1, r1), (y2, n2, r2) = sides
    u = (y1 - r1 * n1) / n1.sum() - (y2 - r2 * n2) / n2.sum()
    g, games = matches, (n1.sum() + n2.sum()) / 2
    half = z_value(confidence) * sqrt((g + 2) / (g + 1) * (float((u * u).sum())
                                                          + 2 * (step / games) ** 2))
    d = float(r1 - r2)
    return Estimate(d, d - half, d + half)
