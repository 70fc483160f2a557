"""The native VectorEnv: the same games as cuttle.Game, masks equal legality,
automatic reset, deterministic whatever the thread count, illegal actions lose."""

import os
import signal
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import cuttle
from cuttle import _search
from cuttle.rl import ACTION_SPACE, OBSERVATION_SIZE, VectorEnv, action_mask, move_of
from cuttle.rl.vector import _ThreadTuner
from cuttle.seeding import derive


def run(env, steps, seed):
    """Step with each env's own random legal actions; the whole trajectory."""
    out = [env.reset(seed)]
    for _ in range(steps):
        out.append(env.step(env.sample_actions()) + (env.action_masks(),))
    return out


def same(a, b):
    return all(np.array_equal(x, y) for ta, tb in zip(a, b) for x, y in zip(ta, tb))


@pytest.mark.parametrize("opponent, n", [(None, 128), ("greedy", 16)])
def test_results_do_not_depend_on_the_thread_count(opponent, n):
    # (enough envs that the step really runs on two threads)
    kw = dict(rules="cuttle.cards", opponent=opponent)
    one = run(VectorEnv(n, threads=1, **kw), 40, seed=9)
    two = run(VectorEnv(n, threads=2, **kw), 40, seed=9)
    auto = run(VectorEnv(n, threads=None, **kw), 40, seed=9)     # sizes change as it tunes
    assert same(one, two) and same(one, auto)
    assert not same(one, run(VectorEnv(n, threads=1, **kw), 40, seed=10))


def check_envs_against_games(env, viewer_is_decider=True):
    masks = env.action_masks()
    for i in range(env.num_envs):
        g = env.game(i)
        p = g.to_move if viewer_is_decider else env._core.to_move[i]
        assert env._core.obs[i].tobytes() == g.observation(p).to_array().tobytes()
        assert np.array_equal(masks[i], action_mask(g, bool))
        assert {move_of(a) for a in env.legal_actions(i)} == set(g.legal_moves)


def test_self_play_follows_the_games_and_resets_automatically():
    env = VectorEnv(16, rules="classic")
    obs, to_move = env.reset(seed=4)
    seed_i = [derive(4, 2 * i) for i in range(16)]
    for i in range(16):         # episode 0 of env i is game 0 of its seed's run
        assert env.game(i).hand(0) == cuttle.Game.from_run(seed=seed_i[i], index=0).hand(0)
    assert (to_move == 0).all() and obs.shape == (16, OBSERVATION_SIZE)
    replay = [cuttle.Game.from_run(seed=s, index=0) for s in seed_i]
    ended = 0
    for _ in range(300):
        check_envs_against_games(env)
        actions = env.sample_actions()
        movers = [g.to_move for g in replay]
        obs, rew, term, trunc, to_move = env.step(actions)
        assert not trunc.any() and not env.illegal.any()
        for i, g in enumerate(replay):
            g.play(move_of(actions[i]))
            if g.is_over:
                assert term[i]
                assert rew[i] == (0 if g.winner is None else (1 if g.winner == movers[i] else -1))
                ended += 1
                # the returned observation is already the next episode's first one
                k = env.episodes[i]
                replay[i] = cuttle.Game.from_run(seed=seed_i[i], index=int(k))
                assert obs[i].tobytes() == replay[i].observation(0).to_array().tobytes()
            else:
                assert not term[i] and rew[i] == 0
        assert list(to_move) == [g.to_move for g in replay]
    assert ended > 20


def test_against_an_opponent_the_agent_always_decides():
    env = VectorEnv(12, rules="cuttle.cards", opponent="random", seat=None)
    _, seats = env.reset(seed=1)
    assert list(seats) == [i % 2 for i in range(12)]        # seat (i + episode) % 2
    wins = total = 0
    for _ in range(200):
        for i in range(env.num_envs):
            g = env.game(i)
            assert g.to_move == env._core.to_move[i]
        check_envs_against_games(env)
        obs, rew, term, trunc, seats = env.step(env.sample_actions())
        total += term.sum()
        wins += (rew == 1).sum()
    assert total > 20 and 0 < wins < total
    assert (env.skipped == 0).all()


