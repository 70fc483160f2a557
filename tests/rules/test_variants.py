"""Rule scenario tests for every variant flag of ``Rules`` (docs/rules.md section 5 and its
flag table): for each flag, the same position played with the flag on and off gives a
different, exactly checked outcome.

Written from ``docs/rules.md``, the API reference (``docs/reference/``) and
``docs/rules-decisions.md``.
"""
import dataclasses

import pytest

import cuttle
import cuttle.rules as rules_module
from cuttle import _core
from cuttle.rules import FLAGS

from support.scenario import CLASSIC, CC, srt, legal, play, assert_main, all_cards


# --------------------------------------------------------------------------- Rules values

def test_presets_are_listed():
    assert "classic" in cuttle.Rules.presets
    assert "cuttle.cards" in cuttle.Rules.presets


def test_default_rules_are_classic():
    assert cuttle.Rules() == cuttle.Rules("classic")
    assert cuttle.Game(seed=1).rules == cuttle.Rules("classic")


def test_rules_are_hashable_and_replace_returns_changed_copy():
    r = cuttle.Rules()
    r2 = r.replace(joker=True)
    assert r2 != r
    assert r2.joker is True and r.joker is False
    assert len({r, cuttle.Rules(), r2}) == 2
    assert r2 == cuttle.Rules(joker=True)


def test_rules_are_frozen_against_deleting_too():
    rules = cuttle.Rules("cuttle.cards", hand_limit=7)
    key = hash(rules)
    for name in ("four", "hand_limit", "_preset", "_flags", "preset"):
        with pytest.raises(AttributeError, match="frozen"):
            delattr(rules, name)
    assert rules == cuttle.Rules("cuttle.cards", hand_limit=7) and hash(rules) == key
    assert repr(rules) == "Rules('cuttle.cards', hand_limit=7)" and rules.four == "choice"


# Both presets' flags as the rulebook gives them (written out, not read from FLAGS).
PRESET_TABLE = [
    ("king_goals", (21, 14, 10, 7, 5), (21, 14, 10, 5, 0)),
    ("hand_limit", None, 8),
    ("hand_limit_mode", "discard", "discard"),
    ("five", "draw2", "discard1_draw3"),
    ("seven", "top1", "top2"),
    ("nine", "return", "freeze"),
    ("nine_targets_points", False, True),
    ("targets_own_side", True, False),
    ("three_takes_threes", True, False),
    ("strict_oneoffs", False, True),
    ("four", "choice", "choice"),
    ("queens_protect_queens", False, True),
    ("queen_stops_scuttles", False, False),
    ("one_queen_each", False, False),
    ("eight_breaks_glasses", False, False),
    ("ten_blocks_scuttle", False, False),
    ("ten_discards", False, False),
    ("strict_scuttle", False, False),
    ("joker", False, False),
    ("open_hands", False, False),
    ("reveal_on_empty_deck", False, True),
    ("sudden_death", False, False),
    ("deal", (5, 6), (5, 6)),
]


def test_the_preset_table_has_every_flag():
    assert [row[0] for row in PRESET_TABLE] == list(FLAGS)


@pytest.mark.parametrize("flag,classic,cc", PRESET_TABLE)
def test_preset_flag_values(flag, classic, cc):
    assert getattr(CLASSIC, flag) == classic
    assert getattr(CC, flag) == cc


# --------------------------------------------------------------------------- the core's struct

def test_the_core_struct_has_a_field_for_every_flag_and_no_other():
    # (the struct's fields are read from the struct itself, not from a list)
    assert set(_core.CRULES_FIELDS) == set(FLAGS)
    assert rules_module._core_mismatch(FLAGS, _core.CRULES_FIELDS, _core.CHOICE_CODES) is None
    assert {name: tuple(codes) for name, codes in _core.CHOICE_CODES.items()} == \
        {f.name: f.values for f in FLAGS.values() if f.kind == "choice"}


def test_a_flag_without_a_field_is_refused_naming_it():
    flags = dict(FLAGS, new_rule=dataclasses.replace(FLAGS["joker"], name="new_rule"))
    with pytest.raises(RuntimeError, match=r"no field for new_rule \(Rules.c_fields\(\) "
                                           r"would drop it.*rebuild the core"):
        rules_module._check_core(flags, _core.CRULES_FIELDS, _core.CHOICE_CODES)
    fields = [f for f in _core.CRULES_FIELDS if f != "joker"] + ["old_rule"]
    said = rules_module._core_mismatch(FLAGS, fields, _core.CHOICE_CODES)
    assert said == "no field for joker (Rules.c_fields() would drop it: games played as if " \
                   "unset); no flag for the field old_rule"


