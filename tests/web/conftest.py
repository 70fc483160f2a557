"""Fixtures of the web app's tests: the app through its test client, a real server on
loopback (uvicorn in a thread), and a headless Chromium (skipped, saying why, only where
Chromium or selenium cannot be found)."""

import re
import socket
import threading
import time

import pytest

from report import chromium

WEB_EXTRA = "the web extra is not installed (pip install -e '.[web]')"

TOKEN = "X-Cuttle-Token"
BASE = "http://127.0.0.1"


def pytest_configure(config):
    config.addinivalue_line("markers", "load: the web app's load test on loopback "
                                       "(CUTTLE_WEB_LOAD_SECONDS sets its length)")


def start_token(html):
    return re.search(r'data-start-token="([^"]+)"', html).group(1)


def game_token(html):
    return re.search(r' data-token="([^"]+)"', html).group(1)


class Player:
    """One game through the JSON API, as the game page plays it."""

    def __init__(self, client, gid, token):
        self.c, self.gid, self.token = client, gid, token
        self.h = {TOKEN: token}

    def url(self, path=""):
        return f"/api/games/{self.gid}{path}"

    def get(self, path="", **kw):
        return self.c.get(self.url(path), headers=self.h, **kw)

    def post(self, path, data=None, **kw):
        return self.c.post(self.url(path), headers=self.h, json=data, **kw)

    def state(self):
        r = self.get()
        assert r.status_code == 200, r.text
        return r.json()

    def move(self, text, ply=None):
        return self.post("/move", {"move": text, "ply": ply})

    def bot(self, ply=None):
        return self.post("/bot", {"ply": ply})


def play_out(p, rng, undo_every=0):
    """Play a whole game through the API, random moves for the person; returns the last
    state.  Checks each answer against the engine's game."""
    st = p.state()
    n = 0
    while st["status"] == "playing":
        if st["bot_to_move"]:
            r = p.bot(st["ply"])
        else:
            assert st["legal"]
            n += 1
            if undo_every and n % undo_every == 0 and st["can_undo"]:
                r = p.post("/undo")
                assert r.status_code == 200, r.text
                assert r.json()["undone"]
            else:
                r = p.move(rng.choice(st["legal"])["text"], st["ply"])
        assert r.status_code == 200, r.text
        st = r.json()
    return st


def held_bot(s):
    """Hold session s's next bot decision until released: (started, release) events."""
    decide, started, release = s.thinker.decide, threading.Event(), threading.Event()

    def held(game, control):
        started.set()
        assert release.wait(60)
        return decide(game, control)
    s.thinker.decide = held
    return started, release


def new_game(client, **settings):
    """Start a game through the start page and the game page; returns a Player."""
    home = client.get("/")
    assert home.status_code == 200
    r = client.post("/api/games", json=settings, headers={TOKEN: start_token(home.text)})
    assert r.status_code == 201, r.text
    page = client.get(r.json()["url"])
    assert page.status_code == 200
    return Player(client, r.json()["id"], game_token(page.text))


@pytest.fixture
def client():
    import cuttle.web
    from starlette.testclient import TestClient
    with TestClient(cuttle.web.app(max_sessions=20), base_url=BASE) as c:
        yield c


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The app served by uvicorn on 127.0.0.1 in a thread of this process."""

    def __init__(self, app):
        import uvicorn
        self.app = app
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(20)


@pytest.fixture(scope="module")
def server():
    import cuttle.web
    with Server(cuttle.web.app()) as s:
        yield s


@pytest.fixture(scope="module")
def browser():
    found = chromium.find()
    if isinstance(found, str):
        pytest.skip(found)
    d = chromium.start(1100, 900)
    d.set_script_timeout(30)
    yield d
    d.quit()
