"""Rule scenario tests: turn flow, counters, scuttles, winning, passes, hand limit,
frozen cards, sudden death and positions that are already decided.

Written from ``docs/rules.md``, the API reference (``docs/reference/``) and
``docs/rules-decisions.md``.
"""
import pytest

import cuttle

from support.scenario import CLASSIC, CC, BOTH, srt, legal, play, assert_main, all_cards


# --------------------------------------------------------------------------- setup

def test_deal_gives_p0_five_p1_six_and_41_in_deck():
    g = cuttle.Game(seed=1)
    assert len(g.hand(0)) == 5
    assert len(g.hand(1)) == 6
    assert len(g.deck) == 41
    assert g.scrap == [] and g.points(0) == [] and g.points(1) == []
    assert g.phase == "main" and g.turn == 0 and g.to_move == 0
    assert not g.is_over and g.winner is None
    cards = all_cards(g)
    assert len(cards) == 52 and len(set(cards)) == 52


def test_same_seed_gives_same_deal():
    a, b = cuttle.Game(seed=5), cuttle.Game(seed=5)
    assert a.hand(0) == b.hand(0) and a.hand(1) == b.hand(1) and a.deck == b.deck


def test_cuttle_cards_deal_sizes():
    g = cuttle.Game("cuttle.cards", seed=2)
    assert (len(g.hand(0)), len(g.hand(1)), len(g.deck)) == (5, 6, 41)


# --------------------------------------------------------------------------- draw / pass

@BOTH
def test_draw_takes_top_card_and_ends_turn(engine, rules):
    g = engine.pos(rules, deck=["AH", "2H"])
    assert legal(g) == {"draw"}
    g.play("draw")
    assert g.hand(0) == ["AH"]
    assert g.deck[0] == "2H"
    assert_main(g, 1)


@BOTH
def test_pass_is_the_only_move_with_empty_deck_and_empty_hand(engine, rules):
    g = engine.pos(rules, deck=[], rest="scrap")
    assert legal(g) == {"pass"}
    g.play("pass")
    assert_main(g, 1)


@BOTH
def test_draw_illegal_and_pass_legal_with_empty_deck(engine, rules):
    g = engine.pos(rules, hands=(["KH"], []), deck=[], rest="scrap")
    assert legal(g) == {"pass", "royal KH"}


@BOTH
def test_pass_illegal_with_cards_in_deck(engine, rules):
    g = engine.pos(rules, hands=(["KH"], []), deck=["AC"])
    assert legal(g) == {"draw", "royal KH"}


# --------------------------------------------------------------------------- counters

@BOTH
def test_counter_window_opens_even_without_a_two(engine, rules):
    g = engine.pos(rules, hands=(["AS"], ["KH"]), points=([], ["TH"]))
    g.play("oneoff AS")
    assert g.phase == "counter"
    assert g.turn == 0 and g.to_move == 1
    assert legal(g) == {"resolve"}


@BOTH
def test_counter_window_lists_every_two_in_hand(engine, rules):
    g = engine.pos(rules, hands=(["AS"], ["2C", "2H", "9S"]), points=([], ["TH"]))
    g.play("oneoff AS")
    assert legal(g) == {"resolve", "counter 2C", "counter 2H"}


@BOTH
def test_one_counter_makes_one_off_fizzle(engine, rules):
    g = engine.pos(rules, hands=(["AS"], ["2C"]), points=([], ["TH"]))
    play(g, "oneoff AS", "counter 2C")
    assert g.phase == "counter"
    assert g.turn == 0 and g.to_move == 0
    assert g.stack == ["AS", "2C"]
    assert legal(g) == {"resolve"}
    g.play("resolve")
    assert g.points(1) == ["TH"]
    assert g.scrap == srt(["AS", "2C"])
    assert g.hand(1) == []
    assert_main(g, 1)


