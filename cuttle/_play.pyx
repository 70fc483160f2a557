# cython: language_level=3
"""Native batches: whole games of a seeded run and rollout analyses, spread over all
cores (OpenMP prange).  (One decision for one game is `_decide`.)

Game i of a seeded run is dealt from stream deal_stream(i) of the seed and its players
draw from policy_stream(i) (_rng.pxd); rollout k of an analysis uses stream k of the
analysis seed for every move (common random numbers).  So every result depends only on
(seed, index), never on the thread count or how a run is cut into calls.
"""

from libc.stdint cimport uint64_t, uint32_t, int8_t, int16_t, int32_t, int64_t
from libc.stdlib cimport malloc, calloc, free
from cython.parallel cimport prange, threadid
from cpython.mem cimport PyMem_Malloc, PyMem_Free

import os
import numpy as np

from cuttle._state cimport *
from cuttle._rng cimport (rng_seed, derive_seed, deal_stream, policy_stream,
                          STREAM_DECISION, STREAM_PLAYOUT)
from cuttle._engine cimport gen_moves, apply_move, deal, score
from cuttle._hidden cimport determinize
from cuttle._policies cimport play_out
from cuttle._playout cimport PLAY_NO_MEMORY, GAME_MOVE_CAP
from cuttle._core cimport CoreGame
from cuttle._signals cimport poll_interrupt, reset_interrupt
from cuttle._signals import raise_if_interrupted


cdef inline int resolve_threads(int threads) noexcept:
    return threads if threads > 0 else (os.cpu_count() or 1)


# ---------------------------------------------------------------------------------------
# Whole games of a seeded run, reduced in the core to exact sufficient statistics.
#
# A call plays the units start .. start+count-1 of a run (a unit is a game, or a match
# owning the game indices j*slots .. j*slots+slots-1) under each of n_rules rule sets,
# on the same deals.  Every thread adds its games to its own Tally (one per rule set)
# and, for several rule sets, to PairTallies (one per pair of rule sets: the paired
# cross-tabulations that compare's intervals need); the threads' tallies are summed at
# the end.  All counts are exact integers, so the sums do not depend on the thread
# count or on the order games finish in.  Per-game rows are written only when asked.

cdef enum:
    N_END = END_MOVE_CAP + 1
    LENGTH_BINS = 512          # histogram bins of moves and turns; the last one is ">="
    N_MOMENTS = 4              # moves, turns, score A, score B
    N_PAIRED = 7               # win_A, win_B, draw, first_mover, match_win_A/_B, match_draw
    MAX_UNITS = 1 << 24        # units per call (keeps every per-call sum inside 64 bits)
    MAX_RULE_SETS = 256          # (their pair tallies grow as the square)
    MAX_TALLY_BYTES = 1 << 28    # all threads' accumulators of one call

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


cdef inline void add_wide(Wide* w, uint64_t v) noexcept nogil:
    w.lo += v
    if w.lo < v:
        w.hi += 1


cdef inline void merge_wide(Wide* w, const Wide* v) noexcept nogil:
    add_wide(w, v.lo)
    w.hi += v.hi


cdef inline void add_moment(Tally* t, int k, int64_t x) noexcept nogil:
    t.sums[k] += x
    add_wide(&t.squares[k], <uint64_t>(x * x))


# Set by any thread whose game's search ran out of memory; the batch then raises
# MemoryError (like _signals' interrupt, one flag: a batch is one call at a time).
cdef volatile int no_memory = 0


cdef inline void play_game(const CRules* r, uint64_t seed, uint64_t i, int pol_a, int pol_b,
                           int swap, int max_moves, GameOut* out) noexcept nogil:
    global no_memory
    cdef State s
    cdef Rng g
    cdef int a_seat = 1 if (swap and (i & 1)) else 0     # player A's seat (0 moves first)
    rng_seed(&s.rng, seed, deal_stream(i))
    deal(&s, r)
    rng_seed(&g, seed, policy_stream(i))
    if play_out(&s, r, pol_b if a_seat else pol_a, pol_a if a_seat else pol_b, &g,
                max_moves, &out.moves) == PLAY_NO_MEMORY:
        no_memory = 1                    # a search could not allocate its tree
    out.winner = -1 if s.winner < 0 else (s.winner ^ a_seat)
    out.first = a_seat
    out.turns = s.turn_number + 1
    out.score[0] = <int16_t>score(&s, a_seat)
    out.score[1] = <int16_t>score(&s, a_seat ^ 1)
    out.end = s.end_reason


