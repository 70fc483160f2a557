"""`python_cuttle` in OpenSpiel: the C++ random simulation test, chance nodes for the
deal and a random 4's discards, the core's observations, refused actions, serialization,
resampling, and OpenSpiel's ISMCTS and evaluate_bots.  Observers of every type and
resampling in depth: test_openspiel_views.py."""

import pickle
import random
import traceback

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="the openspiel extra is not installed (pip install -e '.[openspiel]')")

from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import cuttle  # noqa: E402
import cuttle.openspiel  # noqa: E402,F401  (registers python_cuttle)
from cuttle.rl import (ACTION_SPACE, action_mask, action_of,  # noqa: E402
                       legal_actions, move_of)

from support.helpers import random_rules  # noqa: E402


@pytest.mark.parametrize("name", ["python_cuttle",
                                  "python_cuttle(rules=cuttle.cards;joker:true,max_moves=60)",
                                  "python_cuttle(rules=classic;four:random,max_moves=300)"])
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



@pytest.mark.parametrize("seed", range(40))
def test_the_game_agrees_with_a_game_the_engine_dealt(seed):
    """Dealt as `cuttle.Game(rules, seed)` deals (its hands, then its deck from the top)
    and played move for move, python_cuttle observes, offers and ends exactly as the
    engine's own game does; a random 4's discards are the chance outcome that discards
    what the engine's random stream discarded."""
    rng = random.Random(seed)
    rules = random_rules(rng)
    if seed % 4 == 0:
        rules = rules.replace(four="random")
    g = cuttle.Game(rules, seed=seed)
    state = pyspiel.load_game(cuttle.openspiel.game_string(rules, 300)).new_initial_state()
    for c in g.hand(0) + g.hand(1) + g.deck:
        state.apply_action(c.index)
    while not g.is_over and not state.is_terminal():
        assert state.current_player() == g.to_move
        for q in (0, 1):
            assert np.array_equal(np.asarray(state.observation_tensor(q), np.float32),
                                  g.observation_array(q))
        assert state.legal_actions() == legal_actions(g)
        action = rng.choice(legal_actions(g))
        g.play(move_of(action))
        state.apply_action(action)
        if state.is_chance_node():                        # a random 4's discards
            fits = []
            for outcome, _ in state.chance_outcomes():
                child = state.child(outcome)
                if all(sorted(child.game.hand(q)) == sorted(g.hand(q)) for q in (0, 1)):
                    fits.append(outcome)
            assert len(fits) == 1
            state.apply_action(fits[0])
    assert g.is_over == state.is_terminal() or g.ply >= 300
    if g.is_over:
        winner = g.winner
        assert state.returns() == ([0.0, 0.0] if winner is None else
                                   [1.0, -1.0] if winner == 0 else [-1.0, 1.0])


@pytest.mark.parametrize("hands", [(6, 6), (8, 1), (1, 8)])
def test_the_deal_follows_the_rules(hands):
    name = cuttle.openspiel.game_string(cuttle.Rules(deal=hands, joker=True))
    assert f"deal:{hands[0]}/{hands[1]}" in name
    game, state = deal(4, name)
    g = state.game
    assert (len(g.hand(0)), len(g.hand(1)), len(g.deck)) == (*hands, 53 - sum(hands))
    assert state.current_player() == 0
    # Halfway through the deal, each player's view holds its own dealt cards only.
    part = game.new_initial_state()
    for a in state.history()[:hands[0] + 1]:
        part.apply_action(a)
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    dealt = [str(cuttle.cards.CARDS[a]) for a in part.history()]
    assert recall.string_from(part, 0) == f"p0 dealt: {' '.join(dealt[:hands[0]])}"
    assert recall.string_from(part, 1) == f"p1 dealt: {dealt[hands[0]]}"
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_resampling_keeps_the_information_state_and_rebuilds_the_other_players():
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
        # The other player's information state is that of the sample's own history.
        again = game.deserialize_state(s.serialize())
        assert again.history() == s.history() and again.history() != state.history()
        for q in (0, 1):
            assert again.information_state_string(q) == s.information_state_string(q)
            assert again.observation_string(q) == s.observation_string(q)
        assert s.information_state_string(1 - p) != state.information_state_string(1 - p)
    assert len(hands) > 1                                 # the hidden cards really move


class ISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's Python ISMCTS bot; evaluate_bots calls restart_at, which it lacks."""

    def restart_at(self, state):
        self.reset()


def test_the_information_state_tensor_is_refused_naming_the_observation_tensor():
    """information_state_tensor_size() was 0 and information_state_tensor() [], without
    a word, though the game type says it provides none: asking is an error now, as a C++
    game's is, naming the tensor it provides; OpenSpiel's own tools still run."""
    from open_spiel.python import rl_environment
    game, state = deal(3)
    assert not game.get_type().provides_information_state_tensor
    history = state.history()
    info_state = pyspiel.IIGObservationType(perfect_recall=True)
    why = (r"python_cuttle provides no information state tensor .*perfect recall.* "
           r"observation tensor.*observation_tensor\(player\).*make_observation")
    for call in (game.information_state_tensor_size, game.information_state_tensor_shape,
                 lambda: state.information_state_tensor(0), state.information_state_tensor,
                 lambda: make_observation(game, info_state).set_from(state, 1)):
        with pytest.raises(pyspiel.SpielError, match=why):
            call()
    assert state.history() == history
    assert len(state.information_state_string(0)) > 0
    assert len(state.observation_tensor(0)) == game.observation_tensor_size() == 1191
    # another perfect-recall type: no tensor either, its digest a string
    public = pyspiel.IIGObservationType(perfect_recall=True, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    obs = make_observation(game, public)
    assert obs.tensor is None and obs.string_from(state, 0).startswith("public ")
    with pytest.raises(pyspiel.SpielError, match=r"perfect-recall observer .* no tensor"):
        obs.set_from(state, 0)
    # rl_environment reads the observation tensor; asked for the other, it says why not
    env = rl_environment.Environment(game)
    step = env.reset()
    assert len(step.observations["info_state"][0]) == 1191
    with pytest.raises(ValueError, match="information_state_tensor not supported"):
        rl_environment.Environment(
            game, observation_type=rl_environment.ObservationType.INFORMATION_STATE)


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



def test_monte_carlo_cfr_runs():
    """The CFR-style tools that sample the tree run on the game (full-tree CFR cannot
    enumerate a shuffled deck, whatever the rules)."""
    from open_spiel.python.algorithms import external_sampling_mccfr, outcome_sampling_mccfr
    game = pyspiel.load_game("python_cuttle(rules=quick,max_moves=40)")
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(10):
        solver.iteration()
    assert len(solver._infostates) > 10
    policy = solver.average_policy()
    state = deal(1, str(game))[1]
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions()) and np.isclose(sum(probs.values()), 1)
    short = pyspiel.load_game("python_cuttle(rules=quick,max_moves=4)")
    external_sampling_mccfr.ExternalSamplingSolver(short).iteration()
    pyspiel.OutcomeSamplingMCCFRSolver(game).run_iteration()        # the C++ one too


