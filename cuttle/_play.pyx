# cython: language_level=3
"""Native batches: whole games of a seeded run, spread over all cores (OpenMP prange);
and one game of a run with its moves (`play_logged`, the record of a simulated game).
(One decision for one game is `_decide`; rollout analyses are `_rollouts`.)

Game i of a seeded run is dealt from stream deal_stream(i) of the seed and its players
draw from policy_stream(i) (_rng.pxd).  So every result depends only on (seed, index),
never on the thread count or how a run is cut into calls.
"""

from libc.stdint cimport uint64_t, uint32_t, uint8_t, int8_t, int16_t, int32_t, int64_t
from libc.stdlib cimport malloc, calloc, free
from cython.parallel cimport prange, threadid

import operator

import numpy as np

from cuttle._state cimport *
from cuttle._rng cimport rng_seed, deal_stream, policy_stream
from cuttle._engine cimport deal, score
from cuttle._policies cimport play_out
from cuttle._playout cimport MoveLog, PLAY_NO_MEMORY, GAME_MOVE_CAP
from cuttle._signals cimport Stop, stop_start, stop_enter, stop_leave, stop_finish
from cuttle.threads import thread_count


# The game indices of a run: below 2**62 (so that every stream 2i, 2i + 1 of a game is
# its own, whatever a match's slots).
cdef uint64_t INDEX_LIMIT = (<uint64_t>1) << 62
GAME_INDEX_LIMIT = INDEX_LIMIT


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
# (The structs: _play.pxd.)

cdef inline void add_wide(Wide* w, uint64_t v) noexcept nogil:
    w.lo += v
    if w.lo < v:
        w.hi += 1


cdef inline void merge_wide(Wide* w, const Wide* v) noexcept nogil:
    add_wide(w, v.lo)
    w.hi += v.hi


cdef void add_product(Wide* w, uint64_t a, uint64_t b) noexcept nogil:
    # By 32-bit halves: a match's sum of moves may pass 2**32, its square 2**64.
    cdef uint64_t low = (<uint64_t>1 << 32) - 1
    cdef uint64_t a0 = a & low, a1 = a >> 32, b0 = b & low, b1 = b >> 32
    cdef uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0
    cdef uint64_t mid = (p00 >> 32) + (p01 & low) + (p10 & low)
    add_wide(w, (mid << 32) | (p00 & low))
    w.hi += a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32)


cdef inline void add_moment(Tally* t, int k, int64_t x) noexcept nogil:
    t.sums[k] += x
    add_wide(&t.squares[k], <uint64_t>(x * x))


cdef inline void play_game(const CRules* r, const Run* run, uint64_t i, GameOut* out,
                           MoveLog* record) noexcept nogil:
    # Game i of the run; `record` (NULL in batches) receives its moves (play_logged).
    cdef State s
    cdef Rng g
    cdef int a_seat = 1 if (run.swap and (i & 1)) else 0  # player A's seat (0 moves first)
    rng_seed(&s.rng, run.seed, deal_stream(i))
    deal(&s, r)
    rng_seed(&g, run.seed, policy_stream(i))
    if play_out(&s, r, run.pol_b if a_seat else run.pol_a, run.pol_a if a_seat else run.pol_b,
                &g, run.max_moves, &out.moves, record) == PLAY_NO_MEMORY:
        run.no_memory[0] = 1             # a search could not allocate its tree (or the
                                         # record its moves)
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


cdef inline void add_match_game(UnitOut* out, const GameOut* o) noexcept nogil:
    # A game of a match into its sums (MatchPair's figures: A's wins, B's wins, draws,
    # the first mover's wins, moves, turns).
    out.match_games += 1
    out.match_sums[0] += o.winner == 0
    out.match_sums[1] += o.winner == 1
    out.match_sums[2] += o.winner < 0
    out.match_sums[3] += o.winner >= 0 and o.winner == o.first
    out.match_sums[4] += o.moves
    out.match_sums[5] += o.turns


