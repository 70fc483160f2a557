# cython: language_level=3
"""The native policies: random (sampled without listing the moves), greedy (a one-move
look-ahead over a static evaluation), expert (a richer evaluation with the opponent's
best reply) and information-set MCTS, and the loop that plays a game out with them.

Every policy sees only what its player may know: greedy reads the public table, hand
sizes and its own hand; expert works on a canonical view of its player's knowledge
(the unseen cards dealt in card order) and reasons about the opponent's hand by odds;
ISMCTS searches over determinizations of its player's view.  `POLICIES` names them for
Python (cuttle/policies.py parses the names).
"""

from libc.stdint cimport uint64_t, uint32_t, int32_t, int16_t, int8_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset
from libc.math cimport log, sqrt, exp

from cuttle._state cimport *
from cuttle._rng cimport rng_below, rng_seed, STREAM_GAME
from cuttle._engine cimport gen_moves, apply_move, score, goal, hand_is_public
from cuttle._hidden cimport determinize
from cuttle._signals cimport poll_interrupt

cdef extern from *:
    """
    #define CU_NINES (0xFULL << 32)
    #define CU_JACKS (0xFULL << 40)
    static inline int cu_highest(unsigned long long x) { return 63 - __builtin_clzll(x); }
    """
    int highest "cu_highest"(uint64_t x) noexcept nogil
    const uint64_t NINES "CU_NINES"
    const uint64_t JACKS "CU_JACKS"

# name: (kind code, takes an iteration count)
POLICIES = {"random": (POL_RANDOM, False), "greedy": (POL_GREEDY, False),
            "ismcts": (POL_ISMCTS, True), "ismcts-random": (POL_ISMCTS_RANDOM, True),
            "expert": (POL_EXPERT, False)}
POLICY_PARAM_SHIFT = POLICY_SHIFT

# ---------------------------------------------------------------------------------------
# Random: a uniform legal move without building the move list.  The moves are counted
# with popcounts and the k-th is built directly, in gen_moves' order, so a draw
# k = rng_below(g, n) picks exactly the move buf[k] that gen_moves would list: the
# stream, and so every seeded result, is the same as listing the moves, only faster.
# tests/engine/test_random_sampler.py checks counts and order against gen_moves.

cdef inline uint64_t can_target(const State* s, const CRules* r, int side, int attacker,
                                uint64_t cards) noexcept nogil:
    # The engine's Queen protection (_engine.targetable), needed to count targets.
    if side == attacker:
        return cards
    cdef int nq = popcount(s.perm[side] & QUEENS)
    if nq == 0:
        return cards
    if r.queens_protect_queens:
        return 0 if nq >= 2 else (cards & QUEENS)
    return cards & QUEENS

cdef inline int kth_bit(uint64_t m, int k) noexcept nogil:
    while k > 0:
        m &= m - 1
        k -= 1
    return lowest(m)

cdef inline uint32_t each_at(uint64_t m, int verb, int k) noexcept nogil:
    return mk(verb, kth_bit(m, k), NO_CARD)

# BELOW[strict][c]: the point cards that point card c beats (an index, or with
# strict_scuttle a rank, below its own); ABOVE[strict][t]: those that beat t.
cdef uint64_t BELOW[2][NCARDS]
cdef uint64_t ABOVE[2][NCARDS]
cdef uint64_t POINT_CARDS = bit(FIRST_JACK) - 1
cdef uint64_t ACES = <uint64_t>0xF
cdef uint64_t FOURS = <uint64_t>0xF << 12
cdef uint64_t FIVES = <uint64_t>0xF << 16
cdef uint64_t SIXES = <uint64_t>0xF << 20
cdef uint64_t SEVENS = <uint64_t>0xF << 24
cdef int _c
for _c in range(NCARDS):
    BELOW[0][_c] = (bit(_c) - 1) if _c < FIRST_JACK else 0
    BELOW[1][_c] = (bit(rank_of(_c) * 4) - 1) if _c < FIRST_JACK else 0
    ABOVE[0][_c] = POINT_CARDS & ~(bit(_c + 1) - 1) if _c < FIRST_JACK else 0
    ABOVE[1][_c] = POINT_CARDS & ~(bit(rank_of(_c) * 4 + 4) - 1) if _c < FIRST_JACK else 0

ctypedef struct Targets:
    uint64_t jack, eight      # a Jack's targets, a glasses-breaking 8's targets
    uint64_t two[2]           # a 2's targets on each side
    uint64_t nine[2]          # a 9's targets on each side

cdef uint32_t card_play_at(const Targets* tg, uint64_t scut, int c, int k) noexcept nogil:
    # The k-th move gen_moves lists for card c of the hand (scut: what c may scuttle).
    cdef int rk = rank_of(c)
    cdef int j
    if c == JOKER:
        return mk(V_ONEOFF, c, NO_CARD)
    if rk >= 11:
        return mk(V_ROYAL, c, NO_CARD)
    if rk == 10:
        return mk(V_JACK, c, kth_bit(tg.jack, k))
    if k == 0:
        return mk(V_POINTS, c, NO_CARD)
    k -= 1
    j = popcount(scut)
    if k < j:
        return mk(V_SCUTTLE, c, kth_bit(scut, k))
    k -= j
    if rk == 7:
        if k == 0:
            return mk(V_GLASSES, c, NO_CARD)
        return mk(V_ONEOFF, c, kth_bit(tg.eight, k - 1))
    if rk == 1 or rk == 8:
        j = popcount(tg.two[0] if rk == 1 else tg.nine[0])
        if k < j:
            return mk(V_ONEOFF, c, kth_bit(tg.two[0] if rk == 1 else tg.nine[0], k))
        return mk(V_ONEOFF, c, kth_bit(tg.two[1] if rk == 1 else tg.nine[1], k - j))
    return mk(V_ONEOFF, c, NO_CARD)

