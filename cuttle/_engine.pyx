# cython: language_level=3
"""The rules engine: move generation and move application on a `State*`.

Every rule lives in a `noexcept nogil` function here (the data they work on is declared
in _state.pxd, the contract other native modules use in _engine.pxd), so whole games run
without the GIL.  A decision is a phase with exactly one decider (docs/rules.md).
Directives come from setup.py (release: no checks; CUTTLE_DEBUG=1: bounds checks on).
"""

from libc.stdint cimport uint64_t, uint32_t, uint16_t, int8_t, int32_t
from libc.string cimport memset

from cuttle._state cimport *
from cuttle._rng cimport rng_below

# ---------------------------------------------------------------------------------------
# Protection, scuttles and targets.

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
    if r.nine_targets_points:
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
    if rk == 12 or (rk == 11 and not (r.one_queen_each and (s.perm[p] & QUEENS))):
        out[n] = mk(V_ROYAL, c, NO_CARD)
        n += 1
    elif rk == 7:
        out[n] = mk(V_GLASSES, c, NO_CARD)
        n += 1
    elif rk == 10:
        m = targetable(s, r, opp, p, s.points[opp])
        if m == 0 and from_seven and not r.seven == SEVEN_TOP2:
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
            if side == p and not r.targets_own_side:
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
        if not r.strict_oneoffs or (s.scrap & (~<uint64_t>0 if r.three_takes_threes else ~THREES)):
            out[n] = mk(V_ONEOFF, c, NO_CARD)
            n += 1
    elif rk == 3:
        if not r.strict_oneoffs or (deck_count(s) > 0 if r.four == FOUR_DRAW else s.hand[opp] != 0):
            out[n] = mk(V_ONEOFF, c, NO_CARD)
            n += 1
    elif rk == 4 or rk == 6:
        # Strict: the 5 and the 7 need a deck, except that a revealed 5 that was the
        # last card may still be played and draws nothing (rulebook §4b).
        if not r.strict_oneoffs or deck_count(s) > 0 or (rk == 4 and from_seven):
            out[n] = mk(V_ONEOFF, c, NO_CARD)
            n += 1
    elif rk == 7:
        if r.eight_breaks_glasses:
            m = targetable(s, r, opp, p, s.perm[opp] & EIGHTS)
            while m:
                t = lowest(m)
                m &= m - 1
                out[n] = mk(V_ONEOFF, c, t)
                n += 1
    elif rk == 9:
        if r.ten_discards and (not r.strict_oneoffs or s.hand[opp] != 0):
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
    return s.scrap if r.three_takes_threes else (s.scrap & ~THREES)

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
            if not (r.hand_limit >= 0 and r.hand_limit_mode == LIMIT_NO_DRAW and popcount(s.hand[p]) >= r.hand_limit):
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
# playout loops only ever pass generated moves).

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
    if r.hand_limit >= 0 and not r.hand_limit_mode == LIMIT_NO_DRAW and popcount(s.hand[p]) > r.hand_limit:
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
    cdef int k = 2 if r.seven == SEVEN_TOP2 else 1
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
    if not r.seven == SEVEN_TOP2 and not seven_has_play(s, r, p):
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
        if r.four == FOUR_DRAW:
            draw_cards(s, opp, 2)
            finish_oneoff(s, r)
        elif s.hand[opp] == 0:
            finish_oneoff(s, r)
        elif r.four == FOUR_RANDOM:
            random_discards(s, opp, 2)
            finish_oneoff(s, r)
        else:
            s.phase = PH_FOUR
            s.to_move = opp
    elif rk == 4:                          # 5: draw
        if not r.five == FIVE_DISCARD1_DRAW3:
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
        if r.nine == NINE_TOPDECK:
            deck_push(s, t)
        else:
            s.hand[side] |= bit(t)
            s.known_hand[side ^ 1] |= bit(t)
            if r.nine == NINE_FREEZE:
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
        if r.ten_blocks_scuttle:
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
# Dealing.

