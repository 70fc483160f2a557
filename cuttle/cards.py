"""Cards and their text notation.

A card is written rank + suit (`AS`, `TH`, `7C`; `10H` is read as `TH`), the joker `JK`.
Its natural index is the core's (_state.pxd): `(rank - 1) * 4 + suit` (A♣ = 0 … K♠ =
51, joker = 52), so that "x beats y in a scuttle" is simply `x.index > y.index`.  A rank
here is the card's number, 1 (Ace) to 13 (King); the core counts from 0 (its rank
index), and `cuttle._core.rank_and_suit` is the one place that converts.

**Equality with text** (the rule `Move` follows too): a Card equals its canonical text
(`str(card)`, e.g. ``"TH"``) and no other spelling, and hashes as that text, so a Card
and its text are interchangeable in comparisons, sets and dict keys (Python's contract:
equal values hash equally).  Any other spelling (``"th"``, ``"10H"``) is read with
`Card(text)`: compare ``Card(text) == card``, not ``text == card``.
"""

from __future__ import annotations

import warnings

from ._core import JOKER_INDEX as JOKER, n_cards, rank_and_suit
from .text import quoted
from .validation import check_int, is_int

RANKS = "A23456789TJQK"
SUITS = "CDHS"
RANK_NAMES = ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine",
              "Ten", "Jack", "Queen", "King")
SUIT_NAMES = ("Clubs", "Diamonds", "Hearts", "Spades")


class Card(str):
    """A card: a `str` equal to its canonical text, with its index, rank and suit.

    `Card(text)` reads any accepted spelling (or a natural index) and returns the one
    instance of that card (ValueError for anything else); `CARDS[index]` and
    `Card.parse` do the same.  A Card equals its canonical text and no other spelling,
    and hashes as it (see the module docstring).

    >>> Card("10h")
    Card('TH')
    >>> Card("10H") == "TH", Card("10H") == "10H", Card("TH").rank, Card("JK").is_joker
    (True, False, 10, True)
    """

    __slots__ = ()

    def __new__(cls, text="AC"):
        if _INDEX:                            # after the 53 cards below exist
            return CARDS[parse_index(text)]
        return super().__new__(cls, text)

    @property
    def index(self) -> int:
        """Natural index: `(rank - 1) * 4 + suit`, joker 52.  (It takes the place of
        `str.index`: to search a card's text, `str(card).index(...)`.)"""
        return _INDEX[self]

    @property
    def rank(self) -> int:
        """1 (Ace) … 13 (King); 0 for the joker."""
        return _RANK_SUIT[_INDEX[self]][0]

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades; -1 for the joker."""
        return _RANK_SUIT[_INDEX[self]][1]

    @property
    def is_joker(self) -> bool:
        """Whether this is the joker (`JK`, the `joker` variant's 53rd card)."""
        return _INDEX[self] == JOKER

    @property
    def name(self) -> str:
        """The card's name in words: 'Ten of Hearts', 'Joker'."""
        rank, suit = _RANK_SUIT[_INDEX[self]]
        if rank == 0:
            return "Joker"
        return f"{RANK_NAMES[rank - 1]} of {SUIT_NAMES[suit]}"

    def __repr__(self) -> str:
        return f"Card({str.__repr__(self)})"

    @classmethod
    def parse(cls, text: str | int) -> Card:
        """Read a card: case-insensitive, `10` for `T`; a Card or an index also works."""
        return CARDS[parse_index(text)]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """Deprecated (to be removed in the next release): use ``Card(index)`` or
        ``CARDS[index]``."""
        warnings.warn("Card.from_index is deprecated: use Card(index) or CARDS[index]",
                      DeprecationWarning, stacklevel=2)
        return CARDS[parse_index(index)]


_RANK_SUIT = tuple(rank_and_suit(i) for i in range(n_cards(joker=True)))


def _text(i: int) -> str:
    rank, suit = _RANK_SUIT[i]
    return "JK" if rank == 0 else RANKS[rank - 1] + SUITS[suit]


_INDEX: dict[str, int] = {}
CARDS = tuple(Card(_text(i)) for i in range(n_cards(joker=True)))
"""Every card by its natural index: AC, AD, AH, AS, 2C, ... KS (0 to 51), then the
joker JK (52)."""
_INDEX.update({str(c): i for i, c in enumerate(CARDS)})


def parse_index(text: str | int) -> int:
    """Natural index of a card given as text, Card or int (numpy integers too);
    ValueError if it is no card."""
    if isinstance(text, Card):
        return _INDEX[text]
    if is_int(text):
        return check_int(text, "a card index", 0, JOKER)
    if not isinstance(text, str):
        raise ValueError(f"not a card: {quoted(text)}")
    # 'ſ'.upper() is 'S': only ASCII text names a card.
    t = text.strip().upper() if text.isascii() else "?"
    if t.startswith("10"):
        t = "T" + t[2:]
    if t in ("JK", "JOKER"):
        return JOKER
    i = _INDEX.get(t)
    if i is None or i == JOKER:
        raise ValueError(
            f"unknown card {quoted(text)}: write rank+suit, ranks A 2-9 T(10) J Q K, "
            f"suits C D H S (e.g. 'TH', '10h', 'AS'), or JK for the joker")
    return i
