# cython: language_level=3
"""Hidden information: determinization from one player's view (docs/analysis.md).

A player sees neither the opponent's hand nor the deck order; the core tracks, with
perfect recall, which of those cards the player knows anyway (State.known_hand,
State.known_deck).  A determinization keeps everything the player knows and deals the
rest anew, so searches and analyses never read hidden cards.
"""

from libc.stdint cimport uint64_t, int8_t

from cuttle._state cimport *
from cuttle._rng cimport rng_seed, rng_next, shuffle, STREAM_GAME


cdef void determinize(State* s, const CRules* r, int p, Rng* g) noexcept nogil:
    """Redistribute the cards p cannot know (the opponent's unknown hand cards and the
    deck cards whose place is not public) among those same places, uniformly; the
    game's own random stream is reseeded since p cannot know future random effects."""
    cdef int opp = p ^ 1
    cdef int8_t pool[NCARDS]
    cdef int n = 0
    cdef int i, k
    cdef uint64_t hidden
    cdef uint64_t m = unknown_cards(s, r, p, &hidden)
    # The pool in card order: the sample must depend only on what p knows, not on
    # where the unknown cards really are.
    while m:
        pool[n] = <int8_t>lowest(m)
        n += 1
        m &= m - 1
    shuffle(pool, n, g)
    k = popcount(hidden)
    s.hand[opp] &= ~hidden
    for i in range(k):
        s.hand[opp] |= bit(pool[i])
    for i in range(s.deck_len):
        if not (s.known_deck & bit(s.deck[i])):
            s.deck[i] = pool[k]
            k += 1
    rng_seed(&s.rng, rng_next(g), STREAM_GAME)
