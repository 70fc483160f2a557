"""No hidden card ever reaches the browser: every answer of the app (the state JSON,
its SVG table, hints, undo answers and the game page) is searched for each card the
person cannot know at that moment, by its text and by its name, over many random games
of several rule sets in every phase."""

import json
import random
import re
import xml.etree.ElementTree as ET

import pytest

from web.conftest import WEB_EXTRA

pytest.importorskip("starlette", reason=WEB_EXTRA)

import cuttle  # noqa: E402
from cuttle.cards import CARDS  # noqa: E402
from web.conftest import new_game  # noqa: E402

CARD = re.compile(r"(?<![0-9A-Za-z])(?:[2-9TJQKA][CDHS]|JK)(?![0-9A-Za-z])")
RULES = ["classic", "cuttle.cards ten_blocks_scuttle=true ten_discards=true hand_limit=6",
         "cuttle.cards-beta joker=true four=random", "classic seven=top2 nine=topdeck "
         "reveal_on_empty_deck=true", "open", "quick sudden_death=true eight_breaks_glasses=true"]


def hidden_cards(g, me):
    """The cards `me` cannot know now: the opponent's hand less the cards known to be
    there, and the deck less the cards whose place is public."""
    o = g.observation(me)
    out = set()
    if not o.opponent_hand_public:
        out |= set(g.hand(1 - me)) - set(o.opponent_known)
    out |= set(g.deck) - {c for _, c in o.deck_known}
    return out


def leaks(text_items, names, hidden):
    """The hidden cards named in the texts (card tokens) or the SVG's names."""
    found = set()
    for t in text_items:
        found |= set(CARD.findall(t)) & hidden
    names_of = {c.name: c for c in hidden}
    for n in names:
        found |= {names_of[k] for k in names_of if k in n}
    return found


def svg_texts(svg):
    """(card texts and words, names) an SVG table shows: data-card attributes, text
    elements and titles; the drawing itself (paths, numbers) carries no card."""
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    cards = [e.get("data-card") for e in root.iter() if e.get("data-card")]
    attrs = [v for e in root.iter() for k, v in e.attrib.items()
             if k.startswith("data-") and k != "data-card"]
    texts = [e.text or "" for e in root.iter(ns + "text")]
    titles = [e.text or "" for e in root.iter(ns + "title")]
    return cards + attrs + texts + titles, titles


def scrub(text, ids):
    """`text` without the session's random identifiers (its id and token are URL-safe
    base64, where a '-9C-' reads as a card name)."""
    for i in ids:
        text = text.replace(i, "")
    return text


