"""The pages in a real browser (headless Chromium, one per module): the replay clicked
and keyed through, every step compared with cuttle's own Game (what each move did
too), each view checked for hidden cards; the report page and a game's table as a notebook shows it.  Screenshots
go to the test's tmp dir."""

import pytest

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

import cuttle  # noqa: E402
from cuttle import report  # noqa: E402
from cuttle.cli import main  # noqa: E402
from cuttle.narration import narrate  # noqa: E402
from cuttle.record import make_record, write_record  # noqa: E402
from cuttle.svg import table  # noqa: E402
from report.conftest import busy, play_random, visible_cards  # noqa: E402

STATE = """
const s = document.querySelector('#board svg, svg.cuttle-table');
const cards = Array.from(s.querySelectorAll('g.card'));
const box = s.getBoundingClientRect();
const outside = Array.from(s.querySelectorAll('g.card, text')).filter(e => {
  const r = e.getBoundingClientRect();
  return r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.bottom > box.bottom + 0.5;
}).length;
return {step: document.body.dataset.step, viewer: document.body.dataset.viewer,
        data: Object.assign({}, s.dataset), width: box.width, outside: outside,
        faces: cards.filter(c => !c.classList.contains('back')).map(c => c.dataset.card),
        backs: [0, 1].map(p => cards.filter(c => c.classList.contains('back')
                                                 && c.classList.contains('hand' + p)).length),
        current: Array.from(document.querySelectorAll('.moves li.current'),
                            li => li.dataset.step),
        atStart: document.getElementById('prev') && document.getElementById('prev').disabled,
        atEnd: document.getElementById('next') && document.getElementById('next').disabled};
"""


def state(d):
    return d.execute_script(STATE)


EFFECT = """
return Array.from(document.querySelectorAll('.moves li.current .effect'))
  .filter(e => getComputedStyle(e).display !== 'none').map(e => e.textContent);
"""


def check_effect(d, games, i, viewer):
    """The move list's line of step i says what its move did as `viewer` saw it."""
    text = narrate(games[i - 1], games[i], viewer, names=("P0", "P1")) if i else ""
    assert d.execute_script(EFFECT) == ([text] if text else []), (i, viewer)
    return bool(text)


def check(st, g, viewer):
    """The shown table is the Game `g` as `viewer` sees it."""
    want = {"ply": g.ply, "phase": g.phase, "toMove": "" if g.to_move is None else g.to_move,
            "hand0": len(g.hand(0)), "hand1": len(g.hand(1)), "score0": g.score(0),
            "score1": g.score(1), "goal0": g.goal(0), "goal1": g.goal(1),
            "deck": len(g.deck), "scrap": len(g.scrap),
            "viewer": "all" if viewer is None else viewer}
    assert {k: st["data"][k] for k in want} == {k: str(v) for k, v in want.items()}
    assert sorted(st["faces"]) == visible_cards(g, viewer)
    for p in (0, 1):
        hidden = viewer not in (None, p) and not g.is_public_hand(p)
        known = len(g.observation(viewer).opponent_known) if hidden else 0
        assert st["backs"][p] == (len(g.hand(p)) - known if hidden else 0)
    assert st["width"] == 600 and st["outside"] == 0


def open_page(d, path):
    d.get(path.resolve().as_uri())
    WebDriverWait(d, 20).until(
        lambda d: d.execute_script("return document.readyState") == "complete")


def no_network(d):
    return d.execute_script("return performance.getEntriesByType('resource').length") == 0


