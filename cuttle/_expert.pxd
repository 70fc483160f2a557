# cython: language_level=3
# The expert policy: a hand-built evaluation of each legal move with the opponent's
# best reply, computed on a canonical view of the player's knowledge (so the choice
# depends only on what the player may know); ties broken uniformly from g.

from libc.stdint cimport uint32_t
from cuttle._state cimport State, CRules, Rng

cdef uint32_t expert_move(State* s, const CRules* r, Rng* g, uint32_t* buf, int n) noexcept nogil
# The expert's value of each of the n moves in buf for the player to decide, into out.
cdef void expert_values(const State* s, const CRules* r, const uint32_t* buf, int n,
                        double* out) noexcept nogil
# Player 0's chances in s by the expert's evaluation, in [0, 1] (v / scale a logit).
# The weights of the search's leaf value (SearchConfig.leaf): a copy of the expert's, or
# the set fitted to predict who wins (_expert.pyx, LEAF_WEIGHTS).
cdef enum:
    LEAF_EXPERT = 0
    LEAF_FITTED = 1
    N_LEAVES = 2

cdef double position_value(const State* s, const CRules* r, double scale,
                           int leaf) noexcept nogil
