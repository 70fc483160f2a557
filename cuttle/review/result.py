"""A game's review: `Decision` (one move judged), `Review` (the game's decisions, the
per-player figures, the changes between a player's valued moves, the hindsight line),
and their text and JSON forms (the markdown: `Review.markdown()`).

Scores are expected scores from 0 to 1 (a win 1, a draw 1/2); the text and the page
print them in %, and losses and changes in pp (percentage points of expected score:
a loss of 0.05 prints as 5.0 pp)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..display import render
from ..errors import Interrupted
from ..formatting import loss_points, plural, pp, quantity
from ..record import seed_words
from ..record_result import result_of
from .figures import ANNOTATIONS, FORCED, PLAYER_FIGURES, figure_rows, player_figures
from .headline import where_lost

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..game import Game
    from ..moves import Move
    from .engines import Engine
    from .figures import Thresholds

__all__ = ["FORMAT", "Decision", "MoveScore", "Review", "change_text"]

FORMAT = "cuttle-review"


@dataclass(frozen=True)
class MoveScore:
    """One legal move's value in a decision: the mover's expected score and the
    samples (playouts or searches) behind it."""

    move: Move
    score: float
    samples: int

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"move": str(self.move), "score": self.score, "samples": self.samples}


@dataclass(frozen=True)
class Decision:
    """One decision of the game: `ply` (0-based index into the game's moves), who
    decided (`player`) in which `turn` and `phase`, the move `played` among `legal`
    legal moves, and its `label`.  A judged decision (more than one legal move) also
    has the `best` move, the mover's expected scores of both (`played_score`,
    `best_score`), the `loss` between them, the move's `accuracy` (percent), every
    move's value (`candidates`, best first), the bounds of the loss (`loss_low`,
    `loss_high`: two standard errors of the paired samples either side; for the best
    move, 0 up to the most another move may be worth more) and whether the label holds
    over them (`settled`: False when they straddle a label's bound, as at the budget's
    cap they may); a forced one has None there.  `thresholds`: those its label is of
    (they set the digits its loss prints with).  `missed_win`: a legal move that would
    have won the game at once (the best valued of them) when the move played did not,
    whatever the loss; else None.

    ``repr(d)`` is one line, ``str(d)`` the decision with every move's value, best
    first."""

    ply: int
    player: int
    turn: int
    phase: str
    played: Move
    legal: int
    label: str
    best: Move | None = None
    played_score: float | None = None
    best_score: float | None = None
    loss: float | None = None
    accuracy: float | None = None
    candidates: tuple[MoveScore, ...] = ()
    loss_low: float | None = None
    loss_high: float | None = None
    settled: bool | None = None
    thresholds: Thresholds | None = field(default=None, compare=False, repr=False)
    missed_win: Move | None = None

    @property
    def judged(self) -> bool:
        """Whether the move was judged (False for a forced move)."""
        return self.label != FORCED

    @property
    def annotation(self) -> str:
        """"?!" (inaccuracy), "?" (mistake), "??" (blunder), else ""."""
        return ANNOTATIONS.get(self.label, "")

    @property
    def samples(self) -> int:
        """Playouts or searches spent on this decision."""
        return sum(c.samples for c in self.candidates)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: every figure of the decision."""
        # ("move" numbers it from 1, as the text, `replay` and `analyse --move` do.)
        return {"ply": self.ply, "move": self.ply + 1, "player": self.player,
                "turn": self.turn,
                "phase": self.phase, "played": str(self.played),
                "best": None if self.best is None else str(self.best),
                "label": self.label, "annotation": self.annotation, "loss": self.loss,
                "loss_low": self.loss_low, "loss_high": self.loss_high,
                "settled": self.settled,
                "played_score": self.played_score, "best_score": self.best_score,
                "accuracy": self.accuracy, "legal_moves": self.legal,
                "samples": self.samples,
                "missed_win": None if self.missed_win is None else str(self.missed_win),
                "candidates": [c.as_dict() for c in self.candidates]}

    def loss_text(self) -> str:
        """The loss in pp as the review prints it (the digits its label needs: "5.05"),
        or "n/a" for a forced move."""
        bounds = {} if self.thresholds is None else self.thresholds.as_dict()
        return loss_points(self.loss, bounds)

    def bounds_text(self) -> str:
        """The bounds of the loss in pp, "12.0 to 17.9", or "n/a" for a forced move."""
        if self.loss_low is None:
            return "n/a"
        return f"{100 * self.loss_low:.1f} to {100 * self.loss_high:.1f}"

    def verdict(self) -> str:
        """The move and its label in words: "draw: good, 3.9 pp below points 9C", "points
        TH: best", "resolve: forced (the only legal move)", with a win missed: "draw:
        near best, 0.6 pp below points 9C; missed a win: points 9C won at once"."""
        if not self.judged:
            return f"{self.played}: forced (the only legal move)"
        if self.label == "best":
            return f"{self.played}: best" + self.missed_text("; ")
        return (f"{self.played} {self.annotation}".rstrip()
                + f": {self.label}, {self.loss_text()} pp below {self.best}"
                + self.missed_text("; "))

    def missed_text(self, before: str = "") -> str:
        """ "missed a win: points 9C won at once" after `before`, or "" when no win at
        once was missed."""
        if self.missed_win is None:
            return ""
        return f"{before}missed a win: {self.missed_win} won at once"

    def __repr__(self):
        return (f"<Decision move {self.ply + 1}, P{self.player} {self.verdict()}"
                + (f" (of {self.legal} legal moves)>" if self.judged else ">"))

    def __str__(self):
        return "\n".join(self.lines())

    def lines(self) -> list[str]:
        """The text of ``str(d)``: who decided where, the move played and its label, then
        (a judged move) every legal move's value and samples, best first."""
        out = [f"Move {self.ply + 1} (turn {self.turn}): P{self.player} to decide "
               f"({self.phase}), {quantity(self.legal, 'legal move')}",
               f"Played {self.verdict()}"]
        if not self.judged:
            return out
        if not self.settled:
            out[-1] += (f" (not settled: the loss's bounds, {self.bounds_text()} pp, span "
                        f"a label's bound)")
        mw = max(len(str(c.move)) for c in self.candidates)
        out.append(f"{'move':<{mw}}   score  samples")
        for c in self.candidates:
            mark = ", ".join(w for w, m in (("best", self.best), ("played", self.played))
                             if c.move == m)
            out.append(f"{str(c.move):<{mw}}  {c.score:6.1%}  {c.samples:>7,}  {mark}"
                       .rstrip())
        out.append(f"scores: P{self.player}'s expected score (a win 1, a draw 1/2) from "
                   f"what they could know; accuracy {self.accuracy:.1f}%")
        return out


