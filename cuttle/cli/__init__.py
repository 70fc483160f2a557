"""The `cuttle` command line.

    cuttle simulate -n 1000000 --rules classic --set four=random \\
                    --players random,greedy --threads 2 --seed 1
    cuttle simulate --players ismcts:1000,expert --seed 7 --record-game 1234
                                   (game 1234 of the run of these options, as a game record)
    cuttle compare classic classic:four=random cuttle.cards -n 100000 --plot cmp.png
    cuttle rules
    cuttle play --bot ismcts:1000        cuttle replay game.json --step
    cuttle review game.json --player 0 --html review.html
    cuttle analyse "hands: 2C 3D 7H / 2H 4S; points: TH / 9D" --rollouts 2000
    cuttle analyse --record game.json --move 25   (move 25 of a saved game, closer)
    cuttle atlas --quick                 (every house rule against its base preset)
    cuttle balance --quick               (rule sets that make the game fair)

Every command reports a problem the same way (`main`; the lines are written by
`options.Parser.report`, the one place).  Bad input, a value of an option or argument
or what a file or text it names holds (an input file missing or unreadable too:
`options.cannot_read`; a results file that cannot be used, `ResultsFileError`), is one
line ``cuttle COMMAND: error: ...`` and exit status 2; the line names the option or the
file, the value as it was given and what would be taken, each once: ``--players: bad
iteration count in 'ismcts:0': use e.g. 'ismcts:1000'``.  A command line of the wrong
shape (an unknown option, a missing argument, options that do not go together:
`options.ShapeError`) is that line and a second, ``(cuttle COMMAND --help lists its
options)``, status 2 too; never the usage block, among whose lines the error was lost.
`cuttle` without a command prints its help (the commands) and exits with 2.  A failure
to finish (e.g. an unwritable file) prints that line and exits with 1, as does a
player's Python file whose policy fails (`PolicyError`), under the frames of its own
file that raised, not cuttle's (`policy_frames`); Ctrl-C exits
with 130, and a SIGTERM (a `kill`) stops it the same way, what finished kept and
written, with status 143.  Never a traceback: a Ctrl-C while Python imports the package (numpy and
the core, the first half second, before any of this code runs) is held by the command's
entry point until the import is over (`_cuttle_entry`, outside the package); `python -m
cuttle` imports the package itself, whose `__init__` then starts that hold (Python 3.10+,
which names the -m module in sys.orig_argv; 3.9 still shows Python's traceback).  Once
the play is over (or stopped by Ctrl-C, what finished kept), a Ctrl-C waits until every
output is written (`cuttle.interrupts`).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
import warnings
from typing import TYPE_CHECKING

from .._version import __version__
from ..errors import PolicyError
from ..interrupts import sigterm_as_ctrl_c
from ..record_result import RecordResultWarning
from ..rules import DegenerateRulesWarning
from ..text import printable, quoted
from . import analyse, atlas, balance, play, replay, review, serve, simulate
from .options import CommandError, Parser, ShapeError, UsageError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = ["PROG", "build_parser", "main"]

PROG = "cuttle"


def version_text() -> str:
    """`cuttle --version`: the version, and how the native core was built (a core built
    without OpenMP plays on one core whatever --threads asks)."""
    from .._core import BUILD
    cores = "OpenMP" if BUILD["openmp"] else "no OpenMP: one core only"
    popcnt = ", popcnt" if BUILD["popcnt"] else ""
    return f"{PROG} {__version__} (native core: {cores}{popcnt})"


def build_parser() -> Parser:
    """The argument parser of the `cuttle` command, every sub-command registered."""
    parser = Parser(
        prog=PROG, description="Simulate the card game Cuttle under any rule set.",
        epilog="Run 'cuttle COMMAND --help' for a command's options.", lists="commands")
    parser.add_argument("--version", action="version", version=version_text())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    simulate.add_commands(sub)
    play.add_command(sub)
    replay.add_command(sub)
    analyse.add_command(sub)
    review.add_command(sub)
    atlas.add_command(sub)
    balance.add_command(sub)
    serve.add_command(sub)
    return parser


def _commands(parser: Parser) -> dict[str, Parser]:
    """Each sub-command's name -> its parser."""
    return parser._subparsers._group_actions[0].choices


