# cython: language_level=3
# The greedy policy: the best move by a one-move look-ahead over a static evaluation
# (ties broken uniformly from g), for the player to decide among the n moves in buf.

from libc.stdint cimport uint32_t
from cuttle._state cimport State, CRules, Rng
from cuttle._rng cimport rng_below

cdef extern from *:
    """
    #define CU_WIN_VALUE 1e6
    """
    # The evaluations' value of a won game (greedy's, the expert's; the search's priors).
    const double WIN_VALUE "CU_WIN_VALUE"

cdef uint32_t greedy_move(State* s, const CRules* r, Rng* g, uint32_t* buf, int n) noexcept nogil
# Greedy's value of each of the n moves in buf for the player to decide, into out.
cdef void greedy_values(const State* s, const CRules* r, const uint32_t* buf, int n,
                        double* out) noexcept nogil

cdef inline double terminal_value(const State* s, int me) noexcept nogil:
    # A finished game's value for `me`: a win, a loss or a draw.
    if s.winner == me:
        return WIN_VALUE
    if s.winner == (me ^ 1):
        return -WIN_VALUE
    return 0.0

cdef inline int best_index(const double* values, int n, Rng* g, double floor) noexcept nogil:
    # The index of the highest of n values above `floor` (-1: none), values within 1e-9
    # of each other tied and the tie broken uniformly from g (reservoir sampling: one
    # draw per tied value, in index order), so that a policy is not predictable.  The
    # greedy and expert policies and the search's expansion choose with it.
    cdef int i, pick = -1, nbest = 0
    cdef double best = floor
    for i in range(n):
        if values[i] > best + 1e-9:
            best = values[i]
            pick = i
            nbest = 1
        elif values[i] > best - 1e-9:
            nbest += 1
            if rng_below(g, nbest) == 0:
                pick = i
    return pick
