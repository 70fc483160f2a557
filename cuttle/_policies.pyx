# cython: language_level=3
"""The native policies: random, greedy (a one-move look-ahead over a static evaluation)
and information-set MCTS, and the loop that plays a game out with them.

Every policy sees only what its player may know: greedy reads the public table, hand
sizes and its own hand; ISMCTS searches over determinizations of its player's view.
`POLICIES` names them for Python (cuttle/policies.py parses the names).
"""

from libc.stdint cimport uint64_t, uint32_t, int32_t, int16_t, int8_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset
from libc.math cimport log, sqrt

from cuttle._state cimport *
from cuttle._rng cimport rng_below
from cuttle._engine cimport gen_moves, apply_move, score, goal
from cuttle._hidden cimport determinize
from cuttle._signals cimport poll_interrupt

cdef extern from *:
    """
    #define CU_NINES (0xFULL << 32)
    #define CU_JACKS (0xFULL << 40)
    """
    const uint64_t NINES "CU_NINES"
    const uint64_t JACKS "CU_JACKS"

# name: (kind code, takes an iteration count)
POLICIES = {"random": (POL_RANDOM, False), "greedy": (POL_GREEDY, False),
            "ismcts": (POL_ISMCTS, True), "ismcts-random": (POL_ISMCTS_RANDOM, True)}
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
    cdef Targets tg
    cdef int extra[14]
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
            n += popcount(pts & ABOVE[1 if r.strict_scuttle else 0][t])
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
    extra[1] = n2                         # moves besides points and scuttles, by rank
    extra[7] = n8
    extra[8] = n9
    extra[10] = nj
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

cdef uint32_t choose_move(State* s, const CRules* r, int policy, Rng* g,
                                 uint32_t* buf, int n) noexcept nogil:
    if n == 1:
        return buf[0]
    cdef int kind = policy & POLICY_KIND_MASK
    if kind == POL_GREEDY:
        return greedy_move(s, r, g, buf, n)
    if kind == POL_ISMCTS_RANDOM or kind == POL_ISMCTS:
        return ismcts_move(s, r, policy >> POLICY_SHIFT,
                           POL_GREEDY if kind == POL_ISMCTS else POL_RANDOM, g, buf, n)
    return buf[rng_below(g, n)]


cdef int play_out(State* s, const CRules* r, int pol0, int pol1, Rng* g,
                  int max_moves) noexcept nogil:
    """Play to the end with seat 0 using pol0 and seat 1 pol1; returns the moves made."""
    cdef uint32_t buf[MAX_MOVES]
    cdef int n, pol, k = 0
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


# ---------------------------------------------------------------------------------------
# Information-set MCTS (single observer): every iteration samples a determinization of
# the decider's view, walks the tree with UCB restricted to the moves available in that
# sample (availability counts, as in Cowling, Powley & Whitehouse 2012), expands one
# node, plays a random playout and backs the result up for each node's mover.

ctypedef struct Node:
    uint32_t move
    int32_t parent
    int32_t first_child
    int32_t next_sibling
    int32_t player            # who chose `move`
    int32_t visits
    int32_t avail
    double reward             # wins (draw = 1/2) of `player` through this node

cdef double UCB_C = 0.7

cdef inline int in_moves(uint32_t m, const uint32_t* buf, int n) noexcept nogil:
    cdef int i
    for i in range(n):
        if buf[i] == m:
            return 1
    return 0

cdef uint32_t ismcts_move(const State* root, const CRules* r, int iters, int rollout, Rng* g,
                          const uint32_t* root_moves, int n_root) noexcept nogil:
    if iters < 1:
        iters = 1
    cdef Node* nodes = <Node*>malloc((iters + 1) * sizeof(Node))
    if nodes == NULL:
        return root_moves[rng_below(g, n_root)]
    cdef uint32_t buf[MAX_MOVES]
    cdef State s
    cdef int me = root.to_move
    cdef int n_nodes = 1
    cdef int it, node, child, best_child, n, i, untried, pick, w
    cdef double score_, best_score, logn
    cdef uint32_t mv = root_moves[0]
    nodes[0].parent = -1
    nodes[0].first_child = -1
    nodes[0].next_sibling = -1
    nodes[0].visits = 0
    nodes[0].reward = 0
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
            if untried > 0 and n_nodes <= iters:
                pick = <int>rng_below(g, untried)
                for i in range(n):
                    mv = buf[i]
                    child = nodes[node].first_child
                    while child >= 0 and nodes[child].move != mv:
                        child = nodes[child].next_sibling
                    if child < 0:
                        if pick == 0:
                            break
                        pick -= 1
                child = n_nodes
                n_nodes += 1
                nodes[child].move = mv
                nodes[child].parent = node
                nodes[child].first_child = -1
                nodes[child].next_sibling = nodes[node].first_child
                nodes[child].player = s.to_move
                nodes[child].visits = 0
                nodes[child].avail = 1
                nodes[child].reward = 0
                nodes[node].first_child = child
                apply_move(&s, r, mv)
                node = child
                break
            if untried > 0:
                break                      # node pool full: play out from here
            best_child = -1
            best_score = -1.0
            child = nodes[node].first_child
            while child >= 0:
                if nodes[child].visits > 0 and in_moves(nodes[child].move, buf, n):
                    logn = log(<double>nodes[child].avail)
                    score_ = nodes[child].reward / nodes[child].visits + \
                        UCB_C * sqrt(logn / nodes[child].visits)
                    if score_ > best_score:
                        best_score = score_
                        best_child = child
                child = nodes[child].next_sibling
            if best_child < 0:
                break
            apply_move(&s, r, nodes[best_child].move)
            node = best_child
        play_out(&s, r, rollout, rollout, g, 10000)
        w = s.winner
        while node >= 0:
            nodes[node].visits += 1
            if node > 0:
                if w < 0:
                    nodes[node].reward += 0.5
                elif w == nodes[node].player:
                    nodes[node].reward += 1.0
            node = nodes[node].parent
    # The most visited root move that is legal here (all root children are).
    mv = root_moves[0]
    best_score = -1
    child = nodes[0].first_child
    while child >= 0:
        if nodes[child].visits > best_score:
            best_score = nodes[child].visits
            mv = nodes[child].move
        child = nodes[child].next_sibling
    free(nodes)
    return mv
