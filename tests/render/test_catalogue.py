"""The catalogue of statistics (cuttle.figures) drives every renderer: a figure added
to it appears in every output of a summary, each result renders in every form through
cuttle.display, and the old names of the figures still work for one release."""

import csv
import html
import dataclasses
import io
import json
import re
import warnings

import pytest

import cuttle
from cuttle import display, figures
from cuttle.figures import ALIASES, ATLAS, COMPARED, FORMER_NAMES, MATCH_COMPARED, SUMMARY
from cuttle.report import simulation_page
from cuttle.stats import wilson_interval


@pytest.fixture(scope="module")
def result():
    return cuttle.simulate(500, players=("random", "greedy"), seed=1, progress=False)


def outputs(summary):
    """Every output of a summary: text, JSON, CSV, HTML table, report page."""
    buf = io.StringIO()
    summary.to_csv(buf)
    return {"text": str(summary), "json": json.loads(json.dumps(summary.as_dict())),
            "csv": list(csv.DictReader(io.StringIO(buf.getvalue()))),
            "html": summary._repr_html_(), "page": simulation_page(summary)}


def test_one_entry_adds_a_figure_to_every_output(result, monkeypatch):
    # a new rate, the share of games won by either player: one entry of the catalogue
    new = figures.Figure("decisive_rate", "decisive games", figures.RATE,
                         lambda s: (s.n - s.draws, s.n), ("decisive_rate",), chart="rates")
    monkeypatch.setitem(SUMMARY, "decisive_rate", new)
    s = cuttle.simulation.Summary(result)          # a fresh summary sees the catalogue
    out = outputs(s)
    e = wilson_interval(s.n - s.draws, s.n)
    assert s.estimate("decisive_rate") == e
    line = next(x for x in out["text"].splitlines() if x.startswith("decisive games"))
    assert f"{s.n - s.draws:,}/{s.n:,}" in line and f"{100 * e.value:.2f}%" in line
    assert out["json"]["decisive_rate"] == {**e._asdict(), "count": s.n - s.draws, "n": s.n}
    row = next(r for r in out["csv"] if r["statistic"] == "decisive_rate")
    assert float(row["value"]) == e.value and row["count"] == str(s.n - s.draws)
    assert ">decisive games</td>" in out["html"]
    assert ">decisive games</text>" in out["page"]          # in the chart of rates


def test_every_figure_is_in_every_output(result):
    s = result.summary()
    out = outputs(s)
    players = result.players
    for name in s.figures:
        f = SUMMARY[name]
        node = out["json"]
        for key in f.path:
            node = node[key]
        value = node["rate"] if f.json == "share" else node["value"]
        assert value == pytest.approx(s.estimate(name).value), name
        assert any(r["statistic"] == name for r in out["csv"]), name
        label = f.text(players)
        if f.section == figures.ENDS:         # the note under the table
            if f.count(s)[0]:
                ends = next(x for x in out["text"].splitlines()
                            if x.startswith("games ended by"))
                assert label in ends, name
        else:
            assert label in out["text"] and label in html.unescape(out["html"]), name


def test_the_catalogue_is_consistent():
    for name, f in SUMMARY.items():
        assert f.name == name and f.format in ("pct", "pp", "num", "elo") and f.path
        assert f.interval in ("wilson", "newcombe (paired)", "normal",
                              "normal (pseudo-games 0 and 1)",
                              "normal interval of the score (pseudo-games 0 and 1), its "
                              "ends as Elo")
    for names in (COMPARED, MATCH_COMPARED, ATLAS):
        assert set(names) <= set(SUMMARY)
    for name in COMPARED + MATCH_COMPARED:      # compare pairs every metric up
        assert SUMMARY[name].pair is not None, name
    # every old name means one new name, never a name of the vocabulary itself
    assert not set(ALIASES) & set(SUMMARY)
    for scope in FORMER_NAMES.values():
        for new, old in scope.items():
            assert ALIASES.get(old, new) == new


