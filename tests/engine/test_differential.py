"""Differential testing: the native core against the independent pure-Python reference
engine, move by move, on random games of every named preset, every variant at once,
games to the empty deck, and perft counts (random rule combinations:
test_differential_rules.py, a file of its own so that the two run side by side).

At every step both engines must list the same legal moves and show the same state.
"""

import copy
import json
import random

import pytest

import cuttle
from cuttle.rules import FLAGS

from support import reference
from support.differential import N_GAMES, play_both
from support.helpers import random_rules, reference_from_game
from support.perft import PERFT_FILE, build


def test_the_reference_engine_knows_exactly_the_librarys_flags():
    # The reference keeps its own copy of the flags (it is the independent check); a
    # flag or a choice's value it lacks would go untested, and a preset it states
    # otherwise is a disagreement on the rules.
    assert set(reference.FLAGS) == set(FLAGS)
    assert reference.CHOICES == {name: f.values for name, f in FLAGS.items()
                                 if f.kind == "choice"}
    assert set(reference.PRESETS) <= set(cuttle.Rules.presets)
    for name, flags in reference.PRESETS.items():
        assert flags == dict(cuttle.Rules(name).flags), name


@pytest.mark.parametrize("preset", cuttle.Rules.presets)
def test_presets_agree_with_reference(preset):
    rng = random.Random(f"presets-{preset}")
    for i in range(max(1, N_GAMES // 5)):
        play_both(cuttle.Game(preset, seed=rng.getrandbits(32)), rng)


# Every bool flag on (from FLAGS: a new one joins), with a small hand limit, the frozen
# nine and the random four: the densest rule interactions.  Every combination of flags
# is valid but hand_limit_mode="no_draw" without a hand limit, so none is left off.
EVERYTHING_ON = cuttle.Rules(**{name: True for name, f in FLAGS.items() if f.kind == "bool"},
                             hand_limit=5, nine="freeze", four="random")


def test_everything_on_agrees_with_reference():
    """Every boolean variant on at once, the densest rule interactions."""
    assert [name for name, f in FLAGS.items()
            if f.kind == "bool" and getattr(EVERYTHING_ON, name) is not True] == []
    rng = random.Random("all-on")
    rules = EVERYTHING_ON
    for i in range(max(1, N_GAMES // 10)):
        play_both(cuttle.Game(rules, seed=rng.getrandbits(32)), rng)


def test_long_games_agree_with_reference():
    """Unreachable goals: games run to the empty deck, passes and sudden death."""
    rng = random.Random("long")
    for i in range(max(1, N_GAMES // 10)):
        rules = random_rules(rng, p_change=0.4).replace(king_goals=(80, 80, 80, 80, 80))
        play_both(cuttle.Game(rules, seed=rng.getrandbits(32)), rng, max_moves=1500)


def _ref_perft(ref, depth):
    counts = [0] * depth

    def walk(r, d):
        moves = r.legal_moves()
        counts[d] += len(moves)
        if d + 1 < depth:
            for m in moves:
                child = copy.deepcopy(r)
                child.play(m)
                walk(child, d + 1)

    walk(ref, 0)
    return counts


@pytest.mark.parametrize("name", sorted(json.load(open(PERFT_FILE))))
def test_reference_perft_matches(name):
    expected = json.load(open(PERFT_FILE))[name]
    g, depth = build(name)
    depth = min(depth, 4)
    assert _ref_perft(reference_from_game(g), depth) == expected[:depth]
