"""`cuttle review RECORD`: a saved game reviewed move by move, each decision valued from
its mover's own view.

    cuttle review game.json --engine expert --player 0 --html review.html
    cuttle review game.json --engine ismcts:1000 --json review.json --omniscient
    cuttle review game.json --markdown review.md
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from ..errors import Interrupted
from ..files import write_text
from ..record import read_record
from ..record_result import check_result as check_result_of
from ..report import save_page
from ..review import Thresholds, parse_engine, review
from ..review.engines import DEFAULT_ENGINE
from ..text import printable, quoted
from . import options
from ..interrupts import ctrl_c_deferred
from .options import CommandError, UsageError

if TYPE_CHECKING:
    from ..game import Game
    from ..review import Review


THRESHOLD_LABELS = {f.name for f in fields(Thresholds)}


def thresholds(text: str) -> dict[str, float]:
    """--thresholds: 'good=0.04,mistake=0.2' (losses in expected score, 0 to 1); a value
    refused is echoed as it was typed (`Thresholds`' own words gave '2' as 2.0)."""
    out: dict[str, float] = {}
    typed: dict[str, str] = {}
    for part in text.split(","):
        name, eq, value = part.partition("=")
        label = name.strip().lower()
        try:
            loss = float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected LABEL=LOSS pairs such as "
                                             f"'good=0.04,mistake=0.2', not {quoted(text)}") \
                from None
        if not eq:
            raise argparse.ArgumentTypeError(f"expected LABEL=LOSS pairs, not {quoted(text)}")
        if label in out:            # (which one was meant? as a rule flag set twice)
            raise argparse.ArgumentTypeError(f"{label} is set twice ({quoted(part.strip())} "
                                             f"after {label}={typed[label]})")
        if label in THRESHOLD_LABELS and not 0 <= loss <= 1:     # (NaN fails too)
            raise argparse.ArgumentTypeError(f"threshold {quoted(label)} must be a number "
                                             f"from 0 to 1, not {quoted(value.strip())}")
        out[label], typed[label] = loss, value.strip()
    try:
        Thresholds.coerce(out)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return out


def player(text: str) -> int | None:
    """--player: 0, 1 or both (None)."""
    t = text.strip().lower()
    if t == "both":
        return None
    if t in ("0", "1"):
        return int(t)
    raise argparse.ArgumentTypeError(f"expected 0, 1 or both, not {quoted(text)}")


def load(path: str) -> dict[str, Any]:
    """The record at `path`: UsageError if it is not one or cannot be read."""
    try:
        return read_record(path)
    except OSError as e:
        raise options.cannot_read(path, e) from None
    except ValueError as e:                 # (its message names the file first)
        raise UsageError(str(e)) from None


def run_review(rec: dict[str, Any], args: argparse.Namespace, where: str) -> tuple[Review, int]:
    """The review of `rec` with the command's options; (review, exit status): 130 and
    the finished part when interrupted."""
    try:
        engine = parse_engine(args.engine)
    except ValueError as e:
        raise UsageError(str(e)) from None
    try:
        r = review(rec, engine, player=getattr(args, "player", None), seed=args.seed,
                   threads=args.threads, thresholds=getattr(args, "thresholds", None),
                   omniscient=getattr(args, "omniscient", False),
                   progress=getattr(args, "progress", None))
    except Interrupted as e:
        print(f"cuttle {getattr(args, 'command', None) or 'review'}: {e}", file=sys.stderr)
        e.result.source = where           # (its header names the record, as a whole one's)
        return e.result, 130
    except ValueError as e:
        raise UsageError(f"{where}: {e}") from None
    r.source = where
    return r, 0


def check_result(rec: dict[str, Any], g: Game) -> int:
    """1 when the record says its game ended otherwise than `g`, its replay
    (`record_result.check_result` warns: `cli.main` shows it as a line on stderr), else 0."""
    return 0 if check_result_of(rec, g) is None else 1


def run(args: argparse.Namespace) -> int:
    """`cuttle review`: review a record; returns the exit status."""
    options.one_to_stdout(**{"--json": args.json, "--markdown": args.markdown})
    options.output_files(inputs={"RECORD": args.record}, **{"--html": args.html,
                            "--json": args.json, "--markdown": args.markdown})
    rec = load(args.record)
    r, status = run_review(rec, args, args.record)   # (it warns of a result its moves deny)
    with ctrl_c_deferred():         # (a second Ctrl-C: every file still written)
        _outputs(args, r)
    return status or int(r.record_mismatch is not None)