def test_parameters():
    game = pyspiel.load_game("python_cuttle(rules=cuttle.cards,max_moves=500)")
    assert game.rules == cuttle.Rules("cuttle.cards") and game.max_game_length() == 552
    assert game.num_distinct_actions() == cuttle.rl.ACTION_SPACE
    rules = cuttle.Rules("classic", king_goals=(15, 14, 10, 7, 5), four="random", joker=True)
    text = cuttle.openspiel.game_string(rules, max_moves=80)
    assert text == ("python_cuttle(rules=classic;king_goals:15/14/10/7/5;four:random;"
                    "joker:true,max_moves=80)")
    game = pyspiel.load_game(text)
    # Chance outcomes: the 53 cards, then a random 4's discards (compact actions).
    assert game.rules == rules and game.max_chance_outcomes() == 2848
    assert game.max_game_length() == 53 + 2 * 80
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    # Rule text in a parameter dict (as docs/rl.md shows) is held as a game string
    # writes it: its `=` and `,` would otherwise split the game's own string, which
    # then did not load again, and its states did not serialize or pickle.
    game = pyspiel.load_game("python_cuttle", {"rules": "classic: joker=true, four=random",
                                               "max_moves": 80})
    assert str(game) == "python_cuttle(max_moves=80,rules=classic;four:random;joker:true)"
    assert pyspiel.load_game(str(game)).rules == game.rules == \
        cuttle.Rules("classic", joker=True, four="random")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(7)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    for bad in ("nonsense", "classic;joker", "classic;joker:maybe"):
        with pytest.raises(Exception, match="rules|joker|preset"):
            pyspiel.load_game("python_cuttle", {"rules": bad})
    # A cap whose game length (deal + moves, + a random 4's chance nodes) does not fit
    # OpenSpiel's C int was refused by pybind11's "incompatible constructor arguments".
    for rules, most in (("classic", 2**31 - 1 - 52), ("classic;four:random", (2**31 - 53) // 2),
                        ("classic;joker:true", 2**31 - 1 - 53)):
        game = pyspiel.load_game("python_cuttle", {"rules": rules, "max_moves": most})
        assert game.max_game_length() <= 2**31 - 1
        with pytest.raises(ValueError, match=f"max_moves must be at most {most:,}"):
            pyspiel.load_game("python_cuttle", {"rules": rules, "max_moves": most + 1})
    with pytest.raises(ValueError, match="max_moves must be at most"):
        cuttle.openspiel.game_string("classic", 2**31)
    # The traceback of a refused game holds the game its __init__ left unmade; showing
    # its locals (pytest, IPython's verbose mode, a debugger) read uninitialized memory.
    with pytest.raises(ValueError) as refused:
        pyspiel.load_game("python_cuttle", {"rules": "classic;joker:maybe"})
    shown = [repr(v) for frame, _ in traceback.walk_tb(refused.value.__traceback__)
             for v in list(frame.f_locals.values())
             if isinstance(v, cuttle.openspiel.CuttleGame)]
    assert "<CuttleGame: not made>" in shown


def snapshot(state):
    """Everything a refused action must leave as it was."""
    views = [(state.observation_string(p), state.observation_tensor(p),
              state.information_state_string(p)) for p in (0, 1)]
    return state.history(), str(state), state.current_player(), views


def test_illegal_chance_actions_are_refused_and_change_nothing():
    game = pyspiel.load_game("python_cuttle")
    state = game.new_initial_state()
    state.apply_action(7)
    before = snapshot(state)
    for bad in (7, 52, 53, 999, 2**31, -2, 2**63 - 1):
        with pytest.raises(ValueError, match="not a card left to deal"):
            state.apply_action(bad)
        assert snapshot(state) == before
    with pytest.raises(pyspiel.SpielError, match="kInvalidAction"):   # pyspiel's own check
        state.apply_action(-1)
    assert snapshot(state) == before
    joker = pyspiel.load_game("python_cuttle(rules=classic;joker:true)").new_initial_state()
    joker.apply_action(52)                                   # the joker exists there
    with pytest.raises(ValueError, match="not a card left"):
        joker.apply_action(53)


def four_pending(seed, name="python_cuttle(rules=classic;four:random)"):
    """A state where chance chooses a random 4's discards."""
    rng = np.random.default_rng(seed)
    for _ in range(200):
        game, state = deal(int(rng.integers(2**31)), name)
        while not state.is_terminal():
            if state.is_chance_node():
                return game, state
            four = [a for a in state.legal_actions() if str(move_of(a)).startswith("oneoff 4")]
            state.apply_action(four[0] if four else int(rng.choice(state.legal_actions())))
    raise AssertionError("no 4 was played")


def test_a_random_fours_discards_are_a_chance_node():
    game, state = four_pending(1)
    g = state.game
    victim = g.to_move
    hand = g.hand(victim)
    outcomes = state.chance_outcomes()
    pairs = {tuple(sorted(move_of(a).cards)) for a, _ in outcomes}
    assert g.phase == "four" and state.current_player() == pyspiel.PlayerId.CHANCE
    assert len(outcomes) == (1 if len(hand) == 1 else len(hand) * (len(hand) - 1) // 2)
    assert all(set(pair) <= set(hand) for pair in pairs) and len(pairs) == len(outcomes)
    assert all(np.isclose(prob, 1 / len(outcomes)) for _, prob in outcomes)
    assert all(a < game.max_chance_outcomes() for a, _ in outcomes)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, outcomes[0][0]).startswith(
        "random discard ")
    before = snapshot(state)
    for bad in (0, action_of("draw"), 2**31, -2):
        with pytest.raises(ValueError, match="not legal for chance"):
            state.apply_action(bad)
        assert snapshot(state) == before
    moves = state._moves
    state.apply_action(outcomes[-1][0])
    assert set(move_of(outcomes[-1][0]).cards) <= set(state.game.scrap)
    assert state._moves == moves              # chance's discard is not a player move


def test_illegal_player_actions_and_actions_after_the_end_are_refused():
    game, state = deal(5, "python_cuttle(max_moves=3)")
    before = snapshot(state)
    illegal = next(a for a in range(ACTION_SPACE) if a not in state.legal_actions())
    for bad in (illegal, ACTION_SPACE, -2, 2**31):
        with pytest.raises(ValueError, match="not legal for player 0"):
            state.apply_action(bad)
        assert snapshot(state) == before
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and not state.game.is_over        # the move cap
    assert state.game.legal_moves                                 # a move the cap forbids
    before = snapshot(state)
    for a in (action_of(state.game.legal_moves[0]), 0):
        with pytest.raises(ValueError, match="terminal"):
            state.apply_action(a)
        assert snapshot(state) == before


@pytest.mark.parametrize("name", ["python_cuttle(rules=cuttle.cards;joker:true)",
                                  "python_cuttle(rules=classic;four:random)"])
def test_clone_and_serialization_round_trip(name):
    rng = np.random.default_rng(6)
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    observers = [make_observation(game, pyspiel.IIGObservationType(
        public_info=pub, perfect_recall=pr, private_info=priv))
        for pub in (True, False) for pr in (True, False)
        for priv in (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.SINGLE_PLAYER,
                     pyspiel.PrivateInfoType.ALL_PLAYERS)]

    def views(s):
        out = []
        for obs in observers:
            for p in (0, 1):
                if obs.tensor is not None:          # (perfect recall: a string only)
                    obs.set_from(s, p)
                out.append((obs.string_from(s, p),
                            None if obs.tensor is None else obs.tensor.tobytes()))
        return out

    k = 0
    while not state.is_terminal():
        if k % 9 == 0 or k < 3:
            text = pyspiel.serialize_game_and_state(game, state)
            game2, again = pyspiel.deserialize_game_and_state(text)
            for other in (again, state.clone()):
                assert str(other) == str(state) and other.history() == state.history()
                assert views(other) == views(state)
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        k += 1


@pytest.mark.parametrize("name", ["python_cuttle",
                                  "python_cuttle(rules=cuttle.cards;joker:true,max_moves=90)",
                                  "python_cuttle(rules=classic;four:random,max_moves=300)"])
def test_a_pickled_game_is_the_same_working_game(name):
    # pyspiel pickles a game as its string and rebuilt only the C++ side: the
    # unpickled game had no rules ("<CuttleGame: not made>") and new_initial_state
    # raised AttributeError.
    game = pyspiel.load_game(name)
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game) and again == game and str(again) == str(game)
    assert again.get_parameters() == game.get_parameters()
    assert again.rules == game.rules and again.max_moves == game.max_moves
    rng = np.random.default_rng(3)
    a, b = game.new_initial_state(), again.new_initial_state()
    while not a.is_terminal():
        assert a.legal_actions() == b.legal_actions() and str(a) == str(b)
        if not a.is_chance_node():
            assert a.observation_tensor() == b.observation_tensor()
        action = int(rng.choice(a.legal_actions()))
        a.apply_action(action)
        b.apply_action(action)
    assert b.is_terminal() and b.returns() == a.returns() and b.history() == a.history()
    # Parameters are checked again on loading (here a flag value edited in the pickle).
    data = pickle.dumps(pyspiel.load_game("python_cuttle(rules=classic;joker:true)"))
    with pytest.raises(ValueError, match="joker"):
        pickle.loads(data.replace(b"joker:true", b"joker:nope"))


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



