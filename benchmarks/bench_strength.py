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

A --bot is handed its player's view (cuttle.policies.fair: a determinization, the cards
it cannot see dealt anew), never the live game, unless given as --bot-sees-all, which
marks it * as a full-information player.  Its file's folder is searched for the modules
it imports, as `python FILE.py` searches it.  A bot that raises, or returns no move or an
illegal one, stops the ladder with a one-line error naming the pairing (status 1); the
pairings played are rated and written, as at Ctrl-C, the one cut short with its games
that ended.

Ctrl-C stops the ladder within about a second (status 130).  The pairings played are
written to --json first ("ratings": null; "partial": true on the pairing cut short),
then rated and written again with their ratings; a Ctrl-C while they are rated (a
second one after a stop) ends the run in one line, the --json as it stands.

--reuse FILE takes the pairings of an earlier run's --json as they are, where that run
had the same rules, seed and game counts and neither policy is named in --replay (a
policy whose play changed since); every other pairing is played, and so is the one a
Ctrl-C or a bot's error cut short (that run may be a partial one).  A --bot's pairings
are reused only if what it ran is byte for byte what that run loaded: its file and
every module of the user's own the bots imported (outside the Python installation and
cuttle; the --json keeps each one's SHA-256), and with the same view; otherwise it is
played again, and the run says why.  The ladder is then refitted over them all, and the
native policies' times per move measured again; a bot's time per move comes from its
decisions in this run's games (n/a, null in the JSON, when all its pairings were reused).

Uses the public API (cuttle.simulate(...).summary(), cuttle.openspiel), and the command
line's checks of option values and output files (cuttle.cli.options), made before the
first game.
"""

import argparse
import json
import math
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import cuttle  # noqa: E402
from cuttle.cli import options  # noqa: E402
from cuttle.files import write_text  # noqa: E402
from cuttle.formatting import pct, quantity  # noqa: E402
from cuttle.interrupts import ctrl_c_deferred  # noqa: E402
from cuttle.policies import FULL_INFORMATION, policy_code  # noqa: E402
from cuttle.progress import Line, show_by_default  # noqa: E402
from ladder_bots import TimedPlayer, edited_bots, load_bots, ran_modules  # noqa: E402
from ladder_ratings import ANCHOR, bootstrap, fit_ratings, smoothed  # noqa: E402,F401

DEFAULT_POLICIES = "random,greedy,expert,ismcts:100,ismcts:1000,ismcts:10000"
SEARCH_BUDGET = 2_000_000        # games x iterations per pairing for ismcts:N
ANCHORS = ("cuttle.cards-ai", "openspiel-ismcts:100")
OPENSPIEL = "openspiel-ismcts"


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
    (`progress`: False or a callable(done, total), as cuttle.simulate takes it).
    Ctrl-C: cuttle.Interrupted, and a bot's error: cuttle.PolicyError, either with
    `pairing`, the same figures of the games that finished (None if none had)."""
    t = time.perf_counter()
    try:
        s = cuttle.simulate(n, rules, players=(a, b), seed=seed, threads=threads,
                            progress=progress).summary()
    except (cuttle.Interrupted, cuttle.PolicyError) as e:
        e.pairing = tally(e.result.summary(), e.done, t) if e.done else None
        raise
    return tally(s, n, t)


def tally(s, n, t):
    wa = round(s.win_rate(0).value * n)
    wb = round(s.win_rate(1).value * n)
    return wa, wb, n - wa - wb, n, time.perf_counter() - t


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
    timed = ~np.isnan(per_move)          # (a time n/a has no place on the cost axis)
    ax2.errorbar(per_move[timed], ratings[timed],
                 yerr=[(ratings - lo)[timed], (hi - ratings)[timed]], fmt="o", capsize=4)
    for x, r, nm in zip(per_move[timed], ratings[timed], np.asarray(names)[timed]):
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
                         "alongside --policies (repeatable); it is handed its player's "
                         "view (cuttle.policies.fair: the hidden cards dealt anew), its "
                         "file's folder is searched for the modules it imports")
    ap.add_argument("--bot-sees-all", action="append", default=[],
                    metavar="NAME=FILE.py:FUNCTION",
                    help="as --bot, but handed the live game, hidden cards included: "
                         "marked * in the table, as cuttle.cards-ai (repeatable)")
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
        bots = load_bots([("--bot", x, False) for x in args.bot]
                         + [("--bot-sees-all", x, True) for x in args.bot_sees_all],
                         set(names), ("ismcts", OPENSPIEL))
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


