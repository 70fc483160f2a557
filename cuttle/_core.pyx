# cython: language_level=3
"""`CoreGame`, the native game that `cuttle.Game` (cuttle/game.py) builds on, and the
encodings the Python layer shares with the native modules.

A CoreGame holds one State and CRules (_state.pxd) and the undo history.  Its methods,
all named `_core_*`, are the native side of `cuttle.Game`; game.py is the only module
that calls them.  The native functions of _play take a CoreGame (a Game) and read its
state directly.  Card indices cross this boundary as ints (natural index),
moves as 16-bit codes (`VERBS`, `NO_CARD`, `pack_move`, `unpack_move` below).
"""

from libc.stdint cimport uint64_t, uint32_t, uint16_t, int8_t, int32_t
from libc.string cimport memcpy, memset
from libc.limits cimport INT_MAX
from cpython.mem cimport PyMem_Realloc, PyMem_Free

from cuttle._state cimport *
from cuttle._rng cimport (rng_seed, derive_seed, deal_stream, policy_stream, STREAM_GAME,
                          STREAM_SAMPLE)
from cuttle._engine cimport (gen_moves, is_legal, apply_move, deal, score, goal, hand_is_public,
                             update_knowledge, check_win, states_equal, frozen_now,
                             frozen_next_turn, pending_target)
from cuttle._checks cimport (check_state, check_freezes, FreezeFault, OVER_HAND_LIMIT,
                             FROZEN_WITHOUT_FREEZE)
from cuttle._hidden cimport determinize
from cuttle._playout cimport play_until, end_by_cap, SEAT_ELSEWHERE
from cuttle._checks import StateError, state_error

cdef extern from *:
    """
    #ifdef _OPENMP
    #define CUTTLE_BUILT_OPENMP 1
    #else
    #define CUTTLE_BUILT_OPENMP 0
    #endif
    #ifdef __POPCNT__
    #define CUTTLE_BUILT_POPCNT 1
    #else
    #define CUTTLE_BUILT_POPCNT 0
    #endif
    """
    const int CUTTLE_BUILT_OPENMP
    const int CUTTLE_BUILT_POPCNT

# How the core was compiled (setup.py picks the flags the compiler takes; `cuttle
# --version` says them): without OpenMP native work runs on one core whatever `threads`
# asks (the results are the same), without popcnt bit counts take a slower path.
BUILD = {"openmp": bool(CUTTLE_BUILT_OPENMP), "popcnt": bool(CUTTLE_BUILT_POPCNT)}

# Names of the C enums of _state.pxd, in code order.
PHASE_NAMES = ("main", "counter", "three", "four", "five", "seven", "discard", "block",
               "ten", "over")
END_NAMES = ("none", "goal", "passes", "sudden_death", "move_cap")
VERBS = ("draw", "pass", "resolve", "points", "scuttle", "royal", "glasses", "jack",
         "oneoff", "counter", "take", "discard", "block")
NO_CARD_INDEX = NO_CARD
MOVE_SPACE = 1 << 16          # every move code is below this


def pack_move(int verb, int card, int target):
    """The 16-bit code of a move (card/target NO_CARD_INDEX when absent)."""
    if not (0 <= verb < N_VERBS and 0 <= card <= NO_CARD and 0 <= target <= NO_CARD):
        raise ValueError(f"no move has verb {verb}, card {card}, target {target}")
    return mk(verb, card, target)


def unpack_move(code):
    """(verb, card, target) of a move code; ValueError outside the 16-bit range or for
    an unknown verb."""
    if not (0 <= code < MOVE_SPACE):
        raise ValueError(f"move code {code!r} is outside 0..{MOVE_SPACE - 1}")
    cdef uint32_t m = <uint32_t>code
    if mv_verb(m) >= N_VERBS:
        raise ValueError(f"move code {code!r} has no verb (verb field {mv_verb(m)})")
    return mv_verb(m), mv_card(m), mv_target(m)


JOKER_INDEX = JOKER


cdef tuple crules_fields():
    # (a struct becomes a dict keyed by its fields: their names from the struct itself)
    cdef CRules r
    memset(&r, 0, sizeof(r))
    cdef dict d = r
    return tuple(d)


