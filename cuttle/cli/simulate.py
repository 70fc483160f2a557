"""`cuttle simulate`, `cuttle compare` and `cuttle rules` (and, for the other commands
that play many games, `Cluster` and `write_outputs`)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from typing import TYPE_CHECKING, Any

from .._optional import install_command
from ..report import comparison_page, save_page, simulation_page
from ..files import write_text_file
from ..formatting import quantity
from ..rules import FLAGS, Rules
from ..rules import _text_in_list as _in_list
from ..simulation import MATCH_FORMATS, MAX_UNITS, Interrupted, compare, compare_players, \
    simulate
from ..simulation.api import MAX_CHUNK, check_distinct
from ..simulation.names import seat_of_a
from ..simulation.recorded import game_record
from ..record import write_record
from ..errors import ClusterError
from ..simulation.local_cluster import close_local_cluster, start_local_cluster
from ..simulation.connection import connect
from ..render.plot import check_plot_path
from ..text import printable, quoted
from ..variants.chunks import RunInterrupted
from ..variants.errors import for_command_line
from . import options
from ..interrupts import ctrl_c_deferred
from .options import CommandError, ShapeError, UsageError

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["Cluster", "add_commands", "run_chunked", "save_plot", "write_outputs"]


DEFAULT_GAMES = 10000        # -n's default (None: not given, which --record-game needs)
DEFAULT_PLAYERS = "random,greedy"   # --players' (None: not given, which --opponent needs)


def _add_common(p, plot_help, record=False):
    p.add_argument("-n", "--games", dest="n", type=options.at_most(MAX_UNITS), default=None,
                   metavar="N", help=f"number of games (of matches with --match) to play "
                                     f"(default {DEFAULT_GAMES})")
    p.add_argument("--players", default=None, metavar="A,B",
                   help="the two players (one name: both players)"
                        + (" or, with --opponent, the players to compare (at least two)"
                           if not record else "") + ", "
                        + options.player_help(DEFAULT_PLAYERS))
    p.add_argument("--seed", type=options.seed, default=None,
                   help="seed of the run (default: a random seed, printed with the results)")
    options.add_threads(p, scheduler=True)
    p.add_argument("--no-swap", dest="swap", action="store_false",
                   help="player A always moves first (default: A moves first in "
                        "even-numbered games, B in odd-numbered ones)")
    p.add_argument("--match", choices=tuple(MATCH_FORMATS), default=None,
                   help="play matches instead of single games (first player alternates)")
    options.add_max_moves(p)
    options.add_confidence(p)
    p.add_argument("--chunk-size", type=options.at_most(MAX_CHUNK), default=None,
                   help=argparse.SUPPRESS)
    p.add_argument("--scheduler", type=options.scheduler, default=None, metavar="ADDRESS",
                   help="play the games on a dask cluster: its scheduler's address "
                        "(tcp://HOST:8786), or local:N to start N worker processes here "
                        f"(needs: {install_command('dask')})")
    options.add_progress_and_outputs(p, "a progress bar", "the results",
                                     "the table as CSV, one row per estimate,")
    p.add_argument("--games-csv", metavar="FILE", default=None,
                   help="stream one CSV row per game to FILE as the games finish (never "
                        "held in memory)")
    if record:
        p.add_argument("--record-game", type=options.game_index, default=None, metavar="K",
                       help="instead of playing the run, play only its game K (a "
                            "--games-csv row's 'game') exactly as the run plays it and save "
                            "its game record, the file that 'cuttle replay FILE' and "
                            "'cuttle review FILE' read; give the run's --seed, --players, "
                            "rules, --no-swap and --max-moves (-n, if given, must hold K); "
                            "Ctrl-C saves the game so far, unfinished")
        p.add_argument("--record", type=options.output_file, default=None, metavar="FILE",
                       help="where --record-game saves the record (default "
                            "cuttle-seedS-gameK.json)")
    p.add_argument("--plot", metavar="FILE.png", default=None,
                   help="save a figure (format from the extension: png, pdf, svg, ...; needs "
                        f"matplotlib: {install_command('plot')}): " + plot_help)
    p.add_argument("--html", type=options.output_file, metavar="OUT.html",
                   help="also write a self-contained report page (tables and charts)")


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register `simulate`, `compare` and `rules` on the sub-parsers."""
    ps = options.add_command_parser(
        sub, "simulate", "play many games and print win rates with confidence intervals",
        "Play many games between two players and print win and draw rates, the "
        "first-player advantage and game lengths, with confidence intervals; or, with "
        "--record-game, save one game of such a run as a game record.",
        "examples: cuttle simulate -n 1000000 --rules classic --set four=random \\\n"
        "              --players random,greedy --threads 2 --seed 1\n"
        "          cuttle simulate -n 100000 --players ismcts:1000,expert --seed 7 "
        "--games-csv games.csv\n"
        "          cuttle simulate --players ismcts:1000,expert --seed 7 \\\n"
        "              --record-game 1234 --record game1234.json   # one game of that run\n"
        "          cuttle review game1234.json                     # its moves, valued")
    options.add_rules_options(ps)
    _add_common(ps, "win rates by player and seat with their intervals, and the "
                    "game-length histogram", record=True)
    ps.set_defaults(func=run_simulate)

    pc = options.add_command_parser(
        sub, "compare", "play the same deals under several rule sets and compare them",
        "Play the same deals (same seed and game indices) under each rule set and report "
        "each rule set's rates and its differences to the first one, with paired confidence "
        "intervals (with --match, independent ones for the games, which differ between "
        "rule sets; paired ones for the matches). A rule set with joker=true shuffles 53 "
        "cards: its deals share nothing with a 52-card rule set's, its differences are "
        "paired by game index only, and a note says so; deal= cuts the same shuffle at "
        "other hand sizes, so its games are partly paired, and a note says so too; no "
        "other flag changes the deal.",
        "examples: cuttle compare classic classic:four=random cuttle.cards -n 100000\n"
        "          cuttle compare --vary four=choice,random,draw -n 100000 --plot four.png\n"
        "          cuttle compare --opponent expert --players mybot.py:v1,mybot.py:v2 "
        "-n 2000\n"
        "                        # your bot's two versions on the same deals and seats")
    pc.add_argument("specs", nargs="*", metavar="RULES",
                    help="rule sets as PRESET or PRESET:FLAG=VALUE,FLAG=VALUE (the first is "
                         "the baseline)")
    pc.add_argument("--rules", default=None, metavar="PRESET",
                    help="base preset for --vary (default classic; only with --vary), or "
                         "the rule set of --opponent's comparison")
    pc.add_argument("--set", action="append", default=[], metavar="FLAG=VALUE",
                    help="change a rule flag in every rule set (repeatable; a rule set "
                         "given as an argument may not set it to another value)")
    pc.add_argument("--opponent", default=None, metavar="B",
                    help="compare players instead of rule sets: each player of --players "
                         "as A against B, on the same deals and seats under one rule set "
                         "(an argument or --rules; default classic), with paired "
                         "intervals of each one's differences to the first; B as a "
                         "--players entry (a policy name or FILE.py:FUNCTION)")
    pc.add_argument("--vary", action="append", default=[], metavar="FLAG=V1,V2,...",
                    help="one rule set per value of FLAG (on top of --rules and --set; one "
                         "flag); parenthesise tuples: "
                         "king_goals=(21,14,10,7,5),(15,14,10,7,5)")
    _add_common(pc, "the rates of each rule set and their differences to the first, "
                    "with intervals")
    pc.set_defaults(func=run_compare)

    pr = sub.add_parser("rules", help="list the rule presets and flags",
                        description="Without a preset or --set, list every preset and flag "
                                    "(--json: the same as JSON). With a preset (and --set), "
                                    "print that rule set's flag values.")
    pr.add_argument("preset", nargs="?", metavar="PRESET",
                    help="show this preset's flags (PRESET:FLAG=VALUE,... also works)")
    pr.add_argument("--set", action="append", default=[], metavar="FLAG=VALUE",
                    help="change a rule flag (repeatable)")
    pr.add_argument("--json", action="store_true", help="print the flags as JSON")
    pr.set_defaults(func=run_rules)


