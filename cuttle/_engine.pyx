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
from cuttle._rng cimport rng_below, shuffle

# ---------------------------------------------------------------------------------------
# Move generation.  What may be played is decided in _engine.pxd (card_plays and the
# predicates above it), which the random sampler reads too; here it is listed, card by
# card, in the order every seeded stream depends on.

cdef int _c                            # fill BELOW and ABOVE (see _engine.pxd)
for _c in range(NCARDS):
    BELOW[0][_c] = (bit(_c) - 1) if _c < FIRST_JACK else 0
    BELOW[1][_c] = (bit(rank_of(_c) * 4) - 1) if _c < FIRST_JACK else 0
    ABOVE[0][_c] = POINT_CARDS & ~(bit(_c + 1) - 1) if _c < FIRST_JACK else 0
    ABOVE[1][_c] = POINT_CARDS & ~(bit(rank_of(_c) * 4 + 4) - 1) if _c < FIRST_JACK else 0

cdef inline int gen_each(uint64_t m, int verb, int c, uint32_t* out, int n) noexcept nogil:
    # One move per card x of m, in card order: `verb` with card x (c < 0), or with card
    # c on target x.
    cdef int x
    while m:
        x = lowest(m)
        m &= m - 1
        out[n] = mk(verb, x, NO_CARD) if c < 0 else mk(verb, c, x)
        n += 1
    return n

cdef int gen_card_plays(const CardPlays* cp, const CRules* r, int c, uint32_t* out,
                        int n) noexcept nogil:
    """Every legal way to play card c (cp: card_plays of the hand or the reveal)."""
    cdef int rk = rank_of(c)
    if c == JOKER:
        out[n] = mk(V_ONEOFF, c, NO_CARD)
        return n + 1
    if rk <= 9:
        out[n] = mk(V_POINTS, c, NO_CARD)
        n = gen_each(cp.scuttles & BELOW[1 if r.strict_scuttle else 0][c], V_SCUTTLE, c,
                     out, n + 1)
    if rk >= 11:
        if cp.ones & bit(c):
            out[n] = mk(V_ROYAL, c, NO_CARD)
            n += 1
        return n
    if rk == 10:
        return gen_each(cp.jack, V_JACK, c, out, n)
    if rk == 7:
        out[n] = mk(V_GLASSES, c, NO_CARD)
        return gen_each(cp.eight, V_ONEOFF, c, out, n + 1)
    if rk == 1:
        return gen_each(cp.two[1], V_ONEOFF, c, out,
                        gen_each(cp.two[0], V_ONEOFF, c, out, n))
    if rk == 8:
        return gen_each(cp.nine[1], V_ONEOFF, c, out,
                        gen_each(cp.nine[0], V_ONEOFF, c, out, n))
    if cp.ones & bit(c):
        out[n] = mk(V_ONEOFF, c, NO_CARD)
        n += 1
    return n

cdef inline uint64_t revealed_cards(const State* s) noexcept nogil:
    cdef uint64_t m = 0
    cdef int i
    for i in range(s.n_revealed):
        m |= bit(s.revealed[i])
    return m

cdef inline int seven_has_play(const State* s, const CRules* r, int p) noexcept nogil:
    cdef uint32_t buf[MAX_MOVES]
    cdef CardPlays cp
    cdef int i
    card_plays(s, r, p, revealed_cards(s), 1, &cp)
    for i in range(s.n_revealed):
        if gen_card_plays(&cp, r, s.revealed[i], buf, 0) > 0:
            return 1
    return 0

cdef inline int gen_main(const State* s, const CRules* r, int p, uint32_t* out) noexcept nogil:
    # The main phase: draw (or pass on an empty deck), then every play of every card.
    cdef CardPlays cp
    cdef int n = 0
    cdef uint64_t m = s.hand[p] & ~s.frozen[p]
    if s.deck_len == 0:
        out[n] = mk(V_PASS, NO_CARD, NO_CARD)
        n += 1
    elif not draw_blocked(s, r, p):
        out[n] = mk(V_DRAW, NO_CARD, NO_CARD)
        n += 1
    card_plays(s, r, p, m, 0, &cp)
    while m:
        n = gen_card_plays(&cp, r, lowest(m), out, n)
        m &= m - 1
    if n == 0:
        # Only the no-draw hand limit can leave a player stuck: they pass.
        out[n] = mk(V_PASS, NO_CARD, NO_CARD)
        n += 1
    return n

cdef inline int gen_pairs(uint64_t m, uint32_t* out, int n) noexcept nogil:
    # A 4's discards: every pair a < b of the cards in m (the one card when alone).
    cdef int a
    cdef uint64_t m2
    if popcount(m) == 1:
        return gen_each(m, V_DISCARD, -1, out, n)
    while m:
        a = lowest(m)
        m &= m - 1
        m2 = m
        while m2:
            out[n] = mk(V_DISCARD, a, lowest(m2))
            m2 &= m2 - 1
            n += 1
    return n

