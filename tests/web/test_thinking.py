"""The web's bot (`cuttle.web.thinking`): the library's `Bot` decision for decision, bit
for bit, at any strength; a stop plays the best move so far, an abort drops it."""

import random
import threading

import pytest

from web.conftest import WEB_EXTRA

pytest.importorskip("starlette", reason=WEB_EXTRA)

import cuttle  # noqa: E402
from cuttle.policies import Bot  # noqa: E402
from cuttle.web.sessions import parse_settings  # noqa: E402
from cuttle.web.thinking import Control, Thinker  # noqa: E402


def games(seed, count):
    """Games of random play (classic and cuttle.cards), each with a choice to make."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        g = cuttle.Game(rng.choice(["classic", "cuttle.cards"]), seed=rng.getrandbits(32))
        for _ in range(rng.randint(0, 30)):
            if g.is_over:
                break
            g.play(rng.choice(g.legal_moves))
        if not g.is_over and len(g.legal_moves) > 1:
            out.append(g)
    return out


@pytest.mark.parametrize("name", ["ismcts:5000", "ismcts-infer:20000"])
def test_the_web_bot_is_the_librarys_bot(name):
    """Above 2,000 iterations too (the web played ismcts-infer:N as slices of 2,000,
    each stopping once settled against its own 2,000: a far shorter search), the web's
    bot makes the library's decisions, with the same seed, through a game of
    several decisions (its trees reused between them as the library's)."""
    for i, g in enumerate(games(7, 3)):
        web, lib = Thinker(name, seed=i), Bot(name, seed=i, threads=1)
        seat, rng, decisions = g.to_move, random.Random(i), 0
        while not g.is_over and decisions < 3:
            if g.to_move != seat:               # the person, at random
                g.play(rng.choice(g.legal_moves))
                continue
            move = web.decide(g.copy(), Control())
            assert move == lib.choose(g), (name, i, g.ply)
            searched, total = web.progress
            assert total == int(name.partition(":")[2]) and searched <= total
            assert searched > 0 or len(g.legal_moves) == 1
            g.play(move)
            decisions += 1


def test_a_stop_plays_the_best_move_so_far_and_an_abort_drops_it():
    assert Thinker("ISMCTS-infer", 1).name == "ismcts-infer:1000"
    assert parse_settings({"bot": "ismcts"}).bot == "ismcts:1000"
    assert parse_settings({"bot": "Expert"}).bot == "expert"
    g = cuttle.Game("classic", seed=3)
    g.play("draw")
    # a stop during a long search (a million iterations: seconds) plays a legal move
    # having searched less
    t = Thinker("ismcts:1000000", 1)
    c = Control()
    threading.Timer(0.05, c.stop).start()
    m = t.decide(g.copy(), c)
    assert g.is_legal(m) and c.stopped and not c.aborted
    assert t.progress[0] < t.progress[1] == 1_000_000
    # a stop before the search starts: no iteration at all, still a legal move
    c = Control()
    c.stop()
    m = t.decide(g.copy(), c)
    assert g.is_legal(m) and t.progress == (0, 1_000_000)
    # an abort during the search drops its move; one before it runs no search
    c = Control()
    threading.Timer(0.05, c.abort).start()
    assert t.decide(g.copy(), c) is None and c.token.done < 1_000_000
    c = Control()
    c.abort()
    assert t.decide(g.copy(), c) is None and c.token.done == 0
    # a bot that does not search decides alike, its progress nil
    t = Thinker("expert", 1)
    assert t.decide(g.copy(), Control()) == Bot("expert", seed=1, threads=1).choose(g)
    assert t.progress == (0, 0)
