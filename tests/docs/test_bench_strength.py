"""benchmarks/bench_strength.py, the strength ladder: its options checked before the
first game, its intervals, a partial ladder, and bots of one's own on it."""

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "benchmarks" / "bench_strength.py")


def ladder(*args, cwd=None):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          cwd=cwd)


@pytest.mark.parametrize("args, said", [
    (["--games", "0"], "argument --games: the count must be at least 1"),
    (["--anchor-games", "0"], "argument --anchor-games: the count must be at least 1"),
    (["--seed", "-1"], "argument --seed: expected a whole number"),
    (["--rules", "clasic"], "--rules: unknown preset 'clasic'; valid presets: classic"),
    (["--bootstrap", "0"], "argument --bootstrap: the count must be at least 1"),
    (["--search-budget", "0"], "argument --search-budget: the count must be at least 1"),
    (["--search-budget", "-5"], "argument --search-budget: the count must be at least 1"),
    (["--policies", "random,greedy,greedy"], "--policies names 'greedy' more than once"),
    (["--policies", "random"], "a ladder needs at least two policies, not 1"),
    (["--json", "/nonexistent/x.json"], "--json: cannot write '/nonexistent/x.json'"),
    (["--plot", "/nonexistent/x.png"], "--plot: cannot write '/nonexistent/x.png'"),
    (["--plot", "ladder.foo"], "--plot: cannot tell the image format of 'ladder.foo'"),
    (["--json", "a.json", "--plot", "a.json"], "--json and --plot name the same file"),
])
def test_a_bad_option_is_a_one_line_usage_error_before_any_game(args, said, tmp_path):
    # Each played the whole ladder, then failed (the results lost), or printed nan
    # ratings with status 0, or ended in a traceback.
    if "--plot" in args:
        pytest.importorskip("matplotlib")
    run = ladder("--policies", "random,greedy", "--games", "10", *args, cwd=tmp_path) \
        if "--policies" not in args else ladder("--games", "10", *args, cwd=tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("bench_strength.py: error: ") and said in last, last
    assert run.stdout == "" and not list(tmp_path.iterdir())      # no game, no file


def strength_module(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import bench_strength
    return bench_strength


def test_a_sweep_still_has_an_interval_and_the_redraw_is_the_fits_rates(monkeypatch):
    # A pairing won 10 of 10 was redrawn from its observed rates (100%), so its
    # interval had zero width: greedy 529 [529, 529].
    import numpy as np
    ladder = strength_module(monkeypatch)
    names, results = ["random", "greedy"], {("random", "greedy"): (0, 10, 0, 10)}
    boot = ladder.bootstrap(names, results, 200, np.random.default_rng(1))
    lo, hi = np.percentile(boot[:, 1], [2.5, 97.5])
    assert hi - lo > 100
    # the fit and the redraw share one smoothing: (w + 0.5) / (n + 1)
    sa, sb, sd = ladder.smoothed(0, 10, 0)
    assert (sa, sb, sd) == (0.5, 10.5, 0)
    rating = ladder.fit_ratings(names, results)[1]
    assert abs(rating - 400 * np.log10(10.5 / 0.5)) < 1e-6
    with pytest.raises(TypeError, match="numpy Generator"):
        ladder.bootstrap(names, results, 2, 7)
