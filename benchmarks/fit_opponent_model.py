"""Fit the inference's learned model of the opponent on a search's own games.

    python benchmarks/fit_opponent_model.py                    # 600 + 200 games, ismcts:1000
    python benchmarks/fit_opponent_model.py --games 1500 --test-games 400 --workers 2

The inferring search (cuttle/_infer.pyx) weighs the opponent's hidden hands by how likely
its moves are under a model of its play.  The learned model (`infer=2`) is a conditional
logit: each legal move gets a logit w . f, f its features (cuttle._decide.move_features:
the expert's value and top choice, the verb, the one-off or royal played, the ranks of
the cards), and the mix with a uniform choice (share eps).  Here two copies of `--bot`
play each other; every decision with a choice, with the mover's features from its own
view, is a training example (games 0 .. --games - 1 of the seed) or a test one (the
--test-games after; after Ctrl-C, the last quarter of the games finished).  The weights
maximise the training decisions' likelihood (Newton's method, a small ridge penalty);
eps is chosen on the training decisions from a grid; --drop leaves features out.
Reported on the test decisions, each with a 95% interval that takes the games as the
independent units (cuttle.stats.ClusteredMean: one game's decisions are alike): the
log-likelihood per
decision of the learned model, of the model cuttle holds (LEARNED_WEIGHTS: is a refit,
e.g. on other rules, worth a new model?), of the expert's model (infer=1) and of a
uniform pick, and how often each model's first choice is the move played.  The weights
are printed as the LEARNED_WEIGHTS and LEARNED_EPS that cuttle/_infer.pyx holds.
Ctrl-C while the games play fits on the games finished.  The decisions are held in
memory for the fit: about 200 MB per 1,000 games (peak resident size).
"""

import multiprocessing
import os
import sys

import numpy as np

import bench_inference          # (its options; the benchmarks folder is on the path)

HERE = os.path.dirname(os.path.abspath(__file__))
RIDGE = 1e-3                    # the penalty per training decision on |w|^2 / 2
EPS_GRID = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3)


def play(job):
    """One game of bot against itself: its decisions with a choice, as (features of the
    legal moves, the index of the move played, the expert model's probabilities)."""
    rules, bot, seed = job
    sys.path.insert(0, os.path.join(HERE, ".."))
    import cuttle
    from cuttle._decide import move_features, move_likelihood
    from cuttle.policies import Bot
    g = cuttle.Game(rules, seed=seed)
    bots = [Bot(bot, seed=seed * 2 + k + 1) for k in range(2)]
    out = []
    while not g.is_over:
        move = bots[g.to_move].choose(g)
        feats = move_features(g)
        if len(feats) > 1:
            codes = [c for c, _ in feats]
            x = np.array([f for _, f in feats], dtype=np.float64)
            expert = np.array([move_likelihood(g, c) for c in codes])
            out.append((x, codes.index(move.code), expert))
        g.play(move)
    return out


def collect(args, first, count):
    """The decisions of games first .. first + count - 1, one list per game, and whether
    Ctrl-C stopped the games (then the games finished before it)."""
    jobs = [(args.rules, args.bot, args.seed * 1_000_003 + i) for i in range(first, first + count)]
    games = []
    with multiprocessing.Pool(args.workers) as pool:
        try:
            for game in pool.imap(play, jobs):
                games.append(game)
        except KeyboardInterrupt:
            pool.terminate()
            return games, True
    return games, False


class Data:
    """Decisions as one matrix of the legal moves' features, in blocks per decision."""

    def __init__(self, decisions):
        self.x = np.concatenate([x for x, _, _ in decisions])
        sizes = np.array([len(x) for x, _, _ in decisions])
        self.starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        self.block = np.repeat(np.arange(len(sizes)), sizes)
        self.played = self.starts + np.array([j for _, j, _ in decisions])
        self.sizes = sizes
        self.expert = np.concatenate([p for _, _, p in decisions])

    def probabilities(self, w):
        z = self.x @ w
        z = z - np.maximum.reduceat(z, self.starts)[self.block]
        p = np.exp(z)
        return p / np.add.reduceat(p, self.starts)[self.block]

    def log_likelihood(self, p, eps):
        """Per decision: log of the mix of p with a uniform pick, at the move played."""
        return np.log((1 - eps) * p[self.played] + eps / self.sizes)

    def top_hits(self, p):
        best = np.maximum.reduceat(p, self.starts)
        return (p[self.played] >= best - 1e-12).astype(float)


