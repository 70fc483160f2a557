"""What a review says about a move and a player: the labels and their thresholds, the
per-move accuracy, and the per-player figures (one declaration, `PLAYER_FIGURES`, that
the text, the JSON and the page all read).

A move's **loss** is the mover's expected score (win + half a draw, from 0 to 1) of the
best move minus that of the move played, both valued from the mover's own view; the text
and the page print it in pp, percentage points of expected score (0.05: 5 pp), never
"points", which are a Cuttle player's score.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any

from ..text import quoted

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from .result import Decision

__all__ = ["ANNOTATIONS", "FORCED", "LABELS", "PLAYER_FIGURES", "STANDS_OUT", "Figure",
           "Thresholds", "figure_rows", "move_accuracy", "player_figures", "seat_words"]

# From the smallest loss up: "best" is the move the engine rates best, "near best" another
# within the `best` threshold of it (a difference the review's noise cannot tell from none).
LABELS = ("best", "near best", "good", "inaccuracy", "mistake", "blunder")
# Each threshold's label: a loss up to it (and above the one before) is labelled so.
_BANDS = (("best", "near best"), ("good", "good"), ("inaccuracy", "inaccuracy"),
          ("mistake", "mistake"))
FORCED = "forced"                   # a lone legal move: listed, not judged
ANNOTATIONS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
# The labels of a move that stands out as where a game was lost (`Review.where_lost`):
# more than an inaccuracy's loss (by default over 10 pp).
STANDS_OUT = ("mistake", "blunder")


@dataclass(frozen=True)
class Thresholds:
    """The largest loss (in expected score, 0 to 1) of each label; a larger loss than
    `mistake` is a blunder.  The defaults follow the chess sites' scale (an inaccuracy
    costs 5 to 10 pp of expected score, a mistake 10 to 15, a blunder more), with a
    tolerance of 1 pp, `best`, for "near best": a move that close to the best is equal to
    it within the review's noise (see docs/review.md), though the label "best" is the
    best move's alone.

    >>> t = Thresholds()
    >>> t.label(0.0, top=True), t.label(0.004), t.label(0.03), t.label(0.07), t.label(0.5)
    ('best', 'near best', 'good', 'inaccuracy', 'blunder')
    >>> Thresholds.coerce({"mistake": 0.25}).label(0.2)
    'mistake'
    """

    best: float = 0.01
    good: float = 0.05
    inaccuracy: float = 0.10
    mistake: float = 0.15

    def __post_init__(self):
        bounds = []
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool) or not isinstance(v, numbers.Real) or not 0 <= v <= 1:
                raise ValueError(f"threshold {f.name!r} must be a number from 0 to 1, "
                                 f"not {quoted(v)}")
            bounds.append(float(v))
        if bounds != sorted(bounds):
            given = ", ".join(f"{f.name}={b:g}" for f, b in zip(fields(self), bounds))
            raise ValueError(f"thresholds must grow from best to mistake, not {given} "
                             f"(the ones not given are the defaults)")

    @classmethod
    def coerce(cls, value: Thresholds | dict[str, float] | None) -> Thresholds:
        """Thresholds from None (the defaults), a Thresholds, or a dict of some of
        best, good, inaccuracy, mistake (the others keep their defaults)."""
        if value is None:
            return cls()
        if isinstance(value, cls):
            return value
        if isinstance(value, dict):
            names = {f.name for f in fields(cls)}
            unknown = sorted(set(value) - names)
            if unknown:
                raise ValueError(f"unknown threshold {quoted(unknown[0])}; valid: "
                                 f"{', '.join(f.name for f in fields(cls))}")
            return cls(**value)
        raise ValueError(f"thresholds must be a Thresholds, a dict or None, not "
                         f"{quoted(value)}")

    def label(self, loss: float, top: bool = False) -> str:
        """The label of a move that lost `loss` (its upper bounds are inclusive): "best"
        for the move the engine rates best (`top`), else by the loss, from "near best"
        (within the `best` threshold) to "blunder"."""
        if top:
            return LABELS[0]
        for bound, name in _BANDS:
            if loss <= getattr(self, bound):
                return name
        return LABELS[-1]

    def as_dict(self) -> dict[str, float]:
        """The thresholds by label."""
        return asdict(self)


def move_accuracy(loss: float) -> float:
    """A move's accuracy in percent from its loss: lichess's mapping of a drop in
    winning percentage, 103.1668 e^(-0.04354 d) - 3.1669 with d = 100 * loss, clipped
    to [0, 100] (100 for no loss, about 80 for 5 pp, 64 for 10, 25 for 30).

    >>> round(move_accuracy(0.0), 1), round(move_accuracy(0.1), 1)
    (100.0, 63.6)
    """
    return min(100.0, max(0.0, 103.1668 * math.exp(-4.354 * loss) - 3.1669))


@dataclass(frozen=True)
class Figure:
    """One per-player figure of a review: its key (in JSON), its label (in the text and
    the page), how it is computed from the player's decisions, and how it is shown."""

    key: str
    label: str
    compute: Callable[[Sequence[Decision]], Any]
    fmt: Callable[[Any], str]


def _judged(ds):
    return [d for d in ds if d.judged]


def _mean(values):
    values = list(values)
    return sum(values) / len(values) if values else None


def _maybe(fmt):
    return lambda v: "-" if v is None else fmt(v)


# The per-player figures, in the order they are shown.
PLAYER_FIGURES: tuple[Figure, ...] = (
    Figure("judged", "judged moves", lambda ds: len(_judged(ds)), "{:,}".format),
    Figure("forced", "forced moves", lambda ds: sum(d.label == FORCED for d in ds),
           "{:,}".format),
    Figure("average_loss", "average loss (pp)",
           lambda ds: _mean(d.loss for d in _judged(ds)), _maybe(lambda v: f"{100 * v:.1f}")),
    Figure("accuracy", "accuracy", lambda ds: _mean(d.accuracy for d in _judged(ds)),
           _maybe(lambda v: f"{v:.1f}%")),
    *(Figure(name.replace(" ", "_"), name,
             lambda ds, name=name: sum(d.label == name for d in ds), "{:,}".format)
      for name in LABELS),
    # a move that won at once was legal and another was played, whatever its loss
    Figure("missed_wins", "missed wins", lambda ds: sum(d.missed_win is not None for d in ds),
           "{:,}".format),
    # of the counts above, the labels whose loss's bounds span a threshold (each such
    # move's line says so; the counts alone would present them as sure)
    Figure("not_settled", "labels not settled",
           lambda ds: sum(not d.settled for d in _judged(ds)), "{:,}".format),
)


def player_figures(decisions: Sequence[Decision]) -> dict[str, Any]:
    """Every figure of `PLAYER_FIGURES` over one player's decisions, by key."""
    return {f.key: f.compute(decisions) for f in PLAYER_FIGURES}


def figure_rows(summaries: Sequence[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """The per-player figures as table rows: (label, each summary's value as text), in
    `PLAYER_FIGURES`' order (the review page's table)."""
    return [(f.label, [f.fmt(s.get(f.key)) for s in summaries]) for f in PLAYER_FIGURES]


def seat_words(p: int, name: str) -> str:
    """Player `p` as the subject of a sentence, whatever their label: ``P1 (bob)``,
    ``P1 (them)``, ``P0 (you)``; ``P1`` for the default label, ``player 1``.  No
    possessive follows it ("P1 them's" reads badly): say "P1 (bob) is ..." instead."""
    return f"P{p}" if name in (f"player {p}", f"P{p}", "") else f"P{p} ({name})"
