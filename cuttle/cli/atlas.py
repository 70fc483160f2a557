"""`cuttle atlas`: the variant atlas (see `cuttle.atlas`)."""

from __future__ import annotations

import argparse
import os
import sys

from .._optional import install_command
from ..formatting import quantity
from ..variants import BASES, QUICK, Pairing, atlas, default_pairings
from ..render.plot import check_plot_folder
from ..variants.run import CHEAP, INTERACTIONS, MAX_GAMES, MAX_INTERACTIONS, SEARCH
from ..variants.errors import NothingToReport
from ..policies import is_search
from ..simulation.api import MAX_CHUNK
from ..text import printable, quoted
from . import options
from .options import CommandError, UsageError
from .simulate import run_chunked, write_outputs

__all__ = ["add_command"]

EPILOG = """examples:
  cuttle atlas --quick                         a small atlas in under a minute
  cuttle atlas --results atlas.jsonl --pairings random,greedy,expert \\
               --target 0.5 --target expert=1 --plot plots/
  (run the same command again to continue an interrupted atlas; add --report-only to
  print the tables from the results file without playing)"""


def _setting(kind, parse):
    """'VALUE' (every pairing) or 'POLICY=VALUE' (one pairing)."""
    def read(text):
        name, eq, value = str(text).rpartition("=")
        name = name.strip().lower()
        if eq and not name:
            raise argparse.ArgumentTypeError(f"expected VALUE or POLICY=VALUE, not "
                                             f"{quoted(text)}")
        return (name or None, parse(value))
    read.__name__ = kind
    return read


def _count_to(limit):
    """A count from 0 to `limit`."""
    def read(text):
        t = str(text).strip()
        if not (t.isascii() and t.isdigit() and int(t) <= limit):
            raise argparse.ArgumentTypeError(f"expected a whole number from 0 to {limit}, "
                                             f"not {quoted(text)}")
        return int(t)
    read.__name__ = "count"
    return read


def add_command(sub: argparse._SubParsersAction) -> None:
    """Add `cuttle atlas` to the subcommands."""
    p = options.add_command_parser(
        sub, "atlas", "how every house rule shifts the game: each flag value against its "
                      "base preset, on the same games",
        "For each player pairing (self-play) and base preset, play the base and every "
        "variant (each flag value of the rule table alone, and the named presets) on the "
        "same games, chunk by chunk, until each variant's first-player win-rate shift is "
        "known to the target half-width; print markdown tables of the shifts with paired "
        "intervals.", EPILOG)
    p.add_argument("--pairings", default=None, metavar="P1,P2,...",
                   help="policies, each playing both seats (default: "
                        f"{','.join(default_pairings())}; 'ismcts:N' for a search)")
    p.add_argument("--bases", default=",".join(BASES), metavar="PRESET,...",
                   help=f"base presets (default {','.join(BASES)})")
    p.add_argument("--target", action="append", default=[], metavar="[POLICY=]PP",
                   type=_setting("target", options.target_points),
                   help=f"stop a variant once the half-width of its first-player shift "
                        f"interval is at most PP percentage points (default "
                        f"{100 * CHEAP[0]:g}, {100 * SEARCH[0]:g} for a search; "
                        f"repeatable: POLICY=PP for one pairing)")
    p.add_argument("--max-games", action="append", default=[], metavar="[POLICY=]N",
                   type=_setting("max-games", options.at_most(MAX_GAMES)),
                   help=f"cap of games per variant (default {CHEAP[1]:,}, {SEARCH[1]:,} "
                        f"for a search; repeatable: POLICY=N)")
    p.add_argument("--chunk-size", action="append", default=[], metavar="[POLICY=]N",
                   type=_setting("chunk-size", options.at_most(MAX_CHUNK)),
                   help=f"games per chunk, the unit of stopping and of the results file; "
                        f"at most the cap (default {CHEAP[2]:,}, {SEARCH[2]:,} for a "
                        f"search, or the cap if smaller)")
    p.add_argument("--quick", action="store_true",
                   help=f"a small atlas in under a minute: "
                        f"{','.join(QUICK['pairings'])}, target "
                        f"{100 * QUICK['target']:g} pp, at most {QUICK['max_games']:,} games "
                        f"per variant in chunks of {QUICK['chunk_size']:,} (other options "
                        f"still apply)")
    p.add_argument("--interactions", type=_count_to(MAX_INTERACTIONS), default=INTERACTIONS, metavar="N",
                   help=f"measure the interactions of the clearest variants of N flags (one "
                        f"each; a variant changing two flags counts as two) in pairs, "
                        f"once a group's variants are done (default {INTERACTIONS}; 0: "
                        f"none)")
    options.add_run_options(p, "an interrupted atlas")
    options.add_progress_and_outputs(p, "progress", "the atlas",
                                     "one CSV row per rule set and metric")
    p.add_argument("--plot", metavar="DIR", default=None,
                   help="save one forest plot per base and pairing (PNG) into DIR (made if "
                        f"missing; needs matplotlib: {install_command('plot')})")
    p.set_defaults(func=run_atlas)


