"""Rollout analysis (cuttle.analysis): scores, reproducibility, hidden information, Ctrl-C."""

import pytest

import cuttle
from cuttle.analysis import analyse
from cuttle.formatting import interval
from cuttle.stats import mean_interval_from_moments, score_interval, wilson_interval
from cuttle.policies import Bot


def winning_position():
    # P0 has 15 points and holds a 6: `points 6H` is the only move that wins at once.
    return cuttle.Game.from_position(
        hands=(["6H", "3C", "AD"], ["TS", "2S", "3S"]), points=(["9D", "6C"], ["7D"]),
        deck=["4C", "5C", "8C", "JC"], rest="deck", seed=2)


def test_the_package_exports_analysis_and_bots():
    assert cuttle.analyse is analyse and cuttle.analyze is analyse and cuttle.Bot is Bot
    assert isinstance(cuttle.analyse(winning_position(), rollouts=10, seed=1), cuttle.Analysis)


def test_analysis_finds_the_immediate_win():
    g = winning_position()
    a = analyse(g, rollouts=300, seed=1, threads=1)
    assert a.best == "points 6H"
    assert a["points 6H"].wins == 300 and a["points 6H"].win_rate[1] > 0.98
    # won in every rollout: its score's interval still has a width (the plain normal
    # interval was [100%, 100%]), the normal one with a rollout of 0 and one of 1 added
    e = a["points 6H"].score_estimate
    assert mean_interval_from_moments(300, 300, 300) == (1, 1, 1)
    assert e == score_interval(300, 300, 300) and e.value == e.high == 1
    assert e.low == pytest.approx((301 - 1.959963984540054) / 302)
    assert "[99.0%, 100.0%]" in next(line for line in str(a).splitlines()
                                     if line.startswith("points 6H"))
    assert {str(r.move) for r in a.rows} == {str(m) for m in g.legal_moves}
    assert all(r.rollouts == 300 for r in a.rows)


def test_expert_playouts_find_the_immediate_win_too():
    a = analyse(winning_position(), rollouts=100, policy="expert", seed=1, threads=1)
    assert a.best == "points 6H" and a.policy == "expert"


def test_analysis_does_not_depend_on_thread_count():
    g = cuttle.Game(seed=11)
    a1 = analyse(g, rollouts=400, seed=5, threads=1)
    a2 = analyse(g, rollouts=400, seed=5, threads=2)
    assert [(str(r.move), r.wins, r.draws) for r in a1.rows] == \
        [(str(r.move), r.wins, r.draws) for r in a2.rows]


def test_analysis_leaves_the_game_untouched_and_never_peeks():
    g = cuttle.Game(seed=12)
    before = g._core_state_bytes()
    a = analyse(g, rollouts=200, seed=3)
    assert g._core_state_bytes() == before
    # Another game that differs only in what player 0 cannot see: same analysis.
    d = g.determinize(0, seed=99)
    b = analyse(d, rollouts=200, seed=3)
    assert [(str(r.move), r.wins) for r in a.rows] == [(str(r.move), r.wins) for r in b.rows]


def test_adaptive_analysis_spends_fewer_rollouts_on_the_same_best_move():
    g = winning_position()
    full = analyse(g, rollouts=400, seed=1)
    fast = analyse(g, rollouts=400, seed=1, adaptive=True)
    assert fast.best == full.best == "points 6H"
    assert fast.total_rollouts < full.total_rollouts
    assert fast["points 6H"].rollouts == 400


