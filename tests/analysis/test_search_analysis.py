"""Search analysis (cuttle.analyse_search, cuttle.analysis.SearchAnalysis): the review's
search engines valuing a position's moves: the review's figures, seeds and threads, the
decider's view only, errors, cancel and Ctrl-C."""

import json
import math

import pytest

import cuttle
from cuttle.analysis import SearchAnalysis
from cuttle.review import analyse_search, judge, parse_engine, search_engine
from support.helpers import bot_game, deal_of, played, redealt


def winning_position():
    # P0 has 15 points and holds a 6: `points 6H` is the only move that wins at once.
    return cuttle.Game.from_position(
        hands=(["6H", "3C", "AD"], ["TS", "2S", "3S"]), points=(["9D", "6C"], ["7D"]),
        deck=["4C", "5C", "8C", "JC"], rest="deck", seed=2)


def figures(a):
    return [(str(r.move), r.value, r.searches, r.loss, r.loss_low, r.loss_high, r.visits)
            for r in a.rows]


def test_it_is_cuttle_analyse_search_beside_cuttle_analyse():
    # (cuttle.review is the review function, which hides the package's names)
    assert cuttle.analyse_search is analyse_search
    assert "analyse_search" in cuttle.__all__
    a = cuttle.analyse_search(winning_position(), "ismcts:100", seed=1, threads=1)
    assert isinstance(a, SearchAnalysis) and str(a.best) == "points 6H"


def test_the_search_finds_the_immediate_win_and_says_what_its_figures_are():
    g = winning_position()
    a = analyse_search(g, "ismcts:300", seed=1, threads=1)
    assert isinstance(a, SearchAnalysis) and a.best == "points 6H"
    assert a["points 6H"].value == 1.0 and a["points 6H"].loss == 0
    assert a.most_visited == "points 6H" and a.visits_total == 300
    assert sum(r.visits for r in a.rows) == 300
    assert {str(r.move) for r in a.rows} == {str(m) for m in g.legal_moves}
    assert all(r.searches >= 2 for r in a.rows) and a.iterations == 300
    text = str(a)
    assert text.splitlines()[0].startswith("Player 0 to decide (main); ismcts:300 searches")
    assert "search results, not playout win rates" in text and "rollouts" not in text
    assert "points 6H" in text.splitlines()[2] and "best" in text.splitlines()[2]
    d = json.loads(json.dumps(a.as_dict()))
    assert d["kind"] == "search" and d["engine"] == "ismcts:300" and d["iterations"] == 300
    assert d["moves"][0]["move"] == "points 6H" and d["moves"][0]["value"] == 1.0
    assert d["most_visited"] == "points 6H" and d["played"] is None
    assert sum(m["visit_share"] for m in d["moves"]) == pytest.approx(1.0)
    assert "<table" in a._repr_html_()


@pytest.mark.parametrize("engine", ["ismcts:400", "ismcts-infer:400"])
def test_the_values_are_the_reviews_for_the_same_seed(engine):
    """With the move played given, the moves are valued exactly as `judge` values that
    decision: the same engine, budget and samples (one home of the machinery)."""
    g = bot_game(("expert", "greedy"), 8, plies=14)
    assert len(g.legal_moves) == 5
    for move in list(g.legal_moves)[:3]:
        a = analyse_search(g, engine, seed=9, threads=2, played=move)
        d = judge(g, move, engine, seed=9, threads=1)
        assert [(str(c.move), c.score, c.samples) for c in d.candidates] == \
            [(str(r.move), r.value, r.searches) for r in a.rows]
        assert a.best == d.best and a.played == move
        assert a[move].loss_low == pytest.approx(d.loss_low)
        assert a[move].loss_high == pytest.approx(d.loss_high)


def test_same_seed_same_analysis_whatever_the_threads_and_another_seed_differs():
    g = bot_game(("expert", "greedy"), 4, plies=9)
    a = analyse_search(g, "ismcts:300", seed=4, threads=1)
    b = analyse_search(g, "ismcts:300", seed=4, threads=2)
    assert figures(a) == figures(b) and str(a).splitlines()[:-1] == str(b).splitlines()[:-1]
    assert figures(analyse_search(g, "ismcts:300", seed=5, threads=2)) != figures(a)
    assert a.seed == 4 and a.without_seed().seed is None and "seed" not in \
        str(a.without_seed()).splitlines()[0]


