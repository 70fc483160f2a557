"""Game records: a finished or unfinished game as JSON, written by `cuttle play` (and, for
a game of a seeded simulation run, by `cuttle simulate --record-game` and
`cuttle.simulation.game_record`) and read by `cuttle replay`, `cuttle review` and
`cuttle analyse --record`.  docs/record.md describes the format field by field, with a
worked example that its tests check against this module.

    {"format": "cuttle-game-record", "version": 1,
     "rules": {"preset": "classic", "changed": {"four": "random"}},
     "seed": 7, "position": null,          # or the full starting position text
     "players": ["human", "greedy"], "human_seat": 0, "bot": {"name": "greedy", "seed": 7},
     "moves": ["draw", "points 7H", ...],
     "result": {"status": "over", "winner": 0, "end_reason": "goal", "turns": 12,
                "scores": [21, 9], "text": "player 0 wins (goal)"},
     "created": "2024-01-01T12:00:00", "cuttle_version": "0.1.0"}

A game dealt as game K of a seeded run (`Game.from_run`: its random effects, e.g. a
random 4's discards, go on drawing from that deal's stream, so no position text can
stand for it) names its deal: ``"deal": K`` beside ``"seed"``, in a record of version 2
(a reader of version 1 would ignore the field and deal game 0 of the seed).  A record
without a deal, or with deal 0 (``Game(rules, seed)``), is written as version 1, as
before; a reader takes both versions.  A record of a game between two bots (a simulated
game) has ``"human_seat": null``, ``"bot": null`` (``bot`` is the one bot a person
played and its seed) and ``"simulation": {"players": [A, B], "swap_seats": true,
"max_moves": 10000}``: the run it is a game of (``players`` holds the names by seat).

``result.status`` is ``over`` (the rules ended the game), ``resigned`` (a player gave up:
the opponent wins), ``quit``, ``eof`` (the input ended), ``interrupted`` or
``unfinished`` (a record made of a game under way, no reason given): the last four leave
the game unfinished, without a winner (nor an ``end_reason``: only ``over`` has one).
Each field of a result is checked as docs/record.md's table says (`validate_record`;
only its ``status`` must be given), a winner ``"1"`` refused as ``1.0`` and ``true`` are.
A resignation is a result: its ``winner`` is the resigner's opponent (``"winner": 1``,
``"end_reason": null``, ``"text": "player 1 wins (player 0 resigned)"``), and the
resigner is the other seat (`resigner`).  Records
written before said ``"winner": null`` and ``"unfinished: resigned"``; their resigner is
their ``human_seat`` (only a person resigned then), and they read as the new ones do
(no version changes: a reader that ignores the winner loses nothing it had).
A game an undo dealt again (`cuttle.redeal`: the cards hidden from the person, dealt
anew where the moves taken back had shown them some) starts from the new deal, as
position text, and says so: ``"redealt": [N, ...]``, for each re-deal, in order, how
many of the record's moves were played before it (on an earlier deal, the bot's with
the cards it held there); `redealt_words` puts it in words, which the review shows.
The moves replay from the new deal all the same, and a reader that ignores the field
loses nothing it had: no version changes.
A record file is at most `MAX_RECORD_BYTES` (16 MiB, far above the longest game); a
larger file, or one that is not a regular file (a device, a FIFO), is refused unread.

A record written by hand of a game played elsewhere may give only what its player saw:
``?`` in its position for the cards whose faces they did not see (the other's hand, the
other's draws in the deck).  Its readers deal those cards so that every move can be
played (`redeal.fit_unseen`, from the record's seed: the same deal every time), refuse
a move no deal lets be played by its number, and a player is reviewed or analysed from
it only where it gives everything that player saw (`missing_view`: the games it
replays know the cards so dealt, ``Game.dealt_unseen``, and `cuttle.analyse`,
`cuttle.review` and the rest refuse the views that are the deal's).

A record's moves are its game: a move that cannot be played is refused (ValueError), but
a ``result`` that is not where the moves end (a winner or an ending the replay does not
give, a resignation or a stop in a game the rules ended) is only warned about, since the
moves still say what happened: `check_result` issues a `RecordResultWarning` saying what
the record says and where its moves end, and every reader goes by the moves (`cuttle
replay` and `cuttle review` print the warning and exit with status 1; `cuttle.review`
warns and keeps the words in `Review.record_mismatch`).
"""

