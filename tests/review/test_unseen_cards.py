"""The review of a record with cards not seen (`?`: a game played elsewhere): only the
players whose view the record gives are reviewed, and their review is the same whatever
the deal of the cards not seen (two seeds of the record deal them otherwise); a player
of the default two left out so is named in one line (`Review.unseen`); a Game
replayed from such a record is reviewed alike."""

import json

import pytest

import cuttle
from cuttle.record import final_game, game_before, start_game, write_record
from game.test_unseen_record import MOVES, SEEN, START, record
from support.helpers import run_cli


def figures(r):
    return [(d.ply, str(d.played), d.label, str(d.best), d.played_score, d.best_score,
             [(str(c.move), c.score, c.samples) for c in d.candidates]) for d in r.decisions]


def test_the_player_whose_view_the_record_gives_is_reviewed_whatever_the_deal():
    a, b = (record(seed=s) for s in (3, 4))
    assert start_game(a).hand(1) != start_game(b).hand(1)
    ra, rb = (cuttle.review(rec, "rollouts:16", seed=1, threads=1) for rec in (a, b))
    assert ra.players == rb.players == (0,)                 # (P1's cards are not given)
    assert [d.ply for d in ra.decisions] == list(range(0, len(MOVES), 2))   # ann's
    assert sum(d.best is not None for d in ra.decisions) > 4       # (valued, not forced)
    assert figures(ra) == figures(rb)
    assert figures(cuttle.review(a, "rollouts:16", player=0, seed=1, threads=1)) == \
        figures(ra)


@pytest.mark.parametrize("kw, said", [
    ({"player": 1}, "player 1 cannot be reviewed from this record, which does not give "
     "all they saw: at the start player 1 sees 6 cards that the record does not give (in "
     "their own hand)"),
    ({"omniscient": True}, "hindsight values each position with every card as it lies, "
     "and this record does not give every card (its position has cards not seen, '?')"),
])
def test_what_the_record_does_not_give_is_not_reviewed(kw, said):
    with pytest.raises(ValueError) as e:
        cuttle.review(record(), "rollouts:8", seed=1, threads=1, **kw)
    assert str(e.value).startswith(said)


def test_neither_player_is_reviewed_when_the_record_gives_neither_view():
    # ann's draw at move 13 is not listed in the deck: what she drew is the deal's
    rec = record(position="hands: 2D 3C 6C 6D 9D / ? ? ? ? ? ?; deck: ? 4C")
    with pytest.raises(ValueError, match=r"^neither player can be reviewed from this "
                                         r"record, which does not give all either saw: "
                                         r"after move 13 \('draw'\) player 0 sees a card"):
        cuttle.review(rec, "rollouts:8", seed=1, threads=1)


def test_a_game_replayed_from_the_record_is_reviewed_as_the_record_is():
    game = final_game(record())
    r = cuttle.review(game, "rollouts:8", seed=1, threads=1)
    assert r.players == (0,) and r.unseen == LEFT_OUT.replace(" (opponent)", "")
    assert figures(r) == figures(cuttle.review(record(), "rollouts:8", seed=1, threads=1))
    # a game up to move 12, its copy: player 1's view is not the record's either
    for g in (game_before(record(), 12), game.copy()):
        with pytest.raises(ValueError, match=r"^player 1 cannot be reviewed from this "
                                             r"record, which does not give all they saw"):
            cuttle.review(g, "rollouts:8", player=1, seed=1, threads=1)
    with pytest.raises(ValueError, match=r"^hindsight values each position"):
        cuttle.review(game, "rollouts:8", seed=1, threads=1, omniscient=True)
    # every card given: both reviewed, as before
    whole = cuttle.review(final_game(record(position=START)), "rollouts:8", seed=1,
                          threads=1)
    assert whole.players == (0, 1) and whole.unseen is None


def test_cuttle_review_of_a_record_with_cards_not_seen(monkeypatch, capsys, tmp_path):
    path = tmp_path / "ann.json"
    write_record(record(), path)
    code, out, err = run_cli(monkeypatch, capsys, ["review", path, "--engine", "rollouts:8",
                                                   "--seed", "1", "--threads", "1",
                                                   "--json", "-"])
    assert code == 0 and err == ""
    assert json.loads(out)["reviewed_players"] == [0]
    code, out, err = run_cli(monkeypatch, capsys, ["review", path, "--engine", "rollouts:8",
                                                   "--player", "1"])
    assert code == 2 and out == ""
    assert f"{path}: player 1 cannot be reviewed from this record" in err
    assert SEEN in path.read_text()                          # (the record, as it was)


LEFT_OUT = ("P1 (opponent) is not reviewed: this record does not show all they saw (cards "
            "not seen, '?').")


def test_the_review_says_which_player_it_leaves_out():
    r = cuttle.review(record(), "rollouts:8", seed=1, threads=1)
    assert r.players == (0,) and r.unseen == LEFT_OUT
    assert str(r).splitlines()[:2] == [r.headline, LEFT_OUT]
    assert f"**{r.headline}**\n\n{LEFT_OUT}\n\n" in r.markdown()
    assert r.as_dict()["unseen"] == LEFT_OUT
    page = r.page()
    assert f'<p class="review-unseen">{LEFT_OUT.replace(chr(39), "&#x27;")}</p>' in page
    assert page.index('class="review-unseen"') < page.index('class="replay"')
    # named as the review names them; asked for ann alone, or a record giving every card
    # (the same game): nobody is left out, and nothing is said
    named = cuttle.review(record(), "rollouts:8", seed=1, threads=1, names=["A", "B"])
    assert named.unseen == LEFT_OUT.replace("opponent", "B")
    whole = record(position=START)
    for quiet in (cuttle.review(record(), "rollouts:8", player=0, seed=1, threads=1),
                  cuttle.review(whole, "rollouts:8", player=0, seed=1, threads=1)):
        assert quiet.unseen is None and quiet.as_dict()["unseen"] is None
        assert "is not reviewed: this record" not in str(quiet) + quiet.markdown()
        assert 'class="review-unseen"' not in quiet.page()
        assert quiet.as_dict()["decisions"] == r.as_dict()["decisions"]
    assert cuttle.review(whole, "rollouts:8", seed=1, threads=1).unseen is None


def test_cuttle_review_says_it_too(monkeypatch, capsys, tmp_path):
    path = tmp_path / "ann.json"
    write_record(record(), path)
    code, out, err = run_cli(monkeypatch, capsys, ["review", path, "--engine", "rollouts:8",
                                                   "--seed", "1", "--threads", "1"])
    assert code == 0 and err == "" and out.splitlines()[1] == LEFT_OUT
    md = tmp_path / "r.md"
    code, out, err = run_cli(monkeypatch, capsys, ["review", path, "--engine", "rollouts:8",
                                                   "--seed", "1", "--threads", "1",
                                                   "--markdown", md])
    assert code == 0 and f"\n\n{LEFT_OUT}\n\n" in md.read_text()
