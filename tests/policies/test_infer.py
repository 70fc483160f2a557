"""The search's inference of the opponent's hidden hand (cuttle._infer, a setting of the
search: `_search_config(0, infer=1)`): the model of the opponent's play, and a search
that weighs its deals by it yet never reads a hidden card and stays reproducible."""

import pytest

import cuttle
from cuttle import _search
from cuttle._decide import move_likelihood
from cuttle.policies import Bot


@pytest.fixture
def inferring():
    """ismcts with the inference on, for one test."""
    before = _search._search_config(0)
    _search._search_config(0, infer=1)
    yield
    _search._search_config(0, **before)


def one_off_to_answer(answerer_hand):
    """Player 0 must answer player 1's Ace (which scraps its 20 points)."""
    g = cuttle.Game.from_position(hands=(answerer_hand, ["AS", "4D"]),
                                  points=(["TH", "TD"], ["5C"]), deck=["6C", "7C"],
                                  to_move=1, rest="deck", seed=1)
    g.play("oneoff AS")
    return g


def code(g, text):
    return next(m for m in g.legal_moves if str(m) == text).code


def test_a_non_counter_is_unlikely_with_a_two_in_hand():
    # A hand with a 2 would counter the Ace: letting it resolve is unlikely under the
    # model, so a deal holding a 2 is down-weighted once the opponent resolved.
    g = one_off_to_answer(["2H", "3C"])
    resolve, counter = code(g, "resolve"), code(g, "counter 2H")
    assert move_likelihood(g, resolve) < 0.15
    assert move_likelihood(g, counter) > 0.85
    assert move_likelihood(g, resolve) + move_likelihood(g, counter) == pytest.approx(1.0)
    # Without a 2 the resolve is forced: no evidence either way.
    g = one_off_to_answer(["3H", "3C"])
    assert move_likelihood(g, code(g, "resolve")) == 1.0


def games_alike_but_for_hidden_cards():
    """Two games whose public history and whose player 0's view are the same, while
    player 1's hidden cards differ (one holds a 2, the other a 5)."""
    out = []
    for hidden in ("2S", "5S"):
        out.append(cuttle.Game.from_position(
            hands=(["AH", "6D", "9C", "KD", "3H"], ["9S", "3S", "TC", hidden]),
            points=(["4H"], ["7H"]), rest="deck", seed=4))
    return out


@pytest.mark.parametrize("threads", [1, 2])
def test_what_the_search_saw_never_reveals_a_hidden_card(threads, inferring):
    # Player 1 plays the same public moves in both games (cards both hands hold);
    # player 0's searches weigh its deals by those decisions, and choose alike.
    a, b = games_alike_but_for_hidden_cards()
    assert a.hand(1) != b.hand(1)
    bots = [Bot("ismcts:150", seed=7, threads=threads) for _ in range(2)]
    for reply in ("points 9S", "points 3S", "points TC"):
        picks = [bots[k].choose(g) for k, g in enumerate((a, b))]
        assert picks[0] == picks[1]
        for g in (a, b):
            g.play(picks[0])
        if a.is_over or a.to_move != 1 or reply not in map(str, a.legal_moves):
            break
        for g in (a, b):
            g.play(reply)
        if a.is_over or a.to_move != 0:
            break


def test_a_game_of_inferring_searches_is_reproducible_whatever_the_threads(inferring):
    runs = [cuttle.simulate(6, players=("ismcts:80", "ismcts:80"), seed=12,
                            threads=threads, progress=False).summary()
            for threads in (1, 2, 1)]
    rates = [(s.win_rate(0).value, s.win_rate(1).value) for s in runs]
    assert rates[0] == rates[1] == rates[2]
