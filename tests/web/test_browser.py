"""Whole games played by clicking in headless Chromium against the real server on
loopback: the start page filled in, every move made by clicking the cards, the deck and
the choice buttons (some from the keyboard list), under both presets and variants,
every phase met; each table shown is checked against the server's game (the person's
view, no hidden card).  Then undo, hint, stop, resign, the record's download, and the
review: asked for at the end, its summary, and its page (its script running under the
page's content security policy, a click on the graph)."""

import importlib.util
import json
import random
import re
import threading
import time

import pytest

from web.conftest import WEB_EXTRA

pytest.importorskip("starlette", reason=WEB_EXTRA)
pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

import cuttle  # noqa: E402
from cuttle.cli import main  # noqa: E402
from cuttle.narration import narrate_game  # noqa: E402
from cuttle.record import final_game, read_record  # noqa: E402
from report.conftest import visible_cards  # noqa: E402
from web.conftest import held_bot, new_game  # noqa: E402

EVERY_PHASE = {"main", "counter", "three", "four", "five", "seven", "discard", "block", "ten"}
ALL_PHASES_RULES = "cuttle.cards ten_blocks_scuttle=true ten_discards=true hand_limit=5"

SHOWN = """
const s = document.querySelector('#board svg');
const cards = Array.from(s.querySelectorAll('g.card'));
return {data: Object.assign({}, s.dataset),
        faces: cards.filter(c => c.dataset.card).map(c => c.dataset.card),
        backs: cards.filter(c => c.classList.contains('back') && !c.classList.contains('deck')).length};
"""
# The state the page holds, without its picture (smaller to send to the test).
STATE = """
if (document.body.dataset.ready !== '1') return null;
const s = Object.assign({}, window.cuttle.state);
delete s.svg;
delete s.observation;
return s;
"""

# A point inside `el` where a click lands on it (cards overlap: a Jack lies on its point
# card, a long hand fans out), in viewport coordinates.
VISIBLE_POINT = """
const el = arguments[0], r = el.getBoundingClientRect();
for (const fy of [0.08, 0.3, 0.5, 0.8]) for (const fx of [0.12, 0.5, 0.85]) {
  const x = r.left + fx * r.width, y = r.top + fy * r.height;
  const hit = document.elementFromPoint(x, y);
  if (hit && hit.closest('g.card') === el) return [x, y];
}
return null;
"""


def Wait(d, timeout):
    """A WebDriverWait that looks every 10 ms (its default, half a second, would
    dominate a game of many moves)."""
    return WebDriverWait(d, timeout, poll_frequency=0.01)


def wait_ready(d, timeout=60):
    """The page's state once it waits for the person (or the game is finished)."""
    return Wait(d, timeout).until(lambda d: d.execute_script(STATE))


def click_at(d, el):
    el.location_once_scrolled_into_view
    point = d.execute_script(VISIBLE_POINT, el)
    assert point, "no visible point on the card"
    a = ActionBuilder(d, duration=0)      # (the default moves the pointer for 250 ms)
    a.pointer_action.move_to_location(int(point[0]), int(point[1]))
    a.pointer_action.click()
    a.perform()


def start(d, server, rules, bot, seat, seed, auto=True):
    """Fill the start page in and press Play; returns the first state of the game."""
    d.get(server.url + "/?delay=0")
    Wait(d, 20).until(lambda d: d.execute_script("return document.body.dataset.ready"))
    if rules in cuttle.Rules.presets:
        Select(d.find_element(By.ID, "preset")).select_by_value(rules)
    else:
        d.find_element(By.ID, "rules-text").send_keys(rules)
    kind, _, n = bot.partition(":")
    Select(d.find_element(By.ID, "bot")).select_by_value(kind)
    if n:
        slider = d.find_element(By.ID, "strength")
        steps = [10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000]
        slider.send_keys(Keys.HOME)
        for _ in range(steps.index(int(n))):
            slider.send_keys(Keys.ARROW_RIGHT)
        assert d.find_element(By.ID, "strength-value").text == f"{int(n):,} iterations"
    d.find_element(By.CSS_SELECTOR, f'input[name=seat][value="{seat}"]').click()
    d.find_element(By.ID, "seed").send_keys(str(seed))
    want = str(cuttle.Rules.parse(rules))
    Wait(d, 10).until(
        lambda d: d.find_element(By.ID, "rules-preview").text == want)
    d.find_element(By.ID, "go").click()
    Wait(d, 20).until(lambda d: d.execute_script("return !!document.body.dataset.game"))
    if not auto:
        d.find_element(By.ID, "auto").click()
    st = wait_ready(d)
    assert st["rules"] == want and st["bot"] == bot and st["you"] == seat
    return st


