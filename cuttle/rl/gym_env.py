"""A Gymnasium single-agent environment: the agent plays one seat against an opponent.

Observations are the float32 encoding of the agent's view (`Game.observation_array`),
actions the compact actions (cuttle.rl.spaces), and `action_masks()` the bool mask
sb3-contrib's MaskablePPO reads.  The opponent's moves are played inside `reset` and
`step` until the agent decides again.  Rewards: +1 win, -1 loss, 0 draw, at the end.

An action of the space that is not legal now (check_env samples actions without the
mask) ends the episode as a loss: reward -1, terminated, info `illegal_action`; the
position is left as it was.  Anything outside the space raises ValueError.

`render()` shows the table as the agent's seat sees it, under a line naming the seat
("player_1's view:"), as the PettingZoo env's does.

The opponent is asked only for its decisions with a choice, as `simulate` asks a
player (`cuttle.policies.forced_move`); the agent decides at every decision of its seat.
A pickled env (or a `copy.deepcopy`) continues its episode as the original would: a
searching opponent's tree, which a `Bot` does not pickle, is rebuilt when it is loaded
by replaying its searches of the episode so far.
"""

from __future__ import annotations

import random
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .._optional import missing

try:
    import gymnasium
except ImportError as e:
    raise missing(e, "cuttle.rl.GymEnv") from None

from .._actions import code_of_action
from .._vector import MAX_SKIPS
from ..game import Game
from ..policies import Bot, code_hint, forced_move, is_search, policy_code, with_rng
from ..rules import Rules
from ..seeding import SEED_LIMIT, check_seed, derive, seat_seed
from ..validation import check_count, check_player
from .spaces import (ACTION_SPACE, CLOSED, DEFAULT_MAX_MOVES, OBSERVATION_HIGH,
                     OBSERVATION_SIZE, RENDER_MODES, action_mask, check_action,
                     check_render_mode, legal_actions, outcome_info, seat_view,
                     why_no_decision)

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..moves import Move

__all__ = ["ENV_ID", "GymEnv", "MAX_SKIPS"]


