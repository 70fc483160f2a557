"""The strength ladder: a round robin among policies, rated on one Elo scale.

    python benchmarks/bench_strength.py                          # classic, the default ladder
    python benchmarks/bench_strength.py --rules cuttle.cards --plot ladder.png
    python benchmarks/bench_strength.py --policies random,greedy,expert --games 2000
    python benchmarks/bench_strength.py --quick                  # a few minutes
    python benchmarks/bench_strength.py --anchors --rules cuttle.cards   # + reference players
    python benchmarks/bench_strength.py --reuse ladder.json --replay ismcts-infer:1000 ...
                                          # a policy changed: play only its pairings again
    python benchmarks/bench_strength.py --policies random,greedy --bot mine=mybot.py:choose
                                          # your own Python policy(game), rated as "mine"

Every pairing plays the same deals (the same seed, so game i of every pairing is dealt
alike) with the seats alternating.  The search bots are slow, so a pairing plays
min(cap(a), cap(b)) games, where cap is --games for the fast policies and
2,000,000 / N games for ismcts:N (200 for ismcts:10000): their intervals are wider, and the
table says how many games each rating rests on.

Ratings: a Bradley-Terry model on the Elo scale (a draw counts half a win to each
side), P(a beats b) = 1 / (1 + 10 ** ((R_b - R_a) / 400)), anchored at random = 0 and
fitted by maximum likelihood with half a virtual win to each side of every pairing (so
that a pairing won every time still gives a finite rating).  The 95% intervals are
percentiles of a parametric bootstrap: every pairing's result redrawn from the rates the
fit rates it on (those half wins included, so that a sweep varies too), the whole ladder
refitted.  Time per move: CPU seconds of one thread per move in
a short self-play run of each policy (forced moves included).

Anchors (--anchors): two reference players nobody here tuned join the round robin.
`cuttle.cards-ai` reproduces the online game's "vs AI" opponent; it is a FULL-INFORMATION
reference (it reads both hands and the deck order), not a fair player.
`openspiel-ismcts:N` is OpenSpiel's generic Python ISMCTSBot with random rollouts, N
simulations per decision (cuttle.openspiel.ISMCTSPlayer; needs the `openspiel` extra);
it plays --anchor-games games per pairing (it is slow: about a second per decision), and
its time per move is the CPU time of its own decisions in those games.

--reuse FILE takes the pairings of an earlier run's --json as they are, where that run
had the same rules, seed and game counts and neither policy is named in --replay (a
policy whose play changed since); every other pairing is played.  A --bot's pairings
are reused only if its file is byte for byte the one that run loaded (the --json keeps
each bot's file and SHA-256): an edited bot is played again, and the run says so.  The ladder is then
refitted over them all, and the times per move measured again.

Uses the public API (cuttle.simulate(...).summary(), cuttle.openspiel), and the command
line's checks of option values and output files (cuttle.cli.options), made before the
first game.
"""

import argparse
import hashlib
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import numpy as np  # noqa: E402

import cuttle  # noqa: E402
from cuttle.cli import options  # noqa: E402
from cuttle.formatting import pct, quantity  # noqa: E402
from cuttle.policies import FULL_INFORMATION, policy_code  # noqa: E402
from cuttle.policy_files import load_policy  # noqa: E402
from cuttle.progress import Line, show_by_default  # noqa: E402

DEFAULT_POLICIES = "random,greedy,expert,ismcts:100,ismcts:1000,ismcts:10000"
SEARCH_BUDGET = 2_000_000        # games x iterations per pairing for ismcts:N
ANCHOR = "random"
ANCHORS = ("cuttle.cards-ai", "openspiel-ismcts:100")
OPENSPIEL = "openspiel-ismcts"


class TimedPlayer:
    """A Python player that adds up the CPU seconds and calls of its decisions."""

    def __init__(self, player, name=None):
        self.player, self.seconds, self.calls = player, 0.0, 0
        self.__name__ = name or player.__name__

    def __call__(self, game, rng):
        t = time.process_time()
        try:
            return self.player(game, rng)
        finally:
            self.seconds += time.process_time() - t
            self.calls += 1


