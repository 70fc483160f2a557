"""The same seeded run locally on 2 threads and on a 2-worker dask LocalCluster (one
thread per worker process): wall time of each, their ratio (the cluster's overhead),
and peak memory of the driving process and of each worker.

    python benchmarks/bench_cluster.py                      # 20,000,000 games, 3 repeats
    python benchmarks/bench_cluster.py -n 2000000 --repeat 1

Each measurement runs in a fresh process (peak RSS is per process); the cluster's
start-up is timed apart and not counted in its run time.  Runs alternate local and
cluster, and the medians are compared; the machine is noisy, so compare the ratio of
one invocation rather than figures across invocations.  Needs dask[distributed].
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)


def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def one(mode, n, players, seed):
    """Play the run once in this process; print a JSON line of what was measured."""
    import cuttle
    out = {"mode": mode}
    client = cluster = None
    if mode == "cluster":
        import distributed
        t = time.perf_counter()
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=":0")
        client = distributed.Client(cluster)
        out["startup_s"] = time.perf_counter() - t
    t = time.perf_counter()
    res = cuttle.simulate(n, players=players, seed=seed, threads=None if client else 2,
                          progress=False, client=client)
    out["seconds"] = time.perf_counter() - t
    out["wins"] = [int(x) for x in res.summary().wins]
    out["moves"] = res.tally.moments["moves"][0]
    out["peak_mb"] = peak_mb()
    if client is not None:
        out["worker_peak_mb"] = sorted(client.run(peak_mb).values())
        client.close()
        cluster.close()
    print(json.dumps(out))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=20_000_000, help="games per run (default 20,000,000)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs of each kind; the medians are compared (default 3)")
    ap.add_argument("--players", default="random,greedy",
                    help="the two players, A,B (default random,greedy)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the run (default 1)")
    ap.add_argument("--one", choices=("local", "cluster"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    players = tuple(args.players.split(","))
    if args.one:
        one(args.one, args.n, players, args.seed)
        return
    runs = {"local": [], "cluster": []}
    for _ in range(args.repeat):
        for mode in ("local", "cluster"):
            p = subprocess.run([sys.executable, __file__, "--one", mode, "-n", str(args.n),
                                "--players", args.players, "--seed", str(args.seed)],
                               capture_output=True, text=True, check=True)
            r = json.loads(p.stdout.strip().splitlines()[-1])
            runs[mode].append(r)
            extra = (f", start-up {r['startup_s']:.1f} s, workers peak "
                     f"{', '.join(f'{x:.0f}' for x in r['worker_peak_mb'])} MB"
                     if mode == "cluster" else "")
            print(f"{mode:8} {args.n:>13,} games {r['seconds']:8.2f} s "
                  f"{args.n / r['seconds']:>12,.0f} games/s  peak {r['peak_mb']:.0f} MB{extra}",
                  flush=True)
    same = all(r["wins"] == runs["local"][0]["wins"] and r["moves"] == runs["local"][0]["moves"]
               for r in runs["local"] + runs["cluster"])
    loc = statistics.median(r["seconds"] for r in runs["local"])
    clu = statistics.median(r["seconds"] for r in runs["cluster"])
    print(f"\nmedian local {loc:.2f} s, cluster {clu:.2f} s: cluster / local = {clu / loc:.3f} "
          f"(overhead {100 * (clu / loc - 1):+.1f} %); identical results: {same}")


if __name__ == "__main__":
    main()
