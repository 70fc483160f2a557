"""Game review: how long a review takes, how much noise its figures carry, and whether
its accuracy figure ranks players of known strength.

    python benchmarks/bench_review.py                      # times, docs/review/game.json
    python benchmarks/bench_review.py --seeds 5            # and the noise over 5 seeds
    python benchmarks/bench_review.py --strength 8         # accuracy of bots, 8 games each

Times are the wall clock and the process's CPU time (all threads) of `cuttle.review` of
the record with each engine (medians of --repeat runs, seeded 1, 2, ...), with the
samples of the run seeded 1 and their median over the runs; on a shared machine the CPU
time is the steadier figure.  Noise: the same review under different seeds; for each
judged decision the standard deviation over seeds of its loss and of the played move's
expected score, and the share of seeds that agree with its most common label.
"""

import argparse
import collections
import os
import statistics as st
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

import cuttle  # noqa: E402
from cuttle.policies import Bot  # noqa: E402
from cuttle.record import read_record  # noqa: E402


def times(record, engines, threads, repeat):
    # (the samples of seed 1, the review docs/review.md prints, and their median over the
    # seeds 1 to --repeat: the budget follows the samples, so each seed spends its own)
    print("| engine | decisions (judged) | samples, seed 1 | samples, median of seeds "
          f"1 to {repeat} | wall s | CPU s |")
    print("|---|---|---|---|---|---|")
    for eng in engines:
        runs = []
        for k in range(repeat):
            t, c = time.perf_counter(), time.process_time()
            r = cuttle.review(record, eng, seed=1 + k, threads=threads)
            runs.append((time.perf_counter() - t, time.process_time() - c, r))
        r = runs[0][2]
        judged = sum(d.judged for d in r.decisions)
        print(f"| {eng} | {len(r.decisions)} ({judged}) | {r.samples:,} | "
              f"{st.median(x[2].samples for x in runs):,.0f} | "
              f"{st.median(x[0] for x in runs):.2f} | {st.median(x[1] for x in runs):.2f} |")


def noise(record, engines, threads, seeds):
    print("\n| engine | SD of a decision's loss (mean / max) | SD of the played move's score "
          "| label agreement | accuracy P0 | accuracy P1 | CPU s per review |")
    print("|---|---|---|---|---|---|---|")
    for eng in engines:
        runs = []
        for s in range(1, seeds + 1):
            c = time.process_time()
            runs.append((cuttle.review(record, eng, seed=s, threads=threads),
                         time.process_time() - c))
        sd_loss, sd_score, agree = [], [], []
        for i, d0 in enumerate(runs[0][0].decisions):
            if not d0.judged:
                continue
            ds = [r.decisions[i] for r, _ in runs]
            sd_loss.append(st.pstdev(d.loss for d in ds))
            sd_score.append(st.pstdev(d.played_score for d in ds))
            agree.append(collections.Counter(d.label for d in ds).most_common(1)[0][1] / seeds)
        acc = [[r.accuracy(p) for r, _ in runs] for p in (0, 1)]
        print(f"| {eng} | {100 * st.mean(sd_loss):.2f} / {100 * max(sd_loss):.2f} pp | "
              f"{100 * st.mean(sd_score):.2f} pp | {st.mean(agree):.1%} | "
              + " | ".join(f"{st.mean(a):.1f}% ± {st.pstdev(a):.1f}" for a in acc)
              + f" | {st.median(c for _, c in runs):.2f} |")


def strength(engines, pairs, games, threads):
    print(f"\n| engine | pairing ({games} games, seats alternate) | accuracy | accuracy | "
          f"average loss (pp) |")
    print("|---|---|---|---|---|")
    for eng in engines:
        for pair in pairs:
            acc, loss = {n: [] for n in pair}, {n: [] for n in pair}
            for i in range(games):
                seats = pair if i % 2 == 0 else pair[::-1]
                g = cuttle.Game(seed=1000 + i)
                bots = (Bot(seats[0], 1000 + i), Bot(seats[1], 2000 + i))
                while not g.is_over:
                    g.play(bots[g.to_move].choose(g))
                r = cuttle.review(g, eng, seed=i, threads=threads)
                for p, name in enumerate(seats):
                    s = r.summary(p)
                    if s["judged"]:
                        acc[name].append(s["accuracy"])
                        loss[name].append(s["average_loss"])
            print(f"| {eng} | {pair[0]} vs {pair[1]} | "
                  + " | ".join(f"{n} {st.mean(acc[n]):.1f}%" for n in pair)
                  + " | " + ", ".join(f"{n} {100 * st.mean(loss[n]):.1f}" for n in pair) + " |")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--record", default=os.path.join(ROOT, "docs", "review", "game.json"),
                    help="the game record to review (default: the docs' example game)")
    ap.add_argument("--engines", default="expert,rollouts:1000,ismcts:1000",
                    help="the engines to time, comma-separated")
    ap.add_argument("--threads", type=int, default=2, help="threads of each review")
    ap.add_argument("--repeat", type=int, default=1, help="timed runs per engine")
    ap.add_argument("--seeds", type=int, default=0, help="seeds for the noise (0: skip)")
    ap.add_argument("--strength", type=int, default=0, help="games per pairing (0: skip)")
    ap.add_argument("--pairs", default="expert,random;ismcts:300,greedy",
                    help="the pairings of --strength: A,B;C,D (bots A against B, ...)")
    args = ap.parse_args(argv)
    engines = args.engines.split(",")
    rec = read_record(args.record)
    print(f"{args.record}: {len(rec['moves'])} moves, {args.threads} threads, "
          f"cuttle {cuttle.__version__}, {os.cpu_count()} cores\n")
    times(rec, engines, args.threads, args.repeat)
    if args.seeds:
        noise(rec, engines, args.threads, args.seeds)
    if args.strength:
        strength(engines, [tuple(p.split(",")) for p in args.pairs.split(";")],
                 args.strength, args.threads)


if __name__ == "__main__":
    main()
