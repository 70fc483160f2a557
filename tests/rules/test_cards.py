"""Rule scenario tests: the effect of every card, in both presets.

Written from ``docs/rules.md`` (the rulebook), the API reference (``docs/reference/``, the
docstrings) and ``docs/rules-decisions.md``; independent of the engine's sources.  Each
test builds a small explicit position with ``Game.from_position``, plays a few moves and
checks the exact outcome.
"""
import pytest

from support.scenario import CLASSIC, CC, BOTH, srt, legal, play, assert_main


# --------------------------------------------------------------------------- Ace

@BOTH
def test_ace_scraps_every_point_card_on_both_sides_with_their_jacks(engine, rules):
    g = engine.pos(rules, hands=(["AS", "4C"], ["KD"]),
            points=(["TH", "3C"], ["9D", "7S[JC]"]),
            permanents=(["8S"], ["8D"]))
    assert "oneoff AS" in g.legal_moves
    g.play("oneoff AS")
    assert g.phase == "counter"
    assert g.turn == 0 and g.to_move == 1
    assert g.stack == ["AS"]
    assert "AS" not in g.scrap and "AS" not in g.hand(0)
    g.play("resolve")
    assert g.points(0) == [] and g.points(1) == []
    assert g.scrap == srt(["AS", "TH", "3C", "9D", "7S", "JC"])
    assert g.permanents(0) == ["8S"] and g.permanents(1) == ["8D"]
    assert g.hand(0) == ["4C"] and g.hand(1) == ["KD"]
    assert g.score(0) == 0 and g.score(1) == 0
    assert_main(g, 1)


@BOTH
def test_ace_is_legal_with_no_point_cards_anywhere(engine, rules):
    g = engine.pos(rules, hands=(["AS"], []))
    assert legal(g) == {"draw", "points AS", "oneoff AS"}
    play(g, "oneoff AS", "resolve")
    assert g.scrap == ["AS"]
    assert_main(g, 1)


@BOTH
def test_ace_is_not_stopped_by_queens(engine, rules):
    g = engine.pos(rules, hands=(["AS"], []), points=([], ["TH"]), permanents=([], ["QS", "QH"]))
    play(g, "oneoff AS", "resolve")
    assert g.points(1) == []
    assert g.permanents(1) == ["QH", "QS"]
    assert g.scrap == srt(["AS", "TH"])


# --------------------------------------------------------------------------- Two

@BOTH
def test_two_scraps_opponent_king(engine, rules):
    g = engine.pos(rules, hands=(["2C"], []), permanents=([], ["KH"]))
    assert legal(g) == {"draw", "points 2C", "oneoff 2C KH"}
    g.play("oneoff 2C KH")
    assert g.stack == ["2C"]
    g.play("resolve")
    assert g.permanents(1) == []
    assert g.scrap == srt(["2C", "KH"])
    assert g.goal(1) == 21
    assert_main(g, 1)


def test_two_classic_may_target_own_permanent(engine):
    g = engine.pos(CLASSIC, hands=(["2C"], []), permanents=(["KS"], ["KH"]))
    assert legal(g) == {"draw", "points 2C", "oneoff 2C KH", "oneoff 2C KS"}
    play(g, "oneoff 2C KS", "resolve")
    assert g.permanents(0) == [] and g.permanents(1) == ["KH"]
    assert g.scrap == srt(["2C", "KS"])


def test_two_cuttle_cards_targets_only_opponent_cards(engine):
    g = engine.pos(CC, hands=(["2C"], []), permanents=(["KS"], ["KH"]))
    assert legal(g) == {"draw", "points 2C", "oneoff 2C KH"}


@BOTH
def test_two_with_no_target_cannot_be_played_as_one_off(engine, rules):
    g = engine.pos(rules, hands=(["2C"], []), points=(["5D"], []))
    assert legal(g) == {"draw", "points 2C"}


@BOTH
def test_two_on_top_jack_flips_point_card_back(engine, rules):
    # P1 controls 7H with one Jack: 7H belongs to P0, JC was played by P1.
    g = engine.pos(rules, hands=(["2D"], []), points=([], ["7H[JC]"]))
    assert legal(g) == {"draw", "points 2D", "oneoff 2D JC"}
    play(g, "oneoff 2D JC", "resolve")
    assert g.points(0) == ["7H"] and g.points(1) == []
    assert g.jacks("7H") == []
    assert g.scrap == srt(["2D", "JC"])
    assert g.score(0) == 7 and g.score(1) == 0


@BOTH
def test_two_targets_only_the_top_jack_of_a_stack(engine, rules):
    # 7H is P1's card: P0 stole it with JC, P1 stole it back with JD.
    g = engine.pos(rules, hands=(["2S"], []), points=([], ["7H[JC,JD]"]))
    assert legal(g) == {"draw", "points 2S", "oneoff 2S JD"}
    play(g, "oneoff 2S JD", "resolve")
    assert g.points(0) == ["7H"] and g.points(1) == []
    assert g.jacks("7H") == ["JC"]
    assert g.scrap == srt(["2S", "JD"])


def test_two_classic_on_own_top_jack_gives_card_back(engine):
    # P0 controls 7H (owned by P1) with its Jack JC.
    g = engine.pos(CLASSIC, hands=(["2S"], []), points=(["7H[JC]"], []))
    assert legal(g) == {"draw", "points 2S", "oneoff 2S JC"}
    play(g, "oneoff 2S JC", "resolve")
    assert g.points(0) == [] and g.points(1) == ["7H"]
    assert g.scrap == srt(["2S", "JC"])


def test_two_cuttle_cards_cannot_target_own_top_jack(engine):
    g = engine.pos(CC, hands=(["2S"], []), points=(["7H[JC]"], []))
    assert legal(g) == {"draw", "points 2S"}


