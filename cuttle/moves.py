"""Moves and their text notation.

    draw | pass | resolve
    points C | scuttle C TARGET | royal C | glasses C | jack C TARGET
    oneoff C [TARGET] | counter C | take C | discard C [C ...] | block C

A move is also a 16-bit code for the core and for learning code (`Move.code`,
`Move.from_code`); the packing itself lives in the core (`cuttle._core.pack_move`).

**Equality with text** follows the rule of `cuttle.cards`: a Move equals its canonical
text (`str(move)`, e.g. ``"points 7H"``) and no other spelling, and hashes as that text,
so a Move and its text are interchangeable in comparisons, sets and dict keys.  Read any
other spelling with `Move(text)` (``Move("POINTS 7h") == move``), or ask
``text in game.legal_moves``, which reads it.
"""

from __future__ import annotations

from ._core import NO_CARD_INDEX, VERBS, pack_move, unpack_move
from .cards import CARDS, Card, parse_index
from .errors import InvalidMoveError
from .text import quoted
from .validation import check_int

__all__ = ["Move", "VERBS", "move_codes"]

_VERB_ID = {v: i for i, v in enumerate(VERBS)}
# verb: (min cards, max cards)
_ARITY = {"draw": (0, 0), "pass": (0, 0), "resolve": (0, 0), "points": (1, 1),
          "scuttle": (2, 2), "royal": (1, 1), "glasses": (1, 1), "jack": (2, 2),
          "oneoff": (1, 2), "counter": (1, 1), "take": (1, 1), "discard": (1, 2),
          "block": (1, 1)}
_USAGE = {"draw": "draw", "pass": "pass", "resolve": "resolve", "points": "points C",
          "scuttle": "scuttle C TARGET", "royal": "royal C", "glasses": "glasses C",
          "jack": "jack C TARGET", "oneoff": "oneoff C [TARGET]", "counter": "counter C",
          "take": "take C", "discard": "discard C [C]", "block": "block C"}


