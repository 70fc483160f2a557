# cython: language_level=3
# The expert's evaluation weights: the weights by name (EW_...), the sets that the expert
# and the search's leaf values read (EvalWeights, with the tables built from them), and
# their accessors.  _expert evaluates with them; setting them is for tuning and
# experiments (_weights.pyx).

from libc.stdint cimport uint64_t

cdef enum:
    N_WEIGHTS = 32            # the evaluation's weights: EvalWeights.w (EXPERT_WEIGHTS)
    EW_PROG = 0               # a point of progress, on a 21-point scale
    EW_WIN = 1                # the opponent holding a card that wins at once
    EW_KING = 2               # a King beyond the points it saves
    EW_QUEEN = 3
    EW_GLASSES = 4
    EW_AVG = 5                # a card in hand whose identity is not known
    EW_MYWIN = 6              # share of the player's own best next move
    EW_MYWIN_P = 7            # the player holding a card that wins next turn
    EW_NINE = 8               # a 9's damage relative to a 2's
    EW_COUNTERED = 9          # share of a one-off threat left when the player can counter
    EW_SEVEN = 10             # a 7's revealed card, to be played
    EW_THREAT = 11            # weight of the opponent's expected best reply
    EW_OPP_HAND = 12          # weight of the opponent's hand relative to the player's
    EW_CROWD = 13             # each card in a hand beyond six (hoarding)
    EW_TEMPO = 14             # position_value only: added for the player not deciding
    EW_HAND = 16              # EW_HAND + rank: a card of that rank in hand (13: joker)

# The weights of the search's leaf value (SearchConfig.leaf): a copy of the expert's, or
# the set fitted to predict who wins (_weights.pyx, LEAF_WEIGHTS).
cdef enum:
    LEAF_EXPERT = 0
    LEAF_FITTED = 1
    N_LEAVES = 2

ctypedef struct EvalWeights:
    # The evaluation's weights (w[EW_...]) and the tables built from them (own_tables).
    double w[N_WEIGHTS]
    # own_best[n][held]: the best gain of playing a point card of a rank in the 10-bit
    # mask `held` for points when n more points are needed (n = 10: ten or more), as
    # own_hand_best values it (a table, not a loop whose exit the processor cannot
    # predict).
    double own_best[11][1024]
    # hand_v[j][b]: the summed hand weights of the cards in byte b of a card mask's byte j.
    double hand_v[8][256]

# The expert's set (its moves, and the search's priors).
cdef const EvalWeights* expert_weights() noexcept nogil
# The set of leaf value `leaf` (LEAF_EXPERT or LEAF_FITTED; position_value).
cdef const EvalWeights* leaf_weights(int leaf) noexcept nogil

cdef inline double hand_value(const EvalWeights* ew, uint64_t m) noexcept nogil:
    # The summed hand weights of the cards in m: eight lookups, no branch.
    return (ew.hand_v[0][m & 255] + ew.hand_v[1][(m >> 8) & 255] +
            ew.hand_v[2][(m >> 16) & 255] + ew.hand_v[3][(m >> 24) & 255] +
            ew.hand_v[4][(m >> 32) & 255] + ew.hand_v[5][(m >> 40) & 255] +
            ew.hand_v[6][(m >> 48) & 255] + ew.hand_v[7][m >> 56])
