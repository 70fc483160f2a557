# cython: language_level=3
# distutils: language = c
"""The native core of cuttle: rules, move generation, move application and playouts.

The state is a C struct of bitmasks (one 64-bit mask per zone, bit i = card with natural
index i) and packed arrays; every rule lives in a `noexcept nogil` function on a
`State*`, so whole games run without the GIL.  `CoreGame` is the thin Python-facing
class that `cuttle.Game` builds on.  Directives come from setup.py (release: no checks;
CUTTLE_DEBUG=1: bounds checks on).
"""

from libc.stdint cimport uint64_t, uint32_t, uint16_t, int8_t, int32_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free
from libc.math cimport log, sqrt
from cpython.mem cimport PyMem_Realloc, PyMem_Free
from cython.parallel cimport prange

import os
import numpy as np

cdef extern from *:
    """
    static inline int cu_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int cu_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline unsigned long long cu_mulhi(unsigned long long a, unsigned long long b) {
        return (unsigned long long)(((unsigned __int128)a * b) >> 64);
    }
    """
    int cu_ctz(unsigned long long x) noexcept nogil
    int cu_popcount(unsigned long long x) noexcept nogil
    unsigned long long cu_mulhi(unsigned long long a, unsigned long long b) noexcept nogil

# ---------------------------------------------------------------------------------------
# Card masks.  Natural index = rank * 4 + suit, rank 0 = Ace ... 12 = King.

cdef uint64_t ONE = 1
cdef uint64_t TWOS = <uint64_t>0xF << 4
cdef uint64_t THREES = <uint64_t>0xF << 8
cdef uint64_t EIGHTS = <uint64_t>0xF << 28
cdef uint64_t TENS = <uint64_t>0xF << 36
cdef uint64_t QUEENS = <uint64_t>0xF << 44
cdef uint64_t KINGS = <uint64_t>0xF << 48

cdef inline uint64_t bit(int c) noexcept nogil:
    return ONE << c

cdef inline int rank_of(int c) noexcept nogil:
    return c >> 2

cdef inline int popcount(uint64_t x) noexcept nogil:
    return cu_popcount(x)

cdef inline int lowest(uint64_t x) noexcept nogil:
    return cu_ctz(x)

cdef inline uint32_t mk(int verb, int card, int target) noexcept nogil:
    return <uint32_t>(verb | (card << 4) | (target << 10))

cdef inline int mv_verb(uint32_t m) noexcept nogil:
    return m & 15

cdef inline int mv_card(uint32_t m) noexcept nogil:
    return (m >> 4) & 63

cdef inline int mv_target(uint32_t m) noexcept nogil:
    return (m >> 10) & 63

# ---------------------------------------------------------------------------------------
# The random stream: xoshiro256**, seeded through splitmix64 from (seed, stream).

cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))

cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)

cdef void rng_seed(Rng* g, uint64_t seed, uint64_t stream) noexcept nogil:
    # Stream k of a seed: mix the seed, then offset by k odd constants so that
    # (seed, k) pairs give unrelated starting points for splitmix64.
    cdef uint64_t x = seed
    cdef uint64_t base = splitmix64(&x)
    x = base ^ (stream * <uint64_t>0xD1B54A32D192ED03)
    cdef int i
    for i in range(4):
        g.s[i] = splitmix64(&x)

cdef uint64_t rng_next(Rng* g) noexcept nogil:
    cdef uint64_t result = rotl(g.s[1] * 5, 7) * 9
    cdef uint64_t t = g.s[1] << 17
    g.s[2] ^= g.s[0]
    g.s[3] ^= g.s[1]
    g.s[1] ^= g.s[2]
    g.s[0] ^= g.s[3]
    g.s[2] ^= t
    g.s[3] = rotl(g.s[3], 45)
    return result

cdef uint64_t rng_below(Rng* g, uint64_t n) noexcept nogil:
    # (next * n) >> 64: uniform up to a bias of n / 2**64, and specified exactly so the
    # reference engine can follow the same stream.
    return cu_mulhi(rng_next(g), n)

# ---------------------------------------------------------------------------------------
# Jack stacks: jst[c] = count | suit_i << (3 + 2 i), bottom first.

cdef inline int jcount(const State* s, int c) noexcept nogil:
    return s.jst[c] & 7

cdef inline int jtop(const State* s, int c) noexcept nogil:
    cdef int n = s.jst[c] & 7
    return 40 + ((s.jst[c] >> (3 + 2 * (n - 1))) & 3)

cdef inline int controller_of_point(const State* s, int c) noexcept nogil:
    return 0 if (s.points[0] & bit(c)) else 1

cdef inline void flip_control(State* s, int c) noexcept nogil:
    s.points[0] ^= bit(c)
    s.points[1] ^= bit(c)

cdef inline void jack_push(State* s, int c, int jack) noexcept nogil:
    cdef int n = s.jst[c] & 7
    s.jst[c] = <uint16_t>((s.jst[c] & ~7) | (n + 1) | ((jack & 3) << (3 + 2 * n)))
    s.stacked |= bit(c)
    flip_control(s, c)

cdef inline int jack_pop(State* s, int c) noexcept nogil:
    cdef int top = jtop(s, c)
    cdef int n = (s.jst[c] & 7) - 1
    s.jst[c] = <uint16_t>((s.jst[c] & ~(7 | (3 << (3 + 2 * n)))) | n)
    if n == 0:
        s.jst[c] = 0
        s.stacked &= ~bit(c)
    flip_control(s, c)
    return top

cdef inline void scrap_jacks(State* s, int c) noexcept nogil:
    # Scrap a point card's Jacks without changing who controls it.
    cdef int n = s.jst[c] & 7
    cdef int i
    for i in range(n):
        s.scrap |= bit(40 + ((s.jst[c] >> (3 + 2 * i)) & 3))
    s.jst[c] = 0
    s.stacked &= ~bit(c)

cdef inline int point_under_jack(const State* s, int jack) noexcept nogil:
    # The point card whose top Jack is `jack`, or -1.
    cdef uint64_t m = s.stacked
    cdef int c
    while m:
        c = lowest(m)
        m &= m - 1
        if jtop(s, c) == jack:
            return c
    return -1