@pytest.mark.parametrize("seed", range(40))
def test_the_adaptive_best_is_a_contender_of_the_last_round(seed):
    # A move dropped in an early round has a noisier score on fewer rollouts: it used to
    # be named best over the finalists in about one position in eight at 64 rollouts.
    import random
    rng = random.Random(seed)
    g, plies = cuttle.Game(seed=seed), rng.randint(0, 12)
    while g.ply < plies or len(g.legal_moves) < 4:     # (an early round needs 4 moves)
        g.play(rng.choice(list(g.legal_moves)))
        if g.is_over:
            g = cuttle.Game(seed=rng.getrandbits(32))
    a = analyse(g, rollouts=64, policy="random", threads=1, seed=seed, adaptive=True)
    counts = [r.rollouts for r in a.rows]
    assert counts == sorted(counts, reverse=True) and a.best == a.rows[0].move
    assert a[a.best].rollouts == 64
    finalists = [r for r in a.rows if r.rollouts == 64]
    assert a[a.best].score == max(r.score for r in finalists)
    assert "moves sorted by the round of successive halving reached" in str(a)


def test_analysis_table_and_dict():
    a = analyse(winning_position(), rollouts=50, seed=1)
    text = str(a)
    assert "points 6H" in text and "95% interval" in text and "rollouts" in text
    assert "moves sorted by score = wins plus half the draws" in text
    # Each interval reads [low, high], as every other table prints one (it read "a - b").
    for r, line in zip(a.rows, text.splitlines()[2:]):
        shown = interval(r.score_estimate, "pct", 1)
        assert shown.startswith("[") and f"  {shown}  " in line and " - " not in line
    d = a.as_dict()
    assert d["moves"][0]["move"] == "points 6H" and d["total_rollouts"] == a.total_rollouts


def test_the_interval_is_the_scores_what_the_moves_are_ranked_by():
    a = analyse(cuttle.Game(seed=7), rollouts=400, seed=3, threads=1)
    assert any(r.draws for r in a.rows)       # (a score differs from the win rate)
    lines = str(a).splitlines()
    assert lines[1].split()[:4] == ["move", "score", "95%", "interval"]
    assert "(the 95% interval is the score's)" in lines[-1]
    d = a.as_dict()
    for r, line, m in zip(a.rows, lines[2:], d["moves"]):
        w, n, x = r.wins, r.rollouts, r.draws
        # the mean of a value per rollout (1, 1/2, 0), as a summary's score_A
        want = score_interval(n, w + x / 2, w + x / 4, 0.95)
        assert r.score_estimate == pytest.approx(want) and r.score == want.value
        assert f"  {interval(want, 'pct', 1)}  " in line
        assert interval(r.win_rate, "pct", 1) not in line    # (the old column's)
        # JSON: "score" is the value, as before; "score_estimate" the value with its ends
        assert m["score"] == r.score and m["score_estimate"] == want.as_dict()
        assert m["win_rate"]["low"] == r.win_rate.low        # (still there)
    assert d["confidence"] == 0.95
    assert d["interval_methods"] == {"scores": "normal (pseudo-games 0 and 1)",
                                     "rates": "wilson"}
    # the same interval as a simulation's score for a player with these results
    s = cuttle.simulate(300, players=("expert", "random"), seed=1, threads=1)
    summ = s.summary()
    from cuttle.figures import ANALYSIS, SUMMARY
    row = cuttle.analysis.MoveStats(a.best, summ.n, int(summ.wins[1]), int(summ.draws))
    assert ANALYSIS["score"].estimate(row) == SUMMARY["score_A"].estimate(summ)


