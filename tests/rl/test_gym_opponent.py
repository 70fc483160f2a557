"""GymEnv's opponent plays as `simulate` plays a player: asked only for a choice, called
in the same form, drawing from the same rng; and a pickled env goes on as the original."""

import copy
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

pytest.importorskip("gymnasium", reason="the rl extra is not installed (pip install -e '.[rl]')")

import cuttle  # noqa: E402
from cuttle.policies import Bot  # noqa: E402
from cuttle.rl import GymEnv, action_of, legal_actions, move_of  # noqa: E402
from cuttle.seeding import derive  # noqa: E402

RULES = ["classic", "cuttle.cards", cuttle.Rules("quick", joker=True, nine="freeze")]


def agent(game):
    """A deterministic agent: the same move in the same position, whatever called it."""
    actions = legal_actions(game)
    return move_of(actions[(game.ply * 7 + len(actions)) % len(actions)])


def play_episode(env, seed, decide=agent):
    """Reset `env` with `seed` and play `decide`'s moves to the episode's end."""
    env.reset(seed=seed)
    while True:
        *_, terminated, truncated, _ = env.step(action_of(decide(env.game)))
        if terminated or truncated:
            return list(env.game.moves)


def drawing_opponent(form, calls):
    """A Python opponent drawing from its rng, of `form`, noting each call's ply and
    the game it was handed (the live game of a simulated run)."""
    def with_rng(game, rng):
        calls.append((game.ply, game))
        return rng.choice(game.legal_moves)

    def optional_rng(game, rng=None):
        calls.append((game.ply, game))
        return (rng or random).choice(game.legal_moves)
    return {"rng": with_rng, "optional": optional_rng}[form]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), seat=st.sampled_from([0, 1]),
       rules=st.sampled_from(RULES), form=st.sampled_from(["rng", "optional"]))
def test_an_episode_is_the_game_simulate_plays(seed, seat, rules, form):
    # The env asked its opponent at forced decisions too, each call a draw from the
    # rng: the episode was simulate's game in 1 deal of 10; and a policy(game, rng=None)
    # got no rng from the env, which simulate hands it.
    calls = []
    env = GymEnv(opponent=drawing_opponent(form, calls), rules=rules, seat=seat)
    moves = play_episode(env, seed)
    asked = [ply for ply, _ in calls]
    calls.clear()
    held = []                                       # the live game simulate plays

    def agent_noting(game):
        held.append(game)
        return agent(game)
    opponent = drawing_opponent(form, calls)
    players = (agent_noting, opponent) if seat == 0 else (opponent, agent_noting)
    result = cuttle.simulate(1, rules, players=players, seed=env.seed, keep_games=True,
                             progress=False)
    assert [ply for ply, _ in calls] == asked                  # the same decisions
    game = (held + [g for _, g in calls])[0]
    assert game.moves == moves and result.moves[0] == len(moves)


def test_the_opponent_is_asked_only_for_a_choice():
    lone = []

    def opponent(game, rng):
        if len(game.legal_moves) == 1:
            lone.append(game.ply)
        return rng.choice(game.legal_moves)

    env = GymEnv(opponent=opponent, seat=1)
    forced = 0
    for seed in range(8):
        moves = play_episode(env, seed)
        g = cuttle.Game(env.rules, seed=env.seed)
        for move in moves:
            forced += g.to_move != env.seat and len(g.legal_moves) == 1
            g.play(move)
    assert forced > 0 and lone == []        # (forced decisions came, and were not asked)


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_a_native_opponents_kth_choice_draws_from_its_kth_seed(policy):
    # The bot was asked at forced decisions too, each one shifting the seeds of its
    # next choices.
    env = GymEnv(opponent=policy, seat=0)
    for seed in range(6):
        moves = play_episode(env, seed)
        g = cuttle.Game(env.rules, seed=env.seed)
        bot = Bot(policy, seed=derive(env.seed, 1))
        for move in moves:
            if g.to_move != env.seat and len(g.legal_moves) > 1:
                assert bot.choose(g) == move
            g.play(move)


def test_an_optional_rng_gets_the_episodes_rng():
    # Written `rng or random`, it drew from the random module in the env.
    got = []

    def pick(game, rng=None):
        got.append(rng)
        return (rng or random).choice(game.legal_moves)

    def run(global_seed):
        random.seed(global_seed)
        return play_episode(GymEnv(opponent=pick, seat=0), 5)

    assert run(1) == run(2)
    assert got and all(type(rng) is random.Random for rng in got)


# -- pickling --------------------------------------------------------------------------

def agent_bot():
    bot = Bot("expert", seed=5)        # (a fresh one per run: the same decisions)
    return bot.choose


def go_on(env, decide):
    """The rest of `env`'s episode, `decide` playing the agent."""
    while True:
        *_, terminated, truncated, _ = env.step(action_of(decide(env.game)))
        if terminated or truncated:
            return list(env.game.moves)


def callable_opponent(game, rng):
    return rng.choice(game.legal_moves)


@pytest.mark.parametrize("opponent", ["ismcts:200", "ismcts-infer:50", "greedy",
                                      callable_opponent])
@pytest.mark.parametrize("duplicate", [lambda env: pickle.loads(pickle.dumps(env)),
                                       copy.deepcopy], ids=["pickle", "deepcopy"])
def test_a_pickled_env_goes_on_as_the_original(opponent, duplicate):
    # A Bot pickles without its search tree: the copy's opponent searched afresh and
    # the episode went another way (a quarter of the deals of ismcts:200).
    copies = 0
    for seed in range(8):
        env = GymEnv(opponent=opponent, seat=seed % 2)
        env.reset(seed=seed)
        decide = agent_bot()
        for _ in range(3 + seed % 4):                  # a few moves in
            *_, terminated, truncated, _ = env.step(action_of(decide(env.game)))
            if terminated or truncated:
                break
        else:
            twin, twin_decide = duplicate(env), copy.deepcopy(decide)
            assert go_on(twin, twin_decide) == go_on(env, decide)
            copies += 1
            assert play_episode(twin, 9) == play_episode(env, 9)      # and after
    assert copies >= 4


def test_a_pickle_whose_opponent_replays_otherwise_warns_and_goes_on():
    # (a pickle of another version, whose opponent was asked at other decisions)
    env = GymEnv(opponent="ismcts:50", seat=1)
    env.reset(seed=3)
    g = cuttle.Game(env.rules, seed=env.seed)
    other = [m for m in g.legal_moves if m != env.game.moves[0]]
    g.play(other[0])
    while g.next_decision() != env.seat:
        g.play(g.legal_moves[0])
    env.game = g
    with pytest.warns(RuntimeWarning, match="could not be replayed.*fresh search tree"):
        twin = pickle.loads(pickle.dumps(env))
    assert twin.game == env.game
    go_on(twin, agent_bot())


def test_a_callable_opponents_env_of_the_older_form_loads_and_plays():
    # (pickled before the env called its opponent through with_rng)
    env = GymEnv(opponent=callable_opponent, seat=0)
    env.reset(seed=2)
    state = copy.deepcopy(env.__dict__)
    del state["_call"]
    state["_takes_rng"] = True
    old = GymEnv.__new__(GymEnv)
    old.__setstate__(state)
    assert go_on(old, agent) == go_on(env, agent)
