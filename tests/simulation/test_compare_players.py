"""compare_players: candidates against one opponent on the same deals and seats, their
differences paired game by game (the statistics of `compare`)."""

import json
import math
import statistics

import numpy as np
import pytest

import cuttle
from cuttle.figures import SUMMARY, independent_difference
from cuttle.stats import newcombe_paired_interval

SCORED = ("win_rate_A", "win_rate_B", "draw_rate", "first_mover_win_rate", "first_score",
          "score_A", "score_B", "first_player_advantage")


def pick(game, rng):
    return rng.choice(game.legal_moves)


def test_each_candidate_plays_the_games_simulate_plays_it():
    """Candidate i's games are simulate's of (candidate i, opponent) with the same seed:
    the same deals, seats and streams for every candidate."""
    cmp = cuttle.compare_players(["greedy", "expert", "random"], 600, "greedy",
                                 rules="cuttle.cards", seed=4, progress=False)
    for i, name in enumerate(["greedy", "expert", "random"]):
        alone = cuttle.simulate(600, "cuttle.cards", (name, "greedy"), seed=4, progress=False)
        assert cmp[i].tally == alone.tally
        assert cmp[i].players == (name, "greedy")
    assert cmp.compared == "players" and cmp.candidates == ("greedy", "expert", "random")
    assert cmp.opponent == "greedy" and cmp.players == ("candidate", "greedy")
    assert cmp.deals == "same" and cmp.rules == [cuttle.Rules("cuttle.cards")] * 3


def test_identical_candidates_differ_by_exactly_nothing():
    """The same player twice plays the very same games: every difference is 0, with the
    narrowest interval the paired statistics give, a candidate's against itself."""
    cmp = cuttle.compare_players(["expert", "random", "expert"], 800, "greedy", seed=9,
                                 progress=False)
    assert cmp[0].tally == cmp[2].tally
    for metric in ("win_rate_A", "win_rate_B", "draw_rate", "first_mover_win_rate"):
        both, only_0, only_2, neither = cmp.pairs[(0, 2)].cells(metric)
        assert only_0 == only_2 == 0
    for metric in SCORED:
        d = cmp.difference(metric, 2)
        assert d.value == 0 and d.low == pytest.approx(-d.high, abs=1e-12) and d.low < 0
        assert d == cmp.difference(metric, 0, 0)
    for metric in ("win_rate_A", "score_A", "first_score"):
        # (far narrower than the same games taken as unpaired runs)
        f, s0, s2 = SUMMARY[metric], cmp[0].summary(), cmp[2].summary()
        assert cmp.difference(metric, 2).high < independent_difference(f, s2, s0).high / 5
    for metric in ("mean_moves", "mean_turns"):
        d = cmp.difference(metric, 2)
        assert d.value == 0 and d.low == pytest.approx(-d.high) and 0 < d.high < 0.1


def test_a_stronger_candidate_shows_a_positive_difference():
    cmp = cuttle.compare_players(["random", "greedy"], 1000, "random", seed=3,
                                 progress=False)
    d = cmp.difference("score_A", 1)
    assert d.low > 0.2
    assert cmp.difference("win_rate_A", "greedy", "random").low > 0.2
    assert cmp.difference("score_B", 1).high < -0.2      # (the opponent's, the other way)


def _scores(result):
    """Player A's score, game by game, from a result's rows."""
    return np.where(result.winner == 0, 1.0, np.where(result.winner == 1, 0.0, 0.5))


