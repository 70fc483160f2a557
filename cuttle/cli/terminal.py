"""Reading lines from a person or a pipe, and printing numbered move lists."""

from __future__ import annotations

import contextlib
import sys
from typing import TYPE_CHECKING

from ..cards import RANKS, Card
from ..narration import narrate_game
from ..text import printable

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence

    from ..game import Game
    from ..moves import Move


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def read_line(prompt: str) -> str | None:
    """One line of input without its newline, or None at the end of input.

    On a terminal this is `input` (line editing); otherwise the prompt is printed and
    the line read from `sys.stdin` is echoed, so a scripted session reads like one."""
    stdin = sys.stdin
    if _is_terminal(stdin) and _is_terminal(sys.stdout):
        _enable_line_editing()
        try:
            return input(prompt)
        except EOFError:
            print()
            return None
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = stdin.readline()
    if not line:
        sys.stdout.write("\n")
        return None
    line = line.rstrip("\r\n")
    print(printable(line))
    return line


def _enable_line_editing():
    """On a terminal, `input` gets line editing and a history (arrow keys) once the
    readline module is loaded; it is missing on some platforms, which is fine."""
    try:
        import readline  # noqa: F401  (importing it is what enables editing)
    except ImportError:
        pass


@contextlib.contextmanager
def thinking(who: str) -> Iterator[None]:
    """Show '<who> is thinking...' on a terminal while the block runs (a bot choosing its
    move), then erase it, so that a slow bot is seen to be working and the transcript
    keeps only its move.  Nothing is shown through a pipe (scripted sessions stay exact)."""
    out = sys.stdout
    if not _is_terminal(out):
        yield
        return
    out.write(f"{who} is thinking...")
    out.flush()
    try:
        yield
    finally:
        out.write("\r\x1b[K")          # back to the line's start, erase to its end
        out.flush()


def card_moves(text: str, legal: Iterable[Move]) -> list[Move] | None:
    """The legal moves that play the card `text` names (e.g. '7H' -> points 7H and
    oneoff 7H; a 4's victim's 'discard 3C 7H' and 'discard 7H 9D', which discard it with
    another card), or None if `text` is not a card."""
    try:
        card = Card.parse(text)
    except ValueError:
        return None
    return [m for m in legal if m.card == card or (m.verb == "discard" and card in m.cards)]


def not_a_move(text: str, error: Exception) -> str:
    """Why `text` is no move (`error`, Move.parse's): a short word that starts like a
    card (a rank: 7Z, 10X) is explained as a card, not as an unknown verb."""
    word = text.strip()
    if len(word) <= 3 and word[:1].upper() in RANKS + "1":
        try:
            Card.parse(word)
        except ValueError as e:
            return str(e)
    return str(error)


def print_moves(moves: Iterable[Move], per_line: int = 4) -> None:
    """The legal moves, numbered from 1, in columns."""
    items = [f"{i:>3}. {m}" for i, m in enumerate(moves, 1)]
    width = max(len(s) for s in items) + 2
    per_line = max(1, min(per_line, 88 // width))
    for k in range(0, len(items), per_line):
        print("".join(s.ljust(width) for s in items[k:k + per_line]).rstrip())


def history_lines(start: Game, moves: Iterable[Move | str],
                  names: Mapping[int, str] | None = None,
                  viewer: int | None = None) -> list[str]:
    """'  1. turn 1, P0 (you): draw -- You draw 9S.' for each move played from the game
    `start`: the move and what it did as `viewer` saw it (`cuttle.narration`; None:
    every card named)."""
    moves = list(moves)
    told = narrate_game(start, moves, viewer)
    g = start.copy()
    out = []
    for i, (m, text) in enumerate(zip(moves, told), 1):
        p = g.to_move
        who = f"P{p}" + (f" ({names[p]})" if names else "")
        out.append(f"{i:>4}. turn {g.turn_number}, {who}: {m}"
                   + (f" -- {text}" if text else ""))
        g.play(m)
    return out


def seat_names(players: Sequence[str], human_seat: int | None) -> dict[int, str]:
    """How the history calls each player: 'you' and the bot's name."""
    if human_seat in (0, 1):
        return {human_seat: "you", 1 - human_seat: players[1 - human_seat]}
    return {0: players[0], 1: players[1]}
