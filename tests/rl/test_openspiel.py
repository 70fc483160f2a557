"""`python_cuttle` in OpenSpiel: the C++ random simulation test, chance nodes for the
deal, the core's observations, resampling, and OpenSpiel's ISMCTS and evaluate_bots."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
from open_spiel.python.bots import uniform_random

import cuttle
import cuttle.openspiel  # noqa: F401  (registers python_cuttle)
from cuttle.rl import action_mask


@pytest.mark.parametrize("name", ["python_cuttle",
                                  "python_cuttle(rules=cuttle.cards;joker:true,max_moves=60)"])
def test_random_sim_test(name):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=6, serialize=True, verbose=False)


def deal(seed=0, name="python_cuttle"):
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        assert np.isclose(sum(probs), 1.0)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return game, state


def test_the_deal_is_chance_and_observations_come_from_the_core():
    game, state = deal(1)
    assert len(state.history()) == 52 and state.current_player() == 0
    g = state.game
    assert len(g.hand(0)) == 5 and len(g.hand(1)) == 6 and len(g.deck) == 41
    rng = np.random.default_rng(2)
    while not state.is_terminal():
        p = state.current_player()
        for q in (0, 1):
            assert np.array_equal(np.asarray(state.observation_tensor(q), np.float32),
                                  g.observation(q).to_array())
        mask = np.asarray(state.legal_actions_mask(p), bool)
        assert np.array_equal(mask, action_mask(g, bool))
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert sorted(state.returns()) == [-1.0, 1.0] or state.returns() == [0.0, 0.0]
    # A serialized game replays to the same position.
    again = game.deserialize_state(state.serialize())
    assert again.game.observation(0) == g.observation(0) and again.returns() == state.returns()


def test_resampling_keeps_the_information_state():
    game, state = deal(3)
    rng = np.random.default_rng(4)
    for _ in range(25):
        state.apply_action(int(rng.choice(state.legal_actions())))
        if state.is_terminal():
            break
    p = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(p, sampler) for _ in range(20)]
    hands = set()
    for s in samples:
        assert s.information_state_string(p) == state.information_state_string(p)
        assert s.observation_tensor(p) == state.observation_tensor(p)
        assert s.legal_actions() == state.legal_actions()
        hands.add(tuple(s.game.hand(1 - p)))
    assert len(hands) > 1                                 # the hidden cards really move


class ISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's Python ISMCTS bot; evaluate_bots calls restart_at, which it lacks."""

    def restart_at(self, state):
        self.reset()


def test_ismcts_and_evaluate_bots_run():
    game = pyspiel.load_game("python_cuttle(rules=quick)")
    bot = ISMCTSBot(game=game, uct_c=2.0, max_simulations=10,
                    evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                    random_state=np.random.RandomState(2))
    for seat in (0, 1):
        bots = [uniform_random.UniformRandomBot(1 - seat, np.random.RandomState(3))] * 2
        bots[seat] = bot
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots,
                                              np.random.RandomState(seat))
        assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_parameters():
    game = pyspiel.load_game("python_cuttle(rules=cuttle.cards,max_moves=500)")
    assert game.rules == cuttle.Rules("cuttle.cards") and game.max_game_length() == 552
    assert game.num_distinct_actions() == cuttle.rl.ACTION_SPACE
    rules = cuttle.Rules("classic", king_goals=(15, 14, 10, 7, 5), four="random", joker=True)
    text = cuttle.openspiel.game_string(rules, max_moves=80)
    assert text == ("python_cuttle(rules=classic;king_goals:15/14/10/7/5;four:random;"
                    "joker:true,max_moves=80)")
    game = pyspiel.load_game(text)
    assert game.rules == rules and game.max_chance_outcomes() == 53
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    for bad in ("nonsense", "classic;joker", "classic;joker:maybe"):
        with pytest.raises(Exception, match="rules|joker|preset"):
            pyspiel.load_game("python_cuttle", {"rules": bad})


def test_state_of_a_game_mid_play():
    g = cuttle.Game("cuttle.cards", seed=5)
    for _ in range(7):
        g.play(g.legal_moves[0])
    state = cuttle.openspiel.state_of(g)
    assert state.current_player() == g.to_move and not state.is_terminal()
    assert sorted(str(cuttle.rl.move_of(a)) for a in state.legal_actions()) == \
        sorted(str(m) for m in g.legal_moves)
    state.apply_action(state.legal_actions()[0])
    assert len(g.moves) == 7                             # the game itself is untouched
    sample = state.resample_from_infostate(state.current_player(), np.random.rand)
    assert sample.information_state_string() == state.information_state_string()
    with pytest.raises(TypeError, match="cuttle.Game"):
        cuttle.openspiel.state_of(state)


def test_ismcts_player_plays_legal_reproducible_moves():
    import random
    player = cuttle.openspiel.ISMCTSPlayer(20)
    g = cuttle.Game("classic", seed=2)
    for k in range(4):
        m = player(g, random.Random(k))
        assert m in g.legal_moves and m == player(g, random.Random(k))
        g.play(m)
    r = cuttle.simulate(2, "classic", players=(player, "random"), seed=3, progress=False)
    assert r.n_games == 2
    with pytest.raises(ValueError, match="iterations"):
        cuttle.openspiel.ISMCTSPlayer(0)