cdef inline void tally_game(Tally* t, const GameOut* o) noexcept nogil:
    t.counts[o.winner + 1][o.first][o.end] += 1
    add_moment(t, 0, o.moves)
    add_moment(t, 1, o.turns)
    add_moment(t, 2, o.score[0])
    add_moment(t, 3, o.score[1])
    t.lengths[0][o.moves if o.moves < LENGTH_BINS else LENGTH_BINS - 1] += 1
    t.lengths[1][o.turns if o.turns < LENGTH_BINS else LENGTH_BINS - 1] += 1


cdef inline void pair_rate(PairTally* p, int metric, int xi, int xj) noexcept nogil:
    p.table[metric][xi * 2 + xj] += 1


cdef void tally_pair(PairTally* p, const UnitOut* a, const UnitOut* b,
                     int matches) noexcept nogil:
    cdef int64_t d
    cdef int k
    if matches:
        for k in range(3):      # match_win_A, match_win_B, match_draw
            pair_rate(p, 4 + k, a.match_winner == (k if k < 2 else -1),
                      b.match_winner == (k if k < 2 else -1))
        return
    pair_rate(p, 0, a.game.winner == 0, b.game.winner == 0)
    pair_rate(p, 1, a.game.winner == 1, b.game.winner == 1)
    pair_rate(p, 2, a.game.winner < 0, b.game.winner < 0)
    pair_rate(p, 3, a.game.winner >= 0 and a.game.winner == a.game.first,
              b.game.winner >= 0 and b.game.winner == b.game.first)
    d = <int64_t>a.game.moves - b.game.moves
    p.diff_sums[0] += d
    add_wide(&p.diff_squares[0], <uint64_t>(d * d))
    d = <int64_t>a.game.turns - b.game.turns
    p.diff_sums[1] += d
    add_wide(&p.diff_squares[1], <uint64_t>(d * d))


cdef struct Rows:                  # optional per-game rows (NULL: not kept)
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


cdef inline void keep_row(Rows* rows, Py_ssize_t k, const GameOut* o) noexcept nogil:
    rows.winner[k] = o.winner
    rows.first[k] = o.first
    rows.moves[k] = o.moves
    rows.turns[k] = o.turns
    rows.scores[2 * k] = o.score[0]
    rows.scores[2 * k + 1] = o.score[1]
    rows.end[k] = o.end


cdef void play_unit(const CRules* r, uint64_t seed, uint64_t u, int pol_a, int pol_b,
                    int swap, int max_moves, int need, int slots, Tally* t, UnitOut* out,
                    Rows* rows, Py_ssize_t k) noexcept nogil:
    """Unit u (a game, or a match when need > 0) under one rule set; k: its row."""
    cdef GameOut o
    cdef int s
    cdef int wins[2]
    cdef int played = 0
    cdef int8_t mw = -1
    if need == 0:
        play_game(r, seed, u, pol_a, pol_b, swap, max_moves, &out.game)
        if t != NULL:
            tally_game(t, &out.game)
        if rows.winner != NULL:
            keep_row(rows, k, &out.game)
        return
    # A match plays its games in index order until a player has `need` wins.
    wins[0] = 0
    wins[1] = 0
    for s in range(slots):
        play_game(r, seed, u * slots + s, pol_a, pol_b, swap, max_moves, &o)
        if t != NULL:
            tally_game(t, &o)
        if rows.winner != NULL:
            keep_row(rows, k * slots + s, &o)
        played += 1
        if s == 0:
            if rows.winner != NULL:
                rows.m_first[k] = o.first
            out.game.first = o.first
        if o.winner >= 0:
            wins[o.winner] += 1
            if wins[o.winner] >= need:
                mw = o.winner
                break
    if rows.winner != NULL:
        for s in range(played, slots):
            rows.winner[k * slots + s] = -2     # not played
        rows.m_winner[k] = mw
        rows.m_games[k] = played
        rows.m_wins[2 * k] = wins[0]
        rows.m_wins[2 * k + 1] = wins[1]
    out.match_winner = mw
    if t != NULL:
        t.match_counts[mw + 1][out.game.first] += 1
        t.match_games[0] += played
        t.match_games[1] += played * played