cdef void deal(State* s, const CRules* r) noexcept nogil:
    """A fresh game: shuffle with the state's own stream (Fisher-Yates from the last
    card down); P0 gets the first r.deal[0] cards, P1 the next r.deal[1], the next card
    is the top of the deck (docs/rules-decisions.md, the game's random stream)."""
    cdef int8_t cards[NCARDS]
    cdef int n = 53 if r.joker else 52
    cdef int first = r.deal[0], dealt = r.deal[0] + r.deal[1]
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
    for i in range(first):
        s.hand[0] |= bit(cards[i])
    for i in range(first, dealt):
        s.hand[1] |= bit(cards[i])
    # cards[dealt] is the top of the deck.
    s.deck_len = n - dealt
    for i in range(s.deck_len):
        s.deck[i] = cards[n - 1 - i]
    s.winner = -1
    s.sd_end = -1
    s.target = -1
    s.phase = PH_MAIN


# ---------------------------------------------------------------------------------------
# Validation of a state loaded from outside (a pickle, a position): everything the
# rules functions index with must be in range, and every card in exactly one place.
# Returns 0, or the code of the first problem (STATE_ERRORS in _core.pyx names them).

cdef inline int card_ok(int c, int ncards) noexcept nogil:
    return 0 <= c < ncards

cdef int check_state(const State* s, const CRules* r) noexcept nogil:
    cdef int ncards = NCARDS if r.joker else NCARDS - 1
    cdef uint64_t every = (bit(ncards) - 1)
    cdef uint64_t seen = 0, zone, jacks_mask, top
    cdef int i, c, p, n
    # Ranges of the scalar fields.
    if not (0 <= s.deck_len <= ncards and 0 <= s.stack_len <= MAX_STACK
            and 0 <= s.n_revealed <= 2):
        return 1
    if not (0 <= s.phase < N_PHASES and 0 <= s.turn <= 1 and 0 <= s.to_move <= 1
            and -1 <= s.winner <= 1 and END_NONE <= s.end_reason <= END_MOVE_CAP
            and s.turn_number >= 0 and 0 <= s.passes <= 3 and s.sd_end >= -1
            and 0 <= s.actor <= 1 and (-1 <= s.target < ncards or s.target == NO_CARD)):
        return 2
    # Every card in exactly one place.
    cdef uint64_t zones[7]
    zones[0] = s.hand[0]
    zones[1] = s.hand[1]
    zones[2] = s.points[0]
    zones[3] = s.points[1]
    zones[4] = s.perm[0]
    zones[5] = s.perm[1]
    zones[6] = s.scrap
    for i in range(7):
        zone = zones[i]
        if zone & seen or zone & ~every:
            return 3
        seen |= zone
    if (s.points[0] | s.points[1]) >> FIRST_JACK:
        return 4                           # point cards are A..T
    if (s.perm[0] | s.perm[1]) & ~(KINGS | QUEENS | EIGHTS):
        return 5                           # permanents are Kings, Queens, glasses-8s
    if s.stacked & ~(s.points[0] | s.points[1]):
        return 6                           # a Jack stack needs its point card
    jacks_mask = 0
    for c in range(FIRST_JACK):
        n = jcount(s, c)
        if (n != 0) != ((s.stacked & bit(c)) != 0) or n > MAX_JACKS \
                or (n == 0 and s.jst[c] != 0):
            return 6
        for i in range(n):
            if jacks_mask & bit(jack_at(s, c, i)):
                return 3
            jacks_mask |= bit(jack_at(s, c, i))
    if jacks_mask & seen:
        return 3
    seen |= jacks_mask
    for i in range(s.deck_len):
        c = s.deck[i]
        if not card_ok(c, ncards) or seen & bit(c):
            return 3
        seen |= bit(c)
    for i in range(s.n_revealed):
        c = s.revealed[i]
        if not card_ok(c, ncards) or seen & bit(c):
            return 3
        seen |= bit(c)
    for i in range(s.stack_len):
        c = s.stack[i]
        if not card_ok(c, ncards) or seen & bit(c):
            return 3
        seen |= bit(c)
    if seen != every:
        return 7                           # a card is missing
    # Knowledge and freezes only concern cards where they are.
    for p in range(2):
        if s.frozen[p] & ~s.hand[p] or s.frozen_next[p] & ~s.hand[p] \
                or s.known_hand[p] & ~s.hand[p ^ 1]:
            return 8
    # What each phase needs to be resolved.
    if s.phase == PH_MAIN or s.phase == PH_DISCARD:
        if s.stack_len or s.n_revealed or s.to_move != s.turn:
            return 9
    elif s.phase == PH_COUNTER:
        if s.stack_len < 1 or s.n_revealed or s.to_move != s.actor ^ (s.stack_len & 1):
            return 9
        for i in range(1, s.stack_len):
            if rank_of(s.stack[i]) != 1:
                return 9                   # counters are 2s
        if not oneoff_target_ok(s, r, s.stack[0], s.target):
            return 10
    elif s.phase == PH_SEVEN:
        if s.stack_len < 1 or s.n_revealed < 1 or s.to_move != s.actor:
            return 9
    elif s.phase == PH_BLOCK:
        if s.stack_len != 1 or s.n_revealed or s.target < 0 \
                or not (s.points[s.to_move] & bit(s.target)):
            return 10
    elif s.phase != PH_OVER:               # the 3, 4, 5 and 10 choices
        if s.stack_len < 1 or s.n_revealed:
            return 9
    if (s.phase == PH_OVER) != (s.end_reason != END_NONE) \
            or (s.winner >= 0 and s.end_reason != END_GOAL):
        return 11
    return 0


