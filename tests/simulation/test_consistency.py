"""The simulation API says one thing one way: policies labelled by their full names and
a Bot played as its policy, a partial run's `requested` by the name its JSON gives it,
units in the singular and the plural, a confidence level wherever a result is
summarised, a comparison's rule sets timed as what they are (one run), and a player's
score and Elo difference beside the first-player advantage (compared by the same
name)."""

import csv
import io
import json
import math
import pickle

import numpy as np
import pytest

import cuttle
from cuttle.errors import ClusterError
from cuttle.policies import Bot
from cuttle.simulation.players import Player, resolve_players
from cuttle.simulation.tally import PairTally
from cuttle.stats import Estimate, mean_interval_from_moments, paired_shift_interval


@pytest.fixture(scope="module")
def three():
    """Three rule sets on the same 3,000 deals, the games kept."""
    return cuttle.compare(["classic", "cuttle.cards", "classic: four=random"], 3000,
                          players=("greedy", "expert"), seed=3, progress=False,
                          keep_games=True)


# -- 1. a Bot plays as its policy; policies by their full names -------------------------------

def test_a_bot_plays_as_its_policy_from_the_runs_seed():
    bot = Bot("ismcts:20", seed=1, threads=2)
    runs = [cuttle.simulate(6, players=(bot, "expert"), seed=5, progress=False,
                            keep_games=True) for _ in range(2)]
    named = cuttle.simulate(6, players=("ismcts:20", "expert"), seed=5, progress=False,
                            keep_games=True)
    assert runs[0].players == ("ismcts:20", "expert")
    for r in runs:                  # reproducible, and the very games of its policy's name
        assert r.tally == named.tally and list(r.moves) == list(named.moves)
    assert bot._calls == 0                        # the bot's own count is not used
    other = Bot("ismcts:20", seed=99)             # nor its seed: the run's decides
    assert cuttle.simulate(6, players=(other, "expert"), seed=5,
                           progress=False).tally == named.tally
    # compare too, and a bot beside a Python player (played in Python)
    c = cuttle.compare(["classic", "quick"], 20, players=(Bot("greedy", seed=3), "expert"),
                       seed=1, progress=False)
    assert c.players == ("greedy", "expert")
    assert c[1].tally == cuttle.simulate(20, "quick", players=("greedy", "expert"), seed=1,
                                         progress=False).tally
    assert Player(Bot("expert")).native


def test_a_bot_that_chooses_otherwise_is_a_python_player():
    class First(Bot):
        def choose(self, game):
            return game.legal_moves[0]
    p = Player(First("greedy"))
    assert not p.native and p.name == "First"


def test_players_are_labelled_by_their_full_names():
    assert [p.name for p in resolve_players(("ISMCTS", " greedy "))] == ["ismcts:1000",
                                                                          "greedy"]
    assert [p.name for p in resolve_players("ismcts-infer,ismcts-random:0050")] == [
        "ismcts-infer:1000", "ismcts-random:50"]
    assert Bot("ismcts").name == "ismcts:1000" and repr(Bot("ismcts")) == "Bot('ismcts:1000')"
    # the same policy, one name: its runs merge
    a = cuttle.simulate(2, players=("ismcts:1000", "random"), seed=1, progress=False)
    assert a.players == ("ismcts:1000", "random")
    b = cuttle.simulate(2, players=("ismcts", "random"), seed=1, start=2, progress=False)
    assert (a + b).n_games == 4


# -- 2. Interrupted.requested, the JSON's name of `total` ---------------------------------

def test_interrupted_answers_to_requested_as_its_json_says():
    e = cuttle.Interrupted(None, 3, 10)
    assert e.requested == e.total == 10 == e.as_dict()["requested"]
    assert pickle.loads(pickle.dumps(e)).requested == 10
    with pytest.raises(AttributeError):
        e.requested = 5                           # read-only: `total` is the one count
    assert e.total == 10
    assert cuttle.Interrupted(None, 1, None, "rollout").requested is None
    error = ClusterError("lost")
    assert error.requested is None
    error.total = 7
    assert error.requested == 7 and error.partial().requested == 7


# -- 3. units: `unit` the singular, `units` the plural, on both ------------------------------

