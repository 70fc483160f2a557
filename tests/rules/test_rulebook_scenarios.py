"""Rulebook scenario checks, written by a reader of the rulebook the project was given
(whose rules docs/rules.md carries in its own words) who had not seen the engine, through
the public API only: an independent check of the rules as written, beside the reference
engine's move-by-move one.  Each test cites the rulebook's section (§) it checks."""
import pytest

import cuttle
from support.rulebook import LM, S, pos


def kind(g, verb):
    return {m for m in LM(g) if m.split()[0] == verb}


def total_cards(g):
    n = len(g.deck) + len(g.scrap) + len(g.revealed) + len(g.stack)
    for p in (0, 1):
        n += len(g.hand(p)) + len(g.permanents(p)) + len(g.points(p))
        for c in g.points(p):
            n += len(g.jacks(c))
    return n

CC = "cuttle.cards"


# ---------------------------------------------------------------- §1 cards, §2 setup/turns

def test_deal_sizes_and_first_player():
    for seed in (1, 2, 3):
        g = cuttle.Game(seed=seed)
        assert len(g.hand(0)) == 5 and len(g.hand(1)) == 6 and len(g.deck) == 41
        assert g.turn == 0 and g.to_move == 0 and g.phase == "main"
        assert total_cards(g) == 52
    g = cuttle.Game(cuttle.Rules(joker=True), seed=1)
    assert len(g.deck) == 42 and total_cards(g) == 53


def test_ten_is_read_as_T():
    assert str(cuttle.Move.parse("points 10H")) == "points TH"


def test_draw_and_pass_legality():
    g = pos(hands=(["AS"], ["AH"]), deck=["5C"])
    assert "draw" in LM(g) and "pass" not in LM(g)
    with pytest.raises(cuttle.IllegalMoveError):
        g.play("pass")
    g.play("draw")
    assert S(g.hand(0)) == {"AS", "5C"} and g.turn == 1 and "5C" not in S(g.deck)
    g = pos(hands=(["AS"], ["AH"]), rest="scrap")
    assert "pass" in LM(g) and "draw" not in LM(g)
    with pytest.raises(cuttle.IllegalMoveError):
        g.play("draw")


def test_three_consecutive_passes_draw():
    g = pos(hands=(["AS"], ["AH"]), rest="scrap")
    g.play("pass"); g.play("pass")
    assert not g.is_over
    g.play("pass")
    assert g.is_over and g.winner is None and g.end_reason == "passes"


def test_other_move_breaks_pass_run():
    g = pos(hands=(["AS", "2S"], ["AH"]), rest="scrap")
    g.play("pass"); g.play("pass"); g.play("points AS")
    g.play("pass"); g.play("pass")
    assert not g.is_over
    g.play("pass")
    assert g.is_over and g.winner is None


def test_resolve_breaks_pass_run():
    # counters/resolves reset the count (§4b)
    g = pos(hands=(["6S", "AS"], ["AH"]), rest="scrap")
    g.play("pass"); g.play("pass")
    g.play("oneoff 6S"); g.play("resolve")
    assert g.turn == 1 and not g.is_over
    g.play("pass"); g.play("pass")
    assert not g.is_over
    g.play("pass")
    assert g.is_over and g.winner is None


def test_non_point_cards_cannot_be_points():
    g = pos(hands=(["JS", "QS", "KS", "8S", "TS"], []), deck=["5C"])
    p = kind(g, "points")
    assert p == {"points 8S", "points TS"}


# ---------------------------------------------------------------- §3 points and scuttles

def test_points_move():
    g = pos(hands=(["7S"], ["AH"]), deck=["5C"])
    g.play("points 7S")
    assert S(g.points(0)) == {"7S"} and g.score(0) == 7 and g.turn == 1 and g.phase == "main"


def test_scuttle_legality_rank_then_suit():
    g = pos(hands=(["9H", "7C", "JS", "QS", "KS"], []), points=([], ["9C", "9S"]),
            deck=["5C"])
    assert kind(g, "scuttle") == {"scuttle 9H 9C"}
    g = pos(hands=(["9H", "7C", "JS", "QS", "KS"], []), points=([], ["9C", "7D"]),
            deck=["5C"])
    assert kind(g, "scuttle") == {"scuttle 9H 9C", "scuttle 9H 7D"}


def test_cannot_scuttle_own_points():
    g = pos(hands=(["9H"], []), points=(["2C"], []), deck=["5C"])
    assert kind(g, "scuttle") == set()


def test_scuttle_result_scraps_jacks_no_counter_window():
    # 5D is P0's card stolen by P1 (one Jack): P1 controls it, P0 may scuttle it
    g = pos(hands=(["6C"], ["2H", "2S"]), points=([], ["5D[JC]"]), deck=["5C"])
    assert "scuttle 6C 5D" in LM(g)
    g.play("scuttle 6C 5D")
    assert {"6C", "5D", "JC"} <= S(g.scrap)
    assert g.points(1) == [] and g.points(0) == []
    assert g.phase == "main" and g.turn == 1 and g.to_move == 1


def test_queen_does_not_stop_scuttle_classic_and_cc():
    for r in ("classic", CC):
        g = pos(r, hands=(["6C"], []), points=([], ["5D"]), perms=([], ["QS", "QH"]),
                deck=["5C", "5H"])
        assert "scuttle 6C 5D" in LM(g)


def test_strict_scuttle():
    r = cuttle.Rules(strict_scuttle=True)
    g = pos(r, hands=(["9H", "TC"], []), points=([], ["9C"]), deck=["5C"])
    assert kind(g, "scuttle") == {"scuttle TC 9C"}


def test_queen_stops_scuttles():
    r = cuttle.Rules(queen_stops_scuttles=True)
    g = pos(r, hands=(["TC"], []), points=([], ["9C"]), perms=([], ["QS"]), deck=["5C"])
    assert kind(g, "scuttle") == set()
    g = pos(r, hands=(["TC"], []), points=([], ["9C"]), deck=["5C"])
    assert kind(g, "scuttle") == {"scuttle TC 9C"}


def test_ten_blocks_scuttle():
    r = cuttle.Rules(ten_blocks_scuttle=True)
    g = pos(r, hands=(["9H", "AC"], ["TS", "3C"]), points=([], ["9C[JC,JD]"]), deck=["5C"])
    g.play("scuttle 9H 9C")
    assert g.phase == "block" and g.to_move == 1
    assert LM(g) == {"block TS", "resolve"}
    g.play("block TS")
    assert {"9H", "TS"} <= S(g.scrap)
    assert S(g.points(1)) == {"9C"} and [str(j) for j in g.jacks("9C")] == ["JC", "JD"]
    assert g.turn == 1 and g.phase == "main"


def test_ten_blocks_scuttle_resolve_lets_scuttle_happen():
    r = cuttle.Rules(ten_blocks_scuttle=True)
    g = pos(r, hands=(["9H", "AC"], ["TS", "3C"]), points=([], ["9C"]), deck=["5C"])
    g.play("scuttle 9H 9C"); g.play("resolve")
    assert {"9H", "9C"} <= S(g.scrap) and g.points(1) == [] and "TS" in S(g.hand(1))
    assert g.turn == 1


# ---------------------------------------------------------------- §3 Kings, winning

def test_king_goals_classic_and_cc():
    for r, goals in (("classic", (21, 14, 10, 7, 5)), (CC, (21, 14, 10, 5, 0))):
        kings = ["KC", "KD", "KH", "KS"]
        for n in range(4):
            g = pos(r, perms=(kings[:n], []), hands=(["AS"], []), deck=["5C", "5D"])
            assert g.goal(0) == goals[n], (r, n)


