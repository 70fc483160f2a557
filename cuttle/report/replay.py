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
page also has the review's headline above the table (where the game was lost), an
evaluation graph under it (a click on a point jumps to that move), each reviewed move's
label and the best move in the move list, and the per-player figures; that part is its own module (`review_block`), added to the page
only with a review.
"""

from __future__ import annotations

import base64
import gzip
import json
from html import escape
from typing import TYPE_CHECKING, Any

from ..formatting import quantity
from ..narration import narrate
from ..record import final_game, play_recorded, seed_of, seed_words, start_game
from ..record_result import ending, resigner, result_of
from ..svg import table
from ..unseen import DEALT_MARK, DEALT_NOTE, dealt_shown
from ..validation import check_player
from .pages import page
from .review_block import (REVIEW_SCRIPT, REVIEW_STYLE, change_note, review_badge,
                           review_head, review_parts, unvalued_badge)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

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
.dealt-note{color:#6b3f8f;font-size:13px;margin:0 0 10px 0}
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
.moves .effect{display:block;margin-left:34px;color:#666;font-size:11px;font-weight:400;
 white-space:normal}
.moves .effect.v0,.moves .effect.v1,.moves .effect.vall{display:none}
body[data-viewer="0"] .moves .effect.v0,body[data-viewer="1"] .moves .effect.v1,
body[data-viewer="all"] .moves .effect.vall{display:block}
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


def _effects(before: Game, after: Game) -> str:
    """What a move did, as each view of the page saw it (`cuttle.narration`, the
    players named P0 and P1 in every view): a line per distinct text, shown with its
    views only (the page's style picks them by the body's data-viewer)."""
    texts: dict[str, list[str]] = {}
    for v in VIEWERS:
        text = narrate(before, after, v, names=("P0", "P1"))
        if text:
            texts.setdefault(text, []).append("all" if v is None else str(v))
    if len(texts) == 1 and len(next(iter(texts.values()))) == len(VIEWERS):
        return f'<span class="effect">{escape(next(iter(texts)))}</span>'
    return "".join(f'<span class="effect {" ".join("v" + v for v in views)}">'
                   f'{escape(text)}</span>' for text, views in texts.items())


def _script_json(obj) -> str:
    """JSON safe inside a <script> element."""
    return json.dumps(obj, separators=(",", ":")).replace("</", "<\\/")


def _move_items(g: Game, moves: Iterable[Move | str], review: dict[str, Any] | None,
                after_each: Callable[[], None]) -> list[str]:
    """The move list's items of `moves` played on `g` (`after_each` after each move):
    a turn's heading, each move with what it did, and with a review its label (or why
    it is not valued) and the change across a stretch not valued; the result last."""
    reviewed = {d["ply"]: d for d in review["decisions"]} if review else {}
    bounds = (review or {}).get("thresholds") or {}
    changes: dict[int, list[dict]] = {}     # under the last move of a stretch not valued
    for b in (review or {}).get("between", []):
        if b["unreviewed_moves"]:
            changes.setdefault(b["moves"][-1], []).append(b)
    items = ['<li data-step="0"><span class="n"></span>start of the game</li>']
    turn = None
    for i, text in enumerate(moves, 1):
        p, t = g.to_move, g.turn_number
        before = g.copy()
        move = play_recorded(g, i, str(text))
        if t != turn:
            turn = t
            items.append(f'<li class="turn">turn {t}</li>')
        badge = (review_badge(reviewed[i - 1], bounds) if i - 1 in reviewed
                 else unvalued_badge(p, review.get("reviewed_players") or [0, 1]) if review
                 else "")
        badge += "".join(change_note(b) for b in changes.get(i, ()))
        items.append(f'<li data-step="{i}"><span class="n">{i}.</span>'
                     f'<span class="p{p}">P{p}</span> {escape(str(move))}{badge}'
                     f'{_effects(before, g)}</li>')
        after_each()
    end = review.get("result") if review is not None else None
    if g.is_over or isinstance(end, dict):      # (a review knows why an unfinished game stopped)
        text = result_of(g)["text"] if g.is_over else str(end.get("text", ""))
        items.append(f'<li class="turn">{escape(text)}</li>')
    return items


def replay_page(start: Game, moves: Iterable[Move | str], *,
                names: Sequence[str] | None = None, title: str = "cuttle replay",
                info: Iterable[str] = (), viewer: int | None = None,
                review: dict[str, Any] | None = None,
                review_table: Sequence[tuple[str, Sequence[str]]] = (),
                resigned: int | None = None) -> str:
    """The replay page of the game that starts as `start` (a Game, not changed) and
    plays `moves` (moves or their texts).  names: (P0, P1) shown on the table and in
    the move list; info: lines shown under the title; viewer: the view shown first
    (0, 1 or None for all cards); review: a game review of these moves as JSON
    (`cuttle.Review.as_dict()`), shown as an evaluation graph and labels, with the
    per-player figures' rows `review_table` (`Review.page()` gives both); resigned: the
    seat that resigned after the last move (its table gives the result, `svg.table`).
    ValueError naming the first move that cannot be played."""
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
    items = _move_items(g, moves, review, add_step)
    if resigned is not None:            # the last table: the result, not who was to decide
        steps[-1] = [picture(table(g, v, names=names, resigned=resigned)) for v in VIEWERS]
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
    dealt = (f'<p class="dealt-note">The cards drawn with a dashed outline and a ? (in '
             f'the moves, marked {DEALT_MARK}) {escape(DEALT_NOTE)}.</p>'
             if dealt_shown(start) else "")
    body = ((review_head(review) if review else "") + dealt
            + f'<div class="replay"><div class="board-col">{controls}<div id="board">'
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
            seed_words(seed_of(rec), rec.get("deal", 0)),
            quantity(len(rec['moves']), "move")]
    end = final_game(rec)
    res = ending(rec, end)      # (an older resignation's gets its winner)
    if res is not None:
        info.append(res["text"])
    return replay_page(start, rec["moves"], names=tuple(players), info=info, viewer=viewer,
                       resigned=resigner(rec, end))


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
