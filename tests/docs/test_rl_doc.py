"""docs/rl.md's recipe for Gymnasium's vector API runs as the page says: with same-step
autoreset every env has a legal action at every step; with next-step autoreset an env
that just ended has an all-False mask until its next step, which the page's fallback
action covers."""

import pathlib
import re

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the rl extra is not installed (pip install -e '.[rl]')")

from cuttle.rl import GymEnv  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
TEXT = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
SAME_STEP = ('vector_kwargs={\n                              "autoreset_mode": '
             'gymnasium.vector.AutoresetMode.SAME_STEP}')
STRICT = "actions = [rng.choice(np.flatnonzero(m)) for m in masks]"


def recipe():
    """The page's make_vec block."""
    block = next(b for b in re.findall(r"```python\n(.*?)```", TEXT, flags=re.S)
                 if "make_vec" in b)
    assert SAME_STEP in block and STRICT in block
    return block


def fallback():
    """The action list the page gives for next-step autoreset."""
    found = re.findall(r"`(\[rng\.choice\(np\.flatnonzero\(m\)\) if m\.any\(\) else 0 "
                       r"for m in masks\])`", TEXT)
    assert len(found) == 1
    return found[0]


@pytest.fixture
def resets(monkeypatch):
    """Every GymEnv reset, by env."""
    seen = []
    real = GymEnv.reset

    def counted(self, *args, **kwargs):
        seen.append(id(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(GymEnv, "reset", counted)
    return seen


def run(code):
    exec(code, {})


@pytest.mark.skipif(not hasattr(gymnasium.vector, "AutoresetMode"),
                    reason="same-step autoreset needs Gymnasium 1.1 or later")
def test_the_make_vec_recipe_runs_through_many_episodes(resets):
    # The page's recipe (default next-step autoreset) failed at the first step after an
    # episode ended: that env's mask was all False.
    run(recipe())
    assert len(set(resets)) == 8
    assert all(resets.count(env) >= 3 for env in set(resets))   # (each env's ends crossed)


def test_under_next_step_autoreset_the_strict_recipe_fails_and_the_fallback_runs(resets):
    code = recipe().replace(SAME_STEP, "")
    with pytest.raises(ValueError):                 # rng.choice of no legal action
        run(code)
    resets.clear()
    run(code.replace(STRICT, "actions = " + fallback()))
    assert len(set(resets)) == 8 and all(resets.count(env) >= 3 for env in set(resets))


def test_an_env_has_no_legal_action_exactly_in_the_step_after_its_episode_ended():
    envs = gymnasium.make_vec("cuttle/Cuttle-v0", num_envs=4, vectorization_mode="sync",
                              opponent="random", seat=None)
    envs.reset(seed=2)
    rng = np.random.default_rng(2)
    ended = np.zeros(4, bool)
    gaps = 0
    for _ in range(200):
        masks = np.stack(envs.call("action_masks"))
        assert np.array_equal(~masks.any(axis=1), ended)
        gaps += ended.sum()
        actions = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks]
        _, rewards, terminated, truncated, _ = envs.step(actions)
        assert not rewards[ended].any()             # the reset step: no reward
        ended = terminated | truncated
    assert gaps >= 4
    envs.close()
