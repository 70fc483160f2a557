# cython: language_level=3
"""Native play: a policy's decision for a game, whole games of a seeded run and rollout
analyses, the batches spread over all cores (OpenMP prange).

Game i of a seeded run is dealt from stream deal_stream(i) of the seed and its players
draw from policy_stream(i) (_rng.pxd); rollout k of an analysis uses stream k of the
analysis seed for every move (common random numbers).  So every result depends only on
(seed, index), never on the thread count or how a run is cut into calls.
"""

from libc.stdint cimport uint64_t, uint32_t, int8_t, int32_t
from cython.parallel cimport prange

import os
import numpy as np

from cuttle._state cimport *
from cuttle._rng cimport (rng_seed, deal_stream, policy_stream, STREAM_DECISION,
                          STREAM_PLAYOUT)
from cuttle._engine cimport gen_moves, apply_move, deal, score
from cuttle._hidden cimport determinize
from cuttle._policies cimport choose_move, play_out, POL_RANDOM
from cuttle._core cimport CoreGame
from cuttle._signals cimport poll_interrupt, reset_interrupt
from cuttle._signals import raise_if_interrupted


cdef inline int resolve_threads(int threads) noexcept:
    return threads if threads > 0 else (os.cpu_count() or 1)


# ---------------------------------------------------------------------------------------
# One decision, one playout.

def decide(CoreGame game, int policy, uint64_t seed):
    """The move code `policy` picks for the player to decide in `game` (None once the
    game is over); the game is not changed.  The policy sees only that player's view."""
    cdef uint32_t buf[MAX_MOVES]
    cdef Rng g
    cdef uint32_t m
    cdef State s = game.st
    cdef int n = gen_moves(&s, &game.cr, buf)
    if n == 0:
        return None
    rng_seed(&g, seed, STREAM_DECISION)
    reset_interrupt()
    with nogil:
        m = choose_move(&s, &game.cr, policy, &g, buf, n)
    raise_if_interrupted()           # a search stopped by Ctrl-C
    return m


def random_playout(CoreGame game, uint64_t seed, int max_moves=100000):
    """Play `game` to the end with random legal moves (its undo history is dropped);
    returns the number of moves played."""
    cdef Rng g
    cdef int n
    rng_seed(&g, seed, STREAM_PLAYOUT)
    with nogil:
        n = play_out(&game.st, &game.cr, POL_RANDOM, POL_RANDOM, &g, max_moves)
    game.nhist = 0
    return n


# ---------------------------------------------------------------------------------------
# Whole games of a seeded run.

cdef void run_game(const CRules* r, uint64_t seed, Py_ssize_t i, int pol_a, int pol_b,
                   int swap, int max_moves, Py_ssize_t k, int8_t[::1] winner,
                   int8_t[::1] first, int32_t[::1] moves, int32_t[::1] turns,
                   int8_t[:, ::1] scores, int8_t[::1] end) noexcept nogil:
    cdef State s
    cdef Rng g
    cdef int a_seat = 1 if (swap and (i & 1)) else 0     # player A's seat (0 moves first)
    rng_seed(&s.rng, seed, deal_stream(i))
    deal(&s, r)
    rng_seed(&g, seed, policy_stream(i))
    moves[k] = play_out(&s, r, pol_b if a_seat else pol_a, pol_a if a_seat else pol_b,
                        &g, max_moves)
    winner[k] = -1 if s.winner < 0 else (s.winner ^ a_seat)
    first[k] = a_seat
    turns[k] = s.turn_number + 1
    scores[k, 0] = <int8_t>score(&s, a_seat)
    scores[k, 1] = <int8_t>score(&s, a_seat ^ 1)
    end[k] = s.end_reason


def play_batch(rules, Py_ssize_t start, Py_ssize_t count, uint64_t seed, int policy_a,
               int policy_b, bint swap_seats=True, int threads=0, int max_moves=10000):
    """Play games start .. start+count-1 of a seeded run natively, over `threads` cores
    (0: all).  Players are A (policy_a) and B (policy_b); with swap_seats A moves first
    in even-numbered games.  Returns a dict of numpy arrays, one row per game:
    winner (0 = A, 1 = B, -1 = draw), first (who moved first), moves, turns,
    scores (A, B), end (code into END_NAMES)."""
    cdef CRules r = rules.c_fields()
    if count < 0 or start < 0:
        raise ValueError("start and count must be >= 0")
    threads = resolve_threads(threads)
    winner = np.empty(count, np.int8)
    first = np.empty(count, np.int8)
    moves = np.empty(count, np.int32)
    turns = np.empty(count, np.int32)
    scores = np.empty((count, 2), np.int8)
    end = np.empty(count, np.int8)
    cdef int8_t[::1] w_v = winner
    cdef int8_t[::1] f_v = first
    cdef int32_t[::1] m_v = moves
    cdef int32_t[::1] t_v = turns
    cdef int8_t[:, ::1] s_v = scores
    cdef int8_t[::1] e_v = end
    cdef Py_ssize_t k
    cdef int swap = swap_seats
    reset_interrupt()
    for k in prange(count, nogil=True, num_threads=threads, schedule="dynamic", chunksize=64):
        if not poll_interrupt():
            run_game(&r, seed, start + k, policy_a, policy_b, swap, max_moves, k,
                     w_v, f_v, m_v, t_v, s_v, e_v)
    raise_if_interrupted()
    return {"winner": winner, "first": first, "moves": moves, "turns": turns,
            "scores": scores, "end": end}


# ---------------------------------------------------------------------------------------
# Rollout analysis: every legal move of the decider, evaluated by playouts from
# determinizations of the decider's view.  Rollout k of every move uses the same
# stream (seed, k), so the moves are compared on the same samples (common random
# numbers), and results do not depend on the thread count.

cdef void analyse_one(const State* root, const CRules* r, uint32_t move, int policy,
                      uint64_t seed, Py_ssize_t k, int8_t* out) noexcept nogil:
    cdef State s = root[0]
    cdef Rng g
    rng_seed(&g, seed, <uint64_t>k)
    determinize(&s, r, root.to_move, &g)
    apply_move(&s, r, move)
    play_out(&s, r, policy, policy, &g, 10000)
    out[0] = <int8_t>s.winner


def rollouts(CoreGame game, codes, Py_ssize_t start, Py_ssize_t count, uint64_t seed,
             int policy, int threads=0):
    """Rollouts start..start+count-1 of each move in `codes` (legal moves of `game`):
    an int8 array (len(codes), count) of winners (-1 draw)."""
    cdef Py_ssize_t nm = len(codes), total, j
    threads = resolve_threads(threads)
    moves_arr = np.asarray(codes, dtype=np.uint32)
    out = np.empty((nm, count), np.int8)
    cdef uint32_t[::1] mv = moves_arr
    cdef int8_t[:, ::1] ov = out
    cdef State root = game.st
    cdef CRules r = game.cr
    total = nm * count
    reset_interrupt()
    if count > 0:
        for j in prange(total, nogil=True, num_threads=threads, schedule="dynamic",
                        chunksize=16):
            if not poll_interrupt():
                analyse_one(&root, &r, mv[j // count], policy, seed, start + j % count,
                            &ov[j // count, j % count])
    raise_if_interrupted()
    return out
