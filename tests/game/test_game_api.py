"""The Game API's conveniences: move codes, a move cap, value equality, one vocabulary
for turns, plies and draws."""

import copy
import pickle

import numpy as np
import pytest

import cuttle


def test_codes_from_the_mask_are_playable():
    g = cuttle.Game(seed=1)
    codes = np.flatnonzero(g.legal_move_mask())
    assert sorted(m.code for m in g.legal_moves) == sorted(codes.tolist())
    move = g.play(codes[1])                    # a numpy integer
    assert isinstance(move, cuttle.Move) and g.moves == [move]
    g.undo()
    assert g.play(int(codes[0])) == cuttle.Move.from_code(int(codes[0]))
    assert g.is_legal(g.legal_moves[0].code) and g.legal_moves[0].code in g.legal_moves
    assert not g.is_legal(65535) and 65535 not in g.legal_moves
    with pytest.raises(cuttle.IllegalMoveError):
        g.play(65535)                          # no verb 15
    with pytest.raises(cuttle.IllegalMoveError):
        g.play(True)                           # a bool is not a code


def test_a_move_cap_ends_a_game_as_a_draw():
    g = cuttle.Game(seed=5, max_moves=7)
    for _ in range(7):
        g.play(g.legal_moves[0])
    assert g.is_over and g.winner is None and g.end_reason == "move_cap" and g.ply == 7
    assert not g.legal_moves
    g.undo()                                   # taking the last move back reopens it
    assert not g.is_over and g.end_reason is None
    h = pickle.loads(pickle.dumps(g))
    assert h.max_moves == 7 and g.copy().max_moves == 7 and h == g
    with pytest.raises(ValueError, match="max_moves"):
        cuttle.Game(seed=1, max_moves=0)


def test_a_game_ended_by_its_move_cap_pickles_and_copies():
    for rules, seed, cap in (("classic", 5, 7), ("cuttle.cards: four=random", 6, 25)):
        g = cuttle.Game(rules, seed=seed, max_moves=cap)
        while not g.is_over:
            g.play(g.legal_moves[-1])
        assert g.end_reason == "move_cap" and g.ply == cap
        for h in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g), g.copy()):
            assert h == g and h.is_over and h.end_reason == "move_cap" and h.winner is None
            assert h.max_moves == cap and h.moves == g.moves and not h.legal_moves
            assert h.undo() == g.moves[-1] and not h.is_over    # the same history below
            assert h.play(g.moves[-1]) == g.moves[-1] and h == g


def test_a_pickled_capped_game_with_a_bad_last_move_is_refused():
    g = cuttle.Game(seed=5, max_moves=7)
    while not g.is_over:
        g.play(g.legal_moves[0])
    fn, args = g.__reduce__()
    assert fn(*args) == g
    before = g.copy()
    before.undo()
    illegal = next(c for c in range(65536)
                   if _is_code(c) and not before.is_legal(c))
    for last in (illegal, -1, 2**70, "draw", True):
        with pytest.raises(ValueError, match="corrupt pickled game"):
            fn(*args[:5], last)
    # a last move that does not reach the cap: the game it leaves was not ended by it
    early = cuttle.Game(seed=5, max_moves=7)
    early.play(early.legal_moves[0])
    fn, args = early.__reduce__()
    with pytest.raises(ValueError, match="corrupt pickled game"):
        fn(*args, early.legal_moves[0].code)


def _is_code(c):
    try:
        cuttle.Move.from_code(c)
    except ValueError:
        return False
    return True


def test_next_decision_is_the_play_loop_of_a_game_played_from_python():
    g = cuttle.Game(seed=5)
    seen = []
    while (p := g.next_decision(max_moves=9)) is not None:
        assert p == g.to_move
        seen.append(p)
        g.play(g.legal_moves[-1])
    # Capped: nine moves in the history, the game goes on (it is not ended as a draw).
    assert len(seen) == g.ply == 9 and not g.is_over and g.next_decision() == g.to_move
    while g.next_decision() is not None:
        g.play(g.legal_moves[0])
    assert g.is_over and g.next_decision(max_moves=10**6) is None
    for bad in (0, -1, 1.5, True, "3"):
        with pytest.raises(ValueError, match="max_moves"):
            g.next_decision(bad)


