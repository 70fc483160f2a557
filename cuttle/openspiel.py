"""OpenSpiel: `import cuttle.openspiel` registers the game `python_cuttle` with pyspiel.

    import pyspiel, cuttle.openspiel
    game = pyspiel.load_game("python_cuttle")                 # classic rules
    game = pyspiel.load_game("python_cuttle(rules=cuttle.cards;four:random,max_moves=500)")
    game = pyspiel.load_game(cuttle.openspiel.game_string(rules, max_moves=500))

The `rules` parameter takes the rule text of the command line (`str(rules)`,
"classic: four=random") when it is given in a parameter dict
(`pyspiel.load_game("python_cuttle", {"rules": "classic: joker=true"})`).  Inside a game
string, where OpenSpiel reserves "=" and ",", it is a preset followed by `;flag:value`
changes, with "/" between the five King goals (`classic;king_goals:15/14/10/7/5;joker:true`);
`game_string` writes that form.

Every random event is an explicit chance node, so a state is a function of its
history: the deal (one node per card, uniform over the cards not yet dealt: player 0's
cards, player 1's, as many as the rules' `deal` gives each, five and six by default,
then the deck from the top) and, under `four=random`, the
4's discards (one node, uniform over the victim's pairs of cards; its outcome is the
compact discard action).  Player actions are the compact actions of cuttle.rl
(docs/rl.md); every one of them is public.

Observers (`make_py_observer`, pyspiel's `make_observation`) honour every
IIGObservationType (docs/rl.md, "OpenSpiel"): the public view is what both players see
(assembled from the parts of the core's encodings that are public, plus the hand cards
whose identity is public), a single player's view adds what only that player knows,
the all-players view adds both; perfect recall gives a digest of the sequence of those
views since the deal.  `resample_from_infostate(p)` returns a state with a whole
history consistent with p's information state (deal resampled, the same actions
replayed), so every view of it, the other player's included, is a real state's.

OpenSpiel's bots as cuttle players: `state_of(game)` is a state at a Game's position
(without the history before it: resampling deals anew the cards the player cannot
place, Game.determinize), and `ISMCTSPlayer(iterations)` is OpenSpiel's generic Python
ISMCTSBot (random rollouts) as a policy(game, rng) -> Move for cuttle.simulate, Game
loops and the strength ladder's anchors (benchmarks/bench_strength.py --anchors).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ._optional import missing

try:
    import pyspiel
except ImportError as e:
    raise missing(e, "cuttle.openspiel") from None

from ._actions import code_of_action
from ._core import PHASE_NAMES, n_cards
from .cards import CARDS
from .errors import IllegalMoveError
from .game import Game
from .moves import Move
from .observation import CARD_SLOTS, PLANES, SCALARS
from .rules import FLAGS, Rules
from .rl.spaces import (ACTION_BLOCKS, ACTION_SPACE, DEFAULT_MAX_MOVES, OBSERVATION_SIZE,
                        legal_actions, move_of)
from .seeding import derive
from .validation import check_count

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["GAME_TYPE", "CuttleGame", "CuttleObserver", "CuttleState", "ISMCTSPlayer",
           "game_string", "rules_from_param", "state_of"]

SHORT_NAME = "python_cuttle"
# Chance outcomes of a random 4 are compact discard actions, so they end where the
# discard_two block ends.
_DISCARD_END = next(first + size for name, first, size in ACTION_BLOCKS
                    if name == "discard_two")

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
    """Rules from the `rules` game parameter: rule text (`Rules.parse`), with
    `;flag:value` changes after it ("/" between King goals), the form game strings
    need.  ValueError naming the bad part."""
    if not isinstance(text, str):
        raise ValueError(f"the rules parameter is rule text, not {text!r}")
    preset, *changes = text.split(";")
    extra = []
    for change in changes:
        name, colon, value = change.partition(":")
        if not colon:
            raise ValueError(f"rules parameter {text!r}: write each change as flag:value, "
                             f"not {change!r}")
        extra.append(f"{name.strip()}={value.strip().replace('/', ',')}")
    return Rules.parse(preset.strip() or "classic", extra=extra)


def game_string(rules: Rules | str | None = None, max_moves: int = DEFAULT_MAX_MOVES) -> str:
    """The pyspiel.load_game string of python_cuttle under `rules` (a Rules, rule text
    or None)."""
    rules = Rules.coerce(rules)
    max_moves = check_count(max_moves, "max_moves")
    param = ";".join([rules.preset] + [f"{k}:{FLAGS[k].format(v).replace(',', '/')}"
                                       for k, v in rules.changed().items()])
    return f"{SHORT_NAME}(rules={param},max_moves={max_moves})"


class CuttleGame(pyspiel.Game):
    """Cuttle under the `rules` parameter (see rules_from_param) with a cap of
    `max_moves` player moves (a draw)."""

    def __init__(self, params: Mapping[str, Any] | None = None):
        params = dict(params or {})
        rules = rules_from_param(params.get("rules", "classic"))
        max_moves = check_count(params.get("max_moves", DEFAULT_MAX_MOVES), "max_moves")
        cards = n_cards(rules.joker)
        chance_four = rules.four == "random"
        # A random 4's discard is a chance node after the 4 (at most one per player move).
        info = pyspiel.GameInfo(num_distinct_actions=ACTION_SPACE,
                                max_chance_outcomes=_DISCARD_END if chance_four else cards,
                                num_players=2, min_utility=-1.0, max_utility=1.0,
                                utility_sum=0.0,
                                max_game_length=cards + max_moves * (1 + chance_four))
        super().__init__(GAME_TYPE, info, params)
        # (attributes only after pyspiel's __init__, which would drop them)
        self.rules, self.max_moves, self.n_cards = rules, max_moves, cards

    def new_initial_state(self) -> CuttleState:
        return CuttleState(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: Mapping[str, Any] | None = None) -> CuttleObserver:
        """OpenSpiel's observer for any IIGObservationType (default: the player's
        observation, i.e. public_info, SINGLE_PLAYER, no perfect recall)."""
        if isinstance(iig_obs_type, Mapping):       # pyspiel passes only the params
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"observation parameters are not supported: {dict(params)}")
        return CuttleObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


# -- the dealt game and what is public about the hands ------------------------------------

_PLANE = {name: i for i, name in enumerate(PLANES)}
_SCALAR = {name: CARD_SLOTS * len(PLANES) + i for i, name in enumerate(SCALARS)}
_PHASE0 = CARD_SLOTS * len(PLANES) + len(SCALARS)
# The planes of the core's encoding that hold public zones (both sides of the table).
_PUBLIC_ZONES = [_PLANE[n] for n in ("own_points", "opponent_points", "own_permanents",
                                     "opponent_permanents", "jack_own_side",
                                     "jack_opponent_side", "scrap", "deck_known",
                                     "revealed", "stack")]


def _planes(obs: np.ndarray) -> np.ndarray:
    return obs[:CARD_SLOTS * len(PLANES)].reshape(len(PLANES), CARD_SLOTS)


class _Table:
    """A dealt game (`game`, under the rules it is played with) and which hand cards
    are publicly known.  Player actions are public, so a card is publicly known to be
    in a hand while that hand is public, or when it was publicly placed before the last
    action (on the table, in the scrap, at a known place on the deck, revealed, on the
    stack, or publicly in a hand: the joker swaps hands publicly) and is in the hand
    now.  Without the joker that is what each player knows of the other's hand (every
    other source of that knowledge is public), so only joker games track it."""

    __slots__ = ("game", "_public", "_obs")

    def __init__(self, rules: Rules, dealt: list[int]):
        a, b = rules.deal[0], sum(rules.deal)
        self.game = Game.from_position(
            rules, hands=([CARDS[c] for c in dealt[:a]], [CARDS[c] for c in dealt[a:b]]),
            deck=[CARDS[c] for c in dealt[b:]], to_move=0,
            seed=0)                # unused: every random effect is a chance node
        self._obs = [None, None]
        self._public = None
        if rules.joker:
            self._public = [self._whole(q) for q in (0, 1)]

    def obs(self, p: int) -> np.ndarray:
        """The core's encoding of p's view (cached until the next action; read-only)."""
        o = self._obs[p]
        if o is None:
            o = self._obs[p] = self.game.observation_array(p)
            o.flags.writeable = False
        return o

    def _whole(self, q):
        if self.game.is_public_hand(q):
            return _planes(self.obs(q))[_PLANE["own_hand"]] > 0
        return np.zeros(CARD_SLOTS, bool)

    def public_hands(self) -> tuple[np.ndarray, np.ndarray]:
        """Per player, the cards of their hand whose identity is public (bool, 53)."""
        if self._public is not None:
            return self._public[0], self._public[1]
        known = _PLANE["opponent_hand_known"]
        return _planes(self.obs(1))[known] > 0, _planes(self.obs(0))[known] > 0

    def public_places(self) -> np.ndarray:
        """The cards whose place is public (bool, 53)."""
        placed = np.any(_planes(self.obs(0))[_PUBLIC_ZONES] > 0, axis=0)
        h0, h1 = self.public_hands()
        return placed | h0 | h1

    def play(self, action: int) -> None:
        """Play a compact action (IllegalMoveError/ValueError, nothing changed, if it is
        not legal now)."""
        before = self.public_places() if self._public is not None else None
        self.game.play(code_of_action(action))
        self._obs = [None, None]
        if before is not None:
            self._public = [self._whole(q) if self.game.is_public_hand(q) else
                            (_planes(self.obs(q))[_PLANE["own_hand"]] > 0) & before
                            for q in (0, 1)]


# -- views ---------------------------------------------------------------------------------

_NONE, _SINGLE, _ALL = (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.SINGLE_PLAYER,
                        pyspiel.PrivateInfoType.ALL_PLAYERS)

_ROW, _ROWS = (CARD_SLOTS,), (2, CARD_SLOTS)    # a card plane; one per player
_PUBLIC_PIECES = (("hand_known", _ROWS), ("points", _ROWS), ("jacks", _ROWS),
                  ("permanents", _ROWS), ("frozen", _ROWS), ("scrap", _ROW),
                  ("deck_known", _ROW), ("revealed", _ROW), ("stack", _ROW),
                  ("unknown", _ROW), ("sizes", (4,)), ("scores", (2,)), ("goals", (2,)),
                  ("turn", (2,)), ("to_move", (2,)), ("phase", (len(PHASE_NAMES),)))
_INFO_STATE = (True, _SINGLE)           # public + own private, perfect recall
_PRIVATE_PIECES = (("hand", _ROW), ("opponent_known", _ROW), ("known_by_opponent", _ROW))
_ALL_PIECES = (("hands", _ROWS), ("private_knowledge", _ROWS))


def _pieces(public: bool, private) -> tuple:
    """The named tensor pieces of an observation type without perfect recall."""
    if private == _SINGLE:
        return (("observation", (OBSERVATION_SIZE,)),) if public else _PRIVATE_PIECES
    return (_PUBLIC_PIECES if public else ()) + (_ALL_PIECES if private == _ALL else ())


def _cards(mask) -> list:
    return [CARDS[c] for c in np.flatnonzero(mask)]


def _text(cards) -> str:
    return " ".join(map(str, cards)) or "-"


def _dealt_to(dealt: list[int], player: int, hands: tuple[int, int]) -> list[int]:
    """The cards dealt to `player`, `hands` being the rules' deal (cards to each)."""
    start = 0 if player == 0 else hands[0]
    return dealt[start:start + hands[player]]


