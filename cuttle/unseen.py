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
in words (`view_gap`, of a game), and `view_refusal` says why an analysis of such a
decision is refused; `cuttle.game.missing_view` and `cuttle.game.check_view`, which every
analysis of a decider's view applies, are their public entry points.  The mark survives
a determinization where the view sampled is the deal's (`sample_mark`), and position
text writes ``?`` again when asked (`dealt_not_named`); a pickled game's mark is
checked against the game (`check_dealt`).  This module reads games through
their public methods only, below `cuttle.game`, which imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import Card
from .validation import check_player

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .game import Game
    from .moves import Move
    from .redeal import Fitted

__all__ = ["ACTIVITIES", "DEALT_MARK", "DEALT_NOTE", "check_dealt", "dealt_not_named", "dealt_shown",
           "sample_mark", "sees_dealt", "view_gap", "view_refusal"]

# The mark of a card `dealt_shown` names, after it, in text (the table, the narration),
# and what such cards are, for a line beside them (after "the cards marked ...": the
# replay page draws them with a dashed outline and a '?' instead).
DEALT_MARK = "*"
DEALT_NOTE = ("were not given ('?' in the record or the position): they are one deal of "
              "them that fits what it gives (its seed's: another seed deals others), not "
              "the cards that were there")

# Why a card seen so is not given, by what held the '?' (a record's, by what its caller
# does with the view: `ACTIVITIES`).
_WHY = {"record": "{activity} from a player's view needs every card they saw before a "
                  "move named it (their hand, and the cards they saw come out of the "
                  "deck at their places in it)",
        "position": "the seed dealt them for its cards not seen ('?'), and another seed "
                    "deals others"}
# What is done with a player's view, as the words above name it.
ACTIVITIES = {"review": "a record reviewed", "analysis": "a decision analysed"}


def sees_dealt(fitted: Fitted | tuple[Game, frozenset[Card]], moves: Sequence[Move],
               player: int, upto: int | None = None, source: str = "record",
               activity: str = "review") -> str | None:
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
    or ``"position"`` (position text, the seed's deal: "in the position ...");
    `activity`, what is done with the view (`ACTIVITIES`: ``"review"``, ``"analysis"``),
    names it in a record's words."""
    player = check_player(player)
    if source not in _WHY:
        raise ValueError(f"source must be 'record' or 'position', not {source!r}")
    if activity not in ACTIVITIES:
        raise ValueError(f"activity must be 'review' or 'analysis', not {activity!r}")
    why = _WHY[source].format(activity=ACTIVITIES[activity])
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
                    f"give ({_where(g, seen, player)}): {why}")
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


def dealt_not_named(game: Game) -> frozenset[Card]:
    """The cards dealt for `game`'s ``?`` (``game.dealt_unseen``) that no move played
    has named: those a record or a position still does not give."""
    return game.dealt_unseen - {c for m in game.moves for c in m.cards}


def dealt_shown(game: Game) -> frozenset[Card]:
    """The cards of `game` that a table showing them marks as not given (`DEALT_NOTE`):
    of a game whose ``?`` were dealt, a record's or a position's (``dealt_from``), those
    dealt for them that no move played has named (`dealt_not_named`); none for any
    other game.  Only what a table already shows is marked: a card hidden from its
    viewer stays hidden."""
    return dealt_not_named(game) if game.dealt_from in ("record", "position") \
        else frozenset()


def view_gap(game: Game, player: int, activity: str = "review") -> str | None:
    """`cuttle.game.missing_view`'s work (its arguments checked there): where `player`
    first sees a card dealt for `game`'s ``?`` that is not given, in words, or None.
    Of a record (``game.dealt_from``), from its start to `game`'s position: its moves
    were played elsewhere, with cards the deal only stands for.  Of a position, in the
    position itself: a game played on from it is its own, and what its moves show
    later is that game's card, as a position's shuffled deck is.  `activity`: what is
    done with the view, in a record's words (`sees_dealt`)."""
    if not game.dealt_unseen:
        return None
    start = game.copy()
    while start.ply:
        start.undo()
    position = game.dealt_from == "position"
    return sees_dealt((start, game.dealt_unseen), game.moves, player,
                      0 if position else None, "position" if position else "record",
                      activity)


