"""The rule flags declared as data: `FLAGS`, one `Flag` per rule (its kind, its values
under each preset, where it comes from, what it means), and `PRESETS`, the named flag
sets.  Each flag reads and checks its own values and their text (`Flag.check`,
`Flag.parse`, `Flag.format`); `cuttle.rules.Rules` holds a set of them.

`FLAGS` is the only declaration of the flags in Python: it drives validation, parsing
from text, the text and JSON forms, `Rules.describe()` and the values `Rules.c_fields`
gives the native core.  The core declares its `CRules` struct by hand (cuttle/_state.pxd,
one field per flag under the flag's name, a choice's values as C enums) and applies
each flag in its own code; `cuttle.rules` refuses to import when the struct and `FLAGS`
differ.  docs/rules.md explains every flag; `cuttle.rules` re-exports these names, its
public home.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .text import quoted
from .validation import is_bool, is_int

if TYPE_CHECKING:
    from typing import TypeAlias

    # A flag's value: a bool, a choice's name, the king_goals or deal tuple, or a limit
    # (int or None); JSON has a list where the value has a tuple.
    FlagValue: TypeAlias = bool | str | tuple[int, ...] | int | None
    FlagJSON: TypeAlias = bool | str | list[int] | int | None

__all__ = ["DEALINGS", "Flag", "FLAGS", "FLAG_NAMES", "MAX_DEAL", "MAX_GOAL", "MAX_LIMIT",
           "MAX_POINTS", "PRESETS"]

# A bool flag's text: each pair spells True, then False (in any case).
_BOOL_TEXT = (("true", "false"), ("yes", "no"), ("on", "off"), ("1", "0"))
_TRUE = {t for t, _ in _BOOL_TEXT}
_FALSE = {f for _, f in _BOOL_TEXT}
_BOOL_SPELLINGS = ", ".join(f"{t}/{f}" for t, f in _BOOL_TEXT)
_NONE = {"none", "null", "-", ""}
MAX_GOAL = 1000            # far above any sensible goal; keeps scores small ints
MAX_DEAL = 8               # cards dealt to one player: both hands and a deck always fit
MAX_LIMIT = 53             # the largest hand limit: every card, joker included
MAX_POINTS = 4 * sum(range(1, 11))   # every point card (A-10 of 4 suits) on one side: 220

# What a flag's other value does to game i's deal (`Flag.dealing`), mildest first: ""
# nothing (the same deal); "cut": the same shuffle cut at other places (other hand
# sizes: the deck below the cut the same, the hands a card or more apart); "shuffle":
# another shuffle (other cards shuffled: no deal in common).
DEALINGS = ("", "cut", "shuffle")



@dataclass(frozen=True)
class Flag:
    """One rule flag: its kind ("bool", "choice", "goals", "limit", "deal"), the values a
    choice takes (in the order the core encodes them), both presets' values, the source
    and what it changes.  `published`: values of published rules besides the presets' own
    (the hand limit 7 of the "MTG notes"), which the variant atlas plays too;
    `explored`: values no published rule uses that the atlas and the balance designer
    try all the same (other deals).  `dealing`: what another value does to game i's
    deal of a seeded run (`DEALINGS`; `Rules.deal_relation` reads it)."""

    name: str
    kind: str
    classic: object
    cuttle_cards: object
    source: str
    text: str
    values: tuple[str, ...] = ()
    published: tuple[object, ...] = ()
    explored: tuple[object, ...] = ()
    dealing: str = ""

    def values_text(self) -> str:
        """The values the flag takes, as `describe()` lists them."""
        return {"bool": "true | false", "goals": "5 ints", "limit": f"none or int 0-{MAX_LIMIT}",
                "deal": f"2 ints 1-{MAX_DEAL} (first player, second player)"}.get(
            self.kind, " | ".join(self.values))

    def check(self, value: object, *, said: str | None = None) -> FlagValue:
        """The normalised value, or ValueError naming the flag and what it takes.  A
        string is the value's text, read as rule text reads it (`parse`: ``"yes"``,
        ``"RANDOM"``, ``"none"``, ``"15,14,10,7,5"``); anything else must be the value
        itself (a bool, not 1; an int, not 8.0).  said: the value as the person wrote it
        (`parse`'s text), which the error quotes in place of the value read from it."""
        def shown():            # (on the error's path only)
            return quoted(value if said is None else said)
        if self.kind == "bool":
            if isinstance(value, str):      # a keyword takes the spellings text takes
                read = _bool_text(value)
                if read is None:
                    raise ValueError(f"flag {self.name!r} takes True or False (or as text: "
                                     f"{_BOOL_SPELLINGS}), not {shown()}")
                return read
            if not is_bool(value):
                raise ValueError(f"flag {self.name!r} takes True or False, not {shown()}")
            return bool(value)
        if self.kind == "choice":
            read = _choice_text(value)      # (a keyword reads it as text does)
            if read not in self.values:
                raise ValueError(f"flag {self.name!r} takes one of "
                                 f"{', '.join(map(repr, self.values))}, not {shown()}")
            return read
        if isinstance(value, str) and said is None:
            return self.parse(value)        # (every keyword reads text as rule text does)
        if self.kind == "goals":
            goals = tuple(value) if isinstance(value, (tuple, list)) else ()
            if len(goals) != 5 or not all(is_int(g) and 0 <= g <= MAX_GOAL for g in goals):
                raise ValueError(f"flag 'king_goals' takes a tuple of 5 ints from 0 to "
                                 f"{MAX_GOAL} (goal with 0, 1, 2, 3, 4 Kings), not {shown()}")
            if goals[0] < 1:
                raise ValueError(f"flag 'king_goals': the goal without Kings must be at least "
                                 f"1 (with 0 every deal is won before the first move), not "
                                 f"{shown()}")
            return tuple(int(g) for g in goals)
        if self.kind == "deal":
            hands = tuple(value) if isinstance(value, (tuple, list)) else ()
            if len(hands) != 2 or not all(is_int(h) and 1 <= h <= MAX_DEAL for h in hands):
                raise ValueError(f"flag 'deal' takes 2 ints from 1 to {MAX_DEAL} (the cards "
                                 f"dealt to the first and to the second player), not "
                                 f"{shown()}")
            return tuple(int(h) for h in hands)
        if value is None:                                   # "limit"
            return None
        if not is_int(value) or not 0 <= value <= MAX_LIMIT:
            raise ValueError(f"flag {self.name!r} takes None or an int from 0 to "
                             f"{MAX_LIMIT}, not {shown()}")
        return int(value)

    def parse(self, text: str) -> FlagValue:
        """The value from its text (``true``, ``none``, ``8``, ``21,14,10,5,0``,
        ``random``); ValueError naming what the flag takes."""
        t = str(text).strip()
        low = t.lower()
        if self.kind == "bool":
            read = _bool_text(t)
            if read is None:
                raise ValueError(f"flag {self.name!r} takes true or false, not {quoted(t)}")
            return read
        if self.kind in ("goals", "deal"):
            parts = [p for p in re.split(r"[\s,]", t.strip("()[] ")) if p]  # (a tab too)
            if not all(_ascii_digits(p) for p in parts):
                what, example = (("5", "21,14,10,7,5") if self.kind == "goals" else
                                  ("2", "6,6"))
                raise ValueError(f"flag {self.name!r} takes {what} whole numbers separated "
                                 f"by commas, like {example}, not {quoted(t)}")
            return self.check(tuple(int(p) for p in parts), said=t)
        if self.kind == "limit":
            if low in _NONE:
                return None
            if _ascii_digits(t) and 0 <= int(t) <= MAX_LIMIT:
                return int(t)
            # (as `cuttle rules` lists its values: in text, None is spelled none)
            raise ValueError(f"flag {self.name!r} takes {self.values_text()}, not "
                             f"{quoted(t)}")
        return self.check(t)                                # "choice"

    def format(self, value: FlagValue) -> str:
        """The text of a value, as `parse` reads it back."""
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, tuple):
            return ",".join(map(str, value))
        return str(value)

    def to_json(self, value: FlagValue) -> FlagJSON:
        """The value in JSON (a tuple becomes a list)."""
        return list(value) if isinstance(value, tuple) else value

    def from_json(self, value: object) -> FlagValue:
        """The value from JSON, checked."""
        return self.check(tuple(value) if self.kind in ("goals", "deal") and
                          isinstance(value, list) else value)

    def to_c(self, value: FlagValue) -> int | tuple[int, ...]:
        """The value in the core's CRules field of the same name."""
        if self.kind == "choice":
            return self.values.index(value)
        if self.kind == "limit":
            return -1 if value is None else value
        return value if self.kind in ("goals", "deal") else int(value)


