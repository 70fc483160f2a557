"""One game of a seeded run as a game record: `game_record(players, rules, seed=7,
index=1234)` plays game 1234 of ``cuttle.simulate(n, rules, players, seed=7)`` again,
exactly as the run played it, and returns its record (`cuttle.record`), which `cuttle
replay` and `cuttle review` read; a games CSV (`games_csv=`, `--games-csv`) gives each
game's index.

    rec = cuttle.simulation.game_record(("ismcts:1000", "expert"), seed=7, index=1234)
    cuttle.record.write_record(rec, "game1234.json")
    cuttle.review(rec, "expert")
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._core import END_NAMES
from .._play import play_logged
from ..game import Game
from ..record import check_deal, make_record, validate_record
from ..rules import Rules
from ..seeding import check_seed
from ..validation import check_bool, check_count
from .api import MAX_MAX_MOVES
from .names import DEFAULT_MAX_MOVES, PLAYER_LABELS
from .players import resolve_players

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["game_record"]


def game_record(players: str | Iterable[str], rules: Rules | str | None = None, *,
                seed: int, index: int, swap_seats: bool = True,
                max_moves: int = DEFAULT_MAX_MOVES) -> dict[str, Any]:
    """The game record of game `index` of the seeded run ``simulate(n, rules, players,
    seed=seed, swap_seats=swap_seats, max_moves=max_moves)`` (for any n above `index`,
    any threads and chunks): the same deal, the same moves (a searching player keeps
    its tree through the game, as in the run), the same result.  players: (A, B), two
    policy names as `simulate` takes them (a Python callable cannot be recorded); with
    `swap_seats` A sits in seat 1 in odd-numbered games.  The record names the players
    by seat (``players``), its deal (``"deal": index``, a version-2 record unless index
    is 0) and the run (``simulation``: the players A and B, swap_seats, max_moves); see
    `cuttle.record`.  Played on one core without the GIL; Ctrl-C stops a long game
    (KeyboardInterrupt).  ValueError for an argument the run could not have had."""
    pl = resolve_players(players)
    python = [p.name for p in pl if not p.native]
    if python:
        raise ValueError(f"a game record needs native players (policy names), not the "
                         f"Python callable {python[0]!r}")
    rules = Rules.coerce(rules)
    seed = check_seed(seed)
    index = check_deal(index, "index")
    swap_seats = check_bool(swap_seats, "swap_seats")
    max_moves = check_count(max_moves, "max_moves", MAX_MAX_MOVES)
    row, codes = play_logged(rules, seed, index, pl[0].code, pl[1].code, swap_seats,
                             max_moves)
    game = Game.from_run(rules, seed=seed, index=index, max_moves=max_moves)
    for code in codes.tolist():
        game.play(code)
    _check_replay(game, row, index)
    a_seat = row["first"]
    rec = make_record(game, players=[pl[a_seat].name, pl[a_seat ^ 1].name], deal=index)
    rec["simulation"] = {"players": [p.name for p in pl], "swap_seats": swap_seats,
                         "max_moves": max_moves}
    return validate_record(rec)


def _check_replay(game: Game, row: dict[str, Any], index: int) -> None:
    """The moves replayed must end as the core's game did (its row as a run tallies
    it): else the record would not be the run's game."""
    a_seat = row["first"]
    winner = None if row["winner"] < 0 else row["winner"] ^ a_seat
    scores = (game.score(a_seat), game.score(a_seat ^ 1))
    if not game.is_over or (game.winner, game.ply, game.turn_number, game.end_reason,
                            scores) != (winner, row["moves"], row["turns"],
                                        END_NAMES[row["end"]], tuple(row["scores"])):
        raise RuntimeError(f"game {index} replayed from its moves does not end as the core "
                           f"played it (player {PLAYER_LABELS[0]} in seat {a_seat}): a bug")

