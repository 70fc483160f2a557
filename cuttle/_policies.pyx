# cython: language_level=3
"""The native policies: random, greedy (a one-move look-ahead over a static evaluation)
and information-set MCTS, and the loop that plays a game out with them.

Every policy sees only what its player may know: greedy reads the public table, hand
sizes and its own hand; ISMCTS searches over determinizations of its player's view.
`POLICIES` names them for Python (cuttle/policies.py parses the names).
"""

from libc.stdint cimport uint64_t, uint32_t, int32_t
from libc.stdlib cimport malloc, free
from libc.math cimport log, sqrt

from cuttle._state cimport *
from cuttle._rng cimport rng_below
from cuttle._engine cimport gen_moves, apply_move, score, goal
from cuttle._hidden cimport determinize
from cuttle._signals cimport poll_interrupt

# name: (kind code, takes an iteration count)
POLICIES = {"random": (POL_RANDOM, False), "greedy": (POL_GREEDY, False),
            "ismcts": (POL_ISMCTS, True), "ismcts-random": (POL_ISMCTS_RANDOM, True)}
POLICY_PARAM_SHIFT = POLICY_SHIFT

# ---------------------------------------------------------------------------------------
# Greedy: a static evaluation and a one-move look-ahead.

cdef double WIN_VALUE = 1e6

cdef double evaluate(const State* s, const CRules* r, int me) noexcept nogil:
    """Static value of a position for `me`: progress to the goal, cards, threats."""
    cdef int opp = me ^ 1
    if s.phase == PH_OVER:
        if s.winner == me:
            return WIN_VALUE
        if s.winner == opp:
            return -WIN_VALUE
        return 0.0
    cdef double v = 0.0
    cdef int g_me = goal(s, r, me)
    cdef int g_op = goal(s, r, opp)
    cdef int need_me = g_me - score(s, me)
    cdef int need_op = g_op - score(s, opp)
    # Progress: every point matters more the closer it brings a player to the goal.
    v += 100.0 * (1.0 - need_me / <double>(g_me if g_me > 0 else 1))
    v -= 100.0 * (1.0 - need_op / <double>(g_op if g_op > 0 else 1))
    # An opponent within one point card of the goal threatens to win next turn.
    if need_op <= 10 and s.hand[opp]:
        v -= 6.0 * (11 - need_op)
    if need_me <= 10 and s.hand[me]:
        v += 2.0 * (11 - need_me)
    v += 4.0 * (popcount(s.hand[me]) - popcount(s.hand[opp]))
    v += 8.0 * (popcount(s.perm[me] & QUEENS) - popcount(s.perm[opp] & QUEENS))
    v += 3.0 * (popcount(s.perm[me] & EIGHTS) - popcount(s.perm[opp] & EIGHTS))
    return v

cdef double greedy_value(State* s, const CRules* r, int me, int depth) noexcept nogil:
    """Value of `s` for `me` after settling the decisions that follow one move: the
    opponent is assumed to let one-offs and scuttles resolve, and the follow-up choices
    (a 3's pick, a 4's discards, a 7's card, ...) are searched one level deep."""
    cdef uint32_t buf[MAX_MOVES]
    cdef State child
    cdef int n, i
    cdef double best, v
    while s.phase != PH_OVER and s.to_move != me and \
            (s.phase == PH_COUNTER or s.phase == PH_BLOCK):
        apply_move(s, r, mk(V_RESOLVE, NO_CARD, NO_CARD))
    if s.phase == PH_OVER or s.phase == PH_MAIN or depth <= 0 or s.to_move != me:
        # Leaves: the opponent's own choices depend on their hidden hand.
        return evaluate(s, r, me)
    if s.phase == PH_SEVEN:
        # The revealed cards come from the hidden deck: value the 7 as a card to come.
        return evaluate(s, r, me) + 4.0
    n = gen_moves(s, r, buf)
    best = -1e18
    for i in range(n):
        child = s[0]
        apply_move(&child, r, buf[i])
        v = greedy_value(&child, r, me, depth - 1)
        if v > best:
            best = v
    return best

cdef uint32_t greedy_move(State* s, const CRules* r, Rng* g, uint32_t* buf, int n) noexcept nogil:
    cdef int me = s.to_move
    cdef State child
    cdef int i, nbest = 0
    cdef double v, best = -1e18
    cdef uint32_t choice = buf[0]
    for i in range(n):
        child = s[0]
        apply_move(&child, r, buf[i])
        v = greedy_value(&child, r, me, 2)
        if v > best + 1e-9:
            best = v
            choice = buf[i]
            nbest = 1
        elif v > best - 1e-9:
            # Break ties uniformly (reservoir sampling) so greedy is not predictable.
            nbest += 1
            if rng_below(g, nbest) == 0:
                choice = buf[i]
    return choice

cdef uint32_t choose_move(State* s, const CRules* r, int policy, Rng* g,
                                 uint32_t* buf, int n) noexcept nogil:
    if n == 1:
        return buf[0]
    cdef int kind = policy & POLICY_KIND_MASK
    if kind == POL_GREEDY:
        return greedy_move(s, r, g, buf, n)
    if kind == POL_ISMCTS_RANDOM or kind == POL_ISMCTS:
        return ismcts_move(s, r, policy >> POLICY_SHIFT,
                           POL_GREEDY if kind == POL_ISMCTS else POL_RANDOM, g, buf, n)
    return buf[rng_below(g, n)]


