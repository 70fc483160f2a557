"""The game's table as text (`Game.render`, ``str(game)``), a person's layout with the
viewer's side at the bottom; its picture is `cuttle.svg`.  A card a record or
a position did not give (`cuttle.unseen.dealt_shown`: one deal that fits it) ends with its
`DEALT_MARK`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..display import renders
from ..formatting import quantity
from ..game import Game
from ..unseen import DEALT_MARK, dealt_shown

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..cards import Card

__all__ = ["game_text"]


def _cards(cards: Iterable[Card], dealt: frozenset[Card]) -> str:
    return " ".join(str(c) + DEALT_MARK if c in dealt else str(c) for c in cards)


@renders("text", Game)
def game_text(game: Game, viewer: int | None = None) -> str:
    """`Game.render(viewer)`'s text (viewer checked there)."""
    lines = []
    if game.is_over:
        head = "draw" if game.winner is None else f"player {game.winner} wins"
        lines.append(f"Game over: {head} ({game.end_reason}) after "
                     f"{quantity(game.turn_number, 'turn')}")
    else:
        lines.append(f"Turn {game.turn_number}: player {game.turn}'s turn, "
                     f"player {game.to_move} to decide ({game.phase})")
    dealt = dealt_shown(game)
    for p in ((0, 1) if viewer == 1 else (1, 0)):
        lines.append(side(game, p, viewer, dealt))
    deck = f"deck {quantity(len(game.deck), 'card')}"
    if game.revealed:
        deck += f"  revealed by the 7: {_cards(game.revealed, dealt)}"
    lines.append(f"  {deck}   scrap ({len(game.scrap)}): {_cards(game.scrap, dealt) or '-'}")
    if game.stack:
        lines.append(f"  stack: {' '.join(game.stack)}")
    return "\n".join(lines)


def side(game: Game, p: int, viewer: int | None,
         dealt: frozenset[Card] = frozenset()) -> str:
    """Player p's score, points, permanents and hand, as `viewer` sees them, the cards
    of `dealt` marked."""
    pts = []
    for c in game.points(p):
        js = game.jacks(c)
        pts.append(f"{c}[{','.join(js)}]" if js else str(c))
    public = game.is_public_hand(p)
    if viewer is not None and viewer != p and not public:
        hand = f"{quantity(len(game.hand(p)), 'card')} (hidden)"
        known = game.observation(viewer).opponent_known
        if known:
            hand += f", known: {_cards(known, dealt)}"
    else:
        hand = _cards(game.hand(p), dealt) or "-"
        if public and not game.is_over:
            hand += " (public)"
    # A freeze is public (a 9's return): marked on a hidden hand as on a shown one.
    for mark, frozen in (("frozen", game.frozen(p)),
                         ("frozen next turn", game.observation(p).frozen_next[p])):
        if frozen:
            hand += f" {mark}: {' '.join(frozen)}"
    return (f"  P{p} score {game.score(p)}/{game.goal(p)}  points: {' '.join(pts) or '-'}"
            f"  permanents: {' '.join(game.permanents(p)) or '-'}\n      hand: {hand}")
