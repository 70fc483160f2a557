# cython: language_level=3
"""Native work of a game review (cuttle.review), spread over all cores (OpenMP prange):

* `forced_searches`: the value of each of a decider's moves by the search itself: an
  ISMCTS search from the decider's own view (it samples determinizations of what the
  decider may know, never the true hidden cards), whose root may only play that move.
  The root is laid out before the search with every legal move as a child, and only
  the forced move's child has a visit, so the search's selection (which walks only to
  children that have visits and expands only moves that are not children yet) sends
  every iteration through it.  The move's value is the mean result of those
  iterations for the decider.  The visits are checked after each search: if the search
  ever stopped honouring a forced root, the call raises instead of returning wrong
  values.  Every iteration is run: the stop of a search whose choice is settled
  (ismcts-infer's) would cut a forced root short, its one move leading from the start.
  An inferring search (ismcts-infer) weighs its deals by the opponent's decisions in
  the game's record, as a bot in the decider's seat would have kept them
  (_infer.seen_recall: only what the decider saw).
* `hindsight`: playouts of the true position (the real hands and deck order, every
  card as it lies), for the review's hindsight line.

Search r of every move draws from stream r of the seed and playout k from stream k, so
results depend only on (seed, index), never on the thread count.

What this module uses of the core: _search.pxd (Tree, Node, ismcts_visits_full,
tree_clear), _infer.pxd (Seen, seen_recall; belief_build for forced_belief),
_engine.gen_moves, _policies.play_out, _rng.rng_seed, _core.CoreGame's st, cr and
history, and _signals.
"""

from libc.stdint cimport uint32_t, int32_t, int8_t
from libc.stdlib cimport malloc
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from cython.parallel cimport prange

import numpy as np

from cuttle._state cimport (State, CRules, Rng, MAX_MOVES, POLICY_SHIFT, is_search,
                            reads_history)
from cuttle._rng cimport rng_seed, STREAM_DECISION
from cuttle._engine cimport gen_moves
from cuttle._policies cimport play_out
from cuttle._playout cimport PLAY_NO_MEMORY, GAME_MOVE_CAP
from cuttle._search cimport (Tree, Node, ismcts_visits_full, tree_clear, tree_init,
                             node_init)
from cuttle._infer cimport (Seen, Belief, seen_recall, belief_build, belief_weights,
                            MODEL_EXPERT, MODEL_LEARNED)
from cuttle._core cimport CoreGame
from cuttle._signals cimport Stop, stop_start, stop_enter, stop_leave, stop_finish
from cuttle.threads import thread_count

cdef enum:
    OK = 0
    NO_MEMORY = -1
    NOT_FORCED = -2          # the search walked to a root move it was not given
    NO_WINNER = -2           # a hindsight playout that could not be played (no memory)


cdef int forced_value(const State* root, const CRules* r, int policy, int iters,
                      const uint32_t* buf, int n, int forced, const Seen* seen, Rng* g,
                      double* value) noexcept nogil:
    """One search of `iters` iterations from `root` whose root may only play
    buf[forced], every iteration run (a forced root is settled from the start); its
    mean result for the decider goes to value[0].  An inferring search weighs its deals
    by `seen` (NULL: nothing seen)."""
    cdef Tree t
    cdef int32_t visits[MAX_MOVES]
    cdef Node* nd
    cdef int i, err
    cdef int me = root.to_move
    tree_init(&t)
    if seen != NULL:
        t.seen = seen[0]
    t.nodes = <Node*>malloc((n + 1) * sizeof(Node))     # the search grows it (realloc)
    if t.nodes == NULL:
        return NO_MEMORY
    t.n = t.cap = n + 1
    for i in range(n):
        visits[i] = 0
    # The root with every legal move as a child, and one visit on the forced move's
    # child (taken off again below); none elsewhere.
    node_init(&t.nodes[0], 0, -1, me ^ 1, 0.0)
    t.nodes[0].first_child = 1
    for i in range(1, n + 1):
        nd = &t.nodes[i]
        node_init(nd, buf[i - 1], 0, me, 1.0 if i == forced + 1 else 0.0)
        nd.next_sibling = i + 1 if i < n else -1
        nd.visits = 1 if i == forced + 1 else 0
    err = ismcts_visits_full(&t, root, r, policy, iters, g, buf, n, visits)
    if err == 0:
        for i in range(n):
            if i != forced and visits[i] != 0:
                err = NOT_FORCED
        if err == 0 and visits[forced] < 2:
            err = NOT_FORCED
    if err == 0:
        nd = &t.nodes[forced + 1]
        value[0] = nd.reward / (nd.visits - 1)
    tree_clear(&t)
    return err


cdef int forced_one(const State* root, const CRules* r, int policy, int iters,
                    const uint32_t* buf, int n, int forced, const Seen* seen,
                    unsigned long long seed, Py_ssize_t stream, double* value) noexcept nogil:
    cdef Rng g
    rng_seed(&g, seed, <unsigned long long>stream)
    return forced_value(root, r, policy, iters, buf, n, forced, seen, &g, value)


cdef Seen* mover_seen(CoreGame game) except? NULL:
    # What the decider, had it searched at each of its decisions with a choice in the
    # game's record (a bot in its seat), kept of the opponent's decisions: a new Seen
    # (PyMem_Free it).
    cdef Seen* o = <Seen*>PyMem_Malloc(sizeof(Seen))
    if o == NULL:
        raise MemoryError()
    with nogil:
        seen_recall(o, game.hist, game.hist_moves, game.nhist, &game.cr, game.st.to_move)
    return o


