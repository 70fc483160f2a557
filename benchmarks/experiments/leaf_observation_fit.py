"""How much a linear model on the whole observation adds to the search's fitted leaf value.

    python benchmarks/leaf_data.py --bot ismcts-infer:1000 --games 3000 --seed 556 --out leaf.npz
    python benchmarks/experiments/leaf_observation_fit.py leaf.npz

Each position of the data is seen as the search's leaf value sees it, from the view of
the player not deciding.  A logistic regression (L2 penalty on the observation's
weights, scipy's L-BFGS) on that player's observation vector (`Game.observation_array`,
OBSERVATION_SIZE floats; 762 when docs/strength.md's figures were made) and the logit
of the fitted leaf value (ismcts-infer's, LEAF_FITTED) predicts that player's result (a
draw 1/2).  The first 75% of the games (by index) train, the rest test.  If the
observation held much that the leaf value misses, the test log-loss would fall well
below the leaf value's own; docs/strength.md reports that it does not.
Needs scipy (not a dependency of cuttle).
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

import cuttle  # noqa: E402
from cuttle import _weights  # noqa: E402
from cuttle._decide import leaf_values  # noqa: E402
from cuttle.stats import ClusteredMean  # noqa: E402


def clustered(values, game):
    acc = ClusteredMean()
    starts = np.flatnonzero(np.r_[True, game[1:] != game[:-1]])
    for total, count in zip(np.add.reduceat(values, starts), np.diff(np.r_[starts, len(game)])):
        acc.add_group(float(total), int(count))
    return acc.estimate()


def main(argv=None):
    from scipy.optimize import minimize
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", help="an npz file of benchmarks/leaf_data.py")
    ap.add_argument("--penalty", type=float, default=1e-4, help="L2 weight (default 1e-4)")
    args = ap.parse_args(argv)
    d = np.load(args.data)
    states, game, result = d["states"], d["game"], d["result"]
    g = cuttle.Game(str(d["rules"]), seed=0)
    p0 = np.clip(leaf_values(g, np.ascontiguousarray(states), _weights.LEAF_SCALE,
                             _weights.LEAF_SETS.index("fitted")), 1e-6, 1 - 1e-6)
    n_obs = len(g.observation_array(0))
    X = np.zeros((len(states), n_obs + 2))
    y = np.zeros(len(states))
    for i, row in enumerate(states):
        g._core_set_state(row.tobytes(), b"", b"")
        me = 1 - g.to_move                       # the leaf value's view
        X[i, :n_obs] = g.observation_array(me)
        p = p0[i] if me == 0 else 1 - p0[i]
        X[i, n_obs] = np.log(p / (1 - p))
        X[i, n_obs + 1] = 1.0
        y[i] = result[game[i]] if me == 0 else 1 - result[game[i]]
    X = X[:, np.r_[X[:, :n_obs].std(0) > 0, True, True]]     # constant floats dropped
    train = game < int(round(len(result) * 0.75))
    test = ~train

    def fit(cols, lam):
        A, b = X[train][:, cols], y[train]

        def f(w):
            q = np.clip(1 / (1 + np.exp(-(A @ w))), 1e-9, 1 - 1e-9)
            grad = A.T @ (q - b) / len(b)
            grad[:-2] += 2 * lam * w[:-2]
            return (-(b * np.log(q) + (1 - b) * np.log(1 - q)).mean()
                    + lam * (w[:-2] ** 2).sum()), grad
        w0 = np.zeros(len(cols))
        w0[-2] = 1.0
        return minimize(f, w0, jac=True, method="L-BFGS-B", options={"maxiter": 1000}).x

    def losses(cols, w):
        q = np.clip(1 / (1 + np.exp(-(X[test][:, cols] @ w))), 1e-9, 1 - 1e-9)
        return -(y[test] * np.log(q) + (1 - y[test]) * np.log(1 - q))

    k = X.shape[1]
    leaf = losses([k - 2, k - 1], np.array([1.0, 0.0]))
    recal = losses([k - 2, k - 1], fit([k - 2, k - 1], 0.0))
    full = losses(list(range(k)), fit(list(range(k)), args.penalty))
    print(f"{args.data}: {len(result)} games of {d['bot']}, {train.sum()} training and "
          f"{test.sum()} test positions; {k - 2} observation floats that vary")
    print("  test log-loss per position (95% intervals, the games as units)")
    for label, v in (("the fitted leaf value", leaf), ("the same, recalibrated", recal),
                     ("the leaf value and the observation", full)):
        m, lo, hi = clustered(v, game[test])
        print(f"    {label:36s} {m:.4f} [{lo:.4f}, {hi:.4f}]")
    m, lo, hi = clustered(leaf - full, game[test])
    print(f"    gain of the observation (paired)     {m:+.4f} [{lo:+.4f}, {hi:+.4f}]")


if __name__ == "__main__":
    main()