cdef inline uint64_t top_jacks(const State* s, int side) noexcept nogil:
    # Top Jacks of the stacks whose point card `side` controls.
    cdef uint64_t m = s.stacked & s.points[side]
    cdef uint64_t out = 0
    while m:
        out |= bit(jtop(s, lowest(m)))
        m &= m - 1
    return out

# ---------------------------------------------------------------------------------------
# Scores, goals, protection.

cdef int score(const State* s, int p) noexcept nogil:
    cdef uint64_t m = s.points[p]
    cdef int total = 0
    while m:
        total += rank_of(lowest(m)) + 1
        m &= m - 1
    return total

cdef int goal(const State* s, const CRules* r, int p) noexcept nogil:
    cdef int k = popcount(s.perm[p] & KINGS)
    if k > 4:
        k = 4
    return r.goals[k]

cdef inline uint64_t targetable(const State* s, const CRules* r, int side, int attacker,
                                uint64_t cards) noexcept nogil:
    # The subset of `cards` (all controlled by `side`) that `attacker` may target with a
    # 2, 9, Jack or glasses-breaking 8: Queens guard only against the other player.
    if side == attacker:
        return cards
    cdef int nq = popcount(s.perm[side] & QUEENS)
    if nq == 0:
        return cards
    if r.qpq:
        return 0 if nq >= 2 else (cards & QUEENS)
    return cards & QUEENS

cdef inline int beats(const CRules* r, int x, int t) noexcept nogil:
    if r.strict_scuttle:
        return rank_of(x) > rank_of(t)
    return x > t

cdef inline int deck_count(const State* s) noexcept nogil:
    # Cards counting as deck when a card's play is judged: the deck plus, during a 7,
    # the revealed card that would not be chosen.
    if s.phase == PH_SEVEN and s.n_revealed > 0:
        return s.deck_len + s.n_revealed - 1
    return s.deck_len

# ---------------------------------------------------------------------------------------
# Move generation.

cdef inline uint64_t nine_targets(const State* s, const CRules* r, int p, int side) noexcept nogil:
    cdef uint64_t m = s.perm[side] | top_jacks(s, side)
    if r.nine_points:
        m |= s.points[side]
    return targetable(s, r, side, p, m)

cdef int gen_card_plays(const State* s, const CRules* r, int p, int c, int from_seven,
                        uint32_t* out, int n) noexcept nogil:
    """Every legal way for player p to play card c (from hand, or revealed by a 7)."""
    cdef int opp = p ^ 1
    cdef int rk = rank_of(c)
    cdef uint64_t m
    cdef int t, side
    if c == JOKER:
        out[n] = mk(V_ONEOFF, c, NO_CARD)
        return n + 1
    if rk <= 9:
        out[n] = mk(V_POINTS, c, NO_CARD)
        n += 1
        if not (r.queen_stops_scuttles and (s.perm[opp] & QUEENS)):
            m = s.points[opp]
            while m:
                t = lowest(m)
                m &= m - 1
                if beats(r, c, t):
                    out[n] = mk(V_SCUTTLE, c, t)
                    n += 1
    if rk == 12 or (rk == 11 and not (r.one_queen and (s.perm[p] & QUEENS))):
        out[n] = mk(V_ROYAL, c, NO_CARD)
        n += 1
    elif rk == 7:
        out[n] = mk(V_GLASSES, c, NO_CARD)
        n += 1
    elif rk == 10:
        m = targetable(s, r, opp, p, s.points[opp])
        if m == 0 and from_seven and not r.seven_top2:
            m = s.points[p]       # a classic 7's Jack with no opposing target
        while m:
            t = lowest(m)
            m &= m - 1
            out[n] = mk(V_JACK, c, t)
            n += 1
    # One-offs.
    if rk == 0 or rk == 5:
        out[n] = mk(V_ONEOFF, c, NO_CARD)
        n += 1
    elif rk == 1 or rk == 8:
        for side in range(2):
            if side == p and not r.own_side:
                continue
            if rk == 1:
                m = targetable(s, r, side, p, s.perm[side] | top_jacks(s, side))
            else:
                m = nine_targets(s, r, p, side)
            while m:
                t = lowest(m)
                m &= m - 1
                out[n] = mk(V_ONEOFF, c, t)
                n += 1
    elif rk == 2:
        if not r.strict or (s.scrap & (~<uint64_t>0 if r.three_threes else ~THREES)):
            out[n] = mk(V_ONEOFF, c, NO_CARD)
            n += 1
    elif rk == 3:
        if not r.strict or (deck_count(s) > 0 if r.four_mode == 2 else s.hand[opp] != 0):
            out[n] = mk(V_ONEOFF, c, NO_CARD)
            n += 1
    elif rk == 4 or rk == 6:
        # Strict: the 5 and the 7 need a deck, except that a revealed 5 that was the
        # last card may still be played and draws nothing (rulebook §4b).
        if not r.strict or deck_count(s) > 0 or (rk == 4 and from_seven):
            out[n] = mk(V_ONEOFF, c, NO_CARD)
            n += 1
    elif rk == 7:
        if r.eight_breaks:
            m = targetable(s, r, opp, p, s.perm[opp] & EIGHTS)
            while m:
                t = lowest(m)
                m &= m - 1
                out[n] = mk(V_ONEOFF, c, t)
                n += 1
    elif rk == 9:
        if r.ten_discards and (not r.strict or s.hand[opp] != 0):
            out[n] = mk(V_ONEOFF, c, NO_CARD)
            n += 1
    return n

cdef inline int gen_each(uint64_t m, int verb, uint32_t* out, int n) noexcept nogil:
    cdef int c
    while m:
        c = lowest(m)
        m &= m - 1
        out[n] = mk(verb, c, NO_CARD)
        n += 1
    return n

cdef inline uint64_t takeable(const State* s, const CRules* r) noexcept nogil:
    return s.scrap if r.three_threes else (s.scrap & ~THREES)

cdef inline int seven_has_play(const State* s, const CRules* r, int p) noexcept nogil:
    cdef uint32_t buf[MAX_MOVES]
    cdef int i
    for i in range(s.n_revealed):
        if gen_card_plays(s, r, p, s.revealed[i], 1, buf, 0) > 0:
            return 1
    return 0

