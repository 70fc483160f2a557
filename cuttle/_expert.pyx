# cython: language_level=3
"""The expert policy: a hand-built evaluation and a shallow look-ahead.  Every legal
move is played on a copy of the position, the choices that follow it within the turn
are settled (its own by search, the opponent's counter, block and discard windows by
their probability), and the result is valued with the opponent's best reply: the chance
that they can win at once and the expected worst damage they can do, from the cards
they may hold.  What the opponent may hold comes from the player's view only: the known
cards of their hand and, for the others, hypergeometric odds over the pool of unseen
cards.  The search runs on a canonical view (the unseen cards dealt in card order), so
no step can read a hidden card: the choice depends only on the view.
"""

from libc.stdint cimport uint64_t, uint32_t, int8_t
from libc.math cimport exp

from cuttle._state cimport *
from cuttle._rng cimport rng_seed, STREAM_GAME
from cuttle._engine cimport gen_moves, apply_move, score, goal, targetable, ABOVE
from cuttle._greedy cimport terminal_value, best_index
from cuttle._hidden cimport unknown_cards
from cuttle._weights cimport *

cdef extern from *:
    """
    #include <string.h>
    #if defined(__SSE2__)
    #include <emmintrin.h>
    #endif
    /* Copy n bytes (n a multiple of 8): 16-byte moves.  A struct assignment of a State
       compiles to `rep movsq`, slow to start for a few hundred bytes, and the expert
       copies a State for every move it tries. */
    static inline void cu_copy(void* dst, const void* src, size_t n) {
    #if defined(__SSE2__)
        char* d = (char*)dst;
        const char* s = (const char*)src;
        size_t i = 0;
        for (; i + 16 <= n; i += 16)
            _mm_storeu_si128((__m128i*)(d + i), _mm_loadu_si128((const __m128i*)(s + i)));
        if (i < n)
            memcpy(d + i, s + i, n - i);
    #else
        memcpy(dst, src, n);
    #endif
    }
    """
    void cu_copy(void* dst, const void* src, size_t n) noexcept nogil

cdef inline void copy_state(State* dst, const State* src) noexcept nogil:
    cu_copy(dst, src, sizeof(State))

cdef uint64_t RANK_BITS = 0x1111111111     # bit 4 * rk: rank rk (point cards)

cdef inline int ranks_held(uint64_t m) noexcept nogil:
    # The point ranks with a card in m, as a 10-bit mask (bit rk: rank rk).
    m = (m | (m >> 1) | (m >> 2) | (m >> 3)) & RANK_BITS
    m = (m | (m >> 3)) & <uint64_t>0x0303030303
    m = (m | (m >> 6)) & <uint64_t>0x000F000F000F
    m = (m | (m >> 12)) & <uint64_t>0x000000FF000000FF
    return <int>((m | (m >> 24)) & 0x3FF)

ctypedef struct Replies:
    # Kinds of move open to a player: their gain and the chance that they can play one.
    int n
    double best               # exact: the best gain so far; else the floor (drawing)
    double gain[24]
    double prob[24]

ctypedef struct Frame:
    # Scores, goals and progress of both players in the position being valued.
    int sc[2]
    int g[2]
    double here[2]

ctypedef struct HandReplies:
    # The opponent's replies that depend on their hand and score only, sorted, for:
    int ok
    uint64_t key              # their known cards and number of unseen ones
    double uncountered        # (best_gain's share of a one-off's gain)
    int goal, deck, kings, score
    Replies rp

ctypedef struct ReplyMemo:
    # best_gain for the opponent, by everything it reads (see opp_memo_key).
    int ok
    uint64_t key[6]
    double e
    double p_win

cdef enum:
    MEMO_SLOTS = 32           # direct-mapped, a power of two

ctypedef struct ExpertCtx:
    int me
    const EvalWeights* ew     # the weights: &EXPERT_EW, or one of LEAF_EW for position_value
    ReplyMemo memo[MEMO_SLOTS]  # the opponent's best replies in positions seen before
    uint64_t pool             # the cards whose place `me` cannot know (root view)
    int npool
    HandReplies hand[4]       # the opponent's hand-only replies, for recent keys
    int hand_next             # the slot to fill next

cdef inline int card_value(int c) noexcept nogil:
    return rank_of(c) + 1