@BOTH
def test_two_scraps_opponent_glasses(engine, rules):
    g = engine.pos(rules, hands=(["2C"], []), permanents=([], ["8D"]))
    assert "oneoff 2C 8D" in g.legal_moves
    play(g, "oneoff 2C 8D", "resolve")
    assert g.permanents(1) == []
    assert g.scrap == srt(["2C", "8D"])


# --------------------------------------------------------------------------- Three

def test_three_classic_may_take_any_card_including_a_three(engine):
    g = engine.pos(CLASSIC, hands=(["3H"], []), scrap=["3D", "9C"])
    assert legal(g) == {"draw", "points 3H", "oneoff 3H"}
    play(g, "oneoff 3H", "resolve")
    assert g.phase == "three"
    assert g.turn == 0 and g.to_move == 0
    assert g.stack == ["3H"]
    assert "3H" not in g.scrap
    assert legal(g) == {"take 3D", "take 9C"}
    g.play("take 9C")
    assert g.hand(0) == ["9C"]
    assert g.scrap == srt(["3D", "3H"])
    assert_main(g, 1)


def test_three_cuttle_cards_cannot_take_a_three(engine):
    g = engine.pos(CC, hands=(["3H"], []), scrap=["3D", "9C"])
    play(g, "oneoff 3H", "resolve")
    assert g.phase == "three"
    assert legal(g) == {"take 9C"}
    g.play("take 9C")
    assert g.hand(0) == ["9C"]
    assert g.scrap == srt(["3D", "3H"])


def test_three_classic_with_empty_scrap_is_legal_and_takes_nothing(engine):
    g = engine.pos(CLASSIC, hands=(["3H"], ["KC"]))
    assert "oneoff 3H" in g.legal_moves
    play(g, "oneoff 3H", "resolve")
    assert g.hand(0) == []
    assert g.scrap == ["3H"]
    assert_main(g, 1)


def test_three_classic_with_only_a_three_in_scrap_takes_it(engine):
    g = engine.pos(CLASSIC, hands=(["3H"], []), scrap=["3D"])
    play(g, "oneoff 3H", "resolve")
    assert legal(g) == {"take 3D"}
    g.play("take 3D")
    assert g.hand(0) == ["3D"] and g.scrap == ["3H"]


@pytest.mark.parametrize("scrap", [[], ["3D"], ["3C", "3S"]], ids=["empty", "one-three", "two-threes"])
def test_three_cuttle_cards_illegal_without_a_takeable_card(engine, scrap):
    g = engine.pos(CC, hands=(["3H"], []), scrap=scrap)
    assert legal(g) == {"draw", "points 3H"}


@BOTH
def test_three_may_take_the_twos_of_its_own_chain(engine, rules):
    # Decision 22: when the chain ends its 2s go to the scrap at once; the 3 waits on
    # the stack until it has picked, so it may pick one of those 2s (never itself).
    g = engine.pos(rules, hands=(["3H", "2D"], ["2C"]), scrap=["9C"])
    play(g, "oneoff 3H", "counter 2C", "counter 2D", "resolve")
    assert g.phase == "three" and g.to_move == 0
    assert g.stack == ["3H"]
    assert g.scrap == srt(["2C", "2D", "9C"])
    assert legal(g) == {"take 2C", "take 2D", "take 9C"}
    g.play("take 2C")
    assert g.hand(0) == ["2C"] and g.stack == []
    assert g.scrap == srt(["2D", "3H", "9C"])
    assert_main(g, 1)


# --------------------------------------------------------------------------- Four

@BOTH
def test_four_victim_chooses_two_cards_to_discard(engine, rules):
    g = engine.pos(rules, hands=(["4D"], ["3C", "9H", "KS"]))
    play(g, "oneoff 4D", "resolve")
    assert g.phase == "four"
    assert g.turn == 0 and g.to_move == 1
    assert g.stack == ["4D"]
    assert legal(g) == {"discard 3C 9H", "discard 3C KS", "discard 9H KS"}
    g.play("discard 3C KS")
    assert g.hand(1) == ["9H"]
    assert g.scrap == srt(["3C", "KS", "4D"])
    assert_main(g, 1)


@BOTH
def test_four_victim_with_one_card_discards_it(engine, rules):
    g = engine.pos(rules, hands=(["4D"], ["9H"]))
    play(g, "oneoff 4D", "resolve")
    assert g.phase == "four" and g.to_move == 1
    assert legal(g) == {"discard 9H"}
    g.play("discard 9H")
    assert g.hand(1) == []
    assert g.scrap == srt(["4D", "9H"])
    assert_main(g, 1)


@BOTH
def test_four_victim_with_two_cards_discards_both(engine, rules):
    g = engine.pos(rules, hands=(["4D"], ["KS", "3C"]))
    play(g, "oneoff 4D", "resolve")
    assert legal(g) == {"discard 3C KS"}
    g.play("discard 3C KS")
    assert g.hand(1) == []


@BOTH
def test_four_discard_cards_may_be_written_in_any_order(engine, rules):
    g = engine.pos(rules, hands=(["4D"], ["3C", "9H", "KS"]))
    play(g, "oneoff 4D", "resolve", "discard KS 3C")
    assert g.hand(1) == ["9H"]
    assert str(g.moves[-1]) == "discard 3C KS"


def test_four_classic_legal_against_empty_hand_and_does_nothing(engine):
    g = engine.pos(CLASSIC, hands=(["4D"], []))
    assert legal(g) == {"draw", "points 4D", "oneoff 4D"}
    play(g, "oneoff 4D", "resolve")
    assert g.scrap == ["4D"]
    assert_main(g, 1)


def test_four_cuttle_cards_illegal_against_empty_hand(engine):
    g = engine.pos(CC, hands=(["4D"], []))
    assert legal(g) == {"draw", "points 4D"}


