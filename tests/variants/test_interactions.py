"""Interactions of rule changes (cuttle.variants.interactions): the contrasts' moments
are exactly the per-game ones, an interaction measured chunk by chunk equals a direct
paired run's, the choice of changes and pairs, and the atlas's table of them."""

import json

import numpy as np
import pytest

import cuttle
from cuttle import Rules
from cuttle.stats import Estimate, score_shift_interval
from cuttle.variants.chunks import ChunkPlayer
from cuttle.variants.interactions import (CONTRASTS, Interaction, clear_changes, combine,
                                          contrast_moments, measure, pairs_of)
from cuttle.variants.rulesets import Variant

BASE = Rules()
A = Variant(BASE.replace(joker=True), {"joker": True})
B = Variant(BASE.replace(four="draw"), {"four": "draw"})


def scores(result):
    return (result.winner == 0) * 1.0 + (result.winner == -1) * 0.5


def test_contrast_moments_are_the_per_game_ones():
    sets = [BASE, A.rules, B.rules, combine(A, B, BASE)]
    cmp = cuttle.compare(sets, 3000, ("expert", "expert"), seed=4, swap_seats=False,
                         keep_games=True, progress=False)
    y = np.array([scores(r) for r in cmp.results])
    for name, c in CONTRASTS.items():
        v = np.array(c) @ y
        total, squares = contrast_moments([r.tally for r in cmp.results], cmp.pairs, c)
        assert (total, squares) == (v.sum(), (v * v).sum()), name


def test_an_interaction_played_in_chunks_is_the_direct_paired_runs():
    x = Interaction(BASE, A, B, combine(A, B, BASE))
    player = ChunkPlayer(None, ("expert", "expert"), 5, 10000, 1000)
    measure([x], player, target=1e-9, max_chunks=3)
    assert x.status == "capped" and x.n == 3000 and x.chunks == 3
    cmp = cuttle.compare(list(x.rule_sets), 3000, ("expert", "expert"), seed=5,
                         swap_seats=False, keep_games=True, progress=False)
    y = np.array([scores(r) for r in cmp.results])
    for name, c in CONTRASTS.items():
        v = np.array(c) @ y
        direct = score_shift_interval(3000, v.sum(), (v * v).sum())
        assert x.estimate(name) == pytest.approx(direct), name
    assert x.label == "joker=true + four=draw"


def test_clear_changes_and_their_pairs():
    d66 = Variant(BASE.replace(deal=(6, 6)), {"deal": (6, 6)})
    d55 = Variant(BASE.replace(deal=(5, 5)), {"deal": (5, 5)})
    measured = [(A, Estimate(0.02, 0.01, 0.03)), (B, Estimate(0.03, -0.01, 0.07)),
                (d66, Estimate(0.15, 0.14, 0.16)), (d55, Estimate(0.14, 0.13, 0.15))]
    assert clear_changes(measured, 6) == [d66, A]                 # one per flag, largest
    assert clear_changes(measured, 6, per_flag=None) == [d66, d55, A]
    assert clear_changes(measured, 1, per_flag=None) == [d66, d55]
    assert [p[2] for p in pairs_of([d66, d55, A], BASE)] == [
        BASE.replace(deal=(6, 6), joker=True), BASE.replace(deal=(5, 5), joker=True)]
    assert combine(d66, d55, BASE) is None
    no_draw = Variant(BASE.replace(hand_limit=8, hand_limit_mode="no_draw"),
                      {"hand_limit_mode": "no_draw", "hand_limit": 8})
    seven = Variant(BASE.replace(hand_limit=7), {"hand_limit": 7})
    assert combine(no_draw, seven, BASE) is None                  # a common flag
    assert combine(no_draw, A, BASE) == BASE.replace(hand_limit=8, hand_limit_mode="no_draw",
                                                     joker=True)
    assert combine(A.rules, B.rules, BASE) == BASE.replace(joker=True, four="draw")


def test_the_atlas_measures_interactions():
    res = cuttle.atlas(["random"], "classic", target=0.02, max_games=6000, chunk_size=2000,
                       interactions=3, progress=False)
    g = res.group("classic", "random")
    assert 1 <= len(g.interactions) <= 3
    flags = {f for x in g.interactions for f in (*x.a.changes, *x.b.changes)}
    assert len(flags) <= 3
    md = res.markdown()
    assert "#### classic, random self-play: interactions" in md
    assert "the interaction is the pair's shift minus the sum" in md
    d = json.loads(json.dumps(res.as_dict()))
    inter = d["groups"][0]["interactions"]
    assert set(inter[0]) >= {"a", "b", "rules", "changes", "games", "status", "shift_a",
                             "shift_b", "sum_of_shifts", "pair_shift", "interaction"}
    none = cuttle.atlas(["random"], "classic", target=0.02, max_games=6000, chunk_size=2000,
                        interactions=0, progress=False)
    assert none.group("classic", "random").interactions == []
    assert "interactions" not in none.markdown()