def test_fourth_king_wins_at_once_cc_not_classic():
    g = pos(CC, perms=(["KC", "KD", "KH"], []), hands=(["KS"], ["AH"]), deck=["5C", "5D"])
    g.play("royal KS")
    assert g.is_over and g.winner == 0 and g.end_reason == "goal"
    g = pos(perms=(["KC", "KD", "KH"], []), hands=(["KS"], ["AH"]), deck=["5C", "5D"])
    g.play("royal KS")
    assert not g.is_over and g.goal(0) == 5


def test_king_lowers_goal_and_wins():
    g = pos(hands=(["KH"], ["AH"]), points=(["TC", "4C"], []), deck=["5C"])
    assert not g.is_over
    g.play("royal KH")
    assert g.winner == 0 and g.is_over


def test_points_win_exactly_at_goal():
    g = pos(hands=(["7S"], ["AH"]), points=(["TC", "4C"], []), deck=["5C"])
    g.play("points 7S")
    assert g.winner == 0
    g = pos(hands=(["6S"], ["AH"]), points=(["TC", "4C"], []), deck=["5C"])
    g.play("points 6S")
    assert not g.is_over


def test_position_at_goal_is_over_and_both_refused():
    g = pos(hands=(["7S"], ["AH"]), points=(["TC", "TD", "AC"], []), deck=["5C"])
    assert g.is_over and g.winner == 0
    with pytest.raises(ValueError):
        pos(points=(["TC", "TD", "AC"], ["TH", "TS", "AD"]), deck=["5C"])


def test_win_during_opponent_action_by_six():
    # P1 stole P0's 8H; P0 has 15 more. P1's 6 returns the 8H: P0 reaches 23 and wins.
    g = pos(hands=(["AS"], ["6S"]), points=(["TC", "5C"], ["8H[JC]"]), deck=["5D"],
            to_move=1)
    g.play("oneoff 6S"); g.play("resolve")
    assert g.is_over and g.winner == 0


def test_both_reach_goal_responder_resolve_wins_p1():
    # goals rising with Kings (any goal table is allowed): a 6 scraps both Kings and
    # both players reach 10 at once; the player who made the move wins.
    r = cuttle.Rules(king_goals=(10, 21, 21, 21, 21))
    g = pos(r, hands=(["6C"], ["AH"]), points=(["TC"], ["TD"]), perms=(["KS"], ["KD"]),
            deck=["5H"])
    assert not g.is_over
    g.play("oneoff 6C")
    g.play("resolve")  # P1's resolve is the move that lets the effect happen
    assert g.is_over and g.winner == 1


def test_both_reach_goal_responder_resolve_wins_p0():
    # mirror: P1 plays the 6 on its own turn, P0's resolve lets it happen, P0 wins.
    r = cuttle.Rules(king_goals=(10, 21, 21, 21, 21))
    g = pos(r, hands=(["AC"], ["6C"]), points=(["TC"], ["TD"]), perms=(["KS"], ["KD"]),
            deck=["5H"], to_move=1)
    g.play("oneoff 6C")
    g.play("resolve")
    assert g.is_over and g.winner == 0


def test_jack_steal_wins_immediately():
    g = pos(hands=(["JC"], ["AH"]), points=(["TC", "8C"], ["3D"]), deck=["5C"])
    g.play("jack JC 3D")
    assert g.is_over and g.winner == 0


# ---------------------------------------------------------------- §3 Queens

def test_classic_queen_protects_other_cards_not_queens():
    g = pos(hands=(["2C", "9H", "JC"], []), points=([], ["5D"]), perms=([], ["QS", "KD"]),
            deck=["5C"])
    o = kind(g, "oneoff")
    assert "oneoff 2C QS" in o and "oneoff 9H QS" in o
    assert "oneoff 2C KD" not in o and "oneoff 9H KD" not in o
    assert kind(g, "jack") == set()


def test_classic_two_queens_both_targetable():
    g = pos(hands=(["2C"], []), perms=([], ["QS", "QH", "KD"]), deck=["5C"])
    assert {m for m in kind(g, "oneoff") if m.startswith("oneoff 2C")} == {
        "oneoff 2C QS", "oneoff 2C QH"}


def test_cc_queens_protect_queens():
    g = pos(CC, hands=(["2C"], []), perms=([], ["QS", "KD"]), deck=["5C", "5D"])
    assert {m for m in kind(g, "oneoff") if m.startswith("oneoff 2C")} == {"oneoff 2C QS"}
    g = pos(CC, hands=(["2C", "9C"], []), perms=([], ["QS", "QH", "KD"]), points=([], ["5D"]),
            deck=["5C", "5H"])
    assert not any(m.startswith("oneoff 2C") or m.startswith("oneoff 9C") for m in LM(g))


def test_queens_protect_queens_flag_in_classic():
    r = cuttle.Rules(queens_protect_queens=True)
    g = pos(r, hands=(["2C"], []), perms=([], ["QS", "QH"]), deck=["5C"])
    assert not any(m.startswith("oneoff 2C") for m in LM(g))


def test_queen_protects_top_jack_of_its_side():
    # P1 controls 5D via JC (stolen from P0); P1's Queen protects that top Jack
    g = pos(hands=(["2C", "9H"], []), points=([], ["5D[JC]"]), perms=([], ["QS"]),
            deck=["5C"])
    assert "oneoff 2C JC" not in LM(g) and "oneoff 9H JC" not in LM(g)


def test_queen_no_protection_against_A_4_6():
    g = pos(hands=(["AC", "4C", "6C"], ["2H", "3H"]), points=([], ["5D"]),
            perms=([], ["QS", "KD"]), deck=["5C"])
    assert {"oneoff AC", "oneoff 4C", "oneoff 6C"} <= LM(g)


def test_no_counter_against_queen_controller():
    g = pos(hands=(["AC"], ["2H", "3H"]), perms=(["QS"], []), deck=["5C"])
    g.play("oneoff AC")
    assert g.phase == "counter" and g.to_move == 1 and LM(g) == {"resolve"}


def test_no_counter_of_counter_by_queen_controller():
    # P0 (no queen) plays a one-off, P1 (queen) counters; P0 cannot counter the counter
    g = pos(hands=(["AC", "2D"], ["2H", "3H"]), perms=([], ["QS"]), deck=["5C"])
    g.play("oneoff AC")
    assert "counter 2H" in LM(g)
    g.play("counter 2H")
    assert g.to_move == 0 and LM(g) == {"resolve"}


def test_own_queen_no_protection_from_own_2_classic():
    g = pos(hands=(["2C"], []), perms=(["QS", "KS"], []), deck=["5C"])
    assert {"oneoff 2C KS", "oneoff 2C QS"} <= LM(g)


def test_one_queen_each():
    r = cuttle.Rules(one_queen_each=True)
    g = pos(r, hands=(["QH"], []), perms=(["QS"], []), deck=["5C"])
    assert "royal QH" not in LM(g)
    g = pos(r, hands=(["QH"], []), perms=([], ["QS"]), deck=["5C"])
    assert "royal QH" in LM(g)


# ---------------------------------------------------------------- §3 glasses, Jacks

def test_glasses():
    g = pos(hands=(["8S"], ["AH"]), deck=["5C"])
    assert {"glasses 8S", "points 8S"} <= LM(g)
    assert not g.is_public_hand(1)
    g.play("glasses 8S")
    assert S(g.permanents(0)) == {"8S"} and g.score(0) == 0
    assert g.is_public_hand(1) and not g.is_public_hand(0)
    assert S(g.observation(0).opponent_known) == {"AH"} and g.observation(1).opponent_known == ()


def test_jack_steal_and_restack():
    g = pos(hands=(["JC"], ["JD"]), points=(["2C"], ["5D"]), deck=["5C", "5H"])
    assert kind(g, "jack") == {"jack JC 5D"}
    g.play("jack JC 5D")
    assert S(g.points(0)) == {"2C", "5D"} and g.score(0) == 7 and g.score(1) == 0
    assert [str(j) for j in g.jacks("5D")] == ["JC"]
    assert kind(g, "jack") == {"jack JD 2C", "jack JD 5D"}
    g.play("jack JD 5D")
    assert S(g.points(1)) == {"5D"} and [str(j) for j in g.jacks("5D")] == ["JC", "JD"]