@BOTH
def test_two_counters_let_the_effect_happen(engine, rules):
    g = engine.pos(rules, hands=(["AS", "2D"], ["2C"]), points=([], ["TH"]))
    play(g, "oneoff AS", "counter 2C")
    assert legal(g) == {"resolve", "counter 2D"}
    g.play("counter 2D")
    assert g.to_move == 1 and g.turn == 0
    assert g.stack == ["AS", "2C", "2D"]
    assert legal(g) == {"resolve"}
    g.play("resolve")
    assert g.points(1) == []
    assert g.scrap == srt(["AS", "2C", "2D", "TH"])
    assert_main(g, 1)


@BOTH
def test_three_counters_fizzle(engine, rules):
    g = engine.pos(rules, hands=(["AS", "2D"], ["2C", "2H"]), points=([], ["TH"]))
    play(g, "oneoff AS", "counter 2C", "counter 2D", "counter 2H")
    assert g.to_move == 0
    assert g.stack == ["AS", "2C", "2D", "2H"]
    g.play("resolve")
    assert g.points(1) == ["TH"]
    assert g.scrap == srt(["AS", "2C", "2D", "2H"])
    assert_main(g, 1)


@BOTH
def test_four_counters_let_the_effect_happen(engine, rules):
    g = engine.pos(rules, hands=(["AS", "2D", "2S"], ["2C", "2H"]), points=([], ["TH"]))
    play(g, "oneoff AS", "counter 2C", "counter 2D", "counter 2H", "counter 2S", "resolve")
    assert g.points(1) == []
    assert g.scrap == srt(["AS", "2C", "2D", "2H", "2S", "TH"])
    assert_main(g, 1)


@BOTH
def test_cards_are_conserved_during_a_counter_chain(engine, rules):
    g = engine.pos(rules, hands=(["AS", "2D"], ["2C"]), points=([], ["TH"]))
    play(g, "oneoff AS", "counter 2C")
    cards = all_cards(g)
    assert len(cards) == 52 and len(set(cards)) == 52


@BOTH
def test_queen_stops_counters_to_the_queen_owners_one_off(engine, rules):
    g = engine.pos(rules, hands=(["AS"], ["2C"]), points=([], ["TH"]), permanents=(["QD"], []))
    g.play("oneoff AS")
    assert legal(g) == {"resolve"}
    g.play("resolve")
    assert g.points(1) == []


@BOTH
def test_queen_stops_counter_to_the_queen_owners_counter(engine, rules):
    g = engine.pos(rules, hands=(["AS", "2D"], ["2C"]), points=([], ["TH"]), permanents=([], ["QD"]))
    g.play("oneoff AS")
    assert legal(g) == {"resolve", "counter 2C"}
    g.play("counter 2C")
    assert legal(g) == {"resolve"}
    g.play("resolve")
    assert g.points(1) == ["TH"]


@BOTH
def test_responders_own_queen_does_not_stop_their_counter(engine, rules):
    g = engine.pos(rules, hands=(["AS"], ["2C"]), points=([], ["TH"]), permanents=([], ["QD"]))
    g.play("oneoff AS")
    assert "counter 2C" in g.legal_moves


# --------------------------------------------------------------------------- scuttles

@BOTH
def test_scuttle_with_higher_rank_scraps_both_and_cannot_be_countered(engine, rules):
    g = engine.pos(rules, hands=(["TC"], ["2D"]), points=([], ["7S"]))
    assert legal(g) == {"draw", "points TC", "scuttle TC 7S"}
    g.play("scuttle TC 7S")
    assert g.points(1) == []
    assert g.scrap == srt(["TC", "7S"])
    assert_main(g, 1)


@BOTH
def test_scuttle_same_rank_needs_higher_suit(engine, rules):
    g = engine.pos(rules, hands=(["7H"], []), points=([], ["7D", "7S"]))
    assert legal(g) == {"draw", "points 7H", "scuttle 7H 7D", "oneoff 7H"}


