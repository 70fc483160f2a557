# cython: language_level=3
"""The play loop (see _playout.pxd): the moves of the policies that do not search,
played until the game ends, the cap is reached or a seat decided elsewhere must move.
It needs only those policies (_sampler, _greedy, _expert), so both the search, whose
playouts it plays, and the dispatcher (_policies) build on it."""

from libc.stdint cimport uint32_t

from cuttle._state cimport (State, CRules, Rng, MAX_MOVES, PH_OVER, POL_RANDOM, POL_GREEDY,
                            POL_EXPERT, POLICY_KIND_MASK, is_search)
from cuttle._rng cimport rng_below
from cuttle._engine cimport gen_moves, apply_move
from cuttle._sampler cimport random_move
from cuttle._greedy cimport greedy_move
from cuttle._expert cimport expert_move


cdef uint32_t plain_move(State* s, const CRules* r, int policy, Rng* g, uint32_t* buf,
                         int n) noexcept nogil:
    cdef int kind = policy & POLICY_KIND_MASK
    if kind == POL_GREEDY:
        return greedy_move(s, r, g, buf, n)
    if kind == POL_EXPERT:
        return expert_move(s, r, g, buf, n)
    return buf[rng_below(g, n)]


cdef int play_until(State* s, const CRules* r, const int* seats, Rng* g, int* k, int cap,
                    MoveLog* log) noexcept nogil:
    cdef uint32_t buf[MAX_MOVES]
    cdef uint32_t m
    cdef int n, policy
    while s.phase != PH_OVER:
        if k[0] >= cap:
            return PLAY_CAP
        policy = seats[s.to_move]
        if policy < 0 or is_search(policy):
            return PLAY_DECIDE
        if log != NULL and log.n >= log.room:
            return PLAY_LOG_FULL
        if policy == POL_RANDOM:
            m = random_move(s, r, g)       # the sampler: no list to build
        else:
            n = gen_moves(s, r, buf)
            m = buf[0] if n == 1 else plain_move(s, r, policy, g, buf, n)
        apply_move(s, r, m)
        if log != NULL:
            log.moves[log.n] = m
            log.n += 1
        k[0] += 1
    return PLAY_OVER
