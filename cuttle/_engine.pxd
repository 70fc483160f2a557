# cython: language_level=3
# The rules engine's contract: legal moves, applying a move, dealing, and the small rule
# functions (scores, goals, public hands, the win check) that other native modules
# inline.  Every function works on a State* under a CRules* and runs nogil.

from libc.stdint cimport uint64_t, uint32_t
from cuttle._state cimport (State, CRules, KINGS, QUEENS, EIGHTS, PH_OVER, END_GOAL,
                            VALUE_BIT0, VALUE_BIT1, VALUE_BIT2, VALUE_BIT3,
                            bit, rank_of, popcount, lowest)

# All legal moves of the player to decide, written to `out` (room for MAX_MOVES);
# returns how many.
cdef int gen_moves(const State* s, const CRules* r, uint32_t* out) noexcept nogil

# Play a move that gen_moves listed (trusted: callers only pass generated moves).
cdef void apply_move(State* s, const CRules* r, uint32_t m) noexcept nogil

# A fresh deal from the state's own stream (s.rng must be seeded): P0 r.deal[0] cards,
# P1 r.deal[1] (5 and 6 unless the `deal` flag says otherwise).
cdef void deal(State* s, const CRules* r) noexcept nogil

# 0 if a state from outside (a pickle, a position) is sound: every field in range, every
# card in exactly one place, each phase with what it needs; else the code of the first
# problem (cuttle._core.STATE_ERRORS says which).
cdef int check_state(const State* s, const CRules* r) noexcept nogil

# Whether two states are the same position (field by field: structs hold padding).
cdef int states_equal(const State* a, const State* b) noexcept nogil


cdef inline uint64_t targetable(const State* s, const CRules* r, int side, int attacker,
                                uint64_t cards) noexcept nogil:
    # The subset of `cards` (all controlled by `side`) that `attacker` may target with a
    # 2, 9, Jack or glasses-breaking 8: Queens guard only against the other player.
    if side == attacker:
        return cards
    cdef int nq = popcount(s.perm[side] & QUEENS)
    if nq == 0:
        return cards
    if r.queens_protect_queens:
        return 0 if nq >= 2 else (cards & QUEENS)
    return cards & QUEENS

cdef inline int score(const State* s, int p) noexcept nogil:
    # The sum of rank + 1 over the point cards, by the value's bits (4 popcounts, no
    # loop: check_win scores both players after every turn).
    cdef uint64_t m = s.points[p]
    return popcount(m & VALUE_BIT0) + 2 * popcount(m & VALUE_BIT1) + \
        4 * popcount(m & VALUE_BIT2) + 8 * popcount(m & VALUE_BIT3)

cdef inline int goal(const State* s, const CRules* r, int p) noexcept nogil:
    cdef int k = popcount(s.perm[p] & KINGS)
    if k > 4:
        k = 4
    return r.king_goals[k]

cdef inline int hand_is_public(const State* s, const CRules* r, int p) noexcept nogil:
    # Glasses held by the opponent, open hands, or (cuttle.cards) the empty deck.
    return r.open_hands or (r.reveal_on_empty_deck and s.deck_len == 0) or \
        (s.perm[p ^ 1] & EIGHTS) != 0

cdef inline void update_knowledge(State* s, const CRules* r) noexcept nogil:
    # known_hand[p]: the cards p knows to be in the opponent's hand (perfect recall).
    cdef int p
    for p in range(2):
        if hand_is_public(s, r, p ^ 1):
            s.known_hand[p] = s.hand[p ^ 1]
        else:
            s.known_hand[p] &= s.hand[p ^ 1]

cdef inline void check_win(State* s, const CRules* r, int mover) noexcept nogil:
    # A player at their goal wins at once; if both are, the one who made the move.
    cdef int w0 = score(s, 0) >= goal(s, r, 0)
    cdef int w1 = score(s, 1) >= goal(s, r, 1)
    if w0 or w1:
        s.winner = mover if (w0 and w1) else (0 if w0 else 1)
        s.phase = PH_OVER
        s.end_reason = END_GOAL
