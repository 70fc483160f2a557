# cython: language_level=3
"""The native policies' dispatcher: choose_move picks a move by any policy code,
play_seats plays a game on (a searching seat deciding with its tree) until a seat
decided elsewhere must move, and play_out plays a game out.  The play loop itself is
cuttle._playout's play_until; the policies live in _sampler (random), _greedy, _expert,
_cardsai (cuttle.cards-ai) and _search (ISMCTS); `POLICIES` names them for Python
(cuttle/policies.py parses the names).

Every policy sees only what its player may know: greedy reads the public table, hand
sizes and its own hand; expert works on a canonical view of its player's knowledge;
ISMCTS searches over determinizations of its player's view.  The one exception is
cuttle.cards-ai (_cardsai), the online game's AI reproduced as a FULL-INFORMATION
reference for the ladder: it reads both hands and the deck.
"""

from libc.stdint cimport uint32_t
from libc.stdlib cimport realloc

from cuttle._state cimport (State, CRules, Rng, MAX_MOVES, POL_RANDOM, POL_GREEDY,
                            POL_ISMCTS, POL_ISMCTS_RANDOM, POL_ISMCTS_INFER, POL_EXPERT,
                            POL_CARDS_AI, MOVE_NO_MEMORY, is_search)
from cuttle._state cimport POLICY_SHIFT as C_POLICY_SHIFT
from cuttle._engine cimport gen_moves, apply_move
from cuttle._search cimport tree_init, tree_clear, tree_drop, tree_advance, ismcts_move
from cuttle._playout cimport (MoveLog, play_until, plain_move, end_by_cap, PLAY_OVER,
                              PLAY_CAP, PLAY_DECIDE, PLAY_LOG_FULL, PLAY_NO_MEMORY,
                              PLAY_STOPPED)
from cuttle._signals cimport stop_seen

# name: (kind code, takes an iteration count)
POLICIES = {"random": (POL_RANDOM, False), "greedy": (POL_GREEDY, False),
            "ismcts": (POL_ISMCTS, True), "ismcts-random": (POL_ISMCTS_RANDOM, True),
            "ismcts-infer": (POL_ISMCTS_INFER, True), "expert": (POL_EXPERT, False),
            "cuttle.cards-ai": (POL_CARDS_AI, False)}   # reads hidden cards: a reference
POLICY_SHIFT = C_POLICY_SHIFT   # a policy code is kind | iterations << POLICY_SHIFT


cdef uint32_t choose_move(State* s, const CRules* r, int policy, Rng* g,
                          uint32_t* buf, int n) noexcept nogil:
    if n == 1:
        return buf[0]
    if is_search(policy):
        return ismcts_move(s, r, policy, g, buf, n, NULL)
    return plain_move(s, r, policy, g, buf, n)


cdef inline uint32_t search_move(State* s, const CRules* r, int policy, Rng* g,
                                 uint32_t* buf, int n, SearchSeats* kept) noexcept nogil:
    # A searching seat's move, its tree kept (advanced along the moves since its last
    # search, or dropped when they cannot be followed); MOVE_NO_MEMORY on failure.
    cdef int p = s.to_move
    if kept.nsince[p] > MAX_SINCE or tree_advance(&kept.trees[p], r, kept.since[p],
                                                   kept.nsince[p]) < 0:
        tree_drop(&kept.trees[p])
    kept.nsince[p] = 0
    return ismcts_move(s, r, policy, g, buf, n, &kept.trees[p])


cdef int record_moves(MoveLog* record, const uint32_t* moves, int n) noexcept nogil:
    # Append n moves to a caller's record, doubling its buffer when full; -1: no memory.
    cdef uint32_t* grown
    cdef int room, i
    if record.n + n > record.room:
        room = 64 if record.room < 32 else (
            2 * record.room if record.room < (1 << 29) else 0x7fffffff)
        if room < record.n + n:
            room = record.n + n
        grown = <uint32_t*>realloc(record.moves, room * sizeof(uint32_t))
        if grown == NULL:
            return -1
        record.moves, record.room = grown, room
    for i in range(n):
        record.moves[record.n + i] = moves[i]
    record.n += n
    return 0


cdef int play_seats(State* s, const CRules* r, const int* seats, Rng* g, int* k, int cap,
                    SearchSeats* kept, MoveLog* record) noexcept nogil:
    cdef uint32_t buf[MAX_MOVES]
    cdef uint32_t logged[MAX_SINCE]
    cdef MoveLog log
    cdef uint32_t m
    cdef int n, status
    log.moves = logged
    log.room = MAX_SINCE
    while True:
        log.n = 0
        status = play_until(s, r, seats, g, k, cap,
                            &log if (kept != NULL or record != NULL) else NULL)
        if kept != NULL:
            remember(kept, logged, log.n)
        if record != NULL and record_moves(record, logged, log.n) < 0:
            return PLAY_NO_MEMORY
        if status == PLAY_LOG_FULL:
            continue
        if status != PLAY_DECIDE or seats[s.to_move] < 0:
            return status
        # A searching seat decides.
        n = gen_moves(s, r, buf)
        if n == 1:
            m = buf[0]
        elif kept != NULL:
            m = search_move(s, r, seats[s.to_move], g, buf, n, kept)
        else:
            m = ismcts_move(s, r, seats[s.to_move], g, buf, n, NULL)
        if m == MOVE_NO_MEMORY:
            return PLAY_NO_MEMORY
        if record != NULL and n > 1 and stop_seen():
            return PLAY_STOPPED     # (a cut search's move is not the game's: not recorded)
        apply_move(s, r, m)
        if kept != NULL:
            remember(kept, &m, 1)
        if record != NULL and record_moves(record, &m, 1) < 0:
            return PLAY_NO_MEMORY
        k[0] += 1


cdef int play_out(State* s, const CRules* r, int pol0, int pol1, Rng* g, int max_moves,
                  int* moves, MoveLog* record) noexcept nogil:
    cdef int seats[2]
    cdef SearchSeats kept
    cdef int status, p
    seats[0] = pol0
    seats[1] = pol1
    moves[0] = 0
    if is_search(pol0) or is_search(pol1):
        for p in range(2):
            tree_init(&kept.trees[p])
            kept.nsince[p] = 0
        status = play_seats(s, r, seats, g, moves, max_moves, &kept, record)
        seats_clear(&kept)
    elif record != NULL:            # (play_seats' loop, for its log; no seat searches)
        status = play_seats(s, r, seats, g, moves, max_moves, NULL, record)
    else:
        status = play_until(s, r, seats, g, moves, max_moves, NULL)
    if status == PLAY_CAP:
        end_by_cap(s)
        return PLAY_OVER
    return status
