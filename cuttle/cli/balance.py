"""`cuttle balance`: the balance designer (see `cuttle.balance`)."""

from __future__ import annotations

import argparse

from ..balancing import CHEAP, QUICK, QUICK_FLAGS, SEARCH, OtherSearchError, balance
from ..balancing.config import (BUDGET_OPTIONS, MAX_CHECK_GAMES, MAX_GAMES, MAX_K,
                               MAX_PAIRS, MAX_PER_SIZE, check_check_games, resolve_budget)
from ..policies import policy_name
from ..files import write_text
from ..render.plot import check_plot_path
from ..report.pages import balance_page
from ..rules import Rules
from ..simulation.api import MAX_CHUNK
from ..text import quoted
from ..variants.errors import NothingToReport
from . import options
from .options import CommandError, ShapeError, UsageError
from .simulate import run_chunked, save_html, save_plot, write_outputs

__all__ = ["add_command"]

EPILOG = """examples:
  cuttle balance --quick                        a small search in under a minute
  cuttle balance --base cuttle.cards -k 2 --exclude open_hands --max-draws 2 \\
                 --results balance.jsonl --html balance.html
  cuttle balance --base cuttle.cards -k 2 --exclude open_hands --max-draws 2 \\
                 --results balance.jsonl --check ismcts:1000 --check-games 2000
  (run the same command again to continue an interrupted search; the search's options
  with --check added play its winners again under the search bot, the search read back
  from the file; add --report-only to print the tables from the file without playing)"""


def _points(text):
    """Percentage points of a budget (a target half-width), as a fraction."""
    return options.target_points(text) / 100


def _draws(text):
    """A draw rate in percent, 0 <= x < 100 (0: no draws), as a fraction."""
    return options.points(text, zero=True) / 100


CHECK_GAMES = 2000      # --check-games's default


def _check_games(args):
    """--check-games, or its default with --check; refused without --check, which it
    counts the games of (it was ignored, a value --check refuses taken)."""
    if args.check is None:
        if args.check_games is not None:
            raise ShapeError("--check-games counts the games of each rule set under "
                             "--check POLICY and means nothing without it: give --check "
                             "too (e.g. --check ismcts:1000), or leave --check-games out")
        return CHECK_GAMES
    return CHECK_GAMES if args.check_games is None else args.check_games


