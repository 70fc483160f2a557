"""A match between this checkout's search and another checkout's build, at chosen budgets.

    python benchmarks/bench_search_match.py --other /path/to/old/checkout \\
        --other-python /path/to/old/venv/bin/python --mine ismcts:1000 --theirs ismcts:1000 \\
        --games 2000 --out match.jsonl

Two builds cannot share a process, so the other build runs in a child process (its own
Python, its checkout first on sys.path) that keeps its Game and Bot and answers over a
pipe; this checkout's bot plays in the worker itself.  Games come in pairs on one deal
(game 2k and 2k + 1: deal seed + k, the seats swapped), each bot with its own seeded
stream, so the match is reproducible; --workers pairs of processes play in parallel.
Each side's CPU time per decision (time.process_time of its own process around
Bot.choose, decisions with more than one legal move) is reported, so that budgets can
be matched: "same CPU time per move" means choosing --mine so that both means agree.
Results are appended to --out as they finish (a rerun skips the games already there).

The score is this checkout's (a draw counts half), with a 95% interval from the
per-pair variance (paired deals; cuttle.stats.score_interval, whose pseudo-pairs
scoring 0 and 1 give it a width even when every pair scored the same), and as Elo:
400 log10(score / (1 - score)) (cuttle.stats.elo_from_score).
"""

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MOVE_GUARD = 3000                    # a game still running after this many moves: draw


def serve(root):
    """The other build's side: JSON requests on stdin, answers on stdout."""
    sys.path.insert(0, os.path.abspath(root))
    import cuttle
    from cuttle.policies import Bot
    assert os.path.abspath(cuttle.__file__).startswith(os.path.abspath(root)), cuttle.__file__
    game = bot = None
    for line in sys.stdin:
        req = json.loads(line)
        if "new" in req:
            new = req["new"]
            game = cuttle.Game(new["rules"], seed=new["seed"])
            bot = Bot(new["bot"], seed=new["bot_seed"])
            out = {"ok": True, "version": cuttle.__version__}
        elif "play" in req:
            game.play(req["play"])
            out = {"ok": True}
        else:
            n = len(list(game.legal_moves))
            c = time.process_time()
            code = bot.choose(game).code
            out = {"code": code, "cpu": time.process_time() - c, "n": n}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


class Other:
    def __init__(self, python, root):
        env = dict(os.environ, PYTHONPATH=os.path.abspath(root))
        self.p = subprocess.Popen([python, os.path.abspath(__file__), "--serve", root],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  env=env, cwd="/")

    def ask(self, req):
        try:
            self.p.stdin.write(json.dumps(req) + "\n")
            self.p.stdin.flush()
            line = self.p.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            raise RuntimeError("the other build's process ended (its error is above)")
        return json.loads(line)

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def play_game(i, args, cuttle, Bot, other):
    deal = args.seed + i // 2
    mine = i % 2                         # my seat
    game = cuttle.Game(args.rules, seed=deal)
    bot = Bot(args.mine, seed=1_000_003 * args.seed + 2 * i)
    other.ask({"new": {"rules": args.rules, "seed": deal, "bot": args.theirs,
                       "bot_seed": 1_000_003 * args.seed + 2 * i + 1}})
    cpu = [0.0, 0.0]                     # mine, theirs (decisions with a choice)
    dec = [0, 0]
    moves = 0
    while not game.is_over and moves < MOVE_GUARD:
        n = len(list(game.legal_moves))
        if game.to_move == mine:
            c = time.process_time()
            code = bot.choose(game).code
            dt = time.process_time() - c
            side = 0
        else:
            ans = other.ask({"choose": True})
            assert ans["n"] == n, "the two builds disagree on the legal moves"
            code, dt, side = ans["code"], ans["cpu"], 1
        if n > 1:
            cpu[side] += dt
            dec[side] += 1
        game.play(code)
        other.ask({"play": code})
        moves += 1
    w = game.winner if game.is_over else None
    score = 0.5 if w is None else (1.0 if w == mine else 0.0)
    return {"game": i, "seat": mine, "score": score, "moves": moves, "cpu": cpu, "dec": dec}


