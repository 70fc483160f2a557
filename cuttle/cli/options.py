"""Option values shared by the commands: counts, seeds, confidence levels, players, rules,
positions and output files.  Each parser reads the option's text and checks the value
with the library's own check (`cuttle.validation`, `cuttle.seeding`, `Rules`,
`cuttle.policies`), whose ValueError becomes an `argparse.ArgumentTypeError` or a
`UsageError` naming what was expected, before any work.  The library's message names
the value already: the option goes before it (`policy`), never the value a second time;
where its words would repeat the option's name or show the value otherwise than as
written (a seed, a confidence level), the option says it in its own words."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from typing import TYPE_CHECKING, NoReturn

from .._optional import install_command
from ..policies import DEFAULT_ISMCTS_ITERATIONS, POLICY_NAMES, policy_code
from ..policy_files import FilePolicy, is_policy_file, load_policy
from ..rules import Rules
from ..seeding import SEED_WORDS, read_seed
from ..simulation.api import MAX_MAX_MOVES, MAX_UNITS
from ..simulation.connection import parse_address
from ..simulation.names import DEFAULT_MAX_MOVES
from ..text import printable, quoted
from ..threads import MAX_THREADS
from ..validation import MAX_TARGET, check_confidence, check_count, check_int, check_output_path
from ..variants.errors import for_command_line

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from ..variants.errors import NothingToReport

__all__ = ["UsageError", "ShapeError", "CommandError", "Parser", "add_command_parser",
           "add_confidence", "add_max_moves", "add_progress", "add_rules_options",
           "add_run_options", "add_threads", "at_most", "cannot_read",
           "check_own_rules", "check_report_only", "check_sets", "confidence", "game_index",
           "one_to_stdout", "output_file", "output_files", "players",
           "points", "policy", "positive", "rules_from_options",
           "scheduler", "seed", "threads"]


class Parser(argparse.ArgumentParser):
    """argparse's parser, quoting a value it refuses itself (not a number, not one of
    the choices, not a command) through `cuttle.text.quoted`, as the options' own
    checks do: argparse's messages repeat it whole.  Every error of the command is
    said by `report`, the one place: one line, and for a command line of the wrong
    shape a second pointing at the help; never the usage block, up to 13 lines of
    options that buried the one line that mattered.  `lists`: what the parser's --help
    lists ("options"; the top level's, "commands")."""

    def __init__(self, *args, lists: str = "options", **kwargs):
        super().__init__(*args, **kwargs)
        self.lists = lists
        self._refused: str | None = None    # the error of a value argparse refused

    def _get_value(self, action, arg_string):
        try:
            return super()._get_value(action, arg_string)
        except argparse.ArgumentError as e:
            raise self._value_error(e, action, arg_string) from None

    def _check_value(self, action, value):
        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as e:
            if action.nargs == argparse.PARSER:     # (no such command: the shape)
                raise _requoted(e, action, value) from None
            raise self._value_error(e, action, value) from None

    def _value_error(self, e: argparse.ArgumentError, action: argparse.Action,
                     value: object) -> argparse.ArgumentError:
        # argparse hands `error` only the text: remember which text is a value's.
        error = _requoted(e, action, value)
        self._refused = str(error)
        return error

    def error(self, message: str) -> NoReturn:
        """argparse's own refusals (and `cli.main`'s of unknown arguments): a value it
        could not read in one line, anything else as a command line of the wrong shape;
        exits with status 2."""
        self.exit(self.report(message, shape=message != self._refused))

    def report(self, error: object, shape: bool = False, status: int = 2) -> int:
        """Say `error` on stderr as ``PROG: error: MESSAGE`` (escaped: it may quote
        input), with ``(PROG --help lists its options)`` after it when `shape`;
        returns `status`."""
        print(f"{self.prog}: error: {printable(error)}", file=sys.stderr)
        if shape:
            print(f"({self.prog} --help lists its {self.lists})", file=sys.stderr)
        return status


def _requoted(e: argparse.ArgumentError, action: argparse.Action,
              value: object) -> argparse.ArgumentError:
    return argparse.ArgumentError(action, e.message.replace(repr(value), quoted(value)))


class UsageError(Exception):
    """Bad input: a value of an option or argument, or the content of a file or text
    it names (a record, a position, rules); said in one line, exit status 2."""


class ShapeError(UsageError):
    """A command line of the wrong shape: an option or argument missing, given twice,
    or given with one it does not go with; said in one line and a second pointing at
    the command's --help, exit status 2."""


class CommandError(Exception):
    """A command that could not finish (e.g. a file it cannot write): exit status 1."""


def _checked(check: Callable[..., object], *args: object) -> object:
    """`check(*args)`, its ValueError turned into argparse's error for an option value."""
    try:
        return check(*args)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def positive(text: str, limit: int | None = None) -> int:
    """A positive count: 1000000, 1_000_000, 1,000,000, 1e6 (at most `limit`)."""
    t = str(text).strip().replace("_", "").replace(",", "")
    if not t.isascii():
        raise argparse.ArgumentTypeError(f"expected a positive whole number, not "
                                         f"{quoted(text)}")
    try:
        v = int(t)
    except ValueError:
        try:
            f = float(t)
        except ValueError:
            f = None
        if f is None or not f.is_integer():
            raise argparse.ArgumentTypeError(f"expected a positive whole number, not "
                                             f"{quoted(text)}") from None
        v = int(f)
        if limit is not None and v > limit:     # (as written: int(1e99) has 100 digits)
            raise argparse.ArgumentTypeError(f"the count must be at most {limit:,}, not "
                                             f"{quoted(text)}")
    return _checked(check_count, v, "the count", limit)


def at_most(limit: int) -> Callable[[str], int]:
    """A `positive` parser refusing counts above `limit`."""
    def parse(text: str) -> int:
        return positive(text, limit)
    parse.__name__ = "count"
    return parse


def threads(text: str) -> int:
    """A thread count: a `positive` count up to cuttle.threads.MAX_THREADS."""
    return positive(text, MAX_THREADS)


def seed(text: str) -> int:
    """A seed: a whole number from 0 to 2**64-1 (decimal, leading zeros and underscores
    allowed, or 0x hex), read by `cuttle.seeding.read_seed`."""
    try:
        return read_seed(str(text))
    except ValueError:      # (its own words would name the seed a second time)
        raise argparse.ArgumentTypeError(f"expected {SEED_WORDS}, not "
                                         f"{quoted(text)}") from None


def game_index(text: str) -> int:
    """A game's index in a run (a --games-csv row's `game`): a whole number from 0 to
    the last index a run has (`cuttle.simulation.MAX_UNITS` - 1), underscores and
    commas allowed."""
    t = str(text).strip().replace("_", "").replace(",", "")
    if not (t.isascii() and t.isdigit()):
        raise argparse.ArgumentTypeError(f"expected a game index (a whole number from 0), "
                                         f"not {quoted(text)}")
    return _checked(check_int, int(t), "the game index", 0, MAX_UNITS - 1)


def target_points(text: str) -> float:
    """A target half-width in percentage points, 0 < x <= 100 x `MAX_TARGET` (the
    library's bound, in its fractions: `cuttle.validation.check_target`)."""
    v = _points(text)
    if not 0 < v <= 100 * MAX_TARGET:       # (NaN fails the comparison)
        raise argparse.ArgumentTypeError(f"a target half-width must be more than 0 and at "
                                         f"most {100 * MAX_TARGET:g} percentage points, "
                                         f"not {quoted(text)}")
    return v


def points(text: str, zero: bool = False) -> float:
    """Percentage points, 0 < x < 100 (``0.25``, ``0.25pp``, ``0.25%``): the number of
    points; `zero`: 0 is taken too.  Its refusal says which ends are taken ("between 0
    and 100, not '0'" read as a contradiction)."""
    v = _points(text)
    if zero and not 0 <= v < 100:
        raise argparse.ArgumentTypeError(f"must be at least 0 (0: none) and less than 100 "
                                         f"percentage points, not {quoted(text)}")
    if not zero and not 0 < v < 100:
        raise argparse.ArgumentTypeError(f"must be more than 0 and less than 100 "
                                         f"percentage points, not {quoted(text)}")
    return v


def _points(text: str) -> float:
    """The number of percentage points written (``0.25``, ``0.25pp``, ``0.25%``)."""
    try:
        return float(str(text).strip().rstrip("%").removesuffix("pp"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected percentage points like 0.25, not "
                                         f"{quoted(text)}") from None


def confidence(text: str) -> float:
    """A confidence level between 0 and 1 (exclusive): 0.95, or a percent: 95%; checked
    by `cuttle.validation.check_confidence`."""
    t = str(text).strip()
    percent = t.endswith("%")
    try:
        v = float(t[:-1] if percent else t)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a level like 0.95 or 95%, not "
                                         f"{quoted(text)}") from None
    if percent:
        v /= 100.0
    elif 1 < v < 100:
        raise argparse.ArgumentTypeError(f"expected a level between 0 and 1 (e.g. 0.95) or "
                                         f"a percent: for {v:g} percent write {v:g}%")
    try:
        return check_confidence(v)
    except ValueError:
        # (check_confidence's words name the confidence again and show the level as a
        # fraction, not as it was written)
        if 0 < v < 1:                       # refused for being too close to 1
            raise argparse.ArgumentTypeError(
                f"expected a level between 0 and 1 (exclusive), not {quoted(text)}, which "
                f"is "
                f"too close to 1 for a finite interval") from None
        raise argparse.ArgumentTypeError(
            f"expected a level between 0 and 1 (exclusive) like 0.95, or a percent like "
            f"95%, not {quoted(text)}") from None


def output_file(text: str) -> str:
    """An output file's path, refused at once (not after a long run) when it cannot be
    written (`cuttle.validation.check_output_path`)."""
    if not str(text).strip():       # (not "the path must be the path of a file (a str ...")
        raise argparse.ArgumentTypeError(f"expected a file name, not {quoted(text)}")
    return _checked(check_output_path, text)


def one_to_stdout(**outputs: str | None) -> None:
    """At most one of `outputs` (option -> path, "-": stdout) writes to stdout; a usage
    error naming the first two otherwise."""
    stdout = [option for option, path in outputs.items() if path == "-"]
    if len(stdout) > 1:
        raise UsageError(f"{stdout[0]} and {stdout[1]} cannot both write to stdout; give "
                         f"one a FILE")


def output_files(inputs: dict[str, str | None] | None = None, **paths: str | None) -> None:
    """Check output files before any work (`cuttle.validation.check_output_path`), and
    that no two options name the same file, nor a file the command reads (`inputs`:
    option -> path, e.g. {"RECORD": "game.json"}), which the output would replace.
    `paths`: option -> path (None: not given; "-": stdout)."""
    read = {os.path.realpath(path): option for option, path in (inputs or {}).items()
            if path is not None and path != "-" and os.path.isfile(path)}
    seen: dict[str, str] = {}           # real path -> option
    for option, path in paths.items():
        if path is None or path == "-":
            continue
        if not path.strip():
            raise UsageError(f"{option} expects a file name, not {path!r}")
        try:
            check_output_path(path, option)
        except ValueError as e:
            raise UsageError(str(e)) from None
        real = os.path.realpath(path)
        if real in read:
            raise UsageError(f"{option} names {path!r}, the file given as {read[real]}: "
                             f"writing it would replace that input; choose another file")
        if real in seen:
            raise UsageError(f"{seen[real]} and {option} name the same file {path!r}")
        seen[real] = option


def cannot_read(path: str, e: OSError) -> UsageError:
    """The error of an input file (a record, a position, a results file to report on)
    that is missing or cannot be read: a usage error (exit status 2), as any other bad
    input, which every command reading a file reports alike."""
    return UsageError(f"cannot read {path!r}: {e.strerror or e}")


def check_report_only(args: argparse.Namespace) -> None:
    """--report-only reads the tables from --results FILE (atlas, balance): a usage
    error, before any work, without one or when it cannot be read."""
    if not args.report_only:
        return
    if args.results is None:
        raise ShapeError("--report-only reads the tables from a results file: give "
                         "--results FILE")
    if not os.path.isfile(args.results):
        raise UsageError(f"--results: no file {args.results!r} to report on")
    try:
        with open(args.results, "rb"):
            pass
    except OSError as e:
        raise cannot_read(args.results, e) from None


def nothing_of_these_options(results: str, option: str) -> str:
    """A results file holds no games of the options given (a run of them reads or reports
    nothing): each record is keyed by the options that played it, so the options of the
    run that filled it are needed, with `option` added."""
    return (f"{results} holds no games played with these options: give the options of "
            f"the run that filled it, with {option} added")


def nothing_reported(results: str, error: NothingToReport,
                     reads: Callable[[bool], Iterable[tuple[str, str, int, int]]] | None
                     = None, quick: bool = False) -> UsageError:
    """--report-only found no games for the options given (the library's
    NothingToReport): a usage error naming the runs the file holds, and what reading
    it noticed (a last line cut off); with `reads`, the runs the options read with
    --quick given or not, the option to add or drop (`quick_hint`)."""
    notes = "".join(f"; {for_command_line(n)}" for n in error.notes)
    if reads is not None:
        notes += quick_hint(error, reads, quick)
    if error.unscreened:
        return UsageError(f"--report-only: {results} holds no games of this search: "
                          f"{error.space}{notes}: give the options of the run that filled "
                          f"it, with --report-only added, or play the new changes into "
                          f"the file (the same command without --report-only)")
    held = (f"it holds games of {error.held}" if error.runs
            else "it holds no games at all")
    return UsageError(f"--report-only: {nothing_of_these_options(results, '--report-only')} "
                      f"({held}){notes}")


def quick_hint(error: NothingToReport,
               reads: Callable[[bool], Iterable[tuple[str, str, int, int]]],
               quick: bool) -> str:
    """Whether the file holds a run the options read with --quick the other way (given
    with `quick`, else left out): the same base, policy, seed and move cap, in the
    chunks --quick changes.  The words saying which to do, else ""; `reads(quick)`:
    the runs (base, policy, seed, chunk size) the options read."""
    try:
        other = {tuple(r) for r in reads(not quick)}
    except (UsageError, ValueError):    # (the other way is refused: no such run)
        return ""
    held = error.runs if error.capped is None else error.capped
    sizes = sorted({r[3] for r in held if tuple(r) in other})
    if not sizes:
        return ""
    chunks = f"chunks of {' and '.join(f'{n:,}' for n in sizes)} games"
    if quick:
        return f"; its {chunks} are what these options play without --quick: drop --quick"
    return f"; its {chunks} are what --quick plays: add --quick"


def scheduler(text: str) -> tuple[str, int | str]:
    """A dask scheduler: tcp://HOST:PORT (any SCHEME://...), or local:N for a new local
    cluster of N worker processes."""
    t = str(text).strip()
    if t.lower().startswith("local:"):
        n = t[6:].strip()
        if not (n.isascii() and n.isdigit() and 1 <= int(n) <= 1024):
            raise argparse.ArgumentTypeError(f"local:N takes N from 1 to 1024 worker "
                                             f"processes, not {quoted(text)}")
        return ("local", int(n))
    scheme, sep, rest = t.partition("://")
    if not (sep and scheme.isascii() and scheme.isalnum() and rest):
        raise argparse.ArgumentTypeError(f"expected a scheduler address like "
                                         f"tcp://HOST:8786, or local:N, not {quoted(text)}")
    try:
        parse_address(t)                # scheme, host and port, before any work
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return ("address", t)


def players(text: str, option: str = "--players") -> tuple[str | FilePolicy, ...]:
    """(A, B) from 'A,B' or one player for both; each a policy name or a Python file's
    policy, FILE.py:FUNCTION (loaded: `player`)."""
    names = [p.strip() for p in text.split(",")]
    if len(names) == 1:
        names = names * 2
    if len(names) != 2 or not all(names):
        raise UsageError(f"{option} takes one or two players separated by a comma "
                         f"(e.g. random,greedy or mybot.py:choose,greedy), not {quoted(text)}")
    if names[0] == names[1]:            # (one file run once for both seats)
        return (player(names[0], option),) * 2
    return tuple(player(name, option) for name in names)


def candidates(text: str, option: str = "--players") -> list[str | FilePolicy]:
    """The players of 'C1,C2,...' (at least two), each a policy name or a Python file's
    policy (`player`)."""
    names = [p.strip() for p in text.split(",")]
    if len(names) < 2 or not all(names):
        raise UsageError(f"{option} takes the players to compare, at least two separated "
                         f"by commas (e.g. mybot.py:v1,mybot.py:v2), not {quoted(text)}")
    return [player(name, option) for name in names]


def player(name: str, option: str) -> str | FilePolicy:
    """A player of the command line: a policy name (checked), or FILE.py:FUNCTION, the
    function of a Python file (`cuttle.policy_files.load_policy`: the file run now);
    a UsageError naming the option for anything else."""
    if not is_policy_file(name):
        return policy(name, option)
    try:
        return load_policy(name)
    except ValueError as e:
        raise UsageError(f"{option}: {e}") from None


def policy(name: str, option: str) -> str:
    """`name` if it is a policy name (`cuttle.policies`); else a UsageError naming the
    option, before the policy's own message, which names the value and the fix."""
    if "," in name:                     # (not a bad count: a second name where one goes)
        raise UsageError(f"{option} takes one policy name, not {quoted(name)}")
    if is_policy_file(name):
        raise UsageError(f"{option} takes a policy name, not a Python file's policy "
                         f"({quoted(name)}): those play in 'cuttle simulate' and 'cuttle "
                         f"compare' (--players FILE.py:FUNCTION)")
    try:
        policy_code(name)
    except ValueError as e:
        raise UsageError(f"{option}: {e}") from None
    return name


# What a search's name without ":N" means, for every help text that lists policies.
SEARCH_ALONE = (" or ".join(f"'{name[:-2]}'" for name in POLICY_NAMES if name.endswith(":N"))
                + f" alone means N = {DEFAULT_ISMCTS_ITERATIONS}")


def player_help(default: str) -> str:
    return (f"from: {', '.join(POLICY_NAMES)}; {SEARCH_ALONE}; "
            f"cuttle.cards-ai reads hidden cards (a full-information reference); or "
            f"FILE.py:FUNCTION, your own Python policy(game) or policy(game, rng) -> move "
            f"(default {default})")


def add_rules_options(p: argparse.ArgumentParser, position_note: bool = False,
                      record_note: bool = False) -> None:
    """Add --rules and --set to a command's parser (`position_note`: a position's own
    rules are the default, which --rules may only repeat; `record_note`: a --record's
    rules are its own)."""
    extra = (" (default: the position's own rules, which it may only repeat, else "
             "classic") if position_note else " (default classic"
    extra += "; with --record, the record's, which they may not contradict)" \
        if record_note else ")"
    p.add_argument("--rules", default=None, metavar="PRESET",
                   help=f"rule preset: {', '.join(Rules.presets)}{extra}; "
                        f"PRESET:FLAG=VALUE,... (the text Python's rules= arguments take "
                        f"too) also works")
    p.add_argument("--set", action="append", default=[], metavar="FLAG=VALUE",
                   help="change a rule flag (repeatable), e.g. --set four=random "
                        "--set king_goals=15,14,10,7,5, but not one the text of --rules "
                        "sets otherwise; see 'cuttle rules'")


def add_confidence(p: argparse.ArgumentParser) -> None:
    """--confidence C: the level of a command's intervals (`confidence`), 0.95 by default."""
    p.add_argument("--confidence", type=confidence, default=0.95, metavar="C",
                   help="confidence level of the intervals: 0.95 or 95%% (default 0.95)")


def add_max_moves(p: argparse.ArgumentParser) -> None:
    """--max-moves M: a run's move cap, `DEFAULT_MAX_MOVES` by default."""
    p.add_argument("--max-moves", type=at_most(MAX_MAX_MOVES), default=DEFAULT_MAX_MOVES,
                   metavar="M", help=f"a game still running after M moves is a draw "
                                     f"(default {DEFAULT_MAX_MOVES})")


def add_threads(p: argparse.ArgumentParser, scheduler: bool = False) -> None:
    """--threads T: the cores of a command's native work (all by default); `scheduler`:
    the command also plays on a dask cluster (--scheduler), where T is per chunk."""
    p.add_argument("--threads", type=threads, default=None, metavar="T",
                   help="cores to use (default: all; with --scheduler: per chunk, default 1)"
                   if scheduler else "cores to use (default: all)")


def add_run_options(p: argparse.ArgumentParser, what: str,
                    default_seed: int | None = None) -> None:
    """The options of a long run that keeps its chunks in a results file (`what`: "an
    interrupted atlas"): --results, --report-only, --seed (its default `default_seed`;
    the command takes 1 for None), --max-moves, --confidence, --threads, --scheduler."""
    p.add_argument("--results", metavar="FILE", default=None,
                   help=f"append every finished chunk to this JSON-lines file and reuse the "
                        f"chunks it holds: the same command run again continues {what}")
    p.add_argument("--report-only", action="store_true",
                   help="play nothing: the tables of what --results FILE holds")
    p.add_argument("--seed", type=seed, default=default_seed,
                   help="seed of the games (default 1; the results file keys chunks by it)")
    add_max_moves(p)
    add_confidence(p)
    add_threads(p, scheduler=True)
    p.add_argument("--scheduler", type=scheduler, default=None, metavar="ADDRESS",
                   help="play the chunks on a dask cluster: tcp://HOST:8786, or local:N "
                        f"(needs: {install_command('dask')})")


def add_command_parser(sub: argparse._SubParsersAction, name: str, help: str,
                       description: str, epilog: str) -> argparse.ArgumentParser:
    """A command's parser: `description` wrapped to 88 columns, `epilog` (its examples)
    printed as written."""
    return sub.add_parser(name, help=help, description=textwrap.fill(description, 88),
                          epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)


def add_progress(p: argparse.ArgumentParser, what: str = "progress") -> None:
    """--progress/--no-progress (`what` is shown on stderr; args.progress: True, False
    or None, the default: only on a terminal)."""
    g = p.add_mutually_exclusive_group()
    g.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help=f"show {what} on stderr (default: only if it is a terminal)")
    g.add_argument("--no-progress", dest="progress", action="store_false",
                   help=f"never show {what}")