cdef int gen_moves(const State* s, const CRules* r, uint32_t* out) noexcept nogil:
    cdef int p = s.to_move
    cdef int n = 0
    cdef int i, a, b
    cdef uint64_t m, m2
    cdef int ph = s.phase
    if ph == PH_MAIN:
        if s.deck_len > 0:
            if not (r.hand_limit >= 0 and r.limit_no_draw and popcount(s.hand[p]) >= r.hand_limit):
                out[n] = mk(V_DRAW, NO_CARD, NO_CARD)
                n += 1
        else:
            out[n] = mk(V_PASS, NO_CARD, NO_CARD)
            n += 1
        m = s.hand[p] & ~s.frozen[p]
        while m:
            a = lowest(m)
            m &= m - 1
            n = gen_card_plays(s, r, p, a, 0, out, n)
        if n == 0:
            # Only the no-draw hand limit can leave a player stuck: they pass.
            out[n] = mk(V_PASS, NO_CARD, NO_CARD)
            n += 1
    elif ph == PH_COUNTER:
        out[n] = mk(V_RESOLVE, NO_CARD, NO_CARD)
        n += 1
        if not (s.perm[p ^ 1] & QUEENS):
            n = gen_each(s.hand[p] & TWOS & ~s.frozen[p], V_COUNTER, out, n)
    elif ph == PH_THREE:
        n = gen_each(takeable(s, r), V_TAKE, out, n)
    elif ph == PH_FOUR:
        m = s.hand[p]
        if popcount(m) == 1:
            n = gen_each(m, V_DISCARD, out, n)
        else:
            while m:
                a = lowest(m)
                m &= m - 1
                m2 = m
                while m2:
                    b = lowest(m2)
                    m2 &= m2 - 1
                    out[n] = mk(V_DISCARD, a, b)
                    n += 1
    elif ph == PH_FIVE or ph == PH_DISCARD or ph == PH_TEN:
        n = gen_each(s.hand[p], V_DISCARD, out, n)
    elif ph == PH_SEVEN:
        for i in range(s.n_revealed):
            n = gen_card_plays(s, r, p, s.revealed[i], 1, out, n)
        if n == 0:
            for i in range(s.n_revealed):
                out[n] = mk(V_DISCARD, s.revealed[i], NO_CARD)
                n += 1
    elif ph == PH_BLOCK:
        out[n] = mk(V_RESOLVE, NO_CARD, NO_CARD)
        n += 1
        n = gen_each(s.hand[p] & TENS & ~s.frozen[p], V_BLOCK, out, n)
    return n

# ---------------------------------------------------------------------------------------
# Move application.  `apply_move` trusts that the move is legal (the Python layer and the
# playout loop only ever pass generated moves).

cdef inline int deck_pop(State* s) noexcept nogil:
    s.deck_len -= 1
    cdef int c = s.deck[s.deck_len]
    s.known_deck &= ~bit(c)
    return c

cdef inline void deck_push(State* s, int c) noexcept nogil:
    # Only public effects put cards back on the deck: both players know where it is.
    s.deck[s.deck_len] = <int8_t>c
    s.deck_len += 1
    s.known_deck |= bit(c)

cdef inline void draw_one(State* s, int p) noexcept nogil:
    # A card everybody knew was on top is known to be in the drawer's hand.
    cdef int c = s.deck[s.deck_len - 1]
    if s.known_deck & bit(c):
        s.known_hand[p ^ 1] |= bit(c)
    s.hand[p] |= bit(deck_pop(s))

cdef inline void draw_cards(State* s, int p, int k) noexcept nogil:
    while k > 0 and s.deck_len > 0:
        draw_one(s, p)
        k -= 1

cdef inline void scrap_stack(State* s) noexcept nogil:
    cdef int i
    for i in range(s.stack_len):
        s.scrap |= bit(s.stack[i])
    s.stack_len = 0
    s.target = -1

cdef inline void remove_point_card(State* s, int c) noexcept nogil:
    # Take a point card (and scrap its Jacks) off the table.
    scrap_jacks(s, c)
    s.points[0] &= ~bit(c)
    s.points[1] &= ~bit(c)

cdef inline int side_of(const State* s, int c) noexcept nogil:
    # Which side controls table card c: a permanent, a point card or a top Jack.
    cdef int pc
    if (s.perm[0] | s.points[0]) & bit(c):
        return 0
    if (s.perm[1] | s.points[1]) & bit(c):
        return 1
    pc = point_under_jack(s, c)
    return controller_of_point(s, pc)

cdef inline void finish_oneoff(State* s, const CRules* r) noexcept nogil:
    scrap_stack(s)
    start_turn_end(s, r)

cdef void start_turn_end(State* s, const CRules* r) noexcept nogil:
    # The turn's action is complete: discard down to the hand limit, or pass the turn.
    cdef int p = s.turn
    check_win(s, r, s.to_move)            # a win ends the game before the turn passes
    if s.phase == PH_OVER:
        return
    if r.hand_limit >= 0 and not r.limit_no_draw and popcount(s.hand[p]) > r.hand_limit:
        s.phase = PH_DISCARD
        s.to_move = p
        return
    if s.sd_end >= 0 and s.turn_number >= s.sd_end:
        s.phase = PH_OVER
        s.end_reason = END_SUDDEN_DEATH
        return
    s.frozen[p] = 0
    s.turn = p ^ 1
    s.frozen[p ^ 1] |= s.frozen_next[p ^ 1]
    s.frozen_next[p ^ 1] = 0
    s.turn_number += 1
    s.phase = PH_MAIN
    s.to_move = p ^ 1

cdef void reveal_seven(State* s, const CRules* r, int p) noexcept nogil:
    cdef int k = 2 if r.seven_top2 else 1
    s.n_revealed = 0
    while k > 0 and s.deck_len > 0:
        s.revealed[s.n_revealed] = <int8_t>deck_pop(s)
        s.n_revealed += 1
        k -= 1
    if s.n_revealed == 0:
        finish_oneoff(s, r)                # a 7 with an empty deck does nothing
        return
    s.phase = PH_SEVEN
    s.to_move = p
    if not r.seven_top2 and not seven_has_play(s, r, p):
        s.scrap |= bit(s.revealed[0])      # classic: an unplayable card is scrapped
        s.n_revealed = 0
        finish_oneoff(s, r)

