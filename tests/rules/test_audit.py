"""Audit of rare rule interactions against the rulebook (docs/rules.md).

Every test builds a position with `cuttle.Game.from_position`, plays exact moves and
asserts the exact outcome the rulebook prescribes (the section is cited in each test).
Tests that pass document rare interactions; a failing test marks a disagreement between
the engine and the rulebook's text.
"""

import pytest

from support.scenario import CC, CLASSIC, all_cards, legal, play


def pos(engine, rules=CLASSIC, **kw):
    kw.setdefault("seed", 1)
    return engine.pos(rules, **kw)


def strs(cards):
    return sorted(str(c) for c in cards)


def count_cards(g):
    cards = all_cards(g)
    return len(cards), len(set(cards))


# --------------------------------------------------------------------------- the 7's one-off and counters

def test_seven_revealed_oneoff_single_counter_fizzles(engine):
    # §4: a 7 whose revealed card is played as a one-off follows the same counter rules;
    # §4b: the 7 goes to the scrap when the revealed card is played.
    g = pos(engine, hands=(["7C"], ["2C", "4D"]), points=([], ["9H"]), deck=["AS"])
    g.play("oneoff 7C")
    assert legal(g) == {"resolve", "counter 2C"}
    g.play("resolve")
    assert g.phase == "seven" and strs(g.revealed) == ["AS"] and strs(g.stack) == ["7C"]
    assert "oneoff AS" in legal(g)
    g.play("oneoff AS")
    assert g.phase == "counter" and g.to_move == 1
    assert strs(g.stack) == ["AS"] and "7C" in strs(g.scrap)
    g.play("counter 2C")
    assert g.to_move == 0 and legal(g) == {"resolve"}
    g.play("resolve")
    assert {"7C", "AS", "2C"} <= set(strs(g.scrap))
    assert strs(g.points(1)) == ["9H"]
    assert g.phase == "main" and g.turn == 1 and g.stack == []


def test_seven_revealed_oneoff_two_counters_resolves(engine):
    g = pos(engine, hands=(["7C", "2D"], ["2C"]), points=([], ["9H"]), deck=["AS"])
    play(g, "oneoff 7C", "resolve", "oneoff AS", "counter 2C", "counter 2D", "resolve")
    assert g.points(1) == []
    assert {"7C", "AS", "2C", "2D", "9H"} <= set(strs(g.scrap))
    assert g.phase == "main" and g.turn == 1
    assert count_cards(g) == (52, 52)


def test_countering_the_seven_itself_leaves_the_deck_untouched(engine):
    g = pos(engine, hands=(["7C"], ["2C"]), deck=["AS"])
    play(g, "oneoff 7C", "counter 2C", "resolve")
    assert str(g.deck[0]) == "AS" and g.revealed == []
    assert {"7C", "2C"} <= set(strs(g.scrap))
    assert g.turn == 1 and g.phase == "main"


def test_counter_against_revealed_oneoff_refused_when_seven_player_has_queen(engine):
    # §3: a player cannot counter a one-off of an opponent who controls a Queen.
    g = pos(engine, hands=(["7C"], ["2C"]), points=([], ["9H"]), permanents=(["QD"], []),
            deck=["AS"])
    g.play("oneoff 7C")
    assert legal(g) == {"resolve"}
    play(g, "resolve", "oneoff AS")
    assert legal(g) == {"resolve"}
    g.play("resolve")
    assert g.points(1) == []


def test_seven_top2_revealed_one_off_countered_unchosen_card_stays_on_top(engine):
    g = pos(engine, CC, hands=(["7C"], ["2C"]), points=([], ["9H"]), deck=["AS", "KD"])
    play(g, "oneoff 7C", "resolve", "oneoff AS", "counter 2C", "resolve")
    assert str(g.deck[0]) == "KD"
    assert strs(g.points(1)) == ["9H"]
    assert g.turn == 1


# --------------------------------------------------------------------------- Jack stacks: 9, 2, 6

def test_classic_nine_on_top_jack_of_three_stack(engine):
    # P1 controls TH with 3 Jacks: owner P0.  The 9 returns only the top Jack to the
    # player controlling its point card (P1); the card flips once, to P0 (§1, §4).
    g = pos(engine, hands=(["9S"], []), points=([], ["TH[JC,JD,JH]"]))
    assert "oneoff 9S JH" in legal(g)
    assert "oneoff 9S JD" not in legal(g) and "oneoff 9S JC" not in legal(g)
    play(g, "oneoff 9S JH", "resolve")
    assert strs(g.hand(1)) == ["JH"]
    assert strs(g.points(0)) == ["TH"] and strs(g.jacks("TH")) == ["JC", "JD"]
    assert g.score(0) == 10 and g.score(1) == 0
    assert g.turn == 1


