"""How well the inference's model of the opponent predicts a search's moves.

    python benchmarks/bench_opponent_model.py                  # 100 games of ismcts:1000
    python benchmarks/bench_opponent_model.py --games 300 --bot ismcts:300

The inferring search (cuttle/_infer.pyx) weighs the opponent's hidden hands by how
likely the opponent's moves are under a model: the expert's values of the legal moves as
a softmax (TEMP points of value per unit of logit) mixed with a uniform choice (EPS).
Here two copies of `--bot` play each other, and at every decision with a choice the
model is given the mover's true hand (`cuttle._decide.move_likelihood`, the model at its
own settings): the mean log-likelihood of the move played (against a uniform pick among
the legal moves), how often the move played is the model's most likely one, and the
same log-likelihood for other temperatures and uniform shares (the expert's values are
recovered from the model's probabilities), to see whether re-tuning the model would
explain the search's moves better.  The 95% intervals take the games as the
independent units (cuttle.stats.ClusteredMean).  Ctrl-C reports the decisions so far.
"""

import math
import os
import sys

import bench_inference          # (its options; the benchmarks folder is on the path)

TEMPS = (1.0, 2.0, 4.0, 8.0, 16.0)
EPSS = (0.02, 0.1, 0.3, 0.5)
MODEL_TEMP, MODEL_EPS = 4.0, 0.1      # the model's own settings (cuttle/_infer.pyx)


def measure(args):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import random
    import cuttle
    from cuttle._decide import move_likelihood
    from cuttle.policies import Bot
    from cuttle.stats import ClusteredMean
    # Running sums, a game at a time (one game's decisions are alike, so the intervals
    # take the games as the units), of the model's and the uniform pick's
    # log-likelihoods and of the top-choice hits; the sum for each (temp, eps).
    sums = {k: ClusteredMean() for k in ("model", "uniform", "gain", "top")}
    game = {k: [] for k in sums}
    grid = {(t, e): 0.0 for t in TEMPS for e in EPSS}

    def add(key, x):
        game[key].append(x)

    def end_game():
        for key, values in game.items():
            sums[key].add(values)
            values.clear()

    rng = random.Random(args.seed)
    played = 0
    try:
        for _ in range(args.games):
            g = cuttle.Game(args.rules, seed=rng.getrandbits(32))
            bots = [Bot(args.bot, seed=rng.getrandbits(32)) for _ in range(2)]
            while not g.is_over:
                legal = list(g.legal_moves)
                move = bots[g.to_move].choose(g)
                if len(legal) > 1:
                    n = len(legal)
                    ps = [move_likelihood(g, m.code) for m in legal]
                    j = legal.index(move)
                    add("model", math.log(ps[j]))
                    add("uniform", -math.log(n))
                    add("gain", math.log(ps[j] * n))
                    add("top", float(ps[j] >= max(ps) - 1e-12))
                    # the expert's values up to a constant, from the model's probabilities
                    values = [MODEL_TEMP * math.log(max((p - MODEL_EPS / n) / (1 - MODEL_EPS),
                                                        1e-300)) for p in ps]
                    top = max(values)
                    for t in TEMPS:
                        z = [math.exp((v - top) / t) for v in values]
                        soft = z[j] / sum(z)
                        for e in EPSS:
                            grid[t, e] += math.log((1 - e) * soft + e / n)
                g.play(move)
            played += 1
            end_game()
    except KeyboardInterrupt:
        print(f"interrupted in game {played + 1}: the figures cover the decisions before",
              file=sys.stderr)
        end_game()
    return played, sums, grid


def main(argv):
    args = bench_inference.parser(__doc__, games=100, bot="ismcts:1000").parse_args(argv)
    played, sums, grid = measure(args)
    n = sums["model"].count
    if n == 0:
        print("no decision with a choice was played")
        return
    print(f"{played} games, {args.rules}, {args.bot} against itself: {n} decisions with a "
          f"choice")
    for label, key, fmt in (("log-likelihood per decision, model", "model", "{:.3f}"),
                            ("log-likelihood per decision, uniform", "uniform", "{:.3f}"),
                            ("model over uniform (paired)", "gain", "{:+.3f}"),
                            ("the move played is the model's top", "top", "{:.1%}")):
        m, low, high = sums[key].estimate()
        print(f"  {label:38s} {fmt.format(m)} [{fmt.format(low)}, {fmt.format(high)}]")
    print(f"  log-likelihood per decision by temperature (rows) and uniform share (columns); "
          f"the model: {MODEL_TEMP:g}, {MODEL_EPS:g}")
    print("    temp " + "".join(f"{e:>9g}" for e in EPSS))
    for t in TEMPS:
        print(f"    {t:>4g} " + "".join(f"{grid[t, e] / n:9.3f}" for e in EPSS))


if __name__ == "__main__":
    main(sys.argv[1:])
