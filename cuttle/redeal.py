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
(`_Search`): move by move, a card a move names is placed where its kind comes from,
and the cards the rules read without a move naming them (a 7's revealed card, the
hand a random 4 discards from by the cards' order, ...) are chosen among all, so that
once it has tried every choice, no deal lets the furthest move it reached be played
(`NoFit`, naming it).  It is cut off after `FIT_SEARCH` deals (`FitCutOff`, which says
so): random games with the whole deck not seen take at most a few thousand.  It runs
only where the repairs fail, so a record they fit keeps its deal.  `sees_dealt`
(`cuttle.unseen`'s, also here) then says whether a player's view depends on the deal:
a player who saw a card of it before a move named it (a draw the deck does not list, a
hand shown by a glasses-8) saw what the record does not say.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import TYPE_CHECKING, Any, NamedTuple

from .errors import IllegalMoveError
from .game import Game, check_game
from .cards import CARDS, parse_index
from .position import deal_unseen, parse_text
from .seeding import check_seed, derive
from .unseen import sees_dealt
from .validation import check_int, check_player

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence

    from .cards import Card
    from .moves import Move

__all__ = ["FIT_SEARCH", "FIT_STARTS", "FIT_TRIES", "REDEAL_TRIES", "FitCutOff", "Fitted",
           "NoFit", "NoRedeal", "Redealt", "Sightings", "fit_unseen", "hidden_cards",
           "redeal", "sees_dealt"]

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
    new game keeps `game`'s seed, move cap and moves, and the mark of the cards dealt
    for its start's ``?`` (``dealt_unseen``, ``dealt_from``); `game` is not changed."""
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


class NoFit(ValueError):
    """Moves that no deal of a position's cards not seen lets be played in turn;
    `move`, the first that none lets be played (numbered from 1)."""

    def __init__(self, message: str, move: int) -> None:
        super().__init__(message)
        self.move = move

    def __reduce__(self):
        return type(self), (str(self), self.move)


class FitCutOff(ValueError):
    """A fit given up: `fit_unseen`'s search tried `FIT_SEARCH` deals without finding
    one that lets every move be played or showing that none does; `move`, the furthest
    move (numbered from 1) that the deals tried reached."""

    def __init__(self, message: str, move: int) -> None:
        super().__init__(message)
        self.move = move

    def __reduce__(self):
        return type(self), (str(self), self.move)


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
    could tell; ValueError for a position that is none."""
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
    for attempt in range(FIT_STARTS):
        if attempt:
            deal.cards = list(deal.base)
            deal.permute(deal.base, rng)
        done = deal.replay(moves)
        while done is not None and done[2] < len(moves):
            at = done[2]
            done = _repaired(deal, moves, done[1], rng) or \
                _redealt(deal, moves, at, rng, tries)
        if done is not None:
            return done[0]
    return None


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


# Where a card lies, for the search: a hand (0, 1), a 7's reveal, the scrap.
REVEALED, SCRAP = 3, 4
_INDEX = {str(c): i for i, c in enumerate(CARDS)}     # a card's index, by its text
SETS_PER_DEAL = 1 / 8       # sets of cards a read's choice looks at, counted as deals


class _Look(NamedTuple):
    """What the search reads of a game before a move: where each card of the hands,
    the reveal and the scrap lies, the phase, the player to move, the deck's size,
    the bottom card of the stack."""

    where: dict[str, int]
    phase: str
    to_move: int | None
    deck: int
    stacked: str | None


def _look(g: Game) -> _Look:
    where = {str(c): z for z, cards in ((0, g.hand(0)), (1, g.hand(1)),
                                        (REVEALED, g.revealed), (SCRAP, g.scrap))
             for c in cards}
    stack = g.stack
    return _Look(where, g.phase, g.to_move, len(g.deck), str(stack[0]) if stack else None)


def _read_before(look: _Look, move: Move) -> set[str]:
    """The cards `move` does not name whose identity decides whether it may be played
    in the game `look` saw: a hand that passes with cards in the deck (none of them
    playable: the no-draw hand limit's stuck pass), the cards a 7 revealed when one
    is discarded (none playable), the scrap when a 3 is played as a one-off (is there
    a card it may take?)."""
    if move.verb == "pass" and look.deck:
        return {c for c, z in look.where.items() if z == look.to_move}
    if move.verb == "discard" and look.phase == "seven":
        return {c for c, z in look.where.items() if z == REVEALED} - {str(move.card)}
    if move.verb == "oneoff" and str(move.card)[0] == "3":
        return {c for c, z in look.where.items() if z == SCRAP}
    return set()


def _read_by(before: _Look, after: Game, move: Move) -> set[str]:
    """The cards `move` does not name whose identity decided how it went (from the
    game `before` saw to `after`): a 7's one revealed card (is it playable?  else it
    goes to the scrap), a hand a random 4 discards from (which cards go depends on
    their order in it, unless all go: `_Fate`) and, while a 3 is on the stack, the
    scrap (may it take a card?).  Two cards a 7 reveals are read only when one is
    discarded (`_read_before`); a draw reads nothing."""
    named = {str(c) for c in move.cards}
    now = _look(after).where
    came = {c for c, z in now.items() if z in (REVEALED, SCRAP)
            and before.where.get(c) != z and c not in named}
    if sum(now[c] == REVEALED for c in came) == 2:
        came = {c for c in came if now[c] != REVEALED}
    read = set(came)
    for h in (0, 1):
        hand = {c for c, z in before.where.items() if z == h}
        if hand & came:
            read = read - hand if hand <= came else read | hand
    if before.stacked is not None and before.stacked[0] == "3":
        read |= {c for c, z in before.where.items() if z == SCRAP}
    return read - named


class _Fate(NamedTuple):
    """What a random 4 did to a hand: the hand before it (its cards by index) and
    the places in that order of the cards it discarded, which its draws chose
    whatever the cards (the game's random stream draws a place by the hand's size).
    So another hand of as many cards loses the cards at those places: the same
    cards as long as as many of the cards kept lie between each two of them."""

    who: int
    hand: tuple[str, ...]
    lost: frozenset[int]

    def split(self, old: Iterable[str], new: Iterable[str]) -> tuple[set[str], dict]:
        """The cards lost and, for each card kept, the bounds (card indices, not
        included) between which a card may take its place and leave the same cards
        lost: with the cards `new` in the hand in place of the cards `old`."""
        out = set(old)
        hand = sorted([c for c in self.hand if c not in out] + list(new), key=_INDEX.get)
        lost = [_INDEX[hand[k]] for k in sorted(self.lost)]
        kept = {}
        for c in hand:
            i = _INDEX[c]
            if i not in lost:
                kept[c] = (max([k for k in lost if k < i], default=-1),
                           min([k for k in lost if k > i], default=len(CARDS)))
        return {hand[k] for k in self.lost}, kept


def _fate(before: _Look, after: Game, move: Move) -> _Fate | None:
    """What `move` (from the game `before` saw to `after`) discarded at random from a
    hand, or None."""
    now = _look(after).where
    named = {str(c) for c in move.cards}
    for h in (0, 1):
        hand = sorted((c for c, z in before.where.items() if z == h), key=_INDEX.get)
        lost = frozenset(k for k, c in enumerate(hand) if now.get(c) == SCRAP
                         and c not in named)
        if lost:
            return _Fate(h, tuple(hand), lost) if len(lost) < len(hand) else None
    return None


class _State(NamedTuple):
    """A state of `_Search`: a deal (`cards`, one per place), the places whose card
    it pinned, those whose card may only change within bounds (`gaps`: a place, the
    card indices between which its card must lie: kept by a random 4, `_Fate`), the
    moves played and, when the search has them, the game's start and the game after
    them."""

    cards: list[str]
    pinned: frozenset[int]
    gaps: dict[int, tuple[int, int]]
    at: int
    games: tuple[Game, Game] | None = None

    def admits(self, place: int, card: str) -> bool:
        """Whether `card` may lie at `place`."""
        lo, hi = self.gaps.get(place, (-1, len(CARDS)))
        return place not in self.pinned and lo < _INDEX[card] < hi

    def swapped(self, pairs: Iterable[tuple[int, int]], pins: Iterable[int] = ()
                ) -> _State | None:
        """The deal with the cards of each pair of places traded and `pins` pinned
        (their bounds dropped), its games to be played again; None when a card may
        not lie where it goes."""
        cards = list(self.cards)
        for a, b in pairs:
            if not (self.admits(a, cards[b]) and self.admits(b, cards[a])):
                return None
            cards[a], cards[b] = cards[b], cards[a]
        pins = frozenset(pins)
        return _State(cards, self.pinned | pins,
                      {p: g for p, g in self.gaps.items() if p not in pins}, self.at)


class _Spent(Exception):
    """A search that played as many deals as it was allowed (`_Search.limit`)."""


def _searched(deal: _Deal, moves: Sequence[Move], limit: int) -> Game:
    """The start of a deal of `deal`'s places that plays every move: `_Search` from
    the deal `deal` holds, first going back to where a later move wanted a card
    (`_Search.jumps`: quick, but it passes choices by), then, if that found none,
    through every choice; NoFit when a search tried every choice, FitCutOff after
    `limit` deals in all."""
    cards, furthest = list(deal.cards), 0
    for jumps, budget in ((True, limit // 2), (False, limit - limit // 2)):
        search = _Search(deal, moves, budget, jumps)
        try:
            return search.run(cards)
        except _Spent:
            furthest = max(furthest, search.furthest)
        except NoFit:
            if not search.jumped:
                raise
            furthest = max(furthest, search.furthest)
    raise FitCutOff(_cut_off_words(moves, furthest, limit), furthest + 1)


class _Choice:
    """A choice of `_Search`: its states to try, in order; the places whose cards
    a read chooses (none for a naming), where they lie once read (`zones`) and what
    a random 4 did with them (`_Fate`); the cards a later move wanted elsewhere than
    the deal had them (`_Search.want`), each with where it wanted it (a hand, the
    reveal or the scrap), which it tries first."""

    __slots__ = ("states", "read", "zones", "fate", "wanted")

    def __init__(self, read: Iterable[int] = (), zones: Iterable[int | None] = (),
                 fate: _Fate | None = None) -> None:
        self.states: Iterator[_State] = iter(())
        self.read = frozenset(read)
        self.zones = frozenset(zones)
        self.fate = fate
        self.wanted: dict[str, int | None] = {}

    def fits(self, base: Iterable[str], cards: frozenset[str], wanted: Iterable[str]
             ) -> bool:
        """Whether `cards` in place of `base` leave each of `wanted` where it was
        wanted: among them if it was wanted where they lie (kept in the hand or sent
        to the scrap by a random 4), else not."""
        lost = self.fate.split(base, cards)[0] if self.fate is not None else set()
        for c in wanted:
            z = self.wanted[c]
            if (c in cards) != (z in self.zones) or \
                    (self.fate is not None and c in cards and (c in lost) != (z == SCRAP)):
                return False
        return True


class _Search:
    """`fit_unseen`'s search through every deal of the cards not seen, where its
    repairs found none: depth first, move by move, from a deal.

    At each step the deal (a `_State`) stands for every deal that the moves so far
    cannot tell from it: the cards the search pinned to their places (those a move
    named, those the rules read: `_read_before`, `_read_by`) stay, the cards a
    random 4 kept may change within their bounds (`_Fate`), and the others may lie
    in any order at the other places, as no move so far depended on it.  A move
    naming a card not pinned is the choice of where that card lay then: where the
    deal has it, then wherever its kind comes from (`_kind`; if not sure: the
    mover's hand, the reveal, the other hand, the scrap), at any place there whose
    card may trade places with it (a hand is a set; the card there, one no later
    move names if any, takes its place).  A move reading cards not pinned is the
    choice of which cards those are: the deal's, then every other set of them (for
    a random 4: every other way it goes), those that leave the cards a later move
    wanted where it wanted them (`want`) first.  So every deal plays as one the
    search tries: when every choice is tried, no deal lets the furthest move it
    reached be played, which NoFit names.  A search that `jumps` goes back to the
    choice a later move wanted a card of at once, passing the choices after it by:
    quicker, and no proof when it finds nothing (`jumped`).  _Spent after `limit`
    deals played."""

    def __init__(self, deal: _Deal, moves: Sequence[Move], limit: int,
                 jumps: bool = False) -> None:
        self.deal, self.moves, self.limit = deal, moves, limit
        self.first: dict[str, int] = {}         # a card: the first move naming it
        for i, m in enumerate(moves):
            for c in m.cards:
                self.first.setdefault(str(c), i)
        self.tried = self.furthest = 0
        self.stack: list[_Choice] = []
        self.jumps, self.jumped = jumps, False
        self.back: int | None = None
        self.found: _State | None = None        # the state whose deal played every move

    def run(self, cards: list[str]) -> Game:
        """The start of the first deal found from the deal `cards` that plays every
        move; NoFit when there is none."""
        root = _Choice()
        root.states = iter([_State(cards, frozenset(), {}, 0)])
        self.stack = [root]
        while self.stack:
            state = next(self.stack[-1].states, None)
            found = None if state is None else self.advance(state)
            if isinstance(found, Game):
                self.found = state
                return found
            if found is not None:
                self.stack.append(found)
                continue
            if state is None:
                self.stack.pop()
            if self.back is not None:
                self.jumped |= self.back + 1 < len(self.stack)
                del self.stack[self.back + 1:]
                self.back = None
        raise NoFit(_no_fit_words(self.deal, self.moves, self.furthest), self.furthest + 1)

    def replayed(self, cards: list[str], upto: int) -> tuple[Game, Game] | None:
        """(the start of the deal `cards`, the game after its first `upto` moves), or
        None when one of them cannot be played; _Spent past `limit` deals."""
        self.spend()
        self.deal.cards = cards
        done = self.deal.replay(self.moves[:upto])
        return None if done is None or done[2] < upto else done[:2]

    def spend(self, deals: float = 1) -> None:
        """Count `deals` more deals played; _Spent past `limit`."""
        self.tried += deals
        if self.tried > self.limit:
            raise _Spent

    def advance(self, state: _State) -> Game | _Choice | None:
        """Play `state`'s deal on up to the search's next choice: that choice, the
        start when every move was played, or None when a move cannot be."""
        games = state.games or self.replayed(state.cards, state.at)
        if games is None:
            return None
        g, cards = games[1], state.cards
        slot = {c: k for k, c in enumerate(cards)}

        def loose(read: Iterable[str]) -> list[int]:
            return sorted(slot[c] for c in read
                          if c in slot and slot[c] not in state.pinned)
        for i in range(state.at, len(self.moves)):
            self.furthest = max(self.furthest, i)
            now, move = state._replace(at=i, games=games), self.moves[i]
            named = loose(str(c) for c in move.cards)
            if named:
                choice = _Choice()
                choice.states = self.namings(now, cards[named[0]])
                return choice
            before = _look(g)
            read = loose(_read_before(before, move))
            if read:
                return self.reading(now, read)
            try:
                g.play(move)
            except IllegalMoveError:
                self.misplaced(g, move, before, slot)
                return None
            read = loose(_read_by(before, g, move))
            if read:
                return self.reading(now._replace(at=i + 1), read, _fate(before, g, move))
        return games[0]

    def namings(self, state: _State, c: str) -> Iterator[_State]:
        """Where card `c`, which the next move names and no choice pinned, may lie
        before it (see the class).  Once all were tried, `c` is wanted where its
        kind comes from and no place could take it (`want`)."""
        cards, g, move = state.cards, state.games[1], self.moves[state.at]
        slot = {d: k for k, d in enumerate(cards)}
        where, mover = _look(g).where, g.to_move
        kind, sure = _kind(g, move, [str(d) for d in move.cards].index(c))
        zones = [where.get(c)] + ([] if mover is None else
                                  [mover, REVEALED, 1 - mover, SCRAP])
        full = set()
        for n, z in enumerate(zones):
            if z is None or z in zones[:n] or (sure and z not in kind):
                continue
            there = [d for d, y in where.items() if y == z and d in slot and (d == c or (
                state.admits(slot[d], c) and state.admits(slot[c], d)))]
            full |= set() if there else {z}
            # (places alike but for a random 4's bounds: one of each kind, where the
            # deal has the card first, else the one whose card is named last or never)
            there.sort(key=lambda d: (d == c, self.first.get(d, len(self.moves)), slot[d]),
                       reverse=True)
            for gap in dict.fromkeys(state.gaps.get(slot[d]) for d in there):
                d = next(d for d in there if state.gaps.get(slot[d]) == gap)
                self.kept(c, slot[d], state)
                if d == c:
                    yield state.swapped((), [slot[c]])._replace(games=state.games)
                else:
                    yield state.swapped([(slot[c], slot[d])], [slot[d]])
        for z in sorted(full & kind):
            self.want(c, {slot[d] for d, y in where.items() if y == z and d in slot}, z)

    def misplaced(self, g: Game, move: Move, before: _Look, slot: dict[str, int]) -> None:
        """`move` could not be played in `g`: a card it names that a choice put where
        its kind does not come from is wanted where it does (`want`)."""
        for n, c in enumerate(map(str, move.cards)):
            kind = _kind(g, move, n)[0]
            if c in slot and before.where.get(c) not in kind:
                for z in sorted(kind):
                    self.want(c, {slot[c]}, z)

    def kept(self, card: str, place: int, state: _State) -> None:
        """`card`, named, takes `place`, which a random 4 kept (`state.gaps`): the
        choice that read it wants it there too, if it comes back to it."""
        if place in state.gaps:
            for choice in self.stack:
                if place in choice.read and card not in choice.wanted:
                    choice.wanted[card] = choice.fate.who

    def want(self, card: str, places: set[int], zone: int) -> None:
        """`card` could not lie in `zone` (a hand, the reveal or the scrap) where a
        move needed it, as `places` there were read: the choices that read them try
        first the ways that leave it there (or, if they do not lie there, elsewhere),
        and a search that jumps goes back to the last of them."""
        for n, choice in enumerate(self.stack):
            if choice.read & places and card not in choice.wanted:
                choice.wanted[card] = zone
                if self.jumps:
                    self.back = n if self.back is None else max(self.back, n)

    def reading(self, state: _State, read: list[int], fate: _Fate | None = None
                ) -> _Choice:
        """The choice of the cards at the places `read` (none pinned), whose identity
        a move reads (`fate`: what a random 4 did there), as of `state` (the game
        read)."""
        if fate is not None and not {state.cards[k] for k in read} <= set(fate.hand):
            fate = None                 # (cards read besides the hand: each pinned)
        where = _look(state.games[1]).where
        zones = {fate.who, SCRAP} if fate else {where.get(state.cards[k]) for k in read}
        choice = _Choice(read, zones, fate)
        choice.states = self.readings(choice, state)
        return choice

    def readings(self, choice: _Choice, state: _State) -> Iterator[_State]:
        """`choice`'s states (see `reading`): the deal's cards at its places, then
        each other set of the cards not pinned that a trade of places can put there
        (`_sets`: those that leave the first k cards wanted where they were wanted,
        k from all down to one, first), once for each way the read goes."""
        read = sorted(choice.read)
        base = [state.cards[k] for k in read]
        first = self.settled(choice, state, base, base)
        # (a card a later move names that the read sends to the scrap: the sets of
        # cards without it first, the deal's among the others)
        where = _look(state.games[1]).where
        waste = [c for c in base if c in self.first and where.get(c) == SCRAP]
        for c in waste:
            choice.wanted.setdefault(c, None)
        if not waste:
            yield first._replace(games=state.games)
        slot = {c: k for k, c in enumerate(state.cards)}
        late = len(self.moves)

        def order(c: str) -> tuple:
            return c in self.first, self.first.get(c, late), slot[c]
        held = state.pinned | choice.read
        free = sorted((c for c in state.cards if slot[c] not in held), key=order)
        seen = set() if waste else {self.way(choice, first)}
        for cards in self.candidates(choice, sorted(base, key=order), free, not waste):
            out = sorted(set(base) - cards, key=order)
            for ins in permutations(sorted(cards - set(base), key=order)):
                new = state.swapped([(slot[a], slot[b]) for a, b in zip(out, ins)])
                if new is not None:
                    new = self.settled(choice, new, base, cards)
                    if self.way(choice, new) not in seen:
                        seen.add(self.way(choice, new))
                        yield new
                    break

    @staticmethod
    def settled(choice: _Choice, state: _State, old: list[str], new: Iterable[str]
                ) -> _State:
        """`state` with `choice`'s places read: pinned, or for a random 4 (the cards
        `new` there in place of `old`), those of the cards it discarded pinned and
        those of the cards it kept bounded by the cards discarded."""
        pins, gaps = set(choice.read), dict(state.gaps)
        if choice.fate is not None:
            lost, kept = choice.fate.split(old, new)
            pins = {k for k in choice.read if state.cards[k] in lost}
            for k in choice.read - pins:
                lo, hi = kept[state.cards[k]]
                was = gaps.get(k, (lo, hi))
                gaps[k] = (max(lo, was[0]), min(hi, was[1]))
        return state._replace(pinned=state.pinned | pins,
                              gaps={k: g for k, g in gaps.items() if k not in pins})

    @staticmethod
    def way(choice: _Choice, state: _State) -> tuple:
        """What tells the states of `choice` apart: the cards at its places, or for
        a random 4, the cards it discarded and the bounds of the places it kept."""
        if choice.fate is None:
            return tuple(state.cards[k] for k in sorted(choice.read))
        return (frozenset(state.cards[k] for k in choice.read if k in state.pinned),
                tuple(sorted((k, state.gaps[k]) for k in choice.read if k in state.gaps)))

    def candidates(self, choice: _Choice, base: list[str], free: list[str], done: bool
                   ) -> Iterator[frozenset[str]]:
        """The sets of cards `choice` may read in place of `base` (with `free`; base
        itself too unless `done`), each once: those that leave its first k cards
        wanted where they were wanted (k from all down to one, as far as some set
        does), then the others.  Every set looked at counts as SETS_PER_DEAL deals
        played."""
        tried, given_up = {frozenset(base)} if done else set(), set()
        rest, must, sets = _sets(base, free), (), iter(())
        while True:
            want = [c for c in choice.wanted if c in base or c in free]
            wants = [w for w in (tuple(want[:k]) for k in range(len(want), 0, -1))
                     if w not in given_up]
            if wants and wants[0] != must:
                must = wants[0]
                here = [c for c in must if choice.wanted[c] in choice.zones]
                sets = _sets(base, free, here, [c for c in must if c not in here])
            new = None
            for new in sets if wants else rest:
                self.spend(SETS_PER_DEAL)
                if new not in tried and (not wants or choice.fits(base, new, must)):
                    break
                new = None
            if new is None:
                if not wants:
                    return
                given_up.add(must)
                continue
            tried.add(new)
            yield new


def _kind(g: Game, move: Move, n: int) -> tuple[set[int], bool]:
    """Where the `n`-th card of `move` comes from in `g`, and whether that is sure:
    the hands, the reveal or the scrap where the `n`-th cards of the legal moves of
    its kind lie (sure: a phase takes a kind's cards from one place), else the
    mover's hand (a guess)."""
    where = _look(g).where
    zones = {where[str(m.cards[n])] for m in g.legal_moves
             if m.verb == move.verb and len(m.cards) > n and str(m.cards[n]) in where}
    return (zones, True) if zones else ({g.to_move} - {None}, False)


def _sets(base: list[str], free: list[str], must: Sequence[str] = (),
          avoid: Sequence[str] = ()) -> Iterator[frozenset[str]]:
    """Every set of as many cards as `base` from `base` and `free` that holds `must`
    and none of `avoid`, those with fewer cards from `free` first, in the lists'
    order."""
    add = [c for c in must if c not in base]
    drop = [c for c in base if c in avoid]
    stay = [c for c in base if c not in must and c not in avoid]
    others = [c for c in free if c not in must and c not in avoid]
    for n in range(max(len(add), len(drop)), len(base) + 1):
        for out in combinations(stay, n - len(drop)):
            for extra in combinations(others, n - len(add)):
                yield frozenset(base).difference(drop, out).union(add, extra)


def _no_fit_words(deal: _Deal, moves: Sequence[Move], at: int) -> str:
    """Why move `at` (0-based) fits no deal, in words."""
    first: dict[Card, int] = {}
    for i, m in enumerate(moves[:at], 1):
        for c in m.cards:
            first.setdefault(c, i)
    why = []
    for c in moves[at].cards:
        if c in first:
            why.append(f"{c} is where move {first[c]} ({str(moves[first[c] - 1])!r}) put it")
        elif c not in deal.base:
            why.append(f"the position places {c}")
    return (f"move {at + 1} ({str(moves[at])!r}): no deal of the cards not seen ('?') "
            f"lets it be played after the moves before it" + "".join(f"; {w}" for w in why))


def _cut_off_words(moves: Sequence[Move], at: int, limit: int) -> str:
    """A search cut off at move `at` (0-based), the furthest its deals reached, in
    words."""
    return (f"move {at + 1} ({str(moves[at])!r}): the search for a deal of the cards not "
            f"seen ('?') that lets every move be played was cut off after {limit:,} "
            f"deals, none of which got past this move: the record may still have one")


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
