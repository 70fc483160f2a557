"""A second audit of the rules, written from the rulebook by someone who had not read the
engine, through the public API only.

Each scenario covers a rule no other scenario test pinned (a Queen against a 9 to the
deck, variant cards revealed by a 7, a cuttle.cards 9 on glasses, both players at the goal
after a 6); the last test checks every main-phase move list of random games under six
rule sets against the audit's own reading of the rules, with the cards' conservation,
scores and goals after every move.  Section numbers are docs/rules.md's.
"""
import itertools
import random

import pytest

from cuttle import Game, Rules
from support import rulebook
from support.rulebook import LM, S

CC = "cuttle.cards"


def pos(*args, rest="scrap", **kw):
    """A position whose unlisted cards are in the scrap."""
    return rulebook.pos(*args, rest=rest, **kw)


def play(g, *moves):
    for m in moves:
        g.play(m)
    return g


# ------------------------------------------------------------- §3/§5 Queens vs the 9 to deck

@pytest.mark.parametrize("rules", ["cuttle.cards-beta", Rules(nine="topdeck")])
def test_queen_protects_against_a_nine_to_the_deck(rules):
    # §3: a Queen protects its controller's other cards against the 9, whatever
    # the 9 does with its target; a lone Queen is itself targetable in both presets.
    g = pos(rules, hands=(["9C", "AD"], ["2D"]), points=([], ["5H"]),
            perms=([], ["QH", "KH"]), deck=["4H", "5C"])
    nines = {m for m in LM(g) if m.startswith("oneoff 9C")}
    assert nines == {"oneoff 9C QH"}
    play(g, "oneoff 9C QH", "resolve")
    assert str(g.deck[0]) == "QH" and S(g.permanents(1)) == {"KH"}
    assert g.frozen(1) == []


def test_two_queens_stop_every_cuttle_cards_beta_nine():
    g = pos("cuttle.cards-beta", hands=(["9C", "AD"], ["2D"]), points=([], ["5H"]),
            perms=([], ["QH", "QS", "KH"]), deck=["4H", "5C"])
    assert not any(m.startswith("oneoff 9C") for m in LM(g))


# ------------------------------------------------------------- §4 the 7 reveals a variant card

def test_joker_revealed_by_classic_seven_must_be_played_as_a_counterable_one_off():
    # §4: the classic 7's card must be played in a legal way; the Joker's only play is its
    # one-off (§5), which can be countered like any one-off.
    g = pos(Rules(joker=True), hands=(["7C", "AD"], ["2D", "KH"]), deck=["JK", "4H", "5H"])
    play(g, "oneoff 7C", "resolve")
    assert g.phase == "seven" and S(g.revealed) == {"JK"}
    assert LM(g) == {"oneoff JK"}
    play(g, "oneoff JK")
    assert g.phase == "counter" and LM(g) == {"counter 2D", "resolve"}
    play(g, "resolve")
    assert S(g.hand(0)) == {"2D", "KH"} and S(g.hand(1)) == {"AD"}
    assert {"7C", "JK"} <= S(g.scrap) and g.turn == 1


def test_joker_revealed_by_classic_seven_countered_fizzles():
    g = pos(Rules(joker=True), hands=(["7C", "AD"], ["2D", "KH"]), deck=["JK", "4H", "5H"])
    play(g, "oneoff 7C", "resolve", "oneoff JK", "counter 2D", "resolve")
    assert S(g.hand(0)) == {"AD"} and S(g.hand(1)) == {"KH"}
    assert {"7C", "JK", "2D"} <= S(g.scrap)


def test_joker_revealed_by_cuttle_cards_seven_next_to_another_card():
    g = pos(Rules(CC, joker=True), hands=(["7C", "AD"], ["2D", "KH"]), deck=["JK", "4H", "5H"])
    play(g, "oneoff 7C", "resolve")
    assert S(g.revealed) == {"JK", "4H"}
    assert LM(g) == {"oneoff JK", "oneoff 4H", "points 4H"}
    play(g, "oneoff JK", "resolve")
    assert [str(c) for c in g.deck] == ["4H", "5H"]
    assert S(g.hand(0)) == {"2D", "KH"} and S(g.hand(1)) == {"AD"}


