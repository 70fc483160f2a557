"""The position text format (cuttle.position): round trips, parsing details, errors."""

import random

import re
import pytest

import cuttle
from cuttle.position import deal_unseen, has_unseen
from cuttle.position import parse_text as parse_position

from support.helpers import random_rules, rule_state, same_position, table, walk


# What position text refuses to write, by the rule state the game holds (`write_text`'s
# words).
REFUSALS = {"in a row": "passes", "sudden death's last turn": "countdown",
            "countdown runs": "countdown"}


def check_refusal(g, message):
    """The refusal of g's text names rule state g holds that the text cannot carry."""
    what = [v for k, v in REFUSALS.items() if k in message]
    assert len(what) == 1, message
    if what[0] == "passes":
        assert g.moves[-1] == "pass" and rule_state(g)["passes"] > 0, message
    else:
        assert g.rules.sudden_death and not g.deck and rule_state(g)["countdown"] == 0, \
            message
    return what[0]


def round_trips(g):
    """g read back from its text (multi-line too, and through `from_position`) as the
    same position (`same_position`), or g's text refused with a reason g shows: the game
    read back, or None."""
    try:
        text = g.position_text()
    except ValueError as e:
        check_refusal(g, str(e))
        return None
    back = cuttle.Game.from_text(text)
    same_position(back, g)
    multi = g.position_text(multiline=True)
    assert "\n" in multi
    same_position(cuttle.Game.from_text(multi), g)
    same_position(cuttle.Game.from_position(**parse_position(text)), g)
    return back


def remembers_more(back, g):
    """Whether a player of g knows more of hidden cards than in `back`, read from g's
    text."""
    return any(g.observation(p) != back.observation(p) for p in (0, 1))


def users_game():
    return cuttle.Game.from_position("cuttle.cards", hands=(["2C", "9H"], ["4H", "8D", "QS"]),
                                     points=(["TC", "AD"], ["7S[JC]"]), permanents=([], ["KD"]),
                                     deck=["6D", "2S"], rest="deck", seed=1)


def refused(g, message):
    """g's text refused, saying `message`, g untouched."""
    before = g.copy()
    with pytest.raises(ValueError, match="position text cannot carry this position: "
                                         + message):
        g.position_text()
    assert g == before


def test_round_trip_random_games():
    rng = random.Random(20240601)
    checked = remembered = won = 0
    for k in range(80):
        rules = random_rules(rng) if k % 2 else cuttle.Rules(rng.choice(cuttle.Rules.presets))
        g = cuttle.Game(rules, seed=rng.getrandbits(40))
        for _ in range(rng.randint(20, 160)):
            if g.is_over:
                break
            if g.phase == "main":
                back = round_trips(g)
                checked += back is not None
                remembered += back is not None and remembers_more(back, g)
            else:
                with pytest.raises(ValueError, match="main-phase"):
                    g.position_text()
            g.play(rng.choice(list(g.legal_moves)))
        if g.is_over:
            won += over_round_trips(g)
    # positions where a player knew a hidden card are written too (its memory left out)
    assert checked > 1000 and remembered > 100 and won > 10


def over_round_trips(g):
    """A game over: written if won by its goal with the winner alone at it, and read
    back won by the same player (a position with a player at their goal is a game won,
    docs/rules.md 4b); refused otherwise, saying so.  Whether it was written."""
    at = [p for p in (0, 1) if g.score(p) >= g.goal(p)]
    if g.end_reason != "goal" or len(at) != 1:
        with pytest.raises(ValueError, match="over"):
            g.position_text()
        return False
    back = cuttle.Game.from_text(g.position_text())
    assert back.is_over and back.end_reason == "goal" and back.winner == g.winner == at[0]
    assert back.position_text() == g.position_text() and back.turn == g.turn
    assert [table(back), back.deck] == [table(g), g.deck]
    return True


def test_a_position_at_the_goal_is_written_as_the_game_won_it_reads_as():
    # It was read as won (winner 0) but not written ("main-phase positions only"),
    # while one with both players at their goal is refused up front.
    text = "hands: AS / 8C; points: 9C TC 2S / TH; rest: scrap"
    g = cuttle.Game.from_text(text)
    assert g.winner == 0 and over_round_trips(g)
    assert cuttle.Game.from_text(g.position_text()).position_text() == g.position_text()
    # a game over otherwise is not written
    g = cuttle.Game.from_text("hands: AS / 8C; points: 9C TC / TH; rest: scrap",
                              seed=1)
    g.play("pass"), g.play("pass"), g.play("pass")
    assert g.is_over and g.winner is None
    with pytest.raises(ValueError, match="main-phase positions, and those of a game won "
                                         "by its goal, only; the game is over$"):
        g.position_text()


