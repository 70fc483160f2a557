"""`Rules`: one frozen value holding every rule flag of a game.

Presets give full flag sets (`classic`, the default, from pagat.com; `cuttle.cards`, the
online community's rules v1.0.2) and named variants; any flag can be changed on top, so
every combination of house rules can be simulated.  docs/rules.md explains every flag.

`FLAGS` below is the only declaration of the flags: it drives validation, parsing from
text, the text and JSON forms, `Rules.describe()`, and the native core's `CRules` struct
(whose fields carry the same names, see `Rules.c_fields`).

Text form (`str(rules)`, read back by `Rules.parse`; the command line's ``--rules`` and
every ``rules`` argument of the library take it, through `Rules.coerce`)::

    classic                                   a preset
    cuttle.cards: four=random, hand_limit=7   a preset and changed flags
    classic four=random king_goals=15,14,10,7,5
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ._core import n_cards
from .validation import is_bool, is_int

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import TypeAlias

    # A flag's value: a bool, a choice's name, the king_goals or deal tuple, or a limit
    # (int or None); JSON has a list where the value has a tuple.
    FlagValue: TypeAlias = bool | str | tuple[int, ...] | int | None
    FlagJSON: TypeAlias = bool | str | list[int] | int | None

__all__ = ["DegenerateRulesWarning", "Flag", "FLAGS", "FLAG_NAMES", "PRESETS", "Rules"]

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


class DegenerateRulesWarning(UserWarning):
    """A rule set every flag of which is valid but under which no game can be decided
    (`Rules.degenerate` says why): every game would be a draw."""


@dataclass(frozen=True)
class Flag:
    """One rule flag: its kind ("bool", "choice", "goals", "limit", "deal"), the values a
    choice takes (in the order the core encodes them), both presets' values, the source
    and what it changes.  `published`: values of published rules besides the presets' own
    (the hand limit 7 of the "MTG notes"), which the variant atlas plays too;
    `explored`: values no published rule uses that the atlas and the balance designer
    try all the same (other deals)."""

    name: str
    kind: str
    classic: object
    cuttle_cards: object
    source: str
    text: str
    values: tuple[str, ...] = ()
    published: tuple[object, ...] = ()
    explored: tuple[object, ...] = ()

    def values_text(self) -> str:
        """The values the flag takes, as `describe()` lists them."""
        return {"bool": "true | false", "goals": "5 ints", "limit": f"none or int 0-{MAX_LIMIT}",
                "deal": f"2 ints 1-{MAX_DEAL} (first player, second player)"}.get(
            self.kind, " | ".join(self.values))

    def check(self, value: object, *, said: str | None = None) -> FlagValue:
        """The normalised value, or ValueError naming the flag and what it takes.
        said: the value as the person wrote it (`parse`'s text), which the error quotes
        in place of the value read from it."""
        def shown():            # (on the error's path only)
            return repr(value if said is None else said)
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
            if not isinstance(value, str) or value not in self.values:
                raise ValueError(f"flag {self.name!r} takes one of "
                                 f"{', '.join(map(repr, self.values))}, not {shown()}")
            return value
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
                raise ValueError(f"flag {self.name!r} takes true or false, not {t!r}")
            return read
        if self.kind in ("goals", "deal"):
            parts = [p for p in re.split(r"[\s,]", t.strip("()[] ")) if p]  # (a tab too)
            if not all(_ascii_digits(p) for p in parts):
                what, example = (("5", "21,14,10,7,5") if self.kind == "goals" else
                                  ("2", "6,6"))
                raise ValueError(f"flag {self.name!r} takes {what} whole numbers separated "
                                 f"by commas, like {example}, not {t!r}")
            return self.check(tuple(int(p) for p in parts), said=t)
        if self.kind == "limit":
            if low in _NONE:
                return None
            if _ascii_digits(t) and 0 <= int(t) <= MAX_LIMIT:
                return int(t)
            # (as `cuttle rules` lists its values: in text, None is spelled none)
            raise ValueError(f"flag {self.name!r} takes {self.values_text()}, not {t!r}")
        return self.check(low, said=t)

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
         "a 53rd card whose one-off swaps the hands"),
    Flag("open_hands", "bool", False, False, "'open Cuttle'", "both hands are public all game"),
    Flag("reveal_on_empty_deck", "bool", False, True, "cuttle.cards",
         "both hands are public once the deck is empty"),
    Flag("sudden_death", "bool", False, False, "how-to-play variant",
         "when the deck runs out each player gets one more turn, then it is a draw"),
    Flag("deal", "deal", (5, 6), (5, 6), "pagat / cuttle.cards; other deals: house rules",
         "cards dealt to the first and to the second player",
         explored=((6, 6), (5, 5), (6, 7), (4, 5), (4, 6), (6, 5))),
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
        raise ValueError(f"unknown rule flag {name!r}; valid flags: "
                         f"{', '.join(FLAG_NAMES)}") from None


def _preset_name(name) -> str:
    key = name.strip().lower() if isinstance(name, str) else None
    if key not in PRESETS:
        hint = (" (Rules() takes a preset name and flags as keywords; rule text like "
                "'classic: four=random' is read by Rules.parse, and every rules= argument "
                "takes it)") if isinstance(name, str) and ("=" in name or ":" in name) else ""
        raise ValueError(f"unknown preset {name!r}; valid presets: {', '.join(PRESETS)}"
                         f"{hint}")
    return key


# Whitespace around '=' (``joker = true``) binds the flag to its value: no separator
# (unless the next change follows: ``joker= four=draw`` is joker without a value).
_AROUND_EQUALS = re.compile(r"\s*=(?:(?!\s*[\w.-]+\s*=)\s*)?")


def _split_spans(text):
    """The (start, end) of each part of `text`, split at whitespace and at commas
    outside parentheses or brackets, but not at whitespace around '=' (``joker = true``
    is one change); ValueError for brackets that do not pair up (a tuple cut short would
    read as something else).  Spans, not rewritten parts: an error quotes the person's
    own text of the part it refuses."""
    kept = []                   # the index of each character read: the spaces bound to
    last = 0                    # an '=' are skipped
    for m in _AROUND_EQUALS.finditer(text):
        kept += range(last, m.start())
        kept.append(m.start() + m.group().index("="))
        last = m.end()
    kept += range(last, len(text))
    out, start, end, depth = [], None, 0, 0
    for i in kept:
        ch = text[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth < 0:
                raise ValueError(f"unbalanced brackets in {text.strip()!r}: a ')' "
                                 f"closes nothing")
        if depth <= 0 and (ch.isspace() or ch == ","):
            if start is not None:
                out.append((start, end))
                start = None
        else:
            start = i if start is None else start
            end = i + 1
    if depth:
        raise ValueError(f"unbalanced brackets in {text.strip()!r}: a '(' is never closed")
    if start is not None:
        out.append((start, end))
    return out


def _split_top(text):
    """The parts of `text` (`_split_spans`), each as written."""
    return [text[a:b] for a, b in _split_spans(text)]


class Rules:
    """The rules of a game: a preset plus any changed flags.  Frozen, hashable, and
    equal when every flag is equal.

    >>> Rules()
    Rules('classic')
    >>> Rules("cuttle.cards", hand_limit=7)
    Rules('cuttle.cards', hand_limit=7)
    >>> print(Rules(king_goals=(21, 14, 10, 5, 0), four="random"))
    classic: king_goals=(21,14,10,5,0), four=random
    """

    presets = tuple(PRESETS)
    flag_names = FLAG_NAMES
    __slots__ = ("_preset", "_flags", "_c")

    def __init__(self, preset: str | Rules = "classic", **flags: object):
        self._build(preset, flags)
        why = self.degenerate()
        if why:             # (valid, so not refused: said once per place it is made)
            warnings.warn(f"degenerate rules ({self}): {why}", DegenerateRulesWarning,
                          stacklevel=2)

    def _build(self, preset, flags):
        if isinstance(preset, Rules):
            base = dict(preset._flags)
            preset_name = preset._preset
        else:
            preset_name = _preset_name(preset)
            base = dict(PRESETS[preset_name][0])
        given: dict[str, str] = {}          # flag: the name it was given by
        for name, value in flags.items():
            flag = _flag(name)              # (its spelling may differ: "FOUR", "hand-limit")
            if flag.name in given:
                raise ValueError(f"{flag.name} is set twice ({given[flag.name]!r} and "
                                 f"{name!r})")
            given[flag.name] = name
            base[flag.name] = flag.check(value)
        if base["hand_limit"] is None and base["hand_limit_mode"] != "discard":
            raise ValueError("hand_limit_mode='no_draw' needs a hand_limit (an int); "
                             "set hand_limit=N as well")
        object.__setattr__(self, "_preset", preset_name)
        object.__setattr__(self, "_flags", MappingProxyType(base))
        object.__setattr__(self, "_c", None)

    @classmethod
    def coerce(cls, rules: Rules | str | None) -> Rules:
        """The one reader of a `rules` argument, used wherever the library takes one: a
        Rules as it is, None for classic, or rule text as the command line takes it and
        `str(rules)` prints it (`Rules.parse`: ``"cuttle.cards"``,
        ``"classic:four=random"``, ``"classic: joker=true, hand_limit=7"``).
        ValueError naming the bad preset, flag or value, or the type.

        >>> Rules.coerce("classic:joker=true") == Rules(joker=True)
        True
        """
        if rules is None:
            return cls()
        if isinstance(rules, Rules):
            return rules
        if isinstance(rules, str):
            return cls.parse(rules)
        raise ValueError(f"rules must be a Rules, rule text (a preset name, or e.g. "
                         f"'classic: four=random') or None, not {rules!r}")

    # -- text ----------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, extra: Iterable[str] = ()) -> Rules:
        """Rules from text: a preset (default classic) and ``FLAG=VALUE`` changes,
        separated by spaces or commas, the preset optionally followed by ``:``, spaces
        around ``=`` allowed (``classic``, ``cuttle.cards four=random``,
        ``classic:four=random,hand_limit=7``, ``classic: joker = true``,
        ``king_goals=15,14,10,7,5``, ``king_goals=(15, 14, 10, 7, 5)``); `extra` holds more ``FLAG=VALUE`` strings applied
        on top (command-line ``--set``).  ValueError naming the bad preset, flag or value."""
        if not isinstance(text, str):
            raise ValueError(f"rules text must be a string, not {text!r}")
        head, colon, rest = text.partition(":")
        body = rest if colon and "=" not in head else text
        spans = _split_spans(body)
        if body is rest:
            preset = head.strip()
        else:
            first = body[slice(*spans[0])] if spans else "="
            preset = "" if "=" in first else first
            spans = spans[1:] if preset else spans
        # A part without '=' continues the previous value (king_goals=15,14,10,7,5);
        # each change is read from the text as written, which its errors quote.
        changes: list[list[int]] = []
        for a, b in spans:
            if "=" in body[a:b] or not changes:
                changes.append([a, b])
            else:
                changes[-1][1] = b
        sets = [body[a:b] for a, b in changes]
        rules = cls(preset or "classic")           # a bad preset is reported first
        flags = cls.parse_assignments(sets)
        flags.update(cls.parse_assignments(extra))   # (`extra` on top of the text's)
        return rules.replace(**flags)

    @staticmethod
    def parse_assignments(items: str | Iterable[str] | None) -> dict[str, FlagValue]:
        """{flag: value} from ``FLAG=VALUE`` strings (values as `Flag.parse` reads them);
        a flag given twice is refused (which one was meant?); ValueError for anything
        else."""
        if isinstance(items, str):
            items = [items]
        elif items is None:
            items = ()
        # (bytes iterate as ints, and a number not at all: refused here, not as TypeError)
        try:
            if isinstance(items, (bytes, bytearray)):
                raise TypeError
            items = iter(items)
        except TypeError:
            raise ValueError(f"flag changes must be FLAG=VALUE text or a list of such "
                             f"strings, not {items!r}") from None
        flags = {}
        for item in items:
            name, eq, value = item.partition("=") if isinstance(item, str) else ("", "", "")
            if not (eq and name.strip()):
                raise ValueError(f"expected FLAG=VALUE (e.g. four=random), not {item!r}")
            flag = _flag(name.strip())
            if flag.name in flags:
                raise ValueError(f"{flag.name} is set twice ({item!r} after "
                                 f"{flag.name}={flag.format(flags[flag.name])})")
            flags[flag.name] = flag.parse(value)
        return flags

    def variants(self, text: str) -> list[Rules]:
        """One copy per value of a flag, from ``FLAG=V1,V2,...`` (parenthesise tuple
        values: ``king_goals=(21,14,10,7,5),(15,14,10,7,5)``)."""
        name, eq, values = text.partition("=") if isinstance(text, str) else ("", "", "")
        if not (eq and name.strip()):
            raise ValueError(f"expected FLAG=VALUE,VALUE,... (e.g. four=choice,random), "
                             f"not {text!r}")
        flag = _flag(name)
        vals = _split_top(values)
        if not vals:
            raise ValueError(f"{text!r} lists no values")
        try:
            return [self.replace(**{flag.name: flag.parse(v)}) for v in vals]
        except ValueError as e:
            now = FLAGS[flag.name].format(getattr(self, flag.name))
            if "(" in values or "," not in now:         # (not an unbracketed tuple)
                raise
            raise ValueError(f"{e}; in a list of values a tuple is parenthesised: "
                             f"{flag.name}=({now}),(...)") from None

    def __str__(self):
        changed = self.changed()
        if not changed:
            return self._preset
        return self._preset + ": " + ", ".join(
            f"{k}={_text_in_list(FLAGS[k].format(v))}" for k, v in changed.items())

    def __repr__(self):
        args = [repr(self._preset)] + [f"{k}={v!r}" for k, v in self.changed().items()]
        return f"Rules({', '.join(args)})"

    # -- values --------------------------------------------------------------------------

    def __getattr__(self, name):
        if name.startswith("_"):          # (not a flag; nor _flags itself, before it is set)
            raise AttributeError(name)
        try:
            return self._flags[name]
        except KeyError:
            raise AttributeError(f"Rules has no flag {name!r}") from None

    def __setattr__(self, name, value):
        raise AttributeError("Rules is frozen; use rules.replace(**flags)")

    def __delattr__(self, name):
        raise AttributeError("Rules is frozen; use rules.replace(**flags)")

    @property
    def preset(self) -> str:
        """The preset the flags were changed from."""
        return self._preset

    @property
    def flags(self) -> Mapping[str, FlagValue]:
        """All flags as a read-only mapping."""
        return self._flags

    @property
    def n_cards(self) -> int:
        """The cards shuffled for each deal: 52, or 53 with the `joker`.  Game i of a
        seeded run is dealt from one stream, so rule sets with the same number of cards
        shuffle it alike; the `deal` flag only cuts that shuffle at other hand sizes
        (the first player's cards first, then the second's, the rest the deck), and no
        other flag touches the deal.  Rule sets of 52 and 53 cards share no deal."""
        return n_cards(self.joker)

    def replace(self, **flags: object) -> Rules:
        """A copy with some flags changed (same preset name)."""
        return Rules(self, **flags)

    def degenerate(self) -> str | None:
        """Why games under these rules are all draws, or None: such rules are made all
        the same (every flag is valid), with a `DegenerateRulesWarning`.  Two cases: a
        hand limit of 0 in the discard mode (each hand is discarded whole at the end of
        its owner's turn, so once each player has made a first move the only move is to
        draw a card and discard it; only goals a first move reaches can be won), and
        goals all above the 220 points of every point card (docs/rules.md, "Degenerate
        rule sets")."""
        if self.hand_limit == 0 and self.hand_limit_mode == "discard":
            return ("with hand_limit=0 each hand is discarded whole at the end of its "
                    "owner's turn, so after their first move a player can only draw a card "
                    "and discard it: games end in draws (every game, under the presets' "
                    "goals)")
        if min(self.king_goals) > MAX_POINTS:
            return (f"every goal of king_goals is above {MAX_POINTS}, the points of every "
                    f"point card: no game can be won, every game ends in a draw")
        return None

    def changed(self) -> dict[str, FlagValue]:
        """The flags that differ from the preset's own values, in table order."""
        base = PRESETS[self._preset][0]
        return {k: v for k, v in self._flags.items() if base[k] != v}

    def as_dict(self) -> dict[str, FlagValue]:
        """Every flag's value."""
        return dict(self._flags)

    def to_json(self, full: bool = False) -> dict[str, Any]:
        """``{"preset": ..., "changed": {...}}`` (and ``"flags"``, every value, with
        `full`): JSON-ready, read back by `from_json`."""
        d = {"preset": self._preset,
             "changed": {k: FLAGS[k].to_json(v) for k, v in self.changed().items()}}
        if full:
            d["flags"] = {k: FLAGS[k].to_json(v) for k, v in self._flags.items()}
        return d

    @classmethod
    def from_json(cls, d: object) -> Rules:
        """Rules from `to_json`'s form, or from rule text (`Rules.parse`; a string in a
        hand-written file); ValueError saying what is wrong."""
        if isinstance(d, str):
            return cls.parse(d)
        if not isinstance(d, dict) or not isinstance(d.get("preset"), str):
            raise ValueError("rules must be an object with a 'preset' name and 'changed' "
                             "flags, or rule text like 'classic: four=random'")
        changed = d.get("changed", {})
        if not isinstance(changed, dict):
            raise ValueError("'changed' must be an object of flag values")
        return cls(d["preset"], **{k: _flag(k).from_json(v) for k, v in changed.items()})

    def c_fields(self) -> dict[str, int | tuple[int, ...]]:
        """The native core's CRules struct as a dict (field names are the flag names)."""
        if self._c is None:
            object.__setattr__(self, "_c", {k: FLAGS[k].to_c(v) for k, v in self._flags.items()})
        return self._c

    def _key(self):
        return tuple(self._flags[k] for k in FLAG_NAMES)

    def __eq__(self, other):
        if not isinstance(other, Rules):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __reduce__(self):
        return (_rebuild, (self._preset, self.changed()))

    @staticmethod
    def describe() -> str:
        """Every preset and flag, with its values (as rule text writes them) and
        sources."""
        lines = ["Presets:"]
        for name, (_, text) in PRESETS.items():
            lines.append(f"  {name:18} {text}")
        lines.append("")
        lines.append("Flags (classic / cuttle.cards value; source):")
        for f in FLAGS.values():
            lines.append(f"  {f.name:22} {f.text}")
            lines.append(f"  {'':22}   values: {f.values_text()}; classic "
                         f"{_text_in_list(f.format(f.classic))}, cuttle.cards "
                         f"{_text_in_list(f.format(f.cuttle_cards))}; {f.source}")
        return "\n".join(lines)


    @staticmethod
    def catalogue() -> dict[str, Any]:
        """`describe()` as JSON: every preset (its description and every flag's value)
        and every flag (kind, description, values as text, both presets' values,
        source)."""
        return {
            "presets": {name: {"description": text,
                               "flags": Rules(name).to_json(full=True)["flags"]}
                        for name, (_, text) in PRESETS.items()},
            "flags": {f.name: {"kind": f.kind, "description": f.text,
                               "values": f.values_text(), "source": f.source,
                               "classic": f.to_json(f.classic),
                               "cuttle.cards": f.to_json(f.cuttle_cards)}
                      for f in FLAGS.values()},
        }


def _text_in_list(value_text):
    # Inside a comma-separated list a tuple value is parenthesised.
    return f"({value_text})" if "," in value_text else value_text


def _rebuild(preset, changed):
    """Rules from a pickle (`Rules.__reduce__`): ValueError for a `changed` that is not
    a dict of flag names (Rules(**changed) would raise TypeError)."""
    if not (isinstance(changed, dict) and all(isinstance(k, str) for k in changed)):
        raise ValueError(f"corrupt pickled rules: the changed flags must be a dict of "
                         f"flag names to values, not {changed!r}")
    rules = Rules.__new__(Rules)        # (no warning: it was given where they were made)
    rules._build(preset, changed)
    return rules