@pytest.mark.parametrize("engine", ["ismcts:300", "ismcts-infer:300"])
def test_cards_the_decider_never_saw_change_nothing(engine):
    """The same moves from deals that differ only in cards the decider never saw up to
    the decision (the opponent's hand, the deck order): the same analysis, for the
    search that reads the opponent's past decisions too."""
    deal = deal_of(cuttle.Game(seed=21))
    g = played(deal, [])
    bots = (cuttle.Bot("expert", 21), cuttle.Bot("greedy", 22))
    while g.ply < 16:
        g.play(bots[g.to_move].choose(g))
    moves, differed = g.moves, 0
    for i in (6, 10, 16):
        a = played(deal, moves[:i])
        if len(a.legal_moves) == 1:
            continue
        b = played(redealt(deal, moves[:i], seed=i), moves[:i])
        opp = 1 - a.to_move
        differed += (a.hand(opp), a.deck) != (b.hand(opp), b.deck)
        assert figures(analyse_search(a, engine, seed=i, threads=2)) == \
            figures(analyse_search(b, engine, seed=i, threads=1))
    assert differed >= 2


def test_the_game_is_left_untouched():
    g = bot_game(("expert", "greedy"), 7, plies=6)
    before = g.copy()
    analyse_search(g, "ismcts-infer:200", seed=1)
    assert g == before


@pytest.mark.parametrize("call, error, words", [
    (lambda g: analyse_search(g, "expert"), ValueError, "takes a search engine"),
    (lambda g: analyse_search(g, "rollouts:10"), ValueError, "takes a search engine"),
    (lambda g: analyse_search(g, "mcts:10"), ValueError, "ismcts[:N] or ismcts-infer[:N]"),
    (lambda g: analyse_search(g, "ismcts:0"), ValueError, "bad count"),
    (lambda g: analyse_search(g, "ismcts:10", threads=0), ValueError, "threads"),
    (lambda g: analyse_search(g, "ismcts:10", seed=-1), ValueError, "seed"),
    (lambda g: analyse_search(g, "ismcts:10", played="royal KS"), cuttle.IllegalMoveError,
     "not a legal move here"),
    (lambda g: analyse_search(g, "ismcts:10", played="blah"), cuttle.InvalidMoveError, ""),
    (lambda g: analyse_search(g, "ismcts:10", decision=-1), ValueError,
     "decision must be at least 0, not -1"),
    (lambda g: analyse_search(g, "ismcts:10", decision=True), ValueError, "decision must be"),
    (lambda g: analyse_search("game", "ismcts:10"), ValueError, "must be a cuttle.Game"),
    (lambda g: analyse_search(g, 7), ValueError, "engine"),
])
def test_bad_input_is_refused_before_any_search(call, error, words):
    g = winning_position()
    with pytest.raises(error, match=None if not words else words.replace("[", r"\[")
                       .replace("]", r"\]")):
        call(g)


def test_a_finished_game_has_nothing_to_analyse():
    g = winning_position()
    g.play("points 6H")
    with pytest.raises(ValueError, match="the game is over"):
        analyse_search(g, "ismcts:10")


def test_search_engine_is_the_reviews_parser_for_searches():
    assert search_engine("ISMCTS") == parse_engine("ismcts:1000")
    assert search_engine(parse_engine("ismcts-infer:50")).name == "ismcts-infer:50"
    with pytest.raises(ValueError, match="takes a search engine"):
        search_engine(parse_engine("expert"))


def stop_after(k):
    """A cancel that says stop at its k-th check."""
    calls = [0]

    def cancel():
        calls[0] += 1
        return calls[0] >= k
    return cancel


def test_cancel_keeps_the_searches_finished():
    g = bot_game(("expert", "greedy"), 27, plies=14)
    assert len(g.legal_moves) == 12
    whole = analyse_search(g, "ismcts:200", seed=3, threads=1)
    # at once: not even the free search
    with pytest.raises(cuttle.Interrupted) as e:
        analyse_search(g, "ismcts:200", seed=3, cancel=stop_after(1))
    assert e.value.result is None and e.value.done == 0 and e.value.unit == "search"
    # after the free search: every move listed, none searched yet
    with pytest.raises(cuttle.Interrupted) as e:
        analyse_search(g, "ismcts:200", seed=3, cancel=stop_after(2))
    part = e.value.result
    assert e.value.done == 0 and part.total_searches == 0
    assert [r.visits for r in part.rows] == [whole[r.move].visits for r in part.rows]
    assert all(math.isnan(r.value) for r in part.rows)
    assert "not searched yet" in str(part)
    # after one native call: its searches, the first of the whole analysis's
    with pytest.raises(cuttle.Interrupted) as e:
        analyse_search(g, "ismcts:200", seed=3, threads=2, cancel=stop_after(3))
    part = e.value.result
    assert e.value.done == part.total_searches > 0
    assert str(e.value) == f"interrupted after {e.value.done} searches"
    done = [r for r in part.rows if r.searches]
    assert done and all(r.searches <= whole[r.move].searches for r in done)
    if all(whole[r.move].searches == r.searches for r in done):
        assert [r.value for r in done] == [whole[r.move].value for r in done]
