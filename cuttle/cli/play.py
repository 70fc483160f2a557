"""`cuttle play`: a terminal game of a person against a bot.

    cuttle play --bot greedy --rules classic --set four=random --seed 7 --record game.json
    cuttle play --bot ismcts:20000 --bot-threads 2
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os

from ..cards import Card
from ..errors import IllegalMoveError, Interrupted, InvalidMoveError
from ..files import write_text
from ..game import Game, check_view
from ..hints import DEFAULT_HINT_ROLLOUTS, HINT_POLICY, hint, hint_words
from ..moves import Move
from ..narration import as_yours, narrate
from ..policies import POLICY_NAMES, Bot
from ..position import parse_text
from ..record import make_record, write_record
from ..record_result import result_of
from ..redeal import NoRedeal, Sightings
from ..review import parse_engine, review
from ..review.engines import DEFAULT_ENGINE
from ..seeding import derive
from ..text import printable, quoted
from ..unseen import DEALT_MARK, DEALT_NOTE, dealt_shown
from . import options, positions
from ..interrupts import ctrl_c_deferred
from .options import CommandError, UsageError
from .terminal import (card_moves, history_lines, not_a_move, print_moves, read_line,
                       seat_names, thinking)

HELP = """\
Commands:
  N            play move number N of the list
  MOVE         play a move in notation, e.g. draw, points 7H, scuttle 9C 8D,
               royal QS, glasses 8H, jack JC TH, oneoff 6D, oneoff 2C QH,
               counter 2S, resolve, take 5C, discard 3H 7D, pass
  CARD         a card alone, e.g. 7H: its move if it has only one legal move,
               else the list of its moves (points 7H, oneoff 7H, ...)
  undo         take back your last decision (and the bot's replies to it); if
               they showed you cards hidden from you again (a draw, the bot's
               reply), the cards you cannot see are dealt again
  hint [N]     rank your legal moves by N expert playouts a move from your
               view, the game review's engine (default {hint})
  moves        the moves so far
  board        draw the table and the legal moves again
  help         this text
  resign       give up: {bot} wins (the game record is saved)
  quit         stop here, the game unfinished (the game record is saved)
Cards are rank + suit: A 2-9 T(or 10) J Q K and C D H S, e.g. TH, 10h, AS."""


class PlaySession:
    """A terminal game of a human against a bot (see `run`)."""

    def __init__(self, game: Game, bot: Bot, human: int, position: str | None = None,
                 hint_rollouts: int = DEFAULT_HINT_ROLLOUTS, auto: bool = True,
                 seed_known: bool = True) -> None:
        self.game = game
        # The seed deals every card: one the player did not give is shown only when
        # the game ends (so is no seed derived from it, such as a hint's).
        self.seed_known = seed_known
        self.auto = auto                      # play forced moves (a lone legal move) at once
        self.start = game.copy()
        self.bot = bot
        self.human = human
        self.position = position              # the starting position's text, if any
        self.hint_rollouts = hint_rollouts
        self.decisions = []                   # plies at which the human decided
        self.players = ["human", "human"]
        self.players[1 - human] = bot.name
        self.names = seat_names(self.players, human)
        self.status = "playing"               # then how it stopped: run's answer
        # What the player has seen, for undo: a re-deal's stream is the game's seed's.
        self.sightings = Sightings(game, human, game.seed)

    # -- the loop ----------------------------------------------------------------------

    def run(self) -> str:
        """Play until the game is over, the human resigns or quits or the input ends;
        returns the status ('over', 'resigned', 'quit', 'eof', 'interrupted'), also kept
        as `status`."""
        self.status = self._play()
        return self.status

    def _play(self) -> str:
        g = self.game
        seed = (f"seed {g.seed}" if self.seed_known else
                "a random seed (shown at the end: it deals every card)")
        print(f"Cuttle: you are player {self.human} against {self.bot.name} "
              f"(player {1 - self.human}); rules {g.rules}; {seed}.")
        if dealt_shown(g):      # (a position's '?': marked wherever you see one)
            print(f"The cards marked {DEALT_MARK} {DEALT_NOTE}.")
        print("Type a move's number or the move itself; 'help' lists the commands.")
        try:
            while not (g := self.game).is_over:     # (an undo may deal a new game)
                if g.to_move == self.human:
                    status = self._human_decision()
                    if status in ("quit", "eof"):
                        return status
                    if status == "resigned":
                        print()
                        print(g.render())
                        print(f"You resign: {self.bot.name} wins.")
                        return status
                else:
                    p = g.to_move
                    with thinking(f"P{p} ({self.bot.name})"):
                        move = self.bot.choose(g)
                    before = g.copy()
                    g.play(move)
                    print(f"P{p} ({self.bot.name}) plays: {move}")
                    self._tell(before, hand=True)
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

    def _tell(self, before: Game, hand: bool) -> None:
        """What the move just played did, as the player saw it (a random discard, the
        card a draw brought, ...); with `hand`, the player's hand after it when the
        move changed it (a move the player did not choose: no table is drawn until
        the player's next real decision)."""
        g = self.game
        text = narrate(before, g, viewer=self.human)
        if text:
            print(f"  {text}")
        mine = g.hand(self.human)
        if hand and mine != before.hand(self.human):
            print(f"  Your hand: {' '.join(mine) if mine else '(empty)'}")

    def _show(self):
        g = self.game
        print()
        print(g.render(viewer=self.human))
        print("Your legal moves:")
        print_moves(list(g.legal_moves))

    def _human_decision(self) -> str:
        g = self.game
        legal = list(g.legal_moves)
        if self.auto and len(legal) == 1:
            before = g.copy()
            g.play(legal[0])
            print(f"You play: {legal[0]} (the only legal move)")
            self._tell(before, hand=True)
            return "moved"
        self._show()
        while True:
            legal = list(g.legal_moves)
            line = read_line("your move> ")
            if line is None:
                print("(end of input)")
                return "eof"
            text = line.strip()
            low = text.lower()
            word, _, rest = low.partition(" ")
            if not text:
                print(f"Type a move number (1 to {len(legal)}), a move such as 'draw', "
                      f"or 'help'.")
                continue
            if low.isdigit():
                k = int(low) if low.isascii() else 0
                if not 1 <= k <= len(legal):
                    print(f"There is no move {text}: choose a number from 1 to {len(legal)}.")
                    continue
                move = legal[k - 1]
            elif word in ("quit", "exit", "q") and not rest:
                return "quit"
            elif word == "resign" and not rest:     # (the whole word: no slip of a key)
                return "resigned"
            elif word in ("help", "?", "h") and not rest:
                print(HELP.format(hint=self.hint_rollouts, bot=self.bot.name))
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
            elif (by_card := card_moves(text, legal)) is not None:
                if len(by_card) != 1:
                    self._card_moves(text, by_card, legal)
                    continue
                move = by_card[0]               # the card's only legal move: play it
            else:
                try:
                    move = Move.parse(text)
                except InvalidMoveError as e:
                    print(f"Not a move or a command: {quoted(text)} ({not_a_move(text, e)}). "
                          f"Type 'help' for help.")
                    continue
            before = g.copy()
            try:
                g.play(move)
            except IllegalMoveError as e:
                print(f"Not legal now: {as_yours(str(e), self.human)}")
                continue
            self.decisions.append(before.ply)
            print(f"You play: {move}")
            self._tell(before, hand=False)
            return "moved"

    # -- commands ----------------------------------------------------------------------

    def _card_moves(self, text, moves, legal):
        """A bare card without a single legal move: list its moves, or say it has none."""
        card = Card.parse(text)
        if not moves:
            why = "" if card in self.game.hand(self.human) else " (it is not in your hand)"
            print(f"{card} has no legal move now{why}. Type 'board' to see your moves.")
            return
        print(f"{card} can be played as:")
        for m in moves:
            print(f"  {legal.index(m) + 1:>3}. {m}")
        print("Type the move or its number.")

    def _undo(self) -> bool:
        g = self.game
        if not self.decisions:
            print("Nothing to undo: you have not made a move yet.")
            return False
        target = self.decisions[-1]
        try:
            back, redealt = self.sightings.take_back(g, target)
        except NoRedeal as e:
            print(f"Cannot take that back: {e}.")
            return False
        self.decisions.pop()
        undone = [str(m) for m in g.moves[target:]]
        self.game = back
        print(f"Took back {len(undone)} move{'s' if len(undone) != 1 else ''}: "
              f"{', '.join(undone)}")
        if redealt is not None:
            self.start = back.copy()
            while self.start.ply:
                self.start.undo()
            self.position = self.start.position_text(rules=False)
            n = len(redealt.peeked)
            what = (f"the deck's order and {self.bot.name}'s hand" if redealt.hand else
                    "the deck's order")
            print(f"  They had shown you {n} card{'s' if n != 1 else ''} now hidden from "
                  f"you again, so the cards hidden from you were dealt again ({what}): "
                  f"what you saw no longer tells where they are.")
        return True

    def _hint(self, arg):
        g = self.game
        n = self.hint_rollouts
        if arg:
            if not (arg.isascii() and arg.isdigit()) or not 1 <= int(arg) <= 10**7:
                print(f"hint takes a number of playouts per move from 1 to 10,000,000, "
                      f"not {quoted(arg)}")
                return
            n = int(arg)
        try:
            check_view(g)       # (your hand's '?', dealt by the seed: no hint reads it)
        except ValueError as e:
            print(f"No hint: {e}")
            return
        try:
            a = hint(g, n)
        except Interrupted as e:            # Ctrl-C stops the hint, not the game
            a = e.result
            print(f"(hint stopped: {e})")
            if a is None or a.total_rollouts == 0:
                return
        print(a.without_seed())         # (derived from the game's seed: it is secret)
        legal = list(g.legal_moves)
        print(hint_words(a))
        print(f"Hint: {a.hint(lambda m: f'{m} (move {legal.index(m) + 1})')}")

    def _print_history(self):
        moves = self.game.moves
        if not moves:
            print("No moves yet.")
            return
        for line in history_lines(self.start, moves, self.names, self.human):
            print(line)

    def record(self, status: str) -> dict:
        """The game record of the session so far (`status` says why it stopped)."""
        return make_record(self.game, players=self.players, human_seat=self.human,
                           bot=self.bot, position=self.position, status=status,
                           redealt=self.sightings.redealt)


def _default_record_path():
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = f"cuttle-game-{stamp}.json"
    k = 2
    while os.path.exists(path):
        path = f"cuttle-game-{stamp}-{k}.json"
        k += 1
    return path


def _start(args):
    """The starting Game, its position text (None for a fresh deal) and whether the
    player knows its seed (gave it with --seed or in the position)."""
    if args.position is None:
        game = Game(options.rules_from_options(args.rules, args.set), args.seed)
        return game, None, args.seed is not None
    if args.position == "-":
        raise UsageError("--position - cannot read standard input, which holds your "
                         "moves; give the text or a file")
    text = positions.read_position_arg(args.position)
    game = positions.position_game(args, text=text)
    if game.is_over:
        raise UsageError("the position is already over: " + result_of(game)["text"])
    return game, game.position_text(rules=False), \
        args.seed is not None or parse_text(text)["seed"] is not None


def run(args: argparse.Namespace) -> int:
    """`cuttle play`: a terminal game against a bot; returns the exit status."""
    options.policy(args.bot, "--bot")
    game_args = args
    for k in itertools.count(1):
        _check_outputs(game_args)
        status, path, session = _play_and_save(game_args)
        if status not in ("over", "resigned") or not _after_the_game(session, path):
            return 130 if status == "interrupted" else 0
        # Play again: the same options, the next deal (seeded from --seed when given).
        game_args = argparse.Namespace(**{**vars(args), "seed": None if args.seed is None
                                          else derive(args.seed, k),
                                          "record": _numbered(args.record, k + 1)})


def _check_outputs(args: argparse.Namespace) -> None:
    """Before a game: its record (and the review saved beside it) may not replace the
    --position file it starts from (each game of a session has its own record)."""
    options.output_files(inputs={"--position": args.position},
                         **{"--record": args.record,
                            "the review's JSON": _beside(args.record, ".review.json"),
                            "the review's page": _beside(args.record, ".review.html")})


def _play_and_save(args: argparse.Namespace) -> tuple[str, str | None, PlaySession]:
    """Play one game and save its record: (status, the record's path or None, session)."""
    game, start_text, seed_known = _start(args)
    bot = Bot(args.bot, seed=game.seed, threads=args.bot_threads or os.cpu_count() or 1)
    session = PlaySession(game, bot, args.seat, start_text, args.hint_rollouts,
                          auto=args.auto, seed_known=seed_known)
    status = session.run()
    game = session.game                     # (an undo may have dealt it again)
    if not seed_known:
        print(f"The game's seed was {game.seed} (--seed {game.seed} deals it again).")
    if not game.ply and not args.record:
        print("No moves were played: no game record saved.")
        return status, None, session
    path = args.record or _default_record_path()
    with ctrl_c_deferred():         # (a second Ctrl-C: the record still saved)
        try:
            write_record(session.record(status), path)
        except OSError as e:
            raise CommandError(f"cannot save the game record to {path!r}: "
                               f"{e.strerror or e}") from None
        print(printable(f"Game record saved to {path} (replay it with: cuttle replay "
                        f"{path})"))
    return status, path, session


# -- game over: review the game, play again, or leave ------------------------------------

AFTER_GAME = """Game over. Type:
  review [ENGINE]  review your moves (labels, best moves, accuracy; ENGINE: expert,
                   rollouts:N, ismcts:N or ismcts-infer:N, default expert), saved
                   beside the record
  again            play another game (a new deal)
  quit             leave"""
MAX_UNCLEAR = 3             # answers that are no command before the program leaves


def _after_the_game(session: PlaySession, path: str | None) -> bool:
    """Offer a review of the finished game and another game; True to play again."""
    print()
    print(AFTER_GAME)
    unclear = 0
    while unclear < MAX_UNCLEAR:
        line = read_line("after the game> ")
        if line is None:
            return False
        word, _, rest = line.strip().lower().partition(" ")
        if word in ("again", "a", "new", "play") and not rest:
            return True
        if word in ("quit", "q", "exit") and not rest:
            return False
        if word in ("review", "r"):
            _review_game(session, path, rest.strip() or DEFAULT_ENGINE)
            continue
        unclear += 1
        if unclear < MAX_UNCLEAR:
            print("Type review, again or quit.")
    print(f"No command in {MAX_UNCLEAR} answers: leaving.")
    return False


def _numbered(path: str | None, k: int) -> str | None:
    """The record path of the k-th game of a session: game.json -> game-2.json."""
    if path is None:
        return None
    stem, ext = os.path.splitext(path)
    return f"{stem}-{k}{ext}"


def _beside(path: str | None, suffix: str) -> str | None:
    """game.json -> game.review.json (suffix ".review.json")."""
    if path is None:
        return None
    stem, ext = os.path.splitext(path)
    return stem + suffix if ext.lower() == ".json" else path + suffix


def _review_game(session: PlaySession, path: str | None, engine: str) -> None:
    """Review the human's moves of the session's game, print it and save it (JSON and
    the replay page) beside the record."""
    g = session.game
    try:
        parse_engine(engine)
    except ValueError as e:
        print(e)
        return
    seed = g.seed
    print(f"Reviewing your moves with {engine} (Ctrl-C stops and keeps what is done)...")
    try:
        r = review(session.record(session.status), engine, player=session.human, seed=seed,
                   progress=None)
    except Interrupted as e:
        print(f"review {e}")
        r = e.result
    with ctrl_c_deferred():         # (a second Ctrl-C: the review still saved)
        _save_review(r, session, path, engine, seed)


def _save_review(r, session, path, engine, seed):
    """Print the review `r` and save it beside the game record at `path`."""
    print(r)
    saved = []
    for suffix, text in ((".review.json", lambda: json.dumps(r.as_dict(), indent=2) + "\n"),
                         (".review.html", r.page)):
        out = _beside(path, suffix)
        if out is None:
            continue
        try:
            write_text(out, text())
            saved.append(out)
        except OSError as e:
            print(f"cannot save the review to {out!r}: {e.strerror or e}")
    if saved:
        print(printable(f"Review saved to {' and '.join(saved)} (again with: cuttle review "
                        f"{path} --player {session.human} --engine {engine} --seed {seed})"))


def add_command(sub: argparse._SubParsersAction) -> None:
    """Register `play` on the sub-parsers."""
    pp = sub.add_parser(
        "play", help="play a game against a bot in the terminal",
        description="Play Cuttle against a bot. At each of your decisions the table is "
                    "drawn from your side and your legal moves are listed, and each move "
                    "is followed by what it did as you saw it; answer with a "
                    "number, a move (e.g. 'points 7H'), a card (e.g. '7H': its moves), undo, hint, "
                    "moves, help, resign or quit. An undo whose moves had shown you cards "
                    "hidden from you again (a draw's card) deals the hidden cards again, so "
                    "the deck's next card is not the one you saw. "
                    "Input may come from a pipe. The game record is saved as JSON at the end.")
    pp.add_argument("--bot", default="greedy", metavar="NAME",
                    help=f"the opponent: {', '.join(POLICY_NAMES)} (default greedy; "
                         f"{options.SEARCH_ALONE}; cuttle.cards-ai reads your "
                         f"hand and the deck: a full-information reference)")
    pp.add_argument("--bot-threads", type=options.threads, default=None,
                    metavar="N",
                    help="threads for a search bot's decisions (default: all cores; a "
                         "seeded ismcts bot's choices depend on this number)")
    options.add_rules_options(pp, position_note=True)
    pp.add_argument("--seed", type=options.seed, default=None,
                    help="seed of the deal and the bot (default: random, shown when the "
                         "game ends: it gives away every card)")
    pp.add_argument("--seat", type=int, choices=(0, 1), default=0,
                    help="your seat: 0 moves first in a new deal (default 0)")
    # (checked now rather than after the game, when the record would be lost)
    pp.add_argument("--record", metavar="FILE", default=None, type=options.output_file,
                    help="where to save the game record (default cuttle-game-DATE-TIME.json)")
    pp.add_argument("--position", metavar="TEXT", default=None,
                    help="start from this position (position text or a file holding it)")
    pp.add_argument("--no-auto", dest="auto", action="store_false",
                    help="ask even when only one move is legal (default: such forced "
                         "moves, e.g. 'resolve' when you cannot counter, are played at once)")
    pp.add_argument("--hint-rollouts", type=options.positive, default=DEFAULT_HINT_ROLLOUTS,
                    metavar="N", help=f"playouts per move for 'hint': {HINT_POLICY} playouts "
                                      f"from your view, the game review's engine, so a hint "
                                      f"and the review agree within their noise (default "
                                      f"{DEFAULT_HINT_ROLLOUTS})")
    pp.set_defaults(func=run)
