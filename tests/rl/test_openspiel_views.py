"""`python_cuttle`'s observers and resampling: every IIGObservationType has the shapes it
declares; public views are the same for both players and do not change when the cards
nobody has seen are swapped; a player's views do not change when the cards that player
has not seen are; `resample_from_infostate` returns real states (every view of a sample
is the view of the state its history builds) in the player's information state, drawn
uniformly."""

import itertools
import random
from unittest import mock

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="the openspiel extra is not installed (pip install -e '.[openspiel]')")

from hypothesis import HealthCheck, example, given, settings, strategies as st  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import cuttle  # noqa: E402
import cuttle.openspiel as cos  # noqa: E402
from cuttle.cards import CARDS  # noqa: E402
from cuttle.observation import PLANES  # noqa: E402
from cuttle.rl.spaces import action_of, move_of  # noqa: E402

from support.helpers import jack_places_of, pending_target_of, random_rules  # noqa: E402

SETTINGS = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
NONE, SINGLE, ALL = (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.SINGLE_PLAYER,
                     pyspiel.PrivateInfoType.ALL_PLAYERS)
TYPES = [pyspiel.IIGObservationType(public_info=pub, private_info=priv, perfect_recall=pr)
         for pub, priv, pr in itertools.product((True, False), (NONE, SINGLE, ALL),
                                                (False, True))]
PUBLIC = [t for t in TYPES if t.public_info and t.private_info == NONE]
SHARED = [t for t in TYPES if t.private_info != SINGLE]          # the same for both players
OWN = [t for t in TYPES if t.private_info == SINGLE]
RULES = ["classic", "cuttle.cards", "cuttle.cards-beta", "open",
         "classic;joker:true;four:random", "cuttle.cards;joker:true;nine:topdeck",
         "classic;four:draw;ten_discards:true;seven:top2"]
UNKNOWN = PLANES.index("unknown")


def load(rules, max_moves=1000):
    if not isinstance(rules, str) or ";" not in rules:
        return pyspiel.load_game(cos.game_string(rules, max_moves))
    return pyspiel.load_game("python_cuttle", {"rules": rules, "max_moves": max_moves})


def random_game(seed):
    """The game under random rules (a random preset, flags changed at random)."""
    return load(random_rules(random.Random(seed)), max_moves=200)


def step(state, rng):
    """One random action: chance's by its probabilities, a player's uniformly."""
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))


def positions(game, seed, count=4):
    """`count` states of one random game (clones), at random points of it: the deal, the
    start, chance's 4s, decisions, the end."""
    rng = np.random.default_rng(seed)
    state, states = game.new_initial_state(), []
    while not state.is_terminal():
        states.append(state.clone())
        step(state, rng)
    states.append(state)
    picks = sorted(rng.choice(len(states), size=min(count, len(states)), replace=False))
    return [states[i] for i in picks] + [states[game.n_cards]]     # and the first decision


def views(state, types, player):
    """(string, tensor bytes or None) of each observation type for `player`."""
    out = []
    for t in types:
        obs = make_observation(state.get_game(), t)
        tensor = None
        if obs.tensor is not None:                  # (perfect recall: a string only)
            obs.set_from(state, player)
            tensor = obs.tensor.tobytes()
        out.append((obs.string_from(state, player), tensor))
    return out


def every_view(state):
    return [views(state, TYPES, p) for p in (0, 1)]


def rebuilt(state):
    """The state its history builds, action by action."""
    fresh = state.get_game().new_initial_state()
    for a in state.history():
        fresh.apply_action(a)
    return fresh


