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


cdef inline int seat_policy(int policy) noexcept nogil:
    # A seat's policy as the loop plays it: its code, or -1 when it is decided elsewhere.
    return -1 if (policy < 0 or is_search(policy)) else policy

cdef inline int stop(const State* s, const int* policy, int moves, int cap) noexcept nogil:
    # Why the loop stops before the next move, or -1 when it goes on.
    if s.phase == PH_OVER:
        return PLAY_OVER
    if moves >= cap:
        return PLAY_CAP
    if policy[s.to_move] < 0:
        return PLAY_DECIDE
    return -1

cdef inline uint32_t next_move(State* s, const CRules* r, int policy, Rng* g,
                               uint32_t* buf) noexcept nogil:
    # The move of a seat that does not search.
    cdef int n
    if policy == POL_RANDOM:
        return random_move(s, r, g)        # the sampler: no list to build
    n = gen_moves(s, r, buf)
    return buf[0] if n == 1 else plain_move(s, r, policy, g, buf, n)

cdef int play_until(State* s, const CRules* r, const int* seats, Rng* g, int* k, int cap,
                    MoveLog* log) noexcept nogil:
    cdef uint32_t buf[MAX_MOVES]
    cdef int policy[2]
    cdef int moves = k[0]
    cdef int status
    cdef uint32_t m
    policy[0] = seat_policy(seats[0])
    policy[1] = seat_policy(seats[1])
    if log == NULL:                        # (a loop that tests nothing for a log)
        while True:
            status = stop(s, policy, moves, cap)
            if status >= 0:
                break
            apply_move(s, r, next_move(s, r, policy[s.to_move], g, buf))
            moves += 1
    else:
        while True:
            status = stop(s, policy, moves, cap)
            if status < 0 and log.n >= log.room:
                status = PLAY_LOG_FULL
            if status >= 0:
                break
            m = next_move(s, r, policy[s.to_move], g, buf)
            apply_move(s, r, m)
            log.moves[log.n] = m
            log.n += 1
            moves += 1
    k[0] = moves
    return status
