# cython: language_level=3
"""Many games stepped in one native call: the core of cuttle.rl.VectorEnv (docs/rl.md).

Each env is a State with its own streams: env i of a run seeded `seed` has the seed
derive_seed(seed, 2i), and its episode k is game k of that seed's run (dealt from
deal_stream(k), the opponent drawing from policy_stream(k)), so
Game.from_run(rules, seed=derive(seed, 2i), index=k) is the same deal.  sample_actions
draws from the stream STREAM_DECISION of derive_seed(seed, 2i + 1).  Envs are stepped
in parallel (prange); nothing depends on the thread count.

Actions are compact actions (_actions.pxd).  An illegal action ends the episode as a
loss for the player who chose it.  Episodes restart automatically: a step that ends
one reports its reward and flags, and returns the first observation of the next; the
ended episode's last observation is kept in final_obs (for bootstrapping a truncation).
Outside the step, separate entry points restart envs (reset_envs) or set an env's
position (set_game); a run that never calls them plays exactly as before.
"""

from libc.stdint cimport uint64_t, uint32_t, int64_t, int32_t, int16_t, int8_t, uint8_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset
from cython.parallel cimport prange

import numpy as np

from cuttle._state cimport *
from cuttle._rng cimport (rng_seed, rng_below, derive_seed, deal_stream, policy_stream,
                          STREAM_DECISION)
from cuttle._engine cimport apply_move, deal
from cuttle._policies cimport play_seats, SearchSeats, remember, seats_clear
from cuttle._search cimport tree_init
from cuttle._infer cimport Seen
from cuttle._playout cimport PLAY_OVER, PLAY_CAP, PLAY_DECIDE, PLAY_NO_MEMORY, SEAT_ELSEWHERE
from cuttle._actions cimport N_ACTIONS, legal_actions, move_of_action
from cuttle._observe cimport OBS_SIZE, encode_observation
from cuttle._core cimport CoreGame
from cuttle.threads import thread_count
from cuttle._signals cimport Stop, stop_start, stop_enter, stop_leave, stop_finish
from cuttle._checks cimport check_state, STATE_OK
from cuttle._checks import state_error