class Ladder:
    """What a run has played so far, kept whatever stops it: each pairing's (wins of a,
    wins of b, draws, games) in `results` and its seconds in `seconds`, the pairing cut
    short (`partial`: its games finished, fewer than it was to play), and what stopped
    the run (`stopped`: the KeyboardInterrupt of a Ctrl-C or a bot's PolicyError, with
    `error`, the bot's error in one line naming the pairing)."""

    def __init__(self, total):
        self.results, self.seconds, self.total = {}, {}, total
        self.partial = self.stopped = self.error = None
        self.written = None              # "pairings", "ratings" (--json), "all"

    def add(self, a, b, counts, seconds, partial=False):
        self.results[(a, b)], self.seconds[(a, b)] = counts, seconds
        if partial:
            self.partial = (a, b)

    def stop(self, e, where=None):
        if self.stopped is None:
            self.stopped = e
            if isinstance(e, cuttle.PolicyError):
                self.error = f"{where}: {e}"

    def outcome(self):
        """None for a whole run; else an Interrupted counting the pairings played (the
        one cut short among them), its `error` the bot's or None for Ctrl-C."""
        if self.stopped is None:
            return None
        out = cuttle.Interrupted(None, len(self.results), self.total, unit="pairing")
        out.error = self.error
        return out