# The fields of the CRules struct, in their order, and the codes of the choice flags'
# values (_state.pxd's enums) by flag and value: `cuttle.rules` checks at import that
# they are `cuttle.flags.FLAGS`' (a flag without a field would be dropped unseen).
CRULES_FIELDS = crules_fields()
CHOICE_CODES = {
    "hand_limit_mode": {"discard": LIMIT_DISCARD, "no_draw": LIMIT_NO_DRAW},
    "five": {"draw2": FIVE_DRAW2, "discard1_draw3": FIVE_DISCARD1_DRAW3},
    "seven": {"top1": SEVEN_TOP1, "top2": SEVEN_TOP2},
    "nine": {"return": NINE_RETURN, "freeze": NINE_FREEZE, "topdeck": NINE_TOPDECK},
    "four": {"choice": FOUR_CHOICE, "random": FOUR_RANDOM, "draw": FOUR_DRAW},
}


def n_cards(joker):
    """The cards in play: 52, or 53 with the `joker` flag (_state.pxd's deck_size)."""
    return deck_size(1 if joker else 0)


def rank_and_suit(int index):
    """(rank, suit) of a natural card index as Python counts them: rank 1 (Ace) to 13
    (King), the core's rank index + 1 (_state.pxd's rank_of), suit 0 (clubs) to 3
    (spades); (0, -1) for the joker."""
    if not 0 <= index < NCARDS:
        raise ValueError(f"card index {index!r} is out of range 0..{NCARDS - 1}")
    if index == JOKER:
        return 0, -1
    return rank_of(index) + 1, suit_of(index)


def state_refusal(state):
    """Why `state` is not what `CoreGame._core_get_state` returns, a tuple of 3 bytes
    (the state, the undo history's states, its moves), in words; None when it is (its
    bytes are checked by `_core_set_state`)."""
    if isinstance(state, tuple) and len(state) == 3 and all(isinstance(b, bytes) for b in state):
        return None
    # (the type of each item, not the bytes: a state is long and means nothing printed)
    if isinstance(state, (tuple, list)):
        what = (f"a {type(state).__name__} of {', '.join(type(b).__name__ for b in state)}"
                if state else f"an empty {type(state).__name__}")
    else:
        what = "None" if state is None else type(state).__name__
    return f"its state must be a tuple of 3 bytes (state, history, moves), not {what}"


def _state_layout():
    """{field: (byte offset, struct format)} of the State a pickle carries, for tests
    that tamper with one field (the offsets are the compiler's)."""
    cdef State st
    cdef char* base = <char*>&st
    return {
        "hand": (<char*>&st.hand[0] - base, "<Q"),
        "jack_stacks": (<char*>&st.jack_stacks[0] - base, "<H"),
        "stack": (<char*>&st.stack[0] - base, "<b"),
        "stack_len": (<char*>&st.stack_len - base, "<i"),
        "phase": (<char*>&st.phase - base, "<i"),
        "turn": (<char*>&st.turn - base, "<i"),
        "to_move": (<char*>&st.to_move - base, "<i"),
        "turn_number": (<char*>&st.turn_number - base, "<i"),
        "passes": (<char*>&st.passes - base, "<i"),
        "winner": (<char*>&st.winner - base, "<i"),
        "end_reason": (<char*>&st.end_reason - base, "<i"),
        "last_turn": (<char*>&st.last_turn - base, "<i"),
        "target": (<char*>&st.target - base, "<i"),
        "actor": (<char*>&st.actor - base, "<i"),
        "frozen": (<char*>&st.frozen[0] - base, "<Q"),
        "frozen_next": (<char*>&st.frozen_next[0] - base, "<Q"),
        "known_deck": (<char*>&st.known_deck - base, "<Q"),
        "known_hand": (<char*>&st.known_hand[0] - base, "<Q"),
    }


def derive(seed, stream):
    """A 64-bit seed for stream `stream` of `seed` (see cuttle/seeding.py)."""
    return derive_seed(<uint64_t>seed, <uint64_t>stream)


def players_stream(uint64_t index):
    """The stream game `index` of a seeded run draws its players' choices from
    (`policy_stream`, _rng.pxd): cuttle/seeding.py derives Python players' seeds from it."""
    return policy_stream(index)


cdef inline int card_index(c) except -1:
    if not 0 <= c < NCARDS:
        raise ValueError(f"card index {c!r} is out of range 0..{NCARDS - 1}")
    return c


cdef inline uint64_t mask_of(cards) except? 0:
    cdef uint64_t m = 0
    for c in cards:
        m |= bit(card_index(c))
    return m


