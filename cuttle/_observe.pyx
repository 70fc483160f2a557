# cython: language_level=3
"""The observation encoding, natively (see _observe.pxd): for one game or a batch of
games, written straight into float32 numpy buffers.  Observation.to_array() in
cuttle/observation.py is the readable specification of the same values."""

from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset
from cython.parallel cimport prange

import numpy as np
cimport numpy as cnp

from cuttle._state cimport *
from cuttle._engine cimport (score, goal, hand_is_public, frozen_now, frozen_next_turn,
                            pending_target)
from cuttle._core cimport CoreGame
from cuttle.threads import check_threads, thread_count
from cuttle.validation import check_player as check_player_value, is_int

cnp.import_array()

OBSERVATION_SIZE = OBS_SIZE

# Plane order (the names are cuttle.observation.PLANES, then LATE_PLANES).
cdef enum:
    PL_OWN_HAND = 0
    PL_OPP_KNOWN = 1
    PL_OWN_POINTS = 2
    PL_OPP_POINTS = 3
    PL_OWN_PERM = 4
    PL_OPP_PERM = 5
    PL_JACK_OWN = 6
    PL_JACK_OPP = 7
    PL_SCRAP = 8
    PL_DECK_KNOWN = 9
    PL_REVEALED = 10
    PL_STACK = 11
    PL_OWN_FROZEN = 12
    PL_UNKNOWN = 13
    PL_OPP_FROZEN = 14               # the late planes, after the phase
    PL_OWN_FROZEN_NEXT = 15
    PL_OPP_FROZEN_NEXT = 16
    PL_DECK_DEPTH = 17


cdef inline float* plane(float* out, int k) noexcept nogil:
    # Where plane k starts: the first OBS_PLANES open the vector, the rest follow the phase.
    if k < OBS_PLANES:
        return out + NCARDS * k
    return out + OBS_LATE + NCARDS * (k - OBS_PLANES)


cdef inline void mark(float* plane, uint64_t m) noexcept nogil:
    while m:
        plane[lowest(m)] = 1.0
        m &= m - 1


cdef inline uint64_t jacks_on(const State* s, uint64_t points) noexcept nogil:
    cdef uint64_t m = s.stacked & points
    cdef uint64_t out = 0
    cdef int c, i
    while m:
        c = lowest(m)
        m &= m - 1
        for i in range(jcount(s, c)):
            out |= bit(jack_at(s, c, i))
    return out


cdef void encode_observation(const State* s, const CRules* r, int me,
                             float* out) noexcept nogil:
    cdef int opp = me ^ 1
    cdef int i, c, j
    cdef uint64_t known, deck_known = 0, revealed = 0, stack = 0, seen, every, m
    cdef float* depth = plane(out, PL_DECK_DEPTH)
    memset(out, 0, OBS_SIZE * sizeof(float))
    # What `me` knows of the opponent's hand (all of it while it is public).
    known = s.hand[opp] if hand_is_public(s, r, opp) else (s.known_hand[me] & s.hand[opp])
    for i in range(s.deck_len):
        if s.known_deck & bit(s.deck[i]):
            deck_known |= bit(s.deck[i])
            # (depth from the top + 1) / 52, in double and rounded once, as numpy does
            depth[s.deck[i]] = <float>((s.deck_len - i) / 52.0)
    for i in range(s.n_revealed):
        revealed |= bit(s.revealed[i])
    for i in range(s.stack_len):
        stack |= bit(s.stack[i])
    mark(plane(out, PL_OWN_HAND), s.hand[me])
    mark(plane(out, PL_OPP_KNOWN), known)
    mark(plane(out, PL_OWN_POINTS), s.points[me])
    mark(plane(out, PL_OPP_POINTS), s.points[opp])
    mark(plane(out, PL_OWN_PERM), s.permanents[me])
    mark(plane(out, PL_OPP_PERM), s.permanents[opp])
    mark(plane(out, PL_JACK_OWN), jacks_on(s, s.points[me]))
    mark(plane(out, PL_JACK_OPP), jacks_on(s, s.points[opp]))
    mark(plane(out, PL_SCRAP), s.scrap)
    mark(plane(out, PL_DECK_KNOWN), deck_known)
    mark(plane(out, PL_REVEALED), revealed)
    mark(plane(out, PL_STACK), stack)
    # Freezes are public (a 9's return): both sides', now and in their next turn.
    mark(plane(out, PL_OWN_FROZEN), frozen_now(s, me))
    mark(plane(out, PL_OPP_FROZEN), frozen_now(s, opp))
    mark(plane(out, PL_OWN_FROZEN_NEXT), frozen_next_turn(s, me))
    mark(plane(out, PL_OPP_FROZEN_NEXT), frozen_next_turn(s, opp))
    seen = s.hand[me] | known | s.points[0] | s.points[1] | s.permanents[0] | s.permanents[1] | \
        jacks_on(s, s.points[0] | s.points[1]) | s.scrap | deck_known | revealed | stack
    every = bit(deck_size(r.joker)) - 1
    mark(plane(out, PL_UNKNOWN), every & ~seen)
    # Where each Jack lies (every stack is public): the point card under it, one-hot, and
    # its height in that stack, 1 (the bottom) to 4, / 4; what a 9 or 2 on a top Jack
    # acts on, and whose a point card is, follow from the stack, not only from its Jacks.
    m = s.stacked & (s.points[0] | s.points[1])
    while m:
        c = lowest(m)
        m &= m - 1
        for i in range(jcount(s, c)):
            j = jack_at(s, c, i) - FIRST_JACK
            out[OBS_JACK_ON + FIRST_JACK * j + c] = 1.0
            out[OBS_JACK_HEIGHT + j] = <float>((i + 1) / <double>MAX_JACKS)
    # What the move waiting on the stack targets (public: the responder's question).
    c = pending_target(s)
    if c >= 0:
        out[OBS_TARGET + c] = 1.0
    # Scalars: computed in double and rounded once to float, as numpy does.
    out[OBS_SCALARS + 0] = <float>(s.deck_len / 52.0)
    out[OBS_SCALARS + 1] = <float>(popcount(s.hand[me]) / 52.0)
    out[OBS_SCALARS + 2] = <float>(popcount(s.hand[opp]) / 52.0)
    out[OBS_SCALARS + 3] = <float>(score(s, me) / 21.0)
    out[OBS_SCALARS + 4] = <float>(score(s, opp) / 21.0)
    out[OBS_SCALARS + 5] = <float>(goal(s, r, me) / 21.0)
    out[OBS_SCALARS + 6] = <float>(goal(s, r, opp) / 21.0)
    out[OBS_SCALARS + 7] = <float>(s.stack_len / 52.0)
    out[OBS_SCALARS + 8] = 1.0 if s.turn == me else 0.0
    out[OBS_SCALARS + 9] = 1.0 if (s.phase != PH_OVER and s.to_move == me) else 0.0
    out[OBS_PHASE + s.phase] = 1.0


