"""`cuttle.narration`: what a move did, in words, for a viewer, naming no card hidden
from it.  A scenario for each kind of effect, then properties over random games."""

import random
import re

import pytest

import cuttle
from cuttle.narration import narrate, narrate_game

from support.helpers import random_rules

CARD = re.compile(r"(?<![0-9A-Za-z])(?:[2-9TJQKA][CDHS]|JK)(?![0-9A-Za-z])")


def pos(rules="classic", **kw):
    kw.setdefault("rest", "scrap")
    return cuttle.Game.from_position(rules, seed=1, **kw)


def told(g, move, viewers=(0, 1, None)):
    """Play `move` on `g`; what it did for each viewer."""
    before = g.copy()
    g.play(move)
    return tuple(narrate(before, g, v) for v in viewers)


# -- cards that left a hand -------------------------------------------------------------

def test_a_random_fours_discards_are_named_to_both_players():
    g = pos("classic: four=random", hands=(["4C", "9H"], ["3C", "7H", "JD", "JH"]),
            deck=["KS"])
    assert told(g, "oneoff 4C") == ("", "", "")      # (announced: nothing happened yet)
    hand = set(g.hand(1))
    mine, theirs, every = told(g, "resolve")
    lost = sorted(hand - set(g.hand(1)), key=lambda c: c.index)
    assert len(lost) == 2 and set(lost) <= set(g.scrap)
    assert mine == f"4C resolves: P1 discards {lost[0]} and {lost[1]}."
    assert theirs == f"4C resolves: you discard {lost[0]} and {lost[1]}."
    assert every == mine


def test_a_chosen_discard_says_what_it_answers():
    g = pos(hands=(["4C", "9H"], ["3C", "7H", "JD"]), deck=["KS"])
    g.play("oneoff 4C")
    assert told(g, "resolve") == ("4C resolves.",) * 3
    assert told(g, "discard 3C 7H") == ("P1 discards 3C and 7H for 4C.",
                                        "You discard 3C and 7H for 4C.",
                                        "P1 discards 3C and 7H for 4C.")


def test_a_hand_limit_discard_and_the_draw_before_it():
    g = pos("classic: hand_limit=2", hands=(["3C", "5D"], ["TH"]), deck=["KS", "2H"])
    assert told(g, "draw") == ("You draw KS.", "P0 draws a card.", "P0 draws KS.")
    assert g.phase == "discard"
    assert told(g, "discard 3C") == ("You discard 3C down to the hand limit.",
                                     "P0 discards 3C down to the hand limit.",
                                     "P0 discards 3C down to the hand limit.")


def test_a_card_drawn_from_a_known_place_is_named_to_the_opponent():
    g = pos("classic: nine=topdeck", hands=(["9C", "3S"], ["3D"]), permanents=([], ["QH"]),
            deck=["KS", "2H"])
    g.play("oneoff 9C QH")
    assert told(g, "resolve") == ("9C resolves: QH goes on top of the deck.",) * 3
    assert told(g, "draw") == ("P1 draws QH.", "You draw QH.", "P1 draws QH.")


def test_a_fives_draws():
    g = pos(hands=(["5C"], ["3D"]), deck=["KS", "2H", "9D"])
    g.play("oneoff 5C")
    assert told(g, "resolve") == ("5C resolves: you draw 2H and KS.",
                                  "5C resolves: P0 draws 2 cards.",
                                  "5C resolves: P0 draws 2H and KS.")


# -- the table --------------------------------------------------------------------------

def test_a_scuttle_scraps_the_point_card_with_its_jacks():
    g = pos(hands=(["9C"], ["3D"]), points=([], ["8D[JC]"]), deck=["KS"])
    assert told(g, "scuttle 9C 8D") == ("P1's 8D and JC go to the scrap.",
                                        "Your 8D and JC go to the scrap.",
                                        "P1's 8D and JC go to the scrap.")


def test_a_jack_steals_a_point_card():
    g = pos(hands=(["JD"], ["3D"]), points=([], ["7H"]), deck=["KS"])
    assert told(g, "jack JD 7H") == ("You now control 7H.", "P0 now controls 7H.",
                                     "P0 now controls 7H.")