def test_replay_page(browser, tmp_path):
    d = browser
    g = play_random(cuttle.Game("cuttle.cards", seed=11), 400, 11,
                    ("points", "jack", "royal", "oneoff", "scuttle", "counter"))
    rec, page = tmp_path / "game.json", tmp_path / "replay.html"
    write_record(make_record(g, players=["ann", "bob"]), rec)
    assert main(["replay", str(rec), "--html", str(page)]) == 0
    games = [g.copy()]
    while games[-1].ply:
        games.append(games[-1].copy())
        games[-1].undo()
    games.reverse()                       # games[i]: the game after i moves
    last = len(games) - 1
    assert last >= 20

    d.set_window_size(1000, 900)
    open_page(d, page)
    WebDriverWait(d, 20).until(lambda d: d.execute_script("return document.body.dataset.ready"))
    assert no_network(d)
    body = d.find_element(By.TAG_NAME, "body")
    st = state(d)
    assert st["step"] == "0" and st["viewer"] == "all" and st["current"] == ["0"]
    assert st["atStart"] and not st["atEnd"]
    check(st, games[0], None)
    # The buttons, all cards face up.
    nxt = d.find_element(By.ID, "next")
    told = 0
    for i in range(1, last + 1):
        nxt.click()
        st = state(d)
        assert st["step"] == str(i) and st["current"] == [str(i)]
        check(st, games[i], None)
        told += check_effect(d, games, i, None)
    assert st["atEnd"] and told > 5
    d.find_element(By.ID, "first").click()
    assert state(d)["step"] == "0"
    # Arrow keys, as player 0 sees it (key 0): P1's hand face down unless public.
    body.send_keys("0")
    for i in range(0, last + 1):
        st = state(d)
        assert st["step"] == str(i) and st["viewer"] == "0"
        check(st, games[i], 0)
        check_effect(d, games, i, 0)
        body.send_keys(Keys.ARROW_RIGHT)
    assert state(d)["step"] == str(last)        # the last step stays
    # Player 1's view (its button), backwards from the end.
    d.find_element(By.CSS_SELECTOR, 'button[data-viewer="1"]').click()
    body.send_keys(Keys.END)
    for i in range(last, -1, -1):
        st = state(d)
        assert st["step"] == str(i) and st["viewer"] == "1"
        check(st, games[i], 1)
        check_effect(d, games, i, 1)
        body.send_keys(Keys.ARROW_LEFT)
    assert state(d)["step"] == "0"
    # A click on a move in the list, then Home and the previous button.
    k = last // 2
    d.find_element(By.CSS_SELECTOR, f'.moves li[data-step="{k}"]').click()
    st = state(d)
    assert st["step"] == str(k) and st["current"] == [str(k)]
    check(st, games[k], 1)
    d.find_element(By.ID, "prev").click()
    check(state(d), games[k - 1], 1)
    body.send_keys(Keys.HOME)
    assert state(d)["step"] == "0"
    d.find_element(By.CSS_SELECTOR, 'button[data-viewer="all"]').click()
    d.find_element(By.CSS_SELECTOR, f'.moves li[data-step="{k}"]').click()
    check(state(d), games[k], None)
    d.save_screenshot(str(tmp_path / "replay.png"))
    assert (tmp_path / "replay.png").stat().st_size > 10000


def test_report_page(browser, tmp_path):
    d = browser
    page = tmp_path / "report.html"
    assert main(["simulate", "-n", "500", "--seed", "1", "--html", str(page)]) == 0
    d.set_window_size(1000, 900)
    open_page(d, page)
    assert no_network(d)
    s = cuttle.simulate(500, seed=1).summary().as_dict()
    rows = d.execute_script(
        "return Array.from(document.querySelectorAll('.cuttle-report tbody tr'),"
        " tr => Array.from(tr.cells, c => c.textContent))")
    by_label = {r[0]: r[1:] for r in rows if r and r[0]}
    assert by_label["A (random) wins"][0] == f"{s['win_rate']['A']['count']:,}/500"
    assert by_label["B (greedy) wins"][1] == f"{100 * s['win_rate']['B']['value']:.2f}%"
    charts = d.execute_script(
        "return Array.from(document.querySelectorAll('svg.chart'), s => ["
        "s.getBoundingClientRect().width, s.querySelectorAll('circle.estimate').length])")
    assert len(charts) == 4 and all(w > 300 for w, _ in charts)
    assert [n for _, n in charts[:3]] == [3, 6, 1]
    d.save_screenshot(str(tmp_path / "report.png"))


