"""Figures drawn with matplotlib (imported only when a figure is made): a summary's win
rates by seat, its first and second mover's and its game lengths, a comparison's rates,
differences and mean lengths, an atlas group's forest plot, the balance designer's
scores against lengths.  A kind of panel is drawn by one helper (`_bars`, `_seat_panel`,
`_length_panel`, `_means_panel`, `_panel`).  Estimates come from the catalogue of
statistics (`cuttle.figures`) by name, numbers are printed by `cuttle.formatting`."""

from __future__ import annotations

import io
import os
import textwrap
from typing import TYPE_CHECKING

import numpy as np

from .._optional import missing
from ..balancing.racing import OUT
from ..balancing.results import BalanceResult
from ..display import renders
from ..files import write_binary_file
from ..figures import SUMMARY
from ..formatting import finite, fixed, interval, level_pct, quantity, sign_class, value
from ..simulation.compare import ComparisonResult
from ..simulation.names import PLAYER_LABELS, SEATS
from ..simulation.summary import Summary
from ..variants.results import GroupResult
from ..validation import check_output_folder, check_output_path
from .tables import difference_method, same_deals

if TYPE_CHECKING:
    from types import ModuleType

    from ..errors import Interrupted

__all__ = ["check_plot_folder", "check_plot_path", "plot_balance", "plot_comparison",
           "plot_formats", "plot_group", "plot_summary", "pyplot"]


def pyplot() -> ModuleType:
    """matplotlib.pyplot on the non-interactive Agg backend; ImportError saying how to
    install it."""
    try:
        import matplotlib
    except ImportError as e:
        raise missing(e, "plotting") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plot_formats() -> tuple[str, ...]:
    """The file extensions a plot can be saved as (png, pdf, svg, ...)."""
    plt = pyplot()
    fig = plt.figure()
    try:
        return tuple(sorted(fig.canvas.get_supported_filetypes()))
    finally:
        plt.close(fig)


def check_plot_path(path: str | os.PathLike[str]) -> str:
    """`path` if a plot can be saved there: a known extension (the format), not a
    folder, in a writable folder; ValueError (ImportError without matplotlib) otherwise.
    Call it before the work, so that a bad path fails at once."""
    path = check_output_path(path)
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    formats = plot_formats()
    if ext not in formats:
        raise ValueError(f"cannot tell the image format of {path!r}: end it with one of "
                         f"{', '.join('.' + f for f in formats)}")
    return path


NOTE_INCHES = 0.3       # the height of the line that says a figure shows a partial run
TITLE_INCHES = 0.3      # (a suptitle's line, from its top at 0.98 of the figure)
LINE_SPACING = 1.25     # a line of text's height, in font sizes
CAPTION_PAD = 0.1       # inches between a caption and the figure's bottom edge and axes
GLYPH = 0.6             # a generous mean glyph width, in font sizes


def _partial(fig, interrupted, y=None):
    """Say on `fig` that it shows a partial run (`interrupted`: its Interrupted, or None;
    `Interrupted.note`), in a line whose top is at height `y` (a fraction of the
    figure's; default: under the suptitle); returns the fraction of the height the line
    takes (0 without it), to be left out of the axes' layout."""
    if interrupted is None:
        return 0.0
    height, size = fig.get_figheight(), _points("medium")
    text = _wrapped(fig, interrupted.note(), size)
    fig.text(0.5, 0.98 - TITLE_INCHES / height if y is None else y, text,
             ha="center", va="top", fontsize="medium", color="#b00000")
    return (NOTE_INCHES + text.count("\n") * size * LINE_SPACING / 72) / height


def _labels(names, width=18):
    return ["\n".join(textwrap.wrap(n, width, break_long_words=False,
                                    break_on_hyphens=False)) or n for n in names]


