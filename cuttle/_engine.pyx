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