cdef inline uint32_t main_move(const State* s, const CRules* r, Rng* g, int k,
                               int* count) noexcept nogil:
    # The main phase: count the moves, then (k < 0) draw one, and build the k-th.
    cdef int p = s.to_move
    cdef int opp = p ^ 1
    cdef int n, h, t, side, lead, before, n2 = 0, n9 = 0, n8 = 1, nj = 0
    cdef uint64_t m = s.hand[p] & ~s.frozen[p]
    cdef uint64_t pts = m & POINT_CARDS
    cdef uint64_t scut, sc, ones, tj
    cdef const uint64_t* below = &BELOW[1 if r.strict_scuttle else 0][0]
    cdef const uint64_t* above = &ABOVE[1 if r.strict_scuttle else 0][0]
    cdef Targets tg
    cdef int8_t extra[16]
    memset(extra, 0, sizeof(extra))
    lead = 1 if (s.deck_len == 0 or not (r.hand_limit >= 0 and
                 r.hand_limit_mode == LIMIT_NO_DRAW and
                 popcount(s.hand[p]) >= r.hand_limit)) else 0
    scut = 0 if (r.queen_stops_scuttles and (s.perm[opp] & QUEENS)) else s.points[opp]
    # Cards with exactly one move besides points and scuttles: A, 6, K, the joker, and
    # the 3, 4, 5, 7, 10 and Q when the rules allow that play here.
    ones = ACES | SIXES | KINGS | bit(JOKER)
    if not (r.one_queen_each and (s.perm[p] & QUEENS)):
        ones |= QUEENS
    if r.strict_oneoffs:
        if s.scrap & (~<uint64_t>0 if r.three_takes_threes else ~THREES):
            ones |= THREES
        if (s.deck_len > 0) if r.four == FOUR_DRAW else (s.hand[opp] != 0):
            ones |= FOURS
        if s.deck_len > 0:
            ones |= FIVES | SEVENS
        if r.ten_discards and s.hand[opp]:
            ones |= TENS
    else:
        ones |= THREES | FOURS | FIVES | SEVENS
        if r.ten_discards:
            ones |= TENS
    if m & (TWOS | NINES):
        for side in range(2):
            tg.two[side] = tg.nine[side] = 0
            if side == p and not r.targets_own_side:
                continue
            tj = s.perm[side] | top_jacks(s, side)
            tg.two[side] = can_target(s, r, side, p, tj)
            tg.nine[side] = can_target(s, r, side, p,
                                       tj | (s.points[side] if r.nine_targets_points else 0))
        n2 = popcount(tg.two[0]) + popcount(tg.two[1])
        n9 = popcount(tg.nine[0]) + popcount(tg.nine[1])
    # (Tests on the rules first and no test on the hand where the work is cheap: a
    # branch that depends on the cards mispredicts often.)
    tg.eight = 0
    if r.eight_breaks_glasses:
        tg.eight = can_target(s, r, opp, p, s.perm[opp] & EIGHTS)
        n8 += popcount(tg.eight)
    tg.jack = can_target(s, r, opp, p, s.points[opp])
    nj = popcount(tg.jack)
    n = popcount(pts) + popcount(m & ones) + popcount(m & TWOS) * n2 + \
        popcount(m & NINES) * n9 + popcount(m & EIGHTS) * n8 + popcount(m & JACKS) * nj
    sc = scut                             # scuttles: pairs (target, card above it)
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
    extra[1] = <int8_t>n2                 # moves besides points and scuttles, by rank
    extra[7] = <int8_t>n8
    extra[8] = <int8_t>n9
    extra[10] = <int8_t>nj
    while True:                           # the card whose moves hold index k
        t = lowest(m)
        m &= m - 1
        h = <int>((POINT_CARDS >> t) & 1) + popcount(scut & below[t]) + \
            <int>((ones >> t) & 1) + extra[rank_of(t)]
        if k < h:
            return card_play_at(&tg, scut & below[t], t, k)
        k -= h

cdef uint32_t other_move(const State* s, const CRules* r, Rng* g, int k,
                         int* count) noexcept nogil:
    # The other phases (a 7's reveal: count 0, left to gen_moves).
    cdef int p = s.to_move
    cdef int ph = s.phase
    cdef int n, a, h = 0
    cdef uint64_t m
    if ph == PH_COUNTER or ph == PH_BLOCK:
        m = 0
        if ph == PH_BLOCK:
            m = s.hand[p] & TENS & ~s.frozen[p]
        elif not (s.perm[p ^ 1] & QUEENS):
            m = s.hand[p] & TWOS & ~s.frozen[p]
        n = 1 + popcount(m)
    elif ph == PH_THREE:
        m = s.scrap if r.three_takes_threes else (s.scrap & ~THREES)
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

cdef uint32_t move_at(const State* s, const CRules* r, int k, int* count) noexcept nogil:
    if s.phase == PH_MAIN:
        return main_move(s, r, NULL, k, count)
    return other_move(s, r, NULL, k, count)

cdef uint32_t random_move(const State* s, const CRules* r, Rng* g) noexcept nogil:
    cdef int n
    cdef uint32_t m
    if s.phase == PH_MAIN:
        return main_move(s, r, g, -1, &n)
    m = other_move(s, r, g, -1, &n)
    return m if n > 0 else listed_random_move(s, r, g)


# ---------------------------------------------------------------------------------------
# Greedy: a static evaluation and a one-move look-ahead.

cdef double WIN_VALUE = 1e6

cdef double evaluate(const State* s, const CRules* r, int me) noexcept nogil:
    """Static value of a position for `me`: progress to the goal, cards, threats."""
    cdef int opp = me ^ 1
    if s.phase == PH_OVER:
        if s.winner == me:
            return WIN_VALUE
        if s.winner == opp:
            return -WIN_VALUE
        return 0.0
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
    v += 8.0 * (popcount(s.perm[me] & QUEENS) - popcount(s.perm[opp] & QUEENS))
    v += 3.0 * (popcount(s.perm[me] & EIGHTS) - popcount(s.perm[opp] & EIGHTS))
    return v

cdef double greedy_value(State* s, const CRules* r, int me, int depth) noexcept nogil:
    """Value of `s` for `me` after settling the decisions that follow one move: the
    opponent is assumed to let one-offs and scuttles resolve, and the follow-up choices
    (a 3's pick, a 4's discards, a 7's card, ...) are searched one level deep."""
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

cdef uint32_t greedy_move(State* s, const CRules* r, Rng* g, uint32_t* buf, int n) noexcept nogil:
    cdef int me = s.to_move
    cdef State child
    cdef int i, nbest = 0
    cdef double v, best = -1e18
    cdef uint32_t choice = buf[0]
    for i in range(n):
        child = s[0]
        apply_move(&child, r, buf[i])
        v = greedy_value(&child, r, me, 2)
        if v > best + 1e-9:
            best = v
            choice = buf[i]
            nbest = 1
        elif v > best - 1e-9:
            # Break ties uniformly (reservoir sampling) so greedy is not predictable.
            nbest += 1
            if rng_below(g, nbest) == 0:
                choice = buf[i]
    return choice

# ---------------------------------------------------------------------------------------
# Expert: a hand-built evaluation and a shallow look-ahead.  Every legal move is played
# on a copy of the position, the choices that follow it within the turn are settled
# (its own by search, the opponent's counter, block and discard windows by their
# probability), and the result is valued with the opponent's best reply: the chance
# that they can win at once and the expected worst damage they can do, from the cards
# they may hold.  What the opponent may hold comes from the player's view only: the
# known cards of their hand and, for the others, hypergeometric odds over the pool of
# unseen cards.  The search runs on a canonical view (the unseen cards dealt in card
# order), so no step can read a hidden card: the choice depends only on the view.

