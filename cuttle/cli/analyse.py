"""`cuttle analyse POSITION`: rank the decider's moves by playouts.

    cuttle analyse "hands: 2C 3D 7H / 2H 4S; points: TH / 9D; to_move: 0" --rollouts 2000
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

from ..analysis import PLAYOUT_POLICIES, analyse
from ..errors import Interrupted
from ..record import result_of
from . import options
from ..interrupts import ctrl_c_deferred
from .options import UsageError

if TYPE_CHECKING:
    import argparse

DEFAULT_ROLLOUTS = 10000


def run(args: argparse.Namespace) -> int:
    """`cuttle analyse`: rank the legal moves of a position; returns the exit status."""
    game = options.position_game(args, to_move=args.player)
    if game.is_over:
        raise UsageError(f"the position is already over ({result_of(game)['text']}): "
                         f"nothing to analyse")
    status, stop = 0, None
    try:
        a = analyse(game, rollouts=args.rollouts, policy=args.policy, threads=args.threads,
                    seed=args.seed, adaptive=args.adaptive)
    except Interrupted as e:         # show what finished
        print(f"cuttle analyse: {e}", file=sys.stderr)
        if not e.done:
            return 130
        a, status, stop = e.result, 130, e
    with ctrl_c_deferred():          # (a second Ctrl-C: the result still printed whole)
        _print(args, game, a, stop)
    return status


def _print(args, game, a, stop):
    """Print the analysis `a` (`stop`: the Interrupted of a partial one, or None)."""
    if args.json:
        d = Interrupted.mark(a.as_dict(), stop)     # (a partial analysis says so)
        d["position"] = game.position_text()
        d["rules"] = game.rules.to_json()
        d["best"] = str(a.best)
        print(json.dumps(d, indent=2))
    else:
        print(a)
        print(f"Best: {a.best}" + (" (so far)" if stop is not None else ""))


def add_command(sub: argparse._SubParsersAction) -> None:
    """Register `analyse` (and its alias `analyze`) on the sub-parsers."""
    pa = sub.add_parser(
        "analyse", aliases=["analyze"],
        help="rank the legal moves of a position by playouts",
        description="Score every legal move of the player to decide by playouts from "
                    "that player's view, with 95% intervals. The position is position "
                    "text (see cuttle.position), a file holding it, or '-' for stdin.",
        epilog="example: cuttle analyse \"hands: 2C 7H / 4S 5D; points: 9D / TC; "
               "to_move: 0\" --rollouts 2000")
    pa.add_argument("position", metavar="POSITION",
                    help="position text, a file holding it, or - to read stdin")
    options.add_rules_options(pa, position_note=True)
    pa.add_argument("--rollouts", type=options.positive, default=DEFAULT_ROLLOUTS,
                    metavar="N", help=f"playouts per move (default {DEFAULT_ROLLOUTS})")
    pa.add_argument("--policy", choices=PLAYOUT_POLICIES, default="random",
                    help="the players in the playouts (default random)")
    pa.add_argument("--adaptive", action="store_true",
                    help="successive halving: drop the worse moves early")
    pa.add_argument("--threads", type=options.threads, default=None, metavar="T",
                    help="cores to use (default: all)")
    pa.add_argument("--seed", type=options.seed, default=None,
                    help="seed of the playouts and of the unlisted cards' shuffle")
    pa.add_argument("--json", action="store_true", help="print the result as JSON")
    pa.add_argument("--player", type=int, choices=(0, 1), default=None,
                    help="the player to decide (default: the position's to_move)")
    pa.set_defaults(func=run)
