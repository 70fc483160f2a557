# cython: language_level=3
"""The expert's evaluation weights (_weights.pxd): the expert's set EXPERT_EW, from
EXPERT_WEIGHTS, and the search's leaf values LEAF_EW[LEAF_EXPERT] (a copy of the
expert's) and LEAF_EW[LEAF_FITTED] (LEAF_WEIGHTS, fitted to who wins), with the tables
derived from each (own_tables).  Python sets and reads them for tuning and experiments;
the native code reads them through expert_weights() and leaf_weights()."""

from cuttle._state cimport NCARDS, rank_of

# The expert's set (its moves, and the search's priors), and the sets of the search's
# leaf value (position_value), one per kind (_weights.pxd: LEAF_EXPERT, a copy of the
# expert's; LEAF_FITTED, LEAF_WEIGHTS below), each settable for experiments
# (_set_leaf_weights).
cdef EvalWeights EXPERT_EW
cdef EvalWeights LEAF_EW[N_LEAVES]

# Tuned by self-play against greedy and random under both presets (SPSA), then by a
# hill-climb for cheaper self-play games at the same strength (at least 97.5% against
# random and 73% against greedy): see docs/strength.md.  The ratio weights (mywin,
# nine, countered, threat, opp_hand) are shares; the others are on the points scale.
EXPERT_WEIGHTS = {"prog": 1.0, "win": 473.328, "king": -0.124, "queen": 0.917,
    "glasses": 0.262, "avg": 2.9, "mywin": 2.296, "mywin_p": 177.454,
    "nine": -1.24, "countered": 0.974, "seven": 0.082, "threat": 0.317,
    "opp_hand": 1.674, "crowd": 0.108,
    "hand": (0.506, 3.082, 1.982, 2.221, 2.415, 4.438, 0.829, 2.227, 2.12, 1.407,
             5.829, 0.23, 1.118, 5.441)}
# The search's leaf value fitted to predict who wins (LEAF_FITTED: ismcts-infer's, with
# playouts of 2 moves; ismcts keeps the expert's weights at scale 30): the log-loss of
# position_value against the results of 2,250 games of ismcts:1000 self-play, 0.592
# against 0.835 on 750 held-out games (benchmarks/fit_leaf_value.py; "seven" and the
# joker are not fitted; docs/strength.md, "A leaf value fitted to who wins").
#   python benchmarks/leaf_data.py --bot ismcts:1000 --games 3000 --seed 555 --out leaf.npz
#   python benchmarks/fit_leaf_value.py leaf.npz --budget 480 --out fit.json
LEAF_WEIGHTS = {"prog": 1.0, "win": 42.5545, "king": 2.87366, "queen": 6.55919,
    "glasses": 2.76591, "avg": 5.15996, "mywin": 0.473998, "mywin_p": 6.23537,
    "nine": -1.2245, "countered": 0.500611, "seven": 0.082, "threat": 1.56866,
    "opp_hand": 0.793638, "crowd": 1.96347, "tempo": 3.54531,
    "hand": (4.69213, 7.7065, 0.941644, 3.18053, 3.18053, 5.17781, 3.704, 3.48404,
             4.21578, 5.52825, 6.46029, 1.98156, 3.63219, 5.441)}
LEAF_SCALE = 8.35963
LEAF_SETS = ("expert", "fitted")     # the leaf values by index (LEAF_EXPERT, LEAF_FITTED)
assert LEAF_SETS.index("fitted") == LEAF_FITTED and len(LEAF_SETS) == N_LEAVES

_WEIGHT_INDEX = {"prog": EW_PROG, "win": EW_WIN, "king": EW_KING, "queen": EW_QUEEN,
                 "glasses": EW_GLASSES, "avg": EW_AVG, "mywin": EW_MYWIN,
                 "mywin_p": EW_MYWIN_P, "nine": EW_NINE, "countered": EW_COUNTERED,
                 "seven": EW_SEVEN, "threat": EW_THREAT, "opp_hand": EW_OPP_HAND,
                 "crowd": EW_CROWD, "tempo": EW_TEMPO}


cdef void own_tables(EvalWeights* ew) noexcept:
    cdef int n, rk, v, held, j, b, c
    cdef double g
    cdef double own_g[10]
    cdef double* w = ew.w
    for n in range(1, 11):
        for rk in range(10):
            v = rk + 1
            own_g[rk] = w[EW_PROG] * (v if v < n else n) - w[EW_HAND + rk]
        for held in range(1024):
            g = -1e300
            for rk in range(10):
                if held & (1 << rk) and own_g[rk] > g:
                    g = own_g[rk]
            ew.own_best[n][held] = g
    for j in range(8):
        for b in range(256):
            g = 0.0
            for c in range(8 * j, 8 * j + 8):
                if b & (1 << (c - 8 * j)) and c < NCARDS:
                    g += w[EW_HAND + rank_of(c)]
            ew.hand_v[j][b] = g

cdef set_weights(EvalWeights* ew, weights):
    for k, v in weights.items():
        if k == "hand":
            if len(v) != 14:
                raise ValueError(f"hand: 14 weights (Ace .. King, joker), not {len(v)}")
            for i, x in enumerate(v):
                ew.w[EW_HAND + i] = x
        else:
            ew.w[_WEIGHT_INDEX[k]] = v
    own_tables(ew)

cdef dict get_weights(const EvalWeights* ew):
    out = {k: ew.w[i] for k, i in _WEIGHT_INDEX.items()}
    out["hand"] = tuple(ew.w[EW_HAND + i] for i in range(14))
    return out


def _set_expert_weights(weights):
    """Set the expert's evaluation weights (a dict like EXPERT_WEIGHTS, keys left out
    unchanged); for tuning only.  The search's leaf value has its own
    (_set_leaf_weights)."""
    set_weights(&EXPERT_EW, weights)


def check_leaf(which):
    """`which` if it names a leaf value (an index of LEAF_SETS), else ValueError."""
    if isinstance(which, bool) or which not in range(N_LEAVES):
        raise ValueError(f"no leaf value {which!r}: " + ", ".join(
            f"{i} ({name})" for i, name in enumerate(LEAF_SETS)))
    return which


def _set_leaf_weights(weights=None, int which=LEAF_EXPERT):
    """Set the weights of the search's leaf value `which` (LEAF_EXPERT: the one of
    ismcts and ismcts-random, LEAF_FITTED: ismcts-infer's), like _set_expert_weights;
    None: its default (a copy of the expert's, or LEAF_WEIGHTS).  For experiments:
    they are process-wide, like the search's settings."""
    check_leaf(which)
    if weights is None:
        LEAF_EW[which] = EXPERT_EW
        if which == LEAF_FITTED:
            set_weights(&LEAF_EW[which], LEAF_WEIGHTS)
    else:
        set_weights(&LEAF_EW[which], weights)


def _expert_weights():
    """The expert's evaluation weights, as a dict like EXPERT_WEIGHTS."""
    return get_weights(&EXPERT_EW)


def _leaf_weights(int which=LEAF_EXPERT):
    """The weights of the search's leaf value `which`, as a dict like EXPERT_WEIGHTS."""
    return get_weights(&LEAF_EW[check_leaf(which)])


_set_expert_weights(EXPERT_WEIGHTS)
_set_leaf_weights(None, LEAF_EXPERT)
_set_leaf_weights(None, LEAF_FITTED)


cdef const EvalWeights* expert_weights() noexcept nogil:
    return &EXPERT_EW

cdef const EvalWeights* leaf_weights(int leaf) noexcept nogil:
    return &LEAF_EW[leaf]
