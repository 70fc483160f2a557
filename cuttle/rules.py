"""`Rules`: one frozen value holding every rule flag of a game.

Presets give full flag sets (`classic`, the default, from pagat.com; `cuttle.cards`, the
online community's rules v1.0.2) and named variants; any flag can be changed on top, so
every combination of house rules can be simulated.  docs/rules.md explains every flag.

The flags and presets themselves are declared as data in `cuttle.flags` (`FLAGS`, the
only declaration of the flags, and `PRESETS`); this module re-exports them.

Text form (`str(rules)`, read back by `Rules.parse`; the command line's ``--rules`` and
every ``rules`` argument of the library take it, through `Rules.coerce`)::

    classic                                   a preset
    cuttle.cards: four=random, hand_limit=7   a preset and changed flags
    classic four=random king_goals=15,14,10,7,5
"""

from __future__ import annotations

import re
import warnings
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ._core import CHOICE_CODES, CRULES_FIELDS, n_cards
from .flags import FLAG_NAMES, FLAGS, MAX_POINTS, PRESETS, Flag, _flag, _preset_name
from .text import quoted

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping

    from .flags import FlagValue

__all__ = ["DegenerateRulesWarning", "Flag", "FLAGS", "FLAG_NAMES", "PRESETS", "Rules",
           "held_degenerate", "no_degenerate_warning"]


def _core_mismatch(flags: Mapping[str, Flag], fields: Iterable[str],
                   codes: Mapping[str, Mapping[str, int]]) -> str | None:
    """What keeps the core's CRules struct (`fields`, `codes`: `_core.CRULES_FIELDS`,
    `_core.CHOICE_CODES`) from holding `flags` (`FLAGS`), in words, or None: a field
    per flag under its name, and each choice flag's values coded in their order."""
    fields = list(fields)
    said = []
    missing = [name for name in flags if name not in fields]
    if missing:
        said.append(f"no field for {', '.join(missing)} (Rules.c_fields() would drop "
                    f"{'it' if len(missing) == 1 else 'them'}: games played as if unset)")
    extra = [name for name in fields if name not in flags]
    if extra:
        said.append(f"no flag for the field{'s' * (len(extra) > 1)} {', '.join(extra)}")
    choices = [f for f in flags.values() if f.kind == "choice"]
    for f in choices:
        want = {v: i for i, v in enumerate(f.values)}
        if dict(codes.get(f.name, {})) != want:
            said.append(f"{f.name}'s values are coded {dict(codes.get(f.name, {}))}, not "
                        f"{want}")
    said += [f"{name} has codes but is no choice flag" for name in codes
             if name not in {f.name for f in choices}]
    return "; ".join(said) or None


def _check_core(flags, fields, codes) -> None:
    """RuntimeError naming what differs unless the native core holds every flag of
    `flags` (`_core_mismatch`); run at import, so that no game is played without one."""
    said = _core_mismatch(flags, fields, codes)
    if said is not None:
        raise RuntimeError(f"cuttle.flags.FLAGS and the native core's CRules struct "
                           f"(cuttle/_state.pxd; the choice codes: _core.CHOICE_CODES) "
                           f"differ: {said}; give every flag a field of its own name, "
                           f"then rebuild the core")


_check_core(FLAGS, CRULES_FIELDS, CHOICE_CODES)


class DegenerateRulesWarning(UserWarning):
    """A rule set every flag of which is valid but under which no game can be decided
    (`Rules.degenerate` says why): every game would be a draw."""


# The degenerate rule sets made within `held_degenerate` (or `no_degenerate_warning`)
# by this thread or asyncio task, {rules: why}; None outside both, where each is warned
# of where it is made.  A context variable: warnings' filters are the whole process's.
_HELD: ContextVar[dict[Rules, str] | None] = ContextVar("held_degenerate", default=None)


@contextmanager
def held_degenerate() -> Iterator[dict[Rules, str]]:
    """Within it, a degenerate rule set is not warned of where it is made, but kept in
    the dict it yields ({rules: why}), for a caller that makes many rule sets of one
    base (a balance search's candidates: one warning each was dozens of lines) to say
    them once.  It holds the warnings of the calling thread (or asyncio task) only."""
    held: dict[Rules, str] = {}
    token = _HELD.set(held)
    try:
        yield held
    finally:
        _HELD.reset(token)


@contextmanager
def no_degenerate_warning() -> Iterator[None]:
    """Within it, rules made degenerate give no `DegenerateRulesWarning`, in this thread
    (or asyncio task) only: for a front end that tells the person itself, in its own
    words or with `Rules.degenerate_warning()` (the web app's answers carry it, where its
    server's stderr would repeat it for every request)."""
    with held_degenerate():
        yield


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
                raise ValueError(f"unbalanced brackets in {quoted(text.strip())}: a ')' "
                                 f"closes nothing")
        if depth <= 0 and (ch.isspace() or ch == ","):
            if start is not None:
                out.append((start, end))
                start = None
        else:
            start = i if start is None else start
            end = i + 1
    if depth:
        raise ValueError(f"unbalanced brackets in {quoted(text.strip())}: a '(' is never "
                         f"closed")
    if start is not None:
        out.append((start, end))
    return out