cdef enum:
    NEW = 32                  # the evaluation's weights: EW[...] (see EXPERT_WEIGHTS)
    EW_PROG = 0               # a point of progress, on a 21-point scale
    EW_WIN = 1                # the opponent holding a card that wins at once
    EW_KING = 2               # a King beyond the points it saves
    EW_QUEEN = 3
    EW_GLASSES = 4
    EW_AVG = 5                # a card in hand whose identity is not known
    EW_MYWIN = 6              # share of the player's own best next move
    EW_MYWIN_P = 7            # the player holding a card that wins next turn
    EW_NINE = 8               # a 9's damage relative to a 2's
    EW_COUNTERED = 9          # share of a one-off threat left when the player can counter
    EW_SEVEN = 10             # a 7's revealed card, to be played
    EW_THREAT = 11            # weight of the opponent's expected best reply
    EW_OPP_HAND = 12          # weight of the opponent's hand relative to the player's
    EW_CROWD = 13             # each card in a hand beyond six (hoarding)
    EW_HAND = 16              # EW_HAND + rank: a card of that rank in hand (13: joker)

cdef double EW[NEW]

# Tuned by self-play against greedy and random under both presets (SPSA).
EXPERT_WEIGHTS = {"prog": 1.0, "win": 353.264, "king": -0.243, "queen": 2.192,
    "glasses": 0.331, "avg": 4.297, "mywin": 1.897, "mywin_p": 157.471, "nine": -1.033,
    "countered": 0.897, "seven": 1.242, "threat": 1.797, "opp_hand": 1.954, "crowd":
    0.328,
    "hand": (-0.894, 1.817, 2.856, 3.233, 3.052, 4.465, 3.324, 1.008, 2.489, 1.623,
             7.467, 0.711, 0.49, 8.064)}
_WEIGHT_INDEX = {"prog": EW_PROG, "win": EW_WIN, "king": EW_KING, "queen": EW_QUEEN,
                 "glasses": EW_GLASSES, "avg": EW_AVG, "mywin": EW_MYWIN,
                 "mywin_p": EW_MYWIN_P, "nine": EW_NINE, "countered": EW_COUNTERED,
                 "seven": EW_SEVEN, "threat": EW_THREAT, "opp_hand": EW_OPP_HAND,
                 "crowd": EW_CROWD}


def _set_expert_weights(weights):
    """Set the evaluation's weights (a dict like EXPERT_WEIGHTS); for tuning only."""
    for k, v in weights.items():
        if k == "hand":
            for i, x in enumerate(v):
                EW[EW_HAND + i] = x
        else:
            EW[_WEIGHT_INDEX[k]] = v


_set_expert_weights(EXPERT_WEIGHTS)

ctypedef struct Replies:
    # Kinds of move open to a player: their gain and the chance that they can play one.
    int n
    int exact                 # chances are 0 or 1: keep only the best gain
    double best
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
    double cf
    int goal, deck, kings, score
    Replies rp

ctypedef struct ExpertCtx:
    int me
    uint64_t pool             # the cards whose place `me` cannot know (root view)
    int npool
    HandReplies hand[4]       # the opponent's hand-only replies, for recent keys
    int hand_next             # the slot to fill next
    int filled[NCARDS + 1]    # miss[u][0 .. filled[u] - 1] are computed
    double miss[NCARDS + 1][NCARDS + 1]   # miss[u][x]: u cards dealt from the pool
                                          # hold none of x given pool cards

cdef inline int card_value(int c) noexcept nogil:
    return rank_of(c) + 1

cdef void canonical_view(State* s, const CRules* r, int me, ExpertCtx* cx) noexcept nogil:
    """Deal the cards `me` cannot place (the opponent's unknown hand cards and the deck
    cards whose place is not public) in card order: the lowest to the opponent's hand,
    the rest up the deck from the bottom; records them as the pool."""
    cdef int opp = me ^ 1
    cdef uint64_t hidden = 0 if hand_is_public(s, r, opp) else (s.hand[opp] & ~s.known_hand[me])
    cdef uint64_t m = hidden
    cdef int i, k
    for i in range(s.deck_len):
        if not (s.known_deck & bit(s.deck[i])):
            m |= bit(s.deck[i])
    cx.pool = m
    cx.npool = popcount(m)
    for i in range(NCARDS + 1):
        cx.filled[i] = 0
    for i in range(4):
        cx.hand[i].ok = 0
    cx.hand_next = 0
    k = popcount(hidden)
    s.hand[opp] &= ~hidden
    while k > 0:
        s.hand[opp] |= bit(lowest(m))
        m &= m - 1
        k -= 1
    for i in range(s.deck_len):
        if not (s.known_deck & bit(s.deck[i])):
            s.deck[i] = <int8_t>lowest(m)
            m &= m - 1
    rng_seed(&s.rng, 0, STREAM_GAME)      # future random effects are unknown too

cdef double INV[NCARDS + 2]          # INV[k] = 1 / k
for _c in range(1, NCARDS + 2):
    INV[_c] = 1.0 / _c

cdef double p_none(ExpertCtx* cx, int u, int x) noexcept nogil:
    """The chance that u cards dealt from the pool hold none of x given pool cards:
    C(n - x, u) / C(n, u), filled in x by the ratio of consecutive terms as needed."""
    cdef int n = cx.npool
    cdef int k
    cdef double* t
    if u <= 0 or x <= 0:
        return 1.0
    if u > n - x:
        return 0.0
    t = &cx.miss[u][0]
    k = cx.filled[u]
    if k == 0:
        t[0] = 1.0
        k = 1
    while k <= x:
        t[k] = t[k - 1] * (n - k + 1 - u) * INV[n - k + 1]
        k += 1
    if k > cx.filled[u]:
        cx.filled[u] = k
    return t[x]

cdef inline double p_holds(ExpertCtx* cx, uint64_t known, int u, uint64_t cards) noexcept nogil:
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

