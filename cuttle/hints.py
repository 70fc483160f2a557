"""The hint of `cuttle play` and the web app, one for both: the decider's moves ranked by
the game review's default engine (`review.engines.DEFAULT_ENGINE`, "expert": expert
playouts for both players from determinizations of the decider's view), so that a
player who follows a hint is judged by the same valuation afterwards.

A hint is `cuttle.analyse(game, rollouts, policy=HINT_POLICY, seed=hint_seed(game,
rollouts))`: the figures `cuttle analyse POSITION --policy expert --rollouts N --seed S`
prints for the position and that seed, where sample k of every move is the review's
sample k from the same seed (both call `_rollouts.rollouts` with the expert policy).  It
differs from the review's figures of that decision by its seed (derived from the game's,
which is secret while the game runs, so the hint never shows it) and its budget (a fixed
N playouts a move, where the review spends 256 to 2,048 as the moves are close): within
their noise, a pp or so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .analysis import analyse
from .seeding import derive

if TYPE_CHECKING:
    from .analysis import Analysis
    from .game import Game

__all__ = ["DEFAULT_HINT_ROLLOUTS", "HINT_POLICY", "hint", "hint_seed", "hint_words"]

# The playouts of the review's default engine ("expert": tests check they agree).
HINT_POLICY = "expert"
DEFAULT_HINT_ROLLOUTS = 1000    # playouts a move: under a second on one core, typically


def hint_seed(game: Game, rollouts: int) -> int:
    """The seed of a hint of `rollouts` playouts a move at `game`'s position: derived from
    the game's seed and the position's ply, so that the same hint asked again is the same
    (and secret as the game's seed is: it would give the deal away)."""
    return derive(game.seed, game.ply, rollouts)


def hint(game: Game, rollouts: int = DEFAULT_HINT_ROLLOUTS, *, policy: str = HINT_POLICY,
         threads: int | None = None, cancel: Any = None) -> Analysis:
    """The hint at `game`'s position: every legal move of the decider valued by
    `rollouts` playouts of `policy` (the review's engine's by default) from their view,
    seeded by `hint_seed`.  Ctrl-C or `cancel` raise `cuttle.Interrupted` with the
    playouts finished, as `cuttle.analyse` does; its ValueError for a view the game does
    not give (`cuttle.game.check_view`)."""
    return analyse(game, rollouts=rollouts, policy=policy, threads=threads,
                   seed=hint_seed(game, rollouts), cancel=cancel)


def hint_words(a: Analysis) -> str:
    """Which engine a hint used, in words: "By the game review's engine: expert playouts
    from your view, 1,000 a move"; another policy's playouts are said not to be the
    review's."""
    n = max((r.rollouts for r in a.rows), default=0)
    whose = "By the game review's engine" if a.policy == HINT_POLICY else \
        "Not by the game review's engine"
    return f"{whose}: {a.policy} playouts from your view, {n:,} a move"