def test_a_choice_value_the_core_does_not_code_in_order_is_refused():
    nine = dataclasses.replace(FLAGS["nine"], values=FLAGS["nine"].values + ("discard",))
    said = rules_module._core_mismatch(dict(FLAGS, nine=nine), _core.CRULES_FIELDS,
                                       _core.CHOICE_CODES)
    assert said.startswith("nine's values are coded {'return': 0, 'freeze': 1, 'topdeck': 2}")
    five = dataclasses.replace(FLAGS["five"], values=FLAGS["five"].values[::-1])
    assert "five's values" in rules_module._core_mismatch(
        dict(FLAGS, five=five), _core.CRULES_FIELDS, _core.CHOICE_CODES)
    codes = dict(_core.CHOICE_CODES, joker={"false": 0, "true": 1})
    assert rules_module._core_mismatch(FLAGS, _core.CRULES_FIELDS, codes) == \
        "joker has codes but is no choice flag"


def test_repr_shows_preset_and_changed_flag():
    text = repr(CC.replace(joker=True))
    assert "cuttle.cards" in text and "joker" in text


# --------------------------------------------------------------------------- random four

RANDOM4 = CLASSIC.replace(four="random")


def random_four_outcome(engine, seed, rules=RANDOM4):
    g = engine.pos(rules, hands=(["4D"], ["3C", "9H", "KS", "5D"]), rest="scrap", deck=["AC"], seed=seed)
    play(g, "oneoff 4D", "resolve")
    return g


def test_random_four_discards_two_without_a_choice_phase(engine):
    g = random_four_outcome(engine, 3)
    assert_main(g, 1)
    assert len(g.hand(1)) == 2
    gone = set(["3C", "9H", "KS", "5D"]) - set(g.hand(1))
    assert len(gone) == 2
    assert gone <= set(g.scrap)
    assert "4D" in g.scrap


def test_choice_four_asks_the_victim(engine):
    g = random_four_outcome(engine, 3, rules=CLASSIC)
    assert g.phase == "four" and g.to_move == 1


@pytest.mark.parametrize("seed", [0, 1, 7, 12345])
def test_random_four_is_reproducible_by_seed(engine, seed):
    a = random_four_outcome(engine, seed)
    b = random_four_outcome(engine, seed)
    assert a.hand(1) == b.hand(1)
    assert a.scrap == b.scrap


def test_random_four_depends_on_the_seed(engine):
    outcomes = {tuple(random_four_outcome(engine, s).hand(1)) for s in range(40)}
    assert len(outcomes) >= 2


def test_random_four_copy_keeps_the_random_state(engine):
    g = engine.pos(RANDOM4, hands=(["4D"], ["3C", "9H", "KS", "5D"]), seed=99)
    g.play("oneoff 4D")
    h = g.copy()
    g.play("resolve")
    h.play("resolve")
    assert g.hand(1) == h.hand(1)


def test_random_four_against_two_cards_discards_both(engine):
    g = engine.pos(RANDOM4, hands=(["4D"], ["3C", "9H"]), seed=5)
    play(g, "oneoff 4D", "resolve")
    assert g.hand(1) == []
    assert g.scrap == srt(["4D", "3C", "9H"])
    assert_main(g, 1)


# --------------------------------------------------------------------------- draw four

def test_draw_four_makes_the_victim_draw_two(engine):
    g = engine.pos(CLASSIC.replace(four="draw"), hands=(["4D"], ["KS"]), deck=["AH", "2H", "3H"])
    play(g, "oneoff 4D", "resolve")
    assert g.hand(1) == srt(["KS", "AH", "2H"])
    assert g.deck[0] == "3H"
    assert g.scrap == ["4D"]
    assert_main(g, 1)


def test_choice_four_with_same_position_discards(engine):
    g = engine.pos(CLASSIC, hands=(["4D"], ["KS"]), deck=["AH", "2H", "3H"])
    play(g, "oneoff 4D", "resolve")
    assert g.phase == "four"
    g.play("discard KS")
    assert g.hand(1) == []
    assert g.deck[0] == "AH"


def test_draw_four_short_deck_draws_what_is_left(engine):
    g = engine.pos(CLASSIC.replace(four="draw"), hands=(["4D"], []), deck=["AH"], rest="scrap")
    play(g, "oneoff 4D", "resolve")
    assert g.hand(1) == ["AH"] and g.deck == []


def test_draw_four_classic_empty_deck_is_legal_and_does_nothing(engine):
    g = engine.pos(CLASSIC.replace(four="draw"), hands=(["4D"], ["KS"]), deck=[], rest="scrap")
    assert "oneoff 4D" in g.legal_moves
    play(g, "oneoff 4D", "resolve")
    assert g.hand(1) == ["KS"]
    assert_main(g, 1)


def test_draw_four_strict_needs_a_deck_not_an_opposing_hand(engine):
    rules = CC.replace(four="draw")
    g = engine.pos(rules, hands=(["4D"], []), deck=["AH", "2H"])
    assert "oneoff 4D" in g.legal_moves
    g = engine.pos(rules, hands=(["4D"], ["KS"]), deck=[], rest="scrap")
    assert "oneoff 4D" not in g.legal_moves


# --------------------------------------------------------------------------- eight breaks glasses

BREAK8 = CLASSIC.replace(eight_breaks_glasses=True)


