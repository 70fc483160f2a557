"""A ComparisonResult's lookups: the same rules twice refused, rule sets named by label,
the players' scores compared, what n_games and unit count."""

import numpy as np
import pytest

import cuttle
from cuttle.stats import score_shift_interval
from support.samples import match_paired_difference


@pytest.fixture(scope="module")
def cmp():
    return cuttle.compare(["classic", "cuttle.cards", "classic: four=random"], 1500,
                          players=("greedy", "random"), seed=2, labels=["cc", "cards", "r4"],
                          keep_games=True, progress=False)


@pytest.mark.parametrize("rule_sets, kw, says", [
    (["classic", "classic"], {}, "'classic' and 'classic' (rule sets 1 and 2 of the list) "
                                 "are the same rules (classic)"),
    (["classic", "quick", cuttle.Rules()], {}, "'classic' and 'classic' (rule sets 1 and 3"),
    (["quick", "classic: four=random", cuttle.Rules(four="random")], {},
     "rule sets 2 and 3 of the list) are the same rules (classic: four=random)"),
    (["classic", "classic: four=choice"], {"labels": ["base", "same"]},
     "'base' and 'same' (rule sets 1 and 2 of the list) are the same rules (classic)"),
])
def test_the_same_rules_twice_are_refused_naming_them(rule_sets, kw, says):
    """compare(["classic", "classic"], n) played the same games twice, silently."""
    calls = []
    with pytest.raises(ValueError) as info:
        cuttle.compare(rule_sets, 100, seed=1, progress=lambda d, t: calls.append(d), **kw)
    assert str(info.value).startswith("compare needs different rule sets, but ")
    assert says in str(info.value) and calls == []


def test_a_rule_set_is_named_by_its_label_where_its_index_is_taken(cmp):
    """difference(metric, "cc") was refused ("rule set index must be an int") although
    the labels name the rule sets."""
    for metric in ("win_rate_A", "mean_moves", "first_score"):
        assert cmp.estimate(metric, "cards") == cmp.estimate(metric, 1)
        assert cmp.difference(metric, "r4") == cmp.difference(metric, 2)
        assert cmp.difference(metric, "r4", baseline="cards") == \
            cmp.difference(metric, 2, baseline=1)
        assert cmp.difference(metric, -1, "cc") == cmp.difference(metric, 2, 0)
    assert cmp.differences("cards", "r4") == cmp.differences(1, 2)
    assert cmp["cards"] is cmp[1] and cmp["r4"] is cmp[-1] and len(list(cmp)) == 3
    with pytest.raises(ValueError, match=r"no rule set is labelled 'classic'; the labels: "
                                         r"'cc', 'cards', 'r4', or an index from -3 to 2"):
        cmp.estimate("draw_rate", "classic")
    for bad in (True, 3, 1.0, None):
        with pytest.raises(ValueError, match=r"rule set index must be an int from -3 to 2 "
                                             r"or a rule set's label"):
            cmp.difference("draw_rate", bad)


def test_a_label_two_rule_sets_share_is_refused_naming_them():
    c = cuttle.compare(["classic", "quick", "cuttle.cards"], 50, seed=1,
                       labels=["x", "y", "x"], progress=False)
    with pytest.raises(ValueError, match="the label 'x' names rule sets 0 and 2: give its "
                                         "index"):
        c.difference("draw_rate", "x")
    assert c.estimate("draw_rate", "y") == c.estimate("draw_rate", 1)


def scores_a(result):
    """Player A's score game by game: 1 for a win, 1/2 for a draw."""
    return np.where(result.winner == 0, 1.0, np.where(result.winner < 0, 0.5, 0.0))


def test_the_players_scores_are_compared_game_by_game(cmp):
    """A summary's players' scores (score_A, score_B) were not compared: estimate and
    difference refused them.  They pair up game by game, as the first player's score
    does (A sits in either seat, by the game's parity, under every rule set)."""
    assert {"score_A", "score_B"} <= set(cmp.metrics)
    for i in range(3):
        for name in ("score_A", "score_B"):
            assert cmp.estimate(name, i) == cmp[i].summary().estimate(name)
    for i, base in ((1, 0), (2, 0), (0, 2), (2, 1)):
        d = scores_a(cmp[i]) - scores_a(cmp[base])
        exact = score_shift_interval(len(d), float(d.sum()), float(d @ d))
        assert cmp.difference("score_A", i, base) == pytest.approx(exact, rel=1e-12)
        b = cmp.difference("score_B", i, base)
        assert b == pytest.approx((-exact.value, -exact.high, -exact.low), rel=1e-12)
    rows = {(m, i) for m, i, *_ in cmp.rows()}
    assert ("score_B", 2) in rows
    data = cmp.as_dict()["rule_sets"][1]["difference_vs_baseline"]
    assert data["score_A"]["value"] == pytest.approx(cmp.difference("score_A", 1).value)


def test_a_match_runs_scores_are_compared_by_match():
    c = cuttle.compare(["classic", "cuttle.cards"], 150, players=("greedy", "random"),
                       seed=3, match="best_of_3", keep_games=True, progress=False)
    slots = cuttle.simulation.MATCH_FORMATS["best_of_3"].slots
    m1, m0 = c[1].game_index // slots, c[0].game_index // slots
    by_match = match_paired_difference(scores_a(c[1]), m1, scores_a(c[0]), m0, 150, 1)
    d = c.difference("score_A", 1)
    # the same value; an interval of its parts (A's wins, half the draws) at least as wide
    assert d.value == pytest.approx(by_match.value, rel=1e-12)
    assert d.low <= by_match.low and d.high >= by_match.high
    assert c.difference("score_B", 1).value == pytest.approx(-d.value, rel=1e-12)


def test_the_elo_difference_is_refused_saying_why(cmp):
    with pytest.raises(ValueError, match=r"'elo_difference' is a figure of each rule set's "
                                         r"summary, not of the comparison \(an Elo difference "
                                         r"is no mean of per-game values.*score_A\): "
                                         r"cmp\[i\]\.summary\(\)\.estimate\('elo_difference'\)"):
        cmp.difference("elo_difference", 1)
    with pytest.raises(ValueError, match="'mean_score_A' is a figure of each rule set's "
                                         "summary, not of the comparison \\(it is not "
                                         "compared between rule sets\\)"):
        cmp.estimate("mean_score_A", 0)
    with pytest.raises(ValueError, match="unknown metric 'elo'"):
        cmp.estimate("elo", 0)