cdef void merge_tally(Tally* a, const Tally* b) noexcept nogil:
    cdef int i, j, e
    for i in range(3):
        for j in range(2):
            for e in range(N_END):
                a.counts[i][j][e] += b.counts[i][j][e]
            a.match_counts[i][j] += b.match_counts[i][j]
    for i in range(N_MOMENTS):
        a.sums[i] += b.sums[i]
        merge_wide(&a.squares[i], &b.squares[i])
    for i in range(2):
        for j in range(LENGTH_BINS):
            a.lengths[i][j] += b.lengths[i][j]
        a.match_games[i] += b.match_games[i]


cdef void merge_pair(PairTally* a, const PairTally* b) noexcept nogil:
    cdef int i, j
    for i in range(N_PAIRED):
        for j in range(4):
            a.table[i][j] += b.table[i][j]
    for i in range(2):
        a.diff_sums[i] += b.diff_sums[i]
        merge_wide(&a.diff_squares[i], &b.diff_squares[i])


cdef object wide_int(Wide w):
    return (<object>w.hi << 64) | <object>w.lo


cdef dict tally_dict(const Tally* t):
    counts = np.empty((3, 2, N_END), np.int64)
    lengths = np.empty((2, LENGTH_BINS), np.int64)
    match_counts = np.empty((3, 2), np.int64)
    cdef int64_t[:, :, ::1] cv = counts
    cdef int64_t[:, ::1] lv = lengths
    cdef int64_t[:, ::1] mv = match_counts
    cdef int i, j, e
    for i in range(3):
        for j in range(2):
            for e in range(N_END):
                cv[i, j, e] = t.counts[i][j][e]
            mv[i, j] = t.match_counts[i][j]
    for i in range(2):
        for j in range(LENGTH_BINS):
            lv[i, j] = t.lengths[i][j]
    return {"counts": counts, "lengths": lengths,
            "moments": [(t.sums[i], wide_int(t.squares[i])) for i in range(N_MOMENTS)],
            "match_counts": match_counts, "match_games": (t.match_games[0], t.match_games[1])}


cdef dict pair_dict(const PairTally* p):
    table = np.empty((N_PAIRED, 4), np.int64)
    cdef int i, j
    for i in range(N_PAIRED):
        for j in range(4):
            table[i, j] = p.table[i][j]
    return {"table": table,
            "diffs": [(p.diff_sums[i], wide_int(p.diff_squares[i])) for i in range(2)]}