def test_eight_breaks_opponent_glasses(engine):
    g = engine.pos(BREAK8, hands=(["8C"], []), permanents=([], ["8D"]))
    assert legal(g) == {"draw", "points 8C", "glasses 8C", "oneoff 8C 8D"}
    g.play("oneoff 8C 8D")
    assert g.phase == "counter" and g.stack == ["8C"]
    g.play("resolve")
    assert g.permanents(1) == []
    assert g.scrap == srt(["8C", "8D"])
    assert_main(g, 1)


def test_eight_cannot_break_glasses_without_the_flag(engine):
    g = engine.pos(CLASSIC, hands=(["8C"], []), permanents=([], ["8D"]))
    assert legal(g) == {"draw", "points 8C", "glasses 8C"}


def test_eight_breaking_glasses_is_stopped_by_a_queen(engine):
    g = engine.pos(BREAK8, hands=(["8C"], []), permanents=([], ["8D", "QS"]))
    assert legal(g) == {"draw", "points 8C", "glasses 8C"}


def test_eight_cannot_break_own_glasses(engine):
    g = engine.pos(BREAK8, hands=(["8C"], []), permanents=(["8D"], []))
    assert legal(g) == {"draw", "points 8C", "glasses 8C"}


def test_eight_breaking_glasses_can_be_countered(engine):
    g = engine.pos(BREAK8, hands=(["8C"], ["2S"]), permanents=([], ["8D"]))
    play(g, "oneoff 8C 8D", "counter 2S", "resolve")
    assert g.permanents(1) == ["8D"]
    assert g.scrap == srt(["8C", "2S"])


# --------------------------------------------------------------------------- frozen nine

def test_frozen_nine_in_classic_freezes_returned_card(engine):
    g = engine.pos(CLASSIC.replace(nine="freeze"), hands=(["9C"], []), permanents=([], ["KH"]))
    play(g, "oneoff 9C KH", "resolve")
    assert g.hand(1) == ["KH"]
    assert legal(g) == {"draw"}


def test_returning_nine_in_classic_does_not_freeze(engine):
    g = engine.pos(CLASSIC, hands=(["9C"], []), permanents=([], ["KH"]))
    play(g, "oneoff 9C KH", "resolve")
    assert legal(g) == {"draw", "royal KH"}


def test_cuttle_cards_nine_return_mode_does_not_freeze(engine):
    g = engine.pos(CC.replace(nine="return"), hands=(["9C"], []), points=([], ["TH"]))
    play(g, "oneoff 9C TH", "resolve")
    assert g.hand(1) == ["TH"]
    assert "points TH" in g.legal_moves


# --------------------------------------------------------------------------- nine to deck

TOPDECK = CLASSIC.replace(nine="topdeck")


def test_nine_to_deck_puts_permanent_on_top_of_deck(engine):
    g = engine.pos(TOPDECK, hands=(["9C"], []), permanents=([], ["KH"]), deck=["AC", "AD"])
    play(g, "oneoff 9C KH", "resolve")
    assert g.permanents(1) == []
    assert g.hand(1) == []
    assert g.deck[:3] == ["KH", "AC", "AD"]
    assert g.scrap == ["9C"]
    assert_main(g, 1)
    g.play("draw")
    assert g.hand(1) == ["KH"]


def test_nine_to_deck_top_jack_goes_on_deck_and_card_flips_back(engine):
    g = engine.pos(TOPDECK, hands=(["9C"], []), points=([], ["7H[JC]"]), deck=["AC"])
    play(g, "oneoff 9C JC", "resolve")
    assert g.deck[:2] == ["JC", "AC"]
    assert g.points(0) == ["7H"] and g.jacks("7H") == []
    assert g.hand(1) == []


def test_nine_to_deck_point_card_goes_on_deck_and_jacks_are_scrapped(engine):
    g = engine.pos(CC.replace(nine="topdeck"), hands=(["9C"], []), points=([], ["TH[JC]"]), deck=["AC"])
    play(g, "oneoff 9C TH", "resolve")
    assert g.deck[:2] == ["TH", "AC"]
    assert g.points(0) == [] and g.points(1) == []
    assert g.scrap == srt(["9C", "JC"])
    assert g.hand(1) == []


# --------------------------------------------------------------------------- ten blocks scuttle

BLOCK = CLASSIC.replace(ten_blocks_scuttle=True)


def test_ten_blocks_scuttle(engine):
    g = engine.pos(BLOCK, hands=(["9C"], ["TS"]), points=([], ["7H"]))
    g.play("scuttle 9C 7H")
    assert g.phase == "block"
    assert g.turn == 0 and g.to_move == 1
    assert g.stack == ["9C"]
    assert g.points(1) == ["7H"]
    assert "9C" not in g.hand(0)
    assert legal(g) == {"resolve", "block TS"}
    g.play("block TS")
    assert g.points(1) == ["7H"]
    assert g.hand(1) == []
    assert g.scrap == srt(["9C", "TS"])
    assert_main(g, 1)


def test_ten_blocks_scuttle_victim_may_let_it_happen(engine):
    g = engine.pos(BLOCK, hands=(["9C"], ["TS"]), points=([], ["7H"]))
    play(g, "scuttle 9C 7H", "resolve")
    assert g.points(1) == []
    assert g.hand(1) == ["TS"]
    assert g.scrap == srt(["9C", "7H"])
    assert_main(g, 1)