def _bars(ax, estimates, labels, colors=None, percent=True, digits=1):
    """The panel of estimates as bars (a rate in %, or a mean: `percent` False) with
    asymmetric error bars from their intervals (value, low, high), each value printed
    above the top of its error bar (on the bar's top it was struck through by it)."""
    k = 100 if percent else 1
    vals = np.array([k * e.value for e in estimates], float)
    lo = np.array([k * (e.value - e.low) for e in estimates], float)
    hi = np.array([k * (e.high - e.value) for e in estimates], float)
    xs = np.arange(len(estimates))
    ax.bar(xs, vals, 0.7, yerr=[np.nan_to_num(lo), np.nan_to_num(hi)], capsize=4,
           color=colors)
    ax.set_xticks(xs)
    ax.set_xticklabels(labels, fontsize="x-small")
    for x, v, up in zip(xs, vals, np.nan_to_num(hi)):
        # (a rate of no games, A moving second under --no-swap, says so, as the table)
        ax.annotate(fixed(v, digits) if np.isfinite(v) else "no\ngames",
                    (x, v + up if np.isfinite(v) else 0), textcoords="offset points",
                    xytext=(0, 3), ha="center", va="bottom", fontsize="x-small")
    ax.margins(y=0.12)          # (room above the highest label)


def _seat_panel(ax, s: Summary) -> None:
    """The first mover's and the second mover's win rates (whoever moved first), and
    the first-player advantage, their difference, in the title."""
    names = ("first_mover_win_rate", "second_mover_win_rate")
    _bars(ax, [s.estimate(n) for n in names],
          [SUMMARY[n].text(s.result.players).replace(" wins", "\nwins") for n in names],
          ["C4", "C5"])
    adv, f = s.estimate("first_player_advantage"), SUMMARY["first_player_advantage"]
    ax.set_ylabel("rate (%)")
    ax.set_title(f"first vs second mover\nadvantage {value(adv, f.format)} "
                 f"{interval(adv, f.format)}", fontsize="medium")


def _length_panel(ax, s: Summary) -> None:
    """The distribution of game lengths (moves per game), its mean marked."""
    h = s.length_histogram("moves")
    if h.sum():
        c = np.cumsum(h) / h.sum()
        top = int(min(len(h) - 1, np.searchsorted(c, 0.999) + 1))
        xs = np.arange(top + 1)
        ax.bar(xs, 100 * h[:top + 1] / h.sum(), 1.0, color="C2")
        rest = h[top + 1:].sum()
        if rest:
            ax.text(0.98, 0.95, f"{fixed(100 * rest / h.sum())}% of games longer than {top} "
                                f"moves", transform=ax.transAxes, ha="right", va="top",
                    fontsize="small")
        e = s.mean_moves()
        ax.axvline(e.value, color="black", linewidth=1)
        ax.text(e.value, ax.get_ylim()[1] * 0.85, f" mean {fixed(e.value, 1)}", fontsize="small")
    ax.set_xlabel("moves per game")
    ax.set_ylabel("games (%)")
    ax.set_title("game length")