def _write(kind, state, player: int, d: dict) -> None:
    """Fill the pieces `d` (zeroed) of view `kind` = (public_info, private_info) of
    `state` for `player`."""
    public, private = kind
    table, dealt, hands = state._table, state._dealt, state._hands
    if table is None:                      # dealing: only dealt cards and counts
        if private == _SINGLE and public:
            d["observation"][_dealt_to(dealt, player, hands)] = 1.0    # the own_hand plane
        elif private == _SINGLE:
            d["hand"][_dealt_to(dealt, player, hands)] = 1.0
        if private == _ALL:
            for q in (0, 1):
                d["hands"][q, _dealt_to(dealt, q, hands)] = 1.0
        if "sizes" in d:                   # the public pieces
            k = len(dealt)
            d["sizes"][:3] = (max(k - sum(hands), 0) / 52, min(k, hands[0]) / 52,
                              min(max(k - hands[0], 0), hands[1]) / 52)
            d["unknown"][:state._n_cards] = 1.0
        return
    if private == _SINGLE and public:
        d["observation"][:] = table.obs(player)
        return
    o = (table.obs(0), table.obs(1))
    pl = (_planes(o[0]), _planes(o[1]))
    pub = table.public_hands()
    own, known = _PLANE["own_hand"], _PLANE["opponent_hand_known"]
    if private == _SINGLE:
        opp = 1 - player
        d["hand"][:] = pl[player][own]
        d["opponent_known"][:] = (pl[player][known] > 0) & ~pub[opp]
        d["known_by_opponent"][:] = (pl[opp][known] > 0) & ~pub[player]
    elif private == _ALL:
        for q in (0, 1):
            d["hands"][q] = pl[q][own]
            d["private_knowledge"][q] = (pl[q][known] > 0) & ~pub[1 - q]
    if public:
        p0 = pl[0]
        d["hand_known"][:] = pub
        for name, mine, theirs in (("points", "own_points", "opponent_points"),
                                   ("jacks", "jack_own_side", "jack_opponent_side"),
                                   ("permanents", "own_permanents", "opponent_permanents")):
            d[name][0], d[name][1] = p0[_PLANE[mine]], p0[_PLANE[theirs]]
        for q in (0, 1):
            d["frozen"][q] = pl[q][_PLANE["own_frozen"]]
        for name in ("scrap", "deck_known", "revealed", "stack"):
            d[name][:] = p0[_PLANE[name]]
        d["unknown"][:state._n_cards] = ~table.public_places()[:state._n_cards]
        s = {name: o[0][i] for name, i in _SCALAR.items()}
        d["sizes"][:] = (s["deck_size"], s["own_hand_size"], s["opponent_hand_size"],
                         s["stack_size"])
        d["scores"][:] = (s["own_score"], s["opponent_score"])
        d["goals"][:] = (s["own_goal"], s["opponent_goal"])
        d["turn"][:] = (s["is_own_turn"], o[1][_SCALAR["is_own_turn"]])
        d["to_move"][:] = (s["is_own_decision"], o[1][_SCALAR["is_own_decision"]])
        d["phase"][:] = o[0][_PHASE0:]


