"""`cuttle analyse POSITION`: rank the decider's moves by playouts (or, with `--engine`, by
the strong search); `cuttle analyse --record FILE --move K`: the same at move K of a game
record, with the move played there.

    cuttle analyse "hands: 2C 3D 7H / 2H 4S; points: TH / 9D; to_move: 0" --rollouts 2000
    cuttle analyse --record game.json --move 25 --seed 1
    cuttle analyse --record game.json --move 25 --engine ismcts:2000 --seed 1

With `--engine ismcts:N` (or `ismcts-infer:N`) the moves are valued by the game review's
search engines (`cuttle.analyse_search`): searches from the decider's view with
the move forced at the root, beside each move's share of the root visits of one free
search; `--rollouts`, `--policy`, `--adaptive` and `--confidence`, which are the
playouts', are refused with it.

With `--record`, the position is the one move K was decided in
(`cuttle.record.game_before`): the record's moves are numbered from 1, both players and
every window (a counter, a discard) alike, as `cuttle review` and `cuttle replay` print
them, so a number is copied from the review.  The player to decide is the one who played
move K, and the analysis is `cuttle.analyse` of that position: its playouts deal the
cards that player could not see at random from their view (as the review's do), never
reading the opponent's hidden cards or the deck order, so two records the mover could
not tell apart at move K get the same analysis for the same seed.  The text shows the
table as the mover saw it, the analysis, and the move played (``Played:``, its rank and
score against the best's); the JSON adds ``record``, ``move``, ``turn`` and ``played``.
The record's own rules apply (``--rules`` or ``--set`` that would change them are
refused) and ``--seed`` seeds the playouts only; with ``--engine``, the searches, dealt
from the seed the review of the same seed gives move K's decision (`analyse_search`'s
``decision``), so the figures are those ``cuttle review`` prints for move K.  A forced move (a lone legal move,
which the review lists as forced) has nothing to compare: it is refused, as are a move
outside 1 to N (N: the record's moves), ``--move`` without ``--record``, a POSITION with
``--record``, a ``--player`` who does not decide at move K and a move whose mover's view
the record does not give whole (cards not seen, ``?``: `cuttle.game.check_view`, the
library's own refusal), all before any playout.

A POSITION may hold cards not seen, ``?`` (`cuttle.position`): its seed deals them, and
the decision of a player who sees one there (their own hand's ``?``) is refused before
any playout, as the library refuses it (`cuttle.game.check_view`), saying what to do:
write the cards they see, or analyse the other player's decision (``--player``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, NamedTuple

from ..analysis import PLAYOUT_POLICIES, SearchAnalysis, analyse
from ..errors import Interrupted
from ..formatting import fixed, pct, quantity
from ..game import check_view
from ..record import game_before, play_recorded
from ..record_result import result_of
from ..text import printable, quoted
from . import options, positions
from ..interrupts import ctrl_c_deferred
from .options import ShapeError, UsageError
from ..review import SEARCH_ENGINES, analyse_search, search_engine
from .review import load

if TYPE_CHECKING:
    from ..analysis import Analysis
    from ..game import Game
    from ..moves import Move
    from ..review import Engine

DEFAULT_ROLLOUTS = 10000
DEFAULT_POLICY = "random"
DEFAULT_CONFIDENCE = 0.95
PLAYOUT_OPTIONS = ("rollouts", "policy", "adaptive", "confidence")   # not with --engine


class Recorded(NamedTuple):
    """Move `number` of the record at `path`: the `game` it was decided in, the move
    `played` there and the record's `players` (their names)."""

    path: str
    number: int
    game: Game
    played: Move
    players: list[str]


def run(args: argparse.Namespace) -> int:
    """`cuttle analyse`: rank the legal moves of a position (or of a record's move K);
    returns the exit status."""
    at = recorded(args)
    game = positions.position_game(args, to_move=args.player, seed_deals=False) if at is None else at.game
    if game.is_over:
        raise UsageError(f"the position is already over ({result_of(game)['text']}): "
                         f"nothing to analyse")
    if at is None:
        try:
            check_view(game)                # (a position with cards not seen, '?')
        except ValueError as e:
            raise UsageError(str(e)) from None
    status, stop = 0, None
    try:
        a = _analyse(args, game, at)
    except Interrupted as e:         # show what finished
        print(f"cuttle analyse: {e}", file=sys.stderr)
        if not e.done:
            return 130
        a, status, stop = e.result, 130, e
    except KeyboardInterrupt:        # (pressed before the analysis's own work began)
        unit = "rollout" if args.engine is None else "search"
        print(f"cuttle analyse: {Interrupted(None, 0, None, unit)}", file=sys.stderr)
        return 130
    with ctrl_c_deferred():          # (a second Ctrl-C: the result still printed whole)
        _print(args, game, a, stop, at)
    return status


