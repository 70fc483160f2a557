"""VectorEnv.set_game and reset_envs: an env started from a given position shows exactly
that position, the other envs are untouched (and play on as if nothing happened),
refusals change nothing, an env reset early moves on to its stream's next deal, and
docs/rl.md's curriculum loop runs."""

import os
import pathlib
import random
import re
import signal
import textwrap
import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import cuttle
from cuttle.game import _unpickle
from cuttle.rl import VectorEnv, action_mask
from cuttle.seeding import derive

N = 4
TEXT = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text("utf-8")


def position(game):
    """`game` without its history: what a VectorEnv holds (`VectorEnv.game`)."""
    return _unpickle(cuttle.Game, game.rules, 0, (game._core_get_state()[0], b"", b""))


def snapshot(env):
    """Everything of each env that set_game/reset_envs may not change in another env."""
    c = env._core
    return [(env.game(j), c.obs[j].tobytes(), c.mask[j].tobytes(), int(c.to_move[j]),
             env.legal_actions(j), int(env.episodes[j]), int(env.skipped[j]),
             c.final_obs[j].tobytes(), int(c.final_to_move[j]), float(c.rewards[j]),
             int(c.terminated[j]), int(c.truncated[j]), int(c.illegal[j]))
            for j in range(env.num_envs)]


def played(seed, plies, rules="classic"):
    """A game some random moves into a deal, not over."""
    g = cuttle.Game(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        moves = list(g.legal_moves)
        g.play(rng.choice(moves))
        if g.is_over:
            g.undo()
            break
    return g


def step_both(a, b, steps, skip=None):
    """Step twin envs with the same actions (random legal ones of `a`'s); the outputs of
    every env but `skip` agree."""
    rng = np.random.default_rng(0)
    keep = [j for j in range(a.num_envs) if j != skip]
    for _ in range(steps):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in a.action_masks()])
        for x, y in zip(a.step(acts), b.step(acts)):
            assert np.array_equal(x[keep], y[keep])
        assert np.array_equal(a.action_masks()[keep], b.action_masks()[keep])


def opponent_replies(game, agent, depth=6):
    """Every position where `agent` is next to decide that the opponent's moves alone
    reach from `game` (or that ends it), as state bytes."""
    out, todo = set(), [(game, 0)]
    while todo:
        g, d = todo.pop()
        if g.is_over or g.to_move == agent:
            out.add(position(g)._core_get_state()[0])
            continue
        if d < depth:
            for m in g.legal_moves:
                h = g.copy()
                h.play(m)
                todo.append((h, d + 1))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), game_seed=st.integers(0, 2**32 - 1),
       plies=st.integers(0, 40), i=st.integers(0, N - 1),
       opponent=st.sampled_from([None, "random", "greedy"]),
       seat=st.sampled_from([0, 1, None]), rules=st.sampled_from(["classic", "cuttle.cards"]))
def test_set_game_gives_that_env_the_position_and_leaves_the_others_alone(
        seed, game_seed, plies, i, opponent, seat, rules):
    seat = None if opponent is None else seat
    env = VectorEnv(N, rules=rules, opponent=opponent, seat=seat, threads=1)
    twin = VectorEnv(N, rules=rules, opponent=opponent, seat=seat, threads=1)
    env.reset(seed)
    twin.reset(seed)
    g = played(game_seed, plies, rules)
    before = snapshot(env)
    agent = g.to_move if opponent is None else env._core.to_move[i]
    episode = env.episodes[i]
    obs, to_move = env.set_game(i, g)
    after = snapshot(env)
    assert [s for j, s in enumerate(after) if j != i] == \
        [s for j, s in enumerate(before) if j != i]
    now = env.game(i)
    if env.episodes[i] == episode:            # the agent decides in g, or after replies
        assert to_move == agent == now.to_move and not now.is_over
        if g.to_move == agent:
            assert now == position(g)
        else:
            assert now._core_get_state()[0] in opponent_replies(g, agent)
    else:                                     # the opponent ended g before the agent moved
        assert env.episodes[i] - episode == env.skipped[i] - before[i][6] >= 1
    assert obs.tobytes() == now.observation_array(to_move).tobytes()
    assert obs.tobytes() == env._core.obs[i].tobytes()
    assert np.array_equal(env.action_masks()[i], action_mask(now, bool))
    assert env.legal_actions(i) == list(np.flatnonzero(action_mask(now, bool)))
    step_both(env, twin, 6, skip=i)


