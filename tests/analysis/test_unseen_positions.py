"""Analysing a position typed with cards not seen (`?`, not a record): the game read from
it knows the cards its seed dealt for them (`Game.dealt_unseen`, `dealt_from`
"position"), and every analysis refuses the decision of a player who sees one of them in
the position (their own hand's `?`), as it refuses a record's, in words that name the
position and say what to do; the other player's decisions, and a game played on from
the position, are analysed as before."""

import pickle
import random

import pytest

import cuttle
from cuttle.game import check_view, missing_view
from cuttle.review import judge
from support.helpers import analyses, run_cli

POS = "hands: 2C 9H 4D / ? ? ? ? ?; points: TH / 5S; permanents: KC / -; seed: 3"
LISTED = {"2C", "9H", "4D", "TH", "5S", "KC"}
GAP = ("in the position player 1 sees 5 cards that the position does not give (in their "
       "own hand): the seed dealt them for its cards not seen ('?'), and another seed "
       "deals others")
REFUSED = (f"player 1 is to decide in this position, which does not give their view "
           f"whole: {GAP}; to analyse this decision, write the cards player 1 sees in "
           f"place of the position's '?', or analyse player 0's (to_move: 0) instead")


def test_a_game_from_a_position_with_cards_not_seen_knows_the_cards_dealt():
    g = cuttle.Game.from_text(POS)
    assert g.dealt_from == "position"
    assert g.dealt_unseen == frozenset(cuttle.CARDS[:52]) - LISTED      # (46: the seed's)
    assert set(g.hand(1)) <= g.dealt_unseen and set(g.deck) == g.dealt_unseen - set(g.hand(1))
    h = cuttle.Game.from_position(hands=(["2C", "?"], ["?", "AS"]), seed=5)
    assert h.dealt_from == "position" and len(h.dealt_unseen) == 52 - 2
    deck = cuttle.Game.from_text("hands: 2C / 3D; deck: ? 7H; seed: 2")
    assert deck.dealt_from == "position" and "7H" not in deck.dealt_unseen
    for plain in (cuttle.Game.from_text("hands: 2C 9H / 4H; seed: 3"), cuttle.Game(seed=3),
                  cuttle.Game.from_position(hands=(["2C"], ["3D"]), seed=3)):
        assert plain.dealt_unseen == frozenset() and plain.dealt_from is None
    for kept in (g.copy(), pickle.loads(pickle.dumps(g))):
        assert (kept.dealt_unseen, kept.dealt_from) == (g.dealt_unseen, "position")
    fn, args = g.__reduce__()
    assert args[-1] == "position" and fn(*args) == g
    with pytest.raises(ValueError, match=r"^corrupt pickled game: what held its '\?' is "
                                         r"'record' or 'position', not 'elsewhere'$"):
        fn(*args[:-1], "elsewhere")


@pytest.mark.parametrize("how", ["from_text", "copy", "pickle", "from_position"])
def test_the_decision_of_the_player_whose_hand_is_not_seen_is_refused(how):
    g = cuttle.Game.from_text(POS + "; to_move: 1")
    if how == "copy":
        g = g.copy()
    elif how == "pickle":
        g = pickle.loads(pickle.dumps(g))
    elif how == "from_position":
        g = cuttle.Game.from_position(hands=(["2C", "9H", "4D"], ["?"] * 5),
                                      points=(["TH"], ["5S"]), permanents=(["KC"], []),
                                      to_move=1, seed=3)
    assert missing_view(g, 1) == GAP and missing_view(g, 0) is None
    for name, run in analyses(g).items():
        with pytest.raises(ValueError) as e:
            run()
        assert str(e.value) == REFUSED, name


def test_the_other_player_s_decision_is_analysed():
    g = cuttle.Game.from_text(POS)
    assert check_view(g) is g
    a = cuttle.analyse(g, rollouts=8, seed=1, threads=1)
    assert len(a.rows) == len(g.legal_moves)
    assert judge(g, g.legal_moves[0], "rollouts:8", seed=1, threads=1).played == \
        g.legal_moves[0]


def test_a_player_who_sees_the_other_s_hand_not_seen_is_refused_too():
    # P0's glasses-8 shows P1's hand, which the seed dealt: neither view is the
    # position's, and the refusal offers no other player's
    g = cuttle.Game.from_text("rules: classic; hands: 2C 9H 4D / ? ? ? ? ?; "
                              "permanents: 8C / -; seed: 3")
    assert missing_view(g, 0).startswith("in the position player 0 sees 5 cards that the "
                                         "position does not give (in player 1's hand)")
    with pytest.raises(ValueError) as e:
        cuttle.analyse(g, rollouts=8, seed=1, threads=1)
    assert str(e.value).endswith("write the cards player 0 sees in place of the "
                                 "position's '?'")


