"""The review's `ismcts-infer:N` engine: forced searches with ismcts-infer's settings whose
deals of the opponent's hand are weighed by the opponent's decisions in the game so far,
read from the game's history as a bot in the mover's seat would have kept them (the
hidden-information tests of the review, in test_review.py, run it too)."""

import contextlib

import pytest

import cuttle
from cuttle import _search
from cuttle._decide import opponent_belief
from cuttle._review import forced_belief, forced_searches
from cuttle.policies import Bot, policy_code
from cuttle.review import judge, parse_engine, review
from cuttle.review import engines
from support.helpers import bot_game

INFER = "ismcts-infer:60"


def replayed(g, ply):
    """A new game with g's first `ply` moves played (as a review replays a record)."""
    h = cuttle.Game(seed=g.seed)
    for m in g.moves[:ply]:
        h.play(m)
    return h


@contextlib.contextmanager
def settings(**changes):
    """ismcts-infer's settings changed for a block."""
    before = _search._search_config(2)
    _search._search_config(2, **changes)
    try:
        yield
    finally:
        _search._search_config(2, **before)


def test_the_engine_reads_what_an_inferring_bot_in_the_movers_seat_kept():
    # Two ismcts-infer bots play; before each of their decisions (after the first, when
    # a bot has kept something) the candidate hands and weights its search would deal
    # from, from the trees it kept decision by decision, are those the review's engine
    # builds from the game's record for that decision, for the same stream.
    model = _search._search_config(2)["infer"]
    checked = informed = 0
    for seed in (1, 2):
        g = cuttle.Game(seed=seed)
        bots = (Bot("ismcts-infer:20", seed), Bot("ismcts-infer:20", seed + 7))
        while not g.is_over:
            bot = bots[g.to_move]
            if len(g.legal_moves) > 1:
                kept = opponent_belief(g, bot._trees, seed, model)
                if kept is not None:              # (None: the bot's first search)
                    assert kept == forced_belief(g, seed) == \
                        forced_belief(replayed(g, g.ply), seed)
                    checked += 1
                    informed += kept != []
            g.play(bot.choose(g))
    assert checked >= 20 and informed >= 10


def test_the_inference_changes_the_figures_only_through_what_was_seen():
    # With the game's history the engine weighs the opponent's hand: its figures move
    # when the inference is switched off.  Without it (a game of the same view with no
    # past) nothing is weighed: the figures are those of the search without inference.
    g = bot_game(("expert", "greedy"), 21)
    h = cuttle.Game(seed=21)
    moved = informed = 0
    for i, move in enumerate(g.moves):
        if len(h.legal_moves) > 1 and forced_belief(h, 1):
            past = h.determinize(h.to_move, seed=i)         # (no history)
            assert forced_belief(past, 1) == []
            on = [judge(x, move, INFER, seed=i, threads=1).as_dict() for x in (h, past)]
            with settings(infer=0):
                off = [judge(x, move, INFER, seed=i, threads=1).as_dict() for x in (h, past)]
            informed += 1
            moved += on[0] != off[0]
            assert on[1] == off[1]
        h.play(move)
    assert informed >= 4 and moved >= informed - 1


def test_a_forced_search_runs_all_its_iterations():
    # ismcts-infer stops once its root's most visited move leads by half the iterations
    # left: a root forced to one move leads from the start, and the search stopped after
    # about a third of its N.  Forced, every iteration is run: the values are those of
    # the search that never stops early.
    g = bot_game(("expert", "greedy"), 8, plies=10)
    codes = [m.code for m in g.legal_moves]
    assert len(codes) > 1
    code = policy_code("ismcts-infer:300")
    settled = forced_searches(g, codes, 0, 3, 5, code, 1)
    with settings(settle=0.0):
        full = forced_searches(g, codes, 0, 3, 5, code, 1)
    assert (settled == full).all()