cdef inline void ctx_init(ExpertCtx* cx, int me, const EvalWeights* ew,
                          uint64_t pool) noexcept nogil:
    # A context for valuing positions for `me` in a view whose unseen cards are `pool`.
    cdef int i
    cx.me = me
    cx.ew = ew
    cx.pool = pool
    cx.npool = popcount(pool)
    for i in range(4):
        cx.hand[i].ok = 0
    for i in range(MEMO_SLOTS):
        cx.memo[i].ok = 0
    cx.hand_next = 0

cdef uint64_t canonical_hand(State* s, const CRules* r, int me, uint64_t* rest) noexcept nogil:
    """The canonical view's hand (canonical_view), all that expert_eval reads of it (it
    plays no move, so reads neither the deck's order nor the random stream): deals the
    opponent's unknown cards the lowest of the cards `me` cannot place; returns those
    cards (the pool), the ones not dealt in rest[0]."""
    cdef int opp = me ^ 1
    cdef uint64_t hidden
    cdef uint64_t pool = unknown_cards(s, r, me, &hidden)
    cdef uint64_t m = pool
    cdef int k = popcount(hidden)
    s.hand[opp] &= ~hidden
    while k > 0:
        s.hand[opp] |= bit(lowest(m))
        m &= m - 1
        k -= 1
    rest[0] = m
    return pool

cdef uint64_t canonical_view(State* s, const CRules* r, int me) noexcept nogil:
    """Deal the cards `me` cannot place (the opponent's unknown hand cards and the deck
    cards whose place is not public) in card order: the lowest to the opponent's hand,
    the rest up the deck from the bottom; returns them (the pool)."""
    cdef uint64_t m
    cdef uint64_t pool = canonical_hand(s, r, me, &m)
    cdef int i
    for i in range(s.deck_len):
        if not (s.known_deck & bit(s.deck[i])):
            s.deck[i] = <int8_t>lowest(m)
            m &= m - 1
    rng_seed(&s.rng, 0, STREAM_GAME)      # future random effects are unknown too
    return pool

cdef double INV[NCARDS + 2]          # INV[k] = 1 / k
cdef int _c
for _c in range(1, NCARDS + 2):
    INV[_c] = 1.0 / _c

# MISS[n][u][x]: the chance that u cards dealt from a pool of n hold none of x given
# pool cards, C(n - x, u) / C(n, u), for x <= n - u (the ratio of consecutive terms).
# One read-only table for every decision and thread (1.2 MB, computed at import).
cdef double MISS[NCARDS + 1][NCARDS + 1][NCARDS + 1]

cdef void fill_miss() noexcept:
    cdef int n, u, k
    cdef double* t
    for n in range(NCARDS + 1):
        for u in range(1, n + 1):
            t = &MISS[n][u][0]
            t[0] = 1.0
            for k in range(1, n - u + 1):
                t[k] = t[k - 1] * (n - k + 1 - u) * INV[n - k + 1]

fill_miss()

cdef inline double p_none(const ExpertCtx* cx, int u, int x) noexcept nogil:
    """The chance that u cards dealt from the pool hold none of x given pool cards."""
    if u <= 0 or x <= 0:
        return 1.0
    if u > cx.npool - x:
        return 0.0
    return MISS[cx.npool][u][x]

cdef inline double p_holds(const ExpertCtx* cx, uint64_t known, int u,
                           uint64_t cards) noexcept nogil:
    # The chance the opponent (known cards `known`, u unseen ones) holds one of `cards`.
    if known & cards:
        return 1.0
    return 1.0 - p_none(cx, u, popcount(cards & cx.pool))

cdef inline double progress(int sc, int g) noexcept nogil:
    # How far a player is from the goal, as 21 minus the points still needed (a King
    # that lowers the goal counts like the points it saves).
    return 21.0 - (g - sc if g > sc else 0)

cdef inline uint64_t points_at_least(int v) noexcept nogil:
    # The point cards worth at least v.
    if v <= 1:
        return POINT_CARDS
    if v > 10:
        return 0
    return POINT_CARDS & ~(bit((v - 1) * 4) - 1)

