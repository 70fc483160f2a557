"""The replay page with a game review, in headless Chromium: the labels and best moves
in the move list, the evaluation graph's points clicked (each jumps to its move, the
cursor follows), and every step in each player's view compared with the Game (no
hidden card drawn)."""

import pytest

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

import cuttle  # noqa: E402
from cuttle.policies import Bot  # noqa: E402
from report.test_browser import check, no_network, open_page, state  # noqa: E402


def reviewed_game(player):
    g = cuttle.Game("cuttle.cards", seed=20)
    bots = (Bot("expert", 1), Bot("random", 2))
    while not g.is_over:
        g.play(bots[g.to_move].choose(g))
    return g, cuttle.review(g, "rollouts:20", player=player, seed=2, omniscient=True)


def games_after(g):
    games = [g.copy()]
    while games[-1].ply:
        games.append(games[-1].copy())
        games[-1].undo()
    return games[::-1]                   # games[i]: the game after i moves


def load(d, path):
    open_page(d, path)
    WebDriverWait(d, 20).until(lambda d: d.execute_script("return document.body.dataset.ready"))


def test_the_review_page(browser, tmp_path):
    d = browser
    g, r = reviewed_game(None)
    games = games_after(g)
    path = tmp_path / "review.html"
    path.write_text(r.page(), encoding="utf-8")
    d.set_window_size(1100, 1000)
    load(d, path)
    assert no_network(d)
    st = state(d)
    assert st["step"] == "0" and st["viewer"] == "0"       # both reviewed: P0's view
    check(st, games[0], 0)
    # The move list: every reviewed move's label, and the best move where it differs.
    items = d.execute_script("""
      return Object.fromEntries(Array.from(document.querySelectorAll('.moves li[data-step]'),
        li => [li.dataset.step, {label: (li.querySelector('.rv') || {}).className || '',
                                 badge: (li.querySelector('.rv') || {}).textContent || '',
                                 alt: (li.querySelector('.alt') || {}).textContent || ''}]));""")
    judged = [x for x in r.decisions if x.judged]
    assert len(judged) >= 10 and any(x.label in ("mistake", "blunder") for x in judged)
    for x in r.decisions:
        item = items[str(x.ply + 1)]
        assert item["label"] == f"rv rv-{x.label.replace(' ', '-')}"
        assert item["badge"] == (x.annotation or x.label)
        if x.label == "forced" or (x.label == "best" and x.settled):
            assert item["alt"] == ""
        elif x.label == "best":           # (a label the bounds of its loss do not settle)
            assert item["alt"] == (f"not settled: {100 * x.loss_low:.1f} to "
                                   f"{100 * x.loss_high:.1f} pp")
        else:
            assert item["alt"].startswith(f"best: {x.best} ")
    # The graph: one point per judged move; a click shows that move, in the view chosen.
    points = d.find_elements(By.CSS_SELECTOR, ".review-graph circle.pt")
    assert [p.get_attribute("data-step") for p in points] == [str(x.ply + 1) for x in judged]
    for viewer in ("1", "0"):
        d.find_element(By.CSS_SELECTOR, f'button[data-viewer="{viewer}"]').click()
        for p, x in list(zip(points, judged))[::3]:
            d.execute_script("arguments[0].dispatchEvent(new MouseEvent('click'))", p)
            st = state(d)
            assert st["step"] == str(x.ply + 1) and st["current"] == [str(x.ply + 1)]
            check(st, games[x.ply + 1], int(viewer))
            cur = d.execute_script("""
              const c = document.getElementById('review-cursor');
              return [c.getAttribute('x1'),
                      Array.from(document.querySelectorAll('circle.pt.current'),
                                 e => [e.dataset.step, e.getAttribute('cx')])];""")
            assert cur[1] and cur[1][0][0] == str(x.ply + 1)
            assert float(cur[0]) == pytest.approx(float(cur[1][0][1]), abs=0.05)
    # Every step in each player's view (arrow keys): no card it may not see is drawn.
    body = d.find_element(By.TAG_NAME, "body")
    for viewer in ("0", "1"):
        body.send_keys(viewer)
        body.send_keys(Keys.HOME)
        for i in range(len(games)):
            st = state(d)
            assert st["step"] == str(i) and st["viewer"] == viewer
            check(st, games[i], int(viewer))
            body.send_keys(Keys.ARROW_RIGHT)
    # The figures' table and the hindsight line.
    cells = d.execute_script("return Array.from(document.querySelectorAll("
                             "'table.review-figures tbody tr'), tr => tr.cells[0].textContent)")
    assert "accuracy" in cells and "blunder" in cells
    assert d.find_elements(By.CSS_SELECTOR, ".review-graph polyline.hindsight")
    d.save_screenshot(str(tmp_path / "review.png"))
    assert (tmp_path / "review.png").stat().st_size > 10000


def test_one_players_review_opens_in_their_view(browser, tmp_path):
    d = browser
    g, r = reviewed_game(1)
    path = tmp_path / "review1.html"
    path.write_text(r.page(), encoding="utf-8")
    load(d, path)
    st = state(d)
    assert st["viewer"] == "1"
    check(st, games_after(g)[0], 1)
    steps = d.execute_script("return Array.from(document.querySelectorAll("
                             "'.review-graph circle.pt'), c => c.dataset.step)")
    assert steps == [str(x.ply + 1) for x in r.decisions if x.judged]
    assert all(x.player == 1 for x in r.decisions)