def test_jack_no_target():
    g = pos(hands=(["JC"], []), points=(["2C"], []), deck=["5C"])
    assert kind(g, "jack") == set()


# ---------------------------------------------------------------- §4 counters

def test_counter_window_always_opens():
    g = pos(hands=(["AC"], ["3H"]), points=(["5C"], ["5D"]), deck=["5H"])
    g.play("oneoff AC")
    assert g.phase == "counter" and g.to_move == 1 and LM(g) == {"resolve"}
    assert S(g.stack) == {"AC"} and "AC" not in S(g.scrap)


def test_counter_moves_only_twos():
    g = pos(hands=(["AC"], ["2H", "2S", "3H", "AH"]), deck=["5H"])
    g.play("oneoff AC")
    assert LM(g) == {"resolve", "counter 2H", "counter 2S"}


def test_odd_counters_fizzle():
    g = pos(hands=(["AC", "3C"], ["2H", "3H"]), points=(["5C"], ["5D"]), deck=["5H"])
    g.play("oneoff AC"); g.play("counter 2H")
    assert g.to_move == 0
    g.play("resolve")
    assert {"AC", "2H"} <= S(g.scrap) and S(g.points(0)) == {"5C"} and S(g.points(1)) == {"5D"}
    assert g.turn == 1 and g.phase == "main" and g.stack == []


def test_even_counters_resolve():
    g = pos(hands=(["AC", "2C"], ["2H", "3H"]), points=(["5C"], ["5D"]), deck=["5H"])
    g.play("oneoff AC"); g.play("counter 2H"); g.play("counter 2C")
    assert g.to_move == 1
    g.play("resolve")
    assert {"AC", "2H", "2C", "5C", "5D"} <= S(g.scrap) and g.points(0) == [] and g.points(1) == []
    assert g.turn == 1


# ---------------------------------------------------------------- one-off effects

def test_ace_scraps_all_points_and_jacks_not_permanents():
    g = pos(hands=(["AC"], []), points=(["5C", "9D[JH]"], ["5D"]), perms=(["8S", "QD"], ["QS"]),
            deck=["5H"])
    g.play("oneoff AC"); g.play("resolve")
    assert g.points(0) == [] and g.points(1) == []
    assert {"AC", "5C", "9D", "JH", "5D"} <= S(g.scrap)
    assert S(g.permanents(0)) == {"8S", "QD"} and S(g.permanents(1)) == {"QS"}


def test_two_targets_classic_and_cc():
    g = pos(hands=(["2C"], []), points=(["5C[JH,JD]"], ["5D[JS]"]), perms=(["KS"], ["KD"]),
            deck=["5H"])
    t = {m for m in LM(g) if m.startswith("oneoff 2C")}
    assert t == {"oneoff 2C KS", "oneoff 2C KD", "oneoff 2C JD", "oneoff 2C JS"}
    g = pos(CC, hands=(["2C"], []), points=(["5C[JH,JD]"], ["5D[JS]"]), perms=(["KS"], ["KD"]),
            deck=["5H", "6H"])
    t = {m for m in LM(g) if m.startswith("oneoff 2C")}
    assert t == {"oneoff 2C KD", "oneoff 2C JS"}


def test_two_on_top_jack_flips_once():
    # P1 controls 5C[JH,JD]? build: 5C owned by P0, JH by P1 (P1 ctrl), JD by P0 (P0 ctrl).
    g = pos(hands=([], ["2C"]), points=(["5C[JH,JD]"], []), deck=["5H"], to_move=1)
    g.play("oneoff 2C JD"); g.play("resolve")
    assert S(g.points(1)) == {"5C"} and [str(j) for j in g.jacks("5C")] == ["JH"]
    assert "JD" in S(g.scrap)


def test_two_scraps_permanent():
    g = pos(hands=(["2C"], []), perms=([], ["KD"]), deck=["5H"])
    g.play("oneoff 2C KD"); g.play("resolve")
    assert g.permanents(1) == [] and {"2C", "KD"} <= S(g.scrap)


def test_three_classic_takes_any_card_not_itself():
    g = pos(hands=(["3C"], []), scrap=["3S", "KH"], deck=["5H"])
    g.play("oneoff 3C"); g.play("resolve")
    assert g.phase == "three" and g.to_move == 0
    assert LM(g) == {"take 3S", "take KH"}
    g.play("take KH")
    assert S(g.hand(0)) == {"KH"} and "3C" in S(g.scrap) and g.turn == 1


def test_three_cc_not_threes_and_legality():
    g = pos(CC, hands=(["3C"], []), scrap=["3S", "KH"], deck=["5H", "6H"])
    g.play("oneoff 3C"); g.play("resolve")
    assert LM(g) == {"take KH"}
    g = pos(CC, hands=(["3C", "AS"], []), scrap=["3S"], deck=["5H", "6H"])
    assert "oneoff 3C" not in LM(g)


def test_three_classic_empty_scrap_legal_does_nothing():
    g = pos(hands=(["3C", "AS"], []), deck=["5H"])
    assert "oneoff 3C" in LM(g)
    g.play("oneoff 3C"); g.play("resolve")
    assert g.phase == "main" and g.turn == 1 and S(g.scrap) == {"3C"}


def test_three_may_take_two_of_own_chain():
    g = pos(hands=(["3C", "2D"], ["2H"]), deck=["5H"])
    g.play("oneoff 3C"); g.play("counter 2H"); g.play("counter 2D"); g.play("resolve")
    assert g.phase == "three" and {"take 2H", "take 2D"} == LM(g)


def test_four_choice():
    g = pos(hands=(["4C"], ["AH", "5H", "KH"]), deck=["5D"])
    g.play("oneoff 4C"); g.play("resolve")
    assert g.phase == "four" and g.to_move == 1
    assert LM(g) == {"discard AH 5H", "discard AH KH", "discard 5H KH"}
    g.play("discard AH KH")
    assert S(g.hand(1)) == {"5H"} and {"AH", "KH", "4C"} <= S(g.scrap)
    assert g.turn == 1 and g.phase == "main" and g.to_move == 1


def test_four_victim_one_card():
    g = pos(hands=(["4C"], ["AH"]), deck=["5D"])
    g.play("oneoff 4C"); g.play("resolve")
    assert g.phase == "four" and LM(g) == {"discard AH"}
    g.play("discard AH")
    assert g.hand(1) == [] and g.turn == 1


def test_four_empty_hand_classic_legal_cc_illegal():
    g = pos(hands=(["4C", "AS"], []), deck=["5D"])
    assert "oneoff 4C" in LM(g)
    g.play("oneoff 4C"); g.play("resolve")
    assert g.turn == 1 and g.phase == "main"
    g = pos(CC, hands=(["4C", "AS"], []), deck=["5D", "6D"])
    assert "oneoff 4C" not in LM(g)


def test_four_not_protected_by_queen():
    g = pos(CC, hands=(["4C"], ["AH", "5H"]), perms=([], ["QS"]), deck=["5D", "6D"])
    assert "oneoff 4C" in LM(g)


def test_random_four():
    r = cuttle.Rules(four="random")
    g = pos(r, hands=(["4C"], ["AH", "5H", "KH"]), deck=["5D"])
    g.play("oneoff 4C"); g.play("resolve")
    assert g.phase == "main" and g.turn == 1 and len(g.hand(1)) == 1


def test_draw_four():
    r = cuttle.Rules(four="draw")
    g = pos(r, hands=(["4C"], ["AH"]), deck=["5D", "6D", "7D"])
    g.play("oneoff 4C"); g.play("resolve")
    assert S(g.hand(1)) == {"AH", "5D", "6D"} and g.turn == 1