cdef inline uint64_t win_cards(const State* s, const CRules* r, const Frame* f,
                               int p) noexcept nogil:
    """The cards with which p, to move in the main phase, could win at once."""
    cdef int opp = p ^ 1
    cdef int sc = f.sc[p]
    cdef int need = f.g[p] - sc
    cdef int nk = popcount(s.permanents[p] & KINGS)
    cdef uint64_t w = points_at_least(need)
    cdef uint64_t m
    cdef int c, own, gain
    if nk < 4 and r.king_goals[nk + 1] <= sc:
        w |= KINGS
    m = targetable(s, r, opp, p, s.points[opp])
    if m and card_value(highest(m)) >= need:
        w |= JACKS
    # A 2 or 9 that takes the top Jack off a card p owns gives it back.
    m = s.stacked & s.points[opp]
    gain = 0
    while m:
        c = lowest(m)
        m &= m - 1
        if ((jcount(s, c) & 1) == 1) and card_value(c) > gain and \
                targetable(s, r, opp, p, bit(jtop(s, c))):
            gain = card_value(c)
    if gain >= need:
        w |= TWOS | NINES
    return w

cdef double expert_eval(const State* s, const CRules* r, ExpertCtx* cx) noexcept nogil:
    """The value of s for cx.me, with the opponent to move next (or the game over):
    the material on the table and in hand, minus the opponent's expected best reply,
    plus a share of the player's own best move after it."""
    cdef int me = cx.me
    cdef int opp = me ^ 1
    cdef double v, d, e, p_win
    cdef int u, c
    cdef uint64_t m, known, mine
    if s.phase == PH_OVER:
        return terminal_value(s, me)
    cdef Frame f
    for c in range(2):
        f.sc[c] = score(s, c)
        f.g[c] = goal(s, r, c)
        f.here[c] = progress(f.sc[c], f.g[c])
    v = cx.ew.w[EW_PROG] * (f.here[me] - f.here[opp])
    v += cx.ew.w[EW_KING] * (popcount(s.permanents[me] & KINGS) - popcount(s.permanents[opp] & KINGS))
    v += cx.ew.w[EW_QUEEN] * (popcount(s.permanents[me] & QUEENS) - popcount(s.permanents[opp] & QUEENS))
    v += cx.ew.w[EW_GLASSES] * (popcount(s.permanents[me] & EIGHTS) -
                           popcount(s.permanents[opp] & EIGHTS))
    # Hands: known cards by rank, unseen ones at the average.
    mine = s.hand[me] & ~cx.pool
    v += hand_value(cx.ew, mine)
    v += cx.ew.w[EW_AVG] * popcount(s.hand[me] & cx.pool)
    # A pool card is unknown even when the look-ahead has revealed it (glasses): it
    # stands for any unseen card, not for itself.
    known = s.hand[opp] & s.known_hand[me] & ~cx.pool
    u = popcount(s.hand[opp]) - popcount(known)
    d = cx.ew.w[EW_AVG] * u + hand_value(cx.ew, known)
    v -= cx.ew.w[EW_OPP_HAND] * d
    c = popcount(s.hand[me]) - 6
    if c > 0:
        v -= cx.ew.w[EW_CROWD] * c
    c = popcount(s.hand[opp]) - 6
    if c > 0:
        v += cx.ew.w[EW_CROWD] * c
    if s.to_move != opp or s.phase != PH_MAIN:
        return v
    e = opp_best_gain(s, r, cx, &f, known & ~s.frozen[opp], u, &p_win)
    v -= p_win * cx.ew.w[EW_WIN] + (1.0 - p_win) * cx.ew.w[EW_THREAT] * e
    e = best_gain(s, r, cx, &f, me, mine & ~s.frozen[me] & ~s.frozen_next[me], 0, &p_win)
    v += p_win * cx.ew.w[EW_MYWIN_P] + (1.0 - p_win) * cx.ew.w[EW_MYWIN] * e
    return v

cdef inline void add_reply(int exact, Replies* rp, double g, double p) noexcept nogil:
    # rp.best starts at the floor (drawing): a kind worth no more is never taken, so
    # the lists keep only the kinds above it.
    if p > 0.0 and g > 0.0 and g > rp.best:
        if exact:
            rp.best = g
        else:
            rp.gain[rp.n] = g
            rp.prob[rp.n] = p
            rp.n += 1

cdef inline double chance(int exact, const Replies* rp, ExpertCtx* cx, uint64_t known, int u,
                          uint64_t cards) noexcept nogil:
    # Whether a player holds one of `cards`: known (exact lists), or likely.  `exact`
    # is a constant at each call, so the compiler specialises the callers for it.
    if exact:
        return 1.0 if (known & cards) else 0.0
    return p_holds(cx, known, u, cards)

