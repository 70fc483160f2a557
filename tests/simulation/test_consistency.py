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


# -- 3. units: `unit` as each class has it, `units` the plural on both ------------------------

def test_units_are_the_plural_everywhere(three):
    assert (three.unit, three.units) == ("games", "games")
    assert cuttle.Interrupted(None, 1, 9, "game").units == "games"
    assert cuttle.Interrupted(None, 1, 9, "match").units == "matches"
    assert cuttle.Interrupted(None, 1, 9, "match").unit == "match"     # (kept singular)
    m = cuttle.compare(["classic", "quick"], 20, seed=1, match="best_of_3", progress=False)
    assert (m.unit, m.units) == ("matches", "matches")
    assert ClusterError().units == "games"
