"""Interactions of rule changes: do two changes that each shift the balance add up when
played together?  "Does the joker and `four=draw` together give the first player what
each gives alone, added?"

For two changes A and B of a base (each a single-flag variant, or any two rule sets
changing different flags) the base, A, B and A-with-B (`AB`) are played on the same
games, and for each game the first player's score y (1 for a win, 1/2 for a draw) under
each.  Contrasts of the per-game scores are estimated with their normal intervals, a
pseudo-contrast of +1 and one of -1 added (`stats.score_shift_interval`; the same games
for all):

* the pair's shift, ``y_AB - y_base``;
* the sum of the two shifts, ``(y_A - y_base) + (y_B - y_base)``;
* the interaction, ``y_AB - y_A - y_B + y_base``: the pair's shift minus the sum, 0 when
  the changes add up, negative when together they do less than their sum.

Each contrast's sum and sum of squares over the games follow exactly from the chunks'
tallies and the pair tallies of the four rule sets (for rule sets i and j, the sum of
``y_i y_j`` is ``(sum y_i^2 + sum y_j^2 - sum (y_i - y_j)^2) / 2``, and the last sum is
`PairTally.score_moments`), so nothing per game is kept.  The first player is player A
(A moves first in every game), so y is A's score.

`clear_changes` picks the changes whose own shift is clearly measured (its interval
excludes 0), of the flags with the largest such shifts; `pairs_of` their pairs that
touch different flags;
`measure` plays the pairs chunk by chunk (`cuttle.variants.chunks.ChunkPlayer`) until
each interaction's interval is narrow enough or a cap is reached.
"""

from __future__ import annotations

from itertools import combinations
from math import isfinite
from typing import TYPE_CHECKING, Any

from ..figures import INTERACTION, canonical
from ..stats import Estimate, score_shift_interval

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from ..rules import Rules
    from ..simulation import PairTally, Tally
    from .chunks import ChunkPlayer
    from .rulesets import Variant

__all__ = ["Interaction", "clear_changes", "combine", "contrast_moments", "measure",
           "pairs_of", "score_shift"]

# The contrasts, as coefficients of (base, A, B, AB).
CONTRASTS = {"shift_a": (-1, 1, 0, 0), "shift_b": (-1, 0, 1, 0),
             "sum_of_shifts": (-2, 1, 1, 0), "pair_shift": (-1, 0, 0, 1),
             "interaction": (1, -1, -1, 1)}
PLAYING, CONVERGED, CAPPED, UNFINISHED = "playing", "converged", "capped", "unfinished"


def _score_sums(t: Tally) -> tuple[float, float]:
    """(sum, sum of squares) of player A's score over a tally's games."""
    wins, draws = int(t.counts[1].sum()), int(t.counts[0].sum())
    return wins + draws / 2, wins + draws / 4


def contrast_moments(tallies: Sequence[Tally], pairs: dict[tuple[int, int], PairTally],
                     coefficients: Sequence[float]) -> tuple[float, float]:
    """(sum, sum of squares) over the games of the per-game contrast ``sum_i c_i y_i`` of
    the first player's scores y_i under rule sets played on the same games: `tallies`
    per rule set, `pairs[(i, j)]` (i < j) their pair tallies."""
    sums = [_score_sums(t) for t in tallies]
    total = sum(c * s for c, (s, _) in zip(coefficients, sums))
    squares = 0.0
    for i, ci in enumerate(coefficients):
        for j, cj in enumerate(coefficients):
            if not (ci and cj):
                continue
            if i == j:
                cross = sums[i][1]
            else:
                diff = pairs[(min(i, j), max(i, j))].score_moments()[1]
                cross = (sums[i][1] + sums[j][1] - diff) / 2
            squares += ci * cj * cross
    return total, max(squares, 0.0)


def score_shift(tally: Tally, pair: PairTally, confidence: float = 0.95) -> Estimate:
    """The first player's score under a rule set minus under its reference, on the same
    games (`pair`: reference first), with its interval (stats.score_shift_interval)."""
    return score_shift_interval(tally.n_games, *pair.score_moments(reverse=True),
                                confidence)


def combine(a: Variant | Rules, b: Variant | Rules, base: Rules) -> Rules | None:
    """The rule set with both changes (each a Variant, or Rules differing from `base`),
    or None if they change a common flag or together make no valid rule set."""
    ca = _changes(a, base)
    cb = _changes(b, base)
    if set(ca) & set(cb):
        return None
    try:
        return base.replace(**ca, **cb)
    except ValueError:
        return None


def _changes(x, base):
    if hasattr(x, "changes"):                     # a Variant: the changes it declares
        return dict(x.changes)
    return {k: v for k, v in x.flags.items() if base.flags[k] != v}


def clear_changes(measured: Iterable[tuple[Any, Estimate]], flags: int,
                  per_flag: int | None = 1) -> list[Any]:
    """Of (change, shift) pairs (a change is a Variant: it has `changes`), those whose
    shift interval excludes 0, by decreasing size of the shift: the changes of the
    `flags` flags with the largest such shifts, at most `per_flag` of each flag (None:
    all)."""
    clear = [(abs(e.value), i, c) for i, (c, e) in enumerate(measured)
             if isfinite(e.low) and isfinite(e.high) and not e.contains(0.0)]
    out, count = [], {}
    for _, _, c in sorted(clear, key=lambda x: (-x[0], x[1])):
        names = list(c.changes)
        if per_flag is not None and any(count.get(n, 0) >= per_flag for n in names):
            continue
        if len(set(count) | set(names)) > flags:
            continue
        for n in names:
            count[n] = count.get(n, 0) + 1
        out.append(c)
    return out