cdef uint64_t win_cards(const State* s, const CRules* r, const Frame* f, int p) noexcept nogil:
    """The cards with which p, to move in the main phase, could win at once."""
    cdef int opp = p ^ 1
    cdef int sc = f.sc[p]
    cdef int need = f.g[p] - sc
    cdef int nk = popcount(s.perm[p] & KINGS)
    cdef uint64_t w = points_at_least(need)
    cdef uint64_t m
    cdef int c, own, gain
    if nk < 4 and r.king_goals[nk + 1] <= sc:
        w |= KINGS
    m = can_target(s, r, opp, p, s.points[opp])
    if m and card_value(highest(m)) >= need:
        w |= JACKS
    # A 2 or 9 that takes the top Jack off a card p owns gives it back.
    m = s.stacked & s.points[opp]
    gain = 0
    while m:
        c = lowest(m)
        m &= m - 1
        if ((jcount(s, c) & 1) == 1) and card_value(c) > gain and \
                can_target(s, r, opp, p, bit(jtop(s, c))):
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
        if s.winner == me:
            return WIN_VALUE
        if s.winner == opp:
            return -WIN_VALUE
        return 0.0
    cdef Frame f
    for c in range(2):
        f.sc[c] = score(s, c)
        f.g[c] = goal(s, r, c)
        f.here[c] = progress(f.sc[c], f.g[c])
    v = EW[EW_PROG] * (f.here[me] - f.here[opp])
    v += EW[EW_KING] * (popcount(s.perm[me] & KINGS) - popcount(s.perm[opp] & KINGS))
    v += EW[EW_QUEEN] * (popcount(s.perm[me] & QUEENS) - popcount(s.perm[opp] & QUEENS))
    v += EW[EW_GLASSES] * (popcount(s.perm[me] & EIGHTS) - popcount(s.perm[opp] & EIGHTS))
    # Hands: known cards by rank, unseen ones at the average.
    mine = s.hand[me] & ~cx.pool
    m = mine
    while m:
        c = lowest(m)
        m &= m - 1
        v += EW[EW_HAND + rank_of(c)]
    v += EW[EW_AVG] * popcount(s.hand[me] & cx.pool)
    known = s.hand[opp] & s.known_hand[me]
    u = popcount(s.hand[opp]) - popcount(known)
    m = known
    d = EW[EW_AVG] * u
    while m:
        c = lowest(m)
        m &= m - 1
        d += EW[EW_HAND + rank_of(c)]
    v -= EW[EW_OPP_HAND] * d
    c = popcount(s.hand[me]) - 6
    if c > 0:
        v -= EW[EW_CROWD] * c
    c = popcount(s.hand[opp]) - 6
    if c > 0:
        v += EW[EW_CROWD] * c
    if s.to_move != opp or s.phase != PH_MAIN:
        return v
    e = best_gain(s, r, cx, &f, opp, known & ~s.frozen[opp], u, &p_win)
    v -= p_win * EW[EW_WIN] + (1.0 - p_win) * EW[EW_THREAT] * e
    e = best_gain(s, r, cx, &f, me, mine & ~s.frozen[me] & ~s.frozen_next[me], 0, &p_win)
    v += p_win * EW[EW_MYWIN_P] + (1.0 - p_win) * EW[EW_MYWIN] * e
    return v

cdef inline void add_reply(Replies* rp, double g, double p) noexcept nogil:
    if p > 0.0 and g > 0.0:
        if rp.exact:
            if g > rp.best:
                rp.best = g
        else:
            rp.gain[rp.n] = g
            rp.prob[rp.n] = p
            rp.n += 1

cdef inline double chance(const Replies* rp, ExpertCtx* cx, uint64_t known, int u,
                          uint64_t cards) noexcept nogil:
    # Whether a player holds one of `cards`: known (exact lists), or likely.
    if rp.exact:
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

cdef void hand_replies(const State* s, const CRules* r, ExpertCtx* cx, const Frame* f, int who,
                       uint64_t known, int u, double cf, Replies* rp) noexcept nogil:
    """The kinds of move that depend only on `who`'s own cards and score: points of
    each rank, a King, a Queen, glasses, a 4 and a 5."""
    cdef int rk, k
    cdef double p
    cdef int sc_w = f.sc[who]
    cdef int g_w = f.g[who]
    cdef double pw = EW[EW_PROG]
    cdef double here_w = f.here[who]
    for rk in range(9, -1, -1):
        p = chance(rp, cx, known, u, <uint64_t>0xF << (4 * rk))
        if p > 0.0:
            add_reply(rp, pw * (progress(sc_w + rk + 1, g_w) - here_w) - EW[EW_HAND + rk], p)
    k = popcount(s.perm[who] & KINGS)
    if k < 4:
        p = chance(rp, cx, known, u, KINGS)
        if p > 0.0:
            add_reply(rp, EW[EW_KING] + pw * (progress(sc_w, r.king_goals[k + 1]) - here_w) -
                      EW[EW_HAND + 12], p)
    p = chance(rp, cx, known, u, QUEENS)
    if p > 0.0:
        add_reply(rp, EW[EW_QUEEN] - EW[EW_HAND + 11], p)
    p = chance(rp, cx, known, u, EIGHTS)
    if p > 0.0:
        add_reply(rp, EW[EW_GLASSES] - EW[EW_HAND + 7], p)
    p = chance(rp, cx, known, u, FOURS)
    if p > 0.0:
        add_reply(rp, cf * (2 * EW[EW_AVG] - EW[EW_HAND + 3]), p)
    if s.deck_len > 0:
        p = chance(rp, cx, known, u, FIVES)
        if p > 0.0:
            add_reply(rp, cf * (2 * EW[EW_AVG] - EW[EW_HAND + 4]), p)

cdef void own_hand_best(const State* s, const CRules* r, const Frame* f, int who,
                        uint64_t known, double cf, Replies* rp) noexcept nogil:
    """hand_replies for a hand known card by card (rp.exact): the best gain only."""
    cdef int c, k
    cdef double g
    cdef double pw = EW[EW_PROG]
    cdef int need = f.g[who] - f.sc[who]
    cdef uint64_t m = known & POINT_CARDS
    while m:
        c = lowest(m)
        m &= m - 1
        g = pw * (card_value(c) if card_value(c) < need else need) - EW[EW_HAND + rank_of(c)]
        if g > rp.best:
            rp.best = g
    if known & (KINGS | QUEENS | EIGHTS | FOURS | FIVES):
        k = popcount(s.perm[who] & KINGS)
        if (known & KINGS) and k < 4:
            g = EW[EW_KING] + pw * (progress(f.sc[who], r.king_goals[k + 1]) - f.here[who]) - \
                EW[EW_HAND + 12]
            if g > rp.best:
                rp.best = g
        if known & QUEENS:
            g = EW[EW_QUEEN] - EW[EW_HAND + 11]
            if g > rp.best:
                rp.best = g
        if known & EIGHTS:
            g = EW[EW_GLASSES] - EW[EW_HAND + 7]
            if g > rp.best:
                rp.best = g
        if known & FOURS:
            g = cf * (2 * EW[EW_AVG] - EW[EW_HAND + 3])
            if g > rp.best:
                rp.best = g
        if (known & FIVES) and s.deck_len > 0:
            g = cf * (2 * EW[EW_AVG] - EW[EW_HAND + 4])
            if g > rp.best:
                rp.best = g

