"""Move analysis: which move is best here, and how sure are we?

`analyse`: every legal move of the player to decide is scored by playouts from
determinizations of that player's view (so the analysis never peeks at hidden cards),
run natively on all cores.  Rollout k of every move uses the same random stream (common
random numbers), so moves are compared on the same samples and results do not depend on
the thread count.

`SearchAnalysis`: every legal move valued by the strong search instead, the result of
`cuttle.analyse_search` (the game review's search engines, ``ismcts:N`` and
``ismcts-infer:N``: searches from the same view whose root is forced to the move),
beside the root visits of one free search (what the bot itself would play).
"""

from __future__ import annotations

import copy
import dataclasses
import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._rollouts import rollouts as _rollouts
from .display import render
from .errors import Interrupted
from .figures import ANALYSIS
from .formatting import listed
from .moves import Move
from .policies import PLAIN_POLICIES, is_search, policy_code
from .game import check_view
from .seeding import seed_or_new
from .threads import check_threads
from .validation import check_cancel, check_confidence, check_count

if TYPE_CHECKING:
    from collections.abc import Callable

    from .game import Game
    from .review.engines import Engine, MoveValues
    from .stats import Estimate

PLAYOUT_POLICIES = PLAIN_POLICIES          # a search in every playout would be far too slow


CALL_ROLLOUTS = 1 << 18     # rollouts per native call at most, over all moves (memory)
FIRST_CALL = 1 << 10        # the first call's rollouts; the next take about CALL_SECONDS
CALL_SECONDS = 0.25         # (Ctrl-C keeps the finished calls: a call is a moment's work)
HINT_NAMED = 3              # moves a hint names beside the best (more: only their number)


@dataclass(frozen=True)
class MoveStats:
    """One move's playouts: `rollouts` run, `wins` and `draws` of the player to decide;
    its figures (`cuttle.figures.ANALYSIS`) are `score` (with its interval:
    `score_estimate`), `win_rate` and `draw_rate`, their intervals at `confidence`."""

    move: Move
    rollouts: int
    wins: int
    draws: int
    confidence: float = 0.95

    def __post_init__(self) -> None:
        check_confidence(self.confidence)

    @property
    def losses(self) -> int:
        """Playouts lost by the player to decide."""
        return self.rollouts - self.wins - self.draws

    @property
    def win_rate(self) -> Estimate:
        """(rate, low, high): the decider's win rate with its Wilson interval."""
        return ANALYSIS["win_rate"].estimate(self, self.confidence)

    @property
    def draw_rate(self) -> Estimate:
        """(rate, low, high): the share of drawn playouts, Wilson interval."""
        return ANALYSIS["draw_rate"].estimate(self, self.confidence)

    @property
    def score(self) -> float:
        """Wins plus half the draws, per rollout (nan without rollouts): what the moves
        are ranked by."""
        return self.score_estimate.value

    @property
    def score_estimate(self) -> Estimate:
        """(score, low, high): the score with its normal interval, the mean of a value
        per rollout (a win 1, a draw 1/2, a loss 0), as a player's score in a summary."""
        return ANALYSIS["score"].estimate(self, self.confidence)


