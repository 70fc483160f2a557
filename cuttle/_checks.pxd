# cython: language_level=3
# The contract of the checks of a state from outside (_checks.pyx): whether a pickled or
# written state is one the rules can reach, and if not its first problem, before any
# rules function (_engine) indexes with its fields.

from libc.stdint cimport uint64_t
from cuttle._state cimport State, CRules

# check_state's answer for a state from outside (a pickle, a position): STATE_OK when
# it is sound (every field in range, every card in exactly one place, each freeze one a
# 9 makes, each phase with what it needs), else its first problem.  Python: StateError,
# and state_error(code), the problem in words (_checks.pyx).
cpdef enum StateError:
    STATE_OK = 0
    BAD_LENGTH = 1            # a deck, stack or reveal length is out of range
    BAD_FIELD = 2             # a phase, player, count or target is out of range
    CARD_TWICE = 3            # a card in two places (or no card of these rules)
    NOT_A_POINT_CARD = 4      # a point card that is not an Ace to Ten
    NOT_A_PERMANENT = 5       # a permanent that is not a King, Queen or Eight
    BAD_JACK_STACK = 6
    CARD_MISSING = 7
    MISPLACED_KNOWLEDGE = 8   # a frozen or known card not where it should be, or a
                              # frozen card its opponent does not know
    PHASE_MISMATCH = 9        # the phase does not match the stack, reveal or decider
    TARGET_NOT_ON_TABLE = 10  # an announced card's target is not on the table
    BAD_ENDING = 11           # the end of the game is inconsistent
    RULES_MISMATCH = 12       # a phase, card on the stack or countdown these rules
                              # (or that phase) cannot have
    NO_LEGAL_MOVE = 13        # a game not over whose player to decide has no move
    OVER_HAND_LIMIT = 14      # at a turn's start, the player not to move above the
                              # hand limit, which its own turn ended at (discard mode)
    # a freeze no 9 makes (check_freezes, the one home of which freezes are possible):
    FROZEN_WITHOUT_FREEZE = 15   # a frozen card under rules whose 9 freezes nothing
    FROZEN_JOKER = 16            # no 9 returns the joker to a hand
    FROZEN_POINT_CARD = 17       # nor a point card without nine_targets_points
    FROZEN_BY_OWN_NINE = 18      # its own player's 9 froze it, without targets_own_side
    FROZEN_BEFORE_NINE = 19      # this turn's 9 froze it, yet none has taken effect
    FROZEN_BY_ONE_NINE = 20      # two cards only one 9 could have frozen
    TOO_MANY_FROZEN = 21         # more than the 9s of the last two turns could freeze
    FROZEN_WITHOUT_NINE = 22     # the 9 that froze it neither in the scrap nor taken
                                 # back by a 3 since

cdef int check_state(const State* s, const CRules* r) noexcept nogil

# Which freezes a 9 makes, check_state's part that answers with a FROZEN_ code (or
# STATE_OK), and the cards behind it, for its words (freezes.freeze_words): whose they
# are (-1: both players'), and whether only this turn's 9 could have frozen them; for
# FROZEN_WITHOUT_NINE, the 9s and 3s in the scrap and whether a 3 since the freezes can
# have taken one of their 9s back (took).
cdef struct FreezeFault:
    int player
    uint64_t cards
    int this_turn
    uint64_t nines
    uint64_t threes
    int took

cdef int check_freezes(const State* s, const CRules* r, FreezeFault* f) noexcept nogil