def _split_top(text):
    """The parts of `text` (`_split_spans`), each as written."""
    return [text[a:b] for a, b in _split_spans(text)]


def _read_text(text):
    """(preset, parts) of rule text: its preset as written ("" for none: classic) and
    its ``FLAG=VALUE`` parts, each as written (`Rules.parse`'s first step)."""
    if not isinstance(text, str):
        raise ValueError(f"rules text must be a string, not {quoted(text)}")
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
    return preset, sets


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
            held = _HELD.get()
            if held is not None:
                held[self] = why
            else:
                warnings.warn(self.degenerate_warning(), DegenerateRulesWarning,
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
                                 f"{quoted(name)})")
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
                         f"'classic: four=random') or None, not {quoted(rules)}")

    # -- text ----------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, extra: Iterable[str] = ()) -> Rules:
        """Rules from text: a preset (default classic) and ``FLAG=VALUE`` changes,
        separated by spaces or commas, the preset optionally followed by ``:``, spaces
        around ``=`` allowed (``classic``, ``cuttle.cards four=random``,
        ``classic:four=random,hand_limit=7``, ``classic: joker = true``,
        ``king_goals=15,14,10,7,5``, ``king_goals=(15, 14, 10, 7, 5)``); `extra` holds more ``FLAG=VALUE`` strings applied
        on top (command-line ``--set``).  ValueError naming the bad preset, flag or value."""
        preset, sets = _read_text(text)
        rules = cls(preset or "classic")           # a bad preset is reported first
        flags = cls.parse_assignments(sets)
        flags.update(cls.parse_assignments(extra))   # (`extra` on top of the text's)
        return rules.replace(**flags)

    @classmethod
    def text_flags(cls, text: str) -> dict[str, FlagValue]:
        """{flag: value} of the flags rule text sets itself, as `parse` reads them, a
        preset's own value written out too (``"classic: joker=false"`` gives
        ``{"joker": False}``, ``"cuttle.cards"`` nothing): the values a change on top of
        the text (``--set``) would replace.  ValueError as `parse` says it."""
        preset, sets = _read_text(text)
        _preset_name(preset or "classic")           # (reported first, as by `parse`)
        return cls.parse_assignments(sets)

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
                             f"strings, not {quoted(items)}") from None
        flags = {}
        for item in items:
            name, eq, value = item.partition("=") if isinstance(item, str) else ("", "", "")
            if not (eq and name.strip()):
                raise ValueError(f"expected FLAG=VALUE (e.g. four=random), not "
                                 f"{quoted(item)}")
            flag = _flag(name.strip())
            if flag.name in flags:
                raise ValueError(f"{flag.name} is set twice ({quoted(item)} after "
                                 f"{flag.name}={flag.format(flags[flag.name])})")
            flags[flag.name] = flag.parse(value)
        return flags

    def variants(self, text: str) -> list[Rules]:
        """One copy per value of a flag, from ``FLAG=V1,V2,...`` (parenthesise tuple
        values: ``king_goals=(21,14,10,7,5),(15,14,10,7,5)``)."""
        name, eq, values = text.partition("=") if isinstance(text, str) else ("", "", "")
        if not (eq and name.strip()):
            raise ValueError(f"expected FLAG=VALUE,VALUE,... (e.g. four=choice,random), "
                             f"not {quoted(text)}")
        flag = _flag(name)
        vals = _split_top(values)
        if not vals:
            raise ValueError(f"{quoted(text)} lists no values")
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
            raise AttributeError(f"Rules has no flag {quoted(name)}") from None

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
        other flag touches the deal (`deal_relation`).  Rule sets of 52 and 53 cards
        share no deal."""
        return n_cards(self.joker)

    def deal_relation(self, other: Rules | str | None) -> str:
        """How game i of a seeded run is dealt under `other` as against these rules:
        "same" (the same deal: no flag that touches the deal differs), "cut" (the same
        shuffle cut at other places: the `deal` flag's hand sizes differ, so the deck
        below the cut is the same and the hands are a card or more apart; paired games
        stay partly alike) or "other" (another shuffle: the `joker`'s 53 cards against
        52, no deal in common).  Read from each flag's `dealing` (`cuttle.flags`), the
        one record of which flags change the deal.  `other` as `Rules.coerce` takes it."""
        other = Rules.coerce(other)
        changed = {FLAGS[k].dealing for k, v in self._flags.items() if other.flags[k] != v}
        return "other" if "shuffle" in changed else "cut" if "cut" in changed else "same"

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

    def degenerate_warning(self) -> str | None:
        """The text of the `DegenerateRulesWarning` these rules are made with
        (``degenerate rules (classic: hand_limit=0): with hand_limit=0 ...``: the rules
        and why, from `degenerate`), or None for rules that decide games."""
        why = self.degenerate()
        return None if why is None else f"degenerate rules ({self}): {why}"

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
        """The native core's CRules struct as a dict (field names are the flag names;
        that the struct has a field for each flag is checked at import)."""
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
                         f"flag names to values, not {quoted(changed)}")
    rules = Rules.__new__(Rules)        # (no warning: it was given where they were made)
    rules._build(preset, changed)
    return rules
