# cython: language_level=3
"""Information-set MCTS (single observer; Cowling, Powley & Whitehouse 2012): every
iteration samples a determinization of the decider's view, walks the tree with UCB
restricted to the moves available in that sample (availability counts), expands one
node, plays the game out and backs the result up for each node's mover.  Moves are
expanded best-first by the expert's evaluation (from the mover's view in the sample),
whose value also biases the choice while a node has few visits (progressive bias);
`ismcts-infer` orders and biases them instead by the learned model of a strong search's
play (_infer), which reads the expert's values and the kind of each move.

The playouts are played by a policy that does not search (random, greedy or expert), in
the play loop of cuttle._playout, so this module needs only that, not the dispatcher
(cuttle._policies) that calls it.
"""

from libc.stdint cimport uint32_t, int32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset
from libc.math cimport log, sqrt, exp, INFINITY

from cuttle._state cimport *
from cuttle._rng cimport rng_below
from cuttle._engine cimport gen_moves, apply_move, states_equal
from cuttle._infer cimport (Belief, belief_build, belief_deal, seen_search, seen_follow,
                           MODEL_EXPERT, MODEL_LEARNED, N_MODELS, learned_logit)
from cuttle._hidden cimport Unknown, unknown_places, deal_unknown
from cuttle._signals cimport poll_interrupt, work_done
from cuttle._greedy cimport best_index, greedy_values, WIN_VALUE
from cuttle._expert cimport expert_view, view_values, position_value
from cuttle._weights cimport LEAF_EXPERT, LEAF_FITTED
from cuttle._weights import LEAF_SCALE, check_leaf
from cuttle._playout cimport play_until, end_by_cap, PLAY_CAP, GAME_MOVE_CAP

ctypedef struct SearchConfig:
    int playout               # the playouts' policy (both players)
    double c                  # UCB exploration
    double bias               # weight of the prior (progressive bias)
    double temp               # points of evaluation per unit of the prior's logit
    int depth                 # playouts stop after this many moves (0: at the end;
                              # negative: no playout, the new node itself is scored)
    double scale              # ... and are scored by the evaluation: points per logit
    int leaf                  # ... under these weights: LEAF_EXPERT (the expert's) or
                              # LEAF_FITTED (fitted to predict who wins, _expert.pyx)
    double widen              # progressive widening: a node visited v times has at most
                              # 1 + widen * v ** 0.5 children tried (0: no limit)
    int rank                  # expansions after a node's first take its remembered best
                              # moves (RANKED), 0: every expansion evaluates every move
    int infer                 # deal the opponent's hand by its decisions under a model of
                              # its play (_infer: MODEL_EXPERT, MODEL_LEARNED), 0: uniform
    int oracle                # a measurement, never a fair player: deal the opponent its
                              # true hand (reading hidden cards), which bounds what any
                              # inference of that hand could be worth (docs/strength.md)
    double settle             # stop once the most visited root move leads the next by
                              # more than this share of the iterations left (1: it could
                              # no longer be overtaken; 0: every iteration is run)
    double prior              # 0: a move's prior is a logistic of its expert value's gap
                              # to the best (temp); > 0: the learned model of play's
                              # probability of it (_infer's MODEL_LEARNED, which predicts a
                              # strong search's moves) over its favourite's, to this power
    int expert_plies          # the priors of the nodes this shallow (the root: 0) are the
                              # expert's, deeper ones greedy's look-ahead (cheaper)


