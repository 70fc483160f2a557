# cython: language_level=3
# The rules engine's contract: legal moves, applying a move, dealing, and the rule
# functions that other native modules inline: what may be played (card_plays and the
# predicates below it, which the random sampler reads too, so that every rule is
# written once), scores, goals, public hands, the win check.  Every function works on
# a State* under a CRules* and runs nogil.

from libc.stdint cimport uint64_t, uint32_t
from cuttle._state cimport (State, CRules, NCARDS, JOKER, ACES, TWOS, THREES, FOURS, FIVES,
                            SIXES, SEVENS, EIGHTS, NINES, TENS, JACKS, QUEENS, KINGS,
                            PH_OVER, PH_SEVEN, PH_COUNTER, PH_BLOCK, END_GOAL, LIMIT_NO_DRAW,
                            FOUR_DRAW, SEVEN_TOP2, VALUE_BIT0, VALUE_BIT1, VALUE_BIT2, VALUE_BIT3,
                            bit, rank_of, popcount, lowest, top_jacks)

# All legal moves of the player to decide, written to `out` (room for MAX_MOVES);
# returns how many.
cdef int gen_moves(const State* s, const CRules* r, uint32_t* out) noexcept nogil

# Whether gen_moves lists move m (1) or not (0): the check before applying an untrusted
# move.
cdef int is_legal(const State* s, const CRules* r, uint32_t m) noexcept nogil

# Play a move that gen_moves listed (trusted: callers only pass generated moves).
cdef void apply_move(State* s, const CRules* r, uint32_t m) noexcept nogil

# A fresh deal from the state's own stream (s.rng must be seeded): P0 r.deal[0] cards,
# P1 r.deal[1] (5 and 6 unless the `deal` flag says otherwise).
cdef void deal(State* s, const CRules* r) noexcept nogil

# Whether two states are the same position (field by field: structs hold padding).
cdef int states_equal(const State* a, const State* b) noexcept nogil


# -- what may be played -----------------------------------------------------------------

# BELOW[strict][c]: the point cards that point card c beats in a scuttle (a lower index,
# or with strict_scuttle a lower rank); ABOVE[strict][t]: those that beat t; 0 for a card
# that is no point card.  Filled when _engine is imported; the expert reads them too.
cdef uint64_t BELOW[2][NCARDS]
cdef uint64_t ABOVE[2][NCARDS]

cdef inline uint64_t targetable(const State* s, const CRules* r, int side, int attacker,
                                uint64_t cards) noexcept nogil:
    # The subset of `cards` (all controlled by `side`) that `attacker` may target with a
    # 2, 9, Jack or glasses-breaking 8: Queens guard only against the other player.
    if side == attacker:
        return cards
    cdef int nq = popcount(s.permanents[side] & QUEENS)
    if nq == 0:
        return cards
    if r.queens_protect_queens:
        return 0 if nq >= 2 else (cards & QUEENS)
    return cards & QUEENS

cdef inline int deck_count(const State* s) noexcept nogil:
    # Cards counting as deck when a card's play is judged: the deck plus, during a 7,
    # the revealed card that would not be chosen.
    if s.phase == PH_SEVEN and s.n_revealed > 0:
        return s.deck_len + s.n_revealed - 1
    return s.deck_len

cdef inline uint64_t takeable(const State* s, const CRules* r) noexcept nogil:
    # The scrap cards a 3 may take.
    return s.scrap if r.three_takes_threes else (s.scrap & ~THREES)

cdef inline int draw_blocked(const State* s, const CRules* r, int p) noexcept nogil:
    # The no-draw hand limit: p holds as many cards as it allows and may not draw.
    return r.hand_limit >= 0 and r.hand_limit_mode == LIMIT_NO_DRAW and \
        popcount(s.hand[p]) >= r.hand_limit

cdef inline uint64_t counters(const State* s, int p) noexcept nogil:
    # The 2s p may counter with (none against a Queen); a frozen 2 may counter
    # (decision 9).
    return 0 if (s.permanents[p ^ 1] & QUEENS) else (s.hand[p] & TWOS)

cdef inline uint64_t blockers(const State* s, int p) noexcept nogil:
    # The 10s p may block a scuttle with (ten_blocks_scuttle).
    return s.hand[p] & TENS & ~s.frozen[p]

ctypedef struct CardPlays:
    # What player p may do with each kind of card now (card_plays): gen_moves lists it
    # card by card, the random sampler counts it.
    uint64_t scuttles         # the point cards p may scuttle (a card beats those BELOW it)
    uint64_t ones             # the cards with exactly one move besides points and
                              # scuttles: a royal, or a one-off without a target
    uint64_t jack             # a Jack's targets
    uint64_t eight            # a glasses-breaking 8's targets (besides the glasses)
    uint64_t two[2]           # a 2's targets on each side
    uint64_t nine[2]          # a 9's targets on each side

