"""`Rules`: one frozen value holding every rule flag of a game.

Presets give full flag sets (`classic`, the default, from pagat.com; `cuttle.cards`, the
online community's rules v1.0.2) and named variants; any flag can be changed on top, so
every combination of house rules can be simulated.  See docs/rules.md for every flag.
"""

from types import MappingProxyType

# name: (allowed values or a type name, classic, cuttle.cards, source, description)
_FLAGS = {
    "king_goals": ("5 ints", (21, 14, 10, 7, 5), (21, 14, 10, 5, 0), "pagat / cuttle.cards",
                   "points needed to win with 0, 1, 2, 3, 4 Kings"),
    "hand_limit": ("None or int >= 0", None, 8, "cuttle.cards; 'MTG notes' 7",
                   "maximum hand size (None: no limit)"),
    "hand_limit_mode": (("discard", "no_draw"), "discard", "discard", "cuttle.cards / legacy",
                        "discard down to the limit at the end of your turn, or: drawing at the limit is illegal"),
    "five": (("draw2", "discard1_draw3"), "draw2", "discard1_draw3", "pagat / cuttle.cards",
             "the 5: draw two, or discard one then draw three"),
    "seven": (("top1", "top2"), "top1", "top2", "pagat / cuttle.cards",
              "the 7: play the top card, or one of the top two"),
    "nine": (("return", "freeze", "topdeck"), "return", "freeze", "pagat / cuttle.cards / nine to deck",
             "the 9: return to hand, return and freeze, or put on top of the deck"),
    "nine_targets_points": (bool, False, True, "cuttle.cards", "the 9 may target point cards"),
    "targets_own_side": (bool, True, False, "pagat / cuttle.cards",
                         "2s and 9s may target your own cards"),
    "three_takes_threes": (bool, True, False, "pagat / cuttle.cards", "a 3 may take a 3 from the scrap"),
    "strict_oneoffs": (bool, False, True, "cuttle.cards",
                       "one-offs need something to act on (3: a takeable card, 4: an opposing hand, 5/7: a deck)"),
    "four": (("choice", "random", "draw"), "choice", "choice", "pagat / Greg Pallis / no-discard 4s",
             "the 4: the victim discards two of their choice, two at random, or draws two"),
    "queens_protect_queens": (bool, False, True, "beamer159 (pagat) / cuttle.cards",
                              "a Queen also protects your other Queens"),
    "queen_stops_scuttles": (bool, False, False, "how-to-play variant",
                             "a player with a Queen cannot be scuttled"),
    "one_queen_each": (bool, False, False, "how-to-play variant", "at most one Queen per player"),
    "eight_breaks_glasses": (bool, False, False, "Daniel Goers (pagat)",
                             "an 8 one-off scraps the opponent's glasses-8"),
    "ten_blocks_scuttle": (bool, False, False, "Daniel Goers (pagat)",
                           "the victim of a scuttle may block it with a 10"),
    "ten_discards": (bool, False, False, "how-to-play variant",
                     "a 10 one-off makes the opponent discard one card"),
    "strict_scuttle": (bool, False, False, "how-to-play variant",
                       "a scuttle needs a strictly higher rank (suits never break ties)"),
    "joker": (bool, False, False, "Daniel Goers (pagat)",
              "a 53rd card whose one-off swaps the hands"),
    "open_hands": (bool, False, False, "'open Cuttle'", "both hands are public all game"),
    "reveal_on_empty_deck": (bool, False, True, "cuttle.cards",
                             "both hands are public once the deck is empty"),
    "sudden_death": (bool, False, False, "how-to-play variant",
                     "when the deck runs out each player gets one more turn, then it is a draw"),
}

FLAG_NAMES = tuple(_FLAGS)

_PRESETS = {
    "classic": ({}, "pagat.com's rules, the game's reference description"),
    "cuttle.cards": ({k: v[2] for k, v in _FLAGS.items()}, "cuttle.cards rules v1.0.2"),
    "cuttle.cards-beta": (dict({k: v[2] for k, v in _FLAGS.items()}, nine="topdeck"),
                          "cuttle.cards beta 2.0: the 9 puts its target on top of the deck"),
    "quick": ({"king_goals": (15, 14, 10, 7, 5)}, "'quick Cuttle': classic with a goal of 15"),
    "open": ({"open_hands": True}, "'open Cuttle': classic with both hands public"),
}