def _analyse(args: argparse.Namespace, game: Game,
             at: Recorded | None) -> Analysis | SearchAnalysis:
    """The playouts' analysis, or with --engine the search's (the move played of a
    record refined as the review refines it)."""
    if args.engine is None:
        return analyse(game, rollouts=_given(args.rollouts, DEFAULT_ROLLOUTS),
                       policy=_given(args.policy, DEFAULT_POLICY), threads=args.threads,
                       seed=args.seed, adaptive=args.adaptive,
                       confidence=_given(args.confidence, DEFAULT_CONFIDENCE))
    given = [f"--{o}" for o in PLAYOUT_OPTIONS if getattr(args, o) not in (None, False)]
    if given:
        raise ShapeError(f"{' and '.join(given)} set{'s' if len(given) == 1 else ''} the "
                         f"playouts; --engine {args.engine.name} ranks the moves by "
                         f"searches instead: leave {'it' if len(given) == 1 else 'them'} "
                         f"out")
    n = len(game.legal_moves)
    print(f"cuttle analyse: valuing {quantity(n, 'move')} by {args.engine.name} searches "
          f"(Ctrl-C stops and shows what finished)", file=sys.stderr, flush=True)
    return analyse_search(game, args.engine, seed=args.seed, threads=args.threads,
                          played=None if at is None else at.played,
                          decision=None if at is None else at.number - 1)


def _given(value, default):
    return default if value is None else value


def recorded(args: argparse.Namespace) -> Recorded | None:
    """--record FILE --move K: the record's move K, checked (its number, its rules
    against --rules and --set, --player, a decision to make), or None without
    --record; UsageError before any work otherwise."""
    if args.record is None:
        if args.move is not None:
            raise ShapeError("--move K names a move of a game record: give --record FILE")
        if args.position is None:
            raise ShapeError("give a POSITION (text, a file, or - for stdin), or --record "
                             "FILE --move K")
        return None
    rec = load(args.record)         # (the review's reading and its errors)
    n = len(rec["moves"])
    if args.move is None:
        raise ShapeError(f"--record needs --move K, the move to analyse, numbered as "
                         f"'cuttle review' prints them: {args.record} has "
                         f"{quantity(n, 'move')}" + (f" (1 to {n})" if n else ""))
    try:
        game = game_before(rec, args.move)
        played = play_recorded(game.copy(), args.move, rec["moves"][args.move - 1])
    except ValueError as e:
        raise UsageError(f"{args.record}: {e}") from None
    options.check_own_rules(args.rules, args.set, game.rules, "the record")
    p, k = game.to_move, args.move
    try:
        check_view(game)                    # (a record with cards not seen, '?')
    except ValueError as e:
        raise UsageError(f"{args.record}: {e}") from None
    if args.player is not None and args.player != p:
        raise UsageError(f"player {p} decides at move {k} of {args.record}, not player "
                         f"{args.player}: leave out --player")
    if len(game.legal_moves) == 1:
        raise UsageError(f"move {k} of {args.record} is forced: {quoted(str(played))} was "
                         f"player {p}'s only legal move, there is nothing to compare (the review "
                         f"lists it as forced)")
    return Recorded(args.record, k, game, played, rec.get("players", ["player 0",
                                                                       "player 1"]))


def _print(args, game, a, stop, at):
    """Print the analysis `a` (`stop`: the Interrupted of a partial one, or None; `at`:
    the record's move, or None)."""
    so_far = "" if stop is None else " (so far)"
    if args.json:
        d = Interrupted.mark(a.as_dict(), stop)     # (a partial analysis says so)
        if at is None:      # (its '?' written back: the seed's cards are no answer)
            d["position"] = game.position_text(unseen=True)
        else:       # (no position: it would show the cards its mover could not see)
            d.update(record=at.path, move=at.number, turn=game.turn_number,
                     played=str(at.played))
        d["rules"] = game.rules.to_json()
        d["best"] = str(a.best)
        print(json.dumps(d, indent=2))
        return
    if at is not None:
        p, (n0, n1) = game.to_move, at.players
        print(printable(f"Move {at.number} of {at.path} (P0 {n0} against P1 {n1}): the "
                        f"table as P{p} saw it"))
        print(game.render(viewer=p))
        print()
    print(a)
    if isinstance(a, SearchAnalysis):
        print(f"Best: {a.best}, by the searches' values{so_far} (the {a.engine.name} "
              f"bot's own search would play {a.most_visited})")
    else:
        print(f"Best: {a.best}{so_far}")
    if at is not None:
        print(f"Played: {played_text(a, at.played)}{so_far}")