def server_game(server, st):
    return server.app.state.cuttle.store.get(st["id"]).game


def check_table(d, server, st):
    """The table shown is the server's game as the person sees it; once the game is
    finished, with every card (the bot's hand face up)."""
    shown = d.execute_script(SHOWN)
    g = server_game(server, st)
    me = st["you"]
    finished = st["status"] != "playing"
    assert shown["data"]["ply"] == str(g.ply) == str(st["ply"])
    assert shown["data"]["phase"] == g.phase == st["phase"]
    assert shown["data"]["viewer"] == ("all" if finished else str(me))
    assert sorted(shown["faces"]) == visible_cards(g, None if finished else me)
    hidden = not g.is_public_hand(1 - me) and not finished
    known = len(g.observation(me).opponent_known)     # face up, as the picture's faces
    assert shown["backs"] == (len(g.hand(1 - me)) - known if hidden else 0)
    return st, g


def make_move(d, move, rng, keyboard=False):
    """Make `move` (a legal move of the state) the way a person would."""
    text = move["text"]
    if keyboard:
        button = d.find_element(By.CSS_SELECTOR, f'#legal button[data-move="{text}"]')
        d.execute_script("arguments[0].focus()", button)
        button.send_keys(Keys.ENTER)
        return "keyboard"
    if not move["cards"]:
        deck = d.find_elements(By.CSS_SELECTOR, "#board g.card.deck")
        if move["verb"] == "draw" and deck and rng.random() < 0.6:
            click_at(d, deck[-1])
            return "deck"
        d.find_element(By.CSS_SELECTOR, f'#choices button[data-move="{text}"]').click()
        return "button"
    cards = list(move["cards"])
    if move["verb"] == "discard":
        rng.shuffle(cards)
    ply = d.execute_script("return window.cuttle.state.ply")
    for c in cards:
        el = d.find_element(By.CSS_SELECTOR, f'#board g.card[data-card="{c}"]')
        assert "clickable" in el.get_attribute("class"), (c, text)
        click_at(d, el)
    if d.execute_script("return document.body.dataset.ready === '1' && "
                        "window.cuttle.state.ply === arguments[0]", ply):
        d.find_element(By.CSS_SELECTOR, f'#choices button[data-move="{text}"]').click()
        return "cards+button"
    return "cards"


def choose(st, rng, draws=0.1):
    """A move for the person: often a one-off, a scuttle, a counter or a block (to meet
    every phase), a draw with probability `draws` (to fill the hand up to its limit),
    often the highest point card (to end the game), else any."""
    legal, roll = st["legal"], rng.random()
    liked = [m for m in legal if m["verb"] in ("oneoff", "scuttle", "counter", "block", "jack")]
    points = [m for m in legal if m["verb"] == "points"]
    if liked and roll < 0.45:
        return rng.choice(liked)
    if roll < 0.45 + draws and any(m["verb"] == "draw" for m in legal):
        return next(m for m in legal if m["verb"] == "draw")
    if points and roll < 0.9:
        return max(points, key=lambda m: "A23456789T".find(m["cards"][0][0]))
    return rng.choice(legal)


def play_game(d, server, rng, keyboard_every=0, draws=0.1, check_every=1):
    """Play the started game to its end by clicking (the table checked at every
    `check_every`-th decision); returns (phases decided, ways of moving, the final
    state)."""
    phases, ways, n = set(), set(), 0
    st = wait_ready(d)
    while st["status"] == "playing":
        if n % check_every == 0:
            check_table(d, server, st)
        assert st["your_decision"] and st["legal"]
        phases.add(st["phase"])
        move = choose(st, rng, draws)
        n += 1
        before = st["ply"]
        ways.add(make_move(d, move, rng, keyboard=bool(keyboard_every) and
                           n % keyboard_every == 0))
        st = wait_ready(d)
        mine = dict(st["history"][before])
        assert mine.pop("effect") is not None       # (what it did: test_a_whole_game...)
        assert mine == {"ply": before + 1, "player": st["you"], "move": move["text"]}
        assert st["ply"] > before or st["status"] != "playing"
    check_table(d, server, st)
    return phases, ways, st


