"""The spaces of the learning environments (docs/rl.md): observations, compact actions
and their masks, shared by the PettingZoo, Gymnasium, OpenSpiel and vector envs; and
what the PettingZoo and Gymnasium envs share besides: the agents' names (`AGENTS`),
their render modes (`RENDER_MODES`, `check_render_mode`) and the table a seat sees under
a line naming it (`seat_view`, what their `render` shows); and what every env says once
closed (`CLOSED`).

The compact codec lives in the core (cuttle/_actions.pxd); this module only exposes it
for Moves and games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._actions import (ACTION_BLOCKS, ACTION_SPACE, action_of_code, code_of_action,
                        game_action_mask, game_legal_actions)
from ..moves import Move
from ..observation import OBSERVATION_SIZE, SCALARS, SCALARS_AT
from ..flags import MAX_GOAL
from ..validation import check_int, is_int

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..game import Game

__all__ = ["ACTION_BLOCKS", "ACTION_SPACE", "AGENTS", "CLOSED", "DEFAULT_MAX_MOVES",
           "OBSERVATION_HIGH", "OBSERVATION_SIZE", "RENDER_MODES", "action_mask", "action_of",
           "check_action", "check_render_mode", "legal_actions", "move_of", "outcome_info",
           "seat_view", "why_no_decision"]

# The seats by the names of PettingZoo's agents: player_0 moves first.
AGENTS = ("player_0", "player_1")

# The move cap of a learning episode (both players' moves): VectorEnv, GymEnv and the
# PettingZoo env truncate an episode there (OpenSpiel ends it as a draw).  Lower than
# the cap of a simulated game (cuttle.simulation.DEFAULT_MAX_MOVES, 10,000): games end
# on their own far sooner (random players need at most ~130 moves), and a learner is
# better served by a pathological loop cut short early than by a draw.
DEFAULT_MAX_MOVES = 1000


def _observation_high() -> np.ndarray:
    """Upper bounds of every observation entry (the lower bound is 0)."""
    scalar_high = {"deck_size": 53 / 52, "own_hand_size": 53 / 52,
                   "opponent_hand_size": 53 / 52, "own_score": 220 / 21,
                   "opponent_score": 220 / 21, "own_goal": MAX_GOAL / 21,
                   "opponent_goal": MAX_GOAL / 21, "stack_size": 1.0, "is_own_turn": 1.0,
                   "is_own_decision": 1.0}
    high = np.ones(OBSERVATION_SIZE, np.float32)
    for k, name in enumerate(SCALARS):
        high[SCALARS_AT + k] = scalar_high[name]    # 220: every point card's value together
    return high


OBSERVATION_HIGH = _observation_high()


def action_of(move: Move | str | int) -> int:
    """The compact action of a Move (or move text or code); ValueError for a move that
    is never legal."""
    if is_int(move):
        return action_of_code(int(move))
    return action_of_code((move if isinstance(move, Move) else Move.parse(move)).code)


def move_of(action: int) -> Move:
    """The Move of a compact action; ValueError outside 0..ACTION_SPACE-1."""
    return Move.from_code(code_of_action(check_action(action)))


def check_action(action: object) -> int:
    """`action` as an int in the compact space, or ValueError.  A 0-d integer array is
    an action too, as Gymnasium's Discrete space counts it (some trainers pass one)."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action[()]
    return check_int(action, "an action", 0, ACTION_SPACE - 1,
                     f"an int from 0 to {ACTION_SPACE - 1}")


def legal_actions(game: Game) -> list[int]:
    """The legal compact actions of the player to decide, ascending ([] once over)."""
    return game_legal_actions(game)


def action_mask(game: Game, dtype: npt.DTypeLike = np.int8) -> np.ndarray:
    """The mask of the legal compact actions (ACTION_SPACE entries, 1 where legal)."""
    out = np.empty(ACTION_SPACE, np.int8)
    game_action_mask(game, out)
    if np.dtype(dtype) == np.bool_:
        return out.view(np.bool_)
    return out if np.dtype(dtype) == np.int8 else out.astype(dtype)


def outcome_info(game: Game, seat: int, illegal_by: int | None = None) -> dict[str, Any]:
    """The keys of an episode's last info for the agent of `seat`: `winner` (a seat, -1
    for a draw or the move cap: not None, which Gymnasium's vector envs cannot batch
    with ints), `end_reason` (`Game.end_reason`: "goal", "passes", "sudden_death";
    "move_cap" when the cap truncated the episode; "illegal_action" when the seat
    `illegal_by` chose one) and `seat`."""
    if illegal_by is not None:
        winner, reason = 1 - illegal_by, "illegal_action"
    elif game.is_over:
        winner, reason = (-1 if game.winner is None else game.winner), game.end_reason
    else:
        winner, reason = -1, "move_cap"
    return {"winner": winner, "end_reason": reason, "seat": seat}


def why_no_decision(game: Game, max_moves: int) -> str:
    """Why an episode's `game` ended before the agent's first decision (the single-agent
    envs give up after many such deals in a row): the opponent won at once, or the move
    cap came first."""
    if game.is_over:
        return "the opponent, moving first, won at once under these rules"
    return (f"the move cap (max_moves={max_moves}) ended the game before the agent's "
            f"first move; raise max_moves")


# What every env's per-episode calls (a step, the legal actions, an observation) raise
# after close(), until a reset (docs/rl.md, "Before reset, after close").
CLOSED = "the env is closed: reset() starts it again, with a new episode"


# The envs' render modes besides None: "human" prints the table after each step, "ansi"
# has `render()` return it.
RENDER_MODES = ("human", "ansi")


def check_render_mode(mode: object) -> str | None:
    """An env's `render_mode`: None or one of `RENDER_MODES`; ValueError otherwise."""
    if mode not in (None, *RENDER_MODES):
        raise ValueError(f"render_mode must be None, "
                         f"{', '.join(map(repr, RENDER_MODES[:-1]))} or {RENDER_MODES[-1]!r}, "
                         f"not {mode!r}")
    return mode


def seat_view(game: Game, seat: int | None) -> str:
    """The table as `seat` sees it (`Game.render(viewer=seat)`) under a line naming the
    seat ("player_0's view:"), or every card (None: "every card:"): what the
    environments' `render` shows, so that a person watching knows whose view it is."""
    if seat is None:
        return "every card:\n" + game.render()
    return f"{AGENTS[seat]}'s view:\n" + game.render(viewer=seat)
