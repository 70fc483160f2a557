"""The fit behind the learned model of the opponent (benchmarks/fit_opponent_model.py):
Newton's method on a conditional logit recovers known weights from simulated choices."""

import importlib.util
import pathlib

import numpy as np
import pytest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "benchmarks" / "fit_opponent_model.py"


@pytest.fixture(scope="module")
def fitting():
    """The script as a module, importable by name (its worker processes unpickle `play`
    from it; it imports bench_inference's options from its folder)."""
    import sys
    sys.path.insert(0, str(SCRIPT.parent))
    spec = importlib.util.spec_from_file_location("fit_opponent_model", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["fit_opponent_model"] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("fit_opponent_model", None)
        sys.path.remove(str(SCRIPT.parent))


def simulated(weights, decisions, rng, eps=0.0):
    """Decisions whose choices follow the logit with `weights` (mixed with a uniform
    pick, share eps), in the script's form: (features, index played, expert probs)."""
    out = []
    for _ in range(decisions):
        n = int(rng.integers(2, 9))
        x = rng.normal(size=(n, len(weights)))
        z = x @ weights
        p = np.exp(z - z.max())
        p = (1 - eps) * p / p.sum() + eps / n
        out.append((x, int(rng.choice(n, p=p)), np.full(n, 1.0 / n)))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_the_fit_recovers_the_weights_that_made_the_choices(fitting, seed):
    rng = np.random.default_rng(seed)
    weights = np.array([1.5, -0.8, 0.0, 0.4])
    data = fitting.Data(simulated(weights, 6000, rng))
    w, eps = fitting.fit(data)
    assert np.abs(w - weights).max() < 0.12
    assert eps == min(fitting.EPS_GRID)            # (no uniform share in these choices)
    # The fitted model explains the choices better than a uniform pick, and as well as
    # the true weights do.
    fitted = data.log_likelihood(data.probabilities(w), eps).mean()
    true = data.log_likelihood(data.probabilities(weights), 0.0).mean()
    assert fitted > -np.log(data.sizes).mean() + 0.3
    assert fitted == pytest.approx(true, abs=0.01)


def test_a_uniform_share_in_the_choices_is_seen(fitting):
    # eps is chosen after the weights (which flatten to absorb part of the uniform
    # share), so it comes out below the true 0.3, but above the grid's least.
    rng = np.random.default_rng(3)
    data = fitting.Data(simulated(np.array([3.0, -2.0]), 8000, rng, eps=0.3))
    w, eps = fitting.fit(data)
    assert eps > min(fitting.EPS_GRID)
    assert w[0] > 0 > w[1]


def test_a_few_games_fit_and_print_the_weights_cuttle_holds(fitting, capsys):
    from cuttle._infer import FEATURE_NAMES
    fitting.main(["--games", "2", "--test-games", "1", "--workers", "1",
                  "--bot", "ismcts:30"])
    out = capsys.readouterr().out
    block = out[out.index("LEARNED_WEIGHTS = ("):out.index("LEARNED_EPS")]
    names = [line.split("# ")[1] for line in block.splitlines()[1:-1]]
    assert names == list(FEATURE_NAMES)
    assert "learned over expert (paired)" in out
    assert "learned over held model (paired)" in out
    assert "held model (infer=2)" in out


def test_features_can_be_left_out_to_measure_what_they_carry(fitting, capsys):
    fitting.main(["--games", "2", "--test-games", "1", "--workers", "1",
                  "--bot", "ismcts:30", "--drop", "value, near top"])
    out = capsys.readouterr().out
    assert "the learned model without value, near top" in out
    assert "    +0.0000,    # value\n" in out and "    +0.0000,    # near top\n" in out
    with pytest.raises(SystemExit):
        fitting.main(["--games", "2", "--drop", "valeu"])
    assert "no feature 'valeu'" in capsys.readouterr().err


def test_the_test_figures_take_the_games_as_units(fitting):
    # two games' decisions, alike within each game: the interval is the games' spread
    # (ClusteredMean over the games), not the 6 decisions' as if they were independent
    from cuttle.stats import ClusteredMean, mean_interval_from_moments
    values = np.array([1.0, 1.0, 1.0, 3.0, 3.0, 3.0])
    e = fitting.interval(values, np.array([3, 3]))
    acc = ClusteredMean()
    acc.add([1.0, 1.0, 1.0])
    acc.add([3.0, 3.0, 3.0])
    assert tuple(e) == pytest.approx(tuple(acc.estimate()))
    flat = mean_interval_from_moments(6, values.sum(), (values * values).sum())
    assert e.value == 2.0 and e.high - e.low > 2 * (flat.high - flat.low)