from __future__ import annotations

import datetime
import json
import os
import reprlib
import warnings
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .errors import InvalidMoveError
from .figures import END_REASONS
from .files import read_text, write_text
from .game import Game, check_game
from .moves import Move
from .position import has_unseen as has_unseen_cards
from .position import parse_text, reconcile
from .redeal import Fitted, NoFit, fit_unseen, sees_dealt
from .rules import Rules
from .seeding import check_game_index, check_seed
from .validation import check_int, check_player, is_int

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from os import PathLike

    from .policies import Bot

__all__ = ["FORMAT", "MAX_RECORD_BYTES", "VERSION", "RecordResultWarning", "check_deal",
           "check_result", "check_view", "dealt_view", "ending", "ending_text", "final_game",
           "game_before", "has_unseen", "make_record", "missing_view", "play_recorded",
           "read_record", "redealt_words", "resigner",
           "result_mismatch", "result_of", "seed_words", "start_game", "stopped",
           "validate_record", "write_record"]

FORMAT = "cuttle-game-record"
VERSION = 2                   # the newest version read and written (1: no deal index)
DEAL_VERSION = 2              # the first version with a deal index, written only for one
MAX_RECORD_BYTES = 16 << 20
_UNFINISHED = {"quit": "unfinished: quit", "eof": "unfinished: the input ended",
               "interrupted": "unfinished: interrupted", "unfinished": "unfinished"}
RESIGNED = "resigned"
STATUSES = ("over", RESIGNED, *_UNFINISHED)


class RecordResultWarning(UserWarning):
    """A game record whose stated ``result`` is not where its moves end: the moves are
    followed (replayed, reviewed), and the warning says both (`check_result`)."""


def stopped(rec: dict[str, Any]) -> str | None:
    """Why a validated record says its game stopped before the rules ended it (its
    result's status: resigned, quit, eof, ...), or None (a game the rules ended, or no
    result)."""
    res = rec.get("result")
    status = res.get("status") if isinstance(res, dict) else None
    return status if status in STATUSES and status != "over" else None


def resigner(rec: dict[str, Any], end: Game | None = None) -> int | None:
    """The seat that resigned the game of a validated record (the opponent of its
    winner; a record written before resignations had a winner: its human seat), or None
    (no resignation, or `end`, the game replayed, is over: the rules ended it, and its
    moves are followed, `result_mismatch`)."""
    if stopped(rec) != RESIGNED or (end is not None and end.is_over):
        return None
    winner = rec["result"].get("winner")
    return 1 - winner if winner in (0, 1) else rec.get("human_seat")


def ending(rec: dict[str, Any], end: Game) -> dict[str, Any] | None:
    """The ``result`` of a validated record's game replayed to `end` (its last move):
    the rules' when `end` is over, else the one the record's status says (a
    resignation's winner, also of a record written before they had one), or None when
    the record says nothing of why its unfinished game stopped."""
    why = stopped(rec)
    if not end.is_over and why is None:
        return None
    return result_of(end, "over" if end.is_over else why, resigned=resigner(rec))


def ending_text(end: Game, rec: dict[str, Any] | None = None) -> str:
    """How the replayed game `end` ended, in words: the rules' result ("player 0 wins
    (goal)", "draw (move_cap)"), or for a game the rules did not end why the validated
    record `rec` says it stopped ("player 1 wins (player 0 resigned)", "unfinished:
    quit"), or "unfinished"."""
    res = ending(rec, end) if rec is not None else result_of(end) if end.is_over else None
    return "unfinished" if res is None else res["text"]


