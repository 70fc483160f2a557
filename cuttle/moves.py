"""Moves and their text notation.

    draw | pass | resolve
    points C | scuttle C TARGET | royal C | glasses C | jack C TARGET
    oneoff C [TARGET] | counter C | take C | discard C [C ...] | block C

A move is packed for the core into 16 bits: verb | card << 4 | target << 10 (63 = none);
the second card of a two-card discard sits in the target field.
"""

from .cards import CARDS, parse_index
from .errors import InvalidMoveError

VERBS = ("draw", "pass", "resolve", "points", "scuttle", "royal", "glasses", "jack",
         "oneoff", "counter", "take", "discard", "block")
_VERB_ID = {v: i for i, v in enumerate(VERBS)}
NO_CARD = 63
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
    """One decision of a player.  `str(move)` is its text; `Move.parse(text)` reads it.

    A Move equals the Move parsed from its own text, and equals that text too:
    `Move.parse("points 7h") == "points 7H"`.
    """

    __slots__ = ("verb", "cards", "_text")

    def __init__(self, verb: str, *cards):
        if verb not in _VERB_ID:
            raise InvalidMoveError(f"unknown move verb {verb!r}; verbs: {', '.join(VERBS)}")
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
        self.verb = verb
        self.cards = tuple(CARDS[i] for i in idx)
        self._text = " ".join((verb,) + self.cards)

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Read a move from text (case-insensitive, `10H` for `TH`)."""
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is text like 'points 7H', not {text!r}")
        parts = text.split()
        if not parts:
            raise InvalidMoveError("empty move text")
        return cls(parts[0].lower(), *parts[1:])

    @classmethod
    def from_code(cls, code: int) -> "Move":
        m = _FROM_CODE.get(code)
        if m is None:
            verb = VERBS[code & 15]
            cards = [c for c in ((code >> 4) & 63, (code >> 10) & 63) if c != NO_CARD]
            m = _FROM_CODE[code] = cls(verb, *cards)
        return m

    @property
    def code(self) -> int:
        idx = [c.index for c in self.cards] + [NO_CARD, NO_CARD]
        return _VERB_ID[self.verb] | (idx[0] << 4) | (idx[1] << 10)

    @property
    def card(self):
        """The card played (None for draw/pass/resolve)."""
        return self.cards[0] if self.cards else None

    @property
    def target(self):
        """The target of a scuttle, a Jack or a one-off (None otherwise)."""
        if self.verb in ("scuttle", "jack", "oneoff") and len(self.cards) == 2:
            return self.cards[1]
        return None

    def __str__(self):
        return self._text

    def __repr__(self):
        return f"Move({self._text!r})"

    def __eq__(self, other):
        if isinstance(other, Move):
            return self._text == other._text
        if isinstance(other, str):
            try:
                return self._text == Move.parse(other)._text
            except InvalidMoveError:
                return False
        return NotImplemented

    def __hash__(self):
        return hash(self._text)


_FROM_CODE = {}
