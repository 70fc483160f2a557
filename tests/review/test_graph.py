"""Where a game was lost, on the review's graph and in its text: a move that lost is a
drop of its player's line (from the best move's value to the move played's), each line
is its own player's chances as they saw them, the change over the moves no label
judges (the opponent's when only one player is reviewed, the cards drawn) is shown as
such, and losses read in pp (percentage points), not in "points", a Cuttle score."""

import re
import xml.etree.ElementTree as ET

import pytest

import cuttle
from cuttle.formatting import pp
from cuttle.record import make_record
from cuttle.report.review_block import LABEL_COLOURS, PLAYER_COLOURS
from cuttle.review import Review, review
from review.test_review import SAVE
from support.helpers import bot_game, run_cli

SVG = "{http://www.w3.org/2000/svg}"


def graph(page):
    """The review graph's SVG element of a review page."""
    return ET.fromstring(re.search(r'<svg[^>]*class="review-chart".*?</svg>', page,
                                   re.S).group(0))


def scale(svg):
    """step, value -> (x, y) of the graph, read from its 0% and 100% grid lines and the
    cursor's step width."""
    grid = [ln for ln in svg.findall(f"{SVG}line") if ln.get("stroke") == "#ccc"]
    y0, y1 = float(grid[-1].get("y1")), float(grid[0].get("y1"))    # 100%, 0%
    cur = svg.find(f".//{SVG}line[@id='review-cursor']")
    x0, dx = float(cur.get("data-x0")), float(cur.get("data-dx"))
    return lambda step, v: (x0 + dx * step, y1 - (y1 - y0) * v)


def segment(g):
    ln = g.find(f"{SVG}line[@class='seg']")
    return tuple(float(ln.get(k)) for k in ("x1", "y1", "x2", "y2")), ln.get("stroke")


def text_of(svg):
    return " ".join(t.strip() for t in svg.itertext() if t.strip())


@pytest.fixture(scope="module")
def one():
    """P0's moves reviewed (P1 not), of a game with P1's moves between them."""
    g = bot_game(("expert", "greedy"), 1)          # 39 moves, P1 wins
    return g, review(g, "rollouts:20", player=0, seed=3, threads=1)


@pytest.fixture(scope="module")
def both():
    g = bot_game(("random", "expert"), 9)          # 27 moves, P1 wins
    return g, review(g, "rollouts:20", seed=3, threads=1)


def test_a_blunder_is_a_drop_of_its_players_line():
    """The only move that saves the game missed: the graph's line falls, at that move,
    from the best move's value to the move played's, in the blunder's colour (it plotted
    the value after the move only: a line that started flat at the blunder's value)."""
    g = cuttle.Game.from_position("open", **SAVE)
    rec = make_record(g.copy(), players=["a", "b"], position=g.position_text(rules=False))
    rec["moves"] = ["draw"]
    r = review(rec, "expert:16", player=0, seed=2)
    d = r.decisions[0]
    assert d.label == "blunder" and d.loss > 0.2
    svg = graph(r.page())
    xy = scale(svg)
    drop = svg.find(f".//{SVG}g[@data-ply='0']")
    assert drop.get("class").split()[:2] == ["drop", "blunder"]
    (xa, ya, xb, yb), colour = segment(drop)
    assert colour == LABEL_COLOURS["blunder"]
    assert (xa, ya) == pytest.approx(xy(0, d.best_score), abs=0.06)        # before: best
    assert (xb, yb) == pytest.approx(xy(1, d.played_score), abs=0.06)      # after: played
    assert yb - ya == pytest.approx((xy(0, 0)[1] - xy(0, 1)[1]) * d.loss, abs=0.1)
    assert yb - ya > 20                                   # a drop one sees
    tip = drop.find(f"{SVG}title").text
    assert "blunder" in tip and "scuttle TS TC" in tip and f"{d.best_score:.0%}" in tip
    mark = svg.find(f".//{SVG}circle[@class='best-mark']")
    assert (float(mark.get("cx")), float(mark.get("cy"))) == pytest.approx(
        xy(0, d.best_score), abs=0.06)
    assert "best move" in mark.find(f"{SVG}title").text


