"""The random policy samples a legal move without listing the moves: its count and its
k-th move must be exactly gen_moves' list, and its draws uniform over it.  (The
sampler's C functions are called through ctypes: support/native.py.)"""

import random

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

import cuttle
from cuttle._decide import decide
from cuttle.policies import policy_code

from support.helpers import random_rules
from support.native import STREAM_DECISION, random_moves, sampler_moves, stream

RANDOM = policy_code("random")


def positions(seed, games=3):
    """Every position (all phases) of a few random games under random rules."""
    rng = random.Random(seed)
    for _ in range(games):
        g = cuttle.Game(random_rules(rng, p_change=0.5), seed=rng.getrandbits(32))
        while not g.is_over and len(g.moves) < 300:
            yield g
            g.play(rng.choice(list(g.legal_moves)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_the_sampler_lists_exactly_gen_moves_in_order(seed):
    seen = 0
    for g in positions(seed):
        listed = sampler_moves(g)
        codes = [m.code for m in g.legal_moves]
        if g.phase == "seven":
            assert listed is None           # left to gen_moves
        else:
            assert listed == codes, (g.phase, g.position_text())
            seen += 1
    assert seen > 0


def test_every_phase_is_covered():
    phases = {g.phase for seed in range(40) for g in positions(seed)
              if sampler_moves(g) == [m.code for m in g.legal_moves]}
    assert phases >= {"main", "counter", "three", "four", "five", "discard", "block", "ten"}


def test_a_draw_is_the_listed_move_of_the_same_stream():
    # decide() picks buf[rng_below(n)] from gen_moves' list; the sampler draws the
    # same index from the same stream, so seeded random play is unchanged.
    rng = random.Random(5)
    checked = 0
    for g in positions(17, games=6):
        if rng.random() < 0.5:
            seed = rng.getrandbits(64)
            assert decide(g, RANDOM, seed) == random_moves(g, stream(seed, STREAM_DECISION), 1)[0]
            checked += 1
    assert checked > 30


def chi_square_p(counts):
    """p-value of Pearson's chi-square test of equal cell probabilities (the
    Wilson-Hilferty normal approximation, ample for a few dozen cells)."""
    from math import erfc, sqrt

    d = len(counts) - 1
    expected = counts.sum() / len(counts)
    x2 = float(((counts - expected) ** 2 / expected).sum())
    z = ((x2 / d) ** (1 / 3) - (1 - 2 / (9 * d))) / sqrt(2 / (9 * d))
    return 0.5 * erfc(z / sqrt(2))


def _position_with_many_moves():
    # Main phase with points, scuttles, Jacks, 2s and 9s on both sides.
    return cuttle.Game.from_position(
        hands=(["2C", "9D", "JH", "TS", "7C", "AH", "5D"], ["3S", "4S"]),
        points=(["6C", "4D"], ["8H", "9C", "3D"]), permanents=(["KC"], ["QD"]),
        deck=["AC", "2D", "6H"], rest="deck", seed=3)


def _four_discard_position():
    g = cuttle.Game.from_position(hands=(["4C", "AH"], ["2H", "5S", "7D", "JC", "KS"]),
                                  deck=["AC", "2D"], rest="deck", seed=4)
    g.play("oneoff 4C")
    g.play("resolve")
    assert g.phase == "four"
    return g


def test_draws_are_uniform_over_the_legal_moves():
    for g in (_position_with_many_moves(), _four_discard_position(), cuttle.Game(seed=9)):
        codes = [m.code for m in g.legal_moves]
        assert len(codes) >= 5
        draws = np.array(random_moves(g, stream(2024, STREAM_DECISION),
                                      40_000 * len(codes) // 10))
        index = {c: i for i, c in enumerate(codes)}
        assert set(np.unique(draws).tolist()) == set(codes)    # every legal move, no other
        counts = np.bincount([index[int(c)] for c in draws], minlength=len(codes))
        assert chi_square_p(counts) > 1e-4, (g.phase, counts)