@BOTH
def test_ace_of_spades_scuttles_ace_of_clubs(engine, rules):
    g = engine.pos(rules, hands=(["AS"], []), points=([], ["AC", "2C"]))
    assert legal(g) == {"draw", "points AS", "scuttle AS AC", "oneoff AS"}


@BOTH
def test_scuttle_with_lower_rank_is_illegal(engine, rules):
    g = engine.pos(rules, hands=(["6S"], []), points=([], ["7C"]))
    assert legal(g) == {"draw", "points 6S", "oneoff 6S"}


@BOTH
def test_scuttle_scraps_jacks_on_target(engine, rules):
    # 7H is P0's own card, stolen by P1 with JC: P0 may scuttle it.
    g = engine.pos(rules, hands=(["9C"], []), points=([], ["7H[JC]"]))
    assert "scuttle 9C 7H" in g.legal_moves
    g.play("scuttle 9C 7H")
    assert g.points(0) == [] and g.points(1) == []
    assert g.scrap == srt(["9C", "7H", "JC"])


@BOTH
def test_cannot_scuttle_own_point_cards(engine, rules):
    g = engine.pos(rules, hands=(["TC"], []), points=(["7S"], []))
    assert legal(g) == {"draw", "points TC"}


@BOTH
def test_royals_and_jacks_cannot_scuttle(engine, rules):
    g = engine.pos(rules, hands=(["KC", "QC"], []), points=([], ["2C"]))
    assert legal(g) == {"draw", "royal KC", "royal QC"}


@BOTH
def test_eight_may_scuttle(engine, rules):
    g = engine.pos(rules, hands=(["8C"], []), points=([], ["7S"]))
    assert legal(g) == {"draw", "points 8C", "glasses 8C", "scuttle 8C 7S"}


# --------------------------------------------------------------------------- winning

@BOTH
def test_win_by_jack_steal(engine, rules):
    g = engine.pos(rules, hands=(["JC"], []), points=(["TH", "5C"], ["6D"]))
    g.play("jack JC 6D")
    assert g.score(0) == 21
    assert g.is_over and g.winner == 0 and g.phase == "over"
    assert legal(g) == set()


@BOTH
def test_win_during_opponents_six_returning_stolen_card(engine, rules):
    # P0 controls 6D (P1's card) with JS; P0's 6 returns it and P1 reaches 21.
    g = engine.pos(rules, hands=(["6C"], []), points=(["6D[JS]"], ["TH", "5C"]))
    assert g.score(1) == 15
    play(g, "oneoff 6C", "resolve")
    assert g.points(1) == srt(["5C", "6D", "TH"])
    assert g.score(1) == 21
    assert g.is_over and g.winner == 1


@BOTH
def test_win_when_opponent_resolves_my_two_on_their_jack(engine, rules):
    g = engine.pos(rules, hands=(["2D"], []), points=(["TH", "4C"], ["7H[JC]"]))
    play(g, "oneoff 2D JC", "resolve")
    assert g.score(0) == 21
    assert g.is_over and g.winner == 0


def test_win_by_opponents_classic_seven_jack_on_own_card(engine):
    g = engine.pos(CLASSIC, hands=(["7C"], []), points=(["6D", "2C"], ["TH", "5C"]),
            permanents=([], ["QS"]), deck=["JH", "4S"])
    play(g, "oneoff 7C", "resolve")
    assert legal(g) == {"jack JH 6D", "jack JH 2C"}
    g.play("jack JH 6D")
    assert g.score(1) == 21
    assert g.is_over and g.winner == 1


def test_win_by_seven_revealed_point_card(engine):
    g = engine.pos(CLASSIC, hands=(["7C"], []), points=(["9S", "2C"], []), deck=["TH", "4S"])
    play(g, "oneoff 7C", "resolve", "points TH")
    assert g.is_over and g.winner == 0


@BOTH
def test_no_win_below_goal(engine, rules):
    g = engine.pos(rules, hands=(["AC"], []), points=(["TH", "9H"], []))
    g.play("points AC")
    assert g.score(0) == 20
    assert not g.is_over and g.winner is None
    assert_main(g, 1)


