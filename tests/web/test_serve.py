"""`cuttle serve` as a person runs it: a real process on loopback, Ctrl-C to stop (work
in flight aborted), its warnings and errors; and the load test (many games of random
clicks at once)."""

import asyncio
import importlib.util
import os
import pathlib
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from web.conftest import WEB_EXTRA

pytest.importorskip("starlette", reason=WEB_EXTRA)

from web.conftest import TOKEN, free_port, new_game, play_out, start_token  # noqa: E402

httpx = pytest.importorskip("httpx2" if importlib.util.find_spec("httpx2") else "httpx")


class Serve:
    """`python -m cuttle serve ARGS` in a process of its own, ready when it answers."""

    def __init__(self, *args, host="127.0.0.1", port=None, env=None):
        self.port = free_port() if port is None else port
        env = dict(os.environ if env is None else env, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cuttle", "serve", "--port", str(self.port), *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
            start_new_session=True, preexec_fn=_default_ctrl_c)
        if self.port == 0:          # any free port: the address printed says which
            self.said = self.proc.stdout.readline()
            found = re.search(rf"open http://{re.escape(host)}:(\d+)/ ", self.said)
            assert found, (self.said, self.proc.poll())
            self.port = int(found.group(1))
        self.url = f"http://{host}:{self.port}"
        deadline = time.monotonic() + 30
        while True:
            assert self.proc.poll() is None, self.proc.communicate()
            try:
                if httpx.get(self.url + "/", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)

    def rss_mb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024

    def stop(self):
        """Ctrl-C; returns (exit status, stdout, stderr)."""
        self.proc.send_signal(signal.SIGINT)
        try:
            out, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
        return self.proc.returncode, out, err


def _default_ctrl_c():
    # (a shell's background job starts with Ctrl-C ignored, and so would the server)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_serve_and_ctrl_c():
    s = Serve()
    try:
        r = httpx.get(s.url + "/", timeout=5)
        assert r.status_code == 200 and "A new game" in r.text
        # a Host header of another name (a DNS rebinding page) is refused
        r = httpx.get(s.url + "/", headers={"host": "attacker.example"}, timeout=5)
        assert r.status_code == 400
        # rules under which every game is a draw: said in the answers, not on stderr
        r = httpx.get(s.url + "/api/rules", params={"text": "classic:hand_limit=0"},
                      timeout=5)
        assert r.json()["warning"].startswith("degenerate rules (classic: hand_limit=0)")
        with httpx.Client(base_url=s.url, timeout=30) as c:
            p = new_game(c, rules="classic: hand_limit=0", bot="random", seed=1)
            assert p.state()["warning"] == r.json()["warning"]
    finally:
        code, out, err = s.stop()
    assert code == 0 and f"open http://127.0.0.1:{s.port}/" in out
    assert "Traceback" not in err and "degenerate" not in err, err


def in_thread(call):
    """call() in a thread; returns (thread, the list its result lands in)."""
    out = []
    th = threading.Thread(target=lambda: out.append(call()))
    th.start()
    return th, out


def wait_for(check, what):
    deadline = time.monotonic() + 60
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def test_ctrl_c_aborts_the_work_in_flight():
    """Ctrl-C with a review, a bot's search and a hint running: all stop at once (the
    bot's move is not played, the bot's request and the hint answered 503, the review
    with what it finished) and the server exits."""
    s = Serve("--workers", "3")
    with httpx.Client(base_url=s.url, timeout=60) as c:
        try:
            done = new_game(c, bot="random", seat=0, seed=11)
            play_out(done, random.Random(11))
            reviewing, review = in_thread(lambda: done.get("/review"))
            wait_for(lambda: (done.state()["review"] or {}).get("done"), "no review")
            thinker = new_game(c, bot="ismcts:100000", seat=1, seed=2)
            thinking, bot = in_thread(thinker.bot)
            wait_for(lambda: thinker.state()["thinking"], "the bot did not think")
            # the largest hint with the slowest playouts it takes: seconds of work (2.5 s)
            asker = new_game(c, rules="cuttle.cards", bot="expert", seat=0, seed=9)
            hinting, hint = in_thread(lambda: asker.post(
                "/hint", {"rollouts": 5000, "policy": "expert"}))
            time.sleep(0.5)
        finally:
            start = time.monotonic()
            code, out, err = s.stop()
            took = time.monotonic() - start
        reviewing.join(60)
        thinking.join(60)
        hinting.join(60)
    assert code == 0 and "stopped" in out and "Traceback" not in err, err
    assert review[0].status_code == 200 and not review[0].json()["complete"]
    assert bot[0].status_code == 503 and "stopping" in bot[0].text     # not played
    assert hint[0].status_code == 503 and "stopping" in hint[0].text
    assert took < 5, took           # (under a second on a quiet machine)