def test_cc_nine_freezes_top_jack_of_four_stack(engine):
    g = pos(engine, CC, hands=(["9S", "AC"], ["AD"]), points=([], ["5H[JC,JD,JH,JS]"]))
    assert legal(g) >= {"oneoff 9S JS", "oneoff 9S 5H"}
    assert "oneoff 9S JH" not in legal(g)
    play(g, "oneoff 9S JS", "resolve")
    assert strs(g.hand(1)) == ["AD", "JS"]
    assert strs(g.points(0)) == ["5H"] and [str(j) for j in g.jacks("5H")] == ["JC", "JD", "JH"]
    assert g.turn == 1 and strs(g.frozen(1)) == ["JS"]
    assert "jack JS 5H" not in legal(g)
    play(g, "draw", "draw")
    assert "jack JS 5H" in legal(g)


def test_cc_nine_on_point_card_with_four_jacks_returns_it_to_controller_and_scraps_jacks(engine):
    g = pos(engine, CC, hands=(["9S"], []), points=([], ["5H[JC,JD,JH,JS]"]))
    play(g, "oneoff 9S 5H", "resolve")
    assert strs(g.hand(1)) == ["5H"] and g.points(1) == [] and g.points(0) == []
    assert {"JC", "JD", "JH", "JS", "9S"} <= set(strs(g.scrap))
    assert strs(g.frozen(1)) == ["5H"]


def test_classic_two_on_top_jack_of_three_stack_flips_once(engine):
    g = pos(engine, hands=(["2C"], []), points=([], ["TH[JC,JD,JH]"]))
    assert "oneoff 2C JH" in legal(g) and "oneoff 2C JD" not in legal(g)
    play(g, "oneoff 2C JH", "resolve")
    assert strs(g.points(0)) == ["TH"] and [str(j) for j in g.jacks("TH")] == ["JC", "JD"]
    assert "JH" in strs(g.scrap)


def test_six_with_three_and_one_jack_stacks_returns_both_to_owners(engine):
    # 9H[JS] on P0: owner P1.  5H[JC,JD,JH] on P1: owner P0 (§1).  §4b: the 6 leaves
    # every point card on its original owner's side.
    g = pos(engine, hands=(["6C"], []), points=(["9H[JS]"], ["5H[JC,JD,JH]"]))
    assert g.score(0) == 9 and g.score(1) == 5
    play(g, "oneoff 6C", "resolve")
    assert strs(g.points(0)) == ["5H"] and strs(g.points(1)) == ["9H"]
    assert g.jacks("5H") == [] and g.jacks("9H") == []
    assert {"JC", "JD", "JH", "JS", "6C"} <= set(strs(g.scrap))


def test_six_with_four_jack_stack_keeps_card_with_controller(engine):
    g = pos(engine, hands=(["6C"], []), points=([], ["5H[JC,JD,JH,JS]"]))
    play(g, "oneoff 6C", "resolve")
    assert strs(g.points(1)) == ["5H"] and g.jacks("5H") == []


def test_six_with_two_two_jack_stacks(engine):
    g = pos(engine, hands=(["6C"], []), points=(["3C[JC,JD]"], ["4C[JH,JS]"]))
    play(g, "oneoff 6C", "resolve")
    assert strs(g.points(0)) == ["3C"] and strs(g.points(1)) == ["4C"]


def test_six_returning_stolen_card_wins_for_responder(engine):
    # §2: a player wins during the opponent's action (an opponent's 6 that returns a
    # stolen card).
    g = pos(engine, hands=(["6C"], []), points=(["TH[JC]", "AC"], ["9S", "2S"]))
    assert g.score(0) == 11 and g.score(1) == 11
    play(g, "oneoff 6C", "resolve")
    assert g.is_over and g.winner == 1 and g.score(1) == 21


# --------------------------------------------------------------------------- scuttles

def test_scuttle_a_stolen_card_scraps_it_and_its_jacks(engine):
    g = pos(engine, hands=(["TS"], []), points=(["2C"], ["TH[JC]"]))
    assert "scuttle TS TH" in legal(g)
    assert "scuttle TS 2C" not in legal(g)
    g.play("scuttle TS TH")
    assert g.points(1) == [] and strs(g.points(0)) == ["2C"]
    assert {"TS", "TH", "JC"} <= set(strs(g.scrap))