TIE_RULES = cuttle.Rules(king_goals=(5, 30, 30, 30, 30))


def test_both_reach_goal_on_responders_resolve_responder_wins(engine):
    # Both control a King (goal 30); the 6 scraps both Kings: goals drop to 5 for both.
    g = engine.pos(TIE_RULES, hands=(["6C"], []), points=(["TH"], ["9D"]),
            permanents=(["KH"], ["KS"]))
    assert not g.is_over
    play(g, "oneoff 6C", "resolve")
    assert g.goal(0) == 5 and g.goal(1) == 5
    assert g.is_over and g.winner == 1


def test_both_reach_goal_mover_wins_when_player_one_plays_the_six(engine):
    g = engine.pos(TIE_RULES, hands=([], ["6C"]), points=(["TH"], ["9D"]),
            permanents=(["KH"], ["KS"]), to_move=1)
    play(g, "oneoff 6C", "resolve")
    assert g.is_over and g.winner == 0


def test_both_reach_goal_after_two_counters_responder_still_wins(engine):
    g = engine.pos(TIE_RULES, hands=(["6C", "2D"], ["2C"]), points=(["TH"], ["9D"]),
            permanents=(["KH"], ["KS"]))
    play(g, "oneoff 6C", "counter 2C", "counter 2D", "resolve")
    assert g.is_over and g.winner == 1


def test_moves_after_a_win_are_refused(engine):
    g = engine.pos(CLASSIC, hands=(["2C"], ["AC"]), points=(["TH", "9H"], []))
    g.play("points 2C")
    with pytest.raises(cuttle.IllegalMoveError):
        g.play("draw")


# --------------------------------------------------------------------------- positions already won

@BOTH
def test_position_with_p0_at_goal_is_over(engine, rules):
    g = engine.pos(rules, points=(["TH", "9H", "2C"], []))
    assert g.is_over and g.winner == 0 and g.phase == "over"
    assert legal(g) == set()


@BOTH
def test_position_with_p1_at_goal_is_over_even_with_p0_to_move(engine, rules):
    g = engine.pos(rules, points=([], ["TH", "4C"]), permanents=([], ["KH"]))
    assert g.is_over and g.winner == 1
    assert legal(g) == set()


def test_position_cuttle_cards_three_kings_five_points_is_over(engine):
    g = engine.pos(CC, points=(["5C"], []), permanents=(["KC", "KD", "KH"], []))
    assert g.is_over and g.winner == 0


def test_position_classic_three_kings_five_points_is_not_over(engine):
    g = engine.pos(CLASSIC, points=(["5C"], []), permanents=(["KC", "KD", "KH"], []))
    assert not g.is_over and g.goal(0) == 7


# --------------------------------------------------------------------------- three passes

@BOTH
def test_three_consecutive_passes_end_the_game_drawn(engine, rules):
    g = engine.pos(rules, deck=[], rest="scrap")
    play(g, "pass", "pass")
    assert not g.is_over
    assert_main(g, 0)
    g.play("pass")
    assert g.is_over and g.winner is None and g.phase == "over"
    assert legal(g) == set()


@BOTH
def test_pass_run_is_broken_by_any_other_move(engine, rules):
    g = engine.pos(rules, hands=([], ["AH"]), deck=[], rest="scrap")
    play(g, "pass", "points AH", "pass", "pass")
    assert not g.is_over
    g.play("pass")
    assert g.is_over and g.winner is None


def test_pass_run_is_broken_by_one_off_and_resolve(engine):
    g = engine.pos(CLASSIC, hands=([], ["AH"]), deck=[], rest="scrap")
    play(g, "pass", "oneoff AH", "resolve", "pass", "pass")
    assert not g.is_over
    g.play("pass")
    assert g.is_over and g.winner is None