def test_canonical_names():
    assert figures.canonical("draw_rate", SUMMARY) == "draw_rate"
    with pytest.warns(DeprecationWarning, match="'first_mover' is now called "
                                                "'first_mover_win_rate'"):
        assert figures.canonical("first_mover", SUMMARY) == "first_mover_win_rate"
    with pytest.raises(ValueError, match="unknown metric 'elo'; valid: draw_rate"):
        figures.canonical("elo", ["draw_rate"])
    d = figures.AliasedDict(win_rate_A=1, mean_moves=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert d["win_rate_A"] == 1 and "mean_moves" in d and d.get("nothing") is None
    with pytest.warns(DeprecationWarning):
        assert d["win_A"] == 1
    with pytest.warns(DeprecationWarning):
        assert "moves" in d and d.get("moves") == 2
    assert json.dumps(d) == '{"win_rate_A": 1, "mean_moves": 2}' and "win_A" not in list(d)


def test_every_result_renders_in_its_forms(result, tmp_path):
    c = cuttle.compare(["classic", "quick"], 200, seed=2, progress=False)
    a = cuttle.analyse(cuttle.Game(seed=1), rollouts=50, seed=1, threads=1)
    for obj, forms in ((result.summary(), ("text", "data", "html")), (result, ("html",)),
                       (c, ("text", "data", "html")), (a, ("text", "data", "html")),
                       (cuttle.Game(seed=1), ("svg",))):
        for form in forms:
            assert display.render(form, obj)
    assert cuttle.Game(seed=1)._repr_svg_().startswith("<svg")
    with pytest.raises(TypeError, match="no markdown renderer for Summary"):
        display.render("markdown", result.summary())
    with pytest.raises(ValueError, match="unknown form"):
        display.renders("pdf", object)


def test_analysis_figures():
    a = cuttle.analyse(cuttle.Game(seed=1), rollouts=60, seed=1, threads=1)
    r = a.rows[0]
    assert r.win_rate == wilson_interval(r.wins, r.rollouts)
    assert r.draw_rate == wilson_interval(r.draws, r.rollouts)
    assert r.score == (r.wins + 0.5 * r.draws) / r.rollouts
    d = a.as_dict()
    assert d["schema_version"] == 2 and d["moves"][0]["score"] == r.score
    assert d["moves"][0]["win_rate"]["count"] == r.wins
    # a move without rollouts (an interrupted analysis) prints n/a, and JSON null
    empty = dataclasses.replace(r, rollouts=0, wins=0, draws=0)
    a.rows.append(empty)
    cells = re.split(r"\s{2,}", str(a).splitlines()[-2].strip())
    assert cells[1:3] == ["n/a", "n/a"] and cells[-1] == "0"
    assert json.loads(json.dumps(a.as_dict()))["moves"][-1]["score"] is None


def test_a_new_kind_of_result_from_the_generic_pieces():
    # what a new module (a game review, a web app) does: figures reading its result,
    # renderers registered from the generic pieces, methods that call display.render
    from cuttle.render.csv import SUMMARY_COLUMNS, figure_rows
    from cuttle.render.data import figures_into
    from cuttle.render.html import table_html
    from cuttle.render.tables import figures_table
    from cuttle.render.text import table_text

    class Review:
        def __init__(self, good, moves):
            self.good, self.moves = good, moves

        def __str__(self):
            return display.render("text", self)

    REVIEW = {"good_move_rate": figures.Figure(
        "good_move_rate", "good moves", figures.RATE, lambda r: (r.good, r.moves),
        ("good_move_rate",))}
    display.renders("text", Review)(
        lambda r: table_text(figures_table(["a review"], [REVIEW.values()], r, 0.95)))
    display.renders("data", Review)(
        lambda r: figures_into({}, REVIEW.values(), r, 0.95))
    r = Review(30, 40)
    e = wilson_interval(30, 40)
    assert str(r).splitlines()[3].split() == ["good", "moves", "30/40", "75.00%",
                                              f"[{100 * e.low:.2f}%,", f"{100 * e.high:.2f}%]"]
    assert display.render("data", r) == {"good_move_rate": {**e._asdict(), "count": 30,
                                                            "n": 40}}
    assert list(figure_rows(REVIEW.values(), r, 0.95)) == [
        ["good_move_rate", repr(e.value), repr(e.low), repr(e.high), 30, 40]]
    assert len(SUMMARY_COLUMNS) == 6
    assert "<td class=\"label\">good moves</td>" in table_html(
        figures_table([], [REVIEW.values()], r, 0.95))