def test_truncation_at_the_move_cap():
    env = VectorEnv(4, max_moves=5, threads=1)
    env.reset(seed=2)
    for k in range(1, 11):
        obs, rew, term, trunc, _ = env.step(env.sample_actions())
        assert trunc.all() == (k % 5 == 0) and (rew[trunc] == 0).all()
    assert (env.episodes == 2).all()


@pytest.mark.parametrize("opponent", [None, "greedy"])
def test_an_ended_episodes_last_observation_is_kept(opponent):
    # truncated (the move cap), ended, or lost by an illegal action: the step returns
    # the next episode's first observation, and final_observations the position the
    # episode stopped in, from the view final_to_move says (the agent's against an
    # opponent); the rows of envs that ended nothing keep what they held
    env = VectorEnv(8, max_moves=25, threads=1, opponent=opponent)
    env.reset(seed=3)
    assert (env.final_to_move == -1).all()
    seen = {"trunc": 0, "term": 0, "illegal": 0, "by agent": 0}
    for k in range(150):
        games = [env.game(i) for i in range(env.num_envs)]
        actions = env.sample_actions()
        if k == 4:
            actions[2] = int(np.flatnonzero(~env.action_masks()[2])[0])
        kept = env.final_observations
        obs, rew, term, trunc, to_move = env.step(actions)
        final, whose = env.final_observations, env.final_to_move
        for i in range(env.num_envs):
            if not (term[i] or trunc[i]):
                assert final[i].tobytes() == kept[i].tobytes()
                continue
            actor = games[i].to_move
            if env.illegal[i]:
                seen["illegal"] += 1
                stopped = games[i]                       # (left as it was)
            elif opponent is None:
                stopped = games[i]
                stopped.play(move_of(actions[i]))
            else:                                        # (the opponent moved after)
                stopped = None
            if stopped is not None:
                # self-play: the actor's view if it ended, the decider's if truncated
                p = actor if opponent is not None or term[i] else stopped.to_move
                assert whose[i] == p
                assert final[i].tobytes() == stopped.observation(p).to_array().tobytes()
            else:
                assert whose[i] == games[i].to_move          # the agent's view
                after = games[i]
                after.play(move_of(actions[i]))
                if after.is_over:                            # (the agent's move ended it)
                    seen["by agent"] += 1
                    assert final[i].tobytes() == \
                        after.observation(int(whose[i])).to_array().tobytes()
            assert final[i].tobytes() != obs[i].tobytes()
            seen["trunc" if trunc[i] else "term"] += 1
    assert seen["trunc"] > 20 and seen["term"] > 10 and seen["illegal"] == 1
    assert opponent is None or seen["by agent"] > 5


def test_an_illegal_action_loses_and_bad_input_changes_nothing():
    env = VectorEnv(3, threads=1)
    env.reset(seed=5)
    acts = env.sample_actions()
    mask = env.action_masks()
    illegal = int(np.flatnonzero(~mask[1])[0])
    before = env.game(0).observation(0).to_array()
    for bad in ([0, 1], [[0, 1, 2]], [0.5, 1, 2], [0, -1, 0], [0, ACTION_SPACE, 0]):
        with pytest.raises(ValueError):
            env.step(np.array(bad))
    assert env.game(0).observation(0).to_array().tobytes() == before.tobytes()
    acts[1] = illegal
    obs, rew, term, trunc, to_move = env.step(acts)
    assert list(env.illegal) == [False, True, False]
    assert term[1] and rew[1] == -1 and env.episodes[1] == 1 and to_move[1] == 0


def test_buffers_are_fresh_or_read_only():
    env = VectorEnv(2, threads=1)
    a, _ = env.reset(seed=1)
    b = env.step(env.sample_actions())[0]
    assert not np.shares_memory(a, b)
    fast = VectorEnv(2, threads=1, copy=False)
    obs, _ = fast.reset(seed=1)
    with pytest.raises(ValueError):
        obs[0, 0] = 1.0
    with pytest.raises(ValueError):
        fast.action_masks()[0, 0] = True


