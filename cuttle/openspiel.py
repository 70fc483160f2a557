"""OpenSpiel: `import cuttle.openspiel` registers the game `python_cuttle` with pyspiel.

    import pyspiel, cuttle.openspiel
    game = pyspiel.load_game("python_cuttle")                 # classic rules
    game = pyspiel.load_game("python_cuttle(rules=cuttle.cards;four:random,max_moves=500)")
    game = pyspiel.load_game(cuttle.openspiel.game_string(rules, max_moves=500))

OpenSpiel's game strings reserve "=" and ",", so the `rules` parameter is a preset
followed by `;flag:value` changes, with "/" between the five King goals
(`classic;king_goals:15/14/10/7/5;joker:true`); `game_string` writes it.

The deal is explicit chance: one chance node per card (uniform over the cards not yet
dealt), player 0's five cards first, then player 1's six, then the deck from the top.
Player actions are the compact actions of cuttle.rl (docs/rl.md).  The observation
tensor is the core's encoding of the player's view (Game.observation_array; during the
deal only the player's own cards so far).  The information state string is the player,
the move number and a digest of everything the player has observed since the deal (its
cards, then every public move with the player's observation after it), so it has perfect
recall.  `resample_from_infostate` deals the cards the player cannot know anew
(Game.determinize) and keeps the history and the digests: the sample is in the same
information state, but its `history()` is the real one.  Returns are +1 / -1 (0 for a
draw or the move cap).

OpenSpiel's bots as cuttle players: `state_of(game)` is a CuttleState at a Game's
position, and `ISMCTSPlayer(iterations)` is OpenSpiel's generic Python ISMCTSBot (random
rollouts) as a policy(game, rng) -> Move for cuttle.simulate, Game loops and the
strength ladder's anchors (benchmarks/bench_strength.py --anchors).
"""

from __future__ import annotations

import functools
import hashlib
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

from ._actions import code_of_action
from ._core import n_cards
from .cards import CARDS
from .game import Game
from .rules import FLAGS, Rules
from .moves import Move
from .rl.spaces import (ACTION_SPACE, DEFAULT_MAX_MOVES, OBSERVATION_SIZE, legal_actions,
                        move_of)
from .seeding import derive

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["GAME_TYPE", "CuttleGame", "CuttleState", "ISMCTSPlayer", "game_string",
           "rules_from_param", "state_of"]

SHORT_NAME = "python_cuttle"
_HANDS = (5, 6)                    # player 0 is dealt 5 cards, player 1 six (and moves first)

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Cuttle (cuttle library)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "classic", "max_moves": DEFAULT_MAX_MOVES},
)


def rules_from_param(text: str) -> Rules:
    """Rules from the `rules` game parameter: `preset;flag:value;...` ("/" between
    King goals).  ValueError naming the bad part."""
    preset, *changes = str(text).split(";")
    extra = []
    for change in changes:
        name, colon, value = change.partition(":")
        if not colon:
            raise ValueError(f"rules parameter {text!r}: write each change as flag:value, "
                             f"not {change!r}")
        extra.append(f"{name.strip()}={value.strip().replace('/', ',')}")
    return Rules.parse(preset.strip() or "classic", extra=extra)


def game_string(rules: Rules | str | None = None, max_moves: int = DEFAULT_MAX_MOVES) -> str:
    """The pyspiel.load_game string of python_cuttle under `rules` (a Rules or preset)."""
    rules = Rules.coerce(rules)
    param = ";".join([rules.preset] + [f"{k}:{FLAGS[k].format(v).replace(',', '/')}"
                                       for k, v in rules.changed().items()])
    return f"{SHORT_NAME}(rules={param},max_moves={int(max_moves)})"