def _view_text(kind, state, player: int) -> str:
    """The readable form of view `kind` of `state` for `player` (no perfect recall)."""
    public, private = kind
    table, dealt, hands = state._table, state._dealt, state._hands
    parts = []
    if table is None:
        if private == _SINGLE:
            return f"p{player} hand: {_text(CARDS[c] for c in _dealt_to(dealt, player, hands))}"
        if public:
            parts.append(f"public dealing: {len(dealt)} cards dealt")
        if private == _ALL:
            parts += [f"p{q} hand: {_text(CARDS[c] for c in _dealt_to(dealt, q, hands))}"
                      for q in (0, 1)]
        return " | ".join(parts)
    g = table.game
    if private == _SINGLE and public:
        return _player_text(g, player)
    pub = table.public_hands()
    if public:
        parts.append(_public_text(g, pub))
    if private == _SINGLE:
        d = {name: np.zeros(shape, np.float32) for name, shape in _PRIVATE_PIECES}
        _write((False, private), state, player, d)
        parts.append(f"p{player} hand: {_text(_cards(d['hand']))} | knows privately: "
                     f"{_text(_cards(d['opponent_known']))} | opponent knows privately: "
                     f"{_text(_cards(d['known_by_opponent']))}")
    elif private == _ALL:
        d = {name: np.zeros(shape, np.float32) for name, shape in _ALL_PIECES}
        _write((False, private), state, player, d)
        parts += [f"p{q} hand: {_text(_cards(d['hands'][q]))} knows privately: "
                  f"{_text(_cards(d['private_knowledge'][q]))}" for q in (0, 1)]
    return " | ".join(parts)