def test_games_are_equal_by_value_and_unhashable():
    a, b = cuttle.Game(seed=3), cuttle.Game(seed=3)
    assert a == b and a == a.copy() and a == copy.deepcopy(a) and a == pickle.loads(pickle.dumps(a))
    a.play("draw")
    assert a != b
    b.play("draw")
    assert a == b
    assert cuttle.Game(seed=3) != cuttle.Game(seed=4)
    assert cuttle.Game(seed=3) != cuttle.Game("cuttle.cards", seed=3)
    assert cuttle.Game(seed=3) != cuttle.Game(seed=3, max_moves=100)
    c = cuttle.Game(seed=3)
    c.play("draw"), c.undo()
    assert c == cuttle.Game(seed=3)             # the history is part of the value
    with pytest.raises(TypeError):
        hash(a)
    assert (a == "draw") is False


def test_one_vocabulary_for_turns_plies_and_draws():
    g = cuttle.Game(seed=1)
    assert g.turn == 0 and g.turn_number == 1 and g.ply == 0
    assert str(g).startswith("Turn 1:") and "turn 1," in repr(g) and "ply 0" in repr(g)
    g.play("points 7H")
    assert g.turn == 1 and g.turn_number == 2 and g.ply == 1 and str(g).startswith("Turn 2:")
    # a game played to its end counts turns as simulations do
    r = cuttle.simulate(1, players=("random", "random"), seed=9, progress=False,
                        swap_seats=False, keep_games=True)
    d = cuttle.Game.from_run(seed=9, index=0)
    from support.native import random_playout
    random_playout(d, 9)
    assert r.turns[0] == d.turn_number


def test_render_counts_one_card_in_the_singular():
    g = cuttle.Game.from_position("classic", hands=(["2C", "9H"], ["4H"]), deck=["6D"],
                                  rest="scrap", seed=1)
    text = g.render(viewer=0)
    assert "hand: 1 card (hidden)" in text and "deck 1 card   scrap" in text
    g = cuttle.Game.from_position("classic", hands=(["2C"], ["4H", "8D"]), deck=[],
                                  rest="scrap", seed=1)
    assert "hand: 2 cards (hidden)" in g.render(viewer=0) and "deck 0 cards" in g.render()


def test_render_shows_the_hidden_cards_a_viewer_knows():
    """A card a 9 sent back to its owner's hand is known to the other player: the
    viewer's table says so (it said only "3 cards (hidden)"), and no other card."""
    g = cuttle.Game.from_position("classic", hands=(["9C", "2D", "3D"], ["4H", "5S"]),
                                  points=(["TC"], ["7S"]), permanents=([], ["QS"]), seed=1)
    g.play("oneoff 9C QS"), g.play("resolve")
    assert g.observation(0).opponent_known == ("QS",)
    assert "hand: 3 cards (hidden), known: QS\n" in g.render(viewer=0)
    assert "hand: 2 cards (hidden)\n" in g.render(viewer=1)      # P0's: nothing known
    assert "4H" not in g.render(viewer=0) and "4H 5S QS" in g.render()
    g.play("points 4H"), g.play("draw")
    assert "hand: 2 cards (hidden), known: QS\n" in g.render(viewer=0)