def test_a_game_played_on_from_the_position_is_its_own_after_it():
    # P0's draws bring it cards the seed dealt; they are that game's, as a position's
    # shuffled deck always was: P0 stays analysed, P1 stays refused (its hand was dealt)
    g = cuttle.Game.from_text(POS + "; rules: cuttle.cards")
    rng = random.Random(4)
    drawn = 0
    while not g.is_over and g.ply < 12:
        p = g.to_move
        if p == 0:
            assert check_view(g) is g and missing_view(g, 0) is None
        else:
            with pytest.raises(ValueError) as e:
                check_view(g)
            assert str(e.value) == (
                f"move {g.ply + 1} from the position is player 1's, which does not give "
                f"their view whole: {GAP}; to analyse this decision, write the cards "
                f"player 1 sees in place of the position's '?', or analyse player 0's "
                f"instead")
        move = "draw" if p == 0 and "draw" in g.legal_moves else \
            rng.choice(list(g.legal_moves))
        drawn += str(move) == "draw" and p == 0
        g.play(move)
    assert drawn >= 3


def test_cards_not_seen_in_the_deck_alone_leave_every_view_the_position_s():
    g = cuttle.Game.from_text("hands: 2C 9H / 4H 8D; deck: ? 7H ? 9C; seed: 3")
    assert g.dealt_unseen
    for _ in range(6):
        assert missing_view(g, 0) is None and missing_view(g, 1) is None
        g.play("draw")


def test_cuttle_analyse_refuses_it_before_any_playout_in_the_library_s_words(
        monkeypatch, capsys):
    code, out, err = run_cli(monkeypatch, capsys, ["analyse", POS, "--player", 1,
                                                   "--rollouts", 8])
    assert code == 2 and out == ""
    assert REFUSED in err
    code, out, err = run_cli(monkeypatch, capsys, ["analyse", POS, "--player", 1,
                                                   "--engine", "ismcts:10"])
    assert code == 2 and REFUSED in err and "valuing" not in err
    code, out, _ = run_cli(monkeypatch, capsys, ["analyse", POS, "--rollouts", 8])
    assert code == 0 and "Best:" in out


def test_the_review_of_a_game_from_the_position_leaves_that_player_out():
    g = cuttle.Game.from_text(POS + "; rules: cuttle.cards")
    for move in ("draw", "draw", "draw", "draw"):
        g.play(move)
    r = cuttle.review(g, "rollouts:8", seed=1, threads=1)
    assert r.players == (0,)
    assert r.unseen == ("P1 is not reviewed: this position does not show all "
                        "they saw (cards not seen, '?').")
    with pytest.raises(ValueError) as e:
        cuttle.review(g, "rollouts:8", player=1, seed=1, threads=1)
    assert str(e.value) == ("player 1 cannot be reviewed from this position, which does "
                            f"not give all they saw: {GAP}")
    with pytest.raises(ValueError) as e:
        cuttle.review(g, "rollouts:8", omniscient=True, seed=1, threads=1)
    assert str(e.value) == ("hindsight values each position with every card as it lies, "
                            "and this position does not give every card (it has cards "
                            "not seen, '?')")


# ---------------------------------------------------------------------------------------
# The mark is kept: a determinization, the position's text, an undo's re-deal; a bot
# plays such a game on as any

def test_a_determinization_of_a_view_the_seed_dealt_keeps_the_mark():
    g = cuttle.Game.from_text(POS + "; to_move: 1")
    d = g.determinize(1, seed=5)
    assert d.hand(1) == g.hand(1) and d.dealt_from == "position"
    assert set(d.hand(1)) <= d.dealt_unseen and set(d.hand(0)) <= d.dealt_unseen
    for sample in (d, d.copy(), pickle.loads(pickle.dumps(d))):
        with pytest.raises(ValueError) as e:
            cuttle.analyse(sample, rollouts=8, seed=1, threads=1)
        # (player 0's hand is the sample's too: no other view is offered)
        assert str(e.value) == (f"player 1 is to decide in this position, which does not "
                                f"give their view whole: {GAP}; to analyse this decision, "
                                f"write the cards player 1 sees in place of the position's "
                                f"'?'")
    # a sample of a view the position gives is a game of its own, as any game's sample
    mine = cuttle.Game.from_text(POS).determinize(0, seed=5)
    assert mine.dealt_unseen == frozenset() and mine.dealt_from is None
    assert check_view(mine) is mine