cdef inline void sort_replies(Replies* rp) noexcept nogil:
    cdef int i, j
    cdef double d
    for i in range(1, rp.n):
        j = i
        while j > 0 and rp.gain[j] > rp.gain[j - 1]:
            d = rp.gain[j]; rp.gain[j] = rp.gain[j - 1]; rp.gain[j - 1] = d
            d = rp.prob[j]; rp.prob[j] = rp.prob[j - 1]; rp.prob[j - 1] = d
            j -= 1

cdef inline void hand_replies(int exact, const State* s, const CRules* r, ExpertCtx* cx,
                       const Frame* f, int who,
                       uint64_t known, int u, double uncountered, Replies* rp) noexcept nogil:
    """The kinds of move that depend only on `who`'s own cards and score: points of
    each rank, a King, a Queen, glasses, a 4 and a 5."""
    cdef int rk, k
    cdef double p
    cdef int sc_w = f.sc[who]
    cdef int g_w = f.g[who]
    cdef double point_weight = cx.ew.w[EW_PROG]
    cdef double here_w = f.here[who]
    for rk in range(9, -1, -1):
        p = chance(exact, rp, cx, known, u, <uint64_t>0xF << (4 * rk))
        if p > 0.0:
            add_reply(exact, rp, point_weight * (progress(sc_w + rk + 1, g_w) - here_w) -
                      cx.ew.w[EW_HAND + rk], p)
    k = popcount(s.permanents[who] & KINGS)
    if k < 4:
        p = chance(exact, rp, cx, known, u, KINGS)
        if p > 0.0:
            add_reply(exact, rp, cx.ew.w[EW_KING] +
                      point_weight * (progress(sc_w, r.king_goals[k + 1]) - here_w) -
                      cx.ew.w[EW_HAND + 12], p)
    p = chance(exact, rp, cx, known, u, QUEENS)
    if p > 0.0:
        add_reply(exact, rp, cx.ew.w[EW_QUEEN] - cx.ew.w[EW_HAND + 11], p)
    p = chance(exact, rp, cx, known, u, EIGHTS)
    if p > 0.0:
        add_reply(exact, rp, cx.ew.w[EW_GLASSES] - cx.ew.w[EW_HAND + 7], p)
    p = chance(exact, rp, cx, known, u, FOURS)
    if p > 0.0:
        add_reply(exact, rp, uncountered * (2 * cx.ew.w[EW_AVG] - cx.ew.w[EW_HAND + 3]), p)
    if s.deck_len > 0:
        p = chance(exact, rp, cx, known, u, FIVES)
        if p > 0.0:
            add_reply(exact, rp, uncountered * (2 * cx.ew.w[EW_AVG] - cx.ew.w[EW_HAND + 4]), p)

cdef inline void own_hand_best(const State* s, const CRules* r, const ExpertCtx* cx,
                               const Frame* f, int who,
                        uint64_t known, double uncountered, Replies* rp) noexcept nogil:
    """hand_replies for a hand known card by card (exact): the best gain only."""
    cdef int c, k
    cdef double g
    cdef double point_weight = cx.ew.w[EW_PROG]
    cdef int need = f.g[who] - f.sc[who]
    cdef uint64_t m = known & POINT_CARDS
    if need >= 1:
        if m:
            g = cx.ew.own_best[need if need < 10 else 10][ranks_held(m)]
            if g > rp.best:
                rp.best = g
    else:
        while m:
            c = lowest(m)
            m &= m - 1
            g = point_weight * (card_value(c) if card_value(c) < need else need) - \
                cx.ew.w[EW_HAND + rank_of(c)]
            if g > rp.best:
                rp.best = g
    if known & (KINGS | QUEENS | EIGHTS | FOURS | FIVES):
        k = popcount(s.permanents[who] & KINGS)
        if (known & KINGS) and k < 4:
            g = cx.ew.w[EW_KING] + \
                point_weight * (progress(f.sc[who], r.king_goals[k + 1]) - f.here[who]) - \
                cx.ew.w[EW_HAND + 12]
            if g > rp.best:
                rp.best = g
        if known & QUEENS:
            g = cx.ew.w[EW_QUEEN] - cx.ew.w[EW_HAND + 11]
            if g > rp.best:
                rp.best = g
        if known & EIGHTS:
            g = cx.ew.w[EW_GLASSES] - cx.ew.w[EW_HAND + 7]
            if g > rp.best:
                rp.best = g
        if known & FOURS:
            g = uncountered * (2 * cx.ew.w[EW_AVG] - cx.ew.w[EW_HAND + 3])
            if g > rp.best:
                rp.best = g
        if (known & FIVES) and s.deck_len > 0:
            g = uncountered * (2 * cx.ew.w[EW_AVG] - cx.ew.w[EW_HAND + 4])
            if g > rp.best:
                rp.best = g