def test_arguments_are_checked():
    for kw in (dict(num_envs=0), dict(num_envs=2, threads=0), dict(num_envs=2, seat=2),
               dict(num_envs=2, opponent="nobody"), dict(num_envs=2, max_moves=0),
               dict(num_envs=2, max_moves=2**31), dict(num_envs=2, seat=1)):
        with pytest.raises(ValueError):
            VectorEnv(**kw)
    with pytest.raises(RuntimeError):
        VectorEnv(2).step([0, 0])                  # no reset yet
    with pytest.raises(ValueError):
        VectorEnv(2).game(2)
    # Before the first reset there is no game to look at (game(i) was an empty table,
    # legal_actions(i) [] and sample_actions() -1s).
    for call in (lambda e: e.game(0), lambda e: e.legal_actions(1),
                 lambda e: e.sample_actions()):
        with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
            call(VectorEnv(2))


def test_degenerate_goals_are_reported_not_looped_on():
    # With a goal of 1 the opponent, moving first, wins with any point card.
    rules = cuttle.Rules(king_goals=(1, 1, 1, 1, 1))
    env = VectorEnv(2, rules=rules, opponent="greedy", seat=1, threads=1)
    with pytest.raises(RuntimeError, match="before the agent"):
        env.reset(seed=3)


def test_ctrl_c_stops_a_long_step():
    env = VectorEnv(2, opponent="ismcts:1000000", seat=1, threads=1)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            env.reset(seed=1)
    finally:
        timer.cancel()
    for call in (lambda: env.step([0, 0]), env.action_masks):     # half-stepped envs
        with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
            call()


def test_action_masks_need_envs_to_step_as_step_does():
    # action_masks() before reset() returned zeros, where step() asked for a reset.
    # Every call of an episode says the same before the first reset (step and masks
    # spoke of a Ctrl-C, which a fresh env never had).
    env = VectorEnv(3, threads=1)
    for what, call in (("step()", lambda: env.step([0, 0, 0])),
                       ("action_masks()", env.action_masks),
                       ("sample_actions()", env.sample_actions),
                       ("inspecting env 0", lambda: env.legal_actions(0))):
        with pytest.raises(RuntimeError) as e:
            call()
        assert str(e.value) == f"call reset() before {what}: no env has been dealt yet"
    env.reset(seed=1)
    assert env.action_masks().any(axis=1).all()
    env.close()
    # (sample_actions and legal_actions went on answering after close())
    for call in (lambda: env.step([0, 0, 0]), env.action_masks, env.sample_actions,
                 lambda: env.legal_actions(0)):
        with pytest.raises(RuntimeError, match=r"^the env is closed: reset\(\) starts it "
                                               r"again, with a new episode in every env"):
            call()
    assert env.game(0).ply == 0                     # (the position can still be read)
    env.reset(seed=1)
    assert env.action_masks().any(axis=1).all()
    assert env.legal_actions(0) == list(np.flatnonzero(env.action_masks()[0]))
    env.step(env.sample_actions())


def test_the_thread_tuner_uses_the_fastest_size_and_rarely_retries_the_others():
    tuner = _ThreadTuner(4)
    assert tuner.sizes == [1, 2, 4]
    cost = {1: 1.0, 2: 0.6, 4: 30.0}              # 4 threads stall on a busy machine
    picks = []
    for _ in range(2000):
        s = tuner.pick()
        picks.append(s)
        tuner.record(s, cost[s])
    assert picks[:3] == [1, 2, 4]
    assert picks.count(2) > 1900
    spent = sum(cost[s] for s in picks)
    assert spent < 1.07 * 2000 * cost[2]          # retrying the others costs a few %
    cost[4] = 0.1                                  # the machine became quiet
    for _ in range(2000):
        s = tuner.pick()
        tuner.record(s, cost[s])
    assert tuner.pick() == 4


def agent_moves_and_seen(opponent, steps, threads=1, seed=5):
    """Play `steps` random steps of 4 envs against `opponent`; per step, the agent's moves
    this episode in env 0 (codes) and what env 0's opponent kept at its last search."""
    env = VectorEnv(4, opponent=opponent, threads=threads)
    env.reset(seed=seed)
    episode, moves, trace = 0, [], []
    for _ in range(steps):
        acts = env.sample_actions()
        moves.append(move_of(int(acts[0])).code)
        out = env.step(acts)
        if env.episodes[0] != episode:
            episode, moves = env.episodes[0], []
        trace.append((list(moves), env._core._opponent_seen(0),
                      [np.asarray(x).tobytes() for x in out]))
    return trace


