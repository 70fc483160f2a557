"""OpenSpiel's bots as cuttle players: `state_of(game)`, a CuttleState at a Game's
position, and `ISMCTSPlayer`, OpenSpiel's generic Python ISMCTSBot as a
policy(game, rng) -> Move (the strength ladder's anchor).
"""

from __future__ import annotations

import functools

import numpy as np
import pyspiel

from ..game import Game
from ..moves import Move
from ..rl.spaces import DEFAULT_MAX_MOVES, move_of
from .game import CuttleGame, CuttleState, _Origin, _Table, game_string
from .observers import _INFO_STATE, _chain_key, _digest

__all__ = ["ISMCTSPlayer", "state_of"]


@functools.lru_cache(maxsize=16)
def _loaded(text: str) -> CuttleGame:
    return pyspiel.load_game(text)


def state_of(game: Game, max_moves: int = DEFAULT_MAX_MOVES) -> CuttleState:
    """A state at `game`'s position (a copy of it, with up to `max_moves` player moves to
    come), for OpenSpiel's bots to decide from.  Its history holds the actions since the
    position, and its perfect-recall views (information states included) start there,
    with each player's view of it; the game's own rules play on (a random 4 draws from
    the game's stream, not a chance node).  `resample_from_infostate` deals anew the
    cards the player cannot place in the position reached (Game.determinize), in the
    state, its clones, children and deserialized copies alike."""
    if not isinstance(game, Game):
        raise TypeError(f"state_of needs a cuttle.Game, not {type(game).__name__}")
    if game.is_over:
        raise ValueError("the game is over: OpenSpiel has no decision to make in it")
    state = _loaded(game_string(game.rules, max_moves)).new_initial_state()
    state._chance_four, state._play_rules = False, game.rules
    state._dealt = list(range(state._n_cards))
    state._origin = _Origin(game)     # (its clones resample from the position too)
    table = state._table = _Table.at(game)
    for p in (0, 1):
        state._chains[_chain_key(_INFO_STATE, p)] = _digest(table.obs(p).tobytes())
    return state


class ISMCTSPlayer:
    """OpenSpiel's generic information-set MCTS (its Python `ISMCTSBot`, random rollouts
    by `mcts.RandomRolloutEvaluator`) as a cuttle player: ``policy(game, rng) -> Move``.

    Each decision searches a fresh tree of `iterations` simulations from
    ``state_of(game)`` with the UCT constant `uct_c`; every random choice, its
    determinizations included, comes from `rng` (a seeded cuttle.simulate run gives each
    game its own), so a run is reproducible.  A reference opponent written outside this
    project (about 230 times slower per iteration than the native ``ismcts:N``), for
    the strength ladder."""

    def __init__(self, iterations: int = 100, uct_c: float = 2.0, rollouts: int = 1):
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"iterations must be an int >= 1, not {iterations!r}")
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
            raise ValueError(f"rollouts must be an int >= 1, not {rollouts!r}")
        self.iterations, self.uct_c, self.rollouts = iterations, float(uct_c), rollouts
        self.__name__ = f"openspiel-ismcts:{iterations}"

    def __call__(self, game: Game, rng) -> Move:
        from open_spiel.python.algorithms import ismcts, mcts

        state = state_of(game)
        rs = np.random.RandomState(rng.getrandbits(32))
        bot = ismcts.ISMCTSBot(game=state.get_game(), uct_c=self.uct_c,
                               max_simulations=self.iterations,
                               evaluator=mcts.RandomRolloutEvaluator(self.rollouts, rs),
                               random_state=rs)
        # Its determinizations drawn from rs too (its default sampler is seeded apart).
        bot.set_resampler(lambda s, player: s.resample_from_infostate(player, rs.uniform))
        return move_of(bot.step(state))

    def __repr__(self):
        return f"ISMCTSPlayer({self.iterations})"
