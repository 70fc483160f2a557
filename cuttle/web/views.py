"""What the browser receives: the person's view of a game as JSON, and the pages.

Nothing here reads a card the person may not see.  The JSON is built from
`Game.observation(seat)` (own hand, the table, sizes, cards known to be in the
opponent's hand or on the deck), the table drawn by `cuttle.svg.table(game,
viewer=seat)` (which never writes a hidden card), the person's own legal moves (only
while it is their decision) and the moves played, which both players saw, each with
what it did as the person saw it (`cuttle.narration`, which names only the cards the
person may know).  The seed, which would give away the whole deal, is sent only once
the game is finished (with the game record), when the table shows the bot's hand too.
"""

from __future__ import annotations

import json
from html import escape
from typing import TYPE_CHECKING, Any

from .._version import __version__
from ..hints import hint_words
from ..policies import DEFAULT_ISMCTS_ITERATIONS
from ..record_result import result_of
from ..rules import FLAGS, PRESETS, Rules
from ..svg import table
from .sessions import BOTS

if TYPE_CHECKING:
    from ..analysis import Analysis
    from ..game import Game
    from ..moves import Move
    from ..observation import Observation
    from .sessions import Session

__all__ = ["analysis_view", "game_page", "start_page", "state_view"]

# The start page's words for the bots the app offers (sessions.BOTS, their one list).
BOT_TEXT = {"random": "", "greedy": "one move ahead", "expert": "weighs your best reply",
            "ismcts": "search: choose its strength",
            "ismcts-infer": "search that reads your moves: choose its strength"}


def move_view(m: Move) -> dict[str, Any]:
    return {"text": str(m), "verb": m.verb, "cards": [str(c) for c in m.cards]}


def observation_view(o: Observation) -> dict[str, Any]:
    """An Observation as JSON (cards as text)."""
    cards = lambda cs: [str(c) for c in cs]     # noqa: E731
    return {
        "player": o.player, "phase": o.phase, "turn": o.turn, "to_move": o.to_move,
        "hand": cards(o.hand), "opponent_hand_size": o.opponent_hand_size,
        "opponent_known": cards(o.opponent_known),
        "opponent_hand_public": o.opponent_hand_public,
        "points": [[[str(c), cards(js)] for c, js in side] for side in o.points],
        "permanents": [cards(side) for side in o.permanents], "scrap": cards(o.scrap),
        "deck_size": o.deck_size, "deck_known": [[d, str(c)] for d, c in o.deck_known],
        "revealed": cards(o.revealed), "stack": cards(o.stack),
        "target": None if o.target is None else str(o.target),
        "frozen": [cards(side) for side in o.frozen],
        "frozen_next": [cards(side) for side in o.frozen_next], "scores": list(o.scores),
        "goals": list(o.goals), "winner": o.winner, "is_over": o.is_over,
    }


def names(session: Session) -> tuple[str, str]:
    seats = ["you", "you"]
    seats[1 - session.human] = session.bot_name
    return seats[0], seats[1]


def result_view(session: Session) -> dict[str, Any] | None:
    if not session.finished:
        return None
    g = session.game
    res = result_of(g, session.stop_status(), resigned=session.human)
    if session.status == "resigned":        # (a result: the bot wins)
        outcome, text = "resigned", f"{session.bot_name} wins (you resigned)"
    elif g.winner is None:
        outcome, text = "draw", f"a draw ({g.end_reason})"
    elif g.winner == session.human:
        outcome, text = "won", f"you win ({g.end_reason})"
    else:
        outcome, text = "lost", f"{session.bot_name} wins ({g.end_reason})"
    return {"outcome": outcome, "text": text, "winner": res["winner"],
            "end_reason": res["end_reason"], "turns": res["turns"], "scores": res["scores"],
            "seed": session.settings.seed}


def state_view(session: Session) -> dict[str, Any]:
    """The person's view of the game: everything the game page shows."""
    g: Game = session.game
    me = session.human
    obs = g.observation(me)
    mine = session.human_to_move()
    history = [{"ply": i + 1, "player": p, "move": str(m), "effect": e} for i, (m, p, e)
               in enumerate(zip(g.moves, session.movers, session.effects))]
    return {
        "id": session.id, "version": __version__, "status": session.status,
        "rules": str(g.rules), "warning": g.rules.degenerate_warning(),
        "bot": session.bot_name, "you": me,
        "ply": g.ply, "turn_number": g.turn_number, "phase": g.phase,
        "to_move": g.to_move, "your_decision": mine, "bot_to_move": session.bot_to_move(),
        "thinking": session.control is not None,
        "legal": [move_view(m) for m in g.legal_moves] if mine else [],
        "can_undo": not session.finished and bool(session.decisions),
        "history": history, "last": history[-1] if history else None,
        "observation": observation_view(obs),
        # (once finished, every card: the bot's hand face up, as the record gives it)
        "svg": table(g, viewer=None if session.finished else me, names=names(session),
                     bottom=me, resigned=me if session.status == "resigned" else None),
        "result": result_view(session),
        "review": review_state(session),
    }


