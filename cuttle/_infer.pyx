# cython: language_level=3
"""What the opponent's moves say about its hand (docs/strength.md, issue 25's section).

A uniform determinization deals the opponent any hand consistent with what the searcher
saw; but the opponent chose its moves knowing its hand: when it let a one-off resolve it
probably held no 2 worth playing, when it drew instead of scoring it probably held no
good point card.  So the search keeps the opponent's recent decisions (the positions it
decided in and its moves), and before each search weighs N_CANDIDATES uniform
determinizations by the likelihood of those decisions under a model of the opponent's
play: the expert's values of the legal moves as a softmax (TEMP points per unit of
logit) mixed with a uniform choice (EPS, for the moves the model does not explain).
The search then deals the opponent's hand from the weighted candidates.

Never reading a hidden card: a candidate is a determinization of the searcher's view,
and each past decision is re-dealt for it from the searcher's view alone.  Walking back
from now, the opponent's hand at a decision is the candidate's hand without the cards
it gained since and with the cards it lost since (all public: played, discarded,
scrapped).  The gains the searcher saw are taken out as they are; each hidden draw takes
out one of the cards the searcher did not know were there before, drawn uniformly (as a
uniform deck deals them), so a candidate's weight is one sample of its likelihood over
the ways its hand could have been drawn (unbiased).  The decisions before are forgotten
when the opponent's hand loses a card to a hidden place or becomes public (then its
hand is known and what it did before tells nothing more).  The unknown cards of the
past deck are dealt in card order, since the expert's view of the opponent reads the
deck only as the set of cards it cannot place.
"""

from libc.stdint cimport uint32_t, uint64_t, int8_t
from libc.math cimport exp, log

from cuttle._state cimport *
from cuttle._rng cimport rng_next, rng_seed, rng_below, shuffle, STREAM_GAME
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


cdef inline void forget_all(Seen* o) noexcept nogil:
    o.n = 0
    o.n_changes = 0


cdef void forget_oldest(Seen* o) noexcept nogil:
    # Drop the oldest decision and the changes of the hand before the next one.
    cdef int i, drop = o.first_change[1] if o.n > 1 else o.n_changes
    for i in range(1, o.n):
        o.before[i - 1] = o.before[i]
        o.move[i - 1] = o.move[i]
        o.first_change[i - 1] = o.first_change[i] - drop
    for i in range(drop, o.n_changes):
        o.changes[i - drop] = o.changes[i]
    o.n_changes -= drop
    o.n -= 1


cdef void record_change(Seen* o, uint64_t before, uint64_t known_before, uint64_t after,
                        uint64_t known_after) noexcept nogil:
    # The opponent's hand went from `before` to `after` in one move.  What is kept is
    # public: the cards it lost (to public places), the cards it gained that the
    # searcher sees, and how many it drew unseen.
    cdef uint64_t gained = after & ~before
    cdef HandChange* ch
    if (before & ~after) == 0 and gained == 0:
        return
    while o.n > 0 and o.n_changes == MAX_CHANGES:
        forget_oldest(o)                    # (the oldest may hold no change: loop)
    if o.n == 0:
        return                              # (no decision: no change is kept either)
    ch = &o.changes[o.n_changes]
    ch.lost = before & ~after
    ch.seen = gained & known_after
    ch.draws = popcount(gained & ~known_after)
    ch.known = known_before
    o.n_changes += 1


cdef void seen_follow(Seen* o, const CRules* r, const uint32_t* moves, int k) noexcept nogil:
    """Replay the k moves since the last search from its position, keeping the
    opponent's decisions (the MAX_SEEN most recent) and every change of its hand since
    the oldest, as the searcher saw it (history_loglik walks them back).  The decisions
    before are forgotten when the opponent's hand loses a card to a hidden place or is
    public.  Without a last position nothing is kept."""
    cdef State cur
    cdef int me, opp, i
    cdef uint64_t hidden, before, known_before
    if not o.has_last:
        forget_all(o)
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
            o.first_change[o.n] = o.n_changes
            o.n += 1
        before = cur.hand[opp]
        known_before = cur.known_hand[me] & before
        apply_move(&cur, r, moves[i])
        if (before & ~cur.hand[opp] & unknown_cards(&cur, r, me, &hidden)) or \
                hand_is_public(&cur, r, opp):
            forget_all(o)
        else:
            record_change(o, before, known_before, cur.hand[opp],
                          cur.known_hand[me] & cur.hand[opp])
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


cdef double decision_likelihood(const State* past, uint32_t move, const CRules* r,
                                uint64_t then) noexcept nogil:
    """The likelihood of the opponent's move in `past` had its hand then been `then`:
    `past` re-dealt from the searcher's view (1: `then` does not fit it, no evidence)."""
    cdef int opp = past.to_move
    cdef State q = past[0]
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


cdef inline uint64_t one_of(uint64_t cards, Rng* g) noexcept nogil:
    # One of the cards, drawn uniformly (as a bit).
    cdef int j = <int>rng_below(g, popcount(cards))
    cdef int i
    for i in range(j):
        cards &= cards - 1
    return bit(lowest(cards))


cdef double history_loglik(const Seen* o, const CRules* r, uint64_t hand,
                           Rng* g) noexcept nogil:
    """The log-likelihood of the opponent's kept decisions had its hand now been `hand`
    (a candidate), its hand at each decision walked back from now through the changes
    the searcher saw, each move undone: the cards it saw gained taken out, each unseen
    draw undone by taking out one of the cards the searcher did not know were there
    before the move, drawn uniformly (one sample of how the hand could have been drawn:
    the weight's mean over samples is the likelihood), the cards lost put back.  Stops
    where a candidate cannot be walked back further."""
    cdef int j, k, e = o.n_changes - 1
    cdef uint64_t eligible
    cdef const HandChange* ch
    cdef double total = 0.0
    for j in range(o.n - 1, -1, -1):
        while e >= o.first_change[j]:
            ch = &o.changes[e]
            hand &= ~ch.seen
            for k in range(ch.draws):
                eligible = hand & ~ch.known
                if eligible == 0:
                    return total
                hand &= ~one_of(eligible, g)
            hand |= ch.lost
            e -= 1
        total += log(decision_likelihood(&o.before[j], o.move[j], r, hand))
    return total


cdef void belief_build(Belief* b, const Seen* o, const State* root, const CRules* r,
                       Rng* g) noexcept nogil:
    cdef double logw[N_CANDIDATES]
    cdef State s
    cdef int me = root.to_move
    cdef int opp = me ^ 1
    cdef int c
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
        logw[c] = history_loglik(o, r, s.hand[opp], g)
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
