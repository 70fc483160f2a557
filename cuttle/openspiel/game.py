"""The game python_cuttle: its GameType and parameters (`rules_from_param`,
`game_string`), `CuttleGame`, `CuttleState` (the deal and a random 4's discards as
chance nodes, the cuttle.Game they lead to, `resample_from_infostate`) and its
registration with pyspiel, done when this module is imported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

from .._actions import code_of_action
from .._core import n_cards
from ..cards import CARDS
from ..errors import IllegalMoveError
from ..game import Game
from ..observation import CARD_SLOTS
from ..rules import FLAGS, Rules
from ..rl.spaces import ACTION_BLOCKS, ACTION_SPACE, DEFAULT_MAX_MOVES, legal_actions, move_of
from ..seeding import derive
from ..validation import check_count
from .observers import (_INFO_STATE, _PLANE, _PUBLIC_ZONES, CuttleObserver, _chain_key,
                        _chain_start, _chain_step, _digest, _planes, _player, _view_bytes)

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["GAME_TYPE", "CuttleGame", "CuttleState", "game_string", "rules_from_param"]

SHORT_NAME = "python_cuttle"
_BLOCKS = {name: (first, size) for name, first, size in ACTION_BLOCKS}
# Chance outcomes of a random 4 are compact discard actions, so they end where the
# discard_two block ends.
_DISCARD_END = sum(_BLOCKS["discard_two"])
_PASS = _BLOCKS["pass"][0]

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
    max_moves = check_count(max_moves, "max_moves", _most_moves(rules))
    return f"{SHORT_NAME}(rules={rules_param(rules)},max_moves={max_moves})"


def _most_moves(rules: Rules) -> int:
    """The largest move cap whose game length (the deal, the moves and, under a random
    4, a chance node per move) fits OpenSpiel's C int."""
    return (2 ** 31 - 1 - n_cards(rules.joker)) // (1 + (rules.four == "random"))


def rules_param(rules: Rules) -> str:
    """The rules parameter of `rules` in the form rules_from_param reads and a game
    string can hold (none of OpenSpiel's separators: `=`, `,`, parentheses)."""
    return ";".join([rules.preset] + [f"{k}:{FLAGS[k].format(v).replace(',', '/')}"
                                      for k, v in rules.changed().items()])


class CuttleGame(pyspiel.Game):
    """Cuttle under the `rules` parameter (see rules_from_param) with a cap of
    `max_moves` player moves (a draw)."""

    def __init__(self, params: Mapping[str, Any] | None = None):
        params = dict(params or {})
        rules = rules_from_param(params.get("rules", "classic"))
        max_moves = check_count(params.get("max_moves", DEFAULT_MAX_MOVES), "max_moves",
                                _most_moves(rules))
        cards = n_cards(rules.joker)
        chance_four = rules.four == "random"
        # A random 4's discard is a chance node after the 4 (at most one per player move).
        info = pyspiel.GameInfo(num_distinct_actions=ACTION_SPACE,
                                max_chance_outcomes=_DISCARD_END if chance_four else cards,
                                num_players=2, min_utility=-1.0, max_utility=1.0,
                                utility_sum=0.0,
                                max_game_length=cards + max_moves * (1 + chance_four))
        # The parameters as a game string writes them, so that str(game) loads again
        # (rule text such as "classic: joker=true" would not: `=` and `,` separate
        # OpenSpiel's parameters), and states serialize and pickle.
        params.update(rules=rules_param(rules), max_moves=max_moves)
        super().__init__(GAME_TYPE, info, params)
        # (attributes only after pyspiel's __init__, which would drop them)
        self.rules, self.max_moves, self.n_cards = rules, max_moves, cards

    def new_initial_state(self) -> CuttleState:
        return CuttleState(self)

    # pyspiel pickles a game as its string and rebuilds only the C++ side, leaving an
    # instance without `rules` (`new_initial_state` raised AttributeError): rebuild it
    # through __init__ instead, which checks the parameters again.  copy.deepcopy too.
    def __reduce__(self):
        return CuttleGame, (dict(self.get_parameters()),)

    # A game whose __init__ refused its parameters has no C++ side: pyspiel's own repr
    # of it reads uninitialized memory (a crash when a traceback shows its locals).
    def __repr__(self):
        return super().__repr__() if "rules" in self.__dict__ else "<CuttleGame: not made>"

    def __str__(self):
        return super().__str__() if "rules" in self.__dict__ else "<CuttleGame: not made>"

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

    @classmethod
    def at(cls, game: Game) -> _Table:
        """A table at a Game's position (a copy of it), for `state_of`: what preceded
        the position is unknown, so the hands are public as far as they are now."""
        table = cls.__new__(cls)
        table.game, table._obs, table._public = game.copy(), [None, None], None
        if game.rules.joker:
            table._public = [table._whole(q) for q in (0, 1)]
        return table

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
        # state_of: the position the history starts at (no deal; see _Origin).
        self._origin: _Origin | None = None

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
        if self._origin is not None:
            return self._resample_position(player, probability_sampler)
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
        telling = _telling_passes(self, player)
        if telling:
            raise RuntimeError(
                f"resample_from_infostate: no consistent deal in {_RESAMPLE_TRIES} tries: "
                f"the opponent passed with cards left to draw (action {telling[0]} of the "
                f"history, under the no-draw hand limit): their hand held no legal move, "
                f"which the deal sampler does not model (docs/rl.md in the source distribution)")
        raise RuntimeError(f"resample_from_infostate: internal error, no consistent deal in "
                           f"{_RESAMPLE_TRIES} tries (history {history})")

    def _resample_position(self, player: int, probability_sampler) -> CuttleState:
        """resample_from_infostate for a state of `state_of`: its history holds no deal,
        so the sample deals anew the cards the player cannot place in the position now
        (Game.determinize)."""
        clone = self.clone()
        seed = derive(int(probability_sampler() * 2 ** 53),
                      int(probability_sampler() * 2 ** 53))
        clone._table.game = self._table.game.determinize(player, seed)
        clone._table._obs = [None, None]
        return clone

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
            if self._origin is None:
                replay = _Replay(self)
                digest = _chain_start(kind, self._dealt, player, self._hands)
                actions = self.history()[self._n_cards:]
            else:                          # state_of: views since the position
                replay = _Replay(self, _Table.at(self._origin.game))
                digest = _digest(_view_bytes(kind, replay, player))
                actions = self.history()
            for action in actions:
                replay.play(action)
                digest = _chain_step(digest, kind, replay, player, action)
            self._chains[key] = digest
        return self._chains[key]