def _public_text(g: Game, pub) -> str:
    def points(side):
        return " ".join(f"{c}[{','.join(map(str, g.jacks(c)))}]" if g.jacks(c) else str(c)
                        for c in g.points(side)) or "-"

    to_move = "-" if g.to_move is None else g.to_move
    return (f"public {g.phase} turn={g.turn} to_move={to_move} | hands: "
            f"{len(g.hand(0))} known {_text(_cards(pub[0]))} vs "
            f"{len(g.hand(1))} known {_text(_cards(pub[1]))} | points: {points(0)} vs "
            f"{points(1)} | permanents: {_text(g.permanents(0))} vs {_text(g.permanents(1))} "
            f"| scrap: {_text(g.scrap)} | deck: {len(g.deck)} known "
            f"{' '.join(f'{d}:{c}' for d, c in g.observation(0).deck_known) or '-'} | "
            f"revealed: {_text(g.revealed)} | stack: {_text(g.stack)} | frozen: "
            f"{_text(g.frozen(0))} vs {_text(g.frozen(1))} | score {g.score(0)}/{g.goal(0)} "
            f"vs {g.score(1)}/{g.goal(1)}")


def _player_text(game: Game, player: int) -> str:
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


def _view_bytes(kind, state, player: int) -> bytes:
    if kind == _INFO_STATE and state._table is not None:     # (the hot case)
        return state._table.obs(player).tobytes()
    d = {name: np.zeros(shape, np.float32) for name, shape in _pieces(*kind)}
    _write(kind, state, player, d)
    return b"".join(d[name].tobytes() for name, _ in _pieces(*kind))