def _bool_text(text: str) -> bool | None:
    """A bool flag's value from its text (any case, spaces around it ignored), or None
    when the text is no spelling of either: the one reading of a bool's text, for rule
    text and for a keyword given a string (``Rules(joker="yes")``)."""
    low = text.strip().lower()
    return True if low in _TRUE else False if low in _FALSE else None


def _choice_text(value: object) -> str | None:
    """A choice flag's value as its text names it (any case, spaces around it ignored),
    or None for what is no text: the one reading of a choice, for rule text and for a
    keyword (``Rules(four="RANDOM")``)."""
    return value.strip().lower() if isinstance(value, str) else None


def _ascii_digits(t: str) -> bool:
    return t.isascii() and t.isdigit()


FLAGS = {f.name: f for f in (
    Flag("king_goals", "goals", (21, 14, 10, 7, 5), (21, 14, 10, 5, 0), "pagat / cuttle.cards",
         "points needed to win with 0, 1, 2, 3, 4 Kings"),
    Flag("hand_limit", "limit", None, 8, "cuttle.cards; 'MTG notes' 7",
         "maximum hand size (none: no limit)", published=(7,)),
    Flag("hand_limit_mode", "choice", "discard", "discard", "cuttle.cards / legacy",
         "discard down to the limit at the end of your turn, or: drawing at the limit is "
         "illegal", ("discard", "no_draw")),
    Flag("five", "choice", "draw2", "discard1_draw3", "pagat / cuttle.cards",
         "the 5: draw two, or discard one then draw three", ("draw2", "discard1_draw3")),
    Flag("seven", "choice", "top1", "top2", "pagat / cuttle.cards",
         "the 7: play the top card, or one of the top two", ("top1", "top2")),
    Flag("nine", "choice", "return", "freeze", "pagat / cuttle.cards / nine to deck",
         "the 9: return to hand, return and freeze (no play but a counter on the "
         "receiver's next turn), or put on top of the deck",
         ("return", "freeze", "topdeck")),
    Flag("nine_targets_points", "bool", False, True, "cuttle.cards",
         "the 9 may target point cards"),
    Flag("targets_own_side", "bool", True, False, "pagat / cuttle.cards",
         "2s and 9s may target your own cards"),
    Flag("three_takes_threes", "bool", True, False, "pagat / cuttle.cards",
         "a 3 may take a 3 from the scrap"),
    Flag("strict_oneoffs", "bool", False, True, "cuttle.cards",
         "one-offs need something to act on (3: a takeable card, 4: an opposing hand, "
         "5/7: a deck)"),
    Flag("four", "choice", "choice", "choice", "pagat / Greg Pallis / no-discard 4s",
         "the 4: the victim discards two of their choice, two at random, or draws two",
         ("choice", "random", "draw")),
    Flag("queens_protect_queens", "bool", False, True, "beamer159 (pagat) / cuttle.cards",
         "a Queen also protects your other Queens"),
    Flag("queen_stops_scuttles", "bool", False, False, "how-to-play variant",
         "a player with a Queen cannot be scuttled"),
    Flag("one_queen_each", "bool", False, False, "how-to-play variant",
         "at most one Queen per player"),
    Flag("eight_breaks_glasses", "bool", False, False, "Daniel Goers (pagat)",
         "an 8 one-off scraps the opponent's glasses-8"),
    Flag("ten_blocks_scuttle", "bool", False, False, "Daniel Goers (pagat)",
         "the victim of a scuttle may block it with a 10"),
    Flag("ten_discards", "bool", False, False, "how-to-play variant",
         "a 10 one-off makes the opponent discard one card"),
    Flag("strict_scuttle", "bool", False, False, "how-to-play variant",
         "a scuttle needs a strictly higher rank (suits never break ties)"),
    Flag("joker", "bool", False, False, "Daniel Goers (pagat)",
         "a 53rd card whose one-off swaps the hands", dealing="shuffle"),
    Flag("open_hands", "bool", False, False, "'open Cuttle'", "both hands are public all game"),
    Flag("reveal_on_empty_deck", "bool", False, True, "cuttle.cards",
         "both hands are public once the deck is empty"),
    Flag("sudden_death", "bool", False, False, "how-to-play variant",
         "when the deck runs out each player gets one more turn, then it is a draw"),
    Flag("deal", "deal", (5, 6), (5, 6), "pagat / cuttle.cards; other deals: house rules",
         "cards dealt to the first and to the second player",
         explored=((6, 6), (5, 5), (6, 7), (4, 5), (4, 6), (6, 5)), dealing="cut"),
)}