def make_players(names):
    """{name: what cuttle.simulate plays for it}: the name of a native policy, or a
    TimedPlayer for openspiel-ismcts:N; ValueError naming a name that is neither."""
    out = {}
    for x in names:
        kind, _, n = x.partition(":")
        if kind == OPENSPIEL:
            if n and not (n.isdigit() and int(n) > 0):
                raise ValueError(f"{x!r}: {OPENSPIEL}:N takes a positive count of "
                                 f"iterations, not {n!r}")
            from cuttle.openspiel import ISMCTSPlayer
            out[x] = TimedPlayer(ISMCTSPlayer(int(n or 100)))
        else:
            policy_code(x)               # the library's check: the valid names listed
            out[x] = x
    return out


def load_bots(specs, taken):
    """{NAME: TimedPlayer} of --bot NAME=FILE.py:FUNCTION options (`taken`: the names on
    the ladder already); ValueError saying what is wrong with one.  The function is a
    Python policy of either form cuttle.simulate takes: policy(game) or policy(game, rng),
    loaded as the cuttle command loads a --players FILE.py:FUNCTION
    (`cuttle.policy_files.load_policy`: its folder on sys.path while it loads)."""
    bots = {}
    for spec in specs:
        name, eq, where = spec.partition("=")
        path, colon, func = where.rpartition(":")
        name = name.strip()
        if not (eq and colon and name and path and func):
            raise ValueError(f"--bot takes NAME=FILE.py:FUNCTION, not {spec!r}")
        if any(c in name for c in ",:= ") or name.lower() in taken or name in bots or \
                name.lower().startswith(("ismcts", OPENSPIEL)):
            raise ValueError(f"--bot {spec}: the name {name!r} must be new to the ladder, "
                             f"not start like a search's (ismcts, {OPENSPIEL}) and hold no "
                             f"comma, colon, '=' or space")
        try:
            policy = load_policy(where)
        except ValueError as e:
            raise ValueError(f"--bot {name}={e}") from None
        bots[name] = TimedPlayer(policy, name)
        bots[name].source = {"file": policy.path, "function": policy.function,
                             "sha256": file_hash(policy.path)}
    return bots