def worker(args, w):
    sys.path.insert(0, os.path.join(HERE, ".."))
    import cuttle
    from cuttle.policies import Bot
    from cuttle._search import _search_config, SEARCH_NAMES
    from cuttle import _weights
    config = json.loads(args.mine_config)
    if isinstance(config.get("leaf"), dict):    # weights of the search's leaf value, in
        _weights._set_leaf_weights(config["leaf"])  # the slot of the expert's copy
        config["leaf"] = _weights.LEAF_SETS.index("expert")
    elif config.get("leaf") == "fitted":        # (the fitted set, ismcts-infer's)
        config["leaf"] = _weights.LEAF_SETS.index("fitted")
    kind = args.mine.split(":")[0]              # the settings of the search that plays
    _search_config(SEARCH_NAMES.index(kind) if kind in SEARCH_NAMES else 0, **config)
    other = Other(args.other_python, args.other)
    done = set(r["game"] for r in read(args.out))
    for i in range(w, args.games, args.workers):
        if i in done:
            continue
        row = play_game(i, args, cuttle, Bot, other)
        with open(args.out, "a") as f:      # (made by the first game finished, not before)
            f.write(json.dumps(row) + "\n")
    other.close()


def read(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def report(rows, args):
    """The score over the complete pairs (a game whose pair is unfinished counts nowhere),
    with its interval from the per-pair variance (`cuttle.stats.score_interval`): none
    from one pair, and kept within [0, 1] (an Elo bound at 0% or 100% is infinite)."""
    pairs = {}
    for r in rows:                                  # (a pooled file's deals are its own)
        pairs.setdefault((r.get("file", 0), r["game"] // 2), []).append(r)
    complete = [v for v in pairs.values() if len(v) == 2]
    if not complete:
        print("no complete pair yet")
        return
    games = [r for v in complete for r in v]
    full = [sum(r["score"] for r in v) / 2 for v in complete]
    mean = sum(full) / len(full)

    sys.path.insert(0, os.path.join(HERE, ".."))      # (this checkout's, as the worker's)
    from cuttle.formatting import elo as elo_text
    from cuttle.stats import elo_from_score, score_interval

    def elo(p):                 # (the library's one formula, and its one format)
        return elo_text(elo_from_score(p))

    wins = sum(1 for r in games if r["score"] == 1.0)
    draws = sum(1 for r in games if r["score"] == 0.5)
    cpu = [sum(r["cpu"][k] for r in games) / max(1, sum(r["dec"][k] for r in games))
           for k in (0, 1)]
    runs = f"seed {args.seed}" if not args.pool else \
        f"{1 + len(args.pool)} runs pooled ({', '.join([args.out] + args.pool)})"
    print(f"{args.mine} (this checkout) vs {args.theirs} ({args.other}), rules "
          f"{args.rules}, {runs}: {len(games)} games in {len(full)} paired deals")
    print(f"  wins {wins}, draws {draws}, losses {len(games) - wins - draws}")
    if len(full) < 2:                               # (no variance to read an interval from)
        print(f"  score {mean:.1%} (no interval from one pair)")
        print(f"  Elo {elo(mean)}")
    else:                       # (a pair's score is in [0, 1]: the library's score interval)
        _, low, high = score_interval(len(full), sum(full), sum(x * x for x in full))
        print(f"  score {mean:.1%} [{low:.1%}, {high:.1%}] (95%, paired)")
        print(f"  Elo {elo(mean)} [{elo(low)}, {elo(high)}]")
    print(f"  CPU per decision: mine {cpu[0] * 1e3:.2f} ms, theirs {cpu[1] * 1e3:.2f} ms "
          f"(ratio {cpu[0] / cpu[1]:.2f})")


CHECK_OTHER = """
import json, os, sys
root, name = sys.argv[1], sys.argv[2]
sys.path.insert(0, root)
try:
    import cuttle
    from cuttle.policies import Bot
except Exception as e:
    print(json.dumps({"error": f"cannot import its cuttle ({type(e).__name__}: {e}); "
                               f"is it built (python setup.py build_ext --inplace)?"}))
    sys.exit()
if not os.path.abspath(cuttle.__file__).startswith(root + os.sep):
    print(json.dumps({"error": f"it holds no cuttle package: this Python imports "
                               f"{os.path.dirname(cuttle.__file__)}"}))
    sys.exit()
try:
    Bot(name, seed=0)
except Exception as e:
    print(json.dumps({"error": f"--theirs: {e}"}))
    sys.exit()
print(json.dumps({"version": cuttle.__version__}))
"""


def check_other(ap, args):
    """--other and --theirs, before any game: an existing checkout whose cuttle is built
    and imports in --other-python, and a policy name that build knows."""
    root = os.path.abspath(args.other)
    if not os.path.isdir(os.path.join(root, "cuttle")):
        ap.error(f"--other {args.other}: " + ("no cuttle checkout there (no folder "
                 f"{os.path.join(root, 'cuttle')!r})" if os.path.isdir(root)
                 else "no such folder"))
    try:
        run = subprocess.run([args.other_python, "-c", CHECK_OTHER, root, args.theirs],
                             capture_output=True, text=True, cwd="/", timeout=120,
                             env=dict(os.environ, PYTHONPATH=root))
        answer = json.loads(run.stdout.strip().splitlines()[-1])
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError) as e:
        ap.error(f"--other-python {args.other_python}: cannot run it on the other "
                 f"checkout ({e})")
    if "error" in answer:
        ap.error(answer["error"] if answer["error"].startswith("--")
                 else f"--other {args.other}: {answer['error']}")


def check_args(ap, args):
    """Every option checked before a worker starts (or a file is made): a usage error,
    exit status 2, in one line."""
    sys.path.insert(0, os.path.join(HERE, ".."))
    from cuttle.cli import options
    try:
        options.policy(args.mine, "--mine")
        options.output_files(**{"--out": args.out})
        if not isinstance(json.loads(args.mine_config), dict):
            raise options.UsageError("--mine-config takes a JSON object")
    except options.UsageError as e:
        ap.error(str(e))
    except ValueError as e:
        ap.error(f"--mine-config: not JSON ({e})")
    check_other(ap, args)


def whole(text, least):
    """An option's whole number, at least `least` (the parser runs in the other build's
    process too, so it imports nothing of this checkout's)."""
    try:
        v = int(str(text).replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if v < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}, not {v}")
    return v


def count(text):
    return whole(text, 1)


def seed(text):
    return whole(text, 0)


def parser():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--other", required=True, help="the other checkout (its build)")
    ap.add_argument("--other-python", default=sys.executable,
                    help="the Python that imports the other build (e.g. its venv's)")
    ap.add_argument("--mine", default="ismcts:1000",
                    help="this checkout's policy (default ismcts:1000)")
    ap.add_argument("--theirs", default="ismcts:1000",
                    help="the other build's policy (default ismcts:1000)")
    ap.add_argument("--rules", default="classic", help="rule preset (default classic)")
    ap.add_argument("--games", type=count, default=2000,
                    help="games, in pairs on one deal (default 2000)")
    ap.add_argument("--seed", type=seed, default=2026, help="the match's seed (default 2026)")
    ap.add_argument("--workers", type=count, default=2,
                    help="pairs of processes playing at once (default 2)")
    ap.add_argument("--mine-config", default="{}",
                    help="settings of the search --mine names (JSON, for _search_config; "
                         "the key \"leaf\": \"fitted\" for the fitted leaf value, "
                         "or weights for cuttle._weights._set_leaf_weights)")
    ap.add_argument("--out", required=True, help="results, one JSON line a game")
    ap.add_argument("--report", action="store_true", help="only summarise --out")
    ap.add_argument("--pool", action="append", default=[], metavar="FILE",
                    help="with --report: another run's --out (e.g. another seed's), "
                         "summarised with --out as one match; repeatable")
    return ap


def worker_failed(failed, args):
    """A worker ended in an error (`failed`: its number and exit status, and any
    other's): say so, report the games finished, exit status 1."""
    rows = read(args.out)
    print(f"{len(failed)} of {args.workers} workers failed (worker {failed[0][0]}: exit "
          f"status {failed[0][1]}; its error is above): the match is incomplete; "
          + (f"the games finished are in {args.out}, which a rerun resumes; the report "
             f"below covers them" if rows else "no game finished"), file=sys.stderr)
    if rows:
        report(rows, args)
    sys.exit(1)


def main(argv):
    try:
        if argv[:1] == ["--serve"]:
            return serve(argv[1])
        if argv[:1] == ["--worker"]:
            return worker(parser().parse_args(argv[2:]), int(argv[1]))
    except KeyboardInterrupt:               # (Ctrl-C at a terminal reaches every process)
        sys.exit(130)
    ap = parser()
    args = ap.parse_args(argv)
    if args.pool and not args.report:
        ap.error("--pool needs --report (it summarises finished runs)")
    for path in [args.out] + args.pool if args.report else []:
        if not os.path.isfile(path):
            ap.error(f"--report: no file {path!r} to summarise")
    if not args.report:
        check_args(ap, args)
        procs = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker",
                                   str(w)] + argv) for w in range(args.workers)]
        try:
            for p in procs:
                p.wait()
            failed = [(w, p.returncode) for w, p in enumerate(procs) if p.returncode]
            if failed:
                worker_failed(failed, args)
        except KeyboardInterrupt:
            for p in procs:                 # (a Ctrl-C to this process alone leaves the
                p.terminate()               # workers playing)
            for p in procs:
                p.wait()
            print(f"interrupted: the games finished are in {args.out}, which a rerun "
                  f"resumes; the report below covers them", file=sys.stderr)
            report(read(args.out), args)
            sys.exit(130)
    report([dict(r, file=k) for k, path in enumerate([args.out] + args.pool)
            for r in read(path)], args)


if __name__ == "__main__":
    main(sys.argv[1:])
