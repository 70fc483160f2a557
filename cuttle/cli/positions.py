"""A command's position argument (`cuttle play`, `cuttle analyse`): its text read from
the argument, a file or stdin, and its game with its own rules and seed against
--rules, --set and --seed."""

from __future__ import annotations

import argparse
import os
import sys

from ..files import read_text
from ..game import Game
from ..position import parse_text, reconcile
from ..rules import Rules
from ..text import quoted
from .options import UsageError, cannot_read, rules_from_options

__all__ = ["MAX_POSITION_BYTES", "invalid_position", "position_game", "position_settings",
           "read_position_arg"]

# The most position text read from a file or stdin (a position is a few hundred bytes).
MAX_POSITION_BYTES = 1 << 20


def position_game(args: argparse.Namespace, to_move: int | None = None,
                  text: str | None = None, seed_deals: bool = True) -> Game:
    """The Game of a command's position argument (text, a file, or '-' for stdin;
    `text`: its text, already read) with its rules and seed (`position_settings`)."""
    text = read_position_arg(args.position) if text is None else text
    try:
        kw = parse_text(text)
    except ValueError as e:
        raise invalid_position(args.position, e) from None
    kw["rules"], kw["seed"] = position_settings(args, text, seed_deals)
    if to_move is not None:
        kw["to_move"] = to_move
    try:
        return Game.from_position(**kw)
    except ValueError as e:
        raise invalid_position(args.position, e) from None


def position_settings(args: argparse.Namespace, text: str,
                      seed_deals: bool = True) -> tuple[Rules, int | None]:
    """The rules and seed of a position's game (`text`, well formed): its own (its
    ``rules:`` and ``seed:`` fields), which --rules may only repeat
    (`cuttle.position.reconcile`, the web app's check of a pasted position and a
    record's of its own: a contradiction is refused, not settled silently), else
    --rules (classic); --set changes flags on top (`rules_from_options`).  --seed is the
    seed of the deal where `seed_deals` (`cuttle play`: of the deal and the bot), which
    may only repeat the position's too; else (`cuttle analyse`: the analysis's seed) the
    position's own seed deals it, and --seed only where it has none."""
    given = None if args.rules is None else rules_from_options(args.rules, ())
    try:
        own, seed = reconcile(text, given, args.seed if seed_deals else None)
    except ValueError as e:
        raise UsageError(f"{_position_source(args.position) or 'the position'}: {e}") \
            from None
    return rules_from_options(args.rules, args.set, own), \
        args.seed if seed is None else seed


def invalid_position(arg: str, e: ValueError) -> UsageError:
    """The error of a position argument whose text is wrong: it names the file (or
    stdin) the text came from; text given as the argument is quoted by `e` if needed."""
    where = _position_source(arg)
    return UsageError(f"{where + ': ' if where else ''}invalid position: {e}")


def _position_source(arg: str) -> str | None:
    """Where a position argument's text is read from: 'stdin', the file, or None (the
    argument is the text).  Any path that exists is a file to read, a folder or a
    device too, which `read_text` refuses saying what it is."""
    if arg == "-":
        return "stdin"
    return arg if os.path.lexists(arg) else None


def read_position_arg(arg: str) -> str:
    """Position text from '-' (stdin), a file, or the argument itself; at most
    MAX_POSITION_BYTES from a file or stdin (an endless input is refused, not read).  A
    path that is no regular file is refused as `cuttle replay` refuses a record's:
    "/tmp: it is a folder, not a position text file"."""
    where = _position_source(arg)
    if where is not None:
        try:
            return read_text(sys.stdin if arg == "-" else arg, MAX_POSITION_BYTES,
                             "position text")
        except ValueError as e:
            raise UsageError(f"{where}: {e}") from None
        except OSError as e:
            raise cannot_read(arg, e) from None
    if ":" not in arg:
        raise UsageError(f"{quoted(arg)} is neither a file nor position text "
                         f"(e.g. 'hands: 2C 3D / 4H; points: TH / -; to_move: 0')")
    return arg