cdef SearchConfig SEARCH[3]   # [0]: ismcts, [1]: ismcts-random, [2]: ismcts-infer
SEARCH[0].playout = POL_GREEDY
SEARCH[0].c = 0.3
SEARCH[0].bias = 2.0
SEARCH[0].temp = 4.0
SEARCH[0].depth = 6
SEARCH[0].scale = 30.0
SEARCH[0].leaf = LEAF_EXPERT
SEARCH[0].widen = 0.25
SEARCH[0].expert_plies = 1000
SEARCH[0].infer = 0
SEARCH[0].rank = 0
SEARCH[0].oracle = 0
SEARCH[0].settle = 0.0
SEARCH[0].prior = 0.0
SEARCH[1] = SEARCH[0]
SEARCH[1].playout = POL_RANDOM
SEARCH[2] = SEARCH[0]
SEARCH[2].infer = MODEL_LEARNED       # (docs/strength.md, "The learned model of the opponent")
SEARCH[2].leaf = LEAF_FITTED          # (docs/strength.md, "A leaf value fitted to who wins"):
SEARCH[2].scale = LEAF_SCALE          # its scale, and short playouts
SEARCH[2].depth = 2
SEARCH[2].settle = 0.5                # (docs/strength.md, "A search that stops when settled")
SEARCH[2].prior = 2.0                 # (docs/strength.md, "A prior learned from the search's moves")

SEARCH_NAMES = ("ismcts", "ismcts-random", "ismcts-infer")   # the policies, by index


cdef inline int search_index(int policy) noexcept nogil:
    cdef int kind = policy & POLICY_KIND_MASK
    return 0 if kind == POL_ISMCTS else (1 if kind == POL_ISMCTS_RANDOM else 2)


def _search_config(int which, playout=None, c=None, bias=None, temp=None, depth=None,
                   scale=None, widen=None, expert_plies=None, infer=None, rank=None,
                   oracle=None, leaf=None, settle=None, prior=None):
    """Read or change a search's settings (0: ismcts, 1: ismcts-random, 2: ismcts-infer);
    for tuning.  The playouts' policy is a kind that does not search (random, greedy or
    expert).  `oracle` reads the opponent's hand: for measurements only, never a fair
    player."""
    if which not in range(len(SEARCH_NAMES)):
        raise ValueError(f"no search {which!r}: " + ", ".join(
            f"{i} ({name})" for i, name in enumerate(SEARCH_NAMES)))
    if playout is not None and playout not in (POL_RANDOM, POL_GREEDY, POL_EXPERT):
        raise ValueError(f"playout policy {playout!r}: random ({POL_RANDOM}), "
                         f"greedy ({POL_GREEDY}) or expert ({POL_EXPERT})")
    if leaf is not None:
        check_leaf(leaf)
    if infer is not None and infer not in range(N_MODELS):
        raise ValueError(f"infer {infer!r}: 0 (uniform deals), {MODEL_EXPERT} (the expert's "
                         f"model of the opponent) or {MODEL_LEARNED} (the learned model)")
    if prior is not None and not prior >= 0.0:
        raise ValueError(f"prior {prior!r}: 0 (the expert's values) or the power of the "
                         f"learned model's probabilities, more than 0")
    if settle is not None and not settle >= 0.0:
        raise ValueError(f"settle {settle!r}: a share of the iterations left, 0 or more")
    cdef dict settings = SEARCH[which]        # the struct as a dict
    changes = dict(playout=playout, c=c, bias=bias, temp=temp, depth=depth, scale=scale,
                   widen=widen, expert_plies=expert_plies, infer=infer, rank=rank,
                   oracle=oracle, leaf=leaf, settle=settle, prior=prior)
    settings.update({k: v for k, v in changes.items() if v is not None})
    SEARCH[which] = settings
    return SEARCH[which]


cdef enum:
    MOVE_WORDS = 1 << 10      # a bitmap of the 2**16 move codes, in 64-bit words

cdef inline void mark(uint64_t* present, const uint32_t* buf, int n) noexcept nogil:
    # Flip the bits of the n moves in buf (set them, then clear them again).
    cdef int i
    for i in range(n):
        present[buf[i] >> 6] ^= (<uint64_t>1) << (buf[i] & 63)

cdef inline int is_present(const uint64_t* present, uint32_t m) noexcept nogil:
    return <int>((present[m >> 6] >> (m & 63)) & 1)

