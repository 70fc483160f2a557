"""The deal (rules.md §2, "The deal"; rules-decisions.md decision 20 and "The game's
random stream"): how many cards each player is dealt (the `deal` flag), who moves first,
a deal above the hand limit, and the shuffle itself, on the native core and on the
reference engine, which deals by the documented shuffle on its own."""

import pytest
from hypothesis import given, settings, strategies as st

import cuttle
from cuttle import Rules
from cuttle.flags import DEALINGS, FLAGS
from cuttle.variants.rulesets import singles

from support.reference import deal as reference_deal
from support.scenario import CLASSIC, CC, legal, play


def cards(texts):
    return [str(c) for c in texts]


@pytest.mark.parametrize("rules", [CLASSIC, CC, CLASSIC.replace(joker=True),
                                   CLASSIC.replace(deal=(6, 6)), CC.replace(deal=(8, 8)),
                                   CLASSIC.replace(deal=(1, 1), joker=True),
                                   CLASSIC.replace(deal=(8, 2)), CC.replace(deal=(4, 6))],
                         ids=str)
def test_the_core_deals_as_the_documented_shuffle(rules):
    """Game i of a run seeded s is the reference's shuffle of stream 2i of s, hands of
    deal[0] and deal[1] cards, then the deck top first; the streams end alike."""
    a, b = rules.deal
    n = 53 if rules.joker else 52
    for seed in (0, 1, 2026, 2**64 - 1):
        for index in (0, 1, 77):
            g = cuttle.Game.from_run(rules, seed=seed, index=index)
            ref = reference_deal(dict(rules.flags), seed, index).snapshot()
            assert (len(g.hand(0)), len(g.hand(1)), len(g.deck)) == (a, b, n - a - b)
            assert sorted(cards(g.hand(0))) == sorted(ref["hands"][0])
            assert sorted(cards(g.hand(1))) == sorted(ref["hands"][1])
            assert cards(g.deck) == ref["deck"]
            assert tuple(g._core_rng_state()) == \
                reference_deal(dict(rules.flags), seed, index).rng.state()


def test_the_default_deal_is_the_one_of_before():
    # Game(seed=1) as the README shows it: the `deal` flag changed no default game.
    g = cuttle.Game(seed=1)
    assert cards(g.hand(0)) == ["3H", "3S", "7H", "TC", "QC"]
    assert cards(g.hand(1)) == ["AC", "AS", "6C", "6H", "7S", "KH"]
    assert len(g.deck) == 41
    assert Rules(deal=(5, 6)) == Rules() and str(Rules(deal=(5, 6))) == "classic"


def test_other_deals_cut_the_same_shuffle_elsewhere():
    base = cuttle.Game.from_run(CLASSIC, seed=9, index=3)
    dealt, deck = set(cards(base.hand(0)) + cards(base.hand(1))), cards(base.deck)
    for d in ((6, 5), (4, 7), (3, 8)):
        g = cuttle.Game.from_run(CLASSIC.replace(deal=d), seed=9, index=3)
        assert set(cards(g.hand(0)) + cards(g.hand(1))) == dealt and cards(g.deck) == deck
    g = cuttle.Game.from_run(CLASSIC.replace(deal=(6, 6)), seed=9, index=3)
    assert set(cards(g.hand(0)) + cards(g.hand(1))) == dealt | {deck[0]}
    assert cards(g.deck) == deck[1:]


@pytest.mark.parametrize("d", [(6, 6), (5, 5), (8, 1), (1, 8)])
def test_the_first_player_moves_first_whatever_the_deal(engine, d):
    g = engine.deal(CLASSIC.replace(deal=d), seed=4)
    assert (g.phase, g.turn, g.to_move) == ("main", 0, 0)
    assert (len(g.hand(0)), len(g.hand(1))) == d
    assert "draw" in legal(g)


def test_a_deal_above_the_hand_limit_is_discarded_at_the_end_of_the_first_turn(engine):
    rules = CLASSIC.replace(deal=(8, 7), hand_limit=5)
    g = engine.deal(rules, seed=11)
    point = next(c for c in cards(g.hand(0)) if c[0] in "A23456789T")
    play(g, f"points {point}")
    # 7 cards left, 2 above the limit: P0 discards them one per move, then P1 plays.
    for left in (7, 6):
        assert (g.phase, g.to_move, len(g.hand(0))) == ("discard", 0, left)
        assert legal(g) == {f"discard {c}" for c in cards(g.hand(0))}
        play(g, f"discard {cards(g.hand(0))[0]}")
    assert (g.phase, g.turn, len(g.hand(0))) == ("main", 1, 5)
    # P1, dealt 7, draws to 8 and discards down to 5 at the end of its own turn.
    play(g, "draw")
    for left in (8, 7, 6):
        assert (g.phase, g.to_move, len(g.hand(1))) == ("discard", 1, left)
        play(g, f"discard {cards(g.hand(1))[-1]}")
    assert (g.phase, g.turn, len(g.hand(1))) == ("main", 0, 5)


