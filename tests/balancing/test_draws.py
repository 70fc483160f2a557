"""Draws in the balance designer.  The first player's score counts a draw as half a win,
so a rule set whose games are all draws scores 50%, the objective, without a game
decided: it is never ranked, and the report says when a score's nearness to 50% comes
from draws.  A search of a base whose rules can only draw warned once per rule set it
made (some 75 lines) and named the base, then an all-draws change, the fairest."""

import json
import warnings

import pytest

import cuttle
from cuttle.balancing.constraints import ALL_DRAWS, MOSTLY_DRAWS
from cuttle.cli import main
from cuttle.rules import DegenerateRulesWarning, Rules, held_degenerate

# Every game a draw: each hand is discarded whole at the end of its owner's turn.
DEGENERATE = "classic: hand_limit=0"
# Nobody draws and hands are kept: 70% draws under random self-play; its change
# hand_limit_mode=discard is the degenerate rule set above.
NO_DRAW = "classic: hand_limit_mode=no_draw, hand_limit=0"
FLAGS = "hand_limit_mode,joker,deal"
with held_degenerate():         # (the tests' own, unwarned)
    BASE = Rules.parse(DEGENERATE)
    DISCARD = Rules.parse(NO_DRAW).replace(hand_limit_mode="discard")


def degenerate_warnings(caught):
    return [str(w.message) for w in caught if issubclass(w.category, DegenerateRulesWarning)]


def search(base, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = cuttle.balance(base, "random", k=2, quick=True, progress=False, **kw)
    return res, degenerate_warnings(caught)


def test_held_degenerate_keeps_the_warnings_of_the_rule_sets_made_within_it():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with held_degenerate() as held:
            rules = Rules(hand_limit=0)
            joker = rules.replace(joker=True)
            Rules(hand_limit=7)
        assert not degenerate_warnings(caught)
        assert list(held) == [rules, joker]
        assert held[rules] == rules.degenerate()
        Rules(hand_limit=0)                         # outside it, warned as before
    assert len(degenerate_warnings(caught)) == 1


def test_a_degenerate_base_is_warned_of_once_and_nothing_is_ranked():
    res, said = search(DEGENERATE)
    # the base's warning, where it was read; none for each of its 74 changed rule sets
    assert said == [f"degenerate rules ({BASE}): {BASE.degenerate()}"]
    assert res.complete and res.winners == {} and res.best() is None and res.pareto == []
    base = res.best(0)
    assert base.measure.n and base.measure.draws == base.measure.n
    assert res.generation[1]["all_draws"] == res.generation[1]["space"]
    d = json.loads(json.dumps(res.as_dict()))
    assert d["winners"] == {} and d["base_games"]["screen"]["draws_caveat"] == ALL_DRAWS
    assert all(s["draws_caveat"] == ALL_DRAWS for s in d["singles"])
    text = str(res)
    assert "no rule set with changes won: 13 rule sets of the search decide no game" in text
    assert ("every game a draw: (base): a first score of 50% without a game decided, which "
            "says nothing of fairness") in text
    assert "(base): every game a draw" not in text and "base, all draws" in text
    assert "every game a draw: (base)" in res.markdown()


def test_an_all_draws_change_is_never_ranked_and_mostly_draws_are_noted():
    """On a base of 70% draws, the change to the degenerate rules (every game drawn)
    was the fairest of one change at 50.00%, and so was it with a deal among two."""
    res, said = search(NO_DRAW, flags=FLAGS)
    assert said == [f"degenerate rules ({DISCARD}) and 7 other rule sets of the search: "
                    f"{DISCARD.degenerate()}; a rule set whose games are all draws is not "
                    f"ranked"]
    assert res.winners and all(w.measure.draws < w.measure.n
                               for w in [*res.winners.values(), *res.pareto])
    assert not any("hand_limit_mode" in c.candidate.changes for c in res.candidates)
    assert [g["all_draws"] for _, g in sorted(res.generation.items())] == [1, 7]
    # most of every winner's games are draws: said, with how far from 50% it can lie
    d = json.loads(json.dumps(res.as_dict()))
    assert all(c["draws_caveat"] == MOSTLY_DRAWS for c in d["candidates"] if c["winner"])
    assert d["base_games"]["confirm"]["draws_caveat"] == MOSTLY_DRAWS
    w = res.best(1)
    share = w.estimate("draw_rate").value
    half = f"±{100 * (1 - share) / 2:.2f} pp"
    for out in (str(res), res.markdown()):
        assert f"{w.label} {100 * share:.2f}% ({half})" in out
        assert "its nearness to 50% says little of fairness" in out


def test_a_winner_whose_confirmation_drew_every_game_is_replaced(monkeypatch):
    """The race keeps no candidate that drew all its games; should a winner's
    confirmation draw all of them (here made so), the next standing candidate of its
    size is confirmed instead."""
    from cuttle.balancing import search as module
    real = module._Run._replay
    drawn = []

    def replay(self, stage, role, attr, cap, done, label=None, todo=None):
        real(self, stage, role, attr, cap, done, label, todo)
        if stage == "confirm" and not drawn:
            r = todo[0]
            drawn.append(r.label)
            counts = r.confirm.tally.counts        # every game a draw, as if degenerate
            counts[0] += counts[1] + counts[2]
            counts[1:] = 0
    monkeypatch.setattr(module._Run, "_replay", replay)
    res = cuttle.balance("classic", "random", k=1, flags="deal", deals=[(6, 6), (5, 5)],
                         progress=False, budget=dict(chunk_size=1000, screen_games=1000,
                                                     per_size=2, race_games=1000,
                                                     confirm_games=1000))
    raced = {c.label: c for c in res.candidates}
    assert len(raced) == 2 and drawn and raced[drawn[0]].confirm.n == 1000
    assert not raced[drawn[0]].winner and raced[drawn[0]] not in res.pareto
    other = next(c for label, c in raced.items() if label != drawn[0])
    assert res.winners == {1: other} and other.confirm.n == 1000


def test_the_command_says_a_degenerate_base_once(capsys):
    code = main(["balance", "--quick", "--base", DEGENERATE, "-k", "2", "--policy", "random",
                 "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 0
    assert err.splitlines() == [f"cuttle balance: warning: degenerate rules ({BASE}): "
                                f"{BASE.degenerate()}"]
    assert "no rule set with changes won" in out and "every game a draw: (base)" in out


@pytest.mark.parametrize("base", ["classic", "cuttle.cards"])
def test_a_search_of_a_base_that_decides_games_says_nothing_of_draws(base):
    """The expert's presets draw 2% of their games: no caveat, no column of all-draws
    rule sets, no warning."""
    res, said = search(base, flags="joker,deal", budget=dict(per_size=1))
    assert said == [] and res.winners
    out = str(res)
    assert "all draws" not in out and "mostly draws" not in out
    assert "every game a draw" not in out
