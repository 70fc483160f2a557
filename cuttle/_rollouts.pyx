# cython: language_level=3
"""Rollout analysis: every legal move of the decider, evaluated by playouts from
determinizations of the decider's view, over all cores (OpenMP prange).  Rollout k of
every move uses the same stream (seed, k), so the moves are compared on the same samples
(common random numbers), and results do not depend on the thread count or on how the
rollouts are cut into calls.  (`cuttle.analysis` and the review's playout engines call
it.)
"""

from libc.stdint cimport uint64_t, uint32_t, int8_t
from cython.parallel cimport prange

import numpy as np

from cuttle._state cimport *
from cuttle._rng cimport rng_seed
from cuttle._engine cimport gen_moves, apply_move
from cuttle._hidden cimport determinize
from cuttle._policies cimport play_out
from cuttle._playout cimport PLAY_NO_MEMORY, GAME_MOVE_CAP
from cuttle._core cimport CoreGame
from cuttle._signals cimport Stop, stop_start, stop_enter, stop_leave, stop_finish
from cuttle.threads import thread_count


cdef void analyse_one(const State* root, const CRules* r, uint32_t move, int policy,
                      uint64_t seed, Py_ssize_t k, int8_t* out,
                      volatile int* no_memory) noexcept nogil:
    cdef State s = root[0]
    cdef Rng g
    cdef int moves
    rng_seed(&g, seed, <uint64_t>k)
    determinize(&s, r, root.to_move, &g)
    apply_move(&s, r, move)
    if play_out(&s, r, policy, policy, &g, GAME_MOVE_CAP, &moves, NULL) == PLAY_NO_MEMORY:
        no_memory[0] = 1                 # (a searching playout policy)
    out[0] = <int8_t>s.winner


def rollouts(CoreGame game, codes, Py_ssize_t start, Py_ssize_t count, uint64_t seed,
             int policy, int threads=0):
    """Rollouts start..start+count-1 of each move in `codes` (legal moves of `game`):
    an int8 array (len(codes), count) of winners (-1 draw).  ValueError for a code that
    is not a legal move of the game (the core only ever applies generated moves)."""
    cdef Stop stop
    cdef volatile int no_memory = 0
    cdef Py_ssize_t nm = len(codes), total, j
    cdef uint32_t buf[MAX_MOVES]
    cdef int n = gen_moves(&game.st, &game.cr, buf)
    legal = {buf[j] for j in range(n)}
    for code in codes:
        if code not in legal:
            raise ValueError(f"move code {code!r} is not a legal move of this game")
    if count < 0 or start < 0:
        raise ValueError("start and count must be >= 0")
    threads = thread_count(threads)
    moves_arr = np.asarray(codes, dtype=np.uint32)
    out = np.empty((nm, count), np.int8)
    cdef uint32_t[::1] mv = moves_arr
    cdef int8_t[:, ::1] ov = out
    cdef State root = game.st
    cdef CRules r = game.cr
    total = nm * count
    stop_start(&stop)
    if count > 0:
        for j in prange(total, nogil=True, num_threads=threads, schedule="dynamic",
                        chunksize=16):
            if not stop_enter(&stop):
                analyse_one(&root, &r, mv[j // count], policy, seed, start + j % count,
                            &ov[j // count, j % count], &no_memory)
            stop_leave()
    stop_finish(&stop)
    if no_memory:
        raise MemoryError("no memory for a search tree")
    return out