def _check_outputs(args):
    """Refuse, before any game is played, outputs that could not be written."""
    options.one_to_stdout(**{"--json": args.json, "--csv": args.csv})
    options.output_files(**{"--json": args.json, "--csv": args.csv,
                            "--games-csv": args.games_csv, "--plot": args.plot,
                            "--html": args.html})
    if args.plot:
        try:
            check_plot_path(args.plot)
        except (ImportError, ValueError) as e:
            raise UsageError(f"--plot: {e}") from None


def write_outputs(args: argparse.Namespace, table: str, as_dict: Callable[[], dict[str, Any]],
                  to_csv: Callable[..., object], stop: Interrupted | None = None) -> None:
    """Print the table unless --json/--csv write to stdout; write the files (a file
    that cannot be written completely is removed).  `to_csv(file, interrupted=stop)`
    writes the CSV; the outputs of an interrupted run (`stop`, the Interrupted) say how
    far it got: the table's first and last lines (`Interrupted.note`), the JSON's
    "interrupted" (`Interrupted.as_dict`), the CSV's last row."""
    if "-" not in (args.json, args.csv):
        if stop is not None:    # (a table redirected to a file says it is partial too)
            table = f"{stop.note()}\n\n{table}\n\n{stop.note()}"
        print(table)

    def json_text(f):
        f.write(json.dumps(Interrupted.mark(as_dict(), stop), indent=2) + "\n")
    for path, write in ((args.json, json_text),
                        (args.csv, lambda f: to_csv(f, interrupted=stop))):
        if path == "-":
            write(sys.stdout)
        elif path is not None:
            try:
                write_text_file(path, write)
            except OSError as e:      # (an I/O failure, not a usage error: status 1)
                raise CommandError(f"cannot write {path!r}: {e.strerror or e}") from None