def test_four_cuttle_cards_victim_emptied_by_counters_does_what_it_can(engine):
    g = engine.pos(CC, hands=(["4D", "2D"], ["2C"]))
    play(g, "oneoff 4D", "counter 2C", "counter 2D", "resolve")
    assert g.hand(1) == []
    assert g.scrap == srt(["2C", "2D", "4D"])
    assert_main(g, 1)


# --------------------------------------------------------------------------- Five

def test_five_classic_draws_two(engine):
    g = engine.pos(CLASSIC, hands=(["5C"], []), deck=["AH", "2H", "3H"])
    play(g, "oneoff 5C", "resolve")
    assert g.hand(0) == srt(["AH", "2H"])
    assert g.deck[0] == "3H"
    assert g.scrap == ["5C"]
    assert_main(g, 1)


def test_five_classic_short_deck_draws_what_is_left(engine):
    g = engine.pos(CLASSIC, hands=(["5C"], []), deck=["AH"], rest="scrap")
    play(g, "oneoff 5C", "resolve")
    assert g.hand(0) == ["AH"]
    assert g.deck == []
    assert "5C" in g.scrap


def test_five_classic_empty_deck_legal_and_draws_nothing(engine):
    g = engine.pos(CLASSIC, hands=(["5C"], []), deck=[], rest="scrap")
    assert legal(g) == {"pass", "points 5C", "oneoff 5C"}
    play(g, "oneoff 5C", "resolve")
    assert g.hand(0) == []
    assert "5C" in g.scrap
    assert_main(g, 1)


def test_five_cuttle_cards_discards_one_then_draws_three(engine):
    g = engine.pos(CC, hands=(["5C", "9D", "KS"], []), deck=["AH", "2H", "3H", "4H"])
    play(g, "oneoff 5C", "resolve")
    assert g.phase == "five"
    assert g.turn == 0 and g.to_move == 0
    assert g.stack == ["5C"]
    assert legal(g) == {"discard 9D", "discard KS"}
    g.play("discard KS")
    assert g.hand(0) == srt(["9D", "AH", "2H", "3H"])
    assert g.deck[0] == "4H"
    assert g.scrap == srt(["5C", "KS"])
    assert_main(g, 1)


def test_five_cuttle_cards_with_no_other_card_just_draws_three(engine):
    g = engine.pos(CC, hands=(["5C"], []), deck=["AH", "2H", "3H", "4H"])
    play(g, "oneoff 5C", "resolve")
    assert g.hand(0) == srt(["AH", "2H", "3H"])
    assert g.deck[0] == "4H"
    assert g.scrap == ["5C"]
    assert_main(g, 1)


def test_five_cuttle_cards_short_deck_draws_what_is_left(engine):
    g = engine.pos(CC, hands=(["5C"], []), deck=["AH", "2H"], rest="scrap")
    play(g, "oneoff 5C", "resolve")
    assert g.hand(0) == srt(["AH", "2H"])
    assert g.deck == []


def test_five_cuttle_cards_illegal_with_empty_deck(engine):
    g = engine.pos(CC, hands=(["5C"], []), deck=[], rest="scrap")
    assert legal(g) == {"pass", "points 5C"}


# --------------------------------------------------------------------------- Six

@BOTH
def test_six_scraps_permanents_and_jacks_and_returns_stolen_cards(engine, rules):
    # 7C is P1's card stolen by P0 (JS); 9D is P1's, stolen (JH) and stolen back (JC).
    g = engine.pos(rules, hands=(["6C"], []),
            points=(["TH", "7C[JS]"], ["9D[JH,JC]"]),
            permanents=([], ["KH", "QS", "8D"]))
    assert g.score(0) == 17 and g.score(1) == 9
    assert legal(g) == {"draw", "points 6C", "oneoff 6C"}
    play(g, "oneoff 6C", "resolve")
    assert g.points(0) == ["TH"]
    assert g.points(1) == srt(["7C", "9D"])
    assert g.jacks("7C") == [] and g.jacks("9D") == []
    assert g.permanents(0) == [] and g.permanents(1) == []
    assert g.scrap == srt(["6C", "JS", "JH", "JC", "KH", "QS", "8D"])
    assert g.score(0) == 10 and g.score(1) == 16
    assert_main(g, 1)


@BOTH
def test_six_returns_card_with_three_jacks_to_its_owner(engine, rules):
    # P0 controls 5H with three Jacks: odd, so 5H belongs to P1.
    g = engine.pos(rules, hands=(["6C"], []), points=(["5H[JC,JD,JH]"], []))
    play(g, "oneoff 6C", "resolve")
    assert g.points(0) == [] and g.points(1) == ["5H"]
    assert g.scrap == srt(["6C", "JC", "JD", "JH"])


# --------------------------------------------------------------------------- Seven (classic: top1)

def test_seven_top1_reveals_top_card_and_must_play_it(engine):
    g = engine.pos(CLASSIC, hands=(["7C"], []), points=([], ["3D"]), deck=["9H", "4S"])
    play(g, "oneoff 7C", "resolve")
    assert g.phase == "seven"
    assert g.turn == 0 and g.to_move == 0
    assert g.revealed == ["9H"]
    assert g.stack == ["7C"]
    assert "9H" not in g.deck and g.deck[0] == "4S"
    assert legal(g) == {"points 9H", "scuttle 9H 3D"}
    g.play("points 9H")
    assert g.points(0) == ["9H"]
    assert g.scrap == ["7C"]
    assert_main(g, 1)


def test_seven_revealed_card_scuttles(engine):
    g = engine.pos(CLASSIC, hands=(["7C"], []), points=([], ["3D"]), deck=["9H", "4S"])
    play(g, "oneoff 7C", "resolve", "scuttle 9H 3D")
    assert g.points(1) == []
    assert g.scrap == srt(["7C", "9H", "3D"])
    assert_main(g, 1)


