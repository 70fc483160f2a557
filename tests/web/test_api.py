"""The web app through its test client: every route, bad input (always a 4xx with a
message, never a 500), tokens, undo, hints, the record, sessions (the review: test_review.py)."""

import html
import json
import random
import re
import socket
import threading
import time

import pytest

from web.conftest import WEB_EXTRA

pytest.importorskip("starlette", reason=WEB_EXTRA)

import cuttle  # noqa: E402
from cuttle.analysis import analyse  # noqa: E402
from cuttle.hints import hint, hint_words  # noqa: E402
from cuttle.narration import narrate_game  # noqa: E402
from cuttle.cli import main  # noqa: E402
from cuttle.record import final_game, validate_record  # noqa: E402
from cuttle.seeding import derive  # noqa: E402
from cuttle.web.sessions import SessionStore, parse_settings  # noqa: E402
from web.conftest import (BASE, TOKEN, Player, game_token, held_bot, new_game,  # noqa: E402
                          play_out, start_token)


def store(client):
    return client.app.state.cuttle.store


def test_pages_and_static(client):
    home = client.get("/")
    assert home.status_code == 200 and "text/html" in home.headers["content-type"]
    assert "Content-Security-Policy" in home.headers
    assert home.headers["x-frame-options"] == "DENY"
    for name in ("game.js", "start.js", "style.css"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and len(r.text) > 500
    assert client.get("/static/../routes.py").status_code == 404
    r = client.get("/nowhere")
    assert r.status_code == 404 and r.json() == {"error": "no such page"}
    r = client.get("/game/doesnotexist")
    assert r.status_code == 404 and "no such game" in r.text
    assert client.delete("/").status_code == 405


def test_rules_check(client):
    r = client.get("/api/rules", params={"text": "cuttle.cards four=random hand_limit=7"})
    assert r.status_code == 200
    assert r.json()["rules"] == str(cuttle.Rules("cuttle.cards", four="random", hand_limit=7))
    r = client.get("/api/rules", params={"text": "classic fuor=random"})
    assert r.status_code == 400 and "fuor" in r.json()["error"]
    assert client.get("/api/rules", params={"text": "x" * 5000}).status_code == 413


DEGENERATE = "classic: hand_limit=0"       # (every game a draw)


def test_rules_that_decide_nothing_are_said_in_the_answers_not_on_stderr(client, recwarn):
    """The rules' check and the game's state carry the warning of rules under which
    every game is a draw; the server made it a DegenerateRulesWarning instead, a line on
    its stderr for each request, which the person never saw."""
    with pytest.warns(cuttle.rules.DegenerateRulesWarning):
        want = cuttle.Rules.parse(DEGENERATE).degenerate_warning()
    assert want.startswith(f"degenerate rules ({DEGENERATE}): with hand_limit=0 ")
    recwarn.clear()
    r = client.get("/api/rules", params={"text": "classic:hand_limit=0"})
    assert r.status_code == 200 and r.json()["warning"] == want
    assert client.get("/api/rules", params={"text": "classic"}).json()["warning"] is None
    p = new_game(client, rules=DEGENERATE, bot="random", seed=3)
    assert p.state()["warning"] == want
    assert new_game(client, bot="random", seed=3).state()["warning"] is None
    # rules of a position: said alike
    q = new_game(client, bot="random", seed=3,
                 position=f"rules: {DEGENERATE}; hands: 2C 4D / -")
    assert q.state()["warning"] == want
    # its review reads the record's rules in a worker thread: no warning there either
    assert q.post("/resign").status_code == 200
    assert q.get("/review").status_code == 200
    assert not [w for w in recwarn if issubclass(w.category, cuttle.rules.DegenerateRulesWarning)]


def test_a_whole_game_and_its_record(client, tmp_path):
    p = new_game(client, rules="cuttle.cards", bot="greedy", seat=1, seed=11)
    st = p.state()
    assert st["you"] == 1 and st["bot"] == "greedy" and st["rules"] == "cuttle.cards"
    assert st["bot_to_move"] and not st["legal"] and st["ply"] == 0
    assert p.get("/record").status_code == 409          # not before the end
    st = play_out(p, random.Random(1))
    g = store(client).get(p.gid).game
    assert g.is_over and st["ply"] == g.ply
    res = st["result"]
    assert res["winner"] == g.winner and res["seed"] == 11
    assert res["outcome"] == ("draw" if g.winner is None else
                              "won" if g.winner == 1 else "lost")
    assert [h["move"] for h in st["history"]] == [str(m) for m in g.moves]
    # each move with what it did, as the person saw it
    told = narrate_game(cuttle.Game("cuttle.cards", seed=11), g.moves, viewer=1)
    assert [h["effect"] for h in st["history"]] == told and sum(map(bool, told)) > 5
    assert st["last"] == st["history"][-1] and not st["can_undo"]
    r = p.get("/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    rec = validate_record(r.json())
    assert rec["players"] == ["greedy", "human"] and rec["human_seat"] == 1
    assert final_game(rec) == g
    path = tmp_path / "game.json"
    path.write_text(r.text)
    assert main(["replay", str(path)]) == 0
    assert p.move("draw").status_code == 409 and p.bot().status_code == 409
    assert p.post("/undo").status_code == 409 and p.post("/resign").status_code == 409


def test_the_bot_replays_a_seeded_game(client):
    """Two games with the same settings and the same moves of the person are the same
    game, whichever order their requests come in (sessions are independent)."""
    settings = dict(rules="classic four=random", bot="ismcts:300", seat=0, seed=5)
    a, b = new_game(client, **settings), new_game(client, **settings)
    assert a.gid != b.gid and a.token != b.token
    assert a.get().status_code == 200
    assert client.get(a.url(), headers={TOKEN: b.token}).status_code == 403
    rng = random.Random(3)
    sa, sb = a.state(), b.state()
    while sa["status"] == "playing":
        assert sa["ply"] == sb["ply"] and sa["legal"] == sb["legal"]
        if sa["bot_to_move"]:
            sb, sa = b.bot().json(), a.bot().json()
        else:
            m = rng.choice(sa["legal"])["text"]
            sa, sb = a.move(m).json(), b.move(m).json()
    assert sa["history"] == sb["history"] and sb["status"] != "playing"


@pytest.mark.parametrize("body,status,words", [
    (None, 400, "expected a JSON body"),
    ([], 400, "JSON object"),
    ({"rules": "clasic"}, 400, "unknown preset"),
    ({"rules": "classic four=sometimes"}, 400, "four"),
    ({"rules": 7}, 400, "must be text"),
    # the bots this app offers, and only those (it listed every policy of the library)
    ({"bot": "godlike"}, 400, "bot: choose one of random, greedy, expert, ismcts:N or "
                              "ismcts-infer:N, not 'godlike'"),
    ({"bot": "ismcts-random:10"}, 400, "random, greedy, expert, ismcts:N or ismcts-infer"),
    ({"bot": "cuttle.cards-ai"}, 400, "random, greedy, expert, ismcts:N or ismcts-infer"),
    ({"bot": "ismcts:x"}, 400, "bad iteration count"),
    ({"bot": "ismcts:1000000"}, 400, "at most ismcts:100000"),
    ({"bot": "ismcts-infer:100001"}, 400, "at most ismcts-infer:100000"),
    ({"bot": "greedy:3"}, 400, "takes no parameter"),
    ({"seat": 2}, 400, "seat"),
    ({"seat": True}, 400, "seat"),
    ({"seat": 1.0}, 400, "seat must be 0 or 1"),
    ({"seat": 0.0}, 400, "seat must be 0 or 1"),
    ({"seat": False}, 400, "seat must be 0 or 1, not false"),
    # one wording for every bad seed, text or number (-1 said "an int from 0 to ..."),
    # what was sent spelt as JSON spells it (it said True)
    ({"seed": 5.0}, 400, "seed must be a whole number from 0 to 2**64-1, not 5.0"),
    ({"seed": -1}, 400, "seed must be a whole number from 0 to 2**64-1, not -1"),
    ({"seed": "-1"}, 400, 'seed must be a whole number from 0 to 2**64-1, not "-1"'),
    ({"seed": "abc"}, 400, 'seed must be a whole number from 0 to 2**64-1, not "abc"'),
    ({"seed": "12x"}, 400, 'seed must be a whole number from 0 to 2**64-1, not "12x"'),
    ({"seed": True}, 400, "seed must be a whole number from 0 to 2**64-1, not true"),
    # (said "seed: seed must be ...")
    ({"seed": 2 ** 64}, 400, f"seed must be a whole number from 0 to 2**64-1, not {2 ** 64}"),
    ({"position": "hands: 2C 2C / 3D"}, 400, "position"),
    ({"colour": "red"}, 400, "unknown field"),
    ({"rules": "x" * 5000}, 413, "too long"),
])
def test_bad_new_games(client, body, status, words):
    tok = {TOKEN: start_token(client.get("/").text)}
    r = client.post("/api/games", headers=tok, json=body) if body is not None else \
        client.post("/api/games", headers=tok)
    assert r.status_code == status and words in r.json()["error"], r.text
    assert r.json()["error"].count("seed") <= 1, r.text
    assert not {"ismcts-random:N", "cuttle.cards-ai"} & set(r.json()["error"].split(", "))
    assert len(store(client)) == 0


def test_the_start_page_offers_the_bots_the_app_takes(client):
    """The opponent menu is the app's list of bots (sessions.BOTS), each of which starts
    a game."""
    from cuttle.web.sessions import BOTS
    html = client.get("/").text
    menu = html[html.index('<select id="bot"'):]
    menu = menu[:menu.index("</select>")]
    assert re.findall(r'<option value="([^"]+)"', menu) == list(BOTS)
    assert '<option value="expert" selected>' in menu
    tok = {TOKEN: start_token(html)}
    for bot in BOTS:
        r = client.post("/api/games", headers=tok, json={"bot": bot, "seat": 1})
        assert r.status_code == 201, r.text


@pytest.mark.parametrize("seat, want", [("", 0), ("  ", 0), (None, 0), (1, 1), ("1", 1),
                                        (" 1 ", 1), ("0", 0), (0, 0)])
def test_a_seat_is_a_whole_number_or_its_text_and_empty_text_is_the_default(
        client, seat, want):
    # {"seat": ""} was refused ("seat must be 0 or 1, not ''") though every other field
    # left empty takes its default, as docs/web.md says
    tok = {TOKEN: start_token(client.get("/").text)}
    r = client.post("/api/games", headers=tok, json={"seat": seat, "seed": 3})
    assert r.status_code == 201, r.text
    assert store(client).get(r.json()["id"]).settings.seat == want


@pytest.mark.parametrize("seat", ["2", "1.0", "one", "true", 1.5, [1], {"seat": 1}])
def test_a_seat_refused_names_what_was_sent(client, seat):
    tok = {TOKEN: start_token(client.get("/").text)}
    r = client.post("/api/games", headers=tok, json={"seat": seat})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == f"seat must be 0 or 1, not {json.dumps(seat)}"
    assert len(store(client)) == 0


def test_a_seed_as_text_reads_as_the_command_line_reads_it(client):
    tok = {TOKEN: start_token(client.get("/").text)}
    for text, seed in ((" 0x1F ", 31), ("1_000", 1000), ("007", 7), (str(2 ** 64 - 1), 2 ** 64 - 1)):
        r = client.post("/api/games", headers=tok, json={"seed": text})
        assert r.status_code == 201, r.text
        assert store(client).get(r.json()["id"]).settings.seed == seed


def test_new_game_needs_the_start_token_and_json(client):
    r = client.post("/api/games", json={})
    assert r.status_code == 403 and "start token" in r.json()["error"]
    r = client.post("/api/games", json={}, headers={TOKEN: "guess"})
    assert r.status_code == 403
    tok = {TOKEN: start_token(client.get("/").text)}
    r = client.post("/api/games", headers=tok, content=b"rules=classic",
                    )
    assert r.status_code == 415
    r = client.post("/api/games", headers=dict(tok, **{"content-type": "application/json"}),
                    content=b"{not json")
    assert r.status_code == 400 and "not valid JSON" in r.json()["error"]
    r = client.post("/api/games", headers=dict(tok, **{"content-type": "application/json"}),
                    content=b"[" * 100000 + b"]" * 100000)
    assert r.status_code == 413
    r = client.post("/api/games", headers=dict(tok, **{"content-type": "application/json"}),
                    content=b"[" * 5000 + b"]" * 5000)
    assert r.status_code == 400
    assert client.post("/api/games", headers=tok, json={}).status_code == 201
    nulls = dict.fromkeys(["rules", "bot", "seat", "seed", "position"])   # the defaults
    assert client.post("/api/games", headers=tok, json=nulls).status_code == 201


def test_a_position_game(client):
    text = "hands: 2C 9H 7D 4S / 4H 8D QS JC 6C 3C; points: TC AD / 7S; permanents: - / KD; " \
           "deck: 6D 2S; rest: deck"
    p = new_game(client, rules="classic", bot="expert", seat=0, seed=3, position=text)
    st = p.state()
    assert st["observation"]["hand"] == ["2C", "4S", "7D", "9H"]      # card order
    assert {"text": "scuttle 9H 7S", "verb": "scuttle", "cards": ["9H", "7S"]} in st["legal"]
    assert p.post("/resign").status_code == 200
    rec = p.get("/record").json()
    assert rec["position"] and rec["result"]["status"] == "resigned"
    assert final_game(rec) == store(client).get(p.gid).game


@pytest.mark.parametrize("seat", [0, 1])
def test_a_resignation_gives_the_bot_the_game(client, seat):
    """A resignation is a result: the bot wins, in the state, the record and the
    review (it read "unfinished: resigned", no winner)."""
    p = new_game(client, bot="expert", seat=seat, seed=21)
    st = p.state()
    if st["bot_to_move"]:
        st = p.bot().json()
    st = p.move(st["legal"][0]["text"]).json()
    r = p.post("/resign")
    assert r.status_code == 200
    res = r.json()["result"]
    assert r.json()["status"] == "resigned" and res["outcome"] == "resigned"
    assert res["winner"] == 1 - seat and res["text"] == "expert wins (you resigned)"
    # the table's header gives the result, not whose decision it was
    header = re.search(r'class="status"[^>]*>([^<]*)<', r.json()["svg"]).group(1)
    assert header.startswith(f"Game over: P{1 - seat} wins (P{seat} resigned)"), header
    assert "to decide" not in r.json()["svg"] and 'data-resigned="%d"' % seat in \
        r.json()["svg"]
    rec = p.get("/record").json()
    assert rec["result"]["status"] == "resigned" and rec["result"]["winner"] == 1 - seat
    words = f"player {1 - seat} wins (player {seat} resigned)"
    assert rec["result"]["text"] == words
    review = p.get("/review").json()
    assert review["result"] == rec["result"] and f"Result: {words}" in review["text"]


@pytest.mark.parametrize("seat", [0, 1])
def test_a_finished_game_shows_the_bot_s_hand(client, seat):
    """Once the game is finished (the seed, which deals every card, is shown then), the
    table shows every card: the bot's hand face up, the person's side still at the
    bottom."""
    p = new_game(client, bot="greedy", seat=seat, seed=8)
    st = p.state()
    bots = [str(c) for c in store(client).get(p.gid).game.hand(1 - seat)]
    assert 'data-viewer="%d"' % seat in st["svg"]
    assert not set(re.findall(r'data-card="(\w+)"', st["svg"])) & set(bots)
    st = p.post("/resign").json()
    assert 'data-viewer="all"' in st["svg"] and st["result"]["seed"] == 8
    assert set(re.findall(r'data-card="(\w+)"', st["svg"])) >= set(bots)
    seats = re.findall(r">P([01])(?: ·[^<]*)?</text>", st["svg"])
    assert seats == [str(1 - seat), str(seat)]          # (top, bottom)


def test_the_state_holds_both_sides_freezes_this_turn_and_next(client):
    text = "hands: 9H 4S 7D / 4H 8D 6C 3C; permanents: KC / KD; deck: 6D 5S 5C; rest: scrap"
    p = new_game(client, rules="classic nine=freeze", bot="greedy", seat=0, seed=3,
                 position=text)
    assert p.move("oneoff 9H KC", 0).status_code == 200     # the person's own King back
    st = p.bot(1).json()                                    # the bot lets it resolve
    assert st["observation"]["turn"] == 1 and st["bot_to_move"]
    o = st["observation"]
    assert o["frozen"] == [[], []] and o["frozen_next"] == [["KC"], []]
    st = p.bot(st["ply"]).json()                            # the bot's turn
    o = st["observation"]
    assert st["your_decision"] and o["frozen"] == [["KC"], []] and o["frozen_next"] == [[], []]
    assert 'class="card hand0 frozen" data-card="KC"' in st["svg"]


def test_the_state_says_what_the_announced_one_off_targets(client):
    text = "hands: 2H 4S 7D / 4H 8D 6C 3C; permanents: KC / KS KD; deck: 6D 5S 5C; rest: scrap"
    p = new_game(client, rules="classic", bot="greedy", seat=0, seed=3, position=text)
    assert p.state()["observation"]["target"] is None
    r = p.move("oneoff 2H KS", 0)                  # the bot now answers it
    assert r.status_code == 200
    st = p.state()
    assert st["phase"] == "counter" and st["bot_to_move"]
    assert st["observation"]["stack"] == ["2H"] and st["observation"]["target"] == "KS"
    st = p.bot(st["ply"]).json()                   # the bot lets it resolve: no target
    assert st["observation"]["target"] is None


def test_a_positions_own_rules_and_seed(client):
    """A position's rules: and seed: fields are the game's unless the request gives
    others, which is refused (neither is dropped silently)."""
    text = "hands: 2C 9H 7D 4S / 4H 8D QS JC 6C 3C; points: TC AD / 7S; permanents: - / KD"
    tok = {TOKEN: start_token(client.get("/").text)}
    for body, words in [
            ({"rules": "classic", "position": "rules: quick; " + text},
             "its rules (quick) are not the rules chosen (classic)"),
            ({"rules": "classic four=random", "position": "rules: classic; " + text},
             "its rules (classic)"),
            ({"seed": 6, "position": "seed: 5; " + text}, "its seed (5) is not the seed given (6)"),
            ({"seed": "6", "position": "seed: 5; " + text}, "its seed (5)")]:
        r = client.post("/api/games", headers=tok, json=body)
        assert r.status_code == 400 and words in r.json()["error"], r.text
    assert len(store(client)) == 0
    p = new_game(client, position="rules: quick; seed: 5; " + text)        # its own
    sess = store(client).get(p.gid)
    assert p.state()["rules"] == "quick" and sess.settings.seed == 5
    assert sess.game == cuttle.Game.from_text("rules: quick; seed: 5; " + text)
    q = new_game(client, rules="quick", seed=5, position="rules: quick; seed: 5; " + text)
    assert store(client).get(q.gid).game == sess.game                      # agreeing
    r = new_game(client, rules="open", seed=5, position=text)              # the request's
    assert store(client).get(r.gid).game == cuttle.Game.from_text(text, "open", 5)


def test_game_routes_need_the_token(client):
    p = new_game(client, seed=1)
    for method, path in [("get", ""), ("post", "/move"), ("post", "/bot"), ("post", "/stop"),
                         ("post", "/undo"), ("post", "/hint"), ("post", "/resign"),
                         ("get", "/record"), ("get", "/review"), ("delete", "")]:
        for headers in ({}, {TOKEN: "x" * 32}, {TOKEN: b"\xe9\xff"}):
            r = client.request(method.upper(), p.url(path), headers=headers)
            assert r.status_code in (400, 403), (method, path, r.text)
            assert "token" in r.json()["error"] or r.status_code == 400
        r = client.request(method.upper(), f"/api/games/nosuchgame{path}",
                           headers={TOKEN: p.token})
        assert r.status_code == 404 and "no such game" in r.json()["error"]
    assert p.state()["ply"] == 0


@pytest.mark.parametrize("seat", [0, 1])
def test_a_refused_move_calls_the_person_you(client, seat):
    """The engine's reasons name the mover's seat ("7H is not in player 0's hand"); the
    game page calls the person "you"."""
    p = new_game(client, rules="classic", bot="random", seat=seat, seed=1)
    st = p.state()
    if st["bot_to_move"]:
        st = p.bot().json()
    mine = store(client).get(p.gid).game.hand(seat)
    other = next(str(c) for c in cuttle.cards.CARDS if c not in mine and not c.is_joker)
    own = str(mine[0])
    for move, words in ((f"points {other}", f"{other} is not in your hand"),
                        ("take 3H", "in the main phase you may only "),
                        (f"scuttle {own} {other}", "for you in the main phase; legal moves")):
        r = p.move(move)
        error = r.json()["error"]
        assert r.status_code == 422 and words in error and "player" not in error, error
    assert p.state()["ply"] == st["ply"]


def test_moves_are_checked_by_the_engine(client):
    p = new_game(client, rules="classic", bot="random", seat=0, seed=1)
    before = p.state()
    g = store(client).get(p.gid).game
    cases = [({"move": "points KS"}, 422, "illegal move"),
             ({"move": "scuttle 3H"}, 422, "takes 2"),
             ({"move": "teleport"}, 422, "unknown move verb"),
             ({"move": "draw\x00"}, 422, ""),
             ({"move": ""}, 422, ""),
             ({"move": "d" * 100}, 400, "too long"),
             ({"move": 7}, 400, "must be text"),
             ({"move": "draw", "ply": "x"}, 400, "whole number"),
             ({"move": "draw", "ply": -1}, 400, "ply must be a whole number, 0 or more"),
             ({"move": "draw", "ply": 3}, 409, "moved on"),
             ({}, 400, "expected"),
             ([1], 400, "JSON object"),
             ]
    for body, status, words in cases:
        r = p.post("/move", body)
        assert r.status_code == status and words in r.json()["error"], (body, r.text)
    after = p.state()
    assert after == before and g.ply == 0
    assert p.bot().status_code == 409                   # the person decides
    r = p.move("points 7h", 0)                           # case-insensitive
    assert r.status_code == 200 and r.json()["history"] == [
        {"ply": 1, "player": 0, "move": "points 7H", "effect": ""}]
    assert r.json()["bot_to_move"] and not r.json()["legal"]
    r = p.move("draw")
    assert r.status_code == 409 and "not your decision" in r.json()["error"]
    r = p.bot(0)                                         # a stale ply, said as for a move
    assert r.status_code == 409 and r.json()["error"] == \
        "the game has moved on (it is at move 1, not 0): reload the state"
    r = p.bot(1)
    assert r.status_code == 200 and r.json()["last"]["player"] == 1


@pytest.mark.parametrize("ply", [-1, -10 ** 30, 1.5, 0.0, True, False, "-1", "0.0", "x",
                                 [0], {}])
def test_a_ply_that_is_no_move_number_is_bad_input(client, ply):
    """`ply` is the game's count of moves: a negative number, a fraction, a float, a
    bool or text of none is bad input (400 naming the field, what was sent in JSON's
    spelling), not a stale request (409), for the person's move and the bot's alike;
    the game untouched."""
    words = f"ply must be a whole number, 0 or more, not {json.dumps(ply)}"
    p = new_game(client, rules="classic", bot="random", seat=0, seed=1)
    before = p.state()
    r = p.move("draw", ply)
    assert r.status_code == 400 and r.json()["error"] == words, r.text
    assert p.state() == before
    assert p.move("draw", 0).status_code == 200
    before = p.state()
    r = p.bot(ply)
    assert r.status_code == 400 and r.json()["error"] == words, r.text
    assert p.state() == before
    assert p.bot(1).status_code == 200


def test_unknown_fields_are_refused(client):
    """A misspelt field is refused, named, not dropped (a "plys" would play without the
    stale-move check), as the new game's are."""
    p = new_game(client, rules="classic", bot="random", seat=0, seed=1)
    before = p.state()
    for path, body, name in [("/move", {"move": "draw", "plys": 3}, "'plys'"),
                             ("/hint", {"rollout": 10}, "'rollout'"),
                             ("/hint", {"rollouts": 10, "policy": "greedy", "seed": 1},
                              "'seed'"),
                             ("/bot", {"ply": 0, "wait": True}, "'wait'")]:
        r = p.post(path, body)
        assert r.status_code == 400, (path, r.text)
        err = r.json()["error"]
        assert "unknown field" in err and name in err, err
    assert p.state() == before
    for path, body, name in [("/move", [], "move, ply"), ("/hint", 5, "rollouts, policy"),
                             ("/bot", "x", "ply")]:
        r = p.post(path, body)
        assert r.status_code == 400 and "JSON object" in r.json()["error"], r.text
        assert name in r.json()["error"]
    tok = {TOKEN: start_token(client.get("/").text)}
    r = client.post("/api/games", headers=tok, json={"seat": 1, "sead": 4})
    assert r.status_code == 400 and "'sead'" in r.json()["error"]
    assert "rules, bot, seat, seed, position" in r.json()["error"]


def test_unknown_query_parameters_are_refused(client):
    """A query parameter a route does not take (a misspelt ``?sed=3``) is refused by
    name with the ones it takes, on every route the app serves, the game untouched; so
    is a body field sent to a route that takes none.  What the pages send is taken."""
    from starlette.routing import Route
    p = new_game(client, rules="classic", bot="random", seat=0, seed=1)
    before = p.state()
    routes = [(m, r.path) for r in client.app.routes if isinstance(r, Route)
              for m in sorted(r.methods - {"HEAD"})]
    assert len(routes) >= 16
    for method, path in routes:
        url = path.replace("{gid}", p.gid)
        r = client.request(method, url + "?sed=3&ply=0", headers=p.h)
        assert r.status_code == 400, (method, path, r.text)
        takes = "text" if path == "/api/rules" else \
            "delay" if path in ("/", "/game/{gid}") else "none"
        if path.startswith("/api/"):
            error = r.json()["error"]
        else:                           # a page's refusal is a page
            assert "text/html" in r.headers["content-type"]
            error = html.unescape(r.text)
        assert "'sed'" in error and "'ply'" in error and f"takes {takes}" in error, error
    assert p.state() == before and p.state()["status"] == "playing"
    r = client.get("/api/rules", params={"text": "classic", "sed": "3"})
    assert r.status_code == 400 and "'sed'" in r.json()["error"]
    r = client.get("/api/rules?text=classic&text=quick")
    assert r.status_code == 400 and "more than once: 'text'" in r.json()["error"]
    # what the pages send: the rules' check, the bot's pause (passed on to the game)
    assert client.get("/api/rules", params={"text": "quick"}).json()["rules"] == "quick"
    assert client.get("/?delay=0").status_code == 200
    assert client.get(f"/game/{p.gid}?delay=0").status_code == 200
    assert client.get("/static/game.js?v=2").status_code == 200
    # routes that take no body refuse any field (a resignation stays undone)
    for path in ("/resign", "/undo", "/stop"):
        r = p.post(path, {"really": True})
        assert r.status_code == 400 and "'really'" in r.json()["error"], r.text
        assert "takes none" in r.json()["error"]
    r = client.request("DELETE", p.url(), headers=p.h, json={"now": 1})
    assert r.status_code == 400 and "'now'" in r.json()["error"]
    assert p.state() == before
    assert p.post("/stop", {}).status_code == 200 and p.post("/resign").status_code == 200


def test_undo(client):
    p = new_game(client, rules="classic", bot="greedy", seat=0, seed=2)
    r = p.post("/undo")
    assert r.status_code == 409 and "nothing to undo" in r.json()["error"]
    s0 = p.state()
    p.move("draw")
    s = p.bot().json()
    assert s["ply"] == 2 and s["can_undo"]
    r = p.post("/undo")
    assert r.status_code == 200
    d = r.json()
    assert d.pop("undone") == ["draw"] and d.pop("undone_bot") == 1
    # the draw had shown a card (and the bot's reply another): the cards hidden from the
    # person were dealt again, which the person's view does not show
    assert d.pop("redealt") == {"shown": 2, "dealt": 47, "hand": True}
    assert d == s0
    # undo skips the person's forced decisions back to their last real choice
    sess = store(client).get(p.gid)
    st = play_out(p, random.Random(4), undo_every=5)
    assert st["status"] == "over" and sess.thinker is None      # the trees are freed
    # what each move did is taken back with it
    start = sess.game.copy()
    while start.ply:
        start.undo()
    assert [h["effect"] for h in st["history"]] == narrate_game(start, sess.game.moves,
                                                                viewer=0)


def drawn(state):
    """The card the person's last draw brought, from its effect ("You draw 9H.")."""
    return re.fullmatch(r"You draw (\w\w)\.", state["history"][-1]["effect"]).group(1)


def test_an_undone_draw_deals_the_hidden_cards_again(client):
    """Undo, then draw again, gave the same card; now the cards hidden from the person
    are dealt again from the game's seed (a second game with the same seed and clicks
    is the same), the answer says so without naming a card, and the record replays the
    game from the new deal."""
    seen = []
    for _ in range(2):
        p = new_game(client, rules="classic", bot="greedy", seat=0, seed=2)
        first = drawn(p.move("draw").json())
        p.bot()
        d = p.post("/undo").json()
        assert d["redealt"] == {"shown": 2, "dealt": 47, "hand": True}
        again = drawn(p.move("draw").json())
        st = p.bot().json()
        seen.append((first, again, st["history"], st["svg"]))
    assert seen[0] == seen[1] and seen[0][0] != seen[0][1]
    sess = store(client).get(p.gid)
    assert p.post("/resign").status_code == 200
    rec = p.get("/record").json()
    assert rec["seed"] == 2 and rec["position"].startswith(
        f"hands: {' '.join(cuttle.Game(seed=2).hand(0))} / ")
    assert final_game(rec) == sess.game and rec["moves"][0] == "draw"


def test_an_undo_no_new_deal_agrees_with_is_refused(client, monkeypatch):
    import cuttle.redeal
    monkeypatch.setattr(cuttle.redeal, "redeal", lambda *a, **kw: None)
    p = new_game(client, rules="classic", bot="greedy", seat=0, seed=2)
    p.move("draw")
    before = p.bot().json()
    r = p.post("/undo")
    assert r.status_code == 409 and r.json()["error"] == (
        "that cannot be taken back: 2 cards you saw would be hidden from you again, and "
        "no new deal of the hidden cards agrees with everything you have seen in this game")
    assert p.state() == before and before["can_undo"]


def test_no_hint_reads_a_hand_the_seed_dealt_for_cards_not_seen(client):
    # the person's own hand typed as '?': the seed's cards, which no analysis reads
    p = new_game(client, position="hands: ? ? ? / 4H 8D 9C", seed=11, seat=0)
    r = p.post("/hint", {"rollouts": 20})
    assert r.status_code == 409
    assert r.json()["error"].startswith("player 0 is to decide in this position, which "
                                        "does not give their view whole: in the position "
                                        "player 0 sees 3 cards")
    # the bot's hand typed as '?': the person's hint reads only what they see
    p = new_game(client, position="hands: 2C 9H 4D / ? ? ?", seed=11, seat=0)
    assert p.post("/hint", {"rollouts": 20}).status_code == 200


def test_hint_is_the_analysis_from_the_persons_view(client):
    p = new_game(client, rules="cuttle.cards", bot="expert", seat=0, seed=9)
    r = p.post("/hint", {"rollouts": 200, "policy": "greedy"})
    assert r.status_code == 200
    h = r.json()
    assert "seed" not in h          # derived from the game's: it would give the deal away
    g = store(client).get(p.gid).game
    want = analyse(g, rollouts=200, policy="greedy", threads=1, seed=derive(9, 0, 200))
    assert h["best"] == str(want.best) and h["text"].splitlines()[1:-1] == \
        str(want).splitlines()[1:-1]
    # the best move in words, with the moves its interval does not set apart from it
    assert h["hint"] == want.hint() and h["hint"].startswith(h["best"])
    assert h["close_to_best"] == [str(m) for m in want.close_to_best]
    # ... nor in its text, whose title names the playouts but not the seed
    assert str(want.seed) not in h["text"] and "seed" not in h["text"]
    assert h["text"].splitlines()[0] == ("Player 0 to decide (main); greedy playouts from "
                                         "the player's view")
    assert sorted(m["move"] for m in h["moves"]) == sorted(str(m) for m in g.legal_moves)
    for body, words in [({"rollouts": 0}, "rollouts must be a whole number from 1 to "
                                          "5,000, not 0"),
                        ({"rollouts": 10 ** 6}, "rollouts"),
                        ({"rollouts": True}, "rollouts"),
                        ({"policy": "ismcts:10"}, "policy"), ({"rollouts": "9.0"}, "whole"),
                        # analyse takes it, but it is slow (seconds, the game's lock held)
                        ({"policy": "cuttle.cards-ai"}, "random, greedy, expert")]:
        r = p.post("/hint", body)
        assert r.status_code == 400 and words in r.json()["error"]
    # by default the review's engine (expert playouts), as `cuttle play`'s hint: the same
    d = p.post("/hint", {"rollouts": 200}).json()
    mine = hint(g, 200, threads=1)
    assert mine.policy == "expert" and d["best"] == str(mine.best)
    assert d["text"].splitlines()[:-1] == str(mine.without_seed()).splitlines()[:-1]
    assert d["moves"] == mine.as_dict()["moves"]        # (every figure; not the times)
    assert d["engine"] == hint_words(mine) == ("By the game review's engine: expert playouts "
                                               "from your view, 200 a move")
    assert h["engine"].startswith("Not by the game review's engine: greedy playouts")
    p.move("draw")
    r = p.post("/hint")
    assert r.status_code == 409 and "your own decision" in r.json()["error"]


def test_close_and_expiry(client):
    p = new_game(client, seed=1)
    r = client.delete(p.url(), headers=p.h)
    assert r.status_code == 204
    assert p.get().status_code == 404
    q = new_game(client, seed=2)
    st = store(client)
    assert st.expire(time.monotonic() + 10) == 0
    assert st.expire(time.monotonic() + 4000) == 1 and len(st) == 0
    assert q.get().status_code == 404


def test_the_cap_on_live_games():
    from starlette.testclient import TestClient
    with TestClient(cuttle.web.app(max_sessions=2), base_url=BASE) as c:
        a = new_game(c, seed=1)
        new_game(c, seed=2)
        tok = {TOKEN: start_token(c.get("/").text)}
        r = c.post("/api/games", json={}, headers=tok)
        assert r.status_code == 503 and "2 games are in progress" in r.json()["error"]
        c.delete(a.url(), headers=a.h)
        assert c.post("/api/games", json={}, headers=tok).status_code == 201
    with TestClient(cuttle.web.app(max_sessions=1), base_url=BASE) as c:
        new_game(c, seed=1)
        r = c.post("/api/games", json={}, headers={TOKEN: start_token(c.get("/").text)})
        assert r.status_code == 503 and "1 game is in progress," in r.json()["error"]


def test_a_finished_game_frees_its_place():
    """A finished game no longer counts among the games in progress, yet stays
    readable (state, record) until it expires; the finished ones are capped apart,
    the least recently seen forgotten first."""
    from starlette.testclient import TestClient
    with TestClient(cuttle.web.app(max_sessions=2), base_url=BASE) as c:
        st = store(c)
        a, b = new_game(c, seed=1), new_game(c, seed=2)
        tok = {TOKEN: start_token(c.get("/").text)}
        assert c.post("/api/games", json={}, headers=tok).status_code == 503
        assert a.post("/resign").status_code == 200
        r = c.post("/api/games", json={"seed": 3}, headers=tok)       # a's place
        assert r.status_code == 201, r.text
        assert st.playing == 2 and st.max_finished == 2
        assert a.state()["status"] == "resigned" and a.get("/record").status_code == 200
        cc = Player(c, r.json()["id"], game_token(c.get(r.json()["url"]).text))
        assert b.post("/resign").status_code == 200 and cc.post("/resign").status_code == 200
        assert a.get().status_code == 200               # a seen last: b is the oldest
        assert len(st) == 3 and st.playing == 0
        new_game(c, seed=4)                             # 3 finished > 2: b forgotten
        assert b.get().status_code == 404
        assert a.get().status_code == cc.get().status_code == 200
        assert len(st) == 3 and st.playing == 1
        assert st.expire(time.monotonic() + 601) == 2 and len(st) == 1   # ten minutes


def test_the_host_check():
    """Against DNS rebinding the app answers only to IP addresses (a browser sends one
    only for an address it was given), localhost, this machine's name and the names
    allowed: a foreign name is refused with 400 saying why, before any route (no start
    token, no game)."""
    from starlette.testclient import TestClient
    own = socket.gethostname()
    with TestClient(cuttle.web.app(), base_url=BASE) as c:
        def get(host):
            return c.get("/", headers={"host": host})
        for host, name in [("evil.example", "evil.example"),
                           ("Evil.Example:8000", "evil.example"),
                           ("testserver", "testserver"),        # the test client's own
                           ("127.0.0.1.nip.io", "127.0.0.1.nip.io"),
                           ("127.0.0.1:80@evil.example", "127.0.0.1:80@evil.example"),
                           ("", "")]:
            r = get(host)
            assert r.status_code == 400 and "start-token" not in r.text, host
            err = r.json()["error"]
            assert err.startswith(f"this server does not answer to the host name {name!r} "
                                  f"(against DNS rebinding"), err
            assert "--allow-host" in err
        r = c.post("/api/games", json={}, headers={"host": "evil.example",
                                                   TOKEN: start_token(c.get("/").text)})
        assert r.status_code == 400 and len(store(c)) == 0
        for host in ("127.0.0.1", "localhost:8000", "LOCALHOST", "[::1]:8000", "::1",
                     "192.0.2.7:8000", "[2001:db8::7]", "[fe80::1%25eth0]:80",
                     own, own.upper() + ":8000"):
            assert get(host).status_code == 200, host
    with TestClient(cuttle.web.app(allowed_hosts=["Games.LAN"]), base_url=BASE) as c:
        assert c.get("/", headers={"host": "games.lan:8000"}).status_code == 200
        assert c.get("/", headers={"host": "localhost"}).status_code == 200
        assert c.get("/", headers={"host": "evil.example"}).status_code == 400
    for anything in (None, "*", ["games.lan", "*"]):    # the check off
        with TestClient(cuttle.web.app(allowed_hosts=anything), base_url=BASE) as c:
            assert c.get("/", headers={"host": "box.lan"}).status_code == 200
    for bad in ("http://games.lan", "games.lan:8000", "a b", "", "games.lan/x", 7):
        with pytest.raises(ValueError, match="allowed_hosts takes a host name"):
            cuttle.web.app(allowed_hosts=[bad])


def test_hostile_requests_never_break_the_server(client):
    p = new_game(client, seed=8, bot="random")
    rng = random.Random(0)
    junk = [b"", b"null", b"0", b'"x"', b"{}", b'{"move": null}', b'{"move": ["draw"]}',
            b'{"move": "draw", "ply": 1e400}', b'{"move": "\\ud800"}', b"\xff\xfe",
            b'{"rollouts": -5}', b'{"policy": {}}', b'{"ply": 99999999999999999999999}',
            "{\"move\": \"points 7\u2665\"}".encode()]
    paths = ["", "/move", "/bot", "/stop", "/undo", "/hint", "/resign", "/record", "/review",
             "/../../etc/passwd", "/%00", "/move/extra"]
    for _ in range(150):
        method = rng.choice(["GET", "POST", "PUT", "DELETE", "PATCH"])
        path = rng.choice(paths)
        if method == "DELETE" and path == "":
            continue
        r = client.request(method, p.url(path), content=rng.choice(junk),
                           headers=dict(p.h, **{"content-type": "application/json"}))
        assert 200 <= r.status_code < 500, (method, path, r.status_code, r.text)
        if r.status_code >= 400:
            assert r.json()["error"]


def test_stop_over_http(server):
    httpx = pytest.importorskip("httpx2") if _has("httpx2") else pytest.importorskip("httpx")
    with httpx.Client(base_url=server.url, timeout=30) as c:
        p = new_game(c, rules="classic", bot="ismcts:100000", seat=1, seed=2)
        done = {}

        def think():
            done["r"] = p.bot()

        def wait_thinking():
            deadline = time.monotonic() + 10
            while not p.state()["thinking"]:
                assert time.monotonic() < deadline, done
                time.sleep(0.005)
        th = threading.Thread(target=think)
        th.start()
        wait_thinking()
        assert p.move("draw").status_code == 409        # not while the bot thinks
        r = p.post("/stop")
        assert r.status_code == 200 and r.json() == {"stopping": True}
        th.join(30)
        assert done["r"].status_code == 200 and done["r"].json()["ply"] == 1
        assert p.post("/stop").json() == {"stopping": False}
        # an undo while the bot thinks drops its move
        p.move(p.state()["legal"][0]["text"])
        th = threading.Thread(target=think)
        th.start()
        wait_thinking()
        r = p.post("/undo")
        th.join(30)
        assert r.status_code == 200 and r.json()["ply"] == 1
        assert done["r"].status_code == 409 and "dropped" in done["r"].json()["error"]
        assert p.state()["ply"] == 1 and not p.state()["thinking"]


def test_a_second_bot_request_while_it_thinks_is_refused_at_once(client):
    """A second /bot while the bot decides gets 409 at once, in the words of every
    refusal while it thinks; the first request's move is played as if alone.  (The
    first decision is held by the test, not timed.)"""
    p = new_game(client, rules="classic", bot="ismcts:300", seat=1, seed=2)
    s = store(client).get(p.gid)
    started, release = held_bot(s)
    first = []
    th = threading.Thread(target=lambda: first.append(p.bot(0)))
    th.start()
    try:
        assert started.wait(60)
        thinking = p.move("draw").json()["error"]           # a move meanwhile: refused
        assert "the bot is thinking" in thinking
        for r in (p.bot(), p.bot(0)):
            assert r.status_code == 409 and r.json()["error"] == thinking
        st = p.state()
        assert st["thinking"] and st["ply"] == 0 and th.is_alive()
    finally:
        release.set()
        th.join(60)
    assert first[0].status_code == 200 and first[0].json()["ply"] == 1
    assert not p.state()["thinking"]
    # the same game's bot undisturbed plays the same move
    q = new_game(client, rules="classic", bot="ismcts:300", seat=1, seed=2)
    assert q.bot(0).json()["history"] == first[0].json()["history"]


def test_a_bot_request_cut_off_by_an_undo_is_refused_not_answered_stale(client):
    """An undo while the bot thinks drops its move, and the bot's request says so (409),
    rather than answering with the game as it was before the undo (it answered 200, at
    ply 1 with the bot to move, while the game was back at ply 0)."""
    p = new_game(client, rules="classic", bot="ismcts:100000", seat=0, seed=2)
    assert p.move("draw", 0).status_code == 200
    s = store(client).get(p.gid)
    started, release = held_bot(s)
    control = []
    bot = []
    th = threading.Thread(target=lambda: bot.append(p.bot(1)))
    th.start()
    undone = []
    try:
        assert started.wait(60)
        control.append(s.control)
        un = threading.Thread(target=lambda: undone.append(p.post("/undo")))
        un.start()
        for _ in range(6000):           # (the undo aborts the decision, then waits)
            if control[0].aborted:
                break
            time.sleep(0.01)
        assert control[0].aborted
    finally:
        release.set()
        th.join(60)
    un.join(60)
    assert bot[0].status_code == 409 and "the bot's move was dropped" in bot[0].json()["error"]
    assert undone[0].status_code == 200 and undone[0].json()["ply"] == 0
    assert p.state()["ply"] == 0 and not p.state()["thinking"]


def test_a_hint_while_the_bot_thinks_is_refused_at_once(client):
    """A hint asked for while the bot decides is refused at once (409, as a move is),
    not answered after the bot's move with a hint for the next decision."""
    p = new_game(client, rules="classic", bot="ismcts:300", seat=0, seed=2)
    assert p.move("draw", 0).status_code == 200
    started, release = held_bot(store(client).get(p.gid))
    th = threading.Thread(target=lambda: p.bot(1))
    th.start()
    try:
        assert started.wait(60)
        hint, move = p.post("/hint", {"rollouts": 10}), p.move("draw")
        assert hint.status_code == move.status_code == 409
        assert hint.json()["error"] == move.json()["error"]
        assert th.is_alive() and p.state()["thinking"]      # (answered while it thinks)
    finally:
        release.set()
        th.join(60)


def test_every_whole_number_field_reads_alike(client):
    """seat, seed, ply and rollouts are each a JSON number or its text, read as --seed
    reads it, empty text their default, and refused in one wording with what was sent
    in JSON's spelling (seat "1" and seed "1_000" were taken but ply "0" refused, and
    true was said True)."""
    p = new_game(client, rules="classic", bot="random", seat="0", seed="1_000")
    s = store(client).get(p.gid)
    assert (s.settings.seat, s.settings.seed) == (0, 1000)
    text, number = (p.post("/hint", {"rollouts": r}).json() for r in ("1_0", 10))
    assert text["moves"] == number["moves"] and text["total_rollouts"] > 0
    assert p.move("draw", "0").status_code == 200
    assert p.bot(" 0x1 ").status_code == 200
    assert p.move("draw", "").status_code == 200               # (empty: any ply)
    tok = {TOKEN: start_token(client.get("/").text)}
    for field, send in [("seat", lambda v: client.post("/api/games", headers=tok,
                                                       json={"seat": v})),
                        ("seed", lambda v: client.post("/api/games", headers=tok,
                                                       json={"seed": v})),
                        ("ply", lambda v: p.move("draw", v)),
                        ("rollouts", lambda v: p.post("/hint", {"rollouts": v}))]:
        for value, spelt in [(True, "true"), ("1.0", '"1.0"'), (2.5, "2.5"), ([], "[]")]:
            r = send(value)
            assert r.status_code == 400, (field, value, r.text)
            error = r.json()["error"]
            assert error.startswith(f"{field} must be ") and error.endswith(f", not {spelt}")


def test_no_new_work_once_the_server_stops(client):
    # (work asked for between the server's stop and its last answers)
    p = new_game(client, bot="ismcts:100000", seat=1, seed=2)
    client.app.state.cuttle.stop_work()
    r = p.bot()
    assert r.status_code == 503 and "stopping" in r.json()["error"]
    assert p.state()["ply"] == 0 and not p.state()["thinking"]


def _has(name):
    import importlib.util
    return importlib.util.find_spec(name) is not None


def test_settings_parse():
    s = parse_settings({"rules": "quick", "bot": "ISMCTS:50", "seat": "1", "seed": "42"})
    assert (s.rules, s.bot, s.seat, s.seed) == (cuttle.Rules("quick"), "ismcts:50", 1, 42)
    s = parse_settings({})
    assert s.rules == cuttle.Rules() and s.bot == "greedy" and 0 <= s.seed < 2 ** 64
    # null is the default, for every field (the start page sends "seed": null)
    n = parse_settings(dict.fromkeys(["rules", "bot", "seat", "seed", "position"]))
    assert (n.rules, n.bot, n.seat, n.position) == (cuttle.Rules(), "greedy", 0, None)
    for key in ("rules", "bot", "seed", "position"):          # so is empty text
        e = parse_settings({key: " ", "seed": 5} if key != "seed" else {key: ""})
        assert (e.rules, e.bot, e.seat, e.position) == (cuttle.Rules(), "greedy", 0, None)
    assert isinstance(SessionStore().max_sessions, int)
    json.dumps(s.rules.to_json())