cdef inline void table_replies(int exact, const State* s, const CRules* r, ExpertCtx* cx,
                       const Frame* f, int who,
                        uint64_t known, int u, double uncountered, Replies* rp) noexcept nogil:
    """The kinds of move aimed at the other player's table: a scuttle or a Jack on their
    best point card, an Ace, a 2 or a 9 on their best permanent, a 6."""
    cdef int other = who ^ 1
    cdef int c, k, i
    cdef int sc_w = f.sc[who]
    cdef int sc_o = f.sc[other]
    cdef int g_w = f.g[who]
    cdef int g_o = f.g[other]
    cdef double point_weight = cx.ew.w[EW_PROG]
    cdef double here_w = f.here[who]
    cdef double here_o = f.here[other]
    cdef double d, p
    cdef uint64_t m = s.points[other]
    if m and not (r.queen_stops_scuttles and (s.permanents[other] & QUEENS)):
        c = highest(m)
        p = chance(exact, rp, cx, known, u, ABOVE[1 if r.strict_scuttle else 0][c])
        if p > 0.0:
            add_reply(exact, rp, point_weight * (here_o - progress(sc_o - card_value(c), g_o)) -
                      cx.ew.w[EW_AVG], p)
    m = targetable(s, r, other, who, s.points[other])
    if m:
        k = card_value(highest(m))
        p = chance(exact, rp, cx, known, u, JACKS)
        if p > 0.0:
            add_reply(exact, rp, point_weight * (here_o - progress(sc_o - k, g_o) +
                                                 progress(sc_w + k, g_w) - here_w) -
                      cx.ew.w[EW_HAND + 10], p)
    if s.points[other]:
        p = chance(exact, rp, cx, known, u, ACES)
        if p > 0.0:
            add_reply(exact, rp, uncountered * (point_weight * (here_o - progress(0, g_o) -
                                                                 here_w + progress(0, g_w)) -
                                                cx.ew.w[EW_HAND + 0]), p)
    m = targetable(s, r, other, who, s.permanents[other])
    if m:
        if m & KINGS:
            i = popcount(s.permanents[other] & KINGS)
            d = cx.ew.w[EW_KING] + \
                point_weight * (here_o - progress(sc_o, r.king_goals[i - 1 if i <= 4 else 3]))
        elif m & QUEENS:
            d = cx.ew.w[EW_QUEEN]
        else:
            d = cx.ew.w[EW_GLASSES]
        p = chance(exact, rp, cx, known, u, TWOS)
        if p > 0.0:
            add_reply(exact, rp, uncountered * (d - cx.ew.w[EW_HAND + 1]), p)
        p = chance(exact, rp, cx, known, u, NINES)
        if p > 0.0:
            add_reply(exact, rp, uncountered * (cx.ew.w[EW_NINE] * d - cx.ew.w[EW_HAND + 8]), p)
    if s.permanents[other]:
        d = cx.ew.w[EW_KING] * (popcount(s.permanents[other] & KINGS) -
                           popcount(s.permanents[who] & KINGS)) + \
            cx.ew.w[EW_QUEEN] * (popcount(s.permanents[other] & QUEENS) -
                            popcount(s.permanents[who] & QUEENS)) + \
            cx.ew.w[EW_GLASSES] * (popcount(s.permanents[other] & EIGHTS) -
                              popcount(s.permanents[who] & EIGHTS))
        p = chance(exact, rp, cx, known, u, SIXES)
        if p > 0.0:
            add_reply(exact, rp, uncountered * (d - cx.ew.w[EW_HAND + 5]), p)

cdef inline double uncountered_share(const State* s, ExpertCtx* cx, int who) noexcept nogil:
    # The share of a one-off's gain expected to survive a counter (the other player
    # holding a 2, with no Queen against them); the opponent's 2s are known or likely.
    cdef int other = who ^ 1
    cdef uint64_t known
    if s.permanents[who] & QUEENS:
        return 1.0
    if who == cx.me:
        known = s.hand[other] & s.known_hand[who] & ~cx.pool
        return 1.0 - (1.0 - cx.ew.w[EW_COUNTERED]) * p_holds(
            cx, known, popcount(s.hand[other]) - popcount(known), TWOS)
    return cx.ew.w[EW_COUNTERED] if (s.hand[other] & TWOS & ~cx.pool) else 1.0