def test_every_table_fits_its_picture(browser, tmp_path):
    """Random positions of every preset and phase, as each player sees them: no card
    and no text reaches outside the 600 px picture."""
    games = []
    variant = cuttle.Rules("cuttle.cards", ten_blocks_scuttle=True, ten_discards=True,
                           nine="freeze", joker=True, hand_limit=5)
    for k, rules in enumerate(list(cuttle.Rules.presets) + [variant]):
        seen = set()
        for seed in range(40):
            g = cuttle.Game(rules, seed=100 * k + seed)
            while not g.is_over:          # keep the first position of each new phase
                play_random(g, 1, g.ply + seed)
                if g.phase not in seen and g.ply > 8:
                    seen.add(g.phase)
                    games += [(g.copy(), v) for v in (None, 0, 1)]
    page = tmp_path / "tables.html"
    page.write_text("<!DOCTYPE html><html><body>" + "".join(
        f"<div>{table(g, v)}</div>" for g, v in games) + "</body></html>")
    open_page(d := browser, page)
    out = d.execute_script("""
      return Array.from(document.querySelectorAll('svg.cuttle-table'), s => {
        const box = s.getBoundingClientRect();
        return Array.from(s.querySelectorAll('g.card, text'), e => e.getBoundingClientRect())
          .filter(r => r.left < box.left - 0.5 || r.right > box.right + 0.5
                       || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5).length;
      });""")
    assert out == [0] * len(games)
    assert {g.phase for g, _ in games} >= {"counter", "seven", "three", "four", "five",
                                           "discard", "block", "ten", "over", "main"}


@pytest.mark.parametrize("make", ["busy", "long"])
def test_table_as_a_notebook_shows_it(browser, tmp_path, make):
    d = browser
    if make == "busy":
        g, viewer = busy(), 1
    else:                                  # many cards: long hands, a full scrap
        g = play_random(cuttle.Game("classic", seed=2), 150, 2, ("draw",))
        viewer = None
    page = tmp_path / "table.html"
    page.write_text("<!DOCTYPE html><html><body style='margin:8px'>"
                    f"<div class='output'>{table(g, viewer)}</div></body></html>")
    open_page(d, page)
    check(state(d), g, viewer)
    d.save_screenshot(str(tmp_path / f"table-{make}.png"))


@pytest.mark.parametrize("kind", ["replay", "simulation", "comparison"])
def test_pages_fit_a_narrow_screen(browser, tmp_path, kind):
    """On a 420-px-wide screen (a phone) no page scrolls sideways: the table of the
    replay shrinks to the screen, wide tables scroll inside their card."""
    d = browser
    page = tmp_path / f"{kind}.html"
    if kind == "replay":
        g = play_random(cuttle.Game("cuttle.cards", seed=11), 60, 11, ("points", "royal"))
        page.write_text(report.game_page(g, names=("ann", "bob")))
    elif kind == "simulation":
        page.write_text(report.simulation_page(cuttle.simulate(300, seed=1).summary()))
    else:
        page.write_text(report.comparison_page(cuttle.compare(
            ["classic", "cuttle.cards", cuttle.Rules(four="random")], 300, seed=1)))
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": 420, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    try:
        open_page(d, page)
        if kind == "replay":
            WebDriverWait(d, 20).until(
                lambda d: d.execute_script("return document.body.dataset.ready"))
        width, inner, board = d.execute_script(
            "const s = document.querySelector('#board svg');"
            "return [document.documentElement.scrollWidth, window.innerWidth,"
            " s ? s.getBoundingClientRect().right : 0]")
        assert inner == 420 and width <= inner and board <= inner
        d.save_screenshot(str(tmp_path / f"{kind}-420.png"))
    finally:
        d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