def review_state(session: Session) -> dict[str, Any] | None:
    """The review's part of the state (None before the end of the game): whether a
    review is running and how far it is, and whether one is done (complete or not)."""
    if not session.finished:
        return None
    job, done = session.reviewing, session.review
    return {"running": job is not None,
            "done": job.progress[0] if job is not None else None,
            "total": job.progress[1] if job is not None else None,
            "reviewed": done is not None, "complete": bool(done and done.complete),
            "page": f"/game/{session.id}/review" if done is not None else None}


def analysis_view(a: Analysis, game_ply: int) -> dict[str, Any]:
    """A hint: the analysis as `cuttle analyse` prints it, and as data, without its seed
    (`Analysis.without_seed`: it would give away the deal), with `engine`, the words
    saying which engine valued it (`hints.hint_words`)."""
    bare = a.without_seed()
    d = bare.as_dict()
    del d["seed"]                       # (None there: no key at all)
    d.update(ply=game_ply, best=str(a.best), text=str(bare), hint=a.hint(),
             close_to_best=[str(m) for m in a.close_to_best], engine=hint_words(a))
    return d


# -- pages ------------------------------------------------------------------------------

def _page(title: str, body: str, *, script: str, body_attrs: str = "") -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title><link rel=\"icon\" href=\"data:,\">"
            "<link rel=\"stylesheet\" href=\"/static/style.css\"></head>"
            f"<body{body_attrs}><header class=\"top\"><h1><a href=\"/\">cuttle</a> "
            f"<span>{escape(title)}</span></h1></header><main>{body}</main>"
            f"<footer>cuttle {escape(__version__)} · a local server: the bot runs on "
            f"this machine</footer>"
            f"<script src=\"/static/{script}\"></script></body></html>\n")


def _json_script(id_: str, obj: Any) -> str:
    text = json.dumps(obj, separators=(",", ":")).replace("</", "<\\/")
    return f'<script type="application/json" id="{id_}">{text}</script>'


def _flag_input(f) -> str:
    name = escape(f.name)
    if f.kind == "bool":
        opts = ["true", "false"]
    elif f.kind == "choice":
        opts = list(f.values)
    else:
        ph = {"goals": "e.g. 15,14,10,7,5", "deal": "e.g. 6,6"}.get(f.kind, "e.g. 7, or none")
        return (f'<input type="text" id="flag-{name}" data-flag="{name}" '
                f'placeholder="{ph}" aria-label="{name}" autocomplete="off">')
    options = '<option value="">(preset)</option>' + "".join(
        f'<option value="{escape(v)}">{escape(v)}</option>' for v in opts)
    return f'<select id="flag-{name}" data-flag="{name}" aria-label="{name}">{options}</select>'


