"""The interactive commands: `cuttle play`, `cuttle replay` and `cuttle analyse`.

    cuttle play --bot greedy --rules classic --set four=random --seed 7 --record game.json
    cuttle replay game.json --step
    cuttle analyse "hands: 2C 3D 7H / 2H 4S; points: TH / 9D; to_move: 0" --rollouts 2000

`add_play_commands(subparsers)` registers the three sub-commands on an argparse
sub-parsers object (each sets ``func`` to `play_cli`, `replay_cli` or `analyse_cli`,
which take the parsed Namespace and return an exit status); `main(argv)` runs them on
their own.  Bad options print a one-line error (no traceback) and give status 2.

Game records are JSON objects::

    {"format": "cuttle-game-record", "version": 1,
     "rules": {"preset": "classic", "changed": {"four": "random"}},
     "seed": 7, "position": null,          # or the full starting position text
     "players": ["human", "greedy"], "human_seat": 0, "bot": {"name": "greedy", "seed": 7},
     "moves": ["draw", "points 7H", ...],
     "result": {"status": "over", "winner": 0, "end_reason": "goal", "turns": 12,
                "scores": [21, 9], "text": "player 0 wins (goal)"},
     "created": "2024-01-01T12:00:00", "cuttle_version": "0.1.0"}

``result.status`` is ``over``, ``quit``, ``eof`` (the input ended) or ``interrupted``.
"""

import argparse
import datetime
import json
import os
import sys

from . import __version__
from .analysis import analyse
from .errors import IllegalMoveError, InvalidMoveError
from .game import Game
from .moves import Move
from .notation import (game_from_fields, game_from_text, parse_position, parse_sets, position_text,
                       rules_from_args)
from .policies import POLICY_NAMES, Bot, policy_code
from .rules import Rules

__all__ = ["RECORD_FORMAT", "RECORD_VERSION", "PlaySession", "add_play_commands",
           "analyse_cli", "game_from_record", "history_lines", "play_cli", "read_record",
           "replay_cli", "rules_from_args", "start_from_record", "validate_record"]

RECORD_FORMAT = "cuttle-game-record"
RECORD_VERSION = 1
DEFAULT_HINT_ROLLOUTS = 1000
DEFAULT_ANALYSE_ROLLOUTS = 10000
_MASK64 = 2**64 - 1

HELP = """\
Commands:
  N            play move number N of the list
  MOVE         play a move in notation, e.g. draw, points 7H, scuttle 9C 8D,
               royal QS, glasses 8H, jack JC TH, oneoff 6D, oneoff 2C QH,
               counter 2S, resolve, take 5C, discard 3H 7D, pass
  undo         take back your last decision (and the bot's replies to it)
  hint [N]     rank your legal moves by N playouts per move (default {hint})
  moves        the moves so far
  board        draw the table and the legal moves again
  help         this text
  quit         stop here (the game record is saved)
Cards are rank + suit: A 2-9 T(or 10) J Q K and C D H S, e.g. TH, 10h, AS."""


class _Error(Exception):
    """A bad option or input file: printed as one line, exit status 2."""


def _err(cmd, message, status=2):
    print(f"cuttle {cmd}: error: {message}", file=sys.stderr)
    return status


# ---------------------------------------------------------------------------------------
# Input

def _read_line(prompt):
    """One line of input without its newline, or None at the end of input.

    On a terminal this is `input` (line editing); otherwise the prompt is printed and
    the line read from `sys.stdin` is echoed, so a scripted session reads like one."""
    stdin = sys.stdin
    try:
        tty = stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        tty = False
    if tty:
        try:
            return input(prompt)
        except EOFError:
            print()
            return None
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = stdin.readline()
    if not line:
        sys.stdout.write("\n")
        return None
    line = line.rstrip("\r\n")
    print(line)
    return line


# ---------------------------------------------------------------------------------------
# Option values (cuttle.cli uses them too)