cdef int check_player(int player) except -1:
    if player != 0 and player != 1:
        raise ValueError(f"player must be 0 or 1, not {player!r}")
    return 0


def observation(CoreGame game, int player):
    """A new float32 array: `player`'s observation of `game`."""
    check_player(player)
    cdef cnp.npy_intp size = OBS_SIZE
    cdef cnp.ndarray out = cnp.PyArray_EMPTY(1, &size, cnp.NPY_FLOAT32, 0)
    encode_observation(&game.st, &game.cr, player, <float*>cnp.PyArray_DATA(out))
    return out


def observe(CoreGame game, int player, object out):
    """Write `player`'s observation of `game` into `out`, a writable C-contiguous
    float32 array of shape (OBSERVATION_SIZE,), and return it; ValueError, nothing
    written, for any other `out`.  (Checked on the array's header: acquiring a typed
    memoryview cost more than a new array.)"""
    check_player(player)
    cdef cnp.ndarray a
    if not isinstance(out, cnp.ndarray):
        raise ValueError(_OUT_NEEDED)
    a = <cnp.ndarray>out
    if cnp.PyArray_TYPE(a) != cnp.NPY_FLOAT32 or cnp.PyArray_NDIM(a) != 1 or \
            cnp.PyArray_DIM(a, 0) != OBS_SIZE or not cnp.PyArray_IS_C_CONTIGUOUS(a) or \
            not cnp.PyArray_ISWRITEABLE(a) or not cnp.PyArray_ISALIGNED(a) or \
            not cnp.PyArray_ISNOTSWAPPED(a):
        raise ValueError(_OUT_NEEDED)
    encode_observation(&game.st, &game.cr, player, <float*>cnp.PyArray_DATA(a))
    return out


_OUT_NEEDED = (f"out must be a writable contiguous float32 array of shape "
               f"({OBS_SIZE},)")


def observe_many(games, players, float[:, ::1] out, threads=0):
    """Write observation k of `games[k]` for `players[k]` into row k of `out`
    (float32, (len(games), OBSERVATION_SIZE)), over `threads` cores (0 or None: all).
    ValueError, nothing written, for a player that is not 0 or 1 (bools too) or a
    thread count below 0."""
    cdef Py_ssize_t n = len(games), k
    cdef int n_threads = 0 if is_int(threads) and threads == 0 else check_threads(threads)
    if len(players) != n or out.shape[0] != n or out.shape[1] != OBS_SIZE:
        raise ValueError(f"need one player per game and an output of shape ({n}, "
                         f"{OBS_SIZE}), got {len(players)} players and "
                         f"{(out.shape[0], out.shape[1])}")
    if n == 0:
        return
    cdef const State** st = <const State**>malloc(n * sizeof(State*))
    cdef const CRules** cr = <const CRules**>malloc(n * sizeof(CRules*))
    cdef int* pl = <int*>malloc(n * sizeof(int))
    cdef CoreGame g
    try:
        if st == NULL or cr == NULL or pl == NULL:
            raise MemoryError()
        for k in range(n):
            g = games[k]
            p = players[k]
            if type(p) is not int or not (p == 0 or p == 1):   # (the common case first)
                p = check_player_value(p, f"players[{k}]")   # numpy ints, or the error
            pl[k] = p
            st[k] = &g.st
            cr[k] = &g.cr
        n_threads = thread_count(n_threads)
        # The games list keeps every game (and so every State) alive meanwhile.
        for k in prange(n, nogil=True, num_threads=n_threads, schedule="static"):
            encode_observation(st[k], cr[k], pl[k], &out[k, 0])
    finally:
        free(st)
        free(cr)
        free(pl)
