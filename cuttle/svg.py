"""The table as a picture: `table(game, viewer=None)` draws a game as SVG.

    >>> import cuttle, cuttle.svg
    >>> svg = cuttle.svg.table(cuttle.Game(seed=1), viewer=0)   # what player 0 sees

Everything is drawn here (cards, suits, backs; no image assets or web fonts), 600 px
wide.  What a `viewer` may not see follows `Game.render(viewer)`: a hand that is not
public shows the cards of it the viewer knows (`Game.observation(viewer)
.opponent_known`, e.g. a card a 9 sent back) face up, class ``known``, and the rest as
face-down backs, which carry no identity (no text, title or attribute names the card).
A frozen card (``nine="freeze"``) is iced, class ``frozen`` in the turn it may not be
played and ``frozen-next`` (dashed) before it, with its title saying so.  A card a
record or a position did not give (`cuttle.unseen.dealt_shown`: one deal of its ``?``
that fits it) has a dashed outline and a ``?`` in its corner, class ``dealt``, its title
saying so (`DEALT_TITLE`).  Every visible
card is one element ``<g class="card" data-card="7H">``; a face-down card is ``<g
class="card back">``; the root ``<svg>``
carries the public state as data attributes (``data-ply``, ``data-phase``,
``data-to-move``, ``data-hand0``, ``data-score0``, ``data-goal0``, ...) for scripts and
tests.  The viewer's side is at the bottom (player 0's with ``viewer=None``, unless
``bottom`` says otherwise).
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from .display import renders
from .game import Game
from .unseen import dealt_shown
from .validation import check_player

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["table", "WIDTH"]

WIDTH = 600
CW, CH = 42, 60                  # a card
PAD = 10
CHIP_W = 29                      # a scrap card
JACK_STEP = 20                   # each Jack lies this much lower on its point card
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

FELT, BAND, INK, MUTED = "#1d5b38", "#123c24", "#f4f1e6", "#a9cbb4"
FACE, EDGE, RED, BLACK = "#fffdf6", "#2a2a2a", "#c62828", "#1b1b1b"
GOLD, ICE, JOKER = "#ffc933", "#8fd8ff", "#6a1b9a"
BACK = "#27457e"
DEALT, DEALT_TITLE = "#8e5bb5", "not seen: one deal that fits"     # `dealt_shown`'s
# A frozen card's class, its title's words, and the outline of its ice.
FROZEN_MARKS = {"frozen": ("frozen", ""),
                "frozen-next": ("frozen next turn", ' stroke-dasharray="4 3"')}

RANK_TEXT = ("?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
# Suits drawn in a 10 x 10 box: clubs, diamonds, hearts, spades (the card index order).
_CLUB_LOBE = "M{x} {y}a2.3 2.3 0 1 0 4.6 0a2.3 2.3 0 1 0 -4.6 0Z"
SUIT_PATHS = (
    _CLUB_LOBE.format(x=2.7, y=2.8) + _CLUB_LOBE.format(x=0.2, y=6.3)
    + _CLUB_LOBE.format(x=5.2, y=6.3) + "M4.4 5.5L5.6 5.5L6.6 9.8L3.4 9.8Z",
    "M5 0.2L9 5L5 9.8L1 5Z",
    "M5 9.6C2 6.9 0.4 5.3 0.4 3.3C0.4 1.7 1.6 0.5 3 0.5C4 0.5 4.6 1.1 5 1.9"
    "C5.4 1.1 6 0.5 7 0.5C8.4 0.5 9.6 1.7 9.6 3.3C9.6 5.3 8 6.9 5 9.6Z",
    "M5 0.3C8 3.1 9.6 4.7 9.6 6.5C9.6 7.9 8.5 8.8 7.3 8.8C6.5 8.8 5.9 8.4 5.5 7.8"
    "L6.4 9.8L3.6 9.8L4.5 7.8C4.1 8.4 3.5 8.8 2.7 8.8C1.5 8.8 0.4 7.9 0.4 6.5"
    "C0.4 4.7 2 3.1 5 0.3Z",
)
STAR = "M5 .5L6.2 3.8L9.7 3.9L6.9 6L7.9 9.4L5 7.4L2.1 9.4L3.1 6L.3 3.9L3.8 3.8Z"
PHASE_HELP = {
    "main": "play a card or draw", "counter": "counter or let it resolve",
    "three": "take a card from the scrap", "four": "discard two cards",
    "five": "discard, then draw", "seven": "play a revealed card",
    "discard": "discard down to the hand limit", "block": "block with a 10 or let it be",
    "ten": "discard a card", "over": "",
}


@renders("svg", Game)             # Game._repr_svg_: Jupyter shows a game as its table
def table(game: Game, viewer: int | None = None, lastmove: bool = True, *,
          names: Sequence[str] | None = None, bottom: int | None = None,
          resigned: int | None = None) -> str:
    """The table of `game` as an SVG document (a string), 600 px wide.

    viewer: None shows every card (hands marked public or hidden); 0 or 1 shows what
    that player may see (the opponent's hidden hand face down but for the cards of it
    the player knows).  Frozen cards are iced (`Game.render`'s "frozen" marks).  lastmove: highlight
    the last move played (its text in the header, its cards outlined in gold).
    names: optional (name of P0, name of P1) shown beside the seats.
    bottom: the seat drawn at the bottom (default: the viewer's; player 0's for every
    card), e.g. a person's own seat when their finished game is shown with every card.
    resigned: the seat that resigned the game (a game the rules have not ended): the
    header gives the result, the other seat wins, and no one is "to decide".
    """
    viewer = check_player(viewer, "viewer", none="every card")
    bottom = check_player(bottom, "bottom", none="the viewer's seat")
    resigned = check_player(resigned, "resigned", none="no resignation")
    if names is not None and len(names) != 2:
        raise ValueError(f"names must be a pair (P0, P1), not {names!r}")
    if resigned is not None and game.is_over:
        raise ValueError("resigned: the rules have ended this game; no one resigned it")
    t = _Table(game, viewer, lastmove, names, resigned)
    return t.draw((viewer or 0) if bottom is None else bottom)


def _visible_hand(game, p, viewer):
    return viewer is None or viewer == p or game.is_public_hand(p)


def _last_move(game):
    """(the last move, who played it), or (None, None) for a game without history."""
    moves = game.moves
    if not moves:
        return None, None
    before = game.copy()
    before.undo()
    return moves[-1], before.to_move


def _step(n, width, cap):
    """Left-edge spacing for n cards of width CW in `width` pixels (overlap when tight)."""
    return cap if n < 2 else max(8.0, min(cap, (width - CW) / (n - 1)))


class _Table:
    def __init__(self, game, viewer, lastmove, names, resigned=None):
        self.g, self.viewer, self.names = game, viewer, names
        self.resigned = resigned
        self.over = game.is_over or resigned is not None
        self.winner = game.winner if resigned is None else 1 - resigned
        self.last, self.last_by = _last_move(game) if lastmove else (None, None)
        self.hot = set(self.last.cards) if self.last is not None else set()
        self.dealt = dealt_shown(game)
        # Freezes are public and what a viewer knows is in its observation: one home for
        # both, as Game.render reads them.
        self.obs = game.observation(0 if viewer is None else viewer)
        self.out = []

    # -- pieces ------------------------------------------------------------------------

    def suit(self, s, x, y, size, color):
        self.out.append(f'<use xlink:href="#cuttle-suit-{s}" fill="{color}" '
                        f'transform="translate({x:g},{y:g}) scale({size / 10:g})"/>')

    def card(self, c, x, y, extra="", frozen=""):
        """A face-up card (one element carrying its identity).  frozen: "" or a key of
        FROZEN_MARKS; extra "known" marks a known card of a hidden hand."""
        hot, dealt = c in self.hot, c in self.dealt
        cls = "card" + (" " + extra if extra else "") + (" last" if hot else "") \
            + (" " + frozen if frozen else "") + (" dealt" if dealt else "")
        words, dash = FROZEN_MARKS[frozen] if frozen else ("", "")
        notes = ", ".join(w for w in ("known" if "known" in extra.split() else "", words,
                                      DEALT_TITLE if dealt else "") if w)
        o = self.out
        o.append(f'<g class="{cls}" data-card="{c}" transform="translate({x:.1f},{y:.1f})">')
        o.append(f"<title>{escape(c.name)}{f' ({notes})' if notes else ''}</title>")
        o.append(f'<rect width="{CW}" height="{CH}" rx="4" fill="{FACE}" stroke="{EDGE}"/>')
        if c.is_joker:
            o.append(f'<text x="3" y="15" font-size="13" font-weight="bold" fill="{JOKER}" '
                     f'letter-spacing="-1">JK</text><path d="{STAR}" fill="{JOKER}" '
                     f'transform="translate({CW - 26},{CH - 28}) scale(2.2)"/>')
        else:
            color = RED if c.suit in (1, 2) else BLACK
            rank = RANK_TEXT[c.rank]
            o.append(f'<text x="3" y="15" font-size="{14 if len(rank) == 1 else 12}" '
                     f'font-weight="bold" fill="{color}" letter-spacing="-1">{rank}</text>')
            self.suit(c.suit, 3.5, 18, 9, color)
            if extra.startswith(("points", "jack")):   # visible under a Jack too
                self.suit(c.suit, 14 if len(rank) == 1 else 19, 5.5, 9, color)
            self.suit(c.suit, CW - 22, CH - 24, 19, color)
            if "perm" in extra and c.rank == 8:     # an 8 played as glasses
                o.append('<path class="glasses-icon" d="M12 28a4.5 4.5 0 1 0 9 0a4.5 4.5 0 '
                         '1 0 -9 0M23 28a4.5 4.5 0 1 0 9 0a4.5 4.5 0 1 0 -9 0M21 27.5h2" '
                         'fill="none" stroke="#444" stroke-width="1.6"/>')
        if "known" in extra.split():   # a hidden hand's card: an outline in the backs' blue
            o.append(f'<rect x="1.5" y="1.5" width="{CW - 3}" height="{CH - 3}" rx="3" '
                     f'fill="none" stroke="{BACK}" stroke-width="3"/>')
        if dealt:
            o.append(f'<rect x="2" y="2" width="{CW - 4}" height="{CH - 4}" rx="3" '
                     f'fill="none" stroke="{DEALT}" stroke-width="2" stroke-dasharray="4 3"/>'
                     f'<text x="5" y="{CH - 6}" font-size="12" font-weight="bold" '
                     f'fill="{DEALT}">?</text>')
        if frozen:
            o.append(f'<rect width="{CW}" height="{CH}" rx="4" fill="{ICE}" '
                     f'fill-opacity="0.45" stroke="#1e88e5" stroke-width="2"{dash}/>')
        if hot:
            o.append(f'<rect x="-2" y="-2" width="{CW + 4}" height="{CH + 4}" rx="5" '
                     f'fill="none" stroke="{GOLD}" stroke-width="3"/>')
        o.append("</g>")

    def back(self, x, y, extra=""):
        """A face-down card: no identity at all."""
        self.out.append(
            f'<g class="card back{" " + extra if extra else ""}" '
            f'transform="translate({x:.1f},{y:.1f})">'
            f'<rect width="{CW}" height="{CH}" rx="4" fill="{BACK}" stroke="{EDGE}"/>'
            f'<rect x="4" y="4" width="{CW - 8}" height="{CH - 8}" rx="2" fill="none" '
            f'stroke="#9fb4e0" stroke-width="1.2"/>'
            f'<path d="M8 {CH / 2}L{CW / 2} 10L{CW - 8} {CH / 2}L{CW / 2} {CH - 10}Z" '
            f'fill="#3c63a8" stroke="#9fb4e0" stroke-width="1"/></g>')

    def chip(self, c, x, y):
        """A scrap card: a small tile with its rank and suit."""
        hot, dealt = c in self.hot, c in self.dealt
        color = JOKER if c.is_joker else RED if c.suit in (1, 2) else BLACK
        rank = "JK" if c.is_joker else RANK_TEXT[c.rank]
        edge = f'stroke="{GOLD}" stroke-width="2.5"' if hot else \
            f'stroke="{DEALT}" stroke-width="1.5" stroke-dasharray="3 2"' if dealt else \
            'stroke="#555" stroke-width="0.8"'
        o = self.out
        o.append(f'<g class="card chip{" last" if hot else ""}{" dealt" if dealt else ""}" '
                 f'data-card="{c}" transform="translate({x:.1f},{y:.1f})"><title>'
                 f'{escape(c.name)}{f" ({DEALT_TITLE})" if dealt else ""}</title>'
                 f'<rect width="{CHIP_W}" height="17" rx="2.5" fill="{FACE}" {edge}/>'
                 f'<text x="2.5" y="12.5" font-size="11" font-weight="bold" fill="{color}" '
                 f'letter-spacing="-0.8">{rank}</text>')
        if not c.is_joker:
            self.suit(c.suit, CHIP_W - 10, 4, 8.5, color)
        o.append("</g>")

    def text(self, x, y, s, size=12, color=INK, anchor="start", weight="normal", cls=""):
        c = f' class="{cls}"' if cls else ""
        self.out.append(f'<text{c} x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{color}" '
                        f'text-anchor="{anchor}" font-weight="{weight}">{escape(s)}</text>')

    # -- rows --------------------------------------------------------------------------

    def row(self, cards, x, y, width, cap=CW + 4, extra=""):
        step = _step(len(cards), width, cap)
        for i, c in enumerate(cards):
            self.card(c, x + i * step, y, extra)

    def seat_label(self, p, y):
        """'P0 · name   score 9 / 21 [bar]   hand 5   ▶ to decide'."""
        g = self.g
        label = str(self.names[p]) if self.names else ""
        if len(label) > 17:                 # room up to the score
            label = label[:16] + "…"
        name = f"P{p}" + (f" · {label}" if label else "")
        self.text(PAD, y + 13, name, 14, weight="bold")
        score, goal = g.score(p), g.goal(p)
        bx = 200
        self.text(bx, y + 13, f"{score} / {goal}", 13, weight="bold", anchor="end",
                  cls=f"score{p}")
        frac = max(0.0, min(1.0, score / goal)) if goal > 0 else 1.0
        self.out.append(f'<rect x="{bx + 6}" y="{y + 4}" width="100" height="10" rx="5" '
                        f'fill="{BAND}" stroke="{MUTED}" stroke-width="0.8"/>')
        if frac > 0:
            self.out.append(f'<rect x="{bx + 6}" y="{y + 4}" width="{100 * frac:.1f}" '
                            f'height="10" rx="5" fill="{GOLD if frac >= 1 else "#e8e2c8"}"/>')
        hidden = not g.is_public_hand(p) and not _visible_hand(g, p, self.viewer)
        known = len(self.obs.opponent_known) if hidden else 0
        # short: the phase badge ("to decide: counter") starts at x 443
        hand = f"hand {self._hand_size(p)}" + (" · public" if g.is_public_hand(p) else
                                               f" · {known} known" if known else
                                               " · hidden" if hidden else "")
        self.text(bx + 116, y + 13, hand, 12, MUTED)
        if self.winner == p:
            self.badge(WIDTH - PAD, y, "WINS", GOLD, BAND)
        elif not self.over and g.to_move == p:
            self.badge(WIDTH - PAD, y, f"to decide: {g.phase}", GOLD, BAND)

    def _hand_size(self, p):
        return len(self.g.hand(p))

    def badge(self, right, y, s, fill, ink):
        w = 14 + 7.4 * len(s)
        self.out.append(f'<rect x="{right - w:.1f}" y="{y}" width="{w:.1f}" height="18" '
                        f'rx="9" fill="{fill}"/>')
        self.text(right - w / 2, y + 13, s, 12, ink, "middle", "bold")

    def hand(self, p, y):
        g = self.g
        marks = dict.fromkeys(self.obs.frozen_next[p], "frozen-next")
        marks.update(dict.fromkeys(self.obs.frozen[p], "frozen"))
        n = self._hand_size(p)
        step = _step(n, WIDTH - 2 * PAD, CW + 4)
        if _visible_hand(g, p, self.viewer):
            for i, c in enumerate(g.hand(p)):
                self.card(c, PAD + i * step, y, f"hand{p}", marks.get(c, ""))
        else:
            # Only what the viewer knows is drawn face up (first, in the observation's
            # order: nothing about where it lies in the hand); a freeze is always known.
            known = self.obs.opponent_known
            for i, c in enumerate(known):
                self.card(c, PAD + i * step, y, f"hand{p} known", marks.get(c, ""))
            for i in range(len(known), n):
                self.back(PAD + i * step, y, f"hand{p}")
        if not g.hand(p):
            self.text(PAD, y + CH / 2 + 4, "empty hand", 12, MUTED)

    def field(self, p, y):
        """Point cards (each with its Jacks lying on it) and permanents."""
        g = self.g
        perms = g.permanents(p)
        perm_w = 0 if not perms else min(240, CW + 34 * (len(perms) - 1))
        split = WIDTH - PAD - max(perm_w, 120)
        pts = g.points(p)
        step = _step(len(pts), split - 2 * PAD - 10, CW + 6)
        for i, c in enumerate(pts):
            x = PAD + i * step
            self.card(c, x, y, f"points{p}")
            for k, j in enumerate(g.jacks(c), 1):
                self.card(j, x, y + k * JACK_STEP, f"jack{p}")
        if not pts:
            self.text(PAD, y + CH / 2 + 4, "no point cards", 12, MUTED)
        self.out.append(f'<line x1="{split - 8}" y1="{y + 4}" x2="{split - 8}" '
                        f'y2="{y + CH - 4}" stroke="{MUTED}" stroke-opacity="0.5"/>')
        if perms:
            self.row(perms, split, y, WIDTH - PAD - split, CW + 4, f"perm{p}")
        else:
            self.text(split, y + CH / 2 + 4, "no permanents", 12, MUTED)

    def field_height(self, p):
        jacks = max([len(self.g.jacks(c)) for c in self.g.points(p)] + [0])
        return CH + jacks * JACK_STEP

    def middle(self, y):
        """Deck, scrap, the stack of announced cards and a 7's revealed cards."""
        g = self.g
        n_deck = len(g.deck)
        if n_deck:
            for k in range(min(3, (n_deck + 9) // 10) - 1, -1, -1):
                self.back(PAD + 2 * k, y + 16 - 2 * k, "deck")
        else:
            self.out.append(f'<rect x="{PAD}" y="{y + 16}" width="{CW}" height="{CH}" rx="4" '
                            f'fill="none" stroke="{MUTED}" stroke-dasharray="4 3"/>')
        self.text(PAD, y + 11, f"deck {n_deck}", 12, INK, weight="bold", cls="deck")
        scrap = g.scrap
        sx = PAD + CW + 24
        self.text(sx, y + 11, f"scrap {len(scrap)}", 12, INK, weight="bold", cls="scrap")
        per_row = 10
        for i, c in enumerate(scrap):
            self.chip(c, sx + (i % per_row) * (CHIP_W + 2), y + 16 + (i // per_row) * 19)
        x = sx + per_row * (CHIP_W + 2) + 14
        for label, cards in (("announced", g.stack), ("revealed (7)", g.revealed)):
            if not cards:
                continue
            self.text(x, y + 11, label, 12, GOLD if label == "announced" else INK,
                      weight="bold")
            step = _step(len(cards), WIDTH - PAD - x, 24)
            self.row(cards, x, y + 16, max(CW, step * (len(cards) - 1) + CW), 24,
                     "stack" if label == "announced" else "revealed")
            x += max(len(label) * 7.5 + 14, step * (len(cards) - 1) + CW + 12)

    def middle_height(self):
        rows = (len(self.g.scrap) + 9) // 10
        return 16 + max(CH, rows * 19) + 4

    # -- the whole table ---------------------------------------------------------------

    def header(self):
        g = self.g
        if g.is_over:
            who = "a draw" if g.winner is None else f"P{g.winner} wins"
            status = f"Game over: {who} ({g.end_reason}), turn {g.turn_number}"
        elif self.resigned is not None:
            status = (f"Game over: P{self.winner} wins (P{self.resigned} resigned), turn "
                      f"{g.turn_number}")
        else:
            help_ = PHASE_HELP.get(g.phase, "")
            status = (f"Turn {g.turn_number} · P{g.turn}'s turn · P{g.to_move} to "
                      f"decide: {g.phase}" + (f" ({help_})" if help_ else ""))
        self.out.append(f'<rect width="{WIDTH}" height="44" rx="8" fill="{BAND}"/>'
                        f'<rect y="20" width="{WIDTH}" height="24" fill="{BAND}"/>')
        self.text(PAD, 18, status, 13.5, weight="bold", cls="status")
        if self.last is not None:
            self.text(PAD, 36, "last move:", 12, MUTED)
            self.text(PAD + 68, 36, f"P{self.last_by} {self.last}", 12, GOLD, weight="bold",
                      cls="lastmove")
        view = "all cards" if self.viewer is None else f"seen by P{self.viewer}"
        self.text(WIDTH - PAD, 36, f"ply {g.ply} · {view}", 12, MUTED, "end")

    def draw(self, bottom: int) -> str:
        g, v = self.g, self.viewer
        top = 1 - bottom
        self.header()
        y = 52
        self.seat_label(top, y)
        y += 24
        self.hand(top, y)
        y += CH + 12
        self.field(top, y)
        y += self.field_height(top) + 10
        self.out.append(f'<line x1="0" y1="{y}" x2="{WIDTH}" y2="{y}" stroke="{MUTED}" '
                        f'stroke-opacity="0.35"/>')
        self.middle(y + 6)
        y += self.middle_height() + 12
        self.out.append(f'<line x1="0" y1="{y - 6}" x2="{WIDTH}" y2="{y - 6}" '
                        f'stroke="{MUTED}" stroke-opacity="0.35"/>')
        self.field(bottom, y)
        y += self.field_height(bottom) + 12
        self.hand(bottom, y)
        y += CH + 8
        self.seat_label(bottom, y)
        height = y + 26
        attrs = {
            "data-ply": g.ply, "data-turn-number": g.turn_number, "data-turn": g.turn,
            "data-phase": g.phase, "data-to-move": "" if g.to_move is None else g.to_move,
            "data-winner": "" if self.winner is None else self.winner,
            "data-resigned": "" if self.resigned is None else self.resigned,
            "data-viewer": "all" if v is None else v, "data-deck": len(g.deck),
            "data-scrap": len(g.scrap), "data-last-move": "" if self.last is None
            else str(self.last), "data-last-player": "" if self.last_by is None
            else self.last_by,
        }
        for p in (0, 1):
            attrs[f"data-hand{p}"] = self._hand_size(p)
            attrs[f"data-score{p}"] = g.score(p)
            attrs[f"data-goal{p}"] = g.goal(p)
        head = " ".join(f"{k}={quoteattr(str(val))}" for k, val in attrs.items())
        title = (f"Cuttle table, ply {g.ply}, {g.phase}; scores {g.score(0)}/{g.goal(0)} "
                 f"and {g.score(1)}/{g.goal(1)}")
        defs = "".join(f'<path id="cuttle-suit-{i}" d="{d}"/>' for i, d in enumerate(SUIT_PATHS))
        return (f'<svg xmlns="http://www.w3.org/2000/svg" '
                f'xmlns:xlink="http://www.w3.org/1999/xlink" class="cuttle-table" '
                f'width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" '
                f'font-family="{FONT}" {head}>'
                f"<title>{escape(title)}</title><defs>{defs}</defs>"
                f'<rect width="{WIDTH}" height="{height}" rx="8" fill="{FELT}"/>'
                + "".join(self.out) + "</svg>")