cdef inline int gen_seven(const State* s, const CRules* r, int p, uint32_t* out) noexcept nogil:
    # A 7's reveal: every play of a revealed card (top first), else discard one.
    cdef CardPlays cp
    cdef int i, n = 0
    card_plays(s, r, p, revealed_cards(s), 1, &cp)
    for i in range(s.n_revealed):
        n = gen_card_plays(&cp, r, s.revealed[i], out, n)
    if n == 0:
        for i in range(s.n_revealed):
            out[n] = mk(V_DISCARD, s.revealed[i], NO_CARD)
            n += 1
    return n

cdef int is_legal(const State* s, const CRules* r, uint32_t m) noexcept nogil:
    cdef uint32_t buf[MAX_MOVES]
    cdef int n = gen_moves(s, r, buf)
    cdef int i
    for i in range(n):
        if buf[i] == m:
            return 1
    return 0


cdef int gen_moves(const State* s, const CRules* r, uint32_t* out) noexcept nogil:
    cdef int p = s.to_move
    cdef int ph = s.phase
    if ph == PH_MAIN:
        return gen_main(s, r, p, out)
    if ph == PH_COUNTER or ph == PH_BLOCK:
        out[0] = mk(V_RESOLVE, NO_CARD, NO_CARD)
        return gen_each(counters(s, p) if ph == PH_COUNTER else blockers(s, p),
                        V_COUNTER if ph == PH_COUNTER else V_BLOCK, -1, out, 1)
    if ph == PH_THREE:
        return gen_each(takeable(s, r), V_TAKE, -1, out, 0)
    if ph == PH_FOUR:
        return gen_pairs(s.hand[p], out, 0)
    if ph == PH_FIVE or ph == PH_DISCARD or ph == PH_TEN:
        return gen_each(s.hand[p], V_DISCARD, -1, out, 0)
    if ph == PH_SEVEN:
        return gen_seven(s, r, p, out)
    return 0

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

cdef inline void scrap_counters(State* s) noexcept nogil:
    # The chain's 2s reach the scrap when it ends; the one-off waits (decision 22).
    cdef int i
    for i in range(1, s.stack_len):
        s.scrap |= bit(s.stack[i])
    s.stack_len = 1

cdef inline void remove_point_card(State* s, int c) noexcept nogil:
    # Take a point card (and scrap its Jacks) off the table.
    scrap_jacks(s, c)
    s.points[0] &= ~bit(c)
    s.points[1] &= ~bit(c)

cdef inline int side_of(const State* s, int c) noexcept nogil:
    # Which side controls table card c: a permanent, a point card or a top Jack.
    cdef int pc
    if (s.permanents[0] | s.points[0]) & bit(c):
        return 0
    if (s.permanents[1] | s.points[1]) & bit(c):
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
    if r.hand_limit >= 0 and not r.hand_limit_mode == LIMIT_NO_DRAW \
            and popcount(s.hand[p]) > r.hand_limit:
        s.phase = PH_DISCARD
        s.to_move = p
        return
    if s.last_turn >= 0 and s.turn_number >= s.last_turn:
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

# The one-offs' effects, one function each: 1 when the one-off is done, 0 when it left
# a choice to make (its phase and decider set).

cdef inline int choice(State* s, int phase, int who) noexcept nogil:
    s.phase = phase
    s.to_move = who
    return 0

cdef inline int swap_hands(State* s) noexcept nogil:
    # The joker (variant): the hands change places.
    cdef uint64_t m = s.hand[0]
    s.hand[0] = s.hand[1]
    s.hand[1] = m
    s.known_hand[0] = s.hand[1]        # each player knows the hand they gave away
    s.known_hand[1] = s.hand[0]
    s.frozen[0] = s.frozen[1] = 0
    s.frozen_next[0] = s.frozen_next[1] = 0
    return 1

cdef inline int scrap_point_cards(State* s) noexcept nogil:
    # The Ace: every point card (with its Jacks) to the scrap.
    cdef uint64_t m = s.points[0] | s.points[1]
    cdef int i
    while m:
        i = lowest(m)
        m &= m - 1
        scrap_jacks(s, i)
        s.scrap |= bit(i)
    s.points[0] = s.points[1] = 0
    return 1

cdef inline int scrap_target(State* s, int t) noexcept nogil:
    # The 2: a permanent or a top Jack to the scrap.
    if (s.permanents[0] | s.permanents[1]) & bit(t):
        s.permanents[0] &= ~bit(t)
        s.permanents[1] &= ~bit(t)
    else:
        jack_pop(s, point_under_jack(s, t))
    s.scrap |= bit(t)
    return 1

cdef inline int four_discards(State* s, const CRules* r, int opp) noexcept nogil:
    # The 4: the opponent discards two of their choice (or at random, or draws two).
    if r.four == FOUR_DRAW:
        draw_cards(s, opp, 2)
        return 1
    if s.hand[opp] == 0:
        return 1
    if r.four == FOUR_RANDOM:
        random_discards(s, opp, 2)
        return 1
    return choice(s, PH_FOUR, opp)