def test_a_comparison_says_its_unit_as_its_interrupted_does(three):
    """A comparison's `unit` was the plural ("games") where the Interrupted of the same
    run said "game": both are singular now, `units` the plural on both (the JSON's
    top-level "unit" still says the plural, as it always did)."""
    assert (three.unit, three.units) == ("game", "games")
    assert three.as_dict()["unit"] == three.as_dict()["units"] == "games"
    assert cuttle.Interrupted(None, 1, 9, "game").units == "games"
    assert cuttle.Interrupted(None, 1, 9, "match").units == "matches"
    assert cuttle.Interrupted(None, 1, 9, "match").unit == "match"
    m = cuttle.compare(["classic", "quick"], 20, seed=1, match="best_of_3", progress=False)
    assert (m.unit, m.units) == ("match", "matches") and m.as_dict()["unit"] == "matches"
    assert ClusterError().units == "games"
    with pytest.raises(cuttle.PolicyError) as info:
        cuttle.compare(["classic", "quick"], 20, players=(_fails_at(200), "random"),
                       seed=1, match="best_of_3", progress=False)
    e = info.value
    assert (e.unit, e.units) == (e.result.unit, e.result.units) == ("match", "matches")


def _fails_at(n):
    calls = [0]

    def policy(game):
        calls[0] += 1
        if calls[0] == n:
            raise KeyError("a card")
        return game.legal_moves[0]
    return policy


# -- 4. a confidence level wherever a result is summarised ---------------------------------

def test_simulate_takes_a_confidence_for_its_summaries():
    r = cuttle.simulate(2000, players=("random", "greedy"), seed=4, confidence=0.99,
                        progress=False)
    assert r.confidence == 0.99 and r.summary().confidence == 0.99
    assert "99% interval" in str(r) and r.as_dict()["confidence"] == 0.99
    assert r.win_rate("A") == r.summary(0.99).win_rate("A") != r.summary(0.95).win_rate("A")
    assert r.as_dict(0.9)["confidence"] == 0.9 and r.summary(0.9).confidence == 0.9
    # the same games: only the intervals change
    plain = cuttle.simulate(2000, players=("random", "greedy"), seed=4, progress=False)
    assert plain.tally == r.tally and plain.confidence == 0.95
    assert plain.summary(0.99).as_dict() == r.summary().as_dict() | {
        "elapsed_seconds": plain.elapsed}
    for bad in (1.5, 0, "high", True):
        with pytest.raises(ValueError, match="confidence"):
            cuttle.simulate(10, confidence=bad, progress=False)
        with pytest.raises(ValueError, match="confidence"):
            r.summary(bad)


def test_a_comparison_is_summarised_at_any_level(three, tmp_path):
    c = three
    assert c.summary() is c and c.summary(0.95) is c
    c99 = c.summary(confidence=0.99)
    assert c99.confidence == 0.99 and c.confidence == 0.95       # (c is unchanged)
    assert all(r.confidence == 0.99 for r in c99) and c[1].confidence == 0.95
    d95, d99 = c.difference("draw_rate", 1), c99.difference("draw_rate", 1)
    assert d99.value == d95.value and d99.high - d99.low > d95.high - d95.low
    assert "99% interval" in str(c99) and c.as_dict(0.99) == c99.as_dict()
    buf = io.StringIO()
    c.to_csv(buf, confidence=0.99)
    row = next(csv.DictReader(io.StringIO(buf.getvalue())))
    assert float(row["low"]) == c99.estimate("win_rate_A", 0).low
    with pytest.raises(ValueError, match="confidence"):
        c.summary(confidence=1)
    with pytest.raises(ValueError, match="confidence"):
        c.as_dict(confidence=-0.5)
    # each rule set's result summarises at the comparison's level
    c90 = cuttle.compare(["classic", "quick"], 300, seed=2, confidence=0.9, progress=False)
    assert c90[1].confidence == 0.9 and "90% interval" in str(c90[1])
    pytest.importorskip("matplotlib")
    c.plot(tmp_path / "c.png", confidence=0.99)
    c[0].plot(tmp_path / "r.png", confidence=0.99)
    assert (tmp_path / "c.png").stat().st_size and (tmp_path / "r.png").stat().st_size