# The loggers of a dask client that log in this process (dask gives the first three a
# handler on stderr; asyncio logs through the root logger).
DASK_CLIENT_LOGGERS = ("distributed", "distributed.client", "tornado.application", "asyncio")


class Cluster:
    """The dask client of --scheduler (None without it), closed on exit.

    With a remote scheduler, dask's client-side logs show only critical records until
    the client is closed: when the scheduler goes away they are tracebacks (the lost
    connection, each gather it broke, each reconnection tried), dozens of lines around
    the command's own one line (`ClusterError`), which says what failed."""

    def __init__(self, spec: tuple[str, int | str] | None):
        self.spec, self.client = spec, None
        self.levels: dict[str, int] = {}

    def __enter__(self):
        if self.spec is None:
            return None
        kind, value = self.spec
        try:
            self.client = start_local_cluster(value) if kind == "local" else connect(value)
        except ImportError as e:
            raise UsageError(f"--scheduler: {e}") from None
        except (OSError, TimeoutError) as e:      # (the message names the address)
            raise CommandError(f"--scheduler: {e}") from None
        if kind != "local":
            for name in DASK_CLIENT_LOGGERS:
                log = logging.getLogger(name)
                self.levels[name] = log.level
                log.setLevel(logging.CRITICAL)
        return self.client

    def __exit__(self, *exc):
        if self.client is not None:
            try:
                if self.spec[0] == "local":
                    close_local_cluster(self.client)
                else:
                    self.client.close()
            finally:
                for name, level in self.levels.items():
                    logging.getLogger(name).setLevel(level)


