"""Taking moves back without a peek: the cards hidden from a player, dealt again.

A person who takes back a draw has seen the card it brought; played again, the draw
would bring the same card.  So when an undo returns to a position where cards the
person saw on the line taken back (a draw, a 7's reveal, the bot's reply) are hidden
from them again, `Sightings.take_back` deals those hidden cards anew: the deck order and
the bot's hand, as far as the person cannot see it.

A game is its start and its moves (its record replays them), so a re-deal is a new
start, not a change made in the middle of the game: `redeal` permutes the cards hidden
from the player among their places in the start (the opponent's hand and the deck) and
plays the same moves again, keeping a permutation only if every move is still legal
and the player sees exactly what they saw at every step (their observation, compared
whole).  Cards hidden from the player now were hidden all along (a player's knowledge
has perfect recall), so most permutations keep; those that do not are the ones the
player's view rules out (a pass that shows the bot held no playable card), and a few
tries find another.  Under ``four=random`` a 4's random discards are drawn by the game's
random stream by their place in the victim's hand, and a start written as position
text draws from another stream than a seed's deal: after such discards a new deal may
not show them again, and then none is found (`Sightings.take_back` refuses the undo).
The new game has the same moves, history and seed; only its start, written as position
text, differs, so its record replays it as any game that starts from a position.  The
bot is handed nothing new: its search trees, kept for the old start, are dropped when
they no longer follow the game (`cuttle._decide.SearchTrees`), and it sees the new deal
only as its own hand.  Its record says so (`Sightings.redealt`, the record's
``redealt``): the moves played before a re-deal were chosen on the earlier deal, the
bot's with the cards it held there.

This is `Game.determinize` (`cuttle._hidden`) for a game with a history: a
determinization deals the hidden cards of one position and drops the history, which a
game played on (undone further, recorded, reviewed) needs.  Its deal is drawn from the
seed it is given, by rejection, so a session stays reproducible from its seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import IllegalMoveError
from .game import Game, check_game
from .position import parse_text
from .seeding import check_seed, derive
from .validation import check_int, check_player

if TYPE_CHECKING:
    from .cards import Card

__all__ = ["REDEAL_TRIES", "NoRedeal", "Redealt", "Sightings", "hidden_cards", "redeal"]

REDEAL_TRIES = 64           # deals tried before a re-deal is given up
REDEAL_KEY = 0x726564656164  # derive(seed, REDEAL_KEY, k): a session's k-th re-deal


def hidden_cards(game: Game, player: int) -> frozenset[Card]:
    """The cards `player` cannot place in `game` (its observation's unknown cards)."""
    return frozenset(game.observation(player).unknown_cards)


def redeal(game: Game, player: int, seed: int, cards: frozenset[Card] | None = None,
           tries: int = REDEAL_TRIES) -> Game | None:
    """A game `player` cannot tell from `game` whose `cards` (default: every card hidden
    from `player` now) are dealt anew: its start with those cards permuted among their
    places there (the opponent's hand and the deck), uniformly, then `game`'s moves,
    checked: every move legal and `player`'s observation the same as in `game` before
    and after each one.  The deal is drawn from `seed`; None when none of `tries`
    permutations keeps (or when `game` started where position text cannot say).  The
    new game keeps `game`'s seed, move cap and moves; `game` is not changed."""
    check_game(game)
    player = check_player(player)
    seed = check_seed(seed)
    hidden = hidden_cards(game, player)
    cards = hidden if cards is None else frozenset(cards)
    if not cards <= hidden:
        raise ValueError("only cards hidden from the player can be dealt again")
    start = game.copy()
    while start.ply:
        start.undo()
    try:
        kw = parse_text(start.position_text())
    except ValueError:           # (a start the text cannot carry: Game.from_run's)
        return None
    opp, names = 1 - player, {str(c) for c in cards}
    places = [list(kw["hands"][opp]), list(kw["deck"])]
    if names - {c for zone in places for c in zone}:
        return None              # (a hidden card that was not hidden at the start)
    views = _views(game, player)
    pool = sorted(names)
    rng = random.Random(seed)
    for _ in range(tries):
        dealt = pool[:]
        rng.shuffle(dealt)
        new = dict(zip(pool, dealt))
        hands = list(kw["hands"])
        hands[opp] = [new.get(c, c) for c in places[0]]
        other = dict(kw, hands=tuple(hands), deck=[new.get(c, c) for c in places[1]],
                     seed=game.seed)
        g = _replayed(other, game, player, views)
        if g is not None:
            return g
    return None


def _views(game: Game, player: int) -> list:
    """`player`'s observation at every step of `game`, from its start."""
    g, out = game.copy(), []
    while True:
        out.append(g.observation_array(player))
        if not g.ply:
            return out[::-1]
        g.undo()


def _replayed(kw: dict, game: Game, player: int, views: list) -> Game | None:
    """The game of start `kw` after `game`'s moves, if `player` sees `views` all along."""
    try:
        g = Game.from_position(**kw)
    except ValueError:
        return None
    g.max_moves = game.max_moves
    for view, move in zip(views, game.moves):
        if not (g.observation_array(player) == view).all():
            return None
        try:
            g.play(move)
        except IllegalMoveError:
            return None
    return g if (g.observation_array(player) == views[-1]).all() else None


@dataclass(frozen=True)
class Redealt:
    """What an undo dealt again: `peeked`, the cards the player had seen that the undo
    hid again; `dealt`, the number of cards dealt anew; `hand`, whether the opponent's
    hand was among them (False: the deck alone, when only deck cards had been seen and
    no deal of the hand too agreed with what the player saw)."""

    peeked: frozenset[Card]
    dealt: int
    hand: bool


class NoRedeal(ValueError):
    """An undo refused: it would show the player cards hidden from them again, and no
    new deal of those cards agrees with everything the player saw in the game."""


class Sightings:
    """What `player` has seen of the cards in a session's game, on every line played,
    the lines taken back included; `take_back` undoes a game without letting the player
    keep what they saw.  `seed`: the stream of the session's re-deals (its k-th re-deal
    draws from ``derive(seed, REDEAL_KEY, k)``).  `redealt`: what the game's record
    says of them (`cuttle.record.make_record`'s ``redealt``): for each re-deal, in
    order, how many of the game's moves now standing were played before it."""

    def __init__(self, game: Game, player: int, seed: int) -> None:
        self.player = check_player(player)
        self.seed = check_seed(seed)
        self.redealt: list[int] = []
        self._unseen = hidden_cards(check_game(game), self.player)

    @property
    def redeals(self) -> int:
        """How many times the session's game was dealt again."""
        return len(self.redealt)

    def see(self, game: Game) -> None:
        """Note every position of `game`'s line (its start, then each move's)."""
        g = game.copy()
        while True:
            self._unseen &= hidden_cards(g, self.player)
            if not g.ply:
                return
            g.undo()

    def peeked(self, game: Game) -> frozenset[Card]:
        """The cards hidden from the player in `game` that they saw placed on a line
        played since (where they lay then: in their hand, on the table, on top of the
        deck by a 7)."""
        return hidden_cards(game, self.player) - self._unseen

    def take_back(self, game: Game, ply: int) -> tuple[Game, Redealt | None]:
        """`game` taken back to move `ply` (a new Game; `game` is not changed), and what
        was dealt again: None where the player saw none of the cards hidden from them
        there, else those cards are dealt anew (`redeal`: all of them, or where only
        deck cards were seen and no deal of the hand agrees, the deck's); `NoRedeal`
        when no new deal agrees with what the player saw; ValueError for a `ply` that
        is not one of the game's (0 to its ply)."""
        ply = check_int(ply, "ply", 0, check_game(game).ply)
        self.see(game)
        back = game.copy()
        while back.ply > ply:
            back.undo()
        peeked = self.peeked(back)
        kept = [min(n, ply) for n in self.redealt]     # (the moves after `ply` go)
        if not peeked:
            self.redealt = kept
            return back, None
        seed = derive(self.seed, REDEAL_KEY, self.redeals)
        hidden = hidden_cards(back, self.player)
        deck = hidden - frozenset(back.hand(1 - self.player))
        for cards in (hidden,) + ((deck,) if peeked <= deck < hidden else ()):
            new = redeal(back, self.player, seed, cards)
            if new is not None:
                self._unseen = hidden_cards(new, self.player) & (self._unseen | cards)
                self.redealt = kept + [ply]
                return new, Redealt(peeked, len(cards), cards == hidden)
        raise NoRedeal(f"{len(peeked)} card{'s' if len(peeked) != 1 else ''} you saw "
                       f"would be hidden from you again, and no new deal of the hidden "
                       f"cards agrees with everything you have seen in this game")