def view_refusal(game: Game, activity: str = "analysis") -> str | None:
    """Why an analysis of `game`'s decision is refused, in words (`cuttle.game.
    check_view`'s), or None: the decider's view is given whole (`view_gap`).  Of a
    record, the move and its player; of a position, what to do: write the cards the
    decider sees in place of its ``?``, or analyse the other player's decision where
    that view is given.  `activity`: what is refused, in a record's words
    (`sees_dealt`)."""
    p = game.to_move
    gap = None if p is None else view_gap(game, p, activity)
    if gap is None:
        return None
    if game.dealt_from != "position":
        return f"move {game.ply + 1} is player {p}'s, whose view the record does not " \
               f"give whole: {gap}"
    q, ply = 1 - p, game.ply
    head = (f"move {ply + 1} from the position is player {p}'s" if ply else
            f"player {p} is to decide in this position")
    other = "" if view_gap(game, q) is not None else \
        f", or analyse player {q}'s{'' if ply else f' (to_move: {q})'} instead"
    return (f"{head}, which does not give their view whole: {gap}; to analyse this "
            f"decision, write the cards player {p} sees in place of the position's "
            f"'?'{other}")


def sample_mark(game: Game, player: int) -> tuple[frozenset[Card], str | None]:
    """The mark (``dealt_unseen``, ``dealt_from``) of `game`'s determinization for
    `player` (`Game.determinize`): none where `player`'s view is given whole (every card
    they see is given, every other the sample's: a game of its own, as any game's
    sample); else the dealt cards no move has named and every card the sample deals
    anew (those `player` cannot place), what held the ``?`` kept, so that an analysis
    of `player`'s decision in the sample is refused as in the game wherever they see
    one of those cards."""
    if view_gap(game, player) is None:
        return frozenset(), None
    hidden = frozenset(game.observation(player).unknown_cards)
    return dealt_not_named(game) | hidden, game.dealt_from


def check_dealt(game: Game, dealt: object, dealt_from: object
                ) -> tuple[frozenset[Card], str | None]:
    """The mark (``dealt_unseen``, ``dealt_from``) a pickle gives `game`, checked
    against it: card texts of its rules' deck, each once, and what held them, "record"
    or "position" (None without cards); ValueError saying what is wrong otherwise.
    (Where the cards lie is not checked: a determinization's sample, a position, marks
    cards the game's moves put anywhere, the scrap too, without naming them.)"""
    if not (isinstance(dealt, (list, tuple)) and all(isinstance(c, str) for c in dealt)):
        raise ValueError(f"its cards dealt for '?': a list of card texts, not "
                         f"{type(dealt).__name__}" + (" holding other things" if
                                                      isinstance(dealt, (list, tuple))
                                                      else ""))
    try:
        cards = [Card.parse(c) for c in dealt]
    except ValueError as e:
        raise ValueError(f"its cards dealt for '?': {e}") from None
    n = game.rules.n_cards
    outside = [c for c in cards if c.index >= n]
    if outside:
        raise ValueError(f"its cards dealt for '?': {outside[0]}, not a card of its "
                         f"rules' deck of {n} cards")
    seen: set[Card] = set()
    twice = next((c for c in cards if c in seen or seen.add(c)), None)
    if twice is not None:
        raise ValueError(f"its cards dealt for '?': {twice} twice")
    if dealt_from not in (("record", "position") if cards else ("record", "position", None)):
        raise ValueError(f"what held its '?' is 'record' or 'position', not {dealt_from!r}")
    return frozenset(cards), dealt_from if cards else None