def relabelled(state, viewer, rng):
    """The same actions played on a deal where the cards `viewer` (0, 1, or None for
    the public) never placed are permuted among themselves; None if that is not legal.
    The cards placed are read from the Game's public zones and the core's encoding,
    not from the observers under test."""
    game, n = state.get_game(), state.get_game().n_cards
    dealt, actions = state.history()[:n], state.history()[n:]
    replay, seen = game.new_initial_state(), set()

    if viewer is not None:                 # its own dealt cards
        a, b = game.rules.deal
        seen.update(dealt[:a] if viewer == 0 else dealt[a:a + b])

    def look(g):
        if g is None:                      # still dealing
            return
        if viewer is not None:
            seen.update(np.flatnonzero(g.observation_array(viewer)[53 * UNKNOWN:][:n] == 0))
            return
        for side in (0, 1):
            for c in g.points(side):
                seen.update([c.index] + [j.index for j in g.jacks(c)])
            seen.update(c.index for c in g.permanents(side))
            if g.is_public_hand(side):
                seen.update(c.index for c in g.hand(side))
        seen.update(c.index for c in g.scrap + g.stack + g.revealed)
        seen.update(c.index for _, c in g.observation(0).deck_known)

    for a in dealt:
        replay.apply_action(a)
    look(replay.game)
    for a in actions:
        seen.update(c.index for c in move_of(a).cards)
        replay.apply_action(a)
        look(replay.game)
    hidden = [c for c in range(n) if c not in seen]
    swap = dict(zip(hidden, (int(c) for c in rng.permutation(hidden))))
    other = game.new_initial_state()
    try:
        for a in [swap.get(c, c) for c in dealt] + actions:
            other.apply_action(a)
    except ValueError:
        return None                    # e.g. a stuck player's pass that is not stuck now
    return other


# -- shapes and strings --------------------------------------------------------------------

@pytest.mark.parametrize("rules", RULES)
def test_every_observation_type_has_the_shapes_it_declares(rules):
    game = load(rules, max_moves=150)
    assert game.observation_tensor_shape() == [cuttle.observation.OBSERVATION_SIZE]
    for t in TYPES:
        obs = make_observation(game, t)
        if t.perfect_recall:
            assert obs.tensor is None and obs.dict == {}
            continue
        shapes = {k: v.shape for k, v in obs.dict.items()}
        assert obs.tensor.dtype == np.float32
        assert obs.tensor.size == sum(int(np.prod(s)) for s in shapes.values())
        for state in positions(game, seed=len(rules), count=6):
            for p in (0, 1):
                obs.set_from(state, p)
                assert {k: v.shape for k, v in obs.dict.items()} == shapes
                assert np.isfinite(obs.tensor).all() and (obs.tensor >= 0).all()
                assert isinstance(obs.string_from(state, p), str)
    default = make_observation(game)
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    for state in positions(game, seed=1, count=8):
        for p in (0, 1):
            default.set_from(state, p)
            assert state.observation_tensor(p) == default.tensor.tolist()
            assert state.observation_string(p) == default.string_from(state, p)
            assert state.information_state_string(p) == info.string_from(state, p)
            if state.game is not None:        # the core's encoding of the player's view
                assert default.tensor.tobytes() == state.game.observation_array(p).tobytes()


def type_id(t):
    """A test id naming the observation type (its repr holds an address)."""
    return (f"{'public' if t.public_info else 'nopublic'}-{t.private_info.name.lower()}"
            f"{'-recall' if t.perfect_recall else ''}")


@pytest.mark.parametrize("t", TYPES, ids=type_id)
def test_random_sim_test_with_every_observer(t):
    game = load("cuttle.cards;joker:true;four:random", max_moves=120)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False,
                            observer=game.make_observer(t, {}))


def test_bad_observer_requests_are_refused():
    game = load("classic")
    with pytest.raises(ValueError, match="parameters"):
        make_observation(game, TYPES[0], {"single_tensor": True})
    state = positions(game, seed=2)[0]
    obs = make_observation(game, PUBLIC[0])
    for bad in (2, -1, True):
        with pytest.raises(ValueError, match="player"):
            obs.string_from(state, bad)
        with pytest.raises(ValueError, match="player"):
            obs.set_from(state, bad)