def test_parsing():
    e = parse_engine("ismcts-infer")
    assert e.name == "ismcts-infer:1000" and e.kind == "search" and e.unit == "search"
    assert e.code == policy_code("ismcts-infer:1000") and (e.base, e.cap) == (2, 16)
    assert parse_engine(" ISMCTS-Infer:2_000 ").name == "ismcts-infer:2000"
    assert "opponent's hand weighed by its moves" in parse_engine(INFER).description
    assert "ismcts-infer[:N]" in engines.ENGINE_NAMES
    for bad in ("ismcts-infer:0", "ismcts-infer:x", "ismcts-infer:", "ismcts-infer:-5",
                "ismcts-infer:1000001"):
        with pytest.raises(ValueError, match="bad count in engine .*'ismcts-infer:1000'"):
            parse_engine(bad)
    with pytest.raises(ValueError, match=r"valid: .*ismcts\[:N\], ismcts-infer\[:N\]"):
        parse_engine("ismcts-inferred:10")


def test_a_call_counts_the_weighing_of_the_hands():
    # Each search weighs its candidate hands before its iterations, a set-up worth
    # hundreds of iterations: a call of small searches holds fewer of them, so that a
    # cancel is still seen within a few tenths of a second.
    assert parse_engine("ismcts:1").call_size() == engines.CALL_ITERATIONS
    assert parse_engine("ismcts-infer:1").call_size() <= engines.CALL_ITERATIONS // 300
    for n in (1, 50, 1000, 40000):
        e = parse_engine(f"ismcts-infer:{n}")
        assert e.call_size() == max(2, engines.CALL_ITERATIONS // (n + e.setup))


def test_a_review_is_reproducible_by_seed_whatever_the_threads():
    g = bot_game(("greedy", "expert"), 8, plies=14)
    a = review(g, INFER, seed=5, threads=1)
    b = review(g, INFER, seed=5, threads=2)
    c = review(g, INFER, seed=6, threads=2)
    assert a.complete and a.total == len(a.decisions) == 14
    assert a.as_dict()["decisions"] == b.as_dict()["decisions"]
    assert a.as_dict()["decisions"] != c.as_dict()["decisions"]
    assert a.as_dict()["engine"] == INFER and str(a).splitlines()[2].startswith(
        f"Engine {INFER}: ISMCTS searches")
    assert a.as_dict()["decisions"] != review(g, "ismcts:60", seed=5).as_dict()["decisions"]


def test_its_searches_split_over_calls_with_the_same_review(monkeypatch):
    g = bot_game(("greedy", "expert"), 8, plies=10)
    whole = review(g, INFER, seed=5, threads=1)
    real, sizes = engines._forced_searches, []

    def counted(game, batch, lo, count, *rest):
        sizes.append(len(batch) * count)
        return real(game, batch, lo, count, *rest)

    monkeypatch.setattr(engines, "_forced_searches", counted)
    monkeypatch.setattr(engines, "CALL_ITERATIONS", 1060)    # 1 + 1 searches of 60 + set-up
    split = review(g, INFER, seed=5, threads=1)
    assert max(sizes) == 2 and len(sizes) > len(g.moves)
    assert split.as_dict()["decisions"] == whole.as_dict()["decisions"]


def test_ctrl_c_and_cancel_keep_the_finished_decisions(monkeypatch):
    g = bot_game(("greedy", "greedy"), 10, plies=16)
    whole = review(g, INFER, seed=3, threads=2)
    real, calls = engines._forced_searches, []

    def flaky(*args):
        calls.append(1)
        if len(calls) == 12:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(engines, "_forced_searches", flaky)
    with pytest.raises(cuttle.Interrupted) as info:
        review(g, INFER, seed=3, threads=1)
    part = info.value.result
    assert not part.complete and 0 < len(part.decisions) < g.ply
    assert [x.as_dict() for x in part.decisions] == \
        [x.as_dict() for x in whole.decisions[:len(part.decisions)]]
    monkeypatch.setattr(engines, "_forced_searches", real)
    with pytest.raises(cuttle.Interrupted):
        review(g, INFER, seed=3, cancel=lambda: True)