def test_the_paired_statistics_are_the_hand_computed_ones():
    """A tiny run, its differences computed by hand from each candidate's games."""
    n = 24
    cmp = cuttle.compare_players(["random", "greedy"], n, "random", seed=11,
                                 keep_games=True, progress=False)
    a, b = cmp[0], cmp[1]
    assert list(a.game_index) == list(b.game_index) == list(range(n))
    assert list(a.first) == list(b.first)            # (the same seats)
    # A's score: the mean of per-game differences, with one pseudo-game of +1 and one of
    # -1, and the normal interval of those n + 2 values
    diffs = list(_scores(b) - _scores(a))
    values = diffs + [1.0, -1.0]
    mean = statistics.fmean(values)
    half = 1.959963984540054 * statistics.stdev(values) / math.sqrt(len(values))
    d = cmp.difference("score_A", 1)
    assert d.value == pytest.approx(sum(diffs) / n, abs=1e-12)
    assert (d.low, d.high) == pytest.approx((mean - half, mean + half), abs=1e-12)
    # A's wins: the 2x2 table of the pairs, Newcombe's paired interval
    won_a, won_b = a.winner == 0, b.winner == 0
    cells = (int(np.sum(won_b & won_a)), int(np.sum(won_b & ~won_a)),
             int(np.sum(~won_b & won_a)), int(np.sum(~won_b & ~won_a)))
    assert cmp.pairs[(0, 1)].cells("win_rate_A", reverse=True) == cells
    d = cmp.difference("win_rate_A", 1)
    assert d.value == pytest.approx((cells[1] - cells[2]) / n)
    assert d == newcombe_paired_interval(*cells)
    # moves: the per-game differences, with a pseudo-difference of the lengths' spread
    dm = cmp.difference("mean_moves", 1)
    assert dm.value == pytest.approx(float(np.mean(b.moves - a.moves)))


def test_threads_and_chunks_change_nothing():
    kw = dict(n_games=300, opponent="expert", seed=5, progress=False)
    one = cuttle.compare_players(["greedy", "random"], threads=1, chunk_size=7, **kw)
    two = cuttle.compare_players(["greedy", "random"], threads=2, **kw)
    assert [r.tally for r in one.results] == [r.tally for r in two.results]
    assert one.pairs == two.pairs
    # ... nor cutting the run in two
    half = (cuttle.compare_players(["greedy", "random"], 150, "expert", seed=5,
                                   progress=False)
            + cuttle.compare_players(["greedy", "random"], 150, "expert", seed=5,
                                     start=150, progress=False))
    assert [r.tally for r in half.results] == [r.tally for r in one.results]
    assert half.pairs == one.pairs


def test_a_python_candidate_plays_as_simulate_plays_it():
    cmp = cuttle.compare_players([pick, cuttle.policies.fair(pick)], 40, "greedy", seed=2,
                                 chunk_size=9, progress=False)
    alone = cuttle.simulate(40, players=(pick, "greedy"), seed=2, progress=False)
    assert cmp[0].tally == alone.tally
    assert cmp.labels == ["pick", "fair(pick)"]
    assert cmp.difference("score_A", 1).low < 0 < cmp.difference("score_A", 1).high


def test_ctrl_c_keeps_the_games_every_candidate_finished():
    calls = []

    def stops(game, rng):
        calls.append(1)
        if len(calls) == 300:
            raise KeyboardInterrupt
        return pick(game, rng)
    with pytest.raises(cuttle.Interrupted) as info:
        cuttle.compare_players([stops, "greedy"], 200, "random", seed=1, chunk_size=4,
                               progress=False)
    part = info.value.result
    assert 0 < part.n_games < 200 and part.n_games == info.value.done
    assert part[0].n_games == part[1].n_games == part.n_games
    again = cuttle.compare_players([pick, "greedy"], part.n_games, "random", seed=1,
                                   progress=False)
    assert [r.tally for r in part.results] == [r.tally for r in again.results]