def test_a_hint_says_when_other_moves_are_within_the_best_moves_interval():
    from cuttle.analysis import Analysis, MoveStats
    g = cuttle.Game(seed=7)

    def hint_of(*rows, **kw):       # rows: (move, rollouts, wins), no draws
        a = Analysis(g, 0, [MoveStats(cuttle.Move.parse(m), n, w, 0) for m, n, w in rows],
                     "greedy", 1, 0.1, False)
        return a.hint(**kw), [str(m) for m in a.close_to_best]

    # clearly best: the others' intervals lie below its (95%: about +-10 pp at 100)
    assert hint_of(("points 7H", 100, 80), ("draw", 100, 40)) == ("points 7H", [])
    # one, two, three moves within reach: named, in the rows' order (best first)
    assert hint_of(("points 7H", 100, 60), ("draw", 100, 55), ("points 3C", 100, 10)) == \
        ("points 7H, not clearly better than draw (the intervals overlap)", ["draw"])
    text, close = hint_of(("points 7H", 100, 60), ("draw", 100, 50), ("points 3C", 100, 52),
                          ("points 4D", 100, 58))
    assert close == ["points 4D", "points 3C", "draw"]
    assert text == ("points 7H, not clearly better than points 4D, points 3C or draw (the "
                    "intervals overlap)")
    # more: only their number
    rows = [("points 7H", 100, 60)] + [(m, 100, 55) for m in
                                       ("draw", "points 3C", "points 4D", "points 5S")]
    assert hint_of(*rows)[0] == ("points 7H, though no move is clearly best (the "
                                 "intervals of 4 other moves overlap its)")
    # one playout a move gives no interval: no move is told apart from the best
    assert hint_of(("points 7H", 1, 1), ("draw", 1, 0), ("points 3C", 1, 0)) == (
        "points 7H, though no move is clearly best (1 playout per move is too few for an "
        "interval)", ["draw", "points 3C"])
    assert hint_of(("points 7H", 2, 2), ("draw", 1, 0))[0].endswith("(1 playout per move "
                                                                    "is too few for an "
                                                                    "interval)")
    # a move without playouts (an interrupted analysis) is no rival; a label per move
    assert hint_of(("points 7H", 100, 60), ("draw", 0, 0)) == ("points 7H", [])
    assert hint_of(("points 7H", 100, 60), ("draw", 100, 55),
                   label=lambda m: f"[{m}]")[0].startswith("[points 7H], not clearly "
                                                           "better than [draw] (")


def test_analyse_takes_a_confidence_level():
    g = cuttle.Game(seed=7)
    a95 = analyse(g, rollouts=300, seed=3, threads=1)
    a99 = analyse(g, rollouts=300, seed=3, threads=1, confidence=0.99)
    assert a99.confidence == 0.99 and a95.confidence == 0.95
    assert [(r.move, r.wins, r.draws) for r in a99.rows] == \
        [(r.move, r.wins, r.draws) for r in a95.rows]        # (the same playouts)
    for r95, r99 in zip(a95.rows, a99.rows):
        n, w, x = r99.rollouts, r99.wins, r99.draws
        assert r99.score_estimate == score_interval(n, w + x / 2, w + x / 4, 0.99)
        assert r99.win_rate == wilson_interval(w, n, 0.99)
        assert r99.draw_rate == wilson_interval(x, n, 0.99)
        assert r99.score_estimate.low < r95.score_estimate.low
        assert r99.score_estimate.high > r95.score_estimate.high
    text = str(a99)
    assert text.splitlines()[1].split()[2:4] == ["99%", "interval"]
    assert "(the 99% interval is the score's)" in text and "95%" not in text
    d = a99.as_dict()
    assert d["confidence"] == 0.99
    assert d["moves"][0]["score_estimate"] == a99.rows[0].score_estimate.as_dict()
    assert "99%" in a99._repr_html_()


@pytest.mark.parametrize("confidence", [0, 1, 1.5, -0.5, float("nan"), "0.9", True, None,
                                        0.9999999999999999])
def test_a_bad_confidence_is_refused_before_any_playout(monkeypatch, confidence):
    import cuttle.analysis as analysis
    monkeypatch.setattr(analysis, "_rollouts", lambda *a: pytest.fail("played"))
    with pytest.raises(ValueError, match="confidence"):
        analyse(cuttle.Game(seed=1), rollouts=10, confidence=confidence)