# -- 5. a comparison's rule sets are timed together ---------------------------------------------

def test_a_rule_set_of_a_comparison_says_whose_time_it_gives(three):
    c = three
    assert c.elapsed > 0 and all(r.elapsed == c.elapsed for r in c)
    assert all(r.elapsed_rule_sets == 3 for r in c)
    head = str(c[0]).splitlines()[0]
    assert f"({c.elapsed:.2f} s for the 3 rule sets' 9,000 games, " in head
    assert f"{9000 / c.elapsed:,.0f} games/s)" in head        # the comparison's speed
    assert c[0].as_dict()["elapsed_rule_sets"] == 3
    r = cuttle.simulate(1000, seed=3, progress=False)
    assert r.elapsed_rule_sets == 1 and r.as_dict()["elapsed_rule_sets"] == 1
    assert f"({r.elapsed:.2f} s, {1000 / r.elapsed:,.0f} games/s)" in str(r)
    # merged parts of a comparison stay a comparison's; a time of another run is dropped
    a = cuttle.compare(["classic", "quick"], 100, seed=5, progress=False)
    b = cuttle.compare(["classic", "quick"], 100, seed=5, start=100, progress=False)
    ab = a + b
    assert ab[0].elapsed_rule_sets == 2 and ab.elapsed == pytest.approx(a.elapsed + b.elapsed)
    alone = cuttle.simulate(100, seed=5, start=200, progress=False)
    assert (ab[0] + alone).elapsed is None and "games/s" not in str(ab[0] + alone)
    m = cuttle.compare(["classic", "quick"], 10, seed=1, match="best_of_3", progress=False)
    assert "s for the 2 rule sets' games)" in str(m[1]).splitlines()[0]


# -- 6. scores and Elo; the first-player advantage compared ---------------------------------

def _score_by_hand(scores, z=1.959963984540054):
    """A score's interval: the normal one of the per-game scores with a game scoring 0
    and one scoring 1 added, clipped to [0, 1]; the value the plain mean."""
    y = np.append(scores, [0.0, 1.0])
    half = z * y.std(ddof=1) / math.sqrt(len(y))
    return scores.mean(), max(0.0, y.mean() - half), min(1.0, y.mean() + half)


def test_a_players_score_and_elo_difference():
    from cuttle.stats import elo_from_score
    r = cuttle.simulate(3000, players=("expert", "greedy"), seed=6, progress=False,
                        keep_games=True)
    s = r.summary()
    score_a = np.where(r.winner == 0, 1.0, np.where(r.winner == 1, 0.0, 0.5))
    e = _score_by_hand(score_a)
    assert s.score("A") == pytest.approx(e) and r.score("A") == s.score("A")
    assert s.score("B") == pytest.approx(_score_by_hand(1 - score_a))
    assert s.elo_difference() == pytest.approx(tuple(elo_from_score(x) for x in e))
    assert s.elo_difference("A") == s.estimate("elo_difference") == r.elo_difference()
    a, b = s.elo_difference("A"), s.elo_difference("greedy")
    assert b == pytest.approx((-a.value, -a.high, -a.low))
    assert r.summary(0.99).score("A").low < s.score("A").low
    text = str(s)
    assert "A (expert) score" in text and "B (greedy) score" in text
    line = next(x for x in text.splitlines() if x.startswith("Elo of A over B"))
    assert f"{a.value:+.0f}" in line and f"[{a.low:+.0f}, {a.high:+.0f}]" in line
    d = s.as_dict()
    assert d["score"]["A"]["value"] == pytest.approx(s.score("A").value)
    assert d["elo_difference"]["low"] == pytest.approx(a.low)
    assert any(row.startswith("elo_difference,") for row in _csv_lines(s))