def file_hash(path):
    """The SHA-256 of a file's bytes: what --reuse compares to tell an edited bot."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def cap(name, games, scale=1, anchor_games=200, budget=SEARCH_BUDGET):
    """How many games a pairing involving `name` may play (scale: 10 for --quick)."""
    kind, _, n = name.partition(":")
    if kind == OPENSPIEL:
        return anchor_games
    if kind.startswith("ismcts"):
        return min(games, max(10, budget // int(n or 1000) // scale))
    return games


def play_pairing(a, b, n, rules, seed, threads, progress=False):
    """(wins of a, wins of b, draws, games, seconds) of n games, seats alternating
    (`progress`: False or a callable(done, total), as cuttle.simulate takes it).  Ctrl-C: cuttle.Interrupted, its `pairing` the same figures of the games finished
    (None if none were)."""
    t = time.perf_counter()
    try:
        s = cuttle.simulate(n, rules, players=(a, b), seed=seed, threads=threads,
                            progress=progress).summary()
    except cuttle.Interrupted as e:
        e.pairing = tally(e.result.summary(), e.done, t) if e.done else None
        raise
    return tally(s, n, t)


def tally(s, n, t):
    wa = round(s.win_rate(0).value * n)
    wb = round(s.win_rate(1).value * n)
    return wa, wb, n - wa - wb, n, time.perf_counter() - t


PRIOR = 0.5                      # virtual wins each way of every pairing


def smoothed(wa, wb, d, prior=PRIOR):
    """A pairing's (wins of a, wins of b, draws) with `prior` virtual wins each way: the
    counts the fit rates it on (its rates: each over their sum, n + 2 prior), and the
    bootstrap redraws it from, so that a sweep (10 of 10) still varies."""
    return wa + prior, wb + prior, d


def fit_ratings(names, results, prior=PRIOR, iters=2000):
    """Elo ratings (anchor = 0) from {(a, b): (wins a, wins b, draws, n)} by Bradley-Terry
    maximum likelihood (Hunter's MM iteration), on the `smoothed` counts."""
    k = len(names)
    idx = {x: i for i, x in enumerate(names)}
    w = np.zeros((k, k))                 # w[i, j]: wins of i over j (draws as halves)
    for (a, b), (wa, wb, d, _) in results.items():
        i, j = idx[a], idx[b]
        sa, sb, sd = smoothed(wa, wb, d, prior)
        w[i, j] += sa + sd / 2
        w[j, i] += sb + sd / 2
    games = w + w.T
    gamma = np.ones(k)
    for _ in range(iters):
        denom = (games / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = w.sum(axis=1) / denom
        new /= new[idx[ANCHOR]] if ANCHOR in idx else new.mean()
        if np.max(np.abs(np.log(new) - np.log(gamma))) < 1e-10:
            gamma = new
            break
        gamma = new
    return 400 * np.log10(gamma)


def bootstrap(names, results, reps, rng):
    """Ratings refitted on `reps` parametric resamples of every pairing: a (reps,
    len(names)) array.  Each pairing's n games are redrawn from the rates the fit rates
    it on (its `smoothed` counts over their sum), not its observed rates, which never
    vary for a pairing won every time.  `rng`: a numpy Generator
    (np.random.default_rng(seed)); TypeError for anything else."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"bootstrap needs a numpy Generator (np.random.default_rng(seed)), "
                        f"not {rng!r}")
    out = np.empty((reps, len(names)))
    for r in range(reps):
        fake = {}
        for key, (wa, wb, d, n) in results.items():
            counts = np.array(smoothed(wa, wb, d), float)
            fake[key] = tuple(rng.multinomial(n, counts / counts.sum())) + (n,)
        out[r] = fit_ratings(names, fake)
    return out


def time_per_move(name, rules, seed):
    """CPU seconds per move of `name` in a short one-thread self-play run."""
    kind, _, n = name.partition(":")
    games = 2000 if not kind.startswith("ismcts") else max(1, 20_000 // int(n or 1000))
    t = time.process_time()
    res = cuttle.simulate(games, rules, players=(name, name), seed=seed, threads=1,
                          progress=False)
    dt = time.process_time() - t
    moves = res.summary().mean_moves().value * games
    return dt / max(moves, 1)


def plot(path, names, ratings, lo, hi, per_move, rules):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 0.5 * len(names) + 2.5))
    y = np.arange(len(names))
    ax1.errorbar(ratings, y, xerr=[ratings - lo, hi - ratings], fmt="o", capsize=4)
    ax1.set_yticks(y, names)
    ax1.invert_yaxis()                   # the strongest on top
    ax1.set_xlabel("Elo (random = 0), 95% bootstrap interval")
    ax1.set_title(f"Strength ladder, {rules} rules")
    ax1.grid(axis="x", alpha=0.3)
    ax2.errorbar(per_move, ratings, yerr=[ratings - lo, hi - ratings], fmt="o", capsize=4)
    for x, r, nm in zip(per_move, ratings, names):
        ax2.annotate(nm, (x, r), textcoords="offset points", xytext=(6, -4), fontsize=8)
    ax2.set_xscale("log")
    ax2.set_xlabel("CPU seconds per move (one thread)")
    ax2.set_ylabel("Elo")
    ax2.set_title("Strength against cost")
    ax2.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def parser():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default="classic", help="rule preset (default classic)")
    ap.add_argument("--policies", default=DEFAULT_POLICIES,
                    help=f"comma-separated, at least two, each once (default "
                         f"{DEFAULT_POLICIES}); must include {ANCHOR!r}, the anchor")
    ap.add_argument("--games", type=options.positive, default=20_000,
                    help="games per pairing of fast policies (search bots: 2,000,000 / N)")
    ap.add_argument("--seed", type=options.seed, default=2026,
                    help="seed of the deals, the same for every pairing (default 2026)")
    ap.add_argument("--threads", type=options.threads, default=None,
                    help="cores to use (default: all)")
    ap.add_argument("--bootstrap", type=options.positive, default=500,
                    help="bootstrap resamples for the intervals (default 500)")
    ap.add_argument("--quick", action="store_true", help="a tenth of the games per pairing (at least 20 and never more than --games; "
                         "search bots: a tenth of theirs, at least 10)")
    ap.add_argument("--bot", action="append", default=[], metavar="NAME=FILE.py:FUNCTION",
                    help="rate your own Python policy(game) or policy(game, rng) as NAME "
                         "alongside --policies (repeatable)")
    ap.add_argument("--anchors", action="store_true",
                    help=f"add the reference players {', '.join(ANCHORS)}")
    ap.add_argument("--anchor-games", type=options.positive, default=200,
                    help=f"games per pairing of {OPENSPIEL}:N (default 200)")
    ap.add_argument("--search-budget", type=options.positive, default=SEARCH_BUDGET,
                    help=f"games x iterations per pairing of ismcts:N (default "
                         f"{SEARCH_BUDGET:,})")
    options.add_progress(ap, "a line of the pairing playing (games done of its total)")
    ap.add_argument("--plot", metavar="FILE", help="draw the ladder (needs matplotlib: pip install \"pycuttle[plot]\")")
    ap.add_argument("--json", metavar="FILE", help="write every figure as JSON")
    ap.add_argument("--reuse", metavar="FILE",
                    help="take the pairings of this earlier --json run (same rules, seed "
                         "and game counts) instead of playing them again")
    ap.add_argument("--replay", default="", metavar="POLICIES",
                    help="with --reuse: the policies (comma-separated) whose pairings are "
                         "played again (their play changed)")
    return ap


def check_outputs(ap, args):
    """--json and --plot refused before any game (as `cuttle simulate` does): a missing
    or read-only folder, a folder, one file named twice, an image format unknown."""
    try:
        options.output_files(**{"--json": args.json, "--plot": args.plot})
        if args.plot:
            from cuttle.render.plot import check_plot_path
            check_plot_path(args.plot)
    except (options.UsageError, ValueError) as e:
        ap.error(str(e) if str(e).startswith("--") else f"--plot: {e}")
    except ImportError as e:                 # (no matplotlib: how to install it)
        ap.error(f"--plot: {e}")


def checked_args(argv):
    """The options, every one checked before the first game: (args, the ladder's
    names, their players, the rules, the games per pairing, the policies to replay,
    the pairings reused)."""
    ap = parser()
    args = ap.parse_args(argv)
    names = [x.strip().lower() for x in args.policies.split(",") if x.strip()]
    twice = sorted({x for x in names if names.count(x) > 1})
    if twice:
        ap.error(f"--policies names {', '.join(map(repr, twice))} more than once")
    if args.anchors:
        names += [x for x in ANCHORS if x not in names]
    try:
        players = make_players(names)
    except ValueError as e:              # (it was a traceback)
        ap.error(f"--policies: {e}")
    try:
        bots = load_bots(args.bot, set(names))
    except ValueError as e:
        ap.error(str(e))
    names += list(bots)
    players.update(bots)
    if ANCHOR not in names:
        ap.error(f"the ladder needs {ANCHOR!r} (the anchor) among --policies")
    if len(names) < 2:
        ap.error(f"a ladder needs at least two policies, not {len(names)}: add some to "
                 f"--policies (e.g. random,greedy)")
    try:
        rules = cuttle.Rules(args.rules)
    except ValueError as e:
        ap.error(f"--rules: {e}")
    check_outputs(ap, args)
    games = min(args.games, max(20, args.games // 10)) if args.quick else args.games
    replay = {x.strip().lower() for x in args.replay.split(",") if x.strip()}
    if replay and not args.reuse:
        ap.error("--replay needs --reuse (the run whose other pairings are kept)")
    if replay - set(names):
        ap.error(f"--replay names policies not in the ladder: {', '.join(sorted(replay - set(names)))}")
    reused, old_bots = load_reused(args.reuse, args.rules, args.seed, ap) if args.reuse \
        else ({}, {})
    replay |= edited_bots(bots, old_bots, reused)
    return args, names, players, rules, games, replay, reused


def main(argv=None):
    args, names, players, rules, games, replay, reused = checked_args(argv)
    print(f"cuttle {cuttle.__version__}; rules {args.rules}; seed {args.seed}; "
          f"{os.cpu_count()} cores"
          + ("" if args.threads is None else f", {quantity(args.threads, 'thread')}"),
          flush=True)
    start = time.perf_counter()
    results, seconds, stopped = play_ladder(args, names, players, rules, games, replay,
                                            reused)
    if stopped:
        if not results:
            sys.exit(130)
        names = [x for x in names if any(x in k for k in results)]
    write_ladder(args, names, players, rules, results, seconds, stopped, start)
    if stopped:
        sys.exit(130)


def play_ladder(args, names, players, rules, games, replay, reused):
    """Every pairing played (or reused), its line printed: (results, seconds, the
    Interrupted of a Ctrl-C or None), with a progress line on stderr (--progress)."""
    results, seconds = {}, {}
    stopped = None
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    show = show_by_default() if args.progress is None else args.progress
    line = Line(every=0.25) if show else None
    w = max(map(len, names))            # (the lines aligned, whatever the names)
    for k, (a, b) in enumerate(pairs):
        scale = 10 if args.quick else 1
        n = min(cap(a, games, scale, args.anchor_games, args.search_budget),
                cap(b, games, scale, args.anchor_games, args.search_budget))
        old = reused.get((a, b))
        if old is not None and old["games"] == n and not {a, b} & replay:
            results[(a, b)] = tuple(old[k] for k in ("wins_a", "wins_b", "draws", "games"))
            seconds[(a, b)] = old["seconds"]
            print(pairing_line(a, b, w, old["wins_a"], old["wins_b"], old["draws"], n,
                               "(reused)"), flush=True)
            continue
        progress = False if line is None else (
            lambda done, total, a=a, b=b, k=k: line.show(
                f"pairing {k + 1} of {len(pairs)}, {a} vs {b}: {done:,} of {total:,} games"))
        try:
            wa, wb, d, n, dt = play_pairing(players[a], players[b], n, rules, args.seed,
                                            args.threads, progress)
        except cuttle.Interrupted as e:      # Ctrl-C: the ladder of what finished
            stopped = e
            if e.pairing is None:
                break
            wa, wb, d, n, dt = e.pairing
        finally:
            if line is not None:
                line.clear()
        results[(a, b)] = (wa, wb, d, n)
        seconds[(a, b)] = dt
        print(pairing_line(a, b, w, wa, wb, d, n, f"({dt:,.0f} s)"
                           + (" (interrupted)" if stopped else "")), flush=True)
        if stopped:
            break
    if stopped:
        print(f"interrupted: {len(results)} of {len(pairs)} pairings played (the last in "
              f"part); the ladder below rests on them", file=sys.stderr)
        stopped = cuttle.Interrupted(None, len(results), len(pairs), unit="pairing")
    return results, seconds, stopped


def pairing_line(a, b, w, wa, wb, d, n, note):
    """A pairing's line: its games and each outcome's rate, printed as the library prints
    a rate (`cuttle.formatting.pct`, one decimal), names aligned to `w` characters."""
    return (f"{a:>{w}} vs {b:<{w}} {n:6,} games: {pct(wa / n, 1):>6} - {pct(wb / n, 1):>6}, "
            f"draws {pct(d / n, 1):>5}  {note}")


def write_ladder(args, names, players, rules, results, seconds, stopped, start):
    """The ratings fitted, their table printed (a partial ladder's first and last lines
    say so: `stopped`, its Interrupted), --json and --plot written."""
    ratings = fit_ratings(names, results)
    boot = bootstrap(names, results, args.bootstrap, np.random.default_rng(args.seed))
    lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
    per_move = np.array([float("nan") if stopped else         # (no more play after Ctrl-C)
                         time_per_move(x, rules, args.seed) if isinstance(players[x], str)
                         else players[x].seconds / max(players[x].calls, 1) for x in names])
    played = {x: sum(v[3] for k, v in results.items() if x in k) for x in names}
    order = np.argsort(-ratings)
    print()
    if stopped:
        print(f"{stopped.note()}\n")
    labels = [x + " *" if x in FULL_INFORMATION else x for x in names]
    w = max(len("policy"), *map(len, labels))
    print(f"{'policy':<{w}} {'Elo':>6} {'95% interval':>16} {'games':>8} {'time/move':>11}")
    for i in order:
        print(f"{labels[i]:<{w}} {ratings[i]:6.0f} [{lo[i]:6.0f}, {hi[i]:6.0f}] "
              f"{played[names[i]]:8,} {fmt_time(per_move[i]):>11}")
    if any(x in FULL_INFORMATION for x in names):
        print("* a full-information reference: it reads both hands and the deck order")
    print(f"\n{sum(v[3] for v in results.values()):,} games in "
          f"{time.perf_counter() - start:,.0f} s")
    if stopped:
        print(f"\n{stopped.note()}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rules": args.rules, "seed": args.seed, "policies": names,
                       "interrupted": stopped is not None,
                       "bots": {x: players[x].source for x in names
                                if hasattr(players[x], "source")},
                       "pairings": [{"a": a, "b": b, "wins_a": v[0], "wins_b": v[1],
                                     "draws": v[2], "games": v[3],
                                     "seconds": seconds[(a, b)]}
                                    for (a, b), v in results.items()],
                       "ratings": {x: {"elo": float(ratings[i]), "low": float(lo[i]),
                                       "high": float(hi[i]),
                                       "seconds_per_move": None if stopped
                                       else float(per_move[i])}
                                   for i, x in enumerate(names)}}, f, indent=1)
    if args.plot:
        plot(args.plot, [names[i] for i in order], ratings[order], lo[order], hi[order],
             per_move[order], args.rules)
        print(f"plot written to {args.plot}")


def load_reused(path, rules, seed, ap):
    """The pairings of an earlier --json run, by (a, b), and its --bot files ({name:
    {"file", "function", "sha256"}}); refused unless that run had these rules and seed
    and was not interrupted."""
    try:
        with open(path) as f:
            old = json.load(f)
        pairings = {(p["a"], p["b"]): p for p in old["pairings"]}
        for p in pairings.values():
            if not all(isinstance(p[k], int) and p[k] >= 0
                       for k in ("wins_a", "wins_b", "draws", "games")) or \
                    p["wins_a"] + p["wins_b"] + p["draws"] != p["games"]:
                raise ValueError(f"pairing {p['a']} vs {p['b']}: counts that do not add up")
    except (OSError, ValueError, KeyError, TypeError) as e:
        ap.error(f"--reuse {path}: not a ladder's --json ({e})")
    if (old.get("rules"), old.get("seed"), old.get("interrupted")) != (rules, seed, False):
        ap.error(f"--reuse {path}: played with rules {old.get('rules')!r}, seed "
                 f"{old.get('seed')!r}" + (", interrupted" if old.get("interrupted") else "")
                 + f"; this run has rules {rules!r}, seed {seed}")
    bots = old.get("bots", {})
    if not isinstance(bots, dict) or not all(isinstance(b, dict) for b in bots.values()):
        ap.error(f"--reuse {path}: not a ladder's --json (its bots are not a mapping)")
    return pairings, bots


def edited_bots(bots, old_bots, reused):
    """The --bot names whose pairings in `reused` came from another file than the one
    loaded now (edited, or the run kept no hash of it), each said on stderr: they are
    played again, as --replay's are."""
    edited = set()
    for name, bot in bots.items():
        if not any(name in k for k in reused):
            continue
        if old_bots.get(name, {}).get("sha256") != bot.source["sha256"]:
            edited.add(name)
            print(f"--reuse: bot {name!r} ({bot.source['file']}) is not the file that run "
                  f"loaded; its pairings are played again", file=sys.stderr)
    return edited


def fmt_time(sec):
    if math.isnan(sec):
        return "-"
    if sec >= 1e-3:
        return f"{sec * 1e3:.1f} ms"
    return f"{sec * 1e6:.1f} us" if sec >= 1e-6 else f"{sec * 1e9:.0f} ns"


if __name__ == "__main__":
    main()
