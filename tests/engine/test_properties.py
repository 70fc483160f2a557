"""Property tests (hypothesis): invariants that hold in every reachable position."""

import pickle
import random

from hypothesis import HealthCheck, given, settings, strategies as st

import cuttle
from cuttle.moves import VERBS, Move

from support.helpers import random_game, random_rules, snapshot, zones

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
@given(games, st.integers(0, 2**32 - 1))
def test_pickled_games_are_equal_and_independent(g, seed):
    c = pickle.loads(pickle.dumps(g))
    assert c._core_state_bytes() == g._core_state_bytes() and c.moves == g.moves
    assert c.rules == g.rules and snapshot(c) == snapshot(g)
    if g.moves:                 # the undo history travels too
        expected = g.copy()
        expected.undo()
        assert c.undo() == g.moves[-1]
        assert c._core_state_bytes() == expected._core_state_bytes()
    before = g._core_state_bytes()
    rng = random.Random(seed)
    for _ in range(5):
        if c.is_over:
            break
        c.play(rng.choice(list(c.legal_moves)))
    assert g._core_state_bytes() == before


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


move_words = st.sampled_from(["draw", "pass", "resolve", "points", "scuttle", "royal",
                              "glasses", "jack", "oneoff", "counter", "take", "discard",
                              "block", "POINTS", "", "7", "x"])
card_words = st.sampled_from([str(c) for c in cuttle.CARDS] + ["10h", "1C", "ZZ", "JK", ""])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, st.one_of(st.text(max_size=20),
                        st.builds(lambda v, cs: " ".join([v] + cs), move_words,
                                  st.lists(card_words, max_size=3))))
def test_any_text_is_played_or_refused_cleanly(g, text):
    before = g._core_state_bytes()
    legal = {str(m) for m in g.legal_moves}
    try:
        move = g.play(text)
    except cuttle.IllegalMoveError as e:
        assert str(e) and g._core_state_bytes() == before
    else:
        assert str(move) in legal


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([str(c) for c in cuttle.CARDS[:52]] + ["TH[JC]", "7D[JS,JH]",
                                                                      "KS[JD]", "XX", "JK"]),
                max_size=12),
       st.integers(0, 5), st.sampled_from(["deck", "scrap"]))
def test_positions_are_built_or_refused_with_a_value_error(cards, cut, rest):
    parts = [cards[:cut], cards[cut:cut + 2], cards[cut + 2:cut + 4], cards[cut + 4:cut + 6],
             cards[cut + 6:]]
    try:
        g = cuttle.Game.from_position(hands=(parts[0], parts[1]), points=(parts[2], []),
                                      permanents=([], parts[3]), scrap=parts[4], rest=rest,
                                      seed=1)
    except ValueError as e:
        assert str(e)
        return
    assert sorted(c.index for c, _ in zones(g)) == list(range(52))