def result_mismatch(rec: dict[str, Any], end: Game) -> str | None:
    """Where a validated record's stated ``result`` disagrees with `end`, its game
    replayed to its last move, in words ("the record says 'player 1 wins (goal)', but its
    moves end 'player 0 wins (goal)'"), or None.  Compared: a game the rules ended
    (status ``over``) by its winner and ending (``end_reason``; not its ``text``, words
    for them); a game that stopped otherwise (resigned, quit, ...) by whether the rules
    ended it.  A record without a result states nothing, and one without a winner or
    an ending states nothing of that.  ValueError for a result `validate_record` refuses
    (a winner "1" is no winner 1: compared, it would differ in words that read alike)."""
    _check_result(rec)
    res = rec.get("result")
    if res is None:
        return None
    if res.get("status") == "over":
        reason = res.get("end_reason")
        if end.is_over and res.get("winner", end.winner) == end.winner \
                and reason in (None, end.end_reason):
            return None
        winner = res.get("winner")
        said = ("draw" if "winner" in res and winner is None else
                "game over" if "winner" not in res else f"player {winner} wins") + \
            (f" ({reason})" if reason is not None else "")
    elif stopped(rec) is not None and end.is_over:      # (a stop after the rules' end)
        why, quitter = stopped(rec), resigner(rec)
        said = (f"player {1 - quitter} wins (player {quitter} resigned)" if why == RESIGNED
                else _UNFINISHED[why])
    else:
        return None
    return f"the record says {said!r}, but its moves end {ending_text(end)!r}"


def check_result(rec: dict[str, Any], end: Game, where: str = "", *,
                 stacklevel: int = 2) -> str | None:
    """`result_mismatch(rec, end)`, also issued as a `RecordResultWarning` ("game.json:
    the record says ...; the moves are followed", `where` naming the record), or None
    when the record's result agrees with its moves."""
    words = result_mismatch(rec, end)
    if words is not None:
        warnings.warn(f"{where + ': ' if where else ''}{words}; the moves are followed",
                      RecordResultWarning, stacklevel=stacklevel + 1)
    return words


def result_of(game: Game, status: str = "over", *,
              resigned: int | None = None) -> dict[str, Any]:
    """The record's ``result`` of `game` (``status`` says why a game the rules did not
    end stopped; for ``resigned``, `resigned` is the seat that resigned: the other one
    wins)."""
    winner = game.winner
    if game.is_over:
        text = ("draw" if winner is None else f"player {winner} wins") + \
            f" ({game.end_reason})"
    elif status == RESIGNED:
        resigned = check_player(resigned, "the seat that resigned")
        winner = 1 - resigned
        text = f"player {winner} wins (player {resigned} resigned)"
    else:
        text = _UNFINISHED.get(status, f"unfinished: {status}")
    return {"status": "over" if game.is_over else status, "winner": winner,
            "end_reason": game.end_reason, "turns": game.turn_number,
            "scores": [game.score(0), game.score(1)], "text": text}


def make_record(game: Game, *, players: Iterable[str], human_seat: int | None = None,
                bot: Bot | None = None, position: str | None = None,
                status: str | None = None, deal: int = 0,
                redealt: Sequence[int] = ()) -> dict[str, Any]:
    """The record of `game` (every move it played from its start), as `read_record`
    reads it back.  The starting position is the game's own: its text is written when
    the game did not start from a deal (`position`, if given, must be that start's
    text).  `deal`: the game is game `deal` of its seed's run (``Game.from_run(rules,
    seed=game.seed, index=deal)``; a record of version 2); it must be that deal.
    `status` says why a game the rules did not end stopped (``resigned``: the person,
    `human_seat`, gave up and the bot wins; ``quit``, ``eof``, ``interrupted``; default
    ``unfinished``); a finished game's is ``over``.  `redealt`: the game's re-deals by
    undos (`cuttle.redeal.Sightings.redealt`: for each, how many of its moves were
    played before it), written only when there were some.  ValueError, with nothing
    written, for arguments a record cannot hold."""
    check_game(game)
    deal = check_deal(deal, "deal")
    if deal and position is not None:
        raise ValueError("a record starts from a deal or from a position, not both")
    if status is None:
        status = "over" if game.is_over else "unfinished"
    if status not in STATUSES:
        raise ValueError(f"status {status!r}: one of {', '.join(STATUSES)}")
    if status == "over" and not game.is_over:
        raise ValueError("the game is not over: give the status saying why it stopped "
                         f"({', '.join(STATUSES[1:])})")
    if status == RESIGNED and human_seat is None:
        raise ValueError("status 'resigned' is the person's resignation: give the "
                         "human_seat that resigned")
    rec = {
        "format": FORMAT, "version": DEAL_VERSION if deal else 1, "rules": game.rules.to_json(),
        "seed": game.seed, **({"deal": deal} if deal else {}),
        "position": _start_text(game, position, deal),
        **({"redealt": [int(k) if is_int(k) else k for k in redealt]} if redealt else {}),
        "players": list(players) if not isinstance(players, str) else players,
        "human_seat": human_seat,
        "bot": None if bot is None else {"name": bot.name, "seed": bot.seed},
        "moves": [str(m) for m in game.moves],
        "result": result_of(game, status, resigned=human_seat),
        "created": datetime.datetime.now().isoformat(timespec="seconds"),
        "cuttle_version": __version__,
    }
    return validate_record(rec)           # (the reader's checks: players, human_seat)


