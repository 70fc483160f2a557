# cython: language_level=3
# The C data contract of the native core: card and move encodings, the rules as a struct
# whose fields carry the names of the `Rules` flags, and the whole game state as bitmasks
# and packed arrays.  Everything here is plain C (structs, enums, inline helpers), so
# every native module that cimports it can run whole games without the GIL.

from libc.stdint cimport uint64_t, uint32_t, uint16_t, int8_t, int32_t

cdef extern from *:
    """
    /* Bit tricks the core uses on every move (hardware popcount when built with it). */
    static inline int cu_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int cu_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int cu_highest(unsigned long long x) { return 63 - __builtin_clzll(x); }
    static inline unsigned long long cu_mulhi(unsigned long long a, unsigned long long b) {
        return (unsigned long long)(((unsigned __int128)a * b) >> 64);
    }
    /* Card masks by rank: natural index = rank * 4 + suit, rank 0 = Ace ... 12 = King. */
    #define CU_ACES   0xFULL
    #define CU_TWOS   (0xFULL << 4)
    #define CU_THREES (0xFULL << 8)
    #define CU_FOURS  (0xFULL << 12)
    #define CU_FIVES  (0xFULL << 16)
    #define CU_SIXES  (0xFULL << 20)
    #define CU_SEVENS (0xFULL << 24)
    #define CU_EIGHTS (0xFULL << 28)
    #define CU_NINES  (0xFULL << 32)
    #define CU_TENS   (0xFULL << 36)
    #define CU_JACKS  (0xFULL << 40)
    #define CU_QUEENS (0xFULL << 44)
    #define CU_KINGS  (0xFULL << 48)
    #define CU_POINT_CARDS ((1ULL << 40) - 1)   /* Aces to 10s: indices below FIRST_JACK */
    /* CU_VALUE_BITj: the cards (index < 60) whose value rank + 1 has bit j set, so that
       the points of a mask m are sum_j popcount(m & CU_VALUE_BITj) << j. */
    #define CU_VALUE_BIT0 0x0F0F0F0F0F0F0F0FULL
    #define CU_VALUE_BIT1 0x0FF00FF00FF00FF0ULL
    #define CU_VALUE_BIT2 0x0FFFF0000FFFF000ULL
    #define CU_VALUE_BIT3 0x0FFFFFFFF0000000ULL
    """
    int cu_ctz(unsigned long long x) noexcept nogil
    int cu_popcount(unsigned long long x) noexcept nogil
    int highest "cu_highest"(uint64_t x) noexcept nogil     # the highest set bit (x != 0)
    unsigned long long cu_mulhi(unsigned long long a, unsigned long long b) noexcept nogil
    const uint64_t ACES "CU_ACES"
    const uint64_t TWOS "CU_TWOS"
    const uint64_t THREES "CU_THREES"
    const uint64_t FOURS "CU_FOURS"
    const uint64_t FIVES "CU_FIVES"
    const uint64_t SIXES "CU_SIXES"
    const uint64_t SEVENS "CU_SEVENS"
    const uint64_t EIGHTS "CU_EIGHTS"
    const uint64_t NINES "CU_NINES"
    const uint64_t TENS "CU_TENS"
    const uint64_t JACKS "CU_JACKS"
    const uint64_t QUEENS "CU_QUEENS"
    const uint64_t KINGS "CU_KINGS"
    const uint64_t POINT_CARDS "CU_POINT_CARDS"
    const uint64_t VALUE_BIT0 "CU_VALUE_BIT0"
    const uint64_t VALUE_BIT1 "CU_VALUE_BIT1"
    const uint64_t VALUE_BIT2 "CU_VALUE_BIT2"
    const uint64_t VALUE_BIT3 "CU_VALUE_BIT3"

cdef enum:
    NCARDS = 53          # 52 + the joker (its bit is unused without the `joker` flag)
    JOKER = 52
    NO_CARD = 63         # "no card" in a move's card/target field
    MAX_MOVES = 2048     # the largest legal-move list: the 4's C(hand, 2) discards
    MAX_STACK = 16
    FIRST_JACK = 40      # natural indices 40..43 are the Jacks; point cards are 0..39
    MAX_JACKS = 4

# The first natural index of a rank is 4 * its rank index (the suits follow): the ranks
# the action codec (cuttle/_actions.pxd) lays out by name.
cdef enum:
    FIRST_TWO = 4
    FIRST_EIGHT = 28
    FIRST_NINE = 32
    FIRST_TEN = 36
    FIRST_QUEEN = 44
    N_NATURAL = 52       # the 52 natural cards: 0..51, below the joker

# Phases: exactly one player decides in each.  Their names, in this order, are
# cuttle._core.PHASE_NAMES.
cdef enum:
    PH_MAIN = 0
    PH_COUNTER = 1
    PH_THREE = 2
    PH_FOUR = 3
    PH_FIVE = 4
    PH_SEVEN = 5
    PH_DISCARD = 6
    PH_BLOCK = 7
    PH_TEN = 8
    PH_OVER = 9
    N_PHASES = 10

