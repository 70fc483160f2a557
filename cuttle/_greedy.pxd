# cython: language_level=3
# The greedy policy: the best move by a one-move look-ahead over a static evaluation
# (ties broken uniformly from g), for the player to decide among the n moves in buf.

from libc.stdint cimport uint32_t
from cuttle._state cimport State, CRules, Rng

cdef extern from *:
    """
    #define CU_WIN_VALUE 1e6
    """
    # The evaluations' value of a won game (greedy's, the expert's; the search's priors).
    const double WIN_VALUE "CU_WIN_VALUE"

cdef uint32_t greedy_move(State* s, const CRules* r, Rng* g, uint32_t* buf, int n) noexcept nogil

cdef inline double terminal_value(const State* s, int me) noexcept nogil:
    # A finished game's value for `me`: a win, a loss or a draw.
    if s.winner == me:
        return WIN_VALUE
    if s.winner == (me ^ 1):
        return -WIN_VALUE
    return 0.0
