# cython: language_level=3
"""Native decisions: a policy's move for one game (`decide`, which `cuttle.policies.Bot`
calls), and the search trees a bot keeps between its decisions.

A decision of seed s draws from stream STREAM_DECISION of s; a root-parallel search's tree
t from derive_seed(s, t) (_rng.pxd), so a choice depends on the seed and the thread count
only, never on the scheduling.
"""

from libc.stdint cimport uint64_t, uint32_t, int32_t
from cython.parallel cimport prange
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.string cimport memcmp, memcpy

from cuttle._state cimport *
from cuttle._rng cimport rng_seed, derive_seed, splitmix64, STREAM_DECISION
from cuttle._engine cimport gen_moves, is_legal, apply_move, states_equal
from cuttle._checks cimport check_state
from cuttle._policies cimport choose_move
from cuttle._search cimport (Tree, tree_init, tree_clear, tree_advance, ismcts_visits,
                             most_visited)
from cuttle._core cimport CoreGame
from cuttle.threads import thread_count
import numpy as np
from cuttle._signals cimport (Stop, Cancel, stop_start, stop_bind, stop_enter, stop_leave,
                             stop_finish)
from cuttle._infer cimport (move_likelihood as infer_move_likelihood, Seen, Belief,
                           seen_follow, seen_recall, belief_build, belief_weights,
                           move_features as infer_move_features,
                           MODEL_EXPERT, MODEL_LEARNED, N_FEATURES, largest)
from cuttle._expert cimport expert_values, position_value
from cuttle._weights cimport LEAF_EXPERT
from cuttle._weights import check_leaf


cdef inline const State* game_start(CoreGame game):
    # The position the game started from.
    return &game.hist[0] if game.nhist > 0 else &game.st

cdef uint64_t history_digest(CoreGame game, Py_ssize_t ply):
    # The game's first `ply` moves, hashed (splitmix64 steps over the move codes).
    cdef uint64_t h = <uint64_t>ply
    cdef Py_ssize_t k
    for k in range(ply):
        h ^= game.hist_moves[k]
        h = splitmix64(&h)
    return h


cdef class SearchTrees:
    """The search trees a Bot keeps between its decisions in a game (one per thread):
    reused when the next position follows from the searched one by the moves played
    since under the same rules (checked by replaying them, each checked legal first: a
    Bot shared by several games searched another game last), dropped otherwise."""

    def __cinit__(self, int count):
        self.trees = <Tree*>PyMem_Malloc(count * sizeof(Tree))
        if self.trees == NULL:
            raise MemoryError()
        self.count = count
        for i in range(count):
            tree_init(&self.trees[i])
        self.valid = 0

    def __dealloc__(self):
        if self.trees != NULL:
            self.clear()
            PyMem_Free(self.trees)

    cdef void clear(self):
        for i in range(self.count):
            tree_clear(&self.trees[i])
        self.valid = 0

    cdef int follows(self, CoreGame game):
        # 1 if game's position follows from the searched one by the moves played since
        # (each legal), under the same rules, and game is the searched game: the same
        # start and moves up to the search (not another game, or line, that reached the
        # same position: the trees' record of the opponent's decisions is that game's).
        cdef State s = self.root
        cdef Py_ssize_t k
        if (not self.valid or game.nhist < self.ply or s.to_move != game.st.to_move
                or memcmp(&self.rules, &game.cr, sizeof(CRules)) != 0
                or history_digest(game, self.ply) != self.history
                or not states_equal(&self.start, game_start(game))):
            return 0
        for k in range(self.ply, game.nhist):
            if not is_legal(&s, &game.cr, game.hist_moves[k]):
                return 0
            apply_move(&s, &game.cr, game.hist_moves[k])
        return states_equal(&s, &game.st)

    cdef int follow(self, CoreGame game) except -1:
        cdef int i
        if not self.follows(game):
            self.clear()
            self.recall(game)
            return 0
        for i in range(self.count):
            if tree_advance(&self.trees[i], &game.cr, &game.hist_moves[self.ply],
                            <int>(game.nhist - self.ply)) < 0:
                self.clear()
                raise MemoryError("no memory for the search tree")
        return 0

    cdef void recall(self, CoreGame game):
        # Fresh trees: what the opponent did since the searcher's first decision in the
        # game's history is read back from it, as a bot that had decided there and
        # followed the game since would have seen it (_infer.seen_recall).
        cdef int i
        for i in range(self.count):
            seen_recall(&self.trees[i].seen, game.hist, game.hist_moves, game.nhist,
                        &game.cr, game.st.to_move)

    cdef void searched(self, CoreGame game):
        self.root = game.st
        self.start = game_start(game)[0]
        self.history = history_digest(game, game.nhist)
        memcpy(&self.rules, &game.cr, sizeof(CRules))   # (padding too: compared whole)
        self.ply = game.nhist
        self.valid = 1