cdef void table_replies(const State* s, const CRules* r, ExpertCtx* cx, const Frame* f, int who,
                        uint64_t known, int u, double cf, Replies* rp) noexcept nogil:
    """The kinds of move aimed at the other player's table: a scuttle or a Jack on their
    best point card, an Ace, a 2 or a 9 on their best permanent, a 6."""
    cdef int other = who ^ 1
    cdef int c, k, i
    cdef int sc_w = f.sc[who]
    cdef int sc_o = f.sc[other]
    cdef int g_w = f.g[who]
    cdef int g_o = f.g[other]
    cdef double pw = EW[EW_PROG]
    cdef double here_w = f.here[who]
    cdef double here_o = f.here[other]
    cdef double d, p
    cdef uint64_t m = s.points[other]
    if m and not (r.queen_stops_scuttles and (s.perm[other] & QUEENS)):
        c = highest(m)
        p = chance(rp, cx, known, u, ABOVE[1 if r.strict_scuttle else 0][c])
        if p > 0.0:
            add_reply(rp, pw * (here_o - progress(sc_o - card_value(c), g_o)) - EW[EW_AVG], p)
    m = can_target(s, r, other, who, s.points[other])
    if m:
        k = card_value(highest(m))
        p = chance(rp, cx, known, u, JACKS)
        if p > 0.0:
            add_reply(rp, pw * (here_o - progress(sc_o - k, g_o) + progress(sc_w + k, g_w) -
                                here_w) - EW[EW_HAND + 10], p)
    if s.points[other]:
        p = chance(rp, cx, known, u, ACES)
        if p > 0.0:
            add_reply(rp, cf * (pw * (here_o - progress(0, g_o) - here_w + progress(0, g_w)) -
                                EW[EW_HAND + 0]), p)
    m = can_target(s, r, other, who, s.perm[other])
    if m:
        if m & KINGS:
            i = popcount(s.perm[other] & KINGS)
            d = EW[EW_KING] + pw * (here_o - progress(sc_o, r.king_goals[i - 1 if i <= 4 else 3]))
        elif m & QUEENS:
            d = EW[EW_QUEEN]
        else:
            d = EW[EW_GLASSES]
        p = chance(rp, cx, known, u, TWOS)
        if p > 0.0:
            add_reply(rp, cf * (d - EW[EW_HAND + 1]), p)
        p = chance(rp, cx, known, u, NINES)
        if p > 0.0:
            add_reply(rp, cf * (EW[EW_NINE] * d - EW[EW_HAND + 8]), p)
    if s.perm[other]:
        d = EW[EW_KING] * (popcount(s.perm[other] & KINGS) - popcount(s.perm[who] & KINGS)) + \
            EW[EW_QUEEN] * (popcount(s.perm[other] & QUEENS) - popcount(s.perm[who] & QUEENS)) + \
            EW[EW_GLASSES] * (popcount(s.perm[other] & EIGHTS) - popcount(s.perm[who] & EIGHTS))
        p = chance(rp, cx, known, u, SIXES)
        if p > 0.0:
            add_reply(rp, cf * (d - EW[EW_HAND + 5]), p)

cdef double best_gain(const State* s, const CRules* r, ExpertCtx* cx, const Frame* f, int who,
                      uint64_t known, int u, double* p_win_out) noexcept nogil:
    """The expected gain of `who`'s best move from s, by the evaluation: each kind of
    move (a win, points of each rank, a scuttle, a Jack, the one-offs, a King...) is
    open with the chance that `who` holds such a card (`known` cards for sure, u more
    from the pool: none for the player, whose own unseen draws are left out), and the
    best kind held is taken, kinds held independently; drawing is always open."""
    cdef int other = who ^ 1
    cdef Replies dyn
    cdef Replies* st
    cdef HandReplies* h
    cdef double cf, p_win, e, pnone, floor, g, p
    cdef uint64_t wins, key
    cdef int i, j
    # A one-off that the other player can counter (holding a 2, no Queen against
    # them) gains little; the opponent's 2s are known or likely.
    if s.perm[who] & QUEENS:
        cf = 1.0
    elif who == cx.me:
        cf = 1.0 - (1.0 - EW[EW_COUNTERED]) * p_holds(
            cx, s.hand[other] & s.known_hand[who],
            popcount(s.hand[other]) - popcount(s.hand[other] & s.known_hand[who]), TWOS)
    else:
        cf = EW[EW_COUNTERED] if (s.hand[other] & TWOS & ~cx.pool) else 1.0
    wins = win_cards(s, r, f, who)
    p_win = p_holds(cx, known, u, wins & ~(TWOS | NINES | SIXES))
    p_win += (1.0 - p_win) * cf * p_holds(cx, known, u, wins & (TWOS | NINES | SIXES))
    p_win_out[0] = p_win
    if p_win >= 1.0:
        return 0.0
    floor = EW[EW_AVG] if s.deck_len > 0 else 0.0      # drawing a card
    dyn.n = 0
    dyn.best = floor
    if who == cx.me:                    # exact: the player knows their cards
        dyn.exact = 1
        own_hand_best(s, r, f, who, known, cf, &dyn)
        table_replies(s, r, cx, f, who, known, 0, cf, &dyn)
        return dyn.best
    # The opponent: the kinds that depend on their hand and score rarely change from
    # one of the player's moves to the next: kept sorted in cx while they do not.
    dyn.exact = 0
    key = known ^ (<uint64_t>u << 56)
    st = NULL
    for i in range(4):
        h = &cx.hand[i]
        if h.ok and key == h.key and cf == h.cf and f.g[who] == h.goal and \
                (s.deck_len > 0) == h.deck and popcount(s.perm[who] & KINGS) == h.kings and \
                f.sc[who] == h.score:
            st = &h.rp
            break
    if st == NULL:
        h = &cx.hand[cx.hand_next]
        cx.hand_next = (cx.hand_next + 1) & 3
        h.ok = 1
        h.key = key
        h.cf = cf
        h.goal = f.g[who]
        h.deck = s.deck_len > 0
        h.kings = popcount(s.perm[who] & KINGS)
        h.score = f.sc[who]
        st = &h.rp
        st.n = 0
        st.exact = 0
        hand_replies(s, r, cx, f, who, known, u, cf, st)
        sort_replies(st)
    table_replies(s, r, cx, f, who, known, u, cf, &dyn)
    sort_replies(&dyn)
    # Expected best: through both lists by gain, each kind counting when no better
    # one is held.
    e = 0.0
    pnone = 1.0
    i = j = 0
    while True:
        if i < st.n and (j >= dyn.n or st.gain[i] >= dyn.gain[j]):
            g = st.gain[i]
            p = st.prob[i]
            i += 1
        elif j < dyn.n:
            g = dyn.gain[j]
            p = dyn.prob[j]
            j += 1
        else:
            break
        if g <= floor:
            break
        e += pnone * p * g
        pnone *= 1.0 - p
    e += pnone * floor
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
    cdef State child = s[0]
    cdef double v_res, v_ans, p
    cdef int c
    cdef uint64_t known
    apply_move(&child, r, mk(V_RESOLVE, NO_CARD, NO_CARD))
    v_res = ex_value(&child, r, cx, depth - 1)
    if depth <= 0:
        return v_res
    known = s.hand[opp] & s.known_hand[cx.me] & ~s.frozen[opp]
    p = p_holds(cx, known, popcount(s.hand[opp] & cx.pool), kinds)
    if p <= 0.0:
        return v_res
    child = s[0]
    c = give_card(&child, cx, opp, kinds)
    if c < 0:
        return v_res
    apply_move(&child, r, mk(verb, c, NO_CARD))
    v_ans = ex_value(&child, r, cx, depth - 1)
    if v_ans >= v_res:
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
    """Settle the decisions that follow the player's move, then evaluate."""
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
            return expert_eval(s, r, cx) + EW[EW_SEVEN]
        if depth <= 0:
            return expert_eval(s, r, cx)
        # The player's own follow-up choice (a 3's pick, a 5's discard, a counter war,
        # a hand-limit discard): the best one.
        n = gen_moves(s, r, buf)
        best = -1e18
        for i in range(n):
            child = s[0]
            apply_move(&child, r, buf[i])
            v = ex_value(&child, r, cx, depth - 1)
            if v > best:
                best = v
        return best