cdef inline Replies* opp_hand_replies(const State* s, const CRules* r, ExpertCtx* cx,
                                      const Frame* f, int who, uint64_t known, int u,
                                      double uncountered, double floor) noexcept nogil:
    # The opponent's kinds of move that depend on their hand and score, sorted: they
    # rarely change from one of the player's moves to the next, so cx keeps the lists
    # of the last four keys.
    cdef uint64_t key = known ^ (<uint64_t>u << 56)
    cdef int kings = popcount(s.permanents[who] & KINGS)
    cdef HandReplies* h
    cdef int i
    for i in range(4):
        h = &cx.hand[i]
        if h.ok and key == h.key and uncountered == h.uncountered and f.g[who] == h.goal \
                and (s.deck_len > 0) == h.deck and kings == h.kings and f.sc[who] == h.score:
            return &h.rp
    h = &cx.hand[cx.hand_next]
    cx.hand_next = (cx.hand_next + 1) & 3
    h.ok = 1
    h.key = key
    h.uncountered = uncountered
    h.goal = f.g[who]
    h.deck = s.deck_len > 0
    h.kings = kings
    h.score = f.sc[who]
    h.rp.n = 0
    h.rp.best = floor
    hand_replies(0, s, r, cx, f, who, known, u, uncountered, &h.rp)
    sort_replies(&h.rp)
    return &h.rp

cdef inline double expected_best(const Replies* a, const Replies* b, double floor) noexcept nogil:
    # The expected gain of the best kind held, through both sorted lists by gain, each
    # kind counting when no better one is held; drawing (floor) when none is.
    cdef double e = 0.0
    cdef double pnone = 1.0
    cdef double g, p
    cdef int i = 0, j = 0
    while True:
        if i < a.n and (j >= b.n or a.gain[i] >= b.gain[j]):
            g = a.gain[i]
            p = a.prob[i]
            i += 1
        elif j < b.n:
            g = b.gain[j]
            p = b.prob[j]
            j += 1
        else:
            break
        if g <= floor:
            break
        e += pnone * p * g
        pnone *= 1.0 - p
    return e + pnone * floor

cdef double best_gain(const State* s, const CRules* r, ExpertCtx* cx, const Frame* f, int who,
                      uint64_t known, int u, double* p_win_out) noexcept nogil:
    """The expected gain of `who`'s best move from s, by the evaluation: each kind of
    move (a win, points of each rank, a scuttle, a Jack, the one-offs, a King...) is
    open with the chance that `who` holds such a card (`known` cards for sure, u more
    from the pool: none for the player, whose own unseen draws are left out), and the
    best kind held is taken, kinds held independently; drawing is always open."""
    cdef Replies dyn
    cdef const Replies* st
    cdef double uncountered = uncountered_share(s, cx, who)
    cdef double p_win, floor
    cdef uint64_t wins = win_cards(s, r, f, who)
    p_win = p_holds(cx, known, u, wins & ~(TWOS | NINES | SIXES))
    p_win += (1.0 - p_win) * uncountered * p_holds(cx, known, u, wins & (TWOS | NINES | SIXES))
    p_win_out[0] = p_win
    if p_win >= 1.0:
        return 0.0
    floor = cx.ew.w[EW_AVG] if s.deck_len > 0 else 0.0      # drawing a card
    dyn.n = 0
    dyn.best = floor
    if who == cx.me:                    # exact: the player knows their cards
        own_hand_best(s, r, cx, f, who, known, uncountered, &dyn)
        table_replies(1, s, r, cx, f, who, known, 0, uncountered, &dyn)
        return dyn.best
    st = opp_hand_replies(s, r, cx, f, who, known, u, uncountered, floor)
    table_replies(0, s, r, cx, f, who, known, u, uncountered, &dyn)
    sort_replies(&dyn)
    return expected_best(st, &dyn, floor)