cdef inline int five_draws(State* s, const CRules* r, int p) noexcept nogil:
    # The 5: draw two (or discard one, then draw three).
    if not r.five == FIVE_DISCARD1_DRAW3:
        draw_cards(s, p, 2)
        return 1
    if s.hand[p]:
        return choice(s, PH_FIVE, p)
    draw_cards(s, p, 3)
    return 1

cdef inline int scrap_permanents(State* s) noexcept nogil:
    # The 6: every permanent and every Jack to the scrap (point cards go back to the
    # player who played them).
    cdef uint64_t m = s.stacked
    cdef int i
    while m:
        i = lowest(m)
        m &= m - 1
        if jcount(s, i) & 1:
            flip_control(s, i)
        scrap_jacks(s, i)
    s.scrap |= s.permanents[0] | s.permanents[1]
    s.permanents[0] = s.permanents[1] = 0
    return 1

cdef inline int break_glasses(State* s, int opp, int t) noexcept nogil:
    # The 8 (variant): the opponent's glasses to the scrap.
    s.permanents[opp] &= ~bit(t)
    s.scrap |= bit(t)
    return 1

cdef inline int return_card(State* s, const CRules* r, int t) noexcept nogil:
    # The 9: a card on the table back to its controller's hand (frozen, or on top of
    # the deck, by the rules).
    cdef int side = side_of(s, t)
    if (s.points[0] | s.points[1]) & bit(t):
        remove_point_card(s, t)
    elif (s.permanents[0] | s.permanents[1]) & bit(t):
        s.permanents[side] &= ~bit(t)
    else:
        jack_pop(s, point_under_jack(s, t))
    if r.nine == NINE_TOPDECK:
        deck_push(s, t)
        return 1
    s.hand[side] |= bit(t)
    s.known_hand[side ^ 1] |= bit(t)
    if r.nine == NINE_FREEZE:
        if side == s.turn:
            s.frozen_next[side] |= bit(t)
        else:
            s.frozen[side] |= bit(t)
    return 1

cdef void resolve_oneoff(State* s, const CRules* r) noexcept nogil:
    # The announced one-off (the stack's bottom card) takes effect: done at once, or a
    # choice for its player (the 3, the 5, the 7) or the opponent (the 4, the 10).
    cdef int p = s.actor
    cdef int rk = rank_of(s.stack[0])      # the joker's rank is 13
    cdef int done = 0                      # (Jacks, Queens, Kings are no one-offs)
    if rk == 6:
        reveal_seven(s, r, p)              # the 7 finishes its own turn
        return
    if rk == 13:
        done = swap_hands(s)
    elif rk == 0:
        done = scrap_point_cards(s)
    elif rk == 1:
        done = scrap_target(s, s.target)
    elif rk == 2:                          # the 3: take a card from the scrap
        done = choice(s, PH_THREE, p) if takeable(s, r) else 1
    elif rk == 3:
        done = four_discards(s, r, p ^ 1)
    elif rk == 4:
        done = five_draws(s, r, p)
    elif rk == 5:
        done = scrap_permanents(s)
    elif rk == 7:
        done = break_glasses(s, p ^ 1, s.target)
    elif rk == 8:
        done = return_card(s, r, s.target)
    elif rk == 9:                          # the 10 (variant): the opponent discards one
        done = choice(s, PH_TEN, p ^ 1) if s.hand[p ^ 1] else 1
    if done:
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
        s.permanents[p] |= bit(c)
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

cdef inline void discard(State* s, int p, int c) noexcept nogil:
    s.hand[p] &= ~bit(c)
    s.scrap |= bit(c)

cdef inline void choose_from_seven(State* s, const CRules* r, int p, int verb, int c,
                                   int t) noexcept nogil:
    # The chosen card leaves the reveal, the other goes back on top, and the 7 with its
    # 2s goes to the scrap before the card is played (or discarded: none was playable).
    cdef int i, other = -1
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

cdef inline void answer_oneoff(State* s, const CRules* r, int p, int verb,
                               int c) noexcept nogil:
    # Counter with a 2 (the other player answers), or let the stack resolve: the
    # one-off fizzles under an odd number of 2s.
    if verb == V_COUNTER:
        s.hand[p] &= ~bit(c)
        s.stack[s.stack_len] = <int8_t>c
        s.stack_len += 1
        s.to_move = p ^ 1
    elif (s.stack_len - 1) & 1:
        finish_oneoff(s, r)
    else:
        scrap_counters(s)
        resolve_oneoff(s, r)

cdef inline void answer_scuttle(State* s, const CRules* r, int p, int verb,
                                int c) noexcept nogil:
    # Block the scuttle with a 10 (the 10 and the scuttling card go to the scrap), or
    # let it take the target.
    if verb == V_BLOCK:
        discard(s, p, c)
    else:
        remove_point_card(s, s.target)
        s.scrap |= bit(s.target)
    scrap_stack(s)
    start_turn_end(s, r)

