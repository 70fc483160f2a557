# cython: language_level=3
# Hidden information: what one player cannot know, and samples consistent with their view.

from libc.stdint cimport uint64_t, int8_t
from cuttle._state cimport State, CRules, Rng, NCARDS, bit
from cuttle._engine cimport hand_is_public

cdef inline uint64_t unknown_cards(const State* s, const CRules* r, int p,
                                   uint64_t* hidden) noexcept nogil:
    # The cards p cannot place: the opponent's hand cards p does not know (also written
    # to hidden[0]) and the deck cards whose place is not public.  Determinizations
    # deal them anew, the expert's canonical view in card order.
    cdef int opp = p ^ 1
    cdef int i
    cdef uint64_t m
    hidden[0] = 0 if hand_is_public(s, r, opp) else (s.hand[opp] & ~s.known_hand[p])
    m = hidden[0]
    for i in range(s.deck_len):
        if not (s.known_deck & bit(s.deck[i])):
            m |= bit(s.deck[i])
    return m

# Redistribute, in place, the cards player p cannot know (unknown_cards) among those
# same places, uniformly from stream g; the sample depends only on p's view.
cdef void determinize(State* s, const CRules* r, int p, Rng* g) noexcept nogil

ctypedef struct Unknown:
    # determinize in two steps, for many samples of one position (the search's root):
    # the cards p cannot place, in card order, and their places, found once
    # (unknown_places), then dealt for each sample (deal_unknown).
    int8_t pool[NCARDS]
    int n
    uint64_t hidden           # those in the opponent's hand: the first k dealt go there
    int k
    int8_t slots[NCARDS]      # the deck's places of the others, bottom first
    int n_slots

cdef void unknown_places(const State* s, const CRules* r, int p, Unknown* u) noexcept nogil
# determinize(s, r, p, g) for a copy s of the position u was found in, the same draws.
cdef void deal_unknown(State* s, int p, const Unknown* u, Rng* g) noexcept nogil