# -- what each view holds ------------------------------------------------------------------

def cards_of(row):
    return {CARDS[c] for c in np.flatnonzero(row)}


def known_of(g, p):
    """The cards p knows are in the other hand (the core's tracking)."""
    return set(g.observation(p).opponent_known)


@SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_views_hold_what_their_viewers_know(seed):
    game = random_game(seed)
    public = make_observation(game, PUBLIC[0])
    single = make_observation(game, pyspiel.IIGObservationType(
        public_info=False, private_info=SINGLE, perfect_recall=False))
    every = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, private_info=ALL, perfect_recall=False))
    for state in positions(game, seed):
        # The views without a single player's private information are everyone's.
        for t in SHARED:
            assert views(state, [t], 0) == views(state, [t], 1), t
        g = state.game
        if g is None:
            continue
        public.set_from(state, 0)
        every.set_from(state, 1)
        pub = public.dict
        assert np.array_equal(every.tensor[:public.tensor.size], public.tensor)
        for side in (0, 1):
            known = cards_of(pub["hand_known"][side])
            if g.is_public_hand(side):
                assert known == set(g.hand(side))
            # Without the joker a player knows of the other's hand only what is public.
            what_other_knows = known_of(g, 1 - side)
            assert known <= what_other_knows and (game.rules.joker or known == what_other_knows)
            assert cards_of(pub["points"][side]) == set(g.points(side))
            assert cards_of(pub["permanents"][side]) == set(g.permanents(side))
            assert cards_of(pub["frozen"][side]) == set(g.frozen(side))
            assert cards_of(pub["frozen_next"][side]) == set(g.observation(0).frozen_next[side])
            assert cards_of(every.dict["hands"][side]) == set(g.hand(side))
            single.set_from(state, side)
            mine = single.dict
            assert cards_of(mine["hand"]) == set(g.hand(side))
            assert cards_of(mine["opponent_known"]) == \
                known_of(g, side) - cards_of(pub["hand_known"][1 - side])
            assert cards_of(mine["known_by_opponent"]) == \
                known_of(g, 1 - side) - known
            assert np.array_equal(every.dict["private_knowledge"][side],
                                  mine["opponent_known"])
        assert cards_of(pub["scrap"]) == set(g.scrap) and cards_of(pub["stack"]) == set(g.stack)
        assert cards_of(pub["revealed"]) == set(g.revealed)
        assert cards_of(pub["deck_known"]) == {c for _, c in g.observation(0).deck_known}
        depth = np.zeros(53, np.float32)
        for d, c in g.observation(0).deck_known:
            depth[c.index] = (d + 1) / 52
        assert np.array_equal(pub["deck_depth"], depth)
        on, height = jack_places_of(g)
        assert np.array_equal(pub["jack_on"], on) and np.array_equal(pub["jack_height"], height)
        assert cards_of(pub["target"]) == {pending_target_of(g)} - {None}
        hidden = set(g.deck) - cards_of(pub["deck_known"])
        hidden |= {c for s in (0, 1) for c in g.hand(s)} - cards_of(pub["hand_known"].any(0))
        assert cards_of(pub["unknown"]) == hidden
        assert public.string_from(state, 0).startswith(f"public {g.phase} ")


def dealt_state(game, hands):
    """A state of `game` whose chance nodes deal `hands` (player 0's cards, then player
    1's, as text), then every other card of the deck in card order."""
    state = game.new_initial_state()
    deck = [c for c, _ in state.chance_outcomes()]
    dealt = [CARDS.index(c) for c in hands[0] + hands[1]]
    for c in dealt + [c for c in deck if c not in dealt]:
        state.apply_action(c)
    return state