cdef inline void apply_decision(State* s, const CRules* r, int verb, int c,
                                int t) noexcept nogil:
    # A move other than a pass, by the phase it decides.
    cdef int p = s.to_move
    cdef int ph = s.phase
    if ph == PH_MAIN:
        if verb == V_DRAW:
            draw_one(s, p)
            start_turn_end(s, r)
        else:
            s.hand[p] &= ~bit(c)
            play_card(s, r, p, verb, c, t)
    elif ph == PH_SEVEN:
        choose_from_seven(s, r, p, verb, c, t)
    elif ph == PH_COUNTER:
        answer_oneoff(s, r, p, verb, c)
    elif ph == PH_BLOCK:
        answer_scuttle(s, r, p, verb, c)
    elif ph == PH_THREE:                   # the 3's pick from the scrap
        s.scrap &= ~bit(c)
        s.hand[p] |= bit(c)
        s.known_hand[p ^ 1] |= bit(c)
        finish_oneoff(s, r)
    elif ph == PH_FIVE:                    # the 5's discard, then three cards
        discard(s, p, c)
        draw_cards(s, p, 3)
        finish_oneoff(s, r)
    elif ph == PH_FOUR or ph == PH_TEN:    # the victim's discards
        discard(s, p, c)
        if t != NO_CARD:
            discard(s, p, t)
        finish_oneoff(s, r)
    elif ph == PH_DISCARD:                 # down to the hand limit
        discard(s, p, c)
        start_turn_end(s, r)

cdef inline void after_move(State* s, const CRules* r, int mover, int t0) noexcept nogil:
    # What every move but the third pass in a row updates.
    # A frozen card that left the hand is free.  (Only when a card is frozen, which is
    # rare: the four masks as one vector load right after start_turn_end's stores to
    # them would stall the processor on every move.)
    if s.frozen[0] | s.frozen[1] | s.frozen_next[0] | s.frozen_next[1]:
        s.frozen[0] &= s.hand[0]
        s.frozen[1] &= s.hand[1]
        s.frozen_next[0] &= s.hand[0]
        s.frozen_next[1] &= s.hand[1]
    update_knowledge(s, r)
    if r.sudden_death and s.last_turn < 0 and s.deck_len == 0:
        # The deck ran out during turn t0: turns t0+1 and t0+2 are the last.  When
        # the move also ended turn t0 the countdown is checked from now on.
        s.last_turn = t0 + 2
    if s.phase != PH_OVER and s.turn_number == t0:
        check_win(s, r, mover)        # (a move that ended the turn was checked before)

cdef void apply_move(State* s, const CRules* r, uint32_t m) noexcept nogil:
    cdef int verb = mv_verb(m)
    cdef int mover = s.to_move
    cdef int t0 = s.turn_number
    if verb == V_PASS:
        s.passes += 1
        if s.passes >= 3:
            s.phase = PH_OVER
            s.end_reason = END_PASSES
            return
        start_turn_end(s, r)
    else:
        s.passes = 0
        apply_decision(s, r, verb, mv_card(m), mv_target(m))
    after_move(s, r, mover, t0)

# ---------------------------------------------------------------------------------------
# Dealing.

cdef void deal(State* s, const CRules* r) noexcept nogil:
    """A fresh game: shuffle with the state's own stream (Fisher-Yates from the last
    card down); P0 gets the first r.deal[0] cards, P1 the next r.deal[1], the next card
    is the top of the deck (docs/rules-decisions.md, the game's random stream)."""
    cdef int8_t cards[NCARDS]
    cdef int n = deck_size(r.joker)
    cdef int first = r.deal[0], dealt = r.deal[0] + r.deal[1]
    cdef int i
    cdef Rng rng = s.rng
    memset(s, 0, sizeof(State))
    s.rng = rng
    for i in range(n):
        cards[i] = <int8_t>i
    shuffle(cards, n, &s.rng)
    for i in range(first):
        s.hand[0] |= bit(cards[i])
    for i in range(first, dealt):
        s.hand[1] |= bit(cards[i])
    # cards[dealt] is the top of the deck.
    s.deck_len = n - dealt
    for i in range(s.deck_len):
        s.deck[i] = cards[n - 1 - i]
    s.winner = -1
    s.last_turn = -1
    s.target = -1
    s.phase = PH_MAIN


# ---------------------------------------------------------------------------------------
# Validation of a state loaded from outside (a pickle, a position): everything the
# rules functions index with must be in range, and every card in exactly one place.
# check_state returns STATE_OK or the first problem (StateError, in _engine.pxd).