def freezing(g, m):
    """The moves that freeze a card (for `walk`): a 9 on a card on the table, and
    letting a one-off resolve."""
    return m.verb == "resolve" or (m.verb == "oneoff" and m.cards[0].rank == 9
                                   and len(m.cards) == 2)


def test_round_trip_keeps_frozen_cards():
    """Every main-phase position of games under cuttle.cards and random rule sets that
    freeze (a 9 on its own side too), where 9s are favoured: its text reads back as the
    same position, frozen cards included, or is refused for rule state the text cannot
    carry."""
    frozen = checked = 0
    for seed in range(16):
        rng = random.Random(seed)
        base = cuttle.Rules("cuttle.cards") if seed % 2 else random_rules(rng, p_change=0.4)
        rules = base.replace(nine="freeze", targets_own_side=bool(rng.getrandbits(1)))
        for k in range(12):
            for g in walk(rules, 100 * seed + k, favour=freezing):
                if g.phase == "main" and not g.is_over and round_trips(g) is not None:
                    checked += 1
                    frozen += bool(g.frozen(g.to_move)
                                   or g.observation(0).frozen_next[1 - g.to_move])
    assert checked > 2000 and frozen > 80


def test_the_users_frozen_king():
    g = users_game()
    g.play("oneoff 9H KD")
    g.play("resolve")
    text = g.position_text()
    assert "frozen: - / KD;" in text
    h = cuttle.Game.from_text(text)
    assert g.frozen(1) == h.frozen(1) == ["KD"]
    assert "royal KD" not in h.legal_moves and "points 4H" in h.legal_moves
    same_position(h, g)
    # the freeze binds P1's turn and ends with it, in both games alike
    for game in (g, h):
        game.play("points 4H")
        assert game.frozen(1) == [] and game.observation(0).frozen_next == ((), ())
    # the same position unfrozen is another position, with another text
    free = cuttle.Game.from_text(text.replace("frozen: - / KD; ", ""))
    assert free.position_text() != text and "royal KD" in free.legal_moves


def test_frozen_means_the_holders_next_turn():
    """`frozen` lists per player the cards it may not play in its next turn: this turn
    for the player to move, the next for the other, whoever moves first (the other's by
    its own 9, so with targets_own_side)."""
    frozen = ("KD", "QS")
    for p in (0, 1):
        o = 1 - p
        g = cuttle.Game.from_position("cuttle.cards: targets_own_side=true",
                                      hands=(["9H", "KD", "5C"], ["QS", "4H"]),
                                      scrap=["9C", "9D"],      # the 9s that froze them
                                      frozen=(["KD"], ["QS"]), to_move=p, seed=2)
        assert g.frozen(p) == [frozen[p]] and g.frozen(o) == []
        assert g.observation(p).frozen_next == g.observation(o).frozen_next
        assert g.observation(p).frozen_next[o] == (frozen[o],)
        assert g.observation(p).frozen_next[p] == ()
        assert all(m.card != frozen[p] for m in g.legal_moves)
        # a freeze is public: each opponent knows the card is in the hand
        assert g.observation(p).opponent_known == (frozen[o],)
        assert g.observation(o).opponent_known == (frozen[p],)
        g.play("draw")               # o's turn: its card frozen now, p's free again
        assert g.frozen(o) == [frozen[o]] and g.frozen(p) == []
        assert g.observation(p).frozen_next == ((), ())
        assert all(m.card != frozen[o] for m in g.legal_moves)