def test_ten_blocks_scuttle_window_opens_without_a_ten(engine):
    g = engine.pos(BLOCK, hands=(["9C"], ["KD"]), points=([], ["7H"]))
    g.play("scuttle 9C 7H")
    assert g.phase == "block" and g.to_move == 1
    assert legal(g) == {"resolve"}


def test_a_block_is_no_counter_the_scuttlers_queen_allows_it_and_nothing_answers_it(engine):
    # (decision 24) A Queen forbids counters, not blocks; after the block the turn ends.
    g = engine.pos(BLOCK, hands=(["9C", "2C"], ["TS"]), points=([], ["7H"]),
                   permanents=(["QC"], []), deck=["AS"])
    g.play("scuttle 9C 7H")
    assert legal(g) == {"resolve", "block TS"}
    g.play("block TS")
    assert g.scrap == srt(["9C", "TS"]) and g.points(1) == ["7H"]
    assert_main(g, 1)


def test_a_scuttler_above_the_hand_limit_discards_after_the_block(engine):
    g = engine.pos(BLOCK.replace(hand_limit=2), hands=(["9C", "3C", "4C", "5C"], ["TD"]),
                   points=([], ["8D"]), deck=["AS", "KS"])
    play(g, "scuttle 9C 8D", "block TD")
    assert g.phase == "discard" and g.to_move == 0 and g.turn == 0
    assert legal(g) == {"discard 3C", "discard 4C", "discard 5C"}


def test_without_ten_blocks_scuttle_is_immediate(engine):
    g = engine.pos(CLASSIC, hands=(["9C"], ["TS"]), points=([], ["7H"]))
    g.play("scuttle 9C 7H")
    assert g.points(1) == []
    assert_main(g, 1)


# --------------------------------------------------------------------------- ten discards

TEN = CLASSIC.replace(ten_discards=True)


def test_ten_discards_makes_opponent_discard_one(engine):
    g = engine.pos(TEN, hands=(["TH"], ["3C", "KS"]))
    assert legal(g) == {"draw", "points TH", "oneoff TH"}
    play(g, "oneoff TH", "resolve")
    assert g.phase == "ten"
    assert g.turn == 0 and g.to_move == 1
    assert g.stack == ["TH"]
    assert legal(g) == {"discard 3C", "discard KS"}
    g.play("discard KS")
    assert g.hand(1) == ["3C"]
    assert g.scrap == srt(["TH", "KS"])
    assert_main(g, 1)


def test_ten_is_not_a_one_off_without_the_flag(engine):
    g = engine.pos(CLASSIC, hands=(["TH"], ["3C", "KS"]))
    assert legal(g) == {"draw", "points TH"}


def test_ten_discards_classic_against_empty_hand_does_nothing(engine):
    g = engine.pos(TEN, hands=(["TH"], []))
    assert "oneoff TH" in g.legal_moves
    play(g, "oneoff TH", "resolve")
    assert g.scrap == ["TH"]
    assert_main(g, 1)


def test_ten_discards_strict_needs_an_opposing_hand(engine):
    g = engine.pos(CC.replace(ten_discards=True), hands=(["TH"], []))
    assert legal(g) == {"draw", "points TH"}


# --------------------------------------------------------------------------- queens protect queens

def test_queens_protect_queens_in_classic_single_queen(engine):
    g = engine.pos(CLASSIC.replace(queens_protect_queens=True), hands=(["2C"], []),
            permanents=([], ["QH", "KS"]))
    assert legal(g) == {"draw", "points 2C", "oneoff 2C QH"}


def test_queens_protect_queens_in_classic_two_queens(engine):
    g = engine.pos(CLASSIC.replace(queens_protect_queens=True), hands=(["2C"], []),
            permanents=([], ["QH", "QS"]))
    assert legal(g) == {"draw", "points 2C"}


def test_classic_two_queens_without_flag_are_targetable(engine):
    g = engine.pos(CLASSIC, hands=(["2C"], []), permanents=([], ["QH", "QS"]))
    assert legal(g) == {"draw", "points 2C", "oneoff 2C QH", "oneoff 2C QS"}


def test_cuttle_cards_without_queens_protect_queens(engine):
    g = engine.pos(CC.replace(queens_protect_queens=False), hands=(["2C"], []),
            permanents=([], ["QH", "QS"]))
    assert legal(g) == {"draw", "points 2C", "oneoff 2C QH", "oneoff 2C QS"}


# --------------------------------------------------------------------------- queen stops scuttles

def test_queen_stops_scuttles(engine):
    g = engine.pos(CLASSIC.replace(queen_stops_scuttles=True), hands=(["8C"], []),
            points=([], ["7H"]), permanents=([], ["QH"]))
    assert legal(g) == {"draw", "points 8C", "glasses 8C"}


def test_queen_does_not_stop_scuttles_without_flag(engine):
    g = engine.pos(CLASSIC, hands=(["8C"], []), points=([], ["7H"]), permanents=([], ["QH"]))
    assert legal(g) == {"draw", "points 8C", "glasses 8C", "scuttle 8C 7H"}


