# cython: language_level=3
# Inference of the opponent's hidden hand from its recent decisions: a search keeps
# what it saw (Seen) between its decisions, and weighs candidate hands by how likely the
# opponent's moves are under a model of its play (Belief), so that its determinizations
# are not uniform.  Nothing here reads a hidden card: see _infer.pyx.

from libc.stdint cimport uint32_t, uint64_t
from cuttle._state cimport State, CRules, Rng

cdef enum:
    MAX_SEEN = 12             # the opponent's most recent decisions that are weighed
    N_CANDIDATES = 64         # candidate hands weighed per search
    MAX_CHANGES = 64          # moves that changed the opponent's hand, kept since its
                              # oldest kept decision

# The models of the opponent's play (a search's `infer` setting; 0: no inference).
cdef enum:
    MODEL_EXPERT = 1          # the expert's values of the legal moves as a softmax
    MODEL_LEARNED = 2         # a conditional logit over move features (move_features),
                              # its weights fitted on the search's own games
    N_MODELS = 3
    N_FEATURES = 31           # move_features' length: LEARNED_WEIGHTS in _infer.pyx

ctypedef struct HandChange:
    # How the opponent's hand changed in one move, as the searcher saw it.
    uint64_t lost             # the cards it lost to public places
    uint64_t seen             # the cards it gained that the searcher sees
    int draws                 # how many cards it gained that the searcher cannot see
    uint64_t known            # the cards the searcher knew in its hand before the move

ctypedef struct Seen:
    # The position of the searcher's last search, and the opponent's decisions since
    # (and before, while its hand stayed reconstructible: see seen_follow), with the
    # changes of its hand from each decision on.
    State last
    int has_last
    State before[MAX_SEEN]    # the positions the opponent decided in, oldest first
    uint32_t move[MAX_SEEN]   # ... and its moves there
    int first_change[MAX_SEEN]  # ... and the first change of its hand from there on
    int n
    HandChange changes[MAX_CHANGES]
    int n_changes

ctypedef struct Belief:
    # Candidate hands of the opponent and their cumulative weights (n = 0: none, the
    # determinizations are uniform).
    uint64_t hands[N_CANDIDATES]
    double cum[N_CANDIDATES]
    int n

cdef inline double largest(const double* v, int n) noexcept nogil:
    # The largest of v[0 .. n-1] (n >= 1): the best legal move's value, or logit.
    cdef double top = v[0]
    cdef int i
    for i in range(1, n):
        if v[i] > top:
            top = v[i]
    return top

cdef inline void seen_reset(Seen* o) noexcept nogil:
    o.has_last = 0
    o.n = 0
    o.n_changes = 0

cdef inline void seen_search(Seen* o, const State* root) noexcept nogil:
    # The searcher searches from root: the moves that follow are replayed from here.
    o.last = root[0]
    o.has_last = 1

# Replay the k moves played since the last search, keeping the opponent's decisions.
cdef void seen_follow(Seen* o, const CRules* r, const uint32_t* moves, int k) noexcept nogil
# What a searcher deciding for `me` after a game's n moves (hist[i]: the position before
# moves[i]) kept of them: reset, then from its first decision with a choice there,
# seen_search and seen_follow to the end (nothing when it had none).
cdef void seen_recall(Seen* o, const State* hist, const uint32_t* moves, Py_ssize_t n,
                      const CRules* r, int me) noexcept nogil
# Weigh N_CANDIDATES determinizations of the searcher's view of root by the likelihood
# of the decisions in o (b.n = 0 when nothing was seen or nothing tells them apart).
cdef void belief_build(Belief* b, const Seen* o, const State* root, const CRules* r,
                       int model, Rng* g) noexcept nogil
# Its candidate hands and their weights (summing to 1) as a list of (hand mask, weight);
# [] when the deals are uniform (for measurements and tests).
cdef list belief_weights(const Belief* b)
# A determinization of s for p: the opponent's hand drawn from b by weight, the other
# unknown cards shuffled into the deck's unknown places (uniform when b.n == 0).
cdef void belief_deal(const Belief* b, State* s, const CRules* r, int p, Rng* g) noexcept nogil
# The model's probability of `move` for the player to decide in q (for tests: _infer's
# Python helper); 1 when q has a single legal move.
cdef double move_likelihood(const State* q, const CRules* r, uint32_t move,
                            int model) noexcept nogil
# The learned model's features of one legal move (out: N_FEATURES values), given the
# expert's value of it and the best value among the legal moves.
cdef void move_features(uint32_t move, double value, double top, double* out) noexcept nogil
# The learned model's logit of a move (its features under LEARNED_WEIGHTS), from the
# expert's value of it and of the best legal move: the search's prior (cfg.prior).
cdef double learned_logit(uint32_t move, double value, double top) noexcept nogil