def played_text(a: Analysis | SearchAnalysis, played: Move) -> str:
    """The move played, its rank in the analysis `a` and its score against the best's:
    'draw, ranked 3 of 3 (score 27.8% against 43.4%)'; in a search analysis its value
    and loss: 'draw, ranked 3 of 9 (value 27.8% against 43.4%: 15.6 pp below the best,
    12.0 to 19.2)'."""
    rank = next(i for i, r in enumerate(a.rows) if r.move == played)
    row, search = a.rows[rank], isinstance(a, SearchAnalysis)
    if not (row.searches if search else row.rollouts):
        return f"{played}, not {'searched' if search else 'played out'} yet"
    word, of = ("value", lambda r: r.value) if search else ("score", lambda r: r.score)
    if rank == 0:
        return f"{played}, the best move ({word} {pct(of(row), 1)})"
    loss = (f": {fixed(100 * row.loss, 1)} pp below the best, "
            f"{fixed(100 * row.loss_low, 1)} to {fixed(100 * row.loss_high, 1)}"
            if search else "")
    return (f"{played}, ranked {rank + 1} of {len(a.rows)} ({word} {pct(of(row), 1)} "
            f"against {pct(of(a.rows[0]), 1)}{loss})")


def engine(text: str) -> Engine:
    """--engine: a search engine of the review (its `search_engine`)."""
    try:
        return search_engine(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e).replace("cuttle.analyse's policy",
                                                        "--policy")) from None


def move_number(text: str) -> int:
    """--move: a move number, 1 for the record's first (its range is checked against
    the record)."""
    t = text.strip()
    if not (t.isascii() and t.lstrip("-").isdigit()):
        raise argparse.ArgumentTypeError(f"expected a move number as 'cuttle review' "
                                         f"prints them (1 for the first), not {quoted(text)}")
    return int(t)


def add_command(sub: argparse._SubParsersAction) -> None:
    """Register `analyse` (and its alias `analyze`) on the sub-parsers."""
    pa = sub.add_parser(
        "analyse", aliases=["analyze"],
        help="rank the legal moves of a position (or of a saved game's move) by playouts "
             "or searches",
        description="Score every legal move of the player to decide by playouts from "
                    "that player's view, each score with its confidence interval, or with "
                    "--engine by the strong search (the game review's engines: each move's "
                    "value by searches forced to it, and its share of one free search's "
                    "root visits). The "
                    "position is position text (see cuttle.position), a file holding it, "
                    "or '-' for stdin; or, "
                    "with --record FILE --move K, the position before move K of a game "
                    "record (numbered as 'cuttle review' and 'cuttle replay' print them), "
                    "for the player who played it, never reading the cards that player "
                    "could not see; the move played is shown against the best.",
        epilog="examples: cuttle analyse \"hands: 2C 7H / 4S 5D; points: 9D / TC; "
               "to_move: 0\" --rollouts 2000, cuttle analyse --record game.json --move 25, "
               "or cuttle analyse --record game.json --move 25 --engine ismcts:2000")
    where = pa.add_mutually_exclusive_group()
    where.add_argument("position", metavar="POSITION", nargs="?", default=None,
                       help="position text, a file holding it, or - to read stdin")
    where.add_argument("--record", metavar="FILE", default=None,
                       help="a game record (saved by 'cuttle play'): analyse its move K")
    pa.add_argument("--move", type=move_number, default=None, metavar="K",
                    help="with --record: the move to analyse, numbered as 'cuttle review' "
                         "prints them (1 is the first move)")
    options.add_rules_options(pa, position_note=True, record_note=True)
    pa.add_argument("--rollouts", type=options.positive, default=None,
                    metavar="N", help=f"playouts per move (default {DEFAULT_ROLLOUTS})")
    pa.add_argument("--policy", choices=PLAYOUT_POLICIES, default=None,
                    help=f"the players in the playouts (default {DEFAULT_POLICY})")
    pa.add_argument("--adaptive", action="store_true",
                    help="successive halving: drop the worse moves early")
    pa.add_argument("--engine", type=engine, default=None, metavar="ENGINE",
                    help=f"rank the moves by searches instead of playouts: "
                         f"{' or '.join(SEARCH_ENGINES)} (the game review's engines; "
                         f"'ismcts' alone is ismcts:1000). Each move's value is the mean of "
                         f"2 to 16 searches from the decider's view with the move forced "
                         f"at the root (the search's estimate, not a playout win rate), "
                         f"shown with its loss against the best and the loss's bounds, "
                         f"and its share of the root visits of one free search")
    options.add_threads(pa)
    pa.add_argument("--seed", type=options.seed, default=None,
                    help="seed of the playouts or searches (and of a position's unlisted "
                         "cards' shuffle, unless it has a seed field of its own; a record "
                         "keeps its deal)")
    options.add_confidence(pa)
    pa.set_defaults(confidence=None)        # (--engine refuses one given)
    pa.add_argument("--json", action="store_true", help="print the result as JSON")
    pa.add_argument("--player", type=int, choices=(0, 1), default=None,
                    help="the player to decide (default: the position's to_move; with "
                         "--record, the one who played move K)")
    pa.set_defaults(func=run)