def main(argv=None):
    args, names, players, rules, games, replay, reused = checked_args(argv)
    print(f"cuttle {cuttle.__version__}; rules {args.rules}; seed {args.seed}; "
          f"{os.cpu_count()} cores"
          + ("" if args.threads is None else f", {quantity(args.threads, 'thread')}"),
          flush=True)
    start = time.perf_counter()
    run = Ladder(len(names) * (len(names) - 1) // 2)
    try:
        play_ladder(args, names, players, rules, games, replay, reused, run)
    except KeyboardInterrupt as e:       # (a Ctrl-C between two pairings' games)
        run.stop(e)
    summarise(args, names, players, rules, run, start)


def summarise(args, names, players, rules, run, start):
    """The pairings played written first (--json, without ratings: a Ctrl-C while they
    are rated keeps them), then the ladder rated and written (`write_ladder`); the exit
    of a run cut short (130, 1 for a bot's error).  A Ctrl-C meanwhile (after the one
    that stopped the games, or the first after a whole run) ends the run in one line,
    status 130, with the pairings written if they were not yet."""
    stopped = run.outcome()
    if stopped:
        names = [x for x in names if any(x in k for k in run.results)]
    try:
        save_pairings(args, names, players, run, stopped)
        if stopped and stopped.error is None:
            print(f"interrupted: {len(run.results)} of {run.total} pairings played"
                  + (" (the last in part)" if run.partial else "")
                  + ("; the ladder below rests on them" if run.results else ""),
                  file=sys.stderr)
        if run.results:
            write_ladder(args, names, players, rules, run, stopped, start)
    except KeyboardInterrupt:
        try:
            save_pairings(args, names, players, run, stopped)
        except KeyboardInterrupt:        # (pressed again: they are written all the same)
            pass
        print(f"bench_strength.py: interrupted: {kept(args, run)}", file=sys.stderr)
        sys.exit(130)
    if stopped and stopped.error is not None:
        print(f"bench_strength.py: error: {stopped.error}", file=sys.stderr)
        sys.exit(1)
    if stopped:
        sys.exit(130)


def save_pairings(args, names, players, run, stopped):
    """The pairings played written to --json, whole whatever is pressed, unless they
    are (or there are none)."""
    if args.json and run.results and run.written is None:
        with ctrl_c_deferred():
            write_json(args.json, args, names, players, run, stopped, None)
            run.written = "pairings"


def kept(args, run):
    """What a Ctrl-C while the ladder is rated leaves, in words."""
    if run.written == "all":
        return "the ladder is written" + (f" to {args.json}" if args.json else "")
    if run.written == "ratings":
        return (f"the times per move were not measured; the pairings and ratings are "
                f"in {args.json}")
    if run.written == "pairings":
        one = len(run.results) == 1
        return (f"the ratings were not computed; the {quantity(len(run.results), 'pairing')} "
                f"played {'is' if one else 'are'} in {args.json} (--reuse takes "
                f"{'it' if one else 'them'})")
    return "the ratings were not computed; the pairings played are listed above"


def play_ladder(args, names, players, rules, games, replay, reused, run):
    """Every pairing played (or reused) into `run` (a Ladder), its line printed, with a
    progress line on stderr (--progress), until Ctrl-C or a bot's error (`run.stop`):
    the pairing it cut short kept with the games that finished, as the pairings
    before it."""
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    show = show_by_default() if args.progress is None else args.progress
    line = Line(every=0.25) if show else None
    w = max(map(len, names))            # (the lines aligned, whatever the names)
    for k, (a, b) in enumerate(pairs):
        scale = 10 if args.quick else 1
        n = min(cap(a, games, scale, args.anchor_games, args.search_budget),
                cap(b, games, scale, args.anchor_games, args.search_budget))
        old = reused.get((a, b))
        if old is not None and old["games"] == n and not old.get("partial") and \
                not {a, b} & replay:
            run.add(a, b, tuple(old[k] for k in ("wins_a", "wins_b", "draws", "games")),
                    old["seconds"])
            print(pairing_line(a, b, w, old["wins_a"], old["wins_b"], old["draws"], n,
                               "(reused)"), flush=True)
            continue
        progress = False if line is None else (
            lambda done, total, a=a, b=b, k=k: line.show(
                f"pairing {k + 1} of {len(pairs)}, {a} vs {b}: {done:,} of {total:,} games"))
        try:
            played = play_pairing(players[a], players[b], n, rules, args.seed,
                                  args.threads, progress)
        except (KeyboardInterrupt, cuttle.PolicyError) as e:   # the games that finished
            run.stop(e, f"pairing {k + 1} of {len(pairs)}, {a} vs {b}")
            played = getattr(e, "pairing", None)
        finally:
            if line is not None:
                line.clear()
        if played is None:
            break
        wa, wb, d, done, dt = played
        run.add(a, b, (wa, wb, d, done), dt, partial=done < n)
        cut = "" if not run.stopped else " (interrupted)" if run.error is None else \
            " (stopped by the bot's error)"
        print(pairing_line(a, b, w, wa, wb, d, done, f"({dt:,.0f} s){cut}"), flush=True)
        if run.stopped:
            break


def pairing_line(a, b, w, wa, wb, d, n, note):
    """A pairing's line: its games and each outcome's rate, printed as the library prints
    a rate (`cuttle.formatting.pct`, one decimal), names aligned to `w` characters."""
    return (f"{a:>{w}} vs {b:<{w}} {n:6,} games: {pct(wa / n, 1):>6} - {pct(wb / n, 1):>6}, "
            f"draws {pct(d / n, 1):>5}  {note}")


def write_ladder(args, names, players, rules, run, stopped, start):
    """The ratings fitted, --json written with them, their table printed (a partial
    ladder's first and last lines say so: `stopped`, its Interrupted), --plot drawn."""
    results = run.results
    ratings = fit_ratings(names, results)
    boot = bootstrap(names, results, args.bootstrap, np.random.default_rng(args.seed))
    lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
    if args.json and not stopped:        # (the times take a while: the ratings kept)
        with ctrl_c_deferred():
            write_json(args.json, args, names, players, run, stopped,
                       (ratings, lo, hi, np.full(len(names), np.nan)))
            run.written = "ratings"
    per_move = np.array([move_time(players[x], rules, args.seed, stopped) for x in names])
    with ctrl_c_deferred():              # (the outputs written whole, the table too)
        if args.json:
            write_json(args.json, args, names, players, run, stopped,
                       (ratings, lo, hi, per_move))
        print_table(names, players, run, stopped, start, (ratings, lo, hi, per_move))
        run.written = "all"
        if args.plot:
            order = np.argsort(-ratings)
            plot(args.plot, [names[i] for i in order], ratings[order], lo[order],
                 hi[order], per_move[order], args.rules)
            print(f"plot written to {args.plot}")


def print_table(names, players, run, stopped, start, figures):
    """The ladder's table on stdout, strongest first (a partial run's first and last
    lines say so), with the notes its marks and its n/a need."""
    ratings, lo, hi, per_move = figures
    played = {x: sum(v[3] for k, v in run.results.items() if x in k) for x in names}
    note = None if not stopped else stopped.note() if stopped.error is None else \
        stopped.note().replace("interrupted", "stopped by a bot's error", 1)
    print()
    if note:
        print(f"{note}\n")
    sees_all = [x in FULL_INFORMATION or getattr(players[x], "sees_all", False)
                for x in names]
    labels = [x + " *" if full else x for x, full in zip(names, sees_all)]
    w = max(len("policy"), *map(len, labels))
    print(f"{'policy':<{w}} {'Elo':>6} {'95% interval':>16} {'games':>8} {'time/move':>11}")
    for i in np.argsort(-ratings):
        print(f"{labels[i]:<{w}} {ratings[i]:6.0f} [{lo[i]:6.0f}, {hi[i]:6.0f}] "
              f"{played[names[i]]:8,} {fmt_time(per_move[i]):>11}")
    if any(x in FULL_INFORMATION for x in names):
        print("* a full-information reference: it reads both hands and the deck order")
    if any(full and x not in FULL_INFORMATION for x, full in zip(names, sees_all)):
        print("* --bot-sees-all: handed the live game, it may read both hands and the "
              "deck order")
    if not stopped and any(math.isnan(t) for t in per_move):
        print("time/move n/a: a Python player whose pairings were all reused made no "
              "move here to time")
    print(f"\n{sum(v[3] for v in run.results.values()):,} games in "
          f"{time.perf_counter() - start:,.0f} s")
    if note:
        print(f"\n{note}")


def move_time(player, rules, seed, stopped):
    """A player's CPU seconds per move: a native policy's measured in self-play, a
    Python player's from its decisions in this run's games; nan after Ctrl-C or a bot's
    error (no more play), and for a Python player that made no move here (its pairings
    all reused)."""
    if stopped:
        return float("nan")
    if isinstance(player, str):
        return time_per_move(player, rules, seed)
    return player.seconds / player.calls if player.calls else float("nan")


def write_json(path, args, names, players, run, stopped, figures):
    """The --json, written whole: the run, its bots' sources (`ran_modules`), every
    pairing (`partial`: the one cut short, which --reuse plays again) and, once rated
    (`figures`; None: before, "ratings" null), every rating; a time per move that is
    nan is null, as a partial run's error is said."""
    data = {"rules": args.rules, "seed": args.seed, "policies": names,
            "interrupted": stopped is not None,
            "bots": ran_modules([players[x] for x in names
                                 if hasattr(players[x], "source")]),
            "pairings": [{"a": a, "b": b, "wins_a": v[0], "wins_b": v[1], "draws": v[2],
                          "games": v[3], "seconds": run.seconds[(a, b)],
                          "partial": (a, b) == run.partial}
                         for (a, b), v in run.results.items()],
            "ratings": None}
    if figures is not None:
        ratings, lo, hi, per_move = figures
        data["ratings"] = {x: {"elo": float(ratings[i]), "low": float(lo[i]),
                               "high": float(hi[i]),
                               "seconds_per_move": None if math.isnan(per_move[i])
                               else float(per_move[i])}
                           for i, x in enumerate(names)}
    if stopped is not None and stopped.error is not None:
        data["error"] = stopped.error
    write_text(path, json.dumps(data, indent=1))


def load_reused(path, rules, seed, ap):
    """The pairings of an earlier --json run, by (a, b), and its --bot files ({name:
    {"file", "function", "sha256"}}); refused unless that run had these rules and seed.
    A run cut short (Ctrl-C, a bot's error) is taken too: its pairing cut short is
    marked `partial` (played again).  One written before pairings were marked is
    refused: which of its pairings is whole cannot be told."""
    try:
        with open(path) as f:
            old = json.load(f)
        pairings = {(p["a"], p["b"]): p for p in old["pairings"]}
        for p in pairings.values():
            if not all(isinstance(p[k], int) and p[k] >= 0
                       for k in ("wins_a", "wins_b", "draws", "games")) or \
                    p["wins_a"] + p["wins_b"] + p["draws"] != p["games"]:
                raise ValueError(f"pairing {p['a']} vs {p['b']}: counts that do not add up")
            if not isinstance(p.get("partial", False), bool):
                raise ValueError(f"pairing {p['a']} vs {p['b']}: 'partial' is not true "
                                 f"or false")
    except (OSError, ValueError, KeyError, TypeError) as e:
        ap.error(f"--reuse {path}: not a ladder's --json ({e})")
    if (old.get("rules"), old.get("seed")) != (rules, seed):
        ap.error(f"--reuse {path}: played with rules {old.get('rules')!r}, seed "
                 f"{old.get('seed')!r}; this run has rules {rules!r}, seed {seed}")
    if old.get("interrupted") is not False and \
            not all("partial" in p for p in pairings.values()):
        ap.error(f"--reuse {path}: an interrupted run written before the pairing cut "
                 f"short was marked (it cannot be told from the whole ones); play it "
                 f"again")
    bots = old.get("bots", {})
    if not isinstance(bots, dict) or not all(isinstance(b, dict) for b in bots.values()):
        ap.error(f"--reuse {path}: not a ladder's --json (its bots are not a mapping)")
    return pairings, bots


def fmt_time(sec):
    if math.isnan(sec):
        return "n/a"                    # (the library's word for a missing figure)
    if sec >= 1e-3:
        return f"{sec * 1e3:.1f} ms"
    return f"{sec * 1e6:.1f} us" if sec >= 1e-6 else f"{sec * 1e9:.0f} ns"


if __name__ == "__main__":
    try:
        main()
    finally:        # (all written: a Ctrl-C while Python exits would only cost the status)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