def test_five_classic_draws_two():
    g = pos(hands=(["5C"], []), deck=["6D", "7D", "8D"])
    g.play("oneoff 5C"); g.play("resolve")
    assert S(g.hand(0)) == {"6D", "7D"} and g.turn == 1 and "5C" in S(g.scrap)


def test_five_classic_short_deck():
    g = pos(hands=(["5C"], []), deck=["6D"], rest="scrap")
    g.play("oneoff 5C"); g.play("resolve")
    assert S(g.hand(0)) == {"6D"} and g.deck == []


def test_five_cc_discard_then_draw_three():
    g = pos(CC, hands=(["5C", "AH", "KH"], []), deck=["6D", "7D", "8D", "9D"])
    g.play("oneoff 5C"); g.play("resolve")
    assert g.phase == "five" and g.to_move == 0 and LM(g) == {"discard AH", "discard KH"}
    g.play("discard KH")
    assert S(g.hand(0)) == {"AH", "6D", "7D", "8D"} and "KH" in S(g.scrap)
    assert g.turn == 1


def test_five_cc_empty_hand_just_draws_and_empty_deck_illegal():
    g = pos(CC, hands=(["5C"], []), deck=["6D", "7D", "8D", "9D"])
    g.play("oneoff 5C"); g.play("resolve")
    assert S(g.hand(0)) == {"6D", "7D", "8D"} and g.turn == 1
    g = pos(CC, hands=(["5C", "AH"], ["AS"]), rest="scrap")
    assert "oneoff 5C" not in LM(g)


def test_six():
    # 9D owned by P1, stolen by P0 (one Jack) -> returns to P1; 5C owned P0 with two Jacks
    g = pos(hands=(["6C"], ["AH"]), points=(["9D[JH]", "5C[JS,JD]"], []),
            perms=(["8S", "QD"], ["QS", "KS"]), deck=["5H"])
    assert S(g.points(0)) == {"9D", "5C"}
    g.play("oneoff 6C"); g.play("resolve")
    assert S(g.points(1)) == {"9D"} and S(g.points(0)) == {"5C"}
    assert g.permanents(0) == [] and g.permanents(1) == []
    assert {"JH", "JS", "JD", "KS", "8S", "QS", "QD", "6C"} <= S(g.scrap)
    assert g.jacks("9D") == [] and g.jacks("5C") == []


def test_seven_classic_plays_top_card():
    g = pos(hands=(["7C"], []), points=([], ["4D"]), deck=["5H", "KD"])
    g.play("oneoff 7C"); g.play("resolve")
    assert g.phase == "seven" and g.to_move == 0 and S(g.revealed) == {"5H"}
    lm = LM(g)
    assert {"points 5H", "scuttle 5H 4D", "oneoff 5H"} <= lm
    assert "draw" not in lm and "pass" not in lm
    g.play("points 5H")
    assert S(g.points(0)) == {"5H"} and "7C" in S(g.scrap) and g.turn == 1
    assert [str(c) for c in g.deck][:1] == ["KD"]


def test_seven_classic_jack_goes_on_own_card():
    g = pos(hands=(["7C"], []), points=(["4C"], []), deck=["JH", "KD"])
    g.play("oneoff 7C"); g.play("resolve")
    assert g.phase == "seven" and LM(g) == {"jack JH 4C"}
    g.play("jack JH 4C")
    assert S(g.points(1)) == {"4C"}


def test_seven_classic_jack_with_opp_target_must_use_it():
    g = pos(hands=(["7C"], []), points=(["4C"], ["3D"]), deck=["JH", "KD"])
    g.play("oneoff 7C"); g.play("resolve")
    assert LM(g) == {"jack JH 3D"}


def test_seven_classic_jack_no_points_scrapped():
    g = pos(hands=(["7C"], []), deck=["JH", "KD"])
    g.play("oneoff 7C"); g.play("resolve")
    assert "JH" in S(g.scrap) and g.turn == 1 and g.phase == "main"


def test_seven_classic_empty_deck_nothing():
    g = pos(hands=(["7C", "AS"], ["AH"]), rest="scrap")
    assert "oneoff 7C" in LM(g)
    g.play("oneoff 7C"); g.play("resolve")
    assert g.turn == 1 and g.phase == "main" and "7C" in S(g.scrap)


def test_seven_cc_top_two():
    g = pos(CC, hands=(["7C"], []), points=([], ["4D"]), deck=["5H", "KD", "9S"])
    g.play("oneoff 7C"); g.play("resolve")
    assert g.phase == "seven" and S(g.revealed) == {"5H", "KD"}
    lm = LM(g)
    assert {"points 5H", "scuttle 5H 4D", "oneoff 5H", "royal KD"} <= lm
    g.play("royal KD")
    assert [str(c) for c in g.deck][0] == "5H" and "KD" in S(g.permanents(0))
    assert g.turn == 1


def test_seven_cc_both_unplayable_jacks():
    g = pos(CC, hands=(["7C"], []), points=(["4C"], []), deck=["JH", "JS", "9S"])
    g.play("oneoff 7C"); g.play("resolve")
    assert g.phase == "seven" and LM(g) == {"discard JH", "discard JS"}
    g.play("discard JS")
    assert "JS" in S(g.scrap) and [str(c) for c in g.deck][0] == "JH" and g.turn == 1


def test_seven_cc_illegal_empty_deck():
    g = pos(CC, hands=(["7C", "AH"], ["AS"]), rest="scrap")
    assert "oneoff 7C" not in LM(g)


def test_seven_revealed_oneoff_opens_counter_window():
    g = pos(hands=(["7C"], ["2H"]), points=([], ["4D"]), deck=["AH", "KD"])
    g.play("oneoff 7C"); g.play("resolve"); g.play("oneoff AH")
    assert g.phase == "counter" and g.to_move == 1 and "counter 2H" in LM(g)
    assert "7C" in S(g.scrap)


def test_nine_classic_targets():
    g = pos(hands=(["9C"], []), points=(["5C"], ["5D[JS]"]), perms=(["KS"], ["KD"]),
            deck=["5H"])
    t = {m for m in LM(g) if m.startswith("oneoff 9C")}
    assert t == {"oneoff 9C KS", "oneoff 9C KD", "oneoff 9C JS"}


def test_nine_classic_returns_to_controller_no_freeze():
    g = pos(hands=(["9C"], ["AH"]), perms=([], ["KD"]), deck=["5H", "6H"])
    g.play("oneoff 9C KD"); g.play("resolve")
    assert S(g.hand(1)) == {"AH", "KD"} and g.permanents(1) == []
    assert g.turn == 1 and "royal KD" in LM(g) and g.frozen(1) == []


def test_nine_classic_top_jack_returns_card_flips():
    g = pos(hands=(["9C"], ["AH"]), points=([], ["5C[JS]"]), deck=["5H", "6H"])
    g.play("oneoff 9C JS"); g.play("resolve")
    assert S(g.points(0)) == {"5C"} and "JS" in S(g.hand(1))


def test_nine_cc_point_card_freeze():
    g = pos(CC, hands=(["9C", "AC"], ["AH"]), points=(["3C"], ["5D[JH,JS]", "6D"]),
            perms=([], ["KD"]), deck=["5H", "6H", "7H"])
    t = {m for m in LM(g) if m.startswith("oneoff 9C")}
    assert t == {"oneoff 9C 5D", "oneoff 9C 6D", "oneoff 9C KD", "oneoff 9C JS"}
    g.play("oneoff 9C 5D"); g.play("resolve")
    assert "5D" in S(g.hand(1)) and {"JH", "JS"} <= S(g.scrap)
    assert S(g.points(1)) == {"6D"} and S(g.points(0)) == {"3C"}
    assert g.turn == 1 and S(g.frozen(1)) == {"5D"}
    assert not any(m.split()[1:2] == ["5D"] for m in LM(g))
    g.play("draw")
    g.play("points AC")
    assert g.frozen(1) == [] and any(m.split()[1:2] == ["5D"] for m in LM(g))