def _digest(*parts) -> bytes:
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        h.update(part)
    return h.digest()


def _chain_key(kind, player: int) -> tuple:
    return kind, (player if kind[1] == _SINGLE else -1)


def _chain_start(kind, dealt: list[int], player: int, hands: tuple[int, int]) -> bytes:
    """The perfect-recall digest at the end of the deal: the cards the view saw dealt,
    in deal order (`hands`: the rules' deal)."""
    private = kind[1]
    if private == _SINGLE:
        return _digest(bytes(_dealt_to(dealt, player, hands)))
    if private == _ALL:
        return _digest(bytes(dealt[:sum(hands)]))
    return _digest(b"")


def _chain_step(digest: bytes, kind, state, player: int, action: int) -> bytes:
    """The perfect-recall digest after one more action: the action (if the view has
    public information: every action is public) and the view after it."""
    act = int(action).to_bytes(2, "little") if kind[0] else b""
    return _digest(digest, act, _view_bytes(kind, state, player))


# -- the state -----------------------------------------------------------------------------

class CuttleState(pyspiel.State):
    """A game of Cuttle: the deal (chance nodes), then a cuttle.Game (`game`) with, under
    `four=random`, a chance node for each 4's discards."""

    def __init__(self, game: CuttleGame):
        super().__init__(game)
        # Plain values, not the game: clone() deep-copies the state, and a copied
        # pyspiel.Game loses its Python attributes.
        self._rules, self._max_moves, self._n_cards = game.rules, game.max_moves, game.n_cards
        self._hands = self._rules.deal     # cards dealt to player 0, player 1
        self._chance_four = self._rules.four == "random"
        # A random 4 is played as a chosen one whose choice is a chance node.
        self._play_rules = (self._rules.replace(four="choice") if self._chance_four
                            else self._rules)
        self._dealt: list[int] = []        # cards in deal order
        self._table: _Table | None = None  # once every card is dealt
        self._moves = 0                    # player moves (the max_moves cap)
        # Perfect-recall digests by (kind, player), kept up to date action by action;
        # the information states always, other kinds once asked for.
        self._chains: dict[tuple, bytes] = {}
        self._constraints = None           # resampling's: ((player, history length), ...)

    @property
    def game(self) -> Game | None:
        """The cuttle.Game once every card is dealt (under `four=random` its rules say
        `four=choice`: the choice is made by chance nodes)."""
        return None if self._table is None else self._table.game

    # -- the OpenSpiel API -------------------------------------------------------------

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self._table is None or self._four_pending():
            return pyspiel.PlayerId.CHANCE
        return self._table.game.to_move

    def _legal_actions(self, player):
        return legal_actions(self._table.game)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._table is None:
            left = sorted(set(range(self._n_cards)) - set(self._dealt))
        elif self._four_pending():
            left = legal_actions(self._table.game)
        else:
            raise ValueError("chance_outcomes: this is not a chance node")
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action):
        # Every check comes first: a refused action leaves the state untouched.
        if self.is_terminal():
            why = "the move cap" if not self._table.game.is_over else "the game is over"
            raise ValueError(f"action {action}: the state is terminal ({why})")
        if self._table is None:
            card = _index(action)
            if not 0 <= card < self._n_cards or card in self._dealt:
                raise ValueError(f"chance action {action}: not a card left to deal (cards "
                                 f"are 0..{self._n_cards - 1}, each dealt once)")
            self._dealt.append(card)
            if len(self._dealt) == self._n_cards:
                self._start()
            return
        chance = self._four_pending()
        try:
            self._table.play(_index(action))
        except (IllegalMoveError, ValueError) as e:
            who = "chance (a random 4's discard)" if chance else \
                f"player {self._table.game.to_move}"
            raise ValueError(f"action {action} is not legal for {who}: {e}") from None
        if not chance:
            self._moves += 1
        for key in self._chains:
            kind, player = key
            self._chains[key] = _chain_step(self._chains[key], kind, self, player, action)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            if self._table is None:
                return f"deal {CARDS[action]}"
            return f"random {move_of(action)}"
        return str(move_of(action))

    def is_terminal(self) -> bool:
        return self._table is not None and (self._table.game.is_over
                                            or self._moves >= self._max_moves)

    def returns(self) -> list[float]:
        if not self.is_terminal() or self._table.game.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self._table.game.winner == 0 else [-1.0, 1.0]

    def resample_from_infostate(self, player: int,
                                probability_sampler: Callable[[], float]) -> CuttleState:
        """A state whose whole history `player` cannot tell from this one's: the deal is
        resampled uniformly among those consistent with everything the player observed
        and the same actions are replayed, so its history, views and information states
        (both players') are those of a real state (see docs/rl.md)."""
        player = _player(player)
        rng = np.random.default_rng([int(probability_sampler() * 2 ** 53)
                                     for _ in range(2)])
        history = self.history()
        actions = history[len(self._dealt):]
        want = self.information_state_string(player)
        for _ in range(_RESAMPLE_TRIES):
            dealt = _consistent_deal(self, player, rng)
            sample = self.get_game().new_initial_state()
            try:
                for a in dealt + actions:
                    sample.apply_action(a)
            except ValueError:
                continue          # an action the player saw is not legal in this deal
            if sample.information_state_string(player) == want:
                return sample
        raise RuntimeError(f"resample_from_infostate: internal error, no consistent deal in "
                           f"{_RESAMPLE_TRIES} tries (history {history})")

    def __str__(self):
        if self._table is None:
            return f"dealing: {' '.join(str(CARDS[c]) for c in self._dealt)}"
        text = self._table.game.render()
        return text + "\n  (the 4's discards are chance's)" if self._four_pending() else text

    # -- helpers -------------------------------------------------------------------------

    def _four_pending(self) -> bool:
        return self._chance_four and self._table.game.phase == "four"

    def _start(self):
        self._table = _Table(self._play_rules, self._dealt)
        for p in (0, 1):
            key = _chain_key(_INFO_STATE, p)
            self._chains[key] = _chain_start(_INFO_STATE, self._dealt, p, self._hands)

    def _chain(self, kind, player: int) -> bytes:
        """The perfect-recall digest of view `kind` for `player` (built by replaying the
        history the first time it is asked for, then kept up to date)."""
        key = _chain_key(kind, player)
        if key not in self._chains:
            replay = _Replay(self)
            digest = _chain_start(kind, self._dealt, player, self._hands)
            for action in self.history()[self._n_cards:]:
                replay.play(action)
                digest = _chain_step(digest, kind, replay, player, action)
            self._chains[key] = digest
        return self._chains[key]