cdef inline float prior_of(const SearchConfig* cfg, double v, double best) noexcept nogil:
    # A move's prior in [0, 1] (1 for the best) from its score v against the best's:
    # learned logits (cfg.prior > 0, see move_scores) or the expert's values, whose
    # gap becomes a logistic.
    if cfg.prior > 0.0:
        return <float>exp(cfg.prior * (v - best))
    if v >= WIN_VALUE / 2:
        return 1.0
    if v <= -WIN_VALUE / 2:
        return 0.0
    return <float>(2.0 / (1.0 + exp((best - v) / cfg.temp)))

cdef void remember_ranks(Tree* t, int node, const uint32_t* buf, double* values, int n,
                         double top, const SearchConfig* cfg) noexcept nogil:
    # Keep the RANKED best moves of a node's first expansion (values is consumed), so
    # that its later expansions need not evaluate every move again.
    cdef Ranked* out = &t.ranks[t.n_ranks]
    cdef int i, j, best
    for j in range(RANKED):
        best = -1
        for i in range(n):
            if values[i] > -INFINITY and (best < 0 or values[i] > values[best]):
                best = i
        if best < 0:
            break
        out[j].move = buf[best]
        out[j].prior = prior_of(cfg, values[best], top)
        values[best] = -INFINITY
    t.nodes[node].ranked = t.n_ranks
    t.nodes[node].n_ranked = j
    t.n_ranks += RANKED

# -- the expert's values at a node, kept for its next expansion --------------------------
# Progressive widening expands a node again as its visits grow, and each expansion values
# every legal move of that iteration's sample.  The expert's values depend on the sample
# only through the decider's view (_expert.expert_view), which is often the same from
# one visit to the next (a node of the searcher's with no hidden card drawn on the way):
# each node keeps its last view and values, and an equal view takes them again.  Exact:
# the same values as computed anew, so the same play.

cdef enum:
    MEMO_NODES = 4096         # the nodes a search keeps values for (about 1.6 MB with
                              # their views): the first expanded, near the root, are
                              # expanded most often

ctypedef struct Valued:
    State view                # the view the values were computed on
    uint64_t pool             # its cards the decider cannot place
    int n                     # the moves valued: slots[first ...]
    int first
    int room                  # the slots at `first`

ctypedef struct Slot:
    uint32_t move
    double value

ctypedef struct ValueMemo:
    int32_t* at               # per node: its Valued in kept (-1: none); NULL: no memo
    Valued* kept
    int n_kept
    int cap_kept
    Slot* slots
    int n_slots
    int cap_slots

cdef void memo_init(ValueMemo* vm, int nodes) noexcept nogil:
    # A memo for a tree of up to `nodes` nodes (none when the memory cannot be had: the
    # values are then computed at every expansion).
    cdef int i
    memset(vm, 0, sizeof(ValueMemo))
    vm.at = <int32_t*>malloc(nodes * sizeof(int32_t))
    if vm.at != NULL:
        for i in range(nodes):
            vm.at[i] = -1

cdef void memo_free(ValueMemo* vm) noexcept nogil:
    free(vm.at)
    free(vm.kept)
    free(vm.slots)

cdef inline int room_for(void** block, int* cap, int want, size_t size) noexcept nogil:
    # grow(), doubling: amortised appends.
    return grow(block, cap, want if want > 2 * cap[0] else 2 * cap[0], size) \
        if want > cap[0] else 0