STATE_ERRORS = {
    "BAD_LENGTH": "a deck, stack or reveal length is out of range",
    "BAD_FIELD": "a phase, player, count or target is out of range",
    "CARD_TWICE": "a card is in two places (or is no card of these rules)",
    "NOT_A_POINT_CARD": "a point card is not an Ace to Ten",
    "NOT_A_PERMANENT": "a permanent is not a King, Queen or Eight",
    "BAD_JACK_STACK": "a Jack stack is malformed",
    "CARD_MISSING": "a card is missing",
    "MISPLACED_KNOWLEDGE": "a frozen or known card is not where it should be, or a "
                           "frozen card is not known to the opponent",
    "PHASE_MISMATCH": "the phase does not match the stack, the reveal or the player to "
                      "decide",
    "TARGET_NOT_ON_TABLE": "an announced card's target is not on the table",
    "BAD_ENDING": "the end of the game is inconsistent",
    "RULES_MISMATCH": "a phase, a card on the stack or a countdown that these rules or "
                      "this phase cannot have",
    "NO_LEGAL_MOVE": "the game is not over but the player to decide has no legal move",
    "OVER_HAND_LIMIT": "the player not to move holds more cards than the hand limit at "
                       "the start of a turn, yet a turn passes only once its player's "
                       "hand is down to the limit (hand_limit_mode=discard), and only the "
                       "second player's dealt hand, before the first move, can be above it",
    # (Game names the cards of these and says why: position.freeze_words)
    "FROZEN_WITHOUT_FREEZE": "a card is frozen under rules whose 9 freezes nothing",
    "FROZEN_JOKER": "the joker is frozen, and no 9 returns it to a hand",
    "FROZEN_POINT_CARD": "a point card is frozen, and these rules' 9 returns none",
    "FROZEN_BY_OWN_NINE": "a card is frozen by its own player's 9, which these rules' 9 "
                          "cannot target",
    "FROZEN_BEFORE_NINE": "a card is frozen by a 9 of this turn, and none has taken "
                          "effect yet",
    "FROZEN_BY_ONE_NINE": "two cards are frozen that only one 9 could have frozen",
    "TOO_MANY_FROZEN": "more cards are frozen than the 9s of the last two turns return",
    "FROZEN_WITHOUT_NINE": "a card is frozen whose 9 is not in the scrap, and no 3 can "
                           "have taken it back since",
}


def state_error(int code):
    """check_state's problem `code` (a StateError other than STATE_OK) in words."""
    return STATE_ERRORS[StateError(code).name]


cdef enum:
    # Far above any game's turns (a game of the largest move cap has fewer), and far
    # enough below 2**31 that counting on never overflows.
    MAX_TURN_NUMBER = 1 << 30

cdef inline int check_fields(const State* s, int ncards) noexcept nogil:
    # Ranges of the scalar fields.
    if not (0 <= s.deck_len <= ncards and 0 <= s.stack_len <= MAX_STACK
            and 0 <= s.n_revealed <= 2):
        return BAD_LENGTH
    if not (0 <= s.phase < N_PHASES and 0 <= s.turn <= 1 and 0 <= s.to_move <= 1
            and -1 <= s.winner <= 1 and END_NONE <= s.end_reason <= END_MOVE_CAP
            and 0 <= s.turn_number <= MAX_TURN_NUMBER and 0 <= s.passes <= 3
            and -1 <= s.last_turn <= MAX_TURN_NUMBER + 2
            and 0 <= s.actor <= 1 and (-1 <= s.target < ncards or s.target == NO_CARD)):
        return BAD_FIELD
    return STATE_OK

cdef inline int check_zones(const State* s, uint64_t every, uint64_t* seen) noexcept nogil:
    # The cards of the hands, the table and the scrap: each once, each where it may be.
    cdef uint64_t zones[7]
    cdef int i
    zones[0] = s.hand[0]
    zones[1] = s.hand[1]
    zones[2] = s.points[0]
    zones[3] = s.points[1]
    zones[4] = s.permanents[0]
    zones[5] = s.permanents[1]
    zones[6] = s.scrap
    for i in range(7):
        if zones[i] & seen[0] or zones[i] & ~every:
            return CARD_TWICE
        seen[0] |= zones[i]
    if (s.points[0] | s.points[1]) >> FIRST_JACK:
        return NOT_A_POINT_CARD
    if (s.permanents[0] | s.permanents[1]) & ~(KINGS | QUEENS | EIGHTS):
        return NOT_A_PERMANENT
    return STATE_OK

cdef inline int check_jacks(const State* s, uint64_t* seen) noexcept nogil:
    # Every Jack stack on a point card, well formed, its Jacks in no other place.
    cdef uint64_t jacks = 0
    cdef int c, i, n
    if s.stacked & ~(s.points[0] | s.points[1]):
        return BAD_JACK_STACK
    for c in range(FIRST_JACK):
        n = jcount(s, c)
        if (n != 0) != ((s.stacked & bit(c)) != 0) or n > MAX_JACKS \
                or (s.jack_stacks[c] >> (3 + 2 * n)) != 0:
            return BAD_JACK_STACK          # (a slot above the top must be clear: a
                                           # Jack pushed there is OR-ed into it)
        for i in range(n):
            if jacks & bit(jack_at(s, c, i)):
                return CARD_TWICE
            jacks |= bit(jack_at(s, c, i))
    if jacks & seen[0]:
        return CARD_TWICE
    seen[0] |= jacks
    return STATE_OK

cdef inline int check_list(const int8_t* cards, int n, int ncards,
                           uint64_t* seen) noexcept nogil:
    # The cards of the deck, the reveal or the stack: real cards, each in no other place.
    cdef int i, c
    for i in range(n):
        c = cards[i]
        if not 0 <= c < ncards or seen[0] & bit(c):
            return CARD_TWICE
        seen[0] |= bit(c)
    return STATE_OK