@pytest.mark.parametrize("players, opponent, kw, says", [
    (["greedy"], "random", {}, "at least two players"),
    ("greedy", "random", {}, "at least two players"),
    (["greedy", "nobody"], "random", {}, "unknown policy 'nobody'"),
    (["greedy", 7], "random", {}, "candidate 2 must be"),
    (["greedy", "random"], "nobody", {}, "unknown policy 'nobody'"),
    (["greedy", "random"], 7, {}, "the opponent must be"),
    (["greedy", "random"], "random", {"labels": ["x"]}, "1 labels for 2 players"),
    (["greedy", "random"], "random", {"rules": "nope"}, "nope"),
])
def test_bad_arguments_are_refused_before_any_game(players, opponent, kw, says):
    with pytest.raises(ValueError, match=says):
        cuttle.compare_players(players, 10, opponent, seed=1, progress=False, **kw)


def test_its_outputs_name_the_candidates(tmp_path):
    cmp = cuttle.compare_players(["greedy", "random"], 100, "expert", seed=1,
                                 labels=["mine", "theirs"], progress=False,
                                 games_csv=tmp_path / "games.csv")
    text = str(cmp)
    assert text.startswith("cuttle comparison: 2 players against expert, 100 games each, "
                           "the same deals and seats (seed 1)")
    assert "  [1] mine  (baseline)" in text and "A (candidate) wins" in text
    d = cmp.as_dict()
    assert d["compared"] == "players" and "rule_sets" not in d
    assert [(c["label"], c["player"]) for c in d["candidates"]] == [("mine", "greedy"),
                                                                     ("theirs", "random")]
    assert d["candidates"][1]["difference_vs_baseline"]["score_A"]["value"] == \
        pytest.approx(cmp.difference("score_A", 1).value)
    cmp.to_csv(tmp_path / "cmp.csv")
    assert (tmp_path / "cmp.csv").read_text().startswith("candidate,label,metric,")
    assert (tmp_path / "games.csv").read_text().startswith("candidate,game,")
    with pytest.raises(ValueError, match="no candidate is labelled 'x'"):
        cmp.estimate("draw_rate", "x")
    with pytest.raises(ValueError, match="a comparison of candidates with one of rule sets"):
        cmp.merge(cuttle.compare(["classic", "quick"], 100, seed=1, progress=False,
                                 start=100))


def test_its_texts_say_candidate_where_a_comparison_of_rule_sets_says_rule_set(tmp_path):
    """Every text and key that names a comparison's entries names candidates when
    players are compared: a candidate's own summary, the refusals, the JSON (its
    opponent at the top, a shift of nothing written as 0.0, not -0.0), the CSV."""
    cmp = cuttle.compare_players(["expert", "random", "expert"], 60, "greedy", seed=1,
                                 progress=False).with_elapsed(1.5)
    head = str(cmp[1].summary()).splitlines()[0]
    assert "for the 3 candidates' 180 games" in head and "rule set" not in head
    with pytest.raises(ValueError) as refused:
        cmp.difference("elo_difference", 1)
    assert "shift between candidates" in str(refused.value)
    assert "is candidate i's" in str(refused.value) and "rule set" not in str(refused.value)
    d = cmp.as_dict()
    assert d["opponent"] == "greedy"
    for c in d["candidates"]:
        assert c["summary"]["elapsed_candidates"] == 3
        assert "elapsed_rule_sets" not in c["summary"]
    text = json.dumps(d)
    assert "-0.0," not in text and "-0.0}" not in text
    assert d["candidates"][2]["difference_vs_baseline"]["score_A"]["value"] == 0.0
    assert "rule set" not in str(cmp) + repr(cmp) + cmp._repr_html_() + text
    cmp.to_csv(tmp_path / "cmp.csv")
    assert "rule set" not in (tmp_path / "cmp.csv").read_text()
    # (a comparison of rule sets keeps its words and keys)
    rules = cuttle.compare(["classic", "quick"], 20, seed=1, progress=False).with_elapsed(1.0)
    assert "for the 2 rule sets' 40 games" in str(rules[0].summary()).splitlines()[0]
    assert rules.as_dict()["rule_sets"][0]["summary"]["elapsed_rule_sets"] == 2
    assert "opponent" not in rules.as_dict()
