# cython: language_level=3
# The native policies' contract: a policy is an int, kind | parameter << POLICY_SHIFT
# (the parameter is the ISMCTS iteration count), and picks a legal move for the player
# to decide from what that player may know, drawing randomness from its own stream.

from libc.stdint cimport uint32_t, int32_t
from cuttle._state cimport State, CRules, Rng

cdef enum:
    POL_RANDOM = 0
    POL_GREEDY = 1
    POL_ISMCTS_RANDOM = 2     # ISMCTS with random playouts
    POL_ISMCTS = 3            # ISMCTS with greedy playouts
    POL_EXPERT = 4            # hand-built evaluation, shallow look-ahead
    POLICY_SHIFT = 8
    POLICY_KIND_MASK = 255
    MOVE_NO_MEMORY = 1 << 16  # not a move: a search could not allocate its tree

# The move `policy` picks among the n legal moves in buf (n >= 1), or MOVE_NO_MEMORY
# (no move code is that large) when a search cannot allocate its tree.
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

# Information-set MCTS.  A tree may be kept between one player's decisions of a game and
# reused: tree_advance follows the moves played since its search.  Every function that
# allocates returns -1 (and leaves the tree empty) when memory runs out.
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

cdef void tree_clear(Tree* t) noexcept nogil
cdef int tree_advance(Tree* t, const uint32_t* moves, int k) noexcept nogil
# Search `policy`'s iteration count into t and add each root move's visits to visits[]
# (indexed like root_moves); `iters` overrides the count (root parallelism splits it).
cdef int ismcts_visits(Tree* t, const State* root, const CRules* r, int policy, int iters,
                       Rng* g, const uint32_t* root_moves, int n_root,
                       int32_t* visits) noexcept nogil
cdef uint32_t most_visited(const uint32_t* root_moves, int n_root,
                           const int32_t* visits) noexcept nogil