def _play_then_write(args, play, write, catch, stopped, scheduler=True):
    """Exit status of `play(client)` on --scheduler's cluster (or None; without
    `scheduler`, always None: the play plays nothing), then of
    `write(result, stop)`, which writes the outputs (before the cluster closes, which
    takes about a second).  Ctrl-C during the play (`catch`: an Interrupted) gives what
    finished (`stop`, the Interrupted, says how far it got; `stopped(prog, stop)` says so
    on stderr, in a line that starts with the command's name, `prog`; its result None:
    nothing to write) and status 130.  From then on, as once
    the play is over, a Ctrl-C waits until every output is written."""
    status, stop, failed = 0, None, None
    prog = command_name(args)
    with Cluster(args.scheduler if scheduler else None) as client:
        try:
            res = play(client)
        except catch as e:
            res, status, stop = e.result, 130, e
        except ClusterError as e:           # (the cluster failed, not the command)
            if catch is Interrupted and e.result is not None:
                # simulate, compare: the outputs of the finished games, marked partial
                res, status, stop, failed = e.result, 1, e.partial(), e
            elif getattr(args, "results", None):
                # atlas, balance: their results file holds the finished games
                raise CommandError(f"{e}; the finished games are kept in "
                                   f"{args.results}: the same command goes on from "
                                   f"them") from None
            else:
                raise CommandError(str(e)) from None
        with ctrl_c_deferred():
            if failed is not None:
                print(f"\n{prog}: {printable(str(failed))}; the results below are those "
                      f"of the finished {quantity(failed.done, failed.unit)} of "
                      f"{failed.total:,}", file=sys.stderr)
            elif stop is not None:      # (said once the outputs are sure to be written)
                stopped(prog, stop)
            if res is not None:
                write(res, stop)
    return status


def command_name(args: argparse.Namespace) -> str:
    """The command as its lines name it: ``cuttle balance``."""
    command = getattr(args, "command", None)
    return f"cuttle {command}" if command else "cuttle"


def _stopped(prog, e):
    print(f"\n{prog}: {e}" + ("; the results below are those of the finished games"
                              if e.result is not None else ""), file=sys.stderr)


def run_simulate(args: argparse.Namespace) -> int:
    """`cuttle simulate`: play the games and write the table and files (or, with
    --record-game, save one game's record); exit status."""
    if args.record_game is not None:
        return record_game(args)
    if args.record is not None:
        raise ShapeError("--record saves the game of --record-game K: give it too")
    _check_outputs(args)
    rules = options.rules_from_options(args.rules, args.set)
    players = options.players(args.players or DEFAULT_PLAYERS)

    def write(res, stop):
        s = res.summary(args.confidence)
        write_outputs(args, str(s), s.as_dict, s.to_csv, stop)
        save_plot(args, s, stop)
        if args.html:
            save_html(args, simulation_page(s, interrupted=stop))
    return _play_then_write(args, lambda client: simulate(
        _games(args), rules, players, seed=args.seed, threads=args.threads,
        swap_seats=args.swap, progress=args.progress, match=args.match,
        max_moves=args.max_moves, chunk_size=args.chunk_size, games_csv=args.games_csv,
        client=client),
        write, Interrupted, _stopped)


def _games(args: argparse.Namespace) -> int:
    """-n, or its default."""
    return DEFAULT_GAMES if args.n is None else args.n


# Options that mean nothing for one recorded game: nothing is tallied or reported.
_NOT_WITH_RECORD = {"match": "--match", "scheduler": "--scheduler", "json": "--json",
                    "csv": "--csv", "games_csv": "--games-csv", "plot": "--plot",
                    "html": "--html", "chunk_size": "--chunk-size"}