def test_what_the_players_know_is_written_and_read_back_fresh():
    """A card a player saw in the other's hand, or a deck card whose place it saw, does
    not stop the text: the position reads back with the players' memory of hidden cards
    afresh, and so the position with and without that memory has one text."""
    # P0 knows P1 holds KD once the freeze is over (the card stays known)
    g = users_game()
    for m in ("oneoff 9H KD", "resolve", "points 4H"):
        g.play(m)
    assert g.observation(0).opponent_known == ("KD",) and g.frozen(1) == []
    back = round_trips(g)
    assert back.observation(0).opponent_known == ()
    assert back.position_text() == g.position_text()
    # a 7's unchosen card, back on the deck at a place both players saw
    g = cuttle.Game.from_position("cuttle.cards", hands=(["7C", "2H"], ["3D", "4D"]),
                                  deck=["5H", "6H", "8C"], rest="scrap")
    for m in ("oneoff 7C", "resolve", "points 5H"):
        g.play(m)
    assert [o.deck_known for o in map(g.observation, (0, 1))] == [((0, "6H"),)] * 2
    back = round_trips(g)
    assert [o.deck_known for o in map(back.observation, (0, 1))] == [(), ()]
    # a frozen card stays known (a freeze is public), whatever else is forgotten
    g = users_game()
    for m in ("oneoff 9H KD", "resolve"):
        g.play(m)
    assert round_trips(g).observation(0).opponent_known == ("KD",)


def test_what_the_text_cannot_carry_is_refused():
    # a pass, which counts towards the three that end the game
    g = cuttle.Game.from_position(hands=(["2C"], ["3D"]), rest="scrap")
    g.play("pass")
    refused(g, r"the last move was a pass \(the third pass in a row ends the game\), and "
               r"the text carries no passes")
    g.play("pass")
    refused(g, r"the last 2 moves were passes")
    # sudden death's last turn (a position with an empty deck has two turns left)
    g = cuttle.Game.from_position("classic: sudden_death=true", hands=(["2C", "5H"], ["3D"]),
                                  rest="scrap")
    assert round_trips(g) is not None
    g.play("points 2C")
    refused(g, r"this is sudden death's last turn")