def test_queen_stops_scuttles_only_for_its_owner(engine):
    g = engine.pos(CLASSIC.replace(queen_stops_scuttles=True), hands=(["8C"], []),
            points=([], ["7H"]), permanents=(["QH"], []))
    assert "scuttle 8C 7H" in g.legal_moves


# --------------------------------------------------------------------------- one queen each

def test_one_queen_each_forbids_second_queen(engine):
    g = engine.pos(CLASSIC.replace(one_queen_each=True), hands=(["QS"], []), permanents=(["QH"], []))
    assert legal(g) == {"draw"}


def test_second_queen_allowed_without_flag(engine):
    g = engine.pos(CLASSIC, hands=(["QS"], []), permanents=(["QH"], []))
    assert legal(g) == {"draw", "royal QS"}


def test_one_queen_each_allows_first_queen(engine):
    g = engine.pos(CLASSIC.replace(one_queen_each=True), hands=(["QS"], []), permanents=([], ["QH"]))
    assert legal(g) == {"draw", "royal QS"}


# --------------------------------------------------------------------------- strict scuttle

def test_strict_scuttle_ignores_suits(engine):
    g = engine.pos(CLASSIC.replace(strict_scuttle=True), hands=(["7S"], []), points=([], ["7H", "6C"]))
    assert legal(g) == {"draw", "points 7S", "scuttle 7S 6C", "oneoff 7S"}


def test_suits_break_scuttle_ties_without_strict_scuttle(engine):
    g = engine.pos(CLASSIC, hands=(["7S"], []), points=([], ["7H", "6C"]))
    assert legal(g) == {"draw", "points 7S", "scuttle 7S 6C", "scuttle 7S 7H", "oneoff 7S"}


# --------------------------------------------------------------------------- joker

JOKER = CLASSIC.replace(joker=True)


def test_joker_deck_has_53_cards():
    g = cuttle.Game(JOKER, seed=4)
    assert len(g.hand(0)) == 5 and len(g.hand(1)) == 6
    assert len(g.deck) == 42
    cards = all_cards(g)
    assert len(cards) == 53 and len(set(cards)) == 53
    assert "JK" in cards


def test_no_joker_without_flag():
    g = cuttle.Game(CLASSIC, seed=4)
    assert "JK" not in all_cards(g)


def test_joker_can_only_be_played_as_one_off(engine):
    g = engine.pos(JOKER, hands=(["JK"], []), points=([], ["AC"]))
    assert legal(g) == {"draw", "oneoff JK"}


def test_joker_swaps_the_hands(engine):
    g = engine.pos(JOKER, hands=(["JK", "AS", "2D"], ["KH"]))
    g.play("oneoff JK")
    assert g.phase == "counter" and g.to_move == 1
    assert g.stack == ["JK"]
    g.play("resolve")
    assert g.hand(0) == ["KH"]
    assert g.hand(1) == srt(["AS", "2D"])
    assert g.scrap == ["JK"]
    assert_main(g, 1)


def test_joker_can_be_countered(engine):
    g = engine.pos(JOKER, hands=(["JK", "AS"], ["KH", "2C"]))
    g.play("oneoff JK")
    assert legal(g) == {"resolve", "counter 2C"}
    play(g, "counter 2C", "resolve")
    assert g.hand(0) == ["AS"]
    assert g.hand(1) == ["KH"]
    assert g.scrap == srt(["2C", "JK"])
    assert_main(g, 1)


def test_joker_swap_ends_freezes(engine):
    rules = CC.replace(joker=True)
    g = engine.pos(rules, hands=(["9C", "AS"], ["JK"]), points=([], ["TH"]))
    play(g, "oneoff 9C TH", "resolve")
    assert legal(g) == {"draw", "oneoff JK"}       # TH is frozen
    play(g, "oneoff JK", "resolve")
    assert g.hand(0) == ["TH"]
    assert g.hand(1) == ["AS"]
    assert_main(g, 0)
    assert "points TH" in g.legal_moves


def test_joker_text_is_parsed_case_insensitively(engine):
    g = engine.pos(JOKER, hands=(["JK"], ["KH"]))
    g.play("ONEOFF jk")
    assert g.stack == ["JK"]


# --------------------------------------------------------------------------- quick goals

QUICK = CLASSIC.replace(king_goals=(15, 14, 10, 7, 5))


def test_quick_goal_fifteen_wins(engine):
    g = engine.pos(QUICK, hands=(["2C"], []), points=(["TH", "3C"], []))
    assert g.goal(0) == 15
    g.play("points 2C")
    assert g.is_over and g.winner == 0


def test_classic_goal_twenty_one_does_not_win_at_fifteen(engine):
    g = engine.pos(CLASSIC, hands=(["2C"], []), points=(["TH", "3C"], []))
    g.play("points 2C")
    assert not g.is_over
    assert_main(g, 1)


def test_quick_goal_with_king_uses_table(engine):
    g = engine.pos(QUICK, permanents=(["KC"], []))
    assert g.goal(0) == 14 and g.goal(1) == 15


