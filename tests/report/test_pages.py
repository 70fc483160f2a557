"""Results as HTML (the text tables, cell for cell), the report and replay pages (no
browser: their content), and the --html options of the cuttle command, whose pages'
charts show the run's numbers (those of its --json)."""

import html
import json
import re

import pytest

import cuttle
from cuttle import report
from cuttle.cli import main
from cuttle.record import make_record, write_record
from cuttle.render.html import table_html
from cuttle.render.tables import comparison_table, summary_table
from cuttle.svg import table
from report.conftest import play_random
from support.helpers import unpack


@pytest.fixture(scope="module")
def sim():
    return cuttle.simulate(400, players=("random", "greedy"), seed=1)


@pytest.fixture(scope="module")
def matches():
    return cuttle.simulate(60, players=("random", "greedy"), seed=1, match="best_of_3")


@pytest.fixture(scope="module")
def cmp():
    return cuttle.compare(["classic", "cuttle.cards", cuttle.Rules(four="random")], 300,
                          players=("greedy", "random"), seed=2)


@pytest.fixture(scope="module")
def analysis():
    return cuttle.analyse(cuttle.Game(seed=1), rollouts=100, seed=1)


def html_rows(fragment):
    """The non-empty cells of each table row, as text."""
    rows = []
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", fragment, re.S):
        cells = [html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
                 for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, re.S)]
        if any(cells):
            rows.append([c for c in cells if c])
    return rows


def text_rows(text):
    """The rows of a text table (columns: runs of two or more spaces): the lines between
    the title and the closing notes (after the last blank line; without blank lines,
    the first line is the title and the last the note)."""
    lines = str(text).split("\n")
    blanks = [i for i, line in enumerate(lines) if not line.strip()]
    first, end = (blanks[0] + 1, blanks[-1]) if blanks else (1, len(lines) - 1)
    return [re.split(r"\s{2,}", line.strip()) for line in lines[first:end] if line.strip()]


def test_summary_table_is_the_text_table(sim, matches):
    for res in (sim, matches):
        s = res.summary()
        frag = report.summary_html(s)
        assert html_rows(frag) == text_rows(s)
        assert res._repr_html_() == frag and s._repr_html_() == frag
        title = str(s).split("\n")[0]
        assert html.escape(title) in frag and "games ended by:" in frag


def test_comparison_table_is_the_text_table(cmp):
    frag = report.comparison_html(cmp)
    mine, text = html_rows(frag), text_rows(cmp)
    assert len(mine) == len(text)
    for m, t in zip(mine, text):
        assert m[0].startswith(t[0]) and m[1:] == t[1:]
    assert cmp._repr_html_() == frag
    assert "[3] classic: four=random" in html.unescape(frag)


def test_analysis_table_is_the_text_table(analysis):
    frag = report.analysis_html(analysis)
    assert html_rows(frag) == text_rows(analysis)
    assert analysis._repr_html_() == frag and 'class="best"' in frag


def offline(page):
    """No resource the page would fetch: no src/href/url()/@import, no web address
    besides the SVG namespaces."""
    rest = page.replace('"http://www.w3.org/2000/svg"', "").replace(
        '"http://www.w3.org/1999/xlink"', "")
    assert not re.search(r"\bsrc\s*=|<link|@import|url\(|https?:", rest, re.I)
    return True


def test_report_pages(sim, matches, cmp):
    page = report.simulation_page(sim.summary())
    assert page.startswith("<!DOCTYPE html>") and offline(page)
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg" class="chart"') == 4
    assert table_html(summary_table(sim.summary())) in page
    assert html.escape(json.dumps(sim.summary().as_dict(), indent=2)) in page
    page = report.simulation_page(matches.summary())
    assert page.count('class="chart"') == 5 and "wins the match" in page
    page = report.comparison_page(cmp)
    assert offline(page) and table_html(comparison_table(cmp)) in page
    # one chart per metric, and one of the differences with a row per rule set >= 2
    assert page.count('class="chart"') == len(cmp.metrics) + 1
    # (the differences chart: the four rates', the first-player advantage's and the
    # three scores', in pp)
    assert page.count('class="estimate"') == 3 * len(cmp.metrics) + 2 * 8