def _start_text(game: Game, position: str | None, deal: int) -> str | None:
    # The record's `position`: None for a game dealt from its seed (as its deal `deal`),
    # else the text of the position it started from (checked to give that start back).
    start = game.copy()
    while start.moves:
        start.undo()
    dealt = Game.from_run(game.rules, seed=game.seed, index=deal, max_moves=start.max_moves)
    if position is None and start == dealt:
        return None
    if deal:
        raise ValueError(f"the game does not start from deal {deal} of seed {game.seed}")
    text = start.position_text() if position is None else position
    same = _position_start(text, game.rules, game.seed, game.moves, start.max_moves)[0]
    if same != start:
        raise ValueError("the starting position does not give this game's start back"
                         if position is not None else
                         "this game's start cannot be written as position text (a game "
                         "dealt by Game.from_run(..., index=K) is recorded with deal=K)")
    return text


def write_record(record: dict[str, Any], path: str | PathLike[str]) -> None:
    """Write a record to `path` whole or not at all."""
    write_text(path, json.dumps(record, indent=2) + "\n")


def check_deal(deal: object, name: str = "'deal'") -> int:
    """A deal index of a seed's run (game `deal` of it, as simulate deals it): an int
    from 0 to 2**62-1, the game indices a run has (`cuttle.seeding.check_game_index`);
    ValueError otherwise."""
    return check_game_index(deal, name)


def validate_record(rec: object) -> dict[str, Any]:
    """Check a game record's shape (not yet its moves); ValueError saying what is wrong."""
    if not isinstance(rec, dict):
        raise ValueError("a game record is a JSON object")
    if rec.get("format") != FORMAT:
        raise ValueError(f"not a cuttle game record ('format' should be {FORMAT!r})")
    if not is_int(rec.get("version")) or not 1 <= rec["version"] <= VERSION:
        raise ValueError(f"unsupported record version {rec.get('version')!r} "
                         f"(this cuttle reads versions 1 to {VERSION})")
    missing = [k for k in ("rules", "seed", "moves") if k not in rec]
    if missing:
        raise ValueError(f"bad record: no {', '.join(map(repr, missing))}")
    try:
        Rules.from_json(rec.get("rules"))
        check_seed(rec.get("seed"), "'seed'")
    except ValueError as e:
        raise ValueError(f"bad record: {e}") from None
    if rec.get("position") is not None and not isinstance(rec["position"], str):
        raise ValueError("'position' must be position text or null")
    _check_deal_field(rec)
    moves = rec.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise ValueError("'moves' must be a list of move texts")
    _check_redealt(rec)
    players = rec.get("players", ["player 0", "player 1"])
    if not (isinstance(players, list) and len(players) == 2
            and all(isinstance(p, str) for p in players)):
        raise ValueError("'players' must be a list of two names")
    check_player(rec.get("human_seat"), "'human_seat'", none="null: no human")
    _check_result(rec)
    return rec


