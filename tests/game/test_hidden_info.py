"""Observations (rulebook §6) and determinization from a player's view."""

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import cuttle
from cuttle.cards import CARDS
from cuttle.observation import (JACK_HEIGHT_AT, JACK_ON_AT, JACKS, LATE_PLANES,
                                OBSERVATION_SIZE, PLANES, jack_places, plane)

from support.helpers import (placing_moves, placing_rules, random_game, random_rules,
                             targeting_moves, targeting_rules, walk, zones)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
games = st.builds(lambda seed: random_game(random.Random(seed)), st.integers(0, 2**32 - 1))


def pos(rules="classic", **kw):
    kw.setdefault("rest", "scrap")
    return cuttle.Game.from_position(rules, seed=1, **kw)


def test_observation_hides_the_opponents_hand_and_the_deck():
    g = pos(hands=(["AS", "2C"], ["3D", "4H", "5S"]), deck=["7C", "8D"])
    o = g.observation(0)
    assert o.hand == ("AS", "2C") and o.opponent_hand_size == 3 and o.opponent_known == ()
    assert o.deck_size == 2 and o.deck_known == () and not o.opponent_hand_public
    assert set(o.unknown_cards) == {"3D", "4H", "5S", "7C", "8D"}


def test_a_threes_pick_becomes_known_to_the_opponent():
    g = pos(hands=(["3C", "9D"], ["TH"]), scrap=["KS"], deck=["5C"])
    g.play("oneoff 3C"), g.play("resolve"), g.play("take KS")
    assert g.observation(1).opponent_known == ("KS",)
    assert "KS" not in g.observation(1).unknown_cards
    g.play("points TH"), g.play("royal KS")        # it leaves the hand: no longer "known"
    assert g.observation(1).opponent_known == ()


def test_a_nines_return_is_known():
    g = pos(hands=(["9C"], ["TH"]), permanents=([], ["KD"]), deck=["5C"])
    g.play("oneoff 9C KD"), g.play("resolve")
    assert g.observation(0).opponent_known == ("KD",)


def test_glasses_make_the_opponents_hand_public_and_it_is_remembered():
    g = pos(hands=(["8C", "2D"], ["3D", "4H"]), deck=["5C", "6C", "7C"])
    g.play("glasses 8C")
    o = g.observation(0)
    assert o.opponent_hand_public and o.opponent_known == ("3D", "4H")
    g.play("draw")              # P1 draws a hidden card: it is visible through the glasses
    assert len(g.observation(0).opponent_known) == 3
    g.play("oneoff 2D 8C")      # P0 scraps its own glasses (classic: own side allowed)
    g.play("resolve")
    o = g.observation(0)
    assert not o.opponent_hand_public and set(o.opponent_known) == set(g.hand(1))


def test_open_hands_and_empty_deck_reveal():
    g = pos(cuttle.Rules(open_hands=True), hands=(["AS"], ["3D"]), deck=["5C"])
    assert g.observation(0).opponent_known == ("3D",)
    g = pos("cuttle.cards", hands=(["AS"], ["3D"]), deck=[])
    assert g.observation(1).opponent_known == ("AS",) and g.observation(1).opponent_hand_public
    g = pos("classic", hands=(["AS"], ["3D"]), deck=[])
    assert g.observation(1).opponent_known == ()


def test_a_card_put_on_the_deck_is_known_and_followed_into_the_hand():
    g = pos(cuttle.Rules(nine="topdeck"), hands=(["9C", "AH"], ["TH"]),
            permanents=([], ["KD"]), deck=["5C", "6C"])
    g.play("oneoff 9C KD"), g.play("resolve")
    assert g.observation(0).deck_known == ((0, "KD"),)
    assert g.observation(1).deck_known == ((0, "KD"),)
    g.play("draw")              # P1 draws the known King
    assert g.observation(0).opponent_known == ("KD",) and g.observation(0).deck_known == ()


def test_both_players_freezes_are_public_this_turn_and_next():
    def deal():
        return pos(cuttle.Rules(nine="freeze"), hands=(["9C", "AH"], ["TH"]),
                   permanents=(["KS"], ["KD"]), deck=["5C", "6C", "7C"])

    def frozen(g):
        return {(o.frozen, o.frozen_next) for o in (g.observation(0), g.observation(1))}

    g = deal()
    g.play("oneoff 9C KD"), g.play("resolve")      # P1's King: frozen in P1's turn, now
    assert g.turn == 1 and frozen(g) == {(((), ("KD",)), ((), ()))}
    g = deal()
    g.play("oneoff 9C KS"), g.play("resolve")      # P0's own King: in P0's next turn
    assert g.turn == 1 and frozen(g) == {(((), ()), (("KS",), ()))}
    g.play("draw")
    assert g.turn == 0 and frozen(g) == {((("KS",), ()), ((), ()))}
    g.play("draw")
    assert frozen(g) == {(((), ()), ((), ()))}