def test_eight_revealed_by_a_seven_may_break_the_opponents_glasses():
    r = Rules(eight_breaks_glasses=True)
    g = pos(r, hands=(["7C", "AD"], ["2D", "KH"]), perms=([], ["8H"]), deck=["8S", "4H", "5H"])
    play(g, "oneoff 7C", "resolve")
    assert LM(g) == {"glasses 8S", "points 8S", "oneoff 8S 8H"}
    play(g, "oneoff 8S 8H")
    assert g.phase == "counter" and "counter 2D" in LM(g)
    play(g, "resolve")
    assert g.permanents(1) == [] and {"7C", "8H", "8S"} <= S(g.scrap)


def test_ten_revealed_by_a_seven_may_be_a_ten_discards_one_off():
    r = Rules(ten_discards=True)
    g = pos(r, hands=(["7C", "AD"], ["2D", "KH"]), deck=["TS", "4H", "5H"])
    play(g, "oneoff 7C", "resolve")
    assert LM(g) == {"oneoff TS", "points TS"}
    play(g, "oneoff TS", "resolve")
    assert g.phase == "ten" and g.to_move == 1 and LM(g) == {"discard 2D", "discard KH"}
    play(g, "discard KH")
    assert S(g.hand(1)) == {"2D"} and {"7C", "TS", "KH"} <= S(g.scrap) and g.turn == 1


def test_queen_stops_scuttles_also_stops_a_revealed_card():
    r = Rules(queen_stops_scuttles=True)
    g = pos(r, hands=(["7C"], ["2D"]), points=([], ["5H"]), perms=([], ["QH"]),
            deck=["9S", "4H"])
    play(g, "oneoff 7C", "resolve")
    assert LM(g) == {"points 9S", "oneoff 9S QH"}


def test_strict_scuttle_also_binds_a_revealed_card():
    g = pos(Rules(strict_scuttle=True), hands=(["7C"], ["2D"]), points=([], ["9H"]),
            deck=["9S", "4H"])
    play(g, "oneoff 7C", "resolve")
    assert LM(g) == {"points 9S"}
    g = pos("classic", hands=(["7C"], ["2D"]), points=([], ["9H"]), deck=["9S", "4H"])
    play(g, "oneoff 7C", "resolve")
    assert LM(g) == {"points 9S", "scuttle 9S 9H"}


# ------------------------------------------------------------- §4 cuttle.cards 9 on glasses

def test_cuttle_cards_nine_returns_opponents_glasses_frozen():
    g = pos(CC, hands=(["9C", "AD"], ["2D"]), perms=([], ["8H"]), deck=["4H", "5H"])
    play(g, "oneoff 9C 8H", "resolve")
    assert S(g.hand(1)) == {"2D", "8H"} and S(g.frozen(1)) == {"8H"}
    assert not any("8H" in m.split()[1:2] for m in LM(g))
    assert not g.is_public_hand(1) and g.permanents(1) == []


# ------------------------------------------------------------- §2 winning: a King table whose
# goals rise with Kings, so that a 6 brings both players to the goal at once

def test_both_at_goal_after_a_six_the_responder_who_resolved_wins():
    r = Rules(king_goals=(10, 21, 21, 21, 21))
    g = pos(r, hands=(["6C"], ["2D"]), points=(["TC", "2C"], ["TD", "2H"]),
            perms=(["KH"], ["KS"]), deck=["4H", "AC", "4C"])
    play(g, "oneoff 6C")
    assert g.winner is None
    play(g, "resolve")
    assert g.is_over and g.winner == 1


# ------------------------------------------------------------- an independent oracle for the
# main phase: every legal move list of random games equals the rulebook's own derivation

RANKS = "A23456789TJQK"


def _rank(c):
    return 0 if c == "JK" else RANKS.index(c[0]) + 1


def _idx(c):
    return 52 if c == "JK" else (_rank(c) - 1) * 4 + "CDHS".index(c[1])


def _queens(g, p):
    return [str(c) for c in g.permanents(p) if str(c)[0] == "Q"]


def _protected(g, r, side, card):
    q = _queens(g, side)
    if not q:
        return False
    if card in q:
        return r.queens_protect_queens and len(q) >= 2
    return True