def _check_result(rec: dict[str, Any]) -> None:
    # A result (or null: none) by docs/record.md's table: its status always, each other
    # field given by its type and range (a hand-written one may leave them out); a game
    # the rules did not end has no end_reason, an unfinished one no winner, and a
    # resigned one names its winner, the resigner's opponent (a record written before
    # resignations had a winner names the person who resigned, its human seat).
    res = rec.get("result")
    if res is None:
        return
    if not isinstance(res, dict):
        raise ValueError(f"'result' must be an object (its 'status', 'winner', ...) or "
                         f"null, not {_shown(res)}")
    if "status" not in res:
        raise ValueError(f"the result has no 'status' (one of {', '.join(STATUSES)})")
    status = res["status"]
    if status not in STATUSES:
        raise ValueError(f"the result's 'status' must be one of {', '.join(STATUSES)}, "
                         f"not {_shown(status)}")
    winner = check_player(res.get("winner"), "the result's 'winner'",
                          none="null: a draw, or no winner")
    reason = res.get("end_reason")
    if reason is not None and reason not in END_REASONS:
        raise ValueError(f"the result's 'end_reason' must be one of "
                         f"{', '.join(END_REASONS)} or null, not {_shown(reason)}")
    if status != "over" and (reason is not None
                             or (winner is not None and status != RESIGNED)):
        field, value = ("end_reason", reason) if reason is not None else ("winner", winner)
        raise ValueError(f"the result's {field!r} must be null for a game the rules did "
                         f"not end (status {status!r}), not {_shown(value)}")
    if "turns" in res:
        check_int(res["turns"], "the result's 'turns'", 1, None)
    scores = res.get("scores", [0, 0])
    if not (isinstance(scores, list) and len(scores) == 2
            and all(is_int(s) and s >= 0 for s in scores)):
        raise ValueError(f"the result's 'scores' must be both players' points, two ints "
                         f"from 0, seat 0's first, not {_shown(scores)}")
    if not isinstance(res.get("text", ""), str):
        raise ValueError(f"the result's 'text' must be a string, not {_shown(res['text'])}")
    if status == RESIGNED and winner is None and rec.get("human_seat") is None:
        raise ValueError("a resigned game's result names its 'winner' (the resigner's "
                         "opponent): it has none, nor a 'human_seat' who resigned")


def _shown(value: object) -> str:
    # A value quoted in an error, cut short (a record may hold a long list).
    return reprlib.repr(value)


def _check_deal_field(rec: dict[str, Any]) -> None:
    # A deal other than 0 needs DEAL_VERSION (a reader of version 1 would deal game 0),
    # and a position has no deal (its random effects draw from the seed's game 0).
    deal = rec.get("deal", 0)
    if "deal" in rec:
        check_deal(deal)
    if deal and rec["version"] < DEAL_VERSION:
        raise ValueError(f"'deal' {deal} needs a record of version {DEAL_VERSION}, not "
                         f"version {rec['version']} (whose readers deal game 0 of the seed)")
    if deal and rec.get("position") is not None:
        raise ValueError("a record starts from a deal or from a position, not both: "
                         "'deal' and 'position' are both given")


def _check_redealt(rec: dict[str, Any]) -> None:
    # Each re-deal's count of the moves played before it: those still in the record,
    # so at most its moves, and in order (a later undo keeps fewer moves, never more).
    marks = rec.get("redealt", [])
    n = len(rec["moves"])
    if not (isinstance(marks, list) and all(is_int(k) and 0 <= k <= n for k in marks)
            and marks == sorted(marks)):
        raise ValueError(f"'redealt' must be a list of move counts from 0 to the record's "
                         f"{n} moves, in order, not {marks!r}")