def test_every_judged_move_runs_from_its_best_value_to_its_played_value(both):
    g, r = both
    svg = graph(r.page())
    xy = scale(svg)
    judged = [d for d in r.decisions if d.judged]
    assert any(d.label in ("mistake", "blunder") for d in judged)
    for d in judged:
        el = svg.find(f".//{SVG}g[@data-ply='{d.ply}']")
        (xa, ya, xb, yb), colour = segment(el)
        assert (xa, ya) == pytest.approx(xy(d.ply, d.best_score), abs=0.06)
        assert (xb, yb) == pytest.approx(xy(d.ply + 1, d.played_score), abs=0.06)
        assert colour == (LABEL_COLOURS[d.label] if d.label in ("inaccuracy", "mistake",
                                                                  "blunder")
                          else PLAYER_COLOURS[d.player])


def test_each_line_is_its_own_players_chances(both):
    """Both players reviewed: P1's line is P1's chances (it plotted P0's, labelled "P1's
    view" in P1's colour: it fell to 0% in a game P1 won)."""
    g, r = both
    assert g.winner == 1
    svg = graph(r.page())
    xy = scale(svg)
    legend = svg.find(f".//{SVG}text[@class='legend']")
    spans = [(t.get("fill"), t.text) for t in legend.findall(f"{SVG}tspan")]
    assert spans == [(PLAYER_COLOURS[0], "— P0's chances, as P0 saw them"),
                     (PLAYER_COLOURS[1], "— P1's chances, as P1 saw them")]
    assert "'s view" not in text_of(svg)
    for d in (d for d in r.decisions if d.judged):
        pt = svg.find(f".//{SVG}circle[@data-step='{d.ply + 1}']")
        assert float(pt.get("cy")) == pytest.approx(xy(0, d.played_score)[1], abs=0.06)
        assert f"P{d.player}'s chances {d.played_score:.0%}" in pt.find(f"{SVG}title").text
    # P1 won: its line ends at 100% (the result), P0's at 0%
    ends = {b["player"]: b for b in r.as_dict()["between"] if b["to_move"] is None}
    assert ends[1]["end_score"] == 1.0 and ends[0]["end_score"] == 0.0
    last = svg.find(f".//{SVG}g[@class='between p1'][@data-to='']")
    assert segment(last)[0][2:] == pytest.approx(xy(g.ply, 1.0), abs=0.06)