def test_render_marks_the_frozen_cards_of_either_player():
    """A freeze is public (nine="freeze"): the render marked the frozen cards of a hand it
    shows, but not the same card among the known ones of a hidden hand, nor a card
    frozen for its holder's next turn (`Observation.frozen_next`)."""
    # cuttle.cards: P0's 9 returns P1's Queen, frozen in P1's turn, which starts at once.
    g = cuttle.Game.from_position("cuttle.cards", hands=(["9C", "2D", "3D"], ["4H", "5S"]),
                                  points=(["TC"], ["7S"]), permanents=([], ["QS"]), seed=1)
    g.play("oneoff 9C QS"), g.play("resolve")
    assert g.turn == 1 and g.observation(0).frozen == ((), ("QS",))
    assert "hand: 3 cards (hidden), known: QS frozen: QS\n" in g.render(viewer=0)
    for viewer in (1, None):
        assert "hand: 4H 5S QS frozen: QS\n" in g.render(viewer)
    g.play("points 4H")                         # P1's turn ends, and the freeze with it
    assert not any("frozen" in g.render(v) for v in (0, 1, None))
    # nine="freeze" on classic: P0's 9 returns its own King, frozen in P0's next turn.
    g = cuttle.Game.from_position(cuttle.Rules(nine="freeze"), hands=(["9C", "2D"], ["4H"]),
                                  permanents=(["KS"], ["KD"]), seed=1)
    g.play("oneoff 9C KS"), g.play("resolve")
    assert g.turn == 1 and g.observation(1).frozen_next == (("KS",), ())
    assert "hand: 2 cards (hidden), known: KS frozen next turn: KS\n" in g.render(viewer=1)
    for viewer in (0, None):
        assert "hand: 2D KS frozen next turn: KS\n" in g.render(viewer)
    g.play("draw")                              # P0's turn: frozen now
    assert "hand: 2 cards (hidden), known: KS frozen: KS\n" in g.render(viewer=1)
    assert "hand: 2D KS frozen: KS\n" in g.render(viewer=0)


def test_render_puts_the_viewer_at_the_bottom():
    g = cuttle.Game(seed=1)
    for viewer, bottom in ((None, "P0"), (0, "P0"), (1, "P1")):
        lines = [l for l in g.render(viewer).splitlines() if " score " in l]
        assert lines[-1].strip().startswith(bottom), viewer
    assert "(hidden)" in g.render(0) and "(hidden)" not in g.render()


def test_a_game_over_after_one_turn_says_turn():
    g = cuttle.Game.from_position(hands=(["TC"], ["2H"]), points=(["TH", "TS"], []))
    g.play("points TC")                         # 30 points on the first turn: a win
    assert g.is_over and g.turn_number == 1
    assert str(g).splitlines()[0] == "Game over: player 0 wins (goal) after 1 turn"


def test_from_run_refuses_the_indices_whose_deal_repeats_a_smaller_ones():
    """Indices up to 2**64-1 were taken, but from 2**63 on they dealt the games of the
    indices 2**63 below them again (the deal's stream 2i wrapped): an index is a run's
    game index, below 2**62, the cap a record's "deal" has (one check of both)."""
    from cuttle.record import check_deal
    from cuttle.seeding import GAME_INDEX_LIMIT
    assert GAME_INDEX_LIMIT == 2 ** 62
    last = cuttle.Game.from_run(seed=1, index=GAME_INDEX_LIMIT - 1)
    assert last != cuttle.Game.from_run(seed=1, index=GAME_INDEX_LIMIT // 2 - 1)
    for index in (2 ** 62, 2 ** 63 - 1, 2 ** 63, 2 ** 63 + 5, 2 ** 64 - 1):
        with pytest.raises(ValueError, match=r"^index must be an int from 0 to 2\*\*62-1, "
                                             rf"not {index}$"):
            cuttle.Game.from_run(seed=1, index=index)
        with pytest.raises(ValueError, match=r"'deal' must be an int from 0 to 2\*\*62-1"):
            check_deal(index)


def test_undo_with_no_move_is_the_library_s_own_index_error():
    # (a bare IndexError: documented nowhere as the game's own)
    g = cuttle.Game(seed=1)
    before = g.copy()
    with pytest.raises(cuttle.NoMoveToUndo, match="^no move to undo"):
        g.undo()
    with pytest.raises(IndexError):            # (callers catching IndexError keep working)
        g.pop()
    assert g == before and issubclass(cuttle.NoMoveToUndo, IndexError)
    g.play("draw")
    assert g.undo() == cuttle.Move("draw") and g == before
