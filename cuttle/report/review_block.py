"""The review's part of the replay page (`replay.replay_page(..., review=...)`): its
style and script (`REVIEW_STYLE`, `REVIEW_SCRIPT`), the evaluation graph (each reviewed
player's chances as they saw them, a move that lost drawn as a drop), the marks of the
move list (`review_badge`, `unvalued_badge`, `change_note`), the per-player figures and,
at the top of the page, the review's headline (where the game was lost) with the warning
of a record whose stated result its moves do not give (`review_head`); `review_parts`
gives the graph and the figures.  It reads the review's JSON (`cuttle.Review.as_dict()`),
never the review itself.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from ..formatting import loss_points, pp

if TYPE_CHECKING:
    from collections.abc import Sequence

REVIEW_STYLE = """
.moves .rv{display:inline-block;margin-left:6px;padding:0 5px;border-radius:4px;
 font-size:11px;font-weight:600;color:#fff}
.moves .rv-best{background:#2e7d32}.moves .rv-near-best{background:#558b2f}
.moves .rv-good{background:#7cb342}
.moves .rv-inaccuracy{background:#e0a800}.moves .rv-mistake{background:#ef6c00}
.moves .rv-blunder{background:#c62828}.moves .rv-forced{background:#bbb}
.moves .alt{display:block;margin-left:34px;color:#666;font-size:11px;font-weight:400}
.moves .missed{color:#c62828;font-weight:600}
.moves .nv{margin-left:6px;color:#999;font-size:11px;font-style:italic;font-weight:400}
.moves .chg{display:block;margin-left:34px;color:#555;font-size:11px;font-weight:400}
.review-graph{margin:10px 0 0 0;background:#fff;border:1px solid #e2e0d8;border-radius:8px}
.review-graph svg{display:block}
.review-graph circle.pt{cursor:pointer;stroke:#fff;stroke-width:1}
.review-graph circle.pt:hover{stroke:#123c24;stroke-width:2}
.review-graph circle.pt.current{stroke:#123c24;stroke-width:2.5}
.review-side{width:290px}
table.review-figures{width:290px;border-collapse:collapse;margin:10px 0 0 0;font-size:12px;
 background:#fff;border:1px solid #e2e0d8;border-radius:8px}
table.review-figures td,table.review-figures th{padding:2px 8px;text-align:right}
table.review-figures td:first-child,table.review-figures th:first-child{text-align:left}
table.review-figures .nm{font-weight:400;color:#777}
.review-note{color:#777;font-size:12px;margin:4px 0 0 0;max-width:600px}
.review-headline{font-size:15px;font-weight:600;margin:0 0 10px 0;max-width:920px}
.review-warning{color:#8a4b00;background:#fff4e0;border:1px solid #f0c987;border-radius:6px;
 padding:4px 8px;margin:0 0 10px 0;font-size:13px;max-width:920px}
"""

# The graph's points jump by clicking the move list's item of their step (whose handler
# the replay script owns); the cursor follows the step shown (body's data-step).
REVIEW_SCRIPT = r"""
(function () {
  const body = document.body, cursor = document.getElementById('review-cursor');
  const points = Array.from(document.querySelectorAll('.review-graph circle.pt'));
  const nav = document.querySelector('.moves');
  for (const c of points) c.addEventListener('click', () => {
    const li = document.querySelector('.moves li[data-step="' + c.dataset.step + '"]');
    if (!li) return;
    li.click();
    if (li.offsetTop < nav.scrollTop ||        // bring it into the list's view
        li.offsetTop + li.offsetHeight > nav.scrollTop + nav.clientHeight)
      nav.scrollTop = li.offsetTop - nav.clientHeight / 2;
  });
  function follow() {
    const step = body.dataset.step;
    if (step === undefined) return;
    const x = +cursor.dataset.x0 + (+cursor.dataset.dx) * (+step);
    cursor.setAttribute('x1', x); cursor.setAttribute('x2', x);
    for (const c of points) c.classList.toggle('current', c.dataset.step === step);
  }
  new MutationObserver(follow).observe(body, {attributes: true,
                                              attributeFilter: ['data-step']});
  follow();
})();
"""

GRAPH_W, GRAPH_H = 600, 214
PLAYER_COLOURS = ("#1f5f9e", "#b03a2e")      # as the move list's P0 and P1
LABEL_COLOURS = {"best": "#2e7d32", "near best": "#558b2f", "good": "#7cb342", "inaccuracy": "#e0a800",
                 "mistake": "#ef6c00", "blunder": "#c62828"}
DROPS = ("inaccuracy", "mistake", "blunder")  # a move's drop drawn in its label's colour


def review_badge(d: dict, bounds: dict[str, float]) -> str:
    """A reviewed move's label in the move list, and the best move when it differs;
    `bounds`: the review's thresholds, which the loss's digits are printed to (as the
    text prints them)."""
    label = d["label"]
    text = d.get("annotation") or label
    if label == "forced":
        tip = "forced: the only legal move"
    else:
        tip = (f"{label}: expected score {d['played_score']:.1%}, best "
               f"{d['best']} {d['best_score']:.1%}, "
               f"loss {loss_points(d['loss'], bounds)} pp"
               + _unsettled(d))
    tip += _missed(d, "; ")
    out = (f' <span class="rv rv-{_slug(label)}" title="{escape(tip)}">'
           f'{escape(text)}</span>')
    if label not in ("best", "forced") and d.get("best"):
        out += (f'<span class="alt">best: {escape(d["best"])} '
                f'({d["best_score"]:.0%} against {d["played_score"]:.0%})</span>')
    if _missed(d):
        out += f'<span class="alt missed">{escape(_missed(d))}</span>'
    if label != "forced" and _unsettled(d):
        out += f'<span class="alt unsettled">{escape(_unsettled(d).strip(" ()"))}</span>'
    return out


def unvalued_badge(player: int, reviewed: Sequence[int]) -> str:
    """The mark of a move the review did not value, and why: its player is not reviewed,
    or (a review cut short) the review did not reach it."""
    if player in reviewed:
        return (' <span class="nv" title="not reached: the review was stopped before this '
                'decision">not reached</span>')
    tip = (f"not valued: P{player} is not reviewed (a review values only the reviewed "
           f"player's own decisions, each from their view)")
    return f' <span class="nv" title="{escape(tip)}">not valued</span>'


def change_note(b: dict) -> str:
    """The change of a reviewed player's chances over a stretch of moves not valued, under
    its last move: "P0's chances 21% → 11% (-10.4 pp)"."""
    p, to = b["player"], b["to_move"]
    where = "the result" if to is None else f"before move {to}"
    tip = (f"P{p}'s chances, as P{p} saw them: {b['start_score']:.1%} after move "
           f"{b['from_move']}, {b['end_score']:.1%} {where}: the change the moves between, "
           f"the cards drawn and what P{p} learned made (not valued)")
    return (f'<span class="chg" data-player="{p}" title="{escape(tip)}">P{p}\'s chances '
            f'{b["start_score"]:.0%} → {b["end_score"]:.0%} ({pp(b["change"], 1)})</span>')


def _slug(label: str) -> str:
    """A label as a class name: "near best" → "near-best"."""
    return escape(label.replace(" ", "-"))


def _missed(d: dict, before: str = "") -> str:
    """ "missed a win: points 9C won at once" (after `before`) when a move that won at
    once was legal and not played (the JSON's ``missed_win``), else ""."""
    won = d.get("missed_win")
    return f"{before}missed a win: {won} won at once" if won else ""


def _unsettled(d: dict) -> str:
    """" (not settled: 13.1 to 18.1 pp)" when the bounds of a judged move's loss span a
    label's bound, else ""."""
    if d.get("settled", True) or d.get("loss_low") is None:
        return ""
    return (f" (not settled: {100 * d['loss_low']:.1f} to {100 * d['loss_high']:.1f} pp)")


def review_head(review: dict) -> str:
    """The top of a review's page: its headline, where the game was lost (the JSON's
    ``where_lost``), the warning of a record whose stated result its moves do not
    give (``record_mismatch``), a record's re-deals by undos (``redealt``) and the player
    a record with cards not seen leaves out (``unseen``), if any."""
    head = (review.get("where_lost") or {}).get("text")
    out = f'<p class="review-headline">{escape(head)}</p>' if head else ""
    if review.get("record_mismatch"):
        out += (f'<p class="review-warning">Warning: {escape(review["record_mismatch"])}; '
                f'this review follows the moves.</p>')
    for key in ("redealt", "unseen"):
        if review.get(key):
            out += f'<p class="review-{key}">{escape(review[key])}</p>'
    return out


def review_parts(review: dict, last: int,
                 table: Sequence[tuple[str, Sequence[str]]] = ()) -> tuple[str, str]:
    """(the evaluation graph, the per-player figures) of a review for a replay of
    `last` moves.  `table`: the figures' rows, (label, each reviewed player's value as
    text), made by the review (`figure_rows` in cuttle/review/figures.py), which owns
    what they are and how they read."""
    return _graph(review, last), _review_table(review, table)


def _span(moves: Sequence[int]) -> str:
    """ "move 2", "moves 12–14", or "" for none."""
    if not moves:
        return ""
    return f"move {moves[0]}" if len(moves) == 1 else f"moves {moves[0]}–{moves[-1]}"


class _Frame:
    """The graph's plotting area: a step (a move number) and a value (a chance, 0 to 1)
    to a point, and a segment with its tooltip."""

    def __init__(self, last: int):
        self.x0, self.x1, self.y0, self.y1 = 44, GRAPH_W - 12, 26, GRAPH_H - 52
        self.dx = (self.x1 - self.x0) / max(last, 1)

    def xy(self, step: float, v: float) -> tuple[float, float]:
        return self.x0 + self.dx * step, self.y1 - (self.y1 - self.y0) * v

    @staticmethod
    def seg(cls, a, b, colour, width, tip, data="", dash="") -> str:
        """A segment with its tooltip, and a wider invisible stroke to hover."""
        at = f'x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}"'
        dash = f' stroke-dasharray="{dash}"' if dash else ""
        return (f'<g class="{cls}"{data}><title>{escape(tip)}</title>'
                f'<line class="seg" {at} stroke="{colour}" stroke-width="{width}" '
                f'stroke-linecap="round"{dash}/>'
                f'<line {at} stroke="#000" stroke-opacity="0" stroke-width="9"/></g>')


def _graph(review: dict, last: int) -> str:
    """The evaluation graph: each reviewed player's own chances (expected score) as they
    saw them.  At each of their judged moves the line runs from the best move's value
    (the position's, before the move: a hollow mark where the move lost) to the value of
    the move played (after it: a point coloured by its label), so a move that lost is a
    drop, drawn in its label's colour; dotted, from one valued move to the player's next
    (or to the game's result): the change the moves between, which no label judges (the
    review's "between").  The hindsight line when the review has one."""
    reviewed = review.get("reviewed_players") or [0, 1]
    me = reviewed[0] if len(reviewed) == 1 else 0     # the hindsight line's player
    bounds = review.get("thresholds") or {}
    f = _Frame(last)
    judged = [d for d in review.get("decisions", []) if d["label"] != "forced"]
    omni = review.get("omniscient")
    o = _axes(f, last, reviewed) + _hindsight(f, omni, me) + [_marks_legend(f, reviewed, me)]
    o += [_between(f, b, last) for b in review.get("between", [])]
    o += [_judged(f, d, bounds) for d in judged]
    o += [_best_mark(f, d) for d in judged if d["label"] != "best"]
    o += [_point(f, d, bounds) for d in judged]
    o.append(f'<line id="review-cursor" data-x0="{f.x0}" data-dx="{f.dx:.4f}" x1="{f.x0}" '
             f'x2="{f.x0}" y1="{f.y0 - 4}" y2="{f.y1 + 4}" stroke="#ffc933" stroke-width="2" '
             f'pointer-events="none"/></svg>')
    return f'<div class="review-graph">{"".join(o)}</div>' + _review_note(review, bool(omni))


def _axes(f: _Frame, last: int, reviewed: Sequence[int]) -> list[str]:
    """The svg's head, its grid (0, 50 and 100%), the move numbers and the lines' legend."""
    whose = " and ".join(f"P{p}'s" for p in reviewed)
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{GRAPH_W}" height="{GRAPH_H}" '
         f'viewBox="0 0 {GRAPH_W} {GRAPH_H}" class="review-chart" '
         f'font-family="system-ui,sans-serif" font-size="11">'
         f'<title>{whose} chances move by move, each as its player saw them</title>'
         f'<desc>Each line is a reviewed player\'s chances (expected score: a win 100%, a '
         f'draw 50%) as that player saw them. At each of their valued moves it runs from '
         f'the value of the best move (a hollow mark) to that of the move played (a point '
         f'coloured by its label): a move that lost is a drop. Dotted: from one valued '
         f'move to the next, the change made by the moves between (not valued).</desc>']
    for v in (0, 0.5, 1):
        _, y = f.xy(0, v)
        dash = ' stroke-dasharray="4 3"' if v == 0.5 else ""
        o.append(f'<line x1="{f.x0}" x2="{f.x1}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ccc"{dash}/>'
                 f'<text x="{f.x0 - 6}" y="{y + 4:.1f}" text-anchor="end" fill="#777">'
                 f'{v:.0%}</text>')
    every = next(k for k in (1, 2, 5, 10, 20, 50, 100, 10 ** 9) if last / k <= 12)
    o.append(f'<text x="{f.x0 - 6}" y="{f.y1 + 14}" text-anchor="end" fill="#777">move</text>')
    for step in range(every, last + 1, every):
        x, _ = f.xy(step, 0)
        o.append(f'<text class="tick" x="{x:.1f}" y="{f.y1 + 14}" text-anchor="middle" '
                 f'fill="#777">{step}</text>')
    o.append(f'<text class="legend" x="{f.x0}" y="12">'
             + " ".join(f'<tspan fill="{PLAYER_COLOURS[p]}">— P{p}\'s chances, as P{p} saw '
                        'them</tspan>' for p in reviewed) + '</text>')
    return o


def _hindsight(f: _Frame, omni: Sequence[float | None] | None, me: int) -> list[str]:
    """The hindsight line (every card known) of player `me`, and its legend."""
    pts = [f.xy(i, v if me == 0 else 1 - v) for i, v in enumerate(omni or ()) if v is not None]
    if not pts:
        return []
    return ['<polyline class="hindsight" fill="none" stroke="#8a8a8a" '
            'stroke-width="1.5" stroke-dasharray="5 4" points="'
            + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) + '"/>',
            f'<text x="{f.x1}" y="12" text-anchor="end" fill="#8a8a8a">'
            f'- - P{me}\'s in hindsight</text>']


def _marks_legend(f: _Frame, reviewed: Sequence[int], me: int) -> str:
    """The legend of the marks, under the move numbers."""
    between = ("between a player's moves" if len(reviewed) == 2 else
               f"between: P{1 - me}'s moves, not valued")
    x0, ly = f.x0, GRAPH_H - 10
    return (f'<g class="marks" fill="#555"><circle cx="{x0 + 4}" cy="{ly - 4}" r="3" '
            f'fill="#fff" stroke="#555" stroke-width="1.5"/>'
            f'<text x="{x0 + 11}" y="{ly}">best move</text>'
            f'<circle cx="{x0 + 84}" cy="{ly - 4}" r="3.5" fill="#555"/>'
            f'<text x="{x0 + 91}" y="{ly}">move played</text>'
            f'<line x1="{x0 + 172}" y1="{ly - 9}" x2="{x0 + 184}" y2="{ly}" '
            f'stroke="{LABEL_COLOURS["blunder"]}" stroke-width="3"/>'
            f'<text x="{x0 + 190}" y="{ly}">its loss (by label)</text>'
            f'<line x1="{x0 + 292}" y1="{ly - 4}" x2="{x0 + 312}" y2="{ly - 4}" '
            f'stroke="#555" stroke-width="1.5" stroke-dasharray="2 3"/>'
            f'<text x="{x0 + 318}" y="{ly}">{between}</text></g>')


def _between(f: _Frame, b: dict, last: int) -> str:
    """The dotted line of a stretch between a player's valued moves (the review's
    "between"): the change the moves between made, not valued."""
    p, to = b["player"], b["to_move"]
    a = f.xy(b["from_move"], b["start_score"])
    e = f.xy(last if to is None else to - 1, b["end_score"])
    where = "at the end (the result)" if to is None else f"before move {to}"
    moves = _span(b["moves"])
    tip = (f"{moves + ': ' if moves else ''}P{p}'s chances {b['start_score']:.0%} after "
           f"move {b['from_move']}, {b['end_score']:.0%} {where} ({pp(b['change'], 1)}): "
           f"what the moves between, the cards drawn and what P{p} learned did"
           + (f" (not valued: P{1 - p} is not reviewed)" if b["unreviewed_moves"] else ""))
    return f.seg(f"between p{p}", a, e, PLAYER_COLOURS[p], 1.5, tip,
                 f' data-from="{b["from_move"]}" data-to="{"" if to is None else to}"',
                 "2 3")


def _judged(f: _Frame, d: dict, bounds: dict[str, float]) -> str:
    """A judged move's segment, from the best move's value to the played one's: a drop
    in its label's colour when it lost."""
    p, n = d["player"], d["ply"] + 1
    a, e = f.xy(d["ply"], d["best_score"]), f.xy(n, d["played_score"])
    if d["label"] == "best":
        tip = f"{n}. P{p} {d['played']}: best; P{p}'s chances {d['played_score']:.0%}"
    else:
        tip = (f"{n}. P{p} {d['played']} {d.get('annotation', '')}".rstrip()
               + f": {d['label']}; P{p}'s chances {d['best_score']:.0%} with the best "
               f"move ({d['best']}), {d['played_score']:.0%} after this one "
               f"(-{loss_points(d['loss'], bounds)} pp)")
    drop = d["label"] in DROPS
    return f.seg(f"drop {_slug(d['label'])} p{p}", a, e,
                 LABEL_COLOURS[d["label"]] if drop else PLAYER_COLOURS[p],
                 3 if drop else 2, tip + _unsettled(d) + _missed(d, "; "),
                 f' data-ply="{d["ply"]}"')


def _best_mark(f: _Frame, d: dict) -> str:
    """The hollow mark of the best move's value before a move that was not the best."""
    x, y = f.xy(d["ply"], d["best_score"])
    tip = (f"before move {d['ply'] + 1}: P{d['player']}'s chances with the best move, "
           f"{d['best']}: {d['best_score']:.0%}")
    return (f'<circle class="best-mark" data-ply="{d["ply"]}" cx="{x:.1f}" '
            f'cy="{y:.1f}" r="3" fill="#fff" stroke="{LABEL_COLOURS[d["label"]]}" '
            f'stroke-width="1.5"><title>{escape(tip)}</title></circle>')


def _point(f: _Frame, d: dict, bounds: dict[str, float]) -> str:
    """The clickable point of the move played, coloured by its label."""
    x, y = f.xy(d["ply"] + 1, d["played_score"])
    r = 5 if d["label"] in ("mistake", "blunder") else 3.5
    tip = (f'{d["ply"] + 1}. P{d["player"]} {d["played"]} {d.get("annotation", "")}'.rstrip()
           + f' {d["label"]}: P{d["player"]}\'s chances {d["played_score"]:.0%}'
           + ("" if d["label"] == "best" else
              f' (best {d["best"]} {d["best_score"]:.0%}, '
              f'-{loss_points(d["loss"], bounds)} pp)')
           + _unsettled(d) + _missed(d, "; "))
    return (f'<circle class="pt {_slug(d["label"])}" data-step="{d["ply"] + 1}" '
            f'data-ply="{d["ply"]}" cx="{x:.1f}" cy="{y:.1f}" r="{r}" '
            f'fill="{LABEL_COLOURS[d["label"]]}"><title>{escape(tip)}</title></circle>')


def _review_note(review: dict, omni: bool) -> str:
    """The lines under the graph: what it shows, which moves are not valued and why, the
    engine and how it values moves, what to click."""
    reviewed = review.get("reviewed_players") or [0, 1]
    others = [p for p in (0, 1) if p not in reviewed]
    me = reviewed[0]
    return ('<p class="review-note">Each line is a reviewed player\'s chances (expected '
            'score: a win 100%, a draw 50%) as that player saw them: at each of their '
            'valued moves it runs from the value of the best move (○) to that of the move '
            'played (●, coloured by its label), so a move that lost is a drop; dotted, from '
            'one valued move to their next or to the result, the change made by the moves '
            'between, the cards drawn and what the player learned, which no label judges. '
            + "".join(f"P{q}'s moves are not valued: P{q} is not reviewed (a review values "
                      f"only the reviewed player's own decisions, each from their view); the "
                      f"move list gives the change of P{me}'s chances across them. "
                      for q in others)
            + 'pp: percentage points of expected score.</p>'
            f'<p class="review-note">Review by {escape(str(review.get("engine")))} '
            f'(seed {review.get("seed")}): {escape(str(review.get("method", "")))}. '
            'Click a point to see that move.'
            + (" The dashed line is hindsight: the value with every card known, which "
               "no player could know." if omni else "")
            + ("" if review.get("complete", True) else
               f' The review was interrupted after {review.get("reviewed")} of '
               f'{review.get("total")} decisions.') + '</p>')


def _review_table(review: dict, table: Sequence[tuple[str, Sequence[str]]]) -> str:
    """The per-player figures: a column per reviewed player, a row per figure."""
    sums = review.get("players", [])
    rows = "".join(f"<tr><td>{escape(label)}</td>"
                   + "".join(f"<td>{escape(v)}</td>" for v in values) + "</tr>"
                   for label, values in table)
    head = "".join(f'<th>P{s["player"]}<br><span class="nm">{escape(str(s.get("name", "")))}'
                   '</span></th>' for s in sums)
    return (f'<table class="review-figures"><thead><tr><th></th>{head}</tr></thead>'
            f'<tbody>{rows}</tbody></table>')