# --------------------------------------------------------------------------- hand limit

EIGHT = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]


def test_cuttle_cards_draw_above_eight_forces_a_discard(engine):
    g = engine.pos(CC, hands=(EIGHT, []), deck=["AH"])
    g.play("draw")
    assert g.phase == "discard"
    assert g.turn == 0 and g.to_move == 0
    assert legal(g) == {"discard " + c for c in EIGHT + ["AH"]}
    g.play("discard 9C")
    assert g.hand(0) == srt(["AH"] + EIGHT[:-1])
    assert "9C" in g.scrap
    assert_main(g, 1)


def test_cuttle_cards_hand_limit_is_checked_after_the_fives_draws(engine):
    hand = ["5C", "2C", "3C", "4C", "6C", "7C", "8C", "9C"]
    g = engine.pos(CC, hands=(hand, []), deck=["AH", "2H", "3H"])
    play(g, "oneoff 5C", "resolve")
    assert g.phase == "five"
    g.play("discard 2C")
    assert len(g.hand(0)) == 9
    assert g.phase == "discard" and g.to_move == 0 and g.turn == 0
    assert g.stack == []
    assert "5C" in g.scrap
    g.play("discard 3C")
    assert len(g.hand(0)) == 8
    assert_main(g, 1)


def test_classic_has_no_hand_limit(engine):
    g = engine.pos(CLASSIC, hands=(EIGHT, []), deck=["AH"])
    g.play("draw")
    assert len(g.hand(0)) == 9
    assert_main(g, 1)


def test_hand_limit_applies_only_to_the_player_whose_turn_it_is(engine):
    rules = CC.replace(four="draw")
    p1 = ["3C", "3D", "3H", "3S", "5C", "5D", "5H", "5S"]
    g = engine.pos(rules, hands=(["4D"], p1), deck=["AH", "2H", "6S"])
    play(g, "oneoff 4D", "resolve")
    assert len(g.hand(1)) == 10
    assert_main(g, 1)
    g.play("draw")
    assert len(g.hand(1)) == 11
    assert g.phase == "discard" and g.to_move == 1
    g.play("discard 3C")
    assert g.phase == "discard" and g.to_move == 1
    assert len(legal(g)) == 10
    g.play("discard 3D")
    assert g.phase == "discard" and g.to_move == 1
    g.play("discard 3H")
    assert len(g.hand(1)) == 8
    assert_main(g, 0)


# --------------------------------------------------------------------------- frozen cards

def test_frozen_card_cannot_be_played_in_any_way_for_one_turn(engine):
    g = engine.pos(CC, hands=(["9C"], []), points=(["AC"], ["2S"]), permanents=(["KD"], []),
            deck=["5D", "6D", "7D"])
    play(g, "oneoff 9C 2S", "resolve")
    assert g.hand(1) == ["2S"]
    assert_main(g, 1)
    assert legal(g) == {"draw"}
    play(g, "draw", "draw")
    assert_main(g, 1)
    assert legal(g) == {"draw", "points 2S", "scuttle 2S AC", "oneoff 2S KD",
                        "points 5D", "scuttle 5D AC", "oneoff 5D"}


@pytest.mark.parametrize("rules", [CC, CLASSIC.replace(nine="freeze", nine_targets_points=True)],
                         ids=["cuttle.cards", "classic+freeze"])
def test_a_frozen_two_may_counter_during_its_owners_turn(engine, rules):
    # Decision 9 (the online game's rule): a freeze binds every play of the card but a
    # counter.  P1's 2S comes back frozen; in P1's turn it cannot be played, yet it may
    # answer P0's counter of P1's own one-off.
    g = engine.pos(rules, hands=(["9C", "2C"], ["AD"]), points=(["TH"], ["2S"]))
    play(g, "oneoff 9C 2S", "resolve")
    assert g.frozen(1) == ["2S"]
    assert legal(g) == {"draw", "points AD", "oneoff AD"}
    play(g, "oneoff AD", "counter 2C")
    assert g.to_move == 1
    assert legal(g) == {"resolve", "counter 2S"}
    play(g, "counter 2S", "resolve")       # two 2s: the Ace takes effect
    assert g.points(0) == [] and g.hand(1) == []
    assert g.scrap == srt(["9C", "2C", "2S", "AD", "TH"])
    assert_main(g, 0)