_RESAMPLE_TRIES = 200


def _consistent_deal(state: CuttleState, player: int, rng: np.random.Generator) -> list[int]:
    """A deal drawn uniformly among those under which `state`'s actions give `player`
    the same observations (chance's probabilities do not depend on the deal; the players'
    policies are ignored, as determinization does).  See _deal_constraints."""
    dealt, hands = state._dealt, state._hands
    new = list(dealt)
    if state._table is None:               # dealing: no action yet
        start = 0 if player == 0 else hands[0]
        others = [i for i in range(len(dealt)) if not start <= i < start + hands[player]]
        for i, c in zip(others, rng.permutation([dealt[i] for i in others])):
            new[i] = int(c)
        return new
    key = (player, len(state.history()))
    if state._constraints is None or state._constraints[0] != key:
        state._constraints = key, _deal_constraints(state, player)
    groups, intervals = state._constraints[1]
    for places in groups:
        for i, c in zip(places, rng.permutation([dealt[i] for i in places])):
            new[i] = int(c)
    for slots, cards in intervals:
        free, j = [], 0
        for d, c in cards:
            while j < len(slots) and slots[j][0] <= d:
                free.append(slots[j][1])
                j += 1
            pick = int(rng.integers(len(free)))
            new[free[pick]] = c
            free[pick] = free[-1]
            free.pop()
    return new