FLAG_NAMES = tuple(FLAGS)

_CLASSIC = {f.name: f.classic for f in FLAGS.values()}
_CUTTLE_CARDS = {f.name: f.cuttle_cards for f in FLAGS.values()}

# name: (flag values, description)
PRESETS = {
    "classic": (_CLASSIC, "pagat.com's rules, the game's reference description"),
    "cuttle.cards": (_CUTTLE_CARDS, "cuttle.cards rules v1.0.2"),
    "cuttle.cards-beta": (dict(_CUTTLE_CARDS, nine="topdeck"),
                          "cuttle.cards beta 2.0: the 9 puts its target on top of the deck"),
    "quick": (dict(_CLASSIC, king_goals=(15, 14, 10, 7, 5)),
              "'quick Cuttle': classic with a goal of 15"),
    "open": (dict(_CLASSIC, open_hands=True), "'open Cuttle': classic with both hands public"),
}


def _flag(name) -> Flag:
    key = name.strip().lower().replace("-", "_") if isinstance(name, str) else name
    try:
        return FLAGS[key]
    except (KeyError, TypeError):
        raise ValueError(f"unknown rule flag {quoted(name)}; valid flags: "
                         f"{', '.join(FLAG_NAMES)}") from None


def _preset_name(name) -> str:
    key = name.strip().lower() if isinstance(name, str) else None
    if key not in PRESETS:
        hint = (" (Rules() takes a preset name and flags as keywords; rule text like "
                "'classic: four=random' is read by Rules.parse, and every rules= argument "
                "takes it)") if isinstance(name, str) and ("=" in name or ":" in name) else ""
        raise ValueError(f"unknown preset {quoted(name)}; valid presets: "
                         f"{', '.join(PRESETS)}"
                         f"{hint}")
    return key