def _outputs(args, r):
    """Write the review `r` to --json, --markdown and --html and print it (or the JSON
    or the markdown, when one of them writes to stdout)."""
    if args.json:
        text = json.dumps(r.as_dict(), indent=2) + "\n"
        if args.json == "-":
            sys.stdout.write(text)
        else:
            _write(args.json, text, write_text)
    if args.markdown:
        text = r.markdown()
        if args.markdown == "-":            # (the players' names come from the record)
            sys.stdout.write(printable(text, newlines=True))
        else:
            _write(args.markdown, text, write_text)
    to_stdout = "-" in (args.json, args.markdown)
    if not to_stdout:
        print(printable(r, newlines=True))
    if args.html:
        _write(args.html, r.page(), save_page)
        # (stdout carries the JSON or the markdown alone when it is written there)
        print(printable(f"review page written to {args.html}"),
              file=sys.stderr if to_stdout else sys.stdout)


def _write(path, text, writer):
    try:
        writer(path, text)
    except OSError as e:
        raise CommandError(f"cannot write {path!r}: {e.strerror or e}") from None


def engine_help() -> str:
    """--engine's help: what each engine does and its default budget, read from the
    engines themselves (the help is all a wheel's user has: no docs/ folder)."""
    expert, rollouts, search = (parse_engine(k) for k in ("expert", "rollouts", "ismcts"))
    return (f"how moves are valued: expert[:N], N to {expert.cap // expert.base}N playouts "
            f"per move by the expert policy from the mover's view (N = {expert.base} if "
            f"not given); rollouts[:N], the same with random playouts (N = "
            f"{rollouts.base}); ismcts[:N], {search.base} to {search.cap} searches of N "
            f"iterations per move, each forced to play the move (N = "
            f"{search.name.partition(':')[2]}); ismcts-infer[:N], the same searches "
            f"weighing the opponent's possible hands by its earlier moves. Default "
            f"{DEFAULT_ENGINE}; docs/review.md in the source distribution compares them")


def add_review_options(p: argparse.ArgumentParser) -> None:
    """The options the review shares with `cuttle replay --review`."""
    p.add_argument("--engine", default=DEFAULT_ENGINE, metavar="ENGINE", help=engine_help())
    options.add_threads(p)
    p.add_argument("--seed", type=options.seed, default=None,
                   help="seed of the review's samples (default: random; the same seed "
                        "gives the same review)")
    options.add_progress(p, "the review's progress")


def add_command(sub: argparse._SubParsersAction) -> None:
    """Register `review` on the sub-parsers."""
    pr = sub.add_parser(
        "review", help="review a saved game move by move (labels, best moves, accuracy)",
        description="Value every decision of a game record from its mover's own view "
                    "(what they could know, never the opponent's hidden cards or the deck "
                    "order): the move played against the best move, the loss, and a "
                    "label (best, near best: within 1 pp of the best, good, inaccuracy ?!, "
                    "mistake ?, blunder ??), a win on the spot that was missed flagged "
                    "whatever its loss; forced moves are listed. Prints where the game was lost (one sentence), the "
                    "annotated move list and each player's figures (average loss, labels, "
                    "accuracy). A record whose stated result its moves do not give is "
                    "reviewed by its moves, with a warning (exit status 1).",
        epilog="example: cuttle review game.json --player 0 --html review.html")
    pr.add_argument("record", metavar="RECORD",
                    help="a game record (saved by 'cuttle play' or 'cuttle simulate "
                         "--record-game', or any cuttle game record)")
    add_review_options(pr)
    pr.add_argument("--player", type=player, default=None, metavar="0|1|both",
                    help="whose moves to review (default both)")
    pr.add_argument("--html", type=options.output_file, metavar="OUT.html",
                    help="also write the replay page with the review (an evaluation graph, "
                         "labels and best moves in the move list)")
    pr.add_argument("--json", nargs="?", const="-", default=None, metavar="FILE",
                    help="write every figure as JSON to FILE (default: stdout, instead of "
                         "the text)")
    pr.add_argument("--markdown", nargs="?", const="-", default=None, metavar="FILE",
                    help="write the review as markdown to FILE: where the game was lost, "
                         "the moves and the per-player figures as tables (default: stdout, "
                         "instead of the text)")
    pr.add_argument("--omniscient", action="store_true",
                    help="add the hindsight line: each position's value with every card "
                         "known (what no player could know)")
    pr.add_argument("--thresholds", type=thresholds, default=None, metavar="LABEL=LOSS,...",
                    help="the largest loss of each label, in expected score from 0 to 1 "
                         "(0.05 is the text's 5 pp, percentage points; best= is near "
                         "best's, 'best' being the best move's alone; defaults: "
                         "best=0.01,good=0.05,inaccuracy=0.1,mistake=0.15)")
    pr.set_defaults(func=run)