def _deal_constraints(state: CuttleState, player: int) -> tuple[list, list]:
    """What a deal must keep for `player` to observe `state`'s history: (groups, the
    deal positions whose cards may be permuted among themselves; intervals, pairs of
    (slots, sorted (time, position); cards, sorted (deadline, card)) where a card may
    take any slot whose time is at most its deadline).

    The player's own dealt cards keep their places.  Original deck places (deal
    positions after both hands) are followed as the actions pop them: cards the player sees
    arrive together (its own draws, the opponent's draws while that hand is public
    before and after) form a group; cards a 7 reveals keep their places (the reveal
    shows their order).  The other places (the opponent's dealt hand, its unseen draws,
    the deck still undrawn) are slots, entering the opponent's hand at a time t (0, the
    draw's action, never).  A card c first placed by the player at time D fits a slot
    with t <= D (t < D if c left the hand then: a 5's discard comes before its draws),
    and only if the player never saw the opponent's whole hand (a sighting: glasses,
    open hands, the joker swap, an empty hand) at a time in [t, D): c would have been
    placed then.  So c fits the slots with t in (S, D], S the last sighting before D:
    within an interval between sightings the sets are nested, and assigning cards by
    increasing deadline, each to a uniformly chosen free slot it fits, samples the
    assignments uniformly."""
    dealt, n = state._dealt, state._n_cards
    never = len(state.history()) - n + 1
    groups, slot_time, located, held = _follow_deal(state, player, never)
    sightings = np.flatnonzero(~np.any(held & ~located, axis=1))
    first = np.where(located.any(axis=0), located.argmax(axis=0), never)

    def interval(t):                       # the index of the last sighting before t
        return int(np.searchsorted(sightings, t)) - 1

    slots: dict[int, list] = {}
    cards: dict[int, list] = {}
    for i, t in slot_time.items():
        c = dealt[i]
        d = int(first[c])
        slots.setdefault(interval(t), []).append((t, i))
        cards.setdefault(interval(d), []).append((d if d == never or held[d, c] else d - 1, c))
    intervals = []
    for k, fits in cards.items():
        todo, fits = sorted(slots.get(k, [])), sorted(fits)
        # The real deal is one assignment, so each card has a slot left (checked once).
        if len(todo) != len(fits) or any(todo[j][0] > d for j, (d, _) in enumerate(fits)):
            raise RuntimeError("resample_from_infostate: inconsistent constraints")
        intervals.append((todo, fits))
    return groups, intervals


def _follow_deal(state: CuttleState, player: int, never: int) -> tuple[list, dict, Any, Any]:
    """`state`'s history replayed, following each deal position (see `_deal_constraints`):
    (groups of positions the player sees arrive together, the time each slot enters the
    opponent's hand, by time the cards the player places, by time the opponent's hand)."""
    dealt, n, opp, hands = state._dealt, state._n_cards, 1 - player, state._hands
    start = 0 if player == 0 else hands[0]
    own = range(start, start + hands[player])
    actions = state.history()[n:]
    replay = _Replay(state)
    g = replay._table.game
    slot_time = {i: 0 for i in range(sum(hands)) if i not in own}
    groups = []
    located = np.zeros((len(actions) + 1, n), bool)    # by time: cards the player places
    held = np.zeros((len(actions) + 1, n), bool)       # by time: the opponent's hand
    unknown = _PLANE["unknown"]
    # The deck, top first, as deal positions (None: a card put back on it).
    tags = list(range(sum(hands), n))
    deck = g.deck
    for t in range(len(actions) + 1):
        if t:
            seen_before = g.is_public_hand(opp)
            replay.play(actions[t - 1])
            after = g.deck
            if after == deck[len(deck) - len(after):]:
                kept = len(after)          # cards popped from the top
            else:
                kept = len(deck)           # cards put on top
                if deck != after[len(after) - len(deck):]:
                    raise RuntimeError("resample_from_infostate: a deck change neither pops "
                                       "nor pushes")
            popped = tags[:len(deck) - kept]
            tags = [None] * (len(after) - kept) + tags[len(deck) - kept:]
            deck = after
            hand, mine = _indices(g.hand(opp)), _indices(g.hand(player))
            arrived: dict[str, list[int]] = {}
            for i in popped:
                if i is None:
                    continue
                if dealt[i] not in hand:
                    if dealt[i] in mine:
                        arrived.setdefault("own", []).append(i)
                elif seen_before and g.is_public_hand(opp):
                    arrived.setdefault("opponent", []).append(i)
                else:
                    slot_time[i] = t       # an unseen draw
            groups += arrived.values()
        located[t] = _planes(replay._table.obs(player))[unknown, :n] == 0
        held[t, _indices(g.hand(opp))] = True
    for i in tags:
        if i is not None:
            slot_time[i] = never
    return groups, slot_time, located, held


class _Replay:
    """The deal of a state replayed into a fresh _Table, action by action (what the
    view functions read: `_table`, `_dealt`, `_n_cards`, `_hands`)."""

    def __init__(self, state: CuttleState):
        self._dealt, self._n_cards, self._hands = state._dealt, state._n_cards, state._hands
        self._table = _Table(state._play_rules, state._dealt)

    def play(self, action: int) -> None:
        self._table.play(action)


def _indices(cards) -> list[int]:
    return [c.index for c in cards]


