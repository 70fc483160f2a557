"""The strength ladder's ratings (bench_strength.py): a Bradley-Terry fit on the Elo
scale, anchored at the anchor's 0, and its parametric bootstrap.

The bootstrap refits every resample at once, as one array (`fit_many`): each resample
runs the very iteration a single fit runs and stops where that fit would stop, so its
ratings are the ones a fit of that resample alone gives, bit for bit, in a fraction of
the time (500 resamples of a six-policy ladder took seconds one by one, and ran after a
Ctrl-C).
"""

import numpy as np

ANCHOR = "random"
PRIOR = 0.5                      # virtual wins each way of every pairing
TOL = 1e-10                      # a fit has converged when no log rating moves more


def smoothed(wa, wb, d, prior=PRIOR):
    """A pairing's (wins of a, wins of b, draws) with `prior` virtual wins each way: the
    counts the fit rates it on (its rates: each over their sum, n + 2 prior), and the
    bootstrap redraws it from, so that a sweep (10 of 10) still varies."""
    return wa + prior, wb + prior, d


def win_matrices(names, counts, prior=PRIOR):
    """(R, k, k) wins of policy i over policy j (draws as halves, `smoothed`) of R
    versions of the pairings: `counts` {(a, b): (R,) arrays or numbers of (wins a,
    wins b, draws)}."""
    idx = {x: i for i, x in enumerate(names)}
    reps = max([np.size(c) for v in counts.values() for c in v] or [1])
    w = np.zeros((reps, len(names), len(names)))
    for (a, b), (wa, wb, d) in counts.items():
        i, j = idx[a], idx[b]
        sa, sb, sd = smoothed(np.asarray(wa), np.asarray(wb), np.asarray(d), prior)
        w[:, i, j] += sa + sd / 2
        w[:, j, i] += sb + sd / 2
    return w


def fit_many(w, anchor, iters=2000):
    """Elo ratings, a (R, k) array, of R ladders' win matrices `w` (R, k, k) by
    Bradley-Terry maximum likelihood (Hunter's MM iteration), each rescaled at every
    step so that policy `anchor` (an index, or None: the mean) is 1, each stopped at the
    first step that moves no log rating more than TOL."""
    games = w + np.swapaxes(w, 1, 2)
    wins = w.sum(axis=2)
    gamma = np.ones(w.shape[:2])
    active = np.arange(len(w))           # the fits still running
    g, logs, n, v = gamma, np.log(gamma), games, wins    # (the running fits')
    for _ in range(iters):
        new = v / (n / (g[:, :, None] + g[:, None, :])).sum(axis=2)
        new /= new[:, anchor, None] if anchor is not None else \
            new.mean(axis=1, keepdims=True)
        gamma[active] = new
        new_logs = np.log(new)
        going = np.abs(new_logs - logs).max(axis=1) >= TOL
        g, logs = new, new_logs
        if not going.all():
            active, g, logs, n, v = (x[going] for x in (active, g, logs, n, v))
            if not len(active):
                break
    return 400 * np.log10(gamma)


def fit_ratings(names, results, prior=PRIOR, iters=2000):
    """Elo ratings (anchor = 0) from {(a, b): (wins a, wins b, draws, n)} by Bradley-Terry
    maximum likelihood, on the `smoothed` counts."""
    w = win_matrices(names, {k: v[:3] for k, v in results.items()}, prior)
    return fit_many(w, anchor_index(names), iters)[0]


def anchor_index(names):
    return names.index(ANCHOR) if ANCHOR in names else None


def bootstrap(names, results, reps, rng):
    """Ratings refitted on `reps` parametric resamples of every pairing: a (reps,
    len(names)) array.  Each pairing's n games are redrawn from the rates the fit rates
    it on (its `smoothed` counts over their sum), not its observed rates, which never
    vary for a pairing won every time.  The draws are made resample by resample, pairing
    by pairing, as they always were, so a seed gives the same intervals.  `rng`: a
    numpy Generator (np.random.default_rng(seed)); TypeError for anything else."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"bootstrap needs a numpy Generator (np.random.default_rng(seed)), "
                        f"not {rng!r}")
    rates = []
    for wa, wb, d, n in results.values():
        counts = np.array(smoothed(wa, wb, d), float)
        rates.append((n, counts / counts.sum()))
    draws = np.array([[rng.multinomial(n, p) for n, p in rates] for _ in range(reps)],
                     dtype=np.int64).reshape(reps, len(rates), 3)
    fake = {key: tuple(draws[:, m, c] for c in range(3)) for m, key in enumerate(results)}
    return fit_many(win_matrices(names, fake), anchor_index(names))