cdef inline int check_cards(const State* s, int ncards) noexcept nogil:
    # Every card of the deck in exactly one place.
    cdef uint64_t every = bit(ncards) - 1
    cdef uint64_t seen = 0
    cdef int err = check_zones(s, every, &seen)
    if err == STATE_OK:
        err = check_jacks(s, &seen)
    if err == STATE_OK:
        err = check_list(s.deck, s.deck_len, ncards, &seen)
    if err == STATE_OK:
        err = check_list(s.revealed, s.n_revealed, ncards, &seen)
    if err == STATE_OK:
        err = check_list(s.stack, s.stack_len, ncards, &seen)
    if err == STATE_OK and seen != every:
        err = CARD_MISSING
    return err

cdef inline int check_knowledge(const State* s) noexcept nogil:
    # Knowledge and freezes only concern cards where they are, and a freeze is public
    # (a 9 returned the card in sight of the opponent; a determinization keeps it).
    cdef int p
    for p in range(2):
        if s.frozen[p] & ~s.hand[p] or s.frozen_next[p] & ~s.hand[p] \
                or s.known_hand[p] & ~s.hand[p ^ 1] \
                or (s.frozen[p] | s.frozen_next[p]) & ~s.known_hand[p ^ 1]:
            return MISPLACED_KNOWLEDGE
    return STATE_OK

cdef inline int fault(FreezeFault* f, int err, int player, uint64_t cards,
                      int this_turn) noexcept nogil:
    f.player = player
    f.cards = cards
    f.this_turn = this_turn
    return err

cdef int check_freezes(const State* s, const CRules* r, FreezeFault* f) noexcept nogil:
    # Which freezes a 9 makes, the one home of that rule (a pickle's, a position's: the
    # frozen cards must be in hand already, check_knowledge).  In turn t of player T
    # against o: frozen[T] holds what o's 9 of turn t-1 and T's own 9 of turn t-2
    # returned, frozen_next[o] what o's own 9 of turn t-1 did; frozen_next[T] and
    # frozen[o], what T's 9 of turn t did, once it took effect (which ends the turn's
    # play: then the discard phase or the end).  A 9 returns one card, a King, a Queen,
    # a glasses-8 or a top Jack (a point card with nine_targets_points), to its own
    # player only with targets_own_side; only nine=freeze freezes.
    cdef int t = s.turn, o = s.turn ^ 1, p
    cdef int own = r.targets_own_side != 0
    cdef uint64_t m, now = s.frozen_next[t] | s.frozen[o]
    cdef uint64_t earlier = s.frozen[t] | s.frozen_next[o]
    cdef uint64_t never = 0 if r.nine_targets_points else POINT_CARDS & ~EIGHTS
    f.player = -1
    f.cards = 0
    f.this_turn = 0
    f.nines = f.threes = 0
    f.took = 0
    for p in range(2):
        m = s.frozen[p] | s.frozen_next[p]
        if m and r.nine != NINE_FREEZE:
            return fault(f, FROZEN_WITHOUT_FREEZE, p, bit(lowest(m)), 0)
    for p in range(2):
        m = s.frozen[p] | s.frozen_next[p]
        if m & bit(JOKER):
            return fault(f, FROZEN_JOKER, p, bit(JOKER), 0)
        if m & never:
            return fault(f, FROZEN_POINT_CARD, p, bit(lowest(m & never)), 0)
    if now and not (s.phase == PH_DISCARD or s.phase == PH_OVER):
        return fault(f, FROZEN_BEFORE_NINE, t if s.frozen_next[t] else o,
                     s.frozen_next[t] if s.frozen_next[t] else s.frozen[o], 1)
    if not own and s.frozen_next[o]:
        return fault(f, FROZEN_BY_OWN_NINE, o, s.frozen_next[o], 0)
    if not own and s.frozen_next[t]:
        return fault(f, FROZEN_BY_OWN_NINE, t, s.frozen_next[t], 1)
    if popcount(s.frozen_next[o]) > 1:
        return fault(f, FROZEN_BY_ONE_NINE, o, s.frozen_next[o], 0)
    if popcount(now) > 1:
        return fault(f, FROZEN_BY_ONE_NINE, -1, now, 1)
    if popcount(earlier) > 1 + own:
        return fault(f, TOO_MANY_FROZEN, -1, earlier,
                     s.phase == PH_DISCARD or s.phase == PH_OVER)
    return check_freezing_nines(s, r, f)

