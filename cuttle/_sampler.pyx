# cython: language_level=3
"""The random policy: a uniform legal move without building the move list.  What may
be played is the engine's (card_plays and the predicates of _engine.pxd, which
gen_moves lists from); here the moves are counted with popcounts and the k-th is built
directly, in gen_moves' order, so a draw k = rng_below(g, n) picks exactly the move
buf[k] that gen_moves would list: the stream, and so every seeded result, is the same
as listing the moves, only faster.  tests/engine/test_random_sampler.py checks counts
and order against gen_moves.
"""

from libc.stdint cimport uint64_t, uint32_t, int8_t
from libc.string cimport memset

from cuttle._state cimport *
from cuttle._rng cimport rng_below
from cuttle._engine cimport (gen_moves, CardPlays, card_plays, draw_blocked, counters,
                             blockers, takeable, BELOW, ABOVE)


cdef inline int kth_bit(uint64_t m, int k) noexcept nogil:
    while k > 0:
        m &= m - 1
        k -= 1
    return lowest(m)

cdef inline uint32_t each_at(uint64_t m, int verb, int k) noexcept nogil:
    return mk(verb, kth_bit(m, k), NO_CARD)

cdef inline uint32_t card_play_at(const CardPlays* cp, uint64_t scuttles, int c,
                                  int k) noexcept nogil:
    # The k-th move gen_moves lists for card c of the hand (`scuttles`: the point cards
    # c may scuttle).
    cdef int rk = rank_of(c)
    cdef int j
    if c == JOKER:
        return mk(V_ONEOFF, c, NO_CARD)
    if rk >= 11:
        return mk(V_ROYAL, c, NO_CARD)
    if rk == 10:
        return mk(V_JACK, c, kth_bit(cp.jack, k))
    if k == 0:
        return mk(V_POINTS, c, NO_CARD)
    k -= 1
    j = popcount(scuttles)
    if k < j:
        return mk(V_SCUTTLE, c, kth_bit(scuttles, k))
    k -= j
    if rk == 7:
        if k == 0:
            return mk(V_GLASSES, c, NO_CARD)
        return mk(V_ONEOFF, c, kth_bit(cp.eight, k - 1))
    if rk == 1 or rk == 8:
        j = popcount(cp.two[0] if rk == 1 else cp.nine[0])
        if k < j:
            return mk(V_ONEOFF, c, kth_bit(cp.two[0] if rk == 1 else cp.nine[0], k))
        return mk(V_ONEOFF, c, kth_bit(cp.two[1] if rk == 1 else cp.nine[1], k - j))
    return mk(V_ONEOFF, c, NO_CARD)

cdef uint32_t main_move(const State* s, const CRules* r, Rng* g, int k,
                        int* count) noexcept nogil:
    # The main phase: count the moves, then (k < 0) draw one, and build the k-th.
    cdef int p = s.to_move
    cdef int n, h, t, n2 = 0, n9 = 0, n8 = 1
    cdef uint64_t m = s.hand[p] & ~s.frozen[p]
    cdef uint64_t pts = m & POINT_CARDS
    cdef int lead = 1 if (s.deck_len == 0 or not draw_blocked(s, r, p)) else 0
    cdef const uint64_t* below = &BELOW[1 if r.strict_scuttle else 0][0]
    cdef const uint64_t* above = &ABOVE[1 if r.strict_scuttle else 0][0]
    cdef uint64_t scuttles, ones, sc
    cdef CardPlays cp
    cdef int8_t extra[16]
    card_plays(s, r, p, m, 0, &cp)
    scuttles = cp.scuttles
    ones = cp.ones
    # The moves besides points, scuttles and `ones` of a 2, an 8 (the glasses, and
    # broken ones), a 9 and a Jack.  (Tests on the rules, not the cards, where the work
    # is cheap: a branch on the cards mispredicts often.)
    if m & (TWOS | NINES):
        n2 = popcount(cp.two[0]) + popcount(cp.two[1])
        n9 = popcount(cp.nine[0]) + popcount(cp.nine[1])
    if r.eight_breaks_glasses:
        n8 += popcount(cp.eight)
    memset(extra, 0, sizeof(extra))
    extra[1] = <int8_t>n2
    extra[7] = <int8_t>n8
    extra[8] = <int8_t>n9
    extra[10] = <int8_t>popcount(cp.jack)
    n = popcount(pts) + popcount(m & ones) + popcount(m & TWOS) * n2 + \
        popcount(m & EIGHTS) * n8 + popcount(m & NINES) * n9 + popcount(m & JACKS) * extra[10]
    sc = scuttles                         # scuttles: pairs (target, card above it)
    if pts:
        while sc:
            t = lowest(sc)
            sc &= sc - 1
            n += popcount(pts & above[t])
    if n + lead == 0:
        count[0] = 1                      # stuck under the no-draw limit: pass
        return mk(V_PASS, NO_CARD, NO_CARD)
    count[0] = n + lead
    if k < 0:
        k = 0 if n + lead == 1 else <int>rng_below(g, n + lead)
    if lead:
        if k == 0:
            return mk(V_PASS if s.deck_len == 0 else V_DRAW, NO_CARD, NO_CARD)
        k -= 1
    while True:                           # the card whose moves hold index k
        t = lowest(m)
        m &= m - 1
        h = <int>((POINT_CARDS >> t) & 1) + popcount(scuttles & below[t]) + \
            <int>((ones >> t) & 1) + extra[rank_of(t)]
        if k < h:
            return card_play_at(&cp, scuttles & below[t], t, k)
        k -= h

cdef uint32_t other_move(const State* s, const CRules* r, Rng* g, int k,
                         int* count) noexcept nogil:
    # The other phases (a 7's reveal: count 0, left to gen_moves).
    cdef int p = s.to_move
    cdef int ph = s.phase
    cdef int n, a, h = 0
    cdef uint64_t m
    if ph == PH_COUNTER or ph == PH_BLOCK:
        m = counters(s, p) if ph == PH_COUNTER else blockers(s, p)
        n = 1 + popcount(m)
    elif ph == PH_THREE:
        m = takeable(s, r)
        n = popcount(m)
    elif ph == PH_FOUR:
        m = s.hand[p]
        h = popcount(m)
        n = 1 if h == 1 else h * (h - 1) // 2
    elif ph == PH_FIVE or ph == PH_DISCARD or ph == PH_TEN:
        m = s.hand[p]
        n = popcount(m)
    else:
        count[0] = 0
        return 0
    count[0] = n
    if k < 0:
        k = 0 if n == 1 else <int>rng_below(g, n)
    if ph == PH_COUNTER or ph == PH_BLOCK:
        if k == 0:
            return mk(V_RESOLVE, NO_CARD, NO_CARD)
        return each_at(m, V_COUNTER if ph == PH_COUNTER else V_BLOCK, k - 1)
    if ph == PH_THREE:
        return each_at(m, V_TAKE, k)
    if ph == PH_FOUR and h > 1:
        while True:                       # pairs a < b in order: a's row is the cards above a
            a = lowest(m)
            m &= m - 1
            h -= 1
            if k < h:
                return mk(V_DISCARD, a, kth_bit(m, k))
            k -= h
    return each_at(m, V_DISCARD, k)

cdef uint32_t listed_random_move(const State* s, const CRules* r, Rng* g) noexcept nogil:
    cdef uint32_t buf[MAX_MOVES]
    cdef int n = gen_moves(s, r, buf)
    return buf[0] if n == 1 else buf[rng_below(g, n)]