cdef double opp_best_gain(const State* s, const CRules* r, ExpertCtx* cx, const Frame* f,
                          uint64_t known, int u, double* p_win_out) noexcept nogil:
    """best_gain for the opponent, remembered: many of the player's candidate moves
    leave the same position as far as the opponent's best reply can tell (a discard,
    a draw, a countered one-off).  Exact: the key holds everything best_gain reads for
    the opponent (the tables, from which the scores and goals follow; the cards known in
    their hand and how many are unseen; whether the player holds a known 2; whether the
    deck is empty) except Jack stacks on the player's points, which are not cached."""
    cdef int me = cx.me
    cdef int opp = me ^ 1
    cdef uint64_t k[6]
    cdef uint64_t h
    cdef ReplyMemo* slot
    cdef double e
    cdef int j
    if s.stacked & s.points[me]:
        return best_gain(s, r, cx, f, opp, known, u, p_win_out)
    k[0] = s.points[0]
    k[1] = s.points[1]
    k[2] = s.permanents[0]
    k[3] = s.permanents[1]
    k[4] = known
    k[5] = <uint64_t>u | (<uint64_t>(s.deck_len > 0) << 8) | \
        (<uint64_t>((s.hand[me] & TWOS & ~cx.pool) != 0) << 9)
    h = (k[0] * <uint64_t>0x9E3779B97F4A7C15) ^ (k[1] * <uint64_t>0xC2B2AE3D27D4EB4F) ^ \
        (k[2] * <uint64_t>0x165667B19E3779F9) ^ (k[3] * <uint64_t>0xD6E8FEB86659FD93) ^ \
        (k[4] * <uint64_t>0xFF51AFD7ED558CCD) ^ (k[5] * <uint64_t>0x27D4EB2F165667C5)
    slot = &cx.memo[(h >> 59) & (MEMO_SLOTS - 1)]
    if slot.ok:
        for j in range(6):
            if slot.key[j] != k[j]:
                break
        else:
            p_win_out[0] = slot.p_win
            return slot.e
    e = best_gain(s, r, cx, f, opp, known, u, p_win_out)
    slot.ok = 1
    for j in range(6):
        slot.key[j] = k[j]
    slot.e = e
    slot.p_win = p_win_out[0]
    return e


cdef int give_card(State* s, ExpertCtx* cx, int who, uint64_t kinds) noexcept nogil:
    """Make player `who` (the opponent) hold a card of `kinds` in the canonical view:
    one they hold, or one from the pool swapped in for one of their unseen cards.
    Returns the card, or -1 when they cannot hold one."""
    cdef uint64_t m = s.hand[who] & kinds & ~s.frozen[who]
    cdef uint64_t unseen = s.hand[who] & cx.pool
    cdef int i, c, ph
    if m:
        return lowest(m)
    if unseen == 0:
        return -1
    ph = lowest(unseen)
    for i in range(s.deck_len):
        c = s.deck[i]
        if (bit(c) & kinds & cx.pool) and not (s.known_deck & bit(c)):
            s.deck[i] = <int8_t>ph
            s.hand[who] ^= bit(ph) | bit(c)
            return c
    return -1

cdef double ex_window(State* s, const CRules* r, ExpertCtx* cx, int depth,
                      uint64_t kinds, int verb) noexcept nogil:
    """The opponent's counter (or block) window on the player's action: they answer
    with a card of `kinds` when they hold one and it hurts the player."""
    cdef int opp = cx.me ^ 1
    cdef State child
    cdef double v_res, v_ans = 0.0, p = 0.0
    cdef int c, answered = 0
    cdef uint64_t known
    # The answer is valued on a copy first, so that s (the caller's scratch copy) can
    # be resolved in place; the caches in cx do not depend on the order of calls.
    if depth > 0:
        known = s.hand[opp] & s.known_hand[cx.me] & ~s.frozen[opp] & ~cx.pool
        p = p_holds(cx, known, popcount(s.hand[opp] & cx.pool), kinds)
        if p > 0.0:
            copy_state(&child, s)
            c = give_card(&child, cx, opp, kinds)
            if c >= 0:
                apply_move(&child, r, mk(verb, c, NO_CARD))
                v_ans = ex_value(&child, r, cx, depth - 1)
                answered = 1
    apply_move(s, r, mk(V_RESOLVE, NO_CARD, NO_CARD))
    v_res = ex_value(s, r, cx, depth - 1)
    if not answered or v_ans >= v_res:
        return v_res
    return (1.0 - p) * v_res + p * v_ans

