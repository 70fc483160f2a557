"""Learning environments (docs/rl.md): a PettingZoo AEC env (`aec_env`), a Gymnasium
single-agent env against a policy (`GymEnv`), and a native batched `VectorEnv`, all on
the same observation encoding and compact action space (`cuttle.rl.spaces`).

`VectorEnv` and the spaces need only numpy; `aec_env` needs pettingzoo and `GymEnv`
gymnasium (`pip install "pycuttle[rl]"`), imported when first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .spaces import (ACTION_SPACE, DEFAULT_MAX_MOVES, OBSERVATION_SIZE, action_mask,
                     action_of, legal_actions, move_of)
from .vector import VectorEnv

if TYPE_CHECKING:
    from ..rules import Rules
    from .aec import CuttleAECEnv

__all__ = ["ACTION_SPACE", "DEFAULT_MAX_MOVES", "GymEnv", "OBSERVATION_SIZE", "VectorEnv",
           "action_mask", "action_of", "aec_env", "legal_actions", "move_of"]


def aec_env(rules: Rules | str | None = None, **kwargs: Any) -> CuttleAECEnv:
    """A PettingZoo AEC environment (cuttle.rl.aec); needs pettingzoo."""
    from .aec import aec_env as make
    return make(rules=rules, **kwargs)


def __getattr__(name):
    if name == "GymEnv":
        from .gym_env import GymEnv
        return GymEnv
    raise AttributeError(f"module 'cuttle.rl' has no attribute {name!r}")
