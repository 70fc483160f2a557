"""A PettingZoo AEC environment: two agents, `player_0` (moves first) and `player_1`
(`CuttleAECEnv`'s docstring says how they play, observe and are rewarded).

Seeding: `reset(seed=s)` deals `Game(seed=s)`, and the following unseeded resets deal
games 1, 2, ... of the same seeded run (`Game.from_run(rules, seed=s, index=k)`).

Rendering shows a hidden-information game as a seat sees it (`Game.render(viewer)`, as
`cuttle play` shows the table), so that a person watching is not shown the hand the
player to act cannot see: `render_view="agent_selection"` (the default) is the view of
the agent to act, `"player_0"` or `"player_1"` one agent's view throughout (a person
playing that seat), `"all"` every card.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._optional import missing

try:
    import gymnasium
    from pettingzoo import AECEnv
    from pettingzoo.utils.env_logger import EnvLogger
except ImportError as e:
    raise missing(e, "cuttle.rl.aec_env") from None

from .._actions import code_of_action
from ..game import Game
from ..rules import Rules
from ..seeding import check_seed, seed_or_new
from ..validation import check_count
from .spaces import (ACTION_SPACE, AGENTS, CLOSED, DEFAULT_MAX_MOVES, OBSERVATION_HIGH,
                     OBSERVATION_SIZE, RENDER_MODES, action_mask, check_action,
                     check_render_mode, legal_actions, outcome_info, seat_view)

__all__ = ["CuttleAECEnv", "aec_env"]

# Whose view `render` shows: the agent to act's, one agent's throughout, or every card.
RENDER_VIEWS = ("agent_selection", *AGENTS, "all")


def aec_env(rules: Rules | str | None = None, max_moves: int = DEFAULT_MAX_MOVES,
            render_mode: str | None = None,
            render_view: str = "agent_selection") -> CuttleAECEnv:
    """A PettingZoo AEC environment of Cuttle under `rules` (a Rules, rule text such as
    "classic: joker=true", or None for classic); `render_view` says whose view `render`
    shows (see the module's docstring)."""
    return CuttleAECEnv(rules=rules, max_moves=max_moves, render_mode=render_mode,
                        render_view=render_view)


class CuttleAECEnv(AECEnv):
    """Cuttle for two agents, `player_0` (moves first) and `player_1`, under `rules` (a
    Rules, rule text such as "classic: joker=true", or None for classic); `aec_env`
    makes one.

    `agent_selection` is always the player who decides now, which is not strict
    alternation: a one-off gives the opponent a counter decision, a 3, a 5 or a 7 gives
    the same player a follow-up choice, a 4 makes the opponent discard.  Each agent
    observes a dict: `observation` (the float32 encoding of its view,
    `Game.observation_array`) and `action_mask` (int8 over the compact actions, all
    zero when it is not that agent's decision).  Rewards are +1 / -1 for the winner /
    loser when the game ends and 0 otherwise (a draw gives 0 to both); `max_moves`
    moves of both players truncate.

    An action inside the space that is not legal now ends the game as a loss for the
    agent that chose it: reward -1 to it and +1 to the other, every agent terminated,
    info `illegal_action` for it, the position left as it was.  Anything outside the
    space raises ValueError.

    When the game ends or is truncated, every agent's info gives the outcome: `winner`
    (a seat, -1 for a draw or the move cap), `end_reason` ("goal", "passes",
    "sudden_death" as `Game.end_reason`; "move_cap" when truncated;
    "illegal_action") and the agent's own `seat`.

    `render_mode`: None, "human" (printed after each step) or "ansi" (`render()`
    returns it); `render_view`: whose view `render` shows (the module's docstring says
    how, and how `reset(seed=...)` deals)."""

    metadata: dict[str, Any] = {"name": "cuttle_v0", "render_modes": list(RENDER_MODES),
                                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, rules: Rules | str | None = None, max_moves: int = DEFAULT_MAX_MOVES,
                 render_mode: str | None = None, render_view: str = "agent_selection"):
        super().__init__()
        check_render_mode(render_mode)
        if not (isinstance(render_view, str) and render_view in RENDER_VIEWS):
            raise ValueError(f"render_view must be one of "
                             f"{', '.join(map(repr, RENDER_VIEWS))}, not {render_view!r}")
        self.render_view = render_view
        self.max_moves = check_count(max_moves, "max_moves")
        self.rules = Rules.coerce(rules)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.game: Game | None = None
        self._seed: int | None = None
        self._episode = 0
        self._closed = False                 # closed, and not reset since
        self._spaces = {a: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, OBSERVATION_HIGH, (OBSERVATION_SIZE,),
                                                np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (ACTION_SPACE,), np.int8),
        }) for a in AGENTS}
        self._action_spaces = {a: gymnasium.spaces.Discrete(ACTION_SPACE) for a in AGENTS}

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return self._spaces[AGENTS[self._seat(agent)]]

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        return self._action_spaces[AGENTS[self._seat(agent)]]

    # -- episodes ------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._seed is None:
            self._seed = check_seed(seed) if seed is not None else seed_or_new(None)
            self._episode = 0
        else:
            self._episode += 1
        self.game = Game.from_run(self.rules, seed=self._seed, index=self._episode)
        self._closed = False
        self.agents = list(AGENTS)
        self.rewards = {a: 0 for a in AGENTS}
        self._cumulative_rewards = {a: 0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self.game.to_move]

    def _started(self, what):
        if self._closed:
            raise RuntimeError(CLOSED)
        if self.game is None:
            raise RuntimeError(f"reset() needs to be called before {what}")

    def _seat(self, agent):
        try:
            return AGENTS.index(agent)
        except ValueError:
            raise ValueError(f"unknown agent {agent!r}: the agents are "
                             f"{', '.join(AGENTS)}") from None

    def last(self, observe: bool = True) -> tuple[Any, ...]:
        self._started("last")
        if self.agent_selection not in self.agents:
            raise RuntimeError("every agent is done and removed: call reset() for a new game")
        return super().last(observe)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._started("observe")
        p = self._seat(agent)
        # (an agent removed once the game ended has no flags left: it is done)
        deciding = agent == self.agent_selection and not self.game.is_over \
            and not (self.terminations.get(agent, True) or self.truncations.get(agent, True))
        return {"observation": self.game.observation_array(p),
                "action_mask": action_mask(self.game) if deciding
                else np.zeros(ACTION_SPACE, np.int8)}

    def step(self, action: int | None) -> None:
        self._started("step")
        if not self.agents:
            # Every agent is done and removed: as PettingZoo's order-enforcing wrapper
            # does, warn and ignore the step.
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = check_action(action)
        p = AGENTS.index(agent)
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        if action in legal_actions(self.game):
            self.game.play(code_of_action(action))
            if self.game.is_over:
                self._finish(self.game.winner)
            elif self.game.ply >= self.max_moves:
                self.truncations = {a: True for a in self.agents}
            else:
                self.agent_selection = AGENTS[self.game.to_move]
        else:
            # An illegal choice loses the game (the position is left as it was).
            self.infos[agent]["illegal_action"] = True
            self._finish(1 - p)
        if self.terminations[agent] or self.truncations[agent]:
            self.agent_selection = AGENTS[1 - p]
            illegal_by = p if self.infos[agent].get("illegal_action") else None
            for a in self.agents:
                self.infos[a].update(outcome_info(self.game, AGENTS.index(a), illegal_by))
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish(self, winner):
        self.terminations = {a: True for a in self.agents}
        if winner is not None:
            self.rewards[AGENTS[winner]] = 1
            self.rewards[AGENTS[1 - winner]] = -1

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='human' "
                                  "or 'ansi' to aec_env")
            return None
        text = "(no game: call reset)" if self.game is None else self._table()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def _table(self) -> str:
        """The table in `render_view`'s view, under a line saying whose it is."""
        if self.render_view == "all":
            return seat_view(self.game, None)
        agent = self.agent_selection if self.render_view == "agent_selection" \
            else self.render_view
        return seat_view(self.game, AGENTS.index(agent))

    def close(self) -> None:
        """Then `step`, `observe` and `last` raise RuntimeError (the env is closed) until
        reset() deals a new game; `game` and `render()` still show the position.
        Closing twice is allowed."""
        self._closed = True