cdef inline int check_freezing_nines(const State* s, const CRules* r,
                                     FreezeFault* f) noexcept nogil:
    # check_freezes' last part: where the 9s behind the freezes are (rules-decisions.md,
    # decision 3).  Each frozen card had a 9 of its own, played in this turn or one of
    # the two before (one a turn, each another card), which went to the scrap when its
    # action ended; only a 3's pick takes a card out of the scrap.  Since then at most
    # one 3 can have taken one back: this turn's, once it has taken effect (the discard
    # phase, or the end), its turn then freezing nothing; or the last turn's, that turn
    # then freezing nothing, so the one card frozen before this turn is the mover's, by
    # its own 9 of the turn before (targets_own_side).  Either 3 is in the scrap (or the
    # last turn's was taken by this turn's, which is).  (The 9 it took is in its
    # player's hand, not asked for: a position does not carry what the players know, and
    # a determinization from the mover's view may deal that hand otherwise.)
    cdef int t = s.turn, o = s.turn ^ 1, took = 0
    cdef uint64_t of0 = s.frozen[0] | s.frozen_next[0]        # each player's frozen cards
    cdef uint64_t of1 = s.frozen[1] | s.frozen_next[1]
    cdef uint64_t nines = s.scrap & NINES, threes = s.scrap & THREES
    cdef int short = popcount(of0 | of1) - popcount(nines)
    if short <= 0:
        return STATE_OK
    if (s.phase == PH_DISCARD or s.phase == PH_OVER) \
            and (s.frozen_next[t] | s.frozen[o]) == 0:
        took = 1                           # this turn's 3
    if r.targets_own_side and popcount(s.frozen[t]) == 1 and s.frozen_next[o] == 0:
        took = 1                           # the last turn's 3
    if short == 1 and threes and took:
        return STATE_OK
    f.nines = nines
    f.threes = threes
    f.took = took
    return fault(f, FROZEN_WITHOUT_NINE, -1 if (of0 and of1) else (0 if of0 else 1),
                 of0 | of1, 0)

cdef inline int check_phase(const State* s, const CRules* r) noexcept nogil:
    # What each phase needs to be resolved.
    cdef int i
    if s.phase == PH_MAIN or s.phase == PH_DISCARD:
        if s.stack_len or s.n_revealed or s.to_move != s.turn:
            return PHASE_MISMATCH
    elif s.phase == PH_COUNTER:
        if s.stack_len < 1 or s.n_revealed or s.to_move != s.actor ^ (s.stack_len & 1):
            return PHASE_MISMATCH
        for i in range(1, s.stack_len):
            if rank_of(s.stack[i]) != 1:
                return PHASE_MISMATCH      # counters are 2s
        if not oneoff_target_ok(s, r, s.stack[0], s.target):
            return TARGET_NOT_ON_TABLE
    elif s.phase == PH_SEVEN:
        # The 7 alone: its 2s went to the scrap when its chain ended (decision 22).
        if s.stack_len != 1 or s.n_revealed < 1 or s.to_move != s.actor:
            return PHASE_MISMATCH
    elif s.phase == PH_BLOCK:
        if s.stack_len != 1 or s.n_revealed or s.target < 0 \
                or not (s.points[s.to_move] & bit(s.target)):
            return TARGET_NOT_ON_TABLE
    elif s.phase != PH_OVER:               # the 3, 4, 5 and 10 choices
        if s.stack_len != 1 or s.n_revealed:   # the one-off alone (decision 22)
            return PHASE_MISMATCH
    return STATE_OK

cdef inline int is_oneoff_card(int c, const CRules* r) noexcept nogil:
    # Whether card c can be announced as a one-off under these rules (at some time).
    cdef int rk = rank_of(c)
    if c == JOKER:
        return 1                           # (only in the deck with the joker flag)
    if rk == 7:
        return r.eight_breaks_glasses
    if rk == 9:
        return r.ten_discards
    return rk <= 8 and rk != 7

cdef inline int is_deal(const State* s, const CRules* r) noexcept nogil:
    # Whether s is as `deal` leaves a game: player 0's first turn, nothing played (a
    # position has no turn number: the table and the scrap tell).
    return s.turn == 0 and s.turn_number == 0 and s.phase == PH_MAIN and s.scrap == 0 \
        and (s.points[0] | s.points[1] | s.permanents[0] | s.permanents[1]) == 0 \
        and popcount(s.hand[0]) == r.deal[0] and popcount(s.hand[1]) == r.deal[1]