# --------------------------------------------------------------------------- king goals

def test_custom_king_goals_inside_classic(engine):
    rules = CLASSIC.replace(king_goals=(21, 14, 10, 5, 0))
    g = engine.pos(rules, hands=(["KH"], []), points=(["5C"], []), permanents=(["KC", "KD"], []))
    assert g.goal(0) == 10
    g.play("royal KH")
    assert g.goal(0) == 5
    assert g.is_over and g.winner == 0


def test_classic_king_goals_same_position_does_not_win(engine):
    g = engine.pos(CLASSIC, hands=(["KH"], []), points=(["5C"], []), permanents=(["KC", "KD"], []))
    g.play("royal KH")
    assert g.goal(0) == 7
    assert not g.is_over


# --------------------------------------------------------------------------- hand limit N

def test_hand_limit_five_discard_mode(engine):
    rules = CLASSIC.replace(hand_limit=5)
    hand = ["2C", "3C", "4C", "5C", "6C"]
    g = engine.pos(rules, hands=(hand, []), deck=["AH"])
    g.play("draw")
    assert g.phase == "discard" and g.to_move == 0 and g.turn == 0
    assert legal(g) == {"discard " + c for c in hand + ["AH"]}
    g.play("discard AH")
    assert g.hand(0) == hand
    assert_main(g, 1)


def test_hand_limit_none_has_no_discard(engine):
    hand = ["2C", "3C", "4C", "5C", "6C"]
    g = engine.pos(CLASSIC, hands=(hand, []), deck=["AH"])
    g.play("draw")
    assert len(g.hand(0)) == 6
    assert_main(g, 1)


def test_hand_limit_no_draw_mode_forbids_drawing_at_the_limit(engine):
    rules = CLASSIC.replace(hand_limit=5, hand_limit_mode="no_draw")
    g = engine.pos(rules, hands=(["KC", "KD", "QC", "QD", "8C"], []), deck=["AH"])
    assert legal(g) == {"royal KC", "royal KD", "royal QC", "royal QD", "points 8C", "glasses 8C"}


def test_hand_limit_no_draw_mode_allows_drawing_up_to_the_limit(engine):
    rules = CLASSIC.replace(hand_limit=5, hand_limit_mode="no_draw")
    g = engine.pos(rules, hands=(["KC", "KD", "QC", "QD"], []), deck=["AH"])
    assert "draw" in g.legal_moves
    g.play("draw")
    assert len(g.hand(0)) == 5
    assert_main(g, 1)


def test_hand_limit_no_draw_mode_passes_when_nothing_else_is_legal(engine):
    rules = CLASSIC.replace(hand_limit=4, hand_limit_mode="no_draw")
    g = engine.pos(rules, hands=(["JC", "JD", "JH", "JS"], []), deck=["AH"])
    assert legal(g) == {"pass"}
    g.play("pass")
    assert_main(g, 1)


def test_hand_limit_no_draw_mode_does_not_limit_a_five(engine):
    rules = CLASSIC.replace(hand_limit=3, hand_limit_mode="no_draw")
    g = engine.pos(rules, hands=(["5C", "AC", "2C"], []), deck=["AH", "2H"])
    play(g, "oneoff 5C", "resolve")
    assert len(g.hand(0)) == 4
    assert_main(g, 1)


def test_cuttle_cards_without_hand_limit(engine):
    g = engine.pos(CC.replace(hand_limit=None), hands=(["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"], []),
            deck=["AH"])
    g.play("draw")
    assert len(g.hand(0)) == 9
    assert_main(g, 1)


# --------------------------------------------------------------------------- sudden death

SUDDEN = CLASSIC.replace(sudden_death=True)


def test_sudden_death_position_with_empty_deck_ends_after_next_turn(engine):
    g = engine.pos(SUDDEN, deck=[], rest="scrap")
    g.play("pass")
    assert not g.is_over
    g.play("pass")
    assert g.is_over and g.winner is None and g.phase == "over"


def test_without_sudden_death_two_passes_do_not_end_the_game(engine):
    g = engine.pos(CLASSIC, deck=[], rest="scrap")
    play(g, "pass", "pass")
    assert not g.is_over
    assert_main(g, 0)


