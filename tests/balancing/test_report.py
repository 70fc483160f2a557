"""The balance designer's report read as a designer reads it: the columns of a table
agree with each other and with the atlas's way of giving a change's figures."""

import html as htmllib
import json

import pytest

import cuttle
from cuttle.formatting import pct

# Random self-play, chunks of 1,000 games: sudden death changes few random games, so its
# shift is known within the first chunk and it stops there, while the deal plays on (and
# the base with it) to the cap.
SCREEN = dict(chunk_size=1000, screen_games=4000, screen_target=0.01, pairs=1,
              interaction_games=1000, per_size=1, race_games=1000, confirm_games=1000)


@pytest.fixture(scope="module")
def screened():
    return cuttle.balance("classic", "random", k=1, flags="deal,sudden_death,strict_scuttle",
                          deals=[(6, 6)], budget=SCREEN, progress=False)


def singles_rows(text):
    """{change: its line's cells} of the text report's single changes."""
    table = text.split("Single changes (screening)\n\n")[1].split("\n\n")[0]
    rows = {}
    for line in table.splitlines()[2:]:
        label = line.split("  ")[0]
        rows[label] = line
    return rows


def test_a_single_changes_first_score_is_the_base_plus_its_shift(screened):
    """The base scored 42.90% and strict scuttles shifted it by -0.38 points, but the
    column said 43.08%: each change's own games' score, of 2,000 games where the base
    had 4,000.  The column is the base's plus the shift, as the atlas gives a variant,
    and the JSON gives both."""
    res = screened
    base = res.base["screen"]
    early = [s for s in res.singles if s.measure.n < base.n]
    assert early, "no change stopped before the base: the test shows nothing"
    own = {s.variant.label: s.measure.estimate("first_score").value for s in res.singles}
    wanted = {s.variant.label: base.estimate("first_score").value + s.shift.value
              for s in res.singles}
    # (the two figures differ for a change that stopped first: what the user saw)
    assert any(pct(own[s.variant.label]) != pct(wanted[s.variant.label]) for s in early)
    rows = singles_rows(str(res))
    for label, value in wanted.items():
        cells = rows[label].split()
        assert pct(value) in cells, (label, rows[label])
        assert pct(own[label]) == pct(value) or pct(own[label]) not in cells
    md = res.markdown()
    table = md.split("#### Single changes (screening)")[1].split("####")[0]
    for label, value in wanted.items():
        assert f"| {pct(value)} |" in table.split(f"| {label} |")[1].splitlines()[0]
    html = htmllib.unescape(res._repr_html_())
    assert all(pct(value) in html for value in wanted.values())
    note = "first score: the base's (all its games) plus the shift, as the atlas gives"
    for text in (str(res), md, html):
        assert note in text
    d = json.loads(json.dumps(res.as_dict()))
    for s in d["singles"]:
        assert s["base_plus_shift"] == pytest.approx(wanted[s["label"]], abs=1e-12)
        assert s["first_score"]["value"] == pytest.approx(own[s["label"]], abs=1e-12)


def test_an_unfinished_search_says_what_it_has_not_reached():
    """Stopped in its screening, the report printed the Pareto front, the race and the
    search space as headers without rows, and the race's note sent the reader to "the
    search space below", as empty: each says instead that nothing was measured there
    yet, in every format, and what was measured (the base, the singles) is shown."""
    def stop(info):
        if info.get("stage") == "screen" and info.get("done") is not None and \
                info.get("chunk", 0) >= 1:
            raise KeyboardInterrupt
    with pytest.raises(cuttle.Interrupted) as ex:
        cuttle.balance("classic", "random", k=2, flags="deal,joker,four", deals=[(6, 6)],
                       budget=dict(SCREEN, per_size=2), progress=stop)
    res = ex.value.result
    assert not res.complete and not res.candidates and not res.generation
    text, md = str(res), res.markdown()
    page = htmllib.unescape(res._repr_html_())
    for out in (text, md, page):
        assert "search space below" not in out
        assert out.count("nothing measured here yet: the search is unfinished and has "
                         "raced no candidate") == 2
        assert "nothing here yet: the search is unfinished and has not finished " \
               "screening the single changes" in out
    # (no header of an empty table; the base's and the singles' tables are whole)
    assert "changes  rule set  first score  moves  from" not in text
    assert "| changes | rule set | first score | moves | from |" not in md
    assert "<th>not combined</th>" not in page
    assert "classic (base)" in text.split("Single changes (screening)")[1]
    assert "| deal=6,6 |" in md.split("#### Single changes (screening)")[1]


