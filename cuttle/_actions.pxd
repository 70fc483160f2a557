# cython: language_level=3
# The compact action space for learning (docs/rl.md): every move that is legal in some
# position under some rule set has a fixed index below N_ACTIONS, so an action means the
# same move in every position and a mask has N_ACTIONS entries instead of the 65,536
# move codes.  This file is the only place that maps actions to move codes and back;
# the blocks follow the verbs' order (_state.pxd) and, inside a block, card then target.

from libc.stdint cimport uint32_t, int32_t
from libc.math cimport sqrt
from cuttle._state cimport *

# The published layout (numbers in the comments are natural indices: 2s from 4, 8s
# from 28, 9s from 32, 10s from 36, Jacks from 40, Queens from 44; _state.pxd names them).
cdef enum:
    A_DRAW = 0
    A_PASS = 1
    A_RESOLVE = 2
    A_POINTS = 3            # + c                         point cards c < 40
    A_SCUTTLE = 43          # + c(c-1)/2 + t              t < c < 40 (natural index)
    A_ROYAL = 823           # + c - 44                    Queens and Kings
    A_GLASSES = 831         # + c - 28                    the 8s
    A_JACK = 835            # + (c - 40) * 40 + t         a Jack on point card t
    A_ONEOFF = 995          # + c                         one-offs without a target, c < 53
    A_ONEOFF_TWO = 1048     # + (c - 4) * 24 + (t - 28)   a 2 on a permanent or Jack (t >= 28)
    A_ONEOFF_EIGHT = 1144   # + (c - 28) * 3 + other(c, t)  an 8 on another 8's glasses
    A_ONEOFF_NINE = 1156    # + (c - 32) * 51 + other(c, t) a 9 on any other table card
    A_COUNTER = 1360        # + c - 4                     the 2s
    A_TAKE = 1364           # + c                         a 3's pick from the scrap
    A_DISCARD = 1417        # + c                         one card
    A_DISCARD_TWO = 1470    # + b(b-1)/2 + a              a 4's two cards, a < b < 53
    A_BLOCK = 2848          # + c - 36                    the 10s
    N_ACTIONS = 2852
    NO_ACTION = -1


cdef inline int tri_root(int k) noexcept nogil:
    # The b with b(b-1)/2 <= k < (b+1)b/2 (inverse of the pair index).
    cdef int b = <int>((1.0 + sqrt(1.0 + 8.0 * k)) / 2.0)
    while b * (b - 1) // 2 > k:
        b -= 1
    while (b + 1) * b // 2 <= k:
        b += 1
    return b


cdef inline int action_of_move(uint32_t m) noexcept nogil:
    # The compact action of a move code, NO_ACTION for a code no position makes legal.
    cdef int v = mv_verb(m)
    cdef int c = mv_card(m)
    cdef int t = mv_target(m)
    if m >= (1 << 16):
        return NO_ACTION
    if v <= V_RESOLVE:                         # draw, pass, resolve: no card
        return v if c == NO_CARD and t == NO_CARD else NO_ACTION
    if t == NO_CARD:
        if v == V_POINTS and c < FIRST_JACK:
            return A_POINTS + c
        if v == V_ROYAL and FIRST_QUEEN <= c < N_NATURAL:
            return A_ROYAL + c - FIRST_QUEEN
        if v == V_GLASSES and FIRST_EIGHT <= c < FIRST_NINE:
            return A_GLASSES + c - FIRST_EIGHT
        if v == V_ONEOFF and c < NCARDS:
            return A_ONEOFF + c
        if v == V_COUNTER and FIRST_TWO <= c < FIRST_TWO + 4:
            return A_COUNTER + c - FIRST_TWO
        if v == V_TAKE and c < NCARDS:
            return A_TAKE + c
        if v == V_DISCARD and c < NCARDS:
            return A_DISCARD + c
        if v == V_BLOCK and FIRST_TEN <= c < FIRST_JACK:
            return A_BLOCK + c - FIRST_TEN
        return NO_ACTION
    if v == V_SCUTTLE and t < c < FIRST_JACK:
        return A_SCUTTLE + c * (c - 1) // 2 + t
    if v == V_JACK and FIRST_JACK <= c < FIRST_QUEEN and t < FIRST_JACK:
        return A_JACK + (c - FIRST_JACK) * FIRST_JACK + t
    if v == V_ONEOFF:
        if FIRST_TWO <= c < FIRST_TWO + 4 and FIRST_EIGHT <= t < N_NATURAL:
            return A_ONEOFF_TWO + (c - FIRST_TWO) * (N_NATURAL - FIRST_EIGHT) + t - FIRST_EIGHT
        if FIRST_EIGHT <= c < FIRST_NINE and FIRST_EIGHT <= t < FIRST_NINE and t != c:
            return A_ONEOFF_EIGHT + (c - FIRST_EIGHT) * 3 + (t - FIRST_EIGHT) - (t > c)
        if FIRST_NINE <= c < FIRST_TEN and t < N_NATURAL and t != c:
            return A_ONEOFF_NINE + (c - FIRST_NINE) * (N_NATURAL - 1) + t - (t > c)
        return NO_ACTION
    if v == V_DISCARD and c < t < NCARDS:
        return A_DISCARD_TWO + t * (t - 1) // 2 + c
    return NO_ACTION


