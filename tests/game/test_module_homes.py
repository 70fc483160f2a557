"""Where the game's and the record's pieces live: a record's result (`cuttle.record_result`),
the check of a view of cards not seen (`cuttle.game.missing_view`, `check_view`, through
`cuttle.unseen.sees_dealt`), the legal moves' words (`cuttle.legal`) and the search
through every deal of a record's cards not seen (`cuttle.deal_search`) each have one
home, and every name stays importable where it was first (`cuttle.record.X`,
`cuttle.redeal.sees_dealt`, `cuttle.redeal.NoFit`, `cuttle.game.LegalMoves`) as the
same object."""

import pytest

import cuttle
import cuttle.deal_search
import cuttle.game
import cuttle.legal
import cuttle.record
import cuttle.record_result
import cuttle.redeal
import cuttle.unseen
from layout.test_layout import import_graph

RESULT_NAMES = ["RESIGNED", "STATUSES", "RecordResultWarning", "check_result", "ending",
                "ending_text", "result_mismatch", "result_of", "resigner", "stopped"]


@pytest.mark.parametrize("name", RESULT_NAMES)
def test_a_record_s_result_has_its_own_module_and_its_old_name(name):
    assert getattr(cuttle.record, name) is getattr(cuttle.record_result, name)
    assert name in cuttle.record.__all__ and name in cuttle.record_result.__all__
    home = getattr(cuttle.record_result, name)
    if callable(home):
        assert home.__module__ == "cuttle.record_result"


@pytest.mark.parametrize("name", ["missing_view", "check_view"])
def test_the_view_checks_live_beside_check_game(name):
    assert getattr(cuttle.record, name) is getattr(cuttle.game, name)
    assert getattr(cuttle.game, name).__module__ == "cuttle.game"
    assert cuttle.redeal.sees_dealt is cuttle.unseen.sees_dealt
    assert cuttle.unseen.sees_dealt.__module__ == "cuttle.unseen"


def test_the_legal_moves_have_their_own_module():
    assert cuttle.LegalMoves is cuttle.game.LegalMoves is cuttle.legal.LegalMoves
    g = cuttle.Game(seed=1)
    for text in ("points KS", "counter 2C", "take 3H"):
        with pytest.raises(cuttle.IllegalMoveError) as e:
            g.play(text)
        assert str(e.value) == cuttle.legal.why_illegal(g, cuttle.Move(text))
    assert cuttle.legal.as_move(g.legal_moves[1].code) == g.legal_moves[1]


@pytest.mark.parametrize("name", ["NoFit", "FitCutOff", "_fate", "_look", "_read_before",
                                  "_read_by"])
def test_the_search_through_every_deal_has_its_own_module(name):
    assert getattr(cuttle.redeal, name) is getattr(cuttle.deal_search, name)
    assert getattr(cuttle.deal_search, name).__module__ == "cuttle.deal_search"
    assert name in cuttle.redeal.__all__ or name.startswith("_")


def test_a_record_s_result_is_validated_by_its_own_module():
    rec = {"format": "cuttle-game-record", "version": 1, "rules": "classic", "seed": 1,
           "moves": [], "result": {"status": "over", "winner": "1"}}
    with pytest.raises(ValueError) as e:
        cuttle.record.validate_record(rec)
    with pytest.raises(ValueError) as f:
        cuttle.record_result.validate_result(rec)
    assert str(e.value) == str(f.value) and "winner" in str(e.value)


def test_layers():
    # The analysis asks the game about its views, not the records; the view check sits
    # below the game, and the records' results need no record.
    graph = import_graph()
    assert "cuttle.record" not in graph["cuttle.analysis"]
    assert "cuttle.game" not in graph["cuttle.unseen"]
    assert not {"cuttle.record", "cuttle.game"} & set(graph["cuttle.record_result"])