@pytest.mark.parametrize("rules,bot,seat,seed", [
    ("classic", "greedy", 0, 1),
    ("cuttle.cards", "expert", 1, 2),
    ("cuttle.cards joker=true four=random", "ismcts-infer:100", 0, 3),
    ("classic seven=top2 nine=freeze hand_limit=7 strict_scuttle=true", "random", 1, 4),
])
def test_a_whole_game_by_clicking(browser, server, rules, bot, seat, seed):
    d = browser
    start(d, server, rules, bot, seat, seed)
    phases, ways, st = play_game(d, server, random.Random(seed), keyboard_every=4)
    g = server_game(server, st)
    assert g.is_over and st["result"]["winner"] == g.winner
    assert "keyboard" in ways and any(w.startswith("cards") for w in ways)
    assert not d.find_element(By.ID, "over").get_attribute("hidden")
    assert d.find_element(By.CSS_SELECTOR, "#review button").text == "review your moves"
    history = d.find_elements(By.CSS_SELECTOR, "#history li")
    assert len(history) == g.ply and "last" in history[-1].get_attribute("class")
    # each move with what it did, as the person saw it
    effects = [h["effect"] for h in st["history"]]
    begin = g.copy()
    while begin.ply:
        begin.undo()
    assert effects == narrate_game(begin, g.moves, seat)
    shown = [li.find_elements(By.CSS_SELECTOR, ".effect") for li in history]
    assert [e[0].text if e else "" for e in shown] == effects and any(effects)
    assert d.execute_script("return document.body.dataset.status") == "over"


def test_every_phase_by_clicking(browser, server):
    """A variant with every phase, against the bot that plays everything, forced moves
    made by hand too: new games until the person has decided in every phase."""
    d = browser
    seen, games = set(), 0
    rng = random.Random(11)
    while not seen >= EVERY_PHASE and games < 12:
        games += 1
        start(d, server, ALL_PHASES_RULES, "random", games % 2, 20 + games, auto=False)
        phases, ways, _ = play_game(d, server, rng, draws=0.3, check_every=4)
        seen |= phases
    assert seen >= EVERY_PHASE, (games, EVERY_PHASE - seen)