def test_one_player_in_fixed_seats_has_its_elo_named_the_seats_advantage():
    """`cuttle simulate --no-swap` with one policy in both seats printed "Elo of A over B
    +4 [+1, +8]": the first seat's edge, read as a strength.  It is named the seat's
    advantage there (text and HTML), and stays A's Elo over B where seats alternate or
    the players differ."""
    from cuttle.render.tables import SEAT_ELO, SEAT_ELO_NOTE
    fixed = cuttle.simulate(300, players=("expert", "expert"), seed=2, swap_seats=False,
                            progress=False).summary()
    text, page = str(fixed), fixed._repr_html_()
    e = fixed.elo_difference()
    line = next(x for x in text.splitlines() if x.startswith(SEAT_ELO))
    assert f"{e.value:+.0f}" in line and "Elo of A over B" not in text
    assert SEAT_ELO_NOTE in text.splitlines() and SEAT_ELO.replace("'", "&#x27;") in page
    for players, swap in ((("expert", "expert"), True), (("expert", "greedy"), False)):
        s = cuttle.simulate(300, players=players, seed=2, swap_seats=swap,
                            progress=False).summary()
        assert any(x.startswith("Elo of A over B") for x in str(s).splitlines())
        assert SEAT_ELO not in str(s) and SEAT_ELO_NOTE not in str(s)


def test_a_player_that_won_every_game_has_a_score_interval_of_some_width():
    """20 wins of 20: the score's interval was [100%, 100%] (a normal interval on no
    variance) beside the win rate's Wilson [83.9%, 100%]; now it is [86.55%, 100%], in the
    table, the JSON and the Elo's lower bound."""
    r = cuttle.simulate(20, players=("expert", "random"), seed=1, progress=False,
                        threads=1)
    s = r.summary()
    assert int(s.wins[1]) == 20                        # (A won them all)
    a, b = s.score("A"), s.score("B")
    assert a == pytest.approx(_score_by_hand(np.ones(20))) and a.value == a.high == 1
    assert s.win_rate("A").low < a.low < 1 and round(a.low, 4) == 0.8655
    assert b == pytest.approx((0, 0, 1 - a.low))
    elo = s.elo_difference()
    assert elo.value == elo.high == math.inf and math.isfinite(elo.low) and elo.low > 300
    line = next(x for x in str(s).splitlines() if x.startswith("A (expert) score"))
    assert "[86.55%, 100.00%]" in line
    assert s.as_dict()["score"]["A"]["low"] == pytest.approx(a.low)


def _csv_lines(summary):
    buf = io.StringIO()
    summary.to_csv(buf)
    return buf.getvalue().splitlines()


def test_elo_is_read_from_a_score_in_one_place():
    from cuttle.formatting import elo, interval
    from cuttle.stats import elo_from_score, elo_interval
    # docs/strength.md: 56.1% [54.0%, 58.3%] is +43 Elo [+28, +58]
    assert [round(elo_from_score(x)) for x in (0.561, 0.540, 0.583)] == [43, 28, 58]
    assert elo_from_score(0.5) == 0 and elo_from_score(0.64) == pytest.approx(100, abs=1)
    assert elo_from_score(0) == -math.inf and elo_from_score(1) == math.inf
    assert math.isnan(elo_from_score(math.nan))
    # every game won: the Elo is unbounded above, printed so, but the score's interval
    # has a width (a pseudo-game of 0 and one of 1), so its lower bound is finite
    e = elo_interval(10, 10, 10)
    assert e.value == e.high == math.inf and math.isfinite(e.low)
    assert interval(e, "elo").endswith(", +inf]")
    e = elo_interval(10, 9, 9)
    assert e.high == math.inf and math.isfinite(e.value)
    assert elo(e.value) == f"{e.value:+.0f}" and interval(e, "elo").endswith(", +inf]")
    assert elo(-math.inf) == "-inf" and elo(None) == "n/a"
    assert interval(Estimate(1.0, math.nan, 2.0), "elo") == ""


def _last_move(game):
    return game.legal_moves[-1]