def test_ten_blocks_scuttle_of_stolen_card_keeps_it_with_its_jacks(engine):
    r = CLASSIC.replace(ten_blocks_scuttle=True)
    g = pos(engine, r, hands=(["TS"], ["TD"]), points=([], ["TH[JC]"]))
    g.play("scuttle TS TH")
    assert g.phase == "block" and g.to_move == 1 and legal(g) == {"resolve", "block TD"}
    g.play("block TD")
    assert strs(g.points(1)) == ["TH"] and strs(g.jacks("TH")) == ["JC"]
    assert {"TS", "TD"} <= set(strs(g.scrap))
    assert g.turn == 1


def test_ten_blocks_with_a_ten_returned_and_frozen_by_own_nine(engine):
    # §4b frozen: the card cannot be played during its receiver's NEXT turn.  Returned
    # by the receiver's own 9 during their turn, it is not frozen during the
    # opponent's turn (rules-decisions 3), so it may block there.
    r = CLASSIC.replace(nine="freeze", nine_targets_points=True, ten_blocks_scuttle=True)
    g = pos(engine, r, hands=(["TS", "AC"], ["9C"]), points=([], ["TD", "5H"]), to_move=1)
    play(g, "oneoff 9C TD", "resolve")
    assert "TD" in strs(g.hand(1)) and g.turn == 0
    g.play("scuttle TS 5H")
    assert legal(g) == {"resolve", "block TD"}
    h = g.copy()
    h.play("block TD")
    assert strs(h.points(1)) == ["5H"]
    # Not blocking: in player 1's next turn the 10 is frozen.
    g.play("resolve")
    assert g.turn == 1 and strs(g.frozen(1)) == ["TD"]
    assert not any("TD" in m for m in legal(g))


# --------------------------------------------------------------------------- the classic 2 on your own Jack

def test_classic_two_on_own_top_jack_of_two_stack_lets_opponent_win_on_resolve(engine):
    # P0 controls TH[JC,JD] (two Jacks: P0 owns it); scrapping P0's own top Jack JD
    # flips TH to P1, who reaches 21 on their own `resolve` (§2).
    g = pos(engine, hands=(["2C"], []), points=(["TH[JC,JD]"], ["9S", "2S"]))
    assert "oneoff 2C JD" in legal(g)
    play(g, "oneoff 2C JD", "resolve")
    assert g.is_over and g.winner == 1
    assert strs(g.points(1)) == ["2S", "9S", "TH"] and g.score(1) == 21


def test_classic_nine_on_own_top_jack_returns_it_and_gives_card_back(engine):
    g = pos(engine, hands=(["9C"], []), points=(["TH[JC]"], []))
    play(g, "oneoff 9C JC", "resolve")
    assert strs(g.hand(0)) == ["JC"] and strs(g.points(1)) == ["TH"]


# --------------------------------------------------------------------------- Queens

def test_queens_of_both_players(engine):
    g = pos(engine, hands=(["2C", "JD"], ["2D"]), points=(["5C"], ["9H"]),
            permanents=(["QC"], ["QH"]))
    lm = legal(g)
    assert "oneoff 2C QH" in lm and "oneoff 2C QC" in lm
    assert "jack JD 9H" not in lm
    g.play("oneoff 2C QH")
    assert legal(g) == {"resolve"}          # P0 controls a Queen: no counter
    g.play("resolve")
    assert g.permanents(1) == [] and "QH" in strs(g.scrap)
    g.play("draw")                          # P1
    assert "jack JD 9H" in legal(g)


def test_cc_queens_of_both_players_two_queens_protect_everything(engine):
    # 9H[JS] is listed on P1's side with one Jack: P1 stole it from P0.  With two
    # Queens nothing of P1's is targetable (§3 cuttle.cards), not even the top Jack.
    g = pos(engine, CC, hands=(["2C", "9C", "JD"], []), points=([], ["9H[JS]"]),
            permanents=([], ["QH", "QS"]))
    lm = legal(g)
    assert not any(m.startswith("oneoff 2C") or m.startswith("oneoff 9C") or
                   m.startswith("jack") for m in lm)


