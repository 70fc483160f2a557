# cython: language_level=3
"""Native decisions: a policy's move for one game (`decide`, which `cuttle.policies.Bot`
calls), the search trees a bot keeps between its decisions, and single random playouts.

A decision of seed s draws from stream STREAM_DECISION of s; a root-parallel search's tree
t from derive_seed(s, t) (_rng.pxd), so a choice depends on the seed and the thread count
only, never on the scheduling.
"""

from libc.stdint cimport uint64_t, uint32_t, int32_t
from cython.parallel cimport prange
from cpython.mem cimport PyMem_Malloc, PyMem_Free

import numpy as np

from cuttle._state cimport *
from cuttle._rng cimport rng_seed, derive_seed, STREAM_DECISION, STREAM_PLAYOUT
from cuttle._engine cimport gen_moves, apply_move
from cuttle._policies cimport choose_move, play_out
from cuttle._sampler cimport random_move, move_at
from cuttle._search cimport (Tree, tree_init, tree_clear, tree_advance, ismcts_visits,
                             most_visited)
from cuttle._core cimport CoreGame
from cuttle._signals cimport reset_interrupt
from cuttle._signals import raise_if_interrupted



cdef int same_position(const State* a, const State* b) noexcept nogil:
    # Whether two states hold the same cards in the same places, at the same point.
    cdef int i
    if a.hand[0] != b.hand[0] or a.hand[1] != b.hand[1] or a.points[0] != b.points[0] or \
            a.points[1] != b.points[1] or a.permanents[0] != b.permanents[0] or a.permanents[1] != b.permanents[1] or \
            a.scrap != b.scrap or a.stacked != b.stacked or a.deck_len != b.deck_len or \
            a.phase != b.phase or a.to_move != b.to_move or a.turn_number != b.turn_number or \
            a.stack_len != b.stack_len or a.n_revealed != b.n_revealed:
        return 0
    for i in range(a.deck_len):
        if a.deck[i] != b.deck[i]:
            return 0
    for i in range(40):
        if a.jack_stacks[i] != b.jack_stacks[i]:
            return 0
    return 1


cdef class SearchTrees:
    """The search trees a Bot keeps between its decisions in a game (one per thread):
    reused when the next position follows from the searched one by the moves played
    since (checked by replaying them), dropped otherwise."""
    cdef Tree* trees
    cdef int count
    cdef State root                  # the position of the last search
    cdef Py_ssize_t ply              # its ply in the game's history
    cdef int valid

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

    cdef int follow(self, CoreGame game) except -1:
        """Advance the trees to `game`'s position, or drop them if it does not follow
        from the last search by the game's moves since."""
        cdef State s = self.root
        cdef Py_ssize_t k
        cdef int i
        if not self.valid or game.nhist < self.ply or s.to_move != game.st.to_move:
            self.clear()
            return 0
        for k in range(self.ply, game.nhist):
            apply_move(&s, &game.cr, game.hist_moves[k])
        if not same_position(&s, &game.st):
            self.clear()
            return 0
        for i in range(self.count):
            if tree_advance(&self.trees[i], &game.hist_moves[self.ply],
                            <int>(game.nhist - self.ply)) < 0:
                self.clear()
                raise MemoryError("no memory for the search tree")
        return 0

    cdef void searched(self, CoreGame game):
        self.root = game.st
        self.ply = game.nhist
        self.valid = 1


def search_trees(int threads):
    """Empty search trees for a Bot searching with `threads` threads."""
    return SearchTrees(threads)


def decide(CoreGame game, int policy, uint64_t seed, int threads=1, SearchTrees trees=None):
    """The move code `policy` picks for the player to decide in `game` (None once the
    game is over); the game is not changed.  The policy sees only that player's view.
    A search runs `threads` independent trees (root parallelism) whose root visits
    are summed; tree t draws from stream derive(seed, t), so the result depends on the
    seed and the thread count only (threads=1: exactly the single search of seed).
    With `trees` (from search_trees(threads)) the trees are kept for the next call."""
    cdef uint32_t buf[MAX_MOVES]
    cdef Rng g
    cdef uint32_t m
    cdef State s = game.st
    cdef int n = gen_moves(&s, &game.cr, buf)
    cdef int t, i, iters, failed = 0
    cdef Rng* streams
    cdef int32_t* visits
    cdef int32_t* total
    cdef int* errs
    cdef Tree* tr
    if n == 0:
        return None
    if threads < 1:
        raise ValueError(f"threads must be >= 1, not {threads}")
    reset_interrupt()
    if not is_search(policy) or n == 1:
        rng_seed(&g, seed, STREAM_DECISION)
        with nogil:
            m = choose_move(&s, &game.cr, policy, &g, buf, n)
        raise_if_interrupted()
        return m
    if trees is None:
        trees = SearchTrees(threads)
    elif trees.count != threads:
        raise ValueError(f"the trees were made for {trees.count} threads, not {threads}")
    else:
        trees.follow(game)
    iters = policy >> POLICY_SHIFT
    if iters < threads:
        threads = iters if iters > 0 else 1
    streams = <Rng*>PyMem_Malloc(threads * sizeof(Rng))
    visits = <int32_t*>PyMem_Malloc(threads * n * sizeof(int32_t))
    errs = <int*>PyMem_Malloc(threads * sizeof(int))
    if streams == NULL or visits == NULL or errs == NULL:
        PyMem_Free(streams)
        PyMem_Free(visits)
        PyMem_Free(errs)
        raise MemoryError()
    tr = trees.trees
    for t in range(threads):
        rng_seed(&streams[t], seed if threads == 1 else derive_seed(seed, t), STREAM_DECISION)
        errs[t] = 0
        for i in range(n):
            visits[t * n + i] = 0
    try:
        for t in prange(threads, nogil=True, num_threads=threads, schedule="static", chunksize=1):
            errs[t] = ismcts_visits(&tr[t], &s, &game.cr, policy,
                                    iters // threads + (1 if t < iters % threads else 0),
                                    &streams[t], buf, n, &visits[t * n])
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
    trees.searched(game)
    raise_if_interrupted()
    return m


def sampler_moves(CoreGame game):
    """The random policy's view of the legal moves (its count and its k-th move for
    every k), which must equal gen_moves' list; None in a 7's reveal, which the
    sampler leaves to gen_moves.  For tests."""
    cdef int n = 0, k
    cdef uint32_t first = move_at(&game.st, &game.cr, 0, &n)
    if n == 0:
        return None
    return [first] + [move_at(&game.st, &game.cr, k, &n) for k in range(1, n)]


def random_moves(CoreGame game, uint64_t seed, Py_ssize_t count):
    """`count` independent draws of the random policy in `game` (its stream seeded
    from `seed`), as a numpy array of move codes.  For tests."""
    cdef Rng g
    cdef Py_ssize_t i
    out = np.empty(count, np.uint32)
    cdef uint32_t[::1] ov = out
    rng_seed(&g, seed, STREAM_DECISION)
    for i in range(count):
        ov[i] = random_move(&game.st, &game.cr, &g)
    return out


def random_playout(CoreGame game, uint64_t seed, int max_moves=100000):
    """Play `game` to the end with random legal moves (its undo history is dropped);
    returns the number of moves played."""
    cdef Rng g
    cdef int n
    rng_seed(&g, seed, STREAM_PLAYOUT)
    with nogil:
        play_out(&game.st, &game.cr, POL_RANDOM, POL_RANDOM, &g, max_moves, &n)
    game.nhist = 0
    return n
