# cython: language_level=3
# The play loop of the native core, in one place.  play_until plays the moves of the
# seats that a policy without a search decides (random, greedy, expert, cards-ai) until the game
# ends, the move cap is reached, or a seat decided elsewhere must move -- a search (which
# keeps its tree: _policies.play_seats), a Python callable, a learning agent -- and says
# which by a status code that every caller checks.  Every loop over moves is built on it:
# _policies.play_out (simulated games, analysis rollouts), the search's playouts,
# VectorEnv's opponent, and (through Game.next_decision) games played from Python and
# GymEnv.

from libc.stdint cimport uint32_t
from cuttle._state cimport State, CRules, Rng, PH_MAIN, PH_OVER, END_MOVE_CAP

# play_until's status, and that of the loops built on it (Python: PlayStatus).
cpdef enum PlayStatus:
    PLAY_OVER = 0             # the game is over
    PLAY_CAP = 1              # the move cap is reached and the game goes on
    PLAY_DECIDE = 2           # the seat to move (s.to_move) is decided elsewhere
    PLAY_LOG_FULL = 3         # the move log is full: empty it and call again
    PLAY_STOPPED = 4          # Ctrl-C cut a search short: its move is not played (a
                              # game with a record only: _policies.play_seats)
    PLAY_NO_MEMORY = -1       # a search could not allocate its tree (_policies.play_seats)

cpdef enum:
    SEAT_ELSEWHERE = -1       # a seat's policy code: decided by the caller

# The move cap of a game played out natively: a game still running after this many
# moves (both players') ends as a draw (END_MOVE_CAP, by end_by_cap).  It applies to
# simulate/compare (their default max_moves, cuttle.simulation.DEFAULT_MAX_MOVES), to
# analysis rollouts and to the search's playouts to the end.  Games end on their own
# long before (random players need at most a few hundred moves): the cap only stops a
# pathological loop.  (Learning environments truncate episodes at their own cap,
# cuttle.rl.DEFAULT_MAX_MOVES; a Game has none unless given max_moves.)
cpdef enum:
    GAME_MOVE_CAP = 10000

ctypedef struct MoveLog:
    # The moves play_until applies, for a caller that follows them (a search reusing its
    # tree): moves[0 .. n), room for `room`.  (_policies.play_out's record of a whole
    # game is one too, its buffer malloc'ed and grown there.)
    uint32_t* moves
    int n
    int room

# The move of a policy that does not search (greedy, expert, cuttle.cards-ai, else
# uniform from the list) among the n >= 2 moves in buf.
cdef uint32_t plain_move(State* s, const CRules* r, int policy, Rng* g, uint32_t* buf,
                         int n) noexcept nogil

# Play the moves of the seats whose policy (seats[0], seats[1]) does not search, each
# drawing from g, counting them in k[0], until the game is over (PLAY_OVER), k[0]
# reaches cap (PLAY_CAP: the game is left running), or a seat whose policy searches or
# is SEAT_ELSEWHERE must move (PLAY_DECIDE).  With a log, every move is appended to it
# (PLAY_LOG_FULL once it is full, before the move).
cdef int play_until(State* s, const CRules* r, const int* seats, Rng* g, int* k, int cap,
                    MoveLog* log) noexcept nogil

cdef inline void end_by_cap(State* s) noexcept nogil:
    # A game still running at its move cap ends as a draw.  Its last turn is the last one
    # with a move in it: a turn still in its main phase has none yet (its number was
    # counted when the turn before it ended).
    if s.phase == PH_MAIN and s.turn_number > 0:
        s.turn_number -= 1
    s.phase = PH_OVER
    s.end_reason = END_MOVE_CAP