cdef void resolve_oneoff(State* s, const CRules* r) noexcept nogil:
    cdef int c = s.stack[0]
    cdef int p = s.actor
    cdef int opp = p ^ 1
    cdef int t = s.target
    cdef int rk = rank_of(c)
    cdef int side, i
    cdef uint64_t m
    if c == JOKER:
        m = s.hand[0]
        s.hand[0] = s.hand[1]
        s.hand[1] = m
        s.known_hand[0] = s.hand[1]        # each player knows the hand they gave away
        s.known_hand[1] = s.hand[0]
        s.frozen[0] = s.frozen[1] = 0
        s.frozen_next[0] = s.frozen_next[1] = 0
        finish_oneoff(s, r)
    elif rk == 0:                          # A: scrap every point card
        m = s.points[0] | s.points[1]
        while m:
            i = lowest(m)
            m &= m - 1
            scrap_jacks(s, i)
            s.scrap |= bit(i)
        s.points[0] = s.points[1] = 0
        finish_oneoff(s, r)
    elif rk == 1:                          # 2: scrap a permanent or a top Jack
        if (s.perm[0] | s.perm[1]) & bit(t):
            s.perm[0] &= ~bit(t)
            s.perm[1] &= ~bit(t)
        else:
            jack_pop(s, point_under_jack(s, t))
        s.scrap |= bit(t)
        finish_oneoff(s, r)
    elif rk == 2:                          # 3: take a card from the scrap
        if takeable(s, r):
            s.phase = PH_THREE
            s.to_move = p
        else:
            finish_oneoff(s, r)
    elif rk == 3:                          # 4: the opponent discards two
        if r.four_mode == 2:
            draw_cards(s, opp, 2)
            finish_oneoff(s, r)
        elif s.hand[opp] == 0:
            finish_oneoff(s, r)
        elif r.four_mode == 1:
            random_discards(s, opp, 2)
            finish_oneoff(s, r)
        else:
            s.phase = PH_FOUR
            s.to_move = opp
    elif rk == 4:                          # 5: draw
        if not r.five_cc:
            draw_cards(s, p, 2)
            finish_oneoff(s, r)
        elif s.hand[p]:
            s.phase = PH_FIVE
            s.to_move = p
        else:
            draw_cards(s, p, 3)
            finish_oneoff(s, r)
    elif rk == 5:                          # 6: scrap permanents and Jacks
        m = s.stacked
        while m:
            i = lowest(m)
            m &= m - 1
            if jcount(s, i) & 1:
                flip_control(s, i)
            scrap_jacks(s, i)
        s.scrap |= s.perm[0] | s.perm[1]
        s.perm[0] = s.perm[1] = 0
        finish_oneoff(s, r)
    elif rk == 6:                          # 7: play from the deck
        reveal_seven(s, r, p)
    elif rk == 7:                          # 8 (variant): break the opponent's glasses
        s.perm[opp] &= ~bit(t)
        s.scrap |= bit(t)
        finish_oneoff(s, r)
    elif rk == 8:                          # 9: return a card
        side = side_of(s, t)
        if (s.points[0] | s.points[1]) & bit(t):
            remove_point_card(s, t)
        elif (s.perm[0] | s.perm[1]) & bit(t):
            s.perm[side] &= ~bit(t)
        else:
            jack_pop(s, point_under_jack(s, t))
        if r.nine_mode == 2:
            deck_push(s, t)
        else:
            s.hand[side] |= bit(t)
            s.known_hand[side ^ 1] |= bit(t)
            if r.nine_mode == 1:
                if side == s.turn:
                    s.frozen_next[side] |= bit(t)
                else:
                    s.frozen[side] |= bit(t)
        finish_oneoff(s, r)
    elif rk == 9:                          # 10 (variant): the opponent discards one
        if s.hand[opp]:
            s.phase = PH_TEN
            s.to_move = opp
        else:
            finish_oneoff(s, r)

cdef void random_discards(State* s, int p, int k) noexcept nogil:
    cdef int8_t cards[NCARDS]
    cdef int n = 0
    cdef int i, j
    cdef uint64_t m = s.hand[p]
    while m:
        cards[n] = <int8_t>lowest(m)
        n += 1
        m &= m - 1
    while k > 0 and n > 0:
        j = <int>rng_below(&s.rng, n)
        s.hand[p] &= ~bit(cards[j])
        s.scrap |= bit(cards[j])
        for i in range(j, n - 1):
            cards[i] = cards[i + 1]
        n -= 1
        k -= 1

cdef void play_card(State* s, const CRules* r, int p, int verb, int c, int t) noexcept nogil:
    # Card c has left the hand (or the reveal) and is played as `verb`.
    if verb == V_POINTS:
        s.points[p] |= bit(c)
        start_turn_end(s, r)
    elif verb == V_SCUTTLE:
        if r.ten_blocks:
            s.stack[0] = <int8_t>c
            s.stack_len = 1
            s.target = t
            s.actor = p
            s.phase = PH_BLOCK
            s.to_move = p ^ 1
        else:
            s.scrap |= bit(c) | bit(t)
            remove_point_card(s, t)
            start_turn_end(s, r)
    elif verb == V_ROYAL or verb == V_GLASSES:
        s.perm[p] |= bit(c)
        start_turn_end(s, r)
    elif verb == V_JACK:
        jack_push(s, t, c)
        start_turn_end(s, r)
    else:                                  # V_ONEOFF: announce it, open the counter window
        s.stack[0] = <int8_t>c
        s.stack_len = 1
        s.target = t
        s.actor = p
        s.phase = PH_COUNTER
        s.to_move = p ^ 1

cdef inline int hand_is_public(const State* s, const CRules* r, int p) noexcept nogil:
    # Glasses held by the opponent, open hands, or (cuttle.cards) the empty deck.
    return r.open_hands or (r.reveal_empty and s.deck_len == 0) or \
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
    cdef int w0 = score(s, 0) >= goal(s, r, 0)
    cdef int w1 = score(s, 1) >= goal(s, r, 1)
    if w0 or w1:
        s.winner = mover if (w0 and w1) else (0 if w0 else 1)
        s.phase = PH_OVER
        s.end_reason = END_GOAL

