"""The native bots through cuttle.policies.Bot: legal to the end, immediate wins, counters,
seeded reproduction, policy names."""

import pytest

import cuttle
from cuttle.policies import Bot, policy_code


def winning_position():
    # P0 has 15 points and holds a 6: `points 6H` is the only move that wins at once.
    return cuttle.Game.from_position(
        hands=(["6H", "3C", "AD"], ["TS", "2S", "3S"]), points=(["9D", "6C"], ["7D"]),
        deck=["4C", "5C", "8C", "JC"], rest="deck", seed=2)


@pytest.mark.parametrize("name", ["random", "greedy", "expert", "ismcts:50",
                                  "ismcts-random:50"])
def test_bots_play_legal_moves_to_the_end(name):
    g = cuttle.Game(seed=4)
    bot = Bot(name, seed=1)
    while not g.is_over and len(g.moves) < 400:
        g.play(bot.choose(g))           # play() raises on an illegal move
    assert g.is_over


@pytest.mark.parametrize("name", ["greedy", "expert", "ismcts:200"])
def test_bots_take_an_immediate_win(name):
    g = winning_position()
    assert Bot(name, seed=1).choose(g) == "points 6H"


def test_greedy_counters_a_one_off_that_would_lose_the_game():
    # P1 plays an Ace that would scrap P0's 20 points; P0 holds a 2 and P1 has no Queen.
    g = cuttle.Game.from_position(hands=(["2H", "3C"], ["AS", "4D"]),
                                  points=(["TH", "TD"], ["5C"]), deck=["6C", "7C"],
                                  to_move=1, rest="deck", seed=1)
    g.play("oneoff AS")
    assert Bot("greedy", seed=1).choose(g) == "counter 2H"


def test_seeded_bots_reproduce():
    g = cuttle.Game(seed=8)
    assert Bot("ismcts:100", seed=3).choose(g) == Bot("ismcts:100", seed=3).choose(g)


@pytest.mark.parametrize("name", ["", "minimax", "ismcts:0", "ismcts:x", 3])
def test_bad_policy_names(name):
    with pytest.raises(ValueError):
        policy_code(name)