def test_seven_revealed_one_off_goes_through_its_own_counter_window(engine):
    g = engine.pos(CLASSIC, hands=(["7C"], ["KC", "8C", "2S"]), deck=["4H", "AD"])
    play(g, "oneoff 7C", "resolve")
    assert legal(g) == {"points 4H", "oneoff 4H"}
    g.play("oneoff 4H")
    assert g.phase == "counter"
    assert g.turn == 0 and g.to_move == 1
    assert g.stack == ["4H"]
    assert g.scrap == ["7C"]
    assert g.revealed == []
    assert legal(g) == {"resolve", "counter 2S"}
    g.play("resolve")
    assert g.phase == "four" and g.to_move == 1
    assert legal(g) == {"discard 2S 8C", "discard 2S KC", "discard 8C KC"}
    g.play("discard 2S KC")
    assert g.hand(1) == ["8C"]
    assert g.scrap == srt(["7C", "4H", "2S", "KC"])
    assert_main(g, 1)


def test_seven_waits_on_the_stack_its_counters_are_scrapped_at_once(engine):
    # Decision 22: the 2s go when the chain ends, the 7 once its card has been played.
    g = engine.pos(CLASSIC, hands=(["7C", "2D"], ["2H"]), deck=["9H", "4S"])
    play(g, "oneoff 7C", "counter 2H", "counter 2D", "resolve")
    assert g.phase == "seven"
    assert g.stack == ["7C"] and g.scrap == srt(["2H", "2D"])
    assert g.revealed == ["9H"]
    g.play("points 9H")
    assert g.scrap == srt(["7C", "2H", "2D"])
    assert g.points(0) == ["9H"]
    assert_main(g, 1)


def test_seven_top1_jack_goes_on_opponent_card_when_it_can(engine):
    g = engine.pos(CLASSIC, hands=(["7C"], []), points=(["5C"], ["6D", "9S"]), deck=["JH", "4S"])
    play(g, "oneoff 7C", "resolve")
    assert g.phase == "seven"
    assert legal(g) == {"jack JH 6D", "jack JH 9S"}
    g.play("jack JH 9S")
    assert g.points(0) == srt(["5C", "9S"])
    assert g.jacks("9S") == ["JH"]
    assert g.scrap == ["7C"]


def test_seven_top1_jack_without_opponent_target_goes_on_own_card(engine):
    g = engine.pos(CLASSIC, hands=(["7C"], []), points=(["5C", "8D"], []), deck=["JH", "4S"])
    play(g, "oneoff 7C", "resolve")
    assert g.phase == "seven"
    assert legal(g) == {"jack JH 5C", "jack JH 8D"}
    g.play("jack JH 5C")
    assert g.points(0) == ["8D"]
    assert g.points(1) == ["5C"]
    assert g.jacks("5C") == ["JH"]
    assert g.score(1) == 5
    assert_main(g, 1)


def test_seven_top1_jack_with_opponent_cards_protected_goes_on_own_card(engine):
    g = engine.pos(CLASSIC, hands=(["7C"], []), points=(["5C", "8D"], ["6D"]),
            permanents=([], ["QS"]), deck=["JH", "4S"])
    play(g, "oneoff 7C", "resolve")
    assert legal(g) == {"jack JH 5C", "jack JH 8D"}


def test_seven_top1_jack_with_no_point_card_anywhere_is_scrapped(engine):
    g = engine.pos(CLASSIC, hands=(["7C"], []), deck=["JH", "4S"])
    play(g, "oneoff 7C", "resolve")
    assert g.scrap == srt(["7C", "JH"])
    assert g.deck[0] == "4S"
    assert_main(g, 1)


def test_seven_top1_empty_deck_is_legal_and_does_nothing(engine):
    g = engine.pos(CLASSIC, hands=(["7C"], []), deck=[], rest="scrap")
    assert legal(g) == {"pass", "points 7C", "oneoff 7C"}
    play(g, "oneoff 7C", "resolve")
    assert "7C" in g.scrap
    assert g.hand(0) == []
    assert_main(g, 1)


