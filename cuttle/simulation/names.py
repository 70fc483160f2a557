"""Names shared by the simulation modules: the players' labels, seats, match formats,
the per-game fields and the default move cap."""

from __future__ import annotations

from collections import namedtuple

from .._playout import GAME_MOVE_CAP
from ..policies import FULL_INFORMATION

__all__ = ["COMPARED_KINDS", "ENTRY_NOUNS", "FIELDS", "MATCH_FORMATS", "MatchFormat",
           "PLAYER_LABELS", "SEATS", "DEFAULT_MAX_MOVES", "entries", "full_information",
           "full_information_note", "match_slots", "seat_of_a"]

PLAYER_LABELS = ("A", "B")
SEATS = ("first", "second")
FIELDS = ("winner", "first", "moves", "turns", "scores", "end")
# A game still running after this many moves ends as a draw ("move_cap"): the core's
# cap of a game played out (cuttle/_playout.pxd says where it applies and why).
DEFAULT_MAX_MOVES = GAME_MOVE_CAP

# What a comparison compares (`ComparisonResult.compared`), and the one word for each of
# its entries in every text and key that names them: a rule set, or a candidate player
# (each in turn player A against the same opponent).
COMPARED_KINDS = ("rules", "players")
ENTRY_NOUNS = {"rules": "rule set", "players": "candidate"}


def entries(compared: str) -> str:
    """A comparison's entries in the plural: "rule sets" or "candidates"."""
    return ENTRY_NOUNS[compared] + "s"

MatchFormat = namedtuple("MatchFormat", "wins slots description")
MATCH_FORMATS = {
    "best_of_3": MatchFormat(2, 7, "best of 3 (first to 2 game wins)"),
    "first_to_3": MatchFormat(3, 11, "first to 3 game wins"),
}


def full_information(players: tuple[str, str]) -> list[str]:
    """The labels of a run's players (`players`: their names, A's then B's) that read
    hidden cards, full-information references such as cuttle.cards-ai: [], ["B"], ..."""
    return [label for label, name in zip(PLAYER_LABELS, players)
            if isinstance(name, str) and name in FULL_INFORMATION]


def full_information_note(players: tuple[str, str]) -> str | None:
    """The line under a run's players that says which read hidden cards, or None:
    "note: B (cuttle.cards-ai) reads hidden cards (both hands and the deck order): a
    full-information reference, not a fair player"."""
    which = [f"{label} ({players[PLAYER_LABELS.index(label)]})"
             for label in full_information(players)]
    if len(which) == 1:
        return (f"note: {which[0]} reads hidden cards (both hands and the deck order): a "
                f"full-information reference, not a fair player")
    if which:
        return (f"note: {which[0]} and {which[1]} read hidden cards (both hands and the "
                f"deck order): full-information references, not fair players")
    return None


def seat_of_a(index: int, swap_seats: bool) -> int:
    """The seat of player A in game `index` of a run (seat 0 moves first): 1 in
    odd-numbered games with swap_seats, else 0 (the core's play_game seats them so)."""
    return 1 if swap_seats and index & 1 else 0


def match_slots(match: str, swap_seats: bool) -> int:
    """The game indices a match owns: the format's odd slot count, one more without
    swap_seats (so that A starts every match)."""
    slots = MATCH_FORMATS[match].slots
    return slots if swap_seats else slots + 1
