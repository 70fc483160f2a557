"""Games played in Python (a callable player): a policy's every fault is a PolicyError
that keeps the finished games, and each seat draws from a stream of its own."""

import random
import re

import numpy as np
import pytest

import cuttle
from cuttle.errors import IllegalMoveError
from cuttle.seeding import derive, seat_seed

FIELDS = ("winner", "first", "moves", "turns", "scores", "end")


def same_games(r1, r2):
    return all(np.array_equal(getattr(r1, k), getattr(r2, k)) for k in FIELDS)


class GoesWrong:
    """A seeded random policy that goes wrong at its `n`-th call, as `how` says:
    "illegal" (a move no position allows), "pass" (a move of another phase), "code" (an
    int that is no legal move's code), "none" (no move), "changes" (plays a move on the
    game it was given, then returns a legal one); never with `n` = 0."""

    def __init__(self, n, how):
        self.n, self.how, self.calls = n, how, 0

    def __call__(self, game, rng):
        self.calls += 1
        move = rng.choice(list(game.legal_moves))
        if self.calls != self.n:
            return move
        if self.how == "changes":
            game.play(move)
            return game.legal_moves[0]
        return {"illegal": "scuttle AS 2C", "pass": "pass", "code": 65535,
                "none": None}[self.how]


FAULTS = {"illegal": (IllegalMoveError, r"chose an illegal move: illegal move"),
          "pass": (IllegalMoveError, r"chose an illegal move: illegal move 'pass'"),
          "code": (ValueError, r"chose an illegal move: .*65535 was read as a Move\.code"),
          "none": (IllegalMoveError, r"returned no move"),
          "changes": (RuntimeError, r"changed the game it was given; look ahead on "
                                    r"game\.copy\(\)")}


@pytest.mark.parametrize("how", sorted(FAULTS))
def test_a_policy_at_fault_keeps_the_games_before_it(tmp_path, how):
    """A policy that returned an illegal move or none, or changed its game, ended the
    run with a bare IllegalMoveError or RuntimeError, without `.result` or `.done`: every
    finished game was lost.  Now it is a PolicyError, as when a policy raises: the
    fault in its message and as its cause, naming the game and the player, carrying
    the games before it (and the games CSV their rows)."""
    path = tmp_path / "games.csv"
    with pytest.raises(cuttle.PolicyError) as info:
        cuttle.simulate(300, players=("greedy", GoesWrong(700, how)), seed=3,
                        progress=False, games_csv=str(path))
    e = info.value
    cause, says = FAULTS[how]
    assert isinstance(e.__cause__, cause) and e.player == "B"
    assert re.match(rf"the policy of player B in game {e.game}, deciding move \d+, {says}",
                    str(e)), str(e)
    assert 0 < e.done == e.game < 300 and e.total == 300 and e.unit == "game"
    with open(path) as f:
        assert sum(1 for _ in f) == e.done + 1
    whole = cuttle.simulate(e.done, players=("greedy", GoesWrong(0, how)), seed=3,
                            progress=False)
    assert e.result.tally == whole.tally


def test_a_policy_passing_where_it_may_only_draw_keeps_the_finished_games():
    """A policy passing where it may only draw, from its 501st call (74 finished games
    were lost)."""
    calls = [0]

    def pol(game, rng):
        calls[0] += 1
        if calls[0] > 500:
            return "pass" if "draw" in game.legal_moves else "draw"
        return rng.choice(game.legal_moves)

    with pytest.raises(cuttle.PolicyError) as info:
        cuttle.simulate(200, players=(pol, "greedy"), seed=1, threads=1, progress=False)
    e = info.value
    assert e.player == "A" and e.done == e.game > 0 and e.result.n_games == e.done
    assert isinstance(e.__cause__, IllegalMoveError) and "'pass'" in str(e)


def test_a_policy_at_fault_in_a_comparison_or_a_match_run_keeps_its_units():
    with pytest.raises(cuttle.PolicyError) as info:
        cuttle.compare(["classic", "cuttle.cards"], 100, players=(GoesWrong(900, "none"),
                                                                 "random"),
                       seed=5, progress=False)
    e = info.value
    assert e.player == "A" and 0 < e.done <= e.game and e.result.n_games == e.done
    assert type(e.result).__name__ == "ComparisonResult"
    with pytest.raises(cuttle.PolicyError) as info:
        cuttle.simulate(40, players=(GoesWrong(300, "illegal"), "greedy"),
                        match="best_of_3", seed=5, progress=False)
    assert info.value.unit == "match" and 0 < info.value.done < 40
    assert isinstance(info.value.__cause__, IllegalMoveError)


def first_legal(game, rng):
    return game.legal_moves[0]


def first_legal_drawing(game, rng):
    rng.random()                    # the same moves, one more number drawn each time
    return game.legal_moves[0]


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_the_opponent_does_not_depend_on_the_numbers_a_policy_draws(opponent):
    """Both seats drew from one rng, so a native opponent's play depended on how many
    numbers the Python policy drew: two policies making the same moves, one drawing an
    extra number, played other games against "random" (11 of 200 alike).  Each seat
    has its own stream now."""
    a = cuttle.simulate(200, players=(first_legal, opponent), seed=1, keep_games=True,
                        progress=False)
    b = cuttle.simulate(200, players=(first_legal_drawing, opponent), seed=1,
                        keep_games=True, progress=False)
    assert same_games(a, b)
    c = cuttle.compare(["classic", "cuttle.cards"], 60, players=(opponent, first_legal),
                       seed=2, keep_games=True, progress=False)
    d = cuttle.compare(["classic", "cuttle.cards"], 60,
                       players=(opponent, first_legal_drawing), seed=2, keep_games=True,
                       progress=False)
    assert all(same_games(x, y) for x, y in zip(c.results, d.results))


@pytest.mark.parametrize("index", [0, 1, 6])
def test_each_seat_draws_from_its_seat_seed(index):
    """The rng a player is handed in game i is random.Random(seat_seed(seed, i, seat)),
    for either seat (A sits in seat 1 in odd games): no longer the game's one rng."""
    seen = {}

    def record(name):
        def policy(game, rng):
            seen.setdefault(name, (game.to_move, rng.getrandbits(64)))
            return game.legal_moves[0]
        return policy

    cuttle.simulate(1, players=(record("A"), record("B")), seed=9, start=index,
                    progress=False)
    assert {seen["A"][0], seen["B"][0]} == {0, 1}
    for seat, first_draw in seen.values():
        assert random.Random(seat_seed(9, index, seat)).getrandbits(64) == first_draw
        assert random.Random(derive(9, 2 * index + 1)).getrandbits(64) != first_draw


def test_seat_seeds_are_the_games_players_stream_split_by_seat():
    seeds = {seat_seed(4, i, s) for i in range(50) for s in (0, 1)}
    assert len(seeds) == 100
    assert seat_seed(4, 3, 1) == derive(derive(4, 7), 1)
    with pytest.raises(ValueError, match=r"index must be an int from 0 to 2\*\*62-1"):
        seat_seed(4, 2 ** 62, 0)