class Review:
    """The review of a game (`cuttle.review`): `decisions` of the reviewed `players`
    in the order played, their per-player figures (`summary(p)`, `summaries`), and,
    when asked, `omniscient`: player 0's expected score at every step (0: the start,
    i: after move i) with every card known, in hindsight.  `complete` is False for a
    review cut short (Ctrl-C or cancel): it holds the decisions finished.
    ``str(r)`` is the text, `as_dict()` the JSON, `markdown()` the markdown, `page()` the
    HTML page.
    `headline`: where the game was lost, in one sentence (`where_lost()`), the first line
    of the text; `record_mismatch`: the words of a record's stated result that its
    moves do not give (the review follows the moves), or None; `redealt`: a record's
    re-deals by undos in words (`cuttle.record.redealt_words`), or None; `unseen`: the
    line naming a player asked for that a record with cards not seen (``?``) does not
    show whole, and so is not reviewed, or None."""

    def __init__(self, *, start: Game, moves: Sequence[Move], names: Sequence[str],
                 players: Sequence[int], engine: Engine, seed: int,
                 thresholds: Thresholds, decisions: Sequence[Decision],
                 omniscient: Sequence[float | None] | None, total: int,
                 seconds: float, cpu_seconds: float, complete: bool,
                 source: str = "", stopped: str | None = None,
                 resigned: int | None = None, deal: int = 0,
                 record_mismatch: str | None = None, redealt: str | None = None,
                 unseen: str | None = None) -> None:
        self.start = start
        self.deal = deal              # a record's deal index (game `deal` of the seed)
        self.moves = list(moves)
        self.names = tuple(names)
        self.players = tuple(players)
        self.engine = engine
        self.seed = seed
        self.thresholds = thresholds
        self.decisions = list(decisions)
        self.omniscient = None if omniscient is None else list(omniscient)
        self.total = total
        self.seconds = seconds
        self.cpu_seconds = cpu_seconds
        self.complete = complete
        self.source = source
        self.stopped = stopped      # why the record says a game the rules did not end stopped
        self.resigned = resigned    # the seat that resigned it (stopped "resigned")
        self.record_mismatch = record_mismatch    # (`cuttle.record_result.result_mismatch`)
        self.redealt = redealt
        self.unseen = unseen

    def summary(self, player: int) -> dict[str, Any]:
        """`player`'s figures (`figures.PLAYER_FIGURES`: judged and forced moves, average
        loss, accuracy, counts per label, the labels not settled) by key, with "player"
        and "name"."""
        ds = [d for d in self.decisions if d.player == player]
        return {"player": player, "name": self.names[player], **player_figures(ds)}

    @property
    def summaries(self) -> list[dict[str, Any]]:
        """`summary(p)` of each reviewed player."""
        return [self.summary(p) for p in self.players]

    def accuracy(self, player: int) -> float | None:
        """`player`'s accuracy in percent (the mean of their judged moves'; None if
        none was judged)."""
        return self.summary(player)["accuracy"]

    @property
    def samples(self) -> int:
        """Playouts or searches spent over all decisions."""
        return sum(d.samples for d in self.decisions)

    def between(self) -> list[dict[str, Any]]:
        """What happened between a reviewed player's valued moves, which no label
        judges: for each judged decision of a reviewed player, their expected score after
        it (`start_score`, the move's ``played_score``) and, as they saw the game again,
        before their next judged decision (`end_score`, its ``best_score``: the value of
        the best move there, i.e. of the position) or, after their last one, the game's
        result for them (1, 1/2 or 0; for a whole review of a finished game only;
        `to_move` None), with `change` between the two.  `from_move` and `to_move` are
        the numbers (from 1) of the two decisions, `moves` those of the moves between
        (the opponent's, the player's own forced ones), `unreviewed_moves` how many of
        them are of a player not reviewed.  The change is what those moves, the cards
        drawn (chance, the player's own draws too) and what the player learned meanwhile
        did to their chances; it also carries the noise of both values (and the best
        score, a maximum of estimates, leans high by a little of that noise).  In the
        order of `from_move`, then player."""
        movers: list[int] = []
        g = self.start.copy()
        for m in self.moves:
            movers.append(g.to_move)
            g.play(m)
        out: list[dict[str, Any]] = []
        for p in self.players:
            judged = [d for d in self.decisions if d.player == p and d.judged]
            for k, d in enumerate(judged):
                nxt = judged[k + 1] if k + 1 < len(judged) else None
                if nxt is not None:
                    stop, score = nxt.ply, nxt.best_score
                elif self.complete and g.is_over:
                    stop, score = len(self.moves), (0.5 if g.winner is None
                                                     else float(g.winner == p))
                else:
                    continue        # (no value after a player's last move in an unfinished game)
                plies = range(d.ply + 1, stop)
                out.append({"player": p, "from_move": d.ply + 1,
                            "to_move": None if nxt is None else nxt.ply + 1,
                            "moves": [i + 1 for i in plies],
                            "unreviewed_moves": sum(movers[i] not in self.players
                                                    for i in plies),
                            "start_score": d.played_score, "end_score": score,
                            "change": score - d.played_score})
        out.sort(key=lambda b: (b["from_move"], b["player"]))
        return out

    def where_lost(self) -> dict[str, Any]:
        """Where the game was lost, from the review's own figures (`headline.where_lost`:
        its rule and its words).  JSON-ready: ``text`` (the sentence, `headline`),
        ``outcome`` ("won", "draw" or "unfinished"), ``winner`` and ``loser`` (seats, or
        None), ``move`` and ``player`` (the move named, numbered from 1, and its mover, or
        None), ``stands_out``, ``fell_below_half`` and ``between`` (the stretch named, or
        None)."""
        return where_lost(self)

    @property
    def headline(self) -> str:
        """Where the game was lost, in one sentence: ``where_lost()["text"]``, e.g. "P1
        greedy lost this game at move 10, points 4S ?? (a blunder): their chances fell
        from 77.5% with the best move, draw, to 46.9% (-30.6 pp), the largest of their 2
        mistakes and blunders."."""
        return self.where_lost()["text"]

    def final(self) -> Game:
        """The game after its last move."""
        g = self.start.copy()
        for m in self.moves:
            g.play(m)
        return g

    def _result(self, end: Game) -> dict[str, Any] | None:
        """The record's result of the game's end: None for an unfinished game whose
        stop no record told (a Game's)."""
        if end.is_over or self.stopped is not None:
            return result_of(end, "over" if end.is_over else self.stopped,
                             resigned=self.resigned)
        return None

    def as_dict(self) -> dict[str, Any]:
        """The review as JSON-ready data (what `cuttle review --json` prints); a review
        cut short also carries "interrupted", as every partial result's JSON does."""
        end = self.final()
        cut = None if self.complete else Interrupted(None, len(self.decisions), self.total,
                                                     "decision")
        return Interrupted.mark(self._data(end), cut)

    def _data(self, end: Game) -> dict[str, Any]:
        return {"format": FORMAT, "version": 1, "where_lost": self.where_lost(),
                "record_mismatch": self.record_mismatch, "redealt": self.redealt,
                "unseen": self.unseen,
                "engine": self.engine.name,
                "method": self.engine.description, "seed": self.seed,
                "rules": self.start.rules.to_json(), "game_seed": self.start.seed,
                "game_deal": self.deal,
                "names": list(self.names), "moves": [str(m) for m in self.moves],
                "result": self._result(end),
                "reviewed_players": list(self.players),
                "thresholds": self.thresholds.as_dict(),
                "complete": self.complete, "reviewed": len(self.decisions),
                "total": self.total, "seconds": self.seconds,
                "cpu_seconds": self.cpu_seconds, "samples": self.samples,
                "unit": self.engine.unit,
                "decisions": [d.as_dict() for d in self.decisions],
                "between": self.between(),
                "players": self.summaries,
                "omniscient": self.omniscient}

    def markdown(self) -> str:
        """The review as markdown (what `cuttle review --markdown` writes): where the
        game was lost, in bold, the text's lines on what was reviewed and how, the moves
        as a table, the result, and the per-player figures as a table."""
        return render("markdown", self)

    def page(self, viewer: int | None | str = "default") -> str:
        """The replay page with this review: an evaluation graph under the table, the
        labels and best moves in the move list; `viewer` (0, 1, None for every card)
        defaults to the reviewed player (player 0 when both are)."""
        from ..report.replay import replay_page
        if viewer == "default":
            viewer = self.players[0] if len(self.players) == 1 else 0
        info = [f"P0 {self.names[0]} against P1 {self.names[1]}",
                f"rules {self.start.rules}", seed_words(self.start.seed, self.deal),
                quantity(len(self.moves), "move"),
                f"review: {self.engine.name}, seed {self.seed}"]
        res = self._result(self.final())
        if res is not None:
            info.append(res["text"])
        data = self.as_dict()
        return replay_page(self.start, self.moves, names=self.names, info=info,
                           viewer=viewer, review=data, review_table=figure_rows(data["players"]),
                           title="cuttle game review", resigned=self.resigned)

    def __repr__(self):
        acc = ", ".join(f"P{p} {self._fmt_acc(p)}" for p in self.players)
        return (f"<Review {self.engine.name}: {len(self.decisions)} of {self.total} "
                f"decisions, accuracy {acc}>")

    def _fmt_acc(self, p):
        a = self.accuracy(p)
        return "-" if a is None else f"{a:.1f}%"

    def __str__(self):
        return "\n".join(self.lines())

    def intro(self) -> list[str]:
        """The lines of the text between the headline and the move list, one sentence or
        more each: the warning of a record's stated result its moves do not give, a
        record's re-deals by undos, a player a record with cards not seen leaves out, what
        was reviewed, the engine, what the scores mean, the moves not valued, the
        hindsight line (the markdown's paragraphs too)."""
        who = {p: f"P{p} {self.names[p]}" for p in (0, 1)}
        dealt = seed_words(self.start.seed, self.deal)
        out = []
        if self.record_mismatch is not None:
            out.append(f"Warning: {self.record_mismatch}; this review follows the moves.")
        out += [line for line in (self.redealt, self.unseen) if line is not None]
        out += [f"Review{' of ' + self.source if self.source else ''}: {who[0]} against "
               f"{who[1]}; rules {self.start.rules}; {dealt}; "
               f"{quantity(len(self.moves), 'move')}",
               f"Engine {self.engine.name}: {self.engine.description}; seed {self.seed}",
               "Scores: the mover's expected score (a win 1, a draw 1/2) from what they could "
               "know, in %; losses and changes in pp, percentage points of that score."]
        others = [p for p in (0, 1) if p not in self.players]
        for p in others:
            me = 1 - p
            out.append(f"Not valued: P{p}'s moves (P{p} is not reviewed). Under them, P{me}'s "
                       f"chances (expected score, as P{me} saw them) after P{me}'s move before "
                       f"them and before P{me}'s next: the change those moves, the cards drawn "
                       f"and what P{me} learned made.")
        if self.omniscient is not None:
            out.append("Hindsight (every card known, not what the mover could know): "
                       "P0's expected score after the move.")
        return out

    def closing(self) -> list[str]:
        """The lines of the text under the move list: the result, what "not settled"
        means (when a label is), and how far a review cut short got."""
        out = []
        res = self._result(self.final())
        if res is not None:
            out.append(f"Result: {res['text']}")
        if any(d.judged and not d.settled for d in self.decisions):
            out.append("not settled: the loss's bounds (two standard errors of the paired "
                       "samples either side) span a label's bound even at the budget's cap: "
                       "the move may belong to the label next to it")
        if not self.complete:
            out.append(f"(review interrupted: {len(self.decisions)} of {self.total} "
                       f"decisions reviewed)")
        return out

    def spent(self) -> str:
        """The text's last line: the samples and time the review spent, and its labels'
        bounds."""
        cpu = "" if math.isnan(self.cpu_seconds) else f", {self.cpu_seconds:.2f} s CPU"
        return (f"{self.samples:,} {plural(self.engine.unit)} "
                f"in {self.seconds:.2f} s{cpu}; labels: best (the engine's best move), near best <= "
                f"{100 * self.thresholds.best:g}, "
                f"good <= {100 * self.thresholds.good:g}, inaccuracy (?!) <= "
                f"{100 * self.thresholds.inaccuracy:g}, mistake (?) <= "
                f"{100 * self.thresholds.mistake:g} pp lost, blunder (??) more")

    def lines(self) -> list[str]:
        """The text review: the headline, the annotated move list, then the per-player
        figures."""
        who = {p: f"P{p} {self.names[p]}" for p in (0, 1)}
        out = [self.headline, *self.intro()]
        by_ply = {d.ply: d for d in self.decisions}
        shown: dict[int, list[dict[str, Any]]] = {}     # under the last move of a stretch
        for b in self.between():
            if b["unreviewed_moves"]:
                shown.setdefault(b["moves"][-1], []).append(b)
        width = max([len(str(m)) for m in self.moves] + [8]) + 3
        bw = max([len(str(d.best)) for d in self.decisions if d.best is not None] + [4])
        nw = max(len(who[0]), len(who[1]))
        g = self.start.copy()
        turn = None
        for i, m in enumerate(self.moves):
            if g.turn_number != turn:
                turn = g.turn_number
                out.append(f"turn {turn}")
            p = g.to_move
            d = by_ply.get(i)
            text = f"{str(m)} {d.annotation}".rstrip() if d else str(m)
            line = f"{i + 1:>5}. {who[p]:<{nw}}  {text:<{width}}"
            if d is None:
                line += ("  (not reached)" if p in self.players
                         else f"  not valued (P{p} is not reviewed)")
            elif not d.judged:
                line += "  forced"
            else:
                best = "" if d.label == "best" else f"best {str(d.best):<{bw}} {d.best_score:6.1%}"
                line += (f"{d.played_score:6.1%}  {best:<{bw + 13}}  "
                         f"{loss_points(d.loss, self.thresholds.as_dict()):>5} pp  {d.label}")
                if not d.settled:
                    line += f" (not settled: {d.bounds_text()} pp)"
                line += d.missed_text("; ")
            if self.omniscient is not None and self.omniscient[i + 1] is not None:
                line += f"  [hindsight P0 {self.omniscient[i + 1]:.0%}]"
            out.append(line.rstrip())
            for b in shown.get(i + 1, ()):
                out.append(" " * (nw + 9) + change_text(b))
            g.play(m)
        return out + self.closing() + [""] + self._figure_lines(who)

    def _figure_lines(self, who: dict[int, str]) -> list[str]:
        """The text review's per-player figures (`who`: each player's heading), then
        what the review spent and its labels' bounds."""
        out: list[str] = []
        sums = self.summaries
        cols = [who[s["player"]] for s in sums]
        cw = max([len(c) for c in cols] + [10])
        lw = max(len(f.label) for f in PLAYER_FIGURES)
        out.append(" " * lw + "".join(f"  {c:>{cw}}" for c in cols))
        for f in PLAYER_FIGURES:
            out.append(f"{f.label:<{lw}}" + "".join(f"  {f.fmt(s[f.key]):>{cw}}" for s in sums))
        out.append(self.spent())
        return out


def change_text(b: dict[str, Any]) -> str:
    """One stretch of `Review.between()` as the text prints it: "P0's chances: 21.3%
    after move 1, 9.9% before move 3 (-11.4 pp)"."""
    p, to = b["player"], b["to_move"]
    where = "at the end" if to is None else f"before move {to}"
    return (f"P{p}'s chances: {b['start_score']:.1%} after move {b['from_move']}, "
            f"{b['end_score']:.1%} {where} ({pp(b['change'], 1)})")