def test_joker_swap_makes_both_hands_known():
    g = pos(cuttle.Rules(joker=True), hands=(["JK", "AS", "2C"], ["3D"]), deck=["5C"])
    g.play("oneoff JK"), g.play("resolve")
    assert g.hand(1) == ["AS", "2C"] and g.hand(0) == ["3D"]
    assert set(g.observation(0).opponent_known) == {"AS", "2C"}
    assert g.observation(1).opponent_known == ("3D",)


def test_encoding_has_a_fixed_size_and_marks_each_card_once():
    g = random_game(random.Random(4), max_moves=30)
    for p in (0, 1):
        a = g.observation(p).to_array()
        assert a.shape == (OBSERVATION_SIZE,) and a.dtype == np.float32
        planes = a[: 53 * len(PLANES)].reshape(len(PLANES), 53)
        place = np.delete(planes, PLANES.index("own_frozen"), axis=0)
        assert (place[:, :52].sum(axis=0) == 1).all()   # every card in exactly one place


def marked(g, p, names=LATE_PLANES + ("own_frozen", "deck_known")):
    """The cards each plane of p's encoding marks, with their values (the native
    encoding, checked against to_array())."""
    a = g.observation_array(p)
    assert a.tobytes() == g.observation(p).to_array().tobytes()
    return {name: {str(CARDS[i]): float(v) for i, v in enumerate(plane(a, name)) if v}
            for name in names}


def test_the_encoding_holds_the_depth_of_known_deck_cards():
    g = pos(cuttle.Rules(nine="topdeck"), hands=(["9C", "AH"], ["9D", "TH"]),
            permanents=(["QS"], ["KD"]), deck=["5C", "6C"])
    g.play("oneoff 9C KD"), g.play("resolve")      # KD on top
    g.play("oneoff 9D QS"), g.play("resolve")      # QS on top of it
    assert g.observation(0).deck_known == ((0, "QS"), (1, "KD"))
    for p in (0, 1):                               # (depth + 1) / 52, for both players
        m = marked(g, p)
        assert m["deck_depth"] == {"QS": np.float32(1 / 52), "KD": np.float32(2 / 52)}
        assert m["deck_known"] == {"QS": 1.0, "KD": 1.0}
    g.play("draw")                                 # P0 draws QS: KD moves up
    assert marked(g, 1)["deck_depth"] == {"KD": np.float32(1 / 52)}
    assert marked(g, 0)["deck_depth"] == {"KD": np.float32(1 / 52)}


def test_the_encoding_holds_both_players_freezes_this_turn_and_next():
    def frozen(g):
        return [{name: set(cards) for name, cards in marked(g, p).items()
                 if "frozen" in name and cards} for p in (0, 1)]

    def deal():
        return pos(cuttle.Rules(nine="freeze"), hands=(["9C", "AH"], ["TH"]),
                   permanents=(["KS"], ["KD"]), deck=["5C", "6C", "7C"])

    g = deal()                  # P0's 9 returns P1's King: frozen in P1's turn, now
    g.play("oneoff 9C KD"), g.play("resolve")
    assert g.turn == 1 and frozen(g) == [{"opponent_frozen": {"KD"}}, {"own_frozen": {"KD"}}]
    g.play("draw")
    assert frozen(g) == [{}, {}]
    g = deal()                  # P0's 9 returns its own King: frozen in P0's next turn
    g.play("oneoff 9C KS"), g.play("resolve")
    assert g.turn == 1 and frozen(g) == [{"own_frozen_next": {"KS"}},
                                         {"opponent_frozen_next": {"KS"}}]
    g.play("draw")
    assert g.turn == 0 and frozen(g) == [{"own_frozen": {"KS"}}, {"opponent_frozen": {"KS"}}]
    g.play("draw")
    assert frozen(g) == [{}, {}]


