"""A game record's ``result`` (`cuttle.record`; docs/record.md's table gives its fields):
what it is for a game replayed to its end (`result_of`, `ending`, `ending_text`), why a
game the rules did not end stopped (`stopped`, `resigner`), the check of its fields
(`validate_result`), and its check against the record's moves (`result_mismatch`,
`check_result` and its `RecordResultWarning`).

``result.status`` is ``over`` (the rules ended the game), ``resigned`` (a player gave up:
the opponent wins), ``quit``, ``eof`` (the input ended), ``interrupted`` or
``unfinished`` (a record made of a game under way, no reason given): the last four leave
the game unfinished, without a winner (nor an ``end_reason``: only ``over`` has one).
Each field of a result is checked as docs/record.md's table says (only its ``status``
must be given), a winner ``"1"`` refused as ``1.0`` and ``true`` are.  A resignation is
a result: its ``winner`` is the resigner's opponent (``"winner": 1``, ``"end_reason":
null``, ``"text": "player 1 wins (player 0 resigned)"``), and the resigner is the other
seat (`resigner`).  Records written before said ``"winner": null`` and ``"unfinished:
resigned"``; their resigner is their ``human_seat`` (only a person resigned then), and
they read as the new ones do.

A record's moves are its game: a ``result`` that is not where the moves end (a winner
or an ending the replay does not give, a resignation or a stop in a game the rules
ended) is only warned about, since the moves still say what happened: `check_result`
issues a `RecordResultWarning` saying what the record says and where its moves end, and
every reader goes by the moves.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from .figures import END_REASONS
from .text import quoted
from .validation import check_int, check_player, is_int

if TYPE_CHECKING:
    from .game import Game

__all__ = ["RESIGNED", "STATUSES", "RecordResultWarning", "check_result", "ending",
           "ending_text", "result_mismatch", "result_of", "resigner", "stopped",
           "validate_result"]

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
    validate_result(rec)
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
    return f"the record says {quoted(said)}, but its moves end {quoted(ending_text(end))}"


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


def validate_result(rec: dict[str, Any]) -> None:
    """Check the ``result`` of a record (null: none) by docs/record.md's table: its
    status always, each other field given by its type and range (a hand-written one may
    leave them out); a game the rules did not end has no end_reason, an unfinished one
    no winner, and a resigned one names its winner, the resigner's opponent (a record
    written before resignations had a winner names the person who resigned, its human
    seat).  ValueError saying what is wrong (`cuttle.record.validate_record` applies it,
    and so does `result_mismatch`: it never compares a winner ``"1"`` with ``1``)."""
    res = rec.get("result")
    if res is None:
        return
    if not isinstance(res, dict):
        raise ValueError(f"'result' must be an object (its 'status', 'winner', ...) or "
                         f"null, not {quoted(res)}")
    if "status" not in res:
        raise ValueError(f"the result has no 'status' (one of {', '.join(STATUSES)})")
    status = res["status"]
    if status not in STATUSES:
        raise ValueError(f"the result's 'status' must be one of {', '.join(STATUSES)}, "
                         f"not {quoted(status)}")
    winner = check_player(res.get("winner"), "the result's 'winner'",
                          none="null: a draw, or no winner")
    reason = res.get("end_reason")
    if reason is not None and reason not in END_REASONS:
        raise ValueError(f"the result's 'end_reason' must be one of "
                         f"{', '.join(END_REASONS)} or null, not {quoted(reason)}")
    if status != "over" and (reason is not None
                             or (winner is not None and status != RESIGNED)):
        field, value = ("end_reason", reason) if reason is not None else ("winner", winner)
        raise ValueError(f"the result's {field!r} must be null for a game the rules did "
                         f"not end (status {quoted(status)}), not {quoted(value)}")
    if "turns" in res:
        check_int(res["turns"], "the result's 'turns'", 1, None)
    scores = res.get("scores", [0, 0])
    if not (isinstance(scores, list) and len(scores) == 2
            and all(is_int(s) and s >= 0 for s in scores)):
        raise ValueError(f"the result's 'scores' must be both players' points, two ints "
                         f"from 0, seat 0's first, not {quoted(scores)}")
    if not isinstance(res.get("text", ""), str):
        raise ValueError(f"the result's 'text' must be a string, not {quoted(res['text'])}")
    if status == RESIGNED and winner is None and rec.get("human_seat") is None:
        raise ValueError("a resigned game's result names its 'winner' (the resigner's "
                         "opponent): it has none, nor a 'human_seat' who resigned")

