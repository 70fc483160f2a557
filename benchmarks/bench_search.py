"""Search speed: ISMCTS iterations per second on fixed positions, and the expert's and
greedy's decisions per second.

    python benchmarks/bench_search.py                     # this checkout
    python benchmarks/bench_search.py --root OTHER        # another checkout's build
    python benchmarks/bench_search.py --threads 2         # root parallelism (wall clock)

The positions are the first main-phase decisions with four or more legal moves of
greedy-vs-greedy games (a fixed seed), so two builds are timed on the same positions.
Single-thread figures are CPU time (less sensitive to a loaded machine); with --threads
the wall-clock rate is reported too.  Compare two builds within one run of the machine.
"""

import argparse
import os
import random
import statistics
import sys
import time


def load(root):
    sys.path.insert(0, os.path.abspath(root))
    import cuttle
    # (An editable install can lend a module the other checkout lacks: choose by file.)
    if os.path.exists(os.path.join(root, "cuttle", "_decide.pyx")):
        from cuttle._decide import decide
    else:                                # builds before _decide held it
        from cuttle._play import decide
    import cuttle._policies
    for mod in (cuttle, cuttle._policies):
        assert os.path.abspath(mod.__file__).startswith(os.path.abspath(root)), mod.__file__
    from cuttle.policies import Bot, policy_code
    return cuttle, decide, Bot, policy_code


def positions(cuttle, Bot, k, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < k:
        g = cuttle.Game(seed=rng.getrandbits(32))
        bot = Bot("greedy", seed=rng.getrandbits(32))
        stop = rng.randint(0, 10)
        i = 0
        while not g.is_over:
            if i >= stop and g.phase == "main" and len(list(g.legal_moves)) >= 4:
                out.append(g.copy())
                break
            g.play(bot.choose(g))
            i += 1
    return out


def iterations_run(decide, pos, code):
    """The mean iterations a search ran on the positions (it may stop before its N once
    its choice is settled), from the same searches as the timed ones; None for a build
    that cannot say."""
    try:
        from cuttle._decide import search_visits
    except ImportError:
        return None
    return statistics.mean(sum(v for _, v in search_visits(g, code, 1000 + i))
                           for i, g in enumerate(pos))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."),
                    help="the checkout whose build to time (default: this one)")
    ap.add_argument("--policies", default="ismcts:1000,ismcts-random:1000,expert,greedy",
                    help="comma-separated policies to time (default ismcts:1000,"
                         "ismcts-random:1000,expert,greedy)")
    ap.add_argument("--positions", type=int, default=24,
                    help="positions to decide on (default 24)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs per figure, which is their median (default 3)")
    ap.add_argument("--threads", type=int, default=1,
                    help="threads of each search (root parallelism; default 1)")
    ap.add_argument("--seed", type=int, default=1,
                    help="seed of the games the positions come from (default 1)")
    args = ap.parse_args(argv)
    cuttle, decide, Bot, policy_code = load(args.root)
    pos = positions(cuttle, Bot, args.positions, args.seed)
    print(f"{os.path.abspath(args.root)}: {len(pos)} positions, median of {args.repeat}")
    for name in args.policies.split(","):
        try:
            code = policy_code(name)
        except ValueError:                      # an older build without this policy
            print(f"{name:>20}: not in this build", flush=True)
            continue
        iters = int(name.split(":")[1]) if ":" in name else 1
        reps = 1 if ":" in name else 500        # cheap policies: time many calls
        cpu, wall = [], []
        for _ in range(args.repeat):
            t, c = time.perf_counter(), time.process_time()
            for _ in range(reps):
                for i, g in enumerate(pos):
                    if args.threads > 1:
                        decide(g, code, 1000 + i, args.threads)
                    else:
                        decide(g, code, 1000 + i)
            wall.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        per = statistics.median(cpu) / len(pos) / reps
        unit = "iterations" if ":" in name else "decisions"
        ran = iterations_run(decide, pos, code) if ":" in name else None
        if ran is not None and ran < iters:  # a search that stops once it is settled
            iters = ran
            unit = "iterations (run)"
        line = f"{name:>20}: {iters / per:>12,.0f} {unit}/s of CPU ({per * 1e6:,.1f} us/decision)"
        if args.threads > 1:
            line += f"; wall {iters * len(pos) * reps / statistics.median(wall):,.0f}/s " \
                    f"with {args.threads} threads"
        print(line, flush=True)


if __name__ == "__main__":
    main()
