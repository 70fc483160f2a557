"""Positions of a bot's self-play games with their outcomes, for fitting the search's
leaf evaluation (benchmarks/fit_leaf_value.py).

    python benchmarks/leaf_data.py --bot ismcts:1000 --games 2000 --workers 2 --out leaf.npz

Two copies of --bot play each other on the deals of --seed; every state in which a
player decides (before each move) is kept as the native State's bytes, with its game,
its ply and the game's result for player 0 (1 a win, 0 a loss, 1/2 a draw).  Games
come in order of their index, so a file can be split into training and test games by
game index.  Ctrl-C keeps the games finished.
"""

import argparse
import multiprocessing
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def play(job):
    rules, bot, seed = job
    import cuttle
    from cuttle.policies import Bot
    g = cuttle.Game(rules, seed=seed)
    bots = [Bot(bot, seed=seed * 2 + k + 1) for k in range(2)]
    states = []
    while not g.is_over and len(states) < 3000:
        states.append(g._core_state_bytes())
        g.play(bots[g.to_move].choose(g))
    w = g._core_winner
    result = 0.5 if w is None else (1.0 if w == 0 else 0.0)
    return states, result


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bot", default="ismcts:1000")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=555)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    jobs = [(args.rules, args.bot, args.seed * 1_000_003 + i) for i in range(args.games)]
    states, game, ply, result = [], [], [], []
    with multiprocessing.Pool(args.workers) as pool:
        try:
            for i, (st, res) in enumerate(pool.imap(play, jobs)):
                states.extend(st)
                game.extend([i] * len(st))
                ply.extend(range(len(st)))
                result.append(res)
                if (i + 1) % 100 == 0:
                    print(f"{i + 1} games, {len(states)} positions", file=sys.stderr,
                          flush=True)
        except KeyboardInterrupt:
            pool.terminate()
    n = len(result)
    keep = [k for k, gi in enumerate(game) if gi < n]
    np.savez_compressed(
        args.out, states=np.frombuffer(b"".join(states[k] for k in keep),
                                       dtype=np.uint8).reshape(len(keep), -1),
        game=np.array([game[k] for k in keep], dtype=np.int32),
        ply=np.array([ply[k] for k in keep], dtype=np.int32),
        result=np.array(result), rules=args.rules, bot=args.bot, seed=args.seed)
    print(f"{n} games, {len(keep)} positions -> {args.out}")


if __name__ == "__main__":
    main(sys.argv[1:])