cdef int play_out(State* s, const CRules* r, int pol0, int pol1, Rng* g,
                  int max_moves) noexcept nogil:
    """Play to the end with seat 0 using pol0 and seat 1 pol1; returns the moves made."""
    cdef uint32_t buf[MAX_MOVES]
    cdef int n, k = 0
    while s.phase != PH_OVER:
        if k >= max_moves:
            s.phase = PH_OVER
            s.end_reason = END_MOVE_CAP
            break
        n = gen_moves(s, r, buf)
        apply_move(s, r, choose_move(s, r, pol1 if s.to_move else pol0, g, buf, n))
        k += 1
    return k


# ---------------------------------------------------------------------------------------
# Information-set MCTS (single observer): every iteration samples a determinization of
# the decider's view, walks the tree with UCB restricted to the moves available in that
# sample (availability counts, as in Cowling, Powley & Whitehouse 2012), expands one
# node, plays a random playout and backs the result up for each node's mover.

ctypedef struct Node:
    uint32_t move
    int32_t parent
    int32_t first_child
    int32_t next_sibling
    int32_t player            # who chose `move`
    int32_t visits
    int32_t avail
    double reward             # wins (draw = 1/2) of `player` through this node

cdef double UCB_C = 0.7

cdef inline int in_moves(uint32_t m, const uint32_t* buf, int n) noexcept nogil:
    cdef int i
    for i in range(n):
        if buf[i] == m:
            return 1
    return 0

cdef uint32_t ismcts_move(const State* root, const CRules* r, int iters, int rollout, Rng* g,
                          const uint32_t* root_moves, int n_root) noexcept nogil:
    if iters < 1:
        iters = 1
    cdef Node* nodes = <Node*>malloc((iters + 1) * sizeof(Node))
    if nodes == NULL:
        return root_moves[rng_below(g, n_root)]
    cdef uint32_t buf[MAX_MOVES]
    cdef State s
    cdef int me = root.to_move
    cdef int n_nodes = 1
    cdef int it, node, child, best_child, n, i, untried, pick, w
    cdef double score_, best_score, logn
    cdef uint32_t mv = root_moves[0]
    nodes[0].parent = -1
    nodes[0].first_child = -1
    nodes[0].next_sibling = -1
    nodes[0].visits = 0
    nodes[0].reward = 0
    for it in range(iters):
        if (it & 15) == 0 and poll_interrupt():
            break                          # Ctrl-C: answer with the best move so far
        s = root[0]
        determinize(&s, r, me, g)
        node = 0
        while s.phase != PH_OVER:
            n = gen_moves(&s, r, buf)
            # Available children get an availability count; untried moves are counted.
            untried = n
            child = nodes[node].first_child
            while child >= 0:
                if in_moves(nodes[child].move, buf, n):
                    nodes[child].avail += 1
                    untried -= 1
                child = nodes[child].next_sibling
            if untried > 0 and n_nodes <= iters:
                pick = <int>rng_below(g, untried)
                for i in range(n):
                    mv = buf[i]
                    child = nodes[node].first_child
                    while child >= 0 and nodes[child].move != mv:
                        child = nodes[child].next_sibling
                    if child < 0:
                        if pick == 0:
                            break
                        pick -= 1
                child = n_nodes
                n_nodes += 1
                nodes[child].move = mv
                nodes[child].parent = node
                nodes[child].first_child = -1
                nodes[child].next_sibling = nodes[node].first_child
                nodes[child].player = s.to_move
                nodes[child].visits = 0
                nodes[child].avail = 1
                nodes[child].reward = 0
                nodes[node].first_child = child
                apply_move(&s, r, mv)
                node = child
                break
            if untried > 0:
                break                      # node pool full: play out from here
            best_child = -1
            best_score = -1.0
            child = nodes[node].first_child
            while child >= 0:
                if nodes[child].visits > 0 and in_moves(nodes[child].move, buf, n):
                    logn = log(<double>nodes[child].avail)
                    score_ = nodes[child].reward / nodes[child].visits + \
                        UCB_C * sqrt(logn / nodes[child].visits)
                    if score_ > best_score:
                        best_score = score_
                        best_child = child
                child = nodes[child].next_sibling
            if best_child < 0:
                break
            apply_move(&s, r, nodes[best_child].move)
            node = best_child
        play_out(&s, r, rollout, rollout, g, 10000)
        w = s.winner
        while node >= 0:
            nodes[node].visits += 1
            if node > 0:
                if w < 0:
                    nodes[node].reward += 0.5
                elif w == nodes[node].player:
                    nodes[node].reward += 1.0
            node = nodes[node].parent
    # The most visited root move that is legal here (all root children are).
    mv = root_moves[0]
    best_score = -1
    child = nodes[0].first_child
    while child >= 0:
        if nodes[child].visits > best_score:
            best_score = nodes[child].visits
            mv = nodes[child].move
        child = nodes[child].next_sibling
    free(nodes)
    return mv