@renders("plot", Summary)
def plot_summary(s: Summary, path: str | os.PathLike[str], title: str | None = None, *,
                 interrupted: Interrupted | None = None) -> None:
    """Save a figure of a `Summary` to `path`: win rates by player and seat with their
    intervals, the first mover's and the second mover's win rates (the first-player
    advantage in its title), and the distribution of game lengths (moves per game); a
    partial run's (`interrupted`) says so under the title."""
    plt = pyplot()
    r = s.result
    fig, (ax, sx, hx) = plt.subplots(1, 3, figsize=(15, 4.8),
                                     gridspec_kw={"width_ratios": (1.1, 0.45, 1)})
    ests, labels, colors = [], [], []
    for i, lab in enumerate(PLAYER_LABELS):
        ests.append(s.win_rate(i))
        labels.append(f"{lab} wins\n(all games)")
        colors.append(f"C{i}")
        for j, seat in enumerate(SEATS):
            ests.append(s.player_seat_win_rate(i, j))
            labels.append(f"{lab} wins\nmoving {seat}")
            colors.append(f"C{i}")
    ests.append(s.draw_rate())
    labels.append("draws")
    colors.append("0.6")
    _bars(ax, ests, labels, colors)
    ax.legend(handles=[plt.Rectangle((0, 0), 1, 1, color=f"C{i}") for i in (0, 1)],
              labels=[f"{lab} = {name}" for lab, name in zip(PLAYER_LABELS, r.players)],
              loc="upper left", fontsize="small")
    ax.set_ylabel("rate (%)")
    ax.set_title(f"win rates, {level_pct(s.confidence)} Wilson intervals")
    _seat_panel(sx, s)
    _length_panel(hx, s)
    unit = quantity(s.n, "game") if s.n_matches is None else quantity(s.n_matches, "match")
    fig.suptitle(title or f"cuttle: {unit}, {r.rules}, seed {r.seed}")
    note = _partial(fig, interrupted)
    fig.tight_layout(rect=(0, 0, 1, 0.95 - note))
    _save(fig, path)
    plt.close(fig)


@renders("plot", ComparisonResult)
def plot_comparison(c: ComparisonResult, path: str | os.PathLike[str],
                    title: str | None = None, *,
                    interrupted: Interrupted | None = None) -> None:
    """Save a bar chart of a `ComparisonResult` to `path`: rates per rule set with their
    intervals, the differences to the baseline, and each rule set's mean game length
    (moves per game) with its interval; the rule sets name the axes; a partial run's
    (`interrupted`) says so under the title."""
    plt = pyplot()
    metrics = ["win_rate_A", "win_rate_B", "draw_rate", "first_mover_win_rate"]
    k = len(c.labels)
    names = _labels(c.labels)
    fig, (*axes, mx) = plt.subplots(1, 3, figsize=(max(13, 2.1 * k + 9), 5.4),
                                    gridspec_kw={"width_ratios": (1, 1, 0.6)})
    width = 0.8 / len(metrics)
    for ax, diff in ((axes[0], False), (axes[1], True)):
        for mi, metric in enumerate(metrics):
            xs, vals, lo, hi = [], [], [], []
            for i in range(k):
                if diff and i == 0:
                    continue
                e = c.difference(metric, i) if diff else c.estimate(metric, i)
                xs.append(i + (mi - (len(metrics) - 1) / 2) * width)
                vals.append(100 * e.value)
                lo.append(100 * (e.value - e.low))
                hi.append(100 * (e.high - e.value))
            if xs:
                ax.bar(xs, vals, width, yerr=[np.nan_to_num(lo), np.nan_to_num(hi)],
                       capsize=3, label=c.metric_label(metric), color=f"C{mi}")
        ticks = list(range(1 if diff else 0, k))
        ax.set_xticks(ticks)
        ax.set_xticklabels([names[i] for i in ticks], fontsize="small",
                           rotation=30 if k > 4 else 0, ha="right" if k > 4 else "center")
        if diff:
            ax.axhline(0, color="black", linewidth=0.8)
            ax.set_ylabel(f"difference to {c.labels[0]} (percentage points)")
            ax.set_title(f"vs the baseline, {level_pct(c.confidence)} "
                         f"{difference_method(c)} intervals")
        else:
            ax.set_ylabel("rate (%)")
            ax.set_title(f"rates, {level_pct(c.confidence)} Wilson intervals")
    _means_panel(mx, c, names)
    handles, legend = axes[0].get_legend_handles_labels()
    note = _partial(fig, interrupted)
    fig.legend(handles, legend, loc="upper center", ncol=len(metrics), fontsize="small",
               bbox_to_anchor=(0.5, 0.93 - note), frameon=False)
    fig.suptitle(title or f"cuttle: {c.n_games:,} {c.units} per {c.entry}, {same_deals(c)}, "
                          f"A = {c.players[0]}, B = {c.players[1]}")
    fig.tight_layout(rect=(0, 0, 1, 0.88 - note))
    _save(fig, path)
    plt.close(fig)


