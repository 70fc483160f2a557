"""Names shared by the simulation modules: the players' labels, seats, match formats,
the per-game fields and the default move cap."""

from __future__ import annotations

from collections import namedtuple

from .._playout import GAME_MOVE_CAP

__all__ = ["FIELDS", "MATCH_FORMATS", "MatchFormat", "PLAYER_LABELS", "SEATS",
           "DEFAULT_MAX_MOVES", "match_slots", "seat_of_a"]

PLAYER_LABELS = ("A", "B")
SEATS = ("first", "second")
FIELDS = ("winner", "first", "moves", "turns", "scores", "end")
# A game still running after this many moves ends as a draw ("move_cap"): the core's
# cap of a game played out (cuttle/_playout.pxd says where it applies and why).
DEFAULT_MAX_MOVES = GAME_MOVE_CAP

MatchFormat = namedtuple("MatchFormat", "wins slots description")
MATCH_FORMATS = {
    "best_of_3": MatchFormat(2, 7, "best of 3 (first to 2 game wins)"),
    "first_to_3": MatchFormat(3, 11, "first to 3 game wins"),
}


def seat_of_a(index: int, swap_seats: bool) -> int:
    """The seat of player A in game `index` of a run (seat 0 moves first): 1 in
    odd-numbered games with swap_seats, else 0 (the core's play_game seats them so)."""
    return 1 if swap_seats and index & 1 else 0


def match_slots(match: str, swap_seats: bool) -> int:
    """The game indices a match owns: the format's odd slot count, one more without
    swap_seats (so that A starts every match)."""
    slots = MATCH_FORMATS[match].slots
    return slots if swap_seats else slots + 1