def test_an_opponent_that_reads_the_history_sees_the_agents_moves():
    # ismcts-infer keeps its tree through the episode and follows every move, the
    # agent's included: what it kept at its last search is always a run of the agent's
    # moves this episode, and often all of them up to its last search.
    trace = agent_moves_and_seen("ismcts-infer:30", 60)
    whole = 0
    for moves, seen, _ in trace:
        assert any(moves[j:j + len(seen)] == seen for j in range(len(moves) - len(seen) + 1))
        whole += len(seen) >= 2 and moves[-len(seen):] == seen
    assert whole >= 10
    assert agent_moves_and_seen("ismcts:30", 1)[0][1] is None      # (no kept tree)


def test_an_opponent_that_reads_the_history_is_reproducible_and_does_read_it():
    played = [out for *_, out in agent_moves_and_seen("ismcts-infer:30", 40)]
    assert played == [out for *_, out in agent_moves_and_seen("ismcts-infer:30", 40, 2)]
    before = _search._search_config(2)
    try:
        _search._search_config(2, infer=0)         # the same kept trees, no inference
        blind = [out for *_, out in agent_moves_and_seen("ismcts-infer:30", 40)]
    finally:
        _search._search_config(2, **before)
    assert blind != played


def test_close_frees_the_kept_trees_and_asks_for_a_reset():
    env = VectorEnv(2, opponent="ismcts-infer:20", seat=0, threads=1)
    env.reset(seed=3)
    for _ in range(6):
        env.step(env.sample_actions())
    assert any(env._core._opponent_seen(i) for i in range(2))
    env.close()
    assert not any(env._core._opponent_seen(i) for i in range(2))
    # (it blamed "a step interrupted by Ctrl-C", which a closed env never had)
    with pytest.raises(RuntimeError, match=r"^the env is closed: reset\(\) starts it again"):
        env.step(env.sample_actions())
    env.close()                                     # (twice: still closed, no error)
    env.reset(seed=3)
    env.step(env.sample_actions())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs RLIMIT_AS")
@pytest.mark.parametrize("search", ["ismcts", "ismcts-infer"])    # (fresh trees, kept ones)
def test_an_opponent_search_out_of_memory_raises_instead_of_playing_on(search):
    # Address space capped a little above what the process holds: the opponent's tree
    # of a million nodes does not fit.  The step says so (it used to apply the failed
    # search's code as a move), the envs then ask for a reset, and every game is a
    # sound position (a pickled Game is validated when it is loaded).
    p = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import pickle, resource
        from cuttle.rl import VectorEnv
        env = VectorEnv(4, opponent="SEARCH:1000000", seat=0, threads=1)
        env.reset(seed=1)                        # the agent moves first: no search yet
        with open("/proc/self/status") as f:
            vm = next(int(l.split()[1]) for l in f if l.startswith("VmSize")) * 1024
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (vm + (8 << 20), hard))
        try:
            env.step(env.sample_actions())
            print("no error")
        except MemoryError as e:
            print("MemoryError:", e)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        try:
            env.step(env.sample_actions())
        except RuntimeError as e:
            print("then:", e)
        for i in range(4):
            g = env.game(i)
            assert pickle.loads(pickle.dumps(g)) == g and not g.is_over, i
        env.reset(seed=2)
        print("reset:", env.legal_actions(0) != [])
    """).replace("SEARCH", search)], capture_output=True, text=True, timeout=120)
    out = p.stdout.splitlines()
    assert out[0] == "MemoryError: no memory for the opponent's search tree", p.stdout + p.stderr
    assert out[1].startswith("then: call reset() first") and out[2] == "reset: True", p.stdout


def test_a_python_opponent_is_refused_naming_where_one_plays():
    """VectorEnv(n, opponent=f) said only that a policy is a name."""
    with pytest.raises(ValueError, match=r"VectorEnv's opponent plays inside the native "
                                         r"step, over all cores without Python: .*a Python "
                                         r"opponent plays in cuttle.rl.GymEnv\(opponent="):
        VectorEnv(4, opponent=lambda game: game.legal_moves[0])
