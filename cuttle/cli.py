"""The `cuttle` command line: `simulate`, `compare`, `rules`, and (from cuttle/play.py)
`play`, `replay`, `analyse`.

    cuttle simulate -n 1000000 --rules classic --set four=random \\
                    --players random,greedy --threads 2 --seed 1
    cuttle compare classic classic:four=random cuttle.cards -n 100000 --plot cmp.png
    cuttle compare --rules classic --vary four=choice,random,draw -n 100000
    cuttle rules

Bad options (unknown preset, flag or value, unknown player, n <= 0, ...) print a short
message and exit with status 2, without a traceback.
"""

import argparse
import json
import os
import sys

from . import __version__
from .notation import parse_sets, rules_from_args
from .play import _positive, _seed_arg, add_play_commands
from .rules import Rules
from .simulate import (DEFAULT_MAX_MOVES, MATCH_FORMATS, _jsonable, _pyplot, _write_text,
                       compare, native_policy_code, player_names, simulate)

PROG = "cuttle"


class _UsageError(Exception):
    """A bad option: reported by the sub-command's parser (exit status 2)."""


# ---------------------------------------------------------------------------------------
# Parsing option values (counts and seeds: `_positive` and `_seed_arg` of cuttle.play)

def _confidence(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number like 0.95, not {text!r}") from None
    if v > 1 and v < 100:
        v /= 100.0          # 95 means 95 %
    if not 0 < v < 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1 (e.g. 0.95), not {text!r}")
    return v


def _split_top(text, sep=","):
    """Split on `sep` outside parentheses/brackets."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return out


def rules_from_spec(spec, extra=()):
    """Rules from `PRESET[:FLAG=VALUE,FLAG=VALUE...]` plus `--set` assignments
    (parenthesise tuple values inside a spec: `classic:king_goals=(15,14,10,7,5)`)."""
    preset, _, rest = spec.partition(":")
    sets = [part for part in _split_top(rest) if part.strip()]
    return rules_from_args(preset.strip() or None, sets + list(extra))


def parse_players(text):
    names = [p.strip() for p in text.split(",")]
    if len(names) == 1:
        names = names * 2
    if len(names) != 2 or not all(names):
        raise ValueError(f"--players takes one or two player names separated by a comma "
                         f"(e.g. random,greedy), not {text!r}")
    for name in names:
        native_policy_code(name)
    return tuple(names)


# ---------------------------------------------------------------------------------------
# The parser

def _add_common(p):
    p.add_argument("-n", "--games", dest="n", type=_positive, default=10000, metavar="N",
                   help="number of games (of matches with --match) to play (default 10000)")
    p.add_argument("--players", default="random,greedy", metavar="A,B",
                   help=f"the two players, from: {', '.join(player_names())} "
                        f"(default random,greedy; one name: both players)")
    p.add_argument("--seed", type=_seed_arg, default=None,
                   help="seed of the run (default: a random seed, printed with the results)")
    p.add_argument("--threads", type=_positive, default=None, metavar="T",
                   help="cores to use (default: all)")
    p.add_argument("--no-swap", dest="swap", action="store_false",
                   help="player A always moves first (default: A moves first in "
                        "even-numbered games, B in odd-numbered ones)")
    p.add_argument("--match", choices=tuple(MATCH_FORMATS), default=None,
                   help="play matches instead of single games (first player alternates)")
    p.add_argument("--max-moves", type=_positive, default=DEFAULT_MAX_MOVES, metavar="M",
                   help=f"a game still running after M moves is a draw (default {DEFAULT_MAX_MOVES})")
    p.add_argument("--confidence", type=_confidence, default=0.95, metavar="C",
                   help="confidence level of the intervals (default 0.95)")
    p.add_argument("--chunk-size", type=_positive, default=None, help=argparse.SUPPRESS)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="show a progress bar on stderr (default: only if it is a terminal)")
    g.add_argument("--no-progress", dest="progress", action="store_false",
                   help="never show a progress bar")
    p.add_argument("--json", nargs="?", const="-", default=None, metavar="FILE",
                   help="write the results as JSON to FILE (default: stdout, instead of the table)")
    p.add_argument("--csv", nargs="?", const="-", default=None, metavar="FILE",
                   help="write CSV to FILE (default: stdout, instead of the table)")


def build_parser():
    parser = argparse.ArgumentParser(
        prog=PROG, description="Simulate the card game Cuttle under any rule set.",
        epilog="Run 'cuttle COMMAND --help' for a command's options.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    ps = sub.add_parser(
        "simulate", help="play many games and print win rates with confidence intervals",
        description="Play many games between two players and print win and draw rates, the "
                    "first-player advantage and game lengths, with confidence intervals.",
        epilog="example: cuttle simulate -n 1000000 --rules classic --set four=random "
               "--players random,greedy --threads 2 --seed 1")
    ps.add_argument("--rules", default="classic", metavar="PRESET",
                    help=f"rule preset ({', '.join(Rules.presets)}; default classic); "
                         f"PRESET:FLAG=VALUE,... also works")
    ps.add_argument("--set", action="append", default=[], metavar="FLAG=VALUE",
                    help="change a rule flag (repeatable), e.g. --set four=random "
                         "--set king_goals=15,14,10,7,5; see 'cuttle rules'")
    _add_common(ps)
    ps.set_defaults(func=_cmd_simulate)

    pc = sub.add_parser(
        "compare", help="play the same deals under several rule sets and compare them",
        description="Play the same deals (same seed and game indices) under each rule set "
                    "and report each rule set's rates and its differences to the first one, "
                    "with paired confidence intervals.",
        epilog="examples: cuttle compare classic classic:four=random cuttle.cards -n 100000\n"
               "          cuttle compare --vary four=choice,random,draw -n 100000 --plot four.png",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    pc.add_argument("specs", nargs="*", metavar="RULES",
                    help="rule sets as PRESET or PRESET:FLAG=VALUE,FLAG=VALUE (the first is "
                         "the baseline)")
    pc.add_argument("--rules", default="classic", metavar="PRESET",
                    help="base preset for --vary (default classic)")
    pc.add_argument("--set", action="append", default=[], metavar="FLAG=VALUE",
                    help="change a rule flag in every rule set (repeatable)")
    pc.add_argument("--vary", metavar="FLAG=V1,V2,...",
                    help="one rule set per value of FLAG (on top of --rules and --set); "
                         "parenthesise tuples: king_goals=(21,14,10,7,5),(15,14,10,7,5)")
    pc.add_argument("--plot", metavar="FILE.png",
                    help="save a bar chart of the rates and differences (needs matplotlib)")
    _add_common(pc)
    pc.set_defaults(func=_cmd_compare)

    pr = sub.add_parser("rules", help="list the rule presets and flags",
                        description="Without arguments, list every preset and flag. With a "
                                    "preset (and --set), print that rule set's flag values.")
    pr.add_argument("preset", nargs="?", metavar="PRESET",
                    help="show this preset's flags (PRESET:FLAG=VALUE,... also works)")
    pr.add_argument("--set", action="append", default=[], metavar="FLAG=VALUE",
                    help="change a rule flag (repeatable)")
    pr.add_argument("--json", action="store_true", help="print the flags as JSON")
    pr.set_defaults(func=_cmd_rules)
    add_play_commands(sub)          # play, replay, analyse (cuttle/play.py)
    return parser


# ---------------------------------------------------------------------------------------
# Commands

def _check_outputs(args):
    if args.json == "-" and args.csv == "-":
        raise _UsageError("--json and --csv cannot both write to stdout; give one a FILE")


def _write_outputs(args, table, as_dict, to_csv):
    """Print the table unless --json/--csv write to stdout; write the files (a file
    that cannot be written completely is removed)."""
    if "-" not in (args.json, args.csv):
        print(table)
    for path, write in ((args.json, lambda f: f.write(json.dumps(as_dict(), indent=2) + "\n")),
                        (args.csv, to_csv)):
        if path == "-":
            write(sys.stdout)
        elif path is not None:
            try:
                _write_text(path, write)
            except OSError as e:
                raise _UsageError(f"cannot write {path!r}: {e.strerror or e}") from None


def _cmd_simulate(args):
    _check_outputs(args)
    try:
        rules = rules_from_spec(args.rules, args.set)
        players = parse_players(args.players)
    except ValueError as e:
        raise _UsageError(str(e)) from None
    res = simulate(args.n, rules, players, seed=args.seed, threads=args.threads,
                   swap_seats=args.swap, progress=args.progress, match=args.match,
                   max_moves=args.max_moves, chunk_size=args.chunk_size)
    s = res.summary(args.confidence)
    _write_outputs(args, str(s), s.as_dict, res.to_csv)
    return 0


def _cmd_compare(args):
    _check_outputs(args)
    if args.plot:
        try:
            _pyplot()
        except ImportError as e:
            raise _UsageError(f"--plot: {e}") from None
    try:
        players = parse_players(args.players)
        rule_sets = [rules_from_spec(spec, args.set) for spec in args.specs]
        if args.vary:
            name, sep, values = args.vary.partition("=")
            if not (sep and name.strip()):
                raise ValueError(f"--vary takes FLAG=VALUE,VALUE,..., not {args.vary!r}")
            base = rules_from_spec(args.rules, args.set)
            vals = [v for v in _split_top(values) if v.strip()]
            if not vals:
                raise ValueError(f"--vary {args.vary!r} lists no values")
            rule_sets += [base.replace(**parse_sets(f"{name}={v}")) for v in vals]
    except ValueError as e:
        raise _UsageError(str(e)) from None
    if len(rule_sets) < 2:
        raise _UsageError("compare needs at least two rule sets: give them as arguments "
                          "(e.g. classic classic:four=random) or with --vary FLAG=V1,V2")
    cmp = compare(rule_sets, args.n, players, seed=args.seed, threads=args.threads,
                  swap_seats=args.swap, progress=args.progress, match=args.match,
                  max_moves=args.max_moves, chunk_size=args.chunk_size,
                  confidence=args.confidence)
    _write_outputs(args, str(cmp), cmp.as_dict, cmp.to_csv)
    if args.plot:
        cmp.plot(args.plot)
        print(f"plot saved to {args.plot}", file=sys.stderr)
    return 0


def _cmd_rules(args):
    if args.preset is None and not args.set and not args.json:
        print(Rules.describe())
        return 0
    try:
        rules = rules_from_spec(args.preset or "classic", args.set)
    except ValueError as e:
        raise _UsageError(str(e)) from None
    if args.json:
        print(json.dumps({"preset": rules.preset, "flags": _jsonable(rules.as_dict())},
                         indent=2))
        return 0
    changed = rules.changed()
    print(f"{rules!r}")
    for k, v in rules.as_dict().items():
        mark = "  (changed)" if k in changed else ""
        print(f"  {k:22} {v!r}{mark}")
    return 0


def main(argv=None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad usage, 1 failure)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:          # --help, --version, or a usage error (status 2)
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    sub = parser._subparsers._group_actions[0].choices[args.command]
    try:
        return args.func(args)
    except _UsageError as e:
        sub.print_usage(sys.stderr)
        print(f"{sub.prog}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 1
    except ValueError as e:          # an argument the library rejected
        sub.print_usage(sys.stderr)
        print(f"{sub.prog}: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"{sub.prog}: error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