def test_serve_on_any_free_port():
    s = Serve(port=0)
    try:
        assert s.port > 0 and httpx.get(s.url + "/", timeout=5).status_code == 200
    finally:
        code, out, err = s.stop()
    assert code == 0 and "Traceback" not in err


def test_serve_elsewhere_warns_and_keeps_the_host_check():
    """A server others can reach keeps the Host check (on loopback too, where it also
    answers): a foreign name is refused; its addresses, localhost, the machine's name
    and --allow-host's names are answered to, as its warning says."""
    own = socket.gethostname().lower()
    s = Serve("--host", "127.0.0.2", "--allow-host", "Games.LAN", "--allow-host", "x.lan",
              host="127.0.0.2")
    try:
        def get(host):
            return httpx.get(s.url + "/", headers={"host": host}, timeout=5)
        r = get("evil.example")
        assert r.status_code == 400 and "start-token" not in r.text
        assert "does not answer to the host name 'evil.example'" in r.json()["error"]
        for host in (f"127.0.0.2:{s.port}", f"192.0.2.7:{s.port}", "localhost", own,
                     f"games.lan:{s.port}", "X.lan"):
            assert get(host).status_code == 200, host
    finally:
        code, out, err = s.stop()
    names = ", ".join(sorted({"games.lan", "x.lan", "localhost", own}))
    assert code == 0 and "warning: serving on 127.0.0.2" in err
    assert f"It answers to its IP addresses and the names {names} (--allow-host NAME " \
           f"adds a name)" in " ".join(err.split()), err
    assert "turns the Host check off" not in err


def test_allow_any_host():
    s = Serve("--allow-host", "*")
    try:
        r = httpx.get(s.url + "/", headers={"host": "box.lan"}, timeout=5)
        assert r.status_code == 200          # any name: the person said so
    finally:
        code, out, err = s.stop()
    assert code == 0 and "warning: --allow-host '*' turns the Host check off" in err
    assert "serving on" not in err           # (on loopback: the only warning)