cdef void expert_values(const State* s, const CRules* r, const uint32_t* buf, int n,
                        double* out) noexcept nogil:
    """The expert's value of each of the n moves in buf for the player to decide."""
    cdef ExpertCtx cx
    cdef State view = s[0]
    cdef State child
    cdef int i
    cx.me = s.to_move
    canonical_view(&view, r, cx.me, &cx)
    for i in range(n):
        child = view
        apply_move(&child, r, buf[i])
        out[i] = ex_value(&child, r, &cx, 3)

cdef uint32_t expert_move(State* s, const CRules* r, Rng* g, uint32_t* buf, int n) noexcept nogil:
    cdef double values[MAX_MOVES]
    cdef int i, nbest = 0
    cdef double best = -1e18
    cdef uint32_t choice = buf[0]
    expert_values(s, r, buf, n, values)
    for i in range(n):
        if values[i] > best + 1e-9:
            best = values[i]
            choice = buf[i]
            nbest = 1
        elif values[i] > best - 1e-9:
            nbest += 1                      # ties broken uniformly (reservoir sampling)
            if rng_below(g, nbest) == 0:
                choice = buf[i]
    return choice


cdef uint32_t choose_move(State* s, const CRules* r, int policy, Rng* g,
                                 uint32_t* buf, int n) noexcept nogil:
    if n == 1:
        return buf[0]
    cdef int kind = policy & POLICY_KIND_MASK
    if kind == POL_GREEDY:
        return greedy_move(s, r, g, buf, n)
    if kind == POL_EXPERT:
        return expert_move(s, r, g, buf, n)
    if kind == POL_ISMCTS_RANDOM or kind == POL_ISMCTS:
        return ismcts_move(s, r, policy, g, buf, n, NULL)
    return buf[rng_below(g, n)]


cdef double position_value(const State* s, const CRules* r, double scale) noexcept nogil:
    """Player 0's chances in s by the expert's evaluation, in [0, 1]: from the view of
    the player not deciding now (so that, in the main phase, the evaluation weighs the
    decider's best reply)."""
    cdef ExpertCtx cx
    cdef State view = s[0]
    cdef double v
    cx.me = s.to_move ^ 1
    canonical_view(&view, r, cx.me, &cx)
    v = expert_eval(&view, r, &cx)
    return 1.0 / (1.0 + exp((v if cx.me == 1 else -v) / scale))

cdef int play_moves(State* s, const CRules* r, int pol0, int pol1, Rng* g, int k) noexcept nogil:
    """Play at most k moves (fewer if the game ends); returns how many."""
    cdef uint32_t buf[MAX_MOVES]
    cdef int n, pol, i = 0
    while i < k and s.phase != PH_OVER:
        pol = pol1 if s.to_move else pol0
        if pol == POL_RANDOM:
            apply_move(s, r, random_move(s, r, g))
        else:
            n = gen_moves(s, r, buf)
            apply_move(s, r, choose_move(s, r, pol, g, buf, n))
        i += 1
    return i

cdef inline int is_search(int pol) noexcept nogil:
    return (pol & POLICY_KIND_MASK) == POL_ISMCTS or (pol & POLICY_KIND_MASK) == POL_ISMCTS_RANDOM

cdef int play_out(State* s, const CRules* r, int pol0, int pol1, Rng* g,
                  int max_moves) noexcept nogil:
    """Play to the end with seat 0 using pol0 and seat 1 pol1; returns the moves made,
    or -1 if a search ran out of memory.  A searching player keeps its tree from one
    decision to the next (tree_advance)."""
    cdef uint32_t buf[MAX_MOVES]
    cdef int n, pol, k = 0
    if is_search(pol0) or is_search(pol1):
        return play_out_searching(s, r, pol0, pol1, g, max_moves)
    while s.phase != PH_OVER:
        if k >= max_moves:
            s.phase = PH_OVER
            s.end_reason = END_MOVE_CAP
            break
        pol = pol1 if s.to_move else pol0
        if pol == POL_RANDOM:
            apply_move(s, r, random_move(s, r, g))
        else:
            n = gen_moves(s, r, buf)
            apply_move(s, r, choose_move(s, r, pol, g, buf, n))
        k += 1
    return k

