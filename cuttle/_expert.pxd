# cython: language_level=3
# The expert policy: a hand-built evaluation of each legal move with the opponent's
# best reply, computed on a canonical view of the player's knowledge (so the choice
# depends only on what the player may know); ties broken uniformly from g.

from libc.stdint cimport uint32_t, uint64_t
from cuttle._state cimport State, CRules, Rng

cdef uint32_t expert_move(State* s, const CRules* r, Rng* g, uint32_t* buf, int n) noexcept nogil
# The expert's value of each of the n moves in buf for the player to decide, into out.
cdef void expert_values(const State* s, const CRules* r, const uint32_t* buf, int n,
                        double* out) noexcept nogil
# expert_values in two steps: the canonical view of s for the player to decide (the
# cards it cannot place dealt in card order, into view) returning those cards, then the
# values on that view.  The values read s only through the view and the cards, so a
# caller may reuse the values of an equal view (the search does).
cdef uint64_t expert_view(const State* s, const CRules* r, State* view) noexcept nogil
cdef void view_values(const State* view, uint64_t pool, const CRules* r, const uint32_t* buf,
                      int n, double* out) noexcept nogil
# Player 0's chances in s by the evaluation under the weights of leaf value `leaf`
# (_weights.pxd: LEAF_EXPERT, LEAF_FITTED), in [0, 1] (v / scale a logit).
cdef double position_value(const State* s, const CRules* r, double scale,
                           int leaf) noexcept nogil
