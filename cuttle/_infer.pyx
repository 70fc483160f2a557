# cython: language_level=3
"""What the opponent's moves say about its hand (docs/analysis.md, "The search").

A uniform determinization deals the opponent any hand consistent with what the searcher
saw; but the opponent chose its moves knowing its hand: when it let a one-off resolve it
probably held no 2 worth playing, when it drew instead of scoring it probably held no
good point card.  So the search keeps the opponent's recent decisions (the positions it
decided in and its moves), and before each search weighs N_CANDIDATES uniform
determinizations by the likelihood of those decisions under a model of the opponent's
play: the expert's values of the legal moves as a softmax (TEMP points per unit of
logit) mixed with a uniform choice (EPS, for the moves the model does not explain).
The search then deals the opponent's hand from the weighted candidates.

Never reading a hidden card: a candidate is a determinization of the searcher's view;
a past decision is re-dealt for each candidate from the searcher's view alone.  The
opponent's hand then is the candidate's hand now, without the cards it gained since
(all known to the searcher) and with the cards it lost since (all public: played,
discarded, scrapped).  A decision is kept only while that holds: once the opponent
gains a card the searcher cannot see (a draw) or loses one to a hidden place, the
decisions before are forgotten (which is public: the draw is seen).  The unknown cards
of the past deck are dealt in card order, since the expert's view of the opponent
reads the deck only as the set of cards it cannot place.
"""

from libc.stdint cimport uint32_t, uint64_t, int8_t
from libc.math cimport exp, log

from cuttle._state cimport *
from cuttle._rng cimport rng_next, rng_seed, shuffle, STREAM_GAME
from cuttle._engine cimport gen_moves, apply_move, hand_is_public
from cuttle._hidden cimport determinize, unknown_cards
from cuttle._expert cimport expert_values

cdef extern from *:
    """
    #define CU_INFER_TEMP 4.0
    #define CU_INFER_EPS 0.1
    """
    const double TEMP "CU_INFER_TEMP"     # model: points of expert value per logit
    const double EPS "CU_INFER_EPS"       # model: share of a uniform choice


cdef inline void forget_oldest(Seen* o) noexcept nogil:
    cdef int i
    for i in range(1, o.n):
        o.before[i - 1] = o.before[i]
        o.move[i - 1] = o.move[i]
    o.n -= 1


cdef void seen_follow(Seen* o, const CRules* r, const uint32_t* moves, int k) noexcept nogil:
    """Replay the k moves since the last search from its position, keeping the
    opponent's decisions (the MAX_SEEN most recent) and forgetting them all when the
    opponent's hand gains a card the searcher cannot see or loses one to a hidden
    place.  Without a last position nothing is kept."""
    cdef State cur
    cdef int me, opp, i
    cdef uint64_t hidden, gained, lost
    if not o.has_last:
        o.n = 0
        return
    cur = o.last
    me = cur.to_move
    opp = me ^ 1
    for i in range(k):
        if cur.phase == PH_OVER:
            break
        if cur.to_move == opp:
            if o.n == MAX_SEEN:
                forget_oldest(o)
            o.before[o.n] = cur
            o.move[o.n] = moves[i]
            o.n += 1
        gained = cur.hand[opp]
        lost = cur.hand[opp]
        apply_move(&cur, r, moves[i])
        gained = cur.hand[opp] & ~gained
        lost &= ~cur.hand[opp]
        if (gained & ~cur.known_hand[me]) or (lost & unknown_cards(&cur, r, me, &hidden)):
            o.n = 0
    o.last = cur


cdef double move_likelihood(const State* q, const CRules* r, uint32_t move) noexcept nogil:
    cdef uint32_t buf[MAX_MOVES]
    cdef double values[MAX_MOVES]
    cdef int n = gen_moves(q, r, buf)
    cdef int i, at = -1
    cdef double top, total = 0.0
    if n <= 1:
        return 1.0
    for i in range(n):
        if buf[i] == move:
            at = i
    if at < 0:
        return EPS / n                     # (not legal for this hand: unlikely indeed)
    expert_values(q, r, buf, n, values)
    top = values[0]
    for i in range(1, n):
        if values[i] > top:
            top = values[i]
    for i in range(n):
        total += exp((values[i] - top) / TEMP)
    return (1.0 - EPS) * exp((values[at] - top) / TEMP) / total + EPS / n


