"""cuttle.record's positions of a record: `game_before` (the Game its move k is decided
in, numbered as `cuttle replay` and the review number moves) and `final_game`."""

import pytest

import cuttle
from cuttle.policies import Bot
from cuttle.record import final_game, game_before, make_record


@pytest.fixture(scope="module")
def game():
    g = cuttle.Game(seed=14)
    bots = (Bot("expert", 1), Bot("random", 2))
    while not g.is_over:
        g.play(bots[g.to_move].choose(g))
    return g


def test_game_before_move_k_has_the_first_k_minus_1_moves_played(game):
    rec = make_record(game, players=["a", "b"])
    h = game.copy()
    while h.ply:
        h.undo()
    for k, move in enumerate(game.moves, 1):
        g = game_before(rec, k)
        assert g.ply == k - 1 and g.moves == game.moves[:k - 1]
        assert g == h and g.to_move == h.to_move and move in g.legal_moves
        h.play(move)
    assert final_game(rec) == game and final_game(rec).moves == game.moves


def test_its_numbers_are_the_reviews(game):
    """Move k of the review (its line 'k.') is decided in game_before(rec, k)."""
    rec = make_record(game, players=["a", "b"])
    r = cuttle.review(rec, "rollouts:4", seed=1, threads=1)
    for d in r.decisions:
        g = game_before(rec, d.ply + 1)
        assert (g.to_move, g.turn_number, g.phase) == (d.player, d.turn, d.phase)
        assert str(d.played) == rec["moves"][d.ply]


def test_a_record_from_a_position(game):
    start = cuttle.Game.from_text("hands: 2C 7H 9S / 4S 5D; points: 9D / TC; rest: deck",
                                  seed=3)
    g = start.copy()
    g.play("points 7H")
    g.play("draw")
    rec = make_record(g, players=["a", "b"], position=start.position_text(rules=False))
    assert game_before(rec, 1) == start
    assert game_before(rec, 2).moves == [cuttle.Move.parse("points 7H")]


@pytest.mark.parametrize("move", [0, -1, 4, 10**20, True, 2.0, "2", None])
def test_a_move_outside_the_record_is_refused_with_its_range(move):
    g = cuttle.Game(seed=2)
    for m in ("draw", "draw", "draw"):
        g.play(m)
    rec = make_record(g, players=["a", "b"])
    with pytest.raises(ValueError, match=r"there is no move .*: the record's moves are 1 "
                                         r"to 3$"):
        game_before(rec, move)


def test_a_record_without_moves_and_a_bad_earlier_move():
    rec = make_record(cuttle.Game(seed=2), players=["a", "b"])
    with pytest.raises(ValueError, match="the record has no moves"):
        game_before(rec, 1)
    rec["moves"] = ["draw", "jump", "draw", "draw"]
    assert game_before(rec, 2).ply == 1          # (move 2 itself is not played)
    with pytest.raises(ValueError, match=r"move 2 \('jump'\) cannot be played"):
        game_before(rec, 3)