def _means_panel(ax, c: ComparisonResult, names: list[str]) -> None:
    """Each rule set's mean game length (moves per game) with its normal interval."""
    _bars(ax, [c.estimate("mean_moves", i) for i in range(len(names))], names, "0.55",
          percent=False)
    ax.set_xticklabels(names, fontsize="small", rotation=30 if len(names) > 2 else 0,
                       ha="right" if len(names) > 2 else "center")
    ax.set_ylabel("moves per game (mean)")
    ax.set_title(f"game length, {level_pct(c.confidence)} normal intervals")


# -- the atlas --------------------------------------------------------------------------

COLORS = {"pos": "C3", "neg": "C0", "": "0.55"}     # a shift up, down, or holding 0


def check_plot_folder(folder: str | os.PathLike[str]) -> str:
    """`folder` if forest plots can be saved there (created if its parent exists);
    ValueError otherwise, ImportError without matplotlib.  Call it before the work."""
    pyplot()
    return check_output_folder(folder)


def _panel(ax, shifts, ys, scale):
    for y, e in zip(ys, shifts):
        if not finite(e.value):
            continue
        c = COLORS[sign_class(e)]
        ax.hlines(y, scale * e.low, scale * e.high, color=c, linewidth=2)
        ax.plot([scale * e.value], [y], "o", color=c, markersize=5)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.grid(axis="x", alpha=0.3)


@renders("plot", GroupResult)
def plot_group(g: GroupResult, path: str | os.PathLike[str], title: str | None = None, *,
               interrupted: Interrupted | None = None) -> None:
    """Save the forest plot of a `GroupResult` to `path` (format from the extension):
    left, each variant's first-player win-rate shift in percentage points; right, its
    shift in mean moves per game; both with intervals, variants sorted by the first; a
    partial run's (`interrupted`) says so under the title."""
    plt = pyplot()
    rows = sorted((r for r in g.variants if r.n_games),
                  key=lambda r: (r.shift("first_mover_win_rate").value, r.label))
    n = max(1, len(rows))
    fig, (left, right) = plt.subplots(1, 2, sharey=True, figsize=(11, 0.3 * n + 2.0))
    ys = list(range(len(rows)))
    _panel(left, [r.shift("first_mover_win_rate") for r in rows], ys, 100)
    _panel(right, [r.shift("mean_moves") for r in rows], ys, 1)
    left.set_yticks(ys)
    left.set_yticklabels([r.label + ("" if r.status == "converged" else f"  [{r.status}]")
                          for r in rows], fontsize="small")
    left.set_ylim(-0.7, len(rows) - 0.3)
    base = g.base_row
    first, moves = base.estimate("first_mover_win_rate"), base.estimate("mean_moves")
    left.set_xlabel("shift of the first player's win rate (percentage points)")
    right.set_xlabel("shift of the game length (moves per game)")
    left.set_title(f"first player wins {fixed(100 * first.value, 1)}% under {g.base}",
                   fontsize="medium")
    right.set_title(f"{fixed(moves.value, 1)} moves per game under {g.base}", fontsize="medium")
    games = [r.n_games for r in rows]
    span = (quantity(min(games), "game") if min(games) == max(games)
            else f"{min(games):,} to {max(games):,} games") if games else "0 games"
    from matplotlib.ticker import MaxNLocator
    for ax in (left, right):
        # (at matplotlib's own count, a long span's labels ran into each other:
        # "-17.5-15.0-12.5")
        ax.xaxis.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 5, 10]))
    fig.suptitle(title or f"{g.title}: each variant against {g.base} on the same games")
    note = _partial(fig, interrupted)
    caption = _caption(fig, f"{level_pct(base.confidence)} intervals (paired); red: up, "
                            f"blue: down, grey: interval holds 0; {span} per variant, "
                            f"{base.n_games:,} for the base")
    fig.tight_layout(rect=(0, caption, 1, 0.97 - note))
    try:
        _save(fig, path)
    finally:
        plt.close(fig)


