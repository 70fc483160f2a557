"""Text from outside (player names of a record, file names, input quoted in an error
message) made safe to print on a terminal: the one place that escapes it, as the HTML
pages escape theirs.

A terminal obeys control characters: ESC and the C1 controls start sequences that
clear the screen, move the cursor, retitle the window or write the clipboard (OSC 52);
CR, BS and the line separators overwrite or fake lines; bidirectional overrides reorder
what is shown.  `printable` writes each of them as a visible escape (``\\x1b``,
``\\u202e``), like `repr`, and leaves every other character as it is (accents, CJK,
emoji).  Lone surrogates (from JSON's ``"\\ud800"``) are escaped too: a UTF-8 stream
refuses to print them.

Input an error quotes is shortened first (`quoted`): a move of 100,000 characters made a
message of as many, which a terminal or a log then had to show whole.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["MAX_QUOTED", "printable", "quoted"]

MAX_QUOTED = 80             # an error's quote of input, at most (its start and end kept)

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
                     "\u2066-\u2069\ud800-\udfff]")
_UNSAFE_BUT_NEWLINE = re.compile(_UNSAFE.pattern.replace("\x00-\x1f", "\x00-\x09\x0b-\x1f"))


def _escape(m: re.Match[str]) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def printable(text: object, newlines: bool = False) -> str:
    """`text` (str() of it) with every character that a terminal would obey rather
    than show escaped as ``\\xNN`` or ``\\uNNNN``; ``newlines=True`` keeps "\\n" (for
    text of several lines)."""
    return (_UNSAFE_BUT_NEWLINE if newlines else _UNSAFE).sub(_escape, str(text))


def quoted(value: object, limit: int = MAX_QUOTED,
           spell: Callable[[object], str] = repr) -> str:
    """`value` as an error message quotes input (its ``repr``, as ``{value!r}``, or as
    `spell` writes it: the web app's messages spell JSON), cut to its start and end
    around "..." past `limit` characters, with its length in characters: ``'points
    777...777' (100,007 characters)``.  The one shortener of quoted input: move text,
    position text, records, card names, rule text, options, web fields.

    The ``repr`` of text escapes every character `printable` escapes (and more), so a
    quote is safe on a terminal as it is; a message printed there goes through
    `printable` whole all the same (the command line's errors do), which leaves a quote
    unchanged: quote input with `quoted`, print outside text with `printable`."""
    r = spell(value)
    if len(r) <= limit:
        return r
    tail = limit // 4
    size = f"{len(value):,} characters" if isinstance(value, str) else \
        f"{len(r):,} characters written out"
    short = f"{r[:limit - tail - 3]}...{r[-tail:]} ({size})"
    return short if len(short) < len(r) else r
