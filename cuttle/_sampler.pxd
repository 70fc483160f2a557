# cython: language_level=3
# The random policy: a uniform legal move, exactly buf[rng_below(g, n)] (or buf[0] when
# n == 1) over gen_moves' list, built without the list.

from libc.stdint cimport uint64_t, uint32_t
from cuttle._state cimport State, CRules, Rng, PH_MAIN

# main_move (the main phase) and other_move (the others but a 7's reveal, where the
# count is 0) count the moves into count, then draw (k < 0, from g) or take the k-th
# (k < count; g unused).
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
