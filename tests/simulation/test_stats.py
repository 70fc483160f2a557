"""Confidence intervals checked against their formulas, worked by hand."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import cuttle
from cuttle.stats import (ClusteredMean, Estimate, PairedSums, clustered_difference_interval,
                          elo_from_score, elo_interval, mean_interval_from_moments,
                          newcombe_interval, newcombe_paired_interval, paired_shift_error,
                          paired_shift_interval, score_interval, score_shift_interval,
                          wilson_interval, z_value)
from support.samples import mean_difference, mean_interval, paired_mean_difference

Z = 1.959963984540054          # Phi^-1(0.975)


def wilson_by_hand(k, n, z=Z):
    p = k / n
    center = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return center - half, center + half


def test_z_value():
    assert z_value(0.95) == pytest.approx(Z, abs=1e-12)
    assert z_value(0.99) == pytest.approx(2.5758293035489, abs=1e-9)
    for bad in (0, 1, 1.5, -0.1):
        with pytest.raises(ValueError):
            z_value(bad)


def test_wilson_7_of_10():
    p, lo, hi = wilson_interval(7, 10)
    assert p == 0.7
    # z^2 = 3.8414588; center = (0.7 + 3.8414588/20) / (1 + 0.38414588) = 0.6444934
    # half = 1.959964 / 1.38414588 * sqrt(0.021 + 3.8414588/400) = 0.2477153
    assert lo == pytest.approx(0.6444934 - 0.2477153, abs=1e-6)
    assert hi == pytest.approx(0.6444934 + 0.2477153, abs=1e-6)
    assert (lo, hi) == pytest.approx(wilson_by_hand(7, 10), abs=1e-12)
    assert (round(lo, 4), round(hi, 4)) == (0.3968, 0.8922)      # published value


def test_wilson_0_and_10_of_10():
    # k = 0: the interval is [0, z^2 / (n + z^2)]; k = n: [n / (n + z^2), 1].
    p, lo, hi = wilson_interval(0, 10)
    assert p == 0.0 and lo == 0.0
    assert hi == pytest.approx(Z * Z / (10 + Z * Z), abs=1e-12)
    assert hi == pytest.approx(0.27753, abs=1e-5)
    p, lo, hi = wilson_interval(10, 10)
    assert p == 1.0 and hi == 1.0
    assert lo == pytest.approx(10 / (10 + Z * Z), abs=1e-12)
    assert lo == pytest.approx(0.72247, abs=1e-5)


def test_wilson_general_and_symmetry():
    for k, n in ((1, 3), (50, 100), (3, 1000), (999_000, 1_000_000)):
        p, lo, hi = wilson_interval(k, n)
        assert p == k / n
        assert (lo, hi) == pytest.approx(wilson_by_hand(k, n), abs=1e-12)
        _, lo2, hi2 = wilson_interval(n - k, n)
        assert lo == pytest.approx(1 - hi2, abs=1e-12) and hi == pytest.approx(1 - lo2, abs=1e-12)
        assert 0 <= lo <= p <= hi <= 1
    # numpy integers are counts too; a wider confidence gives a wider interval
    assert wilson_interval(np.int64(7), np.int32(10)) == wilson_interval(7, 10)
    _, lo99, hi99 = wilson_interval(7, 10, confidence=0.99)
    assert lo99 < 0.3968 and hi99 > 0.8922
    assert isinstance(wilson_interval(1, 2), Estimate)


def test_wilson_empty_and_errors():
    p, lo, hi = wilson_interval(0, 0)
    assert math.isnan(p) and (lo, hi) == (0.0, 1.0)
    for k, n in ((11, 10), (-1, 10), (1, -1), (0.5, 10), ("3", 10), (None, 3)):
        with pytest.raises(ValueError):
            wilson_interval(k, n)


COUNTED = {
    "wilson k": lambda v: wilson_interval(v, 2),
    "wilson n": lambda v: wilson_interval(1, v),
    "newcombe n2": lambda v: newcombe_interval(1, 2, 0, v),
    "newcombe paired both": lambda v: newcombe_paired_interval(v, 1, 1, 1),
    "newcombe paired neither": lambda v: newcombe_paired_interval(1, 1, 1, v),
    "mean n": lambda v: mean_interval_from_moments(v, 1, 1),
    "score n": lambda v: score_interval(v, 1, 1),
    "elo n": lambda v: elo_interval(v, 1, 1),
    "shift n": lambda v: paired_shift_interval(v, 1, 1, 1.0),
    "shift error n": lambda v: paired_shift_error(v, 1, 1, 1.0),
    "score shift n": lambda v: score_shift_interval(v, 1, 1),
    "clustered count": lambda v: ClusteredMean().add_group(1.0, v),
}


@pytest.mark.parametrize("name", sorted(COUNTED))
def test_every_count_follows_the_integer_rule(name):
    """wilson_interval(True, 10) was taken as k = 1 (and 7.0 as 7): a count is an int or
    a numpy integer, by the library's integer rule (cuttle.validation), wherever the
    module takes one."""
    call = COUNTED[name]
    for good in (1, np.int64(1), np.uint8(1)):
        call(good)
    for bad in (True, False, 1.0, np.float64(1.0), "1", None, -1):
        with pytest.raises(ValueError, match=r"must be a count \(an int >= 0\), not "):
            call(bad)


def test_wilson_is_exported():
    assert cuttle.wilson_interval is wilson_interval


def test_newcombe_independent_published_example():
    # Newcombe (1998a), example (a): 56/70 - 48/80, method 10: 0.0524 to 0.3339.
    d, lo, hi = newcombe_interval(56, 70, 48, 80)
    assert d == pytest.approx(0.2)
    assert (round(lo, 4), round(hi, 4)) == (0.0524, 0.3339)


def test_newcombe_independent_by_hand():
    l1, u1 = wilson_by_hand(7, 10)
    l2, u2 = wilson_by_hand(3, 12)
    p1, p2 = 0.7, 0.25
    d, lo, hi = newcombe_interval(7, 10, 3, 12)
    assert d == pytest.approx(p1 - p2)
    assert lo == pytest.approx(p1 - p2 - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), abs=1e-12)
    assert hi == pytest.approx(p1 - p2 + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2), abs=1e-12)
    # swapping the groups mirrors the interval
    d2, lo2, hi2 = newcombe_interval(3, 12, 7, 10)
    assert (d2, lo2, hi2) == pytest.approx((-d, -hi, -lo), abs=1e-12)
    d, lo, hi = newcombe_interval(1, 1, 0, 0)
    assert math.isnan(d) and (lo, hi) == (-1.0, 1.0)


def test_newcombe_paired_by_hand():
    # 2x2 table of pairs: both 30, only the first 12, only the second 5, neither 53.
    a, b, c, d = 30, 12, 5, 53
    n = a + b + c + d
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson_by_hand(a + b, n)
    l2, u2 = wilson_by_hand(a + c, n)
    cross = a * d - b * c                      # 1530 > n/2, so it is reduced by n/2
    phi = (cross - n / 2) / math.sqrt((a + b) * (c + d) * (a + c) * (b + d))
    lo = p1 - p2 - math.sqrt((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2)
    hi = p1 - p2 + math.sqrt((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2)
    est = newcombe_paired_interval(a, b, c, d)
    assert est.value == pytest.approx(0.07)
    assert (est.low, est.high) == pytest.approx((lo, hi), abs=1e-12)
    # Positive correlation makes it narrower than the independent-samples interval.
    ind = newcombe_interval(a + b, n, a + c, n)
    assert est.high - est.low < ind.high - ind.low
    # Swapping the discordant cells mirrors it.
    m = newcombe_paired_interval(a, c, b, d)
    assert (m.value, m.low, m.high) == pytest.approx((-est.value, -est.high, -est.low))


def test_newcombe_paired_phi_cases():
    # A D - B C between 0 and N/2: phi = 0, the independent formula with the same N.
    a, b, c, d = 1, 4, 4, 21          # AD - BC = 5 <= 15
    n = a + b + c + d
    ind = newcombe_interval(a + b, n, a + c, n)
    assert tuple(newcombe_paired_interval(a, b, c, d)) == pytest.approx(tuple(ind), abs=1e-12)
    # An empty margin: phi = 0 as well.
    assert tuple(newcombe_paired_interval(0, 5, 0, 5)) == \
        pytest.approx(tuple(newcombe_interval(5, 10, 0, 10)))
    # Negative association is used as is.
    a, b, c, d = 2, 10, 12, 1
    n = a + b + c + d
    phi = (a * d - b * c) / math.sqrt((a + b) * (c + d) * (a + c) * (b + d))
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson_by_hand(a + b, n)
    l2, u2 = wilson_by_hand(a + c, n)
    lo = p1 - p2 - math.sqrt((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2)
    assert newcombe_paired_interval(a, b, c, d).low == pytest.approx(lo, abs=1e-12)
    # No discordant pairs: difference 0, interval around 0.
    e = newcombe_paired_interval(40, 0, 0, 60)
    assert e.value == 0 and e.low < 0 < e.high
    e = newcombe_paired_interval(0, 0, 0, 0)
    assert math.isnan(e.value)
    with pytest.raises(ValueError):
        newcombe_paired_interval(-1, 0, 0, 0)


def test_newcombe_paired_published_example():
    # Fagerland, Lydersen & Laake (2017), the Cavo et al. table: -0.062 (-0.119 to -0.005).
    e = newcombe_paired_interval(59, 6, 16, 80)
    assert (round(e.value, 3), round(e.low, 3), round(e.high, 3)) == (-0.062, -0.119, -0.005)


def test_mean_intervals():
    x = [1, 2, 3, 4]
    m, lo, hi = mean_interval(x)
    half = Z * math.sqrt(5 / 3) / 2            # s = sqrt(5/3), n = 4
    assert m == 2.5 and lo == pytest.approx(2.5 - half) and hi == pytest.approx(2.5 + half)
    assert mean_interval_from_moments(4, 10, 30) == pytest.approx((m, lo, hi))
    assert mean_interval([5, 5, 5]) == (5.0, 5.0, 5.0)
    assert math.isnan(mean_interval([]).value)
    assert math.isnan(mean_interval([3]).low)
    d = paired_mean_difference([3, 5, 7, 9], [2, 3, 4, 5])      # differences 1 2 3 4
    assert d == pytest.approx((m, lo, hi))
    d = mean_difference([1, 2, 3, 4], [0, 0, 1, 1])
    half = Z * math.sqrt(5 / 3 / 4 + 1 / 3 / 4)
    assert d == pytest.approx((2.0, 2.0 - half, 2.0 + half))
    with pytest.raises(ValueError):
        paired_mean_difference([1, 2], [1])
    # too few values for an interval: the difference alone, or nothing at all
    d = mean_difference([4], [1, 2])
    assert d.value == 2.5 and math.isnan(d.low) and math.isnan(d.high)
    assert all(math.isnan(x) for x in mean_difference([], [1, 2]))


def test_estimate_helpers():
    e = wilson_interval(0, 0)
    assert e.as_dict() == {"value": None, "low": 0.0, "high": 1.0}
    e = wilson_interval(5, 10)
    assert e.contains(0.5) and e.contains(e.low) and e.contains(e.high)
    assert not e.contains(0.9) and not e.contains(0.1)


def score_interval_by_hand(scores, z=Z):
    """The normal interval of the scores with a game scoring 0 and one scoring 1 added,
    clipped to [0, 1]; the value the plain mean."""
    y = np.append(np.asarray(scores, dtype=float), [0.0, 1.0])
    half = z * y.std(ddof=1) / math.sqrt(len(y))
    return np.mean(scores), max(0.0, y.mean() - half), min(1.0, y.mean() + half)


def test_a_score_interval_has_a_width_when_every_game_scores_the_same():
    # 20 wins of 20: the plain normal interval was [100%, 100%]; the win rate's Wilson
    # interval [83.9%, 100%]
    assert mean_interval_from_moments(20, 20, 20) == (1, 1, 1)
    e = score_interval(20, 20, 20)
    assert e == pytest.approx(score_interval_by_hand([1] * 20))
    assert e.value == 1 and e.high == 1 and e.low == pytest.approx((21 - Z) / 22)
    assert round(e.low, 3) == 0.865 and wilson_interval(20, 20).low < e.low < 1
    # ... and 20 losses the mirror image
    assert score_interval(20, 0, 0) == pytest.approx((0, 0, 1 - e.low))
    # 20 draws: the plain interval was [50%, 50%]; the pseudo-games are the only spread
    assert mean_interval_from_moments(20, 10, 5) == (0.5, 0.5, 0.5)
    d = score_interval(20, 10, 5)
    assert d == pytest.approx(score_interval_by_hand([0.5] * 20))
    assert d.value == 0.5 and d.high - 0.5 == pytest.approx(0.5 - d.low)
    assert d.high - 0.5 == pytest.approx(Z / math.sqrt(2 * 21 * 22))
    # its Elo: a finite lower bound, no upper one
    elo = elo_interval(20, 20, 20)
    assert elo.value == elo.high == math.inf and elo.low == pytest.approx(elo_from_score(e.low))
    # one game gives no interval, no game no value, as for any mean
    assert score_interval(1, 1, 1).value == 1 and math.isnan(score_interval(1, 1, 1).low)
    assert math.isnan(score_interval(0, 0, 0).value)
    for total in (-0.5, 21, math.nan):
        with pytest.raises(ValueError, match="score's sum"):
            score_interval(20, total, 20)


def test_a_score_interval_that_varies_barely_moves():
    # 4,300 wins and 200 draws of 10,000: each end moves by under 1/n, under a
    # thousandth of the width; the value is the plain mean
    n, total, total_sq = 10000, 4300 + 100, 4300 + 50
    plain, e = mean_interval_from_moments(n, total, total_sq), score_interval(n, total, total_sq)
    assert e.value == plain.value == 0.44 and e != plain
    moved = max(abs(e.low - plain.low), abs(e.high - plain.high))
    assert moved < 1 / n and moved < 1e-3 * (plain.high - plain.low)
    by_hand = mean_interval_from_moments(n + 2, total + 1, total_sq + 1)
    assert (e.low, e.high) == (by_hand.low, by_hand.high)
    scores = [1.0] * 4300 + [0.5] * 200 + [0.0] * 5500
    assert e == pytest.approx(score_interval_by_hand(scores))
    assert score_interval(n, total, total_sq, 0.99) == pytest.approx(
        score_interval_by_hand(scores, z_value(0.99)))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), min_size=2, max_size=400),
       st.sampled_from([0.7, 0.8, 0.9, 0.95, 0.99, 0.999999]))
def test_a_score_interval_holds_its_value_strictly_inside_0_and_1(scores, confidence):
    """Any scores in [0, 1] (a game's 1, 1/2, 0; a pair's quarters), two or more: an
    interval of some width within [0, 1], holding the mean, strictly unless it is 0 or 1
    (where the clipped end is the value)."""
    y = np.asarray(scores)
    e = score_interval(len(y), float(y.sum()), float((y * y).sum()), confidence)
    assert 0 <= e.low < e.high <= 1 and e.low <= e.value <= e.high
    if 0 < e.value < 1:
        assert e.low < e.value < e.high
    assert e.value == pytest.approx(y.mean())


@given(st.integers(2, 60), st.floats(0.01, 0.69))
def test_a_score_interval_holds_its_value_at_any_level(n, confidence):
    # below about 65% the pull towards 1/2 exceeds the half-width: widened to hold it
    # every game lost, one drawn, all drawn, all won but one drawn, all won
    for total, total_sq in ((0, 0), (0.5, 0.25), (n / 2, n / 4), (n - 0.5, n - 0.75), (n, n)):
        e = score_interval(n, total, total_sq, confidence)
        assert e.low <= e.value <= e.high and e.low < e.high


def test_a_score_shift_interval_does_not_collapse_when_few_games_differ():
    # 4 of 10,000 games +1, none -1: the plain interval excluded 0 (a sign test of 4 of
    # 4: p = 0.125); no game differing gave [0, 0]
    plain = mean_interval_from_moments(10000, 4, 4)
    assert plain.low > 0
    e = score_shift_interval(10000, 4, 4)
    assert e.value == 0.0004 and e.low < 0 < e.high
    by_hand = mean_interval_from_moments(10002, 4, 6)       # + one +1 and one -1
    assert (e.low, e.high) == (by_hand.low, by_hand.high)
    zero = score_shift_interval(10000, 0, 0)
    assert zero.value == 0 and zero.low == pytest.approx(-Z * math.sqrt(2 / 10001 / 10002))
    assert zero.high == -zero.low
    # a shift many games carry: the interval barely moves
    e, plain = score_shift_interval(10000, 300, 2500), mean_interval_from_moments(10000, 300, 2500)
    assert e.value == plain.value and e != plain
    assert abs(e.low - plain.low) + abs(e.high - plain.high) < 1e-3 * (plain.high - plain.low)
    # one game gives no interval, no game no value, as for any mean
    assert math.isnan(score_shift_interval(1, 1, 1).low)
    assert math.isnan(score_shift_interval(0, 0, 0).value)


def test_a_score_shift_interval_covers_a_rare_one_sided_shift():
    # differences +1 with probability 3e-4, else 0, over 10,000 games: the plain
    # interval covered the true shift in about 80% of the runs, this one about 95%
    rng = np.random.default_rng(1)
    k = rng.binomial(10000, 3e-4, size=4000)
    covered = [(lambda e: e.low <= 3e-4 <= e.high)(score_shift_interval(10000, x, x))
               for x in k]
    plain = [(lambda e: e.low <= 3e-4 <= e.high)(mean_interval_from_moments(10000, x, x))
             for x in k]
    assert np.mean(covered) > 0.93 and np.mean(plain) < 0.85



def test_a_paired_shift_interval_does_not_collapse_when_no_game_changes():
    # every paired difference 0: the plain interval was [0, 0], certainty from 10,000
    # games; with a pseudo-difference of +step and one of -step it is about +-2.8
    # step / n, the rule of three's share of changed games (3 / n) times a change of step
    assert mean_interval_from_moments(10000, 0, 0) == (0, 0, 0)
    e = paired_shift_interval(10000, 0, 0, 20.0)
    assert e.value == 0 and e.high == -e.low
    assert e.high == pytest.approx(Z * 20 * math.sqrt(2 / 10001 / 10002))
    assert 2.5 * 20 / 10000 < e.high < 3 * 20 / 10000
    by_hand = mean_interval_from_moments(10002, 30, 900 + 2 * 400)    # + one +20, one -20
    e = paired_shift_interval(10000, 30, 900, 20.0)
    assert e.value == 0.003 and (e.low, e.high) == (by_hand.low, by_hand.high)
    # the score shift is its step of 1
    assert score_shift_interval(10000, 4, 4) == paired_shift_interval(10000, 4, 4, 1)
    for bad in (0, -1, math.inf, math.nan):
        with pytest.raises(ValueError, match="step"):
            paired_shift_interval(100, 0, 0, bad)


def test_a_paired_shift_error_is_the_intervals_at_any_width():
    # the review's bounds are two of them either side (cuttle.review.engines): its own
    # home would be a copy of the pseudo-differences
    for n, total, sq, step in ((10, 0, 0, 1.0), (10000, 30, 900, 20.0), (16, 15.6, 15.3, 1 / 300)):
        e = paired_shift_interval(n, total, sq, step)
        assert (e.high - e.low) / 2 == pytest.approx(Z * paired_shift_error(n, total, sq, step))
    assert paired_shift_error(10, 0, 0, 1.0) == pytest.approx(math.sqrt(2 / 11 / 12))
    assert paired_shift_error(1, 0, 0, 1.0) == paired_shift_error(0, 0, 0, 1.0) == math.inf
    for bad in (0, -1, math.inf, math.nan):
        with pytest.raises(ValueError, match="step"):
            paired_shift_error(100, 0, 0, bad)


def test_a_paired_shift_interval_covers_a_rare_change_of_length():
    # games lengthened by about 15 moves (sd 12) with probability 3e-4, else unchanged,
    # over 10,000 games: the plain interval covered the true shift in about 80% of the
    # runs (in about 55% at 1e-4), this one (step 20, about a length's spread) in 95% or more
    rng = np.random.default_rng(1)
    covered, plain = [], []
    for _ in range(2000):
        d = np.rint(rng.normal(15, 12, size=rng.binomial(10000, 3e-4)))
        args = (10000, d.sum(), (d * d).sum())
        covered.append(paired_shift_interval(*args, 20.0).contains(3e-4 * 15))
        plain.append(mean_interval_from_moments(*args).contains(3e-4 * 15))
    assert np.mean(covered) > 0.95 and np.mean(plain) < 0.85


def test_newcombes_paired_interval_does_not_collapse_when_no_game_changes():
    # the rate shifts' interval keeps a width when no pair is discordant: about the
    # rule of three's 3 / n (1.96 / n with half the games won, more near 0 or 1)
    for both in (5000, 100, 1, 0):
        e = newcombe_paired_interval(both, 0, 0, 10000 - both)
        assert e.value == 0 and e.high == pytest.approx(-e.low)
        assert 1.9 / 10000 < e.high < 4.5 / 10000


def paired_sums(y1, n1, y2, n2):
    """PairedSums of per-group values and counts."""
    y1, n1, y2, n2 = (np.asarray(a, dtype=np.int64) for a in (y1, n1, y2, n2))
    s = [int(a.sum()) for a in (y1, n1, y2, n2)]
    return PairedSums(len(y1), *s, *(int((a * b).sum()) for a, b in (
        (y1, y1), (y1, n1), (n1, n1), (y2, y2), (y2, n2), (n2, n2), (y1, y2), (y1, n2),
        (n1, y2), (n1, n2))))


def test_a_clustered_difference_by_hand():
    # groups (y1/n1 against y2/n2): 1/2 against 0/1, 2/3 against 2/2, 0/1 against 1/3:
    # R1 = R2 = 3/6; contrasts u = (y1 - R1 n1)/6 - (y2 - R2 n2)/6 = 0.5/6, -0.5/6, 0;
    # variance (G+2)/(G+1) (sum u^2 + 2 (step/N)^2) with N = 6
    y1, n1, y2, n2 = [1, 2, 0], [2, 3, 1], [0, 2, 1], [1, 2, 3]
    u = [(a - 0.5 * b) / 6 - (c - 0.5 * d) / 6 for a, b, c, d in zip(y1, n1, y2, n2)]
    half = Z * math.sqrt(5 / 4 * (sum(x * x for x in u) + 2 / 36))
    e = clustered_difference_interval(paired_sums(y1, n1, y2, n2), 1)
    assert e == pytest.approx((0, -half, half))
    # one value per group: the paired shift's interval of the per-group differences,
    # to within O(1/G)
    rng = np.random.default_rng(2)
    a, b = rng.integers(0, 40, 500), rng.integers(0, 40, 500)
    one = np.ones(500, np.int64)
    e = clustered_difference_interval(paired_sums(a, one, b, one), 3.0)
    d = a - b
    p = paired_shift_interval(500, int(d.sum()), int((d * d).sum()), 3.0)
    assert e.value == pytest.approx(p.value)
    assert (e.high - e.low) == pytest.approx(p.high - p.low, rel=0.01)
    # no group differing: not [0, 0] but about the rule of three's +-3 step / N
    same = clustered_difference_interval(paired_sums(a, one + 1, a, one + 1), 1.0)
    assert same.value == 0 and 2.5 / 1000 < same.high == -same.low < 3 / 1000
    # nothing, one group, a bad step
    assert math.isnan(clustered_difference_interval(paired_sums([], [], [], []), 1).value)
    assert math.isnan(clustered_difference_interval(paired_sums([1], [2], [0], [1]), 1).low)
    with pytest.raises(ValueError, match="step"):
        clustered_difference_interval(paired_sums(a, one, b, one), 0)


def test_a_clustered_difference_covers_when_the_same_deals_go_opposite_ways():
    # 200 matches of 2 or 3 games under each of two rule sets; a deal's lean q makes
    # its games go one way under the first and the other way under the second (no true
    # difference): the independent interval covered 0 in about 80% of the runs, the one
    # with the match as the unit in about 95%
    rng = np.random.default_rng(3)
    covered = apart = 0
    for _ in range(1000):
        n1, n2 = rng.integers(2, 4, 200), rng.integers(2, 4, 200)
        q = rng.uniform(0, 1, 200)
        y1, y2 = rng.binomial(n1, q), rng.binomial(n2, 1 - q)
        covered += clustered_difference_interval(paired_sums(y1, n1, y2, n2), 1).contains(0)
        apart += newcombe_interval(int(y1.sum()), int(n1.sum()), int(y2.sum()),
                                   int(n2.sum())).contains(0)
    assert covered > 930 and apart < 850


def test_a_clustered_mean_by_hand():
    # groups [1, 2], [3], [4, 5, 6]: N = 6, mean 21/6 = 3.5; y - m n: 3 - 7, 3 - 3.5,
    # 15 - 10.5; variance 3/2 * (16 + 0.25 + 20.25) / 36
    acc = ClusteredMean()
    acc.add([1, 2])
    acc.add_group(3.0, 1)
    acc.add(np.array([4, 5, 6]))
    acc.add([])                                 # a group of no values tells nothing
    half = Z * math.sqrt(1.5 * 36.5 / 36)
    assert acc.estimate() == pytest.approx((3.5, 3.5 - half, 3.5 + half))
    assert acc.groups == 3 and acc.count == 6
    # one value per group: the plain interval of the values
    single = ClusteredMean()
    for x in [1, 2, 3, 4]:
        single.add([x])
    assert single.estimate() == pytest.approx(mean_interval_from_moments(4, 10, 30))
    # too little for an interval, or for a value
    assert math.isnan(ClusteredMean().estimate().value)
    one = ClusteredMean()
    one.add([2, 4])
    assert one.estimate().value == 3 and math.isnan(one.estimate().high)
    # bad input is refused, and leaves the sums as they were
    before = (acc.groups, acc.count, acc.total, acc.group_sq, acc.group_cross, acc.count_sq)
    for total, count in ((1.0, -1), (1.0, 1.5), (float("nan"), 2), (1.0, 0), (1.0, "x")):
        with pytest.raises(ValueError):
            acc.add_group(total, count)
    with pytest.raises(ValueError):
        acc.add([1, float("inf")])
    assert (acc.groups, acc.count, acc.total, acc.group_sq, acc.group_cross,
            acc.count_sq) == before
    with pytest.raises(ValueError):
        acc.estimate(confidence=1.5)


def test_a_clustered_mean_covers_when_a_groups_values_are_alike():
    # 200 groups of 20 values sharing a group effect (intra-class correlation 0.5): the
    # interval that treats the 4,000 values as independent covers the mean far less
    # often than 95%; the clustered one about 95%
    rng = np.random.default_rng(7)
    covered = plain = 0
    runs = 1000
    for _ in range(runs):
        values = rng.normal(size=(200, 1)) + rng.normal(size=(200, 20))
        acc = ClusteredMean()
        for row in values:
            acc.add_group(row.sum(), len(row))
        e = acc.estimate()
        covered += e.low <= 0 <= e.high
        flat = values.ravel()
        p = mean_interval_from_moments(flat.size, flat.sum(), (flat * flat).sum())
        plain += p.low <= 0 <= p.high
    assert 0.93 < covered / runs < 0.97 and plain / runs < 0.5
