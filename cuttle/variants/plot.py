"""Forest plots of an atlas group: each variant's first-player win-rate shift and game-
length shift against the base, with intervals, sorted (matplotlib, in the style of
`cuttle.simulation.plot`, imported only when a plot is made)."""

from __future__ import annotations

import io
import math
import os
from typing import TYPE_CHECKING

from ..files import write_binary_file
from ..simulation.plot import pyplot
from ..validation import check_output_folder

if TYPE_CHECKING:
    from .results import GroupResult

__all__ = ["check_plot_folder", "plot_group"]

UP, DOWN, NEUTRAL = "C3", "C0", "0.55"


def check_plot_folder(folder: str | os.PathLike[str]) -> str:
    """`folder` if forest plots can be saved there (created if its parent exists);
    ValueError otherwise, ImportError without matplotlib.  Call it before the work."""
    pyplot()
    return check_output_folder(folder)


def _color(e):
    if e.low > 0:
        return UP
    if e.high < 0:
        return DOWN
    return NEUTRAL


def _panel(ax, shifts, ys, scale):
    for y, e in zip(ys, shifts):
        if not math.isfinite(e.value):
            continue
        c = _color(e)
        ax.hlines(y, scale * e.low, scale * e.high, color=c, linewidth=2)
        ax.plot([scale * e.value], [y], "o", color=c, markersize=5)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.grid(axis="x", alpha=0.3)


def plot_group(g: GroupResult, path: str | os.PathLike[str], title: str | None = None) -> None:
    """Save the forest plot of a `GroupResult` to `path` (format from the extension):
    left, each variant's first-player win-rate shift in percentage points; right, its
    shift in mean moves per game; both with intervals, variants sorted by the first."""
    plt = pyplot()
    rows = sorted((r for r in g.variants if r.n_games),
                  key=lambda r: (r.shift("first").value, r.label))
    n = max(1, len(rows))
    fig, (left, right) = plt.subplots(1, 2, sharey=True, figsize=(11, 0.3 * n + 2.0))
    ys = list(range(len(rows)))
    _panel(left, [r.shift("first") for r in rows], ys, 100)
    _panel(right, [r.shift("moves") for r in rows], ys, 1)
    left.set_yticks(ys)
    left.set_yticklabels([r.label + ("" if r.status == "converged" else f"  [{r.status}]")
                          for r in rows], fontsize="small")
    left.set_ylim(-0.7, len(rows) - 0.3)
    base = g.base_row
    first, moves = base.estimate("first"), base.estimate("moves")
    left.set_xlabel("shift of the first player's win rate (percentage points)")
    right.set_xlabel("shift of the game length (moves per game)")
    left.set_title(f"first player wins {100 * first.value:.1f}% under {g.base}",
                   fontsize="medium")
    right.set_title(f"{moves.value:.1f} moves per game under {g.base}", fontsize="medium")
    games = [r.n_games for r in rows]
    span = (f"{min(games):,}" if min(games) == max(games)
            else f"{min(games):,} to {max(games):,}") if games else "0"
    fig.suptitle(title or f"{g.title}: each variant against {g.base} on the same games")
    fig.text(0.5, 0.005, f"{base.confidence:.0%} intervals (paired); red: up, blue: down, "
                         f"grey: interval holds 0; {span} games per variant, "
                         f"{base.n_games:,} for the base", ha="center", va="bottom",
             fontsize="small", color="0.3")
    fig.tight_layout(rect=(0, 0.03, 1, 0.97))
    try:
        _save(fig, path)
    finally:
        plt.close(fig)


def _save(fig, path):
    """Save `fig` whole or not at all; a PNG gets a 64-colour palette (a third of the
    size, the same look)."""
    ext = os.path.splitext(os.fspath(path))[1].lower().lstrip(".") or "png"

    def write(f):
        if ext != "png":
            fig.savefig(f, format=ext, dpi=80)
            return
        from PIL import Image                       # matplotlib's own dependency
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=80)
        buf.seek(0)
        Image.open(buf).convert("RGB").quantize(colors=64).save(f, format="png",
                                                                optimize=True)
    write_binary_file(path, write)
