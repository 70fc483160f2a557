# cython: language_level=3
# The native policies' contract: a policy is an int, kind | parameter << POLICY_SHIFT
# (the codes: POL_* in _state.pxd), and picks a legal move for the player to decide
# from what that player may know, drawing randomness from its own stream.  The
# policies' own modules: _sampler (random), _greedy, _expert, _search (ISMCTS).

from libc.stdint cimport uint32_t
from cuttle._state cimport State, CRules, Rng
from cuttle._search cimport Tree, tree_clear
from cuttle._playout cimport MoveLog

cdef enum:
    MAX_SINCE = 256           # moves between two searches of a seat that reuse follows

ctypedef struct SearchSeats:
    # The trees of the seats that search, kept between their decisions in one game, and
    # each seat's moves since its last search (both players'), which tree_advance follows.
    Tree trees[2]
    uint32_t since[2][MAX_SINCE]
    int nsince[2]             # beyond MAX_SINCE the tree is dropped

cdef inline void remember(SearchSeats* kept, const uint32_t* moves, int n) noexcept nogil:
    # Add moves played (by anyone, decided anywhere) to each seat's moves since its last
    # search.
    cdef int i, p
    for i in range(n):
        for p in range(2):
            if kept.nsince[p] < MAX_SINCE:
                kept.since[p][kept.nsince[p]] = moves[i]
            kept.nsince[p] += 1

cdef inline void seats_clear(SearchSeats* kept) noexcept nogil:
    # A new game: no tree, nothing seen, nothing since (the trees' memory freed).
    cdef int p
    for p in range(2):
        tree_clear(&kept.trees[p])
        kept.nsince[p] = 0

# The move `policy` picks among the n legal moves in buf (n >= 1), or MOVE_NO_MEMORY
# (no move code is that large) when a search cannot allocate its tree (a fresh one).
cdef uint32_t choose_move(State* s, const CRules* r, int policy, Rng* g,
                          uint32_t* buf, int n) noexcept nogil

# _playout.play_until for any policies: a seat that searches decides here too (with its
# tree kept in `kept`, or a fresh tree each decision when kept is NULL).  Returns
# PLAY_OVER, PLAY_CAP, PLAY_DECIDE (a SEAT_ELSEWHERE seat must move) or PLAY_NO_MEMORY.
# `record` (NULL: none) receives every move played, in order (see play_out); with one,
# a search that Ctrl-C may have cut short (its batch stopped: _signals.stop_seen) ends
# the game unfinished, its move not played (PLAY_STOPPED), so that the record holds
# only moves the game would play without the Ctrl-C.
cdef int play_seats(State* s, const CRules* r, const int* seats, Rng* g, int* k, int cap,
                    SearchSeats* kept, MoveLog* record) noexcept nogil

# Play to the end, seat 0 by pol0 and seat 1 by pol1 (a searching seat keeps its tree
# between its decisions); a game still running after max_moves moves ends as a draw
# (END_MOVE_CAP).  The moves made go to moves[0]; returns PLAY_OVER, or PLAY_NO_MEMORY
# when a search ran out of memory (the game is then left unfinished).  With a `record`
# (NULL in every batch: it costs nothing then), every move is appended to it, its
# buffer malloc'ed by the caller and grown with realloc (PLAY_NO_MEMORY if that
# fails); the same moves, drawn from the same streams, as without it, unless Ctrl-C
# stops the game (PLAY_STOPPED, play_seats: the game is left unfinished).
cdef int play_out(State* s, const CRules* r, int pol0, int pol1, Rng* g, int max_moves,
                  int* moves, MoveLog* record) noexcept nogil