cdef inline uint32_t move_of_action(int a) noexcept nogil:
    # The move code of a compact action (0 <= a < N_ACTIONS).
    cdef int c, k
    if a < A_POINTS:
        return mk(V_DRAW if a == A_DRAW else (V_PASS if a == A_PASS else V_RESOLVE),
                  NO_CARD, NO_CARD)
    if a < A_SCUTTLE:
        return mk(V_POINTS, a - A_POINTS, NO_CARD)
    if a < A_ROYAL:
        k = a - A_SCUTTLE
        c = tri_root(k)
        return mk(V_SCUTTLE, c, k - c * (c - 1) // 2)
    if a < A_GLASSES:
        return mk(V_ROYAL, FIRST_QUEEN + a - A_ROYAL, NO_CARD)
    if a < A_JACK:
        return mk(V_GLASSES, FIRST_EIGHT + a - A_GLASSES, NO_CARD)
    if a < A_ONEOFF:
        k = a - A_JACK
        return mk(V_JACK, FIRST_JACK + k // FIRST_JACK, k % FIRST_JACK)
    if a < A_ONEOFF_TWO:
        return mk(V_ONEOFF, a - A_ONEOFF, NO_CARD)
    if a < A_ONEOFF_EIGHT:
        k = a - A_ONEOFF_TWO
        return mk(V_ONEOFF, FIRST_TWO + k // (N_NATURAL - FIRST_EIGHT),
                  FIRST_EIGHT + k % (N_NATURAL - FIRST_EIGHT))
    if a < A_ONEOFF_NINE:
        k = a - A_ONEOFF_EIGHT
        c = FIRST_EIGHT + k // 3
        k = FIRST_EIGHT + k % 3                         # the target, skipping the card itself
        return mk(V_ONEOFF, c, k + (k >= c))
    if a < A_COUNTER:
        k = a - A_ONEOFF_NINE
        c = FIRST_NINE + k // (N_NATURAL - 1)
        k = k % (N_NATURAL - 1)
        return mk(V_ONEOFF, c, k + (k >= c))
    if a < A_TAKE:
        return mk(V_COUNTER, FIRST_TWO + a - A_COUNTER, NO_CARD)
    if a < A_DISCARD:
        return mk(V_TAKE, a - A_TAKE, NO_CARD)
    if a < A_DISCARD_TWO:
        return mk(V_DISCARD, a - A_DISCARD, NO_CARD)
    if a < A_BLOCK:
        k = a - A_DISCARD_TWO
        c = tri_root(k)
        return mk(V_DISCARD, k - c * (c - 1) // 2, c)
    return mk(V_BLOCK, FIRST_TEN + a - A_BLOCK, NO_CARD)


# The legal actions of the player to decide, in increasing order, written to `out`
# (room for MAX_MOVES); returns how many.  `moves` is scratch room for MAX_MOVES codes.
cdef int legal_actions(const State* s, const CRules* r, uint32_t* moves,
                       int32_t* out) noexcept nogil