@BOTH
def test_a_countered_one_off_goes_to_the_scrap_with_its_twos(engine, rules):
    g = engine.pos(rules, hands=(["3C"], ["2D"]), scrap=["9H"])
    play(g, "oneoff 3C", "counter 2D", "resolve")
    assert g.stack == [] and g.hand(0) == []
    assert g.scrap == srt(["2D", "3C", "9H"])
    assert_main(g, 1)


@BOTH
def test_a_choice_phase_holds_only_its_one_off_on_the_stack(engine, rules):
    # Decision 22: a 4 that survived two counters: the victim discards while only the 4
    # waits on the stack.
    g = engine.pos(rules, hands=(["4C", "2S"], ["2D", "KH", "QD"]))
    play(g, "oneoff 4C", "counter 2D", "counter 2S", "resolve")
    assert g.phase == "four" and g.to_move == 1
    assert g.stack == ["4C"] and g.scrap == srt(["2D", "2S"])
    g.play("discard KH QD")
    assert g.stack == [] and g.scrap == srt(["2D", "2S", "4C", "KH", "QD"])


def test_a_strict_revealed_three_may_count_on_the_sevens_twos(engine):
    # Decisions 18 and 22: a revealed card is judged with the 7 on the stack and its 2s
    # already in the scrap, so under strict one-offs a revealed 3 may take them.
    g = engine.pos(CC, hands=(["7C", "2S"], ["2D"]), deck=["3H", "9D", "5S"])
    play(g, "oneoff 7C", "counter 2D", "counter 2S", "resolve")
    assert g.phase == "seven" and set(g.revealed) == {"3H", "9D"}
    assert "oneoff 3H" in g.legal_moves
    play(g, "oneoff 3H", "resolve")
    assert g.phase == "three"
    assert legal(g) == {"take 2D", "take 2S", "take 7C"}


def test_frozen_card_can_be_discarded_for_hand_limit(engine):
    p1 = ["3C", "3D", "3H", "4C", "4D", "4H", "5C"]
    g = engine.pos(CC, hands=(["9C"], p1), points=([], ["TH"]), deck=["6S"])
    play(g, "oneoff 9C TH", "resolve")
    assert len(g.hand(1)) == 8
    g.play("draw")
    assert g.phase == "discard" and g.to_move == 1
    assert legal(g) == {"discard " + c for c in p1 + ["TH", "6S"]}
    g.play("discard TH")
    assert "TH" in g.scrap
    assert_main(g, 0)


def test_frozen_card_can_be_discarded_to_own_five(engine):
    g = engine.pos(CC, hands=(["9C"], ["5C"]), points=([], ["TH"]), deck=["AH", "2H", "3H", "4H"])
    play(g, "oneoff 9C TH", "resolve")
    assert legal(g) == {"draw", "points 5C", "oneoff 5C"}
    play(g, "oneoff 5C", "resolve")
    assert g.phase == "five" and g.to_move == 1
    assert legal(g) == {"discard TH"}
    g.play("discard TH")
    assert g.hand(1) == srt(["AH", "2H", "3H"])
    assert g.scrap == srt(["9C", "5C", "TH"])
    assert_main(g, 0)


def test_freeze_ends_after_its_turn(engine):
    g = engine.pos(CC, hands=(["9C"], []), points=([], ["TH"]), deck=["AC", "AD"])
    play(g, "oneoff 9C TH", "resolve", "draw", "draw")
    assert "points TH" in g.legal_moves
    g.play("points TH")
    assert g.points(1) == ["TH"]


# --------------------------------------------------------------------------- sudden death

