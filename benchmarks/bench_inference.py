"""How much the inferring search knows about its opponent's hidden hand.

    python benchmarks/bench_inference.py                 # 40 games, classic
    python benchmarks/bench_inference.py --games 200 --rules cuttle.cards
    python benchmarks/bench_inference.py --games 400 --model 2     # the learned model

An inferring `ismcts` (`_search_config(0, infer=M)`, M the model of the opponent: 1 the
expert's, 2 the learned one; see cuttle/_infer.pyx) plays a uniform one.  Before each of its decisions, the candidate hands its search would deal
the opponent (cuttle._decide.opponent_belief) are compared with the opponent's true
hand: the share of the opponent's hidden cards (those the searcher does not know) that
a candidate holds, averaged over the candidates uniformly (what a uniform deal knows)
and by the inference's weights.  Also reported: the weights' effective sample size as a
share of the candidates, and how often the inference had evidence at all.  The 95%
intervals take the games as the independent units (cuttle.stats.ClusteredMean): one
game's decisions are alike.  This script reads the hidden cards to score the inference;
the search never does.
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
    from cuttle.stats import ClusteredMean
    # Each figure's running sums, a game at a time: one game's decisions are alike, so
    # the intervals take the games, not the decisions, as the independent units.
    sums = {k: ClusteredMean() for k in ("uniform", "inferred", "gain", "ess")}
    game = {k: [] for k in sums}                  # this game's values
    decisions = played = 0

    def add(key, x):
        game[key].append(x)

    def end_game():
        for key, values in game.items():
            sums[key].add(values)
            values.clear()

    def score(g, me, bot, seed):
        # The inferring bot's candidate hands against the opponent's true hidden cards.
        hands = opponent_belief(g, bot._trees, seed, args.model) or []
        known = {c.index for c in g.observation(me).opponent_known}
        hidden = sum(1 << c.index for c in g.hand(1 - me) if c.index not in known)
        if hands and hidden:
            share = [bin(mask & hidden).count("1") / bin(hidden).count("1")
                     for mask, _ in hands]
            uniform = statistics.fmean(share)
            inferred = sum(w * s for (_, w), s in zip(hands, share))
            add("uniform", uniform)
            add("inferred", inferred)
            add("gain", inferred - uniform)
            add("ess", 1 / sum(w * w for _, w in hands) / len(hands))

    i = 0
    try:
        for i in range(args.games):
            g = cuttle.Game(args.rules, seed=args.seed + i)
            me = i % 2                                # the inferring bot's seat
            bots = {me: Bot(args.bot, seed=2 * i), 1 - me: Bot(args.bot, seed=2 * i + 1)}
            while not g.is_over:
                # Only the inferring bot searches with the inference on.
                _search._search_config(0, infer=args.model if g.to_move == me else 0)
                if g.to_move == me and len(list(g.legal_moves)) > 1:
                    decisions += 1
                    score(g, me, bots[me], args.seed + i)
                g.play(bots[g.to_move].choose(g))
            played += 1
            end_game()
    except KeyboardInterrupt:                         # Ctrl-C: report the games so far
        print(f"interrupted in game {i + 1}: the figures cover the decisions before",
              file=sys.stderr)
        end_game()                                    # (the game cut short is a unit too)
    finally:
        _search._search_config(0, infer=0)
    return played, decisions, sums


def parser(doc=__doc__, games=40, bot="ismcts:300"):
    """The options of a self-play measurement (bench_opponent_model.py's too)."""
    ap = argparse.ArgumentParser(description=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=games, help=f"games (default {games})")
    ap.add_argument("--rules", default="classic", help="rule preset (default classic)")
    ap.add_argument("--bot", default=bot, help=f"both bots (default {bot})")
    ap.add_argument("--seed", type=int, default=2026, help="seed of the deals (default 2026)")
    return ap


def main(argv):
    ap = parser()
    ap.add_argument("--model", type=int, choices=(1, 2), default=1,
                    help="the model of the opponent: 1 the expert's (default), 2 learned")
    args = ap.parse_args(argv)
    played, decisions, sums = measure(args)
    n = sums["uniform"].count
    print(f"{played} games, {args.rules}, {args.bot}, model {args.model}: {decisions} "
          f"decisions of the inferring bot, {n} with evidence ({n / max(1, decisions):.0%})")
    for label, key in (("hidden cards placed, uniform deal", "uniform"),
                       ("hidden cards placed, inferred", "inferred"),
                       ("gain (paired)", "gain")):
        m, low, high = sums[key].estimate()
        print(f"  {label:34s} {m:6.1%} [{low:.1%}, {high:.1%}]")
    print(f"  effective candidates (share)       {sums['ess'].estimate().value:6.1%}")


if __name__ == "__main__":
    main(sys.argv[1:])