def test_copies_of_a_state_of_a_game_resample_from_the_position():
    """A clone, a child or a deserialized copy of `state_of(game)` is built by OpenSpiel
    as `game.new_initial_state()` with the Python attributes copied over: it used to
    lose the position's resampling (its history holds no deal) and raise 'inconsistent
    constraints'."""
    g = cuttle.Game("classic", seed=3)
    for _ in range(4):
        g.play(g.legal_moves[0])
    state = cuttle.openspiel.state_of(g)
    game = state.get_game()
    child = state.child(state.legal_actions()[0])
    sampler = np.random.default_rng(1).random
    copies = [state.clone(), state,
              pyspiel.deserialize_game_and_state(
                  pyspiel.serialize_game_and_state(game, state))[1],
              pickle.loads(pickle.dumps(state)), child, child.clone()]
    for copy in copies:
        p = copy.current_player()
        hands = set()
        for _ in range(8):
            sample = copy.resample_from_infostate(p, sampler)
            assert sample.information_state_string(p) == copy.information_state_string(p)
            assert sample.legal_actions() == copy.legal_actions()
            assert sample.game.hand(p) == copy.game.hand(p)
            hands.add(tuple(sample.game.hand(1 - p)))
            again = sample.resample_from_infostate(p, sampler)     # a sample's too
            assert again.information_state_string(p) == copy.information_state_string(p)
        assert len(hands) > 1