def _index(action) -> int:
    try:
        return int(action)
    except (TypeError, ValueError):
        raise ValueError(f"an action is an integer, not {action!r}") from None


def _player(player) -> int:
    if isinstance(player, bool) or player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, not {player!r}")
    return int(player)


# -- the observer --------------------------------------------------------------------------

class CuttleObserver:
    """pyspiel's PyObserver for an IIGObservationType (docs/rl.md, "OpenSpiel").

    Without perfect recall `tensor` (float32) and its named pieces `dict` hold the
    view: the core's encoding for public + single player; the public pieces and/or the
    private pieces otherwise (none at all for no public and no private information).
    With perfect recall there is no tensor (`tensor` is None): `string_from` gives a
    digest of the sequence of views since the deal (the information state for public +
    single player)."""

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType):
        self.kind = (bool(iig_obs_type.public_info), iig_obs_type.private_info)
        if self.kind[1] not in (_NONE, _SINGLE, _ALL):
            raise ValueError(f"unknown private_info {self.kind[1]!r}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.dict = {}
        if self.perfect_recall:
            self.tensor = None
            return
        pieces = _pieces(*self.kind)
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        start = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[start:start + size].reshape(shape)
            start += size

    def set_from(self, state: CuttleState, player: int) -> None:
        """Fill `tensor` (and so `dict`) with `player`'s view of `state`."""
        player = _player(player)
        if self.tensor is None:
            return
        self.tensor.fill(0.0)
        _write(self.kind, state, player, self.dict)

    def string_from(self, state: CuttleState, player: int) -> str:
        """`player`'s view of `state` as one line (a digest with perfect recall)."""
        player = _player(player)
        public, private = self.kind
        if not public and private == _NONE:
            return ""
        if not self.perfect_recall:
            return _view_text(self.kind, state, player)
        label = {_NONE: "public", _ALL: "all" if public else "all private",
                 _SINGLE: f"p{player}" if public else f"p{player} private"}[private]
        if state._table is None:
            dealt = state._dealt
            if private == _SINGLE:
                cards = _text(CARDS[c] for c in _dealt_to(dealt, player, state._hands))
            elif private == _ALL:
                cards = " / ".join(_text(CARDS[c] for c in _dealt_to(dealt, q, state._hands))
                                   for q in (0, 1))
            else:
                cards = f"{len(dealt)} cards"
            return f"{label} dealt: {cards}"
        digest = state._chain(self.kind, player).hex()
        if self.kind == _INFO_STATE:
            return f"{label} move {state._moves} {digest}"
        return f"{label} {digest}"

pyspiel.register_game(GAME_TYPE, CuttleGame)


# -- OpenSpiel's bots as cuttle players ----------------------------------------------------

class _PositionState(CuttleState):
    """A CuttleState that starts at a Game's position (state_of): its history holds only
    the actions since, so resampling deals anew the cards the player cannot place in
    the position (Game.determinize), as a determinizing search needs."""

    def resample_from_infostate(self, player: int,
                                probability_sampler: Callable[[], float]) -> CuttleState:
        player = _player(player)
        clone = self.clone()
        seed = derive(int(probability_sampler() * 2 ** 53),
                      int(probability_sampler() * 2 ** 53))
        clone._table.game = self._table.game.determinize(player, seed)
        clone._table._obs = [None, None]
        return clone


@functools.lru_cache(maxsize=16)
def _loaded(text: str) -> CuttleGame:
    return pyspiel.load_game(text)


def state_of(game: Game, max_moves: int = DEFAULT_MAX_MOVES) -> CuttleState:
    """A state at `game`'s position (a copy of it, with up to `max_moves` player moves to
    come), for OpenSpiel's bots to decide from.  Its information states start at this
    position (each player's view of it); the game's own rules play on (a random 4 draws
    from the game's stream, not a chance node)."""
    if not isinstance(game, Game):
        raise TypeError(f"state_of needs a cuttle.Game, not {type(game).__name__}")
    if game.is_over:
        raise ValueError("the game is over: OpenSpiel has no decision to make in it")
    state = _PositionState(_loaded(game_string(game.rules, max_moves)))
    state._chance_four, state._play_rules = False, game.rules
    state._dealt = list(range(state._n_cards))
    table = state._table = _Table.__new__(_Table)
    table.game, table._obs, table._public = game.copy(), [None, None], None
    if game.rules.joker:                  # the hands public now (what preceded is unknown)
        table._public = [table._whole(q) for q in (0, 1)]
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