def test_the_controls(browser, server, tmp_path):
    d = browser
    st = start(d, server, "classic", "ismcts:100000", 1, 5)
    # the bot moved first; the history marks its move as the last one
    assert st["history"][0]["player"] == 0
    first = st
    # a hint: the analysis of the person's moves
    d.find_element(By.ID, "hint").click()
    Wait(d, 30).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#hint-body table.hint tr.best"))
    rows = d.find_elements(By.CSS_SELECTOR, "#hint-body table.hint tr")
    assert len(rows) == len(st["legal"]) + 1
    assert "NaN" not in d.find_element(By.ID, "hint-body").text
    # the best move in the server's words (saying whether others are as good), the rows
    # its interval does not set apart marked
    hint = d.execute_script("return fetch('/api/games/' + document.body.dataset.game + "
                            "'/hint', {method: 'POST', headers: {'X-Cuttle-Token': "
                            "document.body.dataset.token, 'Content-Type': "
                            "'application/json'}, body: '{\"rollouts\": 1000}'})"
                            ".then(r => r.json())")
    said = d.find_element(By.ID, "hint-text").text
    assert said == "Best: " + hint["hint"] + " · " + hint["engine"], said
    assert hint["engine"].startswith("By the game review's engine: expert playouts")
    close = d.find_elements(By.CSS_SELECTOR, "#hint-body table.hint tr.close")
    assert sorted(r.find_element(By.TAG_NAME, "td").text for r in close) == \
        sorted(hint["close_to_best"])
    # a move, then stop the search at once: the bot plays its best move so far
    before = st["ply"]
    make_move(d, st["legal"][0], random.Random(0), keyboard=True)
    Wait(d, 10).until(lambda d: d.find_element(By.ID, "thinking").is_displayed())
    d.find_element(By.ID, "stop").click()
    Wait(d, 10).until(lambda d: d.execute_script("return window.cuttle.state.ply") > before + 1)
    searched, total = server.app.state.cuttle.store.get(st["id"]).thinker.progress
    assert 0 < searched < total == 100_000     # stopped before the end of its search
    st = wait_ready(d)
    assert st["history"][before + 1]["player"] == 0
    # undo: back to the start of the person's decision
    d.find_element(By.ID, "undo").click()
    st = wait_ready(d)
    assert st["ply"] == first["ply"] and st["legal"] == first["legal"]
    assert "Took back your" in d.find_element(By.ID, "message").text
    # a card picked, then cancelled with Escape
    card = next(m for m in st["legal"] if m["cards"])["cards"][0]
    click_at(d, d.find_element(By.CSS_SELECTOR, f'#board g.card[data-card="{card}"]'))
    assert d.find_elements(By.CSS_SELECTOR, "#board g.card.picked")
    ActionChains(d).send_keys(Keys.ESCAPE).perform()
    assert not d.find_elements(By.CSS_SELECTOR, "#board g.card.picked")
    # resign (asked twice), then download the record and replay it
    d.find_element(By.ID, "resign").click()
    assert d.find_element(By.ID, "resign").text == "really resign?"
    d.find_element(By.ID, "resign").click()
    st = wait_ready(d)
    # a result: the bot wins, and its hand is shown (the person's side at the bottom)
    assert st["status"] == "resigned" and st["result"]["winner"] == 0
    assert d.find_element(By.ID, "result").text.startswith(
        "Ismcts:100000 wins (you resigned) · ")
    check_table(d, server, st)
    d.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow",
                                                   "downloadPath": str(tmp_path)})
    d.find_element(By.ID, "download").click()
    deadline = time.monotonic() + 20
    while not list(tmp_path.glob("cuttle-game-*.json")):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.2)
    path = next(tmp_path.glob("cuttle-game-*.json"))
    rec = read_record(path)
    assert final_game(rec) == server_game(server, st)
    assert rec["result"]["status"] == "resigned" and rec["bot"]["name"] == "ismcts:100000"
    assert rec["result"]["text"] == "player 0 wins (player 1 resigned)"
    assert main(["replay", str(path)]) == 0
    assert json.loads(path.read_text())["human_seat"] == 1


def test_a_page_opened_while_the_bot_thinks_waits_for_its_move(browser, server):
    """The bot decides one move at a time: a page opened (or reloaded) while another
    request has it deciding is refused a second decision, and shows it thinking, with
    its stop button, until its move.  (The decision is held by the test, not timed.)"""
    httpx = pytest.importorskip("httpx2" if importlib.util.find_spec("httpx2") else "httpx")
    d = browser
    with httpx.Client(base_url=server.url, timeout=60) as c:
        p = new_game(c, rules="classic", bot="ismcts:300", seat=1, seed=6)
        s = server.app.state.cuttle.store.get(p.gid)
        started, release = held_bot(s)
        first = []
        th = threading.Thread(target=lambda: first.append(p.bot()))
        th.start()
        try:
            assert started.wait(60)
            d.get(f"{server.url}/game/{p.gid}?delay=0")
            Wait(d, 20).until(lambda d: d.find_element(By.ID, "thinking").is_displayed())
            assert d.find_element(By.ID, "message").text == ""
            assert d.execute_script("return document.body.dataset.ready") == "0"
            control = s.control
            d.find_element(By.ID, "stop").click()       # stops the decision under way
            Wait(d, 10).until(lambda d: control.stopped)
        finally:
            release.set()
            th.join(60)
    assert first[0].status_code == 200 and first[0].json()["ply"] == 1
    st = wait_ready(d)
    assert st["ply"] == 1 and st["history"] == first[0].json()["history"]
    assert not d.find_element(By.ID, "thinking").is_displayed()
    assert d.find_element(By.ID, "message").text == ""
    check_table(d, server, st)


