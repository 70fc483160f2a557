"""Re-dealing the cards hidden from a player, keeping a game's moves (cuttle.redeal): the
player sees exactly the same at every step, only hidden cards move, the deal is drawn
from the seed, the bot learns nothing, and an undo that would show the player cards
hidden again deals them anew (or, where no new deal agrees with what they saw, is
refused)."""

import collections
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import cuttle
from cuttle.record import final_game, make_record, redealt_words
from cuttle.redeal import NoRedeal, Sightings, hidden_cards, redeal
from support.helpers import random_game, views

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def start_of(g):
    s = g.copy()
    while s.ply:
        s.undo()
    return s


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(0, 1), st.integers(0, 2**64 - 1))
def test_a_redeal_keeps_the_moves_and_everything_the_player_saw(seed, p, deal):
    g = random_game(random.Random(seed))
    before = g.copy()
    new = redeal(g, p, deal)
    assert g == before                                  # (not changed)
    if new is None:      # (none agrees: only where random effects drew from a hand)
        assert g.rules.four == "random"
        return
    assert new.moves == g.moves and new.seed == g.seed and new.max_moves == g.max_moves
    assert views(new, p) == views(g, p)                 # every step, seen alike
    assert new.hand(p) == g.hand(p) and new.to_move == g.to_move
    # only the cards hidden from p moved, among the places hidden from p
    hidden = hidden_cards(g, p)
    assert hidden_cards(new, p) == hidden
    for x in (g, new):
        assert set(x.hand(1 - p)) | set(x.deck) >= hidden
    assert {c for c in g.hand(1 - p) if c not in hidden} == \
        {c for c in new.hand(1 - p) if c not in hidden}
    # its record replays it
    rec = make_record(new, players=["a", "b"])
    assert final_game(rec) == new


def test_the_deal_is_the_seeds_and_spreads_the_hidden_cards():
    g = cuttle.Game(seed=5)
    g.play("draw")
    assert redeal(g, 0, 1) == redeal(g, 0, 1) and redeal(g, 0, 1) != redeal(g, 0, 2)
    # the bot's hand is dealt from every card hidden from the player, uniformly
    hidden = hidden_cards(g, 0)
    counts = collections.Counter(c for k in range(400) for c in redeal(g, 0, k).hand(1))
    assert set(counts) == hidden and len(hidden) == 46
    expected = 400 * 6 / 46
    assert all(expected / 2 < n < 2 * expected for n in counts.values()), counts


def test_only_the_cards_given_are_dealt_again_and_none_the_player_knows():
    g = cuttle.Game(seed=5)
    g.play("draw")
    deck = frozenset(g.deck)
    new = redeal(g, 0, 3, cards=deck)
    assert new.hand(1) == g.hand(1) and new.deck != g.deck and set(new.deck) == deck
    assert redeal(g, 0, 3, cards=frozenset()).deck == g.deck
    with pytest.raises(ValueError, match="only cards hidden from the player"):
        redeal(g, 0, 3, cards=frozenset(g.hand(0)))
    with pytest.raises(ValueError):
        redeal(g, 2, 3)
    with pytest.raises(ValueError):
        redeal(g, 0, -1)
    seen = Sightings(start_of(g), 0, 1)
    for ply in (2, -1, 1.0, True):
        with pytest.raises(ValueError, match="ply"):
            seen.take_back(g, ply)


def test_an_undone_draw_deals_another_card():
    """The peek: a draw taken back and played again brought the same card; taken back
    by `Sightings.take_back`, the draw brings a card dealt anew, from the seed."""
    drawn, again = [], []
    for seed in range(20):
        g = cuttle.Game(seed=seed)
        seen = Sightings(g, 0, seed)
        g.play("draw")
        drawn.append((set(g.hand(0)) - set(start_of(g).hand(0))).pop())
        back, redealt = seen.take_back(g, 0)
        assert redealt.peeked == {drawn[-1]} and redealt.hand and redealt.dealt == 47
        assert back.ply == 0 and back.observation(0) == start_of(g).observation(0)
        back.play("draw")
        again.append((set(back.hand(0)) - set(start_of(g).hand(0))).pop())
    assert sum(a != b for a, b in zip(drawn, again)) >= 15


