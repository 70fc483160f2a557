"""Bot strength: win rates with 95% Wilson intervals, seats alternating.

    python benchmarks/bench_strength.py              # about two minutes on 2 cores
    python benchmarks/bench_strength.py --quick

Each line reports the first player's overall win rate and its rate moving first and
second (every policy draws only on its own seeded stream, so the run is reproducible).
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import cuttle  # noqa: E402
from cuttle._play import play_batch  # noqa: E402
from cuttle.policies import policy_code  # noqa: E402
from cuttle.stats import wilson_interval  # noqa: E402

MATCHES = [("greedy", "random", 100_000), ("ismcts:1000", "greedy", 2_000),
           ("ismcts:1000", "random", 1_000)]


def fmt(e):
    return f"{e.value:6.1%} [{e.low:.1%}, {e.high:.1%}]"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a tenth of the games")
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    rules = cuttle.Rules(args.rules)
    for a, b, n in MATCHES:
        n = max(100, n // 10) if args.quick else n
        t = time.perf_counter()
        d = play_batch(rules, 0, n, args.seed, policy_code(a), policy_code(b), True, 0)
        dt = time.perf_counter() - t
        won = d["winner"] == 0
        first = d["first"] == 0
        print(f"{a} vs {b}: {n:,} games, wins {fmt(wilson_interval(int(won.sum()), n))}; "
              f"moving first {fmt(wilson_interval(int((won & first).sum()), int(first.sum())))}, "
              f"second {fmt(wilson_interval(int((won & ~first).sum()), int((~first).sum())))}; "
              f"draws {int((d['winner'] < 0).sum())}; {dt:.1f} s", flush=True)


if __name__ == "__main__":
    main()