def test_a_two_destroys_a_permanent():
    g = pos(hands=(["2C"], ["3D"]), permanents=([], ["QH"]), deck=["KS"])
    g.play("oneoff 2C QH")
    assert told(g, "resolve") == ("2C resolves: P1's QH goes to the scrap.",
                                  "2C resolves: your QH goes to the scrap.",
                                  "2C resolves: P1's QH goes to the scrap.")


def test_a_six_scraps_every_royal_and_gives_back_stolen_points():
    g = pos(hands=(["6S"], ["3D"]), permanents=(["KD"], ["QH"]), points=(["7H"], ["9D[JC]"]),
            deck=["KS"])
    g.play("oneoff 6S")
    assert told(g, "resolve", (0,)) == ("6S resolves: your KD goes to the scrap; P1's JC "
                                       "and QH go to the scrap; you now control 9D.",)
    assert g.points(0) == ["7H", "9D"]


def test_an_ace_scraps_every_point_card():
    g = pos(hands=(["AS"], ["3D"]), points=(["7H", "TC"], ["8D[JC]"]), deck=["KS"])
    g.play("oneoff AS")
    assert told(g, "resolve", (1,)) == ("AS resolves: P0's 7H and TC go to the scrap; "
                                       "your 8D and JC go to the scrap.",)


def test_a_nine_returns_a_card_to_a_hand():
    g = pos(hands=(["9C"], ["3D"]), permanents=([], ["KH"]), deck=["KS"])
    g.play("oneoff 9C KH")
    assert told(g, "resolve") == ("9C resolves: KH goes back to P1's hand.",
                                  "9C resolves: KH goes back to your hand.",
                                  "9C resolves: KH goes back to P1's hand.")


def test_a_countered_one_off_fizzles_and_a_recountered_one_resolves():
    g = pos(hands=(["4C"], ["2S", "3D"]), deck=["KS"])
    g.play("oneoff 4C")
    g.play("counter 2S")
    assert told(g, "resolve") == ("4C is countered and fizzles.",) * 3
    assert g.hand(1) == ["3D"]
    g = pos(hands=(["4C", "2H"], ["2S", "3D", "5D"]), deck=["KS"])
    for m in ("oneoff 4C", "counter 2S", "counter 2H"):
        g.play(m)
    assert told(g, "resolve") == ("4C resolves.",) * 3 and g.phase == "four"


def test_a_joker_swaps_the_hands():
    g = pos("classic: joker=true", hands=(["JK", "3C"], ["5D", "9H"]), deck=["KS"])
    g.play("oneoff JK")
    assert told(g, "resolve") == (
        "JK resolves: the hands are swapped: you now hold 5D and 9H, and P1 now holds 3C.",
        "JK resolves: the hands are swapped: you now hold 3C, and P0 now holds 5D and 9H.",
        "JK resolves: the hands are swapped: P0 now holds 5D and 9H, and P1 now holds 3C.")


def test_glasses_open_a_hand():
    g = pos(hands=(["8C"], ["3D", "5H"]), deck=["KS"])
    assert told(g, "glasses 8C") == ("P1's hand is now open to you: 3D and 5H.",
                                     "Your hand is now open to P0.",
                                     "P1's hand is now public.")


def test_a_sevens_revealed_cards():
    g = pos(hands=(["7H"], ["3D"]), deck=["JC", "5S"])       # classic: a Jack, no target
    g.play("oneoff 7H")
    assert told(g, "resolve", (1,)) == ("7H resolves: JC from the deck goes to the scrap.",)
    g = pos("cuttle.cards", hands=(["7H"], ["3D"]), deck=["JC", "JD", "5S"])
    g.play("oneoff 7H")
    assert told(g, "resolve", (1,)) == ("7H resolves: JC and JD are revealed from the deck.",)
    assert told(g, "discard JC", (1,)) == ("JC (revealed) goes to the scrap; JD goes back "
                                          "on top of the deck.",)