def _check(name, value):
    """Return the normalised value of flag `name`, or raise ValueError."""
    if name not in _FLAGS:
        raise ValueError(f"unknown rule flag {name!r}; valid flags: {', '.join(FLAG_NAMES)}")
    kind = _FLAGS[name][0]
    if kind is bool:
        if not isinstance(value, bool):
            raise ValueError(f"flag {name!r} takes True or False, not {value!r}")
        return value
    if isinstance(kind, tuple):
        if value not in kind:
            raise ValueError(f"flag {name!r} takes one of {', '.join(map(repr, kind))}, not {value!r}")
        return value
    if name == "king_goals":
        try:
            goals = tuple(value)
        except TypeError:
            goals = ()
        if len(goals) != 5 or not all(isinstance(g, int) and not isinstance(g, bool) and 0 <= g <= 1000
                                      for g in goals):
            raise ValueError(f"flag 'king_goals' takes a tuple of 5 ints >= 0 "
                             f"(goal with 0, 1, 2, 3, 4 Kings), not {value!r}")
        return goals
    if name == "hand_limit":
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 53:
            raise ValueError(f"flag 'hand_limit' takes None or an int from 0 to 53, not {value!r}")
        return value
    raise AssertionError(name)


class Rules:
    """The rules of a game: a preset plus any changed flags.  Frozen and hashable.

    >>> Rules()                              # classic
    >>> Rules("cuttle.cards", hand_limit=7)
    >>> Rules(king_goals=(21, 14, 10, 5, 0)) # classic with cuttle.cards' King goals
    """

    presets = tuple(_PRESETS)
    flag_names = FLAG_NAMES
    __slots__ = ("_preset", "_flags")

    def __init__(self, preset="classic", **flags):
        if isinstance(preset, Rules):
            base = dict(preset._flags)
            preset_name = preset._preset
        else:
            if preset not in _PRESETS:
                raise ValueError(f"unknown preset {preset!r}; valid presets: {', '.join(self.presets)}")
            preset_name = preset
            base = {k: v[1] for k, v in _FLAGS.items()}
            base.update(_PRESETS[preset][0])
        for name, value in flags.items():
            base[name] = _check(name, value)
        if base["hand_limit"] is None and base["hand_limit_mode"] != "discard":
            raise ValueError("hand_limit_mode='no_draw' needs a hand_limit (an int); "
                             "set hand_limit=N as well")
        object.__setattr__(self, "_preset", preset_name)
        object.__setattr__(self, "_flags", MappingProxyType(base))

    @classmethod
    def coerce(cls, rules) -> "Rules":
        """A Rules from a Rules, a preset name, or None (classic)."""
        if rules is None:
            return cls()
        if isinstance(rules, Rules):
            return rules
        if isinstance(rules, str):
            return cls(rules)
        raise ValueError(f"rules must be a Rules, a preset name or None, not {rules!r}")

    def __getattr__(self, name):
        try:
            return self._flags[name]
        except KeyError:
            raise AttributeError(f"Rules has no flag {name!r}") from None

    def __setattr__(self, name, value):
        raise AttributeError("Rules is frozen; use rules.replace(**flags)")

    @property
    def preset(self) -> str:
        return self._preset

    @property
    def flags(self):
        """All flags as a read-only mapping."""
        return self._flags

    def replace(self, **flags) -> "Rules":
        """A copy with some flags changed (same preset name)."""
        return Rules(self, **flags)

    def changed(self) -> dict:
        """The flags that differ from the preset's own values."""
        base = Rules(self._preset)._flags
        return {k: v for k, v in self._flags.items() if base[k] != v}

    def as_dict(self) -> dict:
        return dict(self._flags)

    def _key(self):
        return tuple(self._flags[k] for k in FLAG_NAMES)

    def __eq__(self, other):
        if not isinstance(other, Rules):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        args = [repr(self._preset)] + [f"{k}={v!r}" for k, v in self.changed().items()]
        return f"Rules({', '.join(args)})"

    def __reduce__(self):
        return (_rebuild, (self._preset, self.changed()))

    @staticmethod
    def describe() -> str:
        """Every preset and flag, one line each, with values and sources."""
        lines = ["Presets:"]
        for name, (_, text) in _PRESETS.items():
            lines.append(f"  {name:18} {text}")
        lines.append("")
        lines.append("Flags (classic / cuttle.cards value; source):")
        for name, (kind, classic, cc, source, text) in _FLAGS.items():
            values = "bool" if kind is bool else (" | ".join(kind) if isinstance(kind, tuple) else kind)
            lines.append(f"  {name:22} {text}")
            lines.append(f"  {'':22}   values: {values}; classic {classic!r}, cuttle.cards {cc!r}; {source}")
        return "\n".join(lines)


def _rebuild(preset, changed):
    return Rules(preset, **changed)