def add_progress_and_outputs(p: argparse.ArgumentParser, what: str, json_help: str,
                             csv_help: str) -> None:
    """--progress/--no-progress (`what` is shown on stderr) and --json/--csv [FILE]
    (stdout when FILE is left out, instead of the tables)."""
    add_progress(p, what)
    p.add_argument("--json", nargs="?", const="-", default=None, metavar="FILE",
                   help=f"write {json_help} as JSON to FILE (default: stdout, instead of the "
                        "tables)")
    p.add_argument("--csv", nargs="?", const="-", default=None, metavar="FILE",
                   help=f"write {csv_help} to FILE (default: stdout, instead of the tables)")


def rules_from_options(spec: str | None, sets: Iterable[str] | None,
                       own: Rules | None = None, where: str = "--rules",
                       fix: str = "") -> Rules:
    """The rules of a command: `spec` (--rules, or a rule set given as `where`, e.g.
    "the rule set") replaces `own` (a position's rules, which `position_settings` found it
    repeats), and --set changes flags on top of whichever applies, but not a flag the
    text of `spec` sets itself (`check_sets`; `fix`: more words on how to mend it)."""
    if spec is not None and not spec.strip():       # (not a silent classic)
        raise UsageError("empty rules: give a preset (e.g. classic) or rule text "
                         "(e.g. 'classic: four=random')")
    try:
        if spec is not None:
            check_sets(spec, sets or (), where, fix)
        if spec is None and own is not None:
            flags = Rules.parse_assignments(sets)
            return own.replace(**flags) if flags else own
        return Rules.parse("classic" if spec is None else spec, sets or ())
    except ValueError as e:
        raise UsageError(str(e)) from None