def test_frozen_two_can_counter_but_not_be_played():
    g = pos(CC, hands=(["9C", "2C", "3C"], ["AH", "4H"]), points=([], ["2D"]),
            deck=["5H", "6H", "7H"])
    g.play("oneoff 9C 2D"); g.play("resolve")
    assert g.turn == 1 and S(g.frozen(1)) == {"2D"}
    assert not any(m.split()[1:2] == ["2D"] for m in LM(g))
    g.play("oneoff AH")
    g.play("counter 2C")
    assert g.to_move == 1 and "counter 2D" in LM(g)


def test_nine_topdeck():
    r = cuttle.Rules(nine="topdeck")
    g = pos(r, hands=(["9C"], ["AH"]), perms=([], ["KD"]), deck=["5H", "6H"])
    g.play("oneoff 9C KD"); g.play("resolve")
    assert [str(c) for c in g.deck][0] == "KD" and g.permanents(1) == [] and g.frozen(1) == []


# ---------------------------------------------------------------- hand limit

def test_hand_limit_cc_discard_at_end_of_turn():
    hand = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C"]
    g = pos(CC, hands=(hand, ["AH"]), deck=["9C", "TC"])
    g.play("draw")
    assert len(g.hand(0)) == 9 and g.phase == "discard" and g.to_move == 0 and g.turn == 0
    assert LM(g) == {"discard " + c for c in hand + ["9C"]}
    g.play("discard 9C")
    assert len(g.hand(0)) == 8 and g.turn == 1 and g.phase == "main"


def test_hand_limit_no_draw_mode():
    r = cuttle.Rules(hand_limit=8, hand_limit_mode="no_draw")
    hand = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C"]
    g = pos(r, hands=(hand, ["AH"]), deck=["9C", "TC"])
    assert "draw" not in LM(g)


def test_classic_no_hand_limit():
    hand = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C"]
    g = pos(hands=(hand, ["AH"]), deck=["9C", "TC"])
    g.play("draw")
    assert g.turn == 1 and len(g.hand(0)) == 9


# ---------------------------------------------------------------- hidden info

def test_reveal_on_empty_deck_cc():
    g = pos(CC, hands=(["AC"], ["AH"]), rest="scrap")
    assert g.is_public_hand(0) and g.is_public_hand(1)
    g = pos(hands=(["AC"], ["AH"]), rest="scrap")
    assert not g.is_public_hand(0) and not g.is_public_hand(1)


def test_open_hands():
    g = pos(cuttle.Rules(open_hands=True), hands=(["AC"], ["AH"]), deck=["5C"])
    assert g.is_public_hand(0) and g.is_public_hand(1)


# ---------------------------------------------------------------- variants

def test_eight_breaks_glasses():
    r = cuttle.Rules(eight_breaks_glasses=True)
    g = pos(r, hands=(["8C"], ["AH"]), perms=(["8H"], ["8D"]), deck=["5C"])
    assert "oneoff 8C 8D" in LM(g) and "oneoff 8C 8H" not in LM(g)
    g.play("oneoff 8C 8D"); g.play("resolve")
    assert {"8C", "8D"} <= S(g.scrap) and g.permanents(1) == []
    g = pos(r, hands=(["8C"], ["AH"]), perms=([], ["8D", "QS"]), deck=["5C"])
    assert "oneoff 8C 8D" not in LM(g)


def test_ten_discards():
    r = cuttle.Rules(ten_discards=True)
    g = pos(r, hands=(["TC"], ["AH", "KH"]), deck=["5C"])
    g.play("oneoff TC"); g.play("resolve")
    assert g.phase == "ten" and g.to_move == 1 and LM(g) == {"discard AH", "discard KH"}
    g.play("discard KH")
    assert S(g.hand(1)) == {"AH"} and g.turn == 1


def test_joker_swap():
    r = cuttle.Rules(joker=True)
    g = pos(r, hands=(["JK", "AC"], ["AH", "KH", "2S"]), deck=["5C"])
    assert {m for m in LM(g) if "JK" in m} == {"oneoff JK"}
    g.play("oneoff JK")
    assert "counter 2S" in LM(g)
    g.play("resolve")
    assert S(g.hand(0)) == {"AH", "KH", "2S"} and S(g.hand(1)) == {"AC"}


def test_quick_goal():
    g = pos("quick", hands=(["5S"], ["AH"]), points=(["TC"], []), deck=["5C"])
    assert g.goal(0) == 15
    g.play("points 5S")
    assert g.winner == 0


def test_sudden_death():
    r = cuttle.Rules(sudden_death=True)
    g = pos(r, hands=(["AC", "2C", "3C"], ["AH", "2H", "3H"]), deck=["5C"], rest="scrap")
    g.play("draw")  # deck empties during turn 1 (P0)
    g.play("points AH")  # turn 2, P1
    assert not g.is_over
    g.play("points AC")  # turn 3, P0 -> end of t+2
    assert g.is_over and g.winner is None and g.end_reason == "sudden_death"


# ---------------------------------------------------------------- edge cases: §4b timing, 7s, 9s, freezes, hand limits

def test_glasses_observation():
    g = pos(hands=(["8S", "AC"], ["AH", "KD"]), deck=["5C"])
    assert g.observation(0).opponent_known == ()
    g.play("glasses 8S")
    assert S(g.observation(0).opponent_known) == {"AH", "KD"}
    assert g.observation(1).opponent_known == ()
    # glasses scrapped by a 2 -> hand private again
    g.play("draw")
    assert not g.is_public_hand(0)


def test_glasses_removed_hand_private():
    g = pos(hands=(["AC"], ["2H", "KD"]), perms=(["8S"], []), deck=["5C", "6C"], to_move=1)
    assert g.is_public_hand(1)
    g.play("oneoff 2H 8S"); g.play("resolve")
    assert not g.is_public_hand(1)


def test_classic_seven_jack_opp_cards_all_queen_protected_goes_on_own():
    g = pos(hands=(["7C"], []), points=(["4C"], ["3D"]), perms=([], ["QS"]), deck=["JH", "KD"])
    g.play("oneoff 7C"); g.play("resolve")
    assert LM(g) == {"jack JH 4C"}


def test_classic_seven_forced_no_decline():
    g = pos(hands=(["7C"], []), deck=["5H", "KD"])
    g.play("oneoff 7C"); g.play("resolve")
    assert "resolve" not in LM(g) and not kind(g, "discard") and "draw" not in LM(g)
    assert LM(g) == {"points 5H", "oneoff 5H"}


def test_cc_seven_revealed_seven_last_card_not_oneoff():
    g = pos(CC, hands=(["7C"], ["AH"]), points=([], ["4D"]), deck=["7H"], rest="scrap")
    g.play("oneoff 7C"); g.play("resolve")
    assert S(g.revealed) == {"7H"}
    assert "oneoff 7H" not in LM(g) and "points 7H" in LM(g) and "scuttle 7H 4D" in LM(g)


def test_cc_seven_revealed_seven_with_other_card_is_oneoff():
    g = pos(CC, hands=(["7C"], ["AH"]), deck=["7H", "KD"], rest="scrap")
    g.play("oneoff 7C"); g.play("resolve")
    assert "oneoff 7H" in LM(g)


def test_cc_seven_revealed_five_last_card_is_oneoff():
    g = pos(CC, hands=(["7C"], ["AH"]), deck=["5H"], rest="scrap")
    g.play("oneoff 7C"); g.play("resolve")
    assert "oneoff 5H" in LM(g)


def test_cc_seven_single_card_revealed():
    g = pos(CC, hands=(["7C"], ["AH"]), deck=["5H"], rest="scrap")
    g.play("oneoff 7C"); g.play("resolve")
    assert S(g.revealed) == {"5H"} and g.deck == []