def test_a_session_is_reproducible_from_its_seed():
    def session():
        g = cuttle.Game(seed=9)
        seen = Sightings(g, 0, 9)
        out = []
        for _ in range(3):
            g.play("draw")
            g.play(list(g.legal_moves)[0])
            g, _ = seen.take_back(g, 0)
            out.append(g.position_text())
        return out
    first = session()
    assert first == session() and len(set(first)) == 3      # three deals, each the seed's


def test_nothing_seen_nothing_dealt():
    # P1 has no card: its only move is a draw, which P0 does not see
    g = cuttle.Game.from_position(hands=(["7H", "9C"], []), deck=["5C", "6C", "8D"],
                                  rest="scrap", seed=4)
    seen = Sightings(g, 0, 4)
    g.play("points 7H")
    g.play("draw")
    back, redealt = seen.take_back(g, 0)
    assert redealt is None and back == start_of(g)
    # a card P1 drew, then played where P0 saw it, taken back: dealt again
    g = back
    for m in ("points 9C", "draw", "points 7H", "points 5C"):  # P1 plays the card it drew
        g.play(m)
    back, redealt = seen.take_back(g, 0)
    assert redealt is not None and "5C" in redealt.peeked


def test_what_was_seen_on_a_line_taken_back_is_remembered_past_later_undos():
    """Seen at any time, on any line: a card shown, taken back, then hidden again by a
    later undo further back, still counts."""
    g = cuttle.Game(seed=3)
    seen = Sightings(g, 0, 3)
    g.play("draw")
    g.play(list(g.legal_moves)[0])
    shown = hidden_cards(start_of(g), 0) - hidden_cards(g, 0)
    assert shown
    assert seen.peeked(start_of(g)) == frozenset()     # (not seen yet: not noted yet)
    seen.see(g)
    assert seen.peeked(start_of(g)) == shown


def test_the_bot_keeps_nothing_of_the_old_deal():
    """A search bot that searched the old deal decides on the new one as a bot that
    never saw the old deal (its trees, kept for the old start, are dropped), and what
    it knows of the player's hand is as it was."""
    g = cuttle.Game.from_position(hands=(["7H", "9C", "KS"], ["TD", "TS", "TC"]),
                                  rest="deck", seed=12)
    bot = cuttle.Bot("ismcts:300", seed=1, threads=1)
    g.play("draw")
    g.play(bot.choose(g))                   # (tens: points, or a draw)
    g.play("draw")
    seen = Sightings(g, 0, 12)
    back, redealt = seen.take_back(g, 2)
    assert redealt is not None and back.hand(1) != g.hand(1)
    fresh = pickle.loads(pickle.dumps(bot))             # (the same calls, no trees)
    back.play("draw")
    assert bot.choose(back) == fresh.choose(back)
    old = g.copy()
    old.undo()
    old.play("draw")
    assert back.observation(1).opponent_known == old.observation(1).opponent_known == ()


def test_the_record_says_where_the_game_was_dealt_again():
    """Each re-deal is noted with the number of the game's moves played before it (the
    bot chose its own among them on the earlier deal); the record carries the notes,
    says them in words, and replays the game."""
    bot = cuttle.Bot("greedy", seed=1)

    def play(g, *moves):
        for m in moves:
            g.play(bot.choose(g) if m is bot else m)
    g = cuttle.Game(seed=9)
    seen = Sightings(g, 0, 9)
    play(g, "draw", bot, "draw", bot)
    g, redealt = seen.take_back(g, 2)
    assert redealt is not None and seen.redealt == [2] and seen.redeals == 1
    play(g, "draw", bot, "draw", bot)
    g, redealt = seen.take_back(g, 4)
    assert redealt is not None and seen.redealt == [2, 4] and seen.redeals == 2
    play(g, "draw", bot)
    rec = make_record(g, players=["ann", "greedy"], human_seat=0, redealt=seen.redealt)
    assert rec["redealt"] == [2, 4] and final_game(rec) == g
    assert redealt_words(rec) == ("Dealt again by 2 undos, the last after move 4: moves 1 "
                                  "to 4 were played on earlier deals, P1 greedy's with the "
                                  "cards it held then.")
    g, redealt = seen.take_back(g, 0)       # (every move goes: none was on this deal)
    assert redealt is not None and seen.redealt == [0, 0, 0]