def test_an_opponent_to_move_plays_up_to_the_agents_decision():
    env = VectorEnv(2, opponent="greedy", seat=0, threads=1)
    env.reset(1)
    g = cuttle.Game.from_position(hands=(["3C", "4D"], ["9H", "5D", "7C"]),
                                  points=(["8C"], ["7S"]), to_move=1, seed=2)
    obs, to_move = env.set_game(1, g)
    now = env.game(1)
    assert to_move == 0 and now.to_move == 0 and now != position(g)
    assert now._core_get_state()[0] in opponent_replies(g, 0)
    assert env.episodes[1] == 0 and env.skipped[1] == 0
    # Deterministic: the same set_game on the same env and seed gives the same reply.
    again = VectorEnv(2, opponent="greedy", seat=0, threads=1)
    again.reset(1)
    assert again.set_game(1, g)[1] == 0 and again.game(1) == now


def test_the_opponent_answers_a_set_position_from_its_episodes_stream_afresh():
    # However far the episode had gone, the replies are the same: the opponent's
    # stream starts again for the position.
    g = cuttle.Game.from_position(hands=(["3C", "4D"], ["9H", "5D", "7C", "2S"]),
                                  points=(["8C"], ["7S"]), to_move=1, seed=2)
    games = []
    for steps in (0, 4, 0):
        env = VectorEnv(2, opponent="random", seat=0, threads=1)
        env.reset(8 if len(games) < 2 else 9)
        for _ in range(steps):
            env.step(env.sample_actions())
        assert env.episodes[1] == 0
        env.set_game(1, g)
        games.append(env.game(1))
    assert games[0] == games[1] and games[1] != games[2]     # (seed 9: another stream)


def test_a_position_the_opponent_wins_at_once_is_skipped_as_such_a_deal_is():
    # Player 1, the opponent, to move with 19 points and a 5 in hand: it wins by points.
    env = VectorEnv(3, opponent="greedy", seat=0, threads=1)
    env.reset(7)
    obs0, *_ = env.step(env.sample_actions())
    rewards = env._core.rewards.copy()
    g = cuttle.Game.from_position(hands=(["3C"], ["5D", "2H"]), points=([], ["TH", "9H"]),
                                  to_move=1, seed=3)
    obs, to_move = env.set_game(2, g)
    assert env.skipped[2] == 1 and env.episodes[2] == 1
    # Env 2 goes on with its stream's next deal; nothing is reported.
    deal = cuttle.Game.from_run(seed=derive(7, 4), index=1)
    assert env.game(2) == deal and to_move == 0
    assert np.array_equal(env._core.rewards, rewards)


def test_refusals_leave_every_env_as_it_was():
    env = VectorEnv(3, opponent="random", seat=None, threads=1)
    env.reset(5)
    before = snapshot(env)
    over = played(3, 0)
    while not over.is_over:
        over.play(next(iter(over.legal_moves)))
    bad = [(0, cuttle.Game("cuttle.cards", seed=1), "plays under Rules"),
           (0, over, "the game is over"), (1, "9C 2D / 5H", "must be a cuttle.Game"),
           (3, cuttle.Game(seed=1), "env index"), (-1, cuttle.Game(seed=1), "env index"),
           (True, cuttle.Game(seed=1), "env index")]
    for i, game, words in bad:
        with pytest.raises(ValueError, match=words):
            env.set_game(i, game)
        assert snapshot(env) == before
    for indices, words in (([0, 0], "each env at most once"),
                           ([3], "^env index must be at most 2, not 3$"),
                           ([-1], "^env index must be at least 0, not -1$"),
                           ([0.0], "dtype float64"), ([[0, 1]], "shape"),
                           ([True], "dtype bool")):
        with pytest.raises(ValueError, match=words):
            env.reset_envs(indices)
        assert snapshot(env) == before
    # A state the core's checks refuse (here an empty table) never reaches an env.
    assert isinstance(env._core.refusal(cuttle.Game.__new__(cuttle.Game)), str)
    twin = VectorEnv(3, opponent="random", seat=None, threads=1)
    twin.reset(5)
    step_both(env, twin, 5)