def test_a_deal_at_the_no_draw_limit_forbids_drawing(engine):
    rules = CLASSIC.replace(deal=(6, 6), hand_limit=6, hand_limit_mode="no_draw")
    g = engine.deal(rules, seed=5)
    assert "draw" not in legal(g)
    point = next(c for c in cards(g.hand(0)) if c[0] in "A23456789T")
    play(g, f"points {point}")
    assert (g.phase, g.turn) == ("main", 1) and "draw" not in legal(g)


def test_a_deal_of_one_card_each_plays_to_the_end(engine):
    g = engine.deal(CLASSIC.replace(deal=(1, 1)), seed=3)
    assert len(g.deck) == 50
    moves = 0
    while not g.is_over and moves < 400:
        play(g, sorted(legal(g))[0])
        moves += 1
    assert g.is_over


def test_the_flag_in_text_json_and_describe():
    r = Rules("cuttle.cards", deal=(6, 6), joker=True)
    assert str(r) == "cuttle.cards: joker=true, deal=(6,6)"
    assert Rules.parse(str(r)) == r == Rules.parse("cuttle.cards joker=true deal=6,6")
    assert Rules.parse("classic: deal=[4, 6]").deal == (4, 6)
    assert r.to_json() == {"preset": "cuttle.cards", "changed": {"joker": True, "deal": [6, 6]}}
    assert Rules.from_json(r.to_json()) == r
    assert Rules(deal=[6, 5]).deal == (6, 5)
    text = Rules.describe()
    assert "deal" in text and "cards dealt to the first and to the second player" in text
    for bad in ((0, 6), (9, 1), (5,), (5, 6, 7), "5,9", (5.0, 6), (True, 6), None):
        with pytest.raises(ValueError, match="flag 'deal' takes 2 ints from 1 to 8"):
            Rules(deal=bad)
    assert Rules(deal="5,6") == Rules(deal=(5, 6))     # (a string: the flag's text)
    with pytest.raises(ValueError, match="flag 'deal' takes 2 whole numbers"):
        Rules.parse("classic: deal=five,six")


def test_simulations_follow_the_deal():
    same = [cuttle.simulate(300, rules, ("random", "greedy"), seed=2, progress=False).tally
            for rules in ("classic", "classic: deal=5,6")]
    assert same[0] == same[1]
    other = cuttle.compare(["classic", "classic: deal=6,6"], 300, ("random", "greedy"),
                           seed=2, progress=False)
    assert other.results[0].tally != other.results[1].tally
    obs = cuttle.Game("classic: deal=8,3", seed=1).observation(1)
    assert (len(obs.hand), obs.opponent_hand_size, obs.deck_size) == (3, 8, 41)


# Every flag value the atlas plays, alone on a 52-card and on a 53-card base, and the
# presets: `Rules.deal_relation` between any two of them must be what the core deals.
_RULE_SETS = [v.rules for base in (CLASSIC, CLASSIC.replace(joker=True), CC)
              for v in singles(base)] + [Rules(p) for p in Rules.presets]


def dealt_relation(a, b, seed, games=3):
    """How the core deals games 0.. of `seed` under `b` against `a`: "same" (the same
    hands and deck), "cut" (one deck the end of the other, the hands not the same in
    every game) or "other"."""
    same = cut = True
    for i in range(games):
        ga, gb = (cuttle.Game.from_run(r, seed=seed, index=i) for r in (a, b))
        da, db = cards(ga.deck), cards(gb.deck)
        short, long = sorted((da, db), key=len)
        cut = cut and short == long[len(long) - len(short):]
        same = same and da == db and all(set(ga.hand(p)) == set(gb.hand(p)) for p in (0, 1))
    return "same" if same else "cut" if cut else "other"


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(_RULE_SETS), st.sampled_from(_RULE_SETS), st.integers(0, 2**64 - 1))
def test_the_deal_relation_is_what_the_core_deals(a, b, seed):
    # A flag that changes the deal without saying so in its `dealing` (cuttle.flags)
    # would be paired as "the same deals" by compare's title: this finds it.
    assert a.deal_relation(b) == b.deal_relation(a) == dealt_relation(a, b, seed)


def test_the_deal_relation_reads_each_flags_dealing():
    assert {f.name: f.dealing for f in FLAGS.values() if f.dealing} == \
        {"joker": "shuffle", "deal": "cut"}
    assert {f.dealing for f in FLAGS.values()} <= set(DEALINGS)
    assert CLASSIC.deal_relation(CC) == CLASSIC.deal_relation(None) == "same"
    assert CLASSIC.deal_relation("classic: deal=6,6") == "cut"
    assert CLASSIC.deal_relation("classic: deal=6,6, joker=true") == "other"
    assert Rules(joker=True).deal_relation("classic: joker=true, deal=(4,4)") == "cut"
    with pytest.raises(ValueError, match="unknown rule flag"):
        CLASSIC.deal_relation("classic: jokers=true")