def test_sudden_death_deck_emptied_by_a_draw_ends_two_turns_later(engine):
    rules = CLASSIC.replace(sudden_death=True)
    g = engine.pos(rules, deck=["AH"], rest="scrap")
    g.play("draw")                     # turn t: the deck runs out
    g.play("pass")                     # turn t+1
    assert not g.is_over
    assert legal(g) == {"pass", "points AH", "oneoff AH"}
    g.play("points AH")                # turn t+2, the last one
    assert g.is_over and g.winner is None and g.phase == "over"


def test_without_sudden_death_the_game_goes_on_after_the_deck_runs_out(engine):
    g = engine.pos(CLASSIC, deck=["AH"], rest="scrap")
    play(g, "draw", "pass", "points AH")
    assert not g.is_over
    assert_main(g, 1)


def test_sudden_death_win_in_the_last_turn_counts(engine):
    rules = CLASSIC.replace(sudden_death=True)
    g = engine.pos(rules, hands=([], ["2H"]), points=([], ["TH", "9C"]), deck=[], rest="scrap")
    g.play("pass")                     # the current turn
    assert not g.is_over
    g.play("points 2H")                # the next (last) turn
    assert g.is_over and g.winner == 1


# --------------------------------------------------------------------------- who moves

@BOTH
def test_position_with_player_one_to_move(engine, rules):
    g = engine.pos(rules, hands=(["AS"], ["KH"]), to_move=1)
    assert_main(g, 1)
    assert legal(g) == {"draw", "royal KH"}
    g.play("royal KH")
    assert_main(g, 0)


@BOTH
def test_turn_stays_with_one_off_player_while_opponent_decides(engine, rules):
    g = engine.pos(rules, hands=(["4D"], ["3C", "9H", "KS"]))
    g.play("oneoff 4D")
    assert (g.phase, g.turn, g.to_move) == ("counter", 0, 1)
    g.play("resolve")
    assert (g.phase, g.turn, g.to_move) == ("four", 0, 1)


def test_sudden_death_and_three_passes_whichever_comes_first(engine):
    g = engine.pos(CLASSIC.replace(sudden_death=True), hands=(["AH"], []), deck=[], rest="scrap")
    play(g, "points AH", "pass")
    assert g.is_over and g.winner is None


def test_three_passes_with_cards_in_deck_under_no_draw_limit(engine):
    rules = CLASSIC.replace(hand_limit=2, hand_limit_mode="no_draw")
    g = engine.pos(rules, hands=(["JC", "JD"], ["JH", "JS"]), deck=["AH"])
    assert legal(g) == {"pass"}
    play(g, "pass", "pass")
    assert not g.is_over
    g.play("pass")
    assert g.is_over and g.winner is None


def test_sudden_death_deck_emptied_by_draw_four_during_four_players_turn(engine):
    rules = CLASSIC.replace(sudden_death=True, four="draw")
    g = engine.pos(rules, hands=(["4D"], []), deck=["AH", "2H"], rest="scrap")
    play(g, "oneoff 4D", "resolve")   # turn t (P0): P1 draws the last cards
    assert g.deck == []
    g.play("points AH")               # turn t+1 (P1)
    assert not g.is_over
    g.play("pass")                    # turn t+2 (P0)
    assert g.is_over and g.winner is None


def test_sudden_death_turn_ends_after_the_hand_limit_discard(engine):
    rules = CLASSIC.replace(sudden_death=True, hand_limit=3)
    g = engine.pos(rules, hands=(["5C", "AC", "2C"], []), deck=["AH", "2H"], rest="scrap")
    play(g, "oneoff 5C", "resolve")   # turn t: the deck runs out
    assert g.phase == "discard" and not g.is_over
    g.play("discard AC")
    assert_main(g, 1)
    g.play("pass")                    # t+1
    assert not g.is_over
    g.play("pass")                    # t+2
    assert g.is_over and g.winner is None