class _Origin:
    """The position a `state_of` state starts at, never changed (used through copies),
    so it is shared by the state's clones rather than copied: OpenSpiel clones a
    Python state by deep-copying its attributes onto `game.new_initial_state()`."""

    __slots__ = ("game",)

    def __init__(self, game: Game):
        self.game = game.copy()

    def __deepcopy__(self, memo):
        return self

    def __getstate__(self):
        return self.game

    def __setstate__(self, game):
        self.game = game


_RESAMPLE_TRIES = 200


def _telling_passes(state: CuttleState, player: int) -> list[int]:
    """The places in `state`'s history where `player`'s opponent passed with cards left
    to draw: only a player left with no legal move may (the no-draw hand limit,
    rules-decisions 2), so the pass tells `player` that the opponent's hand held no
    playable card, a constraint `_consistent_deal` does not model: its deals are then
    checked by replaying them, and may all be refused."""
    if state._table is None:
        return []
    replay, found = _Replay(state), []
    g = replay._table.game
    for k, action in enumerate(state.history()[state._n_cards:]):
        if (not (state._chance_four and g.phase == "four") and g.to_move != player
                and g.deck and action == _PASS):
            found.append(state._n_cards + k)
        replay.play(action)
    return found


def _consistent_deal(state: CuttleState, player: int, rng: np.random.Generator) -> list[int]:
    """A deal drawn uniformly among those under which `state`'s actions give `player`
    the same observations (chance's probabilities do not depend on the deal; the players'
    policies are ignored, as determinization does).  See _deal_constraints."""
    dealt, hands = state._dealt, state._hands
    new = list(dealt)
    if state._table is None:               # dealing: no action yet
        # The places dealt so far outside the player's hand hold any of the cards the
        # player was not dealt, dealt or not yet.
        start = 0 if player == 0 else hands[0]
        others = [i for i in range(len(dealt)) if not start <= i < start + hands[player]]
        own = {dealt[i] for i in range(len(dealt)) if i not in others}
        pool = [c for c in range(state._n_cards) if c not in own]
        for i, c in zip(others, rng.permutation(pool)):
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

    def __init__(self, state: CuttleState, table: _Table | None = None):
        self._dealt, self._n_cards, self._hands = state._dealt, state._n_cards, state._hands
        self._table = table or _Table(state._play_rules, state._dealt)

    def play(self, action: int) -> None:
        self._table.play(action)


def _indices(cards) -> list[int]:
    return [c.index for c in cards]


def _index(action) -> int:
    try:
        return int(action)
    except (TypeError, ValueError):
        raise ValueError(f"an action is an integer, not {action!r}") from None


pyspiel.register_game(GAME_TYPE, CuttleGame)