class CuttleGame(pyspiel.Game):
    """Cuttle under the `rules` parameter (see rules_from_param) with a cap of
    `max_moves` player moves (a draw)."""

    def __init__(self, params: Mapping[str, Any] | None = None):
        params = dict(params or {})
        rules = rules_from_param(params.get("rules", "classic"))
        max_moves = int(params.get("max_moves", DEFAULT_MAX_MOVES))
        if max_moves < 1:
            raise ValueError(f"max_moves must be >= 1, not {max_moves}")
        cards = n_cards(rules.joker)
        info = pyspiel.GameInfo(num_distinct_actions=ACTION_SPACE,
                                max_chance_outcomes=cards, num_players=2,
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=cards + max_moves)
        super().__init__(GAME_TYPE, info, params)
        # (attributes only after pyspiel's __init__, which would drop them)
        self.rules, self.max_moves, self.n_cards = rules, max_moves, cards

    def new_initial_state(self) -> CuttleState:
        return CuttleState(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: Mapping[str, Any] | None = None) -> CuttleObserver:
        """OpenSpiel's observer: the observation tensor (the core's encoding) and strings."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return CuttleObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class CuttleState(pyspiel.State):
    """A game of Cuttle: the deal (chance nodes) and then a cuttle.Game."""

    def __init__(self, game: CuttleGame):
        super().__init__(game)
        # Plain values, not the game: clone() deep-copies the state, and a copied
        # pyspiel.Game loses its Python attributes.
        self._rules, self._max_moves, self._n_cards = game.rules, game.max_moves, game.n_cards
        self._dealt: list[int] = []        # cards in deal order
        self.game: Game | None = None      # the cuttle.Game once every card is dealt
        self._moves = 0
        self._trace = [b"", b""]   # per player: digest of what it has observed

    # -- the OpenSpiel API -------------------------------------------------------------

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.game is None:
            return pyspiel.PlayerId.CHANCE
        return self.game.to_move

    def _legal_actions(self, player):
        return legal_actions(self.game)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = sorted(set(range(self._n_cards)) - set(self._dealt))
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action):
        if self.game is None:
            self._dealt.append(int(action))
            if len(self._dealt) == self._n_cards:
                self._start()
            return
        self.game.play(code_of_action(action))
        self._moves += 1
        for p in (0, 1):
            self._trace[p] = _digest(self._trace[p], int(action).to_bytes(2, "little"),
                                     self.game.observation_array(p).tobytes())

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARDS[action]}"
        return str(move_of(action))

    def is_terminal(self) -> bool:
        return self.game is not None and (self.game.is_over or self._moves >= self._max_moves)

    def returns(self) -> list[float]:
        if not self.is_terminal() or self.game.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.game.winner == 0 else [-1.0, 1.0]

    def resample_from_infostate(self, player: int,
                                probability_sampler: Callable[[], float]) -> CuttleState:
        """A state `player` cannot tell from this one: the cards it cannot know dealt
        anew (Game.determinize) from a seed drawn with `probability_sampler`."""
        clone = self.clone()
        if self.game is not None:
            seed = derive(int(probability_sampler() * 2 ** 53),
                          int(probability_sampler() * 2 ** 53))
            clone.game = self.game.determinize(player, seed)
        else:
            rng = np.random.default_rng(int(probability_sampler() * 2 ** 53))
            own = set(self._own_dealt(player))
            others = [c for c in self._dealt if c not in own]
            rng.shuffle(others)
            it = iter(others)
            clone._dealt = [c if c in own else next(it) for c in self._dealt]
        return clone

    def __str__(self):
        if self.game is None:
            return f"dealing: {' '.join(str(CARDS[c]) for c in self._dealt)}"
        return self.game.render()

    # -- helpers -------------------------------------------------------------------------

    def _start(self):
        d = self._dealt
        self.game = Game.from_position(
            self._rules, hands=([CARDS[c] for c in d[:_HANDS[0]]],
                                     [CARDS[c] for c in d[_HANDS[0]:sum(_HANDS)]]),
            deck=[CARDS[c] for c in d[sum(_HANDS):]], to_move=0,
            seed=derive(len(d), *d))      # the random effects' stream: fixed by the deal
        for p in (0, 1):
            self._trace[p] = _digest(b"", bytes(sorted(self._own_dealt(p))))

    def _own_dealt(self, player):
        start = 0 if player == 0 else _HANDS[0]
        return self._dealt[start:start + _HANDS[player]]


def _digest(*parts) -> bytes:
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        h.update(part)
    return h.digest()


class CuttleObserver:
    """pyspiel's PyObserver: `tensor` is the core's observation encoding; strings are the
    readable view (perfect_recall=False) or the information state (perfect_recall=True)."""

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType):
        self.perfect_recall = iig_obs_type.perfect_recall
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CuttleState, player: int) -> None:
        if state.game is not None:
            state.game.observation_array(player, self.tensor)
            return
        self.tensor.fill(0.0)
        for c in state._own_dealt(player):
            self.tensor[c] = 1.0              # the own_hand plane comes first

    def string_from(self, state: CuttleState, player: int) -> str:
        if self.perfect_recall:
            if state.game is None:
                cards = " ".join(str(CARDS[c]) for c in state._own_dealt(player))
                return f"p{player} dealt: {cards}"
            return f"p{player} move {state._moves} {state._trace[player].hex()}"
        if state.game is None:
            return f"p{player} hand: {' '.join(str(CARDS[c]) for c in state._own_dealt(player))}"
        return _view_text(state.game, player)


def _view_text(game, player) -> str:
    o = game.observation(player)
    opp = 1 - player

    def cards(cs):
        return " ".join(map(str, cs)) or "-"

    def points(side):
        return " ".join(f"{c}[{','.join(map(str, js))}]" if js else str(c)
                        for c, js in o.points[side]) or "-"

    return (f"p{player} {o.phase} turn={o.turn} to_move={o.to_move} | hand: {cards(o.hand)} "
            f"| opponent hand: {o.opponent_hand_size} known {cards(o.opponent_known)} "
            f"| points: {points(player)} vs {points(opp)} | permanents: "
            f"{cards(o.permanents[player])} vs {cards(o.permanents[opp])} | scrap: "
            f"{cards(o.scrap)} | deck: {o.deck_size} known "
            f"{' '.join(f'{d}:{c}' for d, c in o.deck_known) or '-'} | revealed: "
            f"{cards(o.revealed)} | stack: {cards(o.stack)} | frozen: "
            f"{cards(o.frozen[player])} | score {o.scores[player]}/{o.goals[player]} vs "
            f"{o.scores[opp]}/{o.goals[opp]}")


pyspiel.register_game(GAME_TYPE, CuttleGame)


@functools.lru_cache(maxsize=16)
def _loaded(text: str) -> CuttleGame:
    return pyspiel.load_game(text)


def state_of(game: Game, max_moves: int = DEFAULT_MAX_MOVES) -> CuttleState:
    """A CuttleState at `game`'s position (a copy of it, dealt, with up to `max_moves`
    moves to come), for OpenSpiel's bots to decide from.  The information state strings
    start at this position (each player's view of it), so a search from it tells apart
    what follows; what preceded is summed up by the position itself."""
    if not isinstance(game, Game):
        raise TypeError(f"state_of needs a cuttle.Game, not {type(game).__name__}")
    if game.is_over:
        raise ValueError("the game is over: OpenSpiel has no decision to make in it")
    state = _loaded(game_string(game.rules, max_moves)).new_initial_state()
    state._dealt = list(range(state._n_cards))
    state.game = game.copy()
    state._trace = [_digest(state.game.observation_array(p).tobytes()) for p in (0, 1)]
    return state


class ISMCTSPlayer:
    """OpenSpiel's generic information-set MCTS (its Python `ISMCTSBot`, random rollouts
    by `mcts.RandomRolloutEvaluator`) as a cuttle player: ``policy(game, rng) -> Move``.

    Each decision searches a fresh tree of `iterations` simulations from
    ``state_of(game)`` with the UCT constant `uct_c`; every random choice comes from
    `rng` (a seeded cuttle.simulate run gives each game its own), so a run is
    reproducible.  A reference opponent written outside this project (about 230 times
    slower per iteration than the native ``ismcts:N``), for the strength ladder."""

    def __init__(self, iterations: int = 100, uct_c: float = 2.0, rollouts: int = 1):
        if not (isinstance(iterations, int) and iterations >= 1):
            raise ValueError(f"iterations must be an int >= 1, not {iterations!r}")
        if not (isinstance(rollouts, int) and rollouts >= 1):
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