cdef void tally_match_pair(MatchPair* m, const UnitOut* a, const UnitOut* b) noexcept nogil:
    # The sums over matches that a game figure's interval with the match as the unit
    # needs (_play.pxd says their order).
    cdef int k
    cdef uint64_t ni = <uint64_t>a.match_games, nj = <uint64_t>b.match_games, yi, yj
    for k in range(N_MATCH_FIGURES):
        yi, yj = <uint64_t>a.match_sums[k], <uint64_t>b.match_sums[k]
        add_wide(&m.sums[k][0], yi)
        add_wide(&m.sums[k][1], yj)
        add_product(&m.sums[k][2], yi, yi)
        add_product(&m.sums[k][3], yi, ni)
        add_product(&m.sums[k][4], yj, yj)
        add_product(&m.sums[k][5], yj, nj)
        add_product(&m.sums[k][6], yi, yj)
        add_product(&m.sums[k][7], yi, nj)
        add_product(&m.sums[k][8], ni, yj)
    add_wide(&m.units[0], 1)
    add_wide(&m.units[1], ni)
    add_wide(&m.units[2], nj)
    add_product(&m.units[3], ni, ni)
    add_product(&m.units[4], nj, nj)
    add_product(&m.units[5], ni, nj)


cdef void tally_pair(PairTally* p, MatchPair* m, const UnitOut* a, const UnitOut* b,
                     int matches) noexcept nogil:
    cdef int64_t d
    cdef int k
    if matches:
        for k in range(3):      # match_win_A, match_win_B, match_draw
            pair_rate(p, 4 + k, a.match_winner == (k if k < 2 else -1),
                      b.match_winner == (k if k < 2 else -1))
        tally_match_pair(m, a, b)
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


cdef inline void keep_row(Rows* rows, Py_ssize_t k, const GameOut* o) noexcept nogil:
    rows.winner[k] = o.winner
    rows.first[k] = o.first
    rows.moves[k] = o.moves
    rows.turns[k] = o.turns
    rows.scores[2 * k] = o.score[0]
    rows.scores[2 * k + 1] = o.score[1]
    rows.end[k] = o.end


cdef void play_unit(const CRules* r, const Run* run, uint64_t u, Tally* t, UnitOut* out,
                    Rows* rows, Py_ssize_t k) noexcept nogil:
    """Unit u (a game, or a match when run.need > 0) under one rule set; k: its row."""
    cdef GameOut o
    cdef int s
    cdef int wins[2]
    cdef int played = 0
    cdef int need = run.need
    cdef int slots = run.slots
    cdef int8_t mw = -1
    if need == 0:
        play_game(r, run, u, &out.game, NULL)
        if t != NULL:
            tally_game(t, &out.game)
        if rows.winner != NULL:
            keep_row(rows, k, &out.game)
        return
    # A match plays its games in index order until a player has `need` wins.
    wins[0] = 0
    wins[1] = 0
    out.match_games = 0
    for s in range(N_MATCH_FIGURES):
        out.match_sums[s] = 0
    for s in range(slots):
        play_game(r, run, u * slots + s, &o, NULL)
        add_match_game(out, &o)
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


cdef void merge_match_pair(MatchPair* a, const MatchPair* b) noexcept nogil:
    cdef int i, j
    for i in range(N_MATCH_FIGURES):
        for j in range(N_MATCH_SUMS):
            merge_wide(&a.sums[i][j], &b.sums[i][j])
    for i in range(N_MATCH_UNITS):
        merge_wide(&a.units[i], &b.units[i])


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


cdef dict pair_dict(const PairTally* p, const MatchPair* m):
    # (m: NULL for single games)
    table = np.empty((N_PAIRED, 4), np.int64)
    cdef int i, j
    for i in range(N_PAIRED):
        for j in range(4):
            table[i, j] = p.table[i][j]
    d = {"table": table,
         "diffs": [(p.diff_sums[i], wide_int(p.diff_squares[i])) for i in range(2)]}
    if m != NULL:
        d["match_sums"] = [[wide_int(m.sums[i][j]) for j in range(N_MATCH_SUMS)]
                           for i in range(N_MATCH_FIGURES)]
        d["match_units"] = [wide_int(m.units[i]) for i in range(N_MATCH_UNITS)]
    return d


