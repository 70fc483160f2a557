"""The observers of python_cuttle (`CuttleObserver`, made by CuttleGame.make_py_observer):
each IIGObservationType's view of a CuttleState as a tensor with named pieces and as
text, and the perfect-recall digests of the sequence of views since the deal; also how
the core's observation encoding is read (its planes and scalars).
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

import numpy as np
import pyspiel

from .._core import PHASE_NAMES
from ..cards import CARDS
from ..observation import (CARD_SLOTS, JACKS, LATE_PLANES_AT, PHASE_AT, PLANES, POINT_SLOTS,
                           SCALARS, SCALARS_AT, jack_places, plane)
from ..rl.spaces import OBSERVATION_SIZE

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["CuttleObserver"]

# -- the core's encoding --------------------------------------------------------------------

# _PLANE and _planes: the planes before the phase (observation.plane reads the others).
_PLANE = {name: i for i, name in enumerate(PLANES)}
_SCALAR = {name: SCALARS_AT + i for i, name in enumerate(SCALARS)}
# The planes of the core's encoding that hold public zones (both sides of the table).
_PUBLIC_ZONES = [_PLANE[n] for n in ("own_points", "opponent_points", "own_permanents",
                                     "opponent_permanents", "jack_own_side",
                                     "jack_opponent_side", "scrap", "deck_known",
                                     "revealed", "stack")]


def _planes(obs: np.ndarray) -> np.ndarray:
    return obs[:SCALARS_AT].reshape(len(PLANES), CARD_SLOTS)


# -- views ---------------------------------------------------------------------------------

_NONE, _SINGLE, _ALL = (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.SINGLE_PLAYER,
                        pyspiel.PrivateInfoType.ALL_PLAYERS)

_ROW, _ROWS = (CARD_SLOTS,), (2, CARD_SLOTS)    # a card plane; one per player
_PUBLIC_PIECES = (("hand_known", _ROWS), ("points", _ROWS), ("jacks", _ROWS),
                  ("jack_on", (len(JACKS), POINT_SLOTS)), ("jack_height", (len(JACKS),)),
                  ("permanents", _ROWS), ("frozen", _ROWS), ("frozen_next", _ROWS),
                  ("scrap", _ROW), ("deck_known", _ROW), ("deck_depth", _ROW),
                  ("revealed", _ROW), ("stack", _ROW), ("target", _ROW),
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
            d["frozen_next"][q] = plane(o[q], "own_frozen_next")
        for name in ("scrap", "deck_known", "revealed", "stack"):
            d[name][:] = p0[_PLANE[name]]
        d["deck_depth"][:] = plane(o[0], "deck_depth")
        d["target"][:] = plane(o[0], "target")
        d["jack_on"][:], d["jack_height"][:] = jack_places(o[0])
        d["unknown"][:state._n_cards] = ~table.public_places()[:state._n_cards]
        s = {name: o[0][i] for name, i in _SCALAR.items()}
        d["sizes"][:] = (s["deck_size"], s["own_hand_size"], s["opponent_hand_size"],
                         s["stack_size"])
        d["scores"][:] = (s["own_score"], s["opponent_score"])
        d["goals"][:] = (s["own_goal"], s["opponent_goal"])
        d["turn"][:] = (s["is_own_turn"], o[1][_SCALAR["is_own_turn"]])
        d["to_move"][:] = (s["is_own_decision"], o[1][_SCALAR["is_own_decision"]])
        d["phase"][:] = o[0][PHASE_AT:LATE_PLANES_AT]


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
    o = g.observation(0)            # (its public parts)
    return (f"public {g.phase} turn={g.turn} to_move={to_move} | hands: "
            f"{len(g.hand(0))} known {_text(_cards(pub[0]))} vs "
            f"{len(g.hand(1))} known {_text(_cards(pub[1]))} | points: {points(0)} vs "
            f"{points(1)} | permanents: {_text(g.permanents(0))} vs {_text(g.permanents(1))} "
            f"| scrap: {_text(g.scrap)} | deck: {len(g.deck)} known "
            f"{' '.join(f'{d}:{c}' for d, c in o.deck_known) or '-'} | "
            f"revealed: {_text(g.revealed)} | stack: {_text(g.stack)} | target: "
            f"{o.target or '-'} | frozen: "
            f"{_text(o.frozen[0])} vs {_text(o.frozen[1])}, next turn "
            f"{_text(o.frozen_next[0])} vs {_text(o.frozen_next[1])} | score "
            f"{g.score(0)}/{g.goal(0)} vs {g.score(1)}/{g.goal(1)}")


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
            f"{cards(o.revealed)} | stack: {cards(o.stack)} | target: {o.target or '-'} "
            f"| frozen: "
            f"{cards(o.frozen[player])} vs {cards(o.frozen[opp])}, next turn "
            f"{cards(o.frozen_next[player])} vs {cards(o.frozen_next[opp])} | score "
            f"{o.scores[player]}/{o.goals[player]} vs {o.scores[opp]}/{o.goals[opp]}")


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


def _player(player) -> int:
    if isinstance(player, bool) or player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, not {player!r}")
    return int(player)


# -- the observer --------------------------------------------------------------------------

# Why a perfect-recall view has no tensor: pyspiel's information_state_tensor (and its
# size and shape) ask the information state's observer for one.
_NO_INFO_STATE_TENSOR = (
    "python_cuttle provides no information state tensor (its game type says "
    "provides_information_state_tensor=False): an information state with perfect recall "
    "is the whole sequence of a player's views since the deal, which no tensor of a fixed "
    "size holds.  It provides the observation tensor, the player's view now, which holds "
    "what the player knows of the cards (state.observation_tensor(player), or "
    "make_observation(game).set_from(state, player)), and the information state as a "
    "string (state.information_state_string(player)) for tabular algorithms")
_NO_RECALL_TENSOR = (
    "a perfect-recall observer of python_cuttle has no tensor: the sequence of views since "
    "the deal fits no fixed size; string_from gives its digest, and the observers without "
    "perfect recall have tensors")


class CuttleObserver:
    """pyspiel's PyObserver for an IIGObservationType (docs/rl.md, "OpenSpiel").

    Without perfect recall `tensor` (float32) and its named pieces `dict` hold the
    view: the core's encoding for public + single player; the public pieces and/or the
    private pieces otherwise (none at all for no public and no private information).
    With perfect recall there is no tensor (`tensor` is None, `set_from` raises
    SpielError, and so does pyspiel's information_state_tensor): `string_from` gives a
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

    def set_from(self, state: pyspiel.State, player: int) -> None:
        """Fill `tensor` (and so `dict`) with `player`'s view of `state`; SpielError for
        a perfect-recall observer, which has no tensor (as a C++ game's observer without
        one raises): pyspiel's information_state_tensor comes here."""
        player = _player(player)
        if self.tensor is None:
            raise pyspiel.SpielError(_NO_INFO_STATE_TENSOR if self.kind == _INFO_STATE
                                     else _NO_RECALL_TENSOR)
        self.tensor.fill(0.0)
        _write(self.kind, state, player, self.dict)

    def string_from(self, state: pyspiel.State, player: int) -> str:
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
