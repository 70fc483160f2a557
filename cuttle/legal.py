"""The moves a game takes and gives: `LegalMoves` (``game.legal_moves``), a move read
from any of its forms (`as_move`: a Move, its text or its code), and why a move that
is not legal is refused, in words (`why_illegal`, the text of ``Game.play``'s
`IllegalMoveError`).  Which moves are legal is the core's alone; this module only names
them and explains a refusal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import InvalidMoveError
from .formatting import listed
from .moves import Move
from .text import quoted
from .validation import is_int

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .game import Game

__all__ = ["PHASE_VERBS", "LegalMoves", "as_move", "why_illegal"]

# Which verbs each phase accepts (for error messages; legality itself is the core's).
PHASE_VERBS = {
    "main": {"draw", "pass", "points", "scuttle", "royal", "glasses", "jack", "oneoff"},
    "counter": {"counter", "resolve"},
    "three": {"take"},
    "four": {"discard"},
    "five": {"discard"},
    "seven": {"points", "scuttle", "royal", "glasses", "jack", "oneoff", "discard"},
    "discard": {"discard"},
    "block": {"block", "resolve"},
    "ten": {"discard"},
    "over": set(),
}


class LegalMoves:
    """The decider's legal moves (`game.legal_moves`): sized, indexable, iterable, and
    `in` takes a Move, its text or its code.

    >>> from cuttle import Game
    >>> moves = Game(seed=1).legal_moves
    >>> len(moves), moves[0], "points 3h" in moves, "points KS" in moves
    (9, Move('draw'), True, False)
    """

    __slots__ = ("_moves",)

    def __init__(self, codes: Iterable[int]):
        self._moves = [Move.from_code(c) for c in codes]

    def __len__(self):
        return len(self._moves)

    def __iter__(self):
        return iter(self._moves)

    def __getitem__(self, i):
        return self._moves[i]

    def __contains__(self, move):
        try:
            move = as_move(move)
        except InvalidMoveError:
            return False
        return move in self._moves

    def __bool__(self):
        return bool(self._moves)

    def __repr__(self):
        return f"<LegalMoves ({', '.join(map(str, self._moves))})>"


def as_move(move: Move | str | int) -> Move:
    """A Move from a Move, its text, or its integer code (numpy integers too);
    InvalidMoveError for anything else."""
    if is_int(move):
        return Move.from_code(move)
    return Move.parse(move)


def why_illegal(game: Game, move: Move) -> str:
    """Why `move` may not be played in `game` now, in words: the game is over, the
    phase takes no such verb, the card is not the decider's to play or is frozen, or
    (the rest) the legal moves it could have been."""
    phase = game.phase
    who = f"player {game.to_move}"
    head = f"illegal move {quoted(str(move))}"
    if phase == "over":
        return f"{head}: the game is over"
    if move.verb not in PHASE_VERBS[phase]:
        allowed = listed(sorted(PHASE_VERBS[phase]), "or")
        return f"{head}: in the {phase} phase {who} may only {allowed}"
    own = game.revealed if phase == "seven" else game.hand(game.to_move)
    if move.card is not None and move.verb != "take" and move.card not in own:
        where = "among the revealed cards" if phase == "seven" else f"in {who}'s hand"
        return f"{head}: {move.card} is not {where}"
    if move.card is not None and move.card in game.frozen(game.to_move):
        return f"{head}: {move.card} is frozen this turn"
    legal = ", ".join(str(m) for m in game.legal_moves)
    return f"{head} for {who} in the {phase} phase; legal moves: {legal}"
