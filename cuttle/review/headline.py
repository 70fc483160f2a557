"""The review's headline (`Review.where_lost()`, `Review.headline`): where the game was
lost, in one sentence read from the review's own figures, the one home of that sentence
and of its rule.

The loser's judged move of the largest loss is named when it is a mistake or a blunder
(`figures.STANDS_OUT`).  It "lost this game" there only when it took the loser's chances
from 50% or more (with the best move) to below 50% (with the move played); otherwise it
is their costliest mistake, after which they were still at 50% or more, or before which
they were already below it.  When no move of theirs stands out, the sentence says so,
with their costliest and, if it is larger, the largest fall of their chances between
their valued moves (`Review.between()`: the opponent's moves and the cards drawn, which
no label judges).  A draw and an unfinished game have no loser: the costliest move of a
reviewed player instead.  When the loser is not reviewed, it says the review cannot tell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..formatting import pp
from ..record_result import RESIGNED
from .figures import ANNOTATIONS, LABELS, STANDS_OUT, seat_words

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .result import Decision, Review

__all__ = ["EVEN", "where_lost"]

EVEN = 0.5          # an expected score below it: the player is more likely to lose
WITHIN_NOISE = LABELS[:2]       # "best", "near best": within the `best` threshold of it


def where_lost(r: Review) -> dict[str, Any]:
    """The headline's figures and words (`Review.where_lost()`)."""
    res = r._result(r.final())
    status = None if res is None else res["status"]
    outcome = ("draw" if res["winner"] is None else "won") \
        if status in ("over", RESIGNED) else "unfinished"
    winner = res["winner"] if outcome == "won" else None
    loser = None if winner is None else 1 - winner
    out = {"outcome": outcome, "winner": winner, "loser": loser, "move": None,
           "player": None, "stands_out": False, "fell_below_half": False, "between": None}
    who = {p: f"P{p} {r.names[p]}" for p in (0, 1)}
    if loser is not None and loser not in r.players:
        text = (f"{seat_words(winner, r.names[winner])} won this game; "
                f"{seat_words(loser, r.names[loser])} is not reviewed, so this "
                f"review cannot say where they lost it")
    elif loser is not None:
        text = _lost_by(r, loser, who[loser], out)
    elif outcome == "draw":
        text = (f"The game was drawn ({res['end_reason']}), so nobody lost it; "
                + _costliest_words(r, who, out))
    else:           # (why the record says it stopped: "unfinished: quit")
        why = "" if res is None else res["text"].partition(": ")[2]
        text = (f"The game is unfinished{f' ({why})' if why else ''}, so nobody has "
                f"lost it yet; " + _costliest_words(r, who, out))
    if not r.complete:
        text += (f" (the review was stopped after {len(r.decisions)} of "
                 f"{r.total} decisions)")
    out["text"] = text + "."
    return out


def fell_below_half(d: Decision) -> bool:
    """Whether move `d` took its player's chances from 50% or more (the best move's
    value) to below 50% (the move played's)."""
    return d.best_score >= EVEN > d.played_score


def _lost_by(r: Review, p: int, name: str, out: dict[str, Any]) -> str:
    """The headline of a game lost by the reviewed player `p` (`name`), its figures
    written into `out`."""
    mine = [d for d in r.decisions if d.player == p and d.judged]
    if not mine and r.complete and not any(d.player == p for d in r.decisions):
        return f"{name} lost this game without making a move"
    if not mine:
        return (f"{name} lost this game; none of their moves was judged"
                + (" (each was forced)" if r.complete else ""))
    worst = _costliest(mine)
    out.update(move=worst.ply + 1, player=p)
    if worst.label in STANDS_OUT:
        out["stands_out"] = True
        k = sum(d.label in STANDS_OUT for d in mine)
        count = (f"the largest of their {k} mistakes and blunders" if k > 1
                 else "their only mistake or blunder")
        if fell_below_half(worst):
            out["fell_below_half"] = True
            return (f"{name} lost this game at {_move_words(worst)}: their chances fell "
                    f"{_drop_words(worst)}, {count}")
        where = ("staying at 50% or more" if worst.played_score >= EVEN
                 else "already below 50%")
        return (f"{name} lost this game; their costliest mistake was {_move_words(worst)}: "
                f"their chances fell {_drop_words(worst)}, {where}, {count}")
    text = f"{name} lost this game, but no single move of theirs stands out: " + (
        f"their costliest, {_move_words(worst)}, lost {worst.loss_text()} pp"
        if worst.label not in WITHIN_NOISE else
        f"each of their judged moves was the best or within "
        f"{100 * r.thresholds.best:g} pp of it")
    falls = [b for b in r.between() if b["player"] == p and b["change"] < -worst.loss]
    if falls:
        b = min(falls, key=lambda b: (b["change"], b["from_move"]))
        out["between"] = b
        where = "at the end" if b["to_move"] is None else f"before move {b['to_move']}"
        text += (f"; their chances fell most after move {b['from_move']}, from "
                 f"{b['start_score']:.1%} to {b['end_score']:.1%} {where} "
                 f"({pp(b['change'], 1)}), by the moves between and the cards drawn, "
                 f"which no label judges")
    return text


def _costliest_words(r: Review, who: dict[int, str], out: dict[str, Any]) -> str:
    """The headline's clause on the costliest judged move of a game nobody lost, its
    figures written into `out`."""
    judged = [d for d in r.decisions if d.judged]
    if not judged:
        return "no move was judged"
    worst = _costliest(judged)
    out.update(move=worst.ply + 1, player=worst.player)
    if worst.label in STANDS_OUT:
        out["stands_out"] = True
        out["fell_below_half"] = fell_below_half(worst)
        return (f"the costliest move was {who[worst.player]}'s {_move_words(worst)}: "
                f"their chances fell {_drop_words(worst)}")
    if worst.label in WITHIN_NOISE:
        return (f"no single move stands out: each judged move was the best or within "
                f"{100 * r.thresholds.best:g} pp of it")
    return (f"no single move stands out: the costliest was {who[worst.player]}'s "
            f"{_move_words(worst)}, {worst.loss_text()} pp")


def _costliest(ds: Sequence[Decision]) -> Decision:
    """The decision of the largest loss (the first of equal ones)."""
    return max(ds, key=lambda d: (d.loss, -d.ply))


def _move_words(d: Decision) -> str:
    """ "move 10, points 4S ?? (a blunder)", "move 3, draw (good)"."""
    label = d.label if d.label not in ANNOTATIONS else \
        ("an " if d.label[0] in "aeiou" else "a ") + d.label     # (the nouns)
    return f"move {d.ply + 1}, {d.played} {d.annotation}".rstrip() + f" ({label})"


def _drop_words(d: Decision) -> str:
    """ "from 77.5% with the best move, draw, to 56.9% (-20.6 pp)"."""
    return (f"from {d.best_score:.1%} with the best move, {d.best}, to "
            f"{d.played_score:.1%} (-{d.loss_text()} pp)")