def redealt_words(rec: dict[str, Any]) -> str | None:
    """What a validated record's ``redealt`` says, in one line ("Dealt again by an undo
    after move 6: moves 1 to 6 were played on an earlier deal, P1 greedy's with the
    cards it held then."), or None: the game was not dealt again."""
    marks = rec.get("redealt") or []
    if not marks:
        return None
    last, n = marks[-1], len(marks)
    by = "an undo" if n == 1 else f"{n} undos" + (", the last" if last else "")
    if not last:
        return f"Dealt again by {by} before move 1: every move was played on this deal."
    moves = {1: "move 1 was", 2: "moves 1 and 2 were"}.get(last, f"moves 1 to {last} were")
    said = f"Dealt again by {by} after move {last}: {moves} played on " + \
        ("an earlier deal" if n == 1 else "earlier deals")
    human = rec.get("human_seat")
    if human is None:
        return said + "."
    bot = 1 - human
    name = rec.get("players", ["player 0", "player 1"])[bot]
    return f"{said}, P{bot} {name}'s with the cards it held then."


def read_record(path: str | PathLike[str]) -> dict[str, Any]:
    """A validated game record from a JSON file; ValueError, its message starting with
    the path ("game.json: not valid JSON: ..."), or OSError otherwise."""
    try:
        text = read_text(path, MAX_RECORD_BYTES, "game record")
        try:
            rec = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"not valid JSON: {e}") from None
        except RecursionError:
            raise ValueError("not a game record: the JSON is nested too deeply") from None
        return validate_record(rec)
    except ValueError as e:
        raise ValueError(f"{os.fspath(path)}: {e}") from None


def seed_words(seed: int, deal: int = 0) -> str:
    """How a game was dealt, for headers: "seed 7", or "seed 7, game 1234" for deal
    1234 of the seed's run (a record's ``seed`` and ``deal``)."""
    return f"seed {seed}" + (f", game {deal}" if deal else "")


def start_game(rec: dict[str, Any]) -> Game:
    """The starting Game of a validated record.  A record keeps no move cap (it is no
    rule); a game its cap ended says so in its result, and the cap fell at its last
    move, where the replay ends it too.  A position with cards not seen (``?``) starts
    the game their deal fitted to the record's moves (`redeal.fit_unseen`): ValueError
    naming the first move that no deal of them lets be played."""
    rules = Rules.from_json(rec["rules"])
    if rec.get("position"):
        return _position_start(rec["position"], rules, rec["seed"], _parsed(rec),
                               _cap(rec))[0]
    g = Game.from_run(rules, seed=rec["seed"], index=rec.get("deal", 0))
    g.max_moves = _cap(rec)
    return g


def _cap(rec: dict[str, Any]) -> int | None:
    """The move cap a validated record's game is replayed under: its number of moves
    where its result says the cap ended it, else none."""
    res = rec.get("result")
    if isinstance(res, dict) and res.get("end_reason") == "move_cap" and rec["moves"]:
        return len(rec["moves"])
    return None


def _parsed(rec: dict[str, Any]) -> list[Move]:
    """A validated record's moves up to the first that does not parse (its replay
    refuses it, naming it)."""
    moves = []
    for text in rec["moves"]:
        try:
            moves.append(Move(text))
        except InvalidMoveError:
            break
    return moves


def _position_start(text: str, rules: Rules, seed: int, moves: list[Move],
                    cap: int | None) -> tuple[Game, Fitted | None]:
    """The start of a game from position `text` (whose own rules and seed, if any, must
    be `rules` and `seed`) and what its cards not seen (``?``) were dealt to fit
    `moves` (None: it has none); ValueError for a bad position and for moves no deal
    fits (`redeal.NoFit`, naming the move)."""
    try:
        reconcile(text, rules, seed)
        kw = dict(parse_text(text), rules=rules, seed=seed)
        if not has_unseen_cards(kw):
            g = Game.from_text(text, rules=rules, seed=seed)
            g.max_moves = cap
            return g, None
        fitted = fit_unseen(kw, moves, cap)
    except NoFit:
        raise
    except ValueError as e:
        raise ValueError(f"bad starting position: {e}") from None
    return fitted.start, fitted


def has_unseen(rec: dict[str, Any]) -> bool:
    """Whether a validated record's start holds cards not seen (``?`` in its position:
    dealt to fit its moves, `start_game`); False for a position that does not read."""
    try:
        return bool(rec.get("position")) and has_unseen_cards(parse_text(rec["position"]))
    except ValueError:
        return False


