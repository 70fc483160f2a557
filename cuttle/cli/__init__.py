"""The `cuttle` command line.

    cuttle simulate -n 1000000 --rules classic --set four=random \\
                    --players random,greedy --threads 2 --seed 1
    cuttle compare classic classic:four=random cuttle.cards -n 100000 --plot cmp.png
    cuttle rules
    cuttle play --bot ismcts:1000        cuttle replay game.json --step
    cuttle analyse "hands: 2C 3D 7H / 2H 4S; points: TH / 9D" --rollouts 2000
    cuttle atlas --quick                 (every house rule against its base preset)
    cuttle balance --quick               (rule sets that make the game fair)

Every command reports a problem the same way (`main`): a bad option or input prints the
command's usage and one line ``cuttle COMMAND: error: ...`` and exits with status 2; a
failure to finish (e.g. an unwritable file) prints that line and exits with 1; Ctrl-C
exits with 130.  Never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from .._version import __version__
from . import analyse, atlas, balance, play, replay, serve, simulate
from .options import CommandError, UsageError

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["PROG", "build_parser", "main"]

PROG = "cuttle"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `cuttle` command, every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="Simulate the card game Cuttle under any rule set.",
        epilog="Run 'cuttle COMMAND --help' for a command's options.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    simulate.add_commands(sub)
    play.add_command(sub)
    replay.add_command(sub)
    analyse.add_command(sub)
    atlas.add_command(sub)
    balance.add_command(sub)
    serve.add_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
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
    except (UsageError, ValueError) as e:   # ValueError: an argument the library refused
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
    except (CommandError, OSError) as e:
        print(f"{sub.prog}: error: {e}", file=sys.stderr)
        return 1
