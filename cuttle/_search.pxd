# cython: language_level=3
# Information-set MCTS.  A tree may be kept between one player's decisions of a game and
# reused: tree_advance follows the moves played since its search.  Every function that
# allocates returns -1 (and leaves the tree empty) when memory runs out.

from libc.stdint cimport uint32_t, int32_t
from cuttle._state cimport State, CRules, Rng

ctypedef struct Node:
    uint32_t move
    int32_t parent
    int32_t first_child
    int32_t next_sibling
    int32_t player            # who chose `move`
    int32_t visits
    int32_t avail             # iterations in which `move` was available
    float prior               # the expert's opinion of `move`, in [0, 1]
    double reward             # wins (draw = 1/2) of `player` through this node

ctypedef struct Tree:
    Node* nodes               # nodes[0] is the root (the searcher's position)
    int n                     # nodes in use (0: empty)
    int cap

cdef inline void tree_init(Tree* t) noexcept nogil:
    # An empty tree (no memory held).
    t.nodes = NULL
    t.n = t.cap = 0

cdef void tree_clear(Tree* t) noexcept nogil
cdef int tree_advance(Tree* t, const uint32_t* moves, int k) noexcept nogil
# Search `policy`'s iteration count into t and add each root move's visits to visits[]
# (indexed like root_moves); `iters` overrides the count (root parallelism splits it).
cdef int ismcts_visits(Tree* t, const State* root, const CRules* r, int policy, int iters,
                       Rng* g, const uint32_t* root_moves, int n_root,
                       int32_t* visits) noexcept nogil
cdef uint32_t most_visited(const uint32_t* root_moves, int n_root,
                           const int32_t* visits) noexcept nogil
# The most visited root move of a search of `policy`'s iteration count (into t if not
# NULL, kept for reuse), or MOVE_NO_MEMORY.
cdef uint32_t ismcts_move(const State* root, const CRules* r, int policy, Rng* g,
                          const uint32_t* root_moves, int n_root, Tree* t) noexcept nogil
