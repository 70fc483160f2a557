"""`VectorEnv`: many games stepped together in one native call over all cores.

Each step takes one compact action per env (cuttle.rl.spaces) and returns numpy arrays.
Self-play (`opponent=None`): every step is a move of the player to decide in that env,
the observation is that player's view and the reward is from the point of view of the
player who acted (the other player's reward is its negation).  Against a native
opponent: the agent holds `seat` (0, 1 or None: env i plays seat (i + episode) % 2),
the opponent's moves are played inside the step, and everything is from the agent's
point of view.  A searching opponent searches afresh at each decision, except
`ismcts-infer`, which keeps its tree through the episode and reads the agent's moves.

Episodes restart automatically: a step that ends one (terminated: the game ended or
the action was illegal, which loses; truncated: the move cap) reports its reward and
flags, and returns the first observation and mask of the next episode (the ended one's
last observation is `final_observations`, to bootstrap a truncation).  Streams: env i
of a run seeded s deals its episode k as `Game.from_run(rules, seed=derive(s, 2 * i),
index=k)` does; results never depend on the thread count.  Outside the step,
`reset_envs` restarts envs and `set_game` starts one from a given position (a
curriculum; with `game(i)`, a checkpoint).  docs/rl.md has the details.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from .._vector import VectorCore
from ..game import Game, check_game
from ..policies import policy_code
from ..rules import Rules
from ..seeding import seed_or_new
from ..threads import check_threads, cores
from ..validation import check_bool, check_count, check_int, check_player
from .spaces import ACTION_SPACE, CLOSED, DEFAULT_MAX_MOVES, OBSERVATION_SIZE, why_no_decision

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["VectorEnv"]


class _ThreadTuner:
    """The team size for `threads=None`.  A step is short (~0.5 ms for 1,024 envs) and
    its threads wait for each other at its end, so when other programs keep the cores
    busy, a thread that loses its core stalls the whole step and more threads can be
    many times slower than one.  So each size (1, 2, 4, ... all cores) keeps its
    seconds per step (a moving average while in use) and the fastest is used; another
    size is measured again once the time spent since its last try is 50 times its cost
    (so trying costs ~2%, more with the threads' spinning after it), and not sooner than
    every 20 steps.  (Results never depend on the size.)"""

    def __init__(self, most):
        self.sizes = sorted({min(1 << k, most) for k in range(most.bit_length() + 1)})
        self.cost = {}
        self.last = {}
        self.calls = 0

    def best(self):
        measured = [s for s in self.sizes if s in self.cost]
        return min(measured, key=self.cost.get) if measured else self.sizes[-1]

    def pick(self):
        self.calls += 1
        for s in self.sizes:
            if s not in self.cost:
                return s
        best = self.best()
        for s in self.sizes:
            waited = self.calls - self.last[s]
            if s != best and waited >= 20 and waited * self.cost[best] >= 50 * self.cost[s]:
                return s
        return best

    def record(self, size, seconds):
        # The size in use averages its steps; a retried one starts afresh (conditions
        # changed since), and if it was just lucky, its next steps show it.
        c = self.cost.get(size)
        retried = self.last.get(size, self.calls) < self.calls - 1
        self.cost[size] = seconds if c is None or retried else 0.7 * c + 0.3 * seconds
        self.last[size] = self.calls


class VectorEnv:
    """`num_envs` games of Cuttle under `rules`, stepped natively on `threads` cores
    (None: up to all of them, as many as prove fastest on this machine now).
    `copy=False` returns read-only views of internal buffers that the next call
    overwrites (faster); the default returns fresh arrays.

    Not a `gymnasium.vector.VectorEnv` (it needs only numpy): `action_space` is an int,
    there is no `observation_space`, and `step` returns `to_move` where Gymnasium
    returns infos.  `gymnasium.make_vec` over `GymEnv` gives Gymnasium's API
    (docs/rl.md)."""

    def __init__(self, num_envs: int, rules: Rules | str | None = None,
                 opponent: str | None = None, threads: int | None = None,
                 seat: int | None = None, max_moves: int = DEFAULT_MAX_MOVES,
                 copy: bool = True):
        self.num_envs = check_count(num_envs, "num_envs")
        self.rules = Rules.coerce(rules)
        if callable(opponent):
            raise ValueError(f"VectorEnv's opponent plays inside the native step, over all "
                             f"cores without Python: a policy name ('greedy', "
                             f"'ismcts:1000', ...), not {opponent!r}; a Python opponent "
                             f"plays in cuttle.rl.GymEnv(opponent=...) (gymnasium.make_vec "
                             f"over it for several envs)")
        self.opponent = opponent
        code = -1 if opponent is None else policy_code(opponent)
        self.seat = check_player(seat, "seat", none="alternating")
        if self.seat is not None and opponent is None:
            raise ValueError("seat is the agent's seat against an opponent; in self-play "
                             "(no opponent) the agent decides for both seats")
        self.threads = check_threads(threads) or None
        self._tuner = _ThreadTuner(cores()) if threads is None else None
        self.max_moves = check_count(max_moves, "max_moves", 2 ** 31 - 1)   # a C int
        self.copy = check_bool(copy, "copy")
        self.observation_size = OBSERVATION_SIZE
        self.action_space = ACTION_SPACE
        self.seed: int | None = None
        self._core = VectorCore(self.rules, self.num_envs, code,
                                -1 if self.seat is None else self.seat,
                                self.max_moves)
        self._ready = False
        self._started = False                # a reset has begun to deal the envs
        self._dealt = False                  # a reset has dealt the envs once
        self._closed = False                 # closed, and not reset since

    # -- the batch -----------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Start episode 0 of every env; returns (observations, to_move): float32
        (num_envs, OBSERVATION_SIZE) and int8 (num_envs,) (the viewer's seat)."""
        self.seed = seed_or_new(seed)
        self._ready = False
        self._started = True                 # (a deal begun: cut short, it needs a reset)
        self._run(self._core.reset, self.seed, tune=False)
        self._dealt = True
        self._closed = False
        self._check_stuck()
        self._ready = True
        return self._out(self._core.obs), self._out(self._core.to_move)

    def step(self, actions: npt.ArrayLike
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One action per env; returns (observations, rewards, terminated, truncated,
        to_move): float32 (num_envs, OBSERVATION_SIZE), float32, bool, bool and int8
        (num_envs,).  ValueError (nothing stepped) for actions outside the space."""
        self._need_ready("step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_envs} ints, got an array of shape "
                             f"{acts.shape} and dtype {acts.dtype}")
        acts = np.ascontiguousarray(acts, np.int64)
        if acts.min() < 0 or acts.max() >= ACTION_SPACE:
            raise ValueError(f"actions must be in 0..{ACTION_SPACE - 1}")
        self._ready = False
        self._run(self._core.step, acts)
        self._check_stuck()
        self._ready = True
        c = self._core
        return (self._out(c.obs), self._out(c.rewards), self._out(c.terminated.view(bool)),
                self._out(c.truncated.view(bool)), self._out(c.to_move))

    def reset_envs(self, indices: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """End the episodes of the envs `indices` (distinct env indices) early and start
        each one's next deal from its stream: env i's episode counter goes up by one (as
        at the end of an episode, and past any deal that ends before the agent decides,
        counted in `skipped`), so env i plays on game `episodes[i]` of its stream.
        Nothing is reported: no reward, terminated or truncated (the last step's arrays
        and `final_observations` stay as they were; the next step reports the new
        episode's).  Returns the new rows (observations, to_move) of those envs, in
        their order (fresh arrays); `action_masks()`, `legal_actions(i)` and `game(i)`
        show the new deals.  ValueError (no env touched) for a bad index or one named
        twice; like `step`, RuntimeError before reset() and after close() or an
        interrupted call, and a Ctrl-C leaves the envs needing a reset."""
        idx = self._env_indices(indices)
        self._need_ready("reset_envs()")
        self._ready = False
        self._run(self._core.reset_envs, idx, tune=False)
        self._check_stuck()
        self._ready = True
        return self._core.obs[idx], self._core.to_move[idx]

    def set_game(self, i: int, game: Game) -> tuple[np.ndarray, int]:
        """Replace env i's episode by a copy of `game`'s position (and the game's random
        stream; not its history), a curriculum's start or a checkpoint of `game(i)`.
        The episode keeps its index (`episodes[i]`, whose deal is dropped) and, against
        an opponent, the agent's seat; the move cap counts from this position.  If the
        opponent is to decide there, it plays natively, drawing afresh from the
        episode's policy stream (a search with a fresh tree), up to the agent's
        decision, as after a deal; if the game ends (or the cap is hit) first, the
        position is skipped as such a deal is: `skipped[i]` and `episodes[i]` go up by
        one and env i goes on with its next deal.  When the episode ends, env i goes on
        with deal `episodes[i] + 1` of its stream, as usual.  So a position restored
        from `game(i)` plays on as it did only as far as the position goes: the
        opponent's stream, the episode counter, the sampler's stream and a kept tree
        are the env's, not part of the position.  Returns env i's new (observation,
        to_move) row (a fresh array); `action_masks()`, `legal_actions(i)` and
        `game(i)` show the new position; nothing is reported (as `reset_envs`).
        ValueError, with every env untouched, for a game under other rules, one that is
        over, or a position the core's checks refuse; like `step`, RuntimeError before
        reset() and after close() or an interrupted call, and a Ctrl-C during the
        opponent's moves leaves the envs needing a reset."""
        i = check_int(i, "env index", 0, self.num_envs - 1)
        self._need_ready("set_game()")
        game = check_game(game)
        if game.rules != self.rules:
            raise ValueError(f"env {i} plays under {self.rules!r}, not the game's "
                             f"{game.rules!r}")
        why = self._core.refusal(game)
        if why is not None:
            raise ValueError(f"env {i} cannot start from this game: {why}")
        self._ready = False
        self._core.set_game(i, game)
        self._check_stuck()
        self._ready = True
        return self._core.obs[i].copy(), int(self._core.to_move[i])

    def _env_indices(self, indices):
        idx = np.asarray(indices)
        if idx.size == 0:
            idx = idx.astype(np.int64)
        if idx.ndim != 1 or not np.issubdtype(idx.dtype, np.integer):
            raise ValueError(f"indices must be a sequence of env indices (ints), got an "
                             f"array of shape {idx.shape} and dtype {idx.dtype}")
        bad = idx[(idx < 0) | (idx >= self.num_envs)]
        if bad.size:                         # (worded as set_game's single index)
            check_int(int(bad[0]), "env index", 0, self.num_envs - 1)
        if np.unique(idx).size != idx.size:
            raise ValueError("indices must name each env at most once")
        return np.ascontiguousarray(idx, np.int64)

    def _run(self, native, arg, tune=True):
        if self._tuner is None:
            native(arg, self.threads)
        elif not tune:                       # (a reset is no step: it would skew the times)
            native(arg, self._tuner.best())
        else:
            size = self._tuner.pick()
            t = time.perf_counter()
            native(arg, size)
            self._tuner.record(size, time.perf_counter() - t)

    def action_masks(self) -> np.ndarray:
        """The (num_envs, ACTION_SPACE) bool mask of the legal actions now; RuntimeError,
        as `step` raises, when there are none to step (before reset(), after close()
        or an interrupted step)."""
        self._need_ready("action_masks()")   # (it returned zeros, or a half-stepped env's mask)
        return self._out(self._core.mask.view(bool))

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per env (int64), from each env's own stream;
        RuntimeError before reset() and after close(), as `step` raises."""
        self._need_open()
        self._need_deal("sample_actions()")
        out = np.empty(self.num_envs, np.int64)
        self._core.sample_actions(out)
        return out

    @property
    def final_observations(self) -> np.ndarray:
        """(num_envs, OBSERVATION_SIZE) float32: each env's last observation of the
        episode that ended last, written by the step that ended it (the row of an env
        whose last step ended nothing holds an older episode's).  A step returns the next
        episode's first observation, so a truncated episode's value (the move cap) can
        be bootstrapped only from this.  The view is `final_to_move`'s."""
        return self._out(self._core.final_obs)

    @property
    def final_to_move(self) -> np.ndarray:
        """(num_envs,) int8: whose view each row of `final_observations` is: the agent's
        against an opponent; in self-play, the actor's if the episode was terminated
        (the seat whose reward the step reported), and if it was truncated the player to
        decide there (as a step's `to_move` would have said); -1 before an env's first
        episode has ended."""
        return self._out(self._core.final_to_move)

    # -- inspection ----------------------------------------------------------------------

    @property
    def illegal(self) -> np.ndarray:
        """Which envs' last action was illegal (and so lost the episode)."""
        return self._core.illegal.view(bool).copy()

    @property
    def episodes(self) -> np.ndarray:
        """The index of the episode each env is playing (episodes started so far - 1):
        game `episodes[i]` of env i's stream, or a position `set_game` put in its
        place."""
        return self._core.episodes()

    @property
    def skipped(self) -> np.ndarray:
        """Per env, episodes that ended before the agent's first decision (the opponent
        won at once) and were replaced by the next one: deals, and positions given to
        `set_game`."""
        return self._core.skipped()

    def legal_actions(self, i: int) -> list[int]:
        """The legal actions of env i, ascending; RuntimeError before reset() and after
        close(), as `step` raises."""
        i = self._index(i)
        self._need_open()
        return self._core.legal_actions(i)

    def game(self, i: int) -> Game:
        """A copy of env i's current position as a cuttle.Game (no move history)."""
        g = Game(self.rules, seed=0)
        self._core.copy_state_to(self._index(i), g)
        return g

    def _index(self, i):
        i = check_int(i, "env index", 0, self.num_envs - 1)
        self._need_deal(f"inspecting env {i}")
        return i

    def _need_open(self):
        if self._closed:
            raise RuntimeError(CLOSED + " in every env")

    def _need_ready(self, what):
        self._need_open()
        if not self._ready and not self._started:
            raise RuntimeError(f"call reset() before {what}: no env has been dealt yet")
        if not self._ready:
            raise RuntimeError("call reset() first: a reset or step interrupted by Ctrl-C "
                               "left the envs half-stepped")

    def _need_deal(self, what):
        if not self._dealt:
            raise RuntimeError(f"call reset() before {what}: no env has been dealt yet")

    def _out(self, a):
        if self.copy:
            return a.copy()
        v = a.view()
        v.flags.writeable = False
        return v

    def _check_stuck(self):
        stuck = self._core.stuck()
        if stuck:
            why = why_no_decision(self.game(stuck[0]), self.max_moves)
            raise RuntimeError(f"env {stuck[0]}: games keep ending before the agent's first "
                               f"decision ({why}); {len(stuck)} env(s) stuck")

    def __reduce__(self):
        raise TypeError("a VectorEnv cannot be pickled: its games live in native memory "
                        "mid-episode; pickle its arguments and call reset(seed) on a new "
                        "one (a Game pickles: env.game(i))")

    def close(self) -> None:
        """Free the opponent's kept search trees (an ``ismcts-infer`` opponent's; the
        rest of the native state goes with the object).  Then `step`, `action_masks`,
        `sample_actions` and `legal_actions` raise RuntimeError (the env is closed) until
        reset() starts it again, a new episode in every env; `game(i)` still shows each
        position.  Closing twice is allowed."""
        self._core.release()
        self._ready = False
        self._closed = True

    def __repr__(self):
        opp = "self-play" if self.opponent is None else f"vs {self.opponent}"
        return f"<cuttle.rl.VectorEnv {self.num_envs} envs, {self.rules!r}, {opp}>"