cdef int play_out_searching(State* s, const CRules* r, int pol0, int pol1, Rng* g,
                            int max_moves) noexcept nogil:
    # play_out with a search player: each keeps its tree and the moves played since.
    cdef uint32_t buf[MAX_MOVES]
    cdef uint32_t since[2][MAX_SINCE]   # each seat's moves since its last search
    cdef int nsince[2]
    cdef Tree trees[2]
    cdef int n, p, pol, k = 0
    cdef uint32_t m
    for p in range(2):
        nsince[p] = 0
        trees[p].nodes = NULL
        trees[p].n = trees[p].cap = 0
    while s.phase != PH_OVER:
        if k >= max_moves:
            s.phase = PH_OVER
            s.end_reason = END_MOVE_CAP
            break
        p = s.to_move
        pol = pol1 if p else pol0
        if pol == POL_RANDOM:
            m = random_move(s, r, g)
        else:
            n = gen_moves(s, r, buf)
            if is_search(pol) and n > 1:
                if nsince[p] > MAX_SINCE or tree_advance(&trees[p], since[p], nsince[p]) < 0:
                    trees[p].n = 0
                nsince[p] = 0
                m = ismcts_move(s, r, pol, g, buf, n, &trees[p])
                if m == MOVE_NO_MEMORY:
                    k = -1
                    break
            else:
                m = choose_move(s, r, pol, g, buf, n)
        apply_move(s, r, m)
        for p in range(2):
            if nsince[p] < MAX_SINCE:
                since[p][nsince[p]] = m
            nsince[p] += 1
        k += 1
    tree_clear(&trees[0])
    tree_clear(&trees[1])
    return k


# ---------------------------------------------------------------------------------------
# Information-set MCTS (single observer; Cowling, Powley & Whitehouse 2012): every
# iteration samples a determinization of the decider's view, walks the tree with UCB
# restricted to the moves available in that sample (availability counts), expands one
# node, plays the game out and backs the result up for each node's mover.  Moves are
# expanded best-first by the expert's evaluation (from the mover's view in the sample),
# whose value also biases the choice while a node has few visits (progressive bias).

ctypedef struct SearchConfig:
    int playout               # the playouts' policy (both players)
    double c                  # UCB exploration
    double bias               # weight of the prior (progressive bias)
    double temp               # points of evaluation per unit of the prior's logit
    int depth                 # playouts stop after this many moves (0: at the end)
    double scale              # ... and are scored by the evaluation: points per logit
    double widen              # progressive widening: a node visited v times has at most
                              # 1 + widen * v ** 0.5 children tried (0: no limit)

cdef SearchConfig SEARCH[2]   # [0]: ismcts, [1]: ismcts-random
SEARCH[0].playout = POL_GREEDY
SEARCH[0].c = 0.3
SEARCH[0].bias = 2.0
SEARCH[0].temp = 4.0
SEARCH[0].depth = 6
SEARCH[0].scale = 30.0
SEARCH[0].widen = 0.25
SEARCH[1] = SEARCH[0]
SEARCH[1].playout = POL_RANDOM


def _search_config(int which, playout=None, c=None, bias=None, temp=None, depth=None,
                   scale=None, widen=None):
    """Read or change a search's settings (0: ismcts, 1: ismcts-random); for tuning."""
    if widen is not None:
        SEARCH[which].widen = widen
    if depth is not None:
        SEARCH[which].depth = depth
    if scale is not None:
        SEARCH[which].scale = scale
    if playout is not None:
        SEARCH[which].playout = playout
    if c is not None:
        SEARCH[which].c = c
    if bias is not None:
        SEARCH[which].bias = bias
    if temp is not None:
        SEARCH[which].temp = temp
    return dict(playout=SEARCH[which].playout, c=SEARCH[which].c, bias=SEARCH[which].bias,
                temp=SEARCH[which].temp, depth=SEARCH[which].depth, scale=SEARCH[which].scale,
                widen=SEARCH[which].widen)


cdef enum:
    MAX_SINCE = 256           # moves between two searches of a player that reuse follows

cdef inline int in_moves(uint32_t m, const uint32_t* buf, int n) noexcept nogil:
    cdef int i
    for i in range(n):
        if buf[i] == m:
            return 1
    return 0

cdef inline void node_init(Node* nd, uint32_t move, int parent, int player,
                           float prior) noexcept nogil:
    nd.move = move
    nd.parent = parent
    nd.first_child = -1
    nd.next_sibling = -1
    nd.player = player
    nd.visits = 0
    nd.avail = 1
    nd.prior = prior
    nd.reward = 0.0

cdef inline float prior_of(double v, double best, double temp) noexcept nogil:
    # A move's value against the best one's, as a logistic in [0, 1] (1 for the best).
    if v >= WIN_VALUE / 2:
        return 1.0
    if v <= -WIN_VALUE / 2:
        return 0.0
    return <float>(2.0 / (1.0 + exp((best - v) / temp)))

cdef int expand(Node* nodes, int node, int n_nodes, const State* s, const CRules* r,
                const SearchConfig* cfg, const uint32_t* buf, int n, Rng* g) noexcept nogil:
    """Add to `node` the untried move (of the n legal in s) that the expert likes best
    (any untried move without priors); returns the new node's index."""
    cdef double values[MAX_MOVES]
    cdef int i, child, pick = -1, k = 0, nbest = 0
    cdef double top = -1e300, best = -1e300
    cdef float prior = 1.0
    if cfg.bias > 0.0:
        expert_values(s, r, buf, n, values)
        for i in range(n):
            if values[i] > top:
                top = values[i]
    for i in range(n):
        child = nodes[node].first_child
        while child >= 0 and nodes[child].move != buf[i]:
            child = nodes[child].next_sibling
        if child >= 0:
            continue                        # tried already
        if cfg.bias > 0.0:
            if values[i] > best + 1e-9:
                best = values[i]
                pick = i
                nbest = 1
            elif values[i] > best - 1e-9:
                nbest += 1
                if rng_below(g, nbest) == 0:
                    pick = i
        else:
            k += 1                          # uniform among the untried (reservoir)
            if rng_below(g, k) == 0:
                pick = i
    if cfg.bias > 0.0:
        prior = prior_of(values[pick], top, cfg.temp)
    child = n_nodes
    node_init(&nodes[child], buf[pick], node, s.to_move, prior)
    nodes[child].next_sibling = nodes[node].first_child
    nodes[node].first_child = child
    return child

