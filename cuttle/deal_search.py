"""The search through every deal of a record's cards not seen: where
`cuttle.redeal.fit_unseen`'s repairs of the seed's deal get stuck (a few records in a
thousand with the whole deck not seen: a 7's revealed card that must not be playable, a
random 4 that must keep the cards played later), it takes over (`_searched`, `_Search`).

Move by move, a card a move names is placed where its kind comes from (`_kind`), and
the cards the rules read without a move naming them (a 7's revealed card, the hand a
random 4 discards from by the cards' order, ...: the one list of those reads being
`_read_before`, `_read_by` and a random 4's `_Fate`) are chosen among all, so that
once it has tried every choice, no deal lets the furthest move it reached be played
(`NoFit`, naming it); cut off after `redeal.FIT_SEARCH` deals (`FitCutOff`).  It plays
its deals through the `_Deal` it is handed (`redeal`'s)."""

from __future__ import annotations

from itertools import combinations, permutations
from typing import TYPE_CHECKING, NamedTuple

from .cards import CARDS
from .errors import IllegalMoveError
from .game import Game

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence

    from .cards import Card
    from .moves import Move
    from .redeal import _Deal

__all__ = ["FitCutOff", "NoFit"]

REVEALED, SCRAP = 3, 4      # where a card lies, for the search (0, 1: the hands)
_INDEX = {str(c): i for i, c in enumerate(CARDS)}     # a card's index, by its text
SETS_PER_DEAL = 1 / 8       # sets of cards a read's choice looks at, counted as deals


class _AtMove(ValueError):
    """A fit's verdict naming a move (`move`, numbered from 1)."""

    def __init__(self, message: str, move: int) -> None:
        super().__init__(message)
        self.move = move

    def __reduce__(self):
        return type(self), (str(self), self.move)


class NoFit(_AtMove):
    """Moves no deal of the cards not seen lets be played in turn; `move`, the first."""


class FitCutOff(_AtMove):
    """A fit given up: `fit_unseen`'s search tried `FIT_SEARCH` deals without finding
    one that lets every move be played or showing that none does; `move`, the furthest
    move (numbered from 1) that the deals tried reached."""


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
                return self.reading(now, read, stuck=move.verb == "pass")
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

    def reading(self, state: _State, read: list[int], fate: _Fate | None = None,
                stuck: bool = False) -> _Choice:
        """The choice of the cards at the places `read` (none pinned), whose identity
        a move reads (`fate`: what a random 4 did there; `stuck`: a pass, so none of
        them may be playable), as of `state` (the game read)."""
        if fate is not None and not {state.cards[k] for k in read} <= set(fate.hand):
            fate = None                 # (cards read besides the hand: each pinned)
        where = _look(state.games[1]).where
        zones = {fate.who, SCRAP} if fate else {where.get(state.cards[k]) for k in read}
        choice = _Choice(read, zones, fate)
        choice.states = self.readings(choice, state, stuck)
        return choice

    def playable(self, state: _State, read: list[int], free: list[str]) -> set[str]:
        """The cards of `free` that the player to move could play, held at the places
        `read` (a hand), in the game of `state`: tried there as many at a time as
        `read` has places (one deal each; where the moves before cannot be played
        again so, one at a time, and a card even so not told, not playable).  A
        card's moves do not depend on the other cards held with it, so a pass is
        legal with exactly the sets none of which is playable."""
        out, n = set(), len(read)
        groups = [free[k:k + n] for k in range(0, len(free), n)]
        while groups:
            some, cards = groups.pop(0), list(state.cards)
            slot = {c: k for k, c in enumerate(cards)}
            for k, c in zip(read, some):
                cards[k], cards[slot[c]] = c, cards[k]
            games = self.replayed(cards, state.at)
            if games is not None:
                out |= _played(games[1], some)
            elif len(some) > 1:
                groups[:0] = [[c] for c in some]
        return out

    def readings(self, choice: _Choice, state: _State, stuck: bool = False
                 ) -> Iterator[_State]:
        """`choice`'s states (see `reading`): the deal's cards at its places, then
        each other set of the cards not pinned that a trade of places can put there
        (`_sets`: those that leave the first k cards wanted where they were wanted,
        k from all down to one, first), once for each way the read goes; at a stuck
        pass, only the sets of cards none of which is playable (`playable`)."""
        read = sorted(choice.read)
        base = [state.cards[k] for k in read]
        first = self.settled(choice, state, base, base)
        # (a card a later move names that the read sends to the scrap: the sets of
        # cards without it first, the deal's among the others)
        where = _look(state.games[1]).where
        dead = _played(state.games[1], base) if stuck else set()
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
        if stuck:
            dead |= self.playable(state, read, free)
            free = [c for c in free if c not in dead]
        seen = set() if waste else {self.way(choice, first)}
        for cards in self.candidates(choice, sorted(base, key=order), free, not waste,
                                     dead):
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

    def candidates(self, choice: _Choice, base: list[str], free: list[str], done: bool,
                   dead: set[str] = frozenset()) -> Iterator[frozenset[str]]:
        """The sets of cards `choice` may read in place of `base` (with `free`; base
        itself too unless `done`; none holding a card of `dead`), each once: those
        that leave its first k cards wanted where they were wanted (k from all down
        to one, as far as some set does), then the others.  Every set looked at
        counts as SETS_PER_DEAL deals played."""
        tried, given_up = {frozenset(base)} if done else set(), set()
        gone = [c for c in base if c in dead]
        rest, must, sets = _sets(base, free, (), gone), (), iter(())
        while True:
            want = [c for c in choice.wanted if c in base or c in free]
            wants = [w for w in (tuple(want[:k]) for k in range(len(want), 0, -1))
                     if w not in given_up]
            if wants and wants[0] != must:
                must = wants[0]
                here = [c for c in must if choice.wanted[c] in choice.zones]
                sets = _sets(base, free, here, [c for c in must if c not in here] + gone)
            new = None
            for new in sets if wants else rest:
                self.spend(SETS_PER_DEAL)
                if new not in tried and not new & dead and (
                        not wants or choice.fits(base, new, must)):
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


def _played(g: Game, cards: Iterable[str]) -> set[str]:
    """Those of `cards` (held by the player to move in `g`) that a legal move plays."""
    used = {str(c) for m in g.legal_moves for c in m.cards}
    return {c for c in cards if c in used}


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
