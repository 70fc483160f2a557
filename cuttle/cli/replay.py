"""`cuttle replay FILE [--step] [--html OUT.html [--review]]`: a saved game record, move
by move, in the terminal or as a self-contained replay page (with a game review)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..formatting import quantity
from ..narration import narrate
from ..record import final_game, play_recorded, seed_of, seed_words, start_game
from ..record_result import ending_text
from ..report import record_page, save_page
from ..review.engines import DEFAULT_ENGINE
from ..text import printable
from ..unseen import DEALT_MARK, DEALT_NOTE, dealt_shown
from . import options
from ..interrupts import ctrl_c_deferred
from .options import CommandError, ShapeError, UsageError
from .review import add_review_options, check_result, load, run_review
from .terminal import read_line, seat_names

if TYPE_CHECKING:
    import argparse


def run(args: argparse.Namespace) -> int:
    """`cuttle replay`: print a record's game move by move (or write its page); exit status."""
    path = args.file
    options.output_files(inputs={"FILE": path}, **{"--html": args.html})
    rec = load(path)
    try:
        g = start_game(rec)
    except ValueError as e:
        raise UsageError(f"{path}: {e}") from None     # (main escapes the message)
    if args.review and not args.html:
        raise ShapeError("--review adds the review to the replay page: give --html OUT.html "
                         "(or use 'cuttle review FILE' for the review as text)")
    given = [o for o in ("engine", "threads", "seed", "progress")
             if getattr(args, o) is not None]
    if given and not args.review:
        option = "no-progress" if args.progress is False and given[0] == "progress" \
            else given[0]
        raise ShapeError(f"--{option} sets how the review is made: add --review and "
                         f"--html OUT.html")
    if args.engine is None:
        args.engine = DEFAULT_ENGINE
    if args.html:
        if args.step:
            raise ShapeError("--step and --html do not go together")
        return write_page(args.html, rec, path, args if args.review else None)
    players = rec.get("players", ["player 0", "player 1"])
    names = seat_names(players, rec.get("human_seat"))
    # The names and the path come from outside: escaped (issue 21, item 8).
    print(printable(f"Replaying {path}: P0 {players[0]} against P1 {players[1]}; "
                    f"rules {g.rules}; {seed_words(seed_of(rec), rec.get('deal', 0))}; "
                    f"{quantity(len(rec['moves']), 'move')}"))
    if dealt_shown(g):
        print(f"The cards marked {DEALT_MARK} {DEALT_NOTE}.")
    print(g.render())
    for i, text in enumerate(rec["moves"], 1):
        if args.step:
            line = read_line("[Enter] next move, q to stop> ")
            if line is None or line.strip().lower() in ("q", "quit"):
                print("(replay stopped)")
                return 0
        p, turn = g.to_move, g.turn_number
        before = g.copy()
        try:
            move = play_recorded(g, i, text)
        except ValueError as e:
            raise UsageError(f"{path}: {e}") from None
        print()
        print(printable(f"Move {i} (turn {turn}), P{p} ({names[p]}): {move}"))
        if told := narrate(before, g):          # (every card shown: so is the table)
            print(told)
        print(g.render())
    print()
    print(f"Result: {ending_text(g, rec)}")
    return check_result(rec, g)


def write_page(out: str, rec: dict[str, Any], path: str,
               review: argparse.Namespace | None = None) -> int:
    """The replay page of the record, written to `out`; with `review` (the command's
    options) the page shows a game review of both players."""
    try:
        end = final_game(rec)
        html = None if review else record_page(rec)
    except ValueError as e:
        raise UsageError(f"{path}: {e}") from None
    status = 0
    if review:          # (the review warns of a result its moves deny, as check_result)
        r, status = run_review(rec, review, path)
    with ctrl_c_deferred():         # (a second Ctrl-C: the page still written)
        try:
            save_page(out, r.page() if review else html)
        except OSError as e:
            raise CommandError(f"cannot write {out!r}: {e.strerror or e}") from None
        print(printable(f"replay page of {quantity(len(rec['moves']), 'move')} written to "
                        f"{out} (result: {ending_text(end, rec)})"
                        + (" with the review" if review else "")))
    if review:
        return status or int(r.record_mismatch is not None)
    return check_result(rec, end)


def add_command(sub: argparse._SubParsersAction) -> None:
    """Register `replay` on the sub-parsers."""
    pr = sub.add_parser(
        "replay", help="replay a saved game record move by move",
        description="Rebuild a game from its record and print every move with what it "
                    "did and the table after it, all cards shown.")
    pr.add_argument("file", metavar="FILE", help="a game record saved by 'cuttle play' (or "
                                                 "'cuttle simulate --record-game')")
    pr.add_argument("--step", action="store_true",
                    help="wait for Enter before each move (end of input stops)")
    pr.add_argument("--html", type=options.output_file, metavar="OUT.html",
                    help="write the replay as one self-contained HTML page (buttons, arrow "
                         "keys, the move list, each player's view) instead of printing it")
    pr.add_argument("--review", action="store_true",
                    help="with --html: review both players' moves and show it on the page "
                         "(an evaluation graph, labels and best moves; see 'cuttle review')")
    add_review_options(pr)
    pr.set_defaults(engine=None)         # (so that run() can tell it was given)
    pr.set_defaults(func=run)
