"""The figures of render/plot.py, read from their artists: what each panel draws, its
intervals, where its value labels stand, and the colours its caption names."""

import colorsys

import pytest

import cuttle

matplotlib = pytest.importorskip("matplotlib")
from matplotlib.colors import to_rgb                     # noqa: E402

from cuttle.render import plot as plot_renderer          # noqa: E402


@pytest.fixture
def drawn(monkeypatch):
    """The figures a plot would have saved (closed after the test)."""
    figs = []
    plt = plot_renderer.pyplot()
    close = plt.close
    monkeypatch.setattr(plot_renderer, "_save", lambda fig, path: figs.append(fig))
    monkeypatch.setattr(plt, "close", lambda fig: None)
    yield figs
    for fig in figs:
        close(fig)


def axis(fig, title):
    """The axes whose title starts with `title`."""
    (ax,) = [a for a in fig.axes if a.get_title().startswith(title)]
    return ax


def bars(ax):
    """(heights, error bar lows, highs) of the bars of `ax`, in the order drawn."""
    (container,) = [c for c in ax.containers if hasattr(c, "patches")]
    heights = [p.get_height() for p in container.patches]
    (errors,) = [c for c in ax.containers if hasattr(c, "has_yerr")]
    segments = errors.lines[2][0].get_segments()
    return heights, [s[0][1] for s in segments], [s[1][1] for s in segments]


def test_the_summary_shows_the_first_and_second_mover_and_the_advantage(drawn):
    # It had win rates by player and seat only: not whoever moved first's.
    s = cuttle.simulate(600, seed=3, progress=False).summary()
    s.plot("s.png")
    ax = axis(drawn[0], "first vs second mover")
    heights, lows, highs = bars(ax)
    first, second = s.estimate("first_mover_win_rate"), s.estimate("second_mover_win_rate")
    assert heights == pytest.approx([100 * first.value, 100 * second.value])
    assert lows == pytest.approx([100 * first.low, 100 * second.low])
    assert highs == pytest.approx([100 * first.high, 100 * second.high])
    adv = s.estimate("first_player_advantage")
    assert f"advantage {100 * adv.value:+.2f} pp [{100 * adv.low:+.2f}, " \
           f"{100 * adv.high:+.2f}] pp" in ax.get_title()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["first mover\nwins",
                                                              "second mover\nwins"]


def test_value_labels_stand_above_the_error_bars(drawn):
    # Each label stood on its bar's top, struck through by the error bar.
    s = cuttle.simulate(600, seed=3, progress=False).summary()
    s.plot("s.png")
    for title in ("win rates", "first vs second mover"):
        ax = axis(drawn[0], title)
        heights, _, highs = bars(ax)
        labels = [t for t in ax.texts if isinstance(t, matplotlib.text.Annotation)]
        assert [t.get_text() for t in labels] == [f"{h:.1f}" for h in heights]
        assert [t.xy[1] for t in labels] == pytest.approx(highs)
        assert all(t.get_va() == "bottom" for t in labels)


def test_a_rate_of_no_games_is_labelled_so(drawn):
    cuttle.simulate(100, seed=3, swap_seats=False, progress=False).summary().plot("s.png")
    labels = [t.get_text() for t in axis(drawn[0], "win rates").texts]
    assert labels[2] == labels[4] == "no\ngames"       # A moving second, B moving first
    assert "no\ngames" not in labels[:2] + labels[5:] and "nan" not in " ".join(labels)


def test_the_comparison_shows_each_rule_sets_game_length(drawn):
    # The command prints the mean moves per rule set; the plot had no length at all.
    c = cuttle.compare(["classic", "quick", "cuttle.cards"], 400, seed=1, progress=False)
    c.plot("c.png")
    ax = axis(drawn[0], "game length, 95% normal intervals")
    heights, lows, highs = bars(ax)
    means = [c.estimate("mean_moves", i) for i in range(3)]
    assert heights == pytest.approx([e.value for e in means])
    assert lows == pytest.approx([e.low for e in means])
    assert highs == pytest.approx([e.high for e in means])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["classic", "quick",
                                                              "cuttle.cards"]


HUES = {"red": (0.95, 0.03), "blue": (0.55, 0.7)}       # (from, to) on the colour wheel


def named(name, colour):
    """Whether `colour` is what a caption's `name` says."""
    h, _, sat = colorsys.rgb_to_hls(*to_rgb(colour))
    if name.endswith("grey"):
        return sat < 0.05
    lo, hi = HUES[name]
    return sat > 0.4 and ((lo <= h <= hi) if lo < hi else (h >= lo or h <= hi))