def _moves(text):
    """A range of mean lengths in moves: LOW-HIGH (or LOW,HIGH)."""
    parts = str(text).replace(",", "-").split("-")
    try:
        low, high = (float(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a range of moves like 20-40, not "
                                         f"{quoted(text)}") from None
    if not 0 <= low <= high:
        raise argparse.ArgumentTypeError(f"expected LOW-HIGH with 0 <= LOW <= HIGH, not "
                                         f"{quoted(text)}")
    return (low, high)


def _deal(text):
    """A deal: FIRST,SECOND (cards dealt to each player)."""
    try:
        return Rules.parse_assignments([f"deal={text}"])["deal"]
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


# Budget field, type, metavar, help (with the two defaults, cheap; search); the option of
# each field is BUDGET_OPTIONS's (the library's errors name them)
BUDGET = [
    ("chunk_size", options.at_most(MAX_CHUNK), "N",
     "games per chunk: the unit of the results file, of stopping and of Ctrl-C"),
    ("screen_games", options.at_most(MAX_GAMES), "N", "at most N games per single change"),
    ("screen_target", "pp", "PP", "a single change stops once its shift is known to ±PP"),
    ("negligible", "pp", "PP",
     "never combine a change whose shift is known to lie within ±PP"),
    ("pairs", options.at_most(MAX_PAIRS), "N",
     "measure the interactions of N pairs of changes"),
    ("per_size", options.at_most(MAX_PER_SIZE), "N",
     "race at most N candidates of each size"),
    ("race_target", "pp", "PP",
     "a raced candidate stops once its score is known to ±PP at the race's simultaneous "
     "level"),
    ("race_games", options.at_most(MAX_GAMES), "N", "at most N race games per candidate"),
    ("confirm_target", "pp", "PP",
     "a winner's confirmation stops once its score is known to ±PP (95%%)"),
    ("confirm_games", options.at_most(MAX_GAMES), "N",
     "at most N confirmation games per winner"),
]


def _default(field, budget):
    v = getattr(budget, field)
    return f"{100 * v:g}" if isinstance(v, float) else f"{v:,}"


def _budget_options(p):
    g = p.add_argument_group("budget (defaults for random, greedy and expert; for a search "
                             "policy)")
    for field, kind, metavar, text in BUDGET:
        g.add_argument(BUDGET_OPTIONS[field], dest=field,
                       type=_points if kind == "pp" else kind,
                       metavar=metavar, help=f"{text} ({_default(field, CHEAP)}; "
                                             f"{_default(field, SEARCH)})")


def add_command(sub: argparse._SubParsersAction) -> None:
    """Add `cuttle balance` to the subcommands."""
    p = options.add_command_parser(
        sub, "balance", "search the house rules for rule sets that make the game fair (the "
                        "first player's score nearest 50%%)",
        "Search combinations of up to K rule changes of a base for the rule sets whose "
        "first player scores nearest 50% (wins plus half the draws) under self-play of a "
        "policy: single changes screened, combinations predicted from them and from "
        "measured interactions, the promising ones raced on the same games with "
        "simultaneous intervals, the winner of each size confirmed on fresh games.", EPILOG)
    p.add_argument("--base", default="classic", metavar="RULES",
                   help=f"the rules changes are made to: a preset ({', '.join(Rules.presets)}) "
                        f"or rule text (default classic)")
    p.add_argument("--policy", default="expert", metavar="POLICY",
                   help="plays both seats (default expert; ismcts:N for a search)")
    p.add_argument("-k", type=options.at_most(MAX_K), default=3, metavar="K",
                   help="at most K changed flags (default 3)")
    p.add_argument("--flags", default=None, metavar="F1,F2,...",
                   help="change only these flags (default: every flag; see 'cuttle rules')")
    p.add_argument("--exclude", default=None, metavar="F1,F2,...",
                   help="never change these flags")
    p.add_argument("--deal", action="append", type=_deal, default=None, metavar="A,B",
                   dest="deals", help="a deal to try (repeatable; default: the deal "
                                      "flag's own values)")
    p.add_argument("--max-draws", type=_draws, default=None, metavar="PCT",
                   help="only rule sets drawing at most PCT%% of the games (0: none)")
    p.add_argument("--moves", type=_moves, default=None, metavar="LOW-HIGH",
                   help="only rule sets whose mean game length is LOW to HIGH moves")
    p.add_argument("--check", default=None, metavar="POLICY",
                   help="play the winners and the base again under POLICY (e.g. "
                        "ismcts:1000, the strongest search bot)")
    # (None: not given, so that it is refused without --check, not ignored)
    p.add_argument("--check-games", type=options.at_most(MAX_CHECK_GAMES), default=None,
                   metavar="N", help=f"games per rule set under --check, a whole number of its "
                                   f"chunks: 100 for a search policy, 1,000 for another "
                                   f"(default {CHECK_GAMES})")
    p.add_argument("--quick", action="store_true",
                   help=f"a small search in under a minute: the flags "
                        f"{', '.join(QUICK_FLAGS)} unless --flags, chunks of "
                        f"{QUICK.chunk_size:,} games, small caps")
    options.add_run_options(p, "an interrupted search", default_seed=1)
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
    options.one_to_stdout(**{"--json": args.json, "--csv": args.csv,
                             "--markdown": args.markdown})
    options.check_report_only(args)
    options.output_files(inputs={"--results": args.results} if args.report_only else None,
                         **{"--json": args.json, "--csv": args.csv,
                            "--markdown": args.markdown, "--html": args.html,
                            "--plot": args.plot,
                            "--results": None if args.report_only else args.results})
    if args.plot:
        try:
            check_plot_path(args.plot)
        except (ImportError, ValueError) as e:
            raise UsageError(f"--plot: {e}") from None


def _budget(args):
    given = {field: getattr(args, field) for field, *_ in BUDGET
             if getattr(args, field) is not None}
    return given or None


def _option(field):
    """How the command names a Budget field in its errors."""
    option = BUDGET_OPTIONS.get(field)
    return option or f"{field} (the interactions' cap, no option of its own)"


def run_balance(args: argparse.Namespace) -> int:
    """`cuttle balance`: search, then write the tables and files; exit status."""
    _check_outputs(args)
    base = options.rules_from_options(args.base, [])
    # (the library checks the budget too, naming the fields; here, the options)
    options.policy(args.policy, "--policy")
    if args.check is not None:
        options.policy(args.check, "--check")
    resolve_budget(policy_name(args.policy), _budget(args), args.quick, _option)
    args.check_games = _check_games(args)
    check_check_games(None if args.check is None else policy_name(args.check),
                      args.check_games, "--check-games")

    def search(client):
        try:
            return balance(
                base, args.policy, k=args.k, flags=args.flags, exclude=args.exclude,
                deals=args.deals, max_draws=args.max_draws, moves=args.moves,
                budget=_budget(args), check=args.check, check_games=args.check_games,
                seed=args.seed, results=args.results, max_moves=args.max_moves,
                confidence=args.confidence, threads=args.threads, client=client,
                progress=args.progress, play=not args.report_only, quick=args.quick)
        except NothingToReport as e:
            raise options.nothing_reported(args.results, e, lambda quick: [(
                str(base), policy_name(args.policy), args.seed,
                resolve_budget(policy_name(args.policy), _budget(args), quick,
                               _option).chunk_size)], args.quick) from None
        except OtherSearchError as e:
            # (the library's check, said in the command's options)
            raise UsageError(f"--check: "
                             f"{options.nothing_of_these_options(args.results, '--check')} "
                             f"(it holds games of {e.held}); these options would start "
                             f"another search beside them and check that one's winners: "
                             f"for a new search, give a new --results file") from None

    def write(res, stop):
        write_outputs(args, res.markdown() if args.markdown == "-" else str(res),
                      res.as_dict, res.to_csv, stop)
        if args.markdown not in (None, "-"):
            _write(args.markdown, res.markdown())
        if args.html:
            save_html(args, balance_page(res, stop))
        # (a figure that says so, not empty axes: the file --plot names is always this
        # run's, never an earlier run's left in place)
        save_plot(args, res, stop, "" if res.measured else
                  "nothing measured yet, so it says only that")
    return run_chunked(args, "balance", search, write)


def _write(path, text):
    try:
        write_text(path, text)
    except OSError as e:
        raise CommandError(f"cannot write {path!r}: {e.strerror or e}") from None
