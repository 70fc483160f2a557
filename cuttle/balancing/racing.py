"""The race: candidates played chunk by chunk on the same games, the ones that cannot be
the fairest of their size dropped as soon as that is clear.

After each chunk (a *look*) every candidate still in the race gets intervals at the
*simultaneous* level of `simultaneous_level`: Bonferroni's correction over every look
the race may take (its cap in chunks), every candidate it may hold and every statistic
it tests, so that with probability at least `confidence` every interval of every look
holds at once.  On that event no decision below is wrong:

* a candidate whose games so far were all draws is *drawn*, out of the race: it decides
  no game, so its 50% says nothing of fairness (`constraints.all_draws`: a fact of its
  games, not an interval; a rule set that drew a whole chunk is no game a designer
  wants, whatever a few more chunks would show);
* a candidate whose draw rate is surely above the limit, or whose mean length is surely
  outside the range, is *infeasible*;
* the distance of a candidate's first-player score from 50% lies in
  ``[dist_low, dist_high]`` (0 when the interval holds 50%); a candidate whose
  ``dist_low`` exceeds the smallest ``dist_high`` among the *surely feasible* candidates
  of its size still standing (their intervals of draws and length lie within the
  constraints; without constraints, every candidate) is *eliminated*: another candidate
  of its size is surely fairer and meets the constraints, so the fairest feasible one is
  never eliminated (one that only might meet them eliminates nothing: it may yet turn
  out infeasible);
* a candidate stops playing once its score interval's half-width is at most the
  target (*converged*), when it is the last of its size still standing (*won*), or at
  its cap (*capped*).

The decisions depend only on the tallies, so a resumed race takes the same ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..validation import check_confidence
from .constraints import all_draws, measured

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from ..stats import Estimate
    from .results import Measure

__all__ = ["CAPPED", "CONVERGED", "DRAWN", "ELIMINATED", "INFEASIBLE", "OUT", "PLAYING",
           "STOPPED", "UNFINISHED", "WON", "Entry", "distance", "look",
           "simultaneous_level", "winners"]

PLAYING, CONVERGED, CAPPED, WON = "playing", "converged", "capped", "won"
ELIMINATED, INFEASIBLE, UNFINISHED = "eliminated", "infeasible", "unfinished"
DRAWN = "drawn"
STOPPED = (CONVERGED, CAPPED, WON)           # out of the race, still standing
OUT = (ELIMINATED, INFEASIBLE, DRAWN)        # out of the race, beaten


def simultaneous_level(confidence: float, candidates: int, looks: int,
                       statistics: int = 1) -> float:
    """The level of each interval so that all of them, over `looks` looks at up to
    `candidates` candidates and `statistics` statistics each, hold together with
    probability at least `confidence` (Bonferroni)."""
    confidence = check_confidence(confidence)
    tests = max(1, candidates) * max(1, looks) * max(1, statistics)
    return 1.0 - (1.0 - confidence) / tests


def distance(e: Estimate) -> tuple[float, float]:
    """(low, high) bounds of |score - 1/2| from an interval of the score."""
    low = 0.0 if e.low <= 0.5 <= e.high else min(abs(e.low - 0.5), abs(e.high - 0.5))
    return low, max(abs(e.low - 0.5), abs(e.high - 0.5))


class Entry:
    """One candidate in the race: its `size` (the group it competes in), its `measure`
    (games so far), `status` and `chunks` played."""

    __slots__ = ("key", "size", "measure", "status", "chunks")

    def __init__(self, key: object, size: int, measure: Measure):
        self.key, self.size, self.measure = key, size, measure
        self.status, self.chunks = PLAYING, 0

    def __repr__(self):
        return f"<Entry {self.key}: size {self.size}, {self.measure.n:,} games, {self.status}>"


def look(entries: Sequence[Entry], *, level: float, target: float, max_chunks: int,
         max_draws: float | None = None,
         moves: tuple[float, float] | None = None) -> None:
    """One look after a chunk: update the entries' statuses (see the module docstring).
    `level`: the simultaneous level; `target`: the half-width of the score interval at
    which a candidate stops; `max_chunks`: its cap."""
    standing = [e for e in entries if e.status not in OUT and e.measure.n]
    for e in standing:
        if all_draws(e.measure):
            e.status = DRAWN
        elif "broken" in measured(e.measure, level, max_draws, moves).values():
            e.status = INFEASIBLE
    standing = [e for e in standing if e.status not in OUT]
    bounds = {id(e): distance(e.measure.estimate("first_score", level)) for e in standing}
    for size in {e.size for e in standing}:
        group = [e for e in standing if e.size == size]
        best_high = min([bounds[id(e)][1] for e in group
                         if all(v == "met" for v in
                                measured(e.measure, level, max_draws, moves).values())],
                        default=float("inf"))
        for e in group:
            if bounds[id(e)][0] > best_high:
                e.status = ELIMINATED
    for e in standing:
        if e.status != PLAYING:
            continue
        score = e.measure.estimate("first_score", level)
        rivals = [x for x in standing if x.size == e.size and x is not e and
                  x.status not in OUT]
        if (score.high - score.low) / 2 <= target:
            e.status = CONVERGED
        elif not rivals:
            e.status = WON
        elif e.chunks >= max_chunks:
            e.status = CAPPED


def winners(entries: Iterable[Entry]) -> dict[int, Entry]:
    """{size: the standing entry of that size whose score is nearest 50%}."""
    best: dict[int, Entry] = {}
    for e in entries:
        if e.status in OUT or not e.measure.n:
            continue
        d = abs(e.measure.estimate("first_score").value - 0.5)
        if e.size not in best or d < abs(best[e.size].measure.estimate("first_score").value
                                         - 0.5):
            best[e.size] = e
    return best
