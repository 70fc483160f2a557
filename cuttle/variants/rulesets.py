"""The rule sets of the atlas: every value of every rule flag applied alone on top of a
base preset, generated from `cuttle.rules.FLAGS` (never a hand-written list), and the
named presets that combine flags, on their own base.

For a flag of kind
- "bool": the other value;
- "choice": every other value, in the order the flag lists them;
- "goals": every goal table of a preset (so the other preset's and quick's) and the
  flag's `published` values;
- "limit": no limit, every preset's limit and the flag's `published` values (the hand
  limit: none, 8 and 7);
- "deal": every preset's deal and the flag's `explored` values (six cards each, five
  each, six and seven, four and five, four and six, six and five);
always without the base's own value (a value equal to the base's is not a variant of
it).  A value that is not valid alone (``hand_limit_mode="no_draw"`` needs a hand limit)
is played together with the first value of another flag, from the same lists, that
makes it valid (``hand_limit=8`` on classic).  A named preset (quick, open,
cuttle.cards-beta) belongs to the base it differs least from; when it equals a one-flag
variant the two are one variant, labelled with both names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules import FLAGS, PRESETS, Rules

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from ..flags import Flag, FlagValue

__all__ = ["BASES", "Variant", "flag_values", "own_base", "singles", "variants"]

BASES = ("classic", "cuttle.cards")


class Variant:
    """One rule set of the atlas: `rules` (a `Rules` on the base preset), `changes`
    ({flag: value} against the base), `presets` (named presets equal to it) and
    `label` (``four=random``, ``king_goals=15,14,10,7,5 (quick)``)."""

    __slots__ = ("rules", "changes", "presets")

    def __init__(self, rules: Rules, changes: Mapping[str, FlagValue],
                 presets: Iterable[str] = ()):
        self.rules, self.changes, self.presets = rules, dict(changes), tuple(presets)

    @property
    def label(self) -> str:
        """The changed flags as FLAG=VALUE joined by " + ", and the named presets."""
        text = " + ".join(f"{k}={FLAGS[k].format(v)}" for k, v in self.changes.items())
        if not self.presets:
            return text
        names = ", ".join(self.presets)
        return f"{text} ({names})" if text else names

    @property
    def flags(self) -> tuple[str, ...]:
        """The flags it changes."""
        return tuple(self.changes)

    def __eq__(self, other):
        return isinstance(other, Variant) and (self.rules, self.changes, self.presets) == (
            other.rules, other.changes, other.presets)

    __hash__ = None

    def __repr__(self):
        return f"<Variant {self.label}>"


def _distinct(values, exclude):
    out = []
    for v in values:
        if v != exclude and v not in out:
            out.append(v)
    return out


def flag_values(flag: Flag, base_value: FlagValue) -> list[FlagValue]:
    """The values of `flag` (a `cuttle.rules.Flag`) the atlas plays on a base whose
    value is `base_value`, in order."""
    preset_values = [flags[flag.name] for flags, _ in PRESETS.values()]
    values: list[object]
    if flag.kind == "bool":
        values = [not base_value]
    elif flag.kind == "choice":
        values = list(flag.values)
    elif flag.kind in ("goals", "deal"):
        values = preset_values + list(flag.published) + list(flag.explored)
    elif flag.kind == "limit":
        values = [None] + preset_values + list(flag.published) + list(flag.explored)
    else:
        raise ValueError(f"flag {flag.name!r} has an unknown kind {flag.kind!r}")
    return _distinct(values, base_value)


def _with_companion(base, name, value, candidates):
    """Rules with flag `name` = `value` on `base` and the changes made, completed by the
    first single value of another flag that makes it valid; None if none does."""
    try:
        return base.replace(**{name: value}), {name: value}
    except ValueError:
        pass
    for other, values in candidates.items():
        if other == name:
            continue
        for v in values:
            try:
                return base.replace(**{name: value, other: v}), {name: value, other: v}
            except ValueError:
                continue
    return None


def own_base(preset: str) -> str:
    """The base preset (of `BASES`) a named preset differs least from."""
    flags = PRESETS[preset][0]
    return min(BASES, key=lambda b: sum(flags[k] != v for k, v in PRESETS[b][0].items()))


def singles(base: Rules, names: Iterable[str] | None = None) -> list[Variant]:
    """Every value of every flag of `names` (default: the whole flag table, in its order)
    alone on `base` (any Rules; see the module docstring), a value that is not valid
    alone with the first companion from the same flags that makes it valid, without
    duplicates; a value no companion makes valid is left out."""
    names = list(FLAGS) if names is None else [n for n in FLAGS if n in set(names)]
    candidates = {name: flag_values(FLAGS[name], base.flags[name]) for name in names}
    out: list[Variant] = []
    for name, values in candidates.items():
        for value in values:
            made = _with_companion(base, name, value, candidates)
            if made is not None and all(v.rules != made[0] for v in out):
                out.append(Variant(*made))
    return out


def variants(base: str = "classic") -> list[Variant]:
    """The atlas's variants of the preset `base`: every flag value alone (see the module
    docstring), then the named presets belonging to `base`, without duplicates."""
    if not isinstance(base, str) or base.strip().lower() not in PRESETS:
        raise ValueError(f"a base must be a preset name ({', '.join(PRESETS)}), not {base!r}")
    base_rules = Rules(base.strip().lower())
    candidates = {name: flag_values(flag, base_rules.flags[name])
                  for name, flag in FLAGS.items()}
    for name, values in candidates.items():
        for value in values:
            if _with_companion(base_rules, name, value, candidates) is None:
                raise ValueError(f"{name}={FLAGS[name].format(value)} is not valid on "
                                 f"{base_rules.preset}, alone or with any one other flag")
    out = singles(base_rules)
    for preset in PRESETS:
        if preset in BASES or preset == base_rules.preset or \
                own_base(preset) != base_rules.preset:
            continue
        rules = Rules(preset)
        same = [i for i, v in enumerate(out) if v.rules == rules]
        if same:
            v = out[same[0]]
            out[same[0]] = Variant(v.rules, v.changes, v.presets + (preset,))
        elif rules != base_rules:
            changes = {k: v for k, v in rules.flags.items() if base_rules.flags[k] != v}
            out.append(Variant(rules, changes, (preset,)))
    return out