def test_open_without_a_browser_says_so():
    # No browser to be found (none on the PATH, no display): webbrowser.open returns
    # False; the server goes on, and stderr says to open the address by hand.
    env = {k: v for k, v in os.environ.items()
           if k not in ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY")}
    s = Serve("--open", env=dict(env, PATH=os.devnull))
    try:
        assert httpx.get(s.url + "/", timeout=5).status_code == 200
    finally:
        code, out, err = s.stop()
    assert code == 0 and f"open {s.url}/ " in out
    assert f"no browser could be opened: open {s.url}/ in one by hand" in err, err


def serve_once(*args):
    """`python -m cuttle serve ARGS` that exits at once: (exit status, stderr).  (In a
    process of its own: uvicorn configures the logging of the process it runs in.)"""
    p = subprocess.run([sys.executable, "-m", "cuttle", "serve", *args], capture_output=True,
                       text=True, timeout=60)
    return p.returncode, p.stderr


def test_serve_errors():
    # (as every command's: a bad value in one line, a command line of the wrong shape in
    # two, tests/cli/test_errors.py)
    assert serve_once("--port", "70000") == (
        2, "cuttle serve: error: --port must be from 0 (any free port) to 65535, not 70000\n")
    assert serve_once("--max-games", "0") == (
        2, "cuttle serve: error: argument --max-games: the count must be at least 1, not 0\n")
    assert serve_once("--port") == (
        2, "cuttle serve: error: argument --port: expected one argument\n"
           "(cuttle serve --help lists its options)\n")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        code, err = serve_once("--port", str(busy.getsockname()[1]))
    assert code == 1 and "cannot serve on 127.0.0.1" in err
    assert "Traceback" not in err
    for bad in ("http://games.lan", "games.lan:8000", ""):
        code, err = serve_once("--allow-host", bad)
        assert code == 2 and err == (f"cuttle serve: error: --allow-host takes a host name "
                                     f"such as mybox.lan (no scheme, port or path) or '*' "
                                     f"(any), not {bad!r}\n")


def test_the_default_workers_are_as_the_help_and_docs_say(monkeypatch, capsys):
    from cuttle.cli import main
    assert main(["serve", "--help"]) == 0
    said = "(default: the cores, at least 2)"
    assert said in " ".join(capsys.readouterr().out.split())
    docs = pathlib.Path(__file__).resolve().parents[2] / "docs" / "web.md"
    assert said in " ".join(docs.read_text(encoding="utf-8").split())
    import cuttle.web
    for cores, workers in ((1, 2), (8, 8)):
        monkeypatch.setattr(os, "cpu_count", lambda: cores)
        assert cuttle.web.app().state.cuttle.workers == workers


# -- the load test ----------------------------------------------------------------------

RULES = ["classic", "cuttle.cards", "cuttle.cards joker=true", "quick four=random",
         "classic ten_blocks_scuttle=true ten_discards=true hand_limit=6"]
BOTS = ["random", "greedy", "expert", "ismcts:50"]
EXPECTED = {200, 201, 204, 409, 422}


async def one_player(client, stop_at, rng, stats):
    """Games of random clicks until `stop_at`: moves (some illegal), the bot's moves,
    hints, undos, the record at the end, then the game closed."""
    home = await client.get("/")
    tok = {TOKEN: start_token(home.text)}
    while time.monotonic() < stop_at:
        r = await client.post("/api/games", headers=tok, json={
            "rules": rng.choice(RULES), "bot": rng.choice(BOTS), "seat": rng.randrange(2),
            "seed": rng.randrange(2 ** 32)})
        stats.count(r)
        if r.status_code != 201:
            continue
        gid = r.json()["id"]
        page = await client.get(f"/game/{gid}")
        h = {TOKEN: page.text.split(' data-token="')[1].split('"')[0]}
        api = f"/api/games/{gid}"
        st = (await client.get(api, headers=h)).json()
        while st["status"] == "playing" and time.monotonic() < stop_at:
            roll = rng.random()
            if st["bot_to_move"]:
                r = await client.post(api + "/bot", headers=h, json={"ply": st["ply"]})
            elif roll < 0.03:
                r = await client.post(api + "/move", headers=h, json={"move": "points KS"})
                stats.count(r)
                continue
            elif roll < 0.05:
                r = await client.post(api + "/hint", headers=h, json={"rollouts": 20})
                stats.count(r)
                continue
            elif roll < 0.08:
                r = await client.post(api + "/undo", headers=h)
            else:
                m = rng.choice(st["legal"])["text"]
                r = await client.post(api + "/move", headers=h, json={"move": m, "ply": st["ply"]})
            stats.count(r)
            if r.status_code == 200:
                st = r.json()
            else:
                st = (await client.get(api, headers=h)).json()
        if st["status"] != "playing":
            stats.count(await client.get(api + "/record", headers=h))
            stats.games += 1
        stats.count(await client.delete(api, headers=h))


class Stats:
    def __init__(self):
        self.requests, self.games, self.bad = 0, 0, []

    def count(self, r):
        self.requests += 1
        if r.status_code not in EXPECTED:
            self.bad.append((r.request.method, r.request.url.path, r.status_code, r.text[:200]))


@pytest.mark.load
def test_load_on_loopback():
    """50 games at once of random clicks for CUTTLE_WEB_LOAD_SECONDS (10 s here, a
    minute by hand): no error, and the server's memory flat."""
    seconds = float(os.environ.get("CUTTLE_WEB_LOAD_SECONDS", "10"))
    players = int(os.environ.get("CUTTLE_WEB_LOAD_PLAYERS", "50"))
    s = Serve("--max-games", "200")
    samples = []
    stats = Stats()

    async def run():
        limits = httpx.Limits(max_connections=players)
        async with httpx.AsyncClient(base_url=s.url, timeout=60, limits=limits) as c:
            stop_at = time.monotonic() + seconds
            tasks = [asyncio.create_task(one_player(c, stop_at, random.Random(k), stats))
                     for k in range(players)]
            while not all(t.done() for t in tasks):
                samples.append((time.monotonic(), s.rss_mb()))
                await asyncio.sleep(0.5)
            for t in tasks:
                t.result()

    try:
        start = time.monotonic()
        asyncio.run(run())
        took = time.monotonic() - start
    finally:
        code, out, err = s.stop()
    warm = [mb for t, mb in samples if t - samples[0][0] >= seconds / 3]
    first, peak = warm[0], max(warm)
    print(f"\nload: {players} players, {took:.1f} s, {stats.requests:,} requests "
          f"({stats.requests / took:,.0f}/s), {stats.games} games finished; server RSS "
          f"{samples[0][1]:.0f} MB at start, {first:.0f} MB after a third, peak {peak:.0f} "
          f"MB, {warm[-1]:.0f} MB at the end")
    assert not stats.bad, stats.bad[:5]
    assert stats.games >= 1 and stats.requests >= 5 * players   # (a busy machine is slow)
    assert peak - first < 40, samples            # flat: no growth with games played
    assert code == 0 and "Traceback" not in err, err[-2000:]


def test_a_name_with_two_addresses_prints_each_port():
    # --port 0 on a name bound to two addresses (localhost: 127.0.0.1 and ::1) gives
    # each address its own free port; the message must name both, not the first alone.
    # Two loopback sockets on different ports stand for it, served by the command's own
    # server class, in this process.
    import uvicorn

    from cuttle.cli.serve import _server, _urls

    async def app(scope, receive, send):          # (a bare ASGI app: no lifespan)
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                pass

    class Work:
        def stop_work(self):
            pass

    heard = []
    socks = []
    for address in ("127.0.0.1", "127.0.0.2"):
        sock = socket.socket()
        sock.bind((address, 0))
        socks.append(sock)
    names = [sock.getsockname()[:2] for sock in socks]
    config = uvicorn.Config(app, log_level="error", lifespan="off")
    server = _server(uvicorn, config, Work(), heard.append)
    thread = threading.Thread(target=server.run, kwargs={"sockets": socks})
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not heard and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        server.should_exit = True
        thread.join(30)
        for sock in socks:
            sock.close()
    assert len(heard) == 1 and sorted(heard[0]) == sorted(names)
    (a, pa), (b, pb) = heard[0]
    assert _urls("localhost", heard[0]) == [f"http://{a}:{pa}/", f"http://{b}:{pb}/"]
    # one port for all: the name as given; IPv6 in brackets; the wildcard as loopback
    assert _urls("localhost", [("127.0.0.1", 8000), ("::1", 8000)]) == \
        ["http://localhost:8000/"]
    assert _urls("localhost", [("127.0.0.1", 40001), ("::1", 40002)]) == \
        ["http://127.0.0.1:40001/", "http://[::1]:40002/"]
    assert _urls("0.0.0.0", [("0.0.0.0", 8000)]) == ["http://127.0.0.1:8000/"]