@pytest.fixture(scope="module")
def nothing_yet():
    """A search stopped before its first chunk finished: nothing measured anywhere."""
    def stop(info):
        raise KeyboardInterrupt
    with pytest.raises(cuttle.Interrupted) as ex:
        cuttle.balance("classic", "random", k=2, flags="deal,joker,four", deals=[(6, 6)],
                       budget=dict(SCREEN, per_size=2), progress=stop)
    res = ex.value.result
    assert res.base_stage() is None and not res.winners and not res.candidates
    return ex.value


def test_a_search_stopped_before_any_game_says_so_in_its_first_table(nothing_yet):
    """Its first table, the fairest rule set of each size, was its header alone while
    the tables under it said that nothing was measured there yet: it says so too."""
    res = nothing_yet.result
    text, md = str(res), res.markdown()
    page = htmllib.unescape(res._repr_html_())
    said = ("nothing measured here yet: the search is unfinished and has not finished "
            "a chunk of the base's games")
    for out in (text, md, page):
        first = out.split("The fairest rule set of each size")[1].split("The Pareto")[0]
        assert said in first, first
        assert "provisional: the search is unfinished, so these" not in first
    assert "changes  rule set  first score" not in text
    assert "| changes | rule set | first score |" not in md


def svg_text(res, path, **kwargs):
    """The text of `res`'s plot saved as SVG (its words as text, not paths)."""
    matplotlib = pytest.importorskip("matplotlib")
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        res.plot(str(path), **kwargs)
    return htmllib.unescape(path.read_text())


def test_the_plot_of_nothing_measured_says_so(nothing_yet, tmp_path):
    """It was an empty chart (an x axis of -0.04 to 0.04) whose caption explained red
    and blue points that were not there: a figure that says nothing was measured yet."""
    text = svg_text(nothing_yet.result, tmp_path / "b.svg", interrupted=nothing_yet)
    assert "nothing measured yet" in text and "mean game length" not in text
    assert "(red" not in text and "(blue" not in text
    assert nothing_yet.note().split(":")[0] in text         # (the partial run's line)


def test_the_plot_draws_the_tables_intervals(tmp_path):
    """The race table gives a raced candidate's interval at the race's simultaneous
    level (99.58%, say) and the plot drew 95% intervals: the plot draws the table's and
    its caption names both levels."""
    res = cuttle.balance("classic", "random", k=1, flags="deal,sudden_death,strict_scuttle",
                         deals=[(6, 6)], budget=dict(SCREEN, per_size=3), progress=False)
    raced = [c for c in res.candidates if not c.winner and c.race.n]
    assert raced and res.winners
    level = raced[0].race_level
    assert level > 0.96
    import matplotlib.pyplot as plt
    drawn = {}
    real = plt.Axes.errorbar

    def errorbar(ax, x, y, yerr=None, **kwargs):
        drawn[(x[0], y[0])] = (y[0] - yerr[0][0], y[0] + yerr[1][0])
        return real(ax, x, y, yerr=yerr, **kwargs)
    plt.Axes.errorbar = errorbar
    try:
        text = svg_text(res, tmp_path / "b.svg")
    finally:
        plt.Axes.errorbar = real
    for c in res.candidates:
        if not c.measure.n:
            continue
        e = c.estimate("first_score", c.level)
        key = (c.estimate("mean_moves").value, 100 * e.value)
        assert drawn[key] == pytest.approx((100 * e.low, 100 * e.high)), c.label
    from cuttle.formatting import level_pct
    assert f"at the race's simultaneous level {level_pct(level)}" in text.replace("\n", " ")


def test_the_race_note_counts_in_words(screened):
    """It said "1 statistic(s)": each count of the Bonferroni correction agrees with its
    noun (one candidate, one look of 1,000 games, one statistic)."""
    note = cuttle.render.balance_tables.balance_race_note(screened)
    assert "(Bonferroni over 1 candidate, 1 look and 1 statistic)" in note, note
    assert "(s)" not in str(screened)