def _owner(parser: Parser, command: str | None, argv: list[str],
           first_unknown: str) -> Parser:
    """The parser an unknown argument belongs to: the sub-command's if it comes after
    the command's name, the top level's if before (or without a command)."""
    if command is None or command not in argv:
        return parser
    if first_unknown in argv and argv.index(first_unknown) < argv.index(command):
        return parser
    return _commands(parser)[command]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad usage, 1 failure)."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args, unknown = parser.parse_known_args(argv)
        if unknown:
            # argparse hands a sub-command's unknown options up to the top level: name
            # them with the command's own name and help.
            owner = _owner(parser, args.command, argv, unknown[0])
            owner.error(f"unrecognized arguments: {' '.join(map(quoted, unknown))}")
    except SystemExit as e:          # --help, --version, or argparse's refusal (status 2)
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    sub = _commands(parser)[args.command]
    with sigterm_as_ctrl_c() as terminated:
        status = _run(args, sub)
    if status == _STOPPED:          # stopped, and nothing said of it yet
        print(f"\n{sub.prog}: {'terminated' if terminated else 'interrupted'}",
              file=sys.stderr)
    elif status == 130 and terminated:      # (the command said how far it got)
        print(f"{sub.prog}: terminated", file=sys.stderr)
    if status in (130, _STOPPED):
        return 143 if terminated else 130   # 143: 128 + SIGTERM, as a killed process
    return status


_STOPPED = -130     # `_run`: Ctrl-C (or SIGTERM) stopped the command with nothing to say


def _command_warning(prog: str, show: Callable[..., None]) -> Callable[..., None]:
    """`warnings.showwarning` for a command: a warning about the user's own input (rules
    that can only give draws, a record whose stated result its moves deny) as one line
    ``cuttle COMMAND: warning: ...``, as the commands' other warnings read; any other
    warning as Python shows it.  Each such line is said once a command (the rules of a
    --record-game run were warned of by the run and again by the game it recorded)."""
    said: set[str] = set()

    def showwarning(message, category, *args, **kwargs):
        if issubclass(category, (DegenerateRulesWarning, RecordResultWarning)):
            line = f"{prog}: warning: {printable(message)}"
            if line not in said:
                said.add(line)
                print(line, file=sys.stderr)
        else:
            show(message, category, *args, **kwargs)
    return showwarning


def _run(args: argparse.Namespace, sub: Parser) -> int:
    """The command's own work, each failure reported as `main` says."""
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _command_warning(sub.prog, warnings.showwarning)
            return args.func(args)
    # ValueError: an argument the library refused (a results file too: ResultsFileError)
    except (UsageError, ValueError) as e:
        return sub.report(e, shape=isinstance(e, ShapeError))
    except KeyboardInterrupt:
        return _STOPPED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 1
    except (CommandError, OSError) as e:
        return sub.report(e, status=1)
    except PolicyError as e:        # a user's bot failed: its own frames, then one line
        frames = policy_frames(e)
        if frames:
            print("Traceback of the policy (most recent call last):", file=sys.stderr)
            print("".join(traceback.format_list(frames)), end="", file=sys.stderr)
        return sub.report(e, status=1)


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def policy_frames(e: PolicyError) -> list[traceback.FrameSummary]:
    """The frames of the exception a user's policy raised that are the user's own (not
    cuttle's, which only called it): what helps them find their bug."""
    cause = e.__cause__
    if cause is None or cause.__traceback__ is None:
        return []
    return [f for f in traceback.extract_tb(cause.__traceback__)
            if not os.path.abspath(f.filename).startswith(_PACKAGE + os.sep)]
