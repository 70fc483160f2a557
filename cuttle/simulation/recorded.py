"""One game of a seeded run as a game record: `game_record(players, rules, seed=7,
index=1234)` plays game 1234 of ``cuttle.simulate(n, rules, players, seed=7)`` again,
exactly as the run played it, and returns its record (`cuttle.record`), which `cuttle
replay` and `cuttle review` read; a games CSV (`games_csv=`, `--games-csv`) gives each
game's index.

    rec = cuttle.simulation.game_record(("ismcts:1000", "expert"), seed=7, index=1234)
    cuttle.record.write_record(rec, "game1234.json")
    cuttle.review(rec, "expert")

A Python callable player is recorded too: the game is played again as the run plays
it, in Python (`runner.play_python`, the one loop of both), each seat drawing from its
own rng of the seed, so the record is the run's game as long as the callable chooses
from the game and its ``rng`` alone.  One that draws from the `random` module, the
clock or a state of its own kept between games cannot be played again: its record is a
game on the same deal, not necessarily the run's.

Ctrl-C stops a long game (a deep search's) within a second and keeps its moves so far:
`cuttle.Interrupted` is raised with the record of the unfinished game as its `result`
(its status ``interrupted``, no winner), as the other long calls raise theirs.

    try:
        rec = cuttle.simulation.game_record(("ismcts:200000", "expert"), seed=7, index=3)
    except cuttle.Interrupted as e:
        rec = e.result                 # the moves before Ctrl-C: `cuttle replay` reads it
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._core import END_NAMES
from .._play import GameInterrupted, play_logged
from ..errors import Interrupted
from ..game import Game
from ..record import check_deal, make_record, validate_record
from ..rules import Rules
from ..seeding import check_seed
from ..validation import check_bool, check_count
from .api import MAX_MAX_MOVES
from .names import DEFAULT_MAX_MOVES, PLAYER_LABELS, seat_of_a
from .players import resolve_players
from .runner import play_python

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from ..moves import Move
    from ..policies import Bot
    from .players import Player

__all__ = ["game_record"]


def game_record(players: str | Iterable[str | Bot | Callable[..., Move | str | int]],
                rules: Rules | str | None = None, *,
                seed: int, index: int, swap_seats: bool = True,
                max_moves: int = DEFAULT_MAX_MOVES) -> dict[str, Any]:
    """The game record of game `index` of the seeded run ``simulate(n, rules, players,
    seed=seed, swap_seats=swap_seats, max_moves=max_moves)`` (for any n above `index`,
    any threads and chunks): the same deal, the same moves (a searching player keeps
    its tree through the game, as in the run), the same result.  players: (A, B) as
    `simulate` takes them: policy names, `Bot`s, or Python callables (a run with one
    plays every game in Python, and so does its record: the run's game as long as the
    callable chooses from the game and its ``rng`` alone, see the module's notes); with
    `swap_seats` A sits in seat 1 in odd-numbered games.  The record names the players
    by seat (``players``; a callable by its ``__name__``), its deal (``"deal": index``,
    a version-2 record unless index is 0) and the run (``simulation``: the players A
    and B, swap_seats, max_moves); see `cuttle.record`.  Native players are played on
    one core without the GIL; Ctrl-C stops a long game within a second with
    `cuttle.Interrupted`, whose `result` is the record of the game so far
    (``result.status`` ``interrupted``, no winner; every move one the whole game plays,
    so it replays from the deal as that game's start), `done` its moves.  A callable's
    fault is the run's `cuttle.PolicyError`.  ValueError for an argument the run could
    not have had."""
    pl = resolve_players(players)
    rules = Rules.coerce(rules)
    seed = check_seed(seed)
    index = check_deal(index, "index")
    swap_seats = check_bool(swap_seats, "swap_seats")
    max_moves = check_count(max_moves, "max_moves", MAX_MAX_MOVES)
    run = {"players": [p.name for p in pl], "swap_seats": swap_seats,
           "max_moves": max_moves}
    a_seat = seat_of_a(index, swap_seats)
    if not all(p.native for p in pl):
        return _python_record(pl, rules, seed, index, max_moves, run, a_seat)
    try:
        row, codes = play_logged(rules, seed, index, pl[0].code, pl[1].code, swap_seats,
                                 max_moves)
    except GameInterrupted as e:
        game = _replayed(rules, seed, index, max_moves, e.codes)
        if game.is_over:            # (play_logged stops before a move, never at the end)
            raise RuntimeError(f"game {index} stopped by Ctrl-C is over: a bug") from None
        rec = _record(game, run, index, a_seat, "interrupted")
        raise Interrupted(rec, game.ply, None, "move") from None
    game = _replayed(rules, seed, index, max_moves, codes)
    _check_replay(game, row, index)
    return _record(game, run, index, row["first"], "over")


def _python_record(pl: list[Player], rules: Rules, seed: int, index: int, max_moves: int,
                   run: dict[str, Any], a_seat: int) -> dict[str, Any]:
    """The record of game `index` with a Python player: played by the run's own loop,
    its moves checked to replay from the deal to the same end."""
    game = Game.from_run(rules, seed=seed, index=index, max_moves=max_moves)
    try:
        play_python(game, seed, index, [p.python_func() for p in pl], a_seat)
    except KeyboardInterrupt:
        rec = _record(game, run, index, a_seat, "interrupted")
        raise Interrupted(rec, game.ply, None, "move") from None
    again = _replayed(rules, seed, index, max_moves, [m.code for m in game.moves])
    if not again.is_over or again.moves != game.moves or again.winner != game.winner:
        raise RuntimeError(f"game {index} replayed from its moves does not end as it was "
                           f"played: a bug")
    return _record(game, run, index, a_seat, "over")


def _replayed(rules: Rules, seed: int, index: int, max_moves: int, codes: Any) -> Game:
    """Game `index`'s deal with the core's moves played on it."""
    game = Game.from_run(rules, seed=seed, index=index, max_moves=max_moves)
    for code in (codes.tolist() if hasattr(codes, "tolist") else codes):
        game.play(code)
    return game


def _record(game: Game, run: dict[str, Any], index: int, a_seat: int,
            status: str) -> dict[str, Any]:
    """The record of the run's game (player A in seat `a_seat`), `run` its
    ``simulation``."""
    a, b = run["players"]
    rec = make_record(game, players=[a, b] if a_seat == 0 else [b, a], deal=index,
                      status=status)
    rec["simulation"] = run
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