cdef int oneoff_target_ok(const State* s, const CRules* r, int c, int t) noexcept nogil:
    # The announced one-off c's target is where its resolution will look for it.
    cdef int rk = rank_of(c)
    if c == JOKER or not (rk == 1 or rk == 7 or rk == 8):
        return t == -1 or t == NO_CARD
    if t < 0:
        return 0
    if rk == 1:                            # a permanent or a top Jack
        return ((s.perm[0] | s.perm[1]) & bit(t)) != 0 or point_under_jack(s, t) >= 0
    if rk == 7:                            # a glasses-8
        return ((s.perm[0] | s.perm[1]) & EIGHTS & bit(t)) != 0
    return ((s.perm[0] | s.perm[1] | s.points[0] | s.points[1]) & bit(t)) != 0 \
        or point_under_jack(s, t) >= 0


cdef int states_equal(const State* a, const State* b) noexcept nogil:
    # Field by field (a struct may hold padding bytes).
    cdef int i
    for i in range(2):
        if a.hand[i] != b.hand[i] or a.points[i] != b.points[i] or a.perm[i] != b.perm[i] \
                or a.frozen[i] != b.frozen[i] or a.frozen_next[i] != b.frozen_next[i] \
                or a.known_hand[i] != b.known_hand[i]:
            return 0
    for i in range(4):
        if a.rng.s[i] != b.rng.s[i]:
            return 0
    for i in range(FIRST_JACK):
        if a.jst[i] != b.jst[i]:
            return 0
    if a.scrap != b.scrap or a.stacked != b.stacked or a.known_deck != b.known_deck \
            or a.deck_len != b.deck_len or a.stack_len != b.stack_len \
            or a.n_revealed != b.n_revealed or a.phase != b.phase or a.turn != b.turn \
            or a.to_move != b.to_move or a.turn_number != b.turn_number \
            or a.passes != b.passes or a.winner != b.winner \
            or a.end_reason != b.end_reason or a.sd_end != b.sd_end \
            or a.target != b.target or a.actor != b.actor:
        return 0
    for i in range(a.deck_len):
        if a.deck[i] != b.deck[i]:
            return 0
    for i in range(a.stack_len):
        if a.stack[i] != b.stack[i]:
            return 0
    for i in range(a.n_revealed):
        if a.revealed[i] != b.revealed[i]:
            return 0
    return 1
