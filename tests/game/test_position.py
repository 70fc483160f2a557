"""The position text format (cuttle.position): round trips, parsing details, errors."""

import random

import pytest

import cuttle
from cuttle.position import parse_text as parse_position

from support.helpers import random_rules


def table(g):
    """Everything the position text must carry."""
    return {
        "hands": [list(g.hand(p)) for p in (0, 1)],
        "points": [[(c, tuple(g.jacks(c))) for c in g.points(p)] for p in (0, 1)],
        "permanents": [list(g.permanents(p)) for p in (0, 1)],
        "scrap": list(g.scrap),
        "deck": list(g.deck),
        "to_move": g.to_move,
        "turn": g.turn,
        "phase": g.phase,
        "scores": (g.score(0), g.score(1)),
        "goals": (g.goal(0), g.goal(1)),
        "rules": g.rules,
    }


def test_round_trip_random_games():
    rng = random.Random(20240601)
    checked = 0
    for k in range(80):
        rules = random_rules(rng) if k % 2 else cuttle.Rules(rng.choice(cuttle.Rules.presets))
        g = cuttle.Game(rules, seed=rng.getrandbits(40))
        for _ in range(rng.randint(20, 160)):
            if g.is_over:
                break
            if g.phase == "main":
                text = g.position_text()
                back = cuttle.Game.from_text(text)
                assert table(back) == table(g), text
                assert back.position_text() == text
                multi = g.position_text(multiline=True)
                assert "\n" in multi and table(cuttle.Game.from_text(multi)) == table(g)
                kw = parse_position(text)
                assert table(cuttle.Game.from_position(**kw)) == table(g)
                checked += 1
            else:
                with pytest.raises(ValueError, match="main-phase"):
                    g.position_text()
            g.play(rng.choice(list(g.legal_moves)))
        if g.is_over:
            with pytest.raises(ValueError, match="over"):
                g.position_text()
    assert checked > 1000


def test_round_trip_without_rules_field_takes_rules_argument():
    g = cuttle.Game("cuttle.cards", seed=3)
    text = g.position_text(rules=False)
    assert "rules" not in text
    assert cuttle.Game.from_text(text).rules == cuttle.Rules()
    back = cuttle.Game.from_text(text, rules="cuttle.cards")
    assert table(back) == table(g)


def test_example_from_the_docs():
    text = ("rules: cuttle.cards four=random; hands: 2C 3D 7H / 2H 4S; "
            "points: TH[JD] 5C / 9D; permanents: QD / 8H; scrap: 3C 4H; deck: 7C JH; "
            "to_move: 0; rest: deck")
    kw = parse_position(text)
    assert kw == {"rules": cuttle.Rules("cuttle.cards", four="random"),
                  "hands": (["2C", "3D", "7H"], ["2H", "4S"]),
                  "points": (["TH[JD]", "5C"], ["9D"]),
                  "permanents": (["QD"], ["8H"]), "scrap": ["3C", "4H"],
                  "deck": ["7C", "JH"], "to_move": 0, "rest": "deck", "seed": None}
    g = cuttle.Game.from_text(text, seed=11)
    assert g.rules == cuttle.Rules("cuttle.cards", four="random")
    assert g.hand(0) == ["2C", "3D", "7H"] and g.hand(1) == ["2H", "4S"]
    assert sorted(g.points(0)) == ["5C", "TH"] and g.jacks("TH") == ["JD"]
    assert g.points(1) == ["9D"] and g.score(0) == 15
    assert g.permanents(0) == ["QD"] and g.permanents(1) == ["8H"]
    assert g.deck[:2] == ["7C", "JH"] and len(g.deck) == 52 - 13
    assert sorted(g.scrap) == ["3C", "4H"]
    assert g.to_move == 0 and g.phase == "main" and g.seed == 11
    # the same seed shuffles the rest the same way
    assert cuttle.Game.from_text(text, seed=11).deck == g.deck
    assert cuttle.Game.from_text(text, seed=12).deck != g.deck


def test_lenient_writing():
    text = """
    # a comment line
    Hands: 10h, 2c / -          # '-' is an empty list
    POINTS: 8h[jc jd] / 9d
    to-move: P1
    rest: scrap
    seed: 5
    """
    kw = parse_position(text)
    assert kw["hands"] == (["TH", "2C"], [])
    assert kw["points"] == (["8H[JC,JD]"], ["9D"]) and kw["to_move"] == 1
    assert kw["rest"] == "scrap" and kw["seed"] == 5
    # ';' separated, empty sides written as nothing, aliases
    kw = parse_position("hand: / 2C; perms: KS / ; discard: AC")
    assert kw["hands"] == ([], ["2C"]) and kw["permanents"] == (["KS"], [])
    assert kw["scrap"] == ["AC"]
    g = cuttle.Game.from_text("hands: 7H 2C / 3D; points: TH[JC] / -; deck: 5H; rest: scrap")
    assert g.deck == ["5H"] and g.jacks("TH") == ["JC"] and len(g.scrap) == 52 - 6
    with pytest.raises(ValueError, match="the position text is empty"):
        parse_position("  # only a comment")


def test_seed_and_rules_arguments_override_the_text():
    text = "rules: quick; seed: 4; hands: AC / 2C"
    assert cuttle.Game.from_text(text).seed == 4
    assert cuttle.Game.from_text(text).rules == cuttle.Rules("quick")
    g = cuttle.Game.from_text(text, rules=cuttle.Rules("open"), seed=9)
    assert g.seed == 9 and g.rules == cuttle.Rules("open")


