# cython: language_level=3
"""Hidden information: determinization from one player's view (docs/analysis.md).

A player sees neither the opponent's hand nor the deck order; the core tracks, with
perfect recall, which of those cards the player knows anyway (State.known_hand,
State.known_deck).  A determinization keeps everything the player knows and deals the
rest anew, so searches and analyses never read hidden cards.
"""

from libc.stdint cimport uint64_t, int8_t
from libc.string cimport memcpy

from cuttle._state cimport *
from cuttle._rng cimport rng_seed, rng_next, shuffle, STREAM_GAME


cdef void determinize(State* s, const CRules* r, int p, Rng* g) noexcept nogil:
    """Redistribute the cards p cannot know (the opponent's unknown hand cards and the
    deck cards whose place is not public) among those same places, uniformly; the
    game's own random stream is reseeded since p cannot know future random effects."""
    cdef Unknown u
    unknown_places(s, r, p, &u)
    deal_unknown(s, p, &u, g)

cdef void unknown_places(const State* s, const CRules* r, int p, Unknown* u) noexcept nogil:
    cdef int i
    cdef uint64_t m = unknown_cards(s, r, p, &u.hidden)
    # The pool in card order: the sample must depend only on what p knows, not on
    # where the unknown cards really are.
    u.n = 0
    while m:
        u.pool[u.n] = <int8_t>lowest(m)
        u.n += 1
        m &= m - 1
    u.k = popcount(u.hidden)
    u.n_slots = 0
    for i in range(s.deck_len):
        if not (s.known_deck & bit(s.deck[i])):
            u.slots[u.n_slots] = <int8_t>i
            u.n_slots += 1

cdef void deal_unknown(State* s, int p, const Unknown* u, Rng* g) noexcept nogil:
    cdef int opp = p ^ 1
    cdef int8_t pool[NCARDS]
    cdef int i
    memcpy(pool, u.pool, u.n)
    shuffle(pool, u.n, g)
    s.hand[opp] &= ~u.hidden
    for i in range(u.k):
        s.hand[opp] |= bit(pool[i])
    for i in range(u.n_slots):
        s.deck[u.slots[i]] = pool[u.k + i]
    rng_seed(&s.rng, rng_next(g), STREAM_GAME)