def test_a_determinization_of_a_view_a_record_does_not_give_keeps_the_mark():
    from cuttle.record import game_before
    from game.test_unseen_record import record
    g = game_before(record(), 12)                   # the opponent's move 12
    d = g.determinize(1, seed=5)
    assert d.dealt_from == "record" and set(d.hand(1)) & d.dealt_unseen
    assert not d.dealt_unseen & {c for m in g.moves for c in m.cards}   # (given by them)
    with pytest.raises(ValueError, match=r"^move 1 is player 1's, whose view the record "
                                         r"does not give whole: at the start player 1 "
                                         r"sees \d+ cards? that the record does not give "
                                         r"\(in their own hand"):
        check_view(d)


def test_position_text_writes_the_cards_dealt_or_asked_the_cards_not_seen():
    g = cuttle.Game.from_text(POS)
    full = g.position_text()
    assert "?" not in full
    typed = cuttle.Game.from_text(full, seed=3)        # the cards given: a game of its own
    assert typed == g and typed.dealt_unseen == frozenset()
    text = g.position_text(unseen=True)
    assert text == ("rules: classic; hands: 2C 4D 9H / ? ? ? ? ?; points: TH / 5S; "
                    "permanents: KC / -; scrap: -; deck: -; to_move: 0")
    back = cuttle.Game.from_text(text, seed=3)
    assert back == g and (back.dealt_unseen, back.dealt_from) == (g.dealt_unseen, "position")
    deck = cuttle.Game.from_text("hands: 2C 9H / ? ?; deck: ? 7H ? 9C; seed: 3")
    assert deck.position_text(unseen=True, rules=False) == (
        "hands: 2C 9H / ? ?; points: - / -; permanents: - / -; scrap: -; "
        "deck: ? 7H ? 9C; to_move: 0")
    deck.play("draw")               # (a card drawn from the dealt ones: the text's '?')
    assert "hands: 2C 9H ? / ? ?" in deck.position_text(unseen=True)
    # a game without cards not seen is written as it always was
    plain = cuttle.Game(seed=3)
    assert plain.position_text(unseen=True) == plain.position_text()


def test_a_record_written_of_a_game_replayed_from_one_keeps_its_cards_not_seen():
    from cuttle.record import final_game, make_record
    from game.test_unseen_record import SEEN, record
    end = final_game(record())
    rec = make_record(end, players=["ann", "opponent"], human_seat=0)
    assert rec["position"] == "rules: cuttle.cards; " + \
        SEEN.replace("; deck", "; points: - / -; permanents: - / -; scrap: -; deck") + \
        "; to_move: 0"
    again = final_game(rec)
    assert again == end and again.dealt_from == "record"
    # a game played from a position with '?' is recorded with its cards (that game's)
    g = cuttle.Game.from_text(POS + "; rules: cuttle.cards")
    start = g.position_text()
    g.play("draw")
    rec = make_record(g, players=["a", "b"])
    assert rec["position"] == start and "?" not in start
    assert final_game(rec) == g and final_game(rec).dealt_unseen == frozenset()


def test_an_undo_s_new_deal_keeps_the_mark():
    from cuttle.redeal import Sightings
    g = cuttle.Game.from_text(POS + "; rules: cuttle.cards")
    seen = Sightings(g, 0, 7)
    g.play("draw")                                  # (P0 sees the card it drew)
    g.play(g.legal_moves[0])
    back, redealt = seen.take_back(g, 0)
    assert redealt is not None and redealt.hand     # (P1's hand dealt again)
    assert (back.dealt_unseen, back.dealt_from) == (g.dealt_unseen, "position")
    assert back.ply == 0 and back.hand(1) != cuttle.Game.from_text(POS).hand(1)
    assert missing_view(back, 1).startswith("in the position player 1 sees 5 cards that "
                                            "the position does not give (in their own hand)")
    assert missing_view(back, 0) is None


def test_a_bot_plays_a_hand_the_seed_dealt_as_any_hand():
    # (continuing the game is play, not analysis: the same move as from the cards given)
    g = cuttle.Game.from_text(POS + "; to_move: 1")
    given = cuttle.Game.from_text(g.position_text())
    assert given.dealt_unseen == frozenset()
    for name in ("greedy", "expert", "ismcts:50"):
        assert cuttle.Bot(name, seed=2).choose(g) == cuttle.Bot(name, seed=2).choose(given)


def test_cuttle_analyse_json_writes_the_position_with_its_cards_not_seen(monkeypatch,
                                                                         capsys):
    import json
    code, out, _ = run_cli(monkeypatch, capsys, ["analyse", POS, "--rollouts", 8,
                                                 "--json"])
    assert code == 0
    d = json.loads(out)
    assert d["position"] == cuttle.Game.from_text(POS).position_text(unseen=True)
    assert "/ ? ? ? ? ?" in d["position"]
