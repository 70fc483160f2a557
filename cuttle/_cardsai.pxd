# cython: language_level=3
# The cuttle.cards "vs AI" opponent, a FULL-INFORMATION reference: a depth-2 minimax
# over the true game (it reads the opponent's hand and the deck order), scored by the
# online game's published heuristic; ties broken uniformly from g.  A reference player
# for the ladder, not a fair player: no other policy reads hidden cards.

from libc.stdint cimport uint32_t
from cuttle._state cimport State, CRules, Rng

# The move among the n >= 1 moves in buf for the player to decide.
cdef uint32_t cards_ai_move(State* s, const CRules* r, Rng* g, uint32_t* buf,
                            int n) noexcept nogil

# The per-player heuristic (see _cardsai.pyx), and a leaf's value for `me`.
cdef int cards_ai_heuristic(const State* s, int p) noexcept nogil
cdef double cards_ai_leaf(const State* s, int me) noexcept nogil

# The value for `me` of the n moves in buf (each: that move, then `depth` more
# decisions of the true game by minimax), into out: exact for the best moves, an upper
# bound below the best for the others (alpha-beta at the root too).
cdef void cards_ai_values(const State* s, const CRules* r, const uint32_t* buf, int n,
                          int depth, double* out) noexcept nogil
