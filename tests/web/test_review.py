"""The game review in the web app through the test client: the real `cuttle.review` of
the person's moves once the game is finished, the same figures as the library's for the
same seed, kept once complete, its progress in the state, stopped (by its button or by
closing the game) with what it finished kept, and its page served under a content
security policy that allows exactly its own script.  (Chromium: test_browser.py.)"""

import base64
import hashlib
import random
import re
import threading
import time

import pytest

from web.conftest import WEB_EXTRA

pytest.importorskip("starlette", reason=WEB_EXTRA)

import cuttle  # noqa: E402
from cuttle.web.review import REVIEW_ENGINE, ReviewJob, page_headers  # noqa: E402
from web.conftest import TOKEN, new_game, play_out  # noqa: E402


def session(client, p):
    return client.app.state.cuttle.store.get(p.gid)


def short_game(client, seed, moves=12):
    """A game against the random bot, resigned after about `moves` moves."""
    p = new_game(client, bot="random", seat=0, seed=seed)
    st, rng = p.state(), random.Random(seed)
    while st["ply"] < moves and st["status"] == "playing":
        r = p.bot(st["ply"]) if st["bot_to_move"] else \
            p.move(rng.choice(st["legal"])["text"], st["ply"])
        assert r.status_code == 200, r.text
        st = r.json()
    if st["status"] == "playing":
        assert p.post("/resign").status_code == 200
    return p


def review_in_thread(p):
    """GET /review in a thread; returns (thread, the list its response lands in)."""
    out = []
    th = threading.Thread(target=lambda: out.append(p.get("/review")))
    th.start()
    return th, out


def wait_running(p, done=1, timeout=60):
    """The state's review part once the running review has finished `done` decisions."""
    deadline = time.monotonic() + timeout
    while True:
        rv = p.state()["review"]
        if rv["running"] and rv["done"] is not None and rv["done"] >= done:
            return rv
        assert time.monotonic() < deadline, rv
        time.sleep(0.01)


def test_the_review_of_a_finished_game(client):
    p = short_game(client, seed=21)
    s = session(client, p)
    assert p.state()["review"] == {"running": False, "done": None, "total": None,
                                   "reviewed": False, "complete": False, "page": None}
    r = client.get(f"/game/{p.gid}/review")
    assert r.status_code == 409 and "not been reviewed yet" in r.text
    assert client.get(p.url("/review"), headers={TOKEN: "wrong"}).status_code == 403
    r = p.get("/review")
    assert r.status_code == 200, r.text
    d = r.json()
    # the library's review of the same record, the person's moves, the same seed
    rec = s.record()
    lib = cuttle.review(rec, REVIEW_ENGINE, player=0, seed=ReviewJob.of_game(
        rec, 0, s.settings.seed).seed)
    want = lib.as_dict()
    assert d["decisions"] == want["decisions"] and d["players"] == want["players"]
    # where the game was lost: the page's summary shows its text first, as the text does
    assert d["where_lost"] == want["where_lost"] and d["where_lost"]["text"] == lib.headline
    assert d["text"].splitlines()[0] == lib.headline
    assert d["reviewed_players"] == [0] and d["complete"] and d["decisions"]
    assert all(x["player"] == 0 for x in d["decisions"])
    assert [x["ply"] for x in d["decisions"]] == [i for i, m in enumerate(rec["moves"])
                                                   if s.movers[i] == 0]
    assert d["page"] == f"/game/{p.gid}/review" and "accuracy" in d["text"]
    st = p.state()["review"]
    assert st == {"running": False, "done": None, "total": None, "reviewed": True,
                  "complete": True, "page": d["page"]}
    # kept: asked again, the same review without a new run
    kept = s.review
    assert p.get("/review").json() == d and s.review is kept


def test_the_review_page_runs_only_its_own_script(client):
    p = short_game(client, seed=22)
    assert p.get("/review").status_code == 200
    r = client.get(f"/game/{p.gid}/review")
    assert r.status_code == 200 and 'data-review="1"' in r.text
    assert 'data-viewer="0"' in r.text                  # the person's view first
    policies = r.headers.get_list("content-security-policy")
    assert len(policies) == 1                           # the app's own is not added
    scripts = re.findall(r"<script>(.*?)</script>", r.text, re.S)
    assert len(scripts) == 1
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}';" in policies[0]
    assert "'self'" not in policies[0] and "default-src 'none'" in policies[0]
    assert r.headers["x-frame-options"] == "DENY"       # the other headers are kept
    assert client.get("/game/nosuchgame/review").status_code == 404


