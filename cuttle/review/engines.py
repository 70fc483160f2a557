"""The review's engines: how every legal move of one decision is valued from the mover's
own view, with a budget that adapts to how close the moves are.

* ``expert`` (``expert:N``): playouts by the expert policy for both players;
* ``rollouts:N``: random playouts;
* ``ismcts:N``: searches of N iterations, each with its root forced to the move
  (`cuttle._review.forced_searches`);
* ``ismcts-infer:N``: the same searches with ismcts-infer's settings, its deals of the
  opponent's hand weighed by the opponent's decisions in the game so far, as a bot in
  the mover's seat would have seen them (nothing the mover did not see).

A *sample* of a move is one playout (its result for the mover: 1, 1/2 or 0) or one
forced search (its mean result for the mover).  Sample k of every move of a decision
starts from the same determinization stream (common random numbers), so moves are
compared on the same deals of the unknown cards.  The budget: every legal move gets
`base` samples; then, in rounds, the best move, every move still within `Z` standard
errors of it (on the paired differences, an error never 0: `MoveValues.paired`) and the
move played while its label is not settled get more samples (doubling), up to `cap` per
move.  The same engines value a position's moves where no move was played
(`cuttle.analyse_search`, ``cuttle analyse --engine``): only the contenders are
refined then.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .._rollouts import rollouts as _rollouts
from .._review import forced_searches as _forced_searches
from .._policies import POLICY_SHIFT
from ..policies import (DEFAULT_ISMCTS_ITERATIONS, MAX_ISMCTS_ITERATIONS, PLAIN_POLICIES,
                        policy_code)
from ..stats import paired_shift_error
from ..text import quoted

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..game import Game
    from .figures import Thresholds

__all__ = ["ENGINE_NAMES", "SEARCH_ENGINES", "Engine", "MoveValues", "Z", "evaluate",
           "parse_engine", "search_engine"]

ENGINE_NAMES = ("expert[:N]", "rollouts[:N]", "ismcts[:N]",
                "ismcts-infer[:N]")         # (N left out: its default)
SEARCH_ENGINES = ("ismcts[:N]", "ismcts-infer[:N]")     # the engines that search
DEFAULT_ENGINE = "expert"     # the engine of a review when none is named
Z = 2.0                     # standard errors within which two moves count as close
CALL_PLAYOUTS = 4096        # playouts of one native call (over all its moves) ...
CALL_ITERATIONS = 1 << 16   # ... or search iterations: a few tenths of a second at most
DEFAULT_ROLLOUTS = 1000
MAX_PLAYOUTS = 1 << 16      # the largest base of a playout engine (its cap is 8 times it)
# The search engines (the policy of the same name, forced): what their text adds, and
# their set-up in iterations' worth (ismcts-infer weighs 64 candidate hands by up to 12
# decisions of the opponent before it searches: up to 2.5 ms measured, 800 iterations).
SEARCHES = {"ismcts": ("", 0),
            "ismcts-infer": (", the opponent's hand weighed by its moves before the decision",
                             1000)}


@dataclass(frozen=True)
class Engine:
    """How a review values moves: `kind` "playouts" (policy `code` for both players
    from each determinization) or "search" (forced searches of policy `code`); each
    move gets `base` samples, at most `cap`; the hindsight line plays
    `hindsight_samples` playouts of policy `hindsight_code` from the true position.
    `setup`: what a search spends before its iterations, in iterations (ismcts-infer
    weighs its candidate hands of the opponent), for the size of a native call."""

    name: str
    kind: str
    code: int
    base: int
    cap: int
    hindsight_code: int
    hindsight_samples: int
    description: str
    setup: int = 0

    @property
    def unit(self) -> str:
        """What one sample is: "playout" or "search"."""
        return "search" if self.kind == "search" else "playout"

    @property
    def step(self) -> float:
        """How far one game's score, changed from a loss to a win, moves a sample: 1 for
        a playout (one game), 1/N for a search of N iterations (the mean of N games'
        scores); the size of `MoveValues.paired`'s pseudo-differences."""
        return 1.0 / (self.code >> POLICY_SHIFT) if self.kind == "search" else 1.0

    def call_size(self) -> int:
        """Samples (over all moves) of one native call, small enough that a cancel is
        seen within a few tenths of a second (Ctrl-C stops the call itself); a call
        holds at least two searches, so above 32,768 iterations it takes about the time
        of two searches (a second per 200,000 iterations or so on one thread)."""
        if self.kind == "search":
            return max(2, CALL_ITERATIONS // ((self.code >> POLICY_SHIFT) + self.setup))
        return CALL_PLAYOUTS


def _count(text, param, default, limit, spec):
    if param is None:
        return default
    p = param.strip().replace("_", "")
    if not (p.isascii() and p.isdigit()) or not 1 <= int(p) <= limit:
        raise ValueError(f"bad count in engine {quoted(spec)}: use e.g. '{text}:{default}' "
                         f"(1 to {limit:,})")
    return int(p)


def parse_engine(spec: str | Engine) -> Engine:
    """An Engine from its name: ``expert`` (or ``expert:N``, N playouts per move in the
    first round, default 256), ``rollouts:N`` (random playouts, default 1000),
    ``ismcts:N`` (forced searches of N iterations, default 1000) or ``ismcts-infer:N``
    (the same with the inferring search, which reads the opponent's decisions from the
    game's moves before the decision); ValueError naming the valid ones otherwise.

    >>> parse_engine("ismcts:500").name, parse_engine("expert").base
    ('ismcts:500', 256)
    """
    if isinstance(spec, Engine):
        return spec
    if not isinstance(spec, str):
        raise ValueError(f"an engine is a name like 'expert' or 'ismcts:1000', not "
                         f"{quoted(spec)}")
    kind, colon, param = spec.strip().lower().partition(":")
    param = param if colon else None        # ("ismcts:" has a count missing: refused)
    expert, rnd = policy_code("expert"), policy_code("random")
    if kind == "expert":
        n = _count(kind, param, 256, MAX_PLAYOUTS, spec)
        return Engine(f"expert:{n}" if colon else "expert", "playouts", expert, n, 8 * n,
                      expert, 64, f"expert playouts from the mover's view, {n} to {8 * n} "
                                  f"per move")
    if kind == "rollouts":
        n = _count("rollouts", param, DEFAULT_ROLLOUTS, MAX_PLAYOUTS, spec)
        return Engine(f"rollouts:{n}", "playouts", rnd, n, 8 * n, rnd, 256,
                      f"random playouts from the mover's view, {n} to {8 * n} per move")
    if kind in SEARCHES:
        n = _count(kind, param, DEFAULT_ISMCTS_ITERATIONS, MAX_ISMCTS_ITERATIONS, spec)
        adds, setup = SEARCHES[kind]
        return Engine(f"{kind}:{n}", "search", policy_code(f"{kind}:{n}"), 2, 16, expert,
                      64, f"ISMCTS searches of {n:,} iterations from the mover's view with "
                          f"the move forced at the root{adds}, 2 to 16 per move", setup)
    raise ValueError(f"unknown engine {quoted(spec)}; valid: {', '.join(ENGINE_NAMES)}")


def search_engine(spec: str | Engine) -> Engine:
    """The engine named `spec` (`parse_engine`) if it searches (``ismcts:N``,
    ``ismcts-infer:N``: `cuttle.analyse_search` takes those); ValueError
    naming them otherwise (a playout engine's playouts are `cuttle.analyse`'s policy).

    >>> search_engine("ismcts").name
    'ismcts:1000'
    """
    kind = spec.partition(":")[0].strip().lower() if isinstance(spec, str) else None
    if kind is not None and kind not in SEARCHES:
        raise ValueError(f"a search analysis takes a search engine, "
                         f"{' or '.join(SEARCH_ENGINES)}, not {quoted(spec)} (playouts are "
                         f"cuttle.analyse's policy: {', '.join(PLAIN_POLICIES)})")
    eng = parse_engine(spec)        # (a count's errors; an Engine checked below)
    if eng.kind != "search":
        raise ValueError(f"a search analysis takes a search engine, "
                         f"{' or '.join(SEARCH_ENGINES)}, not {quoted(eng.name)}")
    return eng


class MoveValues:
    """The samples of every legal move of one decision, in legal-move order: `n[i]`
    samples of move i so far, `samples(i)` their values (each move's array grows with
    its own samples only, so memory follows the samples spent, not the cap); `step`:
    the engine's (`Engine.step`)."""

    def __init__(self, codes: list[int], step: float = 1.0) -> None:
        self.codes = codes
        self.step = step
        self.n = [0] * len(codes)
        self._values = [np.empty(0, np.float32) for _ in codes]

    def add(self, i: int, first: int, values: np.ndarray) -> None:
        """Store samples first.. of move i (first is n[i]: samples arrive in order)."""
        end = first + len(values)
        if end > len(self._values[i]):
            grown = np.empty(max(end, 2 * len(self._values[i])), np.float32)
            grown[:first] = self._values[i][:first]
            self._values[i] = grown
        self._values[i][first:end] = values
        self.n[i] = end

    def samples(self, i: int) -> np.ndarray:
        """Move i's samples so far."""
        return self._values[i][:self.n[i]]

    def mean(self, i: int) -> float:
        """Move i's mean sample (its expected score for the mover)."""
        return float(self.samples(i).mean(dtype=np.float64)) if self.n[i] else math.nan

    def paired(self, i: int, j: int) -> tuple[float, float]:
        """(mean, standard error) of move i's samples minus move j's on their common
        samples (inf for fewer than two), the error with a pseudo-difference of +`step`
        and one of -`step` (`stats.paired_shift_error`: one game more, its score changed
        from a loss to a win or back, as the figures' score shifts take it): two moves
        whose samples agree on every common one differ by nothing the samples show, not
        by nothing at all (about 1.4 `step` / m for m samples)."""
        m = min(self.n[i], self.n[j])
        if m == 0:
            return math.nan, math.inf
        d = self.samples(i)[:m].astype(np.float64) - self.samples(j)[:m]
        return float(d.mean()), paired_shift_error(m, float(d.sum()), float(d @ d), self.step)

    def loss_bounds(self, played: int, best: int) -> tuple[float, float]:
        """(low, high): the bounds of the loss of move `played` (`best`: the move with the
        highest mean), `Z` standard errors of the paired differences (on the two moves'
        common samples, `paired`: never 0) either side of it, clipped to [0, 1].  For a
        move that is not the best: the difference to the best move.  For the best move
        itself (a loss of 0): from 0 up to the most that any other move may be worth
        more, so not 0 even where every move's samples agree."""
        if played != best:
            _, se = self.paired(best, played)
            d = self.mean(best) - self.mean(played)
            return max(0.0, min(1.0, d - Z * se)), max(0.0, min(1.0, d + Z * se))
        high = 0.0
        for j in range(len(self.codes)):
            if j != played:
                d, se = self.paired(j, played)
                high = max(high, min(1.0, d + Z * se))
        return 0.0, high

    def best(self, prefer: int) -> int:
        """The move with the highest mean (ties: `prefer`, then the first)."""
        means = [self.mean(i) for i in range(len(self.codes))]
        top = max(means)
        return prefer if means[prefer] == top else means.index(top)


def evaluate(game: Game, played: int | None, engine: Engine, seed: int, threads: int,
             thresholds: Thresholds, check: Callable[[], None] | None = None,
             values: MoveValues | None = None) -> MoveValues:
    """The samples of every legal move of `game`'s decider (`played`: the index of the
    move played among them, or None where no move was played: only the contenders are
    refined), spent adaptively (see the module's docstring).  `check` runs before each
    native call (it raises to stop).  `values`: an empty MoveValues of the legal moves
    to fill (the caller keeps the samples finished when a stop cuts the work short)."""
    codes = [m.code for m in game.legal_moves]
    mv = MoveValues(codes, engine.step) if values is None else values
    if mv.codes != codes or any(mv.n):
        raise ValueError("values must be an empty MoveValues of the game's legal moves")
    me = game.to_move
    step = engine.call_size()

    def fill(rows: list[int], target: int) -> None:
        # Samples n..target-1 of each row, rows at the same n in one call.
        while True:
            need = [i for i in rows if mv.n[i] < target]
            if not need:
                return
            lo = int(min(mv.n[i] for i in need))
            group = [i for i in need if mv.n[i] == lo]
            per = step // len(group)
            if per == 0:                   # more moves than a call's samples (a large
                group, per = group[:step], 1   # search): some of them per call
            count = min(target - lo, per)
            if check is not None:
                check()
            batch = [codes[i] for i in group]
            if engine.kind == "search":
                out = _forced_searches(game, batch, lo, count, seed, engine.code, threads)
            else:
                w = _rollouts(game, batch, lo, count, seed, engine.code, threads)
                out = (w == me) + 0.5 * (w < 0)
            for row, i in zip(out, group):
                mv.add(i, lo, row)

    fill(list(range(len(codes))), engine.base)
    while True:
        b = mv.best(0 if played is None else played)
        refine = set()
        for i in range(len(codes)):
            if i != b:
                d, se = mv.paired(b, i)
                if d < Z * se:                 # not clearly worse than the best
                    refine.add(i)
        if played is not None and played != b:
            d, se = mv.paired(b, played)
            if thresholds.label(max(0.0, d - Z * se)) != thresholds.label(d + Z * se):
                refine.add(played)             # its label is not settled yet
        if refine:
            refine |= {b} if played is None else {b, played}
        refine = [i for i in sorted(refine) if mv.n[i] < engine.cap]
        if not refine:
            return mv
        have = [int(mv.n[i]) for i in refine]
        fill(refine, min(engine.cap, max(2 * min(have), max(have))))