cdef inline int player(p) except -1:
    # Every index reaching the C arrays is checked first.
    if not (p == 0 or p == 1):
        raise ValueError(f"player must be 0 or 1, not {p!r}")
    return p


cdef list cards_of(uint64_t m):
    cdef list out = []
    while m:
        out.append(lowest(m))
        m &= m - 1
    return out


class FreezeRefused(ValueError):
    """A state from outside refused for a freeze no 9 makes (`_checks.check_freezes`):
    the message says so in general (`state_error`); `fault`, what `Game` names its cards
    and says why by (`cuttle.freezes.freeze_words`): a dict of ``where`` (what was
    loaded, the message's head), ``code`` (the StateError's name),
    ``player`` (whose cards, -1 for both players'), ``cards`` (their indices, player 0's
    first), ``this_turn`` (only this turn's 9 could have frozen them), ``turn`` and
    ``to_move``; for a 9 missing from the scrap (FROZEN_WITHOUT_NINE), ``nines`` and
    ``threes`` (the 9s and 3s in the scrap) and ``took`` (whether a 3 played since can
    have taken one of the 9s back)."""

    def __init__(self, message, fault=None):
        super().__init__(message)
        self.fault = fault


cdef object refusal(const State* s, const CRules* r, int err, str where):
    # check_state's problem `err` as the exception to raise: a freeze's with its cards,
    # a hand above the limit with its size.
    cdef FreezeFault f
    cdef int o = s.turn ^ 1
    message = f"{where}: {state_error(err)}"
    if err == OVER_HAND_LIMIT:
        return ValueError(f"{message}; player {o} holds {popcount(s.hand[o])} cards, the "
                          f"limit is {r.hand_limit}")
    if err < FROZEN_WITHOUT_FREEZE or check_freezes(s, r, &f) != err:
        return ValueError(message)
    return FreezeRefused(message, {
        "where": where, "code": StateError(err).name,
        "player": f.player, "this_turn": bool(f.this_turn), "turn": s.turn,
        "to_move": s.to_move,
        "cards": cards_of(f.cards & s.hand[0]) + cards_of(f.cards & s.hand[1]),
        "nines": cards_of(f.nines), "threes": cards_of(f.threes), "took": bool(f.took)})


cdef inline uint64_t frozen_for_turn(const State* s, int p) noexcept nogil:
    # The cards p may not play in its next turn, this turn for the player to move: a
    # position's frozen cards.
    return frozen_now(s, p) if p == s.turn else frozen_next_turn(s, p)


cdef void settle_position(State* s, const CRules* r, uint64_t frozen0,
                          uint64_t frozen1) noexcept nogil:
    # What a position built from its cards holds besides them (the one home of what
    # position text implies, for `_core_load` and `_core_position_gap`): per player the
    # cards frozen for its next turn, which is this turn for the player to move (as an
    # opponent's 9 leaves them) and the next one for the other (as its own 9 leaves
    # them); a freeze is public, and no other knowledge of hidden cards (the players'
    # memory starts afresh); no passes; a sudden-death countdown, when the deck is
    # empty, ending after the next turn.
    cdef int p = s.turn
    cdef uint64_t f[2]
    f[0] = frozen0
    f[1] = frozen1
    s.frozen[p] = f[p]
    s.frozen_next[p] = 0
    s.frozen[p ^ 1] = 0
    s.frozen_next[p ^ 1] = f[p ^ 1]
    s.known_hand[0] = f[1]
    s.known_hand[1] = f[0]
    s.known_deck = 0
    s.passes = 0
    s.last_turn = s.turn_number + 1 if r.sudden_death and s.deck_len == 0 else -1
    update_knowledge(s, r)


# ---------------------------------------------------------------------------------------
# CoreGame: the thin Python-facing class.  `cuttle.Game` subclasses it and adds the
# card/move objects, parsing and printing.

