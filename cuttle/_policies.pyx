# cython: language_level=3
"""The native policies' dispatcher: choose_move picks a move by any policy code, and
play_out plays a game out with one policy per seat (a searching player keeps its tree
from one decision to the next).  The policies themselves live in _sampler (random),
_greedy, _expert and _search (ISMCTS); `POLICIES` names them for Python
(cuttle/policies.py parses the names).

Every policy sees only what its player may know: greedy reads the public table, hand
sizes and its own hand; expert works on a canonical view of its player's knowledge;
ISMCTS searches over determinizations of its player's view.
"""

from libc.stdint cimport uint32_t

from cuttle._state cimport (State, CRules, Rng, MAX_MOVES, PH_OVER, END_MOVE_CAP,
                            POL_RANDOM, POL_GREEDY, POL_ISMCTS, POL_ISMCTS_RANDOM, POL_EXPERT,
                            MOVE_NO_MEMORY, is_search)
from cuttle._state cimport POLICY_SHIFT as C_POLICY_SHIFT
from cuttle._engine cimport gen_moves, apply_move
from cuttle._sampler cimport random_move
from cuttle._search cimport Tree, tree_clear, tree_advance, ismcts_move, plain_move

# name: (kind code, takes an iteration count)
POLICIES = {"random": (POL_RANDOM, False), "greedy": (POL_GREEDY, False),
            "ismcts": (POL_ISMCTS, True), "ismcts-random": (POL_ISMCTS_RANDOM, True),
            "expert": (POL_EXPERT, False)}
POLICY_SHIFT = C_POLICY_SHIFT   # a policy code is kind | iterations << POLICY_SHIFT

cdef enum:
    MAX_SINCE = 256           # moves between two searches of a player that reuse follows


cdef uint32_t choose_move(State* s, const CRules* r, int policy, Rng* g,
                          uint32_t* buf, int n) noexcept nogil:
    if n == 1:
        return buf[0]
    if is_search(policy):
        return ismcts_move(s, r, policy, g, buf, n, NULL)
    return plain_move(s, r, policy, g, buf, n)


cdef int play_out(State* s, const CRules* r, int pol0, int pol1, Rng* g,
                  int max_moves) noexcept nogil:
    """Play to the end with seat 0 using pol0 and seat 1 pol1; returns the moves made,
    or -1 if a search ran out of memory.  A searching player keeps its tree from one
    decision to the next (tree_advance)."""
    cdef uint32_t buf[MAX_MOVES]
    cdef int n, pol, k = 0
    if is_search(pol0) or is_search(pol1):
        return play_out_searching(s, r, pol0, pol1, g, max_moves)
    while s.phase != PH_OVER:
        if k >= max_moves:
            s.phase = PH_OVER
            s.end_reason = END_MOVE_CAP
            break
        pol = pol1 if s.to_move else pol0
        if pol == POL_RANDOM:
            apply_move(s, r, random_move(s, r, g))
        else:
            n = gen_moves(s, r, buf)
            apply_move(s, r, choose_move(s, r, pol, g, buf, n))
        k += 1
    return k

cdef int play_out_searching(State* s, const CRules* r, int pol0, int pol1, Rng* g,
                            int max_moves) noexcept nogil:
    # play_out with a search player: each keeps its tree and the moves played since.
    cdef uint32_t buf[MAX_MOVES]
    cdef uint32_t since[2][MAX_SINCE]   # each seat's moves since its last search
    cdef int nsince[2]
    cdef Tree trees[2]
    cdef int n, p, pol, k = 0
    cdef uint32_t m
    for p in range(2):
        nsince[p] = 0
        trees[p].nodes = NULL
        trees[p].n = trees[p].cap = 0
    while s.phase != PH_OVER:
        if k >= max_moves:
            s.phase = PH_OVER
            s.end_reason = END_MOVE_CAP
            break
        p = s.to_move
        pol = pol1 if p else pol0
        if pol == POL_RANDOM:
            m = random_move(s, r, g)
        else:
            n = gen_moves(s, r, buf)
            if is_search(pol) and n > 1:
                if nsince[p] > MAX_SINCE or tree_advance(&trees[p], since[p], nsince[p]) < 0:
                    trees[p].n = 0
                nsince[p] = 0
                m = ismcts_move(s, r, pol, g, buf, n, &trees[p])
                if m == MOVE_NO_MEMORY:
                    k = -1
                    break
            else:
                m = choose_move(s, r, pol, g, buf, n)
        apply_move(s, r, m)
        for p in range(2):
            if nsince[p] < MAX_SINCE:
                since[p][nsince[p]] = m
            nsince[p] += 1
        k += 1
    tree_clear(&trees[0])
    tree_clear(&trees[1])
    return k

