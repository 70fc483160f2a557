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


@pytest.mark.parametrize("name", ["minimax", "ismcts:0", "ismcts:x", "ismcts-infer:"])
def test_a_refused_name_says_what_a_bare_search_means(name):
    with pytest.raises(ValueError, match=r"'ismcts' is 'ismcts:1000'"):
        policy_code(name)


def test_a_callable_where_a_policy_name_goes_says_where_callables_play():
    """Bot(f) said only that a policy is a name, not where f would play."""
    def mine(game):
        return game.legal_moves[0]
    where = ("cuttle.simulate, cuttle.compare, cuttle.compare_players, "
             "cuttle.simulation.game_record and cuttle.rl.GymEnv(opponent=...)")
    with pytest.raises(ValueError, match="Bot plays a native policy by its name") as info:
        Bot(mine)
    assert str(info.value).endswith(f"is a player as it is (call it on a game) and plays "
                                    f"in {where}")
    with pytest.raises(ValueError) as info:
        policy_code(mine)
    assert str(info.value).endswith(f"(a Python callable plays in {where})")
    with pytest.raises(ValueError) as info:
        policy_code(3)
    assert "callable" not in str(info.value)
    # ... and where it says so, it does play
    assert cuttle.compare_players([mine, "random"], 4, "greedy", seed=1).n_games == 4


def test_a_policy_has_one_full_name():
    from cuttle.policies import canonical_policy, policy_name
    assert [canonical_policy(x) for x in ("ismcts", "ISMCTS:0100", " Expert ",
                                          "ismcts-infer")] == [
        "ismcts:1000", "ismcts:100", "expert", "ismcts-infer:1000"]
    assert policy_code("ismcts") == policy_code("ismcts:1000")
    assert policy_name("ismcts") == "ismcts"         # (as given: results files' keys)
    with pytest.raises(ValueError, match="unknown policy"):
        canonical_policy("minimax")


def test_a_bots_repr_shows_what_was_given():
    import pickle
    assert repr(Bot("ismcts:200", seed=1, threads=2)) == "Bot('ismcts:200', seed=1, threads=2)"
    assert repr(Bot("greedy")) == "Bot('greedy')"
    assert repr(Bot("Expert", seed=7)) == "Bot('expert', seed=7)"
    assert repr(Bot("ismcts", threads=1)) == "Bot('ismcts:1000', threads=1)"
    for bot in (Bot("greedy"), Bot("ismcts:50", seed=3, threads=2)):
        assert repr(pickle.loads(pickle.dumps(bot))) == repr(bot)