def _seed_arg(text):
    try:
        v = int(str(text).strip().replace("_", ""), 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, not {text!r}") \
            from None
    if not 0 <= v <= _MASK64:
        raise argparse.ArgumentTypeError(f"must be from 0 to 2**64-1, not {text!r}")
    return v


def _positive(text):
    """A positive count: 1000000, 1_000_000, 1,000,000, 1e6."""
    t = str(text).strip().replace("_", "").replace(",", "")
    try:
        v = int(t)
    except ValueError:
        try:
            f = float(t)
        except ValueError:
            f = None
        if f is None or not f.is_integer():
            raise argparse.ArgumentTypeError(f"expected a positive whole number, not {text!r}") \
                from None
        v = int(f)
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text!r}")
    return v


def _resolve_rules(preset, sets, text_rules=None):
    """The rules of a command: ``--rules`` replaces the position's own rules, ``--set``
    changes flags on top of whichever applies."""
    if preset is None and text_rules is not None:
        flags = parse_sets(sets)
        return text_rules.replace(**flags) if flags else text_rules
    return rules_from_args(preset, sets or ())


def _read_position_arg(arg):
    """Position text from '-' (stdin), a file, or the argument itself."""
    if arg == "-":
        return sys.stdin.read()
    if os.path.isfile(arg):
        try:
            with open(arg, encoding="utf-8") as f:
                return f.read()
        except OSError as e:
            raise _Error(f"cannot read {arg!r}: {e.strerror or e}") from None
    if ":" not in arg:
        raise _Error(f"{arg!r} is neither a file nor position text "
                     f"(e.g. 'hands: 2C 3D / 4H; points: TH / -; to_move: 0')")
    return arg


def _build_position(text, preset, sets, seed, to_move=None):
    """A Game from position text and the rule options."""
    kw = parse_position(text)
    return game_from_fields(kw, _resolve_rules(preset, sets, kw["rules"]), seed, to_move)


def _names(players, human_seat):
    """How the history calls each player: 'you' and the bot's name."""
    if human_seat in (0, 1):
        return {human_seat: "you", 1 - human_seat: players[1 - human_seat]}
    return {0: players[0], 1: players[1]}


def _result(game, status):
    if game.is_over:
        text = ("draw" if game.winner is None else f"player {game.winner} wins") + \
            f" ({game.end_reason})"
    else:
        text = {"quit": "unfinished: quit", "eof": "unfinished: the input ended",
                "interrupted": "unfinished: interrupted"}.get(status, f"unfinished: {status}")
    return {"status": "over" if game.is_over else status, "winner": game.winner,
            "end_reason": game.end_reason, "turns": game.turn_number + 1,
            "scores": [game.score(0), game.score(1)], "text": text}


def _json_value(v):
    return list(v) if isinstance(v, tuple) else v


def _rules_json(rules):
    return {"preset": rules.preset,
            "changed": {k: _json_value(v) for k, v in rules.changed().items()}}


