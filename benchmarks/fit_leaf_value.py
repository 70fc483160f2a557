"""Fit the weights of the search's leaf value so that it predicts who wins.

    python benchmarks/leaf_data.py --bot ismcts:1000 --games 3000 --out leaf.npz
    python benchmarks/fit_leaf_value.py leaf.npz --out leaf_fit.json

The search (`ismcts:N`, cuttle/_search.pyx) scores the end of each short playout by
position_value (cuttle/_expert.pyx): the expert's evaluation of the position from the
view of the player not deciding, as a logistic of v / scale.  Its weights are the
expert's, tuned for choosing moves one ply deep, not for predicting games.  Here the
weights of the leaf value (cuttle._weights._set_leaf_weights; the expert's own stay) and
its scale are fitted to the outcomes of recorded games: each position's value for
player 0 against the game's result for player 0 (a draw 1/2), by the log-loss (or --loss
brier: the Brier score), with a
pattern search (each weight in turn moved up and down by its step; a step grows after a
gain and shrinks after none).  The first --test-share of the games (by index) is held
out.  Reported on both parts: the log-loss and the Brier score per position of the
expert's weights at the search's scale (30), of the expert's weights with only the
scale and a tempo term fitted, and of the fitted weights, each with a 95% interval that
takes the games as the units (cuttle.stats.ClusteredMean), and the paired differences.
--playout K first plays K moves of greedy for both players from each position (as
the search plays K moves before it scores a leaf; a game that ends scores its result),
so that the weights are fitted to the positions the search scores at that depth.
--out writes the fitted weights and scale as a `--mine-config` for
benchmarks/bench_search_match.py (`{"scale": ..., "leaf": {...}}`).
"""

import argparse
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

import cuttle  # noqa: E402
from cuttle import _weights  # noqa: E402
from cuttle._decide import leaf_values  # noqa: E402
from cuttle.stats import ClusteredMean  # noqa: E402

# The weights position_value reads (prog stays 1: the scale is fitted instead; seven is
# read only by the expert's look-ahead).
FITTED = ("win", "king", "queen", "glasses", "avg", "mywin", "mywin_p", "nine",
          "countered", "threat", "opp_hand", "crowd", "tempo")
HAND_FITTED = 13                       # Ace .. King (the joker: only with its rule)


def to_vector(w, scale):
    return np.array([w[k] for k in FITTED] + list(w["hand"][:HAND_FITTED]) + [np.log(scale)])


def from_vector(x, base):
    w = dict(base)
    for k, v in zip(FITTED, x):
        w[k] = float(v)
    w["hand"] = tuple(float(v) for v in x[len(FITTED):len(FITTED) + HAND_FITTED]) + \
        tuple(base["hand"][HAND_FITTED:])
    return w, float(np.exp(x[-1]))


def played_on(states, rules, k, seed):
    """Each state after k moves of greedy for both players (or the end of its game)."""
    from cuttle.policies import Bot
    bot = Bot("greedy", seed=seed)
    g = cuttle.Game(rules, seed=0)
    out = np.empty_like(states)
    for i, row in enumerate(states):
        g._core_set_state(row.tobytes(), b"", b"")
        for _ in range(k):
            if g.is_over:
                break
            g.play(bot.choose(g))
        out[i] = np.frombuffer(g._core_state_bytes(), dtype=np.uint8)
    return out


def names():
    return list(FITTED) + [f"hand[{i}]" for i in range(HAND_FITTED)] + ["log scale"]


class Data:
    def __init__(self, states, game, result):
        self.states = np.ascontiguousarray(states)
        self.game = game
        self.y = result[game]
        # per-game sums for the clustered intervals: positions are in game order
        self.starts = np.flatnonzero(np.r_[True, game[1:] != game[:-1]])
        self.counts = np.diff(np.r_[self.starts, len(game)])

    def p(self, g, w, scale):
        _weights._set_leaf_weights(w)
        return np.clip(leaf_values(g, self.states, scale), 1e-6, 1 - 1e-6)

    def losses(self, p):
        y = self.y
        return -(y * np.log(p) + (1 - y) * np.log(1 - p)), (p - y) ** 2

    def interval(self, values):
        acc = ClusteredMean()
        for total, count in zip(np.add.reduceat(values, self.starts), self.counts):
            acc.add_group(float(total), int(count))
        return acc.estimate()


