# cython: language_level=3
"""Validation of a state from outside (a pickle, a position, a record's start): whether
it is one the rules can reach, whole, before any rules function indexes with its fields.

Nothing here runs while games are played: the engine trusts its own states, and a state
from outside is checked once, when it is loaded (`_core`, `_decide`).  The codes are
declared in _checks.pxd; `state_error` puts them in words."""

from libc.stdint cimport uint64_t, uint32_t, int8_t

from cuttle._state cimport *
from cuttle._engine cimport gen_moves, score, goal


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
    # (Game names the cards of these and says why: freezes.freeze_words)
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

