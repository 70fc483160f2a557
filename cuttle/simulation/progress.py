"""The progress bar of long simulations, on stderr."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["Progress"]


class Progress:
    """A progress bar on stderr with the rate and the time left: tqdm if installed, else a
    plain one.  `mode`: True, False, None (only when stderr is a terminal), or a
    callable(done, total)."""

    def __init__(self, total: int, mode: bool | Callable[[int, int], object] | None = None,
                 desc: str = "simulate", unit: str = "game"):
        self.total, self.done, self.desc, self.unit = total, 0, desc, unit
        self.callback = mode if callable(mode) else None
        if mode is None:
            mode = _stderr_is_tty()
        self.show = bool(mode) and self.callback is None
        self.bar = None
        self.width = 0
        self.t0 = self.last = time.monotonic()
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
        elif self.show:
            now = time.monotonic()
            if now - self.last >= 0.1 or self.done >= self.total:
                self.last = now
                self._draw(now)

    def _draw(self, now):
        frac = self.done / self.total if self.total else 1.0
        width = 30
        fill = int(frac * width)
        rate = self.done / max(now - self.t0, 1e-9)
        eta = _clock((self.total - self.done) / rate) if rate > 0 else "?"
        line = (f"{self.desc} |{'#' * fill}{'.' * (width - fill)}| {frac:6.1%} "
                f"{self.done:,}/{self.total:,} {self.unit}s  {rate:,.0f} {self.unit}s/s  "
                f"ETA {eta} ")
        self.width = max(self.width, len(line))
        sys.stderr.write("\r" + line)
        sys.stderr.flush()

    def close(self) -> None:
        """Remove the bar."""
        if self.bar is not None:
            self.bar.close()
        elif self.show:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()


def _clock(seconds) -> str:
    """h:mm:ss (or m:ss), "?" past a year."""
    if not seconds < 366 * 86400:
        return "?"
    m, sec = divmod(int(seconds + 0.5), 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def _stderr_is_tty():
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
