"""The race (cuttle.balancing.racing): simultaneous intervals, distances, the decisions
of a look, and the validity of the whole procedure on simulated candidates whose truth
is known."""

import numpy as np
import pytest

from cuttle.balancing.racing import (CAPPED, CONVERGED, DRAWN, ELIMINATED, INFEASIBLE,
                                     PLAYING, WON, Entry, distance, look, simultaneous_level,
                                     winners)
from cuttle.balancing.results import Measure
from cuttle.simulation import Tally
from cuttle.stats import Estimate, score_interval, z_value


def tally(first, second, draws, moves=30):
    """A tally of single games won by the first player (A), the second (B), drawn."""
    counts = np.zeros((3, 2, 5), np.int64)
    counts[1, 0, 0], counts[2, 0, 0], counts[0, 0, 1] = first, second, draws
    n = first + second + draws
    lengths = np.zeros((2, 512), np.int64)
    lengths[:, moves] = n
    m = {"moves": (n * moves, n * moves * moves), "turns": (n * moves, n * moves * moves),
         "score_a": (0, 0), "score_b": (0, 0)}
    return Tally(counts, m, lengths)


def entry(key, size, first, second, draws=0, moves=30):
    e = Entry(key, size, Measure(tally(first, second, draws, moves)))
    e.chunks = 1
    return e


def test_the_simultaneous_level_is_bonferronis():
    assert simultaneous_level(0.95, 10, 20, 1) == pytest.approx(1 - 0.05 / 200)
    assert simultaneous_level(0.95, 10, 20, 3) == pytest.approx(1 - 0.05 / 600)
    assert simultaneous_level(0.9, 1, 1) == pytest.approx(0.9)
    with pytest.raises(ValueError, match="confidence"):
        simultaneous_level(1.5, 1, 1)


def test_the_distance_from_an_even_game():
    assert distance(Estimate(0.45, 0.44, 0.46)) == pytest.approx((0.04, 0.06))
    assert distance(Estimate(0.55, 0.54, 0.56)) == pytest.approx((0.04, 0.06))
    assert distance(Estimate(0.5, 0.48, 0.53)) == pytest.approx((0.0, 0.03))


def test_a_look_eliminates_what_is_surely_less_fair_within_its_size():
    fair = entry("fair", 1, 5000, 5000)            # 50%, +-1.4 pp at 99.9%
    close = entry("close", 1, 4900, 5100)          # 49%: not surely worse
    far = entry("far", 1, 4000, 6000)              # 40%: surely worse than fair
    other = entry("other size", 2, 4000, 6000)     # alone in its size: never eliminated
    look([fair, close, far, other], level=0.999, target=0.001, max_chunks=10)
    assert far.status == ELIMINATED
    assert fair.status == close.status == PLAYING
    assert other.status == WON                      # the last standing of its size
    assert winners([fair, close, far, other]) == {1: fair, 2: other}


def test_a_look_does_not_stop_a_candidate_whose_games_all_scored_the_same():
    """20 games all won by the first player: the first player's score was 100% [100%,
    100%], certain, so the candidate converged at once (a half-width of 0); its interval
    has a width now (the score's, cuttle.stats.score_interval), and it plays on."""
    same = entry("same", 1, 20, 0)
    rival = entry("rival", 1, 10, 10)
    look([same, rival], level=0.999, target=0.01, max_chunks=10)
    assert same.status == rival.status == PLAYING
    e = same.measure.estimate("first_score", 0.999)
    assert e == score_interval(20, 20, 20, 0.999) and e.value == 1.0
    assert e.high - e.low > 0.1


def test_a_candidate_whose_games_were_all_draws_is_out_of_the_race():
    """20 games all drawn: 50% without a game decided, its interval as narrow as 20
    games allow ([44%, 56%]: the score's, with its pseudo-games), it played on, eliminated
    every rival surely farther from 50% and won its size as the fairest.  It decides no
    game: drawn, out of the race, and it eliminates nobody; a rival that drew most of
    its games (but not all) still races."""
    drawn = entry("drawn", 1, 0, 0, draws=20)
    e = drawn.measure.estimate("first_score", 0.999)
    assert e == score_interval(20, 10, 5, 0.999) and e.value == 0.5
    assert (e.high - e.low) / 2 == pytest.approx(z_value(0.999) / (2 * 21 * 22) ** 0.5)
    far = entry("far", 1, 3000, 7000)               # 30%: surely farther than drawn
    mostly = entry("mostly", 2, 1, 0, draws=999)    # one game decided of 1,000
    look([drawn, far, mostly], level=0.999, target=0.001, max_chunks=10)
    assert (drawn.status, far.status, mostly.status) == (DRAWN, WON, WON)
    assert winners([drawn, far, mostly]) == {1: far, 2: mostly}
    look([drawn, far], level=0.999, target=0.001, max_chunks=10)     # (looks again)
    assert drawn.status == DRAWN and winners([drawn]) == {}


