"""Cards not seen (``?``): where a player's view of a game whose ``?`` were dealt is
the deal's rather than what was written.

A record of a game played elsewhere may write ``?`` for the cards its player did not
see (`cuttle.record`); its replay deals them so that its moves can be played
(`cuttle.redeal.fit_unseen`), and the games it replays know the cards so dealt
(``Game.dealt_unseen``).  A player who, at some step, sees one of those cards before
any move names it (their hand's ``?``, a draw the deck does not list, a hand shown by a
glasses-8) saw what the record does not say: another deal the moves allow could show
them another card there.  Position text may hold ``?`` too (`cuttle.position`): the seed
deals them, and a player who sees one in the position itself (their hand's ``?``) sees
the seed's cards, which another seed would make others.  `sees_dealt` finds that step,
in words; `cuttle.game.missing_view` and `cuttle.game.check_view`, which every analysis
of a decider's view applies, read it.  This module reads games through their public methods
only, below `cuttle.game`, which imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .validation import check_player

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .cards import Card
    from .game import Game
    from .moves import Move
    from .redeal import Fitted

__all__ = ["sees_dealt"]

# Why a card seen so is not given, by what held the '?'.
_WHY = {"record": "a record reviewed from a player's view gives every card they saw "
                  "before a move named it (their hand, and the cards they saw come out "
                  "of the deck at their places in it)",
        "position": "the seed dealt them for its cards not seen ('?'), and another seed "
                    "deals others"}


def sees_dealt(fitted: Fitted | tuple[Game, frozenset[Card]], moves: Sequence[Move],
               player: int, upto: int | None = None, source: str = "record") -> str | None:
    """Where `player`, in the game `fitted` starts and `moves` play, sees a card of
    `fitted.unseen` that neither the position nor a move (this one or one before)
    names, in words: what they saw there would be the deal's, not the record's, so
    another deal of the cards not seen that the moves allow may show them other cards.
    None when they see none such at any step (their view is then the same in every
    such deal): at each step, the cards not seen that no move has named are hidden
    from them, or all of them are in one hand that they see (by elimination: a hand
    is a set), or all the cards not seen were in one hand at the start (then every
    deal of them is the same).  `fitted`: a `cuttle.redeal.Fitted`, or any pair of the
    start and the cards dealt.  `upto`: the steps up to the position after that many
    moves only (default: every step).  `source`, what held the ``?``, words it:
    ``"record"`` (at the start, after move K: "... that the record does not give ...")
    or ``"position"`` (position text, the seed's deal: "in the position ...")."""
    player = check_player(player)
    if source not in _WHY:
        raise ValueError(f"source must be 'record' or 'position', not {source!r}")
    start, unseen = fitted
    g, named = start.copy(), set()
    if any(unseen <= set(g.hand(q)) for q in (0, 1)):
        return None
    for k in range(len(moves) + 1 if upto is None else upto + 1):
        loose = set(unseen) - named
        seen = loose - set(g.observation(player).unknown_cards)
        if seen and not (seen == loose and any(loose <= set(g.hand(q)) for q in (0, 1))):
            first = "in the position" if source == "position" else "at the start"
            when = first if not k else f"after move {k} ({str(moves[k - 1])!r})"
            return (f"{when} player {player} sees {_count(seen)} that the {source} does not "
                    f"give ({_where(g, seen, player)}): {_WHY[source]}")
        if k < len(moves):
            named |= set(moves[k].cards)
            g.play(moves[k])
    return None


def _count(cards: set[Card]) -> str:
    return "a card" if len(cards) == 1 else f"{len(cards)} cards"


def _where(g: Game, cards: set[Card], player: int) -> str:
    """Where `cards` lie in `g`, in words, as `player` would be told."""
    places = [(set(g.hand(player)), "in their own hand"),
              (set(g.hand(1 - player)), f"in player {1 - player}'s hand"),
              (set(g.revealed), "revealed from the deck"),
              (set(g.deck), "on the deck"), (set(g.scrap), "in the scrap")]
    out = [words for held, words in places if held & cards]
    return ", ".join(out) or "on the table"
