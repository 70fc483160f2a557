"""The replay page: a game step by step in one self-contained HTML file.

The table of every step is drawn here in Python (`cuttle.svg.table`) for each of the
three views (player 0, player 1, all cards); the page's script only switches between
them.  The pictures are stored as one gzip-compressed JSON array (a game's pictures
repeat almost everything from step to step: 4 MB of SVG pack into about 70 kB), which
the browser unpacks with its built-in DecompressionStream.

Keys: left/right arrows step, Home/End jump to the start/end, 0/1/a switch the view.
The page exposes its state for scripts and tests: ``document.body.dataset.step`` and
``.viewer``, and ``data-ready="1"`` on the body once the pictures are unpacked.

With a game review (`replay_page(..., review=...)`, the JSON of `cuttle.review`) the
page also has an evaluation graph under the table (a click on a point jumps to that
move), each reviewed move's label and the best move in the move list, and the
per-player figures; that part is its own block (`REVIEW_STYLE`, `REVIEW_SCRIPT`,
`review_parts`), added to the page only with a review.
"""

from __future__ import annotations

import base64
import gzip
import json
from html import escape
from typing import TYPE_CHECKING, Any

from ..formatting import loss_points, quantity
from ..record import ending, final_game, play_recorded, result_of, seed_words, start_game
from ..svg import table
from ..validation import check_player
from .pages import page

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from ..game import Game
    from ..moves import Move

__all__ = ["VIEWERS", "game_page", "record_page", "replay_page"]

VIEWERS = (0, 1, None)          # the order of each step's pictures: P0, P1, all cards

STYLE = """
.replay{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
.board-col{width:600px;max-width:100%}
#board{min-height:420px}
#board svg{display:block;max-width:100%;height:auto}
.controls{display:flex;flex-wrap:wrap;align-items:center;gap:6px;margin:0 0 8px 0}
.controls button{font:inherit;font-size:13px;padding:4px 10px;border:1px solid #b8b6ab;
 border-radius:6px;background:#fff;cursor:pointer}
.controls button:hover:not(:disabled){background:#eef4ee}
.controls button:disabled{opacity:.4;cursor:default}
.controls button.on,.controls button.on:hover{background:#123c24;color:#fff;
 border-color:#123c24}
.controls .pos{margin:0 8px;font-variant-numeric:tabular-nums;min-width:96px}
.controls .label{color:#555;margin-right:2px}
.hint{color:#777;font-size:12px;margin:6px 0 0 0}
.moves{position:relative;width:290px;max-width:100%;max-height:640px;overflow:auto;
 background:#fff;border:1px solid #e2e0d8;border-radius:8px;padding:4px 0}
.moves ol{list-style:none;margin:0;padding:0}
.moves li{padding:2px 12px;cursor:pointer;font-size:13px;white-space:nowrap;
 font-variant-numeric:tabular-nums}
.moves li:hover{background:#eef4ee}
.moves li.turn{cursor:default;color:#777;font-size:11px;padding-top:6px;
 text-transform:uppercase;letter-spacing:.04em}
.moves li.turn:hover{background:none}
.moves li.current{background:#ffc933;font-weight:600}
.moves .n{display:inline-block;width:34px;color:#888}
.moves .p0{color:#1f5f9e}.moves .p1{color:#b03a2e}
"""

SCRIPT = r"""
(async function () {
  const body = document.body, board = document.getElementById('board');
  const nav = document.querySelector('.moves');
  const steps = JSON.parse(document.getElementById('cuttle-steps').textContent);
  let svgs;
  try {
    const packed = document.getElementById('cuttle-pictures').textContent.trim();
    const bytes = Uint8Array.from(atob(packed), c => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    svgs = JSON.parse(await new Response(stream).text());
  } catch (e) {
    board.textContent = 'This browser cannot unpack the pictures of the replay ' +
      '(it needs DecompressionStream: Chrome 80, Firefox 113, Safari 16.4 or later). ' + e;
    return;
  }
  const items = Array.from(document.querySelectorAll('.moves li[data-step]'));
  const last = steps.length - 1;
  const views = {'0': 0, '1': 1, 'all': 2};
  let step = 0, viewer = body.dataset.viewer || 'all';
  function show(i, scroll) {
    step = Math.max(0, Math.min(last, i));
    board.innerHTML = svgs[steps[step][views[viewer]]];
    body.dataset.step = step;
    body.dataset.viewer = viewer;
    document.getElementById('pos').textContent = step ? 'move ' + step + ' / ' + last
                                                      : 'start / ' + last;
    for (const b of ['first', 'prev']) document.getElementById(b).disabled = step === 0;
    for (const b of ['next', 'last']) document.getElementById(b).disabled = step === last;
    for (const b of document.querySelectorAll('button[data-viewer]'))
      b.classList.toggle('on', b.dataset.viewer === viewer);
    for (const li of items) li.classList.toggle('current', +li.dataset.step === step);
    const cur = items.find(li => +li.dataset.step === step);
    if (cur && scroll !== false) {      // scroll the move list only, never the page
      if (cur.offsetTop < nav.scrollTop) nav.scrollTop = cur.offsetTop - 24;
      else if (cur.offsetTop + cur.offsetHeight > nav.scrollTop + nav.clientHeight)
        nav.scrollTop = cur.offsetTop + cur.offsetHeight - nav.clientHeight + 24;
    }
  }
  function view(v) { viewer = v; show(step, false); }
  document.getElementById('first').onclick = () => show(0);
  document.getElementById('prev').onclick = () => show(step - 1);
  document.getElementById('next').onclick = () => show(step + 1);
  document.getElementById('last').onclick = () => show(last);
  for (const b of document.querySelectorAll('button[data-viewer]'))
    b.onclick = () => view(b.dataset.viewer);
  for (const li of items) li.onclick = () => show(+li.dataset.step, false);
  document.addEventListener('keydown', e => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const k = {ArrowRight: () => show(step + 1), ArrowLeft: () => show(step - 1),
               Home: () => show(0), End: () => show(last), '0': () => view('0'),
               '1': () => view('1'), a: () => view('all')}[e.key];
    if (k) { k(); e.preventDefault(); }
  });
  show(0);
  body.dataset.ready = '1';
})();
"""