@pytest.mark.parametrize("text, message", [
    ("rules: cuttle.cards; hands: 2C / 3D; frozen: 4C / -",
     r"frozen card 4C is not in the hand of player 0"),
    ("rules: cuttle.cards; hands: 2C / 3D; frozen: 3D / -",
     r"frozen card 3D is not in the hand of player 0"),
    ("rules: cuttle.cards; hands: 2C / 3D; frozen: 2C 2C / -",
     r"card 2C is listed twice \(in the frozen cards of player 0\)"),
    ("rules: cuttle.cards; hands: 2C / 3D; frozen: ZZ / -",
     r"field 'frozen': unknown card 'ZZ'"),
    ("rules: cuttle.cards; hands: 2C / 3D; frozen: 2C",
     r"field 'frozen' lists both players' cards separated by one '/'"),
    ("rules: cuttle.cards; hands: 2C / 3D; frozen: 2C / - / -", r"field 'frozen'.*one '/'"),
    ("rules: cuttle.cards; points: TH / -; frozen: TH[JC] / -",
     r"field 'frozen': 'TH\[JC\]': only point cards carry Jack stacks"),
    ("rules: cuttle.cards; hands: 2C / 3D; frozen: - / -; frozen: 2C / -",
     r"field 'frozen' is given twice"),
    ("rules: cuttle.cards; hands: 2C / 3D; frozen: 2C - / -", r"'-' stands for an empty"),
    ("hands: 2C / 3D; frozen: 2C / -",
     r"frozen card 2C: only the rule nine=freeze freezes cards \(these rules have "
     r"nine=return\)"),
    ("rules: cuttle.cards nine=topdeck; hands: 2C / 3D; frozen: - / 3D",
     r"only the rule nine=freeze .*nine=topdeck"),
    ("rules: classic joker=true nine=freeze; hands: - / -; frozen: JK / -",
     r"frozen card JK is not in the hand of player 0"),
    # cards no 9 returns to a hand
    ("rules: classic joker=true nine=freeze; hands: JK / -; frozen: JK / -",
     r"frozen card JK of player 0: no 9 returns the joker to a hand \(it is only ever "
     r"played as a one-off\), so it is never frozen"),
    ("rules: cuttle.cards joker=true; hands: 2C / JK; frozen: - / JK; to_move: 1",
     r"frozen card JK of player 1: no 9 returns the joker"),
    ("rules: classic nine=freeze; hands: 2C / 3D; frozen: 2C / -",
     r"frozen card 2C of player 0: a 9 returns only Kings, Queens, glasses-8s and Jacks to "
     r"a hand when it may not target point cards \(these rules have "
     r"nine_targets_points=false\), so it is never frozen"),
    ("rules: classic nine=freeze; hands: TC KC / 3D; frozen: KC TC / -", r"frozen card TC"),
    # the other player's, frozen only by its own 9 in its last turn
    ("rules: cuttle.cards; hands: 2C / 3D; frozen: - / 3D",
     r"frozen card 3D of player 1, not to move: only its own 9 of its last turn could have "
     r"frozen it, and these rules' 9 targets only the other player's cards "
     r"\(targets_own_side=false\)"),
    ("rules: classic nine=freeze; hands: KC / KD QD; frozen: - / KD QD",
     r"frozen cards QD KD of player 1, not to move: only its own 9 of its last turn could "
     r"have frozen them, and a 9 returns one card"),
    # one card for each 9 of the last two turns (the own side's with targets_own_side)
    ("rules: cuttle.cards; hands: 2C 4C / 3D; frozen: 2C 4C / -",
     r"2 frozen cards \(2C 4C\): a 9 returns one card, and only the last turn's 9 "
     r"\(targets_own_side=false\) can have frozen a card still frozen, so at most 1"),
    ("rules: classic nine=freeze; hands: KC QC / KD; frozen: KC QC / KD",
     r"3 frozen cards \(QC KC KD\): a 9 returns one card, and only the 9s of the last two "
     r"turns can have frozen a card still frozen, so at most 2"),
    # the 9 behind a freeze: in the scrap, unless a 3 took it back since (the user's
    # position, whose deck hides the four 9s)
    ("rules: cuttle.cards; hands: 2C 9H / 4H KD; frozen: - / KD; to_move: 1",
     r"frozen card KD of player 1, to move: the 9 that froze it went to the scrap, which "
     r"holds no 9; a 9 leaves the scrap only when a 3 takes it, and no 3 is in the scrap, "
     r"where a 3 that took it back would be"),
    ("rules: cuttle.cards; hands: 2C 9H / 4H KD; frozen: - / KD; scrap: 3C; to_move: 1",
     r"frozen card KD .*no 3 can have taken it back since: this turn's only once it has "
     r"taken effect \(in the hand-limit discard, or at the end\), and the last turn's only "
     r"if that turn froze nothing and the player to move's own 9 froze its one frozen card "
     r"the turn before, which these rules' 9 cannot \(targets_own_side=false\)"),
])
def test_malformed_frozen_cards(text, message):
    with pytest.raises(ValueError, match=message):
        cuttle.Game.from_text(text)


@pytest.mark.parametrize("frozen, message", [
    ((["AC"], []), r"frozen card AC is not in the hand of player 0"),
    (["2C"], r"frozen must be a pair"),
    ("2C", r"frozen must be a pair"),
    (("2C", ()), r"frozen\[0\] must be a list of cards, not the string"),
    (([2.5], []), r"frozen cards of player 0: "),
    (([], [None]), r"frozen cards of player 1: "),
])
def test_from_position_checks_frozen(frozen, message):
    with pytest.raises(ValueError, match=message):
        cuttle.Game.from_position("cuttle.cards", hands=(["2C"], ["3D"]), scrap=["9C"],
                                  frozen=frozen)
    # card indices are cards too
    g = cuttle.Game.from_position("cuttle.cards", hands=(["2C"], ["3D"]), scrap=["9C"],
                                  frozen=([cuttle.Card("2C").index], []))
    assert g.frozen(0) == ["2C"]


@pytest.mark.parametrize("rules, hands, frozen, to_move", [
    # a 9 returns a King, a Queen, a glasses-8 or a Jack, a point card only with
    # nine_targets_points
    ("classic: nine=freeze", (["8C", "5C"], ["3D"]), (["8C"], []), 0),
    ("classic: nine=freeze", (["JC", "5C"], ["3D"]), (["JC"], []), 0),
    ("cuttle.cards", (["5C"], ["3D", "QH"]), ([], ["3D"]), 1),
    # two for the player to move (the other's 9 and its own) with targets_own_side, or
    # one each (the other's own 9 of its last turn, the mover's own of its previous one)
    ("classic: nine=freeze", (["KC", "QC"], ["3D"]), (["KC", "QC"], []), 0),
    ("classic: nine=freeze", (["KC", "5C"], ["KD", "3D"]), (["KC"], ["KD"]), 1),
])
def test_frozen_cards_a_game_reaches(rules, hands, frozen, to_move):
    g = cuttle.Game.from_position(rules, hands=hands, frozen=frozen, to_move=to_move,
                                  rest="scrap")
    assert sorted(g.frozen(to_move)) == sorted(frozen[to_move])
    assert sorted(g.observation(to_move).frozen_next[1 - to_move]) == sorted(frozen[1 - to_move])