def test_the_encoding_does_not_change_with_the_cards_the_player_cannot_see():
    # A determinization deals again exactly the cards the player cannot see: the whole
    # array stays, freezes, deck depths, Jack places and targets included (positions
    # where 9s, 7s, Jacks and targeted moves are played often, so that those are set).
    seen = set()
    walks = [(placing_rules(seed, ("freeze", "topdeck")[seed % 2]), seed, placing_moves)
             for seed in range(24)]
    walks += [(targeting_rules(seed), seed, targeting_moves) for seed in range(8)]
    for rules, seed, favour in walks:
        for i, g in enumerate(walk(rules, seed, favour)):
            for p in (0, 1):
                a = g.observation_array(p)
                seen.update(name for name in LATE_PLANES if plane(a, name).any())
                seen.update(["stacked Jacks"] if (jack_places(a)[1] > 0.25).any() else [])
                seen.update(["target"] if plane(a, "target").any() else [])
                for s in range(2):
                    d = g.determinize(p, seed=seed * 1000 + i * 2 + s)
                    assert d.observation_array(p).tobytes() == a.tobytes(), (rules, g.moves)
    assert seen == set(LATE_PLANES) | {"stacked Jacks", "target"}


def targets(g):
    """The card each player's encoding marks in its target plane (a set, for each seat),
    checked against Observation.target."""
    out = []
    for p in (0, 1):
        cards = set(marked(g, p, ("target",))["target"])
        o = g.observation(p)
        assert cards == (set() if o.target is None else {str(o.target)})
        out.append(cards)
    return out


def test_the_encoding_marks_the_king_a_two_targets_until_the_chain_ends():
    def deal():
        return pos(hands=(["2H", "9C"], ["2D", "TH"]), permanents=(["KC"], ["KS", "KD"]),
                   deck=["5C", "6C"])

    g = deal()
    assert targets(g) == [set(), set()]
    g.play("oneoff 2H KS")          # the responder (and the announcer) see that King
    assert g.to_move == 1 and targets(g) == [{"KS"}, {"KS"}]
    assert marked(g, 1, ("target",)) == {"target": {"KS": 1.0}}
    g.play("counter 2D")            # the chain goes on: the same target
    assert targets(g) == [{"KS"}, {"KS"}]
    g.play("resolve")               # countered: it fizzles, the King stays
    assert g.permanents(1) == ["KD", "KS"] and targets(g) == [set(), set()]
    g = deal()
    g.play("oneoff 2H KS"), g.play("resolve")      # it resolves: the King is scrapped
    assert "KS" in g.scrap and targets(g) == [set(), set()]


def test_the_encoding_marks_the_targets_of_nines_eights_and_blockable_scuttles():
    g = pos(cuttle.Rules(eight_breaks_glasses=True, ten_blocks_scuttle=True),
            hands=(["9C", "8S", "TC", "5D"], ["TH", "AD"]), points=(["7C"], ["6H", "4H[JD]"]),
            permanents=([], ["8D"]), deck=["5C", "6C", "7H", "7S"])
    g.play("oneoff 9C JD")          # a 9 on a Jack
    assert targets(g) == [{"JD"}, {"JD"}]
    g.play("resolve")
    assert targets(g) == [set(), set()]
    g.play("points AD")
    g.play("oneoff 8S 8D")          # an 8 on the glasses
    assert targets(g) == [{"8D"}, {"8D"}]
    g.play("resolve")
    assert "8D" in g.scrap and targets(g) == [set(), set()]
    g.play("draw")
    g.play("scuttle TC 6H")         # a scuttle its victim may block with a 10
    assert g.phase == "block" and targets(g) == [{"6H"}, {"6H"}]
    g.play("block TH")
    assert "6H" in g.points(1) and targets(g) == [set(), set()]
    g.play("draw")
    g.play("oneoff 5D")             # a one-off without a target marks nothing
    assert g.phase == "counter" and targets(g) == [set(), set()]


def jacks(g, p):
    """{Jack: (point card, height)} of the Jacks on the table in p's encoding (the
    native encoding, checked against to_array())."""
    a = g.observation_array(p)
    assert a.tobytes() == g.observation(p).to_array().tobytes()
    on, height = jack_places(a)
    assert set(on.sum(axis=1)) <= {0, 1} and ((on.sum(axis=1) == 1) == (height > 0)).all()
    return {str(j): (str(CARDS[on[k].argmax()]), float(height[k]))
            for k, j in enumerate(JACKS) if height[k]}