cdef void memo_keep(ValueMemo* vm, int node, const State* view, uint64_t pool,
                    const uint32_t* buf, int n, const double* values) noexcept nogil:
    # Keep a node's view and values (nothing when the memory cannot be had).
    cdef Valued* k
    cdef int i, e = vm.at[node]
    if e < 0:
        if vm.n_kept >= MEMO_NODES or \
                room_for(<void**>&vm.kept, &vm.cap_kept, vm.n_kept + 1, sizeof(Valued)) < 0:
            return
        e = vm.n_kept
        vm.n_kept += 1
        vm.kept[e].room = 0
    k = &vm.kept[e]
    if k.room < n:
        if room_for(<void**>&vm.slots, &vm.cap_slots, vm.n_slots + n, sizeof(Slot)) < 0:
            return
        k.first = vm.n_slots
        k.room = n
        vm.n_slots += n
    k.view = view[0]
    k.pool = pool
    k.n = n
    for i in range(n):
        vm.slots[k.first + i].move = buf[i]
        vm.slots[k.first + i].value = values[i]
    vm.at[node] = e

cdef void node_values(ValueMemo* vm, int node, const State* s, const CRules* r,
                      const uint32_t* buf, int n, double* values) noexcept nogil:
    # expert_values(s) for the n moves of buf at `node`: the node's kept values when
    # they were computed on the same view of the same moves.
    cdef State view
    cdef uint64_t pool = expert_view(s, r, &view)
    cdef const Valued* k
    cdef const Slot* kept
    cdef int i
    if vm.at != NULL and vm.at[node] >= 0:
        k = &vm.kept[vm.at[node]]
        kept = &vm.slots[k.first]
        if k.n == n and k.pool == pool and states_equal(&k.view, &view):
            for i in range(n):
                if kept[i].move != buf[i]:
                    break
                values[i] = kept[i].value
            else:
                return
    view_values(&view, pool, r, buf, n, values)
    if vm.at != NULL:
        memo_keep(vm, node, &view, pool, buf, n, values)


cdef int expand(Tree* t, ValueMemo* vm, int node, int ply, const State* s,
                const CRules* r, const SearchConfig* cfg, const uint32_t* buf, int n,
                uint64_t* present, const uint32_t* tried, int n_tried, Rng* g) noexcept nogil:
    """Add to `node` the untried move (of the n legal in s, marked in `present`; its
    children's among them in `tried`) that the expert (or the learned model,
    cfg.prior) likes best (any untried move without priors); returns the new node.
    The first expansion of a node evaluates every move and remembers the best RANKED;
    later ones take the best of those that is untried and legal in this sample, and
    evaluate again only when none is."""
    cdef double values[MAX_MOVES]
    cdef Node* nodes = t.nodes
    cdef int i, child, pick = -1, k = 0
    cdef double top = -1e300, zmax
    cdef float prior = 1.0
    cdef uint32_t move = 0
    cdef const Ranked* ranked
    # `present` marks the untried moves only until the end (a move's children are
    # scattered in the tree: one test of a bit each instead of a walk of the list).
    mark(present, tried, n_tried)
    if cfg.bias > 0.0 and nodes[node].ranked >= 0:
        ranked = &t.ranks[nodes[node].ranked]
        for i in range(nodes[node].n_ranked):
            if is_present(present, ranked[i].move):
                move = ranked[i].move
                prior = ranked[i].prior
                pick = i
                break
    if pick < 0:
        if cfg.bias > 0.0:
            if ply <= cfg.expert_plies:
                node_values(vm, node, s, r, buf, n, values)
            else:
                greedy_values(s, r, buf, n, values)
            for i in range(n):
                if values[i] > top:
                    top = values[i]
            if cfg.prior > 0.0:             # the learned model's logits instead
                zmax = -1e300
                for i in range(n):
                    values[i] = learned_logit(buf[i], values[i], top)
                    if values[i] > zmax:
                        zmax = values[i]
                top = zmax
        for i in range(n):
            child = not is_present(present, buf[i])
            if not child and cfg.bias <= 0.0:
                k += 1                      # uniform among the untried (reservoir)
                if rng_below(g, k) == 0:
                    pick = i
            elif child and cfg.bias > 0.0:
                values[i] = -INFINITY       # tried already: never the pick
        if cfg.bias > 0.0:
            pick = best_index(values, n, g, -1e300)
            prior = prior_of(cfg, values[pick], top)
            if cfg.rank and nodes[node].ranked < 0 and t.n_ranks + RANKED <= t.rank_cap:
                values[pick] = -INFINITY    # (a child from now on)
                remember_ranks(t, node, buf, values, n, top, cfg)
        move = buf[pick]
    mark(present, tried, n_tried)
    child = t.n
    node_init(&nodes[child], move, node, s.to_move, prior)
    nodes[child].next_sibling = nodes[node].first_child
    nodes[node].first_child = child
    t.n += 1
    return child