def test_a_certain_result_and_a_lone_game_are_said_in_words():
    # A player that lost every game read "Elo of A over B  -inf  [-inf, -92]", and one
    # game's scores, Elo and means stood without an interval, neither said why.
    from cuttle.formatting import elo
    for players, sign in (((_last_move, "expert"), -1), (("expert", _last_move), 1)):
        s = cuttle.simulate(6, players=players, seed=1).summary()
        e = s.elo_difference()
        assert e.value == sign * math.inf                 # (the deals make it certain)
        lines = str(s).splitlines()
        assert "one game:" not in str(s)
        if sign < 0:
            assert (f"Elo -inf: A (_last_move) won none of 6 games and drew none (a score "
                    f"of 0%), so the Elo difference is unbounded below, at most "
                    f"{elo(e.high)} by its 95% interval") in lines
        else:
            assert (f"Elo +inf: A (expert) won all 6 games (a score of 100%), so the Elo "
                    f"difference is unbounded above, at least {elo(e.low)} by its 95% "
                    f"interval") in lines
    one = str(cuttle.simulate(1, players=(_last_move, "expert"), seed=1).summary())
    assert ("Elo -inf: A (_last_move) lost the one game (a score of 0%), so the Elo "
            "difference is unbounded below") in one.splitlines()
    assert ("one game: the scores, the Elo and the means have no interval (their normal "
            "intervals need at least two games)") in one.splitlines()
    summary = cuttle.simulate(20, players=("random", "greedy"), seed=1).summary()
    plain = str(summary)
    assert math.isfinite(summary.elo_difference().value)
    assert "Elo -inf" not in plain and "Elo +inf" not in plain and "one game" not in plain


def _edges(r):
    """Per game: +1 if the first mover won, -1 if the second did, 0 for a draw."""
    return np.where(r.winner < 0, 0, np.where(r.winner == r.first, 1, -1))


def test_compare_pairs_the_first_player_advantage_by_its_summary_name(three):
    c = three
    assert "first_player_advantage" in c.metrics
    for i in range(3):
        assert c.estimate("first_player_advantage", i) == \
            c[i].summary().first_player_advantage()
    # the exact moments of the per-game differences of the edge, from the 2x2 tables
    for i, j in ((1, 0), (0, 2), (2, 1)):
        d = _edges(c[i]).astype(np.int64) - _edges(c[j])
        pair, reverse = c._pair(i, j)
        assert pair.diff_moments("first_player_advantage", reverse) == (d.sum(), (d * d).sum())
        assert c.difference("first_player_advantage", i, j) == pytest.approx(
            paired_shift_interval(len(d), d.sum(), (d * d).sum(), 2.0))
    diff = c.difference("first_player_advantage", 1)
    assert diff.value == pytest.approx(
        c.estimate("first_player_advantage", 1).value
        - c.estimate("first_player_advantage", 0).value)
    assert c.difference("first_player_advantage", 1, 1).value == 0
    lines = str(c).splitlines()
    line = lines[lines.index("first-player advantage") + 2]
    assert f"{100 * diff.value:+.2f} pp" in line               # its row of the table
    assert c.as_dict()["rule_sets"][1]["difference_vs_baseline"][
        "first_player_advantage"]["value"] == pytest.approx(diff.value)


def test_a_match_run_compares_the_advantage_by_match():
    c = cuttle.compare(["classic", "cuttle.cards"], 300, players=("greedy", "expert"), seed=2,
                       match="best_of_3", progress=False)
    d = c.difference("first_player_advantage", 1)
    w, dr = c.difference("first_mover_win_rate", 1), c.difference("draw_rate", 1)
    assert d.value == pytest.approx(2 * w.value + dr.value)
    # (its parts' correlation is not tallied: their half-widths add)
    assert d.high - d.value == pytest.approx(2 * (w.high - w.value) + dr.high - dr.value)
    # a pair pickled before the match sums were tallied: the independent interval
    p = c.pairs[(0, 1)]
    old = cuttle.simulation.ComparisonResult(c.results, {(0, 1): PairTally(p.table, p.diffs)},
                                             c.labels)
    e = old.difference("first_player_advantage", 1)
    assert e.value == pytest.approx(d.value) and e.low < e.value < e.high
    assert json.dumps(c.as_dict())
    # the first player's score (wins plus half the draws) by match alike: half the edge
    s = c.difference("first_score", 1)
    assert s.value == pytest.approx(d.value / 2)
    assert s.high - s.value == pytest.approx(w.high - w.value + (dr.high - dr.value) / 2)
    e = old.difference("first_score", 1)
    assert e.value == pytest.approx(s.value) and e.low < e.value < e.high