def test_the_encoding_says_which_jack_lies_on_which_card():
    a = pos(hands=(["AH"], ["AD"]), points=(["5H[JC]", "7D[JS]"], []))
    b = pos(hands=(["AH"], ["AD"]), points=(["5H[JS]", "7D[JC]"], []))
    for p in (0, 1):
        assert a.observation(p) != b.observation(p)
        assert jacks(a, p) == {"JC": ("5H", 0.25), "JS": ("7D", 0.25)}
        assert jacks(b, p) == {"JS": ("5H", 0.25), "JC": ("7D", 0.25)}
        x, y = a.observation_array(p), b.observation_array(p)
        assert x[:JACK_ON_AT].tobytes() == y[:JACK_ON_AT].tobytes()  # the planes: alike
        assert x[JACK_ON_AT + 0 * 40 + CARDS.index("5H")] == 1       # JC on 5H (index 18)
        assert x[JACK_ON_AT + 3 * 40 + CARDS.index("7D")] == 1       # JS on 7D (index 25)
        assert list(x[JACK_HEIGHT_AT:JACK_HEIGHT_AT + 4]) == [0.25, 0, 0, 0.25]
        assert y[JACK_ON_AT + 0 * 40 + CARDS.index("7D")] == 1
        assert y[JACK_ON_AT + 3 * 40 + CARDS.index("5H")] == 1
        assert x.tobytes() != y.tobytes()


def test_the_encoding_follows_jacks_onto_stacks_and_off_them_by_nines_and_twos():
    g = pos(hands=(["9C", "2C"], ["JS", "JC", "AD"]), points=(["8H[JD,JH]", "5H"], ["7D"]),
            deck=["AC", "3C", "4C"])

    def check(expected, p0_points):
        assert g.points(0) == p0_points                  # control follows the stacks
        for p in (0, 1):
            assert jacks(g, p) == expected
            assert set(CARDS[i] for i in np.flatnonzero(
                plane(g.observation_array(p), "own_points" if p == 0 else "opponent_points")
            )) == set(p0_points)

    check({"JD": ("8H", 0.25), "JH": ("8H", 0.5)}, ["5H", "8H"])
    g.play("oneoff 9C JH"), g.play("resolve")           # the top Jack back to a hand
    check({"JD": ("8H", 0.25)}, ["5H"])
    g.play("jack JS 5H")
    check({"JD": ("8H", 0.25), "JS": ("5H", 0.25)}, [])
    g.play("jack JH 8H")                                 # on the stack again
    check({"JD": ("8H", 0.25), "JH": ("8H", 0.5), "JS": ("5H", 0.25)}, ["8H"])
    g.play("jack JC 8H")
    check({"JD": ("8H", 0.25), "JH": ("8H", 0.5), "JC": ("8H", 0.75),
           "JS": ("5H", 0.25)}, [])
    g.play("oneoff 2C JC"), g.play("resolve")           # the top Jack to the scrap
    check({"JD": ("8H", 0.25), "JH": ("8H", 0.5), "JS": ("5H", 0.25)}, ["8H"])


def test_legal_move_mask_matches_legal_moves():
    g = random_game(random.Random(5), max_moves=20)
    mask = g.legal_move_mask()
    assert mask.shape == (1 << 16,) and mask.sum() == len(g.legal_moves)
    assert all(mask[m.code] for m in g.legal_moves)


@SETTINGS
@given(games, st.integers(0, 2**32 - 1), st.integers(0, 1))
def test_a_determinization_keeps_the_players_observation(g, seed, p):
    d = g.determinize(p, seed=seed)
    assert d.observation(p) == g.observation(p)
    assert d.observation_array(p).tobytes() == g.observation_array(p).tobytes()
    assert sorted(c.index for c, _ in zones(d)) == sorted(c.index for c, _ in zones(g))
    if g.to_move == p:
        assert {str(m) for m in d.legal_moves} == {str(m) for m in g.legal_moves}


@SETTINGS
@given(games, st.integers(0, 2**32 - 1), st.integers(0, 1))
def test_known_cards_never_move(g, seed, p):
    d = g.determinize(p, seed=seed)
    where_g, where_d = dict(zones(g)), dict(zones(d))
    o = g.observation(p)
    unknown = set(o.unknown_cards)
    for c, place in where_g.items():
        if c not in unknown:
            assert where_d[c] == place, c
    # Known deck cards keep their exact depth.
    for depth, c in o.deck_known:
        assert d.deck[depth] == c


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, st.integers(0, 1))
def test_every_consistent_hidden_card_appears_in_samples(g, p):
    o = g.observation(p)
    if o.opponent_hand_public or o.opponent_hand_size == len(o.opponent_known):
        return
    unknown = set(o.unknown_cards)
    seen = set()
    for s in range(400):
        seen |= set(g.determinize(p, seed=s).hand(1 - p)) - set(o.opponent_known)
    assert seen == unknown


