# cython: language_level=3
# Information-set MCTS.  A tree may be kept between one player's decisions of a game and
# reused: tree_advance follows the moves played since its search.  Every function that
# allocates returns -1 (and leaves the tree empty) when memory runs out.

from libc.stdint cimport uint32_t, int32_t
from cuttle._state cimport State, CRules, Rng
from cuttle._infer cimport Seen, seen_reset

cdef enum:
    RANKED = 8                # moves a node remembers from its first expansion

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
    int32_t ranked            # its children-to-be, best first: ranks[ranked ...] (-1: none)
    int32_t n_ranked

ctypedef struct Ranked:
    # A move the expert ranked at a node's first expansion, and its prior.
    uint32_t move
    float prior

ctypedef struct Tree:
    Node* nodes               # nodes[0] is the root (the searcher's position)
    int n                     # nodes in use (0: empty)
    int cap
    Ranked* ranks             # the nodes' ranked moves (RANKED per expanded node)
    int n_ranks
    int rank_cap
    Seen seen                 # the opponent's decisions since (and before) the last search

cdef inline void node_init(Node* nd, uint32_t move, int parent, int player,
                           float prior) noexcept nogil:
    # A node with no child, sibling or visit yet (every field set: the one set-up).
    nd.move = move
    nd.parent = parent
    nd.first_child = -1
    nd.next_sibling = -1
    nd.player = player
    nd.visits = 0
    nd.avail = 1
    nd.prior = prior
    nd.reward = 0.0
    nd.ranked = -1
    nd.n_ranked = 0

cdef inline void tree_init(Tree* t) noexcept nogil:
    # An empty tree (no memory held), nothing seen.
    t.nodes = NULL
    t.n = t.cap = 0
    t.ranks = NULL
    t.n_ranks = t.rank_cap = 0
    seen_reset(&t.seen)

cdef inline void tree_drop(Tree* t) noexcept nogil:
    # Forget the tree and what was seen (the moves since cannot be followed); the
    # memory is kept for the next search.
    t.n = 0
    t.n_ranks = 0
    seen_reset(&t.seen)

cdef void tree_clear(Tree* t) noexcept nogil
# Follow the k moves played since t's last search: the opponent's decisions are kept
# (t.seen) and the root moves along them (the subtree reached kept, or t emptied).
cdef int tree_advance(Tree* t, const CRules* r, const uint32_t* moves, int k) noexcept nogil
# Search `policy`'s iteration count into t and add each root move's visits to visits[]
# (indexed like root_moves); `iters` overrides the count (root parallelism splits it).
cdef int ismcts_visits(Tree* t, const State* root, const CRules* r, int policy, int iters,
                       Rng* g, const uint32_t* root_moves, int n_root,
                       int32_t* visits) noexcept nogil
# ismcts_visits running all of its iterations: no stop once the root's choice is settled
# (SearchConfig.settle), which a root forced to one move would always be (_review).
cdef int ismcts_visits_full(Tree* t, const State* root, const CRules* r, int policy,
                            int iters, Rng* g, const uint32_t* root_moves, int n_root,
                            int32_t* visits) noexcept nogil
cdef uint32_t most_visited(const uint32_t* root_moves, int n_root,
                           const int32_t* visits) noexcept nogil
# The most visited root move of a search of `policy`'s iteration count (into t if not
# NULL, kept for reuse), or MOVE_NO_MEMORY.
cdef uint32_t ismcts_move(const State* root, const CRules* r, int policy, Rng* g,
                          const uint32_t* root_moves, int n_root, Tree* t) noexcept nogil