def pairs_of(changes: Sequence[Any], base: Rules) -> list[tuple[Any, Any, Rules]]:
    """(a, b, rules with both) for every two changes touching different flags that make
    a valid rule set together, in the order of `changes`."""
    out = []
    for a, b in combinations(changes, 2):
        both = combine(a, b, base)
        if both is not None:
            out.append((a, b, both))
    return out


class Interaction:
    """Two changes `a` and `b` (Variants) of `base` and the rule set `pair` with both,
    measured on `n` games: `moments[name]` the (sum, sum of squares) of each contrast
    (`CONTRASTS`), `estimate(name)` its value with its interval (the figures of
    `cuttle.figures.INTERACTION`: ``pair_shift``, ``sum_of_shifts``, ``interaction``);
    `status` "converged" (the interaction's half-width reached the target), "capped" or
    "unfinished"; `chunks` played."""

    def __init__(self, base: Rules, a: Variant, b: Variant, pair: Rules,
                 confidence: float = 0.95):
        self.base, self.a, self.b, self.pair = base, a, b, pair
        self.confidence = confidence
        self.tallies: list[Tally | None] = [None] * 4
        self.pairs: dict[tuple[int, int], PairTally] = {}
        self.chunks = 0
        self.status = PLAYING
        self.moments = {name: (0.0, 0.0) for name in CONTRASTS}

    @property
    def rule_sets(self) -> tuple[Rules, Rules, Rules, Rules]:
        """(base, A, B, AB)."""
        return (self.base, self.a.rules, self.b.rules, self.pair)

    def records(self) -> list[tuple[Rules, Rules]]:
        """The (reference, rules) records of one chunk: each rule set against the base,
        and the pairs among A, B and AB."""
        base, a, b, ab = self.rule_sets
        return [(base, base), (base, a), (base, b), (base, ab), (a, b), (a, ab), (b, ab)]

    def add(self, got: dict[tuple[Rules, Rules], tuple[Tally, PairTally | None]]) -> None:
        """Add one chunk's records (`ChunkPlayer.records`)."""
        sets = self.rule_sets
        for i, r in enumerate(sets):
            t = got[(self.base, r)][0]
            self.tallies[i] = t if self.tallies[i] is None else self.tallies[i] + t
        for i, j in combinations(range(4), 2):
            p = got[(sets[i], sets[j])][1]
            self.pairs[(i, j)] = p if (i, j) not in self.pairs else self.pairs[(i, j)] + p
        self.chunks += 1
        self.moments = {name: contrast_moments(self.tallies, self.pairs, c)
                        for name, c in CONTRASTS.items()}

    @property
    def n(self) -> int:
        """Games played (under each of the four rule sets)."""
        return 0 if self.tallies[0] is None else self.tallies[0].n_games

    @property
    def label(self) -> str:
        """``A + B``."""
        return f"{self.a.label} + {self.b.label}"

    def estimate(self, name: str) -> Estimate:
        """A figure of `cuttle.figures.INTERACTION` with its interval."""
        return INTERACTION[canonical(name, INTERACTION, "statistic")].estimate(
            self, self.confidence)

    @property
    def half_width(self) -> float:
        """Half the width of the interaction's interval (inf before any game)."""
        e = self.estimate("interaction")
        w = (e.high - e.low) / 2
        return w if isfinite(w) else float("inf")

    def __repr__(self):
        return f"<Interaction {self.label}: {self.n:,} games, {self.status}>"


def measure(interactions: Sequence[Interaction], player: ChunkPlayer, *, target: float,
            max_chunks: int, first: int = 0,
            status: Callable[[dict[str, Any]], object] | None = None) -> list[Interaction]:
    """Play `interactions` chunk by chunk from chunk `first` (all active ones on the same
    games, one compare call per chunk) until each interaction's half-width is at most
    `target` or it has played `max_chunks`; those the player cannot finish (reading
    only) are "unfinished".  Returns them."""
    c = 0
    while True:
        active = [x for x in interactions if x.status == PLAYING]
        if not active:
            return list(interactions)
        # (the pairs whose records of the chunk the file holds are read)
        read = sum(player.holds(first + c, x.records()) for x in active)
        info = {"stage": "interactions", "chunk": c, "playing": len(active),
                "total": len(interactions), "read": read, "played": len(active) - read}
        wanted = [r for x in active for r in x.records()]
        got = player.records(first + c, wanted, None if status is None else
                             (lambda done, total: status(dict(info, done=done, count=total))))
        if got is None:
            for x in active:
                x.status = UNFINISHED
            return list(interactions)
        for x in active:
            x.add(got)
            if x.half_width <= target:
                x.status = CONVERGED
            elif x.chunks >= max_chunks:
                x.status = CAPPED
        c += 1
        if status is not None:
            status(dict(info, playing=sum(x.status == PLAYING for x in interactions),
                        finished=True))
