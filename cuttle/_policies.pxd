# cython: language_level=3
# The native policies' contract: a policy is an int, kind | parameter << POLICY_SHIFT
# (the parameter is the ISMCTS iteration count), and picks a legal move for the player
# to decide from what that player may know, drawing randomness from its own stream.

from libc.stdint cimport uint32_t
from cuttle._state cimport State, CRules, Rng

cdef enum:
    POL_RANDOM = 0
    POL_GREEDY = 1
    POL_ISMCTS_RANDOM = 2     # ISMCTS with random playouts
    POL_ISMCTS = 3            # ISMCTS with greedy playouts
    POL_EXPERT = 4            # hand-built evaluation, shallow look-ahead
    POLICY_SHIFT = 8
    POLICY_KIND_MASK = 255

# The move `policy` picks among the n legal moves in buf (n >= 1).
cdef uint32_t choose_move(State* s, const CRules* r, int policy, Rng* g,
                          uint32_t* buf, int n) noexcept nogil

# Play to the end, seat 0 by pol0 and seat 1 by pol1; a game still running after
# max_moves moves ends as a draw (END_MOVE_CAP).  Returns the moves made.
cdef int play_out(State* s, const CRules* r, int pol0, int pol1, Rng* g,
                  int max_moves) noexcept nogil

# The random policy: a uniform legal move, exactly buf[rng_below(g, n)] (or buf[0] when
# n == 1) over gen_moves' list, built without the list.  move_at(s, r, k, &n): the k-th
# move of that list (k < n), its length in n (0 in a 7's reveal: not handled).
cdef uint32_t random_move(const State* s, const CRules* r, Rng* g) noexcept nogil
cdef uint32_t move_at(const State* s, const CRules* r, int k, int* count) noexcept nogil
