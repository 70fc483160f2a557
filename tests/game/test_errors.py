"""Error handling: malformed or illegal moves, wrong phases, moves after the end, malformed
positions and bad Rules.  Every refused move must leave the game exactly as it was.

Written from the API reference (``docs/reference/``, the docstrings), ``docs/rules.md`` and
``docs/rules-decisions.md``.
"""
import numpy as np
import pytest

import cuttle

from support.scenario import CC, CLASSIC, legal, play, pos


def snapshot(g):
    """Every view of the game, as plain data."""
    def cs(cards):
        return [str(c) for c in cards]
    return {
        "phase": g.phase, "turn": g.turn, "to_move": g.to_move,
        "winner": g.winner, "is_over": g.is_over,
        "hands": [cs(g.hand(p)) for p in (0, 1)],
        "points": [cs(g.points(p)) for p in (0, 1)],
        "jacks": {str(c): cs(g.jacks(c)) for p in (0, 1) for c in g.points(p)},
        "permanents": [cs(g.permanents(p)) for p in (0, 1)],
        "scrap": cs(g.scrap), "deck": cs(g.deck),
        "revealed": cs(g.revealed), "stack": cs(g.stack),
        "score": [g.score(p) for p in (0, 1)], "goal": [g.goal(p) for p in (0, 1)],
        "moves": [str(m) for m in g.moves],
        "legal": sorted(str(m) for m in g.legal_moves),
    }


def assert_refused(g, move):
    before = snapshot(g)
    with pytest.raises(cuttle.IllegalMoveError):
        g.play(move)
    assert snapshot(g) == before


def test_illegal_move_error_is_a_value_error():
    assert issubclass(cuttle.IllegalMoveError, ValueError)


# --------------------------------------------------------------------------- main phase

def main_position():
    # P0: hand 7H 2C JC KH 8D 9S, points TC; P1: hand 3D, points 5S, Queen QH.
    return pos(CLASSIC, hands=(["7H", "2C", "JC", "KH", "8D", "9S"], ["3D"]),
               points=(["TC"], ["5S"]), permanents=([], ["QH"]), deck=["AH", "AD"])


MAIN_BAD = [
    # malformed text
    "", "   ", "fly 7H", "points", "points ZZ", "points 1H", "points 7X", "points 7",
    "points 7H 8D", "draw 7H", "scuttle 7H", "jack JC", "royal", "oneoff",
    # cards not where the move needs them
    "points AH",          # on the deck
    "points 5S",          # opponent's point card
    "points 3D",          # opponent's hand
    "scuttle 7H TC",      # own point card
    "scuttle 9S 3D",      # target in a hand
    "jack JC TC",         # own point card
    "jack JC 3D",         # card in a hand
    "oneoff 2C QS",       # QS is not on the table
    "oneoff 2C KH",       # KH is in P0's own hand
    # cards that cannot be played that way
    "pass",               # deck not empty
    "points KH", "points JC", "royal 7H", "glasses 7H", "glasses KH",
    "scuttle 2C 5S",      # lower rank
    "scuttle KH 5S",      # royals do not scuttle
    "jack JC 5S",         # protected by P1's Queen
    "oneoff 9S 5S",       # classic 9 does not target point cards
    "oneoff 7H 5S",       # the 7 takes no target
    "oneoff 2C",          # the 2 needs a target
    "oneoff KH", "oneoff 8D", "oneoff TC",
    # wrong phase
    "resolve", "counter 2C", "take AH", "discard 7H", "block TC",
]


@pytest.mark.parametrize("move", MAIN_BAD)
def test_main_phase_refuses_bad_move_and_keeps_state(move):
    assert_refused(main_position(), move)


def test_main_position_sanity():
    g = main_position()
    assert legal(g) == {
        "draw", "points 7H", "points 2C", "points 8D", "points 9S",
        "scuttle 7H 5S", "scuttle 8D 5S", "scuttle 9S 5S",
        "oneoff 7H", "oneoff 2C QH", "oneoff 9S QH",
        "royal KH", "glasses 8D",
    }