def start_page(start_token: str) -> str:
    """The page that starts a game."""
    presets = "".join(
        f'<option value="{escape(p)}"{" selected" if p == "classic" else ""}>'
        f'{escape(p)}: {escape(text)}</option>' for p, (_, text) in PRESETS.items())
    flags = "".join(
        f'<tr><th scope="row"><label for="flag-{escape(f.name)}">{escape(f.name)}</label>'
        f'</th><td>{_flag_input(f)}</td><td class="muted">{escape(f.text)}; classic '
        f'{escape(f.format(f.classic))}, cuttle.cards {escape(f.format(f.cuttle_cards))}'
        f'</td></tr>' for f in FLAGS.values())
    defaults = {p: {k: FLAGS[k].format(v) for k, v in vals.items()}
                for p, (vals, _) in PRESETS.items()}
    bots = "".join(f'<option value="{b}"{" selected" if b == "expert" else ""}>{b}'
                   f'{f" ({BOT_TEXT[b]})" if BOT_TEXT[b] else ""}</option>' for b in BOTS)
    body = f"""
<form id="start" class="card" autocomplete="off">
  <h2>A new game</h2>
  <div class="row"><label for="preset">Rules</label>
    <select id="preset" name="preset">{presets}</select></div>
  <details id="house"><summary>House rules: change any flag</summary>
    <table class="flags">{flags}</table></details>
  <div class="row"><label for="rules-text">or rule text</label>
    <input type="text" id="rules-text" name="rules" placeholder="e.g. cuttle.cards four=random hand_limit=7"></div>
  <p class="rules-preview">Rules: <output id="rules-preview">classic</output>
    <span id="rules-error" class="error" role="alert"></span></p>
  <p id="rules-warning" class="warning" role="status"></p>
  <div class="row"><label for="bot">Opponent</label>
    <select id="bot" name="bot">{bots}</select></div>
  <div class="row" id="strength-row"><label for="strength">Search strength</label>
    <input type="range" id="strength" min="0" max="8" step="1" value="4"
      aria-describedby="strength-value">
    <output id="strength-value">{DEFAULT_ISMCTS_ITERATIONS:,} iterations</output></div>
  <fieldset class="row"><legend>Your seat</legend>
    <label><input type="radio" name="seat" value="0" checked> player 0 (moves first; 5 cards unless the deal says otherwise)</label>
    <label><input type="radio" name="seat" value="1"> player 1 (6 cards unless the deal says otherwise)</label></fieldset>
  <div class="row"><label for="seed">Seed</label>
    <input type="text" id="seed" name="seed" inputmode="numeric" placeholder="random"></div>
  <details><summary>Start from a position (optional)</summary>
    <textarea id="position" name="position" rows="3" placeholder="hands: 2C 9H 7D / 4H 8D QS; points: TC / 7S; rest: deck"></textarea>
  </details>
  <p><button type="submit" id="go">Play</button>
    <span id="start-error" class="error" role="alert"></span></p>
</form>
<section class="card about"><h2>How to play</h2>
<p>Click a card of your hand, then what to do with it (points, one-off, permanent) and
its target; click the deck to draw. Every legal move is also listed as a button, for the
keyboard. <b>Undo</b> takes back your last decision, <b>hint</b> ranks your moves by
playouts from what you can see. The bot sees only what its seat may know.</p></section>
{_json_script("presets", defaults)}"""
    return _page("play against a bot", body, script="start.js",
                 body_attrs=f' data-start-token="{escape(start_token)}"')


def game_page(session: Session) -> str:
    """The page of one game (its state is embedded and then fetched as JSON)."""
    body = f"""
<div class="game">
  <section id="over" class="card over" hidden><h2 id="result"></h2>
    <p><button id="download" type="button">download the game record</button></p>
    <p class="muted">Replay it with <code>cuttle replay FILE --step</code> or
      <code>cuttle replay FILE --html page.html</code>.</p>
    <div id="review"></div></section>
  <div class="board-col">
    <div id="status" class="status" role="status" aria-live="polite"></div>
    <p id="rules-warning" class="warning"></p>
    <div id="thinking" class="thinking" hidden><span class="spinner"></span>
      <span id="thinking-text">thinking…</span>
      <button id="stop" type="button">stop: play now</button></div>
    <div id="board" aria-label="the table"></div>
    <div id="choices" class="choices" aria-label="what to do"></div>
    <p id="message" class="error" role="alert"></p>
  </div>
  <div class="side-col">
    <div class="controls">
      <button id="undo" type="button">undo</button>
      <button id="hint" type="button">hint</button>
      <button id="resign" type="button">resign</button>
      <label class="auto"><input type="checkbox" id="auto" checked> play forced moves</label>
      <a href="/" class="new">new game</a>
    </div>
    <section class="card"><h2>Your legal moves</h2>
      <ol id="legal" class="legal"></ol></section>
    <section id="hint-box" class="card" hidden><h2>Hint</h2><div id="hint-body"></div></section>
    <section class="card"><h2>Moves</h2><ol id="history" class="history"></ol></section>
  </div>
</div>
{_json_script("initial-state", state_view(session))}"""
    s = session.settings
    title = f"you (P{s.seat}) against {s.bot} · {s.rules}"
    return _page(title, body, script="game.js",
                 body_attrs=f' data-game="{escape(session.id)}" '
                            f'data-token="{escape(session.token)}"')


def rules_view(rules: Rules) -> dict[str, Any]:
    """The rules as the start page's preview shows them, with the warning of rules under
    which every game is a draw (`Rules.degenerate_warning`; None for any other)."""
    return {"rules": str(rules), "preset": rules.preset, "json": rules.to_json(),
            "warning": rules.degenerate_warning()}