cdef uint32_t opp_discard(const State* s, ExpertCtx* cx) noexcept nogil:
    # The opponent's discards (a 4, a 10): from the player's view, unseen cards first.
    cdef int opp = cx.me ^ 1
    cdef uint64_t order = s.hand[opp] & cx.pool
    cdef uint64_t rest = s.hand[opp] & ~cx.pool
    cdef int a, b
    a = lowest(order) if order else lowest(rest)
    if s.phase == PH_TEN or popcount(s.hand[opp]) == 1:
        return mk(V_DISCARD, a, NO_CARD)
    order &= ~bit(a)
    rest &= ~bit(a)
    b = lowest(order) if order else lowest(rest)
    return mk(V_DISCARD, a if a < b else b, b if a < b else a)

cdef double ex_value(State* s, const CRules* r, ExpertCtx* cx, int depth) noexcept nogil:
    """Settle the decisions that follow the player's move, then evaluate (s is the
    caller's scratch copy: it is changed)."""
    cdef uint32_t buf[MAX_MOVES]
    cdef State child
    cdef int n, i
    cdef double best, v
    cdef int me = cx.me
    while True:
        if s.phase == PH_OVER or s.phase == PH_MAIN:
            return expert_eval(s, r, cx)
        if s.to_move != me:
            if s.phase == PH_COUNTER:
                return ex_window(s, r, cx, depth, TWOS, V_COUNTER)
            if s.phase == PH_BLOCK:
                return ex_window(s, r, cx, depth, TENS, V_BLOCK)
            if s.phase == PH_FOUR or s.phase == PH_TEN:
                apply_move(s, r, opp_discard(s, cx))
                continue
            return expert_eval(s, r, cx)
        if s.phase == PH_SEVEN:
            # The revealed cards are unseen cards of the canonical view: value the 7
            # as a card to come rather than by their faces.
            return expert_eval(s, r, cx) + cx.ew.w[EW_SEVEN]
        if depth <= 0:
            return expert_eval(s, r, cx)
        # The player's own follow-up choice (a 3's pick, a 5's discard, a counter war,
        # a hand-limit discard): the best one.
        n = gen_moves(s, r, buf)
        best = -1e18
        if n == 0:
            return best
        for i in range(n - 1):
            copy_state(&child, s)
            apply_move(&child, r, buf[i])
            v = ex_value(&child, r, cx, depth - 1)
            if v > best:
                best = v
        apply_move(s, r, buf[n - 1])        # the last in place: s is a scratch copy
        v = ex_value(s, r, cx, depth - 1)
        if v > best:
            best = v
        return best

cdef uint64_t expert_view(const State* s, const CRules* r, State* view) noexcept nogil:
    copy_state(view, s)
    return canonical_view(view, r, s.to_move)

cdef void view_values(const State* view, uint64_t pool, const CRules* r, const uint32_t* buf,
                      int n, double* out) noexcept nogil:
    cdef ExpertCtx cx
    cdef State child
    cdef int i
    ctx_init(&cx, view.to_move, expert_weights(), pool)
    for i in range(n):
        copy_state(&child, view)
        apply_move(&child, r, buf[i])
        out[i] = ex_value(&child, r, &cx, 3)

cdef void expert_values(const State* s, const CRules* r, const uint32_t* buf, int n,
                        double* out) noexcept nogil:
    """The expert's value of each of the n moves in buf for the player to decide."""
    cdef State view
    cdef uint64_t pool = expert_view(s, r, &view)
    view_values(&view, pool, r, buf, n, out)

cdef uint32_t expert_move(State* s, const CRules* r, Rng* g, uint32_t* buf, int n) noexcept nogil:
    cdef double values[MAX_MOVES]
    cdef int i
    expert_values(s, r, buf, n, values)
    i = best_index(values, n, g, -1e18)
    return buf[i if i >= 0 else 0]


cdef double position_value(const State* s, const CRules* r, double scale,
                           int leaf) noexcept nogil:
    """Player 0's chances in s by the evaluation under the leaf weights LEAF_EW[leaf], in
    [0, 1]: from the view of the player not deciding now (so that, in the main phase,
    the evaluation weighs the decider's best reply)."""
    cdef ExpertCtx cx
    cdef State view = s[0]
    cdef double v
    cdef uint64_t rest
    cdef int me = s.to_move ^ 1
    ctx_init(&cx, me, leaf_weights(leaf), canonical_hand(&view, r, me, &rest))
    v = expert_eval(&view, r, &cx)
    if view.phase != PH_OVER:
        v += cx.ew.w[EW_TEMPO]
    return 1.0 / (1.0 + exp((v if cx.me == 1 else -v) / scale))