def test_page_headers_without_a_script():
    assert "script-src 'none';" in page_headers("<p>no script</p>")["content-security-policy"]


def test_no_review_before_the_end(client):
    p = new_game(client, bot="random", seed=23)
    assert p.state()["review"] is None
    r = p.get("/review")
    assert r.status_code == 409 and "finished game" in r.json()["error"]
    assert p.post("/review/stop").json() == {"stopping": False}


def test_stop_keeps_what_is_reviewed(client):
    p = new_game(client, bot="random", seat=1, seed=24)
    play_out(p, random.Random(24))
    th, out = review_in_thread(p)
    rv = wait_running(p)
    assert rv["total"] > rv["done"] >= 1
    second, out2 = review_in_thread(p)          # a second request waits for the same run
    assert p.post("/review/stop").json() == {"stopping": True}
    th.join(60)
    second.join(60)
    assert not th.is_alive() and not second.is_alive()
    d = out[0].json()
    assert out[0].status_code == 200 and out2[0].json() == d
    assert not d["complete"] and 1 <= d["reviewed"] < d["total"] == rv["total"]
    assert all(x["player"] == 1 for x in d["decisions"])
    assert d["where_lost"]["text"].endswith(f" (the review was stopped after {d['reviewed']} "
                                            f"of {d['total']} decisions).")
    st = p.state()["review"]
    assert st["reviewed"] and not st["complete"] and not st["running"]
    page = client.get(f"/game/{p.gid}/review")
    assert page.status_code == 200 and "interrupted after" in page.text
    # asked again, a stopped review runs again, whole this time
    again = p.get("/review").json()
    assert again["complete"] and again["reviewed"] == again["total"] == d["total"]
    assert "the review was stopped" not in again["where_lost"]["text"]
    assert again["decisions"][:d["reviewed"]] == d["decisions"]


def reviewing(client, seed):
    """A whole game against the random bot, its review running in a thread: (player,
    session, thread, the list its response lands in)."""
    p = new_game(client, bot="random", seat=0, seed=seed)
    play_out(p, random.Random(seed))
    th, out = review_in_thread(p)
    wait_running(p)
    return p, session(client, p), th, out


def test_closing_the_game_stops_its_review(client):
    p, s, th, out = reviewing(client, 25)
    job = s.reviewing
    assert client.delete(p.url(), headers=p.h).status_code == 204
    assert job.stopped
    th.join(60)
    assert not th.is_alive() and not out[0].json()["complete"]
    assert p.get("/review").status_code == 404


def test_the_server_stopping_stops_reviews(client):
    p, s, th, out = reviewing(client, 26)
    client.app.state.cuttle.store.abort_all()
    th.join(60)
    assert not th.is_alive() and not out[0].json()["complete"] and s.reviewing is None


def test_the_review_of_a_game_an_undo_dealt_again_says_so(client):
    """The person's second draw taken back (it had shown them cards hidden again): the
    game is dealt again, its record says where (`redealt`), and its review says it in
    one line, the panel's (`redealt`) and the text's under the headline."""
    from cuttle.record import final_game, redealt_words
    p = new_game(client, rules="classic", bot="greedy", seat=0, seed=2)
    for _ in range(2):
        p.move("draw")
        p.bot()
    assert p.post("/undo").json()["redealt"] is not None
    p.move("draw")
    p.bot()
    assert p.post("/resign").status_code == 200
    rec = p.get("/record").json()
    assert rec["redealt"] == [2] and final_game(rec) == session(client, p).game
    line = redealt_words(rec)
    assert line.startswith("Dealt again by an undo after move 2: moves 1 and 2 were played "
                           "on an earlier deal, P1 greedy's")
    d = p.get("/review").json()
    assert d["redealt"] == line and d["text"].splitlines()[1] == line
    # a game without an undo's re-deal says nothing of it
    assert "redealt" not in session(client, short_game(client, seed=21)).record()
