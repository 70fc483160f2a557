"""`cuttle balance`: the balance designer (see `cuttle.balance`)."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap

from ..balancing import CHEAP, QUICK, QUICK_FLAGS, SEARCH, BalanceInterrupted, balance
from ..files import write_text
from ..render.plot import check_plot_path
from ..report.pages import balance_page, save_page
from ..rules import Rules
from ..simulation import DEFAULT_MAX_MOVES
from ..simulation.api import MAX_CHUNK, MAX_MAX_MOVES
from . import options
from .options import CommandError, UsageError
from .simulate import Cluster, write_outputs

__all__ = ["add_command"]

EPILOG = """examples:
  cuttle balance --quick                        a small search in under a minute
  cuttle balance --base cuttle.cards -k 2 --exclude open_hands --max-draws 2 \\
                 --results balance.jsonl --html balance.html
  cuttle balance --results balance.jsonl --check ismcts:1000 --check-games 2000
  (run the same command again to continue an interrupted search; add --report-only to
  print the tables from the results file without playing)"""


def _points(text):
    """Percentage points, 0 < x < 100, as a fraction."""
    try:
        v = float(str(text).strip().rstrip("%").removesuffix("pp"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected percentage points like 0.5, not "
                                         f"{text!r}") from None
    if not 0 < v < 100:
        raise argparse.ArgumentTypeError(f"must be between 0 and 100, not {text!r}")
    return v / 100


def _moves(text):
    """A range of mean lengths in moves: LOW-HIGH (or LOW,HIGH)."""
    parts = str(text).replace(",", "-").split("-")
    try:
        low, high = (float(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a range of moves like 20-40, not "
                                         f"{text!r}") from None
    if not 0 <= low <= high:
        raise argparse.ArgumentTypeError(f"expected LOW-HIGH with 0 <= LOW <= HIGH, not "
                                         f"{text!r}")
    return (low, high)


def _deal(text):
    """A deal: FIRST,SECOND (cards dealt to each player)."""
    try:
        return Rules.parse_assignments([f"deal={text}"])["deal"]
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _budget_options(p):
    c, s = CHEAP, SEARCH
    g = p.add_argument_group("budget (defaults for random, greedy and expert; for a search "
                             "policy, in parentheses)")
    g.add_argument("--chunk-size", type=options.at_most(MAX_CHUNK), metavar="N",
                   help=f"games per chunk: the unit of the results file, of stopping and "
                        f"of Ctrl-C ({c.chunk_size:,}; {s.chunk_size:,})")
    g.add_argument("--screen-games", type=options.at_most(10 ** 12), metavar="N",
                   help=f"at most N games per single change ({c.screen_games:,}; "
                        f"{s.screen_games:,})")
    g.add_argument("--screen-target", type=_points, metavar="PP",
                   help=f"a single change stops once its shift is known to ±PP "
                        f"({100 * c.screen_target:g}; {100 * s.screen_target:g})")
    g.add_argument("--negligible", type=_points, metavar="PP",
                   help=f"never combine a change whose shift is known to lie within ±PP "
                        f"({100 * c.negligible:g}; {100 * s.negligible:g})")
    g.add_argument("--pairs", type=options.at_most(64), metavar="N",
                   help=f"measure the interactions of N pairs of changes ({c.pairs}; "
                        f"{s.pairs})")
    g.add_argument("--candidates", type=options.at_most(64), metavar="N",
                   help=f"race at most N candidates of each size ({c.per_size}; "
                        f"{s.per_size})")
    g.add_argument("--target", type=_points, metavar="PP",
                   help=f"a raced candidate stops once its score is known to ±PP at the "
                        f"race's simultaneous level ({100 * c.race_target:g}; "
                        f"{100 * s.race_target:g})")
    g.add_argument("--max-games", type=options.at_most(10 ** 12), metavar="N",
                   help=f"at most N race games per candidate ({c.race_games:,}; "
                        f"{s.race_games:,})")
    g.add_argument("--confirm-target", type=_points, metavar="PP",
                   help=f"a winner's confirmation stops once its score is known to ±PP "
                        f"({100 * c.confirm_target:g}; {100 * s.confirm_target:g})")
    g.add_argument("--confirm-games", type=options.at_most(10 ** 12), metavar="N",
                   help=f"at most N confirmation games per winner ({c.confirm_games:,}; "
                        f"{s.confirm_games:,})")


BUDGET_OPTIONS = {"chunk_size": "chunk_size", "screen_games": "screen_games",
                  "screen_target": "screen_target", "negligible": "negligible", "pairs": "pairs",
                  "candidates": "per_size", "target": "race_target",
                  "max_games": "race_games", "confirm_target": "confirm_target",
                  "confirm_games": "confirm_games"}


def add_command(sub: argparse._SubParsersAction) -> None:
    """Add `cuttle balance` to the subcommands."""
    p = sub.add_parser(
        "balance", help="search the house rules for rule sets that make the game fair "
                        "(the first player's score nearest 50%%)",
        description=textwrap.fill(
            "Search combinations of up to K rule changes of a base for the rule sets whose "
            "first player scores nearest 50% (wins plus half the draws) under self-play of "
            "a policy: single changes screened, combinations predicted from them and from "
            "measured interactions, the promising ones raced on the same games with "
            "simultaneous intervals, the winner of each size confirmed on fresh games.",
            88),
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--base", default="classic", metavar="RULES",
                   help=f"the rules changes are made to: a preset ({', '.join(Rules.presets)}) "
                        f"or rule text (default classic)")
    p.add_argument("--policy", default="expert", metavar="POLICY",
                   help="plays both seats (default expert; ismcts:N for a search)")
    p.add_argument("-k", type=options.at_most(6), default=3, metavar="K",
                   help="at most K changed flags (default 3)")
    p.add_argument("--flags", default=None, metavar="F1,F2,...",
                   help="change only these flags (default: every flag; see 'cuttle rules')")
    p.add_argument("--exclude", default=None, metavar="F1,F2,...",
                   help="never change these flags")
    p.add_argument("--deal", action="append", type=_deal, default=None, metavar="A,B",
                   dest="deals", help="a deal to try (repeatable; default: the deal "
                                      "flag's own values)")
    p.add_argument("--max-draws", type=_points, default=None, metavar="PCT",
                   help="only rule sets drawing at most PCT%% of the games")
    p.add_argument("--moves", type=_moves, default=None, metavar="LOW-HIGH",
                   help="only rule sets whose mean game length is LOW to HIGH moves")
    p.add_argument("--check", default=None, metavar="POLICY",
                   help="play the winners and the base again under POLICY (e.g. "
                        "ismcts:1000, the strongest search bot)")
    p.add_argument("--check-games", type=options.at_most(10 ** 9), default=2000,
                   metavar="N", help="games per rule set under --check (default 2000)")
    p.add_argument("--quick", action="store_true",
                   help=f"a small search in under a minute: the flags "
                        f"{', '.join(QUICK_FLAGS)} unless --flags, chunks of "
                        f"{QUICK.chunk_size:,} games, small caps")
    p.add_argument("--results", metavar="FILE", default=None,
                   help="append every finished chunk to this JSON-lines file and reuse the "
                        "chunks it holds: the same command run again continues where it "
                        "stopped")
    p.add_argument("--report-only", action="store_true",
                   help="play nothing: the tables of what --results FILE holds")
    p.add_argument("--seed", type=options.seed, default=1,
                   help="seed of the games (default 1; the results file keys chunks by it)")
    p.add_argument("--max-moves", type=options.at_most(MAX_MAX_MOVES),
                   default=DEFAULT_MAX_MOVES, metavar="M",
                   help=f"a game still running after M moves is a draw (default "
                        f"{DEFAULT_MAX_MOVES})")
    p.add_argument("--confidence", type=options.confidence, default=0.95, metavar="C",
                   help="confidence level of the intervals: 0.95 or 95%% (default 0.95)")
    p.add_argument("--threads", type=options.threads, default=None, metavar="T",
                   help="cores to use (default: all)")
    p.add_argument("--scheduler", type=options.scheduler, default=None, metavar="ADDRESS",
                   help="play the chunks on a dask cluster: tcp://HOST:8786, or local:N "
                        "(needs: pip install \"cuttle[dask]\")")
    _budget_options(p)
    options.add_progress_and_outputs(p, "progress", "the search",
                                     "one CSV row per candidate and figure")
    p.add_argument("--markdown", nargs="?", const="-", default=None, metavar="FILE",
                   help="write the tables as markdown to FILE (default: stdout, instead of "
                        "the text tables)")
    p.add_argument("--html", type=options.output_file, metavar="OUT.html",
                   help="also write a self-contained report page (tables and charts)")
    p.add_argument("--plot", metavar="FILE.png", default=None,
                   help="save the candidates' scores against their game length (png, pdf, "
                        "svg, ...; needs matplotlib)")
    p.set_defaults(func=run_balance)


def _check_outputs(args):
    stdout = [o for o in ("json", "csv", "markdown") if getattr(args, o) == "-"]
    if len(stdout) > 1:
        raise UsageError(f"--{stdout[0]} and --{stdout[1]} cannot both write to stdout; give "
                         f"one a FILE")
    if args.report_only and args.results is None:
        raise UsageError("--report-only reads the tables from a results file: give "
                         "--results FILE")
    if args.report_only and not os.path.isfile(args.results):
        raise UsageError(f"--results: no file {args.results!r} to report on")
    options.output_files(**{"--json": args.json, "--csv": args.csv,
                            "--markdown": args.markdown, "--html": args.html,
                            "--plot": args.plot,
                            "--results": None if args.report_only else args.results})
    if args.plot:
        try:
            check_plot_path(args.plot)
        except (ImportError, ValueError) as e:
            raise UsageError(f"--plot: {e}") from None


def _budget(args):
    given = {field: getattr(args, option) for option, field in BUDGET_OPTIONS.items()
             if getattr(args, option) is not None}
    return given or None


def run_balance(args: argparse.Namespace) -> int:
    """`cuttle balance`: search, then write the tables and files; exit status."""
    _check_outputs(args)
    base = options.rules_from_options(args.base, [])
    status = 0
    with Cluster(args.scheduler) as client:
        try:
            res = balance(base, args.policy, k=args.k, flags=args.flags, exclude=args.exclude,
                          deals=args.deals, max_draws=args.max_draws, moves=args.moves,
                          budget=_budget(args), check=args.check,
                          check_games=args.check_games, seed=args.seed,
                          results=args.results, max_moves=args.max_moves,
                          confidence=args.confidence, threads=args.threads, client=client,
                          progress=args.progress, play=not args.report_only,
                          quick=args.quick)
        except BalanceInterrupted as e:
            print(f"\ncuttle: {e}; the tables below hold the finished chunks",
                  file=sys.stderr)
            res, status = e.result, 130
    for note in res.notes:
        print(f"cuttle balance: note: {note}", file=sys.stderr)
    write_outputs(args, res.markdown() if args.markdown == "-" else str(res), res.as_dict,
                  res.to_csv)
    if args.markdown not in (None, "-"):
        _write(args.markdown, res.markdown())
    if args.html:
        save_page(args.html, balance_page(res))
    if args.plot:
        try:
            res.plot(args.plot)
        except OSError as e:
            raise CommandError(f"cannot write {args.plot!r}: {e.strerror or e}") from None
        print(f"plot saved to {args.plot}", file=sys.stderr)
    return status


def _write(path, text):
    try:
        write_text(path, text)
    except OSError as e:
        raise CommandError(f"cannot write {path!r}: {e.strerror or e}") from None