cdef inline void playout(State* s, const CRules* r, int policy, Rng* g,
                         int depth) noexcept nogil:
    # Play on with `policy` (one that does not search) for both players: `depth` moves,
    # or (depth 0) to the end, capped as cuttle._policies.play_out caps a game; none
    # when depth < 0.
    cdef int seats[2]
    cdef int k = 0
    if depth < 0:
        return
    seats[0] = seats[1] = policy
    if play_until(s, r, seats, g, &k, depth if depth > 0 else GAME_MOVE_CAP,
                  NULL) == PLAY_CAP and depth <= 0:
        end_by_cap(s)

cdef enum:
    N_LOGS = 1024

# LOGS[k] = log(k), filled at import by the same libm call select() would make: the same
# doubles, without a logarithm per child at every step of the walk.
cdef double LOGS[N_LOGS]
cdef int _k
for _k in range(1, N_LOGS):
    LOGS[_k] = log(<double>_k)

cdef inline double log_count(int k) noexcept nogil:
    # log(k) for a count k >= 1 (a child's availability).
    return LOGS[k] if k < N_LOGS else log(<double>k)

cdef int select(const Node* nodes, int node, const uint64_t* present,
                const SearchConfig* cfg) noexcept nogil:
    # The available child with the best UCB score and progressive bias (-1: none).
    cdef int child = nodes[node].first_child
    cdef int best_child = -1
    cdef double score_, best_score = -1e300
    while child >= 0:
        if nodes[child].visits > 0 and is_present(present, nodes[child].move):
            score_ = nodes[child].reward / nodes[child].visits + \
                cfg.c * sqrt(log_count(nodes[child].avail) / nodes[child].visits) + \
                cfg.bias * nodes[child].prior / (nodes[child].visits + 1)
            if score_ > best_score:
                best_score = score_
                best_child = child
        child = nodes[child].next_sibling
    return best_child

cdef inline int available(Node* nodes, int node, const uint64_t* present, int n,
                          uint32_t* tried) noexcept nogil:
    # Count an availability for each child of `node` legal in this sample (its move
    # marked in `present`) and list their moves in `tried`; returns the n legal moves'
    # untried.
    cdef int untried = n
    cdef int child = nodes[node].first_child
    while child >= 0:
        if is_present(present, nodes[child].move):
            nodes[child].avail += 1
            tried[n - untried] = nodes[child].move
            untried -= 1
        child = nodes[child].next_sibling
    return untried

cdef inline void sample(State* s, const State* root, const CRules* r, const Belief* belief,
                        const Unknown* unknown, Rng* g) noexcept nogil:
    # An iteration's determinization of root for its decider, into s: belief_deal's
    # (its uniform deal from `unknown`, the root's unknown cards found once).
    s[0] = root[0]
    if belief.n == 0:
        deal_unknown(s, root.to_move, unknown, g)
    else:
        belief_deal(belief, s, r, root.to_move, g)

cdef inline int settled(const Node* nodes, double margin) noexcept nogil:
    # Whether the root's most visited child leads the next by more than margin visits
    # (a root move not yet tried has none).
    cdef int top = 0, second = 0, v
    cdef int child = nodes[0].first_child
    while child >= 0:
        v = nodes[child].visits
        if v > top:
            second = top
            top = v
        elif v > second:
            second = v
        child = nodes[child].next_sibling
    return top - second > margin


