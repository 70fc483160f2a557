""""best" is the engine's best move alone, a move within the noise of it is "near best"
and names the best; a move that won at once, legal and not played, is flagged whatever
the loss: in the text, the JSON, the markdown, the page and the per-player figures.

The worked example of docs/record.md: P0 holds 13 points and 9C, so `points 9C` wins on
the spot; P0 draws, which the expert playouts value within 1 pp of it (the review
called it "best" and showed no other move)."""

import json

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import cuttle
from cuttle.policies import Bot
from cuttle.record import make_record, write_record
from cuttle.review import LABELS, Thresholds, judge, review, wins_at_once
from support.helpers import bot_game, run_cli

START = ("hands: 7H 9C 2D / 8S 3C 5D; points: 9D 4S / TC; deck: 4H 6S KD QC JH; "
         "rest: scrap")
NINE = cuttle.Move("points 9C")


def record_md_example():
    """docs/record.md's worked example: ann's moves and the greedy bot's replies."""
    g = cuttle.Game.from_text(START, rules="classic: four=random", seed=7)
    bot = Bot("greedy", seed=7)
    for move in ("draw", bot, "points 7H", bot):
        g.play(move.choose(g) if move is bot else move)
    return make_record(g, players=["ann", "greedy"], human_seat=0, bot=bot, position=START)


def test_a_missed_win_within_the_noise_names_the_best_and_is_flagged(monkeypatch, capsys,
                                                                    tmp_path):
    r = review(record_md_example(), "expert", player=0, seed=1)
    d = r.decisions[0]
    assert str(d.played) == "draw" and d.best == NINE and d.best_score == 1.0
    assert 0 < d.loss <= Thresholds().best            # (0.6 pp: within the noise)
    assert d.label == "near best" and d.missed_win == NINE
    line = next(x for x in str(r).splitlines() if x.lstrip().startswith("1. P0"))
    assert "best points 9C 100.0%" in line and line.split("pp  ")[1] == \
        "near best; missed a win: points 9C won at once"
    # move 3 (points 7H) missed the same win, and blundered the game away
    assert r.decisions[1].label == "blunder" and r.decisions[1].missed_win == NINE
    assert r.summary(0)["missed_wins"] == 2 and r.summary(0)["near_best"] == 1
    assert r.summary(0)["best"] == 0
    # the JSON, the markdown and the page say the same
    data = json.loads(json.dumps(r.as_dict()))
    first = data["decisions"][0]
    assert (first["label"], first["best"], first["missed_win"]) == \
        ("near best", "points 9C", "points 9C")
    assert data["players"][0]["missed_wins"] == 2
    md = r.markdown()
    assert "| 1 | 1 | P0 ann | draw | 99.4% | points 9C | 100.0% | " in md
    assert "| near best | missed a win: points 9C won at once |" in md
    page = r.page()
    assert 'class="rv rv-near-best"' in page and '<span class="alt">best: points 9C ' in page
    assert '<span class="alt missed">missed a win: points 9C won at once</span>' in page
    # the command prints the review's text: `cuttle review game.json --player 0 --seed 1`
    path = str(tmp_path / "game.json")
    write_record(record_md_example(), path)
    code, out, err = run_cli(monkeypatch, capsys, ["review", path, "--player", "0",
                                                   "--seed", "1"])
    assert code == 0 and line in out.splitlines()


def test_the_played_winning_move_is_best_and_misses_nothing():
    g = cuttle.Game.from_text(START, rules="classic: four=random", seed=7)
    assert wins_at_once(g) == [NINE]
    d = judge(g, "points 9C", "expert:16", seed=1)
    assert d.label == "best" and d.missed_win is None and d.best == NINE
    assert "missed" not in repr(d)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), seats=st.sampled_from([("expert", "random"),
                                                           ("random", "greedy"),
                                                           ("greedy", "expert")]))
@example(seed=8, seats=("random", "greedy"))        # four wins at once missed by random
def test_best_is_the_engines_alone_and_every_missed_win_is_flagged(seed, seats):
    """Whatever the game: "best" exactly when the move played is the engine's best; a
    line names the best move whenever it is another; a decision flags a missed win
    exactly when a legal move won on the spot and the move played did not."""
    g = bot_game(seats, seed)
    r = review(g, "rollouts:8", seed=seed, threads=1)
    lines = {int(x.split(".")[0]): x for x in str(r).splitlines()
             if x.strip()[:1].isdigit() and ". P" in x}
    at = g.copy()
    while at.ply:
        at.undo()
    by_ply = {d.ply: d for d in r.decisions}
    for i, m in enumerate(g.moves):
        d = by_ply[i]
        if d.judged:
            assert d.label in LABELS and (d.label == "best") == (d.best == d.played)
            assert (f"best {d.best} " in lines[i + 1]) == (d.best != d.played)
            won = []
            for move in at.legal_moves:
                after = at.copy()
                after.play(move)
                if after.is_over and after.winner == at.to_move:
                    won.append(move)
            want = None if d.played in won else \
                next((c.move for c in d.candidates if c.move in won), None)
            assert d.missed_win == want
            assert ("missed a win" in lines[i + 1]) == (want is not None)
        at.play(m)
