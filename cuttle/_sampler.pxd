# cython: language_level=3
# The random policy: a uniform legal move, exactly buf[rng_below(g, n)] (or buf[0] when
# n == 1) over gen_moves' list, built without the list.  move_at(s, r, k, &n): the k-th
# move of that list (k < n), its length in n (0 in a 7's reveal: not handled).

from libc.stdint cimport uint64_t, uint32_t
from cuttle._state cimport State, CRules, Rng, NCARDS, QUEENS, PH_MAIN, popcount

cdef uint32_t move_at(const State* s, const CRules* r, int k, int* count) noexcept nogil

# main_move (the main phase) and other_move (the others but a 7's reveal, where the
# count is 0) count the moves into count, then draw (k < 0) or take the k-th.
cdef uint32_t main_move(const State* s, const CRules* r, Rng* g, int k,
                        int* count) noexcept nogil
cdef uint32_t other_move(const State* s, const CRules* r, Rng* g, int k,
                         int* count) noexcept nogil
cdef uint32_t listed_random_move(const State* s, const CRules* r, Rng* g) noexcept nogil

cdef inline uint32_t random_move(const State* s, const CRules* r, Rng* g) noexcept nogil:
    # Inline: play_out calls it for every move of a random player.
    cdef int n
    cdef uint32_t m
    if s.phase == PH_MAIN:
        return main_move(s, r, g, -1, &n)
    m = other_move(s, r, g, -1, &n)
    return m if n > 0 else listed_random_move(s, r, g)

# BELOW[strict][c]: the point cards that point card c beats (an index, or with
# strict_scuttle a rank, below its own); ABOVE[strict][t]: those that beat t.
cdef uint64_t BELOW[2][NCARDS]
cdef uint64_t ABOVE[2][NCARDS]