cdef inline uint64_t untargeted_ones(const State* s, const CRules* r, int p,
                                     int from_seven) noexcept nogil:
    # CardPlays.ones: Kings, Queens (one_queen_each: only a first one), Aces, 6s and the
    # joker always; 3, 4, 5, 7 and 10 one-offs as the rules allow them now (strict
    # one-offs need something to act on; a revealed 5 that was the last card may still
    # be played, drawing nothing: rulebook §4b).
    cdef int opp = p ^ 1
    cdef int deck = deck_count(s) if from_seven else s.deck_len   # (a hand: main phase)
    cdef uint64_t ones = ACES | SIXES | KINGS | bit(JOKER)
    if not (r.one_queen_each and (s.permanents[p] & QUEENS)):
        ones |= QUEENS
    if not r.strict_oneoffs:
        ones |= THREES | FOURS | FIVES | SEVENS | (TENS if r.ten_discards else 0)
        return ones
    if takeable(s, r):
        ones |= THREES
    if (deck > 0) if r.four == FOUR_DRAW else (s.hand[opp] != 0):
        ones |= FOURS
    if deck > 0:
        ones |= FIVES | SEVENS
    elif from_seven:
        ones |= FIVES
    if r.ten_discards and s.hand[opp]:
        ones |= TENS
    return ones

cdef inline void card_plays(const State* s, const CRules* r, int p, uint64_t cards,
                            int from_seven, CardPlays* cp) noexcept nogil:
    # What p may do with the cards in `cards`: from the hand, or (from_seven) revealed
    # by a 7 (the 2s' and 9s' targets, the costly ones, are left 0 without such a
    # card).  Queens guard against the other player's 2s, 9s, Jacks and 8s
    # (targetable).  (Tests on the rules rather than the cards where the work is
    # cheap: a branch on the cards mispredicts often.)
    cdef int opp = p ^ 1
    cdef int side
    cdef uint64_t tj
    cp.scuttles = 0 if (r.queen_stops_scuttles and (s.permanents[opp] & QUEENS)) \
        else s.points[opp]
    cp.ones = untargeted_ones(s, r, p, from_seven)
    cp.jack = targetable(s, r, opp, p, s.points[opp])
    if cp.jack == 0 and from_seven and not r.seven == SEVEN_TOP2:
        cp.jack = s.points[p]              # a classic 7's Jack with no opposing target
    cp.eight = 0
    if r.eight_breaks_glasses:
        cp.eight = targetable(s, r, opp, p, s.permanents[opp] & EIGHTS)
    if not (cards & (TWOS | NINES)):
        cp.two[0] = cp.two[1] = cp.nine[0] = cp.nine[1] = 0
        return
    for side in range(2):
        cp.two[side] = cp.nine[side] = 0
        if side == p and not r.targets_own_side:
            continue
        tj = s.permanents[side] | top_jacks(s, side)
        cp.two[side] = targetable(s, r, side, p, tj)
        cp.nine[side] = targetable(s, r, side, p,
                                   tj | (s.points[side] if r.nine_targets_points else 0))

cdef inline int score(const State* s, int p) noexcept nogil:
    # The sum of rank + 1 over the point cards, by the value's bits (4 popcounts, no
    # loop: check_win scores both players after every turn).
    cdef uint64_t m = s.points[p]
    return popcount(m & VALUE_BIT0) + 2 * popcount(m & VALUE_BIT1) + \
        4 * popcount(m & VALUE_BIT2) + 8 * popcount(m & VALUE_BIT3)

cdef inline int goal(const State* s, const CRules* r, int p) noexcept nogil:
    cdef int k = popcount(s.permanents[p] & KINGS)
    if k > 4:
        k = 4
    return r.king_goals[k]

cdef inline int hand_is_public(const State* s, const CRules* r, int p) noexcept nogil:
    # Glasses held by the opponent, open hands, or (cuttle.cards) the empty deck.
    return r.open_hands or (r.reveal_on_empty_deck and s.deck_len == 0) or \
        (s.permanents[p ^ 1] & EIGHTS) != 0

# What both players know of p's frozen cards (a 9's return is public): Game.frozen and
# the observation encoding read these two, so the rule is written once.
cdef inline uint64_t frozen_now(const State* s, int p) noexcept nogil:
    # The cards p may not play now.  A freeze binds only during its owner's turn; in
    # between the cards are not "unplayable now" (their owner has no decision before
    # that turn anyway).
    if s.turn != p or s.phase == PH_OVER:
        return 0
    return s.frozen[p] & s.hand[p]

cdef inline uint64_t frozen_next_turn(const State* s, int p) noexcept nogil:
    # The cards p may not play in its next turn.  During p's turn: frozen_next (its own
    # 9 returned them).  Outside it: frozen (the opponent's 9 returned them, binding
    # from p's next turn) and frozen_next (joining frozen when the opponent's turn ends).
    if s.phase == PH_OVER:
        return 0
    if s.turn == p:
        return s.frozen_next[p] & s.hand[p]
    return (s.frozen[p] | s.frozen_next[p]) & s.hand[p]

cdef inline int pending_target(const State* s) noexcept nogil:
    # The card the move waiting on the stack targets, public: an announced one-off's
    # (a 2, a 9, a glasses-breaking 8) while its counters are played, a scuttle's while
    # its victim may block it with a 10; -1 otherwise (no such move, or one without a
    # target).  Observation.target and the observation encoding read it.  (The other
    # phases' stacks hold untargeted one-offs: the targeted ones resolve at once.)
    if (s.phase == PH_COUNTER or s.phase == PH_BLOCK) and 0 <= s.target < NCARDS:
        return s.target
    return -1

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