def test_moves_are_parsed_case_insensitively_and_ten_as_t():
    g = main_position()
    g.play("POINTS  7h")
    assert g.points(0) == ["7H", "TC"]
    g2 = pos(CLASSIC, hands=(["TH"], []))
    g2.play("points 10H")
    assert g2.points(0) == ["TH"]
    assert str(g2.moves[-1]) == "points TH"


def test_move_parse_round_trip_and_garbage():
    m = cuttle.Move.parse("Scuttle 10h 9C")
    assert str(m) == "scuttle TH 9C"
    assert cuttle.Move.parse(str(m)) == m
    with pytest.raises(ValueError):
        cuttle.Move.parse("teleport AS")


def test_playing_a_move_object_from_legal_moves_works():
    g = main_position()
    m = next(m for m in g.legal_moves if str(m) == "royal KH")
    g.play(m)
    assert g.permanents(0) == ["KH"]


# --------------------------------------------------------------------------- other phases

def counter_position():
    g = main_position()
    g.play("oneoff 2C QH")
    assert g.phase == "counter" and g.to_move == 1
    return g


@pytest.mark.parametrize("move", ["draw", "pass", "points 3D", "counter 3D", "counter 2C",
                                  "take 2C", "discard 3D", "oneoff 3D", "counter"])
def test_counter_phase_refuses_bad_move_and_keeps_state(move):
    assert_refused(counter_position(), move)


def test_counter_refused_against_queen_owner():
    g = pos(CLASSIC, hands=(["AS"], ["2C"]), points=([], ["TH"]), permanents=(["QD"], []))
    g.play("oneoff AS")
    assert_refused(g, "counter 2C")


def four_position():
    g = pos(CLASSIC, hands=(["4D", "7H"], ["3D", "4C", "KC"]))
    play(g, "oneoff 4D", "resolve")
    assert g.phase == "four" and g.to_move == 1
    return g


@pytest.mark.parametrize("move", ["discard 3D", "discard 3D 4C KC", "discard 3D 3D",
                                  "discard 7H 3D", "discard AH 3D", "resolve", "draw",
                                  "points 3D", "discard"])
def test_four_phase_refuses_bad_discard_and_keeps_state(move):
    assert_refused(four_position(), move)


def test_three_phase_refuses_card_not_in_scrap():
    g = pos(CLASSIC, hands=(["3H"], ["KC"]), scrap=["9C"])
    play(g, "oneoff 3H", "resolve")
    assert g.phase == "three"
    for move in ["take KC", "take 3H", "take AH", "draw", "resolve"]:
        assert_refused(g, move)


def test_three_phase_cuttle_cards_refuses_a_three():
    g = pos(CC, hands=(["3H"], []), scrap=["9C", "3D"])
    play(g, "oneoff 3H", "resolve")
    assert_refused(g, "take 3D")


def test_seven_phase_refuses_hand_cards_and_discarding_a_playable_card():
    g = pos(CLASSIC, hands=(["7C", "KH"], []), deck=["9H", "4S"])
    play(g, "oneoff 7C", "resolve")
    assert g.phase == "seven"
    for move in ["royal KH", "draw", "points 4S", "discard 9H", "resolve", "pass"]:
        assert_refused(g, move)


def test_hand_limit_discard_is_one_card_per_move():
    hand = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]
    g = pos(CC, hands=(hand, []), deck=["AH"])
    g.play("draw")
    assert g.phase == "discard"
    for move in ["discard 2C 3C", "discard KS", "draw", "points 2C", "discard"]:
        assert_refused(g, move)


def test_frozen_card_cannot_be_played():
    g = pos(CC, hands=(["9C"], ["AD"]), points=(["5C"], ["TH"]))
    play(g, "oneoff 9C TH", "resolve")
    for move in ["points TH", "scuttle TH 5C"]:
        assert_refused(g, move)


@pytest.mark.parametrize("rules", [CLASSIC, CC], ids=["classic", "cuttle.cards"])
def test_draw_refused_with_empty_deck(rules):
    g = pos(rules, hands=(["KH"], []), deck=[], rest="scrap")
    assert_refused(g, "draw")