def test_comparison_chart_names_its_rows(cmp):
    # each difference is labelled with its rule set's name under its metric, not "[2]"
    # with the names far below in the table
    diff, _ = report.pages.comparison_charts(cmp)
    labels = [html.unescape(re.sub(r"<title>.*?</title>", "", t)) for t in
              re.findall(r'<text x="[^"]*" y="[^"]*"[^>]*fill="#222">(.*?)</text>', diff)]
    labels = [t for t in labels if not t.startswith(("+", "-")) or " pp" not in t][1:]
    assert labels[:3] == ["A (greedy) wins", "[2] cuttle.cards", "[3] classic: four=random"]
    assert labels.count("[2] cuttle.cards") == 8 and "draws" in labels
    assert "first-player advantage" in labels and "first player's score" in labels
    assert "A (greedy) score" in labels and "B (random) score" in labels
    assert "Differences to [1] classic" in diff
    # a name too long for its room is cut with an ellipsis, whole in its tooltip
    long = cuttle.Rules(four="random", joker=True, hand_limit=5, sudden_death=True,
                        open_hands=True, nine="freeze")
    c = cuttle.compare(["classic", long], 100, seed=1)
    diff, _ = report.pages.comparison_charts(c)
    assert f"<title>[2] {html.escape(str(long))}</title>" in diff and "…" in diff


def test_no_negative_zero_on_the_pages():
    # sudden death shortens these 1,000 games by -0.001 moves: "-0.00" before
    c = cuttle.compare(["classic", cuttle.Rules(sudden_death=True)], 1000, seed=4,
                       confidence=0.9)
    assert -0.005 < c.difference("mean_moves", 1).value < 0
    zero = re.compile(r"-0\.0+(?![0-9])")
    assert "+0.00   [-0.05, +0.04]" in str(c)
    for text in (str(c), c._repr_html_(), report.comparison_page(c)):
        assert not zero.search(text)


def test_replay_page_holds_every_step_and_view():
    g = play_random(cuttle.Game("cuttle.cards", seed=8), 60, 8, ("points", "oneoff"))
    page = report.game_page(g, names=("ann", "bob"))
    assert offline(page)
    pictures, steps = unpack(page)
    assert len(steps) == g.ply + 1 and len(set(pictures)) == len(pictures)
    step = g.copy()
    while step.ply:
        step.undo()
    for i, move in enumerate([None] + g.moves):
        if move is not None:
            step.play(move)
        assert [pictures[k] for k in steps[i]] == \
            [table(step, v, names=("ann", "bob")) for v in (0, 1, None)]
        if move is not None:
            assert f'<li data-step="{i}">' in page
            assert f"</span> {move}<" in page


def test_replay_page_says_what_each_move_did_in_each_view():
    """A line under a move for each distinct text of the views, shown in those views
    only (the style picks them by the body's data-viewer); one line for all when the
    views agree."""
    g = cuttle.Game.from_position(hands=(["3C"], ["TH"]), deck=["KS", "2H"], seed=1)
    for m in ("draw", "points TH"):
        g.play(m)
    page = report.game_page(g, names=("ann", "bob"))
    assert ('<span class="p0">P0</span> draw<span class="effect v0 vall">P0 draws KS.'
            '</span><span class="effect v1">P0 draws a card.</span></li>') in page
    assert '<span class="p1">P1</span> points TH</li>' in page
    assert 'body[data-viewer="1"] .moves .effect.v1' in page
    g = cuttle.Game.from_position(hands=(["4C", "9H"], ["3C", "7H", "JD"]), deck=["KS"],
                                  rules="classic: four=random", rest="scrap", seed=1)
    for m in ("oneoff 4C", "resolve"):
        g.play(m)
    lost = sorted({"3C", "7H", "JD"} - set(g.hand(1)), key=lambda c: cuttle.Card(c).index)
    assert (f'resolve<span class="effect">4C resolves: P1 discards {lost[0]} and '
            f'{lost[1]}.</span></li>') in report.game_page(g)


def make_game_record(tmp_path, seed=3):
    g = play_random(cuttle.Game(seed=seed), 400, seed)
    path = tmp_path / "game.json"
    write_record(make_record(g, players=["random", "greedy"]), path)
    return g, path