def test_freezes_into_the_next_turn_are_public():
    game = load("classic;nine:freeze")
    state = dealt_state(game, (["9H", "KS", "AC", "AD", "AH"], ["5C", "5D", "6C", "6D", "7C", "8C"]))
    # Player 0's 9 returns its own King: frozen from its next turn on.
    for move in ("royal KS", "draw", "oneoff 9H KS", "resolve"):
        state.apply_action(action_of(move))
    public = make_observation(game, PUBLIC[0])
    public.set_from(state, 1)
    assert [cards_of(row) for row in public.dict["frozen_next"]] == [{"KS"}, set()]
    assert not public.dict["frozen"].any()
    assert "frozen: - vs -, next turn KS vs - |" in public.string_from(state, 1)
    assert "frozen: - vs -, next turn - vs KS |" in state.observation_string(1)
    state.apply_action(action_of("draw"))
    public.set_from(state, 1)
    assert [cards_of(row) for row in public.dict["frozen"]] == [{"KS"}, set()]
    assert not public.dict["frozen_next"].any()
    assert "frozen: - vs KS, next turn - vs - |" in state.observation_string(1)


def test_the_public_view_says_which_jack_lies_on_which_card():
    game = load("classic")
    public = make_observation(game, PUBLIC[0])

    def view(first, second):        # player 0's Jacks on player 1's 5H and 7D
        state = dealt_state(game, (["JC", "JS", "AC", "AD", "AH"], ["5H", "7D", "6C", "6D", "8C", "8D"]))
        for move in ("draw", "points 5H", f"jack {first} 5H", "points 7D",
                     f"jack {second} 7D"):
            state.apply_action(action_of(move))
        public.set_from(state, 0)
        return {name: public.dict[name].copy() for name in public.dict}

    a, b = view("JC", "JS"), view("JS", "JC")
    assert all(np.array_equal(a[name], b[name]) for name in a if not name.startswith("jack_"))
    assert cards_of(a["jacks"][0]) == {"JC", "JS"} and cards_of(a["points"][0]) == {"5H", "7D"}
    assert [cards_of(row) for row in a["jack_on"]] == [{"5H"}, set(), set(), {"7D"}]
    assert [cards_of(row) for row in b["jack_on"]] == [{"7D"}, set(), set(), {"5H"}]
    assert list(a["jack_height"]) == list(b["jack_height"]) == [0.25, 0, 0, 0.25]


def test_the_public_view_says_what_the_announced_one_off_targets():
    game = load("classic")
    state = dealt_state(game, (["KS", "AC", "AD", "AH", "5S"], ["2H", "5C", "5D", "6C", "6D", "7C"]))
    public = make_observation(game, PUBLIC[0])
    state.apply_action(action_of("royal KS"))
    state.apply_action(action_of("oneoff 2H KS"))       # player 1's 2 on player 0's King
    for p in (0, 1):
        public.set_from(state, p)
        assert cards_of(public.dict["target"]) == {"KS"}
        assert cards_of(public.dict["stack"]) == {"2H"}
        assert "stack: 2H | target: KS |" in public.string_from(state, p)
        assert "stack: 2H | target: KS |" in state.observation_string(p)
    state.apply_action(action_of("resolve"))
    public.set_from(state, 0)
    assert not public.dict["target"].any() and "target: - |" in public.string_from(state, 0)