def test_determinization_is_seeded():
    g = random_game(random.Random(9), max_moves=10)
    assert g.determinize(0, seed=3).hand(1) == g.determinize(0, seed=3).hand(1)
    samples = {tuple(g.determinize(0, seed=s).hand(1)) for s in range(20)}
    assert len(samples) > 1


def every_walk():
    """The walks of random games that meet every phase and move kind: (rules, seed,
    the moves favoured) for `walk`, under random rules, then rules that place cards
    (9s freezing or to the deck) and rules that target, 300 seeds among them."""
    walks = [(random_rules(random.Random(seed), p_change=0.4), seed, None)
             for seed in range(0, 300, 3)]
    walks += [(placing_rules(seed, ("freeze", "topdeck")[seed % 2]), seed, placing_moves)
              for seed in range(1, 300, 3)]
    walks += [(targeting_rules(seed), seed, targeting_moves) for seed in range(2, 300, 3)]
    return walks


def test_the_deciders_legal_moves_are_those_of_every_determinization_of_its_view():
    # What a policy called on `game.determinize(p)` returns (cuttle.policies.fair) must
    # be legal in the true game: at every decision of random games under random rules,
    # every phase met, the decider's legal moves are the true game's.
    phases = set()
    for rules, seed, favour in every_walk():
        for i, g in enumerate(walk(rules, seed, favour)):
            if g.is_over:
                continue
            p, legal = g.to_move, set(g.legal_moves)
            phases.add(g.phase)
            for s in range(2):
                d = g.determinize(p, seed=seed * 1000 + i * 2 + s)
                assert d.to_move == p and set(d.legal_moves) == legal, (rules, g.moves)
    assert phases == set(cuttle._core.PHASE_NAMES) - {"over"}


def test_a_determinization_carries_its_own_seed():
    # The true game's seed would deal its hidden cards again (Game(rules, seed) is the
    # deal): the sample names the seed it was drawn from instead.
    g = cuttle.Game(seed=12)
    g.play("draw")
    d = g.determinize(1, seed=77)
    assert d.seed == 77 and g.seed == 12 and d == g.determinize(1, seed=77)
    assert g.determinize(1).seed != 12               # a fresh seed, recorded


def test_a_determinization_holds_the_moves_that_led_to_it_as_its_prior_moves():
    # The sample's own history starts at it (undoing would leak the true state); the
    # moves before, public, are its prior_moves: the true game's own, then its moves.
    assert cuttle.Game(seed=12).prior_moves == ()
    assert cuttle.Game.from_run(seed=3, index=5).prior_moves == ()
    g = random_game(random.Random(7), max_moves=25)
    d = g.determinize(g.to_move, seed=5)
    assert d.prior_moves == tuple(g.moves) and len(g.moves) == 25
    assert d.moves == [] and d.ply == 0 and d.turn_number == g.turn_number
    with pytest.raises(cuttle.NoMoveToUndo):
        d.undo()
    with pytest.raises(AttributeError):
        d.prior_moves = ()                          # read-only
    assert d.copy() == d and d.copy().prior_moves == d.prior_moves
    played = [d.play(d.legal_moves[-1]) for _ in range(3)]
    again = d.determinize(d.to_move, seed=6)
    assert again.prior_moves == tuple(g.moves + played) and again.moves == []
    d.undo()
    assert d.prior_moves == tuple(g.moves)          # undo takes back its own moves only
    # part of the game: the same position with another history is another game
    fn, args = again.__reduce__()
    assert fn(*args) == again and fn(*args[:8]) != again
    assert fn(*args[:8]).prior_moves == ()


def test_the_history_never_names_a_card_a_player_cannot_place():
    # Every move of the history is public, so handing it to a bot (prior_moves) shows
    # nothing its view does not: at every position of random games under random rules,
    # every move kind met, no card a move named is one a player cannot place now (a draw
    # names none; a card played, taken from the scrap, put back on the deck or returned
    # to a hand is known where it lies).  And a sample's prior moves are the game's.
    verbs = set()
    for rules, seed, favour in every_walk():
        named = set()
        for i, g in enumerate(walk(rules, seed, favour)):
            if g.ply:
                named |= set(g.moves[-1].cards)
                verbs.add(g.moves[-1].verb)
            for p in (0, 1):
                unknown = set(g.observation(p).unknown_cards)
                assert not named & unknown, (rules, p, named & unknown, g.moves)
                if i % 7 == 0:
                    d = g.determinize(p, seed=seed * 1000 + i)
                    assert d.prior_moves == tuple(g.moves) and d.observation(p) == \
                        g.observation(p)
    assert verbs == set(cuttle._core.VERBS)