def pattern_search(f, x, steps, fixed, budget, log):
    """Minimise f from x: each free coordinate in turn moved by +-its step; a gain
    doubles the step (and keeps the move), none halves it.  Stops when every step is
    below a thousandth of its start or after `budget` seconds."""
    fx = f(x)
    start = steps.copy()
    t0 = time.time()
    rounds = 0
    while time.time() - t0 < budget and np.any(steps[~fixed] > start[~fixed] * 1e-3):
        rounds += 1
        for i in np.flatnonzero(~fixed):
            for sign in (1.0, -1.0):
                y = x.copy()
                y[i] += sign * steps[i]
                fy = f(y)
                if fy < fx:
                    x, fx = y, fy
                    steps[i] *= 2.0
                    break
            else:
                steps[i] *= 0.5
        log(f"  round {rounds}: loss {fx:.5f} ({time.time() - t0:.0f} s)")
    return x, fx


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="+", help="npz files of benchmarks/leaf_data.py")
    ap.add_argument("--test-share", type=float, default=0.25)
    ap.add_argument("--subsample", type=int, default=60000,
                    help="training positions the search evaluates (all are reported)")
    ap.add_argument("--budget", type=float, default=600, help="seconds of fitting")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--playout", type=int, default=0,
                    help="greedy moves played from each position before it is scored")
    ap.add_argument("--loss", choices=("log", "brier"), default="log",
                    help="what the fit minimises (brier: bounded, for --playout, where a "
                         "playout's end can contradict the game's)")
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    states, game, result, rules = [], [], [], None
    offset = 0
    for path in args.data:
        d = np.load(path)
        rules = str(d["rules"])
        n = len(d["result"])
        k = int(round(n * (1 - args.test_share)))
        states.append(d["states"])
        game.append(d["game"] + offset)
        result.append(d["result"])
        offset += n
        print(f"{path}: {n} games of {d['bot']}, {len(d['game'])} positions; games "
              f"{k}.. held out")
    states = np.concatenate(states)
    if args.playout > 0:
        states = played_on(states, rules, args.playout, args.seed)
    game = np.concatenate(game)
    result = np.concatenate(result)
    # the last test share of each file's games is held out
    test_games = np.zeros(offset, dtype=bool)
    off = 0
    for path in args.data:
        n = len(np.load(path)["result"])
        test_games[off + int(round(n * (1 - args.test_share))):off + n] = True
        off += n
    is_test = test_games[game]
    train = Data(states[~is_test], game[~is_test], result)
    test = Data(states[is_test], game[is_test], result)
    g = cuttle.Game(rules, seed=0)
    rng = np.random.default_rng(args.seed)
    pick = np.sort(rng.choice(len(train.y), min(args.subsample, len(train.y)),
                              replace=False))
    fit_set = Data(train.states[pick], train.game[pick], result)

    base = _weights._expert_weights()
    x0 = to_vector(base, 30.0)
    which = 0 if args.loss == "log" else 1

    def loss(x, data=fit_set):
        w, scale = from_vector(x, base)
        return float(data.losses(data.p(g, w, scale))[which].mean())

    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    steps = np.maximum(np.abs(x0) * 0.2, 0.2)
    steps[-1] = 0.2
    # 1: the scale and the tempo alone; 2: everything.
    only = np.ones(len(x0), dtype=bool)
    only[[FITTED.index("tempo"), len(x0) - 1]] = False
    log("fitting the scale and tempo")
    x1, _ = pattern_search(loss, x0.copy(), steps.copy(), only, args.budget / 5, log)
    log("fitting every weight")
    x2, _ = pattern_search(loss, x1.copy(), steps.copy(), np.zeros(len(x0), dtype=bool),
                           args.budget, log)
    models = [("expert weights, scale 30", x0), ("expert weights, scale+tempo fitted", x1),
              ("fitted weights", x2)]
    print(f"{len(train.y)} training positions ({len(np.unique(train.game))} games; the "
          f"fit on {len(pick)}), {len(test.y)} test positions "
          f"({len(np.unique(test.game))} games)")
    for part, data in (("train", train), ("test", test)):
        print(f"  {part}: log-loss and Brier score per position")
        ll = []
        for label, x in models:
            w, scale = from_vector(x, base)
            a, b = data.losses(data.p(g, w, scale))
            ll.append((a, b))
            m, lo, hi = data.interval(a)
            mb, lob, hib = data.interval(b)
            print(f"    {label:36s} {m:.4f} [{lo:.4f}, {hi:.4f}]   {mb:.4f} [{lob:.4f}, "
                  f"{hib:.4f}]")
        for j, label in ((1, "scale+tempo"), (2, "fitted")):
            m, lo, hi = data.interval(ll[0][0] - ll[j][0])
            mb, lob, hib = data.interval(ll[0][1] - ll[j][1])
            print(f"    old - {label:30s} {m:+.4f} [{lo:+.4f}, {hi:+.4f}]   {mb:+.4f} "
                  f"[{lob:+.4f}, {hib:+.4f}]  (paired)")
    print("  weights: old -> fitted")
    for name, a, b in zip(names(), x0, x2):
        if name == "log scale":
            print(f"    {'scale':12s} {np.exp(a):9.3f} -> {np.exp(b):9.3f}")
        else:
            print(f"    {name:12s} {a:9.3f} -> {b:9.3f}")
    print(f"# fitted by: python benchmarks/fit_leaf_value.py {' '.join(argv)}")
    _weights._set_leaf_weights(None)
    if args.out:
        out = {}
        for label, x in zip(("scale_tempo", "fitted"), (x1, x2)):
            w, scale = from_vector(x, base)
            out[label] = {"scale": scale, "leaf": w}
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)
        print(f"configs -> {args.out} (keys scale_tempo, fitted)")


if __name__ == "__main__":
    main(sys.argv[1:])
