# cython: language_level=3
# VectorCore, the native state of cuttle.rl.VectorEnv: one State and its streams per
# env, all stepped by one prange (the module's docstring says which games each env
# plays).

cimport cython
from libc.stdint cimport uint64_t, int64_t, int32_t, int16_t, int8_t, uint8_t
from cuttle._state cimport State, CRules, Rng
from cuttle._policies cimport SearchSeats

# Episodes in a row that may end before the agent's first decision (the opponent won
# at once) before an env gives up: only degenerate goals make that happen every time.
# (cuttle.rl.GymEnv gives up after as many.)
cpdef enum:
    MAX_SKIPS = 64

# Why VectorCore.refusal refuses a game for set_game besides check_state's StateError
# codes (which are all below it).
cpdef enum:
    START_OVER = 100         # the game is over

ctypedef struct Env:
    State s
    Rng pol                  # the opponent's stream this episode
    Rng sampler              # sample_actions' stream
    uint64_t seed            # this env's seed (its episodes are that seed's games)
    int64_t episode
    int64_t skipped          # episodes that ended before the agent could decide
    int moves                # moves played this episode (both players)
    int32_t agent            # the agent's seat this episode (against an opponent)
    int32_t n_legal          # legal actions now (0 only when stuck)
    int32_t stuck            # MAX_SKIPS episodes in a row ended before the agent decided


@cython.final
cdef class VectorCore:
    cdef Env* envs
    cdef int16_t* legal      # num_envs x MAX_MOVES legal actions, ascending
    cdef Py_ssize_t n
    cdef CRules cr
    cdef int opponent        # a policy code, or -1 for self-play
    cdef SearchSeats* kept   # per env, the opponent's tree kept between its decisions,
                             # when it reads what it saw (ismcts-infer); else NULL
    cdef int seat            # the agent's seat against an opponent; -1: alternate
    cdef int max_moves
    cdef int failed          # an opponent's search ran out of memory in this call
    cdef readonly object obs, mask, rewards, terminated, truncated, to_move, illegal
    # The last observation of each env's last ended episode (and whose view it is),
    # written when a step ends it: a truncated episode's value can be bootstrapped.
    cdef readonly object final_obs, final_to_move
    cdef float[:, ::1] obs_v, fobs_v
    cdef int8_t[::1] ftm_v
    cdef uint8_t[:, ::1] mask_v
    cdef float[::1] rew_v
    cdef uint8_t[::1] term_v, trunc_v, ill_v
    cdef int8_t[::1] tm_v

    cdef int viewer(self, Env* e) noexcept nogil
    cdef SearchSeats* kept_of(self, Env* e) noexcept nogil
    cdef int advance(self, Env* e) noexcept nogil
    cdef int start_episode(self, Py_ssize_t i) noexcept nogil
    cdef void publish(self, Py_ssize_t i) noexcept nogil
    cdef void reset_env(self, Py_ssize_t i, uint64_t seed) noexcept nogil
    cdef void step_env(self, Py_ssize_t i, int a) noexcept nogil
    cdef void set_env(self, Py_ssize_t i, const State* s) noexcept nogil
    cdef void restart_env(self, Py_ssize_t i) noexcept nogil
    cdef int team(self, int threads)
    cdef Py_ssize_t env_index(self, Py_ssize_t i) except -1
    cdef void raise_if_failed(self)