def test_cc_seven_jack_needs_opp_target():
    g = pos(CC, hands=(["7C"], []), points=(["4C"], ["3D"]), deck=["JH", "5S", "9S"])
    g.play("oneoff 7C"); g.play("resolve")
    assert "jack JH 3D" in LM(g) and "jack JH 4C" not in LM(g)


def test_cc_seven_jack_unplayable_other_playable():
    g = pos(CC, hands=(["7C"], []), points=(["4C"], []), deck=["JH", "5S", "9S"])
    g.play("oneoff 7C"); g.play("resolve")
    assert not any("JH" in m for m in LM(g))
    assert "points 5S" in LM(g)


def test_cc_seven_queen_protected_jack_only_unplayable():
    g = pos(CC, hands=(["7C"], []), points=([], ["4C"]), perms=([], ["QS"]), deck=["JH", "JS", "9S"])
    g.play("oneoff 7C"); g.play("resolve")
    assert LM(g) == {"discard JH", "discard JS"}


def test_two_own_jack_gives_card_back_and_win_for_opponent():
    # P1 stole P0's 9C; P0 has 14 more. P1 (classic) plays 2 on its own Jack: P0 wins.
    g = pos(hands=(["AS"], ["2H", "AH"]), points=(["TC", "4C"], ["9C[JD]"]), deck=["5D"], to_move=1)
    assert "oneoff 2H JD" in LM(g)
    g.play("oneoff 2H JD"); g.play("resolve")
    assert g.is_over and g.winner == 0


def test_cc_nine_cannot_target_own():
    g = pos(CC, hands=(["9C", "2C"], []), points=(["4C"], []), perms=(["KS"], []), deck=["5D", "6D"])
    assert not any(m.startswith("oneoff 9C") or m.startswith("oneoff 2C") for m in LM(g))


def test_cc_nine_stolen_point_goes_to_thief_hand():
    # P1 controls 5C (owner P0) via JD. P0's 9 on 5C -> P1's hand, jack scrapped
    g = pos(CC, hands=(["9C"], ["AH"]), points=([], ["5C[JD]"]), deck=["5D", "6D"])
    g.play("oneoff 9C 5C"); g.play("resolve")
    assert "5C" in S(g.hand(1)) and "JD" in S(g.scrap)


def test_cc_nine_top_jack_returns_and_frozen():
    g = pos(CC, hands=(["9C"], ["AH"]), points=([], ["5C[JD]"]), deck=["5D", "6D", "7D"])
    g.play("oneoff 9C JD"); g.play("resolve")
    assert "JD" in S(g.hand(1)) and S(g.points(0)) == {"5C"}
    assert S(g.frozen(1)) == {"JD"} and "jack JD 5C" not in LM(g)


def test_frozen_king_cannot_be_royal():
    g = pos(CC, hands=(["9C"], ["AH"]), perms=([], ["KD"]), deck=["5D", "6D", "7D"])
    g.play("oneoff 9C KD"); g.play("resolve")
    assert g.goal(1) == 21
    assert "royal KD" not in LM(g)


def test_frozen_card_can_be_discarded_hand_limit():
    hand = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H"]
    g = pos(CC, hands=(["9C", "AC"], hand), perms=([], ["KD"]), deck=["5D", "6D", "7D"])
    g.play("oneoff 9C KD"); g.play("resolve")
    assert len(g.hand(1)) == 9 and g.turn == 1
    g.play("points AH")
    # now 8 cards: no discard; instead draw to 9
    g2 = pos(CC, hands=(["9C", "AC"], hand), perms=([], ["KD"]), deck=["5D", "6D", "7D"])
    g2.play("oneoff 9C KD"); g2.play("resolve"); g2.play("draw")
    assert g2.phase == "discard" and "discard KD" in LM(g2)


def test_hand_limit_only_for_current_player():
    # cc 4 with draw four: victim goes above limit on opponent's turn; no discard then
    r = cuttle.Rules(CC, four="draw")
    hand = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H"]
    g = pos(r, hands=(["4C"], hand), deck=["5D", "6D", "7D"])
    g.play("oneoff 4C"); g.play("resolve")
    assert len(g.hand(1)) == 10 and g.turn == 1 and g.phase == "main"


def test_cc_five_then_hand_limit():
    hand = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H"]
    g = pos(CC, hands=(hand + ["5C"], ["AC"]), deck=["5D", "6D", "7D", "8D"])
    g.play("oneoff 5C"); g.play("resolve"); g.play("discard AH")
    assert len(g.hand(0)) == 10 and g.phase == "discard" and g.turn == 0
    g.play("discard 2H")
    assert g.phase == "discard"
    g.play("discard 3H")
    assert g.turn == 1 and len(g.hand(0)) == 8


def test_hand_limit_seven_variant():
    r = cuttle.Rules(hand_limit=7)
    hand = ["AH", "2H", "3H", "4H", "5H", "6H", "7H"]
    g = pos(r, hands=(hand, ["AC"]), deck=["5D"])
    g.play("draw")
    assert g.phase == "discard"


def test_four_two_cards_all():
    g = pos(hands=(["4C"], ["AH", "KH"]), deck=["5D"])
    g.play("oneoff 4C"); g.play("resolve")
    assert LM(g) == {"discard AH KH"}


def test_four_victim_used_cards_to_counter():
    # victim counters with its only 2, P0 counters back; 4 resolves against a 1-card hand
    g = pos(hands=(["4C", "2C"], ["2H", "AH"]), deck=["5D"])
    g.play("oneoff 4C"); g.play("counter 2H"); g.play("counter 2C"); g.play("resolve")
    assert g.phase == "four" and LM(g) == {"discard AH"}


def test_classic_five_empty_deck_legal():
    g = pos(hands=(["5C", "AS"], ["AH"]), rest="scrap")
    assert "oneoff 5C" in LM(g)
    g.play("oneoff 5C"); g.play("resolve")
    assert g.turn == 1 and S(g.hand(0)) == {"AS"}


def test_no_draw_mode_pass_when_stuck():
    r = cuttle.Rules(hand_limit=2, hand_limit_mode="no_draw")
    g = pos(r, hands=(["JC", "JD"], ["AH"]), deck=["5D"])
    assert LM(g) == {"pass"}


def test_queen_removed_protection_lifts():
    g = pos(hands=(["2C", "2D"], ["AH"]), perms=([], ["QS", "KD"]), deck=["5D", "6D"])
    assert "oneoff 2D KD" not in LM(g)
    g.play("oneoff 2C QS"); g.play("resolve")
    g.play("draw")
    assert "oneoff 2D KD" in LM(g)


def test_ace_scuttles_lower_suit_ace():
    g = pos(hands=(["AS"], []), points=([], ["AC"]), deck=["5D"])
    assert "scuttle AS AC" in LM(g)


def test_sudden_death_empty_deck_position():
    r = cuttle.Rules(sudden_death=True)
    g = pos(r, hands=(["AC", "2C"], ["AH", "2H"]), rest="scrap")
    g.play("points AC")
    assert not g.is_over
    g.play("points AH")
    assert g.is_over and g.winner is None


def test_sudden_death_win_first():
    # a win inside the countdown ends the game with a winner
    r = cuttle.Rules(sudden_death=True)
    g = pos(r, hands=(["AC", "2C"], ["AH", "TH"]), points=([], ["TD"]), deck=["5C"], rest="scrap")
    g.play("draw"); g.play("points AH")
    assert not g.is_over
    g2 = pos(r, hands=(["AC", "2C"], ["AH", "TH"]), points=([], ["TD", "AD"]), deck=["5C"],
             rest="scrap")
    g2.play("draw"); g2.play("points TH")
    assert g2.is_over and g2.winner == 1 and g2.end_reason == "goal"