def fit(data, iterations=50):
    n, k = len(data.sizes), data.x.shape[1]
    w = np.zeros(k)
    for _ in range(iterations):
        p = data.probabilities(w)
        px = data.x * p[:, None]
        mean = np.add.reduceat(px, data.starts)              # per decision: E[f]
        grad = data.x[data.played].sum(0) - mean.sum(0) - RIDGE * n * w
        hess = px.T @ data.x - mean.T @ mean + RIDGE * n * np.eye(k)
        step = np.linalg.solve(hess, grad)
        w += step
        if np.abs(step).max() < 1e-9:
            break
    p = data.probabilities(w)
    eps = max(EPS_GRID, key=lambda e: data.log_likelihood(p, e).sum())
    return w, eps


def interval(values, per_game):
    """The mean of per-decision values and its 95% interval, with the games (per_game[i]
    decisions each, in order) as the independent units: one game's decisions are alike."""
    from cuttle.stats import ClusteredMean
    acc = ClusteredMean()
    starts = np.concatenate([[0], np.cumsum(per_game)[:-1]]).astype(np.intp)
    for total, count in zip(np.add.reduceat(values, starts), per_game):
        acc.add_group(float(total), int(count))
    return acc.estimate()


def main(argv):
    parser = bench_inference.parser(__doc__, games=600, bot="ismcts:1000")
    parser.add_argument("--test-games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--drop", default="",
                        help="features left out of the fit, comma-separated (e.g. the "
                             "expert's values: 'value,top,value log,near top'), to "
                             "measure what they carry")
    args = parser.parse_args(argv)
    sys.path.insert(0, os.path.join(HERE, ".."))
    from cuttle._infer import FEATURE_NAMES, LEARNED_WEIGHTS, LEARNED_EPS
    drop = [name.strip() for name in args.drop.split(",") if name.strip()]
    unknown = [name for name in drop if name not in FEATURE_NAMES]
    if unknown:
        parser.error(f"--drop: no feature {', '.join(map(repr, unknown))}; the features: "
                     f"{', '.join(FEATURE_NAMES)}")
    train, stopped = collect(args, 0, args.games)
    test = []
    if stopped:                       # Ctrl-C: test on the last quarter of what finished
        k = len(train) - len(train) // 4
        train, test = train[:k], train[k:]
        print(f"interrupted: {len(train)} training games and {len(test)} test games "
              f"finished", file=sys.stderr)
    else:
        test, stopped = collect(args, args.games, args.test_games)
        if stopped:
            print(f"interrupted: {len(test)} test games finished", file=sys.stderr)
    n_train, n_test = len(train), len(test)
    per_game = np.array([len(game) for game in test if game])   # (the intervals' units)
    train = [d for game in train for d in game]
    test = [d for game in test for d in game]
    if not train or not test:
        print("no decisions to fit or to test on")
        return
    train, test = Data(train), Data(test)
    held = test.probabilities(np.array(LEARNED_WEIGHTS))     # (on every feature)
    for name in drop:                  # (a feature always 0 gets weight 0: the ridge)
        train.x[:, FEATURE_NAMES.index(name)] = test.x[:, FEATURE_NAMES.index(name)] = 0.0
    w, eps = fit(train)
    print(f"{args.bot} against itself, {args.rules}: {len(train.sizes)} training decisions "
          f"({n_train} games), {len(test.sizes)} test decisions ({n_test} games)"
          + (f"; the learned model without {', '.join(drop)}" if drop else ""))
    p = test.probabilities(w)
    rows = [("learned model", test.log_likelihood(p, eps), test.top_hits(p)),
            ("held model (infer=2)", test.log_likelihood(held, LEARNED_EPS),
             test.top_hits(held)),
            ("expert model (infer=1)", np.log(test.expert[test.played]),
             test.top_hits(test.expert)),
            ("uniform", -np.log(test.sizes), None)]
    print("  test decisions: log-likelihood per decision, and the model's first choice = "
          "the move played")
    for label, ll, hits in rows:
        m, lo, hi = interval(ll, per_game)
        line = f"    {label:24s} {m:.3f} [{lo:.3f}, {hi:.3f}]"
        if hits is not None:
            m, lo, hi = interval(hits, per_game)
            line += f"   {m:.1%} [{lo:.1%}, {hi:.1%}]"
        print(line)
    for label, other in (("expert", rows[2][1]), ("held model", rows[1][1])):
        m, lo, hi = interval(rows[0][1] - other, per_game)
        print(f"    learned over {label + ' (paired)':19s} {m:+.3f} [{lo:+.3f}, {hi:+.3f}]")
    print(f"# fitted by: python benchmarks/fit_opponent_model.py {' '.join(argv)}")
    print("LEARNED_WEIGHTS = (")
    for name, x in zip(FEATURE_NAMES, w):
        print(f"    {x:+.4f},    # {name}")
    print(")")
    print(f"LEARNED_EPS = {eps:g}")


if __name__ == "__main__":
    main(sys.argv[1:])