cdef int search(Tree* t, const State* root, const CRules* r, int iters,
                const SearchConfig* cfg, Rng* g) noexcept nogil:
    """Run `iters` iterations from `root` (the decider's position) into tree t, whose
    root is that position (empty, or reused from an earlier search).  Returns 0, or
    -1 when the nodes cannot be allocated (t is then empty).  Stops early on Ctrl-C."""
    cdef uint32_t buf[MAX_MOVES]
    cdef State s
    cdef int me = root.to_move
    cdef int it, node, child, best_child, n, untried
    cdef double score_, best_score, logn, res
    cdef Node* nodes
    if tree_reserve(t, t.n + iters + 1) < 0:
        return -1
    nodes = t.nodes
    if t.n == 0:
        node_init(&nodes[0], 0, -1, me ^ 1, 0.5)
        t.n = 1
    for it in range(iters):
        if (it & 15) == 0 and poll_interrupt():
            break                          # Ctrl-C: answer with the best move so far
        s = root[0]
        determinize(&s, r, me, g)
        node = 0
        while s.phase != PH_OVER:
            n = gen_moves(&s, r, buf)
            # Available children get an availability count; untried moves are counted.
            untried = n
            child = nodes[node].first_child
            while child >= 0:
                if in_moves(nodes[child].move, buf, n):
                    nodes[child].avail += 1
                    untried -= 1
                child = nodes[child].next_sibling
            if untried > 0 and cfg.widen > 0.0 and \
                    n - untried >= 1.0 + cfg.widen * sqrt(<double>nodes[node].visits):
                untried = 0                # wide enough for its visits: select
            if untried > 0 and t.n < t.cap:
                node = expand(nodes, node, t.n, &s, r, cfg, buf, n, g)
                t.n += 1
                apply_move(&s, r, nodes[node].move)
                break
            if untried > 0:
                break                      # node pool full: play out from here
            best_child = -1
            best_score = -1e300
            child = nodes[node].first_child
            while child >= 0:
                if nodes[child].visits > 0 and in_moves(nodes[child].move, buf, n):
                    logn = log(<double>nodes[child].avail)
                    score_ = nodes[child].reward / nodes[child].visits + \
                        cfg.c * sqrt(logn / nodes[child].visits) + \
                        cfg.bias * nodes[child].prior / (nodes[child].visits + 1)
                    if score_ > best_score:
                        best_score = score_
                        best_child = child
                child = nodes[child].next_sibling
            if best_child < 0:
                break
            apply_move(&s, r, nodes[best_child].move)
            node = best_child
        # The playout: to the end, or cut short and scored by the evaluation.
        if cfg.depth > 0:
            play_moves(&s, r, cfg.playout, cfg.playout, g, cfg.depth)
        else:
            play_out(&s, r, cfg.playout, cfg.playout, g, 10000)
        if s.phase == PH_OVER:
            res = 0.5 if s.winner < 0 else (1.0 if s.winner == 0 else 0.0)
        else:
            res = position_value(&s, r, cfg.scale)
        while node >= 0:
            nodes[node].visits += 1
            if node > 0:
                nodes[node].reward += res if nodes[node].player == 0 else 1.0 - res
            node = nodes[node].parent
    return 0

# -- trees kept between decisions -------------------------------------------------------

cdef void tree_clear(Tree* t) noexcept nogil:
    free(t.nodes)
    t.nodes = NULL
    t.n = t.cap = 0

cdef int tree_reserve(Tree* t, int cap) noexcept nogil:
    # Room for `cap` nodes (the contents kept); -1 (and t cleared) if it cannot be had.
    cdef Node* more
    if cap <= t.cap:
        return 0
    more = <Node*>realloc(t.nodes, cap * sizeof(Node))
    if more == NULL:
        tree_clear(t)
        return -1
    t.nodes = more
    t.cap = cap
    return 0

cdef int tree_advance(Tree* t, const uint32_t* moves, int k) noexcept nogil:
    """Move t's root along the k moves played since its search (the whole subtree
    reached is kept, compacted, the rest dropped; no subtree: t is emptied).  The
    subtree's statistics come from samples of the earlier view that agree with every
    public move since, so they stay valid for the new root (Cowling et al. reuse).
    Returns -1 if memory runs out (t is then empty)."""
    cdef int node = 0
    cdef int i, child, size, head, j, c
    cdef Node* out
    if t.n == 0:
        return 0
    for i in range(k):
        child = t.nodes[node].first_child
        while child >= 0 and t.nodes[child].move != moves[i]:
            child = t.nodes[child].next_sibling
        if child < 0:
            t.n = 0
            return 0
        node = child
    if node == 0:
        return 0
    # Copy the subtree breadth-first into a fresh array, renumbered from 0.
    out = <Node*>malloc(t.cap * sizeof(Node))
    if out == NULL:
        tree_clear(t)
        return -1
    out[0] = t.nodes[node]
    out[0].parent = -1
    out[0].next_sibling = -1
    size = 1
    head = 0
    while head < size:
        # out[head] is a copy whose first_child still uses the old numbering.
        child = out[head].first_child
        out[head].first_child = -1
        c = -1
        while child >= 0:
            j = size
            size += 1
            out[j] = t.nodes[child]
            out[j].parent = head
            out[j].next_sibling = -1
            if c < 0:
                out[head].first_child = j
            else:
                out[c].next_sibling = j
            c = j
            child = t.nodes[child].next_sibling
        head += 1
    free(t.nodes)
    t.nodes = out
    t.n = size
    return 0

cdef int ismcts_visits(Tree* t, const State* root, const CRules* r, int policy, int iters,
                       Rng* g, const uint32_t* root_moves, int n_root,
                       int32_t* visits) noexcept nogil:
    """Search `iters` iterations into t (kept for reuse) and add each root move's
    visits to visits[] (indexed like root_moves).  Returns 0, or -1 for no memory."""
    cdef int which = 0 if (policy & POLICY_KIND_MASK) == POL_ISMCTS else 1
    cdef int i, child
    if iters < 1:
        iters = 1
    if search(t, root, r, iters, &SEARCH[which], g) < 0:
        return -1
    child = t.nodes[0].first_child
    while child >= 0:
        for i in range(n_root):
            if root_moves[i] == t.nodes[child].move:
                visits[i] += t.nodes[child].visits
        child = t.nodes[child].next_sibling
    return 0

cdef uint32_t most_visited(const uint32_t* root_moves, int n_root,
                           const int32_t* visits) noexcept nogil:
    # The first of the most visited moves (in the order of the legal moves).
    cdef int i, best = 0
    for i in range(1, n_root):
        if visits[i] > visits[best]:
            best = i
    return root_moves[best]

cdef uint32_t ismcts_move(const State* root, const CRules* r, int policy, Rng* g,
                          const uint32_t* root_moves, int n_root, Tree* t) noexcept nogil:
    """The most visited root move of a search (into t if given, else a fresh tree);
    MOVE_NO_MEMORY if the tree cannot be allocated."""
    cdef int32_t visits[MAX_MOVES]
    cdef Tree own
    cdef int i, err
    own.nodes = NULL
    own.n = own.cap = 0
    for i in range(n_root):
        visits[i] = 0
    err = ismcts_visits(t if t != NULL else &own, root, r, policy, policy >> POLICY_SHIFT,
                        g, root_moves, n_root, visits)
    tree_clear(&own)
    if err < 0:
        return MOVE_NO_MEMORY
    return most_visited(root_moves, n_root, visits)