def test_perfect_recall_views_of_a_state_of_a_game_start_at_its_position():
    """They were digests of a deal of cards 0, 1, 2, ... (the same for every position);
    the information state alone started at the position."""
    P = pyspiel.PrivateInfoType
    kinds = [pyspiel.IIGObservationType(public_info=pub, perfect_recall=True,
                                        private_info=priv)
             for pub in (True, False) for priv in (P.NONE, P.SINGLE_PLAYER, P.ALL_PLAYERS)
             if pub or priv != P.NONE]
    games = [cuttle.Game("classic: joker=true", seed=s) for s in (3, 4)]
    for g, n in zip(games, (4, 6)):                   # decks of 37 and 35 cards
        for _ in range(n):
            g.play("draw")
    states = [cuttle.openspiel.state_of(g) for g in games]
    observers = [make_observation(states[0].get_game(), t) for t in kinds]
    for obs in observers:
        assert obs.string_from(states[0], 0) != obs.string_from(states[1], 0)
    # A digest kept up to date action by action is the one a fresh copy replays.
    state = states[0]
    early = [obs.string_from(state, p) for obs in observers for p in (0, 1)]
    rng = np.random.default_rng(2)
    fresh = cuttle.openspiel.state_of(games[0])
    for _ in range(6):
        a = int(rng.choice(state.legal_actions()))
        state.apply_action(a)
        fresh.apply_action(a)
    later = [obs.string_from(state, p) for obs in observers for p in (0, 1)]
    assert later == [obs.string_from(fresh, p) for obs in observers for p in (0, 1)]
    assert later != early


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
