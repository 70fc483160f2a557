"""Progress on stderr: the one hand-written progress line (`Line`), the progress bar of
simulations and comparisons (`Progress`, tqdm's when it is installed), and the
stderr-is-a-terminal rule they share (`show_by_default`); `note`, a line of its own
written above whatever progress line is showing (a run that stands still says why).

A `Line` is rewritten in place (``\\r``, at most every `every` seconds, padded to wipe
a longer line before it) or, where nothing can be rewritten (a log file), only its
final lines are written, one per line.  The atlas's status line is a `Line` too.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

from .formatting import plural

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["Line", "Progress", "clock", "note", "show_by_default"]


def show_by_default() -> bool:
    """Whether progress is shown when not asked either way: when stderr is a terminal."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def clock(seconds: float) -> str:
    """h:mm:ss (or m:ss), "?" past a year."""
    if not seconds < 366 * 86400:
        return "?"
    m, sec = divmod(int(seconds + 0.5), 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def note(text: str) -> None:
    """Write `text` on stderr as a line of its own, above the progress line showing if
    any (a tqdm bar, or a `Line` in place, which its next update draws again), whether
    or not progress is shown: what a long run says while its progress stands still."""
    if _showing is not None:
        _showing.clear()
    tqdm = sys.modules.get("tqdm")          # (a bar exists only once tqdm is imported)
    if tqdm is not None and hasattr(tqdm, "tqdm"):
        tqdm.tqdm.write(text, file=sys.stderr)      # (clears its bars, then draws them)
    else:
        sys.stderr.write(text + "\n")
    sys.stderr.flush()


class Line:
    """One line of progress on stderr.  `inplace`: rewrite it (else only the `final`
    texts are written, each on its own line); `every`: at most one rewrite per that
    many seconds (a final text is always written)."""

    def __init__(self, inplace: bool = True, every: float = 0.1):
        self.inplace, self.every = inplace, every
        self.width = 0
        self.last = -float("inf")

    def show(self, text: str | Callable[[], str], final: bool = False) -> None:
        """Show `text` (or the text a callable makes, only when it is shown)."""
        now = time.monotonic()
        if self.inplace:
            if final or now - self.last >= self.every:
                self.last = now
                text = text() if callable(text) else text
                self.width = max(self.width, len(text))
                sys.stderr.write("\r" + text.ljust(self.width))
                sys.stderr.flush()
                _shown(self)
        elif final:
            sys.stderr.write((text() if callable(text) else text) + "\n")
            sys.stderr.flush()

    def clear(self) -> None:
        """Wipe the line (in place); later texts start a fresh one."""
        if self.inplace and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()
            self.width = 0
        if _showing is self:
            _shown(None)


# The Line in place on stderr now, if any (`note` wipes it before its own line).
_showing: Line | None = None


def _shown(line: Line | None) -> None:
    global _showing
    _showing = line


class Progress:
    """A progress bar on stderr with the rate and the time left: tqdm if installed, else a
    `Line`.  `mode`: True, False, None (only when stderr is a terminal), or a
    callable(done, total)."""

    def __init__(self, total: int, mode: bool | Callable[[int, int], object] | None = None,
                 desc: str = "simulate", unit: str = "game"):
        self.total, self.done, self.desc, self.unit = total, 0, desc, unit
        self.callback = mode if callable(mode) else None
        if mode is None:
            mode = show_by_default()
        self.show = bool(mode) and self.callback is None
        self.bar = None
        self.line = Line() if self.show else None
        self.t0 = time.monotonic()
        if self.show:
            try:
                from tqdm import tqdm
            except ImportError:
                tqdm = None
            if tqdm is not None:
                self.bar = tqdm(total=total, desc=desc, unit=unit, unit_scale=True,
                                file=sys.stderr, leave=False, dynamic_ncols=True)

    def update(self, n: int) -> None:
        """Count `n` more finished units and redraw (at most every 0.1 s)."""
        self.done += n
        if self.callback is not None:
            self.callback(self.done, self.total)
        elif self.bar is not None:
            self.bar.update(n)
        elif self.line is not None:
            self.line.show(self._text, final=self.done >= self.total)

    def _text(self) -> str:
        frac = self.done / self.total if self.total else 1.0
        width = 30
        fill = int(frac * width)
        rate = self.done / max(time.monotonic() - self.t0, 1e-9)
        eta = clock((self.total - self.done) / rate) if rate > 0 else "?"
        return (f"{self.desc} |{'#' * fill}{'.' * (width - fill)}| {frac:6.1%} "
                f"{self.done:,}/{self.total:,} {plural(self.unit)}  {rate:,.0f} "
                f"{plural(self.unit)}/s  "
                f"ETA {eta} ")

    def close(self) -> None:
        """Remove the bar."""
        if self.bar is not None:
            self.bar.close()
        elif self.line is not None:
            self.line.clear()