def check_sets(spec: str, sets: Iterable[str], where: str = "--rules",
               fix: str = "") -> None:
    """--set against rule text (`spec`, given as `where`): UsageError when a --set gives
    a flag the text sets itself another value, which would replace it without a word
    (no game would play the text's value), as the web app refuses a position's rules
    that are not the rules chosen; the same value is taken.  ValueError for malformed
    text or flags."""
    written = Rules.text_flags(spec)
    for item in sets:
        for name, value in Rules.parse_assignments(item).items():
            if name in written and written[name] != value:
                raise UsageError(f"--set {quoted(item)} and {where} {quoted(spec)} both set "
                                 f"{name}: "
                                 f"--set would replace its value there without a "
                                 f"word; drop one{fix}")


def check_own_rules(spec: str | None, sets: Iterable[str] | None, own: Rules,
                    what: str) -> None:
    """--rules (`spec`) and --set against the rules that `what` ("the record") carries:
    UsageError when they would change them (neither is dropped silently, as
    `cuttle.position.reconcile` refuses a position's rules that contradict a record's);
    rules that come to the same are taken."""
    if spec is None and not sets:
        return
    chosen = rules_from_options(spec, sets, own)
    if chosen != own:
        raise UsageError(f"{what} carries its own rules ({own}), not the rules chosen "
                         f"({chosen}): leave out --rules and --set, or choose its rules")