def run(capsys, argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_replay_html(capsys, tmp_path):
    g, rec = make_game_record(tmp_path)
    out = tmp_path / "replay.html"
    code, stdout, _ = run(capsys, ["replay", rec, "--html", out])
    assert code == 0 and f"written to {out}" in stdout and "Move 1" not in stdout
    pictures, steps = unpack(out.read_text())
    assert len(steps) == g.ply + 1
    assert pictures[steps[-1][2]] == table(g, None, names=("random", "greedy"))
    code, _, err = run(capsys, ["replay", rec, "--html", tmp_path / "no" / "x.html"])
    assert code == 2 and "no folder" in err
    code, _, err = run(capsys, ["replay", rec, "--html", out, "--step"])
    assert code == 2 and "--step and --html" in err
    bad = json.loads(rec.read_text())
    bad["moves"][3] = "scuttle KS 2C"
    rec.write_text(json.dumps(bad))
    code, _, err = run(capsys, ["replay", rec, "--html", tmp_path / "bad.html"])
    assert code == 2 and "move 4" in err and not (tmp_path / "bad.html").exists()


def test_a_one_move_record_says_1_move(capsys, tmp_path):
    g = cuttle.Game(seed=3)
    g.play(g.legal_moves[0])
    rec = tmp_path / "one.json"
    write_record(make_record(g, players=["random", "greedy"]), rec)
    code, stdout, _ = run(capsys, ["replay", rec])
    assert code == 0 and "; 1 move\n" in stdout
    out = tmp_path / "one.html"
    code, stdout, _ = run(capsys, ["replay", rec, "--html", out])
    assert code == 0 and "replay page of 1 move written" in stdout
    assert "1 move" in out.read_text() and "1 moves" not in out.read_text()


def test_cli_simulate_and_compare_html(capsys, tmp_path):
    out = tmp_path / "sim.html"
    code, stdout, err = run(capsys, ["simulate", "-n", "300", "--seed", "1", "--html", out])
    assert code == 0 and "A (random) wins" in stdout and f"page saved to {out}" in err
    page = out.read_text()
    s = cuttle.simulate(300, seed=1).summary()
    assert html_rows(table_html(summary_table(s))) == html_rows(page.split("<h2>Charts")[0])
    out = tmp_path / "cmp.html"
    code, _, err = run(capsys, ["compare", "classic", "cuttle.cards", "-n", "200", "--seed",
                                "1", "--html", out, "--json", tmp_path / "c.json"])
    assert code == 0 and "cuttle comparison" in out.read_text()
    assert err.strip() == f"page saved to {out}"
    code, _, err = run(capsys, ["simulate", "-n", "10", "--html", tmp_path])
    assert code == 2 and "is a folder" in err


# -- the charts of the --html pages show the run's numbers ------------------------------

def chart_rows(svg):
    """The rows of a chart of a page, in order: (heading, label, value, dot x) for an
    interval chart's row (heading: the bold row above it, or None; value: the number
    printed at its right; dot x: where its estimate is drawn), (None, legend text, None,
    None) for a share bar's legend."""
    rows, heading = [], None
    texts = re.findall(r"<text ([^>]*)>(?:<title>(.*?)</title>)?(.*?)</text>", svg)
    for attrs, tip, shown in texts[1:]:                         # (after the title)
        text = html.unescape(tip or shown)
        y = float(re.search(r'\by="([^"]*)"', attrs).group(1))
        if 'font-weight="600"' in attrs:
            heading = text
        elif 'text-anchor="end"' in attrs:                      # a row's label
            dot = re.search(rf'<circle class="estimate" cx="([^"]*)" cy="{y - 4:.1f}"', svg)
            rows.append((heading, text, None, float(dot.group(1)) if dot else None))
        elif 'text-anchor="middle"' not in attrs:               # (not an axis tick)
            if rows and rows[-1][2] is None and rows[-1][3] is not None:
                rows[-1] = (*rows[-1][:2], float(text.split()[0].rstrip("%")), rows[-1][3])
            else:
                rows.append((None, text, None, None))
    return rows


def page_charts(page):
    """{title: rows} of every chart of a page (`chart_rows`)."""
    return {html.unescape(re.search(r'font-weight="600"[^>]*>(.*?)</text>', svg).group(1)):
            chart_rows(svg)
            for svg in re.findall(r'<svg [^>]*class="chart".*?</svg>', page, re.S)}


def shows(rows, expected, scale=100):
    """`rows` (a chart's) show each (heading, label, value) of `expected` (a fraction,
    printed times `scale` to two decimals), with its dot placed in the order of the
    values."""
    got = {(h, label): (v, x) for h, label, v, x in rows}
    for heading, label, value in expected:
        assert (heading, label) in got, (heading, label, rows)
        assert got[(heading, label)][0] == pytest.approx(scale * value, abs=0.0051), label
    drawn = sorted((v, x) for v, x in got.values() if x is not None)
    assert [x for _, x in drawn] == sorted(x for _, x in drawn)      # (left to right)
    return True


def at(d, path):
    """The value of `d` (a JSON object) at `path` (its keys)."""
    for key in path:
        d = d[key]
    return d


SIMULATE_CHARTS = ["Win and draw rates (95% Wilson intervals)", "Seats: who moved first",
                   "First-player advantage (first minus second mover)",
                   "How the games ended"]


def test_the_simulation_pages_charts_show_its_numbers(capsys, tmp_path):
    out, data = tmp_path / "sim.html", tmp_path / "sim.json"
    code, _, _ = run(capsys, ["simulate", "-n", "300", "--seed", "5", "--no-progress",
                              "--html", out, "--json", data])
    d, charts = json.loads(data.read_text()), page_charts(out.read_text())
    assert code == 0 and list(charts) == SIMULATE_CHARTS
    rates, seats, advantage, ends = charts.values()
    assert shows(rates, [(None, "A (random) wins", d["win_rate"]["A"]["value"]),
                         (None, "B (greedy) wins", d["win_rate"]["B"]["value"]),
                         (None, "draws", d["draw_rate"]["value"])])
    by_seat = d["win_rate_by_seat"]
    assert shows(seats, [(None, f"{p} wins moving {s}", by_seat[p][s]["value"])
                         for p in "AB" for s in ("first", "second")]
                 + [(None, "first mover wins", d["first_mover_win_rate"]["value"]),
                    (None, "second mover wins", d["second_mover_win_rate"]["value"])])
    assert shows(advantage, [(None, "first-player advantage",
                              d["first_player_advantage"]["value"])])
    legend = [label for _, label, _, _ in ends]
    assert legend == [f"{how} {100 * e['rate']:.2f}%" for how, e in d["end"].items()
                      if e["count"]]


def test_the_comparison_pages_charts_show_its_numbers(capsys, tmp_path):
    out, data = tmp_path / "cmp.html", tmp_path / "cmp.json"
    code, _, _ = run(capsys, ["compare", "classic", "cuttle.cards", "-n", "200", "--seed",
                              "5", "--no-progress", "--html", out, "--json", data])
    d, charts = json.loads(data.read_text()), page_charts(out.read_text())
    assert code == 0
    names = [f"[{i + 1}] {r['label']}" for i, r in enumerate(d["rule_sets"])]
    summaries = [r["summary"] for r in d["rule_sets"]]
    each = {"A (random) wins": ("win_rate", "A"), "draws": ("draw_rate",),
            "first mover wins": ("first_mover_win_rate",),
            "first player's score": ("first_score",)}
    for title, path in each.items():
        values = [at(s, path)["value"] for s in summaries]
        assert shows(charts[title], [(None, n, v) for n, v in zip(names, values)])
    assert shows(charts["moves per game (mean)"],
                 [(None, n, s["mean_moves"]["value"]) for n, s in zip(names, summaries)],
                 scale=1)
    diff = next(rows for title, rows in charts.items() if title.startswith("Differences"))
    change = d["rule_sets"][1]["difference_vs_baseline"]
    assert shows(diff, [("A (random) wins", names[1], change["win_rate_A"]["value"]),
                        ("draws", names[1], change["draw_rate"]["value"]),
                        ("first-player advantage", names[1],
                         change["first_player_advantage"]["value"]),
                        ("first player's score", names[1], change["first_score"]["value"])])


def test_the_balance_pages_charts_show_its_numbers(capsys, tmp_path):
    out, data = tmp_path / "bal.html", tmp_path / "bal.json"
    code, _, err = run(capsys, ["balance", "--policy", "random", "-k", "1", "--flags",
                                "four,joker", "--chunk-size", "1000", "--screen-games",
                                "2000", "--max-games", "2000", "--confirm-games", "2000",
                                "--no-progress", "--html", out, "--json", data])
    d, charts = json.loads(data.read_text()), page_charts(out.read_text())
    assert code == 0, err
    fairest, race = charts.values()
    winners = [c for c in d["candidates"] if c["winner"]]
    assert winners and d["base_games"]["confirm"]["games"]

    def label(c):                       # (its one change: "classic: joker=true")
        return c["rules"].removeprefix("classic: ")
    assert shows(fairest, [(None, "classic (base)",
                            d["base_games"]["confirm"]["first_score"]["value"] - 0.5)]
                 + [(None, f"{c['size']}: {label(c)}", c["first_score"]["value"] - 0.5)
                    for c in winners])
    raced = [c for c in d["candidates"] if c["race"]["games"]]
    assert len(raced) == len(race) >= 2
    assert shows(race, [(None, label(c), c["race"]["first_score"]["value"] - 0.5)
                        for c in raced])