def test_one_queen_each_nine_returns_queen_which_may_be_replayed(engine):
    r = CLASSIC.replace(one_queen_each=True)
    g = pos(engine, r, hands=(["9C"], ["QS"]), permanents=([], ["QH"]))
    play(g, "oneoff 9C QH", "resolve")
    assert strs(g.hand(1)) == ["QH", "QS"] and g.permanents(1) == []
    assert {"royal QH", "royal QS"} <= legal(g)
    play(g, "royal QS", "draw")
    assert "royal QH" not in legal(g)


def test_one_queen_each_cc_freeze_returned_queen_then_replay(engine):
    r = CC.replace(one_queen_each=True)
    g = pos(engine, r, hands=(["9C"], ["QS", "AC"]), permanents=([], ["QH"]))
    play(g, "oneoff 9C QH", "resolve")
    # QH frozen; QS may be played (no Queen on the table now).
    assert "royal QH" not in legal(g) and "royal QS" in legal(g)
    play(g, "royal QS", "draw")
    assert "royal QH" not in legal(g)


# --------------------------------------------------------------------------- hand limit

def test_hand_limit_three_pushes_over_the_limit(engine):
    r = CLASSIC.replace(hand_limit=2)
    g = pos(engine, r, hands=(["3C", "AC", "AD"], []), scrap=["KS"])
    play(g, "oneoff 3C", "resolve")
    assert g.phase == "three"
    g.play("take KS")
    assert g.phase == "discard" and g.to_move == 0 and g.turn == 0
    assert legal(g) == {"discard AC", "discard AD", "discard KS"}
    g.play("discard AC")
    assert g.phase == "main" and g.turn == 1
    assert strs(g.hand(0)) == ["AD", "KS"]
    assert {"3C", "AC"} <= set(strs(g.scrap))


def test_hand_limit_seven_revealing_five_pushes_over_the_limit(engine):
    r = CLASSIC.replace(hand_limit=3)
    g = pos(engine, r, hands=(["7C", "AC", "AD", "AH"], []), deck=["5S", "2C", "2D"])
    play(g, "oneoff 7C", "resolve", "oneoff 5S", "resolve")
    assert strs(g.hand(0)) == ["2C", "2D", "AC", "AD", "AH"]
    assert g.phase == "discard"
    g.play("discard AC")
    assert g.phase == "discard" and g.turn == 0
    g.play("discard 2D")
    assert g.phase == "main" and g.turn == 1
    assert strs(g.hand(0)) == ["2C", "AD", "AH"]


def test_cc_five_hand_limit_with_frozen_card_discarded(engine):
    # P0's 9 returns P1's King (frozen for P1's next turn).
    g = pos(engine, CC, hands=(["9C"], ["5S", "2C", "3C", "4C", "6C", "7C", "8C"]),
            permanents=([], ["KC"]), deck=["AD", "AH", "AS"])
    play(g, "oneoff 9C KC", "resolve")
    assert strs(g.frozen(1)) == ["KC"] and len(g.hand(1)) == 8
    # P1's 5: discard 1 (the frozen King may be discarded), then draw 3.
    play(g, "oneoff 5S", "resolve")
    assert g.phase == "five" and "discard KC" in legal(g)
    g.play("discard KC")
    assert len(g.hand(1)) == 9 and g.phase == "discard"
    g.play("discard 2C")
    assert g.phase == "main" and g.turn == 0 and len(g.hand(1)) == 8


def test_joker_swap_pushes_player_over_hand_limit(engine):
    # (the deal: only before the first move can the player not to move be above the
    # limit, which its own turn ends at)
    r = CLASSIC.replace(joker=True, hand_limit=3, deal=(1, 5))
    g = pos(engine, r, hands=(["JK"], ["AC", "AD", "AH", "AS", "2C"]))
    play(g, "oneoff JK", "resolve")
    assert strs(g.hand(0)) == ["2C", "AC", "AD", "AH", "AS"] and g.hand(1) == []
    assert g.phase == "discard"
    play(g, "discard AC", "discard AD")
    assert g.phase == "main" and g.turn == 1


def test_four_draw_pushes_victim_over_limit_but_victim_discards_only_at_end_of_own_turn(engine):
    r = CLASSIC.replace(four="draw", hand_limit=2)
    g = pos(engine, r, hands=(["4C"], ["AC", "AD"]), deck=["AH", "AS", "KD"])
    play(g, "oneoff 4C", "resolve")
    assert len(g.hand(1)) == 4 and g.phase == "main" and g.turn == 1
    g.play("draw")
    assert g.phase == "discard" and g.to_move == 1
    play(g, "discard AC", "discard AD")
    assert g.phase == "discard"
    g.play("discard AH")
    assert g.phase == "main" and g.turn == 0 and len(g.hand(1)) == 2