def record_game(args: argparse.Namespace) -> int:
    """`cuttle simulate --record-game K`: game K of the run, saved as a game record
    (`cuttle.simulation.game_record`); exit status.  At Ctrl-C the unfinished game is
    saved (its moves so far, status ``interrupted``) and the status is 130."""
    k = args.record_game
    given = [o for attr, o in _NOT_WITH_RECORD.items() if getattr(args, attr) is not None]
    if given:
        raise ShapeError(f"--record-game K plays one game of the run and saves its record: "
                         f"{given[0]} does not go with it (run the games without "
                         f"--record-game for {given[0]})")
    if args.seed is None:
        raise ShapeError("--record-game K needs the run's --seed (a run with a random "
                         "seed prints it)")
    if args.n is not None and k >= args.n:
        raise UsageError(f"--record-game {k:,}: a run of -n {args.n:,} games has games 0 "
                         f"to {args.n - 1:,}")
    path = args.record or f"cuttle-seed{args.seed}-game{k}.json"
    options.output_files(**{"--record": path})
    rules = options.rules_from_options(args.rules, args.set)
    players = options.players(args.players or DEFAULT_PLAYERS)
    stop = None
    try:
        rec = game_record(players, rules, seed=args.seed, index=k, swap_seats=args.swap,
                          max_moves=args.max_moves)
    except Interrupted as e:            # (the game so far: saved all the same)
        rec, stop = e.result, e
    with ctrl_c_deferred():
        try:
            write_record(rec, path)
        except OSError as e:
            raise CommandError(f"cannot write {path!r}: {e.strerror or e}") from None
        if stop is not None:
            print(f"\n{command_name(args)}: " + printable(f"{stop} of game {k}; the unfinished game is "
                                            f"saved to {path}"), file=sys.stderr)
        print(printable(f"game {k} of seed {args.seed}: "
                        f"{_row_text(rec, seat_of_a(k, args.swap))}"))
        print(printable(f"record saved to {path}: see 'cuttle replay {path}' and "
                        f"'cuttle review {path}'"))
    return 0 if stop is None else 130


def _row_text(rec: dict[str, Any], a_seat: int) -> str:
    """A record's game as its --games-csv row says it (winner, first, moves, turns,
    scores and end, by player A and B; A sat in seat `a_seat`)."""
    a, b = rec["simulation"]["players"]
    res = rec["result"]
    label = {a_seat: "A", a_seat ^ 1: "B"}
    winner = "draw" if res["winner"] is None else label[res["winner"]]
    end = f"end {res['end_reason']}"
    if res["status"] != "over":         # (no winner, no end: the game was cut short)
        winner, end = "none", res["text"]
    scores = res["scores"]
    return (f"winner {winner}, first {label[0]}, {quantity(len(rec['moves']), 'move')}, "
            f"{quantity(res['turns'], 'turn')}, score A {scores[a_seat]}, B {scores[a_seat ^ 1]}, "
            f"{end} (A = {a} in seat {a_seat}, B = {b})")


def run_chunked(args: argparse.Namespace, command: str, run: Callable[[Any], Any],
                write: Callable[[Any, RunInterrupted | None], object]) -> int:
    """Exit status of a run that keeps its chunks in a results file (`cuttle atlas`,
    `cuttle balance`): `run(client)` on --scheduler's cluster (or None) gives the
    result, Ctrl-C the finished chunks' result and 130; the result's notes go to
    stderr, then `write(result, stop)` writes the outputs (`stop`: the RunInterrupted
    of a Ctrl-C, or None), a Ctrl-C waiting until they are written.  With
    --report-only, which plays nothing, no cluster is started or reached."""
    def stopped(prog, e):
        # (in the command's words: the exception's own say to call the function again)
        print(f"\n{prog}: {printable(e.said(command_line=True))}; "
              f"{_tables_hold(e)}", file=sys.stderr)

    def write_all(res, stop):
        for note in res.notes:
            print(f"cuttle {command}: note: {printable(for_command_line(note))}",
                  file=sys.stderr)
        write(res, stop)
    return _play_then_write(args, run, write_all, RunInterrupted, stopped,
                            scheduler=not args.report_only)


def _tables_hold(e: RunInterrupted) -> str:
    """What the tables of a stopped run hold: its finished chunks, or, when none
    finished, those the results file held before, or nothing."""
    if e.done:
        return "the tables below hold the finished chunks"
    if getattr(e.result, "n_games", 0):
        return ("none of its chunks finished: the tables below hold those the results "
                "file held before")
    return "none of its chunks finished, so the tables below hold no games"


def save_html(args: argparse.Namespace, html: str) -> None:
    """Write the page to --html FILE and say so on stderr."""
    try:
        save_page(args.html, html)
    except OSError as e:
        raise CommandError(f"cannot write {args.html!r}: {e.strerror or e}") from None
    print(printable(f"page saved to {args.html}"), file=sys.stderr)