def test_a_freeze_whose_nine_a_three_took_back_is_a_position():
    """The mover's own 9 froze its King, and the other player's 3 took that 9 back from
    the scrap in the last turn (targets_own_side): no 9 in the scrap, a 3 there.  The
    position a game reaches reads back, and the same typed loads, but not where a 9 may
    not target its own side."""
    g = cuttle.Game.from_position("classic: nine=freeze", hands=(["9H", "2C"], ["3D", "4D"]),
                                  permanents=(["KC"], []), seed=4)
    for m in ("oneoff 9H KC", "resolve", "oneoff 3D", "resolve", "take 9H"):
        g.play(m)
    assert g.frozen(0) == ["KC"] and "royal KC" not in g.legal_moves
    assert [c for c in g.scrap if c.rank in (3, 9)] == ["3D"] and "9H" in g.hand(1)
    same_position(cuttle.Game.from_text(g.position_text()), g)
    text = "hands: 2C KC / 4D 9H; frozen: KC / -; scrap: 3D"
    assert cuttle.Game.from_text("rules: classic nine=freeze; " + text).frozen(0) == ["KC"]
    with pytest.raises(ValueError, match=r"frozen card KC of player 0, to move: .*no 3 can "
                                         r"have taken it back since: .*\(targets_own_side="
                                         r"false\)"):
        cuttle.Game.from_text("rules: classic nine=freeze targets_own_side=false; " + text)


@pytest.mark.parametrize("text, player, cards, limit", [
    ("rules: cuttle.cards; hands: 2C / 3C 4C 5C 6C 7C 8C 9C TC JC", 1, 9, 8),
    ("rules: cuttle.cards hand_limit=5; hands: 2C 3C 4C 5C 6C 7C / 8C; to_move: 1", 0, 6, 5),
    # a deal's hands, yet a card was played: its second player's turn has passed
    ("rules: classic hand_limit=5; hands: 2C 3C 4C 5C 6C / 7C 8C 9C TC JC QC; scrap: AC",
     1, 6, 5),
])
def test_a_hand_above_the_limit_not_to_move_is_refused(text, player, cards, limit):
    """Issue: a position whose player not to move held more than the hand limit loaded.
    That player ended its turn discarding down to the limit, so no game reaches it but
    at the deal."""
    with pytest.raises(ValueError, match=rf"invalid position: not a position: the player "
                                         rf"not to move holds more cards than the hand "
                                         rf"limit at the start of a turn, .*; player {player}"
                                         rf" holds {cards} cards, the limit is {limit}$"):
        cuttle.Game.from_text(text)


def test_the_hands_above_the_limit_a_game_reaches_are_positions():
    """rules-decisions.md, decision 26: a second player dealt more than the limit
    (before the first move), a hand under a no_draw limit, and the mover's hand."""
    g = cuttle.Game("classic: hand_limit=5", seed=1)
    assert (g.to_move, len(g.hand(1))) == (0, 6)
    same_position(cuttle.Game.from_text(g.position_text()), g)
    g = cuttle.Game.from_position("classic: hand_limit=3, hand_limit_mode=no_draw",
                                  hands=(["2C", "3C", "4C", "5C", "6C"], ["7C"]), seed=1)
    g.play("points 2C")
    assert (g.phase, g.to_move, len(g.hand(0))) == ("main", 1, 4)
    same_position(cuttle.Game.from_text(g.position_text()), g)
    g = cuttle.Game.from_position("cuttle.cards", hands=(["2C", "3C", "4C", "5C", "6C", "7C",
                                                         "8C", "9C", "TC"], ["2D"]), seed=1)
    assert (g.to_move, len(g.hand(0))) == (0, 9)


