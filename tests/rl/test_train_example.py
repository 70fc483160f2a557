"""examples/train_vector_env.py runs briefly, its options checked, and evaluates exactly
the games asked for: each env's first episodes, its share."""

import importlib.util
import pathlib

import numpy as np
import pytest

from cuttle.rl import VectorEnv

PATH = pathlib.Path(__file__).resolve().parents[2] / "examples" / "train_vector_env.py"


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("train_vector_env", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def first_episodes(policy, n_envs, quota, seed):
    """Each env's first quota[i] results (1 a win), played apart."""
    env = VectorEnv(n_envs, opponent="random", seat=None, threads=1)
    obs, _ = env.reset(seed)
    results = [[] for _ in range(n_envs)]
    while any(len(r) < q for r, q in zip(results, quota)):
        obs, rew, term, trunc, _ = env.step(policy.act(obs, env.action_masks(), None,
                                                       greedy=True))
        for i in np.flatnonzero(term | trunc):
            results[i].append(int(rew[i] > 0))
    return sum(sum(r[:q]) for r, q in zip(results, quota))


@pytest.mark.parametrize("n_envs, games", [(8, 20), (8, 8), (32, 5), (7, 23), (64, 50)])
def test_the_evaluation_plays_exactly_the_games_asked_for(example, n_envs, games):
    # --eval-games 1000 evaluated 1,087 games: episodes were counted as they ended,
    # until there were enough, short games first.
    rng = np.random.default_rng(1)
    policy = example.Policy(rng, 16)
    for k in ("E", "c"):                        # (a fresh policy always draws, and loses)
        policy.p[k] = rng.standard_normal(policy.p[k].shape).astype(np.float32)
    wins, played = example.evaluate(policy, n_envs, games, 3, None, threads=1)
    assert played == games
    share = [games // min(n_envs, games) + (i < games % min(n_envs, games))
             for i in range(min(n_envs, games))]
    assert sum(share) == games
    assert 0 < wins == first_episodes(policy, min(n_envs, games), share, 3)


def final_line(example, capsys, *args):
    example.main(["--updates", "2", "--envs", "16", "--steps", "4", "--hidden", "8",
                  "--eval-games", "30", *args])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("16 envs vs random")
    return out[-1]


def test_a_brief_run_trains_and_evaluates_and_threads_change_nothing(example, capsys):
    line = final_line(example, capsys, "--threads", "1")
    assert line.startswith("final greedy (argmax) policy vs random: ") and "/30 = " in line
    assert final_line(example, capsys, "--threads", "2") == line
    assert final_line(example, capsys) == line           # (the default: VectorEnv's choice)


@pytest.mark.parametrize("option", ["--threads", "--eval-games", "--updates", "--envs"])
def test_counts_below_one_are_refused(example, capsys, option):
    with pytest.raises(SystemExit) as e:
        example.main([option, "0"])
    assert e.value.code == 2
    assert f"argument {option}: must be at least 1, not 0" in capsys.readouterr().err