cdef double decision_likelihood(const State* past, uint32_t move, const State* root,
                                const CRules* r, uint64_t hand) noexcept nogil:
    """The likelihood of the opponent's move in `past` had its hand now been `hand`
    (a candidate, known cards included): `past` re-dealt from the searcher's view."""
    cdef int me = root.to_move
    cdef int opp = me ^ 1
    cdef State q = past[0]
    cdef uint64_t gained = root.hand[opp] & ~past.hand[opp]   # known to the searcher
    cdef uint64_t lost = past.hand[opp] & ~root.hand[opp]     # public since
    cdef uint64_t then = (hand & ~gained) | lost
    cdef uint64_t pool = past.hand[opp]
    cdef uint64_t rest
    cdef int i
    for i in range(past.deck_len):
        if not (past.known_deck & bit(past.deck[i])):
            pool |= bit(past.deck[i])
    if (then & ~pool) or popcount(then) != popcount(past.hand[opp]):
        return 1.0                         # not reconstructible: no evidence
    rest = pool & ~then
    q.hand[opp] = then
    for i in range(q.deck_len):
        if not (q.known_deck & bit(q.deck[i])):
            q.deck[i] = <int8_t>lowest(rest)
            rest &= rest - 1
    rng_seed(&q.rng, 0, STREAM_GAME)
    return move_likelihood(&q, r, move)


cdef void belief_build(Belief* b, const Seen* o, const State* root, const CRules* r,
                       Rng* g) noexcept nogil:
    cdef double logw[N_CANDIDATES]
    cdef State s
    cdef int me = root.to_move
    cdef int opp = me ^ 1
    cdef int c, j
    cdef uint64_t hidden
    cdef double lo, hi
    b.n = 0
    if o.n == 0 or hand_is_public(root, r, opp):
        return
    unknown_cards(root, r, me, &hidden)
    if hidden == 0:
        return
    for c in range(N_CANDIDATES):
        s = root[0]
        determinize(&s, r, me, g)
        b.hands[c] = s.hand[opp]
        logw[c] = 0.0
        for j in range(o.n):
            logw[c] += log(decision_likelihood(&o.before[j], o.move[j], root, r,
                                               s.hand[opp]))
    lo = hi = logw[0]
    for c in range(1, N_CANDIDATES):
        lo = logw[c] if logw[c] < lo else lo
        hi = logw[c] if logw[c] > hi else hi
    if hi - lo < 1e-9:
        return                             # nothing tells the candidates apart
    for c in range(N_CANDIDATES):
        b.cum[c] = exp(logw[c] - hi) + (b.cum[c - 1] if c > 0 else 0.0)
    b.n = N_CANDIDATES


cdef inline int pick(const Belief* b, Rng* g) noexcept nogil:
    # A candidate drawn by weight (binary search of the cumulative weights).
    cdef double u = (rng_next(g) >> 11) * (1.0 / 9007199254740992.0) * b.cum[b.n - 1]
    cdef int lo = 0, hi = b.n - 1, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if b.cum[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return lo


cdef void belief_deal(const Belief* b, State* s, const CRules* r, int p, Rng* g) noexcept nogil:
    cdef int8_t pool[NCARDS]
    cdef int opp = p ^ 1
    cdef int n = 0, i, k = 0
    cdef uint64_t hidden, hand, m
    if b.n == 0:
        determinize(s, r, p, g)
        return
    hand = b.hands[pick(b, g)]
    m = unknown_cards(s, r, p, &hidden) & ~hand
    s.hand[opp] = hand
    while m:                               # in card order: the view decides the sample
        pool[n] = <int8_t>lowest(m)
        n += 1
        m &= m - 1
    shuffle(pool, n, g)
    for i in range(s.deck_len):
        if not (s.known_deck & bit(s.deck[i])):
            s.deck[i] = pool[k]
            k += 1
    rng_seed(&s.rng, rng_next(g), STREAM_GAME)