def test_sudden_death_countdown_not_cancelled_by_sevens_unchosen_card(engine):
    rules = CC.replace(sudden_death=True)
    g = engine.pos(rules, hands=(["7C"], []), deck=["9H", "KD"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert g.deck == []
    g.play("royal KD")                 # turn t: 9H goes back on the deck
    assert g.deck == ["9H"]
    g.play("draw")                     # turn t+1
    assert not g.is_over
    g.play("pass")                     # turn t+2
    assert g.is_over and g.winner is None


def test_sudden_death_countdown_not_cancelled_by_nine_to_deck(engine):
    rules = CLASSIC.replace(sudden_death=True, nine="topdeck")
    g = engine.pos(rules, hands=(["9C"], []), permanents=([], ["KH"]), deck=[], rest="scrap")
    play(g, "oneoff 9C KH", "resolve")  # current turn
    assert g.deck == ["KH"]
    g.play("draw")                      # next turn: the last one
    assert g.is_over and g.winner is None


# --------------------------------------------------------------------------- preset-difference flags

def test_five_discard1_draw3_in_classic(engine):
    g = engine.pos(CLASSIC.replace(five="discard1_draw3"), hands=(["5C", "KS"], []), deck=["AH", "2H", "3H"])
    play(g, "oneoff 5C", "resolve")
    assert g.phase == "five"
    g.play("discard KS")
    assert g.hand(0) == srt(["AH", "2H", "3H"])


def test_five_draw2_in_cuttle_cards(engine):
    g = engine.pos(CC.replace(five="draw2"), hands=(["5C", "KS"], []), deck=["AH", "2H", "3H"])
    play(g, "oneoff 5C", "resolve")
    assert g.hand(0) == srt(["KS", "AH", "2H"])
    assert_main(g, 1)


def test_seven_top2_in_classic(engine):
    g = engine.pos(CLASSIC.replace(seven="top2"), hands=(["7C"], []), deck=["9H", "KD", "4S"])
    play(g, "oneoff 7C", "resolve")
    assert g.revealed == ["9H", "KD"]
    assert legal(g) == {"points 9H", "royal KD"}


def test_seven_top1_in_cuttle_cards(engine):
    g = engine.pos(CC.replace(seven="top1"), hands=(["7C"], []), points=([], ["3D"]),
            deck=["9H", "KD", "4S"])
    play(g, "oneoff 7C", "resolve")
    assert g.revealed == ["9H"]
    assert g.deck[0] == "KD"
    assert legal(g) == {"points 9H", "scuttle 9H 3D", "oneoff 9H 3D"}


def test_nine_targets_points_in_classic(engine):
    g = engine.pos(CLASSIC.replace(nine_targets_points=True), hands=(["9C"], []), points=([], ["TH"]))
    assert legal(g) == {"draw", "points 9C", "oneoff 9C TH"}
    play(g, "oneoff 9C TH", "resolve")
    assert g.hand(1) == ["TH"]
    assert "points TH" in g.legal_moves   # classic nine does not freeze


def test_targets_own_side_off_in_classic(engine):
    g = engine.pos(CLASSIC.replace(targets_own_side=False), hands=(["2C", "9C"], []),
            permanents=(["KS"], ["KH"]))
    assert legal(g) == {"draw", "points 2C", "points 9C", "oneoff 2C KH", "oneoff 9C KH"}


def test_targets_own_side_on_in_cuttle_cards(engine):
    g = engine.pos(CC.replace(targets_own_side=True), hands=(["2C"], []), permanents=(["KS"], ["KH"]))
    assert legal(g) == {"draw", "points 2C", "oneoff 2C KH", "oneoff 2C KS"}


def test_three_takes_threes_off_in_classic(engine):
    g = engine.pos(CLASSIC.replace(three_takes_threes=False), hands=(["3H"], []), scrap=["3D", "9C"])
    play(g, "oneoff 3H", "resolve")
    assert legal(g) == {"take 9C"}


def test_three_takes_threes_on_in_cuttle_cards(engine):
    g = engine.pos(CC.replace(three_takes_threes=True), hands=(["3H"], []), scrap=["3D", "9C"])
    play(g, "oneoff 3H", "resolve")
    assert legal(g) == {"take 3D", "take 9C"}


def test_strict_oneoffs_in_classic(engine):
    rules = CLASSIC.replace(strict_oneoffs=True)
    assert "oneoff 3H" not in engine.pos(rules, hands=(["3H"], [])).legal_moves
    assert "oneoff 4H" not in engine.pos(rules, hands=(["4H"], [])).legal_moves
    assert "oneoff 5H" not in engine.pos(rules, hands=(["5H"], []), deck=[], rest="scrap").legal_moves
    assert "oneoff 7H" not in engine.pos(rules, hands=(["7H"], []), deck=[], rest="scrap").legal_moves


def test_strict_oneoffs_off_in_cuttle_cards(engine):
    rules = CC.replace(strict_oneoffs=False)
    assert "oneoff 3H" in engine.pos(rules, hands=(["3H"], [])).legal_moves
    assert "oneoff 4H" in engine.pos(rules, hands=(["4H"], [])).legal_moves
    assert "oneoff 7H" in engine.pos(rules, hands=(["7H"], []), deck=[], rest="scrap").legal_moves


# --------------------------------------------------------------------------- open hands / reveal on empty deck

def test_open_hands_makes_both_hands_public(engine):
    g = engine.pos(CLASSIC.replace(open_hands=True))
    assert g.is_public_hand(0) and g.is_public_hand(1)


def test_hands_are_private_without_open_hands(engine):
    g = engine.pos(CLASSIC)
    assert not g.is_public_hand(0) and not g.is_public_hand(1)


def test_reveal_on_empty_deck_makes_hands_public_when_deck_runs_out(engine):
    g = engine.pos(CLASSIC.replace(reveal_on_empty_deck=True), deck=["AH"], rest="scrap")
    assert not g.is_public_hand(0) and not g.is_public_hand(1)
    g.play("draw")
    assert g.is_public_hand(0) and g.is_public_hand(1)


def test_hands_stay_private_on_empty_deck_without_reveal_on_empty_deck(engine):
    g = engine.pos(CC.replace(reveal_on_empty_deck=False), deck=["AH"], rest="scrap")
    g.play("draw")
    assert not g.is_public_hand(0) and not g.is_public_hand(1)


def test_strict_three_with_three_takes_threes_may_take_a_three(engine):
    rules = CLASSIC.replace(strict_oneoffs=True)
    g = engine.pos(rules, hands=(["3H"], []), scrap=["3D"])
    assert "oneoff 3H" in g.legal_moves


def test_nine_targets_points_with_own_side_targets_own_point_card(engine):
    g = engine.pos(CLASSIC.replace(nine_targets_points=True), hands=(["9C"], []), points=(["TH"], []))
    assert legal(g) == {"draw", "points 9C", "oneoff 9C TH"}
    play(g, "oneoff 9C TH", "resolve")
    assert g.hand(0) == ["TH"] and g.points(0) == []


def test_freeze_on_own_card_lasts_through_players_following_turn(engine):
    rules = CLASSIC.replace(nine="freeze")
    g = engine.pos(rules, hands=(["9C"], []), permanents=(["KH"], []), deck=["AC", "AD", "AH"])
    play(g, "oneoff 9C KH", "resolve")
    assert g.hand(0) == ["KH"]
    g.play("draw")                       # P1
    assert g.turn == 0
    assert "royal KH" not in g.legal_moves
    play(g, "draw", "draw")              # P0 (frozen turn), P1
    assert "royal KH" in g.legal_moves


def test_own_frozen_two_may_counter_during_opponents_turn_but_not_be_played_in_own(engine):
    rules = CLASSIC.replace(nine="freeze", nine_targets_points=True)
    g = engine.pos(rules, hands=(["9C"], ["AH"]), points=(["2S"], ["TD"]), deck=["4C", "5C"])
    play(g, "oneoff 9C 2S", "resolve")
    assert g.hand(0) == ["2S"]
    g.play("oneoff AH")                  # P1's turn: the freeze is for P0's next turn
    assert legal(g) == {"resolve", "counter 2S"}
    g.play("resolve")
    assert g.points(1) == []
    assert_main(g, 0)
    assert legal(g) == {"draw"}          # P0's turn: 2S is frozen


# --------------------------------------------------------------------------- degenerate rules

@pytest.mark.parametrize("flags, why", [
    (dict(hand_limit=0), "with hand_limit=0 each hand is discarded whole"),
    (dict(king_goals=(221, 221, 300, 500, 1000)), "every goal of king_goals is above 220"),
])
def test_rules_under_which_every_game_is_a_draw_are_made_with_a_warning(flags, why):
    # hand_limit=0 was taken silently, and every game of a run was a draw.
    with pytest.warns(cuttle.rules.DegenerateRulesWarning, match=why) as said:
        rules = cuttle.Rules("classic", **flags)
    assert rules.degenerate().startswith(why)
    assert rules.degenerate_warning() == str(said[0].message) == \
        f"degenerate rules ({rules}): {rules.degenerate()}"
    result = cuttle.simulate(40, rules, seed=1, progress=False)
    assert result.draw_rate().value == 1.0 and result.n_games == 40


@pytest.mark.parametrize("flags", [
    dict(hand_limit=1), dict(hand_limit=0, hand_limit_mode="no_draw"),
    dict(king_goals=(220, 221, 221, 221, 221)), dict(king_goals=(1000, 14, 10, 7, 5)),
])
def test_rules_that_can_be_won_give_no_warning(flags, recwarn):
    assert cuttle.Rules("classic", **flags).degenerate() is None
    assert cuttle.Rules("classic", **flags).degenerate_warning() is None
    assert not [w for w in recwarn if w.category is cuttle.rules.DegenerateRulesWarning]


def test_no_degenerate_warning_holds_for_its_own_thread_only(recwarn):
    """A front end that says the warning itself (the web app) makes its rules without
    it; another thread, meanwhile, and the same thread after, still get it."""
    import threading
    from cuttle.rules import DegenerateRulesWarning, no_degenerate_warning

    def said():
        found = [w for w in recwarn if w.category is DegenerateRulesWarning]
        recwarn.clear()
        return len(found)
    elsewhere = []
    with no_degenerate_warning():
        cuttle.Rules(hand_limit=0)
        cuttle.Rules.parse("classic: hand_limit=0")
        cuttle.Game.from_text("rules: classic hand_limit=0; hands: 2C / -")
        assert said() == 0
        th = threading.Thread(target=lambda: elsewhere.append(cuttle.Rules(hand_limit=0)))
        th.start()
        th.join()
        assert said() == 1
        cuttle.Rules(hand_limit=0)
        assert said() == 0
    cuttle.Rules(hand_limit=0)
    assert said() == 1


def test_degenerate_rules_warn_once_where_they_are_made_not_when_unpickled(recwarn):
    import pickle
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rules = cuttle.Rules(hand_limit=0)
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert not recwarn.list
