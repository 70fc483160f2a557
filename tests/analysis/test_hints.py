"""The hint of `cuttle play` and the web app (`cuttle.hints`): the review's default engine,
so that a player who follows a hint is not charged for it by the review.

`cuttle play --bot greedy --seed 5`, move 1: the greedy playouts hinted `royal QD` (91.7%
against the draw's 80.7%), which the review's expert engine rates 6.2 pp below the draw,
an inaccuracy."""

import numpy as np

import cuttle
from cuttle.hints import DEFAULT_HINT_ROLLOUTS, HINT_POLICY, hint, hint_seed, hint_words
from cuttle.policies import policy_code
from cuttle.review import judge, parse_engine
from cuttle.review.engines import DEFAULT_ENGINE, MoveValues, evaluate
from cuttle.review.figures import Thresholds
from cuttle.seeding import derive
from support.helpers import bot_game, run_cli


def test_the_hint_plays_out_with_the_reviews_default_engine():
    eng = parse_engine(DEFAULT_ENGINE)
    assert eng.kind == "playouts" and eng.code == policy_code(HINT_POLICY)
    assert DEFAULT_HINT_ROLLOUTS == 1000


def test_following_the_hint_is_not_charged_by_the_review():
    g = cuttle.Game(seed=5)
    a = hint(g)
    assert a.policy == "expert" and str(a.best) == "draw"
    assert all(r.rollouts == DEFAULT_HINT_ROLLOUTS for r in a.rows)
    assert judge(g, "royal QD", "expert", seed=1).label == "inaccuracy"   # the old hint's
    for seed in (1, 2, 3):
        d = judge(g, a.best, "expert", seed=seed)
        assert d.label in ("best", "near best") and d.loss <= Thresholds().best
    assert hint_words(a) == ("By the game review's engine: expert playouts from your view, "
                             "1,000 a move")
    other = hint(g, 50, policy="greedy")
    assert hint_words(other).startswith("Not by the game review's engine: greedy playouts")


def test_a_hint_draws_the_reviews_samples():
    """Sample k of every move is the review engine's sample k from the same seed: the
    hint's scores are the means of the review's first N samples of each move."""
    for g in (cuttle.Game(seed=5), bot_game(("expert", "greedy"), 6, plies=8)):
        assert not g.is_over and len(g.legal_moves) > 1
        n = 256
        a = hint(g, n, threads=1)
        legal = list(g.legal_moves)
        mv = MoveValues([m.code for m in legal])
        evaluate(g, None, parse_engine(DEFAULT_ENGINE), hint_seed(g, n), 2, Thresholds(),
                 values=mv)
        for i, m in enumerate(legal):
            assert mv.n[i] >= n
            row = a[m]
            score = (row.wins + 0.5 * row.draws) / row.rollouts
            assert score == np.float64(mv.samples(i)[:n].astype(np.float64).mean())


def test_a_hint_is_cuttle_analyse_of_its_position_and_seed(monkeypatch, capsys):
    g = cuttle.Game(seed=5)
    a = hint(g, 300, threads=1)
    assert hint_seed(g, 300) == derive(5, 0, 300)
    code, out, err = run_cli(monkeypatch, capsys, [
        "analyse", g.position_text(), "--policy", "expert", "--rollouts", "300",
        "--seed", hint_seed(g, 300), "--threads", "1"])
    assert code == 0 and err == ""
    table = lambda text: [x for x in text.splitlines() if "%" in x and "[" in x]  # noqa: E731
    assert table(out) == table(str(a)) and len(table(out)) == g.legal_moves.__len__()
