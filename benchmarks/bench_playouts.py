"""Playout speed: games/s and moves/s of the native core, the per-move Python API and
the pure-Python reference engine, with ratios measured in the same run.

    python benchmarks/bench_playouts.py            # full run (about a minute)
    python benchmarks/bench_playouts.py --quick    # a few seconds
    python benchmarks/bench_playouts.py --native-only --root OTHER   # another build
    python benchmarks/bench_playouts.py --analyse  # cuttle.analyse's rollouts/s instead

Each figure is the median of --repeat runs; the machine is noisy, so compare the ratios
printed by one run rather than figures across runs.

--analyse times the rollouts of a move analysis (docs/analysis.md): cuttle.analyse on
cuttle.Game(seed=3) under --rules (8 legal moves under classic), random and greedy
playouts, on one thread and on every core, each move played out --rollouts times
(greedy's a quarter as many); a figure is rollouts of all the moves per second of
wall-clock time.
"""

import argparse
import os
import random
import statistics
import sys
import time

_root = os.path.join(os.path.dirname(__file__), "..")
if "--root" in sys.argv[1:-1]:                      # time another checkout's build
    _root = sys.argv[sys.argv.index("--root") + 1]
sys.path.insert(0, os.path.abspath(_root))

import cuttle  # noqa: E402
from cuttle._play import play_batch  # noqa: E402
from cuttle.policies import policy_code, POLICY_NAMES  # noqa: E402


def median_rate(fn, repeat):
    """Median over `repeat` runs of (games/s, moves/s); fn() returns (games, moves)."""
    rates = []
    for _ in range(repeat):
        t = time.perf_counter()
        games, moves = fn()
        dt = time.perf_counter() - t
        rates.append((games / dt, moves / dt))
    return (statistics.median(r[0] for r in rates), statistics.median(r[1] for r in rates))


def native(rules, n, pa, pb, threads):
    def run():
        d = play_batch(rules, 0, n, 12345, policy_code(pa), policy_code(pb), True, threads)
        return n, int(d["moves"].sum())
    return run


def python_api(rules, n):
    """Random games through cuttle.Game: legal_moves + play per move."""
    def run():
        rng = random.Random(1)
        moves = 0
        for i in range(n):
            g = cuttle.Game(rules, seed=i)
            while not g.is_over:
                g.play(rng.choice(list(g.legal_moves)))
                moves += 1
        return n, moves
    return run


def reference(rules, n):
    # The reference engine is a test oracle: it lives with the tests, not in the package.
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
    from support.reference import ReferenceGame

    def run():
        rng = random.Random(1)
        moves = 0
        for i in range(n):
            g = cuttle.Game(rules, seed=i)
            s = {"hands": [g.hand(0), g.hand(1)], "deck": g.deck}
            ref = ReferenceGame(dict(rules.flags), hands=s["hands"], points=((), ()),
                                permanents=((), ()), scrap=(), deck=s["deck"])
            while not ref.snapshot()["over"] and moves < 10**7:
                ref.play(rng.choice(ref.legal_moves()))
                moves += 1
        return n, moves
    return run


def analysis(rules, rollouts, policy, threads):
    """One analysis of cuttle.Game(seed=3), `rollouts` playouts a move by `policy`: a
    function returning (rollouts played, 0) for `median_rate`."""
    game = cuttle.Game(rules, seed=3)
    moves = len(list(game.legal_moves))

    def run():
        cuttle.analyse(game, rollouts=rollouts, policy=policy, threads=threads, seed=1)
        return moves * rollouts, 0
    return run


def analysis_rows(rules, rollouts, repeat, cores):
    """The rollouts/s of cuttle.analyse, random and greedy playouts, 1 thread and all."""
    moves = len(list(cuttle.Game(rules, seed=3).legal_moves))
    print(f"cuttle.analyse on cuttle.Game(seed=3): {moves} legal moves, {rollouts:,} random "
          f"and {rollouts // 4:,} greedy rollouts a move")
    for policy, n in (("random", rollouts), ("greedy", rollouts // 4)):
        for threads in sorted({1, cores}):
            rate, _ = median_rate(analysis(rules, n, policy, threads), repeat)
            print(f"analyse {policy} rollouts {threads:>3} thr {rate:>14,.0f} rollouts/s",
                  flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes, one repeat")
    ap.add_argument("--repeat", type=int, default=5,
                    help="runs per figure, which is their median (default 5)")
    ap.add_argument("--rules", default="classic", help="rule preset (default classic)")
    ap.add_argument("--root", default=_root, help="the checkout whose build to time (default: this one)")
    ap.add_argument("--native-only", action="store_true",
                    help="only the native rows (no Python API or reference engine)")
    ap.add_argument("--analyse", action="store_true",
                    help="time cuttle.analyse's rollouts instead (rollouts/s, docs/analysis.md)")
    ap.add_argument("--rollouts", type=int, default=50_000,
                    help="with --analyse: random rollouts a move (greedy: a quarter; "
                         "default 50,000, --quick a tenth)")
    args = ap.parse_args(argv)
    if args.rollouts < 40:                  # (greedy's quarter of --quick's tenth: one)
        ap.error(f"--rollouts: at least 40, not {args.rollouts}")
    rules = cuttle.Rules(args.rules)
    k = 10 if args.quick else 1
    repeat = 1 if args.quick else args.repeat
    cores = os.cpu_count() or 1
    rows = []

    def row(name, fn, threads=1, rep=repeat):
        g, m = median_rate(fn, rep)
        rows.append((name, threads, g, m))
        print(f"{name:34} {threads:>3} thr {g:>14,.0f} games/s {m:>16,.0f} moves/s "
              f"{g / threads:>12,.0f} games/s/core", flush=True)

    print(f"cuttle {cuttle.__version__} from {os.path.abspath(args.root)}, rules {rules!r}, "
          f"{cores} cores, median of {repeat}")
    if args.analyse:
        return analysis_rows(rules, max(4, args.rollouts // k), repeat, cores)
    row("native random-vs-random", native(rules, 400_000 // k, "random", "random", 1))
    row("native random-vs-random", native(rules, 800_000 // k, "random", "random", cores), cores)
    row("native greedy-vs-greedy", native(rules, 100_000 // k, "greedy", "greedy", 1))
    row("native greedy-vs-greedy", native(rules, 200_000 // k, "greedy", "greedy", cores), cores)
    row("native greedy-vs-random", native(rules, 100_000 // k, "greedy", "random", 1))
    if "expert" in POLICY_NAMES:
        row("native expert-vs-expert", native(rules, 10_000 // k, "expert", "expert", 1))
        row("native expert-vs-greedy", native(rules, 10_000 // k, "expert", "greedy", 1))
    if args.native_only:
        return
    row("python API random (per move)", python_api(rules, 2000 // k), 1, max(1, repeat // 2))
    row("reference engine random", reference(rules, 200 // k), 1, max(1, repeat // 2))

    by = {(n, t): g for n, t, g, _ in rows}
    one = by[("native random-vs-random", 1)]
    print()
    print(f"random-vs-random: {by[('native random-vs-random', cores)] / one:.2f}x "
          f"with {cores} threads vs 1")
    print(f"native / python API: {one / by[('python API random (per move)', 1)]:,.0f}x; "
          f"native / reference: {one / by[('reference engine random', 1)]:,.0f}x; "
          f"python API / reference: "
          f"{by[('python API random (per move)', 1)] / by[('reference engine random', 1)]:.1f}x")


if __name__ == "__main__":
    main()