class Analysis:
    """The result of `analyse`: one `MoveStats` per legal move, best first: by score
    among the moves with the most rollouts (under ``adaptive``, the last round's
    contenders: a move dropped in an earlier round, on fewer rollouts, ranks below them
    whatever its noisier score), then the others the same way.  `confidence`: the level
    of its intervals (its rows')."""

    def __init__(self, game: Game, player: int, rows: list[MoveStats], policy: str,
                 seed: int, elapsed: float, adaptive: bool,
                 confidence: float = 0.95) -> None:
        self.player = player
        self.confidence = check_confidence(confidence)
        rows = [r if r.confidence == self.confidence else
                dataclasses.replace(r, confidence=self.confidence) for r in rows]
        # Best first; the moves of each round of successive halving are played in
        # step, so the rollouts say how far a move got (moves without any, from an
        # interrupted analysis, last).
        self.rows = sorted(rows, key=lambda r: (-r.rollouts, -r.score if r.rollouts else 0,
                                                str(r.move)))
        self.policy = policy
        self.seed = seed
        self.elapsed = elapsed
        self.adaptive = adaptive
        self.phase = game.phase

    @property
    def best(self) -> Move:
        """The move with the highest score (wins plus half the draws) of those with the
        most rollouts (with ``adaptive``: of the last round's contenders)."""
        return self.rows[0].move

    @property
    def close_to_best(self) -> list[Move]:
        """The other moves whose score interval overlaps the best move's, in the rows'
        order: the playouts do not tell them apart from it (none without playouts); a
        move with too few playouts for an interval (one) is told apart from none."""
        if not self.rows or not self.rows[0].rollouts:
            return []
        best = self.rows[0].score_estimate

        def apart(e: Estimate) -> bool:
            return e.high < best.low or e.low > best.high      # (False where nan)
        return [r.move for r in self.rows[1:] if r.rollouts and not apart(r.score_estimate)]

    def hint(self, label: Callable[[Move], str] = str) -> str:
        """The best move in words, saying so when other moves' intervals overlap its
        (`close_to_best`): "points 7H", "points 7H, not clearly better than draw or
        scuttle 9C 8D (the intervals overlap)", or, past a few such moves, "points 7H,
        though no move is clearly best (the intervals of 5 other moves overlap its)", or
        where a move's playouts give no interval, "draw, though no move is clearly best
        (1 playout per move is too few for an interval)".
        `label` writes a move (`cuttle play` adds its number)."""
        best, close = label(self.best), [label(m) for m in self.close_to_best]
        if not close:
            return best
        few = [r.rollouts for r in self.rows if r.rollouts and
               math.isnan(r.score_estimate.low)]
        if few:
            n = min(few)
            return (f"{best}, though no move is clearly best ({n:,} playout"
                    f"{'s' if n != 1 else ''} per move {'is' if n == 1 else 'are'} too few "
                    f"for an interval)")
        if len(close) > HINT_NAMED:
            return (f"{best}, though no move is clearly best (the intervals of "
                    f"{len(close)} other moves overlap its)")
        others = listed(close, "or")
        return f"{best}, not clearly better than {others} (the intervals overlap)"

    @property
    def total_rollouts(self) -> int:
        """Playouts run, over all moves."""
        return sum(r.rollouts for r in self.rows)

    @property
    def rollouts_per_second(self) -> float:
        """Playouts per second of wall time."""
        return self.total_rollouts / self.elapsed if self.elapsed > 0 else math.inf

    def without_seed(self) -> Analysis:
        """A copy that shows no seed (``seed`` None): a hint's seed is derived from its
        game's, and the derivation can be inverted, so it would give away the deal (and
        every hidden card) as the game's own seed would."""
        a = copy.copy(self)
        a.seed = None
        return a

    def __getitem__(self, move) -> MoveStats:
        move = Move.parse(move)
        for r in self.rows:
            if r.move == move:
                return r
        raise KeyError(str(move))

    def as_dict(self) -> dict[str, Any]:
        """The analysis as JSON-ready data (what `cuttle analyse --json` prints)."""
        return render("data", self)

    def __str__(self):
        return render("text", self)

    def _repr_html_(self):
        return render("html", self)

    def __repr__(self):
        return f"<Analysis best={str(self.best)!r} over {len(self.rows)} moves>"


def _playout_code(policy: str) -> int:
    """The code of the playouts' policy; ValueError, listing the playouts' policies
    only, for a search or an unknown name (the library's list of every policy offered
    searches the playouts refuse)."""
    try:
        code = policy_code(policy)
    except ValueError:
        code = None
    if code is None or is_search(policy):
        raise ValueError(
            f"analysis playouts use {', '.join(map(repr, PLAYOUT_POLICIES))}, not "
            f"{policy!r}" + ("" if code is None else
                             " (a search bot inside every playout would be far too slow; "
                             "cuttle.analyse_search ranks the moves by the search "
                             "itself, as `cuttle analyse --engine` does)"))
    return code