def keys(data):
    """Every key of the dicts nested in `data` (JSON)."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield k
            yield from keys(v)
    elif isinstance(data, list):
        for v in data:
            yield from keys(v)


def check(answer, g, me, ids=(), shown=()):
    """`answer` (a JSON dict from the app) shows no card hidden from `me` in `g` but
    those of `shown` (`ids`: the session's identifiers, left out of the scan), and,
    while the game is on, no seed: any seed derived from the game's gives the game's
    back, and so the deal."""
    hidden = hidden_cards(g, me) - set(shown)
    if not g.is_over:
        assert "seed" not in set(keys(answer)), sorted(set(keys(answer)))
        assert "seed" not in json.dumps(answer).lower()     # (nor a text naming one)
    d = dict(answer)
    texts, names = [], []
    if "svg" in d:
        texts, names = svg_texts(d.pop("svg"))
    texts.append(scrub(json.dumps(d), ids))
    found = leaks(texts, names, hidden)
    assert not found, (g.phase, sorted(found), d.get("history", [])[-3:])
    return hidden


def test_no_hidden_card_in_any_answer(client):
    rng = random.Random(7)
    phases, checked, with_hidden = set(), 0, 0
    for k in range(18):
        # every other game: the variant with every phase, against the bot that plays
        # everything (random); the others: each rule set and bot in turn
        rules = RULES[1] if k % 2 else RULES[(k // 2) % len(RULES)]
        bot = "random" if k % 2 else ["greedy", "expert", "ismcts:40"][(k // 2) % 3]
        me = (k // 2) % 2
        p = new_game(client, rules=rules, bot=bot, seat=me, seed=100 + k)
        ids = (p.gid, p.token)
        session = client.app.state.cuttle.store.get(p.gid)
        game = session.game
        page = client.get(f"/game/{p.gid}").text
        state = json.loads(re.search(r'id="initial-state">(.*?)</script>', page).group(1)
                           .replace("<\\/", "</"))
        check(state, game, me, ids)
        rest = scrub(re.sub(r'<script type="application/json".*?</script>', "", page,
                            flags=re.S), ids)
        assert not set(CARD.findall(rest)) & hidden_cards(game, me)
        st = p.state()
        while st["status"] == "playing":
            game = session.game             # (an undo may have dealt the hidden cards again)
            with_hidden += bool(check(st, game, me, ids))
            checked += 1
            if st["bot_to_move"]:
                r = p.bot()
            else:
                phases.add(st["phase"])
                assert st["legal"]
                roll = rng.random()
                if roll < 0.03:
                    h = p.post("/hint", {"rollouts": 5})
                    assert h.status_code == 200
                    check(h.json(), game, me, ids)
                if roll < 0.06 and st["can_undo"]:
                    r = p.post("/undo")
                else:
                    liked = [m for m in st["legal"]
                             if m["verb"] in ("oneoff", "scuttle", "counter", "block", "draw")]
                    pick = liked if liked and rng.random() < 0.7 else st["legal"]
                    r = p.move(rng.choice(pick)["text"], st["ply"])
            assert r.status_code == 200, r.text
            st = r.json()
        # the end: the bot's hand face up (the record and its seed give every card),
        # the deck's order still not (the record, which holds it, is a download)
        game = session.game
        bots = set(game.hand(1 - me))
        check(st, game, me, ids, shown=bots)
        assert {c for c in svg_texts(st["svg"])[0] if CARD.fullmatch(c)} >= \
            {str(c) for c in bots}
        client.delete(p.url(), headers=p.h)
    assert phases >= {"main", "counter", "three", "four", "five", "seven", "discard",
                      "block", "ten"}, phases
    assert checked > 500 and with_hidden > 0.9 * checked


def test_the_check_finds_a_leak():
    """The check itself: a hidden card in the JSON, the SVG or a title is found."""
    g = cuttle.Game(seed=1)
    secret = sorted(hidden_cards(g, 0))[0]
    assert secret in g.hand(1) or secret in g.deck
    plain = {"svg": cuttle.svg.table(g, viewer=0), "history": []}
    check(plain, g, 0)
    for bad in ({"history": [{"move": f"points {secret}"}]},
                {"svg": cuttle.svg.table(g, viewer=None)},
                {"svg": cuttle.svg.table(g, viewer=0).replace(
                    "</svg>", f"<title>{CARDS[secret.index].name}</title></svg>")}):
        try:
            check(dict(plain, **bad), g, 0)
        except AssertionError:
            continue
        raise AssertionError(f"the check missed {bad}")


def test_session_ids_that_read_as_cards_are_not_leaks(client, monkeypatch):
    """The session's id and token are random URL-safe base64: one holding '-9C-' (the
    suite once drew it) names no card the player is shown, and the scan leaves it out."""
    import itertools
    import cuttle.web.sessions as sessions
    count = itertools.count()
    names = [f"{c}-{c}" for c in CARDS if c.name != "JK"]
    monkeypatch.setattr(sessions.secrets, "token_urlsafe",
                        lambda n: f"x{next(count)}-{'-'.join(names)}-")
    p = new_game(client, rules="classic", bot="greedy", seat=0, seed=3)
    game = client.app.state.cuttle.store.get(p.gid).game
    page = client.get(f"/game/{p.gid}").text
    assert set(CARD.findall(page)) & hidden_cards(game, 0)      # what the scan would see
    ids = (p.gid, p.token)
    assert not set(CARD.findall(scrub(page, ids))) & hidden_cards(game, 0)
    check(p.state(), game, 0, ids)