cdef int search(Tree* t, const State* root, const CRules* r, int iters,
                const SearchConfig* cfg, Rng* g) noexcept nogil:
    """Run `iters` iterations from `root` (the decider's position) into tree t, whose
    root is that position (empty, or reused from an earlier search).  Returns 0, or
    -1 when the nodes cannot be allocated (t is then empty).  Stops early on Ctrl-C or a
    cancel (the token counts the iterations run), and once settled (cfg.settle)."""
    cdef uint32_t buf[MAX_MOVES]
    cdef uint32_t tried[MAX_MOVES]         # the moves of buf that are node's children
    cdef uint64_t present[MOVE_WORDS]
    cdef Belief belief
    cdef Unknown unknown
    cdef ValueMemo vm
    cdef State s
    cdef int me = root.to_move
    cdef int it, node, child, n, untried, ply, ran
    cdef double res
    cdef Node* nodes
    if tree_reserve(t, t.n + iters + 1,
                    t.n_ranks + (iters + 1) * RANKED if cfg.rank else 0) < 0:
        return -1
    nodes = t.nodes
    memo_init(&vm, t.cap)
    if t.n == 0:
        node_init(&nodes[0], 0, -1, me ^ 1, 0.5)
        t.n = 1
    memset(present, 0, sizeof(present))
    belief.n = 0
    if cfg.infer:
        belief_build(&belief, &t.seen, root, r, cfg.infer, g)
    if cfg.oracle:                         # (a measurement: reads the hidden hand)
        belief.n = 1
        belief.hands[0] = root.hand[me ^ 1]
        belief.cum[0] = 1.0
    seen_search(&t.seen, root)
    if belief.n == 0:
        unknown_places(root, r, me, &unknown)
    ran = iters
    for it in range(iters):
        if (it & 15) == 0:
            # Ctrl-C or a cancel: the best move so far; settled: the choice will hardly change
            if poll_interrupt() or (cfg.settle > 0.0
                                    and settled(nodes, cfg.settle * (iters - it))):
                ran = it
                break
        sample(&s, root, r, &belief, &unknown, g)
        node = ply = 0
        while s.phase != PH_OVER:
            n = gen_moves(&s, r, buf)
            mark(present, buf, n)
            untried = available(nodes, node, present, n, tried)
            if untried > 0 and cfg.widen > 0.0 and \
                    n - untried >= 1.0 + cfg.widen * sqrt(<double>nodes[node].visits):
                untried = 0                # wide enough for its visits: select
            if untried > 0 and t.n < t.cap:
                node = expand(t, &vm, node, ply, &s, r, cfg, buf, n, present, tried,
                              n - untried, g)
                mark(present, buf, n)
                apply_move(&s, r, nodes[node].move)
                break
            child = -1 if untried > 0 else select(nodes, node, present, cfg)
            mark(present, buf, n)
            if child < 0:
                break                      # node pool full, or nothing to select
            apply_move(&s, r, nodes[child].move)
            node = child
            ply += 1
        # The playout: to the end, or cut short and scored by the evaluation.
        playout(&s, r, cfg.playout, g, cfg.depth)
        if s.phase == PH_OVER:
            res = 0.5 if s.winner < 0 else (1.0 if s.winner == 0 else 0.0)
        else:
            res = position_value(&s, r, cfg.scale, cfg.leaf)
        while node >= 0:
            nodes[node].visits += 1
            if node > 0:
                nodes[node].reward += res if nodes[node].player == 0 else 1.0 - res
            node = nodes[node].parent
    memo_free(&vm)
    work_done(ran)                         # (a cancel token counts them)
    return 0

# -- trees kept between decisions -------------------------------------------------------

cdef void tree_clear(Tree* t) noexcept nogil:
    free(t.nodes)
    free(t.ranks)
    tree_init(t)

