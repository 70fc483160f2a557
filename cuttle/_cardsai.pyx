# cython: language_level=3
"""The cuttle.cards "vs AI" opponent (policy ``cuttle.cards-ai``), from the online
game's published behaviour (issue 25).  A FULL-INFORMATION reference: it reads the
opponent's hand and the order of the deck, so chance is no chance for it (it knows the
next draws, and the state's own stream, hence a random four's discards).  It is a
fixed point of comparison for the ladder, not a fair player.

Every decision (a main move, a counter, a 3's pick, a 4's discards, a 7's card, ...)
is answered alike: each legal move is scored by a minimax over the true game of depth
2 below it -- the move, the next decision (the reply), the decision after that (its
next move) -- each decision maximised by its decider for itself (the AI for itself,
the opponent against it).  A decision is one move of the engine (a counter, a resolve,
a discard count as one each).  Leaves: a finished game is +/-WIN_VALUE (the online
AI's +/-infinity; a draw 0), else heuristic(me) - heuristic(opponent), with 0.5 added
to the heuristic of the player whose turn it is (State.turn).  Ties between the best
moves are broken uniformly from g.  Alpha-beta prunes without changing any choice (a
root move is searched with the window just below the best so far: values are
multiples of 0.5, so a move that fails low is strictly worse).

The heuristic of player p, as the issue states it (our readings of its ambiguities in
docs/strength.md, "The anchors"):
  + 1 per card in hand, + 2 per point card p controls, + 2 per royal or glasses on p's
  side (the permanents: Kings, Queens, glasses-8s; a Jack counts through the point card
  it holds), - 2 per Queen beyond the second, - 2 per glasses-8 beyond the first,
  - 2 per point card beyond those p needs: with no King one if p's points are at most
  10, else two; with one King one if p's points are at least 4, else none; with two or
  more Kings no such penalty; with three Kings - 2 more (once).
"""

from libc.stdint cimport uint32_t

from cuttle._state cimport *
from cuttle._engine cimport gen_moves, apply_move, score
from cuttle._greedy cimport best_index, WIN_VALUE

# A won game's value: the online AI's +infinity.  Finite (the evaluations' WIN_VALUE,
# far above any heuristic) so that ties between wins stay ties for best_index and a
# position lost whatever is played still has moves to choose among.
cdef double CARDS_AI_WIN = WIN_VALUE

cdef double TURN_BONUS = 0.5
cdef double WINDOW = 0.25      # below the best by less than the values' step (0.5)


cdef int cards_ai_heuristic(const State* s, int p) noexcept nogil:
    cdef uint64_t perm = s.permanents[p]
    cdef int cards = popcount(s.points[p])
    cdef int kings = popcount(perm & KINGS)
    cdef int queens = popcount(perm & QUEENS)
    cdef int eights = popcount(perm & EIGHTS)
    cdef int pts, need = -1
    cdef int h = popcount(s.hand[p]) + 2 * cards + 2 * popcount(perm)
    if queens > 2:
        h -= 2 * (queens - 2)
    if eights > 1:
        h -= 2 * (eights - 1)
    if kings <= 1:
        pts = score(s, p)
        if kings == 0:
            need = 1 if pts <= 10 else 2
        else:
            need = 1 if pts >= 4 else 0
        if cards > need:
            h -= 2 * (cards - need)
    elif kings == 3:
        h -= 2
    return h


cdef double cards_ai_leaf(const State* s, int me) noexcept nogil:
    cdef double v
    if s.phase == PH_OVER:
        if s.winner < 0:
            return 0.0
        return CARDS_AI_WIN if s.winner == me else -CARDS_AI_WIN
    v = cards_ai_heuristic(s, me) - cards_ai_heuristic(s, me ^ 1)
    return v + TURN_BONUS if s.turn == me else v - TURN_BONUS


cdef double minimax(const State* s, const CRules* r, int me, int depth, double alpha,
                    double beta) noexcept nogil:
    # The value of s for `me` with `depth` decisions still to search (fail-hard
    # alpha-beta: a value <= alpha or >= beta is only a bound).
    cdef uint32_t buf[MAX_MOVES]
    cdef State child
    cdef int n, i
    cdef double v
    if depth == 0 or s.phase == PH_OVER:
        return cards_ai_leaf(s, me)
    n = gen_moves(s, r, buf)
    if s.to_move == me:
        for i in range(n):
            child = s[0]
            apply_move(&child, r, buf[i])
            v = minimax(&child, r, me, depth - 1, alpha, beta)
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
        return alpha
    for i in range(n):
        child = s[0]
        apply_move(&child, r, buf[i])
        v = minimax(&child, r, me, depth - 1, alpha, beta)
        if v < beta:
            beta = v
            if alpha >= beta:
                break
    return beta


cdef void cards_ai_values(const State* s, const CRules* r, const uint32_t* buf, int n,
                          int depth, double* out) noexcept nogil:
    cdef int me = s.to_move
    cdef State child
    cdef int i
    cdef double best = -2 * CARDS_AI_WIN
    for i in range(n):
        child = s[0]
        apply_move(&child, r, buf[i])
        out[i] = minimax(&child, r, me, depth, best - WINDOW, 2 * CARDS_AI_WIN)
        if out[i] > best:
            best = out[i]


cdef uint32_t cards_ai_move(State* s, const CRules* r, Rng* g, uint32_t* buf,
                            int n) noexcept nogil:
    cdef double values[MAX_MOVES]
    cdef int i
    if n == 1:
        return buf[0]
    cards_ai_values(s, r, buf, n, 2, values)
    i = best_index(values, n, g, -4 * CARDS_AI_WIN)
    return buf[i if i >= 0 else 0]