def search_trees(int threads):
    """Empty search trees for a Bot searching with `threads` threads."""
    return SearchTrees(threads)


cdef uint32_t root_parallel(SearchTrees trees, const State* s, const CRules* r, int policy,
                            uint64_t seed, int threads, const uint32_t* buf,
                            int n, Cancel cancel) except? 0:
    # `threads` searches from s, one per tree, their root visits summed: the most
    # visited move.  Tree t draws from stream derive_seed(seed, t) (seed itself alone).
    # A cancelled search answers with what it has and keeps its trees (it searched the
    # position, only less).
    cdef int iters = policy >> POLICY_SHIFT
    cdef int t, i, failed = 0
    cdef uint32_t m
    cdef Tree* tr = trees.trees
    cdef Stop stop
    cdef int team
    if iters < threads:
        threads = iters if iters > 0 else 1
    cdef Rng* streams = <Rng*>PyMem_Malloc(threads * sizeof(Rng))
    cdef int32_t* visits = <int32_t*>PyMem_Malloc(threads * n * sizeof(int32_t))
    cdef int* errs = <int*>PyMem_Malloc(threads * sizeof(int))
    try:
        if streams == NULL or visits == NULL or errs == NULL:
            raise MemoryError()
        for t in range(threads):
            rng_seed(&streams[t], seed if threads == 1 else derive_seed(seed, t),
                     STREAM_DECISION)
            errs[t] = 0
            for i in range(n):
                visits[t * n + i] = 0
        team = thread_count(threads)      # (a thread may search several trees in turn)
        stop_start(&stop)
        stop_bind(&stop, cancel)
        for t in prange(threads, nogil=True, num_threads=team, schedule="static",
                        chunksize=1):
            stop_enter(&stop)            # (a stopped search answers with what it has)
            errs[t] = ismcts_visits(&tr[t], s, r, policy,
                                    iters // threads + (1 if t < iters % threads else 0),
                                    &streams[t], buf, n, &visits[t * n])
            stop_leave()
        if stop.stopped:
            trees.clear()                # (searched in part: not the position's trees)
        stop_finish(&stop)
        for t in range(1, threads):
            for i in range(n):
                visits[i] += visits[t * n + i]
        for t in range(threads):
            failed |= errs[t]
        m = most_visited(buf, n, visits)
    finally:
        PyMem_Free(streams)
        PyMem_Free(visits)
        PyMem_Free(errs)
    if failed:
        trees.clear()
        raise MemoryError("no memory for the search tree")
    return m


def decide(CoreGame game, int policy, uint64_t seed, int threads=1, SearchTrees trees=None,
           Cancel cancel=None):
    """The move code `policy` picks for the player to decide in `game` (None once the
    game is over); the game is not changed.  The policy sees only that player's view.
    A search runs `threads` independent trees (root parallelism) whose root visits
    are summed; tree t draws from stream derive(seed, t), so the result depends on the
    seed and the thread count only (threads=1: exactly the single search of seed).
    With `trees` (from search_trees(threads)) the trees are kept for the next call.
    With `cancel` (a `_signals.Cancel`; uncancelled, the search is the same), cancelling
    it from another thread stops the search within milliseconds with its best move so
    far; its `done` counts the iterations run."""
    cdef uint32_t buf[MAX_MOVES]
    cdef Rng g
    cdef uint32_t m
    cdef State s = game.st
    cdef int n = gen_moves(&s, &game.cr, buf)
    if n == 0:
        return None
    if threads < 1:
        raise ValueError(f"threads must be >= 1, not {threads}")
    if not is_search(policy) or n == 1:      # (no search: nothing to interrupt)
        rng_seed(&g, seed, STREAM_DECISION)
        with nogil:
            m = choose_move(&s, &game.cr, policy, &g, buf, n)
        return m
    if trees is None:
        trees = SearchTrees(threads)
        trees.recall(game)               # (an inferring search reads the record)
    elif trees.count != threads:
        raise ValueError(f"the trees were made for {trees.count} threads, not {threads}")
    else:
        trees.follow(game)
    m = root_parallel(trees, &s, &game.cr, policy, seed, threads, buf, n, cancel)
    trees.searched(game)
    return m


