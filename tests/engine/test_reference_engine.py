"""Scenario tests of the pure-Python reference engine (tests/support/reference.py),
written from the rulebook (docs/rules.md) and docs/rules-decisions.md.

The module is loaded from its file so that these tests do not depend on the
package's __init__ (which may import the compiled core).
"""

import importlib.util
import pathlib
import random

import pytest

_PATH = pathlib.Path(__file__).resolve().parents[1] / "support" / "reference.py"
_spec = importlib.util.spec_from_file_location("cuttle_reference_under_test", _PATH)
ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ref)

ReferenceGame = ref.ReferenceGame
PRESETS = ref.PRESETS
card_index = ref.card_index
card_text = ref.card_text


# ---------------------------------------------------------------- helpers

def rules(preset="classic", **flags):
    r = dict(PRESETS[preset])
    for k in flags:
        assert k in r, k
    r.update(flags)
    return r


def _listed(hands, points, perms, scrap, deck):
    out = []
    for p in (0, 1):
        out += list(hands[p]) + list(perms[p])
        for t in points[p]:
            if "[" in t:
                base, inner = t[:-1].split("[")
                out += [base] + inner.split(",")
            else:
                out.append(t)
    out += list(scrap) + list(deck)
    return out


def make(preset="classic", *, hands=((), ()), points=((), ()), perms=((), ()),
         scrap=(), deck=(), turn=0, rest="deck", rng_state=(1, 2, 3, 4), **flags):
    """Build a position; every unlisted card goes below the deck (rest="deck",
    in natural order) or to the scrap (rest="scrap")."""
    r = rules(preset, **flags)
    listed = set(_listed(hands, points, perms, scrap, deck))
    n = 53 if r["joker"] else 52
    remaining = [card_text(i) for i in range(n) if card_text(i) not in listed]
    scrap, deck = list(scrap), list(deck)
    if rest == "deck":
        deck += remaining
    else:
        scrap += remaining
    return ReferenceGame(r, hands=hands, points=points, permanents=perms,
                         scrap=scrap, deck=deck, turn=turn, rng_state=rng_state)


def S(g):
    return g.snapshot()


def moves(g):
    return sorted(g.legal_moves())


def play(g, *ms):
    for m in ms:
        g.play(m)
    return g


# ---------------------------------------------------------------- notation

def test_card_index_and_text():
    assert card_index("AC") == 0
    assert card_index("AS") == 3
    assert card_index("2C") == 4
    assert card_index("KS") == 51
    assert card_index("JK") == 52
    assert card_index("10h") == card_index("TH") == 38
    assert all(card_index(card_text(i)) == i for i in range(53))
    with pytest.raises(ValueError):
        card_index("1C")
    with pytest.raises(ValueError):
        card_index("TX")


def test_presets_have_every_flag():
    for name in ("classic", "cuttle.cards"):
        assert set(PRESETS[name]) == set(ref.FLAGS)


@pytest.mark.parametrize("rules,message", [
    ({k: v for k, v in PRESETS["classic"].items() if k != "joker"}, r"lacks flags: \['joker'\]"),
    (dict(PRESETS["classic"], new_rule=True), r"does not know: \['new_rule'\]"),
])
def test_rules_must_hold_exactly_the_engines_flags(rules, message):
    # (a flag it does not play would otherwise be ignored: games as if it were off)
    with pytest.raises(ValueError, match=message):
        ReferenceGame(rules, hands=(["AC"], ["2C"]), points=((), ()), permanents=((), ()),
                      scrap=[], deck=["3C"])
    assert PRESETS["classic"]["king_goals"] == (21, 14, 10, 7, 5)
    assert PRESETS["cuttle.cards"]["king_goals"] == (21, 14, 10, 5, 0)
    assert PRESETS["cuttle.cards"]["hand_limit"] == 8
    assert PRESETS["cuttle.cards"]["seven"] == "top2"


def test_xoshiro_reference_sequence():
    r = ref._Xoshiro256ss((1, 2, 3, 4))
    assert [r.next() for _ in range(10)] == [
        11520, 0, 1509978240, 1215971899390074240, 1216172134540287360,
        607988272756665600, 16172922978634559625, 8476171486693032832,
        10595114339597558777, 2904607092377533576]


def test_play_accepts_noncanonical_text_and_rejects_illegal():
    g = make(hands=(["TH", "3C"], []), deck=["5D"])
    with pytest.raises(ValueError):
        g.play("points JK")
    with pytest.raises(ValueError):
        g.play("pass")          # deck not empty
    with pytest.raises(ValueError):
        g.play("flurble")
    g.play("POINTS  10h")
    assert S(g)["points"] == (["TH"], [])


# ---------------------------------------------------------------- construction

def test_construction_rejects_bad_card_sets():
    r = rules()
    all52 = [card_text(i) for i in range(52)]
    with pytest.raises(ValueError):  # duplicate
        ReferenceGame(r, hands=(["AC"], ["AC"]), points=((), ()), permanents=((), ()),
                      scrap=[], deck=all52[1:])
    with pytest.raises(ValueError):  # missing card
        ReferenceGame(r, hands=((), ()), points=((), ()), permanents=((), ()),
                      scrap=[], deck=all52[1:])
    with pytest.raises(ValueError):  # joker without the flag
        ReferenceGame(r, hands=((), ()), points=((), ()), permanents=((), ()),
                      scrap=[], deck=all52 + ["JK"])


def test_construction_jack_stack_owner_and_controller():
    # "TH[JC]" listed on P0's side: P0 controls it, P1 owns it.
    g = make(points=(["TH[JC]", "5S[JD,JH]"], []))
    s = S(g)
    assert s["points"] == (["5S[JD,JH]", "TH[JC]"], [])
    assert s["scores"] == (15, 0)
    # The 6 returns each point card to its original owner (R§4 6).
    g = make(hands=(["6C"], []), points=(["TH[JC]", "5S[JD,JH]"], []))
    play(g, "oneoff 6C", "resolve")
    s = S(g)
    assert s["points"] == (["5S"], ["TH"])
    assert sorted(["6C", "JC", "JD", "JH"]) == [c for c in s["scrap"] if c in ("6C", "JC", "JD", "JH")]


def test_position_already_won_and_both_refused():
    g = make(points=(["TH", "9H", "2C"], []))
    assert S(g)["over"] and S(g)["winner"] == 0 and S(g)["phase"] == "over"
    assert S(g)["to_move"] is None and g.legal_moves() == []
    with pytest.raises(ValueError):
        make(points=(["TH", "9H", "2C"], ["TS", "9S", "2D"]))