def new_rows(Py_ssize_t units, int slots=1, bint matches=False):
    """The per-game rows of `units` units (slots games each) as play_units returns them
    with keep_rows (and the runner's Python games write them): numpy arrays winner (0 =
    A, 1 = B, -1 = draw, -2 = a match slot not played, the initial value), first,
    moves, turns, scores (A, B) int16, end; with matches m_winner (-1: none),
    m_first, m_games, m_wins per match.  The one home of the rows' layout."""
    cdef Py_ssize_t n = units * slots
    rows = {"winner": np.full(n, -2, np.int8), "first": np.zeros(n, np.int8),
            "moves": np.zeros(n, np.int32), "turns": np.zeros(n, np.int32),
            "scores": np.zeros((n, 2), np.int16), "end": np.zeros(n, np.int8)}
    if matches:
        rows.update(m_winner=np.full(units, -1, np.int8), m_first=np.zeros(units, np.int8),
                    m_games=np.zeros(units, np.int8), m_wins=np.zeros((units, 2), np.int8))
    return rows


cdef void set_rows(Rows* rows, dict d, int need):
    # Point `rows` at new_rows' arrays.
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


cdef int check_units(Py_ssize_t start, Py_ssize_t count, Py_ssize_t n_rules, int need,
                     int slots) except -1:
    if count < 0 or start < 0:
        raise ValueError("start and count must be >= 0")
    if count > MAX_UNITS_PER_CALL:
        raise ValueError(f"at most {MAX_UNITS_PER_CALL} units per call, not {count}")
    if not 1 <= n_rules <= MAX_RULE_SETS:
        raise ValueError(f"1 to {MAX_RULE_SETS} rule sets, not {n_rules}")
    if need < 0 or slots < 1 or (need == 0 and slots != 1) or (need and slots > 127):
        raise ValueError("bad match format")
    if <uint64_t>(start + count) * <uint64_t>slots > INDEX_LIMIT:
        raise ValueError("game indices must stay below 2**62")
    return 0