def test_an_undo_back_past_a_re_deal_keeps_the_moves_still_standing(monkeypatch):
    """A later undo that deals nothing again lowers the notes to the moves it keeps
    (those before it were still played on the earlier deal); one refused changes
    nothing."""
    import cuttle.redeal as module
    # P1 holds no card: it draws, unseen, then plays what it drew where P0 sees it
    g = cuttle.Game.from_position(hands=(["7H", "9C"], []), deck=["5C", "6C", "8D"],
                                  rest="scrap", seed=4)
    seen = Sightings(g, 0, 4)
    for m in ("points 7H", "draw", "points 9C", "points 5C"):
        g.play(m)
    g, redealt = seen.take_back(g, 2)
    assert redealt is not None and seen.redealt == [2]
    g.play("points 9C")
    g.play("draw")                          # (P1 draws again, unseen)
    back, redealt = seen.take_back(g, 1)
    assert redealt is None and seen.redealt == [1]
    rec = make_record(back, players=["ann", "greedy"], human_seat=0, redealt=seen.redealt)
    assert final_game(rec) == back and redealt_words(rec).startswith(
        "Dealt again by an undo after move 1: move 1 was played on an earlier deal")
    back.play("draw")
    back.play("points 9C")
    back.play(next(m for m in back.legal_moves if m.verb == "points"))   # (P0 sees it)
    monkeypatch.setattr(module, "redeal", lambda *a, **kw: None)    # (none agrees)
    with pytest.raises(NoRedeal):
        seen.take_back(back, 0)
    assert seen.redealt == [1]


def four_then_draws(seed):
    """Game `seed` under four=random: P0's 4 (its random discards from P1's hand), P1's
    draw, then P0's draw; (the game, the Sightings, the ply of P0's draw)."""
    g = cuttle.Game("classic:four=random", seed=seed)
    seen = Sightings(g, 0, seed)
    g.play(next(m for m in g.legal_moves if str(m).startswith("oneoff 4")))
    g.play("resolve")                                    # P1 discards two, at random
    g.play("draw")
    target = g.ply
    g.play("draw")                                       # P0 sees a card of the deck
    return g, seen, target


def test_an_undo_no_new_deal_agrees_with_is_refused():
    """Under four=random, a 4's random discards are drawn by the game's random stream
    from the victim's hand, and a new start (position text) draws from another stream
    than a seed's deal: where no new deal shows the discards made before the position
    taken back to, the undo that would hide the card drawn again is refused, the game
    untouched (game 17); where one does (game 6), it shows them exactly."""
    g, seen, target = four_then_draws(17)
    before = g.copy()
    with pytest.raises(NoRedeal, match="no new deal of the hidden cards agrees"):
        seen.take_back(g, target)
    assert g == before
    g, seen, target = four_then_draws(6)
    back, redealt = seen.take_back(g, target)
    assert redealt is not None and len(back.scrap) == 3            # (the 4 and two)
    kept = g.copy()
    while kept.ply > target:
        kept.undo()
    assert back.scrap == kept.scrap and back.observation(0) == kept.observation(0)


def test_the_deck_alone_when_only_deck_cards_were_seen(monkeypatch):
    import cuttle.redeal as module
    real, calls = module.redeal, []

    def hand_never(game, player, seed, cards=None, tries=64):
        calls.append(cards)
        if cards & frozenset(game.hand(1 - player)):
            return None
        return real(game, player, seed, cards, tries)
    monkeypatch.setattr(module, "redeal", hand_never)
    g = cuttle.Game(seed=5)
    seen = Sightings(g, 0, 5)
    g.play("draw")
    back, redealt = seen.take_back(g, 0)
    assert not redealt.hand and redealt.dealt == 41 and back.hand(1) == g.hand(1)
    assert len(calls) == 2 and calls[1] == frozenset(start_of(g).deck)
    # a card of the bot's hand seen (it plays it): the deck alone would not do
    g = back
    g.play("draw")
    g.play(next(m for m in g.legal_moves if m.verb == "points"))
    seen.see(g)
    assert seen.peeked(start_of(g)) & frozenset(start_of(g).hand(1))
    with pytest.raises(NoRedeal):
        seen.take_back(g, 0)