# --------------------------------------------------------------------------- frozen and the Joker

def test_joker_swap_ends_freeze_of_returned_queen(core):
    r = CC.replace(joker=True)
    g = pos(core, r, hands=(["JK", "AC"], ["9S", "AD"]), permanents=(["QH"], []), to_move=1)
    assert "oneoff 9S QH" in legal(g)
    play(g, "oneoff 9S QH", "resolve")
    assert strs(g.frozen(0)) == ["QH"] and "royal QH" not in legal(g)
    play(g, "oneoff JK", "resolve")
    assert strs(g.hand(0)) == ["AD"] and strs(g.hand(1)) == ["AC", "QH"]
    assert g.turn == 1 and g.frozen(1) == [] and "royal QH" in legal(g)
    # §6: each player knows the hand they gave away.
    assert strs(g.observation(1).opponent_known) == ["AD"]
    assert strs(g.observation(0).opponent_known) == ["AC", "QH"]


def test_frozen_card_cannot_be_played_from_own_turn_but_can_after_swap_back(engine):
    r = CC.replace(joker=True)
    g = pos(engine, r, hands=(["AC"], ["9S", "JK"]), points=(["TH"], []), to_move=1)
    play(g, "oneoff 9S TH", "resolve")
    assert strs(g.frozen(0)) == ["TH"]
    assert not any("TH" in m for m in legal(g))
    play(g, "draw")
    # P1 swaps: P1 now holds TH (not frozen); P0 holds JK.
    play(g, "oneoff JK", "resolve")
    assert "TH" in strs(g.hand(1)) and g.turn == 0
    g.play("draw")
    assert "points TH" in legal(g)


# --------------------------------------------------------------------------- sudden death

def test_sudden_death_built_empty_deck_nine_to_deck_does_not_cancel(engine):
    r = CLASSIC.replace(sudden_death=True, nine="topdeck")
    g = pos(engine, r, hands=(["9C"], ["AC"]), permanents=([], ["KS"]), rest="scrap")
    assert g.deck == []
    play(g, "oneoff 9C KS", "resolve")
    assert strs(g.deck) == ["KS"] and g.turn == 1 and not g.is_over
    assert "draw" in legal(g)
    g.play("draw")
    assert g.is_over and g.winner is None and g.end_reason == "sudden_death"


def test_sudden_death_deck_emptied_by_cc_seven_revealing_last_two_cards(engine):
    r = CC.replace(sudden_death=True)
    g = pos(engine, r, hands=(["7C", "AC"], ["AD"]), deck=["2C", "2D"], rest="scrap")
    play(g, "oneoff 7C", "resolve", "points 2C")
    assert strs(g.deck) == ["2D"] and g.turn == 1
    g.play("draw")                       # turn t+1
    assert not g.is_over and g.turn == 0
    g.play("points AC")                  # turn t+2
    assert g.is_over and g.winner is None and g.end_reason == "sudden_death"


def test_sudden_death_last_turn_hand_limit_discard_then_end(engine):
    r = CLASSIC.replace(sudden_death=True, hand_limit=1)
    g = pos(engine, r, hands=(["AC", "AD", "AH"], []), rest="scrap")
    g.play("pass")
    assert g.phase == "discard"
    g.play("discard AC")
    assert g.phase == "discard" and g.turn == 0
    g.play("discard AD")
    assert g.turn == 1 and not g.is_over
    g.play("pass")
    assert g.is_over and g.winner is None and g.end_reason == "sudden_death"


# --------------------------------------------------------------------------- strict one-offs and revealed cards

def test_strict_revealed_four_needs_opposing_hand(engine):
    g = pos(engine, CC, hands=(["7C"], []), deck=["4S", "9D"])
    play(g, "oneoff 7C", "resolve")
    assert "oneoff 4S" not in legal(g) and "points 4S" in legal(g)


def test_strict_revealed_three_with_takeable_card_in_scrap(engine):
    g = pos(engine, CC, hands=(["7C"], []), deck=["3S", "9D"], scrap=["3H", "AC"])
    play(g, "oneoff 7C", "resolve")
    assert "oneoff 3S" in legal(g)
    play(g, "oneoff 3S", "resolve")
    assert g.phase == "three"
    # cuttle.cards: not a 3; the 7 went to the scrap when the 3 was played (§4b).
    assert legal(g) == {"take AC", "take 7C"}