def test_an_interrupted_analysis_keeps_its_confidence(monkeypatch):
    import cuttle.analysis as analysis
    real, calls = analysis._rollouts, []

    def once(*args):
        if calls:
            raise KeyboardInterrupt
        calls.append(1)
        return real(*args)
    monkeypatch.setattr(analysis, "_rollouts", once)
    monkeypatch.setattr(analysis, "FIRST_CALL", 64)
    with pytest.raises(cuttle.Interrupted) as e:
        analyse(cuttle.Game(seed=1), rollouts=1000, seed=1, threads=1, confidence=0.9)
    part = e.value.result
    assert part.confidence == 0.9 and all(r.confidence == 0.9 for r in part.rows)
    assert "90% interval" in str(part)


@pytest.mark.parametrize("kwargs", [dict(rollouts=0), dict(rollouts=1.5), dict(threads=0),
                                    dict(threads=True), dict(threads=5000), dict(threads="2"),
                                    dict(policy="nope"), dict(policy="ismcts:10")])
def test_analysis_rejects_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        analyse(cuttle.Game(seed=1), **kwargs)


def test_analysis_of_a_finished_game_is_an_error():
    g = cuttle.Game.from_position(points=(["TH", "9H", "2H"], []), rest="deck", seed=1)
    assert g.is_over
    with pytest.raises(ValueError):
        analyse(g)