SIZE_MARKERS = {1: "o", 2: "s", 3: "^", 4: "D", 5: "v", 6: "P"}
# The balance plot's colours and the names its caption gives them (one home: the
# caption said "winners (red)" of brown markers).
BALANCE_COLORS = {"winner": ("#c00000", "red"), "raced": ("#1f5f9e", "blue"),
                  "out": ("0.6", "grey"), "base": ("0.3", "dark grey")}


@renders("plot", BalanceResult)
def plot_balance(r: BalanceResult, path: str | os.PathLike[str],
                 title: str | None = None, *, interrupted: Interrupted | None = None) -> None:
    """Save the balance search's picture to `path`: each candidate's first-player score
    (with its interval, at the level of the tables': a winner's confirmation at the
    result's confidence, race figures at the race's simultaneous level) against its mean
    game length, a marker per number of changes, the Pareto front joined, the base and
    50% marked; the winners and the base are named in a legend beside the axes (labels
    by the points hid their neighbours), the caption under them, naming only what is
    drawn, wrapped to the figure's width; a partial run's (`interrupted`) says so above
    the title.  A search stopped before any of its games finished has nothing to draw:
    its figure says so, in place of empty axes."""
    plt = pyplot()
    if not r.measured:
        fig = plt.figure(figsize=(11, 3))
        fig.text(0.5, 0.45, _wrapped(fig, _NOTHING_YET, _points("large")), ha="center",
                 va="center", fontsize="large")
        _partial(fig, interrupted, 0.95)
        return _save_closed(plt, fig, path)
    fig, ax = plt.subplots(figsize=(11, 6))
    ax.axhline(50, color="black", linewidth=0.8)
    handles, kinds = _balance_points(ax, r)
    sizes = [size for size in SIZE_MARKERS if any(c.size == size and not c.winner
                                                  for c in r.candidates if c.measure.n)]
    for size in sizes:
        handles.append(ax.plot([], [], SIZE_MARKERS[size], color=BALANCE_COLORS["raced"][0],
                               label=f"{quantity(size, 'change')} (others)")[0])
    if handles:         # (no candidates yet: no legend, nor matplotlib's warning)
        ax.legend(handles=handles, fontsize="small", loc="upper left",
                  bbox_to_anchor=(1.02, 1), borderaxespad=0)
    ax.margins(x=0.06, y=0.08)
    ax.set_xlabel("mean game length (moves)")
    ax.set_ylabel("first player's score (%): wins + half the draws")
    ax.grid(alpha=0.3)
    ax.set_title(title or f"Fair rule sets for {r.config.base} under {r.config.policy} "
                          f"self-play", fontsize="medium")
    caption = _caption(fig, _balance_caption(r, kinds))
    note = _partial(fig, interrupted, 0.99)
    fig.tight_layout(rect=(0, caption, 1, 1 - note))
    _save_closed(plt, fig, path)


# What the balance plot of a search with no finished games says, in place of its axes.
_NOTHING_YET = ("nothing measured yet: the search stopped before any of its games "
                "finished (the first chunk of the base's and of each single change's), so "
                "there is no score to plot; run it again to go on")


def _save_closed(plt, fig, path):
    try:
        _save(fig, path)
    finally:
        plt.close(fig)