cdef class CoreGame:

    def __cinit__(self, *args, **kwargs):
        self.hist = NULL
        self.hist_moves = NULL
        self.nhist = 0
        self.cap = 0
        memset(&self.st, 0, sizeof(State))
        self.st.winner = -1
        self.st.last_turn = -1
        self.st.target = -1

    def __dealloc__(self):
        PyMem_Free(self.hist)
        PyMem_Free(self.hist_moves)

    cdef int _reserve(self, Py_ssize_t n) except -1:
        cdef Py_ssize_t cap = self.cap
        if n <= cap:
            return 0
        cap = max(n, 2 * cap, 64)
        cdef State* h = <State*>PyMem_Realloc(self.hist, cap * sizeof(State))
        if h == NULL:
            raise MemoryError()
        self.hist = h
        cdef uint32_t* hm = <uint32_t*>PyMem_Realloc(self.hist_moves, cap * sizeof(uint32_t))
        if hm == NULL:
            raise MemoryError()
        self.hist_moves = hm
        self.cap = cap
        return 0

    def _core_set_rules(self, rules):
        self.cr = rules.c_fields()

    def _core_deal(self, uint64_t seed, uint64_t index=0):
        """Deal game `index` of the seeded run `seed`, as a batched run deals it
        (Game(seed=s) is game 0 of seed s)."""
        rng_seed(&self.st.rng, seed, deal_stream(index))
        deal(&self.st, &self.cr)
        self.nhist = 0

    def _core_load(self, layout):
        """Load a main-phase position from a validated `cuttle.position.Layout` (natural
        card indices; the deck top first; Jack stacks bottom to top; points by
        controller; per player the cards frozen for its next turn).  ValueError (the
        game untouched) if the cards do not add up."""
        cdef State st
        cdef State* s = &st
        cdef int p, c, j, turn = layout.to_move
        cdef uint64_t frozen[2]
        deck = list(layout.deck)
        if not (0 <= turn <= 1 and len(deck) <= NCARDS and len(layout.hands) == 2
                and len(layout.points) == 2 and len(layout.permanents) == 2
                and len(layout.frozen) == 2):
            raise ValueError("not a position: bad sizes")
        memset(s, 0, sizeof(State))
        rng_seed(&s.rng, <uint64_t>layout.seed, STREAM_GAME)
        for p in range(2):
            s.hand[p] = mask_of(layout.hands[p])
            s.points[p] = mask_of(layout.points[p])
            s.permanents[p] = mask_of(layout.permanents[p])
            frozen[p] = mask_of(layout.frozen[p])
        s.scrap = mask_of(layout.scrap)
        for c, jacks in layout.stacks.items():
            if not (0 <= c < FIRST_JACK and 0 < len(jacks) <= MAX_JACKS):
                raise ValueError("not a position: bad Jack stack")
            for j in jacks:
                if not FIRST_JACK <= j < FIRST_JACK + MAX_JACKS:
                    raise ValueError("not a position: bad Jack stack")
                # jack_push flips control; the position lists the controller, so flip back.
                jack_push(s, c, j)
                flip_control(s, c)
        s.deck_len = len(deck)
        for c in range(s.deck_len):
            s.deck[c] = <int8_t>card_index(deck[s.deck_len - 1 - c])
        s.turn = turn
        s.to_move = turn
        s.winner = -1
        s.target = -1
        s.phase = PH_MAIN
        for p in range(2):      # (checked here: check_state sees them only as placed)
            if frozen[p] & ~s.hand[p]:
                raise ValueError("not a position: a frozen card is not in its hand")
        settle_position(s, &self.cr, frozen[0], frozen[1])
        check_win(s, &self.cr, turn)
        cdef int err = check_state(s, &self.cr)
        if err:
            raise refusal(s, &self.cr, err, "not a position")
        self.st = st
        self.nhist = 0

    def _core_position_gap(self):
        """What of this main-phase game's rule state position text cannot carry
        (`settle_position` would set it otherwise): None, or (what, count) for the first
        difference found, what one of "passes" (`count` passes in a row)
        and "countdown" (a sudden-death countdown other than a loaded position's:
        `count` turns left after this one, -1 for none).  What the players know of
        hidden cards is no gap: the text does not carry the players' memory
        (`cuttle.position`); nor are the freezes one, which the text carries whole at
        the start of a turn (check_state refuses any other: `_checks.check_freezes`)."""
        cdef State t = self.st
        cdef const State* s = &self.st
        settle_position(&t, &self.cr, frozen_for_turn(s, 0), frozen_for_turn(s, 1))
        if s.passes:
            return ("passes", s.passes)
        if s.last_turn != t.last_turn:
            return ("countdown", s.last_turn - s.turn_number if s.last_turn >= 0 else -1)
        return None

    def _core_legal_codes(self):
        cdef uint32_t buf[MAX_MOVES]
        cdef int n = gen_moves(&self.st, &self.cr, buf)
        return [buf[i] for i in range(n)]

    def _core_is_legal(self, uint32_t code):
        return bool(is_legal(&self.st, &self.cr, code))

    def _core_play(self, uint32_t code, Py_ssize_t cap=0):
        """Play a move code; returns False (state untouched) if it is not legal.  With a
        `cap` > 0, a game still running once `cap` moves are in its history ends as a
        draw (END_MOVE_CAP), as a capped batch game does."""
        if not self._core_is_legal(code):
            return False
        self._reserve(self.nhist + 1)
        self.hist[self.nhist] = self.st
        self.hist_moves[self.nhist] = code
        self.nhist += 1
        apply_move(&self.st, &self.cr, code)
        if 0 < cap <= self.nhist and self.st.phase != PH_OVER:
            end_by_cap(&self.st)
        return True

    def _core_play_until(self, Py_ssize_t cap):
        """The play loop's status (cuttle._playout.PlayStatus) for a game whose moves are
        all chosen in Python (both seats SEAT_ELSEWHERE: nothing is played here):
        PLAY_OVER, PLAY_CAP (cap > 0 moves in the history) or PLAY_DECIDE."""
        cdef int seats[2]
        cdef int k = <int>min(self.nhist, <Py_ssize_t>INT_MAX)
        seats[0] = seats[1] = SEAT_ELSEWHERE
        return play_until(&self.st, &self.cr, seats, NULL, &k,
                          <int>cap if 0 < cap < INT_MAX else INT_MAX, NULL)

    def _core_equal(self, CoreGame other):
        """The same rules, position, random stream and history."""
        cdef Py_ssize_t i
        if self.nhist != other.nhist or not states_equal(&self.st, &other.st):
            return False
        for i in range(self.nhist):
            if self.hist_moves[i] != other.hist_moves[i] \
                    or not states_equal(&self.hist[i], &other.hist[i]):
                return False
        return True

    def _core_undo(self):
        if self.nhist == 0:
            return None
        self.nhist -= 1
        self.st = self.hist[self.nhist]
        return self.hist_moves[self.nhist]

    def _core_copy_to(self, CoreGame other):
        other.cr = self.cr
        other.st = self.st
        other._reserve(self.nhist)
        if self.nhist:
            memcpy(other.hist, self.hist, self.nhist * sizeof(State))
            memcpy(other.hist_moves, self.hist_moves, self.nhist * sizeof(uint32_t))
        other.nhist = self.nhist

    def _core_sample_to(self, CoreGame other, p, uint64_t seed):
        """Copy the position alone into `other` (no undo history: it would leak the true
        state) and resample there what player p cannot know, as `_core_determinize`
        does; return the codes of this game's moves, oldest first, as the bytes of
        their uint32s (the sample's prior moves)."""
        cdef Rng g
        other.cr = self.cr
        other.st = self.st
        other.nhist = 0
        rng_seed(&g, <uint64_t>seed, STREAM_SAMPLE)
        determinize(&other.st, &other.cr, player(p), &g)
        return (<char*>self.hist_moves)[:self.nhist * sizeof(uint32_t)] if self.nhist else b""

    def _core_move_codes(self):
        return [self.hist_moves[i] for i in range(self.nhist)]

    # Views (natural indices); cuttle.Game turns them into Card objects.
    def _core_hand(self, p): return cards_of(self.st.hand[player(p)])
    def _core_points(self, p): return cards_of(self.st.points[player(p)])
    def _core_permanents(self, p): return cards_of(self.st.permanents[player(p)])
    def _core_frozen(self, p): return cards_of(frozen_now(&self.st, player(p)))
    def _core_frozen_next(self, p): return cards_of(frozen_next_turn(&self.st, player(p)))
    def _core_position_frozen(self, p): return cards_of(frozen_for_turn(&self.st, player(p)))
    def _core_scrap(self): return cards_of(self.st.scrap)
    def _core_deck(self):
        return [self.st.deck[self.st.deck_len - 1 - i] for i in range(self.st.deck_len)]
    def _core_revealed(self):
        return [self.st.revealed[i] for i in range(self.st.n_revealed)]
    def _core_stack(self):
        return [self.st.stack[i] for i in range(self.st.stack_len)]
    def _core_jacks(self, c):
        if not 0 <= c < FIRST_JACK or not (self.st.stacked & bit(c)):
            return []
        return [jack_at(&self.st, c, i) for i in range(jcount(&self.st, c))]
    def _core_score(self, p): return score(&self.st, player(p))
    def _core_goal(self, p): return goal(&self.st, &self.cr, player(p))
    def _core_rng_state(self): return tuple(self.st.rng.s[i] for i in range(4))

    @property
    def _core_phase(self): return self.st.phase
    @property
    def _core_turn(self): return self.st.turn
    @property
    def _core_to_move(self): return self.st.to_move
    @property
    def _core_winner(self): return None if self.st.winner < 0 else self.st.winner
    @property
    def _core_end_reason(self): return self.st.end_reason
    @property
    def _core_turn_number(self): return self.st.turn_number
    @property
    def _core_ply(self): return self.nhist
    @property
    def _core_target(self):
        """The card the move waiting on the stack targets (None: none)."""
        cdef int c = pending_target(&self.st)
        return None if c < 0 else c

    def _core_known_hand(self, p):
        """Cards p knows are in the opponent's hand (public ones included)."""
        p = player(p)
        if hand_is_public(&self.st, &self.cr, p ^ 1):
            return cards_of(self.st.hand[p ^ 1])
        return cards_of(self.st.known_hand[p] & self.st.hand[p ^ 1])

    def _core_known_deck(self):
        """(depth from the top, card) of every deck card whose place is public."""
        cdef int n = self.st.deck_len
        return [(n - 1 - i, self.st.deck[i]) for i in range(n - 1, -1, -1)
                if self.st.known_deck & bit(self.st.deck[i])]

    def _core_hand_public(self, p):
        return bool(hand_is_public(&self.st, &self.cr, player(p)))

    def _core_determinize(self, p, uint64_t seed):
        """Resample, in place, what player p cannot know (history is dropped)."""
        cdef Rng g
        rng_seed(&g, <uint64_t>seed, STREAM_SAMPLE)
        determinize(&self.st, &self.cr, player(p), &g)
        self.nhist = 0

    def _core_get_state(self):
        """The whole game (state, undo history) as bytes, for pickling."""
        return ((<char*>&self.st)[:sizeof(State)],
                (<char*>self.hist)[:self.nhist * sizeof(State)] if self.nhist else b"",
                (<char*>self.hist_moves)[:self.nhist * sizeof(uint32_t)] if self.nhist else b"")

    def _core_set_state(self, bytes st, bytes hist, bytes moves):
        """Load `_core_get_state`'s bytes, validated whole: the state and every state of
        the undo history must be sound, and each recorded move must be legal in its state
        and lead to the next one.  ValueError (the game untouched) otherwise."""
        cdef Py_ssize_t n = len(moves) // sizeof(uint32_t)
        cdef Py_ssize_t i
        cdef State cur, nxt
        cdef const State* h
        cdef const uint32_t* hm
        cdef int err
        if len(st) != sizeof(State) or len(hist) != n * sizeof(State) \
                or len(moves) != n * sizeof(uint32_t):
            raise ValueError("pickled game from an incompatible cuttle build")
        memcpy(&cur, <char*>st, sizeof(State))
        err = check_state(&cur, &self.cr)
        if err:
            raise refusal(&cur, &self.cr, err, "corrupt pickled game")
        h = <const State*><char*>hist
        hm = <const uint32_t*><char*>moves
        for i in range(n):
            memcpy(&nxt, &h[i], sizeof(State))
            err = check_state(&nxt, &self.cr)
            if err:
                raise refusal(&nxt, &self.cr, err, f"corrupt pickled game (history {i})")
            if not is_legal(&nxt, &self.cr, hm[i]):
                raise ValueError(f"corrupt pickled game: history move {i} is not legal")
            apply_move(&nxt, &self.cr, hm[i])
            if not states_equal(&nxt, &h[i + 1] if i + 1 < n else &cur):
                raise ValueError(f"corrupt pickled game: history move {i} does not lead "
                                 f"to the next state")
        self._reserve(n)
        self.st = cur
        if n:
            memcpy(self.hist, <char*>hist, n * sizeof(State))
            memcpy(self.hist_moves, <char*>moves, n * sizeof(uint32_t))
        self.nhist = n

    def _core_state_bytes(self):
        return (<char*>&self.st)[:sizeof(State)]
