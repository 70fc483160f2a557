# cython: language_level=3
# The native policies' contract: a policy is an int, kind | parameter << POLICY_SHIFT
# (the codes: POL_* in _state.pxd), and picks a legal move for the player to decide
# from what that player may know, drawing randomness from its own stream.  The
# policies' own modules: _sampler (random), _greedy, _expert, _search (ISMCTS).

from libc.stdint cimport uint32_t
from cuttle._state cimport State, CRules, Rng

# The move `policy` picks among the n legal moves in buf (n >= 1), or MOVE_NO_MEMORY
# (no move code is that large) when a search cannot allocate its tree.
cdef uint32_t choose_move(State* s, const CRules* r, int policy, Rng* g,
                          uint32_t* buf, int n) noexcept nogil

# Play to the end, seat 0 by pol0 and seat 1 by pol1; a game still running after
# max_moves moves ends as a draw (END_MOVE_CAP).  Returns the moves made, or -1 if a
# search ran out of memory.
cdef int play_out(State* s, const CRules* r, int pol0, int pol1, Rng* g,
                  int max_moves) noexcept nogil
