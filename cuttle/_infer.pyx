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
from libc.string cimport memset
from cpython.mem cimport PyMem_Malloc, PyMem_Free

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


cdef void keep_decision(Seen* o, const State* at, uint32_t move) noexcept nogil:
    # The opponent decided `move` in `at`: kept as the newest (the oldest forgotten when
    # MAX_SEEN are kept).
    if o.n == MAX_SEEN:
        forget_oldest(o)
    o.before[o.n] = at[0]
    o.move[o.n] = move
    o.first_change[o.n] = o.n_changes
    o.n += 1


def _kept(events):
    """For tests of the bookkeeping: from no history, each event in turn, an opponent
    decision (None) or a change of its hand with k hidden draws (k >= 0: it drew k cards
    unseen and lost one to a public place); what is kept: (decisions, [the first kept
    change of each], [the hidden draws of each kept change])."""
    cdef Seen* o = <Seen*>PyMem_Malloc(sizeof(Seen))
    cdef State blank
    cdef int k
    if o == NULL:
        raise MemoryError()
    try:
        memset(&blank, 0, sizeof(State))
        seen_reset(o)
        for e in events:
            if e is None:
                keep_decision(o, &blank, 0)
            else:
                k = e
                if not 0 <= k < 63:
                    raise ValueError(f"a change draws 0 to 62 cards, not {e!r}")
                record_change(o, <uint64_t>1 << 63, 0, ((<uint64_t>1) << k) - 1, 0)
        return (o.n, [o.first_change[k] for k in range(o.n)],
                [o.changes[k].draws for k in range(o.n_changes)])
    finally:
        PyMem_Free(o)


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
            keep_decision(o, &cur, moves[i])
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


cdef void seen_recall(Seen* o, const State* hist, const uint32_t* moves, Py_ssize_t n,
                      const CRules* r, int me) noexcept nogil:
    """What a searcher deciding for `me` now had kept of the game's n moves, had it
    searched at each of its decisions with a choice since the first (seen_search there,
    seen_follow since: following the moves in one stretch or between its searches keeps
    the same, each search's position being the one the moves led to).  A searcher that
    joins a game under way reads it so from its record; one that followed from its first
    decision saw nothing before it either way."""
    cdef uint32_t buf[MAX_MOVES]
    cdef Py_ssize_t j = 0
    seen_reset(o)
    while j < n and not (hist[j].to_move == me and hist[j].phase != PH_OVER
                         and gen_moves(&hist[j], r, buf) > 1):
        j += 1
    if j == n:
        return
    seen_search(o, &hist[j])
    seen_follow(o, r, &moves[j], <int>(n - j))


# The learned model (MODEL_LEARNED): its features of a move (move_features), in this
# order, and their weights, fitted on ismcts:1000's games against itself (79,002
# decisions of 3,000 classic games) by
#     python benchmarks/fit_opponent_model.py --games 3000 --test-games 1000 --workers 2
# which prints this tuple and LEARNED_EPS (docs/strength.md: how well it predicts).
FEATURE_NAMES = (
    "value", "top", "value log", "near top",
    "draw", "pass", "resolve", "points", "scuttle", "royal", "glasses", "jack", "oneoff",
    "counter", "take", "discard", "block",
    "oneoff A", "oneoff 2", "oneoff 3", "oneoff 4", "oneoff 5", "oneoff 6", "oneoff 7",
    "oneoff 9+", "royal Q", "royal K",
    "points rank", "scuttle rank", "scuttle target rank", "discard rank")
LEARNED_WEIGHTS = (
    +0.0406,    # value
    +0.1494,    # top
    +0.0865,    # value log
    +0.5276,    # near top
    +1.6612,    # draw
    +0.6853,    # pass
    -0.3184,    # resolve
    -0.2928,    # points
    -0.7958,    # scuttle
    +0.5665,    # royal
    -1.8016,    # glasses
    -0.2841,    # jack
    +0.2614,    # oneoff
    +0.3184,    # counter
    -0.0000,    # take
    +0.0000,    # discard
    +0.0000,    # block
    -0.3516,    # oneoff A
    +0.0515,    # oneoff 2
    +0.7822,    # oneoff 3
    +0.9571,    # oneoff 4
    +1.7391,    # oneoff 5
    -0.5070,    # oneoff 6
    -1.0368,    # oneoff 7
    -1.3731,    # oneoff 9+
    +0.4676,    # royal Q
    +0.0989,    # royal K
    +0.0579,    # points rank
    -0.8362,    # scuttle rank
    +1.4788,    # scuttle target rank
    -0.9515,    # discard rank
)
LEARNED_EPS = 0.01            # the learned model's share of a uniform choice

cdef enum:
    F_VALUE = 0               # the expert's value less the best legal move's, per TEMP
    F_TOP = 1                 # the expert's best move (1) or not
    F_VALUE_LOG = 2           # -log(1 + that gap): the gap's scale is wide (a win, a loss)
    F_NEAR_TOP = 3            # within a point of the best (1) or not
    F_VERB = 4                # one per verb (N_VERBS)
    F_ONEOFF = F_VERB + N_VERBS       # one per one-off rank: A 2 3 4 5 6 7, then 9 and up
    F_QUEEN = F_ONEOFF + 8
    F_KING = F_QUEEN + 1
    F_POINTS_RANK = F_KING + 1        # the card's number / 10
    F_SCUTTLE_RANK = F_POINTS_RANK + 1
    F_SCUTTLE_TARGET = F_SCUTTLE_RANK + 1
    F_DISCARD_RANK = F_SCUTTLE_TARGET + 1     # (the mean of a two-card discard's)
    F_END = F_DISCARD_RANK + 1