def test_the_jokers_swap_is_public_but_the_hands_it_swaps_are_not():
    game = load("classic;joker:true")
    state = dealt_state(game, (["JK", "KS", "AC", "AD", "AH"], ["9H", "5C", "5D", "6C", "6D", "7C"]))
    # The King goes back to player 0's hand in public, then the joker swaps the hands.
    for move in ("royal KS", "oneoff 9H KS", "resolve", "oneoff JK", "resolve"):
        state.apply_action(action_of(move))
    g = state.game
    assert {str(c) for c in g.hand(1)} == {"KS", "AC", "AD", "AH"}
    public = make_observation(game, PUBLIC[0])
    public.set_from(state, 0)
    assert cards_of(public.dict["hand_known"][0]) == set()
    assert {str(c) for c in cards_of(public.dict["hand_known"][1])} == {"KS"}
    assert "vs 4 known KS |" in public.string_from(state, 0)
    other = relabelled(state, None, np.random.default_rng(1))
    assert {str(c) for c in other.game.hand(1)} != {"KS", "AC", "AD", "AH"}
    assert views(other, SHARED[:2], 0) == views(state, SHARED[:2], 0)
    # Each player knows the hand it gave away: private knowledge, both ways.
    single = make_observation(game, pyspiel.IIGObservationType(
        public_info=False, private_info=SINGLE, perfect_recall=False))
    single.set_from(state, 0)
    assert cards_of(single.dict["opponent_known"]) == {CARDS[c] for c in (0, 1, 2)}
    assert cards_of(single.dict["known_by_opponent"]) == set(g.hand(0))
    single.set_from(state, 1)
    assert cards_of(single.dict["opponent_known"]) == set(g.hand(0))
    assert cards_of(single.dict["known_by_opponent"]) == {CARDS[c] for c in (0, 1, 2)}


@SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_public_views_do_not_change_when_unseen_cards_are_swapped(seed):
    game = random_game(seed)
    rng = np.random.default_rng(seed)
    changed = 0
    for state in positions(game, seed, count=3):
        other = relabelled(state, None, rng)
        if other is None:
            continue
        for p in (0, 1):
            assert views(other, SHARED[:2], p) == views(state, SHARED[:2], p)
        changed += every_view(other) != every_view(state)
    # (the hands really changed somewhere: the check above could not pass by accident)
    assert changed or game.rules.open_hands


@SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_a_players_views_do_not_change_when_cards_it_has_not_seen_are_swapped(seed):
    game = random_game(seed)
    rng = np.random.default_rng(seed)
    for state in positions(game, seed, count=3):
        for p in (0, 1):
            other = relabelled(state, p, rng)
            if other is None:
                continue
            assert views(other, OWN + PUBLIC, p) == views(state, OWN + PUBLIC, p)
            if state.current_player() == p:
                assert other.legal_actions() == state.legal_actions()


# -- resampling ----------------------------------------------------------------------------

def check_sample(state, sample, p):
    n = state.get_game().n_cards
    assert sample.history()[n:] == state.history()[n:]
    dealt = sample.history()[:n]
    if len(state.history()) >= n:
        assert sorted(dealt) == sorted(state.history()[:n])
    else:           # mid-deal: the unseen places hold any cards the player was not dealt
        assert len(set(dealt)) == len(dealt) == len(state.history())
    a, b = state.get_game().rules.deal
    own = slice(0, a) if p == 0 else slice(a, a + b)
    assert dealt[own] == state.history()[own]
    # The player's views (public ones included) are the real state's ...
    assert views(sample, OWN + PUBLIC, p) == views(state, OWN + PUBLIC, p)
    assert sample.current_player() == state.current_player()
    if state.current_player() == p:
        assert sample.legal_actions() == state.legal_actions()
    # ... and every view, both players', is that of the state its history builds.
    assert every_view(sample) == every_view(rebuilt(sample))
    assert str(sample) == str(rebuilt(sample))


@SETTINGS
@given(st.integers(0, 2**32 - 1))
@example(1667)      # a forced pass under the no-draw limit: the first deal rarely fits
def test_resampled_states_are_real_states_in_the_same_information_state(seed):
    game = random_game(seed)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    home = cos.game        # (patched where resample_from_infostate looks it up)
    with mock.patch.object(home, "_consistent_deal", wraps=home._consistent_deal) as deal:
        for state in positions(game, seed, count=3):
            for p in (0, 1):
                for _ in range(2):
                    deal.reset_mock()
                    if home._telling_passes(state, p):
                        # The one constraint the deals do not model (an opponent's pass
                        # with cards left to draw: no legal move): a deal is checked by
                        # replaying it, and a state found is real; none may be.
                        try:
                            check_sample(state, state.resample_from_infostate(p, sampler), p)
                        except RuntimeError as e:
                            assert "no legal move" in str(e)
                        continue
                    check_sample(state, state.resample_from_infostate(p, sampler), p)
                    # The first deal drawn always fits (nothing is rejected).
                    assert deal.call_count == 1