def test_joker_counterable_and_ends_freeze():
    r = cuttle.Rules(CC, joker=True)
    g = pos(r, hands=(["9C", "AC"], ["JK", "AH"]), perms=([], ["KD"]), deck=["5D", "6D", "7D"])
    g.play("oneoff 9C KD"); g.play("resolve")
    assert S(g.frozen(1)) == {"KD"}
    g.play("oneoff JK"); g.play("resolve")
    assert "KD" in S(g.hand(0)) and g.frozen(0) == [] and g.frozen(1) == []


def test_eight_breaks_glasses_counterable():
    r = cuttle.Rules(eight_breaks_glasses=True)
    g = pos(r, hands=(["8C"], ["2H"]), perms=([], ["8D"]), deck=["5C"])
    g.play("oneoff 8C 8D")
    assert "counter 2H" in LM(g)


def test_ten_discards_strict_empty_hand():
    r = cuttle.Rules(CC, ten_discards=True)
    g = pos(r, hands=(["TC", "AS"], []), deck=["5C", "6C"])
    assert "oneoff TC" not in LM(g)


def test_draw_four_strict_empty_deck():
    r = cuttle.Rules(CC, four="draw")
    g = pos(r, hands=(["4C", "AS"], ["AH"]), rest="scrap")
    assert "oneoff 4C" not in LM(g)


def test_draw_four_short_deck():
    r = cuttle.Rules(four="draw")
    g = pos(r, hands=(["4C"], ["AH"]), deck=["5D"], rest="scrap")
    g.play("oneoff 4C"); g.play("resolve")
    assert S(g.hand(1)) == {"AH", "5D"}


def test_topdeck_point_card_and_jack():
    r = cuttle.Rules(nine="topdeck", nine_targets_points=True)
    g = pos(r, hands=(["9C", "9D"], ["AH"]), points=([], ["5C[JD]", "6H"]), deck=["5D", "6D"])
    g.play("oneoff 9C 6H"); g.play("resolve")
    assert str(g.deck[0]) == "6H"
    g = pos(r, hands=(["9C"], ["AH"]), points=([], ["5C[JD]"]), deck=["5D", "6D"])
    g.play("oneoff 9C JD"); g.play("resolve")
    assert str(g.deck[0]) == "JD" and S(g.points(0)) == {"5C"}
    g = pos(r, hands=(["9C"], ["AH"]), points=([], ["5C[JD]"]), deck=["5D", "6D"])
    g.play("oneoff 9C 5C"); g.play("resolve")
    assert str(g.deck[0]) == "5C" and "JD" in S(g.scrap)


def test_quick_with_kings():
    g = pos("quick", hands=(["KS"], []), deck=["5C"])
    assert [g.goal(0)] == [15]
    r = cuttle.Rules("quick")
    assert r.king_goals == (15, 14, 10, 7, 5)


def test_scuttle_by_revealed_seven_card():
    g = pos(hands=(["7C"], []), points=([], ["4D[JS]"]), deck=["5H", "KD"])
    g.play("oneoff 7C"); g.play("resolve"); g.play("scuttle 5H 4D")
    assert {"5H", "4D", "JS", "7C"} <= S(g.scrap)


def test_counter_the_seven_itself():
    g = pos(hands=(["7C"], ["2H"]), deck=["5H", "KD"])
    g.play("oneoff 7C"); g.play("counter 2H"); g.play("resolve")
    assert {"7C", "2H"} <= S(g.scrap) and str(g.deck[0]) == "5H" and g.turn == 1


def test_win_by_revealed_card():
    g = pos(hands=(["7C"], []), points=(["TC", "6C"], []), deck=["5H", "KD"])
    g.play("oneoff 7C"); g.play("resolve"); g.play("points 5H")
    assert g.winner == 0


def test_oneoff_two_on_jack_not_top():
    g = pos(hands=(["2C"], []), points=([], ["5C[JH,JD,JS]"]), deck=["5H"])
    t = {m for m in LM(g) if m.startswith("oneoff 2C")}
    assert t == {"oneoff 2C JS"}


def test_points_card_count_invariant():
    g = pos(CC, hands=(["7C", "2D"], ["2H"]), points=([], ["4D[JS]"]), deck=["AH", "KD", "3C"])
    g.play("oneoff 7C")
    assert total_cards(g) == 52
    g.play("counter 2H"); assert total_cards(g) == 52
    g.play("counter 2D"); assert total_cards(g) == 52
    g.play("resolve"); assert total_cards(g) == 52
    assert S(g.revealed) == {"AH", "KD"}


# ---------------------------------------------------------------- more edge cases: stacks, Queens, sudden death, strict one-offs

def test_deep_stack_two_on_top_jack():
    g = pos(hands=(["2C"], []), points=([], ["5C[JH,JD,JS]"]), deck=["5H"])
    g.play("oneoff 2C JS"); g.play("resolve")
    assert S(g.points(0)) == {"5C"} and [str(j) for j in g.jacks("5C")] == ["JH", "JD"]


def test_classic_nine_own_top_jack():
    g = pos(hands=(["9C"], ["AH"]), points=(["5D[JC]"], []), deck=["5H"])
    assert "oneoff 9C JC" in LM(g)
    g.play("oneoff 9C JC"); g.play("resolve")
    assert "JC" in S(g.hand(0)) and S(g.points(1)) == {"5D"}


def test_classic_seven_queen_unplayable_one_queen_each():
    r = cuttle.Rules(one_queen_each=True)
    g = pos(r, hands=(["7C"], ["AH"]), perms=(["QS"], []), deck=["QH", "5D"])
    g.play("oneoff 7C"); g.play("resolve")
    assert "QH" in S(g.scrap) and g.turn == 1 and g.phase == "main"


def test_cc_seven_single_unplayable_asks():
    g = pos(CC, hands=(["7C"], ["AH"]), deck=["JH"], rest="scrap")
    g.play("oneoff 7C"); g.play("resolve")
    assert g.phase == "seven" and LM(g) == {"discard JH"}
    g.play("discard JH")
    assert "JH" in S(g.scrap) and g.turn == 1


def test_cc_five_short_deck():
    g = pos(CC, hands=(["5C", "AH"], ["AS"]), deck=["6D", "7D"], rest="scrap")
    g.play("oneoff 5C"); g.play("resolve"); g.play("discard AH")
    assert S(g.hand(0)) == {"6D", "7D"} and g.deck == []


def test_cc_jack_blocked_by_queen():
    g = pos(CC, hands=(["JC"], []), points=([], ["5D"]), perms=([], ["QS"]), deck=["5H", "6H"])
    assert kind(g, "jack") == set()


def test_cc_nine_point_blocked_by_queen():
    g = pos(CC, hands=(["9C"], []), points=([], ["5D"]), perms=([], ["QS"]), deck=["5H", "6H"])
    assert {m for m in LM(g) if m.startswith("oneoff 9C")} == {"oneoff 9C QS"}


def test_classic_seven_own_jack_gives_opponent_win():
    g = pos(hands=(["7C"], ["AH"]), points=(["9C"], ["TD", "2D"]), perms=([], ["QS"]),
            deck=["JH", "5D"])
    g.play("oneoff 7C"); g.play("resolve")
    assert LM(g) == {"jack JH 9C"}
    g.play("jack JH 9C")
    assert g.is_over and g.winner == 1


def test_sudden_death_seven_reveals_last_cards():
    r = cuttle.Rules(CC, sudden_death=True)
    g = pos(r, hands=(["7C", "AC", "2C"], ["AH", "2H", "3H"]), deck=["5H", "KD"], rest="scrap")
    g.play("oneoff 7C"); g.play("resolve"); g.play("points 5H")
    assert len(g.deck) == 1  # KD back on top
    g.play("points AH")
    assert not g.is_over
    g.play("points AC")
    assert g.is_over and g.winner is None


