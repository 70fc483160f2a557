"""Dealing hidden cards anew, consistently with what was seen: taking moves back without
a peek, and a game record's cards not seen.

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

A game record written by a person of a game played elsewhere gives only what they saw:
its position has ``?`` for the other's hand and for the deck's cards they did not see
come out (`cuttle.position`).  `fit_unseen` deals those cards as `redeal` does, among
their places at the start, the moves played again, but where `redeal` has a whole
game's views to keep, a record has only its moves: a deal must let every one be played
(a card the other plays is in their hand then, the cards drawn come off the deck in
order, ...).  Dealt at random, few would, so the fit starts from the seed's deal and,
at the first move that cannot be played, puts the cards it names where a legal move of
its kind has its own, trading places with cards no move before it named; where that
is no help it deals those cards anew, as `redeal` does; and a deal stuck so starts
again from another.  Where eight deals get stuck so (a few records in a thousand with
the whole deck not seen: a 7's revealed card that must not be playable, a random 4
that must keep the cards played later), a search through every deal takes over
(`cuttle.deal_search`), which finds one if there is one, or names the furthest move
it reached that no deal lets be played (`NoFit`); it is cut off after `FIT_SEARCH`
deals (`FitCutOff`, which says so).  A move where the repairs get stuck for a reason
no deal could change (the phase takes no such move, the card is not the mover's: their
hand given whole, or the card placed elsewhere by the position or a move) is refused
at once (`NoFit`), in the words of a record that gives every card (`_refusal`).  It runs only where the repairs fail, so a record
they fit keeps its deal.  `sees_dealt`
(`cuttle.unseen`'s, also here) then says whether a player's view depends on the deal:
a player who saw a card of it before a move named it (a draw the deck does not list, a
hand shown by a glasses-8) saw what the record does not say.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from .errors import IllegalMoveError
from .game import Game, check_game
from .legal import PHASE_VERBS
from .cards import CARDS, parse_index
from .deal_search import FitCutOff, NoFit, _searched
# (the search's readings, importable here where they were first; `_refusal` reads some)
from .deal_search import _fate, _look, _read_before, _read_by  # noqa: F401
from .position import deal_unseen, parse_text
from .seeding import check_seed, derive
from .unseen import sees_dealt
from .validation import check_int, check_player

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from .cards import Card
    from .moves import Move

__all__ = ["FIT_SEARCH", "FIT_STARTS", "FIT_TRIES", "REDEAL_TRIES", "FitCutOff", "Fitted",
           "NoFit", "NoRedeal", "Redealt", "Sightings", "fit_unseen", "hidden_cards",
           "redeal", "resolve_hint", "sees_dealt"]

REDEAL_TRIES = 64           # deals tried before a re-deal is given up
REDEAL_KEY = 0x726564656164  # derive(seed, REDEAL_KEY, k): a session's k-th re-deal
DECK = 2                    # a place's zone: the deck (0 and 1: the players' hands)
FIT_TRIES = 64              # deals drawn at a move before a fit is given up
FIT_SWAPS = 8               # trades of places tried at a move before deals are drawn
FIT_STARTS = 8              # deals a fit starts from before it is given up
FIT_KEY = 0x666974          # derive(seed, FIT_KEY): a fit's stream
FIT_SEARCH = 10000          # deals a fit's search plays before it is given up


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
    new game keeps `game`'s seed, move cap, moves and `prior_moves`, and the mark of the
    cards dealt for its start's ``?`` (``dealt_unseen``, ``dealt_from``); `game` is not
    changed."""
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
    opp = 1 - player
    deal = _Deal(dict(kw, seed=game.seed), [(opp, k) for k in range(len(kw["hands"][opp]))]
                 + [(DECK, k) for k in range(len(kw["deck"]))], game.max_moves)
    if not cards <= set(deal.cards):
        return None              # (a hidden card that was not hidden at the start)
    views = _views(game, player)

    def same(i: int, g: Game) -> bool:
        return bool((g.observation_array(player) == views[i]).all())
    rng = random.Random(seed)
    moves = game.moves
    for _ in range(tries):
        deal.cards = list(deal.base)
        deal.permute(cards, rng)
        done = deal.replay(moves, same)
        if done is not None and done[2] == len(moves) and same(len(moves), done[1]):
            new = done[1]       # (the cards of the start's '?' are still the deal's)
            new.dealt_unseen, new.dealt_from = game.dealt_unseen, game.dealt_from
            new._prior = game._prior        # (public: the same whatever the deal)
            return new
    return None


def _views(game: Game, player: int) -> list:
    """`player`'s observation at every step of `game`, from its start."""
    g, out = game.copy(), []
    while True:
        out.append(g.observation_array(player))
        if not g.ply:
            return out[::-1]
        g.undo()


