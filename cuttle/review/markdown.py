"""A game review as markdown (`Review.markdown()`, ``cuttle review --markdown``): the
headline, the text's lines on what was reviewed and how (`Review.intro`), the moves and
the per-player figures as tables of `cuttle.render.tables`' pieces, laid out by
`cuttle.render.markdown`, the text's closing lines and what the review spent.

It registers with `cuttle.display` as every result's markdown does; it lives beside the
review rather than in `cuttle.render` since the review calls its page's renderer
(`cuttle.report`), which imports `cuttle.render`: a renderer there importing the review
would close a cycle.  `cuttle.review` imports it, so it is registered with the class."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..display import renders
from ..formatting import loss_points
from ..render.markdown import one_line, table_markdown
from ..render.tables import Cell, Column, Table
from .figures import figure_rows
from .result import Review, change_text

if TYPE_CHECKING:
    from .result import Decision

__all__ = ["figures_table", "moves_table", "review_markdown"]


@renders("markdown", Review)
def review_markdown(r: Review) -> str:
    """The review as markdown: the headline in bold, each line of `Review.intro()` a
    paragraph, the moves table, the lines of `Review.closing()`, the per-player figures
    table and `Review.spent()`."""
    lines = [f"**{one_line(r.headline)}**", ""]
    for line in r.intro():
        lines += [one_line(line), ""]
    lines += ["### Moves", ""] + table_markdown(moves_table(r)) + [""]
    for line in r.closing():
        lines += [one_line(line), ""]
    lines += ["### Per player", ""] + table_markdown(figures_table(r)) + ["", r.spent()]
    return "\n".join(lines) + "\n"


def moves_table(r: Review) -> Table:
    """Every move of the game: its number, turn and player, the move played (with its
    annotation), then for a judged move its score, the best move and its score (when the
    move is not the best), the loss in pp and the label; "forced", "not valued" (a
    player not reviewed) or "not reached" (a review cut short) otherwise; the hindsight
    value with `omniscient`; and notes: a label not settled, a win at once missed, and
    under the last move of a stretch not valued, the change it made to the reviewed
    player's chances (as the text prints them)."""
    columns = [Column("move"), Column("turn"), Column("player", "<"),
               Column("played", "<"), Column("score"), Column("best", "<"),
               Column("best score"), Column("loss (pp)"), Column("label", "<")]
    if r.omniscient is not None:
        columns.append(Column("hindsight P0"))
    columns.append(Column("notes", "<"))
    by_ply = {d.ply: d for d in r.decisions}
    changes: dict[int, list[dict[str, Any]]] = {}       # by the last move of a stretch
    for b in r.between():
        if b["unreviewed_moves"]:
            changes.setdefault(b["moves"][-1], []).append(b)
    bounds = r.thresholds.as_dict()
    rows = []
    g = r.start.copy()
    for i, m in enumerate(r.moves):
        p, d = g.to_move, by_ply.get(i)
        cells = [str(i + 1), str(g.turn_number), f"P{p} {r.names[p]}",
                 f"{m} {d.annotation}".rstrip() if d else str(m)]
        notes = []
        if d is not None and d.judged:
            cells += _judged_cells(d, bounds)
            if not d.settled:
                notes.append(f"not settled: {d.bounds_text()} pp")
            if d.missed_win is not None:
                notes.append(d.missed_text())
        else:
            label = ("forced" if d is not None else
                     "not reached" if p in r.players else "not valued")
            cells += ["", "", "", "", label]
        if r.omniscient is not None:
            h = r.omniscient[i + 1]
            cells.append("" if h is None else f"{h:.0%}")
        notes += [change_text(b) for b in changes.get(i + 1, ())]
        rows.append([Cell(t) for t in cells + ["; ".join(notes)]])
        g.play(m)
    return Table(["Moves"], columns, rows)


def _judged_cells(d: Decision, bounds: dict[str, float]) -> list[str]:
    """The score, best move, its score, loss and label of a judged move."""
    other = d.label != "best"
    return [f"{d.played_score:.1%}", str(d.best) if other else "",
            f"{d.best_score:.1%}" if other else "", loss_points(d.loss, bounds), d.label]


def figures_table(r: Review) -> Table:
    """Each reviewed player's figures (`PLAYER_FIGURES`, the rows of `figure_rows`, as
    the page shows them), one row per figure."""
    sums = r.summaries
    columns = [Column("", "<")] + [Column(f"P{s['player']} {s['name']}") for s in sums]
    rows = [[Cell(label, "label"), *(Cell(v) for v in values)]
            for label, values in figure_rows(sums)]
    return Table(["Per player"], columns, rows)