def test_the_review(browser, server):
    d = browser
    start(d, server, "classic", "random", 0, 31)
    st = play_game(d, server, random.Random(31), check_every=10)[2]
    d.find_element(By.CSS_SELECTOR, "#review button").click()
    Wait(d, 20).until(lambda d: d.find_elements(By.ID, "review-stop"))
    summary = Wait(d, 300).until(lambda d: d.find_elements(By.ID, "review-summary"))[0]
    s = server.app.state.cuttle.store.get(st["id"])
    r = s.review
    assert r.complete and r.players == (0,)
    acc = r.summary(0)["accuracy"]
    assert summary.text.startswith(f"Your accuracy: {acc:.1f}%")
    missed = r.summary(0)["missed_wins"]        # (a win at once not played: said, if any)
    assert ("missed (a move that won at once)" in summary.text) == (missed > 0)
    if missed:
        assert f", {missed} win{'s' if missed > 1 else ''} missed" in summary.text
    # above it, where the game was lost, in one sentence
    headline = d.find_element(By.CSS_SELECTOR, "#review > p:first-child")
    assert headline.get_attribute("id") == "review-headline" and headline.text == r.headline
    pre = d.find_element(By.CSS_SELECTOR, "#review pre")
    assert "accuracy" in pre.text
    # the whole review text fits its box at this viewport (1100 px), and the box the
    # page: no column clipped behind a scrollbar (the panel was the side column's 380
    # px); its move lines are whole lines, only its prose wraps
    widths = d.execute_script(
        "const e = arguments[0], p = document.documentElement; "
        "return [e.scrollWidth, e.clientWidth, p.scrollWidth, p.clientWidth]", pre)
    assert widths[0] <= widths[1] and widths[2] <= widths[3], widths
    rows = [line for line in pre.text.splitlines() if re.match(r" *\d+\. P[01] ", line)]
    longest = max(rows, key=len)
    width = d.execute_script(
        "const e = arguments[0], s = getComputedStyle(e);"
        "const c = document.createElement('canvas').getContext('2d'); c.font = s.font;"
        "return [c.measureText(arguments[1]).width,"
        " e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)]",
        pre, longest)
    assert width[0] <= width[1], (longest, width)
    link = d.find_element(By.ID, "review-page")
    assert link.get_attribute("href") == f"{server.url}/game/{st['id']}/review"
    d.get(link.get_attribute("href"))
    # the page's script ran (the policy allows it by its hash): the pictures unpacked
    Wait(d, 30).until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
    assert d.execute_script("return document.body.dataset.review") == "1"
    assert d.execute_script("return document.body.dataset.viewer") == "0"
    judged = [x for x in r.decisions if x.label != "forced"]
    points = d.find_elements(By.CSS_SELECTOR, "svg.review-chart circle.pt")
    assert len(points) == len(judged)
    point = points[len(points) // 2]
    d.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))",
                     point)
    Wait(d, 5).until(lambda d: d.execute_script("return document.body.dataset.step")
                     == point.get_attribute("data-step"))
    labels = d.find_elements(By.CSS_SELECTOR, "nav.moves .rv")
    assert len(labels) == len(r.decisions)


def test_the_review_says_an_undo_dealt_the_game_again(browser, server):
    """The person's second draw taken back (it had shown them cards hidden again): the
    review panel says, under its headline, that the game was dealt again and where."""
    d = browser
    st = start(d, server, "classic", "greedy", 0, 2)

    def draw(st):
        button = d.find_element(By.CSS_SELECTOR, '#choices button[data-move="draw"]')
        button.click()
        Wait(d, 20).until(lambda d: d.execute_script("return window.cuttle.state.ply")
                          >= st["ply"] + 2)
        return wait_ready(d)
    st = draw(draw(st))
    d.find_element(By.ID, "undo").click()
    Wait(d, 20).until(lambda d: d.execute_script("return window.cuttle.state.ply") == 2)
    st = draw(wait_ready(d))
    d.find_element(By.ID, "resign").click()
    d.find_element(By.ID, "resign").click()
    st = wait_ready(d)
    assert st["status"] == "resigned"
    d.find_element(By.CSS_SELECTOR, "#review button").click()
    Wait(d, 300).until(lambda d: d.find_elements(By.ID, "review-summary"))
    s = server.app.state.cuttle.store.get(st["id"])
    assert s.record()["redealt"] == [2] and s.review.redealt.startswith(
        "Dealt again by an undo after move 2: ")
    first, second = d.find_elements(By.CSS_SELECTOR, "#review > p")[:2]
    assert first.get_attribute("id") == "review-headline"
    assert second.get_attribute("id") == "review-redealt" and second.text == s.review.redealt