def test_before_reset_after_close_and_after_ctrl_c_they_ask_for_a_reset():
    g = cuttle.Game(seed=1)
    env = VectorEnv(2, opponent="ismcts:1000000", seat=0, threads=1)
    for call in (lambda: env.set_game(0, g), lambda: env.reset_envs([0])):
        with pytest.raises(RuntimeError, match=r"call reset\(\)"):
            call()
    # Ctrl-C while the opponent's search answers the position: the envs need a reset.
    env.reset(1)                            # (the agent moves first: no search yet)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            env.set_game(0, cuttle.Game.from_position(hands=(["3C"], ["4D", "6H"]),
                                                      to_move=1, seed=1))
    finally:
        timer.cancel()
    for call in (lambda: env.step([0, 0]), lambda: env.set_game(1, g),
                 lambda: env.reset_envs([1])):
        with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
            call()
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.reset_envs([0])


@pytest.mark.parametrize("opponent, seat", [(None, None), ("greedy", None), ("random", 1)])
def test_reset_envs_moves_only_those_envs_to_their_next_deal(opponent, seat):
    env = VectorEnv(6, opponent=opponent, seat=seat, threads=1)
    twin = VectorEnv(6, opponent=opponent, seat=seat, threads=2)
    env.reset(3)
    twin.reset(3)
    for _ in range(5):
        acts = env.sample_actions()
        env.step(acts)
        twin.step(acts)
    before = snapshot(env)
    obs, to_move = env.reset_envs([4, 1])
    after = snapshot(env)
    for j in (0, 2, 3, 5):
        assert after[j] == before[j]
    for k, j in enumerate((4, 1)):
        k_ep = env.episodes[j]
        assert k_ep == before[j][5] + 1 + (env.skipped[j] - before[j][6])
        assert after[j][7:] == before[j][7:]             # nothing reported
        game = env.game(j)
        assert game.to_move == to_move[k] and obs[k].tobytes() == after[j][1]
        if opponent is None:                 # self-play: the deal as dealt
            assert game == cuttle.Game.from_run(seed=derive(3, 2 * j), index=int(k_ep))
    twin.reset_envs([4, 1])                  # the same, whatever the thread count
    assert snapshot(twin) == after
    assert env.reset_envs([])[0].shape == (0, env.observation_size)


def test_reset_envs_does_not_depend_on_the_thread_count():
    envs = [VectorEnv(128, threads=t) for t in (1, 2)]
    out = []
    for env in envs:
        env.reset(2)
        env.step(env.sample_actions())
        out.append(env.reset_envs(np.arange(0, 128, 3)) + (env.action_masks(),))
    assert all(np.array_equal(x, y) for x, y in zip(*out))


def test_a_checkpoint_restores_the_position():
    env = VectorEnv(2, opponent="random", seat=0, threads=1)
    obs, _ = env.reset(4)
    saved, row = env.game(1), obs[1].copy()
    for _ in range(6):
        env.step(env.sample_actions())
    back, to_move = env.set_game(1, saved)
    assert env.game(1) == saved and back.tobytes() == row.tobytes() and to_move == 0


def test_the_curriculum_loop_of_the_docs_runs():
    block = next(b for b in re.findall(r"```python\n(.*?)```", TEXT, flags=re.S)
                 if "set_game" in b and "for _ in range" in b)
    scope = {}
    exec(textwrap.dedent(block), scope)
    env = scope["env"]
    assert env.episodes.sum() > 0 and env.skipped.sum() == 0


def test_an_opponent_that_reads_the_history_starts_a_set_position_with_a_fresh_tree():
    env = VectorEnv(2, opponent="ismcts-infer:20", seat=0, threads=1)
    env.reset(6)
    for _ in range(3):
        env.step(env.sample_actions())
    assert env.episodes[0] == 0 and len(env._core._opponent_seen(0)) >= 2
    g = played(11, 6)
    assert g.to_move == 0
    env.set_game(0, g)
    assert env._core._opponent_seen(0) == []        # it saw nothing of this game yet
    env.step(env.sample_actions())
    assert len(env._core._opponent_seen(0)) <= 1    # at most the agent's move since