REVIEW_STYLE = """
.moves .rv{display:inline-block;margin-left:6px;padding:0 5px;border-radius:4px;
 font-size:11px;font-weight:600;color:#fff}
.moves .rv-best{background:#2e7d32}.moves .rv-good{background:#7cb342}
.moves .rv-inaccuracy{background:#e0a800}.moves .rv-mistake{background:#ef6c00}
.moves .rv-blunder{background:#c62828}.moves .rv-forced{background:#bbb}
.moves .alt{display:block;margin-left:34px;color:#666;font-size:11px;font-weight:400}
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

GRAPH_W, GRAPH_H = 600, 180
PLAYER_COLOURS = ("#1f5f9e", "#b03a2e")      # as the move list's P0 and P1
LABEL_COLOURS = {"best": "#2e7d32", "good": "#7cb342", "inaccuracy": "#e0a800",
                 "mistake": "#ef6c00", "blunder": "#c62828"}


def _review_badge(d: dict, bounds: dict[str, float]) -> str:
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
               f"loss {loss_points(d['loss'], bounds)} points"
               + _unsettled(d))
    out = f' <span class="rv rv-{escape(label)}" title="{escape(tip)}">{escape(text)}</span>'
    if label not in ("best", "forced") and d.get("best"):
        out += (f'<span class="alt">best: {escape(d["best"])} '
                f'({d["best_score"]:.0%} against {d["played_score"]:.0%})</span>')
    if label != "forced" and _unsettled(d):
        out += f'<span class="alt unsettled">{escape(_unsettled(d).strip(" ()"))}</span>'
    return out


def _unsettled(d: dict) -> str:
    """" (not settled: 13.1 to 18.1)" when the bounds of a judged move's loss span a
    label's bound, else ""."""
    if d.get("settled", True) or d.get("loss_low") is None:
        return ""
    return (f" (not settled: {100 * d['loss_low']:.1f} to {100 * d['loss_high']:.1f} "
            f"points)")


def review_parts(review: dict, last: int,
                 table: Sequence[tuple[str, Sequence[str]]] = ()) -> tuple[str, str]:
    """(the evaluation graph, the per-player figures) of a review for a replay of
    `last` moves.  `table`: the figures' rows, (label, each reviewed player's value as
    text), made by the review (`cuttle.review.figures.figure_rows`), which owns what
    they are and how they read."""
    return _review_graph(review, last), _review_table(review, table)


