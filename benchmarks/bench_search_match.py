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
Results are appended to --out as they finish.  Its first line records the match (the
options that make its games: --mine, --mine-config, --theirs, --rules, --seed, the move
guard, and each build's commit and a hash of its cuttle/ sources); a rerun on the same
file resumes it, playing only the games not there yet (--games may grow), and refuses
another match, naming the option that differs.  --report labels the games from that
line, not from the command line; a file of an older version, without it, is reported as
"(options not recorded)".  Every line is checked when the file is read (a game's
score, seat, counts and CPU times, no game twice), and a line out of range is refused
naming the file's line; a last line an interrupted write cut off is ignored (dropped
by a rerun, which plays its game again).  --pool pools runs of one match under other seeds (any other
difference is refused); a file without the line is pooled with each file's label said.
Runs of nearby seeds share deals (seed 2035's deals are 2035 to 2035 + games/2 - 1):
pooled, a deal counts once, its pairs' scores averaged, and the report says how many
pairs the deals held.

The score is this checkout's (a draw counts half), with a 95% interval from the
per-pair variance (paired deals; cuttle.stats.score_interval, whose pseudo-pairs
scoring 0 and 1 give it a width even when every pair scored the same), and as Elo:
400 log10(score / (1 - score)) (cuttle.stats.elo_from_score).
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time

from match_file import (FORMAT, HERE, check_match, check_row, from_here, is_int,  # noqa: F401
                        mend, read, scan)

MOVE_GUARD = 3000                    # a game still running after this many moves: draw
# What makes a match's games, each with how a refusal names it (the seed last: runs of
# one match under other seeds are what --pool pools).
MATCH_KEYS = (("mine", "--mine"), ("mine_config", "--mine-config"), ("theirs", "--theirs"),
              ("rules", "--rules"), ("move_guard", "the move guard (MOVE_GUARD)"),
              ("mine_source", "this checkout's cuttle/ sources"),
              ("other_source", "the other build's cuttle/ sources (--other)"),
              ("seed", "--seed"))


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
    done = set(r["game"] for r in scan(args.out)[1])  # (the main process checked the match)
    for i in range(w, args.games, args.workers):
        if i in done:
            continue
        row = play_game(i, args, cuttle, Bot, other)
        with open(args.out, "a") as f:
            f.write(json.dumps(row) + "\n")
    other.close()


def git_commit(root):
    """A checkout's commit (short, '+modified' with uncommitted changes to cuttle/), or
    None where git cannot read it (not a checkout of its own, no git)."""
    def git(*cmd):
        run = subprocess.run(["git", "-C", root, *cmd], capture_output=True, text=True,
                             timeout=60)
        return run.stdout.strip() if run.returncode == 0 else None
    try:
        top = git("rev-parse", "--show-toplevel")
        if top is None or os.path.realpath(top) != os.path.realpath(root):
            return None                  # (a folder inside another checkout: not its own)
        head = git("rev-parse", "--short=7", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no", "--", "cuttle")
    except (OSError, subprocess.TimeoutExpired):
        return None
    return head and head + ("+modified" if dirty else "")


def source_hash(root):
    """The SHA-256 of a checkout's cuttle/ sources (.py, .pyx, .pxd, as they are on disk,
    committed or not): what its games are played by."""
    pkg = os.path.join(root, "cuttle")
    h = hashlib.sha256()
    for folder, dirs, files in os.walk(pkg):            # (top down, in a fixed order)
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(f for f in files if f.endswith((".py", ".pyx", ".pxd"))):
            with open(os.path.join(folder, name), "rb") as f:
                data = f.read()
            rel = os.path.relpath(os.path.join(folder, name), pkg).replace(os.sep, "/")
            h.update(f"{rel}\0{len(data)}\0".encode() + data)
    return h.hexdigest()


def match_of(args):
    """The match these options play: the --out file's first line."""
    import cuttle
    mine = os.path.join(HERE, "..")
    return {"format": FORMAT, "mine": args.mine, "mine_config": json.loads(args.mine_config),
            "theirs": args.theirs, "rules": str(cuttle.Rules.coerce(args.rules)),
            "seed": args.seed, "move_guard": MOVE_GUARD,
            "mine_commit": git_commit(mine), "mine_source": source_hash(mine),
            "other": os.path.abspath(args.other), "other_commit": git_commit(args.other),
            "other_source": source_hash(args.other)}


def differences(a, b, keys=MATCH_KEYS):
    """The options of `keys` on which two matches differ: [(how it is named, key)]."""
    return [(said, k) for k, said in keys if a.get(k) != b.get(k)]


def shown(match, key):
    """A match's option as a refusal names it (a build's sources by its commit)."""
    if key.endswith("_source"):
        commit = match.get(key.replace("_source", "_commit"))
        return f"those of {commit or 'an unknown commit'} ({str(match.get(key))[:12]})"
    return json.dumps(match.get(key), sort_keys=True)


def said_apart(a, b, where_a, where_b, keys=MATCH_KEYS):
    """The differences of two matches as a refusal says them ("" if none)."""
    return "; ".join(f"{said} {shown(a, k)} {where_a}, {shown(b, k)} {where_b}"
                     for said, k in differences(a, b, keys))


def label(match):
    """A match's line, from its file: who played whom (each build's commit), the rules."""
    config = f" {json.dumps(match['mine_config'], sort_keys=True)}" \
        if match["mine_config"] else ""
    mine, other = (match[k] or "commit unknown" for k in ("mine_commit", "other_commit"))
    return (f"{match['mine']}{config} (this checkout, {mine}) vs {match['theirs']} "
            f"({match['other']}, {other}), rules {match['rules']}")


def pooled_label(files):
    """The report's title of one or more runs ([(path, match or None, rows)]); ValueError
    for runs that are not one match under different seeds."""
    paths = [p for p, _, _ in files]
    runs = f"{len(files)} runs pooled ({', '.join(paths)})"
    if any(m is None for _, m, _ in files):      # (options unknown: each run labelled)
        lines = [f"  {p}: " + ("(options not recorded)" if m is None else
                               f"{label(m)}, seed {m['seed']}") for p, m, _ in files]
        return (f"{paths[0]} (options not recorded)" if len(files) == 1 else
                "\n".join([runs] + lines))
    first = files[0][1]
    seeds = []
    for path, m, _ in files:
        diff = said_apart(m, first, f"in {path}", f"in {paths[0]}", MATCH_KEYS[:-1])
        if diff:
            raise ValueError(f"--pool {path}: another match than {paths[0]}'s ({diff}); "
                             f"report them apart")
        if m["seed"] in seeds:
            raise ValueError(f"--pool {path}: seed {m['seed']} twice, the same games: pool "
                             f"runs of other seeds")
        seeds.append(m["seed"])
    if len(files) == 1:
        return f"{label(first)}, seed {first['seed']}"
    return f"{label(first)}, seeds {', '.join(map(str, seeds))}, {runs}"


def report(files):
    """The score over the complete pairs (a game whose pair is unfinished counts nowhere),
    the mean of the deals' scores (a deal's: the mean of its pairs), with its interval
    from their variance (`cuttle.stats.score_interval`): none from one deal, and kept within [0, 1] (an Elo bound at 0% or 100% is infinite).
    `files`: [(path, its match or None, its rows)], every label read from them."""
    title = pooled_label(files)
    pairs = {}
    for k, (_, _, rows) in enumerate(files):        # (a pair is two games of one run)
        for r in rows:
            pairs.setdefault((k, r["game"] // 2), []).append(r)
    complete = {key: v for key, v in pairs.items() if len(v) == 2}
    if not complete:
        print("no complete pair yet")
        return
    # Runs of nearby seeds share deals (game 2k's deal is seed + k): the unit of the
    # interval is the deal, each one's pairs averaged, so a deal played by several runs
    # counts once.  (A file without its match's line keeps its deals its own: its seed
    # is not recorded.)
    by_deal = {}
    for (k, pair), v in complete.items():
        m = files[k][1]
        deal = ("deal", m["seed"] + pair) if m is not None else ("run", k, pair)
        by_deal.setdefault(deal, []).append(sum(r["score"] for r in v) / 2)
    full = [sum(v) / len(v) for v in by_deal.values()]      # (the score: their mean)
    complete = list(complete.values())
    games = [r for v in complete for r in v]
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
    head, _, rest = title.partition("\n")
    shared = "" if len(full) == len(complete) else \
        f" ({len(complete)} pairs: runs of nearby seeds share deals)"
    print(f"{head}: {len(games)} games in {len(full)} paired deals{shared}" +
          (f"\n{rest}" if rest else ""))
    print(f"  wins {wins}, draws {draws}, losses {len(games) - wins - draws}")
    if len(full) < 2:                               # (no variance to read an interval from)
        print(f"  score {mean:.1%} (no interval from one deal)")
        print(f"  Elo {elo(mean)}")
    else:                       # (a pair's score is in [0, 1]: the library's score interval)
        _, low, high = score_interval(len(full), sum(full), sum(x * x for x in full))
        print(f"  score {mean:.1%} [{low:.1%}, {high:.1%}] (95%, paired)")
        print(f"  Elo {elo(mean)} [{elo(low)}, {elo(high)}]")
    ratio = f"{cpu[0] / cpu[1]:.2f}" if cpu[1] else "n/a"
    print(f"  CPU per decision: mine {cpu[0] * 1e3:.2f} ms, theirs {cpu[1] * 1e3:.2f} ms "
          f"(ratio {ratio})")


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
    import cuttle
    from cuttle.cli import options
    try:
        options.policy(args.mine, "--mine")
        options.output_files(**{"--out": args.out})
        if not isinstance(json.loads(args.mine_config), dict):
            raise options.UsageError("--mine-config takes a JSON object")
        cuttle.Rules.coerce(args.rules)
    except options.UsageError as e:
        ap.error(str(e))
    except json.JSONDecodeError as e:
        ap.error(f"--mine-config: not JSON ({e})")
    except ValueError as e:
        ap.error(f"--rules: {e}")
    check_other(ap, args)


def start_out(ap, args):
    """The --out file's match checked against these options, or its first line written
    (an absent or empty file): whether this run made it.  A rerun resumes only its own
    match; a file of an older version, without the line, cannot be resumed."""
    match = match_of(args)
    try:
        old, rows, last = scan(args.out)
    except ValueError as e:
        ap.error(f"--out: {e}")
    if old is None and rows:
        ap.error(f"--out {args.out}: its {len(rows)} games record no options (a file of "
                 f"an older version of this script), so a rerun cannot tell whether they "
                 f"are this match's: write to another file (--report still summarises it)")
    if old is not None:
        diff = said_apart(old, match, "in the file", "now")
        if diff:
            ap.error(f"--out {args.out} holds another match, whose games a rerun would mix "
                     f"with these: {diff}. Use another --out, or that match's options")
        mend(args.out, last)
        return False
    with open(args.out, "w") as f:
        f.write(json.dumps({"match": match}) + "\n")
    return True


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
    ap.add_argument("--other", help="the other checkout (its build); needed but with "
                                    "--report")
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
    ap.add_argument("--out", required=True,
                    help="results: a line of the match's options, then a JSON line a game")
    ap.add_argument("--report", action="store_true",
                    help="only summarise --out, labelled by the options it records")
    ap.add_argument("--pool", action="append", default=[], metavar="FILE",
                    help="with --report: another run of the same match under another "
                         "seed, summarised with --out as one match; repeatable")
    return ap


def worker_failed(failed, args, made):
    """A worker ended in an error (`failed`: its number and exit status, and any
    other's): say so, report the games finished, exit status 1.  (`made`: this run
    made --out, removed if no game finished.)"""
    match, rows = read(args.out)
    print(f"{len(failed)} of {args.workers} workers failed (worker {failed[0][0]}: exit "
          f"status {failed[0][1]}; its error is above): the match is incomplete; "
          + (f"the games finished are in {args.out}, which a rerun resumes; the report "
             f"below covers them" if rows else "no game finished"), file=sys.stderr)
    if rows:
        report([(args.out, match, rows)])
    elif made:
        os.remove(args.out)
    sys.exit(1)


def play(ap, args, argv):
    """The match played by --workers pairs of processes, --out made or resumed."""
    check_args(ap, args)
    made = start_out(ap, args)
    procs = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker",
                               str(w)] + argv) for w in range(args.workers)]
    try:
        for p in procs:
            p.wait()
        failed = [(w, p.returncode) for w, p in enumerate(procs) if p.returncode]
        if failed:
            worker_failed(failed, args, made)
    except KeyboardInterrupt:
        for p in procs:                 # (a Ctrl-C to this process alone leaves the
            p.terminate()               # workers playing)
        for p in procs:
            p.wait()
        match, rows = read(args.out)
        if made and not rows:
            os.remove(args.out)
        print(f"interrupted: the games finished are in {args.out}, which a rerun "
              f"resumes; the report below covers them" if rows else
              "interrupted before a game finished", file=sys.stderr)
        if rows:
            report([(args.out, match, rows)])
        sys.exit(130)


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
    if not args.report:
        if args.other is None:
            ap.error("the following arguments are required: --other (but with --report)")
        play(ap, args, argv)
    files = []
    for path in [args.out] + args.pool:
        if not os.path.isfile(path):
            ap.error(f"--report: no file {path!r} to summarise")
        try:
            files.append((path,) + read(path))
        except ValueError as e:
            ap.error(f"--report: {e}")
    try:
        report(files)
    except ValueError as e:
        ap.error(str(e))


if __name__ == "__main__":
    main(sys.argv[1:])