cdef void apply_move(State* s, const CRules* r, uint32_t m) noexcept nogil:
    cdef int verb = mv_verb(m)
    cdef int c = mv_card(m)
    cdef int t = mv_target(m)
    cdef int mover = s.to_move
    cdef int p = mover
    cdef int t0 = s.turn_number
    cdef int i, other
    if verb == V_PASS:
        s.passes += 1
        if s.passes >= 3:
            s.phase = PH_OVER
            s.end_reason = END_PASSES
            return
        start_turn_end(s, r)
    else:
        s.passes = 0
        if s.phase == PH_MAIN:
            if verb == V_DRAW:
                draw_one(s, p)
                start_turn_end(s, r)
            else:
                s.hand[p] &= ~bit(c)
                play_card(s, r, p, verb, c, t)
        elif s.phase == PH_SEVEN:
            # The chosen card leaves the reveal, the other goes back on top, and the 7
            # with its 2s goes to the scrap before the card is played.
            other = -1
            for i in range(s.n_revealed):
                if s.revealed[i] != c:
                    other = s.revealed[i]
            s.n_revealed = 0
            if other >= 0:
                deck_push(s, other)
            scrap_stack(s)
            if verb == V_DISCARD:
                s.scrap |= bit(c)
                start_turn_end(s, r)
            else:
                play_card(s, r, p, verb, c, t)
        elif s.phase == PH_COUNTER:
            if verb == V_COUNTER:
                s.hand[p] &= ~bit(c)
                s.stack[s.stack_len] = <int8_t>c
                s.stack_len += 1
                s.to_move = p ^ 1
            elif (s.stack_len - 1) & 1:
                finish_oneoff(s, r)            # odd number of 2s: it fizzles
            else:
                resolve_oneoff(s, r)
        elif s.phase == PH_BLOCK:
            if verb == V_BLOCK:
                s.hand[p] &= ~bit(c)
                s.scrap |= bit(c)
            else:
                remove_point_card(s, s.target)
                s.scrap |= bit(s.target)
            scrap_stack(s)
            start_turn_end(s, r)
        elif s.phase == PH_THREE:
            s.scrap &= ~bit(c)
            s.hand[p] |= bit(c)
            s.known_hand[p ^ 1] |= bit(c)
            finish_oneoff(s, r)
        elif s.phase == PH_FIVE:
            s.hand[p] &= ~bit(c)
            s.scrap |= bit(c)
            draw_cards(s, p, 3)
            finish_oneoff(s, r)
        elif s.phase == PH_FOUR or s.phase == PH_TEN:
            s.hand[p] &= ~bit(c)
            s.scrap |= bit(c)
            if t != NO_CARD:
                s.hand[p] &= ~bit(t)
                s.scrap |= bit(t)
            finish_oneoff(s, r)
        elif s.phase == PH_DISCARD:
            s.hand[p] &= ~bit(c)
            s.scrap |= bit(c)
            start_turn_end(s, r)
    # A frozen card that left the hand is no longer frozen.
    s.frozen[0] &= s.hand[0]
    s.frozen[1] &= s.hand[1]
    s.frozen_next[0] &= s.hand[0]
    s.frozen_next[1] &= s.hand[1]
    update_knowledge(s, r)
    if r.sudden_death and s.sd_end < 0 and s.deck_len == 0:
        # The deck ran out during turn t0: turns t0+1 and t0+2 are the last.  When
        # the move also ended turn t0 the countdown is checked from now on.
        s.sd_end = t0 + 2
    if s.phase != PH_OVER and s.turn_number == t0:
        check_win(s, r, mover)        # (a move that ended the turn was checked before)

# ---------------------------------------------------------------------------------------
# Dealing and rules conversion.

cdef void deal(State* s, const CRules* r) noexcept nogil:
    """A fresh game: shuffle with the state's own stream; P0 gets 5 cards, P1 6."""
    cdef int8_t cards[NCARDS]
    cdef int n = 53 if r.joker else 52
    cdef int i, j
    cdef int8_t tmp
    cdef Rng rng = s.rng
    memset(s, 0, sizeof(State))
    s.rng = rng
    for i in range(n):
        cards[i] = <int8_t>i
    i = n - 1
    while i > 0:
        j = <int>rng_below(&s.rng, i + 1)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
        i -= 1
    for i in range(5):
        s.hand[0] |= bit(cards[i])
    for i in range(5, 11):
        s.hand[1] |= bit(cards[i])
    # cards[11] is the top of the deck.
    s.deck_len = n - 11
    for i in range(s.deck_len):
        s.deck[i] = cards[n - 1 - i]
    s.winner = -1
    s.sd_end = -1
    s.target = -1
    s.phase = PH_MAIN


_NINE_MODES = {"return": 0, "freeze": 1, "topdeck": 2}
_FOUR_MODES = {"choice": 0, "random": 1, "draw": 2}

cdef CRules rules_to_c(rules) except *:
    cdef CRules r
    cdef int i
    memset(&r, 0, sizeof(CRules))
    for i in range(5):
        r.goals[i] = rules.king_goals[i]
    r.hand_limit = -1 if rules.hand_limit is None else rules.hand_limit
    r.limit_no_draw = rules.hand_limit_mode == "no_draw"
    r.five_cc = rules.five == "discard1_draw3"
    r.seven_top2 = rules.seven == "top2"
    r.nine_mode = _NINE_MODES[rules.nine]
    r.nine_points = rules.nine_targets_points
    r.own_side = rules.targets_own_side
    r.three_threes = rules.three_takes_threes
    r.strict = rules.strict_oneoffs
    r.four_mode = _FOUR_MODES[rules.four]
    r.qpq = rules.queens_protect_queens
    r.queen_stops_scuttles = rules.queen_stops_scuttles
    r.one_queen = rules.one_queen_each
    r.eight_breaks = rules.eight_breaks_glasses
    r.ten_blocks = rules.ten_blocks_scuttle
    r.ten_discards = rules.ten_discards
    r.strict_scuttle = rules.strict_scuttle
    r.joker = rules.joker
    r.sudden_death = rules.sudden_death
    r.open_hands = rules.open_hands
    r.reveal_empty = rules.reveal_on_empty_deck
    return r