cdef int batch_alloc(Batch* b, Py_ssize_t n_rules, int threads, Py_ssize_t count,
                     bint matches) except -1:
    # Each thread has its own accumulators: no more threads than units, nor than fit in
    # MAX_TALLY_BYTES (many rule sets on many threads).  Each thread's blocks are
    # followed by spare entries (at least a cache line), so that no two threads ever
    # write the same cache line.
    cdef size_t per_thread
    b.n_rules = n_rules
    b.n_pairs = n_rules * (n_rules - 1) // 2
    per_thread = n_rules * (sizeof(Tally) + sizeof(UnitOut)) + b.n_pairs * (
        sizeof(PairTally) + (sizeof(MatchPair) if matches else 0))
    b.threads = <int>min(thread_count(threads), max(count, 1),
                         max(1, MAX_TALLY_BYTES // per_thread))
    b.tstride, b.pstride, b.sstride = n_rules + 1, b.n_pairs + 1, n_rules + 4
    b.rs = <CRules*>malloc(n_rules * sizeof(CRules))
    b.pols = <int*>malloc(2 * n_rules * sizeof(int))
    b.tallies = <Tally*>calloc(b.threads * b.tstride, sizeof(Tally))
    b.pairs = <PairTally*>calloc(b.threads * b.pstride, sizeof(PairTally))
    b.match_pairs = <MatchPair*>calloc(b.threads * b.pstride, sizeof(MatchPair)) \
        if matches else NULL
    b.scratch = <UnitOut*>calloc(b.threads * b.sstride, sizeof(UnitOut))
    b.rows = <Rows*>calloc(n_rules, sizeof(Rows))
    if b.rs == NULL or b.pols == NULL or b.tallies == NULL or b.pairs == NULL or b.scratch == NULL \
            or (matches and b.match_pairs == NULL) \
            or b.rows == NULL:
        batch_free(b)
        raise MemoryError("cannot allocate the tallies of a batch")
    return 0


cdef void batch_free(Batch* b) noexcept:
    free(b.rs)
    free(b.pols)
    free(b.tallies)
    free(b.pairs)
    free(b.match_pairs)
    free(b.scratch)
    free(b.rows)
    b.rs, b.tallies, b.pairs, b.scratch, b.rows = NULL, NULL, NULL, NULL, NULL
    b.pols = NULL
    b.match_pairs = NULL


cdef void play_unit_all_rules(const Batch* b, const Run* run, Py_ssize_t k,
                              int tid) noexcept nogil:
    # Unit start + k under every rule set, by its players, tallied by thread tid (and
    # its pairs).
    cdef Py_ssize_t i, j, p = 0
    cdef UnitOut* scratch = &b.scratch[tid * b.sstride]
    cdef Run arm = run[0]
    for i in range(b.n_rules):
        arm.pol_a, arm.pol_b = b.pols[2 * i], b.pols[2 * i + 1]
        play_unit(&b.rs[i], &arm, run.start + k,
                  &b.tallies[tid * b.tstride + i] if run.tally else NULL,
                  &scratch[i], &b.rows[i], k)
    for i in range(b.n_rules if run.tally else 0):
        for j in range(i + 1, b.n_rules):
            tally_pair(&b.pairs[tid * b.pstride + p],
                       &b.match_pairs[tid * b.pstride + p] if run.need > 0 else NULL,
                       &scratch[i], &scratch[j], run.need > 0)
            p += 1


cdef dict batch_result(Batch* b, kept, bint tally):
    # Sum the threads' tallies (exact integers: the order does not matter) into the
    # dict play_units returns.
    cdef Py_ssize_t q, i, j, p
    for q in range(1, b.threads):
        for i in range(b.n_rules):
            merge_tally(&b.tallies[i], &b.tallies[q * b.tstride + i])
        for p in range(b.n_pairs):
            merge_pair(&b.pairs[p], &b.pairs[q * b.pstride + p])
            if b.match_pairs != NULL:
                merge_match_pair(&b.match_pairs[p], &b.match_pairs[q * b.pstride + p])
    out_pairs = {}
    p = 0
    for i in range(b.n_rules if tally else 0):
        for j in range(i + 1, b.n_rules):
            out_pairs[(i, j)] = pair_dict(&b.pairs[p], &b.match_pairs[p]
                                          if b.match_pairs != NULL else NULL)
            p += 1
    return {"tallies": [tally_dict(&b.tallies[i]) for i in range(b.n_rules)] if tally else None,
            "pairs": out_pairs, "rows": kept}


MAX_SALVAGED_ROWS = 1 << 20   # game rows kept to salvage an interrupted search batch


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped `play_units`: its first `done` units had finished, and `rows` are
    their per-game rows (one dict per rule set, in new_rows' layout, cut to those
    units), from which the caller can still count them.  Raised from the signal
    handler's KeyboardInterrupt, so that code that knows nothing of it sees Ctrl-C."""

    def __init__(self, done, rows):
        super().__init__(done, rows)
        self.done, self.rows = done, rows

    def __str__(self):
        return f"interrupted after {self.done:,} units of a batch"


def cut_rows(rows, Py_ssize_t units, int slots=1):
    """The first `units` units' part of rows in new_rows' layout."""
    games = units * max(slots, 1)
    return {k: v[:units] if k.startswith("m_") else v[:games] for k, v in rows.items()}


cdef list arm_codes(policy_a, policy_b, Py_ssize_t n_rules):
    # Each rule set's codes of A and B, in turn: a code alone stands for every rule set.
    both = []
    for given in (policy_a, policy_b):
        codes = list(given) if isinstance(given, (list, tuple)) else [given] * n_rules
        try:
            codes = [operator.index(c) for c in codes]
        except TypeError:
            codes = []
        if len(codes) != n_rules or not all(0 <= c < 2 ** 31 for c in codes):
            raise ValueError(f"a policy code, or one per rule set ({n_rules}), not {given!r}")
        both.append(codes)
    return [c for pair in zip(*both) for c in pair]


def play_units(rule_sets, Py_ssize_t start, Py_ssize_t count, uint64_t seed, policy_a,
               policy_b, bint swap_seats=True, int threads=0,
               int max_moves=GAME_MOVE_CAP, int need=0, int slots=1, bint keep_rows=False,
               bint tally=True):
    """Play units start .. start+count-1 of a seeded run under each rule set in
    `rule_sets` (the same deals), natively over `threads` cores (0: all).  A unit is a
    game, or with need > 0 a match owning game indices j*slots .. j*slots+slots-1 and
    played in index order until a player has `need` wins.  Players are A (policy_a)
    and B (policy_b), each a policy code or a sequence of one code per rule set (the
    same deals played by other players under each: `compare_players`); with swap_seats
    A moves first in even-numbered games.

    Returns {"tallies": [one dict per rule set: counts, moments, lengths, match_counts,
    match_games], "pairs": {(i, j): {table, diffs}} for i < j, "rows": None or, with
    keep_rows, one dict of arrays per rule set (new_rows says which)}.
    tally=False skips the tallies ("tallies" is None, "pairs" empty): rows only.
    MemoryError if a search could not allocate its tree.  Ctrl-C of a batch where a
    player searches (whose units take seconds) raises BatchInterrupted with the rows of
    the units finished before the first one that did not (rows are kept for that when
    they fit in MAX_SALVAGED_ROWS); otherwise the handler's KeyboardInterrupt."""
    cdef Batch b
    cdef Run run
    cdef Stop stop
    cdef volatile int no_memory = 0
    cdef Py_ssize_t k, i, done
    cdef int grain
    cdef bint search = False
    cdef uint8_t[::1] finished = None
    cdef uint8_t* fin = NULL
    check_units(start, count, len(rule_sets), need, slots)
    codes = arm_codes(policy_a, policy_b, len(rule_sets))
    for i in range(len(codes)):
        search = search or is_search(codes[i])
    run.seed, run.start, run.pol_a, run.pol_b = seed, start, codes[0], codes[1]
    run.swap, run.max_moves, run.need, run.slots = swap_seats, max_moves, need, slots
    run.tally, run.no_memory = tally, &no_memory
    batch_alloc(&b, len(rule_sets), threads, count, need > 0)
    kept = None
    try:
        for i in range(b.n_rules):
            b.rs[i] = rule_sets[i].c_fields()
            b.pols[2 * i], b.pols[2 * i + 1] = codes[2 * i], codes[2 * i + 1]
        # A search batch's finished units outlive a Ctrl-C: each is marked when it ends
        # with the batch not stopped (so no search of it was cut short), and its rows
        # are kept to count the run of them from the first unit.
        if search and 0 < count * max(slots, 1) * b.n_rules <= MAX_SALVAGED_ROWS:
            finished = np.zeros(count, np.uint8)
            fin = &finished[0]
        if keep_rows or fin != NULL:
            kept = [new_rows(count, slots, need > 0) for i in range(b.n_rules)]
            for i in range(b.n_rules):
                set_rows(&b.rows[i], kept[i], need)
        # Units handed out 64 at a time (cheap games), one at a time when a player
        # searches: a search chunk holds a few units, which 64 would give to one thread.
        grain = 1 if search else 64
        stop_start(&stop)
        for k in prange(count, nogil=True, num_threads=b.threads, schedule="dynamic",
                        chunksize=grain):
            if not stop_enter(&stop):
                play_unit_all_rules(&b, &run, k, threadid())
                if fin != NULL and not stop.stopped:
                    fin[k] = 1
            stop_leave()
        try:
            stop_finish(&stop)
        except KeyboardInterrupt:
            if fin == NULL or no_memory:         # (a game without its tree is no game)
                raise
            done = 0
            while done < count and fin[done]:
                done += 1
            raise BatchInterrupted(done, [cut_rows(r, done, slots) for r in kept])
        if no_memory:
            raise MemoryError("no memory for a search tree")
        return batch_result(&b, kept if keep_rows else None, tally)
    finally:
        batch_free(&b)


def play_batch(rules, Py_ssize_t start, Py_ssize_t count, uint64_t seed, int policy_a,
               int policy_b, bint swap_seats=True, int threads=0, int max_moves=GAME_MOVE_CAP):
    """Play games start .. start+count-1 of a seeded run natively, over `threads` cores
    (0: all), and return their rows: a dict of numpy arrays, one row per game: winner
    (0 = A, 1 = B, -1 = draw), first (who moved first), moves, turns, scores (A, B;
    int16), end (code into END_NAMES).  See play_units for tallies, matches and several
    rule sets."""
    return play_units([rules], start, count, seed, policy_a, policy_b, swap_seats, threads,
                      max_moves, keep_rows=True, tally=False)["rows"][0]


class GameInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped `play_logged`'s game before its end: `codes` (a uint32 array, as
    play_logged returns them) are the moves it had played, each the move the whole game
    plays there (the game stopped before the move of the search Ctrl-C cut short), so
    they replay from the deal as the start of that game.  Raised from the signal
    handler's KeyboardInterrupt, so that code that knows nothing of it sees Ctrl-C."""

    def __init__(self, codes):
        super().__init__(codes)
        self.codes = codes

    def __str__(self):
        return f"interrupted after {len(self.codes):,} moves of a game"


def play_logged(rules, uint64_t seed, uint64_t index, int policy_a, int policy_b,
                bint swap_seats=True, int max_moves=GAME_MOVE_CAP):
    """Game `index` of a seeded run of single games, played exactly as play_units plays
    it (play_game: the same deal, streams and calls; a searching seat keeps its tree)
    with every move logged, on this thread without the GIL: (row, codes), the row a
    dict of the game's fields as play_batch gives them (winner: 0 = A, 1 = B, -1 = draw;
    first; moves; turns; scores (A, B); end) and codes a uint32 array of its move codes
    in order.  Ctrl-C stops a long game (a searching player's) with GameInterrupted,
    a KeyboardInterrupt carrying the moves played so far; MemoryError if a search could
    not allocate its tree."""
    cdef Run run
    cdef GameOut out
    cdef MoveLog record
    cdef Stop stop
    cdef CRules r = rules.c_fields()
    cdef volatile int no_memory = 0
    cdef Py_ssize_t j
    cdef uint32_t[::1] cv
    if index >= INDEX_LIMIT:
        raise ValueError(f"game indices must stay below 2**62, not {index}")
    if policy_a < 0 or policy_b < 0 or max_moves < 1:
        raise ValueError("bad policy code or move cap")
    run.seed, run.start, run.pol_a, run.pol_b = seed, index, policy_a, policy_b
    run.swap, run.max_moves, run.need, run.slots = swap_seats, max_moves, 0, 1
    run.tally, run.no_memory = 0, &no_memory
    record.moves, record.n, record.room = NULL, 0, 0
    try:
        stop_start(&stop)
        with nogil:
            if not stop_enter(&stop):
                play_game(&r, &run, index, &out, &record)
            stop_leave()
        codes = np.empty(record.n, np.uint32)
        cv = codes
        for j in range(record.n):
            cv[j] = record.moves[j]
        try:
            stop_finish(&stop)
        except KeyboardInterrupt:
            # (the record stopped at the cut search: _policies.play_seats)
            raise GameInterrupted(codes)
        if no_memory:
            raise MemoryError("no memory for a search tree or the game's moves")
        row = {"winner": out.winner, "first": out.first, "moves": out.moves,
               "turns": out.turns, "scores": (out.score[0], out.score[1]), "end": out.end}
        return row, codes
    finally:
        free(record.moves)