def _names(text, what):
    names = [x.strip().lower() for x in str(text).split(",")]
    if not all(names):
        raise UsageError(f"--{what} takes names separated by commas, not {quoted(text)}")
    return names


def _per_pairing(values, option, pairings):
    """{policy or None: value} from the (name, value) list of a repeatable option."""
    out = {}
    for name, value in values:
        if name is not None and name not in pairings:
            raise UsageError(f"{option}: {quoted(name)} is not one of the pairings "
                             f"({', '.join(pairings)})")
        if name in out:         # (the last one was kept without a word)
            which = f"{option} {name}=..." if name is not None else f"{option} (every pairing)"
            raise UsageError(f"{which} is given twice; give one value each")
        out[name] = value
    return out


def _pairings(args):
    # (not `if args.pairings`: an empty --pairings is refused, not the defaults' hours)
    names = _names(args.pairings, "pairings") if args.pairings is not None else \
        list(QUICK["pairings"] if args.quick else default_pairings())
    quick = (QUICK["target"] * 100, QUICK["max_games"], QUICK["chunk_size"]) \
        if args.quick else (None, None, None)
    settings = [_per_pairing(v, o, names) for v, o in ((args.target, "--target"),
                                                       (args.max_games, "--max-games"),
                                                       (args.chunk_size, "--chunk-size"))]
    out = []
    for name in names:
        try:
            search = is_search(name)
        except ValueError as e:
            raise UsageError(f"--pairings: {e}") from None
        vals = []
        for given, q in zip(settings, quick):
            v = given.get(name, given.get(None))
            if v is None and not search:
                v = q
            vals.append(v)
        if settings[2].get(name, settings[2].get(None)) is None and vals[2] is not None \
                and vals[1] is not None:
            vals[2] = min(vals[2], vals[1])       # --quick's chunk, within a smaller cap
        target = None if vals[0] is None else vals[0] / 100
        try:
            out.append(Pairing(name, target, vals[1], vals[2]))
        except ValueError as e:
            # (the name is known: the error is its chunk against its cap)
            raise UsageError(str(e).replace("chunk_size", "--chunk-size")
                             .replace("max_games", "--max-games")) from None
    return out


def _reads(args, quick, bases, seed):
    """The runs (base, policy, seed, chunk size) the options read, with --quick given
    (`quick`) or not."""
    pairings = _pairings(argparse.Namespace(**{**vars(args), "quick": quick}))
    return [(base, p.policy, seed, p.chunk_size) for p in pairings for base in bases]


def _check_outputs(args):
    options.one_to_stdout(**{"--json": args.json, "--csv": args.csv})
    options.check_report_only(args)
    options.output_files(inputs={"--results": args.results} if args.report_only else None,
                         **{"--json": args.json, "--csv": args.csv,
                            "--results": None if args.report_only else args.results})
    if args.plot is not None:       # (an empty --plot was no plot, after the whole run)
        if not args.plot.strip():
            raise UsageError(f"--plot expects a folder name, not {args.plot!r}")
        try:
            check_plot_folder(args.plot)
        except (ImportError, ValueError) as e:
            raise UsageError(f"--plot: {e}") from None
        # (the file made first took the folder's name: the plots failed after the run)
        for option, path in (("--json", args.json), ("--csv", args.csv),
                             ("--results", args.results)):
            if path not in (None, "-") and \
                    os.path.realpath(path) == os.path.realpath(args.plot):
                raise UsageError(f"--plot and {option} name the same path {args.plot!r} "
                                 f"(--plot names a folder of plots)")


def run_atlas(args: argparse.Namespace) -> int:
    _check_outputs(args)
    pairings = _pairings(args)
    bases = _names(args.bases, "bases")
    seed = 1 if args.seed is None else args.seed

    def write(res, stop):
        write_outputs(args, res.markdown(), res.as_dict, res.to_csv, stop)
        if args.plot:
            _save_plots(args, res, stop)
    def run(client):
        try:
            return atlas(pairings, bases, seed=seed, results=args.results,
                         max_moves=args.max_moves, confidence=args.confidence,
                         threads=args.threads, client=client, progress=args.progress,
                         play=not args.report_only, interactions=args.interactions)
        except NothingToReport as e:
            raise options.nothing_reported(args.results, e, lambda quick: _reads(
                args, quick, bases, seed), args.quick) from None
    return run_chunked(args, "atlas", run, write)


def _save_plots(args, res, stop):
    try:
        os.makedirs(args.plot, exist_ok=True)
        paths = res.plot(args.plot, interrupted=stop)
    except OSError as e:
        raise CommandError(f"cannot write the plots into {args.plot!r}: "
                           f"{e.strerror or e}") from None
    print(printable(f"{quantity(len(paths), 'plot')} saved in {args.plot}"),
          file=sys.stderr)
