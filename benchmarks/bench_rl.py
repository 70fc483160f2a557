"""Learning-environment speed: the observation encoder (native vs Observation.to_array)
and VectorEnv steps/s, with ratios measured in the same run.

    python benchmarks/bench_rl.py             # about a minute
    python benchmarks/bench_rl.py --quick     # a few seconds

VectorEnv figures are env steps per second: one compact action per env per step, each
env's action drawn uniformly from its legal actions (VectorEnv.sample_actions), the
(num_envs, A) mask read every step, observations included.  Configurations are
interleaved and each figure is the median of --repeat runs, so they share the machine's
load; on a shared machine compare ratios within one run.  OpenMP threads wait for each
other at the end of every step, so on an oversubscribed machine the 2-thread figure
suffers most (OMP_WAIT_POLICY=passive helps there).
"""

import argparse
import os
import random
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import cuttle  # noqa: E402
from cuttle._observe import observe_many  # noqa: E402
from cuttle.observation import OBSERVATION_SIZE  # noqa: E402
from cuttle.rl import GymEnv, VectorEnv, aec_env  # noqa: E402


def positions(n, rules="classic"):
    """n positions from random games (every phase, mid-game on average)."""
    rng = random.Random(7)
    out = []
    while len(out) < n:
        g = cuttle.Game(rules, seed=rng.getrandbits(32))
        for _ in range(rng.randint(0, 60)):
            if g.is_over:
                break
            g.play(rng.choice(list(g.legal_moves)))
        out.append(g)
    return out


def per_call(fn, calls, repeat):
    """Median seconds per call of fn() (which makes `calls` calls)."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) / calls)
    return statistics.median(times)


def bench_encoder(n, repeat):
    games = positions(n)
    players = [i & 1 for i in range(n)]
    out = np.empty(OBSERVATION_SIZE, np.float32)
    batch = np.empty((n, OBSERVATION_SIZE), np.float32)
    pairs = list(zip(games, players))

    def slow():
        for g, p in pairs:
            g.observation(p).to_array()

    def fresh():
        for g, p in pairs:
            g.observation_array(p)

    def into():
        for g, p in pairs:
            g.observation_array(p, out)

    rows = {"observation(p).to_array()": slow, "observation_array(p)": fresh,
            "observation_array(p, out)": into,
            "batched, 1 thread": lambda: observe_many(games, players, batch, 1)}
    times = {name: [] for name in rows}
    for _ in range(repeat):                  # interleaved: the rows share the load
        for name, fn in rows.items():
            times[name].append(per_call(fn, n, 1))
    res = {name: statistics.median(t) for name, t in times.items()}
    base = res["observation(p).to_array()"]
    print(f"Observation encoding, {n} positions, median of {repeat}:")
    for name, sec in res.items():
        print(f"  {name:28s} {sec * 1e6:9.2f} us/call   x{base / sec:7.1f}")
    return base / res["observation_array(p)"]


def vector_rate(env, steps, seed):
    """(steps/s of wall time, steps per CPU-second of the process)."""
    env.reset(seed)
    t, c = time.perf_counter(), time.process_time()
    for _ in range(steps):
        env.action_masks()
        env.step(env.sample_actions())
    n = env.num_envs * steps
    return n / (time.perf_counter() - t), n / (time.process_time() - c)


def bench_vector(num_envs, steps, repeat):
    configs = [(None, False, 1), (None, False, 2), (None, False, None), (None, True, 1),
               (None, True, None), ("random", False, 1), ("random", False, 2),
               ("random", False, None)]
    envs = {c: VectorEnv(num_envs, opponent=c[0], copy=c[1], threads=c[2]) for c in configs}
    rates = {c: [] for c in configs}
    for r in range(repeat):
        for c in configs:                    # interleaved: every config sees the same load
            rates[c].append(vector_rate(envs[c], steps, seed=r))
    print(f"\nVectorEnv, {num_envs} envs, {steps} steps a run, median (min-max) of {repeat};"
          f" then steps per CPU-second of the process (spin-waiting threads count too):")
    for c in configs:
        opponent, copy, th = c
        rs = [r[0] for r in rates[c]]
        cpu = statistics.median(r[1] for r in rates[c])
        who = "self-play" if opponent is None else f"vs {opponent}"
        print(f"  {who:10s} copy={str(copy):5s} threads={str(th or 'auto'):4s}  "
              f"{statistics.median(rs):11,.0f} steps/s  ({min(rs):,.0f} - {max(rs):,.0f})"
              f"  {cpu:11,.0f} per CPU-s")
    return {c: statistics.median(r[0] for r in rates[c]) for c in configs}, \
        {c: statistics.median(r[1] for r in rates[c]) for c in configs}


def bench_python_envs(steps):
    rng = np.random.default_rng(0)
    env = GymEnv(opponent="random")
    env.reset(seed=1)
    t = time.perf_counter()
    for _ in range(steps):
        _, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if term or trunc:
            env.reset()
    gym_rate = steps / (time.perf_counter() - t)
    aec = aec_env()
    aec.reset(seed=1)
    n = 0
    t = time.perf_counter()
    while n < steps:
        for agent in aec.agent_iter():
            obs, _, term, trunc, _ = aec.last()
            aec.step(None if term or trunc
                     else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
        aec.reset()
    aec_rate = n / (time.perf_counter() - t)
    print(f"\nPython envs (one game, random legal actions): GymEnv vs random "
          f"{gym_rate:,.0f} steps/s, PettingZoo AEC {aec_rate:,.0f} steps/s")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="a few seconds")
    ap.add_argument("--repeat", type=int, default=None,
                    help="runs per figure, which is their median (default 5; 3 with --quick)")
    ap.add_argument("--envs", type=int, default=1024,
                    help="games stepped together by the VectorEnv (default 1024)")
    args = ap.parse_args()
    repeat = args.repeat or (3 if args.quick else 5)
    steps = 50 if args.quick else 100
    print(f"cuttle {cuttle.__version__}, {os.cpu_count()} cores, load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}, OMP_WAIT_POLICY="
          f"{os.environ.get('OMP_WAIT_POLICY', '(default)')}\n")
    speedup = bench_encoder(200 if args.quick else 1000, repeat)
    rates, cpu = bench_vector(args.envs, steps, repeat)
    bench_python_envs(500 if args.quick else 3000)
    one, two, auto = (rates[(None, False, t)] for t in (1, 2, None))
    print(f"\nEncoder speed-up: x{speedup:.1f} (target x20).  VectorEnv self-play, {args.envs}"
          f" envs: {one:,.0f} steps/s on 1 thread, {two:,.0f} on 2, {auto:,.0f} auto "
          f"(target 500,000 on 2); 2 threads do x{cpu[(None, False, 2)] / cpu[(None, False, 1)]:.2f}"
          f" the steps per CPU-second of 1")


if __name__ == "__main__":
    main()