# --------------------------------------------------------------------------- game over

def won_game():
    g = pos(CLASSIC, hands=(["2C", "KD"], ["AC"]), points=(["TH", "9H"], []))
    g.play("points 2C")
    assert g.is_over
    return g


@pytest.mark.parametrize("move", ["draw", "pass", "resolve", "royal KD", "points AC"])
def test_moves_after_game_over_are_refused(move):
    assert_refused(won_game(), move)


def test_moves_refused_in_position_that_is_already_won():
    g = pos(CLASSIC, hands=(["KD"], []), points=(["TH", "9H", "2C"], []))
    assert g.is_over and legal(g) == set()
    assert_refused(g, "royal KD")
    assert_refused(g, "draw")


def test_moves_refused_after_three_passes():
    g = pos(CLASSIC, deck=[], rest="scrap")
    play(g, "pass", "pass", "pass")
    assert g.is_over
    assert_refused(g, "pass")


# --------------------------------------------------------------------------- malformed positions

BAD_POSITIONS = {
    "duplicate_in_two_hands": dict(hands=(["AS"], ["AS"])),
    "duplicate_hand_and_points": dict(hands=(["AS"], []), points=(["AS"], [])),
    "duplicate_hand_and_deck": dict(hands=(["AS"], []), deck=["AS"]),
    "duplicate_hand_and_scrap": dict(hands=(["AS"], []), scrap=["AS"]),
    "duplicate_jack_in_stack": dict(points=(["7H[JC,JC]"], [])),
    "duplicate_jack_in_hand_and_stack": dict(hands=(["JC"], []), points=(["7H[JC]"], [])),
    "unknown_card": dict(hands=(["ZZ"], [])),
    "unknown_rank_one": dict(hands=(["1H"], [])),
    "unknown_suit": dict(hands=(["7X"], [])),
    "king_as_point_card": dict(points=(["KH"], [])),
    "queen_as_point_card": dict(points=(["QH"], [])),
    "jack_as_point_card": dict(points=(["JC"], [])),
    "seven_as_permanent": dict(permanents=(["7H"], [])),
    "jack_as_permanent": dict(permanents=(["JC"], [])),
    "ace_as_permanent": dict(permanents=(["AH"], [])),
    "non_jack_in_stack": dict(points=(["7H[5C]"], [])),
    "stack_on_permanent": dict(permanents=(["KH[JC]"], [])),
    "joker_without_flag": dict(hands=(["JK"], [])),
    "both_players_won": dict(points=(["TH", "9H", "2H"], ["TS", "9S", "2S"])),
    "to_move_two": dict(to_move=2),
    "bad_rest": dict(rest="banana"),
}


@pytest.mark.parametrize("kwargs", list(BAD_POSITIONS.values()), ids=list(BAD_POSITIONS))
def test_malformed_position_is_refused(kwargs):
    with pytest.raises(ValueError):
        pos(CLASSIC, **kwargs)


def test_joker_position_is_accepted_with_flag():
    g = pos(CLASSIC.replace(joker=True), hands=(["JK"], []))
    assert g.hand(0) == ["JK"]


def test_ten_written_as_10_in_position():
    g = pos(CLASSIC, hands=(["10H"], []), points=([], ["10S[JC]"]))
    assert g.hand(0) == ["TH"]
    assert g.points(1) == ["TS"]
    assert g.jacks("TS") == ["JC"]


def test_eight_as_glasses_is_a_valid_permanent():
    g = pos(CLASSIC, permanents=(["8H"], []))
    assert g.permanents(0) == ["8H"]


def test_position_counts_every_card_once():
    g = pos(CLASSIC, hands=(["AS"], ["2S"]), points=(["7H[JC]"], []), permanents=([], ["KH"]),
            scrap=["3C"], deck=["4C"])
    cards = []
    for p in (0, 1):
        cards += g.hand(p) + g.points(p) + g.permanents(p)
        for c in g.points(p):
            cards += g.jacks(c)
    cards += g.scrap + g.deck
    assert len(cards) == 52 and len(set(map(str, cards))) == 52