def test_snapshot_keys_and_sorting():
    g = make(hands=(["KS", "AC", "TD"], ["2H"]), points=(["9C", "3D"], []),
             perms=(["QH", "8C"], []), deck=["7C"], turn=0)
    s = S(g)
    assert set(s) == {"phase", "turn", "to_move", "winner", "over", "end_reason", "hands", "points",
                      "permanents", "scrap", "deck", "revealed", "stack", "scores",
                      "goals", "frozen"}
    assert s["hands"][0] == ["AC", "TD", "KS"]
    assert s["points"][0] == ["3D", "9C"]
    assert s["permanents"][0] == ["8C", "QH"]
    assert s["deck"][0] == "7C"
    assert s["scores"] == (12, 0) and s["goals"] == (21, 21)
    assert s["frozen"] == ([], []) and s["stack"] == [] and s["revealed"] == []
    assert s["phase"] == "main" and s["turn"] == 0 and s["to_move"] == 0


# ---------------------------------------------------------------- main phase

def test_exact_main_moves_classic():
    g = make(hands=(["AC", "8D", "JH", "QS", "2C"], []), points=([], ["5H"]),
             perms=([], ["KD"]), deck=["3C"])
    assert moves(g) == sorted([
        "draw",
        "points AC", "oneoff AC",
        "points 2C", "oneoff 2C KD",
        "points 8D", "scuttle 8D 5H", "glasses 8D",
        "jack JH 5H",
        "royal QS",
    ])


def test_pass_only_with_empty_deck_and_draw_takes_top():
    g = make(hands=([], []), deck=["9C", "4D"], rest="scrap")
    assert moves(g) == ["draw"]
    g.play("draw")
    s = S(g)
    assert s["hands"][0] == ["9C"] and s["deck"] == ["4D"] and s["turn"] == 1
    g2 = make(hands=([], []), rest="scrap")
    assert moves(g2) == ["pass"]


def test_three_passes_draw_and_reset():
    g = make(hands=([], ["AC"]), rest="scrap")
    play(g, "pass")
    g.play("points AC")   # breaks the run
    play(g, "pass", "pass")
    assert not S(g)["over"]
    g.play("pass")
    s = S(g)
    assert s["over"] and s["winner"] is None and s["phase"] == "over"


def test_scuttle_by_index_and_strict():
    g = make(hands=(["7H", "7C", "6S"], []), points=([], ["7D"]), deck=["AC"])
    ms = g.legal_moves()
    assert "scuttle 7H 7D" in ms          # same rank, higher suit
    assert "scuttle 7C 7D" not in ms      # lower suit
    assert "scuttle 6S 7D" not in ms
    g.play("scuttle 7H 7D")
    s = S(g)
    assert s["points"] == ([], []) and {"7H", "7D"} <= set(s["scrap"])
    g = make(hands=(["7H", "8C"], []), points=([], ["7D"]), deck=["AC"], strict_scuttle=True)
    ms = g.legal_moves()
    assert "scuttle 7H 7D" not in ms and "scuttle 8C 7D" in ms


def test_scuttle_scraps_jacks_of_target():
    g = make(hands=(["TS"], []), points=([], ["9H[JC]"]), deck=["AC"])
    g.play("scuttle TS 9H")
    s = S(g)
    assert {"TS", "9H", "JC"} <= set(s["scrap"]) and s["points"] == ([], [])


def test_scuttle_not_stopped_by_queen_unless_variant():
    g = make(hands=(["TS"], []), points=([], ["9H"]), perms=([], ["QC"]), deck=["AC"])
    assert "scuttle TS 9H" in g.legal_moves()
    g = make(hands=(["TS"], []), points=([], ["9H"]), perms=([], ["QC"]), deck=["AC"],
             queen_stops_scuttles=True)
    assert "scuttle TS 9H" not in g.legal_moves()


def test_jack_steals_and_stacks():
    g = make(hands=(["JC"], ["JD"]), points=([], ["TH"]), deck=["AC", "AD"])
    g.play("jack JC TH")
    s = S(g)
    assert s["points"] == (["TH[JC]"], []) and s["scores"] == (10, 0)
    assert "jack JD TH" in g.legal_moves()
    g.play("jack JD TH")
    s = S(g)
    assert s["points"] == ([], ["TH[JC,JD]"]) and s["scores"] == (0, 10)


def test_jack_blocked_by_queen_and_without_target():
    g = make(hands=(["JC"], []), points=([], ["TH"]), perms=([], ["QD"]), deck=["AC"])
    assert [m for m in g.legal_moves() if m.startswith("jack")] == []
    g = make(hands=(["JC"], []), points=(["TH"], []), deck=["AC"])
    assert moves(g) == ["draw"]


def test_king_lowers_goal_and_wins():
    g = make(hands=(["KC"], []), points=(["TH", "5C"], []), deck=["AC"])
    g.play("royal KC")
    s = S(g)
    assert s["over"] and s["winner"] == 0 and s["goals"] == (14, 21)


def test_four_kings_goal_zero_cuttle_cards():
    g = make("cuttle.cards", hands=(["KS"], []), perms=(["KC", "KD", "KH"], []), deck=["AC"])
    assert S(g)["goals"] == (5, 21)
    g.play("royal KS")
    assert S(g)["winner"] == 0
    g = make("classic", hands=(["KS"], []), perms=(["KC", "KD", "KH"], []), deck=["AC"])
    g.play("royal KS")
    assert not S(g)["over"] and S(g)["goals"] == (5, 21)


def test_one_queen_each():
    g = make(hands=(["QS"], []), perms=(["QC"], []), deck=["AC"])
    assert "royal QS" in g.legal_moves()
    g = make(hands=(["QS"], []), perms=(["QC"], []), deck=["AC"], one_queen_each=True)
    assert "royal QS" not in g.legal_moves()


def test_glasses_is_permanent():
    g = make(hands=(["8H"], []), deck=["AC"])
    g.play("glasses 8H")
    assert S(g)["permanents"] == (["8H"], [])


# ---------------------------------------------------------------- counters

def test_counter_window_always_opens():
    g = make(hands=(["AC"], ["5D"]), points=(["3H"], ["4H"]), deck=["9C"])
    g.play("oneoff AC")
    s = S(g)
    assert s["phase"] == "counter" and s["to_move"] == 1 and s["stack"] == ["AC"]
    assert g.legal_moves() == ["resolve"]
    g.play("resolve")
    s = S(g)
    assert s["points"] == ([], []) and {"AC", "3H", "4H"} <= set(s["scrap"])
    assert s["phase"] == "main" and s["turn"] == 1


def test_counter_chain_fizzle_and_recounter():
    # One 2: the ace fizzles.
    g = make(hands=(["AC", "2S"], ["2D"]), points=(["3H"], ["4H"]), deck=["9C"])
    play(g, "oneoff AC")
    assert moves(g) == ["counter 2D", "resolve"]
    g.play("counter 2D")
    s = S(g)
    assert s["to_move"] == 0 and s["stack"] == ["AC", "2D"]
    assert moves(g) == ["counter 2S", "resolve"]
    g.play("resolve")
    s = S(g)
    assert s["points"] == (["3H"], ["4H"]) and {"AC", "2D"} <= set(s["scrap"])
    assert s["stack"] == [] and s["turn"] == 1
    # Two 2s: the ace resolves.
    g = make(hands=(["AC", "2S"], ["2D"]), points=(["3H"], ["4H"]), deck=["9C"])
    play(g, "oneoff AC", "counter 2D", "counter 2S")
    assert S(g)["to_move"] == 1 and g.legal_moves() == ["resolve"]
    g.play("resolve")
    s = S(g)
    assert s["points"] == ([], []) and {"AC", "2D", "2S", "3H", "4H"} <= set(s["scrap"])