@pytest.mark.parametrize("rules", RULES)
def test_resampling_moves_the_hidden_cards(rules):
    game = load(rules)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for state in positions(game, seed=5, count=3):
        if state.game is None or state.is_terminal() or game.rules.open_hands:
            continue
        p = state.current_player() if state.current_player() >= 0 else 0
        hands = {tuple(s.game.hand(1 - p)) + tuple(s.game.deck)
                 for s in (state.resample_from_infostate(p, sampler) for _ in range(8))}
        assert len(hands) > 1


def binomial_ok(count, n, prob):
    """`count` of `n` is within 4.5 standard deviations of n * prob."""
    return abs(count - n * prob) <= 4.5 * np.sqrt(n * prob * (1 - prob))


def test_resampling_is_uniform_over_the_unseen_cards():
    game = load("classic")
    state = game.new_initial_state()
    for c in range(52):
        state.apply_action(c)                 # player 0: AC AD AH AS 2C; player 1: 2D..3H
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    n, counts = 940, np.zeros(52)
    for _ in range(n):
        sample = state.resample_from_infostate(0, sampler)
        for c in sample.game.hand(1):
            counts[c.index] += 1
    assert counts[:5].sum() == 0
    for c in range(5, 52):                    # each unseen card: 6 places of 47
        assert binomial_ok(counts[c], n, 6 / 47), (CARDS[c], counts[c])



@pytest.mark.parametrize("player", [0, 1])
def test_resampling_during_the_deal_is_uniform_over_the_unseen_cards(player):
    """Mid-deal, the cards dealt so far that `player` has not seen may be any of those it
    does not hold; samples used to keep them (permuted among their places), telling the
    player which cards the other hand was dealt."""
    game = load("classic")
    state = game.new_initial_state()
    for c in (0, 1, 2, 3, 4, 10, 11, 12):      # player 0's five; three of player 1's six
        state.apply_action(c)
    own, unseen = ((0, 5), (5, 8)) if player == 0 else ((5, 8), (0, 5))
    held = set(state.history()[slice(*own)])
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    n, counts = 940, np.zeros(52)
    for _ in range(n):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == \
            state.information_state_string(player)
        assert sample.history()[slice(*own)] == state.history()[slice(*own)]
        for c in sample.history()[slice(*unseen)]:
            counts[c] += 1
    places, pool = unseen[1] - unseen[0], 52 - len(held)
    for c in range(52):
        if c in held:
            assert counts[c] == 0
        else:                                 # each unseen card: `places` of `pool`
            assert binomial_ok(counts[c], n, places / pool), (CARDS[c], counts[c])


def test_resampling_does_not_keep_when_the_opponent_got_a_card():
    # Player 1 draws a card, then plays one: from player 0's side it may have been in
    # its dealt hand or the card drawn, and the sample's history must not tell.
    game = load("classic")
    state = game.new_initial_state()
    for c in range(52):
        state.apply_action(c)                 # player 1 holds 2D..3H; the deck: 3S, 4C, ...
    for move in ("draw", "draw", "draw", "points 4C"):
        state.apply_action(action_of(move))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    n, where = 700, np.zeros(52)
    four = CARDS.index("4C")
    for _ in range(n):
        sample = state.resample_from_infostate(0, sampler)
        where[sample.history()[:52].index(four)] += 1
    # Its place in the deal: player 1's six, or the deck's second card (its draw).
    assert where[list(range(5, 11)) + [12]].sum() == n
    for i in [*range(5, 11), 12]:
        assert binomial_ok(where[i], n, 1 / 7), (i, where[i])
