# cython: language_level=3
# The game review's native work (cuttle.review): a decider's moves valued by searches
# whose root may only play the move, and playouts of the true position.  Python calls
# forced_searches and hindsight; these nogil functions are their work items.

from libc.stdint cimport uint32_t, int8_t
from cuttle._state cimport State, CRules, Rng
from cuttle._infer cimport Seen

# One search of `iters` iterations (all of them) from `root` forced to buf[forced],
# an inferring one weighing its deals by `seen` (NULL: nothing seen): 0 and the
# decider's mean result in value[0], or -1 (no memory) / -2 (the root left the move).
cdef int forced_value(const State* root, const CRules* r, int policy, int iters,
                      const uint32_t* buf, int n, int forced, const Seen* seen, Rng* g,
                      double* value) noexcept nogil

# forced_value drawing from stream `stream` of `seed`.
cdef int forced_one(const State* root, const CRules* r, int policy, int iters,
                    const uint32_t* buf, int n, int forced, const Seen* seen,
                    unsigned long long seed, Py_ssize_t stream, double* value) noexcept nogil

# The winner of a playout of the true position by `policy` (-1 draw; -2: no memory).
cdef int8_t hindsight_one(const State* root, const CRules* r, int policy,
                          unsigned long long seed, Py_ssize_t stream) noexcept nogil