def _expected_main(g):
    r = g.rules
    p = g.turn
    o = 1 - p
    hand = [str(c) for c in g.hand(p)]
    frozen = S(g.frozen(p))
    deck = len(g.deck)
    scrap = [str(c) for c in g.scrap]
    mv = set()
    if deck:
        if not (r.hand_limit_mode == "no_draw" and r.hand_limit is not None
                and len(hand) >= r.hand_limit):
            mv.add("draw")
    else:
        mv.add("pass")

    def targets(side, nine):
        out = [str(c) for c in g.permanents(side)]
        for pc in g.points(side):
            js = [str(j) for j in g.jacks(pc)]
            if js:
                out.append(js[-1])
            if nine and r.nine_targets_points:
                out.append(str(pc))
        if side == o:
            out = [c for c in out if not _protected(g, r, o, c)]
        return out

    opp_pts = [str(c) for c in g.points(o)]
    for c in hand:
        if c in frozen:
            continue
        k = _rank(c)
        if c == "JK":
            mv.add("oneoff JK")
            continue
        if k <= 10:
            mv.add(f"points {c}")
            if not (r.queen_stops_scuttles and _queens(g, o)):
                for t in opp_pts:
                    if (_rank(c) > _rank(t)) if r.strict_scuttle else (_idx(c) > _idx(t)):
                        mv.add(f"scuttle {c} {t}")
        if k == 8:
            mv.add(f"glasses {c}")
            if r.eight_breaks_glasses:
                for t in g.permanents(o):
                    t = str(t)
                    if t[0] == "8" and not _protected(g, r, o, t):
                        mv.add(f"oneoff {c} {t}")
        if k == 13 or (k == 12 and not (r.one_queen_each and _queens(g, p))):
            mv.add(f"royal {c}")
        if k == 11:
            mv |= {f"jack {c} {t}" for t in opp_pts if not _protected(g, r, o, t)}
        if k in (1, 6):
            mv.add(f"oneoff {c}")
        if k in (2, 9):
            tg = targets(o, k == 9) + (targets(p, k == 9) if r.targets_own_side else [])
            mv |= {f"oneoff {c} {t}" for t in tg}
        if k == 3 and (not r.strict_oneoffs
                       or any(r.three_takes_threes or s[0] != "3" for s in scrap)):
            mv.add(f"oneoff {c}")
        if k == 4:
            need = deck if r.four == "draw" else len(g.hand(o))
            if not r.strict_oneoffs or need:
                mv.add(f"oneoff {c}")
        if k in (5, 7) and (not r.strict_oneoffs or deck):
            mv.add(f"oneoff {c}")
        if k == 10 and r.ten_discards and (not r.strict_oneoffs or len(g.hand(o))):
            mv.add(f"oneoff {c}")
    if not mv:
        mv.add("pass")
    return mv


ORACLE_RULES = [
    "classic", CC, "cuttle.cards-beta",
    Rules(nine="freeze", nine_targets_points=True, queens_protect_queens=True,
          strict_scuttle=True, joker=True),
    Rules(eight_breaks_glasses=True, ten_discards=True, queen_stops_scuttles=True,
          one_queen_each=True, ten_blocks_scuttle=True),
    Rules(CC, targets_own_side=True, three_takes_threes=True, four="draw",
          hand_limit=5, hand_limit_mode="no_draw"),
]


@pytest.mark.parametrize("rules", ORACLE_RULES, ids=str)
def test_main_phase_moves_match_an_independent_reading_of_the_rulebook(rules):
    for gi in range(60):
        rng = random.Random(gi)
        g = Game(rules, seed=gi)
        while not g.is_over and g.ply < 400:
            moves = sorted(LM(g))
            if g.phase == "main":
                assert set(moves) == _expected_main(g), (gi, g.ply)
            elif g.phase == "counter":
                last = 1 - g.to_move
                exp = {"resolve"}
                if not _queens(g, last):
                    exp |= {f"counter {c}" for c in S(g.hand(g.to_move)) if c[0] == "2"}
                assert set(moves) == exp
            elif g.phase == "four":
                h = sorted(S(g.hand(g.to_move)), key=_idx)
                assert set(moves) == {"discard " + " ".join(cs)
                                      for cs in itertools.combinations(h, min(2, len(h)))}
            g.play(rng.choice(moves))
            total = (len(g.deck) + len(g.scrap) + len(g.revealed) + len(g.stack)
                     + sum(len(g.hand(p)) + len(g.permanents(p)) + len(g.points(p))
                           + sum(len(g.jacks(c)) for c in g.points(p)) for p in (0, 1)))
            assert total == (53 if g.rules.joker else 52)
            for p in (0, 1):
                assert g.score(p) == sum(_rank(str(c)) for c in g.points(p))
                kings = sum(str(c)[0] == "K" for c in g.permanents(p))
                assert g.goal(p) == g.rules.king_goals[kings]
                if not g.is_over:
                    assert g.score(p) < g.goal(p)