def save_plot(args: argparse.Namespace, result: Any, stop: Interrupted | None = None,
              what: str = "") -> None:
    """Save `result`'s plot to --plot FILE, if given (an interrupted run's, `stop`, says
    so), and say so on stderr (`what`, if given, after a colon: what the figure shows)."""
    if args.plot:
        try:
            result.plot(args.plot, interrupted=stop)
        except OSError as e:
            raise CommandError(f"cannot write {args.plot!r}: {e.strerror or e}") from None
        print(printable(f"plot saved to {args.plot}" + (f": {what}" if what else "")),
              file=sys.stderr)


def _rule_sets(args):
    # (appended, not stored: a second --vary silently replaced the first)
    if len(args.vary) > 1:
        raise ShapeError(f"--vary is given twice ({quoted(args.vary[1])} after "
                         f"{quoted(args.vary[0])}); "
                         f"it varies one flag: give the other rule sets as arguments "
                         f"(e.g. classic:joker=true) or fix a flag with --set")
    if args.rules is not None and not args.vary:
        # (--rules is --vary's base: the rule sets given as arguments ignored it)
        raise ShapeError("--rules is the base preset of --vary and has no effect without "
                         "it: give each rule set as an argument (e.g. cuttle.cards "
                         "cuttle.cards:four=random)")
    # (--set changes every rule set: one that sets the flag otherwise would not be played)
    rule_sets = [options.rules_from_options(spec, args.set, where="the rule set",
                                            fix=", or give each rule set its own value "
                                                "as an argument") for spec in args.specs]
    if args.vary:
        base = options.rules_from_options(args.rules, args.set)
        try:
            varied = base.variants(args.vary[0])
        except ValueError as e:
            raise UsageError(f"--vary: {e}") from None
        rule_sets += varied
        _vary_sets_no_fixed_flag(args, base)
        if len(rule_sets) < 2:
            raise UsageError(_one_value_varied(args.vary[0], base, varied[0]))
    if len(rule_sets) < 2:
        raise ShapeError("compare needs at least two rule sets: give them as arguments "
                         "(e.g. classic classic:four=random) or with --vary FLAG=V1,V2")
    # (named as written: two spellings of the same rules are the same rule set)
    written = list(args.specs) + [str(r) for r in rule_sets[len(args.specs):]]
    try:
        check_distinct(rule_sets, written)
    except ValueError as e:
        raise UsageError(str(e)) from None
    return rule_sets


def _one_value_varied(vary: str, base: Rules, varied: Rules) -> str:
    """The error of a --vary of one value (and no other rule set): the values to list,
    the base's own first (joker=true: ``--vary joker=false,true``)."""
    flag = FLAGS[_flag_named(vary)]
    given, own = getattr(varied, flag.name), getattr(base, flag.name)
    if given != own:
        values = [own, given]
    else:       # (the base's own value: another the flag takes, a preset's first)
        others = [flag.classic, flag.cuttle_cards, *flag.published, *flag.explored,
                  *flag.values, *((not given,) if flag.kind == "bool" else ())]
        values = [given, next(v for v in others if v != given)]
    text = ",".join(_in_list(flag.format(v)) for v in values)
    return (f"compare needs at least two rule sets: --vary {vary.strip()} gives one; list "
            f"the values to compare, e.g. --vary {flag.name}={text}")


def _flag_named(item: str) -> str:
    """The flag an option's FLAG=VALUE names (the spelling `Rules` reads)."""
    return item.partition("=")[0].strip().lower().replace("-", "_")


def _vary_sets_no_fixed_flag(args, base):
    # The varied flag replaced the value --set or --rules gave it, without a word: a
    # value that no rule set plays.
    name = _flag_named(args.vary[0])
    fixed = [f"--set {item}" for item in args.set if _flag_named(item) == name]
    if not fixed and args.rules is not None and name in Rules.parse(args.rules).changed():
        fixed = [f"--rules {args.rules}"]
    if fixed:
        raise UsageError(f"--vary {args.vary[0]} and {fixed[0]} both set {name}: --vary "
                         f"gives each rule set its value, so the other is never played; "
                         f"drop one, or list the rule sets as arguments")


