"""Property tests (hypothesis): invariants that hold in every reachable position."""

import random

from hypothesis import HealthCheck, given, settings, strategies as st

import cuttle
from cuttle.moves import VERBS, Move

from helpers import random_game, random_rules, snapshot, zones

games = st.builds(lambda seed: random_game(random.Random(seed)), st.integers(0, 2**32 - 1))
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(games)
def test_every_card_is_in_exactly_one_place(g):
    cards = [c for c, _ in zones(g)]
    n = 53 if g.rules.joker else 52
    assert len(cards) == n
    assert set(cards) == set(cuttle.CARDS[:n])


@SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_card_conservation_along_a_whole_game(seed):
    rng = random.Random(seed)
    g = cuttle.Game(random_rules(rng), seed=seed)
    n = 53 if g.rules.joker else 52
    while not g.is_over and len(g.moves) < 400:
        g.play(rng.choice(list(g.legal_moves)))
        assert sorted(c.index for c, _ in zones(g)) == list(range(n))


def _all_candidate_moves():
    cards = cuttle.CARDS
    out = [Move(v) for v in ("draw", "pass", "resolve")]
    for v in ("points", "royal", "glasses", "counter", "take", "discard", "block", "oneoff"):
        out += [Move(v, c) for c in cards]
    for v in ("scuttle", "jack", "oneoff", "discard"):
        out += [Move(v, a, b) for a in cards for b in cards if a != b and (v != "discard" or a < b)]
    return out


CANDIDATES = _all_candidate_moves()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_legal_moves_are_exactly_the_moves_play_accepts(g):
    legal = {str(m) for m in g.legal_moves}
    before = g._core_state_bytes()
    accepted = set()
    for m in CANDIDATES:
        try:
            g.play(m)
        except cuttle.IllegalMoveError:
            assert g._core_state_bytes() == before
            continue
        accepted.add(str(m))
        g.undo()
        assert g._core_state_bytes() == before
    assert accepted == legal


@SETTINGS
@given(games, st.integers(0, 2**32 - 1))
def test_undo_restores_exactly(g, seed):
    rng = random.Random(seed)
    before, snap, history = g._core_state_bytes(), snapshot(g), list(g.moves)
    played = []
    for _ in range(rng.randint(1, 15)):
        if g.is_over:
            break
        played.append(g.play(rng.choice(list(g.legal_moves))))
    for m in reversed(played):
        assert g.undo() == m
    assert g._core_state_bytes() == before
    assert snapshot(g) == snap and g.moves == history


@SETTINGS
@given(games, st.integers(0, 2**32 - 1))
def test_copies_are_independent(g, seed):
    rng = random.Random(seed)
    c = g.copy()
    snap = snapshot(g)
    assert snapshot(c) == snap and c.moves == g.moves and c.rules == g.rules
    for _ in range(10):
        if c.is_over:
            break
        c.play(rng.choice(list(c.legal_moves)))
    assert snapshot(g) == snap
    if g.moves:
        g.undo()
        assert c.moves[: len(g.moves)] == g.moves


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_seeded_games_reproduce(seed, move_seed):
    rules = random_rules(random.Random(seed))
    a, b = cuttle.Game(rules, seed=seed), cuttle.Game(rules, seed=seed)
    ra, rb = random.Random(move_seed), random.Random(move_seed)
    assert snapshot(a) == snapshot(b)
    while not a.is_over and len(a.moves) < 300:
        a.play(ra.choice(list(a.legal_moves)))
        b.play(rb.choice(list(b.legal_moves)))
        assert snapshot(a) == snapshot(b)
    assert a._core_state_bytes() == b._core_state_bytes()


@SETTINGS
@given(games)
def test_move_text_round_trips(g):
    for m in g.legal_moves:
        assert Move.parse(str(m)) == m and Move.parse(str(m).lower()) == m
        assert str(m) in g.legal_moves and m.verb in VERBS


@SETTINGS
@given(games)
def test_a_live_game_always_has_a_legal_move_and_a_decider(g):
    if g.is_over:
        assert len(g.legal_moves) == 0 and g.to_move is None
    else:
        assert len(g.legal_moves) > 0 and g.to_move in (0, 1)