def _print_moves(moves, per_line=4):
    """The legal moves, numbered from 1, in columns."""
    items = [f"{i:>3}. {m}" for i, m in enumerate(moves, 1)]
    width = max(len(s) for s in items) + 2
    per_line = max(1, min(per_line, 88 // width))
    for k in range(0, len(items), per_line):
        print("".join(s.ljust(width) for s in items[k:k + per_line]).rstrip())


# ---------------------------------------------------------------------------------------
# cuttle play

class PlaySession:
    """A terminal game of a human against a bot (see `play_cli`)."""

    def __init__(self, game, bot, human, position=None, hint_rollouts=DEFAULT_HINT_ROLLOUTS):
        self.game = game
        self.start = game.copy()
        self.bot = bot
        self.human = human
        self.position = position              # the starting position's text, if any
        self.hint_rollouts = hint_rollouts
        self.decisions = []                   # plies at which the human decided
        self.players = ["human", "human"]
        self.players[1 - human] = bot.name
        self.names = _names(self.players, human)

    # -- the loop ----------------------------------------------------------------------

    def run(self) -> str:
        """Play until the game is over, the human quits or the input ends; returns the
        status ('over', 'quit', 'eof', 'interrupted')."""
        g = self.game
        print(f"Cuttle: you are player {self.human} against {self.bot.name} "
              f"(player {1 - self.human}); rules {_rules_label(g.rules)}; seed {g.seed}.")
        print("Type a move's number or the move itself; 'help' lists the commands.")
        try:
            while not g.is_over:
                if g.to_move == self.human:
                    status = self._human_decision()
                    if status in ("quit", "eof"):
                        return status
                else:
                    p = g.to_move
                    move = self.bot.choose(g)
                    g.play(move)
                    print(f"P{p} ({self.bot.name}) plays: {move}")
        except KeyboardInterrupt:
            print("\ninterrupted")
            return "interrupted"
        print()
        print(g.render())
        if g.winner is None:
            print(f"The game is a draw ({g.end_reason}).")
        elif g.winner == self.human:
            print(f"You win ({g.end_reason})!")
        else:
            print(f"{self.bot.name} wins ({g.end_reason}).")
        return "over"

    def _show(self):
        g = self.game
        print()
        print(g.render(viewer=self.human))
        print("Your legal moves:")
        _print_moves(list(g.legal_moves))

    def _human_decision(self) -> str:
        g = self.game
        self._show()
        while True:
            legal = list(g.legal_moves)
            line = _read_line("your move> ")
            if line is None:
                print("(end of input)")
                return "eof"
            text = line.strip()
            low = text.lower()
            word, _, rest = low.partition(" ")
            if not text:
                print("Type a move number (1 to {}), a move such as 'draw', or 'help'."
                      .format(len(legal)))
                continue
            if low.isdigit():
                k = int(low)
                if not 1 <= k <= len(legal):
                    print(f"There is no move {k}: choose a number from 1 to {len(legal)}.")
                    continue
                move = legal[k - 1]
            elif word in ("quit", "exit", "q") and not rest:
                return "quit"
            elif word in ("help", "?", "h") and not rest:
                print(HELP.format(hint=self.hint_rollouts))
                continue
            elif word in ("moves", "history") and not rest:
                self._print_history()
                continue
            elif word in ("board", "table", "show") and not rest:
                self._show()
                continue
            elif word == "hint":
                self._hint(rest.strip())
                continue
            elif word == "undo" and not rest:
                if self._undo():
                    return "undo"
                continue
            else:
                try:
                    move = Move.parse(text)
                except InvalidMoveError as e:
                    print(f"Not a move or a command: {text!r} ({e}). Type 'help' for help.")
                    continue
            before = len(g.moves)
            try:
                g.play(move)
            except IllegalMoveError as e:
                print(f"Not legal now: {e}")
                continue
            self.decisions.append(before)
            print(f"You play: {move}")
            return "moved"

    # -- commands ----------------------------------------------------------------------

    def _undo(self) -> bool:
        g = self.game
        if not self.decisions:
            print("Nothing to undo: you have not made a move yet.")
            return False
        target = self.decisions.pop()
        undone = []
        while len(g.moves) > target:
            undone.append(str(g.undo()))
        print(f"Took back {len(undone)} move{'s' if len(undone) != 1 else ''}: "
              f"{', '.join(reversed(undone))}")
        return True

    def _hint(self, arg):
        g = self.game
        n = self.hint_rollouts
        if arg:
            if not arg.isdigit() or int(arg) < 1:
                print(f"hint takes a positive number of playouts per move, not {arg!r}")
                return
            n = int(arg)
        seed = hash((g.seed, len(g.moves), n)) & _MASK64
        a = analyse(g, rollouts=n, policy="greedy", seed=seed)
        print(a)
        legal = list(g.legal_moves)
        print(f"Hint: {a.best} (move {legal.index(a.best) + 1})")

    def _print_history(self):
        moves = self.game.moves
        if not moves:
            print("No moves yet.")
            return
        for line in history_lines(self.start, moves, self.names):
            print(line)

    # -- the record ----------------------------------------------------------------------

    def record(self, status) -> dict:
        g = self.game
        return {
            "format": RECORD_FORMAT, "version": RECORD_VERSION,
            "rules": _rules_json(g.rules), "seed": g.seed, "position": self.position,
            "players": list(self.players), "human_seat": self.human,
            "bot": {"name": self.bot.name, "seed": self.bot.seed},
            "moves": [str(m) for m in g.moves], "result": _result(g, status),
            "created": datetime.datetime.now().isoformat(timespec="seconds"),
            "cuttle_version": __version__,
        }


def _rules_label(rules):
    changed = rules.changed()
    if not changed:
        return rules.preset
    return rules.preset + " (" + ", ".join(f"{k}={v!r}" for k, v in changed.items()) + ")"


def history_lines(start, moves, names=None):
    """'  1. turn 1, P0 (you): draw' for each move played from the game `start`."""
    g = start.copy()
    out = []
    for i, m in enumerate(moves, 1):
        p = g.to_move
        who = f"P{p}" + (f" ({names[p]})" if names else "")
        out.append(f"{i:>4}. turn {g.turn_number + 1}, {who}: {m}")
        g.play(m)
    return out


def _default_record_path():
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = f"cuttle-game-{stamp}.json"
    k = 2
    while os.path.exists(path):
        path = f"cuttle-game-{stamp}-{k}.json"
        k += 1
    return path


def play_cli(args) -> int:
    """`cuttle play`: a terminal game against a bot; returns the exit status."""
    bot_name = getattr(args, "bot", None) or "greedy"
    seat = getattr(args, "seat", 0)
    seed = getattr(args, "seed", None)
    position = getattr(args, "position", None)
    try:
        policy_code(bot_name)
        record = getattr(args, "record", None)
        folder = os.path.dirname(os.path.abspath(record)) if record else None
        if folder and not (os.path.isdir(folder) and os.access(folder, os.W_OK)):
            # Say so now rather than after the game, when the record would be lost.
            raise ValueError(f"cannot write the game record to {record!r}: "
                             f"{folder!r} is not a writable folder")
        if seat not in (0, 1):
            raise ValueError(f"--seat takes 0 or 1, not {seat!r}")
        if position is not None:
            if position == "-":
                raise ValueError("--position - cannot read standard input, which holds "
                                 "your moves; give the text or a file")
            text = _read_position_arg(position)
            game = _build_position(text, getattr(args, "rules", None),
                                   getattr(args, "set", None), seed)
            if game.is_over:
                raise ValueError("the position is already over: "
                                 + _result(game, "over")["text"])
            start_text = position_text(game, rules=False)
        else:
            rules = rules_from_args(getattr(args, "rules", None), getattr(args, "set", None))
            game = Game(rules, seed)
            start_text = None
    except (ValueError, _Error) as e:
        return _err("play", e)
    bot = Bot(bot_name, seed=game.seed)
    session = PlaySession(game, bot, seat, start_text,
                          getattr(args, "hint_rollouts", None) or DEFAULT_HINT_ROLLOUTS)
    status = session.run()
    path = getattr(args, "record", None) or _default_record_path()
    text = json.dumps(session.record(status), indent=2) + "\n"
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        return _err("play", f"cannot save the game record to {path!r}: {e.strerror or e}", 1)
    print(f"Game record saved to {path} (replay it with: cuttle replay {path})")
    return 130 if status == "interrupted" else 0


# ---------------------------------------------------------------------------------------
# Records and cuttle replay

def _record_rules(rec):
    r = rec.get("rules")
    if not isinstance(r, dict) or not isinstance(r.get("preset"), str):
        raise ValueError("'rules' must be an object with a 'preset' name and 'changed' flags")
    changed = r.get("changed", {})
    if not isinstance(changed, dict):
        raise ValueError("'rules.changed' must be an object of flag values")
    flags = {k: tuple(v) if isinstance(v, list) else v for k, v in changed.items()}
    try:
        return Rules(r["preset"], **flags)
    except (ValueError, TypeError) as e:
        raise ValueError(f"bad rules: {e}") from None


def validate_record(rec) -> dict:
    """Check a game record's shape (not yet its moves); ValueError saying what is wrong."""
    if not isinstance(rec, dict):
        raise ValueError("a game record is a JSON object")
    if rec.get("format") != RECORD_FORMAT:
        raise ValueError(f"not a cuttle game record ('format' should be {RECORD_FORMAT!r})")
    if rec.get("version") != RECORD_VERSION:
        raise ValueError(f"unsupported record version {rec.get('version')!r} "
                         f"(this cuttle reads version {RECORD_VERSION})")
    _record_rules(rec)
    seed = rec.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _MASK64:
        raise ValueError(f"'seed' must be a non-negative integer, not {seed!r}")
    if rec.get("position") is not None and not isinstance(rec["position"], str):
        raise ValueError("'position' must be position text or null")
    moves = rec.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise ValueError("'moves' must be a list of move texts")
    players = rec.get("players", ["player 0", "player 1"])
    if not (isinstance(players, list) and len(players) == 2
            and all(isinstance(p, str) for p in players)):
        raise ValueError("'players' must be a list of two names")
    return rec


def read_record(path) -> dict:
    """A validated game record from a JSON file (ValueError/OSError otherwise)."""
    with open(path, encoding="utf-8") as f:
        try:
            rec = json.load(f)
        except json.JSONDecodeError as e:
            raise ValueError(f"not valid JSON: {e}") from None
    return validate_record(rec)


def start_from_record(rec):
    """The starting Game of a record."""
    rules = _record_rules(rec)
    if rec.get("position"):
        try:
            return game_from_text(rec["position"], rules=rules, seed=rec["seed"])
        except ValueError as e:
            raise ValueError(f"bad starting position: {e}") from None
    return Game(rules, rec["seed"])


def game_from_record(rec):
    """The Game at the end of a record (every move replayed)."""
    g = start_from_record(rec)
    for i, m in enumerate(rec["moves"], 1):
        _replay_move(g, i, m)
    return g


def _replay_move(g, i, text):
    try:
        return g.play(text)
    except ValueError as e:                 # IllegalMoveError included
        raise ValueError(f"move {i} ({text!r}) cannot be played: {e}") from None


def replay_cli(args) -> int:
    """`cuttle replay FILE [--step]`: every move with the table after it."""
    path = args.file
    try:
        rec = read_record(path)
        g = start_from_record(rec)
    except OSError as e:
        return _err("replay", f"cannot read {path!r}: {e.strerror or e}", 1)
    except ValueError as e:
        return _err("replay", f"{path}: {e}")
    players = rec.get("players", ["player 0", "player 1"])
    names = _names(players, rec.get("human_seat"))
    print(f"Replaying {path}: P0 {players[0]} against P1 {players[1]}; "
          f"rules {_rules_label(g.rules)}; seed {g.seed}; {len(rec['moves'])} moves")
    print(g.render())
    step = getattr(args, "step", False)
    for i, text in enumerate(rec["moves"], 1):
        if step:
            line = _read_line("[Enter] next move, q to stop> ")
            if line is None or line.strip().lower() in ("q", "quit"):
                print("(replay stopped)")
                return 0
        p, turn = g.to_move, g.turn_number + 1
        try:
            move = _replay_move(g, i, text)
        except ValueError as e:
            return _err("replay", f"{path}: {e}")
        print()
        print(f"Move {i} (turn {turn}), P{p} ({names[p]}): {move}")
        print(g.render())
    res = rec.get("result")
    ends = _result(g, "over")["text"] if g.is_over else "unfinished"
    print()
    print(f"Result: {ends}")
    if isinstance(res, dict) and res.get("status") == "over":
        if not g.is_over or res.get("winner") != g.winner \
                or res.get("end_reason") != g.end_reason:
            print(f"warning: the record says {res.get('text', res)!r}, but the replay "
                  f"ends {ends!r}", file=sys.stderr)
            return 1
    return 0


# ---------------------------------------------------------------------------------------
# cuttle analyse

def analyse_cli(args) -> int:
    """`cuttle analyse POSITION`: rank the decider's moves by playouts."""
    try:
        text = _read_position_arg(args.position)
        game = _build_position(text, getattr(args, "rules", None), getattr(args, "set", None),
                               getattr(args, "seed", None), getattr(args, "player", None))
        if game.is_over:
            raise ValueError("the position is already over ("
                             + _result(game, "over")["text"] + "): nothing to analyse")
        a = analyse(game, rollouts=getattr(args, "rollouts", None) or DEFAULT_ANALYSE_ROLLOUTS,
                    policy=getattr(args, "policy", None) or "random",
                    threads=getattr(args, "threads", None), seed=getattr(args, "seed", None),
                    adaptive=bool(getattr(args, "adaptive", False)))
    except (ValueError, _Error) as e:
        return _err("analyse", e)
    if getattr(args, "json", False):
        d = a.as_dict()
        d["position"] = position_text(game)
        d["rules"] = _rules_json(game.rules)
        d["best"] = str(a.best)
        print(json.dumps(d, indent=2))
    else:
        print(a)
        print(f"Best: {a.best}")
    return 0


# ---------------------------------------------------------------------------------------
# The parsers

def _add_rules_options(p, position_note=False):
    extra = " (default: the position's own rules, else classic)" if position_note \
        else " (default classic)"
    p.add_argument("--rules", default=None, metavar="PRESET",
                   help=f"rule preset: {', '.join(Rules.presets)}{extra}")
    p.add_argument("--set", action="append", default=[], metavar="FLAG=VALUE",
                   help="change a rule flag (repeatable), e.g. --set four=random "
                        "--set king_goals=15,14,10,7,5")


def add_play_commands(subparsers):
    """Register `play`, `replay` and `analyse` on an argparse sub-parsers object."""
    pp = subparsers.add_parser(
        "play", help="play a game against a bot in the terminal",
        description="Play Cuttle against a bot. At each of your decisions the table is "
                    "drawn from your side and your legal moves are listed; answer with a "
                    "number, a move (e.g. 'points 7H'), undo, hint, moves, help or quit. "
                    "Input may come from a pipe. The game record is saved as JSON at the end.")
    pp.add_argument("--bot", default="greedy", metavar="NAME",
                    help=f"the opponent: {', '.join(POLICY_NAMES)} (default greedy)")
    _add_rules_options(pp, position_note=True)
    pp.add_argument("--seed", type=_seed_arg, default=None,
                    help="seed of the deal and the bot (default: random)")
    pp.add_argument("--seat", type=int, choices=(0, 1), default=0,
                    help="your seat: 0 moves first in a new deal (default 0)")
    pp.add_argument("--record", metavar="FILE", default=None,
                    help="where to save the game record (default cuttle-game-DATE-TIME.json)")
    pp.add_argument("--position", metavar="TEXT", default=None,
                    help="start from this position (position text or a file holding it)")
    pp.add_argument("--hint-rollouts", type=_positive, default=DEFAULT_HINT_ROLLOUTS,
                    metavar="N", help=f"playouts per move for 'hint' "
                                      f"(default {DEFAULT_HINT_ROLLOUTS})")
    pp.set_defaults(func=play_cli)

    pr = subparsers.add_parser(
        "replay", help="replay a saved game record move by move",
        description="Rebuild a game from its record and print every move with the table "
                    "after it, all cards shown.")
    pr.add_argument("file", metavar="FILE", help="a game record saved by 'cuttle play'")
    pr.add_argument("--step", action="store_true",
                    help="wait for Enter before each move (end of input stops)")
    pr.set_defaults(func=replay_cli)

    pa = subparsers.add_parser(
        "analyse", aliases=["analyze"],
        help="rank the legal moves of a position by playouts",
        description="Score every legal move of the player to decide by playouts from "
                    "that player's view, with 95%% intervals. The position is position "
                    "text (see cuttle.notation), a file holding it, or '-' for stdin.",
        epilog="example: cuttle analyse \"hands: 2C 7H / 4S 5D; points: 9D / TC; "
               "to_move: 0\" --rollouts 2000")
    pa.add_argument("position", metavar="POSITION",
                    help="position text, a file holding it, or - to read stdin")
    _add_rules_options(pa, position_note=True)
    pa.add_argument("--rollouts", type=_positive, default=DEFAULT_ANALYSE_ROLLOUTS,
                    metavar="N", help=f"playouts per move (default {DEFAULT_ANALYSE_ROLLOUTS})")
    pa.add_argument("--policy", choices=("random", "greedy"), default="random",
                    help="the players in the playouts (default random)")
    pa.add_argument("--adaptive", action="store_true",
                    help="successive halving: drop the worse moves early")
    pa.add_argument("--threads", type=_positive, default=None, metavar="T",
                    help="cores to use (default: all)")
    pa.add_argument("--seed", type=_seed_arg, default=None,
                    help="seed of the playouts and of the unlisted cards' shuffle")
    pa.add_argument("--json", action="store_true", help="print the result as JSON")
    pa.add_argument("--player", type=int, choices=(0, 1), default=None,
                    help="the player to decide (default: the position's to_move)")
    pa.set_defaults(func=analyse_cli)
    return subparsers