def run_compare(args: argparse.Namespace) -> int:
    """`cuttle compare`: play the same deals under each rule set (with --opponent, each
    player of --players against it under one rule set); exit status."""
    if args.opponent is not None:
        return run_compare_players(args)
    if args.players and len(args.players.split(",")) > 2:
        raise UsageError(f"--players takes one or two players (A,B) when rule sets are "
                         f"compared, not {args.players!r}: to compare these players, "
                         f"each against the same opponent, name it with --opponent "
                         f"(e.g. --opponent greedy --players {args.players})")
    _check_outputs(args)
    players = options.players(args.players or DEFAULT_PLAYERS)
    rule_sets = _rule_sets(args)

    write = _comparison_writer(args)
    return _play_then_write(args, lambda client: compare(
        rule_sets, _games(args), players, seed=args.seed, threads=args.threads,
        swap_seats=args.swap, progress=args.progress, match=args.match,
        max_moves=args.max_moves, chunk_size=args.chunk_size, confidence=args.confidence,
        games_csv=args.games_csv, client=client), write, Interrupted, _stopped)


def _comparison_writer(args: argparse.Namespace):
    """How a comparison (of rule sets or of players) is written: its text, JSON, CSV,
    plot and page, as the options ask; `write(cmp, stop)`."""
    def write(cmp, stop):
        write_outputs(args, str(cmp), cmp.as_dict, cmp.to_csv, stop)
        save_plot(args, cmp, stop)
        if args.html:
            save_html(args, comparison_page(cmp, interrupted=stop))
    return write


def run_compare_players(args: argparse.Namespace) -> int:
    """`cuttle compare --opponent B --players C1,C2,...`: each candidate against B on
    the same deals and seats under one rule set (`compare_players`); exit status."""
    if args.vary:
        raise ShapeError("--vary compares rule sets; --opponent compares the players of "
                         "--players under one rule set: give one or the other")
    if args.players is None:
        raise ShapeError("--opponent B compares the players of --players against B: give "
                         "them, e.g. --players mybot.py:v1,mybot.py:v2")
    if len(args.specs) > 1 or (args.specs and args.rules is not None):
        given = args.specs + ([args.rules] if args.rules is not None else [])
        raise ShapeError(f"--opponent compares players under one rule set, not "
                         f"{len(given)} ({', '.join(map(quoted, given))}): give it as an "
                         f"argument or with --rules")
    _check_outputs(args)
    spec = args.specs[0] if args.specs else args.rules
    rules = options.rules_from_options(spec, args.set)
    opponent = options.player(args.opponent, "--opponent")
    candidates = options.candidates(args.players)

    write = _comparison_writer(args)
    return _play_then_write(args, lambda client: compare_players(
        candidates, _games(args), opponent, rules, seed=args.seed, threads=args.threads,
        swap_seats=args.swap, progress=args.progress, match=args.match,
        max_moves=args.max_moves, chunk_size=args.chunk_size, confidence=args.confidence,
        games_csv=args.games_csv, client=client), write, Interrupted, _stopped)


def run_rules(args: argparse.Namespace) -> int:
    """`cuttle rules`: list the presets and flags, or one rule set's values."""
    if args.preset is None and not args.set:
        # the catalogue: every preset and flag (as text, or the same as JSON)
        print(json.dumps(Rules.catalogue(), indent=2) if args.json else Rules.describe())
        return 0
    rules = options.rules_from_options(args.preset, args.set, where="the rules")
    if args.json:
        print(json.dumps(rules.to_json(full=True), indent=2))
        return 0
    changed = rules.changed()
    print(rules)                        # (rule text: what --rules and --set read back)
    for k, v in rules.as_dict().items():
        mark = "  (changed)" if k in changed else ""
        print(f"  {k:22} {FLAGS[k].format(v)}{mark}")
    return 0
