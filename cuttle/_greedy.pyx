# cython: language_level=3
"""The greedy policy: a static evaluation and a one-move look-ahead.  It reads only the
public table, the hand sizes and its own hand."""

from libc.stdint cimport uint32_t

from cuttle._state cimport *
from cuttle._engine cimport gen_moves, apply_move, score, goal


cdef double evaluate(const State* s, const CRules* r, int me) noexcept nogil:
    """Static value of a position for `me`: progress to the goal, cards, threats."""
    cdef int opp = me ^ 1
    if s.phase == PH_OVER:
        return terminal_value(s, me)
    cdef double v = 0.0
    cdef int g_me = goal(s, r, me)
    cdef int g_op = goal(s, r, opp)
    cdef int need_me = g_me - score(s, me)
    cdef int need_op = g_op - score(s, opp)
    # Progress: every point matters more the closer it brings a player to the goal.
    v += 100.0 * (1.0 - need_me / <double>(g_me if g_me > 0 else 1))
    v -= 100.0 * (1.0 - need_op / <double>(g_op if g_op > 0 else 1))
    # An opponent within one point card of the goal threatens to win next turn.
    if need_op <= 10 and s.hand[opp]:
        v -= 6.0 * (11 - need_op)
    if need_me <= 10 and s.hand[me]:
        v += 2.0 * (11 - need_me)
    v += 4.0 * (popcount(s.hand[me]) - popcount(s.hand[opp]))
    v += 8.0 * (popcount(s.permanents[me] & QUEENS) - popcount(s.permanents[opp] & QUEENS))
    v += 3.0 * (popcount(s.permanents[me] & EIGHTS) - popcount(s.permanents[opp] & EIGHTS))
    return v

cdef double greedy_value(State* s, const CRules* r, int me, int depth) noexcept nogil:
    """Value of `s` for `me` after settling the decisions that follow one move: the
    opponent is assumed to let one-offs and scuttles resolve, and `me`'s own follow-up
    choices (a 3's pick, a 5's discard, ...) are searched one level deep.  A choice left
    to the opponent ends the look-ahead: a 4 under four="choice" is valued before the
    victim discards, as a card spent for nothing, so greedy never plays one (nor a 10
    under ten_discards); docs/analysis.md says so."""
    cdef uint32_t buf[MAX_MOVES]
    cdef State child
    cdef int n, i
    cdef double best, v
    while s.phase != PH_OVER and s.to_move != me and \
            (s.phase == PH_COUNTER or s.phase == PH_BLOCK):
        apply_move(s, r, mk(V_RESOLVE, NO_CARD, NO_CARD))
    if s.phase == PH_OVER or s.phase == PH_MAIN or depth <= 0 or s.to_move != me:
        # Leaves: the opponent's own choices depend on their hidden hand.
        return evaluate(s, r, me)
    if s.phase == PH_SEVEN:
        # The revealed cards come from the hidden deck: value the 7 as a card to come.
        return evaluate(s, r, me) + 4.0
    n = gen_moves(s, r, buf)
    best = -1e18
    for i in range(n):
        child = s[0]
        apply_move(&child, r, buf[i])
        v = greedy_value(&child, r, me, depth - 1)
        if v > best:
            best = v
    return best

cdef void greedy_values(const State* s, const CRules* r, const uint32_t* buf, int n,
                        double* out) noexcept nogil:
    cdef int me = s.to_move
    cdef State child
    cdef int i
    for i in range(n):
        child = s[0]
        apply_move(&child, r, buf[i])
        out[i] = greedy_value(&child, r, me, 2)

cdef uint32_t greedy_move(State* s, const CRules* r, Rng* g, uint32_t* buf, int n) noexcept nogil:
    cdef double values[MAX_MOVES]
    cdef int i
    greedy_values(s, r, buf, n, values)
    i = best_index(values, n, g, -1e18)
    return buf[i if i >= 0 else 0]