def test_an_interrupted_analysis_keeps_what_finished(monkeypatch):
    """Ctrl-C (here: the second native call raising KeyboardInterrupt) raises
    cuttle.Interrupted carrying the finished rollouts as an Analysis."""
    import cuttle.analysis as analysis_module
    real = analysis_module._rollouts
    calls = []

    def flaky(*args):
        calls.append(args)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(analysis_module, "CALL_ROLLOUTS", 64)
    monkeypatch.setattr(analysis_module, "_rollouts", flaky)
    g = cuttle.Game(seed=11)
    with pytest.raises(cuttle.Interrupted) as info:
        analyse(g, rollouts=1000, seed=5, threads=1)
    part = info.value.result
    n = len(g.legal_moves)
    assert info.value.done == part.total_rollouts == n * (64 // n)
    assert info.value.total == 1000 * n and info.value.unit == "rollout"
    # the finished rollouts are exactly the first ones of an uninterrupted analysis
    monkeypatch.setattr(analysis_module, "_rollouts", real)
    first = analyse(g, rollouts=64 // n, seed=5, threads=1)
    assert {str(r.move): (r.wins, r.draws) for r in part.rows} == \
        {str(r.move): (r.wins, r.draws) for r in first.rows}


def test_an_interrupted_adaptive_analysis_says_what_a_whole_run_plays(monkeypatch):
    """It said "of rollouts x moves", which only the final contenders reach."""
    import cuttle.analysis as analysis_module
    real, calls = analysis_module._rollouts, []

    def flaky(*args):
        calls.append(args)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(analysis_module, "CALL_ROLLOUTS", 64)
    monkeypatch.setattr(analysis_module, "_rollouts", flaky)
    g = cuttle.Game(seed=11)
    n = len(g.legal_moves)
    assert n > 2
    with pytest.raises(cuttle.Interrupted) as info:
        analyse(g, rollouts=1000, seed=5, threads=1, adaptive=True)
    monkeypatch.setattr(analysis_module, "_rollouts", real)
    whole = analyse(g, rollouts=1000, seed=5, threads=1, adaptive=True)
    assert info.value.total == whole.total_rollouts < 1000 * n
    assert f"of {whole.total_rollouts:,} rollouts" in str(info.value)


@pytest.mark.parametrize("kind", ["event", "callable"])
def test_a_cancelled_analysis_keeps_what_finished(monkeypatch, kind):
    # cancel (an Event, or a callable) is checked before each native call, as review's
    import threading
    import cuttle.analysis as analysis_module
    monkeypatch.setattr(analysis_module, "CALL_ROLLOUTS", 64)
    monkeypatch.setattr(analysis_module, "FIRST_CALL", 64)
    real, calls, event = analysis_module._rollouts, [], threading.Event()

    def counted(*args):
        calls.append(args)
        if len(calls) == 2:
            event.set()                 # (said during the second call: no third)
        return real(*args)
    monkeypatch.setattr(analysis_module, "_rollouts", counted)
    g = cuttle.Game(seed=11)
    cancel = event if kind == "event" else event.is_set
    with pytest.raises(cuttle.Interrupted) as info:
        analyse(g, rollouts=1000, seed=5, threads=1, cancel=cancel)
    n = len(g.legal_moves)
    assert len(calls) == 2 and info.value.done == 2 * n * (64 // n)
    monkeypatch.setattr(analysis_module, "_rollouts", real)
    first = analyse(g, rollouts=2 * (64 // n), seed=5, threads=1)
    assert {str(r.move): r.wins for r in info.value.result.rows} == \
        {str(r.move): r.wins for r in first.rows}
    with pytest.raises(ValueError, match="cancel must be a threading.Event"):
        analyse(g, rollouts=10, cancel="stop")


def test_chunked_rollouts_do_not_change_the_analysis(monkeypatch):
    import cuttle.analysis as analysis_module
    g = cuttle.Game(seed=12)
    whole = analyse(g, rollouts=300, seed=3, threads=2)
    monkeypatch.setattr(analysis_module, "CALL_ROLLOUTS", 37)
    cut = analyse(g, rollouts=300, seed=3, threads=1)
    assert [(str(r.move), r.wins, r.draws) for r in whole.rows] == \
        [(str(r.move), r.wins, r.draws) for r in cut.rows]


def test_native_calls_last_a_moment_so_ctrl_c_keeps_nearly_everything(monkeypatch):
    # The first call plays FIRST_CALL rollouts, the next as many as take CALL_SECONDS
    # (at most CALL_ROLLOUTS): slow playouts get short calls, and the analysis is the
    # same whatever the sizes.
    import cuttle.analysis as analysis_module
    real, sizes = analysis_module._rollouts, []

    def counted(game, need, lo, count, *rest):
        sizes.append(len(need) * count)
        return real(game, need, lo, count, *rest)

    g = cuttle.Game(seed=12)
    whole = analyse(g, rollouts=3000, seed=3, threads=1)
    monkeypatch.setattr(analysis_module, "_rollouts", counted)
    monkeypatch.setattr(analysis_module, "CALL_SECONDS", 1e-9)     # every call "slow"
    slow = analyse(g, rollouts=3000, seed=3, threads=1)
    n = len(g.legal_moves)
    assert len(sizes) > 3 and max(sizes) <= analysis_module.FIRST_CALL
    assert sum(sizes) == 3000 * n
    monkeypatch.setattr(analysis_module, "CALL_SECONDS", 1e9)      # every call "fast"
    sizes.clear()
    fast = analyse(g, rollouts=3000, seed=3, threads=1)
    assert sizes[0] <= analysis_module.FIRST_CALL < max(sizes) <= analysis_module.CALL_ROLLOUTS
    rows = [[(str(r.move), r.wins, r.draws) for r in a.rows] for a in (whole, slow, fast)]
    assert rows[0] == rows[1] == rows[2]


@pytest.mark.parametrize("policy, search", [("nope", False), ("ismcts:10", True),
                                            ("ismcts-infer", True)])
def test_a_refused_playout_policy_lists_only_the_playouts_policies(policy, search):
    # An unknown name was answered with every policy of the library, searches included,
    # which the playouts then refused.
    with pytest.raises(ValueError) as e:
        analyse(cuttle.Game(seed=1), policy=policy)
    said = str(e.value)
    assert said.startswith("analysis playouts use 'random', 'greedy', 'expert', "
                           f"'cuttle.cards-ai', not {policy!r}")
    assert "ismcts:N" not in said
    assert ("analyse_search" in said) == search