cdef inline int check_rules_fit(const State* s, const CRules* r) noexcept nogil:
    # What the rules and the phase imply: the card each pending choice belongs to, who
    # makes the choice, and the rules that have such a phase or countdown (a freeze's:
    # check_freezes).
    cdef int ph = s.phase
    cdef int rk = rank_of(s.stack[0]) if s.stack_len > 0 else -1
    if not r.sudden_death and s.last_turn != -1:
        return RULES_MISMATCH
    if ph == PH_OVER:
        return STATE_OK
    if s.passes >= 3:                      # (the third pass in a row ends the game)
        return RULES_MISMATCH
    if ph == PH_DISCARD:
        if r.hand_limit < 0 or r.hand_limit_mode == LIMIT_NO_DRAW \
                or popcount(s.hand[s.turn]) <= r.hand_limit:
            return RULES_MISMATCH
        return STATE_OK
    if ph == PH_MAIN:
        # A turn passes only once its player's hand is at most at the limit, and the
        # main phase is a turn's start: the other player is there still, unless no
        # turn has passed yet (a deal above the limit: rules-decisions.md, decision 26).
        if r.hand_limit >= 0 and r.hand_limit_mode != LIMIT_NO_DRAW \
                and popcount(s.hand[s.turn ^ 1]) > r.hand_limit and not is_deal(s, r):
            return OVER_HAND_LIMIT
        return STATE_OK
    if s.actor != s.turn:                  # a one-off or a scuttle of the turn's player
        return RULES_MISMATCH
    if ph == PH_COUNTER:
        return STATE_OK if is_oneoff_card(s.stack[0], r) else RULES_MISMATCH
    if ph == PH_BLOCK:
        return STATE_OK if (r.ten_blocks_scuttle and s.stack[0] < FIRST_JACK
                            and s.to_move == s.actor ^ 1) else RULES_MISMATCH
    if ph == PH_THREE:
        return STATE_OK if rk == 2 and s.to_move == s.actor else RULES_MISMATCH
    if ph == PH_FOUR:
        return STATE_OK if (rk == 3 and r.four == FOUR_CHOICE
                            and s.to_move == s.actor ^ 1) else RULES_MISMATCH
    if ph == PH_FIVE:
        return STATE_OK if (rk == 4 and r.five == FIVE_DISCARD1_DRAW3
                            and s.to_move == s.actor) else RULES_MISMATCH
    if ph == PH_SEVEN:
        return STATE_OK if rk == 6 else RULES_MISMATCH
    if ph == PH_TEN:
        return STATE_OK if (rk == 9 and r.ten_discards
                            and s.to_move == s.actor ^ 1) else RULES_MISMATCH
    return STATE_OK

cdef inline int check_ending(const State* s, const CRules* r) noexcept nogil:
    # A game over says how, consistently; one not over has not been won already.
    if (s.phase == PH_OVER) != (s.end_reason != END_NONE) \
            or (s.winner >= 0) != (s.end_reason == END_GOAL):
        return BAD_ENDING
    if s.end_reason == END_GOAL and score(s, s.winner) < goal(s, r, s.winner):
        return BAD_ENDING
    if (s.end_reason == END_SUDDEN_DEATH and not r.sudden_death) \
            or (s.end_reason == END_PASSES and s.passes != 3):
        return BAD_ENDING
    if s.phase != PH_OVER and (score(s, 0) >= goal(s, r, 0) or score(s, 1) >= goal(s, r, 1)):
        return BAD_ENDING                  # (check_win ends the game after every move)
    return STATE_OK

cdef int check_state(const State* s, const CRules* r) noexcept nogil:
    cdef uint32_t buf[MAX_MOVES]
    cdef int ncards = deck_size(r.joker)
    cdef FreezeFault f
    cdef int err = check_fields(s, ncards)
    if err == STATE_OK:
        err = check_cards(s, ncards)
    if err == STATE_OK:
        err = check_knowledge(s)
    if err == STATE_OK:
        err = check_freezes(s, r, &f)
    if err == STATE_OK:
        err = check_phase(s, r)
    if err == STATE_OK:
        err = check_rules_fit(s, r)
    if err == STATE_OK:
        err = check_ending(s, r)
    if err == STATE_OK and s.phase != PH_OVER and gen_moves(s, r, buf) == 0:
        err = NO_LEGAL_MOVE                # (every phase has a move when it is sound)
    return err


cdef int oneoff_target_ok(const State* s, const CRules* r, int c, int t) noexcept nogil:
    # The announced one-off c's target is where its resolution will look for it.
    cdef int rk = rank_of(c)
    if c == JOKER or not (rk == 1 or rk == 7 or rk == 8):
        return t == -1 or t == NO_CARD
    if t < 0:
        return 0
    if rk == 1:                            # a permanent or a top Jack
        return ((s.permanents[0] | s.permanents[1]) & bit(t)) != 0 or point_under_jack(s, t) >= 0
    if rk == 7:                            # a glasses-8
        return ((s.permanents[0] | s.permanents[1]) & EIGHTS & bit(t)) != 0
    return ((s.permanents[0] | s.permanents[1] | s.points[0] | s.points[1]) & bit(t)) != 0 \
        or point_under_jack(s, t) >= 0


cdef int states_equal(const State* a, const State* b) noexcept nogil:
    # Field by field (a struct may hold padding bytes).
    cdef int i
    for i in range(2):
        if a.hand[i] != b.hand[i] or a.points[i] != b.points[i] \
                or a.permanents[i] != b.permanents[i] \
                or a.frozen[i] != b.frozen[i] or a.frozen_next[i] != b.frozen_next[i] \
                or a.known_hand[i] != b.known_hand[i]:
            return 0
    for i in range(4):
        if a.rng.s[i] != b.rng.s[i]:
            return 0
    for i in range(FIRST_JACK):
        if a.jack_stacks[i] != b.jack_stacks[i]:
            return 0
    if a.scrap != b.scrap or a.stacked != b.stacked or a.known_deck != b.known_deck \
            or a.deck_len != b.deck_len or a.stack_len != b.stack_len \
            or a.n_revealed != b.n_revealed or a.phase != b.phase or a.turn != b.turn \
            or a.to_move != b.to_move or a.turn_number != b.turn_number \
            or a.passes != b.passes or a.winner != b.winner \
            or a.end_reason != b.end_reason or a.last_turn != b.last_turn \
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
