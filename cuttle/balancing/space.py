"""The search space of the balance designer: rule sets that differ from a base in at
most `k` flags.

The changes are those of the variant atlas (`cuttle.variants.rulesets.singles`,
generated from the flag table `cuttle.rules.FLAGS`: every other value of a bool or a
choice, the presets' and published goal tables and hand limits, and the deals the
`deal` flag explores), restricted to some flags (`flags`) or without some (`exclude`),
and with the deals of `deals` when given.  A candidate is one change or several changes
of different flags applied together; its size is the number of flags it changes (a
change that needs a companion, ``hand_limit_mode=no_draw`` with ``hand_limit=8``,
counts both).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from ..rules import FLAGS, Rules
from ..text import quoted
from ..variants.rulesets import Variant, singles

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from ..flags import FlagValue

__all__ = ["Candidate", "changes_of", "combinations_of", "flag_names", "single_changes",
           "space_size"]


def flag_names(flags: Iterable[str] | str | None = None,
               exclude: Iterable[str] | str | None = None) -> list[str]:
    """The flags a search may change: `flags` (default: every flag) without `exclude`,
    in the flag table's order; ValueError naming an unknown flag."""
    def names(x):
        if x is None:
            return []
        items = x.split(",") if isinstance(x, str) else list(x)
        out = []
        for item in items:
            name = item.strip().lower().replace("-", "_") if isinstance(item, str) else item
            if name not in FLAGS:
                raise ValueError(f"unknown rule flag {quoted(item)}; valid flags: "
                                 f"{', '.join(FLAGS)}")
            out.append(name)
        return out
    chosen = set(names(flags)) if flags is not None else set(FLAGS)
    chosen -= set(names(exclude))
    if not chosen:
        raise ValueError("the search has no flag to change: --flags and --exclude leave none")
    return [n for n in FLAGS if n in chosen]


def single_changes(base: Rules, names: Sequence[str],
                   deals: Iterable[tuple[int, int]] | None = None) -> list[Variant]:
    """Every change of one flag of `names` on `base` (with its companion where it needs
    one); `deals` replaces the `deal` flag's explored values."""
    out = singles(base, names)
    if deals is not None and "deal" in names:
        flag = FLAGS["deal"]
        chosen = [flag.check(d) for d in deals]
        out = [v for v in out if "deal" not in v.changes]
        for d in dict.fromkeys(chosen):
            if d != base.deal:
                out.append(Variant(base.replace(deal=d), {"deal": d}))
    return out


def changes_of(rules: Rules, base: Rules) -> dict[str, FlagValue]:
    """The flags `rules` changes against `base`, in the flag table's order."""
    return {k: v for k, v in rules.flags.items() if base.flags[k] != v}


class Candidate:
    """A rule set of the search: `rules`, the `parts` (single changes, Variants) it
    combines, its `changes` against the base and its `size` (flags changed)."""

    __slots__ = ("rules", "parts", "changes")

    def __init__(self, rules: Rules, parts: Sequence[Variant], base: Rules):
        self.rules, self.parts = rules, tuple(parts)
        self.changes = changes_of(rules, base)

    @property
    def size(self) -> int:
        """The number of flags it changes."""
        return len(self.changes)

    @property
    def label(self) -> str:
        """Its changes as ``FLAG=VALUE`` joined by " + " ("(base)" without any, as the
        tables name the base)."""
        if not self.changes:
            return "(base)"
        return " + ".join(f"{k}={FLAGS[k].format(v)}" for k, v in self.changes.items())

    def __eq__(self, other):
        return isinstance(other, Candidate) and self.rules == other.rules

    def __hash__(self):
        return hash(self.rules)

    def __repr__(self):
        return f"<Candidate {self.label}>"


def combinations_of(parts: Sequence[Variant], base: Rules, k: int,
                    size: int | None = None) -> list[Candidate]:
    """Every valid rule set combining 2 or more of `parts` on `base` that change
    different flags, at most `k` flags in all (exactly `size`, if given), without
    duplicates, in the order of `parts`."""
    out: dict[Rules, Candidate] = {}
    for n in range(2, k + 1):
        for group in combinations(parts, n):
            flags = [f for p in group for f in p.changes]
            if len(flags) != len(set(flags)) or len(flags) > k:
                continue
            if size is not None and len(flags) != size:
                continue
            try:
                rules = base.replace(**{f: v for p in group for f, v in p.changes.items()})
            except ValueError:
                continue
            out.setdefault(rules, Candidate(rules, group, base))
    return list(out.values())


def space_size(parts: Sequence[Variant], base: Rules, k: int) -> dict[int, int]:
    """How many rule sets of each size (1 to k) the changes `parts` make: the whole
    space the search could play."""
    sizes = {n: 0 for n in range(1, k + 1)}
    for p in parts:
        if len(p.changes) <= k:
            sizes[len(p.changes)] += 1
    for c in combinations_of(parts, base, k):
        sizes[c.size] += 1
    return sizes