def test_refused_frozen_cards_leave_the_game_untouched():
    # which freezes a 9 makes is the core's check, made on the position before it is
    # loaded: a refused one changes nothing of the game it was to be loaded into
    from cuttle.position import layout
    g = cuttle.Game("classic: nine=freeze, joker=true", seed=1)
    before = g._core_state_bytes()
    for frozen in ((["JK"], []), (["2C"], [])):
        bad = layout("classic: nine=freeze, joker=true", hands=(["2C", "JK"], ["3D"]),
                     frozen=frozen, seed=1)
        with pytest.raises(ValueError, match="not a position: (the joker|a point card) is "
                                             "frozen"):
            g._core_load(bad)
        assert g._core_state_bytes() == before
        with pytest.raises(ValueError, match="never frozen"):     # (Game's words for it)
            cuttle.Game.from_position(bad.rules, hands=(["2C", "JK"], ["3D"]), frozen=frozen)


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
                  "frozen": ([], []), "permanents": (["QD"], ["8H"]), "scrap": ["3C", "4H"],
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
            ("classic", ["hand_limit=lots"], "none or int 0-53"),
            ("classic", ["hand_limit=-1"], "hand_limit"),
            ("classic", ["king_goals=a,b"], "5 whole numbers"),
            ("classic", ["open_hands=2"], "true or false")]:
        with pytest.raises(ValueError, match=message):
            _rules_from_args(preset, sets)


UNSEEN_TEXT = "hands: 2C 9H 4D / ? ? ? ? ?; points: TH / 5S; permanents: KC / -; to_move: 0"


def test_a_hand_of_cards_not_seen_is_dealt_from_the_cards_not_listed():
    """'?' in a hand: a card whose face is not known (the other's hand in a real game),
    dealt from the unlisted cards by the seed, before the rest go to the deck."""
    g = cuttle.Game.from_text(UNSEEN_TEXT + "; seed: 3")
    listed = {"2C", "9H", "4D", "TH", "5S", "KC"}
    theirs = [str(c) for c in g.hand(1)]
    assert len(theirs) == 5 and not set(theirs) & listed
    assert len(g.deck) == 52 - 6 - 5 and not set(map(str, g.deck)) & (listed | set(theirs))
    assert cuttle.Game.from_text(UNSEEN_TEXT + "; seed: 3").position_text() == \
        g.position_text()
    assert cuttle.Game.from_text(UNSEEN_TEXT + "; seed: 4").hand(1) != g.hand(1)
    # the same through from_position, mixed with cards that were seen
    h = cuttle.Game.from_position(hands=(["2C", "?"], ["?", "AS", "?"]), seed=5)
    assert "2C" in map(str, h.hand(0))
    assert (len(h.hand(0)), len(h.hand(1))) == (2, 3) and "AS" in map(str, h.hand(1))
    # a position without '?' deals as it always did (its deck is the seed's shuffle)
    assert cuttle.Game.from_text("hands: 2C / 3D; seed: 3").deck[:3] == \
        cuttle.Game.from_position(hands=(["2C"], ["3D"]), seed=3).deck[:3]


def test_what_the_seed_put_in_a_hand_not_seen_does_not_change_its_opponents_view():
    # The analysis from P0's view deals P1's cards afresh from what P0 saw: two seeds
    # (other cards in P1's hand, another deck order) give P0 the same analysis.
    a, b = (cuttle.Game.from_text(UNSEEN_TEXT + f"; seed: {s}") for s in (3, 4))
    assert a.hand(1) != b.hand(1)
    assert a.observation(0) == b.observation(0)
    ra, rb = (cuttle.analyse(g, rollouts=64, seed=1, threads=1) for g in (a, b))
    assert [(str(r.move), r.score) for r in ra.rows] == [(str(r.move), r.score) for r in rb.rows]