def test_classic_freeze_variant():
    r = cuttle.Rules(nine="freeze")
    g = pos(r, hands=(["9C", "AC"], ["AH"]), perms=([], ["KD"]), deck=["5H", "6H", "7H"])
    g.play("oneoff 9C KD"); g.play("resolve")
    assert S(g.frozen(1)) == {"KD"} and "royal KD" not in LM(g)
    g.play("draw"); g.play("points AC")
    assert "royal KD" in LM(g)


def test_classic_freeze_own_target():
    r = cuttle.Rules(nine="freeze")
    g = pos(r, hands=(["9C", "AC"], ["AH", "AD"]), perms=(["KS"], []), deck=["5H", "6H", "7H"])
    g.play("oneoff 9C KS"); g.play("resolve")
    assert g.turn == 1
    g.play("points AH")
    assert S(g.frozen(0)) == {"KS"} and "royal KS" not in LM(g)


def test_passing_only_when_empty_and_draw_count():
    g = pos(CC, hands=(["AC"], ["AH"]), rest="scrap")
    assert LM(g) >= {"pass"}
    g.play("pass"); g.play("pass"); g.play("pass")
    assert g.is_over and g.winner is None


def test_jack_counter_window_none():
    g = pos(hands=(["JC"], ["2H"]), points=([], ["5D"]), deck=["5H"])
    g.play("jack JC 5D")
    assert g.phase == "main" and g.turn == 1


def test_royal_no_counter_window():
    g = pos(hands=(["KC"], ["2H"]), deck=["5H"])
    g.play("royal KC")
    assert g.phase == "main" and g.turn == 1


def test_cc_five_revealed_by_seven_last_card_draws_nothing():
    g = pos(CC, hands=(["7C", "AC"], ["AH"]), deck=["5H"], rest="scrap")
    g.play("oneoff 7C"); g.play("resolve"); g.play("oneoff 5H"); g.play("resolve")
    # discard 1 (if any) then draw min(3, 0)
    if g.phase == "five":
        g.play("discard AC")
    assert g.turn == 1 and g.deck == []


# ---------------------------------------------------------------- §6 what each player sees (observations)

def test_obs_three_pick_known():
    g = pos(hands=(["3C"], ["AH"]), scrap=["KH"], deck=["5H"])
    g.play("oneoff 3C"); g.play("resolve"); g.play("take KH")
    assert "KH" in S(g.observation(1).opponent_known)

def test_obs_nine_return_known():
    g = pos(CC, hands=(["9C"], ["AH"]), perms=([], ["KD"]), deck=["5H", "6H"])
    g.play("oneoff 9C KD"); g.play("resolve")
    assert "KD" in S(g.observation(0).opponent_known)

def test_obs_cc_seven_top_known_and_drawn():
    g = pos(CC, hands=(["7C"], ["AH"]), deck=["5H", "KD", "9S"])
    g.play("oneoff 7C"); g.play("resolve"); g.play("royal KD")
    assert "5H" in {str(c) for _, c in g.observation(1).deck_known} and "5H" in {str(c) for _, c in g.observation(0).deck_known}
    g.play("draw")
    assert "5H" in S(g.observation(0).opponent_known)

def test_obs_topdeck_known():
    r = cuttle.Rules(nine="topdeck")
    g = pos(r, hands=(["9C"], ["AH"]), perms=([], ["KD"]), deck=["5H", "6H"])
    g.play("oneoff 9C KD"); g.play("resolve")
    assert "KD" in {str(c) for _, c in g.observation(0).deck_known} and "KD" in {str(c) for _, c in g.observation(1).deck_known}

def test_obs_hidden_by_default():
    g = pos(hands=(["AC"], ["AH"]), deck=["5H"])
    o = g.observation(0)
    assert o.opponent_known == () and o.opponent_hand_size == 1 and o.deck_known == ()
    assert "AH" in S(o.unknown_cards)

def test_obs_four_discards_public():
    g = pos(hands=(["4C"], ["AH", "KH", "5H"]), deck=["5D"])
    g.play("oneoff 4C"); g.play("resolve"); g.play("discard AH KH")
    assert {"AH", "KH"} <= S(g.observation(0).scrap)


# ---------------------------------------------------------------- windows, turns, positions, and the rest

def test_block_window_always_opens():
    r = cuttle.Rules(ten_blocks_scuttle=True)
    g = pos(r, hands=(["9H"], ["3C"]), points=([], ["9C"]), deck=["5C"])
    g.play("scuttle 9H 9C")
    assert g.phase == "block" and LM(g) == {"resolve"} and S(g.stack) == {"9H"}

def test_turn_during_counter_and_four():
    g = pos(hands=(["4C"], ["AH", "KH", "5H"]), deck=["5D"])
    g.play("oneoff 4C")
    assert g.turn == 0 and g.to_move == 1
    g.play("resolve")
    assert g.turn == 0 and g.to_move == 1 and g.phase == "four"

@pytest.mark.parametrize("kw", [
    dict(points=(["JC"], [])), dict(points=(["KC"], [])), dict(permanents=(["5C"], [])),
    dict(permanents=(["JC"], [])), dict(points=(["5C[KD]"], [])), dict(hands=(["JK"], [])),
    dict(hands=(["5C", "5C"], [])), dict(hands=(["5C"], []), scrap=["5C"]),
])
def test_from_position_rejects(kw):
    with pytest.raises(ValueError):
        cuttle.Game.from_position(**kw)

def test_random_four_reproducible():
    r = cuttle.Rules(four="random")
    res = []
    for _ in range(2):
        g = pos(r, hands=(["4C"], ["AH", "5H", "KH", "9D", "3S"]), deck=["5D"], seed=7)
        g.play("oneoff 4C"); g.play("resolve")
        res.append(S(g.hand(1)))
    assert res[0] == res[1] and len(res[0]) == 3

def test_no_draw_pass_counts_for_three():
    r = cuttle.Rules(hand_limit=2, hand_limit_mode="no_draw")
    g = pos(r, hands=(["JC", "JD"], ["JH", "JS"]), deck=["5D"])
    g.play("pass"); g.play("pass"); g.play("pass")
    assert g.is_over and g.winner is None

def test_queen_protects_glasses_classic():
    g = pos(hands=(["2C", "9C"], []), perms=([], ["8D", "QS"]), deck=["5D"])
    assert "oneoff 2C 8D" not in LM(g) and "oneoff 9C 8D" not in LM(g)

def test_strict_scuttle_tens():
    r = cuttle.Rules(strict_scuttle=True)
    g = pos(r, hands=(["TS"], []), points=([], ["TC"]), deck=["5D"])
    assert kind(g, "scuttle") == set()

def test_cc_discard_after_pass_with_big_hand():
    hand = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"]
    g = pos(CC, hands=(hand, ["AC"]), rest="scrap")
    g.play("pass")
    assert g.phase == "discard" and g.turn == 0


# ---------------------------------------------------------------- §4b, where the rulebook
# disagrees with itself (rules-decisions 8, 18, 22)

def test_a_sevens_twos_reach_the_scrap_when_its_chain_ends():
    """§4b says a chain's 2s go to the scrap when it ends, and also that a 7's 2s wait
    with it until its revealed card is played; the project follows the first for every
    one-off (rules-decisions 22), so a revealed 3 under cuttle.cards may count a 2 of
    the 7's own chain as a card to take, and the 7 goes when the card is played."""
    g = cuttle.Game.from_position(CC, hands=(["7C", "2D"], ["2H"]), deck=["3H", "KD", "4C"],
                                  scrap=["3S"], seed=1)
    for m in ("oneoff 7C", "counter 2H", "counter 2D", "resolve"):
        g.play(m)
    assert [str(c) for c in g.stack] == ["7C"] and {"2D", "2H"} <= S(g.scrap)
    assert "oneoff 3H" in LM(g)
    g.play("oneoff 3H")
    assert [str(c) for c in g.stack] == ["3H"] and "7C" in S(g.scrap)
