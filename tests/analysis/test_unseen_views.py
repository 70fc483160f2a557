"""Analysing a game replayed from a record with cards not seen (`?`: a game played
elsewhere): the decider's view is analysed only where the record gives it whole, and
then alike whatever the deal of those cards; where it is the deal's (the opponent's
hand, a draw the deck does not list), `cuttle.analyse`, `cuttle.analyse_search` and
`judge` refuse it before any work, in the words `cuttle analyse --record` uses (one
check: `cuttle.record.check_view`)."""

import pickle

import pytest

import cuttle
from cuttle.record import final_game, game_before, missing_view, write_record
from game.test_unseen_record import MOVES, record
from cuttle.review import judge
from support.helpers import analyses, run_cli

REFUSED = ("move 12 is player 1's, whose view the record does not give whole: at the "
           "start player 1 sees 6 cards that the record does not give (in their own hand)")


@pytest.mark.parametrize("how", ["game_before", "copy", "pickle", "from the end"])
def test_the_opponent_s_decision_is_refused_by_every_analysis(how):
    g = game_before(record(), 12)
    if how == "copy":
        g = g.copy()
    elif how == "pickle":
        g = pickle.loads(pickle.dumps(g))
    elif how == "from the end":      # (the same position, reached by undoing)
        g = final_game(record())
        while g.ply > 11:
            g.undo()
    assert g.to_move == 1 and g.ply == 11
    for name, run in analyses(g).items():
        with pytest.raises(ValueError) as e:
            run()
        assert str(e.value).startswith(REFUSED), name


def test_the_python_refusal_is_the_command_line_s(monkeypatch, capsys, tmp_path):
    path = tmp_path / "ann.json"
    write_record(record(), path)
    with pytest.raises(ValueError) as e:
        cuttle.analyse(game_before(record(), 12), rollouts=8, seed=1)
    code, out, err = run_cli(monkeypatch, capsys, ["analyse", "--record", path, "--move",
                                                   12, "--rollouts", 8])
    assert code == 2 and out == ""
    assert f"{path}: {e.value}" in err


def test_the_record_s_player_is_analysed_alike_whatever_the_deal():
    a, b = (game_before(record(seed=s), 11) for s in (3, 4))
    assert a.to_move == 0 and a.hand(1) != b.hand(1)
    assert missing_view(a, 0) is None
    ra, rb = (cuttle.analyse(g, rollouts=64, seed=2, threads=1) for g in (a, b))
    assert [(str(r.move), r.rollouts, r.wins, r.draws) for r in ra.rows] == \
        [(str(r.move), r.rollouts, r.wins, r.draws) for r in rb.rows]
    played = MOVES[10]
    ja, jb = (judge(g, played, "rollouts:16", seed=3, threads=1) for g in (a, b))
    assert (ja.label, ja.played_score, ja.best_score, str(ja.best)) == \
        (jb.label, jb.played_score, jb.best_score, str(jb.best))
    sa = cuttle.analyse_search(a, "ismcts:50", seed=4, threads=1)
    assert len(sa.rows) == len(a.legal_moves)


def test_a_determinization_of_a_view_the_record_gives_is_a_game_of_its_own():
    # (a sample of ann's view: its cards are the sample's, not a record's)
    g = game_before(record(), 11).determinize(0, seed=5)
    assert g.dealt_unseen == frozenset()
    assert len(cuttle.analyse(g, rollouts=8, seed=1, threads=1).rows) == len(g.legal_moves)
