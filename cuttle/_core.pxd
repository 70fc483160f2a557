# cython: language_level=3
# The C-level data of the native core: the rules as flags, the whole game state as
# bitmasks and packed arrays, the move encoding and the random stream.  Everything here
# is plain C so that move generation, move application and whole playouts run nogil.

from libc.stdint cimport uint64_t, uint32_t, uint16_t, int8_t, int32_t

cdef enum:
    NCARDS = 53          # 52 + the joker (its bit is unused without the `joker` flag)
    JOKER = 52
    NO_CARD = 63         # "no card" in a move's card/target field
    MAX_MOVES = 2048     # the largest legal-move list: the 4's C(hand, 2) discards
    MAX_STACK = 16

# Phases: exactly one player decides in each.
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

# Move verbs.  A move is packed into 16 bits: verb | card << 4 | target << 10.
# For `discard` of two cards (the 4) the second card sits in the target field.
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

# How a game ended.
cdef enum:
    END_NONE = 0
    END_GOAL = 1
    END_PASSES = 2
    END_SUDDEN_DEATH = 3
    END_MOVE_CAP = 4

ctypedef struct CRules:
    int32_t goals[5]          # goal by number of Kings controlled (0..4)
    int32_t hand_limit        # -1: none
    int32_t limit_no_draw     # hand_limit_mode == "no_draw"
    int32_t five_cc           # five == "discard1_draw3"
    int32_t seven_top2        # seven == "top2"
    int32_t nine_mode         # 0 return, 1 freeze, 2 topdeck
    int32_t nine_points       # nine_targets_points
    int32_t own_side          # targets_own_side
    int32_t three_threes      # three_takes_threes
    int32_t strict            # strict_oneoffs
    int32_t four_mode         # 0 choice, 1 random, 2 draw
    int32_t qpq               # queens_protect_queens
    int32_t queen_stops_scuttles
    int32_t one_queen
    int32_t eight_breaks
    int32_t ten_blocks
    int32_t ten_discards
    int32_t strict_scuttle
    int32_t joker
    int32_t sudden_death
    int32_t open_hands
    int32_t reveal_empty      # reveal_on_empty_deck

ctypedef struct Rng:
    uint64_t s[4]             # xoshiro256**

ctypedef struct State:
    uint64_t hand[2]
    uint64_t points[2]        # point cards (bottom of their stack) by controller
    uint64_t perm[2]          # Kings, Queens, glasses-8s
    uint64_t scrap
    uint64_t stacked          # point cards that carry at least one Jack
    uint64_t frozen[2]        # cards in hand that may not be played this turn
    uint64_t frozen_next[2]   # frozen from the owner's next turn on (own-side 9)
    uint64_t known_hand[2]    # cards player p knows are in the opponent's hand
    uint64_t known_deck       # deck cards whose place is public (9 to deck, a 7's leftover)
    Rng rng                   # the game's random stream (random four, deals)
    uint16_t jst[40]          # Jack stack on point card c: count | suit_i << (3 + 2i)
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
    int32_t sd_end            # sudden death: the game ends after this turn (-1: not running)
    int32_t target            # the target of the announced one-off / scuttle (-1: none)
    int32_t actor             # who announced the one-off / scuttle on the stack

cdef int gen_moves(const State* s, const CRules* r, uint32_t* out) noexcept nogil
cdef void apply_move(State* s, const CRules* r, uint32_t m) noexcept nogil
cdef int score(const State* s, int p) noexcept nogil
cdef int goal(const State* s, const CRules* r, int p) noexcept nogil
cdef uint64_t rng_next(Rng* g) noexcept nogil
cdef uint64_t rng_below(Rng* g, uint64_t n) noexcept nogil
cdef void rng_seed(Rng* g, uint64_t seed, uint64_t stream) noexcept nogil