class _Deal:
    """A position's cards at some of its places (`places`: ``(player, k)``, the k-th
    card of a hand, or ``(DECK, k)``, of the deck from the top), dealt among those
    places and its moves played again: the one way `redeal` and `fit_unseen` try a
    deal.  `kw`: the position's keywords, every card placed (`cards`, the cards at
    `places`, in their order, start as `base`)."""

    def __init__(self, kw: dict[str, Any], places: list[tuple[int, int]],
                 max_moves: int | None) -> None:
        self.kw, self.places, self.max_moves = kw, places, max_moves
        self.base = [(kw["deck"] if z == DECK else kw["hands"][z])[k] for z, k in places]
        self.cards = list(self.base)

    def permute(self, cards: Iterable[str], rng: random.Random) -> None:
        """`cards` (some of `self.cards`) permuted among their places, uniformly."""
        pool = sorted(cards)
        dealt = pool[:]
        rng.shuffle(dealt)
        new = dict(zip(pool, dealt))
        self.cards = [new.get(c, c) for c in self.cards]

    def swap(self, pairs: Iterable[tuple[str, str]]) -> None:
        """Each pair's two cards in each other's places."""
        for a, b in pairs:
            i, j = self.cards.index(a), self.cards.index(b)
            self.cards[i], self.cards[j] = b, a

    def start(self) -> Game | None:
        """The game the deal starts, or None if the deal is no position."""
        hands = [list(h) for h in self.kw["hands"]]
        deck = list(self.kw["deck"])
        for (z, k), c in zip(self.places, self.cards):
            (deck if z == DECK else hands[z])[k] = c
        try:
            g = Game.from_position(**dict(self.kw, hands=tuple(hands), deck=deck))
        except ValueError:
            return None
        g.max_moves = self.max_moves
        return g

    def replay(self, moves: Sequence[Move], check: Callable[[int, Game], bool] | None = None
               ) -> tuple[Game, Game, int] | None:
        """(the start dealt so, the game after the moves played, how many were: all,
        or up to the first illegal one or the first before which `check(i, game)` is
        False), or None if the deal is no position."""
        start = self.start()
        if start is None:
            return None
        g = start.copy()
        for i, move in enumerate(moves):
            if check is not None and not check(i, g):
                return start, g, i
            try:
                g.play(move)
            except IllegalMoveError:
                return start, g, i
        return start, g, len(moves)


class Fitted(NamedTuple):
    """A position's cards not seen dealt to fit its moves (`fit_unseen`): `start`, the
    game they start (its ``dealt_unseen`` the cards so dealt, and so every game played
    on from it, its ``dealt_from`` ``"record"``); `unseen`, the cards so dealt (every
    card the position does not list)."""

    start: Game
    unseen: frozenset[Card]


def fit_unseen(kw: dict[str, Any], moves: Sequence[Move], max_moves: int | None = None,
               tries: int = FIT_TRIES, search: int | None = None) -> Fitted:
    """The game of position keywords `kw` (`position.parse_text`'s, its seed given)
    whose cards not seen (``?`` in a hand or the deck, and the deck's unlisted rest)
    are dealt so that every one of `moves` can be played in turn: a card a player
    plays is in their hand then, the cards drawn come from the deck in order, and so
    on.  The seed's deal of them (`Game.from_position`'s) where the moves allow it;
    else, move by move, the first move that cannot be played is made playable by
    putting the cards it names where a legal move of its kind (or else the mover's
    hand) has its own, the cards no move before it named trading places, or, where
    that is no help, by dealing those cards anew among their places, up to `tries`
    times, as `redeal` deals; a deal that gets stuck so is started again from a new
    deal of every card not seen, `FIT_STARTS` deals in all.  Every deal is drawn from
    a stream of the seed, so the fit is the seed's.  Where none of those deals fits,
    a search through every deal from the seed's (`_searched`) finds one if there is
    one, within `search` deals played (default FIT_SEARCH).  NoFit naming the first
    move that no deal lets be played; FitCutOff when the search was cut off before it
    could tell; ValueError for a position that is none.  A NoFit whose reason does not
    depend on the deal (`_refusal`) says it as `Game.play` does ("move 4: illegal
    move ..."), else that no deal lets the move be played."""
    filled, places = deal_unseen(kw)
    Game.from_position(**filled)            # (a position's own refusals, as they are)
    deal = _Deal(filled, places, max_moves)
    moves = list(moves)
    start = _quick_fit(deal, moves, random.Random(derive(kw["seed"], FIT_KEY)), tries)
    if start is None:
        deal.cards = list(deal.base)
        start = _searched(deal, moves, FIT_SEARCH if search is None else search)
    start.dealt_unseen = frozenset(CARDS[parse_index(c)] for c in deal.base)
    start.dealt_from = "record"
    return Fitted(start, start.dealt_unseen)