assert <int>F_END == <int>N_FEATURES == len(FEATURE_NAMES) == len(LEARNED_WEIGHTS)
cdef double WEIGHTS[N_FEATURES]
for _i, _w in enumerate(LEARNED_WEIGHTS):
    WEIGHTS[_i] = _w
cdef double WEIGHTS_EPS = LEARNED_EPS


cdef inline double number(int card) noexcept nogil:
    return (rank_of(card) + 1) * 0.1


cdef void move_features(uint32_t move, double value, double top, double* f) noexcept nogil:
    cdef int verb = mv_verb(move), card = mv_card(move), target = mv_target(move)
    cdef int i, rank
    for i in range(N_FEATURES):
        f[i] = 0.0
    f[F_VALUE] = (value - top) / TEMP
    f[F_TOP] = 1.0 if value >= top else 0.0
    f[F_VALUE_LOG] = -log(1.0 + (top - value) / TEMP)
    f[F_NEAR_TOP] = 1.0 if value >= top - 1.0 else 0.0
    f[F_VERB + verb] = 1.0
    if card >= N_NATURAL:
        return                             # no card, or the joker: the verb says it
    rank = rank_of(card)
    if verb == V_ONEOFF:
        f[F_ONEOFF + (rank if rank < 7 else 7)] = 1.0
    elif verb == V_ROYAL and rank >= 11:
        f[F_QUEEN + rank - 11] = 1.0
    elif verb == V_POINTS:
        f[F_POINTS_RANK] = number(card)
    elif verb == V_SCUTTLE:
        f[F_SCUTTLE_RANK] = number(card)
        if target < N_NATURAL:
            f[F_SCUTTLE_TARGET] = number(target)
    elif verb == V_DISCARD:
        f[F_DISCARD_RANK] = number(card)
        if target < N_NATURAL:
            f[F_DISCARD_RANK] = 0.5 * (number(card) + number(target))


cdef double learned_logit(uint32_t move, double value, double top) noexcept nogil:
    cdef double f[N_FEATURES]
    cdef double z = 0.0
    cdef int i
    move_features(move, value, top, f)
    for i in range(N_FEATURES):
        z += WEIGHTS[i] * f[i]
    return z


cdef double move_likelihood(const State* q, const CRules* r, uint32_t move,
                            int model) noexcept nogil:
    cdef uint32_t buf[MAX_MOVES]
    cdef double values[MAX_MOVES]
    cdef int n = gen_moves(q, r, buf)
    cdef int i, at = -1
    cdef double top, hi, eps, total = 0.0
    if n <= 1:
        return 1.0
    for i in range(n):
        if buf[i] == move:
            at = i
    eps = WEIGHTS_EPS if model == MODEL_LEARNED else EPS
    if at < 0:
        return eps / n                     # (not legal for this hand: unlikely indeed)
    expert_values(q, r, buf, n, values)
    top = largest(values, n)
    if model == MODEL_LEARNED:
        for i in range(n):                 # (the logits replace the values)
            values[i] = learned_logit(buf[i], values[i], top)
        hi = largest(values, n)
        for i in range(n):
            total += exp(values[i] - hi)
        return (1.0 - eps) * exp(values[at] - hi) / total + eps / n
    for i in range(n):
        total += exp((values[i] - top) / TEMP)
    return (1.0 - eps) * exp((values[at] - top) / TEMP) / total + eps / n


cdef double decision_likelihood(const State* past, uint32_t move, const CRules* r,
                                uint64_t then, int model) noexcept nogil:
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
    return move_likelihood(&q, r, move, model)


cdef inline uint64_t one_of(uint64_t cards, Rng* g) noexcept nogil:
    # One of the cards, drawn uniformly (as a bit).
    cdef int j = <int>rng_below(g, popcount(cards))
    cdef int i
    for i in range(j):
        cards &= cards - 1
    return bit(lowest(cards))


cdef double history_loglik(const Seen* o, const CRules* r, uint64_t hand, int model,
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
        total += log(decision_likelihood(&o.before[j], o.move[j], r, hand, model))
    return total


cdef void belief_build(Belief* b, const Seen* o, const State* root, const CRules* r,
                       int model, Rng* g) noexcept nogil:
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
        logw[c] = history_loglik(o, r, s.hand[opp], model, g)
    lo = hi = logw[0]
    for c in range(1, N_CANDIDATES):
        lo = logw[c] if logw[c] < lo else lo
        hi = logw[c] if logw[c] > hi else hi
    if hi - lo < 1e-9:
        return                             # nothing tells the candidates apart
    for c in range(N_CANDIDATES):
        b.cum[c] = exp(logw[c] - hi) + (b.cum[c - 1] if c > 0 else 0.0)
    b.n = N_CANDIDATES


cdef list belief_weights(const Belief* b):
    if b.n == 0:
        return []
    return [(b.hands[i], (b.cum[i] - (b.cum[i - 1] if i > 0 else 0.0)) / b.cum[b.n - 1])
            for i in range(b.n)]


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
