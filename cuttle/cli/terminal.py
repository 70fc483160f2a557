"""Reading lines from a person or a pipe, and printing numbered move lists."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ..text import printable

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from ..game import Game
    from ..moves import Move


def read_line(prompt: str) -> str | None:
    """One line of input without its newline, or None at the end of input.

    On a terminal this is `input` (line editing); otherwise the prompt is printed and
    the line read from `sys.stdin` is echoed, so a scripted session reads like one."""
    stdin = sys.stdin
    try:
        tty = stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        tty = False
    if tty:
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


def print_moves(moves: Iterable[Move], per_line: int = 4) -> None:
    """The legal moves, numbered from 1, in columns."""
    items = [f"{i:>3}. {m}" for i, m in enumerate(moves, 1)]
    width = max(len(s) for s in items) + 2
    per_line = max(1, min(per_line, 88 // width))
    for k in range(0, len(items), per_line):
        print("".join(s.ljust(width) for s in items[k:k + per_line]).rstrip())


def history_lines(start: Game, moves: Iterable[Move | str],
                  names: Mapping[int, str] | None = None) -> list[str]:
    """'  1. turn 1, P0 (you): draw' for each move played from the game `start`."""
    g = start.copy()
    out = []
    for i, m in enumerate(moves, 1):
        p = g.to_move
        who = f"P{p}" + (f" ({names[p]})" if names else "")
        out.append(f"{i:>4}. turn {g.turn_number}, {who}: {m}")
        g.play(m)
    return out


def seat_names(players: Sequence[str], human_seat: int | None) -> dict[int, str]:
    """How the history calls each player: 'you' and the bot's name."""
    if human_seat in (0, 1):
        return {human_seat: "you", 1 - human_seat: players[1 - human_seat]}
    return {0: players[0], 1: players[1]}