PHASE_NAMES = ("main", "counter", "three", "four", "five", "seven", "discard", "block",
               "ten", "over")
END_NAMES = ("none", "goal", "passes", "sudden_death", "move_cap")


cdef inline uint64_t mask_of(cards) except? 0:
    cdef uint64_t m = 0
    for c in cards:
        m |= bit(<int>c)
    return m


cdef list cards_of(uint64_t m):
    cdef list out = []
    while m:
        out.append(lowest(m))
        m &= m - 1
    return out


# ---------------------------------------------------------------------------------------
# CoreGame: the thin Python-facing class.  `cuttle.Game` subclasses it and adds the
# card/move objects, parsing and printing.

cdef class CoreGame:
    cdef State st
    cdef CRules cr
    cdef State* hist
    cdef uint32_t* hist_moves
    cdef Py_ssize_t nhist
    cdef Py_ssize_t cap

    def __cinit__(self, *args, **kwargs):
        self.hist = NULL
        self.hist_moves = NULL
        self.nhist = 0
        self.cap = 0
        memset(&self.st, 0, sizeof(State))
        self.st.winner = -1
        self.st.sd_end = -1
        self.st.target = -1

    def __dealloc__(self):
        PyMem_Free(self.hist)
        PyMem_Free(self.hist_moves)

    cdef int _reserve(self, Py_ssize_t n) except -1:
        cdef Py_ssize_t cap = self.cap
        if n <= cap:
            return 0
        cap = max(n, 2 * cap, 64)
        cdef State* h = <State*>PyMem_Realloc(self.hist, cap * sizeof(State))
        if h == NULL:
            raise MemoryError()
        self.hist = h
        cdef uint32_t* hm = <uint32_t*>PyMem_Realloc(self.hist_moves, cap * sizeof(uint32_t))
        if hm == NULL:
            raise MemoryError()
        self.hist_moves = hm
        self.cap = cap
        return 0

    def _core_set_rules(self, rules):
        self.cr = rules_to_c(rules)

    def _core_deal(self, seed, uint64_t stream=0):
        """A fresh deal from stream `stream` of `seed` (batched game i uses stream 2i)."""
        rng_seed(&self.st.rng, <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF), stream)
        deal(&self.st, &self.cr)
        self.nhist = 0

    def _core_load(self, hands, points, perms, scrap, deck, stacks, int turn, seed):
        """Load a main-phase position.  Cards are natural indices; `deck` is top first;
        `stacks` maps a point card to its Jacks, bottom to top; `points` by controller."""
        cdef State* s = &self.st
        cdef int p, c, j
        memset(s, 0, sizeof(State))
        rng_seed(&s.rng, <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF), 0)
        for p in range(2):
            s.hand[p] = mask_of(hands[p])
            s.points[p] = mask_of(points[p])
            s.perm[p] = mask_of(perms[p])
        s.scrap = mask_of(scrap)
        for c, jacks in stacks.items():
            for j in jacks:
                # jack_push flips control; the position lists the controller, so flip back.
                jack_push(s, c, j)
                flip_control(s, c)
        s.deck_len = len(deck)
        for c in range(s.deck_len):
            s.deck[c] = <int8_t>deck[s.deck_len - 1 - c]
        s.turn = turn
        s.to_move = turn
        s.winner = -1
        s.sd_end = -1
        s.target = -1
        s.phase = PH_MAIN
        if self.cr.sudden_death and s.deck_len == 0:
            s.sd_end = 1
        update_knowledge(s, &self.cr)
        check_win(s, &self.cr, turn)
        self.nhist = 0

    def _core_legal_codes(self):
        cdef uint32_t buf[MAX_MOVES]
        cdef int n = gen_moves(&self.st, &self.cr, buf)
        return [buf[i] for i in range(n)]

    def _core_is_legal(self, uint32_t code):
        cdef uint32_t buf[MAX_MOVES]
        cdef int n = gen_moves(&self.st, &self.cr, buf)
        cdef int i
        for i in range(n):
            if buf[i] == code:
                return True
        return False

    def _core_play(self, uint32_t code):
        """Play a move code; returns False (state untouched) if it is not legal."""
        if not self._core_is_legal(code):
            return False
        self._reserve(self.nhist + 1)
        self.hist[self.nhist] = self.st
        self.hist_moves[self.nhist] = code
        self.nhist += 1
        apply_move(&self.st, &self.cr, code)
        return True

    def _core_undo(self):
        if self.nhist == 0:
            return None
        self.nhist -= 1
        self.st = self.hist[self.nhist]
        return self.hist_moves[self.nhist]

    def _core_copy_to(self, CoreGame other):
        other.cr = self.cr
        other.st = self.st
        other._reserve(self.nhist)
        if self.nhist:
            memcpy(other.hist, self.hist, self.nhist * sizeof(State))
            memcpy(other.hist_moves, self.hist_moves, self.nhist * sizeof(uint32_t))
        other.nhist = self.nhist

    def _core_move_codes(self):
        return [self.hist_moves[i] for i in range(self.nhist)]

    def _core_random_playout(self, seed, int max_moves=100000):
        """Play random legal moves to the end (no history); returns the moves played."""
        cdef Rng g
        rng_seed(&g, <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF), 1)
        cdef int n
        with nogil:
            n = play_out(&self.st, &self.cr, POL_RANDOM, POL_RANDOM, &g, max_moves)
        self.nhist = 0
        return n

    # Views (natural indices); cuttle.Game turns them into Card objects.
    def _core_hand(self, int p): return cards_of(self.st.hand[p])
    def _core_points(self, int p): return cards_of(self.st.points[p])
    def _core_perm(self, int p): return cards_of(self.st.perm[p])
    def _core_frozen(self, int p):
        # Frozen cards bind only during their receiver's turn; in between they are not
        # "unplayable now" (and the receiver has no decision before that turn anyway).
        if self.st.turn != p or self.st.phase == PH_OVER:
            return []
        return cards_of(self.st.frozen[p] & self.st.hand[p])
    def _core_scrap(self): return cards_of(self.st.scrap)
    def _core_deck(self):
        return [self.st.deck[self.st.deck_len - 1 - i] for i in range(self.st.deck_len)]
    def _core_revealed(self):
        return [self.st.revealed[i] for i in range(self.st.n_revealed)]
    def _core_stack(self):
        return [self.st.stack[i] for i in range(self.st.stack_len)]
    def _core_jacks(self, int c):
        if c < 0 or c >= 40 or not (self.st.stacked & bit(c)):
            return []
        return [40 + ((self.st.jst[c] >> (3 + 2 * i)) & 3) for i in range(self.st.jst[c] & 7)]
    def _core_score(self, int p): return score(&self.st, p)
    def _core_goal(self, int p): return goal(&self.st, &self.cr, p)
    def _core_rng_state(self): return tuple(self.st.rng.s[i] for i in range(4))

    @property
    def _core_target(self): return None if self.st.target < 0 else self.st.target
    @property
    def _core_phase(self): return self.st.phase
    @property
    def _core_turn(self): return self.st.turn
    @property
    def _core_to_move(self): return self.st.to_move
    @property
    def _core_winner(self): return None if self.st.winner < 0 else self.st.winner
    @property
    def _core_end_reason(self): return self.st.end_reason
    @property
    def _core_turn_number(self): return self.st.turn_number
    @property
    def _core_passes(self): return self.st.passes
    @property
    def _core_sd_end(self): return None if self.st.sd_end < 0 else self.st.sd_end
    @property
    def _core_ply(self): return self.nhist

    def _core_known_hand(self, int p):
        """Cards p knows are in the opponent's hand (public ones included)."""
        if hand_is_public(&self.st, &self.cr, p ^ 1):
            return cards_of(self.st.hand[p ^ 1])
        return cards_of(self.st.known_hand[p] & self.st.hand[p ^ 1])

    def _core_known_deck(self):
        """(depth from the top, card) of every deck card whose place is public."""
        cdef int n = self.st.deck_len
        return [(n - 1 - i, self.st.deck[i]) for i in range(n - 1, -1, -1)
                if self.st.known_deck & bit(self.st.deck[i])]

    def _core_hand_public(self, int p):
        return bool(hand_is_public(&self.st, &self.cr, p))

    def _core_determinize(self, int p, seed):
        """Resample, in place, what player p cannot know (history is dropped)."""
        cdef Rng g
        rng_seed(&g, <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF), 7)
        determinize(&self.st, &self.cr, p, &g)
        self.nhist = 0

    def _core_policy_move(self, int policy, seed):
        """The move a native policy picks here (it sees only the decider's view:
        ISMCTS determinizes; greedy uses public information and its own hand)."""
        cdef uint32_t buf[MAX_MOVES]
        cdef Rng g
        cdef uint32_t m
        cdef State s = self.st
        cdef int n = gen_moves(&s, &self.cr, buf)
        if n == 0:
            return None
        rng_seed(&g, <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF), 3)
        with nogil:
            m = choose_move(&s, &self.cr, policy, &g, buf, n)
        return m

    def _core_analyse(self, codes, Py_ssize_t start, Py_ssize_t count, seed, int policy,
                      int threads=0):
        """Rollouts start..start+count-1 of each move in `codes`: an int8 array
        (len(codes), count) of winners (-1 draw)."""
        cdef Py_ssize_t nm = len(codes), total, j
        cdef uint64_t useed = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
        if threads <= 0:
            threads = os.cpu_count() or 1
        moves_arr = np.asarray(codes, dtype=np.uint32)
        out = np.empty((nm, count), np.int8)
        cdef uint32_t[::1] mv = moves_arr
        cdef int8_t[:, ::1] ov = out
        cdef State root = self.st
        cdef CRules r = self.cr
        total = nm * count
        if count > 0:
            for j in prange(total, nogil=True, num_threads=threads, schedule="dynamic",
                            chunksize=16):
                analyse_one(&root, &r, mv[j // count], policy, useed, start + j % count,
                            &ov[j // count, j % count])
        return out

    def _core_get_state(self):
        """The whole game (state, undo history) as bytes, for pickling."""
        return ((<char*>&self.st)[:sizeof(State)],
                (<char*>self.hist)[:self.nhist * sizeof(State)] if self.nhist else b"",
                (<char*>self.hist_moves)[:self.nhist * sizeof(uint32_t)] if self.nhist else b"")

    def _core_set_state(self, bytes st, bytes hist, bytes moves):
        cdef Py_ssize_t n = len(moves) // sizeof(uint32_t)
        if len(st) != sizeof(State) or len(hist) != n * sizeof(State) \
                or len(moves) != n * sizeof(uint32_t):
            raise ValueError("pickled game from an incompatible cuttle build")
        self._reserve(n)
        memcpy(&self.st, <char*>st, sizeof(State))
        if n:
            memcpy(self.hist, <char*>hist, n * sizeof(State))
            memcpy(self.hist_moves, <char*>moves, n * sizeof(uint32_t))
        self.nhist = n

    def _core_state_bytes(self):
        return (<char*>&self.st)[:sizeof(State)]


# ---------------------------------------------------------------------------------------
# Playouts.

# ---------------------------------------------------------------------------------------
# Policies.  Each picks a legal move for s.to_move; `g` is the policy's own stream.

# A policy is an int: kind | parameter << 8 (the ISMCTS iteration count).
cdef enum:
    POL_RANDOM = 0
    POL_GREEDY = 1
    POL_ISMCTS = 2            # random playouts
    POL_ISMCTS_GREEDY = 3     # greedy playouts

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

cdef inline uint32_t choose_move(State* s, const CRules* r, int policy, Rng* g,
                                 uint32_t* buf, int n) noexcept nogil:
    if n == 1:
        return buf[0]
    cdef int kind = policy & 255
    if kind == POL_GREEDY:
        return greedy_move(s, r, g, buf, n)
    if kind == POL_ISMCTS or kind == POL_ISMCTS_GREEDY:
        return ismcts_move(s, r, policy >> 8,
                           POL_GREEDY if kind == POL_ISMCTS_GREEDY else POL_RANDOM, g, buf, n)
    return buf[rng_below(g, n)]


cdef int play_out(State* s, const CRules* r, int pol0, int pol1, Rng* g,
                  int max_moves) noexcept nogil:
    """Play to the end with seat 0 using pol0 and seat 1 pol1; returns the moves made."""
    cdef uint32_t buf[MAX_MOVES]
    cdef int n, k = 0
    while s.phase != PH_OVER:
        if k >= max_moves:
            s.phase = PH_OVER
            s.end_reason = END_MOVE_CAP
            break
        n = gen_moves(s, r, buf)
        apply_move(s, r, choose_move(s, r, pol1 if s.to_move else pol0, g, buf, n))
        k += 1
    return k


# ---------------------------------------------------------------------------------------
# Batched playouts: game i of a batch is dealt from stream 2i of the seed and its
# policies draw from stream 2i+1, so every game is the same whatever the thread count.

POLICY_CODES = {"random": POL_RANDOM, "greedy": POL_GREEDY}
ISMCTS_KINDS = {"ismcts": POL_ISMCTS_GREEDY, "ismcts-random": POL_ISMCTS}

cdef void run_game(const CRules* r, uint64_t seed, Py_ssize_t i, int pol_a, int pol_b,
                   int swap, int max_moves, Py_ssize_t k, int8_t[::1] winner,
                   int8_t[::1] first, int32_t[::1] moves, int32_t[::1] turns,
                   int8_t[:, ::1] scores, int8_t[::1] end) noexcept nogil:
    cdef State s
    cdef Rng g
    cdef int a_seat = 1 if (swap and (i & 1)) else 0     # player A's seat (0 moves first)
    rng_seed(&s.rng, seed, 2 * <uint64_t>i)
    deal(&s, r)
    rng_seed(&g, seed, 2 * <uint64_t>i + 1)
    moves[k] = play_out(&s, r, pol_b if a_seat else pol_a, pol_a if a_seat else pol_b,
                        &g, max_moves)
    winner[k] = -1 if s.winner < 0 else (s.winner ^ a_seat)
    first[k] = a_seat
    turns[k] = s.turn_number + 1
    scores[k, 0] = <int8_t>score(&s, a_seat)
    scores[k, 1] = <int8_t>score(&s, a_seat ^ 1)
    end[k] = s.end_reason


def play_batch(rules, Py_ssize_t start, Py_ssize_t count, seed, int policy_a,
               int policy_b, bint swap_seats=True, int threads=0, int max_moves=10000):
    """Play games start .. start+count-1 of a seeded run natively, over `threads` cores
    (0: all).  Players are A (policy_a) and B (policy_b); with swap_seats A moves first
    in even-numbered games.  Returns a dict of numpy arrays, one row per game:
    winner (0 = A, 1 = B, -1 = draw), first (who moved first), moves, turns,
    scores (A, B), end (code into END_NAMES)."""
    cdef CRules r = rules_to_c(rules)
    cdef uint64_t useed = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
    if count < 0 or start < 0:
        raise ValueError("start and count must be >= 0")
    if threads <= 0:
        threads = os.cpu_count() or 1
    winner = np.empty(count, np.int8)
    first = np.empty(count, np.int8)
    moves = np.empty(count, np.int32)
    turns = np.empty(count, np.int32)
    scores = np.empty((count, 2), np.int8)
    end = np.empty(count, np.int8)
    cdef int8_t[::1] w_v = winner
    cdef int8_t[::1] f_v = first
    cdef int32_t[::1] m_v = moves
    cdef int32_t[::1] t_v = turns
    cdef int8_t[:, ::1] s_v = scores
    cdef int8_t[::1] e_v = end
    cdef Py_ssize_t k
    cdef int swap = swap_seats
    for k in prange(count, nogil=True, num_threads=threads, schedule="dynamic", chunksize=64):
        run_game(&r, useed, start + k, policy_a, policy_b, swap, max_moves, k,
                 w_v, f_v, m_v, t_v, s_v, e_v)
    return {"winner": winner, "first": first, "moves": moves, "turns": turns,
            "scores": scores, "end": end}


# ---------------------------------------------------------------------------------------
# Hidden information: determinization from one player's view.

cdef void determinize(State* s, const CRules* r, int p, Rng* g) noexcept nogil:
    """Redistribute the cards p cannot know (the opponent's unknown hand cards and the
    deck cards whose place is not public) among those same places, uniformly; the
    game's own random stream is reseeded since p cannot know future random effects."""
    cdef int opp = p ^ 1
    cdef int8_t pool[NCARDS]
    cdef int n = 0
    cdef int i, j, k
    cdef int8_t tmp
    cdef uint64_t hidden = 0 if hand_is_public(s, r, opp) else (s.hand[opp] & ~s.known_hand[p])
    cdef uint64_t m = hidden
    for i in range(s.deck_len):
        if not (s.known_deck & bit(s.deck[i])):
            m |= bit(s.deck[i])
    # The pool in card order: the sample must depend only on what p knows, not on
    # where the unknown cards really are.
    while m:
        pool[n] = <int8_t>lowest(m)
        n += 1
        m &= m - 1
    i = n - 1
    while i > 0:
        j = <int>rng_below(g, i + 1)
        tmp = pool[i]
        pool[i] = pool[j]
        pool[j] = tmp
        i -= 1
    k = popcount(hidden)
    s.hand[opp] &= ~hidden
    for i in range(k):
        s.hand[opp] |= bit(pool[i])
    for i in range(s.deck_len):
        if not (s.known_deck & bit(s.deck[i])):
            s.deck[i] = pool[k]
            k += 1
    rng_seed(&s.rng, rng_next(g), 0)


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


# ---------------------------------------------------------------------------------------
# Rollout analysis: every legal move of the decider, evaluated by playouts from
# determinizations of the decider's view.  Rollout k of every move uses the same
# stream (seed, k), so the moves are compared on the same samples (common random
# numbers), and results do not depend on the thread count.

cdef void analyse_one(const State* root, const CRules* r, uint32_t move, int policy,
                      uint64_t seed, Py_ssize_t k, int8_t* out) noexcept nogil:
    cdef State s = root[0]
    cdef Rng g
    rng_seed(&g, seed, <uint64_t>k)
    determinize(&s, r, root.to_move, &g)
    apply_move(&s, r, move)
    play_out(&s, r, policy, policy, &g, 10000)
    out[0] = <int8_t>s.winner