def test_a_blocked_scuttle():
    g = pos("classic: ten_blocks_scuttle=true", hands=(["9C"], ["TS", "3D"]),
            points=([], ["8D"]), deck=["KS"])
    assert told(g, "scuttle 9C 8D") == ("", "", "")
    assert told(g, "block TS") == ("9C goes to the scrap.",) * 3
    assert g.points(1) == ["8D"]


def test_a_move_whose_text_says_it_all_is_not_narrated():
    g = pos(hands=(["7H", "2C"], ["3D"]), deck=["KS"])
    assert told(g, "points 7H") == ("", "", "")


def test_names_and_bad_arguments():
    g = pos(hands=(["3C"], ["TH"]), deck=["KS", "2H"])
    before = g.copy()
    g.play("draw")
    assert narrate(before, g, 0, names={0: "you", 1: "the bot"}) == "You draw KS."
    assert narrate(before, g, 1, names=("Ann", "Bob")) == "Ann draws a card."
    for args, words in [((before, g, 2), "viewer must be 0 or 1 or None"),
                        ((g, before), "one more move"), ((before, before), "one more move"),
                        ((before, cuttle.Game(seed=1)), "one more move"),
                        ((before, "draw"), "must be a cuttle.Game"),
                        ((before, g, 0, {0: "you"}), "names must give seats 0 and 1")]:
        with pytest.raises(ValueError, match=words):
            narrate(*args)
    assert narrate_game(before, ["draw", "points TH"], 1) == ["P0 draws a card.", ""]
    assert narrate_game(before, []) == []
    with pytest.raises(cuttle.IllegalMoveError):
        narrate_game(before, ["points KS"])


# -- properties over random games ---------------------------------------------------------

def random_games(n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        g = cuttle.Game(random_rules(rng, p_change=0.5), seed=rng.getrandbits(32))
        start = g.copy()
        while not g.is_over and g.ply < 250:
            g.play(rng.choice(list(g.legal_moves)))
        yield start, g.moves


def test_a_viewer_is_never_told_a_card_it_cannot_know():
    """Every card named to a viewer is one it may know after the move (not among its
    observation's unknown cards); a card it cannot know is only counted."""
    counted = named = 0
    for start, moves in random_games(60, 11):
        texts = {v: narrate_game(start, moves, v) for v in (0, 1)}
        g = start.copy()
        for i, m in enumerate(moves):
            g.play(m)
            for v in (0, 1):
                unknown = set(g.observation(v).unknown_cards)
                cards = set(CARD.findall(texts[v][i]))
                assert not cards & unknown, (g.rules, str(m), v, texts[v][i])
                named += len(cards)
                counted += "draws a card" in texts[v][i] or " cards" in texts[v][i]
    assert counted > 100 and named > 1000          # (both kinds were seen)


def test_every_discard_and_draw_is_told():
    """A card that left a hand for the scrap is named to every viewer (the scrap is
    public); a card drawn is named to its drawer, and counted for the other."""
    seen = 0
    for start, moves in random_games(40, 12):
        texts = {v: narrate_game(start, moves, v) for v in (0, 1, None)}
        g = start.copy()
        for i, m in enumerate(moves):
            hands = [set(g.hand(p)) for p in (0, 1)]
            deck = set(g.deck)
            g.play(m)
            scrapped = (hands[0] | hands[1]) & set(g.scrap) - set(m.cards)
            for v in (0, 1, None):
                text = texts[v][i]
                assert scrapped <= set(CARD.findall(text)), (str(m), v, text)
                if m.verb == "discard":
                    assert set(m.cards) <= set(CARD.findall(text)), (str(m), v, text)
            for p in (0, 1):
                drawn = set(g.hand(p)) & deck
                if drawn:
                    seen += 1
                    assert drawn <= set(CARD.findall(texts[p][i])), (str(m), texts[p][i])
                    assert drawn <= set(CARD.findall(texts[None][i]))
                    assert "draw" in texts[1 - p][i]
    assert seen > 300