# Move verbs (names in this order: cuttle._core.VERBS).  A move is packed into 16 bits:
# verb | card << 4 | target << 10 (NO_CARD when absent); a two-card discard (the 4)
# carries its second card in the target field.
cdef enum:
    V_DRAW = 0
    V_PASS = 1
    V_RESOLVE = 2
    V_POINTS = 3
    V_SCUTTLE = 4
    V_ROYAL = 5
    V_GLASSES = 6
    V_JACK = 7
    V_ONEOFF = 8
    V_COUNTER = 9
    V_TAKE = 10
    V_DISCARD = 11
    V_BLOCK = 12
    N_VERBS = 13
    MOVE_CARD_SHIFT = 4
    MOVE_TARGET_SHIFT = 10

# How a game ended (names: cuttle._core.END_NAMES).
cdef enum:
    END_NONE = 0
    END_GOAL = 1
    END_PASSES = 2
    END_SUDDEN_DEATH = 3
    END_MOVE_CAP = 4

# Policies: a policy is an int, kind | parameter << POLICY_SHIFT (the parameter is the
# ISMCTS iteration count); cuttle._policies.POLICIES names the kinds for Python.
cdef enum:
    POL_RANDOM = 0
    POL_GREEDY = 1
    POL_ISMCTS_RANDOM = 2     # ISMCTS with random playouts
    POL_ISMCTS = 3            # ISMCTS with greedy playouts
    POL_EXPERT = 4            # hand-built evaluation, shallow look-ahead
    POL_CARDS_AI = 5          # cuttle.cards' AI: a FULL-INFORMATION reference (_cardsai)
    POL_ISMCTS_INFER = 6      # ISMCTS dealing the opponent's hand by its moves (_infer)
    POLICY_SHIFT = 8
    POLICY_KIND_MASK = 255
    MOVE_NO_MEMORY = 1 << 16  # not a move: a search could not allocate its tree

cdef inline int is_search(int policy) noexcept nogil:
    # Whether a policy code is an ISMCTS search (which decides with a tree).
    cdef int kind = policy & POLICY_KIND_MASK
    return kind == POL_ISMCTS or kind == POL_ISMCTS_RANDOM or kind == POL_ISMCTS_INFER

cdef inline int reads_history(int policy) noexcept nogil:
    # Whether a search weighs what it saw its opponent do in the game (_infer): it must
    # keep its tree between its decisions (and see every move since), or it sees nothing.
    return (policy & POLICY_KIND_MASK) == POL_ISMCTS_INFER

# The values of the choice flags, in the order cuttle/flags.py declares them (_core's
# CHOICE_CODES names each; cuttle.rules refuses to import if the two orders differ).
cdef enum:
    LIMIT_DISCARD = 0
    LIMIT_NO_DRAW = 1
    FIVE_DRAW2 = 0
    FIVE_DISCARD1_DRAW3 = 1
    SEVEN_TOP1 = 0
    SEVEN_TOP2 = 1
    NINE_RETURN = 0
    NINE_FREEZE = 1
    NINE_TOPDECK = 2
    FOUR_CHOICE = 0
    FOUR_RANDOM = 1
    FOUR_DRAW = 2

# One field per flag of cuttle/flags.py, under the flag's own name; `Rules.c_fields()`
# fills it (bools as 0/1, choices by their index above, hand_limit None as -1, tuples as
# arrays), and cuttle.rules refuses to import if a flag has no field or a field no flag.
ctypedef struct CRules:
    int32_t king_goals[5]     # goal by number of Kings controlled (0..4)
    int32_t hand_limit        # -1: none
    int32_t hand_limit_mode
    int32_t five
    int32_t seven
    int32_t nine
    int32_t nine_targets_points
    int32_t targets_own_side
    int32_t three_takes_threes
    int32_t strict_oneoffs
    int32_t four
    int32_t queens_protect_queens
    int32_t queen_stops_scuttles
    int32_t one_queen_each
    int32_t eight_breaks_glasses
    int32_t ten_blocks_scuttle
    int32_t ten_discards
    int32_t strict_scuttle
    int32_t joker
    int32_t open_hands
    int32_t reveal_on_empty_deck
    int32_t sudden_death
    int32_t deal[2]           # cards dealt to P0 (who moves first) and P1, each 1..8

ctypedef struct Rng:
    uint64_t s[4]             # xoshiro256** (see _rng.pxd)

