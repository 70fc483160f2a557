"""The designer's constraints, a largest draw rate and a range of mean lengths (moves):
their one check (`check_constraints`) and their one reading from intervals (`judge`;
`verdict` of a measure's games), which the model's pruning, the race's eliminations,
the confirmation and the report all use; and the one the search always keeps, that a
rule set decides games: its reading from a measure's games (`all_draws`, and
`draws_caveat` for the report).

**Draws.**  The first player's score counts a draw as half a win to each player, so a
rule set whose games are all draws scores exactly 50%, the objective itself, without a
game decided: it is no fair game but no game.  A rule set whose games (in a stage) were
all draws is never ranked: the model does not race it, the race drops it ("drawn"), a
winner whose confirmation drew every game is replaced, and it is on no Pareto front.
One that draws most of its games (`MOSTLY_DRAWS`) is ranked, but its report says that
its score can lie only so far from 50% whatever the seats: ``(1 - draws) / 2``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..stats import Estimate
    from .results import Measure

__all__ = ["ALL_DRAWS", "MOSTLY_DRAWS", "all_draws", "check_constraints", "draws_caveat",
           "judge", "measured", "verdict"]

# The report's caveats on a rule set's draws (`draws_caveat`): every game a draw, or at
# least half of them (then at most half the score is decided games).
ALL_DRAWS, MOSTLY_DRAWS = "all_draws", "mostly_draws"
MOSTLY_SHARE = 0.5


def check_constraints(max_draws: object, moves: object
                      ) -> tuple[float | None, tuple[float, float] | None]:
    """`balance()`'s `max_draws` and `moves`, checked (ValueError saying what they
    take) and as floats."""
    if max_draws is not None:
        # 0 is a constraint too: no draws (a rule set known to draw at all is out)
        if not (isinstance(max_draws, (int, float)) and not isinstance(max_draws, bool)
                and 0 <= max_draws < 1):
            raise ValueError(f"max_draws must be a number at least 0 (0: no draws) and "
                             f"less than 1 (0.02 = 2% of the games), not {max_draws!r}")
        max_draws = float(max_draws)
    if moves is not None:
        ok = (isinstance(moves, (tuple, list)) and len(moves) == 2 and
              all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in moves)
              and 0 <= moves[0] <= moves[1])
        if not ok:
            raise ValueError(f"moves must be (low, high) with 0 <= low <= high, the range "
                             f"of the mean length in moves, not {moves!r}")
        moves = (float(moves[0]), float(moves[1]))
    return max_draws, moves


def judge(draws: Estimate, length: Estimate, max_draws: float | None,
          moves: tuple[float, float] | None, drew: bool = True) -> dict[str, str]:
    """What intervals of the draw rate and of the mean length say of each constraint
    given: {"draws" / "length": "met" (the interval lies within it), "broken" (it lies
    outside) or "undecided" (it straddles a limit)}.  ``drew=False`` (the games drew
    none) meets a draw limit of 0, which no interval can show.  The one reading of the
    constraints: the race's and the model's (`model.generate`) and the report's."""
    out = {}
    if max_draws is not None:
        out["draws"] = ("broken" if draws.low > max_draws else
                        "met" if draws.high <= max_draws or (max_draws == 0 and not drew)
                        else "undecided")
    if moves is not None:
        out["length"] = ("broken" if length.high < moves[0] or length.low > moves[1] else
                         "met" if moves[0] <= length.low <= length.high <= moves[1]
                         else "undecided")
    return out


def measured(m: Measure, level: float | None, max_draws: float | None,
             moves: tuple[float, float] | None, drew: bool = True) -> dict[str, str]:
    """`judge` of `m`'s intervals at `level` (None: its own confidence)."""
    if max_draws is None and moves is None:
        return {}
    return judge(m.estimate("draw_rate", level), m.estimate("mean_moves", level),
                 max_draws, moves, drew)


def verdict(m: Measure, level: float | None, max_draws: float | None,
            moves: tuple[float, float] | None) -> dict[str, str]:
    """What `m`'s games say of each constraint (`judge`), at `level` (None: the
    measure's own confidence); a draw limit of 0 is met by games without a draw.
    Nothing without games."""
    return measured(m, level, max_draws, moves, drew=bool(m.draws)) if m.n else {}


def all_draws(m: Measure) -> bool:
    """Whether `m`'s games, at least one, were all draws: its score is 50% without a
    game decided, and it is never ranked (the module docstring)."""
    return bool(m.n) and m.draws == m.n


def draws_caveat(m: Measure | None) -> str | None:
    """What the report says of `m`'s draws: `ALL_DRAWS` (every game a draw),
    `MOSTLY_DRAWS` (at least half of them: its score lies within ``(1 - draws) / 2``
    of 50% whatever the seats) or None."""
    if m is None or not m.n:
        return None
    if all_draws(m):
        return ALL_DRAWS
    return MOSTLY_DRAWS if m.draws >= MOSTLY_SHARE * m.n else None