def _balance_caption(r: BalanceResult, kinds: set[str]) -> str:
    """The balance plot's caption: what each colour drawn (`kinds`) is, with the level
    of its intervals, as the tables give them."""
    name = {k: v[1] for k, v in BALANCE_COLORS.items()}
    conf = level_pct(r.confidence)
    levels = sorted({c.race_level for c in r.candidates
                     if c.race.n and c.race_level is not None})
    race = (f"at the race's simultaneous level {level_pct(levels[0])}" if len(levels) == 1
            else "at the race's simultaneous level")
    parts = []
    if "winner" in kinds:
        parts.append(f"winners ({name['winner']}): {conf} intervals on fresh deals"
                     if r.complete else
                     f"provisional leaders ({name['winner']}; unfinished): the intervals of "
                     f"their games so far ({conf} for a confirmation's, {race} for the "
                     f"race's)")
    if "raced" in kinds:
        parts.append(f"others ({name['raced']}): their race games, {race}")
    if "out" in kinds:
        parts.append(f"{name['out']}: out of the race (eliminated, infeasible, drawn), "
                     f"{race}")
    if parts:           # (the base, named in the legend, has no interval)
        parts[-1] += " (the tables' intervals)"
    if "front" in kinds:
        parts.append("dotted: the Pareto front")
    return "; ".join(parts)


def _balance_points(ax, r: BalanceResult) -> tuple[list, set[str]]:
    """Draw the base and every candidate with games (its interval at its figures' level,
    `CandidateResult.level`, as the tables give it), and the Pareto front; returns the
    legend's handles of the base and of the winners, each named, and the kinds of
    candidate drawn (winner, raced, out) and "front" if the front is."""
    handles, winners, kinds = [], [], set()
    stage = r.base_stage()
    if stage is not None:
        base = r.base[stage]
        handles += ax.plot([base.estimate("mean_moves").value],
                           [100 * base.estimate("first_score").value], "x",
                           color=BALANCE_COLORS["base"][0], markersize=9,
                           label=f"{r.config.base} (base)")
    for c in r.candidates:
        if not c.measure.n:
            continue
        e, x = c.estimate("first_score", c.level), c.estimate("mean_moves").value
        kind = "winner" if c.winner else ("out" if c.status in OUT else "raced")
        kinds.add(kind)
        bars = ax.errorbar([x], [100 * e.value], yerr=[[100 * (e.value - e.low)],
                                                       [100 * (e.high - e.value)]],
                           fmt=SIZE_MARKERS.get(c.size, "o"), color=BALANCE_COLORS[kind][0],
                           capsize=3, markersize=6)
        if c.winner:
            bars.set_label(textwrap.fill(f"{quantity(c.size, 'change')}: {c.label}", 40,
                                         subsequent_indent="  "))
            winners.append((c.size, bars))
    handles += [bars for _, bars in sorted(winners, key=lambda w: w[0])]
    front = sorted(r.pareto, key=lambda c: c.estimate("mean_moves").value)
    if len(front) > 1:
        ax.plot([c.estimate("mean_moves").value for c in front],
                [100 * c.estimate("first_score").value for c in front], ":", color="0.4",
                linewidth=1)
        kinds.add("front")
    return handles, kinds


def _caption(fig, text: str) -> float:
    """Write `text` under the axes, wrapped to the figure's width (a line wider than the
    figure was cut at both edges); returns the fraction of the height it takes, to be
    left out of the axes' layout."""
    size = _points("small")
    wrapped = _wrapped(fig, text, size)
    fig.text(0.5, 0.01, wrapped, ha="center", va="bottom", fontsize="small", color="0.3")
    lines = wrapped.count("\n") + 1
    return (lines * size * LINE_SPACING / 72 + CAPTION_PAD) / fig.get_figheight()


def _points(size: str) -> float:
    """A named font size ("small", "medium") in points."""
    from matplotlib.font_manager import FontProperties
    return FontProperties(size=size).get_size_in_points()


def _wrapped(fig, text: str, size: float) -> str:
    """`text` in lines that fit the figure's width at a font of `size` points."""
    chars = int(0.94 * fig.get_figwidth() * 72 / (GLYPH * size))
    return textwrap.fill(text, max(20, chars), break_long_words=False,
                         break_on_hyphens=False)


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