def missing_view(game: Game, player: int) -> str | None:
    """What the record `game` was replayed from does not give of `player`'s view of it,
    in words, or None when it gives it whole (and for a game not replayed from a record
    with cards not seen, ``?``, dealt to fit its moves: ``game.dealt_unseen``): where,
    from its start to `game`'s position, `player` first sees a card of that deal that
    neither the position nor a move before names (`redeal.sees_dealt`: their hand's
    ``?``, a draw the deck does not list, ...), which another deal the moves allow
    could make another card.  `check_view` refuses it, and the review leaves it out."""
    player = check_player(player)
    if not check_game(game).dealt_unseen:
        return None
    start = game.copy()
    while start.ply:
        start.undo()
    return sees_dealt(Fitted(start, game.dealt_unseen), game.moves, player)


def check_view(game: Game) -> Game:
    """`game` (`check_game`'s rule), unless the view of its player to decide, which an
    analysis takes (`cuttle.analyse`, `cuttle.analyse_search`, `judge`), is not the
    record's to give (`missing_view`): ValueError then, in the words of `cuttle analyse
    --record`, ``move K is player P's, whose view the record does not give whole: ...``
    (K: the move decided in `game`'s position, as `game_before` numbers them)."""
    p = check_game(game).to_move
    gap = None if p is None else missing_view(game, p)
    if gap is not None:
        raise ValueError(f"move {game.ply + 1} is player {p}'s, whose view the record "
                         f"does not give whole: {gap}")
    return game


def dealt_view(rec: dict[str, Any], player: int, move: int | None = None) -> str | None:
    """`missing_view` of a validated record's game, before its move `move`
    (`game_before`'s game; default: at its end), up to the first move that does not
    parse: None when the record gives `player`'s view whole there, else where it does
    not, in words.  ValueError as `start_game`'s."""
    player = check_player(player)
    if move is not None and (not is_int(move) or move < 1):
        raise ValueError(f"move must be a move's number, from 1, not {move!r}")
    if not rec.get("position"):
        return None
    count = len(_parsed(rec))
    return missing_view(_replayed(rec, count if move is None else min(move - 1, count)),
                        player)


def play_recorded(game: Game, i: int, text: str) -> Move:
    """Play the record's move `i` (1-based) on `game`; ValueError naming it if it cannot
    be played."""
    try:
        return game.play(text)
    except InvalidMoveError as e:           # (names the part that does not parse)
        raise ValueError(f"move {i} ({text!r}) cannot be played: {e}") from None
    except ValueError as e:                 # (IllegalMoveError: names the move)
        raise ValueError(f"move {i}: {e}") from None


def final_game(rec: dict[str, Any]) -> Game:
    """The Game at the end of a record (every move replayed)."""
    return _replayed(rec, len(rec["moves"]))


def game_before(rec: dict[str, Any], move: int) -> Game:
    """The Game of a validated record just before its move `move` is played: the
    position its mover decided in, the moves before it replayed.  Moves are numbered
    from 1 over the whole record, both players and every window (a counter, a
    discard) alike, as `cuttle replay` and the review number them: move 1 is played
    from the start, and the move played at `move` is ``rec["moves"][move - 1]`` (not
    played here: `play_recorded` plays it and checks it).  Of a record with cards not
    seen, an analysis refuses the game where it does not give its mover's view
    (`check_view`).  ValueError, saying the record's range, for a number outside 1 to
    the record's move count, and naming the move for one before it that cannot be
    played."""
    n = len(rec["moves"])
    if not n:
        raise ValueError("the record has no moves")
    if not is_int(move) or not 1 <= move <= n:
        raise ValueError(f"there is no move {move!r}: the record's moves are 1 to {n}")
    return _replayed(rec, move - 1)


def _replayed(rec: dict[str, Any], count: int) -> Game:
    """The Game of a record after its first `count` moves, each checked."""
    g = start_game(rec)
    for i, m in enumerate(rec["moves"][:count], 1):
        play_recorded(g, i, m)
    return g
