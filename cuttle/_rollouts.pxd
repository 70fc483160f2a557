# cython: language_level=3
# Rollout analysis's contract: one rollout of one move, the work item of `rollouts`.

from libc.stdint cimport uint64_t, uint32_t, int8_t
from cuttle._state cimport State, CRules

# Rollout k of `move` from `root` (the decider's view): a determinization of the hidden
# cards from stream (seed, k), the move, then `policy` for both players to the end;
# the winner (-1 draw) in out[0], no_memory[0] set if a searching policy ran out.
cdef void analyse_one(const State* root, const CRules* r, uint32_t move, int policy,
                      uint64_t seed, Py_ssize_t k, int8_t* out,
                      volatile int* no_memory) noexcept nogil