class Move:
    """One decision of a player: an immutable value.  `str(move)` is its text and
    ``repr(move)`` reads back.  ``Move(text)`` (or `Move.parse`) reads a move's text
    (case-insensitive, ``10H`` for ``TH``); ``Move(verb, *cards)`` builds one from its
    parts; InvalidMoveError (a ValueError) saying what is wrong otherwise.

    Moves are equal when they are the same move; a Move also equals its canonical text,
    and no other spelling, and hashes as it (see the module docstring):

    >>> Move("points 7h")
    Move('points 7H')
    >>> Move("points 7h") == "points 7H", Move("points 7h") == "points 7h"
    (True, False)
    >>> Move("scuttle", "9C", "8D").target
    Card('8D')
    """

    __slots__ = ("verb", "cards", "_text", "_code")
    verb: str
    cards: tuple[Card, ...]
    _text: str
    _code: int

    def __init__(self, verb: str | Move, *cards: str | int):
        if not cards:
            if isinstance(verb, Move):
                _copy(verb, self)
                return
            if not isinstance(verb, str):
                raise InvalidMoveError(f"a move is text like 'points 7H', not "
                                       f"{quoted(verb)}")
            verb, *cards = verb.split() or [""]
            if not verb:
                raise InvalidMoveError("empty move text")
        # (ASCII only: the Kelvin sign 'K' lowers to 'k')
        verb = verb.lower() if isinstance(verb, str) and verb.isascii() else verb
        # (a verb that is not text may be unhashable: Move(["7H"], "8H"))
        if not isinstance(verb, str) or verb not in _VERB_ID:
            raise InvalidMoveError(f"unknown move verb {quoted(verb)}; verbs: "
                                   f"{', '.join(VERBS)}")
        lo, hi = _ARITY[verb]
        if not lo <= len(cards) <= hi:
            raise InvalidMoveError(f"{verb!r} takes {lo if lo == hi else f'{lo} to {hi}'} "
                                   f"card(s): {_USAGE[verb]}")
        try:
            idx = [parse_index(c) for c in cards]
        except ValueError as e:
            raise InvalidMoveError(str(e)) from None
        if verb == "discard":
            if len(set(idx)) != len(idx):
                raise InvalidMoveError("a discard names each card once")
            idx.sort()
        elif len(idx) == 2 and idx[0] == idx[1]:
            raise InvalidMoveError(f"{verb} names the same card twice")
        cards = tuple(CARDS[i] for i in idx)
        fields = idx + [NO_CARD_INDEX, NO_CARD_INDEX]
        object.__setattr__(self, "verb", verb)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "_text", " ".join((verb,) + cards))
        object.__setattr__(self, "_code", pack_move(_VERB_ID[verb], fields[0], fields[1]))

    def __setattr__(self, name, value):
        raise AttributeError("a Move is immutable")

    def __delattr__(self, name):
        raise AttributeError("a Move is immutable")

    @classmethod
    def parse(cls, text: Move | str) -> Move:
        """Read a move from text, as ``Move(text)`` does; a Move is returned as it is."""
        if isinstance(text, Move):
            return text
        return cls(text)

    @classmethod
    def from_code(cls, code: int) -> Move:
        """The Move of a 16-bit code (`Move.code`); InvalidMoveError (a ValueError) for
        a code outside 0..65535 or one that packs no move."""
        m = _FROM_CODE.get(code) if type(code) is int else None
        if m is None:
            try:
                verb, card, target = unpack_move(check_int(code, "a move code", 0, 65535))
            except (ValueError, InvalidMoveError) as e:
                raise InvalidMoveError(f"move code {quoted(code)} is no move: "
                                       f"{e}") from None
            cards = [c for c in (card, target) if c != NO_CARD_INDEX]
            try:
                m = cls(VERBS[verb], *cards)
            except (ValueError, InvalidMoveError):
                fields = " and ".join(str(Card(c)) if c < len(CARDS) else f"index {c}"
                                      for c in cards)
                raise InvalidMoveError(
                    f"move code {code!r} is no move: it packs {VERBS[verb]!r} with the "
                    f"card field(s) {fields or 'empty'}, which make no {VERBS[verb]!r} "
                    f"move (Move(text).code is a move's code)") from None
            if m._code != code:              # e.g. a discard packed in the other order
                raise InvalidMoveError(f"move code {code!r} is no move: its move "
                                       f"{m._text!r} has code {m._code}")
            _FROM_CODE[m._code] = m
        return m

    @property
    def code(self) -> int:
        """The move's 16-bit code (an index into `Game.legal_move_mask()`)."""
        return self._code

    @property
    def card(self) -> Card | None:
        """The card played (None for draw/pass/resolve)."""
        return self.cards[0] if self.cards else None

    @property
    def target(self) -> Card | None:
        """The target of a scuttle, a Jack or a one-off (None otherwise)."""
        if self.verb in ("scuttle", "jack", "oneoff") and len(self.cards) == 2:
            return self.cards[1]
        return None

    def __str__(self):
        return self._text

    def __repr__(self):
        return f"Move({self._text!r})"

    def __eq__(self, other):
        # Equal to the same move, or to its canonical text only: equal values must hash
        # equally, and a str hashes by its exact characters.
        if isinstance(other, Move):
            return self._code == other._code
        if isinstance(other, str):
            return self._text == other
        return NotImplemented

    def __hash__(self):
        return hash(self._text)

    def __reduce__(self):
        return (Move.parse, (self._text,))


def move_codes(value: object, n_cards: int, what: str) -> tuple[int, ...]:
    """`value`, a list or tuple of move codes (`Move.code`) naming cards of a deck of
    `n_cards` (a pickled game's `prior_moves`), as a tuple of ints; ValueError naming
    `what` and the first that is not one."""
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{what}: a list of move codes, not {type(value).__name__}")
    for i, code in enumerate(value):
        if type(code) is not int:
            raise ValueError(f"{what}: move {i} is {type(code).__name__}, not a move code")
        try:
            move = Move.from_code(code)
        except InvalidMoveError as e:
            raise ValueError(f"{what}: move {i}: {e}") from None
        outside = [c for c in move.cards if c.index >= n_cards]
        if outside:
            raise ValueError(f"{what}: move {i}, {move}, names {outside[0]}, not a card "
                             f"of its rules' deck of {n_cards} cards")
    return tuple(value)


def _copy(source, target):
    for name in Move.__slots__:
        object.__setattr__(target, name, getattr(source, name))


_FROM_CODE: dict[int, Move] = {}      # code -> Move, filled only with valid codes (at most 65,536)