def test_a_look_stops_candidates_at_the_target_the_cap_and_the_constraints():
    a = entry("a", 1, 50_000, 50_000)               # +-0.4 pp at 99%: converged
    b = entry("b", 1, 4900, 5100)
    b.chunks = 10                                   # at its cap
    c = entry("c", 1, 500, 400, draws=100)          # 10% draws
    d = entry("d", 1, 520, 480, moves=80)           # far too long
    look([a, b, c, d], level=0.99, target=0.005, max_chunks=10, max_draws=0.05,
         moves=(20, 40))
    assert (a.status, b.status, c.status, d.status) == (CONVERGED, CAPPED, INFEASIBLE,
                                                        INFEASIBLE)


def spread(first, second, short, long):
    """An entry of size 1 whose games (no draws) last `short` or `long` moves, half
    each: its mean length is known only within an interval."""
    e = entry(None, 1, first, second)
    t = e.measure.tally
    n = t.n_games
    t.lengths[0, :] = 0
    t.lengths[0, short], t.lengths[0, long] = n - n // 2, n // 2
    s = (n - n // 2) * short + n // 2 * long
    t.moments["moves"] = (s, (n - n // 2) * short ** 2 + n // 2 * long ** 2)
    return e


def test_only_a_surely_feasible_candidate_eliminates_others():
    """A candidate whose length only might meet the constraint eliminated the others of
    its size; when it later broke the constraint, its size had no candidate left."""
    maybe = spread(5000, 5000, 10, 50)        # 50%, its mean length 30 +- 0.5 moves
    sure = spread(4600, 5400, 30, 32)         # 46% (surely less fair), 31 +- 0.03 moves
    look([maybe, sure], level=0.99, target=0.001, max_chunks=10, moves=(30.2, 60))
    assert maybe.status == sure.status == PLAYING
    # the fairest surely feasible one eliminates what is surely less fair
    far = spread(3000, 7000, 30, 32)          # 30%
    look([maybe, sure, far], level=0.99, target=0.001, max_chunks=10, moves=(30.2, 60))
    assert far.status == ELIMINATED and sure.status == PLAYING
    # without constraints every candidate is feasible: the fairest eliminates
    look([maybe, sure], level=0.99, target=0.001, max_chunks=10)
    assert sure.status == ELIMINATED


def run_race(truth, level, rng, chunk=400, looks=12):
    """A race of candidates of one size whose first-player scores are `truth` (no
    draws); True if the fairest was eliminated or an interval missed its truth at a
    look (what the simultaneous level must make rare)."""
    entries = [Entry(i, 1, Measure()) for i in range(len(truth))]
    best = min(range(len(truth)), key=lambda i: abs(truth[i] - 0.5))
    for _ in range(looks):
        playing = [e for e in entries if e.status == PLAYING]
        if not playing:
            break
        for e in playing:
            wins = int(rng.binomial(chunk, truth[e.key]))
            e.measure.add(tally(wins, chunk - wins, 0))
            e.chunks += 1
        for e in playing:
            s = e.measure.estimate("first_score", level)
            if not s.low <= truth[e.key] <= s.high:
                return True
        look(entries, level=level, target=0.0001, max_chunks=looks)
        if entries[best].status == ELIMINATED:
            return True
    return False


def test_the_race_keeps_its_intervals_valid_with_a_known_truth():
    """Eight candidates, two tied nearest 50%: over many simulated races the race's
    simultaneous intervals hold at every look and the fairest is never eliminated, far
    more often than 95%; the same race at a naive 95% per look errs much more often (so
    this test can tell)."""
    truth = [0.5, 0.5, 0.49, 0.52, 0.47, 0.45, 0.56, 0.40]
    rng = np.random.default_rng(2026)
    runs = 300
    level = simultaneous_level(0.95, len(truth), 12)
    errors = sum(run_race(truth, level, rng) for _ in range(runs))
    naive = sum(run_race(truth, 0.95, rng) for _ in range(runs))
    assert errors <= 0.05 * runs                    # valid: at most alpha (it is ~0)
    assert naive > 0.3 * runs                        # the uncorrected race is not