def test_no_counter_against_queen():
    g = make(hands=(["AC"], ["2D"]), points=(["3H"], ["4H"]), perms=(["QC"], []), deck=["9C"])
    g.play("oneoff AC")
    assert g.legal_moves() == ["resolve"]
    # And the Queen's owner cannot be re-countered... the other way round:
    g = make(hands=(["AC", "2S"], ["2D"]), points=(["3H"], ["4H"]), perms=([], ["QC"]), deck=["9C"])
    play(g, "oneoff AC", "counter 2D")
    assert g.legal_moves() == ["resolve"]


# ---------------------------------------------------------------- the 2

def test_two_targets_classic_both_sides_and_queens():
    g = make(hands=(["2C"], []), points=(["3H[JS]"], ["5H[JD]"]),
             perms=(["KC"], ["8D", "QH"]), deck=["9C"])
    # P0 controls 3H (own top Jack JS); P1 controls 5H via JD; P1's Queen
    # protects 8D and JD but not itself (classic).
    assert sorted(m for m in g.legal_moves() if m.startswith("oneoff")) == sorted([
        "oneoff 2C KC", "oneoff 2C JS", "oneoff 2C QH"])


def test_two_on_top_jack_flips_control():
    g = make(hands=(["2C"], []), points=([], ["5H[JD,JS]"]), deck=["9C"])
    # 5H: listed on P1 with two Jacks -> owner P1; JS is P1's top jack.
    g.play("oneoff 2C JS")
    g.play("resolve")
    s = S(g)
    assert s["points"] == (["5H[JD]"], []) and "JS" in s["scrap"] and "2C" in s["scrap"]


def test_two_cuttle_cards_opponent_only_and_queens_protect_queens():
    g = make("cuttle.cards", hands=(["2C"], []), perms=(["KC"], ["QH", "KD"]), deck=["9C"])
    assert [m for m in g.legal_moves() if m.startswith("oneoff")] == ["oneoff 2C QH"]
    g = make("cuttle.cards", hands=(["2C"], []), perms=(["KC"], ["QH", "QS", "KD"]), deck=["9C"])
    assert [m for m in g.legal_moves() if m.startswith("oneoff")] == []
    g = make("classic", hands=(["2C"], []), perms=([], ["QH", "QS", "KD"]), deck=["9C"])
    assert sorted(m for m in g.legal_moves() if m.startswith("oneoff")) == [
        "oneoff 2C QH", "oneoff 2C QS"]


def test_two_scraps_permanent_and_lowers_goal_back():
    g = make(hands=(["2C"], []), perms=([], ["KD"]), deck=["9C"])
    play(g, "oneoff 2C KD", "resolve")
    s = S(g)
    assert s["permanents"] == ([], []) and {"2C", "KD"} <= set(s["scrap"]) and s["goals"] == (21, 21)


# ---------------------------------------------------------------- the 3

def test_three_may_take_the_twos_of_its_own_chain():
    # D#22: the chain's 2s reach the scrap when the chain ends; the 3 waits on the stack.
    g = make(hands=(["3C", "2S"], ["2D"]), scrap=["9H", "3D"], deck=["AC"], rest="deck")
    play(g, "oneoff 3C", "counter 2D", "counter 2S", "resolve")
    s = S(g)
    assert s["phase"] == "three" and s["to_move"] == 0 and s["stack"] == ["3C"]
    assert moves(g) == ["take 2D", "take 2S", "take 3D", "take 9H"]
    g.play("take 9H")
    s = S(g)
    assert s["hands"][0] == ["9H"] and sorted(s["scrap"]) == sorted(["2D", "2S", "3C", "3D"])
    assert s["turn"] == 1


def test_three_classic_empty_scrap_does_nothing():
    g = make(hands=(["3C"], []), deck=["AC"])
    assert "oneoff 3C" in g.legal_moves()
    play(g, "oneoff 3C", "resolve")
    s = S(g)
    assert s["scrap"] == ["3C"] and s["phase"] == "main" and s["turn"] == 1


def test_three_strict_and_no_threes():
    g = make(hands=(["3C"], []), scrap=["3D"], deck=["AC"], strict_oneoffs=True,
             three_takes_threes=False)
    assert "oneoff 3C" not in g.legal_moves()
    g = make(hands=(["3C"], []), scrap=["3D"], deck=["AC"], strict_oneoffs=True)
    assert "oneoff 3C" in g.legal_moves()
    g = make(hands=(["3C"], []), scrap=["3D", "4D"], deck=["AC"], three_takes_threes=False)
    play(g, "oneoff 3C", "resolve")
    assert g.legal_moves() == ["take 4D"]
    # Only a 3 in the scrap with three_takes_threes=False: no phase, nothing.
    g = make(hands=(["3C"], []), scrap=["3D"], deck=["AC"], three_takes_threes=False)
    play(g, "oneoff 3C", "resolve")
    assert S(g)["phase"] == "main" and S(g)["turn"] == 1


# ---------------------------------------------------------------- the 4

def test_four_choice_two_cards():
    g = make(hands=(["4C"], ["9D", "AH", "KS"]), deck=["AC"])
    play(g, "oneoff 4C", "resolve")
    s = S(g)
    assert s["phase"] == "four" and s["to_move"] == 1 and s["stack"] == ["4C"]
    assert moves(g) == sorted(["discard AH 9D", "discard AH KS", "discard 9D KS"])
    g.play("discard KS AH")   # any order accepted
    s = S(g)
    assert s["hands"][1] == ["9D"] and {"AH", "KS", "4C"} <= set(s["scrap"])
    assert s["turn"] == 1 and s["phase"] == "main"


def test_four_victim_with_one_or_zero_cards():
    g = make(hands=(["4C"], ["9D"]), deck=["AC"])
    play(g, "oneoff 4C", "resolve")
    assert g.legal_moves() == ["discard 9D"]
    g = make(hands=(["4C"], []), deck=["AC"])
    assert "oneoff 4C" in g.legal_moves()
    play(g, "oneoff 4C", "resolve")
    assert S(g)["phase"] == "main" and S(g)["turn"] == 1
    g = make(hands=(["4C"], []), deck=["AC"], strict_oneoffs=True)
    assert "oneoff 4C" not in g.legal_moves()


def test_four_emptied_by_counter_does_nothing():
    g = make(hands=(["4C", "2S"], ["2D"]), deck=["AC"])
    play(g, "oneoff 4C", "counter 2D", "counter 2S", "resolve")
    s = S(g)
    assert s["phase"] == "main" and s["turn"] == 1 and s["hands"] == ([], [])