cdef inline int grow(void** block, int* cap, int want, size_t size) noexcept nogil:
    # Room in *block for `want` items of `size` bytes (the contents kept); -1 if it
    # cannot be had (*block unchanged).
    cdef void* more
    if want <= cap[0]:
        return 0
    more = realloc(block[0], want * size)
    if more == NULL:
        return -1
    block[0] = more
    cap[0] = want
    return 0

cdef int tree_reserve(Tree* t, int cap, int rank_cap) noexcept nogil:
    # Room for `cap` nodes and `rank_cap` ranked moves (the contents kept); -1 (and t
    # cleared) if it cannot be had.
    if grow(<void**>&t.nodes, &t.cap, cap, sizeof(Node)) < 0 or \
            grow(<void**>&t.ranks, &t.rank_cap, rank_cap, sizeof(Ranked)) < 0:
        tree_clear(t)
        return -1
    return 0

cdef int tree_advance(Tree* t, const CRules* r, const uint32_t* moves, int k) noexcept nogil:
    """Follow the k moves played since t's search: the opponent's decisions among them
    are kept (_infer.seen_follow), and t's root moves along them (the whole subtree
    reached is kept, compacted, the rest dropped; no subtree: t is emptied; the nodes'
    ranked moves are dropped).  The subtree's statistics come from samples of the
    earlier view that agree with every public move since, so they stay valid for the
    new root (Cowling et al. reuse).  Returns -1 if memory runs out (t is then empty)."""
    cdef int node = 0
    cdef int i, child, size, head, j, c
    cdef Node* out
    seen_follow(&t.seen, r, moves, k)
    if t.n == 0:
        t.n_ranks = 0
        return 0
    for i in range(k):
        child = t.nodes[node].first_child
        while child >= 0 and t.nodes[child].move != moves[i]:
            child = t.nodes[child].next_sibling
        if child < 0:
            t.n = t.n_ranks = 0
            return 0
        node = child
    if node == 0:
        return 0
    t.n_ranks = 0
    # Copy the subtree breadth-first into a fresh array, renumbered from 0.
    out = <Node*>malloc(t.cap * sizeof(Node))
    if out == NULL:
        tree_clear(t)
        return -1
    out[0] = t.nodes[node]
    out[0].parent = -1
    out[0].ranked = -1
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
            out[j].ranked = -1
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

cdef int root_visits(Tree* t, const State* root, const CRules* r, const SearchConfig* cfg,
                     int iters, Rng* g, const uint32_t* root_moves, int n_root,
                     int32_t* visits) noexcept nogil:
    """Search `iters` iterations under cfg into t (kept for reuse) and add each root
    move's visits to visits[] (indexed like root_moves).  Returns 0, or -1 for no
    memory."""
    cdef int i, child
    if iters < 1:
        iters = 1
    if search(t, root, r, iters, cfg, g) < 0:
        return -1
    child = t.nodes[0].first_child
    while child >= 0:
        for i in range(n_root):
            if root_moves[i] == t.nodes[child].move:
                visits[i] += t.nodes[child].visits
        child = t.nodes[child].next_sibling
    return 0

cdef int ismcts_visits(Tree* t, const State* root, const CRules* r, int policy, int iters,
                       Rng* g, const uint32_t* root_moves, int n_root,
                       int32_t* visits) noexcept nogil:
    return root_visits(t, root, r, &SEARCH[search_index(policy)], iters, g, root_moves,
                       n_root, visits)

cdef int ismcts_visits_full(Tree* t, const State* root, const CRules* r, int policy,
                            int iters, Rng* g, const uint32_t* root_moves, int n_root,
                            int32_t* visits) noexcept nogil:
    cdef SearchConfig cfg = SEARCH[search_index(policy)]
    cfg.settle = 0.0
    return root_visits(t, root, r, &cfg, iters, g, root_moves, n_root, visits)

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