def analyse(game: Game, rollouts: int = 10000, policy: str = "random",
            threads: int | None = None, seed: int | None = None,
            adaptive: bool = False, cancel: Any = None,
            confidence: float = 0.95) -> Analysis:
    """Evaluate every legal move of the player to decide by determinized playouts.

    rollouts: playouts per move.  With ``adaptive=True`` the moves compete by successive
    halving: each round gives every surviving move an equal share and drops the worse
    half, so only the final contenders get all `rollouts` (about 2 n / log2 n times
    fewer games for n moves) while the best move is still found.
    policy: a policy that does not search, "random", "greedy", "expert" or
    "cuttle.cards-ai" (both players in the playouts; expert playouts are closer to real
    play and about eight times slower than greedy ones; cuttle.cards-ai reads the sample's
    hidden cards, as a full-information reference, and is slower still).
    cancel: a threading.Event (or a callable returning True) checked between native
    calls (each about a quarter of a second).  Ctrl-C or cancel raise
    `cuttle.Interrupted` whose `result` is the `Analysis` of the rollouts finished.
    confidence: the level of every interval (of each move's score, win rate and draw
    rate), between 0 and 1 exclusive.  ValueError for a game replayed from a record
    that does not give the decider's view (cards not seen: `cuttle.game.check_view`).
    """
    if check_view(game).is_over:
        raise ValueError("the game is over: there is nothing to analyse")
    rollouts = check_count(rollouts, "rollouts")
    threads = check_threads(threads)
    code = _playout_code(policy)
    confidence = check_confidence(confidence)
    seed = seed_or_new(seed)
    stop = check_cancel(cancel)
    moves = list(game.legal_moves)
    codes = [m.code for m in moves]
    done = {c: 0 for c in codes}
    wins = {c: 0 for c in codes}
    draws = {c: 0 for c in codes}
    me = game.to_move
    start = time.perf_counter()
    call = min(FIRST_CALL, CALL_ROLLOUTS)       # rollouts of the next native call

    def run(batch, target):
        # Rollouts lo..target-1 for every move that needs them, the same streams for all
        # (common random numbers), in calls of bounded size and time: memory stays flat
        # and Ctrl-C keeps the finished calls (results do not depend on the sizes).
        nonlocal call
        need = [c for c in batch if done[c] < target]
        while need:
            if stop is not None and stop():
                raise KeyboardInterrupt     # (kept as Ctrl-C keeps it, below)
            lo = min(done[c] for c in need)
            hi = min(target, lo + max(1, call // len(need)))
            began = time.perf_counter()
            out = _rollouts(game, need, lo, hi - lo, seed, code, threads)
            rate = (hi - lo) * len(need) / max(time.perf_counter() - began, 1e-6)
            call = int(min(CALL_ROLLOUTS, max(FIRST_CALL, rate * CALL_SECONDS)))
            for row, c in zip(out, need):
                fresh = row[done[c] - lo:]
                wins[c] += int((fresh == me).sum())
                draws[c] += int((fresh < 0).sum())
                done[c] = hi
            need = [c for c in need if done[c] < target]

    def result():
        rows = [MoveStats(m, done[c], wins[c], draws[c], confidence)
                for m, c in zip(moves, codes)]
        return Analysis(game, me, rows, policy, seed, time.perf_counter() - start,
                        bool(adaptive), confidence)

    plan = _rounds(len(codes), rollouts, bool(adaptive))
    try:
        alive = list(codes)
        for k, (keep, target) in enumerate(plan):
            if k:       # successive halving: the better moves go on
                alive.sort(key=lambda c: -(wins[c] + 0.5 * draws[c]) / done[c])
                alive = alive[:keep]
            run(alive, target)
    except KeyboardInterrupt:
        partial = result()
        # (not rollouts x moves: under adaptive the dropped moves stop early)
        raise Interrupted(partial, partial.total_rollouts, _planned_rollouts(plan),
                          "rollout") from None
    return result()

analyze = analyse


def _rounds(n_moves: int, rollouts: int, adaptive: bool) -> list[tuple[int, int]]:
    """The rounds of an analysis of `n_moves` moves: (moves playing, the rollouts each
    has after the round).  One round of every move; with `adaptive` (and more than two
    moves), ceil(log2 n) rounds of successive halving, each keeping the better half."""
    if not adaptive or n_moves <= 2:
        return [(n_moves, rollouts)]
    rounds = math.ceil(math.log2(n_moves))
    plan, alive = [], n_moves
    for k in range(1, rounds + 1):
        plan.append((alive, max(1, rollouts * k // rounds)))
        alive = max(1, math.ceil(alive / 2))
    return plan


def _planned_rollouts(plan: list[tuple[int, int]]) -> int:
    """The rollouts of an uninterrupted analysis of `plan` (`_rounds`): each round tops
    its moves up to its target."""
    total, before = 0, 0
    for keep, target in plan:
        total += keep * (target - before)
        before = target
    return total


# -- search analysis ---------------------------------------------------------------------

@dataclass(frozen=True)
class SearchRow:
    """One move of a search analysis: `value`, the mean of its `searches` forced
    searches (the decider's expected score as the search estimates it, its cut-off
    playouts included: not a playout win rate; nan without searches); `loss`, the best
    move's value minus its own (0 for the best), and its bounds `loss_low`,
    `loss_high` (two standard errors of the paired searches either side, within 0 and
    1; for the best move, 0 up to the most another move may be worth more), as the
    review bounds a loss; `visits`, the root visits the move got in the free search."""

    move: Move
    value: float
    searches: int
    loss: float
    loss_low: float
    loss_high: float
    visits: int


class SearchAnalysis:
    """The result of `cuttle.analyse_search`: one `SearchRow` per legal move, best
    first (by value; moves without searches, from an interrupted analysis, last), the
    `engine` (an `Engine`, ``from cuttle.review import Engine``), `player`, `seed` and
    `elapsed` seconds; `visits_total`, the iterations of the free search (each a root visit; fewer than N where an
    ``ismcts-infer`` search stopped once its choice was settled); `played`, the move
    refined as the review refines the move played (None: none was)."""

    def __init__(self, game: Game, player: int, rows: list[SearchRow], engine: Engine,
                 seed: int | None, elapsed: float, visits_total: int,
                 played: Move | None = None) -> None:
        self.player = player
        self.rows = sorted(rows, key=lambda r: (not r.searches, -r.value if r.searches
                                                else 0, -r.searches))
        self.engine = engine
        self.seed = seed
        self.elapsed = elapsed
        self.visits_total = visits_total
        self.played = played
        self.phase = game.phase

    @property
    def best(self) -> Move:
        """The move with the highest value."""
        return self.rows[0].move

    @property
    def iterations(self) -> int:
        """The iterations of each search (the N of ``ismcts:N``)."""
        return int(self.engine.name.partition(":")[2])

    @property
    def most_visited(self) -> Move:
        """The free search's choice: its most visited root move (the first in the rows'
        order among equals)."""
        return max(self.rows, key=lambda r: r.visits).move

    @property
    def close_to_best(self) -> list[Move]:
        """The other moves whose loss may be 0 (its bounds reach it): the searches do
        not set them apart from the best (none without searches)."""
        return [r.move for r in self.rows[1:] if r.searches and r.loss_low <= 0.0]

    @property
    def total_searches(self) -> int:
        """Forced searches run, over all moves."""
        return sum(r.searches for r in self.rows)

    def share(self, row: SearchRow) -> float:
        """A row's share of the free search's root visits (nan without any)."""
        return row.visits / self.visits_total if self.visits_total else math.nan

    def __getitem__(self, move) -> SearchRow:
        move = Move.parse(move)
        for r in self.rows:
            if r.move == move:
                return r
        raise KeyError(str(move))

    def without_seed(self) -> SearchAnalysis:
        """A copy that shows no seed (``seed`` None), as `Analysis.without_seed`."""
        a = copy.copy(self)
        a.seed = None
        return a

    def as_dict(self) -> dict[str, Any]:
        """The analysis as JSON-ready data (what ``cuttle analyse --engine E --json``
        prints)."""
        return render("data", self)

    def __str__(self):
        return render("text", self)

    def _repr_html_(self):
        return render("html", self)

    def __repr__(self):
        return (f"<SearchAnalysis {self.engine.name} best={str(self.best)!r} over "
                f"{len(self.rows)} moves>")


def search_rows(moves: list[Move], values: MoveValues,
                visits: dict[int, int]) -> list[SearchRow]:
    """The rows of a search analysis of `moves` (the legal moves, in their order): each
    move's value, loss and bounds against the best (the review's
    `MoveValues.loss_bounds`) from `values`, and its visits (by move code)."""
    have = [k for k in range(len(moves)) if values.n[k]]
    b = values.best(have[0]) if len(have) == len(moves) else \
        max(have, key=values.mean) if have else None
    rows = []
    for k, m in enumerate(moves):
        if b is None or not values.n[k]:
            loss = low = high = math.nan
        else:
            loss = values.mean(b) - values.mean(k)
            low, high = values.loss_bounds(k, b)
        rows.append(SearchRow(m, values.mean(k), int(values.n[k]), loss, low, high,
                              int(visits.get(m.code, 0))))
    return rows
