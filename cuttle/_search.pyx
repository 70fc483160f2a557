# cython: language_level=3
"""Information-set MCTS (single observer; Cowling, Powley & Whitehouse 2012): every
iteration samples a determinization of the decider's view, walks the tree with UCB
restricted to the moves available in that sample (availability counts), expands one
node, plays the game out and backs the result up for each node's mover.  Moves are
expanded best-first by the expert's evaluation (from the mover's view in the sample),
whose value also biases the choice while a node has few visits (progressive bias).

The playouts are played by a policy that does not search (random, greedy or expert), in
the play loop of cuttle._playout, so this module needs only that, not the dispatcher
(cuttle._policies) that calls it.
"""

from libc.stdint cimport uint32_t, int32_t
from libc.stdlib cimport malloc, realloc, free
from libc.math cimport log, sqrt, exp, INFINITY

from cuttle._state cimport *
from cuttle._rng cimport rng_below
from cuttle._engine cimport gen_moves, apply_move
from cuttle._hidden cimport determinize
from cuttle._signals cimport poll_interrupt
from cuttle._greedy cimport best_index, WIN_VALUE
from cuttle._expert cimport expert_values, position_value
from cuttle._playout cimport play_until, end_by_cap, PLAY_CAP, GAME_MOVE_CAP

ctypedef struct SearchConfig:
    int playout               # the playouts' policy (both players)
    double c                  # UCB exploration
    double bias               # weight of the prior (progressive bias)
    double temp               # points of evaluation per unit of the prior's logit
    int depth                 # playouts stop after this many moves (0: at the end)
    double scale              # ... and are scored by the evaluation: points per logit
    double widen              # progressive widening: a node visited v times has at most
                              # 1 + widen * v ** 0.5 children tried (0: no limit)

cdef SearchConfig SEARCH[2]   # [0]: ismcts, [1]: ismcts-random
SEARCH[0].playout = POL_GREEDY
SEARCH[0].c = 0.3
SEARCH[0].bias = 2.0
SEARCH[0].temp = 4.0
SEARCH[0].depth = 6
SEARCH[0].scale = 30.0
SEARCH[0].widen = 0.25
SEARCH[1] = SEARCH[0]
SEARCH[1].playout = POL_RANDOM


def _search_config(int which, playout=None, c=None, bias=None, temp=None, depth=None,
                   scale=None, widen=None):
    """Read or change a search's settings (0: ismcts, 1: ismcts-random); for tuning.
    The playouts' policy is a kind that does not search (random, greedy or expert)."""
    if which not in (0, 1):
        raise ValueError(f"no search {which!r}: 0 (ismcts) or 1 (ismcts-random)")
    if playout is not None and playout not in (POL_RANDOM, POL_GREEDY, POL_EXPERT):
        raise ValueError(f"playout policy {playout!r}: random ({POL_RANDOM}), "
                         f"greedy ({POL_GREEDY}) or expert ({POL_EXPERT})")
    cdef dict settings = SEARCH[which]        # the struct as a dict
    changes = dict(playout=playout, c=c, bias=bias, temp=temp, depth=depth, scale=scale,
                   widen=widen)
    settings.update({k: v for k, v in changes.items() if v is not None})
    SEARCH[which] = settings
    return SEARCH[which]


cdef inline int in_moves(uint32_t m, const uint32_t* buf, int n) noexcept nogil:
    cdef int i
    for i in range(n):
        if buf[i] == m:
            return 1
    return 0

cdef inline void node_init(Node* nd, uint32_t move, int parent, int player,
                           float prior) noexcept nogil:
    nd.move = move
    nd.parent = parent
    nd.first_child = -1
    nd.next_sibling = -1
    nd.player = player
    nd.visits = 0
    nd.avail = 1
    nd.prior = prior
    nd.reward = 0.0

cdef inline float prior_of(double v, double best, double temp) noexcept nogil:
    # A move's value against the best one's, as a logistic in [0, 1] (1 for the best).
    if v >= WIN_VALUE / 2:
        return 1.0
    if v <= -WIN_VALUE / 2:
        return 0.0
    return <float>(2.0 / (1.0 + exp((best - v) / temp)))