def test_a_bad_start_says_why(browser, server):
    d = browser
    d.get(server.url + "/")
    Wait(d, 20).until(lambda d: d.execute_script("return document.body.dataset.ready"))
    d.find_element(By.ID, "rules-text").send_keys("classic four=sometimes")
    Wait(d, 10).until(lambda d: "four" in d.find_element(By.ID, "rules-error").text)
    d.find_element(By.ID, "go").click()
    Wait(d, 10).until(lambda d: "four" in d.find_element(By.ID, "start-error").text)
    assert d.current_url.rstrip("/") == server.url
    # the rules mended: Play's refusal goes once the preview shows valid rules
    box = d.find_element(By.ID, "rules-text")
    box.clear()
    box.send_keys("classic four=random")
    Wait(d, 10).until(lambda d: d.find_element(By.ID, "rules-preview").text
                      == str(cuttle.Rules.parse("classic four=random")))
    assert d.find_element(By.ID, "rules-error").text == ""
    assert d.find_element(By.ID, "start-error").text == ""
    # an error of another field stays (the seed's)
    d.find_element(By.ID, "seed").send_keys("-1")
    d.find_element(By.ID, "go").click()
    Wait(d, 10).until(lambda d: "seed must be" in d.find_element(By.ID, "start-error").text)
    Select(d.find_element(By.ID, "preset")).select_by_value("cuttle.cards")
    box.clear()
    Wait(d, 10).until(lambda d: d.find_element(By.ID, "rules-preview").text == "cuttle.cards")
    assert "seed must be" in d.find_element(By.ID, "start-error").text


def test_rules_under_which_every_game_is_a_draw_are_said_on_both_pages(browser, server):
    """The start page's preview and the game page show the warning of rules that decide
    nothing (the server only wrote it on its stderr)."""
    d = browser
    d.get(server.url + "/?delay=0")
    Wait(d, 20).until(lambda d: d.execute_script("return document.body.dataset.ready"))
    warning = d.find_element(By.ID, "rules-warning")
    assert warning.text == "" and not warning.is_displayed()
    d.find_element(By.ID, "rules-text").send_keys("classic hand_limit=0")
    Wait(d, 10).until(lambda d: warning.text.startswith(
        "degenerate rules (classic: hand_limit=0): with hand_limit=0 "))
    assert warning.is_displayed() and d.find_element(By.ID, "rules-error").text == ""
    said = warning.text
    d.find_element(By.ID, "go").click()
    Wait(d, 20).until(lambda d: d.execute_script("return !!document.body.dataset.game"))
    st = wait_ready(d)
    assert st["warning"] == said == d.find_element(By.ID, "rules-warning").text
    # rules that decide games: no warning
    d.get(server.url + "/?delay=0")
    Wait(d, 20).until(lambda d: d.execute_script("return document.body.dataset.ready"))
    d.find_element(By.ID, "rules-text").send_keys("classic hand_limit=1")
    Wait(d, 10).until(lambda d: d.find_element(By.ID, "rules-preview").text
                      == "classic: hand_limit=1")
    assert d.find_element(By.ID, "rules-warning").text == ""


def test_the_rules_preview_waits_for_a_pause_in_the_typing(browser, server):
    """One request once the typing pauses, not one a keystroke."""
    d = browser
    d.get(server.url + "/")
    Wait(d, 20).until(lambda d: d.execute_script("return document.body.dataset.ready"))
    count = ("return performance.getEntriesByType('resource')"
             ".filter(e => e.name.includes('/api/rules')).length")
    Wait(d, 10).until(lambda d: d.execute_script(count) == 1)     # the page's own
    text = "cuttle.cards four=random hand_limit=7"
    d.find_element(By.ID, "rules-text").send_keys(text)
    want = str(cuttle.Rules.parse(text))
    Wait(d, 10).until(lambda d: d.find_element(By.ID, "rules-preview").text == want)
    time.sleep(0.4)
    assert d.execute_script(count) <= 3, d.execute_script(count)