def _review_graph(review: dict, last: int) -> str:
    """The evaluation graph: the perspective player's expected score after each
    reviewed move (from the mover's view), the best move's as a segment above a point
    that lost, and the hindsight line when the review has one."""
    reviewed = review.get("reviewed_players") or [0, 1]
    me = reviewed[0] if len(reviewed) == 1 else 0
    names = review.get("names") or ["player 0", "player 1"]
    x0, x1, y0, y1 = 44, GRAPH_W - 12, 20, GRAPH_H - 26
    dx = (x1 - x0) / max(last, 1)

    def xy(step, v):
        return x0 + dx * step, y1 - (y1 - y0) * v

    def mine(d, v):
        return v if d["player"] == me else 1 - v

    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{GRAPH_W}" height="{GRAPH_H}" '
         f'viewBox="0 0 {GRAPH_W} {GRAPH_H}" class="review-chart" '
         f'font-family="system-ui,sans-serif" font-size="11">']
    for v in (0, 0.5, 1):
        _, y = xy(0, v)
        dash = ' stroke-dasharray="4 3"' if v == 0.5 else ""
        o.append(f'<line x1="{x0}" x2="{x1}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ccc"{dash}/>'
                 f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end" fill="#777">'
                 f'{v:.0%}</text>')
    o.append(f'<text x="{x0}" y="{GRAPH_H - 8}" fill="#555">P{me} ({escape(names[me])})'
             "'s expected score after each reviewed move, as its mover saw it</text>"
             f'<text x="{x0}" y="11">'
             + " ".join(f'<tspan fill="{PLAYER_COLOURS[p]}">— P{p}\'s view</tspan>'
                        for p in reviewed) + '</text>')
    omni = review.get("omniscient")
    if omni:
        pts = [xy(i, v if me == 0 else 1 - v) for i, v in enumerate(omni) if v is not None]
        if pts:
            o.append('<polyline class="hindsight" fill="none" stroke="#8a8a8a" '
                     'stroke-width="1.5" stroke-dasharray="5 4" points="'
                     + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) + '"/>')
            o.append(f'<text x="{x1}" y="11" text-anchor="end" fill="#8a8a8a">'
                     f'- - hindsight: every card known</text>')
    judged = [d for d in review.get("decisions", []) if d["label"] != "forced"]
    # One line per player: each joins the values seen from that player's view (the two
    # views differ in what they know, so they are not joined to each other).
    for p in (0, 1):
        line = [xy(d["ply"] + 1, mine(d, d["played_score"])) for d in judged
                if d["player"] == p]
        if line:
            o.append(f'<polyline class="view{p}" fill="none" stroke="{PLAYER_COLOURS[p]}" '
                     'stroke-width="1.5" opacity=".8" points="'
                     + " ".join(f"{x:.1f},{y:.1f}" for x, y in line) + '"/>')
    for d in judged:
        if d["label"] != "best":
            x, ya = xy(d["ply"] + 1, mine(d, d["best_score"]))
            _, yb = xy(d["ply"] + 1, mine(d, d["played_score"]))
            o.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{ya:.1f}" y2="{yb:.1f}" '
                     f'stroke="{LABEL_COLOURS[d["label"]]}" stroke-width="2" opacity=".6"/>')
    for d in judged:
        x, y = xy(d["ply"] + 1, mine(d, d["played_score"]))
        r = 5 if d["label"] in ("mistake", "blunder") else 3.5
        tip = (f'{d["ply"] + 1}. P{d["player"]} {d["played"]} {d.get("annotation", "")} '
               f'{d["label"]}: {d["played_score"]:.0%}'
               + ("" if d["label"] == "best" else f' (best {d["best"]} {d["best_score"]:.0%})')
               + _unsettled(d))
        o.append(f'<circle class="pt {d["label"]}" data-step="{d["ply"] + 1}" '
                 f'data-ply="{d["ply"]}" cx="{x:.1f}" cy="{y:.1f}" r="{r}" '
                 f'fill="{LABEL_COLOURS[d["label"]]}"><title>{escape(tip)}</title></circle>')
    o.append(f'<line id="review-cursor" data-x0="{x0}" data-dx="{dx:.4f}" x1="{x0}" '
             f'x2="{x0}" y1="{y0 - 4}" y2="{y1 + 4}" stroke="#ffc933" stroke-width="2" '
             f'pointer-events="none"/></svg>')
    return f'<div class="review-graph">{"".join(o)}</div>' + _review_note(review, bool(omni))