ctypedef struct State:
    uint64_t hand[2]
    uint64_t points[2]        # point cards (bottom of their stack) by controller
    uint64_t permanents[2]    # Kings, Queens, glasses-8s
    uint64_t scrap
    uint64_t stacked          # point cards that carry at least one Jack
    uint64_t frozen[2]        # cards in hand that may not be played this turn
    uint64_t frozen_next[2]   # frozen from the owner's next turn on (own-side 9)
    uint64_t known_hand[2]    # cards player p knows are in the opponent's hand
    uint64_t known_deck       # deck cards whose place is public (9 to deck, a 7's leftover)
    Rng rng                   # the game's random stream (random four, deals)
    uint16_t jack_stacks[FIRST_JACK]  # on point card c: count | suit_i << (3 + 2i)
    int8_t deck[NCARDS]       # deck[deck_len - 1] is the top card
    int8_t stack[MAX_STACK]   # announced cards, oldest first
    int8_t revealed[2]        # a 7's revealed cards, top first
    int32_t deck_len
    int32_t stack_len
    int32_t n_revealed
    int32_t phase
    int32_t turn              # whose turn it is
    int32_t to_move           # who decides now
    int32_t turn_number
    int32_t passes            # consecutive passes
    int32_t winner            # -1: none
    int32_t end_reason
    int32_t last_turn         # sudden death: the game ends after this turn (-1: not running)
    int32_t target            # the target of the announced one-off / scuttle (-1: none)
    int32_t actor             # who announced the one-off / scuttle on the stack


# -- cards and masks ----------------------------------------------------------------

cdef inline int deck_size(int joker) noexcept nogil:
    # The cards in play: 52, or 53 with the `joker` flag (the joker is index 52).
    # Python reads it as cuttle._core.n_cards.
    return NCARDS if joker else NCARDS - 1

cdef inline uint64_t bit(int c) noexcept nogil:
    return (<uint64_t>1) << c

cdef inline int rank_of(int c) noexcept nogil:
    # The rank index of natural index c = rank index * 4 + suit: 0 = Ace ... 12 = King,
    # 13 the joker.  Python's Card.rank is the card's number, the rank index + 1 (the
    # one conversion: cuttle._core.rank_and_suit).
    return c >> 2

cdef inline int suit_of(int c) noexcept nogil:
    # 0 clubs, 1 diamonds, 2 hearts, 3 spades (the order of the natural index).
    return c & 3

cdef inline int popcount(uint64_t x) noexcept nogil:
    return cu_popcount(x)

cdef inline int lowest(uint64_t x) noexcept nogil:
    return cu_ctz(x)

# -- the move codec (the only place that packs and unpacks moves) -----------------------

cdef inline uint32_t mk(int verb, int card, int target) noexcept nogil:
    return <uint32_t>(verb | (card << MOVE_CARD_SHIFT) | (target << MOVE_TARGET_SHIFT))

cdef inline int mv_verb(uint32_t m) noexcept nogil:
    return m & 15

cdef inline int mv_card(uint32_t m) noexcept nogil:
    return (m >> MOVE_CARD_SHIFT) & 63

cdef inline int mv_target(uint32_t m) noexcept nogil:
    return (m >> MOVE_TARGET_SHIFT) & 63

# -- Jack stacks: jack_stacks[c] = count | suit_i << (3 + 2 i), bottom first ---------------------

cdef inline int jcount(const State* s, int c) noexcept nogil:
    return s.jack_stacks[c] & 7

cdef inline int jack_at(const State* s, int c, int i) noexcept nogil:
    # The i-th Jack (0 = bottom) on point card c.
    return FIRST_JACK + ((s.jack_stacks[c] >> (3 + 2 * i)) & 3)

cdef inline int jtop(const State* s, int c) noexcept nogil:
    return jack_at(s, c, (s.jack_stacks[c] & 7) - 1)

cdef inline int controller_of_point(const State* s, int c) noexcept nogil:
    return 0 if (s.points[0] & bit(c)) else 1

cdef inline void flip_control(State* s, int c) noexcept nogil:
    s.points[0] ^= bit(c)
    s.points[1] ^= bit(c)

cdef inline void jack_push(State* s, int c, int jack) noexcept nogil:
    cdef int n = s.jack_stacks[c] & 7
    s.jack_stacks[c] = <uint16_t>((s.jack_stacks[c] & ~7) | (n + 1) | ((jack & 3) << (3 + 2 * n)))
    s.stacked |= bit(c)
    flip_control(s, c)

cdef inline int jack_pop(State* s, int c) noexcept nogil:
    cdef int top = jtop(s, c)
    cdef int n = (s.jack_stacks[c] & 7) - 1
    s.jack_stacks[c] = <uint16_t>((s.jack_stacks[c] & ~(7 | (3 << (3 + 2 * n)))) | n)
    if n == 0:
        s.jack_stacks[c] = 0
        s.stacked &= ~bit(c)
    flip_control(s, c)
    return top

cdef inline void scrap_jacks(State* s, int c) noexcept nogil:
    # Scrap a point card's Jacks without changing who controls it.
    cdef int n = s.jack_stacks[c] & 7
    cdef int i
    for i in range(n):
        s.scrap |= bit(jack_at(s, c, i))
    s.jack_stacks[c] = 0
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