def test_the_balance_caption_names_the_colours_drawn(drawn):
    # "winners (red)" were drawn brown (#a04000).
    small = dict(chunk_size=1000, screen_games=4000, screen_target=0.01, pairs=3,
                 interaction_games=4000, interaction_target=0.02, per_size=3,
                 race_games=8000, race_target=0.015, confirm_games=8000,
                 confirm_target=0.01)
    res = cuttle.balance("classic", "random", k=1, flags=["deal", "joker"],
                         deals=[(6, 6), (6, 7)], budget=small, progress=False)
    res.plot("b.png")
    fig = drawn[0]
    (caption,) = [" ".join(t.get_text().split()) for t in fig.texts
                  if t.get_text().startswith("winners")]       # (wrapped in lines)
    names = {}                          # kind -> its colour's name (the kinds drawn only)
    for part in caption.split("; "):
        if part.startswith(("winners (", "others (")):
            names["winner" if part[0] == "w" else "raced"] = part.split("(")[1].split(")")[0]
        elif ": out of the race" in part:
            names["out"] = part.split(":")[0]
    assert names["winner"] == "red" and names["raced"] == "blue", caption
    assert names.get("out", "grey") == "grey", caption
    ax = fig.axes[0]
    for c in res.candidates:
        point = (c.estimate("mean_moves").value, 100 * c.estimate("first_score").value)
        (line,) = [x for x in ax.lines if len(x.get_xdata()) == 1 and
                   (x.get_xdata()[0], x.get_ydata()[0]) == pytest.approx(point)]
        kind = "winner" if c.winner else (
            "out" if c.status in ("eliminated", "infeasible") else "raced")
        assert kind in names, (c.label, kind, caption)      # every kind drawn is named
        assert named(names[kind], line.get_color()), (c.label, kind, line.get_color())
    assert any(c.winner for c in res.candidates)


def shown_ticks(ax):
    """The tick labels of `ax` drawn: those of the ticks within its limits."""
    out = []
    for axis, (low, high) in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
        low, high = min(low, high), max(low, high)
        for tick in axis.get_major_ticks():
            if low <= tick.get_loc() <= high and tick.label1.get_visible():
                out.append(tick.label1)
    return out


def texts(fig):
    """Every piece of text drawn on `fig` (titles, captions, labels, ticks, legends)."""
    ticks = {id(t) for ax in fig.axes for axis in (ax.xaxis, ax.yaxis)
             for tick in axis.get_major_ticks() + axis.get_minor_ticks()
             for t in (tick.label1, tick.label2)}
    out = [t for t in fig.findobj(matplotlib.text.Text)
           if id(t) not in ticks and t.get_visible() and t.get_text().strip()]
    return out + [t for ax in fig.axes for t in shown_ticks(ax) if t.get_text().strip()]


def cut_off(fig):
    """The texts of `fig` that reach beyond its edges (cut off in the saved picture)."""
    renderer = fig.canvas.get_renderer()
    edge = fig.bbox
    return [t.get_text() for t in texts(fig)
            if not (edge.x0 - 1 <= t.get_window_extent(renderer).x0 and
                    t.get_window_extent(renderer).x1 <= edge.x1 + 1 and
                    edge.y0 - 1 <= t.get_window_extent(renderer).y0 and
                    t.get_window_extent(renderer).y1 <= edge.y1 + 1)]


def test_the_balance_plot_is_whole_and_its_names_hide_no_point(drawn, tmp_path):
    """The quick search's picture cut its caption at both edges and the base's name at
    the right one, and the winners' names lay over their neighbours' points: every
    text lies within the figure, none inside the axes covers a point, and the winners
    and the base are named in the legend beside the axes."""
    small = dict(chunk_size=1000, screen_games=4000, screen_target=0.01, pairs=3,
                 interaction_games=4000, interaction_target=0.02, per_size=3,
                 race_games=8000, race_target=0.015, confirm_games=8000,
                 confirm_target=0.01)
    res = cuttle.balance("classic", "random", k=2, flags=["deal", "joker", "four"],
                         deals=[(6, 6), (6, 7)], budget=small, progress=False)
    assert res.winners
    res.plot("b.png")
    fig = drawn[0]
    fig.canvas.draw()
    assert not cut_off(fig)
    ax = fig.axes[0]
    renderer = fig.canvas.get_renderer()
    points = [ax.transData.transform((x.get_xdata()[0], x.get_ydata()[0]))
              for x in ax.lines if len(x.get_xdata()) == 1]
    assert len(points) > len(res.winners)
    for t in ax.texts:
        box = t.get_window_extent(renderer).expanded(1.1, 1.3)
        assert not any(box.contains(*p) for p in points), t.get_text()
    names = [" ".join(t.get_text().split()) for t in ax.get_legend().get_texts()]
    assert "classic (base)" in names
    for size, w in res.winners.items():
        assert f"{size} change{'s' * (size > 1)}: {w.label}" in names


def test_the_atlas_plot_is_whole_and_its_ticks_apart(drawn):
    """The atlas's length panel numbered its axis so densely that its labels ran into
    each other ("-17.5-15.0-12.5", over the span of shifts the user's expert atlas had):
    every text lies within the figure, and the tick labels of each axis stand apart."""
    from cuttle.variants import Pairing
    res = cuttle.atlas(pairings=[Pairing("random", target=0.03, max_games=2000,
                                         chunk_size=1000)],
                       bases=["classic"], progress=False, interactions=0)
    res.groups[0].plot("g.png")
    fig = drawn[0]
    fig.canvas.draw()
    assert not cut_off(fig)
    fig.axes[1].set_xlim(-18.6, 3.6)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes:
        shown = [t for t in shown_ticks(ax) if t in ax.get_xticklabels()]
        boxes = sorted((t.get_window_extent(renderer) for t in shown), key=lambda b: b.x0)
        assert all(a.x1 + 2 <= b.x0 for a, b in zip(boxes, boxes[1:])), \
            [t.get_text() for t in shown]