def test_four_random_uses_stream():
    hand = ["AH", "3D", "9D", "KS"]  # indices 2, 9, 33, 51
    g = make(hands=(["4C"], hand), deck=["AC"], four="random", rng_state=(1, 2, 3, 4))
    play(g, "oneoff 4C", "resolve")
    # Expected from the stream: rand_below(n) = (next()*n) >> 64
    r = ref._Xoshiro256ss((1, 2, 3, 4))
    lst = sorted(hand, key=card_index)
    gone = []
    for _ in range(2):
        gone.append(lst.pop((r.next() * len(lst)) >> 64))
    s = S(g)
    assert s["hands"][1] == lst and set(gone) <= set(s["scrap"])
    # With the reference stream the first two outputs are 11520 and 0: both
    # pick position 0.
    assert gone == ["AH", "3D"]
    assert s["phase"] == "main" and s["turn"] == 1


def test_four_draw_variant():
    g = make(hands=(["4C"], []), deck=["AD", "5S", "6S"], four="draw", rest="scrap")
    play(g, "oneoff 4C", "resolve")
    s = S(g)
    assert s["hands"][1] == ["AD", "5S"] and s["deck"] == ["6S"]
    g = make(hands=(["4C"], ["AH"]), four="draw", strict_oneoffs=True, rest="scrap")
    assert "oneoff 4C" not in g.legal_moves()


# ---------------------------------------------------------------- the 5

def test_five_draw2_and_short_deck():
    g = make(hands=(["5C"], []), deck=["AD", "2D", "3D"], rest="scrap")
    play(g, "oneoff 5C", "resolve")
    assert S(g)["hands"][0] == ["AD", "2D"] and S(g)["deck"] == ["3D"]
    g = make(hands=(["5C"], []), deck=["AD"], rest="scrap")
    play(g, "oneoff 5C", "resolve")
    assert S(g)["hands"][0] == ["AD"] and S(g)["deck"] == []
    g = make(hands=(["5C"], []), rest="scrap")
    assert "oneoff 5C" in g.legal_moves()
    g = make(hands=(["5C"], []), rest="scrap", strict_oneoffs=True)
    assert "oneoff 5C" not in g.legal_moves()


def test_five_discard1_draw3():
    g = make(hands=(["5C", "KH", "9S"], []), deck=["AD", "2D", "3D", "4D"],
             rest="scrap", five="discard1_draw3")
    play(g, "oneoff 5C", "resolve")
    s = S(g)
    assert s["phase"] == "five" and s["to_move"] == 0 and s["stack"] == ["5C"]
    assert moves(g) == ["discard 9S", "discard KH"]
    g.play("discard KH")
    s = S(g)
    assert s["hands"][0] == ["AD", "2D", "3D", "9S"] and s["deck"] == ["4D"]
    assert {"KH", "5C"} <= set(s["scrap"]) and s["turn"] == 1


def test_five_discard1_draw3_empty_hand_no_phase():
    g = make(hands=(["5C"], []), deck=["AD", "2D"], rest="scrap", five="discard1_draw3")
    play(g, "oneoff 5C", "resolve")
    s = S(g)
    assert s["hands"][0] == ["AD", "2D"] and s["turn"] == 1 and s["phase"] == "main"


# ---------------------------------------------------------------- the 6

def test_six_scraps_permanents_and_jacks():
    g = make(hands=(["6C"], []), points=(["TH[JC]", "9S"], ["3D[JD,JS]"]),
             perms=(["8D"], ["QH", "KC"]), deck=["AC"])
    play(g, "oneoff 6C", "resolve")
    s = S(g)
    # TH: P0 controls with one jack, so P1 owns it and gets it back.
    assert s["points"] == (["9S"], ["3D", "TH"])
    assert s["permanents"] == ([], [])
    assert {"6C", "JC", "JD", "JS", "KC", "8D", "QH"} <= set(s["scrap"])
    assert s["scores"] == (9, 13) and s["goals"] == (21, 21)


def test_six_can_win_for_opponent_mover_rule():
    # P1's stolen cards return to P0 when P1 resolves P0's 6: P0 reaches 21.
    g = make(hands=(["6C"], []), points=(["TH"], ["TS[JD]", "AC[JS]"]), deck=["9C"])
    play(g, "oneoff 6C", "resolve")
    s = S(g)
    assert s["over"] and s["winner"] == 0


def test_six_cannot_make_both_win_but_goal_table_can_tie_mover_wins():
    # R§2 / D: both reach the goal on one move -> the player who made that
    # move wins.  With a goal table where Kings *raise* the goal, a 6 that
    # scraps both Kings makes both players reach goal 10 at once; the move is
    # P1's `resolve`, so P1 wins.
    g = make(hands=(["6C"], []), points=(["TH", "2H"], ["TS", "3S"]),
             perms=(["KC"], ["KD"]), deck=["8C"], king_goals=(10, 30, 30, 30, 30))
    assert S(g)["scores"] == (12, 13) and S(g)["goals"] == (30, 30) and not S(g)["over"]
    play(g, "oneoff 6C", "resolve")
    s = S(g)
    assert s["over"] and s["winner"] == 1 and s["goals"] == (10, 10)
    # Same with a counter chain: P1 counters, P0 re-counters, P1 resolves.
    g = make(hands=(["6C", "2C"], ["2D"]), points=(["TH", "2H"], ["TS", "3S"]),
             perms=(["KC"], ["KD"]), deck=["8C"], king_goals=(10, 30, 30, 30, 30))
    play(g, "oneoff 6C", "counter 2D", "counter 2C", "resolve")
    assert S(g)["winner"] == 1


def test_goal_zero_for_both_refused():
    with pytest.raises(ValueError):
        make(king_goals=(0, 14, 10, 7, 5))


# ---------------------------------------------------------------- the 7