def test_the_moves_between_are_shown_as_such(one):
    """With P1 not reviewed: its moves say that they are not valued and why, and the
    change of P0's chances over them (P0's value after its move, then before its next,
    as P0 saw it) is given in the JSON, the text, the move list and the graph."""
    g, r = one
    data = r.as_dict()
    judged = [d for d in r.decisions if d.judged]
    movers = []
    h = r.start.copy()
    for m in r.moves:
        movers.append(h.to_move)
        h.play(m)
    between = data["between"]
    assert [b["from_move"] for b in between] == [d.ply + 1 for d in judged]
    for b, d, nxt in zip(between, judged, judged[1:] + [None]):
        assert b["player"] == 0 and b["start_score"] == d.played_score
        if nxt is None:                       # after P0's last: the result for P0
            assert b["to_move"] is None and r.complete and g.is_over
            assert b["end_score"] == (0.5 if g.winner is None else float(g.winner == 0))
            assert b["moves"] == list(range(d.ply + 2, g.ply + 1))
        else:
            assert b["to_move"] == nxt.ply + 1 and b["end_score"] == nxt.best_score
            assert b["moves"] == list(range(d.ply + 2, nxt.ply + 1))
        assert b["change"] == pytest.approx(b["end_score"] - b["start_score"])
        assert b["unreviewed_moves"] == sum(movers[n - 1] == 1 for n in b["moves"])
    shown = [b for b in between if b["unreviewed_moves"]]
    assert len(shown) >= 5 and max(abs(b["change"]) for b in shown) > 0.1
    # the text: each of P1's moves says it is not valued, the change under the stretch
    text = str(r)
    lines = text.splitlines()
    assert "Not valued: P1's moves (P1 is not reviewed)" in text
    for i, m in enumerate(r.moves):
        line = next(x for x in lines if x.startswith(f"{i + 1:>5}. "))
        assert ("not valued (P1 is not reviewed)" in line) == (movers[i] == 1)
    for b in shown:
        k = next(k for k, x in enumerate(lines) if x.startswith(f"{b['moves'][-1]:>5}. "))
        where = "at the end" if b["to_move"] is None else f"before move {b['to_move']}"
        assert lines[k + 1].strip() == (
            f"P0's chances: {b['start_score']:.1%} after move {b['from_move']}, "
            f"{b['end_score']:.1%} {where} ({pp(b['change'], 1)})")
    # the page: P1's moves marked, the change under the last of each stretch, and the
    # graph's dotted segments from P0's value after a move to its value before the next
    page = r.page()
    items = dict(re.findall(r'<li data-step="(\d+)">(.*?)</li>', page))
    for i in range(1, len(r.moves) + 1):
        assert ('class="nv"' in items[str(i)]) == (movers[i - 1] == 1)
        assert "not valued" in items[str(i)] or movers[i - 1] == 0
    for b in shown:
        note = re.search(r'<span class="chg"[^>]*>(.*?)</span>', items[str(b["moves"][-1])])
        assert note.group(1) == (f"P0's chances {b['start_score']:.0%} → "
                                 f"{b['end_score']:.0%} ({pp(b['change'], 1)})")
    assert "P1's moves are not valued: P1 is not reviewed" in page
    assert "between: P1's moves, not valued" in text_of(graph(page))
    svg = graph(page)
    xy = scale(svg)
    segs = svg.findall(f".//{SVG}g[@class='between p0']")
    assert len(segs) == len(between)
    for el, b in zip(segs, between):
        (xa, ya, xb, yb), _ = segment(el)
        end = g.ply if b["to_move"] is None else b["to_move"] - 1
        assert (xa, ya, xb, yb) == pytest.approx(
            xy(b["from_move"], b["start_score"]) + xy(end, b["end_score"]), abs=0.06)
        tip = el.find(f"{SVG}title").text
        assert f"{b['start_score']:.0%}" in tip and ("not valued: P1 is not reviewed" in tip) \
            == bool(b["unreviewed_moves"])


def test_a_review_cut_short_has_no_value_after_its_last_decision(one):
    g, r = one
    cut = Review(start=r.start, moves=r.moves, names=r.names, players=r.players,
                               engine=r.engine, seed=r.seed, thresholds=r.thresholds,
                               decisions=r.decisions[:6], omniscient=None, total=r.total,
                               seconds=0, cpu_seconds=0, complete=False)
    judged = [d for d in cut.decisions if d.judged]
    assert [b["to_move"] for b in cut.between()] == [d.ply + 1 for d in judged[1:]]
    assert "(not reached)" in str(cut) and 'not reached</span>' in cut.page()


def test_losses_read_in_percentage_points(one, monkeypatch, capsys):
    """ "points" are a Cuttle player's score: the review's losses (hundredths of expected
    score) read "pp", defined once, in the text, the page and the command's help."""
    g, r = one
    text, page = str(r), r.page()
    for words in (text, re.sub(r'points="[^"]*"', "", page)):
        assert not re.search(r"\b\d+(\.\d+)? points|\(points\)|points lost|in points", words)
    assert "percentage points" in text and "percentage points" in page
    assert re.search(r"^average loss \(pp\)", text, re.M) and ">average loss (pp)<" in page
    assert "pp lost" in text
    judged = [d for d in r.decisions if d.judged and d.label != "best"]
    assert judged and all(re.search(rf"^ *{d.ply + 1}\. .* pp  {d.label}", text, re.M)
                          for d in judged)
    code, out, _ = run_cli(monkeypatch, capsys, ["review", "--help"])
    assert code == 0 and "5 pp, percentage points" in out and "5 points" not in out
