# cython: language_level=3
"""The compact action space (the codec is in _actions.pxd; docs/rl.md explains it):
legal actions and masks of a game, and the codec for Python."""

from libc.stdint cimport uint64_t, uint32_t, int32_t, int8_t
from libc.string cimport memset

from cuttle._state cimport *
from cuttle._engine cimport gen_moves
from cuttle._core cimport CoreGame

ACTION_SPACE = N_ACTIONS

# The blocks of the space: (name, first action, size), in order.
ACTION_BLOCKS = (
    ("draw", A_DRAW, 1), ("pass", A_PASS, 1), ("resolve", A_RESOLVE, 1),
    ("points", A_POINTS, A_SCUTTLE - A_POINTS),
    ("scuttle", A_SCUTTLE, A_ROYAL - A_SCUTTLE),
    ("royal", A_ROYAL, A_GLASSES - A_ROYAL),
    ("glasses", A_GLASSES, A_JACK - A_GLASSES),
    ("jack", A_JACK, A_ONEOFF - A_JACK),
    ("oneoff", A_ONEOFF, A_ONEOFF_TWO - A_ONEOFF),
    ("oneoff_two", A_ONEOFF_TWO, A_ONEOFF_EIGHT - A_ONEOFF_TWO),
    ("oneoff_eight", A_ONEOFF_EIGHT, A_ONEOFF_NINE - A_ONEOFF_EIGHT),
    ("oneoff_nine", A_ONEOFF_NINE, A_COUNTER - A_ONEOFF_NINE),
    ("counter", A_COUNTER, A_TAKE - A_COUNTER),
    ("take", A_TAKE, A_DISCARD - A_TAKE),
    ("discard", A_DISCARD, A_DISCARD_TWO - A_DISCARD),
    ("discard_two", A_DISCARD_TWO, A_BLOCK - A_DISCARD_TWO),
    ("block", A_BLOCK, N_ACTIONS - A_BLOCK),
)


cdef enum:
    SEEN_WORDS = (N_ACTIONS + 63) >> 6


cdef int legal_actions(const State* s, const CRules* r, uint32_t* moves,
                       int32_t* out) noexcept nogil:
    # Sorted through a bitmap of the space: O(n + N_ACTIONS / 64) even for the 4's
    # discards, whose generation order is not the actions' order.
    cdef uint64_t seen[SEEN_WORDS]
    cdef int n = gen_moves(s, r, moves)
    cdef int i, w, a, k = 0
    cdef uint64_t m
    memset(seen, 0, sizeof(seen))
    for i in range(n):
        a = action_of_move(moves[i])
        seen[a >> 6] |= (<uint64_t>1) << (a & 63)
    for w in range(SEEN_WORDS):
        m = seen[w]
        while m:
            a = (w << 6) + lowest(m)
            m &= m - 1
            out[k] = a
            k += 1
    return k


def action_of_code(code):
    """The compact action of a 16-bit move code; ValueError for a code outside the
    space (no position makes it legal)."""
    if not (0 <= code < (1 << 16)):
        raise ValueError(f"move code {code!r} is outside 0..65535")
    cdef int a = action_of_move(<uint32_t>code)
    if a == NO_ACTION:
        raise ValueError(f"move code {code} is never legal, so it has no compact action")
    return a


def code_of_action(action):
    """The 16-bit move code of a compact action; ValueError outside 0..ACTION_SPACE-1."""
    if not (0 <= action < N_ACTIONS):
        raise ValueError(f"action {action!r} is outside 0..{N_ACTIONS - 1}")
    return move_of_action(<int>action)


def game_legal_actions(CoreGame game):
    """The legal compact actions of the player to decide in `game`, ascending."""
    cdef uint32_t moves[MAX_MOVES]
    cdef int32_t acts[MAX_MOVES]
    cdef int n = legal_actions(&game.st, &game.cr, moves, acts)
    return [acts[i] for i in range(n)]


def game_action_mask(CoreGame game, int8_t[::1] out):
    """Write the int8 mask of the legal compact actions of `game` into `out`
    (length ACTION_SPACE); returns the number of legal actions."""
    cdef uint32_t moves[MAX_MOVES]
    cdef int32_t acts[MAX_MOVES]
    if out.shape[0] != N_ACTIONS:
        raise ValueError(f"the mask needs {N_ACTIONS} entries, not {out.shape[0]}")
    cdef int i, n = legal_actions(&game.st, &game.cr, moves, acts)
    memset(&out[0], 0, N_ACTIONS)
    for i in range(n):
        out[acts[i]] = 1
    return n