def test_seven_top1_revealed_last_card_five_may_be_one_off_and_draws_nothing(engine):
    g = engine.pos(CLASSIC, hands=(["7C"], []), deck=["5H"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert g.deck == []
    assert legal(g) == {"points 5H", "oneoff 5H"}
    play(g, "oneoff 5H", "resolve")
    assert g.hand(0) == []
    assert "5H" in g.scrap and "7C" in g.scrap
    assert_main(g, 1)


def test_seven_top1_revealed_last_card_seven_may_be_one_off_and_does_nothing(engine):
    g = engine.pos(CLASSIC, hands=(["7C"], []), points=([], ["3D"]), deck=["7H"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert legal(g) == {"points 7H", "scuttle 7H 3D", "oneoff 7H"}
    play(g, "oneoff 7H", "resolve")
    assert "7H" in g.scrap and "7C" in g.scrap
    assert g.points(1) == ["3D"]
    assert_main(g, 1)


# --------------------------------------------------------------------------- Seven (cuttle.cards: top2)

def test_seven_top2_reveals_two_and_unchosen_goes_back_on_top(engine):
    g = engine.pos(CC, hands=(["7C"], []), points=([], ["3D"]), deck=["9H", "KD", "4S"])
    play(g, "oneoff 7C", "resolve")
    assert g.phase == "seven" and g.to_move == 0
    assert g.revealed == ["9H", "KD"]
    assert g.stack == ["7C"]
    assert g.deck[0] == "4S"
    assert legal(g) == {"points 9H", "scuttle 9H 3D", "oneoff 9H 3D", "royal KD"}
    g.play("royal KD")
    assert g.permanents(0) == ["KD"]
    assert g.deck[:2] == ["9H", "4S"]
    assert g.scrap == ["7C"]
    assert_main(g, 1)


def test_seven_top2_may_play_the_second_revealed_card(engine):
    g = engine.pos(CC, hands=(["7C"], []), deck=["9H", "KD", "4S"])
    play(g, "oneoff 7C", "resolve", "points 9H")
    assert g.points(0) == ["9H"]
    assert g.deck[:2] == ["KD", "4S"]


def test_seven_top2_two_unplayable_jacks_player_scraps_one(engine):
    g = engine.pos(CC, hands=(["7C"], []), points=(["5C"], []), deck=["JH", "JD", "4S"])
    play(g, "oneoff 7C", "resolve")
    assert g.phase == "seven" and g.to_move == 0
    assert legal(g) == {"discard JD", "discard JH"}
    g.play("discard JD")
    assert g.scrap == srt(["7C", "JD"])
    assert g.deck[:2] == ["JH", "4S"]
    assert g.points(0) == ["5C"] and g.jacks("5C") == []
    assert_main(g, 1)


def test_seven_top2_single_revealed_unplayable_jack_still_asks(engine):
    g = engine.pos(CC, hands=(["7C"], []), deck=["JH"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert g.phase == "seven"
    assert g.revealed == ["JH"]
    assert legal(g) == {"discard JH"}
    g.play("discard JH")
    assert "JH" in g.scrap and "7C" in g.scrap
    assert g.deck == []
    assert_main(g, 1)


def test_seven_top2_unplayable_jack_next_to_playable_card_must_play_the_other(engine):
    g = engine.pos(CC, hands=(["7C"], ["KC"]), deck=["JH", "4S", "AD"])
    play(g, "oneoff 7C", "resolve")
    assert legal(g) == {"points 4S", "oneoff 4S"}
    g.play("points 4S")
    assert g.deck[:2] == ["JH", "AD"]


def test_seven_top2_jack_needs_opposing_target(engine):
    g = engine.pos(CC, hands=(["7C"], ["KC"]), points=([], ["6D"]), deck=["JH", "4S", "AD"])
    play(g, "oneoff 7C", "resolve")
    assert legal(g) == {"jack JH 6D", "points 4S", "oneoff 4S"}
    g.play("jack JH 6D")
    assert g.points(0) == ["6D"] and g.jacks("6D") == ["JH"]
    assert g.deck[0] == "4S"


def test_seven_top2_revealed_last_seven_cannot_be_one_off(engine):
    g = engine.pos(CC, hands=(["7C"], []), points=([], ["3D"]), deck=["7H"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert legal(g) == {"points 7H", "scuttle 7H 3D"}


def test_seven_top2_revealed_seven_with_other_revealed_card_may_be_one_off(engine):
    g = engine.pos(CC, hands=(["7C"], []), deck=["7H", "9S"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert "oneoff 7H" in g.legal_moves
    play(g, "oneoff 7H")
    assert g.deck == ["9S"]
    assert g.stack == ["7H"]
    assert "7C" in g.scrap
    g.play("resolve")
    assert g.revealed == ["9S"]
    assert g.deck == []
    assert g.phase == "seven"


def test_seven_cuttle_cards_illegal_with_empty_deck(engine):
    g = engine.pos(CC, hands=(["7C"], []), deck=[], rest="scrap")
    assert legal(g) == {"pass", "points 7C"}


def test_seven_top2_five_with_short_deck_draws_what_is_left(engine):
    g = engine.pos(CC, hands=(["7C", "KD"], []), deck=["5H", "9S"], rest="scrap")
    play(g, "oneoff 7C", "resolve", "oneoff 5H")
    assert g.deck == ["9S"]
    g.play("resolve")
    assert g.phase == "five" and g.to_move == 0
    assert legal(g) == {"discard KD"}
    g.play("discard KD")
    assert g.hand(0) == ["9S"]
    assert g.deck == []
    assert_main(g, 1)


# --------------------------------------------------------------------------- Eight

@BOTH
def test_eight_as_glasses_is_a_permanent_worth_no_points(engine, rules):
    g = engine.pos(rules, hands=(["8H"], []))
    assert legal(g) == {"draw", "points 8H", "glasses 8H"}
    g.play("glasses 8H")
    assert g.permanents(0) == ["8H"]
    assert g.points(0) == []
    assert g.score(0) == 0
    assert_main(g, 1)


@BOTH
def test_eight_as_points_is_worth_eight(engine, rules):
    g = engine.pos(rules, hands=(["8H"], []))
    g.play("points 8H")
    assert g.points(0) == ["8H"] and g.score(0) == 8


@BOTH
def test_glasses_are_scrapped_by_a_six(engine, rules):
    g = engine.pos(rules, hands=(["6C"], []), permanents=(["8H"], ["8D"]))
    play(g, "oneoff 6C", "resolve")
    assert g.permanents(0) == [] and g.permanents(1) == []
    assert g.scrap == srt(["6C", "8H", "8D"])


# --------------------------------------------------------------------------- Nine

def test_nine_classic_returns_permanent_without_freeze(engine):
    g = engine.pos(CLASSIC, hands=(["9C"], []), permanents=([], ["KH"]))
    assert legal(g) == {"draw", "points 9C", "oneoff 9C KH"}
    play(g, "oneoff 9C KH", "resolve")
    assert g.permanents(1) == []
    assert g.hand(1) == ["KH"]
    assert g.scrap == ["9C"]
    assert_main(g, 1)
    assert legal(g) == {"draw", "royal KH"}


def test_nine_classic_cannot_target_point_cards(engine):
    g = engine.pos(CLASSIC, hands=(["9C"], []), points=([], ["TH"]))
    assert legal(g) == {"draw", "points 9C"}


def test_nine_classic_may_return_own_permanent(engine):
    g = engine.pos(CLASSIC, hands=(["9C"], []), permanents=(["KS"], []))
    assert legal(g) == {"draw", "points 9C", "oneoff 9C KS"}
    play(g, "oneoff 9C KS", "resolve")
    assert g.hand(0) == ["KS"]
    assert g.permanents(0) == []


def test_nine_classic_returns_top_jack_to_its_player_and_card_flips_back(engine):
    g = engine.pos(CLASSIC, hands=(["9D"], []), points=([], ["7H[JC]"]))
    assert legal(g) == {"draw", "points 9D", "scuttle 9D 7H", "oneoff 9D JC"}
    play(g, "oneoff 9D JC", "resolve")
    assert g.hand(1) == ["JC"]
    assert g.points(0) == ["7H"] and g.points(1) == []
    assert g.jacks("7H") == []
    assert g.scrap == ["9D"]


def test_nine_cuttle_cards_targets_point_cards_and_freezes(engine):
    g = engine.pos(CC, hands=(["9C"], []), points=([], ["TH"]))
    assert legal(g) == {"draw", "points 9C", "oneoff 9C TH"}
    play(g, "oneoff 9C TH", "resolve")
    assert g.points(1) == []
    assert g.hand(1) == ["TH"]
    assert_main(g, 1)
    assert legal(g) == {"draw"}


def test_nine_cuttle_cards_freeze_lasts_exactly_one_turn(engine):
    g = engine.pos(CC, hands=(["9C"], []), permanents=([], ["KH"]), deck=["AC", "AD", "AH"])
    play(g, "oneoff 9C KH", "resolve")
    assert g.hand(1) == ["KH"]
    assert legal(g) == {"draw"}
    play(g, "draw")          # P1's frozen turn
    play(g, "draw")          # P0
    assert g.turn == 1
    assert "royal KH" in g.legal_moves


def test_nine_cuttle_cards_point_card_goes_to_its_controller_and_jacks_are_scrapped(engine):
    # P1 controls 7H (P0's card) with JC.
    g = engine.pos(CC, hands=(["9D"], []), points=([], ["7H[JC]"]))
    assert legal(g) == {"draw", "points 9D", "scuttle 9D 7H", "oneoff 9D 7H", "oneoff 9D JC"}
    play(g, "oneoff 9D 7H", "resolve")
    assert g.hand(1) == ["7H"]
    assert g.points(0) == [] and g.points(1) == []
    assert g.scrap == srt(["9D", "JC"])
    assert legal(g) == {"draw"}


def test_nine_cuttle_cards_top_jack_returns_to_its_player(engine):
    g = engine.pos(CC, hands=(["9D"], []), points=([], ["7H[JC]"]))
    play(g, "oneoff 9D JC", "resolve")
    assert g.hand(1) == ["JC"]
    assert g.points(0) == ["7H"]


def test_nine_cuttle_cards_cannot_target_own_cards(engine):
    g = engine.pos(CC, hands=(["9C"], []), points=(["TH"], []), permanents=(["KS"], []))
    assert legal(g) == {"draw", "points 9C"}


# --------------------------------------------------------------------------- Jack

@BOTH
def test_jack_steals_point_card(engine, rules):
    g = engine.pos(rules, hands=(["JC"], []), points=([], ["7H"]))
    assert legal(g) == {"draw", "jack JC 7H"}
    g.play("jack JC 7H")
    assert g.points(0) == ["7H"] and g.points(1) == []
    assert g.jacks("7H") == ["JC"]
    assert g.score(0) == 7 and g.score(1) == 0
    assert_main(g, 1)


@BOTH
def test_jacks_stack_and_each_one_flips_control(engine, rules):
    g = engine.pos(rules, hands=(["JC", "JH"], ["JD"]), points=([], ["7H"]), deck=["AC", "AD"])
    g.play("jack JC 7H")
    assert "jack JD 7H" in g.legal_moves
    g.play("jack JD 7H")
    assert g.points(1) == ["7H"] and g.points(0) == []
    assert g.jacks("7H") == ["JC", "JD"]
    assert legal(g) == {"draw", "jack JH 7H"}
    g.play("jack JH 7H")
    assert g.points(0) == ["7H"]
    assert g.jacks("7H") == ["JC", "JD", "JH"]
    assert g.score(0) == 7


@BOTH
def test_jack_may_take_back_a_stolen_card(engine, rules):
    g = engine.pos(rules, hands=(["JD"], []), points=([], ["7H[JC]"]))
    assert legal(g) == {"draw", "jack JD 7H"}
    g.play("jack JD 7H")
    assert g.points(0) == ["7H"]
    assert g.jacks("7H") == ["JC", "JD"]


@BOTH
def test_jack_without_opponent_point_card_is_unplayable(engine, rules):
    g = engine.pos(rules, hands=(["JC"], []), points=(["5C"], []))
    assert legal(g) == {"draw"}


@BOTH
def test_jack_is_worth_no_points(engine, rules):
    g = engine.pos(rules, hands=(["JC"], []), points=([], ["AH"]))
    g.play("jack JC AH")
    assert g.score(0) == 1


# --------------------------------------------------------------------------- Queen

@BOTH
def test_single_queen_protects_other_cards_but_not_itself(engine, rules):
    g = engine.pos(rules, hands=(["2C", "9C", "JC"], []), points=([], ["7D"]),
            permanents=([], ["QH", "KS"]))
    assert legal(g) == {"draw", "points 2C", "points 9C", "scuttle 9C 7D",
                        "oneoff 2C QH", "oneoff 9C QH"}


def test_two_queens_are_both_targetable_in_classic(engine):
    g = engine.pos(CLASSIC, hands=(["2C", "9C", "JC"], []), points=([], ["7D"]),
            permanents=([], ["QH", "QS", "KS"]))
    assert legal(g) == {"draw", "points 2C", "points 9C", "scuttle 9C 7D",
                        "oneoff 2C QH", "oneoff 2C QS", "oneoff 9C QH", "oneoff 9C QS"}


def test_two_queens_protect_everything_in_cuttle_cards(engine):
    g = engine.pos(CC, hands=(["2C", "9C", "JC"], []), points=([], ["7D"]),
            permanents=([], ["QH", "QS", "KS"]))
    assert legal(g) == {"draw", "points 2C", "points 9C", "scuttle 9C 7D"}


@BOTH
def test_queen_protects_top_jack_on_its_side(engine, rules):
    g = engine.pos(rules, hands=(["2C", "JD"], []), points=([], ["7H[JC]"]), permanents=([], ["QD"]))
    assert legal(g) == {"draw", "points 2C", "oneoff 2C QD"}


def test_own_queen_does_not_stop_own_two_in_classic(engine):
    g = engine.pos(CLASSIC, hands=(["2C"], []), permanents=(["QH", "KH"], []))
    assert legal(g) == {"draw", "points 2C", "oneoff 2C KH", "oneoff 2C QH"}


@BOTH
def test_queen_does_not_stop_scuttle(engine, rules):
    g = engine.pos(rules, hands=(["8C"], []), points=([], ["7H"]), permanents=([], ["QS"]))
    assert "scuttle 8C 7H" in g.legal_moves
    g.play("scuttle 8C 7H")
    assert g.points(1) == []


@BOTH
def test_queen_does_not_stop_six(engine, rules):
    g = engine.pos(rules, hands=(["6C"], []), permanents=([], ["QS", "KH"]))
    play(g, "oneoff 6C", "resolve")
    assert g.permanents(1) == []


@BOTH
def test_queen_does_not_stop_four(engine, rules):
    g = engine.pos(rules, hands=(["4C"], ["3D"]), permanents=([], ["QS"]))
    play(g, "oneoff 4C", "resolve", "discard 3D")
    assert g.hand(1) == []


@BOTH
def test_queen_owner_opponent_cannot_counter(engine, rules):
    g = engine.pos(rules, hands=(["AS"], ["2C"]), points=([], ["TH"]), permanents=(["QD"], []))
    g.play("oneoff AS")
    assert g.phase == "counter"
    assert legal(g) == {"resolve"}


@BOTH
def test_queen_royal_is_played_as_permanent(engine, rules):
    g = engine.pos(rules, hands=(["QH"], []))
    assert legal(g) == {"draw", "royal QH"}
    g.play("royal QH")
    assert g.permanents(0) == ["QH"] and g.score(0) == 0


# --------------------------------------------------------------------------- King

@pytest.mark.parametrize("rules,goals", [(CLASSIC, (21, 14, 10, 7, 5)), (CC, (21, 14, 10, 5, 0))],
                         ids=["classic", "cuttle.cards"])
@pytest.mark.parametrize("kings", [0, 1, 2, 3])
def test_king_goal_table(engine, rules, goals, kings):
    ks = ["KC", "KD", "KH", "KS"][:kings]
    g = engine.pos(rules, permanents=(ks, []))
    assert g.goal(0) == goals[kings]
    assert g.goal(1) == 21
    assert not g.is_over


def test_classic_four_kings_goal_is_five(engine):
    g = engine.pos(CLASSIC, permanents=(["KC", "KD", "KH", "KS"], []), points=(["4C"], []))
    assert g.goal(0) == 5
    assert not g.is_over


@BOTH
def test_king_lowering_goal_wins_at_once(engine, rules):
    g = engine.pos(rules, hands=(["KH"], []), points=(["TH", "4C"], []))
    assert legal(g) == {"draw", "royal KH"}
    g.play("royal KH")
    assert g.permanents(0) == ["KH"]
    assert g.goal(0) == 14
    assert g.is_over and g.winner == 0
    assert g.phase == "over"
    assert legal(g) == set()


def test_cuttle_cards_fourth_king_wins_with_no_points(engine):
    g = engine.pos(CC, hands=(["KS"], []), permanents=(["KC", "KD", "KH"], []))
    assert g.goal(0) == 5
    g.play("royal KS")
    assert g.goal(0) == 0
    assert g.is_over and g.winner == 0


def test_classic_fourth_king_without_points_does_not_win(engine):
    g = engine.pos(CLASSIC, hands=(["KS"], []), permanents=(["KC", "KD", "KH"], []))
    g.play("royal KS")
    assert g.goal(0) == 5
    assert not g.is_over
    assert_main(g, 1)


@BOTH
def test_points_reaching_goal_win(engine, rules):
    g = engine.pos(rules, hands=(["2C"], []), points=(["TH", "9H"], []))
    g.play("points 2C")
    assert g.score(0) == 21
    assert g.is_over and g.winner == 0 and g.phase == "over"
    assert legal(g) == set()


# --------------------------------------------------------------------------- more edge cases

@BOTH
def test_glasses_make_the_opponents_hand_public_until_scrapped(engine, rules):
    g = engine.pos(rules, hands=(["8H"], ["6C"]))
    assert not g.is_public_hand(1)
    g.play("glasses 8H")
    assert g.is_public_hand(1) and not g.is_public_hand(0)
    play(g, "oneoff 6C", "resolve")
    assert not g.is_public_hand(1)


@BOTH
def test_scuttle_scraps_every_jack_of_the_stack(engine, rules):
    g = engine.pos(rules, hands=(["9C"], []), points=([], ["7H[JC,JD]"]))
    g.play("scuttle 9C 7H")
    assert g.scrap == srt(["9C", "7H", "JC", "JD"])
    assert g.points(1) == []


@BOTH
def test_two_one_off_can_be_countered(engine, rules):
    g = engine.pos(rules, hands=(["2D"], ["2C"]), permanents=([], ["KH"]))
    play(g, "oneoff 2D KH", "counter 2C", "resolve")
    assert g.permanents(1) == ["KH"]
    assert g.scrap == srt(["2C", "2D"])
    assert_main(g, 1)


def test_seven_revealing_a_seven_chains(engine):
    g = engine.pos(CLASSIC, hands=(["7C"], []), deck=["7H", "9S", "4D"])
    play(g, "oneoff 7C", "resolve")
    assert legal(g) == {"points 7H", "oneoff 7H"}
    g.play("oneoff 7H")
    assert g.scrap == ["7C"] and g.stack == ["7H"]
    g.play("resolve")
    assert g.phase == "seven" and g.revealed == ["9S"]
    g.play("points 9S")
    assert g.points(0) == ["9S"]
    assert g.scrap == srt(["7C", "7H"])
    assert g.deck[0] == "4D"
    assert_main(g, 1)


def test_seven_revealed_one_off_counter_window_respects_queen(engine):
    g = engine.pos(CLASSIC, hands=(["7C"], ["2S", "KC"]), permanents=(["QD"], []), deck=["4H", "AD"])
    play(g, "oneoff 7C")
    assert legal(g) == {"resolve"}
    play(g, "resolve", "oneoff 4H")
    assert g.to_move == 1
    assert legal(g) == {"resolve"}


def test_nine_cuttle_cards_top_jack_of_two_returns_and_is_frozen(engine):
    # P1 controls its own 7H: JC (P0's) under JD (P1's).
    g = engine.pos(CC, hands=(["9D"], []), points=([], ["7H[JC,JD]"]))
    play(g, "oneoff 9D JD", "resolve")
    assert g.hand(1) == ["JD"]
    assert g.points(0) == ["7H"] and g.jacks("7H") == ["JC"]
    assert legal(g) == {"draw"}


def test_seven_top2_unplayable_queen_and_jack_with_one_queen_each(engine):
    rules = CC.replace(one_queen_each=True)
    g = engine.pos(rules, hands=(["7C"], []), permanents=(["QH"], []), deck=["QS", "JH", "4D"])
    play(g, "oneoff 7C", "resolve")
    assert g.phase == "seven"
    assert legal(g) == {"discard QS", "discard JH"}
    g.play("discard QS")
    assert g.scrap == srt(["7C", "QS"])
    assert g.deck[:2] == ["JH", "4D"]


def test_seven_top1_unplayable_queen_with_one_queen_each_is_scrapped(engine):
    rules = CLASSIC.replace(one_queen_each=True)
    g = engine.pos(rules, hands=(["7C"], []), permanents=(["QH"], []), deck=["QS", "4D"])
    play(g, "oneoff 7C", "resolve")
    assert g.scrap == srt(["7C", "QS"])
    assert g.deck[0] == "4D"
    assert_main(g, 1)


def test_seven_top2_revealed_five_with_other_revealed_card_may_be_one_off(engine):
    g = engine.pos(CC, hands=(["7C"], []), deck=["5H", "9S"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert "oneoff 5H" in g.legal_moves


def test_seven_top2_unchosen_card_stays_on_top_when_revealed_one_off_fizzles(engine):
    g = engine.pos(CC, hands=(["7C"], ["2S", "KC"]), deck=["4H", "9S", "AD"])
    play(g, "oneoff 7C", "resolve", "oneoff 4H")
    assert g.deck[:2] == ["9S", "AD"]
    play(g, "counter 2S", "resolve")
    assert g.hand(1) == ["KC"]
    assert g.deck[:2] == ["9S", "AD"]
    assert g.scrap == srt(["7C", "4H", "2S"])
    assert_main(g, 1)


def test_nine_cuttle_cards_point_card_with_two_jacks_returns_to_controller(engine):
    g = engine.pos(CC, hands=(["9D"], []), points=([], ["7H[JC,JD]"]))
    play(g, "oneoff 9D 7H", "resolve")
    assert g.hand(1) == ["7H"]
    assert g.scrap == srt(["9D", "JC", "JD"])
    assert g.points(0) == [] and g.points(1) == []


@BOTH
def test_queen_protects_glasses_from_two(engine, rules):
    g = engine.pos(rules, hands=(["2C"], []), permanents=([], ["8D", "QS"]))
    assert legal(g) == {"draw", "points 2C", "oneoff 2C QS"}


def test_opponents_queen_does_not_protect_my_own_top_jack_from_my_two_in_classic(engine):
    # P0 controls 7H (P1's card) with its own JC; P1's Queen protects only P1's side.
    g = engine.pos(CLASSIC, hands=(["2S"], []), points=(["7H[JC]"], []), permanents=([], ["QD"]))
    assert legal(g) == {"draw", "points 2S", "oneoff 2S JC", "oneoff 2S QD"}


def test_three_from_a_seven_may_take_the_seven_and_its_counters(engine):
    g = engine.pos(CLASSIC, hands=(["7C", "2D"], ["2C"]), deck=["3D", "AH"])
    play(g, "oneoff 7C", "counter 2C", "counter 2D", "resolve")
    assert g.revealed == ["3D"]
    g.play("oneoff 3D")
    assert g.scrap == srt(["7C", "2C", "2D"])
    g.play("resolve")
    assert g.phase == "three"
    assert legal(g) == {"take 7C", "take 2C", "take 2D"}
    g.play("take 7C")
    assert g.hand(0) == ["7C"]
    assert g.scrap == srt(["2C", "2D", "3D"])
