"""`cuttle replay FILE [--step]`: a saved game record, move by move."""

import sys

from ..record import play_recorded, read_record, result_of, start_game
from .options import CommandError, UsageError
from .terminal import read_line, seat_names


def run(args) -> int:
    path = args.file
    try:
        rec = read_record(path)
        g = start_game(rec)
    except OSError as e:
        raise CommandError(f"cannot read {path!r}: {e.strerror or e}") from None
    except ValueError as e:
        raise UsageError(f"{path}: {e}") from None
    players = rec.get("players", ["player 0", "player 1"])
    names = seat_names(players, rec.get("human_seat"))
    print(f"Replaying {path}: P0 {players[0]} against P1 {players[1]}; "
          f"rules {g.rules}; seed {g.seed}; {len(rec['moves'])} moves")
    print(g.render())
    for i, text in enumerate(rec["moves"], 1):
        if args.step:
            line = read_line("[Enter] next move, q to stop> ")
            if line is None or line.strip().lower() in ("q", "quit"):
                print("(replay stopped)")
                return 0
        p, turn = g.to_move, g.turn_number
        try:
            move = play_recorded(g, i, text)
        except ValueError as e:
            raise UsageError(f"{path}: {e}") from None
        print()
        print(f"Move {i} (turn {turn}), P{p} ({names[p]}): {move}")
        print(g.render())
    res = rec.get("result")
    ends = result_of(g)["text"] if g.is_over else "unfinished"
    print()
    print(f"Result: {ends}")
    if isinstance(res, dict) and res.get("status") == "over":
        if not g.is_over or res.get("winner") != g.winner \
                or res.get("end_reason") != g.end_reason:
            print(f"warning: the record says {res.get('text', res)!r}, but the replay "
                  f"ends {ends!r}", file=sys.stderr)
            return 1
    return 0


def add_command(sub):
    pr = sub.add_parser(
        "replay", help="replay a saved game record move by move",
        description="Rebuild a game from its record and print every move with the table "
                    "after it, all cards shown.")
    pr.add_argument("file", metavar="FILE", help="a game record saved by 'cuttle play'")
    pr.add_argument("--step", action="store_true",
                    help="wait for Enter before each move (end of input stops)")
    pr.set_defaults(func=run)