cdef int expand(Node* nodes, int node, int n_nodes, const State* s, const CRules* r,
                const SearchConfig* cfg, const uint32_t* buf, int n, Rng* g) noexcept nogil:
    """Add to `node` the untried move (of the n legal in s) that the expert likes best
    (any untried move without priors); returns the new node's index."""
    cdef double values[MAX_MOVES]
    cdef int i, child, pick = -1, k = 0
    cdef double top = -1e300
    cdef float prior = 1.0
    if cfg.bias > 0.0:
        expert_values(s, r, buf, n, values)
        for i in range(n):
            if values[i] > top:
                top = values[i]
    for i in range(n):
        child = nodes[node].first_child
        while child >= 0 and nodes[child].move != buf[i]:
            child = nodes[child].next_sibling
        if child < 0 and cfg.bias <= 0.0:
            k += 1                          # uniform among the untried (reservoir)
            if rng_below(g, k) == 0:
                pick = i
        elif child >= 0 and cfg.bias > 0.0:
            values[i] = -INFINITY           # tried already: never the pick
    if cfg.bias > 0.0:
        pick = best_index(values, n, g, -1e300)
        prior = prior_of(values[pick], top, cfg.temp)
    child = n_nodes
    node_init(&nodes[child], buf[pick], node, s.to_move, prior)
    nodes[child].next_sibling = nodes[node].first_child
    nodes[node].first_child = child
    return child

cdef inline void playout(State* s, const CRules* r, int policy, Rng* g,
                         int depth) noexcept nogil:
    # Play on with `policy` (one that does not search) for both players: `depth` moves,
    # or (depth 0) to the end, capped as cuttle._policies.play_out caps a game.
    cdef int seats[2]
    cdef int k = 0
    seats[0] = seats[1] = policy
    if play_until(s, r, seats, g, &k, depth if depth > 0 else GAME_MOVE_CAP,
                  NULL) == PLAY_CAP and depth <= 0:
        end_by_cap(s)

cdef int search(Tree* t, const State* root, const CRules* r, int iters,
                const SearchConfig* cfg, Rng* g) noexcept nogil:
    """Run `iters` iterations from `root` (the decider's position) into tree t, whose
    root is that position (empty, or reused from an earlier search).  Returns 0, or
    -1 when the nodes cannot be allocated (t is then empty).  Stops early on Ctrl-C."""
    cdef uint32_t buf[MAX_MOVES]
    cdef State s
    cdef int me = root.to_move
    cdef int it, node, child, best_child, n, untried
    cdef double score_, best_score, logn, res
    cdef Node* nodes
    if tree_reserve(t, t.n + iters + 1) < 0:
        return -1
    nodes = t.nodes
    if t.n == 0:
        node_init(&nodes[0], 0, -1, me ^ 1, 0.5)
        t.n = 1
    for it in range(iters):
        if (it & 15) == 0 and poll_interrupt():
            break                          # Ctrl-C: answer with the best move so far
        s = root[0]
        determinize(&s, r, me, g)
        node = 0
        while s.phase != PH_OVER:
            n = gen_moves(&s, r, buf)
            # Available children get an availability count; untried moves are counted.
            untried = n
            child = nodes[node].first_child
            while child >= 0:
                if in_moves(nodes[child].move, buf, n):
                    nodes[child].avail += 1
                    untried -= 1
                child = nodes[child].next_sibling
            if untried > 0 and cfg.widen > 0.0 and \
                    n - untried >= 1.0 + cfg.widen * sqrt(<double>nodes[node].visits):
                untried = 0                # wide enough for its visits: select
            if untried > 0 and t.n < t.cap:
                node = expand(nodes, node, t.n, &s, r, cfg, buf, n, g)
                t.n += 1
                apply_move(&s, r, nodes[node].move)
                break
            if untried > 0:
                break                      # node pool full: play out from here
            best_child = -1
            best_score = -1e300
            child = nodes[node].first_child
            while child >= 0:
                if nodes[child].visits > 0 and in_moves(nodes[child].move, buf, n):
                    logn = log(<double>nodes[child].avail)
                    score_ = nodes[child].reward / nodes[child].visits + \
                        cfg.c * sqrt(logn / nodes[child].visits) + \
                        cfg.bias * nodes[child].prior / (nodes[child].visits + 1)
                    if score_ > best_score:
                        best_score = score_
                        best_child = child
                child = nodes[child].next_sibling
            if best_child < 0:
                break
            apply_move(&s, r, nodes[best_child].move)
            node = best_child
        # The playout: to the end, or cut short and scored by the evaluation.
        playout(&s, r, cfg.playout, g, cfg.depth)
        if s.phase == PH_OVER:
            res = 0.5 if s.winner < 0 else (1.0 if s.winner == 0 else 0.0)
        else:
            res = position_value(&s, r, cfg.scale)
        while node >= 0:
            nodes[node].visits += 1
            if node > 0:
                nodes[node].reward += res if nodes[node].player == 0 else 1.0 - res
            node = nodes[node].parent
    return 0