def test_seven_top1_reveal_and_play():
    g = make(hands=(["7C"], []), points=([], ["4H"]), deck=["9D", "AC"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    s = S(g)
    assert s["phase"] == "seven" and s["revealed"] == ["9D"] and s["deck"] == ["AC"]
    assert s["stack"] == ["7C"] and "7C" not in s["scrap"]
    assert moves(g) == ["points 9D", "scuttle 9D 4H"]  # no 9 targets
    g.play("scuttle 9D 4H")
    s = S(g)
    assert s["revealed"] == [] and s["stack"] == [] and {"7C", "9D", "4H"} <= set(s["scrap"])
    assert s["turn"] == 1 and s["phase"] == "main"


def test_seven_top1_jack_on_own_card():
    g = make(hands=(["7C"], []), points=(["4H"], []), deck=["JD", "AC"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert g.legal_moves() == ["jack JD 4H"]
    g.play("jack JD 4H")
    s = S(g)
    assert s["points"] == ([], ["4H[JD]"]) and s["scores"] == (0, 4)


def test_a_revealed_three_may_take_its_own_seven_but_is_judged_before_it_is_scrapped():
    # D18/D8: a revealed card is judged with its 7 still on the stack; once played the
    # 7 is in the scrap, so the 3 may take it.  Checked on both engines.
    import cuttle
    for game in (make(hands=(["7S", "4C"], ["AC"]), deck=["3D", "9C"], rest="deck"),
                 cuttle.Game.from_position(hands=(("7S", "4C"), ("AC",)),
                                           deck=("3D", "9C"), rest="deck", seed=2)):
        for m in ("oneoff 7S", "resolve", "oneoff 3D", "resolve"):
            game.play(m)
        legal = sorted(map(str, game.legal_moves() if callable(game.legal_moves)
                           else game.legal_moves))
        assert "take 7S" in legal, legal
    # strict one-offs: a scrap of 3s alone gives the revealed 3 nothing to take yet
    for game in (make("cuttle.cards", hands=(["7S", "4C"], ["AC"]), scrap=["3H"],
                      deck=["3D", "9C"], rest="deck"),
                 cuttle.Game.from_position(rules="cuttle.cards",
                                           hands=(("7S", "4C"), ("AC",)), scrap=("3H",),
                                           deck=("3D", "9C"), rest="deck", seed=2)):
        for m in ("oneoff 7S", "resolve"):
            game.play(m)
        legal = sorted(map(str, game.legal_moves() if callable(game.legal_moves)
                           else game.legal_moves))
        assert "points 3D" in legal and "oneoff 3D" not in legal, legal


def test_seven_top1_jack_protected_opponent_goes_own():
    g = make(hands=(["7C"], []), points=(["4H"], ["5H"]), perms=([], ["QS"]),
             deck=["JD", "AC"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert g.legal_moves() == ["jack JD 4H"]


def test_seven_top1_unplayable_is_scrapped():
    g = make(hands=(["7C"], []), deck=["JD", "AC"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    s = S(g)
    assert s["phase"] == "main" and s["turn"] == 1 and {"7C", "JD"} <= set(s["scrap"])
    assert s["deck"] == ["AC"] and s["revealed"] == [] and s["stack"] == []


def test_seven_empty_deck_does_nothing():
    g = make(hands=(["7C"], []), rest="scrap")
    assert "oneoff 7C" in g.legal_moves()
    play(g, "oneoff 7C", "resolve")
    s = S(g)
    assert s["turn"] == 1 and "7C" in s["scrap"] and s["stack"] == []
    g = make(hands=(["7C"], []), rest="scrap", strict_oneoffs=True)
    assert "oneoff 7C" not in g.legal_moves()


def test_seven_oneoff_opens_fresh_counter_window():
    g = make(hands=(["7C"], ["2D"]), points=([], ["4H"]), deck=["AD", "KC"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    g.play("oneoff AD")
    s = S(g)
    assert s["phase"] == "counter" and s["stack"] == ["AD"] and "7C" in s["scrap"]
    assert s["to_move"] == 1 and moves(g) == ["counter 2D", "resolve"]
    g.play("resolve")
    assert S(g)["points"] == ([], [])


def test_seven_top2_choose_other_stays_on_top():
    g = make(hands=(["7C"], []), deck=["KD", "3S", "AC"], rest="scrap", seven="top2")
    play(g, "oneoff 7C", "resolve")
    s = S(g)
    assert s["revealed"] == ["KD", "3S"] and s["deck"] == ["AC"]
    assert moves(g) == sorted(["royal KD", "points 3S", "oneoff 3S"])
    g.play("royal KD")
    s = S(g)
    assert s["deck"] == ["3S", "AC"] and s["permanents"][0] == ["KD"]
    assert s["revealed"] == [] and "7C" in s["scrap"]


def test_seven_top2_jack_needs_opponent_target_and_discard():
    g = make("cuttle.cards", hands=(["7C"], []), points=(["4H"], []), deck=["JD", "JH", "AC"],
             rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert S(g)["phase"] == "seven"
    assert moves(g) == ["discard JD", "discard JH"]
    g.play("discard JH")
    s = S(g)
    assert s["deck"] == ["JD", "AC"] and {"JH", "7C"} <= set(s["scrap"])
    assert s["turn"] == 1


def test_seven_top2_single_unplayable_still_asks():
    g = make(hands=(["7C"], []), deck=["JD"], rest="scrap", seven="top2")
    play(g, "oneoff 7C", "resolve")
    assert g.legal_moves() == ["discard JD"]


def test_seven_strict_last_card_seven_not_oneoff():
    g = make("cuttle.cards", hands=(["7C"], []), deck=["7D"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert moves(g) == ["points 7D"]
    g = make("cuttle.cards", hands=(["7C"], []), deck=["7D", "AC"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert "oneoff 7D" in g.legal_moves()


def test_seven_revealed_five_last_card_classic_draws_nothing():
    g = make(hands=(["7C"], []), deck=["5D"], rest="scrap")
    play(g, "oneoff 7C", "resolve", "oneoff 5D", "resolve")
    s = S(g)
    assert s["hands"][0] == [] and s["turn"] == 1 and "5D" in s["scrap"]


# ---------------------------------------------------------------- the 9

def test_nine_return_classic_permanent_and_top_jack():
    g = make(hands=(["9C"], []), points=(["TH[JS]"], []), perms=([], ["KD"]), deck=["AC"])
    # TH listed on P0 with one Jack: P1 owns it, P0 controls via JS.
    assert sorted(m for m in g.legal_moves() if m.startswith("oneoff")) == [
        "oneoff 9C JS", "oneoff 9C KD"]
    play(g, "oneoff 9C KD", "resolve")
    s = S(g)
    assert s["hands"][1] == ["KD"] and s["frozen"] == ([], []) and s["goals"] == (21, 21)
    g = make(hands=(["9C"], []), points=([], ["TH[JS]"]), deck=["AC"])
    play(g, "oneoff 9C JS", "resolve")
    s = S(g)
    assert s["hands"][1] == ["JS"] and s["points"] == (["TH"], [])


def test_nine_points_and_freeze_cuttle_cards():
    g = make("cuttle.cards", hands=(["9C"], ["AD"]), points=([], ["TH[JS]", "4C"]),
             perms=(["KC"], []), deck=["AH", "AS"], rest="scrap")
    assert sorted(m for m in g.legal_moves() if m.startswith("oneoff")) == [
        "oneoff 9C 4C", "oneoff 9C JS", "oneoff 9C TH"]
    play(g, "oneoff 9C TH", "resolve")
    s = S(g)
    assert s["hands"][1] == ["AD", "TH"] and "JS" in s["scrap"]
    assert s["turn"] == 1 and s["frozen"] == ([], ["TH"])
    ms = g.legal_moves()
    assert "points TH" not in ms and "points AD" in ms
    g.play("draw")
    # P1's turn over: TH is no longer frozen.
    g.play("draw")
    s = S(g)
    assert s["frozen"] == ([], []) and s["turn"] == 1
    assert "points TH" in g.legal_moves()


def test_frozen_card_can_be_discarded():
    # R§4b: a frozen card cannot be played but can be discarded (here by the
    # cuttle.cards 5 during the receiver's frozen turn).
    g = make("cuttle.cards", hands=(["9C"], ["5D"]), points=([], ["TH"]),
             deck=["AH", "4S", "KS", "3H"], rest="scrap")
    play(g, "oneoff 9C TH", "resolve")
    assert S(g)["frozen"] == ([], ["TH"])
    assert "oneoff 5D" in g.legal_moves() and "points TH" not in g.legal_moves()
    play(g, "oneoff 5D", "resolve")
    assert moves(g) == ["discard TH"]
    g.play("discard TH")
    s = S(g)
    assert "TH" in s["scrap"] and s["hands"][1] == ["AH", "4S", "KS"] and s["turn"] == 0


def test_frozen_card_hand_limit_discard():
    g = make(hands=(["9C"], ["AD", "2D"]), points=([], ["TH"]), deck=["AH", "4S"],
             rest="scrap", nine="freeze", nine_targets_points=True, hand_limit=2)
    play(g, "oneoff 9C TH", "resolve")
    g.play("draw")  # P1 now holds AD, 2D, TH, AH: discard two, one per move
    assert S(g)["phase"] == "discard" and S(g)["frozen"] == ([], ["TH"])
    assert moves(g) == ["discard 2D", "discard AD", "discard AH", "discard TH"]
    play(g, "discard TH", "discard AD")
    s = S(g)
    assert s["hands"][1] == ["AH", "2D"] and s["turn"] == 0


def test_nine_freeze_own_card_frozen_next_own_turn():
    g = make(hands=(["9C", "2H"], []), perms=(["KC"], []), deck=["AH", "AS", "AD"],
             rest="scrap", nine="freeze")
    play(g, "oneoff 9C KC", "resolve")
    s = S(g)
    assert s["hands"][0] == ["2H", "KC"] and s["frozen"] == ([], [])
    g.play("draw")  # P1
    s = S(g)
    assert s["turn"] == 0 and s["frozen"] == (["KC"], [])
    assert "royal KC" not in g.legal_moves()
    g.play("draw")
    g.play("draw")  # P1
    assert S(g)["frozen"] == ([], []) and "royal KC" in g.legal_moves()


def test_frozen_two_may_counter_outside_own_turn():
    # D#3: the freeze covers the receiver's own next turn only.  P1 gets a
    # frozen 2H back in P0's turn 0; in P1's turn 1 it cannot be played; in
    # P0's turn 2 P1 may counter with it.
    g = make(hands=(["9C", "AC"], ["AD"]), points=([], ["2H"]), deck=["AH", "AS", "4S"],
             rest="scrap", nine="freeze", nine_targets_points=True)
    play(g, "oneoff 9C 2H", "resolve")
    assert S(g)["frozen"] == ([], ["2H"])
    assert "points 2H" not in g.legal_moves() and "points AD" in g.legal_moves()
    g.play("draw")
    assert S(g)["frozen"] == ([], [])
    g.play("oneoff AC")
    assert moves(g) == ["counter 2H", "resolve"]


def test_frozen_two_may_recounter_during_own_turn():
    # D#9: a freeze binds every play but a counter.  P1 receives a frozen 2; on P1's
    # turn P1 plays an ace, P0 counters, and P1's frozen 2 may counter back.
    g = make(hands=(["9C", "2S"], ["AD"]), points=([], ["2H"]), deck=["AH", "AS"],
             rest="scrap", nine="freeze", nine_targets_points=True)
    play(g, "oneoff 9C 2H", "resolve")
    assert "points 2H" not in g.legal_moves()
    g.play("oneoff AD")
    g.play("counter 2S")
    assert g.legal_moves() == ["counter 2H", "resolve"]


def test_nine_topdeck():
    g = make(hands=(["9C"], []), points=([], ["TH[JS]"]), perms=([], ["QD"]),
             deck=["AC"], rest="scrap", nine="topdeck", nine_targets_points=True)
    ms = sorted(m for m in g.legal_moves() if m.startswith("oneoff"))
    assert ms == ["oneoff 9C QD"]  # the Queen protects TH and JS, not itself
    play(g, "oneoff 9C QD", "resolve")
    s = S(g)
    assert s["deck"] == ["QD", "AC"] and s["frozen"] == ([], [])
    g = make(hands=(["9C"], []), points=([], ["TH[JC,JS]"]), deck=["AC"], rest="scrap",
             nine="topdeck", nine_targets_points=True)
    play(g, "oneoff 9C TH", "resolve")
    s = S(g)
    assert s["deck"] == ["TH", "AC"] and {"JC", "JS"} <= set(s["scrap"])


def test_nine_targets_own_side_flag():
    g = make(hands=(["9C"], []), perms=(["KC"], ["KD"]), deck=["AC"])
    assert sorted(m for m in g.legal_moves() if m.startswith("oneoff")) == [
        "oneoff 9C KC", "oneoff 9C KD"]
    g = make(hands=(["9C"], []), perms=(["KC"], ["KD"]), deck=["AC"], targets_own_side=False)
    assert [m for m in g.legal_moves() if m.startswith("oneoff")] == ["oneoff 9C KD"]


# ---------------------------------------------------------------- variants

def test_eight_breaks_glasses():
    g = make(hands=(["8C"], []), perms=(["8S"], ["8D"]), deck=["AC"], eight_breaks_glasses=True)
    assert sorted(m for m in g.legal_moves() if m.startswith("oneoff")) == ["oneoff 8C 8D"]
    play(g, "oneoff 8C 8D", "resolve")
    s = S(g)
    assert s["permanents"] == (["8S"], []) and {"8C", "8D"} <= set(s["scrap"])
    g = make(hands=(["8C"], []), perms=([], ["8D", "QH"]), deck=["AC"], eight_breaks_glasses=True)
    assert [m for m in g.legal_moves() if m.startswith("oneoff")] == []
    g = make(hands=(["8C"], []), perms=([], ["8D"]), deck=["AC"])
    assert [m for m in g.legal_moves() if m.startswith("oneoff")] == []


def test_ten_discards():
    g = make(hands=(["TC"], ["AD", "KD"]), deck=["AC"], ten_discards=True)
    assert "oneoff TC" in g.legal_moves()
    play(g, "oneoff TC", "resolve")
    s = S(g)
    assert s["phase"] == "ten" and s["to_move"] == 1
    assert moves(g) == ["discard AD", "discard KD"]
    g.play("discard KD")
    s = S(g)
    assert s["hands"][1] == ["AD"] and {"TC", "KD"} <= set(s["scrap"]) and s["turn"] == 1
    g = make(hands=(["TC"], []), deck=["AC"], ten_discards=True, strict_oneoffs=True)
    assert "oneoff TC" not in g.legal_moves()
    g = make(hands=(["TC"], []), deck=["AC"])
    assert "oneoff TC" not in g.legal_moves()


def test_ten_blocks_scuttle():
    g = make(hands=(["9S"], ["TD"]), points=([], ["9H"]), deck=["AC"], ten_blocks_scuttle=True)
    g.play("scuttle 9S 9H")
    s = S(g)
    assert s["phase"] == "block" and s["to_move"] == 1 and s["stack"] == ["9S"]
    assert moves(g) == ["block TD", "resolve"]
    g.play("block TD")
    s = S(g)
    assert s["points"] == ([], ["9H"]) and {"9S", "TD"} <= set(s["scrap"]) and s["turn"] == 1
    # resolve: the scuttle happens.
    g = make(hands=(["9S"], []), points=([], ["9H[JC]"]), deck=["AC"], ten_blocks_scuttle=True)
    g.play("scuttle 9S 9H")
    assert g.legal_moves() == ["resolve"]
    g.play("resolve")
    s = S(g)
    assert s["points"] == ([], []) and {"9S", "9H", "JC"} <= set(s["scrap"])


def test_joker_swaps_hands_and_can_be_countered():
    g = make(hands=(["JK", "AH"], ["KD", "KS", "2C"]), deck=["AC"], joker=True)
    assert "oneoff JK" in g.legal_moves()
    assert not any(m.startswith(("points JK", "scuttle JK")) for m in g.legal_moves())
    play(g, "oneoff JK", "resolve")
    s = S(g)
    assert s["hands"] == (["2C", "KD", "KS"], ["AH"]) and "JK" in s["scrap"]
    g = make(hands=(["JK", "AH"], ["KD", "2C"]), deck=["AC"], joker=True)
    play(g, "oneoff JK", "counter 2C", "resolve")
    s = S(g)
    assert s["hands"] == (["AH"], ["KD"]) and {"JK", "2C"} <= set(s["scrap"])


def test_joker_ends_freeze():
    g = make(hands=(["9C"], ["JK"]), points=([], ["TH"]), deck=["AC", "AD"], joker=True,
             nine="freeze", nine_targets_points=True, rest="scrap")
    play(g, "oneoff 9C TH", "resolve")
    assert S(g)["frozen"] == ([], ["TH"])
    play(g, "oneoff JK", "resolve")
    s = S(g)
    assert s["hands"] == (["TH"], []) and s["frozen"] == ([], [])


def test_hand_limit_discard_one_per_move():
    g = make(hands=(["5C", "AH", "2H", "3H"], []), deck=["4H", "6H", "7H"], rest="scrap",
             hand_limit=3)
    play(g, "oneoff 5C", "resolve")
    s = S(g)
    assert s["phase"] == "discard" and s["to_move"] == 0 and len(s["hands"][0]) == 5
    assert moves(g) == sorted("discard " + c for c in ["AH", "2H", "3H", "4H", "6H"])
    g.play("discard AH")
    assert S(g)["phase"] == "discard"
    g.play("discard 6H")
    s = S(g)
    assert s["phase"] == "main" and s["turn"] == 1 and s["hands"][0] == ["2H", "3H", "4H"]


def test_hand_limit_only_for_player_whose_turn_it_is():
    g = make(hands=(["4C"], ["AH", "2H", "3H"]), deck=["4H", "6H", "7H"], rest="scrap",
             hand_limit=2, four="draw")
    play(g, "oneoff 4C", "resolve")
    s = S(g)
    assert s["phase"] == "main" and s["turn"] == 1 and len(s["hands"][1]) == 5


def test_hand_limit_no_draw_mode():
    g = make(hands=(["JC", "JD"], []), deck=["4H"], rest="scrap", hand_limit=2,
             hand_limit_mode="no_draw")
    assert g.legal_moves() == ["pass"]   # no draw, no Jack target
    g.play("pass")
    g = make(hands=(["JC", "2D"], []), deck=["4H"], rest="scrap", hand_limit=2,
             hand_limit_mode="no_draw")
    assert moves(g) == ["points 2D"]
    g = make(hands=(["JC"], []), deck=["4H"], rest="scrap", hand_limit=2,
             hand_limit_mode="no_draw")
    assert moves(g) == ["draw"]


def test_sudden_death_countdown():
    # The deck empties during turn 0 (P0 draws the last card): P1 and P0 each
    # get one more turn; drawn at the end of turn 2.
    g = make(hands=([], ["AH"]), deck=["2D"], rest="scrap", sudden_death=True)
    g.play("draw")          # turn 0, deck empty
    g.play("points AH")     # turn 1
    assert not S(g)["over"]
    g.play("points 2D")     # turn 2
    s = S(g)
    assert s["over"] and s["winner"] is None


def test_sudden_death_built_empty_deck():
    g = make(hands=(["AH"], ["AD"]), rest="scrap", sudden_death=True)
    g.play("points AH")
    assert not S(g)["over"]
    g.play("points AD")
    s = S(g)
    assert s["over"] and s["winner"] is None
    g = make(hands=(["AH"], ["AD"]), rest="scrap")
    play(g, "points AH", "points AD")
    assert not S(g)["over"]


def test_sudden_death_not_cancelled_by_topdeck():
    g = make(hands=(["9C"], ["AD"]), perms=([], ["KD"]), rest="scrap", sudden_death=True,
             nine="topdeck")
    play(g, "oneoff 9C KD", "resolve")
    assert S(g)["deck"] == ["KD"]
    g.play("draw")
    assert S(g)["over"] and S(g)["winner"] is None


def test_win_during_opponents_decision_and_by_jack():
    g = make(hands=(["JC"], []), points=(["TH", "6H"], ["5S"]), deck=["AC"])
    g.play("jack JC 5S")
    s = S(g)
    assert s["over"] and s["winner"] == 0 and s["to_move"] is None and g.legal_moves() == []


def test_queen_does_not_stop_ace_six_four():
    g = make(hands=(["AC", "6C", "4C"], ["9D"]), points=(["3H"], ["4H"]), perms=([], ["QD", "KD"]),
             deck=["9C"])
    ms = g.legal_moves()
    assert {"oneoff AC", "oneoff 6C", "oneoff 4C"} <= set(ms)


# ---------------------------------------------------------------- random play

# The values random rules try: every value of a choice flag (the engine's own list), a
# few of the others; bool flags both.
FLAG_CHOICES = {
    "hand_limit": [None, 8, 7, 4],
    **{k: list(vals) for k, vals in ref.CHOICES.items()},
    "king_goals": [(21, 14, 10, 7, 5), (21, 14, 10, 5, 0), (15, 14, 10, 7, 5)],
    "deal": [(5, 6), (6, 6), (8, 8), (1, 3)],
}
BOOL_FLAGS = [k for k in ref.FLAGS if isinstance(PRESETS["classic"][k], bool)]


def test_random_rules_change_every_flag():
    # (a flag of the engine's that random rules never change is a flag never tried)
    assert sorted([*FLAG_CHOICES, *BOOL_FLAGS]) == sorted(ref.FLAGS)
    assert not set(FLAG_CHOICES) & set(BOOL_FLAGS)


def random_rules(rng):
    r = dict(PRESETS[rng.choice(sorted(PRESETS))])
    for k, vals in FLAG_CHOICES.items():
        if rng.random() < 0.5:
            r[k] = rng.choice(vals)
    for k in BOOL_FLAGS:
        if rng.random() < 0.4:
            r[k] = not r[k]
    return r


def random_deal(rules_, seed):
    rng = random.Random(seed)
    n = 53 if rules_["joker"] else 52
    cards = [card_text(i) for i in range(n)]
    rng.shuffle(cards)
    a, b = rules_["deal"]
    return ReferenceGame(rules_, hands=(cards[:a], cards[a:a + b]), points=((), ()),
                         permanents=((), ()), scrap=[], deck=cards[a + b:],
                         rng_state=(seed + 1, 2, 3, 4))


def _check_invariants(g, n):
    allc = g.all_cards()
    assert len(allc) == n and set(allc) == set(range(n))
    s = g.snapshot()
    count = (sum(len(h) for h in s["hands"]) + len(s["scrap"]) + len(s["deck"])
             + len(s["revealed"]) + len(s["stack"])
             + sum(len(p) for p in s["permanents"]))
    for side in s["points"]:
        for t in side:
            count += 1 + (t.count(",") + 1 if "[" in t else 0)
    assert count == n
    assert s["over"] == (s["phase"] == "over")
    assert (s["to_move"] is None) == s["over"]
    if not s["over"]:
        assert g.legal_moves()


def test_random_games_conserve_cards_and_terminate():
    phases = set()
    for seed in range(300):
        rng = random.Random(10_000 + seed)
        r = random_rules(rng)
        g = random_deal(r, seed)
        n = 53 if r["joker"] else 52
        _check_invariants(g, n)
        count = 0
        while not g.over:
            ms = g.legal_moves()
            assert len(ms) == len(set(ms))
            phases.add(g.phase)
            g.play(rng.choice(ms))
            count += 1
            _check_invariants(g, n)
            assert count <= 5000, f"game {seed} did not terminate"
    # The random games visit every phase.
    assert {"main", "counter", "three", "four", "five", "seven", "discard", "block", "ten"} <= phases


def test_random_play_is_deterministic():
    def run(seed):
        rng = random.Random(seed)
        r = random_rules(rng)
        r["four"] = "random"
        g = random_deal(r, seed)
        hist = []
        while not g.over:
            m = rng.choice(g.legal_moves())
            g.play(m)
            hist.append((m, repr(sorted(g.snapshot().items(), key=lambda kv: kv[0]))))
        return hist
    assert run(5) == run(5)


# ---------------------------------------------------------------- more edges

def test_queens_protect_queens_for_nine_and_jack():
    # One Queen (cuttle.cards mode): only the Queen itself is a 9 target; the
    # Jack cannot take a protected point card.
    g = make(hands=(["9C", "JC"], []), points=([], ["TH"]), perms=([], ["QH", "KD"]),
             deck=["AC"], queens_protect_queens=True, nine_targets_points=True)
    ms = g.legal_moves()
    assert [m for m in ms if m.startswith(("oneoff", "jack"))] == ["oneoff 9C QH"]
    g = make(hands=(["9C", "JC"], []), points=([], ["TH"]), perms=([], ["QH", "KD"]),
             deck=["AC"], nine_targets_points=True)   # classic: Queen not self-protected
    ms = g.legal_moves()
    assert [m for m in ms if m.startswith(("oneoff", "jack"))] == ["oneoff 9C QH"]


def test_nine_return_queen_unprotects():
    g = make(hands=(["9C", "JC"], []), points=([], ["TH"]), perms=([], ["QH"]), deck=["AC", "AD"])
    play(g, "oneoff 9C QH", "resolve")
    s = S(g)
    assert s["hands"][1] == ["QH"] and s["permanents"] == ([], [])
    g.play("draw")
    assert "jack JC TH" in g.legal_moves()


def test_strict_revealed_five_last_card_is_a_legal_oneoff_that_draws_nothing():
    # R§4b (all presets): "a revealed 5 that was the last card may be played as a
    # one-off and draws nothing" (decisions doc #19).
    g = make("cuttle.cards", hands=(["7C"], []), deck=["5D"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert sorted(moves(g)) == ["oneoff 5D", "points 5D"]
    play(g, "oneoff 5D", "resolve")
    assert S(g)["hands"][0] == [] and S(g)["turn"] == 1
    g = make("cuttle.cards", hands=(["7C"], []), deck=["5D", "AC"], rest="scrap")
    play(g, "oneoff 7C", "resolve")
    assert "oneoff 5D" in g.legal_moves() and "oneoff AC" in g.legal_moves()


def test_seven_revealed_five_draws_the_returned_card():
    # top2: the unchosen card goes back on top before the 5 resolves.
    g = make(hands=(["7C"], []), deck=["5D", "KH"], rest="scrap", seven="top2")
    play(g, "oneoff 7C", "resolve", "oneoff 5D")
    s = S(g)
    assert s["deck"] == ["KH"] and s["stack"] == ["5D"] and "7C" in s["scrap"]
    g.play("resolve")
    assert S(g)["hands"][0] == ["KH"] and S(g)["deck"] == []


def test_sudden_death_seven_top2_putting_card_back():
    # Decisions doc #11: revealed cards have left the deck, so a top2 7 that reveals
    # the last two cards starts the countdown (turn 0), and putting one back does not
    # cancel it: the game is drawn at the end of turn 2.
    g = make(hands=(["7C"], ["AD"]), deck=["KD", "3S"], rest="scrap", seven="top2",
             sudden_death=True)
    play(g, "oneoff 7C", "resolve", "royal KD")
    assert S(g)["deck"] == ["3S"] and not S(g)["over"]
    g.play("points AD")              # turn 1
    assert not S(g)["over"]
    g.play("draw")                   # turn 2 = 0 + 2: drawn
    assert S(g)["over"] and S(g)["winner"] is None


def test_hand_limit_discard_resets_pass_count():
    g = make(hands=(["AH", "2H"], []), rest="scrap", hand_limit=1)
    # P0 passes (deck empty) then must discard down to 1: a non-pass move.
    g.play("pass")
    assert S(g)["phase"] == "discard"
    g.play("discard AH")
    play(g, "pass", "pass")
    assert not S(g)["over"]
    g.play("pass")
    assert S(g)["over"] and S(g)["winner"] is None


def test_five_strict_revealed_with_unchosen_counts_as_deck():
    g = make("cuttle.cards", hands=(["7C", "AH"], []), deck=["5D", "9S"], rest="scrap")
    play(g, "oneoff 7C", "resolve", "oneoff 5D", "resolve")
    s = S(g)
    assert s["phase"] == "five" and moves(g) == ["discard AH"]
    g.play("discard AH")
    s = S(g)
    assert s["hands"][0] == ["9S"] and s["deck"] == [] and {"7C", "5D", "AH"} <= set(s["scrap"])


def test_targets_own_side_two_on_own_jack_gives_card_away():
    g = make(hands=(["2C"], []), points=(["TH[JS]"], []), deck=["AC"])
    play(g, "oneoff 2C JS", "resolve")
    assert S(g)["points"] == ([], ["TH"])
