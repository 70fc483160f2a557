"""How much the inferring search knows about its opponent's hidden hand.

    python benchmarks/bench_inference.py                 # 40 games, classic
    python benchmarks/bench_inference.py --games 200 --rules cuttle.cards

An inferring `ismcts` (`_search_config(0, infer=1)`, see cuttle/_infer.pyx) plays a
uniform one.  Before each of its decisions, the candidate hands its search would deal
the opponent (cuttle._decide.opponent_belief) are compared with the opponent's true
hand: the share of the opponent's hidden cards (those the searcher does not know) that
a candidate holds, averaged over the candidates uniformly (what a uniform deal knows)
and by the inference's weights.  Also reported: the weights' effective sample size as a
share of the candidates, and how often the inference had evidence at all.  This script
reads the hidden cards to score the inference; the search never does.
"""

import argparse
import os
import statistics
import sys


def measure(args):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import cuttle
    from cuttle import _search
    from cuttle._decide import opponent_belief
    from cuttle.policies import Bot
    _search._search_config(0, infer=1)
    uniform, weighted, ess = [], [], []
    decisions = 0
    for i in range(args.games):
        g = cuttle.Game(args.rules, seed=args.seed + i)
        me = i % 2                                    # the inferring bot's seat
        bots = {me: Bot(args.bot, seed=2 * i), 1 - me: Bot(args.bot, seed=2 * i + 1)}
        while not g.is_over:
            if g.to_move == me and len(list(g.legal_moves)) > 1:
                decisions += 1
                hands = opponent_belief(g, bots[me]._trees, args.seed + i) or []
                known = {c.index for c in g.observation(me).opponent_known}
                hidden = sum(1 << c.index for c in g.hand(1 - me) if c.index not in known)
                if hands and hidden:
                    share = [bin(mask & hidden).count("1") / bin(hidden).count("1")
                             for mask, _ in hands]
                    uniform.append(statistics.fmean(share))
                    weighted.append(sum(w * s for (_, w), s in zip(hands, share)))
                    ess.append(1 / sum(w * w for _, w in hands) / len(hands))
            if g.to_move == me:                       # only the inferring bot's trees
                move = bots[me].choose(g)             # are read: the other plays
            else:                                     # uniform
                _search._search_config(0, infer=0)
                move = bots[1 - me].choose(g)
                _search._search_config(0, infer=1)
            g.play(move)
    _search._search_config(0, infer=0)
    return decisions, uniform, weighted, ess


def parser():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40, help="games (default 40)")
    ap.add_argument("--rules", default="classic", help="rule preset (default classic)")
    ap.add_argument("--bot", default="ismcts:300", help="both bots (default ismcts:300)")
    ap.add_argument("--seed", type=int, default=2026, help="seed of the deals (default 2026)")
    return ap


def main(argv):
    args = parser().parse_args(argv)
    decisions, uniform, weighted, ess = measure(args)
    n = len(uniform)

    def mean_ci(xs):
        m = statistics.fmean(xs)
        return m, 1.96 * statistics.stdev(xs) / len(xs) ** 0.5

    gain = [w - u for u, w in zip(uniform, weighted)]
    print(f"{args.games} games, {args.rules}, {args.bot}: {decisions} decisions of the "
          f"inferring bot, {n} with evidence ({n / max(1, decisions):.0%})")
    for label, xs in (("hidden cards placed, uniform deal", uniform),
                      ("hidden cards placed, inferred", weighted),
                      ("gain (paired)", gain)):
        m, h = mean_ci(xs)
        print(f"  {label:34s} {m:6.1%} [{m - h:.1%}, {m + h:.1%}]")
    print(f"  effective candidates (share)       {statistics.fmean(ess):6.1%}")


if __name__ == "__main__":
    main(sys.argv[1:])