def test_strict_revealed_seven_with_other_card_left_may_chain(engine):
    g = pos(engine, CC, hands=(["7C"], []), points=([], []), deck=["7S", "AH"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert "oneoff 7S" in legal(g)
    play(g, "oneoff 7S", "resolve")
    assert strs(g.revealed) == ["AH"] and g.deck == []


def test_strict_revealed_five_last_card_may_be_played_and_draws_nothing(engine):
    # §4b (all presets): "a revealed 5 that was the last card may be played as a
    # one-off and draws nothing"; §4: "a 4 or 5 that would have nothing to resolve
    # (... deck emptied before a 7's 5) does what it can".
    g = pos(engine, CC, hands=(["7C"], ["AD"]), deck=["5S"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert strs(g.revealed) == ["5S"]
    assert "oneoff 5S" in legal(g)


def test_classic_revealed_five_last_card_draws_nothing(engine):
    g = pos(engine, hands=(["7C", "AC"], ["AD"]), deck=["5S"], rest="scrap")
    play(g, "oneoff 7C", "resolve", "oneoff 5S", "resolve")
    assert strs(g.hand(0)) == ["AC"] and g.turn == 1


# --------------------------------------------------------------------------- draw four

def test_draw_four_with_one_card_left(engine):
    r = CLASSIC.replace(four="draw")
    g = pos(engine, r, hands=(["4C"], ["AD"]), deck=["KS"], rest="scrap")
    play(g, "oneoff 4C", "resolve")
    assert strs(g.hand(1)) == ["AD", "KS"] and g.deck == [] and g.turn == 1


def test_draw_four_strict_illegal_with_empty_deck_even_with_opposing_hand(engine):
    r = CC.replace(four="draw")
    g = pos(engine, r, hands=(["4C"], ["AD"]), rest="scrap")
    assert "oneoff 4C" not in legal(g)


def test_draw_four_revealed_with_leftover_last_card_and_knowledge(core):
    r = CC.replace(four="draw", reveal_on_empty_deck=False)
    g = pos(core, r, hands=(["7C"], []), deck=["4S", "KS"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert "oneoff 4S" in legal(g)          # the unchosen KS counts as deck
    g.play("oneoff 4S")
    assert strs(g.deck) == ["KS"]
    assert [(d, str(c)) for d, c in g.observation(1).deck_known] == [(0, "KS")]
    g.play("resolve")
    assert strs(g.hand(1)) == ["KS"] and g.deck == []
    # The card's place was public: P0 knows it is in P1's hand (§6).
    assert strs(g.observation(0).opponent_known) == ["KS"]


# --------------------------------------------------------------------------- three passes

def test_three_passes_interleaved_with_hand_limit_discards(engine):
    # §4b: every move other than pass (discards included) resets the count.
    r = CLASSIC.replace(hand_limit=2)
    g = pos(engine, r, hands=(["AC", "AD", "AH"], []), rest="scrap")
    g.play("pass")
    assert g.phase == "discard"
    g.play("discard AC")
    g.play("pass")                          # P1: 1
    g.play("pass")                          # P0: 2
    assert not g.is_over
    g.play("pass")                          # P1: 3
    assert g.is_over and g.winner is None and g.end_reason == "passes"


def test_three_passes_counter_broken_by_a_one_off(engine):
    g = pos(engine, hands=(["6C"], []), rest="scrap")
    play(g, "pass", "pass", "oneoff 6C", "resolve", "pass", "pass")
    assert not g.is_over
    g.play("pass")
    assert g.is_over and g.end_reason == "passes"


# --------------------------------------------------------------------------- goals and won positions

def test_cc_four_kings_position_is_over_at_once(engine):
    g = pos(engine, CC, permanents=(["KC", "KD", "KH", "KS"], []))
    assert g.goal(0) == 0 and g.is_over and g.winner == 0
    assert legal(g) == set()


def test_cc_four_kings_and_opponent_at_goal_is_refused(engine):
    with pytest.raises(ValueError):
        pos(engine, CC, permanents=(["KC", "KD", "KH", "KS"], []), points=([], ["TH", "9H", "2C"]))


def test_cc_fourth_king_from_a_seven_wins_at_once(engine):
    g = pos(engine, CC, hands=(["7C"], []), permanents=(["KC", "KD", "KH"], []), deck=["KS", "AC"])
    play(g, "oneoff 7C", "resolve")
    assert "royal KS" in legal(g)
    g.play("royal KS")
    assert g.is_over and g.winner == 0 and g.goal(0) == 0


def test_cc_nine_returning_a_king_raises_the_goal_and_freezes_it(engine):
    g = pos(engine, CC, hands=(["AC"], ["9C", "AD"]), permanents=(["KC", "KD", "KH"], []),
            points=(["2C"], []), to_move=1)
    assert g.goal(0) == 5 and not g.is_over
    play(g, "oneoff 9C KH", "resolve")
    assert g.goal(0) == 10 and strs(g.frozen(0)) == ["KH"]


def test_position_with_player_one_at_goal_and_player_zero_to_move_is_over(engine):
    g = pos(engine, points=([], ["TH", "9H", "2C"]))
    assert g.is_over and g.winner == 1


def test_custom_goal_zero_for_no_kings_both_refused(engine):
    # Refused as a rule already: with a goal of 0 every deal is won before the first move.
    with pytest.raises(ValueError, match="goal without Kings"):
        pos(engine, CLASSIC.replace(king_goals=(0, 0, 0, 0, 0)))
    pos(engine, CLASSIC.replace(king_goals=(1, 0, 0, 0, 0)), hands=(["AC"], []))


def test_goal_reached_exactly_counts(engine):
    g = pos(engine, hands=(["AC"], []), points=(["TH", "9H", "AD"], []))
    assert g.score(0) == 20
    g.play("points AC")
    assert g.is_over and g.winner == 0


# --------------------------------------------------------------------------- knowledge (§6)

def test_cc_seven_leftover_is_known_on_top_and_then_in_the_drawers_hand(core):
    g = pos(core, CC, hands=(["7C"], []), deck=["AH", "9D"])
    play(g, "oneoff 7C", "resolve", "points AH")
    for p in (0, 1):
        assert [(d, str(c)) for d, c in g.observation(p).deck_known] == [(0, "9D")]
    g.play("draw")
    assert strs(g.observation(0).opponent_known) == ["9D"]


def test_nine_return_of_own_permanent_is_known_to_opponent(core):
    g = pos(core, hands=(["9C"], []), permanents=(["KH"], []))
    play(g, "oneoff 9C KH", "resolve")
    assert strs(g.observation(1).opponent_known) == ["KH"]


def test_four_discards_remove_known_cards_and_hide_nothing_else(core):
    g = pos(core, hands=(["3C", "4C"], ["AD", "AH", "AS"]), scrap=["KS"], deck=["2D"])
    play(g, "oneoff 3C", "resolve", "take KS")
    assert strs(g.observation(1).opponent_known) == ["KS"]
    play(g, "draw", "oneoff 4C", "resolve")
    assert g.phase == "four" and g.to_move == 1
    g.play("discard AD AH")
    assert strs(g.hand(1)) == ["2D", "AS"]
    assert strs(g.observation(0).opponent_known) == []
    assert strs(g.observation(1).opponent_known) == ["KS"]


def test_glasses_reveal_only_the_opponents_hand(core):
    g = pos(core, hands=(["8C", "AC"], ["AD"]))
    g.play("glasses 8C")
    assert g.observation(0).opponent_hand_public
    assert strs(g.observation(0).opponent_known) == ["AD"]
    assert not g.observation(1).opponent_hand_public
    assert strs(g.observation(1).opponent_known) == []


def test_glasses_knowledge_is_remembered_after_glasses_are_returned(core):
    g = pos(core, hands=(["8C", "AC"], ["AD", "9C"]))
    play(g, "glasses 8C", "oneoff 9C 8C", "resolve")
    assert not g.observation(0).opponent_hand_public
    assert strs(g.observation(0).opponent_known) == ["AD"]


def test_determinization_keeps_a_known_top_card_and_known_hand_cards(core):
    g = pos(core, CC, hands=(["7C", "3C"], ["AD", "AS"]), deck=["AH", "9D"], scrap=["KS"])
    play(g, "oneoff 7C", "resolve", "points AH")
    for seed in range(20):
        d = g.determinize(1, seed=seed)
        assert str(d.deck[0]) == "9D"
        assert strs(d.hand(1)) == ["AD", "AS"]
        assert strs(d.points(0)) == ["AH"]
        assert len(d.hand(0)) == 1


# --------------------------------------------------------------------------- more rare interactions

def test_ten_blocks_scuttle_by_a_card_revealed_after_a_countered_seven(engine):
    # §4b stack: the 7 and its 2s go to the scrap when the revealed card is played; the
    # scuttling card then waits on the stack for the block.
    r = CLASSIC.replace(ten_blocks_scuttle=True)
    g = pos(engine, r, hands=(["7C", "2D"], ["2C", "TD"]), points=([], ["9H"]), deck=["TS"])
    play(g, "oneoff 7C", "counter 2C", "counter 2D", "resolve")
    assert g.phase == "seven" and legal(g) == {"points TS", "scuttle TS 9H"}
    g.play("scuttle TS 9H")
    assert g.phase == "block" and strs(g.stack) == ["TS"]
    assert {"7C", "2C", "2D"} <= set(strs(g.scrap))
    g.play("block TD")
    assert strs(g.points(1)) == ["9H"] and g.stack == [] and g.turn == 1
    assert {"TS", "TD"} <= set(strs(g.scrap))
    assert count_cards(g) == (52, 52)


def test_classic_seven_jack_with_both_players_queens_goes_on_own_card(engine):
    # §4 classic 7: a Jack with no opponent target (P1's cards are protected by P1's
    # Queen) must go on one of your own point cards, giving it away.
    g = pos(engine, hands=(["7C"], []), points=(["5C"], ["9H"]), permanents=(["QC"], ["QH"]),
            deck=["JD"])
    play(g, "oneoff 7C", "resolve")
    assert legal(g) == {"jack JD 5C"}
    g.play("jack JD 5C")
    assert strs(g.points(1)) == ["5C", "9H"] and g.points(0) == []
    assert strs(g.jacks("5C")) == ["JD"]


def test_cc_seven_revealing_the_last_two_cards_makes_hands_public_meanwhile(core):
    # §4b: revealed cards leave the deck while revealed; §4 cuttle.cards: once the deck
    # is empty both hands are public.  What was seen stays known (§6).
    g = pos(core, CC, hands=(["7C", "AC"], ["AD", "AH"]), deck=["2C", "2D"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert g.deck == [] and g.is_public_hand(0) and g.is_public_hand(1)
    g.play("points 2C")
    assert strs(g.deck) == ["2D"] and not g.is_public_hand(1)
    assert strs(g.observation(0).opponent_known) == ["AD", "AH"]


def test_cc_nine_returns_stolen_point_card_to_its_controller(engine):
    # §4 cuttle.cards 9: return a target card to its controller's hand.  P1 controls
    # P0's TH (one Jack); P0's 9 sends TH to P1's hand, frozen, and the Jack is scrapped.
    g = pos(engine, CC, hands=(["9C"], []), points=([], ["TH[JC]"]))
    play(g, "oneoff 9C TH", "resolve")
    assert strs(g.hand(1)) == ["TH"] and strs(g.frozen(1)) == ["TH"]
    assert "JC" in strs(g.scrap)


def test_one_queen_each_refuses_a_position_with_two_queens(engine):
    # `Game.from_position` (docs/reference/game.md): ValueError for "a card in an
    # impossible place".
    r = CLASSIC.replace(one_queen_each=True)
    with pytest.raises(ValueError, match="one_queen_each"):
        pos(engine, r, permanents=([], ["QH", "QS"]))
    assert pos(engine, CLASSIC, permanents=([], ["QH", "QS"])).permanents(1) == ["QH", "QS"]


# --------------------------------------------------------------------------- open hands and a refilled deck

@pytest.mark.parametrize("rules,moves,refill", [
    # a cuttle.cards 7 reveals the last two cards and puts back the one it does not play
    ("cuttle.cards", ["oneoff 7C", "resolve", "points 3S"], "4S"),
    # a 9 to the deck puts a King on the empty deck
    ("cuttle.cards-beta", ["oneoff 9C KD", "resolve"], "KD"),
])
def test_hands_are_public_only_while_the_deck_is_empty(core, rules, moves, refill):
    # (decision 23) reveal_on_empty_deck reads "once the deck is empty" as "while".
    if rules == "cuttle.cards":
        g = core.pos(rules, hands=(["7C", "AC"], ["KD", "2D"]), deck=["3S", "4S"],
                     rest="scrap", seed=1)
    else:
        g = core.pos(rules, hands=(["9C", "AC"], ["3D", "2D"]), permanents=([], ["KD"]),
                     rest="scrap", seed=1)
        assert g.is_public_hand(0) and g.is_public_hand(1)
    play(g, *moves)
    assert [str(c) for c in g.deck] == [refill]
    assert not g.is_public_hand(0) and not g.is_public_hand(1)
    # what was seen while the hands were public stays known
    assert strs(g.observation(0).opponent_known) == strs(g.hand(1))