def play_units(rule_sets, Py_ssize_t start, Py_ssize_t count, uint64_t seed, int policy_a,
               int policy_b, bint swap_seats=True, int threads=0, int max_moves=GAME_MOVE_CAP,
               int need=0, int slots=1, bint keep_rows=False, bint tally=True):
    """Play units start .. start+count-1 of a seeded run under each rule set in
    `rule_sets` (the same deals), natively over `threads` cores (0: all).  A unit is a
    game, or with need > 0 a match owning game indices j*slots .. j*slots+slots-1 and
    played in index order until a player has `need` wins.  Players are A (policy_a)
    and B (policy_b); with swap_seats A moves first in even-numbered games.

    Returns {"tallies": [one dict per rule set: counts, moments, lengths, match_counts,
    match_games], "pairs": {(i, j): {table, diffs}} for i < j, "rows": None or one dict
    of arrays per rule set}.  Rows (keep_rows): winner (0 = A, 1 = B, -1 = draw, -2 =
    a match slot not played), first, moves, turns, scores (A, B) int16, end, one per
    game index; with matches also m_winner, m_first, m_games, m_wins per match.
    tally=False skips the tallies ("tallies" is None, "pairs" empty): rows only.
    MemoryError if a search could not allocate its tree."""
    global no_memory
    cdef Py_ssize_t n_rules = len(rule_sets)
    if count < 0 or start < 0:
        raise ValueError("start and count must be >= 0")
    if count > MAX_UNITS:
        raise ValueError(f"at most {MAX_UNITS} units per call, not {count}")
    if not 1 <= n_rules <= MAX_RULE_SETS:
        raise ValueError(f"1 to {MAX_RULE_SETS} rule sets, not {n_rules}")
    if need < 0 or slots < 1 or (need == 0 and slots != 1) or (need and slots > 127):
        raise ValueError("bad match format")
    if <uint64_t>(start + count) * <uint64_t>slots > (<uint64_t>1 << 62):
        raise ValueError("game indices must stay below 2**62")
    cdef Py_ssize_t n_pairs = n_rules * (n_rules - 1) // 2
    # Each thread has its own accumulators: no more threads than units, nor than fit in
    # MAX_TALLY_BYTES (many rule sets on many threads).
    cdef size_t per_thread = (n_rules * (sizeof(Tally) + sizeof(UnitOut))
                              + n_pairs * sizeof(PairTally))
    threads = <int>min(resolve_threads(threads), max(count, 1),
                       max(1, MAX_TALLY_BYTES // per_thread))
    cdef Py_ssize_t rows_per_rule = count * slots
    cdef CRules* rs = <CRules*>malloc(n_rules * sizeof(CRules))
    # Each thread's blocks are followed by spare entries (at least a cache line), so that
    # no two threads ever write the same cache line.
    cdef Py_ssize_t tstride = n_rules + 1, pstride = n_pairs + 1, sstride = n_rules + 4
    cdef Tally* tallies = <Tally*>calloc(threads * tstride, sizeof(Tally))
    cdef PairTally* pairs = <PairTally*>calloc(threads * pstride, sizeof(PairTally))
    cdef UnitOut* scratch = <UnitOut*>calloc(threads * sstride, sizeof(UnitOut))
    cdef Rows* rows = <Rows*>calloc(n_rules, sizeof(Rows))
    if rs == NULL or tallies == NULL or pairs == NULL or scratch == NULL or rows == NULL:
        free(rs); free(tallies); free(pairs); free(scratch); free(rows)
        raise MemoryError("cannot allocate the tallies of a batch")
    cdef Py_ssize_t k, q, i, j, p, tid
    cdef int swap = swap_seats
    kept = None
    try:
        for i in range(n_rules):
            rs[i] = rule_sets[i].c_fields()
        if keep_rows:
            kept = []
            for i in range(n_rules):
                d = {"winner": np.empty(rows_per_rule, np.int8),
                     "first": np.empty(rows_per_rule, np.int8),
                     "moves": np.empty(rows_per_rule, np.int32),
                     "turns": np.empty(rows_per_rule, np.int32),
                     "scores": np.empty((rows_per_rule, 2), np.int16),
                     "end": np.empty(rows_per_rule, np.int8)}
                if need:
                    d.update(m_winner=np.empty(count, np.int8), m_first=np.empty(count, np.int8),
                             m_games=np.empty(count, np.int8),
                             m_wins=np.empty((count, 2), np.int8))
                kept.append(d)
                set_rows(&rows[i], d, need)
        reset_interrupt()
        no_memory = 0
        for k in prange(count, nogil=True, num_threads=threads, schedule="dynamic",
                        chunksize=64):
            if not poll_interrupt():
                tid = threadid()
                for i in range(n_rules):
                    play_unit(&rs[i], seed, start + k, policy_a, policy_b, swap, max_moves,
                              need, slots,
                              &tallies[tid * tstride + i] if tally else NULL,
                              &scratch[tid * sstride + i], &rows[i], k)
                p = 0
                for i in range(n_rules if tally else 0):
                    for j in range(i + 1, n_rules):
                        tally_pair(&pairs[tid * pstride + p], &scratch[tid * sstride + i],
                                   &scratch[tid * sstride + j], need > 0)
                        p = p + 1
        raise_if_interrupted()
        if no_memory:
            raise MemoryError("no memory for a search tree")
        for q in range(1, threads):
            for i in range(n_rules):
                merge_tally(&tallies[i], &tallies[q * tstride + i])
            for p in range(n_pairs):
                merge_pair(&pairs[p], &pairs[q * pstride + p])
        out_pairs = {}
        p = 0
        for i in range(n_rules if tally else 0):
            for j in range(i + 1, n_rules):
                out_pairs[(i, j)] = pair_dict(&pairs[p])
                p += 1
        return {"tallies": [tally_dict(&tallies[i]) for i in range(n_rules)] if tally else None,
                "pairs": out_pairs, "rows": kept}
    finally:
        free(rs); free(tallies); free(pairs); free(scratch); free(rows)


cdef void set_rows(Rows* rows, dict d, int need):
    cdef int8_t[::1] w = d["winner"]
    cdef int8_t[::1] f = d["first"]
    cdef int32_t[::1] m = d["moves"]
    cdef int32_t[::1] t = d["turns"]
    cdef int16_t[:, ::1] s = d["scores"]
    cdef int8_t[::1] e = d["end"]
    cdef int8_t[::1] mw
    cdef int8_t[::1] mf
    cdef int8_t[::1] mg
    cdef int8_t[:, ::1] mn
    if w.shape[0] == 0:          # nothing to write (and no element to point at)
        return
    rows.winner, rows.first, rows.moves, rows.turns = &w[0], &f[0], &m[0], &t[0]
    rows.scores, rows.end = &s[0, 0], &e[0]
    if need:
        mw, mf, mg, mn = d["m_winner"], d["m_first"], d["m_games"], d["m_wins"]
        rows.m_winner, rows.m_first, rows.m_games, rows.m_wins = &mw[0], &mf[0], &mg[0], &mn[0, 0]


def play_batch(rules, Py_ssize_t start, Py_ssize_t count, uint64_t seed, int policy_a,
               int policy_b, bint swap_seats=True, int threads=0, int max_moves=GAME_MOVE_CAP):
    """Play games start .. start+count-1 of a seeded run natively, over `threads` cores
    (0: all), and return their rows: a dict of numpy arrays, one row per game: winner
    (0 = A, 1 = B, -1 = draw), first (who moved first), moves, turns, scores (A, B;
    int16), end (code into END_NAMES).  See play_units for tallies, matches and several
    rule sets."""
    return play_units([rules], start, count, seed, policy_a, policy_b, swap_seats, threads,
                      max_moves, keep_rows=True, tally=False)["rows"][0]


# ---------------------------------------------------------------------------------------
# Rollout analysis: every legal move of the decider, evaluated by playouts from
# determinizations of the decider's view.  Rollout k of every move uses the same
# stream (seed, k), so the moves are compared on the same samples (common random
# numbers), and results do not depend on the thread count.

cdef void analyse_one(const State* root, const CRules* r, uint32_t move, int policy,
                      uint64_t seed, Py_ssize_t k, int8_t* out) noexcept nogil:
    global no_memory
    cdef State s = root[0]
    cdef Rng g
    cdef int moves
    rng_seed(&g, seed, <uint64_t>k)
    determinize(&s, r, root.to_move, &g)
    apply_move(&s, r, move)
    if play_out(&s, r, policy, policy, &g, GAME_MOVE_CAP, &moves) == PLAY_NO_MEMORY:
        no_memory = 1                    # (a searching playout policy)
    out[0] = <int8_t>s.winner


def rollouts(CoreGame game, codes, Py_ssize_t start, Py_ssize_t count, uint64_t seed,
             int policy, int threads=0):
    """Rollouts start..start+count-1 of each move in `codes` (legal moves of `game`):
    an int8 array (len(codes), count) of winners (-1 draw).  ValueError for a code that
    is not a legal move of the game (the core only ever applies generated moves)."""
    global no_memory
    cdef Py_ssize_t nm = len(codes), total, j
    cdef uint32_t buf[MAX_MOVES]
    cdef int n = gen_moves(&game.st, &game.cr, buf)
    legal = {buf[j] for j in range(n)}
    for code in codes:
        if code not in legal:
            raise ValueError(f"move code {code!r} is not a legal move of this game")
    if count < 0 or start < 0:
        raise ValueError("start and count must be >= 0")
    threads = resolve_threads(threads)
    moves_arr = np.asarray(codes, dtype=np.uint32)
    out = np.empty((nm, count), np.int8)
    cdef uint32_t[::1] mv = moves_arr
    cdef int8_t[:, ::1] ov = out
    cdef State root = game.st
    cdef CRules r = game.cr
    total = nm * count
    reset_interrupt()
    no_memory = 0
    if count > 0:
        for j in prange(total, nogil=True, num_threads=threads, schedule="dynamic",
                        chunksize=16):
            if not poll_interrupt():
                analyse_one(&root, &r, mv[j // count], policy, seed, start + j % count,
                            &ov[j // count, j % count])
    raise_if_interrupted()
    if no_memory:
        raise MemoryError("no memory for a search tree")
    return out