def test_joker_needs_the_joker_rule():
    with pytest.raises(ValueError, match="joker=true"):
        cuttle.Game.from_text("hands: JK /")
    g = cuttle.Game.from_text("rules: classic joker=true; hands: JK /")
    assert g.hand(0) == ["JK"] and len(g.deck) == 52
    with pytest.raises(ValueError, match="joker"):
        cuttle.Game.from_text("rules: classic joker=true; hands: JK /", rules="classic")


@pytest.mark.parametrize("text, message", [
    ("hands: 2C", r"field 'hands' lists both players' cards separated by one '/'"),
    ("hands: 2C / 3C / 4C", r"field 'hands'.*one '/'"),
    ("hands 2C / 3C", r"expected 'field: value'"),
    ("cards: 2C", r"unknown field 'cards'; fields: rules, hands"),
    ("hands: ZZ / -", r"field 'hands': unknown card 'ZZ'"),
    ("deck: 2C 11H", r"field 'deck': unknown card '11H'"),
    ("points: KH / -", r"KH cannot be a point card"),
    ("points: TH[5C] / -", r"5C in the stack of TH is not a Jack"),
    ("points: TH[JC / -", r"field 'points': '\[' without '\]'"),
    ("points: TH]JC / -", r"field 'points': '\]' without '\['"),
    ("points: TH[] / -", r"field 'points': empty Jack stack"),
    ("points: [JC] / -", r"field 'points': bad Jack stack"),
    ("hands: TH[JC] / -", r"field 'hands': 'TH\[JC\]': only point cards carry Jack stacks"),
    ("permanents: 7C / -", r"7C cannot be a permanent"),
    ("hands: 2C / 2C", r"card 2C is listed twice \(hand of player 0 and hand of player 1\)"),
    ("hands: 2C 2C / 3D", r"card 2C is listed twice \(in the hand of player 0\)"),
    ("points: TH[JC] / -; deck: JC", r"card JC is listed twice \(Jacks on TH and deck\)"),
    ("points: TH[JC,JC] / -", r"card JC is listed twice \(in the Jacks on TH\)"),
    ("scrap: 2C / 3C", r"field 'scrap' is one list for both players"),
    ("to_move: 2", r"field 'to_move' takes 0 or 1, not '2'"),
    ("rest: hand", r"field 'rest' takes deck or scrap"),
    ("seed: -3", r"field 'seed' takes a whole number"),
    ("hands: 2C / -; hands: 3C / -", r"field 'hands' is given twice"),
    ("rules: blah", r"field 'rules': unknown preset 'blah'; valid presets: classic"),
    ("rules: classic four=sometimes", r"field 'rules': flag 'four' takes one of 'choice'"),
    ("rules: classic colour=red", r"field 'rules': unknown rule flag 'colour'; valid flags"),
    ("rules: classic joker=maybe", r"flag 'joker' takes true or false"),
    ("rules: classic king_goals=21,14", r"king_goals"),
    ("hands: 2C - / -", r"'-' stands for an empty list"),
])
def test_malformed_text(text, message):
    with pytest.raises(ValueError, match=message):
        cuttle.Game.from_text(text)


def test_impossible_positions_from_text():
    with pytest.raises(ValueError, match="both players are already at their goal"):
        cuttle.Game.from_text("points: TH 9H 8H / TC 9C 8C")
    with pytest.raises(ValueError, match="position is text"):
        parse_position(None)


def test_rules_text_round_trip():
    rng = random.Random(5)
    for _ in range(200):
        rules = random_rules(rng, p_change=0.5)
        text = str(rules)
        assert cuttle.Rules.parse(text) == rules, text
        assert cuttle.Rules.parse(text).preset == rules.preset
    assert str(cuttle.Rules()) == "classic"
    assert str(cuttle.Rules("cuttle.cards", hand_limit=None, king_goals=(15, 14, 10, 7, 5))) \
        == "cuttle.cards: king_goals=(15,14,10,7,5), hand_limit=none"
    assert cuttle.Rules.parse("four=random") == cuttle.Rules(four="random")
    # the space-separated form of position text reads too
    assert cuttle.Rules.parse("cuttle.cards king_goals=15,14,10,7,5 hand_limit=none") == \
        cuttle.Rules("cuttle.cards", hand_limit=None, king_goals=(15, 14, 10, 7, 5))


def _rules_from_args(preset, sets):
    return cuttle.Rules.parse(preset or "classic", sets)


def test_rules_from_args_values():
    r = _rules_from_args("classic", ["four=random", "king_goals=15,14,10,7,5",
                                    "hand_limit=7", "open-hands=yes", "joker=True",
                                    "sudden_death=0"])
    assert r == cuttle.Rules("classic", four="random", king_goals=(15, 14, 10, 7, 5),
                             hand_limit=7, open_hands=True, joker=True)
    assert _rules_from_args(None, []) == cuttle.Rules()
    assert _rules_from_args("cuttle.cards", ["hand_limit=none"]).hand_limit is None
    assert _rules_from_args("classic", ["king_goals=(21,14,10,5,0)"]).king_goals == \
        (21, 14, 10, 5, 0)
    for preset, sets, message in [
            ("nope", [], "unknown preset 'nope'; valid presets: classic, cuttle.cards"),
            ("nope", ["colour=red"], "unknown preset 'nope'"),
            ("classic", ["four"], "expected FLAG=VALUE"),
            ("classic", ["=3"], "expected FLAG=VALUE"),
            ("classic", ["fours=random"], "unknown rule flag 'fours'; valid flags: king_goals"),
            ("classic", ["four=sometimes"], "'choice', 'random', 'draw'"),
            ("classic", ["hand_limit=lots"], "none or a whole number"),
            ("classic", ["hand_limit=-1"], "hand_limit"),
            ("classic", ["king_goals=a,b"], "5 whole numbers"),
            ("classic", ["open_hands=2"], "true or false")]:
        with pytest.raises(ValueError, match=message):
            _rules_from_args(preset, sets)