cdef int8_t hindsight_one(const State* root, const CRules* r, int policy,
                          unsigned long long seed, Py_ssize_t stream) noexcept nogil:
    cdef State s = root[0]
    cdef Rng g
    cdef int moves
    rng_seed(&g, seed, <unsigned long long>stream)
    if play_out(&s, r, policy, policy, &g, GAME_MOVE_CAP, &moves, NULL) == PLAY_NO_MEMORY:
        return NO_WINNER
    return <int8_t>s.winner


def forced_searches(CoreGame game, codes, Py_ssize_t first, Py_ssize_t count,
                    unsigned long long seed, int policy, int threads=0):
    """Searches first..first+count-1 of each move in `codes` (legal moves of `game`),
    each with `policy`'s iteration count (an ismcts code) and its root forced to the
    move: a float64 array (len(codes), count) of the decider's mean results.  Search r
    of every move draws from stream r of `seed`.  An inferring policy (ismcts-infer)
    reads the opponent's decisions from the game's record (the moves since the
    decider's first decision with a choice), as the decider saw them.  ValueError for
    a code that is not a legal move; MemoryError if a tree cannot be allocated;
    RuntimeError if the search did not keep to the forced move."""
    cdef uint32_t buf[MAX_MOVES]
    cdef int n = gen_moves(&game.st, &game.cr, buf)
    cdef Py_ssize_t nm = len(codes), total, j
    cdef int i
    if not is_search(policy):
        raise ValueError(f"policy {policy} is not a search")
    if count < 0 or first < 0:
        raise ValueError("first and count must be >= 0")
    index = {buf[i]: i for i in range(n)}
    for code in codes:
        if code not in index:
            raise ValueError(f"move code {code!r} is not a legal move of this game")
    forced_arr = np.asarray([index[c] for c in codes], dtype=np.int32)
    out = np.zeros((nm, count), np.float64)
    errs = np.zeros((nm, count), np.int32)
    cdef int32_t[::1] fv = forced_arr
    cdef double[:, ::1] ov = out
    cdef int32_t[:, ::1] ev = errs
    cdef State root = game.st
    cdef CRules r = game.cr
    cdef int iters = max(1, policy >> POLICY_SHIFT)
    cdef Stop stop
    cdef Seen* seen = mover_seen(game) if reads_history(policy) else NULL
    threads = thread_count(threads)
    total = nm * count
    try:
        stop_start(&stop)
        for j in prange(total, nogil=True, num_threads=threads, schedule="dynamic",
                        chunksize=1):
            if not stop_enter(&stop):
                ev[j // count, j % count] = forced_one(&root, &r, policy, iters, buf, n,
                                                       fv[j // count], seen, seed,
                                                       first + j % count,
                                                       &ov[j // count, j % count])
            stop_leave()
        stop_finish(&stop)
    finally:
        PyMem_Free(seen)
    if (errs == NO_MEMORY).any():
        raise MemoryError("no memory for a search tree")
    if (errs == NOT_FORCED).any():
        raise RuntimeError("the search did not keep to the forced root move: "
                           "cuttle._search's selection rules changed")
    return out


def forced_belief(CoreGame game, unsigned long long seed, int model=MODEL_LEARNED):
    """The opponent hands an inferring search of forced_searches would deal from at
    `game`'s position under `model` (ismcts-infer's: the learned one), what it saw read
    from the game's record as forced_searches reads it, its candidates drawn from
    stream STREAM_DECISION of `seed` (as _decide.opponent_belief draws a bot's, so that
    the two compare): a list of (hand mask, weight), [] when its deals would be
    uniform.  For tests."""
    if model != MODEL_EXPERT and model != MODEL_LEARNED:
        raise ValueError(f"model {model!r}: {MODEL_EXPERT} or {MODEL_LEARNED}")
    cdef Seen* seen = mover_seen(game)
    cdef Belief b
    cdef Rng g
    rng_seed(&g, seed, STREAM_DECISION)
    try:
        with nogil:
            belief_build(&b, seen, &game.st, &game.cr, model, &g)
    finally:
        PyMem_Free(seen)
    return belief_weights(&b)


def hindsight(CoreGame game, Py_ssize_t first, Py_ssize_t count, unsigned long long seed,
              int policy, int threads=0):
    """Playouts first..first+count-1 of `game`'s true position (nothing resampled: the
    real hands, deck order and random stream), both players by `policy`; playout k
    draws the players' choices from stream k of `seed`.  An int8 array of winners
    (-1: draw)."""
    if is_search(policy):
        raise ValueError("hindsight playouts use a policy that does not search")
    if count < 0 or first < 0:
        raise ValueError("first and count must be >= 0")
    out = np.empty(count, np.int8)
    cdef int8_t[::1] ov = out
    cdef State root = game.st
    cdef CRules r = game.cr
    cdef Py_ssize_t k
    cdef Stop stop
    threads = thread_count(threads)
    stop_start(&stop)
    for k in prange(count, nogil=True, num_threads=threads, schedule="dynamic", chunksize=8):
        if not stop_enter(&stop):
            ov[k] = hindsight_one(&root, &r, policy, seed, first + k)
        stop_leave()
    stop_finish(&stop)
    if (out == NO_WINNER).any():
        raise MemoryError("no memory for a hindsight playout")
    return out