def search_visits(CoreGame game, int policy, uint64_t seed):
    """The root visits of one search by `policy` (a search) in `game`, as decide(game,
    policy, seed) with a fresh tree and one thread runs it: a list of (move code,
    visits) in the order of the legal moves.  Their sum is the iterations the search
    ran (fewer than its N when it stopped once its choice was settled).  The free
    search of cuttle.analyse_search; Ctrl-C stops it (KeyboardInterrupt)."""
    cdef uint32_t buf[MAX_MOVES]
    cdef int32_t visits[MAX_MOVES]
    cdef Rng g
    cdef Stop stop
    cdef int i, err
    cdef int n = gen_moves(&game.st, &game.cr, buf)
    if not is_search(policy):
        raise ValueError(f"policy {policy!r} is not a search")
    if n == 0:
        return []
    cdef SearchTrees trees = SearchTrees(1)
    trees.recall(game)                   # (an inferring search reads the record)
    for i in range(n):
        visits[i] = 0
    rng_seed(&g, seed, STREAM_DECISION)
    stop_start(&stop)
    with nogil:
        stop_enter(&stop)
        err = ismcts_visits(&trees.trees[0], &game.st, &game.cr, policy,
                            policy >> POLICY_SHIFT, &g, buf, n, visits)
        stop_leave()
    stop_finish(&stop)
    if err < 0:
        raise MemoryError("no memory for the search tree")
    return [(buf[i], visits[i]) for i in range(n)]


cdef int check_model(int model) except -1:
    if model != MODEL_EXPERT and model != MODEL_LEARNED:
        raise ValueError(f"model {model!r}: {MODEL_EXPERT} (the expert's values as a softmax) "
                         f"or {MODEL_LEARNED} (the learned conditional logit)")
    return 0


def move_likelihood(CoreGame game, uint32_t move, int model=MODEL_EXPERT):
    """The probability that the player to decide in `game` plays `move` under a search's
    model of an opponent (cuttle._infer: 1, the expert's values as a softmax; 2, the
    learned conditional logit; each mixed with a uniform choice), read from that
    player's own view; 1.0 when the move is forced.  The search weighs the opponent's
    hidden hands by it."""
    cdef double p
    check_model(model)
    with nogil:
        p = infer_move_likelihood(&game.st, &game.cr, move, model)
    return p


def move_features(CoreGame game):
    """The learned model's features of each legal move in `game` for the player to
    decide, read from that player's own view: a list of (move code, features) in the
    legal moves' order, each features a tuple named by cuttle._infer.FEATURE_NAMES
    (benchmarks/fit_opponent_model.py fits the model's weights on them)."""
    cdef uint32_t buf[MAX_MOVES]
    cdef double values[MAX_MOVES]
    cdef double f[N_FEATURES]
    cdef double top
    cdef int n, i, j
    with nogil:
        n = gen_moves(&game.st, &game.cr, buf)
        if n > 0:
            expert_values(&game.st, &game.cr, buf, n, values)
            top = largest(values, n)
    if n == 0:
        return []
    out = []
    for i in range(n):
        infer_move_features(buf[i], values[i], top, f)
        out.append((buf[i], tuple([f[j] for j in range(N_FEATURES)])))
    return out


def leaf_values(CoreGame game, const unsigned char[:, ::1] states, double scale=30.0,
                int leaf=LEAF_EXPERT):
    """position_value of each state (rows of State bytes, as `_core_state_bytes` gives
    them, under `game`'s rules): player 0's chances by the evaluation under the search's
    leaf weights `leaf` (cuttle._weights._set_leaf_weights), scale points per logit, as the
    search scores the end of a playout.  For fitting those weights
    (benchmarks/fit_leaf_value.py).  ValueError if a row is not a sound state."""
    cdef Py_ssize_t n = states.shape[0], i, bad = -1
    cdef State st
    check_leaf(leaf)
    if n and states.shape[1] != sizeof(State):
        raise ValueError(f"rows of {sizeof(State)} bytes (a State), not {states.shape[1]}")
    out = np.empty(n, dtype=np.float64)
    cdef double[::1] o = out
    with nogil:
        for i in range(n):
            memcpy(&st, &states[i, 0], sizeof(State))
            if check_state(&st, &game.cr):
                bad = i
                break
            o[i] = 1.0 - st.winner if st.phase == PH_OVER and st.winner >= 0 else \
                (0.5 if st.phase == PH_OVER else position_value(&st, &game.cr, scale, leaf))
    if bad >= 0:
        raise ValueError(f"row {bad} is not a sound state")
    return out


def opponent_belief(CoreGame game, SearchTrees trees, uint64_t seed, int model=MODEL_EXPERT):
    """The opponent hands an inferring search (`_search_config(0, infer=model)`) would
    deal from `trees` at `game`'s position, as a list of (hand mask, weight) with weights
    summing to 1; [] when its deals would be uniform, None when game does not follow
    from the trees' last search.  For measuring the inference (the trees are not
    changed; the search itself draws its candidates from its own stream)."""
    check_model(model)
    cdef Seen seen
    cdef Belief b
    cdef Rng g
    if not trees.follows(game):
        return None
    seen = trees.trees[0].seen
    seen_follow(&seen, &game.cr, &game.hist_moves[trees.ply], <int>(game.nhist - trees.ply))
    rng_seed(&g, seed, STREAM_DECISION)
    with nogil:
        belief_build(&b, &seen, &game.st, &game.cr, model, &g)
    return belief_weights(&b)