def _review_note(review: dict, omni: bool) -> str:
    """The line under the graph: the engine, how it values moves, what to click."""
    return (f'<p class="review-note">Review by {escape(str(review.get("engine")))} '
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


def _script_json(obj) -> str:
    """JSON safe inside a <script> element."""
    return json.dumps(obj, separators=(",", ":")).replace("</", "<\\/")


def replay_page(start: Game, moves: Iterable[Move | str], *,
                names: Sequence[str] | None = None, title: str = "cuttle replay",
                info: Iterable[str] = (), viewer: int | None = None,
                review: dict[str, Any] | None = None,
                review_table: Sequence[tuple[str, Sequence[str]]] = ()) -> str:
    """The replay page of the game that starts as `start` (a Game, not changed) and
    plays `moves` (moves or their texts).  names: (P0, P1) shown on the table and in
    the move list; info: lines shown under the title; viewer: the view shown first
    (0, 1 or None for all cards); review: a game review of these moves as JSON
    (`cuttle.Review.as_dict()`), shown as an evaluation graph and labels, with the
    per-player figures' rows `review_table` (`Review.page()` gives both).  ValueError
    naming the first move that cannot be played."""
    viewer = check_player(viewer, "viewer", none="every card")
    g = start.copy()
    pictures: list[str] = []
    index: dict[str, int] = {}
    steps: list[list[int]] = []

    def picture(svg):
        if svg not in index:            # identical pictures are stored once
            index[svg] = len(pictures)
            pictures.append(svg)
        return index[svg]

    def add_step():
        steps.append([picture(table(g, v, names=names)) for v in VIEWERS])

    add_step()
    reviewed = {d["ply"]: d for d in review["decisions"]} if review else {}
    bounds = (review or {}).get("thresholds") or {}
    items = ['<li data-step="0"><span class="n"></span>start of the game</li>']
    turn = None
    for i, text in enumerate(moves, 1):
        p, t = g.to_move, g.turn_number
        move = play_recorded(g, i, str(text))
        if t != turn:
            turn = t
            items.append(f'<li class="turn">turn {t}</li>')
        badge = _review_badge(reviewed[i - 1], bounds) if i - 1 in reviewed else ""
        items.append(f'<li data-step="{i}"><span class="n">{i}.</span>'
                     f'<span class="p{p}">P{p}</span> {escape(str(move))}{badge}</li>')
        add_step()
    end = review.get("result") if review is not None else None
    if g.is_over or isinstance(end, dict):      # (a review knows why an unfinished game stopped)
        text = result_of(g)["text"] if g.is_over else str(end.get("text", ""))
        items.append(f'<li class="turn">{escape(text)}</li>')
    packed = base64.b64encode(gzip.compress(json.dumps(pictures).encode(), 9, mtime=0))
    vname = "all" if viewer is None else str(viewer)
    seat = [f"player {p}" + (f" ({names[p]})" if names else "") for p in (0, 1)]
    controls = (
        '<div class="controls"><button id="first" title="first (Home)">« first</button>'
        '<button id="prev" title="previous (left arrow)">‹ prev</button>'
        '<span class="pos" id="pos"></span>'
        '<button id="next" title="next (right arrow)">next ›</button>'
        '<button id="last" title="last (End)">last »</button></div>'
        '<div class="controls"><span class="label">view:</span>'
        f'<button data-viewer="0" title="as player 0 sees it (key 0)">{escape(seat[0])}'
        f'</button><button data-viewer="1" title="as player 1 sees it (key 1)">'
        f'{escape(seat[1])}</button>'
        '<button data-viewer="all" title="every card face up (key a)">all cards</button>'
        '</div>')
    graph, figures = review_parts(review, len(steps) - 1, review_table) if review else ("", "")
    moves = f'<nav class="moves"><ol>{"".join(items)}</ol></nav>'
    body = (f'<div class="replay"><div class="board-col">{controls}<div id="board">'
            f'<noscript>The replay needs JavaScript.</noscript></div>'
            '<p class="hint">← → step through the game · Home / End: start / end · '
            '0 / 1 / a: the view of player 0, player 1, or all cards · click a move'
            f'</p>{graph}</div>'
            + (f'<div class="review-side">{moves}{figures}</div>' if review else moves)
            + '</div>'
            f'<script type="application/json" id="cuttle-steps">{_script_json(steps)}'
            f'</script><script type="text/plain" id="cuttle-pictures">{packed.decode()}'
            f'</script>')
    return page(title, body, subtitle=" · ".join(info),
                style=STYLE + (REVIEW_STYLE if review else ""),
                script=SCRIPT + (REVIEW_SCRIPT if review else ""),
                body_attrs=f' data-viewer="{vname}" data-steps="{len(steps)}"'
                           + (' data-review="1"' if review else ""))


def record_page(rec: dict[str, Any], viewer: int | None = None) -> str:
    """The replay page of a validated game record (`cuttle.record`)."""
    players = rec.get("players", ["player 0", "player 1"])
    start = start_game(rec)
    info = [f"P0 {players[0]} against P1 {players[1]}", f"rules {start.rules}",
            seed_words(rec["seed"], rec.get("deal", 0)),
            quantity(len(rec['moves']), "move")]
    res = ending(rec, final_game(rec))      # (an older resignation's gets its winner)
    if res is not None:
        info.append(res["text"])
    return replay_page(start, rec["moves"], names=tuple(players), info=info, viewer=viewer)


def game_page(game: Game, names: Sequence[str] | None = None, viewer: int | None = None) -> str:
    """The replay page of a Game from its first move to now (its history)."""
    start = game.copy()
    while start.ply:
        start.undo()
    info = ([f"P0 {names[0]} against P1 {names[1]}"] if names else []) + \
        [f"rules {game.rules}", f"seed {game.seed}", quantity(game.ply, "move")]
    if game.is_over:
        info.append(result_of(game)["text"])
    return replay_page(start, game.moves, names=names, info=info, viewer=viewer)