cdef class VectorCore:
    """Native state of a VectorEnv; cuttle/rl/vector.py checks arguments and wraps it."""

    def __cinit__(self, rules, Py_ssize_t num_envs, int opponent, int seat, int max_moves):
        cdef Py_ssize_t i
        cdef int p
        self.envs = NULL
        self.legal = NULL
        self.kept = NULL
        if num_envs < 1 or seat not in (-1, 0, 1) or max_moves < 1:
            raise ValueError("need num_envs >= 1, a seat of -1, 0 or 1 and max_moves >= 1")
        self.n = num_envs
        self.cr = rules.c_fields()
        self.opponent = opponent
        self.seat = seat
        self.max_moves = max_moves
        self.envs = <Env*>malloc(num_envs * sizeof(Env))
        self.legal = <int16_t*>malloc(num_envs * MAX_MOVES * sizeof(int16_t))
        if self.envs == NULL or self.legal == NULL:
            raise MemoryError()
        memset(self.envs, 0, num_envs * sizeof(Env))
        if opponent >= 0 and reads_history(opponent):
            # (other opponents search afresh each decision, as they always have)
            self.kept = <SearchSeats*>malloc(num_envs * sizeof(SearchSeats))
            if self.kept == NULL:
                raise MemoryError()
            for i in range(num_envs):
                for p in range(2):
                    tree_init(&self.kept[i].trees[p])
                    self.kept[i].nsince[p] = 0
        self.obs = np.zeros((num_envs, OBS_SIZE), np.float32)
        self.mask = np.zeros((num_envs, N_ACTIONS), np.uint8)
        self.rewards = np.zeros(num_envs, np.float32)
        self.terminated = np.zeros(num_envs, np.uint8)
        self.truncated = np.zeros(num_envs, np.uint8)
        self.illegal = np.zeros(num_envs, np.uint8)
        self.to_move = np.zeros(num_envs, np.int8)
        self.final_obs = np.zeros((num_envs, OBS_SIZE), np.float32)
        self.final_to_move = np.full(num_envs, -1, np.int8)
        self.obs_v = self.obs
        self.fobs_v = self.final_obs
        self.ftm_v = self.final_to_move
        self.mask_v = self.mask
        self.rew_v = self.rewards
        self.term_v = self.terminated
        self.trunc_v = self.truncated
        self.ill_v = self.illegal
        self.tm_v = self.to_move

    def __dealloc__(self):
        cdef Py_ssize_t i
        if self.kept != NULL:
            for i in range(self.n):
                seats_clear(&self.kept[i])
            free(self.kept)
        free(self.envs)
        free(self.legal)

    # -- per env, nogil ------------------------------------------------------------------

    cdef int viewer(self, Env* e) noexcept nogil:
        return e.agent if self.opponent >= 0 else e.s.to_move

    cdef SearchSeats* kept_of(self, Env* e) noexcept nogil:
        return NULL if self.kept == NULL else &self.kept[e - self.envs]

    cdef int advance(self, Env* e) noexcept nogil:
        # The play loop up to the agent's next decision: the opponent plays (a search
        # with a fresh tree each decision, or its kept tree when it reads the history)
        # until the agent decides (PLAY_DECIDE), the game ends (PLAY_OVER) or the
        # episode's cap is hit (PLAY_CAP: truncated); in self-play both seats are the
        # agent's, so this only says which.
        cdef int seats[2]
        seats[e.agent] = SEAT_ELSEWHERE
        seats[e.agent ^ 1] = self.opponent if self.opponent >= 0 else SEAT_ELSEWHERE
        return play_seats(&e.s, &self.cr, seats, &e.pol, &e.moves, self.max_moves,
                          self.kept_of(e), NULL)

    cdef int start_episode(self, Py_ssize_t i) noexcept nogil:
        # Deal the env's next episode and play up to the agent's first decision,
        # skipping episodes that end before it; the play loop's status.
        cdef Env* e = &self.envs[i]
        cdef int skips = 0
        cdef int status
        while True:
            rng_seed(&e.s.rng, e.seed, deal_stream(<uint64_t>e.episode))
            deal(&e.s, &self.cr)
            rng_seed(&e.pol, e.seed, policy_stream(<uint64_t>e.episode))
            e.moves = 0
            if self.kept != NULL:
                seats_clear(self.kept_of(e))
            e.agent = self.seat if self.seat >= 0 else <int32_t>((i + e.episode) & 1)
            status = self.advance(e)
            if status == PLAY_DECIDE or status == PLAY_NO_MEMORY:
                return status
            e.skipped += 1
            e.episode += 1
            skips += 1
            if skips >= MAX_SKIPS:
                e.stuck = 1
                return status

    cdef void publish(self, Py_ssize_t i) noexcept nogil:
        # The legal actions, mask, observation and decider of env i after a change.
        cdef Env* e = &self.envs[i]
        cdef int16_t* acts = self.legal + i * MAX_MOVES
        cdef uint32_t moves[MAX_MOVES]
        cdef int32_t found[MAX_MOVES]
        cdef int k
        for k in range(e.n_legal):
            self.mask_v[i, acts[k]] = 0
        if e.stuck:
            e.n_legal = 0
        else:
            e.n_legal = legal_actions(&e.s, &self.cr, moves, found)
        for k in range(e.n_legal):
            acts[k] = <int16_t>found[k]
            self.mask_v[i, found[k]] = 1
        encode_observation(&e.s, &self.cr, self.viewer(e), &self.obs_v[i, 0])
        self.tm_v[i] = <int8_t>self.viewer(e)

    cdef void reset_env(self, Py_ssize_t i, uint64_t seed) noexcept nogil:
        cdef Env* e = &self.envs[i]
        e.seed = derive_seed(seed, 2 * <uint64_t>i)
        rng_seed(&e.sampler, derive_seed(seed, 2 * <uint64_t>i + 1), STREAM_DECISION)
        e.episode = 0
        e.skipped = 0
        e.stuck = 0
        self.ftm_v[i] = -1                   # (no episode has ended yet)
        if self.start_episode(i) == PLAY_NO_MEMORY:
            self.failed = 1
            return
        self.publish(i)
        self.rew_v[i] = 0
        self.term_v[i] = 0
        self.trunc_v[i] = 0
        self.ill_v[i] = 0

    cdef void step_env(self, Py_ssize_t i, int a) noexcept nogil:
        cdef Env* e = &self.envs[i]
        cdef int16_t* acts = self.legal + i * MAX_MOVES
        cdef int actor = self.viewer(e)
        cdef int k, status, view, legal = 0
        cdef uint32_t m
        cdef float reward = 0
        cdef uint8_t term = 0, trunc = 0, illegal = 0
        for k in range(e.n_legal):
            if acts[k] == a:
                legal = 1
                break
        if not legal:
            illegal = 1
            term = 1
            reward = -1
        else:
            m = move_of_action(a)
            apply_move(&e.s, &self.cr, m)
            if self.kept != NULL:
                remember(self.kept_of(e), &m, 1)     # (the opponent sees the agent's move)
            e.moves += 1
            status = self.advance(e)
            if status == PLAY_NO_MEMORY:
                self.failed = 1              # the env stays as it is: a reset follows
                return
            if status == PLAY_OVER:
                term = 1
                reward = 0 if e.s.winner < 0 else (1 if e.s.winner == actor else -1)
            elif status == PLAY_CAP:
                trunc = 1
        if term or trunc:
            # The position the episode stopped in, from the agent's view, or in
            # self-play the actor's when it ended (whose reward is reported) and the
            # player's to decide when it was truncated (as a next observation).
            view = actor if term else self.viewer(e)
            encode_observation(&e.s, &self.cr, view, &self.fobs_v[i, 0])
            self.ftm_v[i] = <int8_t>view
            e.episode += 1
            if self.start_episode(i) == PLAY_NO_MEMORY:
                self.failed = 1
                return
        self.publish(i)
        self.rew_v[i] = reward
        self.term_v[i] = term
        self.trunc_v[i] = trunc
        self.ill_v[i] = illegal

    cdef void set_env(self, Py_ssize_t i, const State* s) noexcept nogil:
        # Env i's episode becomes position s (checked by refusal): the episode keeps its
        # index and agent's seat, the opponent draws from the episode's policy stream
        # afresh (a fresh tree) and plays up to the agent's decision, as after a deal; a
        # position that ends first is skipped as such a deal is, and the env deals on.
        cdef Env* e = &self.envs[i]
        cdef int status
        e.s = s[0]
        rng_seed(&e.pol, e.seed, policy_stream(<uint64_t>e.episode))
        e.moves = 0
        if self.kept != NULL:
            seats_clear(self.kept_of(e))
        status = self.advance(e)
        if status != PLAY_DECIDE and status != PLAY_NO_MEMORY:
            e.skipped += 1
            e.episode += 1
            status = self.start_episode(i)
        if status == PLAY_NO_MEMORY:
            self.failed = 1
            return
        self.publish(i)

    cdef void restart_env(self, Py_ssize_t i) noexcept nogil:
        # Env i's episode abandoned for its stream's next deal; nothing is reported (the
        # last step's rewards, flags and final_obs stay as they were).
        cdef Env* e = &self.envs[i]      # (through a pointer, as elsewhere: a debug build's
        e.episode += 1                    # checks refuse the indexed field without the GIL)
        if self.start_episode(i) == PLAY_NO_MEMORY:
            self.failed = 1
            return
        self.publish(i)

    # -- whole batches ---------------------------------------------------------------------

    cdef int team(self, int threads):
        # Threads worth waking: a self-play or random-opponent step is ~1 us per env, so
        # a thread gets at least 64 envs; greedy 8; searches one.
        cdef int kind = self.opponent & POLICY_KIND_MASK
        cdef Py_ssize_t grain = 64 if (self.opponent < 0 or kind == POL_RANDOM) else \
            (8 if kind == POL_GREEDY else 1)
        return <int>max(1, min(thread_count(threads), self.n // grain))

    def reset(self, uint64_t seed, int threads):
        cdef Py_ssize_t i
        cdef Stop stop
        threads = self.team(threads)
        self.failed = 0
        stop_start(&stop)
        for i in prange(self.n, nogil=True, num_threads=threads, schedule="dynamic",
                        chunksize=16):
            if not stop_enter(&stop):
                self.reset_env(i, seed)
            stop_leave()
        stop_finish(&stop)
        self.raise_if_failed()

    cdef Py_ssize_t env_index(self, Py_ssize_t i) except -1:
        if not 0 <= i < self.n:
            raise IndexError(f"env index {i} is out of range 0..{self.n - 1}")
        return i

    def step(self, const int64_t[::1] actions, int threads):
        cdef Py_ssize_t i
        cdef Stop stop
        if actions.shape[0] != self.n:
            raise ValueError(f"need {self.n} actions, not {actions.shape[0]}")
        for i in range(self.n):
            if not 0 <= actions[i] < N_ACTIONS:
                raise ValueError(f"action {actions[i]} is outside 0..{N_ACTIONS - 1}")
        threads = self.team(threads)
        self.failed = 0
        stop_start(&stop)
        for i in prange(self.n, nogil=True, num_threads=threads, schedule="dynamic",
                        chunksize=16):
            if not stop_enter(&stop):
                self.step_env(i, <int>actions[i])
            stop_leave()
        stop_finish(&stop)
        self.raise_if_failed()

    def reset_envs(self, const int64_t[::1] indices, int threads):
        """Restart the envs `indices` (distinct, in range; checked before any env is
        touched) with their streams' next deals."""
        cdef Py_ssize_t k, m = indices.shape[0]
        cdef Stop stop
        seen = np.zeros(self.n, np.uint8)
        for k in range(m):          # (VectorEnv words the user's errors: these guard memory)
            self.env_index(indices[k])
            if seen[indices[k]]:
                raise ValueError(f"env {indices[k]} is named twice")
            seen[indices[k]] = 1
        threads = <int>max(1, min(self.team(threads), m))
        self.failed = 0
        stop_start(&stop)
        for k in prange(m, nogil=True, num_threads=threads, schedule="dynamic"):
            if not stop_enter(&stop):
                self.restart_env(indices[k])
            stop_leave()
        stop_finish(&stop)
        self.raise_if_failed()

    def refusal(self, CoreGame game):
        """Why env positions cannot be `game`'s (whose rules the caller has checked to
        be the env's), in words, or None: over, or refused by the core's check."""
        cdef int code
        with nogil:
            code = START_OVER if game.st.phase == PH_OVER else check_state(&game.st, &self.cr)
        if code == STATE_OK:
            return None
        return "the game is over" if code == START_OVER else state_error(code)

    def set_game(self, Py_ssize_t i, CoreGame game):
        """Env i's episode becomes a copy of `game`'s position (set_env); `refusal`
        must have passed it."""
        cdef Stop stop
        cdef State s = game.st
        self.env_index(i)
        self.failed = 0
        stop_start(&stop)
        with nogil:
            if not stop_enter(&stop):
                self.set_env(i, &s)
            stop_leave()
        stop_finish(&stop)
        self.raise_if_failed()

    cdef void raise_if_failed(self):
        # An opponent's search could not allocate its tree: the call stopped in that
        # env (the others stepped), and the envs need a reset.
        if self.failed:
            self.failed = 0
            raise MemoryError("no memory for the opponent's search tree")

    def sample_actions(self, int64_t[::1] out):
        """A uniformly random legal action per env (-1 for a stuck env)."""
        cdef Py_ssize_t i
        cdef Env* e
        if out.shape[0] != self.n:
            raise ValueError(f"need room for {self.n} actions, not {out.shape[0]}")
        with nogil:
            for i in range(self.n):
                e = &self.envs[i]
                out[i] = -1 if e.n_legal == 0 else \
                    self.legal[i * MAX_MOVES + rng_below(&e.sampler, e.n_legal)]

    def legal_actions(self, Py_ssize_t i):
        cdef int k
        self.env_index(i)
        return [self.legal[i * MAX_MOVES + k] for k in range(self.envs[i].n_legal)]

    def stuck(self):
        cdef Py_ssize_t i
        cdef list out = []
        for i in range(self.n):
            if self.envs[i].stuck:
                out.append(i)
        return out

    def episodes(self):
        out = np.empty(self.n, np.int64)
        cdef int64_t[::1] v = out
        cdef Py_ssize_t i
        for i in range(self.n):
            v[i] = self.envs[i].episode
        return out

    def skipped(self):
        out = np.empty(self.n, np.int64)
        cdef int64_t[::1] v = out
        cdef Py_ssize_t i
        for i in range(self.n):
            v[i] = self.envs[i].skipped
        return out

    def release(self):
        """Free the opponents' kept trees (VectorEnv.close)."""
        cdef Py_ssize_t i
        if self.kept != NULL:
            for i in range(self.n):
                seats_clear(&self.kept[i])

    def _opponent_seen(self, Py_ssize_t i):
        """The agent's decisions (move codes, oldest first) that env i's opponent kept
        at its last search, for its inference; None when it keeps no tree (for tests)."""
        self.env_index(i)
        if self.kept == NULL:
            return None
        cdef Seen* seen = &self.kept[i].trees[self.envs[i].agent ^ 1].seen
        return [seen.move[k] for k in range(seen.n)]

    def copy_state_to(self, Py_ssize_t i, CoreGame game):
        """Make `game` (with this run's rules) hold env i's position (no history)."""
        self.env_index(i)
        game.st = self.envs[i].s
        game.cr = self.cr
        game.nhist = 0