class GymEnv(gymnasium.Env):
    """Cuttle against `opponent`: a native policy name ("random", "greedy",
    "ismcts:200", ... see cuttle.policies) or a callable `f(game) -> move` or
    `f(game, rng) -> move`, as `cuttle.simulate` takes (a Move, move text or code, legal
    for `game.to_move`; it gets the live Game, the agent's hand and the deck order
    included, and must not change it: `cuttle.policies.fair(f)` is `f` seeing only its
    own player's view).  The opponent is asked only when it has a choice (a
    forced move is played for it), as `simulate` asks its players.  A callable is
    called as `simulate` calls it (`cuttle.policies.with_rng`): one that can take two
    arguments (an optional `rng=None` too) gets a `random.Random` reproducible from the
    episode's deal seed `d` (see `reset`): `random.Random(seat_seed(d, 0, q))` for the
    opponent's seat `q`, the rng `simulate` hands the player in that seat of that deal,
    so against a deterministic agent an episode is game 0 of `simulate(1, players=...,
    seed=d)`, move for move.  `rules`: a
    Rules, rule text such as "classic: joker=true", or None (classic).  `seat`: 0 (the
    agent moves first), 1, or None (a random seat each episode).

    Pickled (or deep-copied) during an episode, the env continues it exactly: a
    searching opponent's tree is rebuilt when it is loaded, by replaying the
    opponent's searches of the episode so far (as long again as they took).  A callable
    opponent is pickled as it pickles itself.

    An int the opponent returns is a `Move.code`, NOT a compact action index (the
    actions this env's agent plays): an opponent that picks an action index returns
    `cuttle.rl.move_of(action)`, e.g. `lambda game: move_of(my_pick(legal_actions(game)))`."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, opponent: str | Callable[..., Move | str | int] = "greedy",
                 rules: Rules | str | None = None, seat: int | None = 0,
                 max_moves: int = DEFAULT_MAX_MOVES, render_mode: str | None = None):
        check_render_mode(render_mode)
        seat = check_player(seat, "seat", none="a random seat each episode")
        max_moves = check_count(max_moves, "max_moves")
        self._rng: random.Random | None = None    # a callable's, per episode
        if callable(opponent):
            self._policy: str | None = None
            # called as simulate calls it (ValueError at once for neither form)
            self._call = with_rng(opponent, "the opponent")
        else:
            policy_code(opponent)              # ValueError naming the valid policies
            self._policy = opponent
        self.opponent = opponent
        self.rules: Rules = Rules.coerce(rules)
        self.max_moves: int = max_moves
        self.render_mode = render_mode
        self.observation_space = gymnasium.spaces.Box(0.0, OBSERVATION_HIGH,
                                                      (OBSERVATION_SIZE,), np.float32)
        self.action_space = gymnasium.spaces.Discrete(ACTION_SPACE)
        self._fixed_seat: int | None = seat
        self.seat: int | None = seat
        self.game: Game | None = None
        # The seed the episode's game was dealt from (reset's docstring): set by reset.
        self.seed: int | None = None
        self._bot: Bot | None = None
        self._done: bool = True
        self._closed: bool = False           # closed, and not reset since

    # -- episodes ------------------------------------------------------------------------

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start an episode: deal a game, play the opponent's moves until the agent
        decides, and return the agent's observation and `info`: `seat` (the agent's seat
        this episode), `skipped` (deals skipped, below) and `seed` (the deal seed `d`,
        as a numpy.uint64, which Gymnasium's vector envs batch).

        Seeding: `seed` (0 .. 2**64 - 1; None goes on with the env's generator, seeded
        at random the first time) seeds Gymnasium's `self.np_random`, which is then
        `numpy.random.default_rng(seed)`.  Every reset draws the episode's deal seed
        `d = np_random.integers(0, 2**64, dtype=numpy.uint64)`, then the agent's seat
        (`np_random.integers(2)`) if `seat` is None, and deals `Game(rules, seed=d)`,
        i.e. `Game.from_run(rules, seed=d, index=0)`, game 0 of a simulation run seeded
        `d` (not of one seeded `seed`: the PettingZoo env deals
        `Game.from_run(rules, seed=seed, index=k)` directly).  A native opponent plays
        `Bot(policy, seed=derive(d, 1))`, a callable opponent in seat `q` gets
        `random.Random(seat_seed(d, 0, q))` (`cuttle.seeding.seat_seed`), each asked
        only for its decisions with a choice.  A deal that ends
        before the agent's first decision (goals of 10 or less) is skipped and another
        `d` drawn; 64 in a row raise RuntimeError.

        To replay an episode, read `self.seed` (`d`) after any reset, seeded or not:
        `Game(env.rules, seed=env.seed)` deals it again, and the same agent actions
        against the opponent above play it again.  It is not a `reset` seed
        (`reset(seed=env.seed)` deals another game), and neither is Gymnasium's
        `np_random_seed` after an unseeded reset (128 bits, refused): to replay
        episodes inside the env, reset it with a seed, then unseeded as many times as
        before."""
        super().reset(seed=None if seed is None else check_seed(seed))
        self._closed = False
        # Over until the opponent has moved: if it raises (a callable's bug, Ctrl-C in a
        # search), the game is left with the opponent to decide, and a step would play
        # its move (and action_masks() show its legal actions).
        self._done = True
        skipped = 0
        while True:
            episode_seed = int(self.np_random.integers(0, SEED_LIMIT, dtype=np.uint64))
            self.seat = self._fixed_seat if self._fixed_seat is not None \
                else int(self.np_random.integers(2))
            self.game = Game(self.rules, seed=episode_seed)
            self.seed = episode_seed
            if self._policy is not None:
                self._bot = Bot(self._policy, seed=derive(episode_seed, 1))
            else:
                # the rng simulate hands the opponent's seat in this deal (game 0 of a
                # run seeded episode_seed)
                self._rng = random.Random(seat_seed(episode_seed, 0, 1 - self.seat))
            self._advance()
            if not self._finished():
                break
            skipped += 1
            if skipped >= MAX_SKIPS:
                raise RuntimeError(f"{MAX_SKIPS} games in a row ended before the agent "
                                   f"(seat {self.seat}) could decide: "
                                   + why_no_decision(self.game, self.max_moves))
        self._done = False
        if self.render_mode == "human":
            self.render()
        # (a numpy.uint64: Gymnasium's vector envs batch an int info in int64)
        return self._observe(), {"seat": self.seat, "skipped": skipped,
                                 "seed": np.uint64(self.seed)}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the agent's compact action (an int in 0 .. ACTION_SPACE - 1, numpy ints
        too; `cuttle.rl.move_of(action)` is its move), then the opponent's moves until
        the agent decides again, the game ends or the move cap is reached.  Returns
        `(observation, reward, terminated, truncated, info)`, the observation the
        agent's view afterwards.

        - reward: +1 if the agent won, -1 if it lost, 0 for a draw and before the end.
        - terminated: the game ended (a goal, passes, ...), or the action was illegal.
        - truncated: the game's history reached `max_moves` moves (`game.ply`: one
          per decision of either player, the opponent's and single-choice ones
          included) without an end; the game is not over there (reward 0), so a
          learner bootstraps its value from the observation.
        - An action of the space that is not legal now (all actions but those of
          `action_masks()`) ends the episode as a loss: reward -1, terminated,
          `info["illegal_action"] = True`, the position left as it was.  Anything
          outside the space raises ValueError, the episode untouched.
        - info: empty before the last step.  The last step's (terminated or
          truncated) gives the outcome: `winner` (a seat, -1 for a draw or the
          move cap), `end_reason` ("goal", "passes", "sudden_death" as
          `Game.end_reason`; "move_cap" when truncated; "illegal_action"), the
          agent's `seat`, and `illegal_action` (True) after an illegal action.

        After the episode ends (or when the opponent raised while moving), before the
        first reset and after `close()`, `step` raises RuntimeError: call `reset()`."""
        self._need_episode("step()")
        if self._done:
            raise RuntimeError("the episode is over (or the opponent raised while "
                               "moving): call reset()")
        action = check_action(action)
        info = {}
        reward, terminated, truncated = 0.0, False, False
        self._done = True                    # until the opponent has moved (see reset)
        if action in legal_actions(self.game):
            self.game.play(code_of_action(action))
            self._advance()
            if self.game.is_over:
                terminated = True
                winner = self.game.winner
                reward = 0.0 if winner is None else (1.0 if winner == self.seat else -1.0)
            elif self._finished():
                truncated = True                 # the move cap
        else:
            info["illegal_action"] = True
            reward, terminated = -1.0, True
        self._done = terminated or truncated
        if self._done:
            info.update(outcome_info(self.game, self.seat,
                                     self.seat if info.get("illegal_action") else None))
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as a bool array of ACTION_SPACE: all False once the
        episode is over (no action is legal: under Gymnasium's next-step autoreset an
        ended env shows this until its next step, which resets it and ignores the
        action).  RuntimeError before the first reset() and after close(), as `step`
        raises."""
        self._need_episode("action_masks()")
        if self._done:
            return np.zeros(ACTION_SPACE, bool)
        return action_mask(self.game, bool)

    def close(self) -> None:
        """Free the opponent (a searching opponent's kept tree).  Then `step` and
        `action_masks` raise RuntimeError (the env is closed) until reset() starts a
        new episode; `game` and `render()` still show the position.  Closing twice is
        allowed."""
        self._closed = True
        self._bot = None

    def _need_episode(self, what):
        if self._closed:
            raise RuntimeError(CLOSED)
        if self.game is None:
            raise RuntimeError(f"call reset() before {what}: no episode has started")

    def _observe(self):
        return self.game.observation_array(self.seat)

    def _finished(self):
        return self.game.next_decision(self.max_moves) is None

    def _advance(self):
        """The opponent plays until the agent decides, the game ends or the episode's
        move cap is reached (the core's play loop, Game.next_decision, says which); it
        is asked only for a choice, as simulate asks its players."""
        g = self.game
        while g.next_decision(self.max_moves) not in (None, self.seat):
            move = forced_move(g)
            g.play(self._opponent_move(g) if move is None else move)

    def _opponent_move(self, g):
        """The opponent's choice in `g`, checked."""
        if self._policy is not None:
            return self._bot.choose(g)
        ply = g.ply
        move = self._call(g, self._rng)
        if g.ply != ply:
            raise ValueError(f"the opponent function changed the game (its ply went from "
                             f"{ply} to {g.ply}): it must return its move, not play it")
        if not g.is_legal(move):
            raise ValueError(f"the opponent chose {move!r}, which is not a legal move for "
                             f"player {g.to_move}" + code_hint(move))
        return move

    def __setstate__(self, state):
        # A Bot pickles without its search tree: the opponent's searches of the episode
        # are replayed, so that it goes on as it would have (same seeds, same trees).
        self.__dict__.update(state)
        self.__dict__.setdefault("_closed", False)              # (an older version's)
        if self._policy is None and "_call" not in state:      # (an older version's)
            self._call = with_rng(self.opponent, "the opponent")
        if self._policy is not None and is_search(self._policy) and not self._done \
                and not self._closed:
            self._bot = self._replayed_bot()

    def _replayed_bot(self):
        """The episode's opponent Bot, made again and asked again at each of its
        decisions with a choice so far (its trees as they were); the unpickled one,
        without trees, with a warning, if a replayed choice differs from the game's
        (a pickle of another version of the env)."""
        bot = Bot(self._policy, seed=derive(self.seed, 1))
        g = Game(self.rules, seed=self.seed)
        for move in self.game.moves:
            if g.to_move != self.seat and forced_move(g) is None and bot.choose(g) != move:
                warnings.warn(f"the pickled episode's opponent ({self._policy}) could not "
                              f"be replayed (it chose otherwise at move {g.ply + 1}): it "
                              f"goes on with a fresh search tree", RuntimeWarning,
                              stacklevel=3)
                return self._bot
            g.play(move)
        return bot

    def render(self) -> str | None:
        """The table as the agent's seat sees it (its hand, the public table, the
        opponent's hand as a count of hidden cards with those the agent knows), under
        a line naming the seat ("player_1's view:"), as `cuttle play` shows it.
        `render_mode="ansi"` returns the text, `"human"` prints it (and `reset` and
        `step` print it after each call) and returns None; without a render_mode it
        warns and returns None."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='human' "
                                  "or 'ansi' to GymEnv")
            return None
        text = "(no game: call reset)" if self.game is None else \
            seat_view(self.game, self.seat)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


# gymnasium.make(ENV_ID, opponent=..., ...) once this module is imported, or in one go
# gymnasium.make("cuttle.rl.gym_env:cuttle/Cuttle-v0") (gymnasium imports the module).
ENV_ID = "cuttle/Cuttle-v0"
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:GymEnv")