def test_a_deck_card_not_seen_holds_its_place_between_cards_seen():
    """'?' in the deck: a card not seen between cards that are (the other's draws
    between one's own), dealt after the hands' from the unlisted cards by the seed."""
    text = "hands: 2C 9H / ? ?; deck: ? 7H ? 9C; seed: 3"
    g = cuttle.Game.from_text(text)
    listed = {"2C", "9H", "7H", "9C"}
    assert [g.deck[i] for i in (1, 3)] == ["7H", "9C"] and len(g.deck) == 52 - 4
    assert not {g.deck[0], g.deck[2]} & (listed | set(g.hand(1)))
    # the hands are dealt first, as without the deck's '?' (the same cards listed)
    plain = cuttle.Game.from_text("hands: 2C 9H / ? ?; deck: 7H 9C; seed: 3")
    assert g.hand(1) == plain.hand(1)
    assert cuttle.Game.from_text(text) == g
    assert cuttle.Game.from_text(text.replace("seed: 3", "seed: 4")).deck[0::2] != \
        g.deck[0::2]
    # every '?' given its card, the deck whole: the same game, nothing left to deal
    kw, places = deal_unseen(parse_position(text))
    assert cuttle.Game.from_position(**kw) == g
    assert places[:4] == [(1, 0), (1, 1), (2, 0), (2, 2)] and len(places) == 2 + 46
    assert [kw["deck"][k] for z, k in places if z == 2][:2] == [g.deck[0], g.deck[2]]
    assert has_unseen(parse_position(text)) and not has_unseen(parse_position("deck: 7H"))


@pytest.mark.parametrize("text, said", [
    ("hands: 2C / ?; rest: scrap", "a hand's '?' is dealt one of the cards not listed"),
    ("deck: 2C ?; rest: scrap", "the deck's '?' is dealt one of the cards not listed"),
    ("hands: ? / -; deck: ? ?; rest: deck; scrap: " + " ".join(str(c) for c in cuttle.CARDS[:50]),
     "the hands and the deck hold 3 cards not seen ('?'), but only 2 cards are not listed"),
    ("deck: ? ? ?; scrap: " + " ".join(str(c) for c in cuttle.CARDS[:50]),
     "the deck holds 3 cards not seen ('?'), but only 2 cards are not listed"),
    ("hands: ?[JC] / -", "only point cards carry Jack stacks"),
])
def test_cards_not_seen_go_only_in_hands_or_the_deck_and_only_with_rest_deck(text, said):
    with pytest.raises(ValueError, match=re.escape(said)):
        cuttle.Game.from_text(text)


ONLY_HANDS_AND_DECK = ("'?' (a card not seen) is allowed only in the hands and the deck: "
                       "every other card listed is known to both players")


@pytest.mark.parametrize("text, field", [
    ("hands: 2C 9H / ? ? ?; points: ? / -", "points"),
    ("hands: 2C 9H / ? ? ?; points: - / 9D ?", "points"),
    ("points: TH[JC,?] / -", "points"),
    ("points: ?[JC] / -", "points"),
    ("permanents: - / ?", "permanents"),
    ("scrap: 2C ?", "scrap"),
    ("frozen: ? / -; hands: ? / -; rules: classic nine=freeze", "frozen"),
])
def test_a_card_not_seen_outside_the_hands_and_the_deck_is_refused_saying_where_it_may_go(
        text, field):
    with pytest.raises(ValueError) as e:
        cuttle.Game.from_text(text)
    assert str(e.value) == f"field {field!r}: {ONLY_HANDS_AND_DECK}"


@pytest.mark.parametrize("kw, where", [
    ({"points": (["?"], [])}, "points of player 0"),
    ({"points": (["TH[?]"], [])}, "Jacks on TH"),
    ({"permanents": ([], ["KD", "?"])}, "permanents of player 1"),
    ({"scrap": ["?"]}, "scrap"),
    ({"hands": (["?"], []), "frozen": (["?"], []), "rules": "classic nine=freeze"},
     "frozen cards of player 0"),
])
def test_from_position_refuses_a_card_not_seen_outside_the_hands_and_the_deck_alike(kw, where):
    with pytest.raises(ValueError) as e:
        cuttle.Game.from_position(seed=1, **kw)
    assert str(e.value) == f"{where}: {ONLY_HANDS_AND_DECK}"


def test_more_cards_not_seen_than_cards_unlisted_is_refused():
    everything = [str(c) for c in cuttle.Game(seed=1).deck] + \
        [str(c) for p in (0, 1) for c in cuttle.Game(seed=1).hand(p)]
    with pytest.raises(ValueError, match=r"the hands hold 3 cards not seen \('\?'\), but "
                                         r"only 2 cards are not listed"):
        cuttle.Game.from_position(hands=(["?", "?"], ["?"]), deck=everything[2:])