# -- trees kept between decisions -------------------------------------------------------

cdef void tree_clear(Tree* t) noexcept nogil:
    free(t.nodes)
    tree_init(t)

cdef int tree_reserve(Tree* t, int cap) noexcept nogil:
    # Room for `cap` nodes (the contents kept); -1 (and t cleared) if it cannot be had.
    cdef Node* more
    if cap <= t.cap:
        return 0
    more = <Node*>realloc(t.nodes, cap * sizeof(Node))
    if more == NULL:
        tree_clear(t)
        return -1
    t.nodes = more
    t.cap = cap
    return 0

cdef int tree_advance(Tree* t, const uint32_t* moves, int k) noexcept nogil:
    """Move t's root along the k moves played since its search (the whole subtree
    reached is kept, compacted, the rest dropped; no subtree: t is emptied).  The
    subtree's statistics come from samples of the earlier view that agree with every
    public move since, so they stay valid for the new root (Cowling et al. reuse).
    Returns -1 if memory runs out (t is then empty)."""
    cdef int node = 0
    cdef int i, child, size, head, j, c
    cdef Node* out
    if t.n == 0:
        return 0
    for i in range(k):
        child = t.nodes[node].first_child
        while child >= 0 and t.nodes[child].move != moves[i]:
            child = t.nodes[child].next_sibling
        if child < 0:
            t.n = 0
            return 0
        node = child
    if node == 0:
        return 0
    # Copy the subtree breadth-first into a fresh array, renumbered from 0.
    out = <Node*>malloc(t.cap * sizeof(Node))
    if out == NULL:
        tree_clear(t)
        return -1
    out[0] = t.nodes[node]
    out[0].parent = -1
    out[0].next_sibling = -1
    size = 1
    head = 0
    while head < size:
        # out[head] is a copy whose first_child still uses the old numbering.
        child = out[head].first_child
        out[head].first_child = -1
        c = -1
        while child >= 0:
            j = size
            size += 1
            out[j] = t.nodes[child]
            out[j].parent = head
            out[j].next_sibling = -1
            if c < 0:
                out[head].first_child = j
            else:
                out[c].next_sibling = j
            c = j
            child = t.nodes[child].next_sibling
        head += 1
    free(t.nodes)
    t.nodes = out
    t.n = size
    return 0

cdef int ismcts_visits(Tree* t, const State* root, const CRules* r, int policy, int iters,
                       Rng* g, const uint32_t* root_moves, int n_root,
                       int32_t* visits) noexcept nogil:
    """Search `iters` iterations into t (kept for reuse) and add each root move's
    visits to visits[] (indexed like root_moves).  Returns 0, or -1 for no memory."""
    cdef int which = 0 if (policy & POLICY_KIND_MASK) == POL_ISMCTS else 1
    cdef int i, child
    if iters < 1:
        iters = 1
    if search(t, root, r, iters, &SEARCH[which], g) < 0:
        return -1
    child = t.nodes[0].first_child
    while child >= 0:
        for i in range(n_root):
            if root_moves[i] == t.nodes[child].move:
                visits[i] += t.nodes[child].visits
        child = t.nodes[child].next_sibling
    return 0

cdef uint32_t most_visited(const uint32_t* root_moves, int n_root,
                           const int32_t* visits) noexcept nogil:
    # The first of the most visited moves (in the order of the legal moves).
    cdef int i, best = 0
    for i in range(1, n_root):
        if visits[i] > visits[best]:
            best = i
    return root_moves[best]

cdef uint32_t ismcts_move(const State* root, const CRules* r, int policy, Rng* g,
                          const uint32_t* root_moves, int n_root, Tree* t) noexcept nogil:
    """The most visited root move of a search (into t if given, else a fresh tree);
    MOVE_NO_MEMORY if the tree cannot be allocated."""
    cdef int32_t visits[MAX_MOVES]
    cdef Tree own
    cdef int i, err
    tree_init(&own)
    for i in range(n_root):
        visits[i] = 0
    err = ismcts_visits(t if t != NULL else &own, root, r, policy, policy >> POLICY_SHIFT,
                        g, root_moves, n_root, visits)
    tree_clear(&own)
    if err < 0:
        return MOVE_NO_MEMORY
    return most_visited(root_moves, n_root, visits)
