# cython: language_level=3
# Native batches' contract: the whole games of a seeded run reduced to exact sufficient
# statistics (Tally, PairTally; play_units returns them to Python as dicts), per-game
# rows (new_rows has their layout), and the run being played.

from libc.stdint cimport uint64_t, int64_t, int32_t, int16_t, int8_t
from cuttle._state cimport CRules, END_MOVE_CAP

cpdef enum:
    MAX_UNITS_PER_CALL = 1 << 24  # units per call (keeps every per-call sum inside 64 bits)
    MAX_RULE_SETS = 256           # rule sets per call (their pair tallies grow as the square)

cdef enum:
    N_END = END_MOVE_CAP + 1
    LENGTH_BINS = 512          # histogram bins of moves and turns; the last one is ">="
    N_MOMENTS = 4              # moves, turns, score A, score B
    N_PAIRED = 7               # win_A, win_B, draw, first_mover, match_win_A/_B, match_draw
    # A match run's game figures, paired by match (tally.MATCH_PAIRED, in this order):
    # A's wins, B's wins, draws, the first mover's wins, moves, turns.  Per figure, over
    # the matches, with y a match's sum of the figure over its games and n its games
    # (i, j: the two rule sets): y_i, y_j, y_i^2, y_i n_i, y_j^2, y_j n_j, y_i y_j,
    # y_i n_j, n_i y_j; and matches, n_i, n_j, n_i^2, n_j^2, n_i n_j.
    N_MATCH_FIGURES = 6
    N_MATCH_SUMS = 9
    N_MATCH_UNITS = 6
    MAX_TALLY_BYTES = 1 << 28  # all threads' accumulators of one call

ctypedef struct Wide:              # an unsigned 128-bit sum of squares, lo + hi * 2**64
    uint64_t lo
    uint64_t hi

ctypedef struct Tally:
    int64_t counts[3][2][N_END]   # [winner + 1][who moved first][end reason]
    int64_t sums[N_MOMENTS]
    Wide squares[N_MOMENTS]
    int64_t lengths[2][LENGTH_BINS]
    int64_t match_counts[3][2]     # [match winner + 1][who moved first in its first game]
    int64_t match_games[2]         # sum and sum of squares of games per match

ctypedef struct PairTally:         # rule sets i < j on the same units
    int64_t table[N_PAIRED][4]     # [metric][x_i * 2 + x_j]
    int64_t diff_sums[2]           # moves, turns: sum of (x_i - x_j)
    Wide diff_squares[2]

ctypedef struct MatchPair:         # rule sets i < j on the same matches (match runs only)
    Wide sums[N_MATCH_FIGURES][N_MATCH_SUMS]
    Wide units[N_MATCH_UNITS]

ctypedef struct GameOut:
    int moves
    int32_t turns
    int16_t score[2]               # A, B
    int8_t winner                  # 0 = A, 1 = B, -1 = draw
    int8_t first                   # who moved first (0 = A)
    int8_t end

ctypedef struct UnitOut:           # one unit under one rule set, for the pair tallies
    GameOut game                   # the game (single games only)
    int8_t match_winner
    int64_t match_games            # a match: its games played, and their sums of the
    int64_t match_sums[N_MATCH_FIGURES]    # game figures (MatchPair's order)

ctypedef struct Rows:              # optional per-game rows (NULL: not kept), new_rows'
    int8_t* winner
    int8_t* first
    int32_t* moves
    int32_t* turns
    int16_t* scores
    int8_t* end
    int8_t* m_winner               # per unit, for matches
    int8_t* m_first
    int8_t* m_games
    int8_t* m_wins

ctypedef struct Run:               # what identifies the games of a call but their rules
    uint64_t seed
    Py_ssize_t start               # the first unit
    int pol_a, pol_b               # players A and B
    int swap                       # A moves first in even-numbered games (else always)
    int max_moves
    int need, slots                # a match: wins needed, game indices owned (0, 1: games)
    int tally                      # tally the games (else rows only)
    volatile int* no_memory        # set when a search could not allocate its tree

ctypedef struct Batch:             # a call's rule sets and every thread's accumulators
    CRules* rs
    int* pols                      # per rule set its players A and B: pols[2i], pols[2i+1]
    Tally* tallies                 # thread q, rule set i: tallies[q * tstride + i]
    PairTally* pairs
    MatchPair* match_pairs         # match runs only (else NULL), as `pairs`
    UnitOut* scratch
    Rows* rows                     # per rule set
    Py_ssize_t n_rules, n_pairs, tstride, pstride, sstride
    int threads

# w += a * b, exactly (128 bits); exported for the tests.
cdef void add_product(Wide* w, uint64_t a, uint64_t b) noexcept nogil