def _quick_fit(deal: _Deal, moves: Sequence[Move], rng: random.Random, tries: int
               ) -> Game | None:
    """The start of the first deal the seed's repairs find that lets every move be
    played (`fit_unseen`'s first way), or None."""
    checked = set()
    for attempt in range(FIT_STARTS):
        if attempt:
            deal.cards = list(deal.base)
            deal.permute(deal.base, rng)
        done = stuck = deal.replay(moves)
        while done is not None and done[2] < len(moves):
            stuck = done
            done = _repaired(deal, moves, done[1], rng) or \
                _redealt(deal, moves, stuck[2], rng, tries)
        if done is not None:
            return done[0]
        if stuck is not None and stuck[2] not in checked:   # (why, whatever the deal?)
            checked.add(stuck[2])
            why = _refusal(deal, moves, stuck[0], stuck[2])
            if why is not None:
                raise NoFit(f"move {stuck[2] + 1}: {why}", stuck[2] + 1)
    return None


def _refusal(deal: _Deal, moves: Sequence[Move], start: Game, at: int) -> str | None:
    """Why move `at` (0-based) cannot be played in the game `start` of a deal reaches
    by the moves before it, in `Game.play`'s words (those of a record that gives every
    card), where no deal of the cards not seen could change them; else None.  Where no
    move before it read a card dealt and not yet named (`_read_before`, `_read_by`),
    every deal that plays them reaches the same game but for the order of those cards
    among their places: the phase and the player to move are the same, and so is
    where each card listed or named lies.  The refusal is then the same in every deal
    when the phase takes no such verb, when the mover holds none of those cards (what
    they may play is known), or when the card played is listed or named and not the
    mover's to play (or frozen)."""
    free = set(deal.base)
    g = start.copy()
    for move in moves[:at]:
        free -= set(move.cards)
        before = _look(g)
        if free & _read_before(before, move):
            return None
        g.play(move)
        if free & _read_by(before, g, move):
            return None
    move = moves[at]
    try:
        g.play(move)
        return None                 # (no refusal: not stuck here)
    except IllegalMoveError as e:
        why = str(e)
    if g.phase == "over" or move.verb not in PHASE_VERBS[g.phase]:
        return why + resolve_hint(g, move)
    own = g.revealed if g.phase == "seven" else g.hand(g.to_move)
    if not free & set(own):
        return why
    card = move.card
    known = card is not None and move.verb != "take" and card not in free
    return why if known and (card not in own or card in g.frozen(g.to_move)) else None


def resolve_hint(game: Game, move: Move) -> str:
    """A record's likely slip, in words to add to its move's refusal in `game`: a move
    other than a counter or a block where the stack waits for one, as when a `resolve`
    was left out before it (a typing slip of a game played elsewhere; `Game.play`'s own
    refusal does not guess)."""
    if game.phase in ("counter", "block") and move.verb not in PHASE_VERBS[game.phase]:
        return " (a 'resolve' left out before it?)"
    return ""


def _named(moves: Sequence[Move]) -> set[Card]:
    return {c for m in moves for c in m.cards}


def _repaired(deal: _Deal, moves: Sequence[Move], g: Game, rng: random.Random
              ) -> tuple[Game, Game, int] | None:
    """The deal's replay past `g`'s move (the first it could not play), once the cards
    that move names trade places with those of a legal move of its kind (the fewest
    first, the cards no move before it named only), or None."""
    at = g.ply
    want = moves[at]
    loose = set(deal.cards) - _named(moves[:at])
    options = []
    for legal in g.legal_moves:
        need = [c for c in want.cards if c not in legal.cards]
        have = [c for c in legal.cards if c not in want.cards]
        if legal.verb == want.verb and need and len(need) == len(have) \
                and loose.issuperset(need + have):
            options.append(list(zip(need, have)))
    rng.shuffle(options)
    options.sort(key=len)
    # (no legal move of its kind: the cards it names trade places with the mover's own,
    # as a card is played from its player's hand or from a 7's revealed cards)
    own = set(g.hand(g.to_move)) | set(g.revealed) if g.to_move is not None else set()
    need = [c for c in want.cards if c in loose and c not in own]
    have = sorted((own & loose) - set(want.cards))
    for _ in range(FIT_SWAPS if need and len(have) >= len(need) else 0):
        rng.shuffle(have)
        options.append(list(zip(need, have)))
    for pairs in options[:FIT_SWAPS]:
        deal.swap(pairs)
        done = deal.replay(moves)
        if done is not None and done[2] > at:
            return done
        deal.swap(pairs)                    # (back: the pairs are disjoint)
    return None


def _redealt(deal: _Deal, moves: Sequence[Move], at: int, rng: random.Random, tries: int
             ) -> tuple[Game, Game, int] | None:
    """The deal's replay past move `at` once the cards no move before it named are
    dealt anew among their places (`tries` deals at most), or None (the deal kept)."""
    loose = set(deal.cards) - _named(moves[:at])
    kept = list(deal.cards)
    for _ in range(tries):
        deal.cards = list(kept)
        deal.permute(loose, rng)
        done = deal.replay(moves)
        if done is not None and done[2] > at:
            return done
    deal.cards = kept
    return None


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