# --------------------------------------------------------------------------- bad Rules

def test_unknown_preset_names_it_and_the_choices():
    with pytest.raises(ValueError) as e:
        cuttle.Rules("bogus_preset")
    assert "bogus_preset" in str(e.value)
    assert "classic" in str(e.value) and "cuttle.cards" in str(e.value)


def test_unknown_flag_names_it():
    with pytest.raises(ValueError) as e:
        cuttle.Rules(bogus_flag=True)
    assert "bogus_flag" in str(e.value)


@pytest.mark.parametrize("preset", [["classic"], {}, 5, None, 1.5])
def test_a_preset_of_another_type_is_a_value_error(preset):
    with pytest.raises(ValueError, match="unknown preset .*valid presets: classic"):
        cuttle.Rules(preset)


@pytest.mark.parametrize("make", [
    lambda name, v: cuttle.Rules(**{name: v}),
    lambda name, v: CLASSIC.replace(**{name: v}),
    lambda name, v: cuttle.Rules.from_json({"preset": "classic", "changed": {name: v}}),
])
@pytest.mark.parametrize("name", ["FOUR", "Four", " four ", "hand-limit", "HAND_LIMIT"])
def test_a_flag_spelled_otherwise_sets_that_flag(make, name):
    # Names are read as rule text reads them (case, spaces and dashes aside); the value
    # lands under the flag's own name, not beside it where nothing reads it.
    value = "random" if "four" in name.lower() else 7
    rules = make(name, value)
    flag = "four" if "four" in name.lower() else "hand_limit"
    assert getattr(rules, flag) == value
    assert rules.changed() == {flag: value}
    assert set(rules.as_dict()) == set(cuttle.Rules.flag_names)
    assert cuttle.Rules.parse(str(rules)) == rules
    assert cuttle.Game(rules, seed=1).rules == rules


def test_a_flag_given_twice_under_two_spellings_is_refused():
    with pytest.raises(ValueError, match=r"four is set twice \('four' and 'FOUR'\)"):
        cuttle.Rules(four="random", **{"FOUR": "draw"})


def test_numpy_bools_are_truth_values():
    rules = cuttle.Rules(joker=np.bool_(True), open_hands=np.False_)
    assert rules.joker is True and rules.open_hands is False
    assert rules == cuttle.Rules(joker=True)


def test_unknown_flag_in_replace_names_it():
    with pytest.raises(ValueError) as e:
        CLASSIC.replace(bogus_flag=1)
    assert "bogus_flag" in str(e.value)


@pytest.mark.parametrize("flag,value,choice", [
    ("five", "draw9", "draw2"),
    ("seven", "top3", "top1"),
    ("nine", "burn", "topdeck"),
    ("four", "steal", "random"),
    ("hand_limit_mode", "explode", "no_draw"),
])
def test_bad_choice_value_names_flag_and_choices(flag, value, choice):
    with pytest.raises(ValueError) as e:
        cuttle.Rules(**{flag: value})
    assert flag in str(e.value)
    assert choice in str(e.value)


@pytest.mark.parametrize("flag,value", [
    ("king_goals", (21, 14, 10)),
    ("king_goals", "21 14 10"),      # (its text, "21 14 10 7 5", is read)
    ("hand_limit", "eight"),
    ("joker", "maybe"),             # (the text spellings, "yes" among them, are read)
    ("joker", 1),                   # (an int is not a bool: 1 is refused)
])
def test_bad_value_is_refused_naming_the_flag(flag, value):
    with pytest.raises(ValueError) as e:
        cuttle.Rules(**{flag: value})
    assert flag in str(e.value)


def test_bad_value_in_replace_is_refused():
    with pytest.raises(ValueError) as e:
        CC.replace(five="draw9")
    assert "five" in str(e.value)


def test_game_with_unknown_preset_is_refused():
    with pytest.raises(ValueError):
        cuttle.Game("bogus_preset", seed=1)
    with pytest.raises(ValueError):
        cuttle.Game.from_position("bogus_preset", hands=(["AS"], []), rest="scrap")
