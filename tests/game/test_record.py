"""cuttle.record's positions of a record: `game_before` (the Game its move k is decided
in, numbered as `cuttle replay` and the review number moves) and `final_game`; a
record's deal index (game K of a seed's run, version 2); a resignation's result; the
re-deals of a game an undo dealt again; a result's fields, each checked by the format's
rules (docs/record.md, "The result")."""

import json

import pytest

import cuttle
from cuttle.policies import Bot
from cuttle.record import (ending, final_game, game_before, make_record, read_record,
                           redealt_words, resigner, validate_record)


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


# -- the deal index (version 2) -----------------------------------------------------------

def bot_game(start):
    g = start.copy()
    bots = (Bot("expert", 1), Bot("random", 2))
    while not g.is_over:
        g.play(bots[g.to_move].choose(g))
    return g


def test_a_record_of_deal_k_is_version_2_and_replays_from_that_deal():
    start = cuttle.Game.from_run("classic: four=random", seed=9, index=1234)
    g = bot_game(start)
    rec = make_record(g, players=["a", "b"], deal=1234)
    assert (rec["version"], rec["deal"], rec["seed"], rec["position"]) == (2, 1234, 9, None)
    assert game_before(rec, 1) == start and final_game(rec) == g
    assert validate_record(json.loads(json.dumps(rec))) == rec


def test_a_record_of_deal_0_is_written_as_before():
    g = bot_game(cuttle.Game(seed=9))
    for rec in (make_record(g, players=["a", "b"]), make_record(g, players=["a", "b"], deal=0)):
        assert rec["version"] == 1 and "deal" not in rec and final_game(rec) == g


def test_make_record_refuses_a_deal_the_game_did_not_start_from():
    g = bot_game(cuttle.Game.from_run(seed=9, index=5))
    with pytest.raises(ValueError, match="does not start from deal 6 of seed 9"):
        make_record(g, players=["a", "b"], deal=6)
    with pytest.raises(ValueError, match="cannot be written as position text"):
        make_record(g, players=["a", "b"])             # (deal 0: neither deal nor text)
    for deal in (-1, 1.0, True, 2 ** 62, "5"):
        with pytest.raises(ValueError, match="deal must be an int from 0 to 2\\*\\*62-1"):
            make_record(g, players=["a", "b"], deal=deal)


@pytest.fixture(scope="module")
def deal_record():
    return make_record(bot_game(cuttle.Game.from_run(seed=9, index=7)), players=["a", "b"],
                       deal=7)


@pytest.mark.parametrize("change, message", [
    ({"deal": -1}, "'deal' must be an int from 0 to 2\\*\\*62-1, not -1"),
    ({"deal": 2 ** 62}, "'deal' must be an int from 0 to 2\\*\\*62-1"),
    ({"deal": 7.0}, "'deal' must be an int"),
    ({"deal": True}, "'deal' must be an int"),
    ({"deal": "7"}, "'deal' must be an int"),
    ({"deal": None}, "'deal' must be an int"),
    ({"version": 1}, "'deal' 7 needs a record of version 2, not version 1"),
    ({"version": 3}, "unsupported record version 3 \\(this cuttle reads versions 1 to 2\\)"),
    ({"version": 2.0}, "unsupported record version 2.0"),
    ({"position": "hands: 2C / 3D"}, "a record starts from a deal or from a position"),
])
def test_a_bad_deal_is_refused_with_a_clear_error(deal_record, change, message):
    with pytest.raises(ValueError, match=message):
        validate_record({**deal_record, **change})


def test_the_deal_decides_the_game(deal_record):
    """A record read as another deal (or as game 0, as a reader of version 1 would)
    does not replay: the deal index is the record's."""
    for deal in (0, 8):
        with pytest.raises(ValueError, match="cannot be played|illegal move"):
            final_game({**deal_record, "deal": deal})


def test_a_version_1_record_still_reads(tmp_path):
    g = bot_game(cuttle.Game(seed=3))
    rec = {"format": "cuttle-game-record", "version": 1,
           "rules": {"preset": "classic", "changed": {}}, "seed": 3, "position": None,
           "players": ["human", "greedy"], "human_seat": 0,
           "bot": {"name": "greedy", "seed": 3}, "moves": [str(m) for m in g.moves]}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(rec))
    assert final_game(read_record(path)) == g
    assert final_game({**rec, "deal": 0}) == g          # (deal 0 is game 0 in version 1)
    assert final_game({**rec, "version": 2}) == g       # (a version 2 without a deal)


def resigned_game():
    g = cuttle.Game(seed=3)
    for _ in range(6):
        g.play(g.legal_moves[0])
    assert not g.is_over
    return g


@pytest.mark.parametrize("seat", [0, 1])
def test_a_resignation_is_a_result_the_opponent_wins(seat):
    g = resigned_game()
    rec = make_record(g, players=["human", "greedy"][::1 - 2 * seat], human_seat=seat,
                      status="resigned")
    assert rec["result"] == {"status": "resigned", "winner": 1 - seat, "end_reason": None,
                             "turns": g.turn_number, "scores": [g.score(0), g.score(1)],
                             "text": f"player {1 - seat} wins (player {seat} resigned)"}
    assert resigner(rec) == seat and ending(rec, final_game(rec)) == rec["result"]
    with pytest.raises(ValueError, match="give the human_seat that resigned"):
        make_record(g, players=["a", "b"], status="resigned")


def test_a_resignation_recorded_before_it_had_a_winner_reads_as_the_human_seat_s():
    """Records of the browser's resign written before said no winner ("unfinished:
    resigned"): the person, the record's human seat, resigned them."""
    g = resigned_game()
    rec = json.loads(json.dumps(make_record(g, players=["greedy", "human"], human_seat=1,
                                            status="resigned")))
    old = {**rec, "result": {**rec["result"], "winner": None, "text": "unfinished: resigned"}}
    assert resigner(validate_record(old)) == 1
    assert ending(old, final_game(old))["text"] == "player 0 wins (player 1 resigned)"
    with pytest.raises(ValueError, match="a resigned game's result names its 'winner'"):
        validate_record({**old, "human_seat": None})
    with pytest.raises(ValueError, match="the result's 'winner' must be 0 or 1"):
        validate_record({**rec, "result": {**rec["result"], "winner": 2}})
    quit_ = make_record(g, players=["greedy", "human"], human_seat=1, status="quit")
    assert resigner(quit_) is None and quit_["result"]["winner"] is None
    assert ending(quit_, g)["text"] == "unfinished: quit"


# -- a game an undo dealt again -------------------------------------------------------------

def test_a_record_says_where_an_undo_dealt_the_game_again():
    """`redealt`: each re-deal's count of the moves played before it, written only where
    there was one, in the record's version, and put in one line; the moves replay
    with or without it."""
    g = cuttle.Game(seed=2)
    for m in ("draw", "draw", "draw"):
        g.play(m)
    plain = make_record(g, players=["ann", "greedy"], human_seat=0)
    assert "redealt" not in plain and redealt_words(plain) is None
    rec = make_record(g, players=["ann", "greedy"], human_seat=0, redealt=[1, 3])
    assert rec["redealt"] == [1, 3] and rec["version"] == plain["version"] == 1
    assert list(rec).index("redealt") == list(rec).index("position") + 1
    assert final_game(rec) == final_game(plain) == g
    assert redealt_words(rec) == ("Dealt again by 2 undos, the last after move 3: moves 1 "
                                  "to 3 were played on earlier deals, P1 greedy's with the "
                                  "cards it held then.")
    words = {(0,): "Dealt again by an undo before move 1: every move was played on this "
                   "deal.",
             (0, 0): "Dealt again by 2 undos before move 1: every move was played on this "
                     "deal.",
             (1,): "Dealt again by an undo after move 1: move 1 was played on an earlier "
                   "deal, P1 greedy's with the cards it held then.",
             (2,): "Dealt again by an undo after move 2: moves 1 and 2 were played on an "
                   "earlier deal, P1 greedy's with the cards it held then."}
    for marks, said in words.items():
        assert redealt_words(dict(rec, redealt=list(marks))) == said
    seat1 = dict(rec, human_seat=1, players=["greedy", "ann"])
    assert redealt_words(seat1).endswith("earlier deals, P0 greedy's with the cards it "
                                         "held then.")
    assert redealt_words(dict(rec, human_seat=None)).endswith("on earlier deals.")
    assert redealt_words(dict(rec, redealt=[])) is None


@pytest.mark.parametrize("marks", ["2", 2, None, [1.0], [True], [-1], [4], [10**20], [3, 2],
                                   [[1]], {"1": 1}])
def test_a_bad_redealt_is_refused(marks):
    g = cuttle.Game(seed=2)
    for m in ("draw", "draw", "draw"):
        g.play(m)
    rec = make_record(g, players=["a", "b"])
    rec["redealt"] = marks
    with pytest.raises(ValueError, match=r"'redealt' must be a list of move counts from 0 "
                                         r"to the record's 3 moves, in order, not "):
        validate_record(rec)
    if isinstance(marks, list):             # (refused as it is written: nothing written)
        with pytest.raises(ValueError, match="'redealt' must be"):
            make_record(g, players=["a", "b"], redealt=marks)
    for good in ([], [0], [0, 0, 3], [3]):
        assert validate_record(dict(rec, redealt=good))["redealt"] == good


# -- a result's fields ----------------------------------------------------------------------

def finished_record():
    """P1's win by its goal in two moves (turn 2, 23 points to 14), as JSON reads it."""
    g = cuttle.Game.from_position(hands=(["TH", "2C", "3D"], ["4S", "5S", "6S", "7C"]),
                                  points=(["7S", "7H"], ["9H", "9D"]), rest="deck", seed=3)
    g.play("draw")
    g.play("points 4S")
    assert g.winner == 1 and g.end_reason == "goal"
    return json.loads(json.dumps(make_record(g, players=["ann", "bob"], human_seat=0)))


WINNER = "the result's 'winner' must be 0 or 1 or None (null: a draw, or no winner), not "
STATUS = ("the result's 'status' must be one of over, resigned, quit, eof, interrupted, "
          "unfinished, ")
SCORES = ("the result's 'scores' must be both players' points, two ints from 0, seat 0's "
          "first, not ")


@pytest.mark.parametrize("change, said", [
    # (what a user editing a saved record wrote; each read 1 or passed unread before)
    (dict(winner="1"), WINNER + "'1'"),
    (dict(winner=True), WINNER + "True"),
    (dict(winner=1.0), WINNER + "1.0"),
    (dict(winner=0.0), WINNER + "0.0"),
    (dict(winner=2), WINNER + "2"),
    (dict(status="weird"), STATUS + "not 'weird'"),
    (dict(status=3), STATUS + "not 3"),
    (dict(status=None), STATUS + "not None"),
    (dict(end_reason="resign"), "the result's 'end_reason' must be one of goal, passes, "
     "sudden_death, move_cap or null, not 'resign'"),
    (dict(end_reason="none"), "the result's 'end_reason' must be one of goal, passes, "
     "sudden_death, move_cap or null, not 'none'"),
    (dict(status="quit", end_reason=None), "the result's 'winner' must be null for a game "
     "the rules did not end (status 'quit'), not 1"),
    (dict(status="resigned", winner=0), "the result's 'end_reason' must be null for a game "
     "the rules did not end (status 'resigned'), not 'goal'"),
    (dict(turns="6"), "the result's 'turns' must be a positive int, not '6'"),
    (dict(turns=2.0), "the result's 'turns' must be a positive int, not 2.0"),
    (dict(turns=0), "the result's 'turns' must be at least 1, not 0"),
    (dict(scores="x"), SCORES + "'x'"),
    (dict(scores=[14]), SCORES + "[14]"),
    (dict(scores=[14, -1]), SCORES + "[14, -1]"),
    (dict(scores=[14, 23.0]), SCORES + "[14, 23.0]"),
    (dict(scores=[True, 23]), SCORES + "[True, 23]"),
    (dict(text=["player 1 wins"]), "the result's 'text' must be a string, not "
     "['player 1 wins']"),
])
def test_each_field_of_a_result_is_checked(change, said):
    rec = finished_record()
    bad = {**rec, "result": {**rec["result"], **change}}
    with pytest.raises(ValueError) as e:
        validate_record(bad)
    assert str(e.value) == said
    assert bad["result"] == {**rec["result"], **change}          # (left as it was)


@pytest.mark.parametrize("result, said", [
    ([1], "'result' must be an object (its 'status', 'winner', ...) or null, not [1]"),
    ("over", "'result' must be an object (its 'status', 'winner', ...) or null, not 'over'"),
    (1, "'result' must be an object (its 'status', 'winner', ...) or null, not 1"),
    ({}, "the result has no 'status' (one of over, resigned, quit, eof, interrupted, "
     "unfinished)"),
    ({"winner": 1}, "the result has no 'status' (one of over, resigned, quit, eof, "
     "interrupted, unfinished)"),
    ({"status": "over", "scores": list(range(100))},        # (what it holds, cut short)
     SCORES + "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16... 95, 96, 97, "
              "98, 99] (390 characters written out)"),
])
def test_a_result_is_an_object_with_its_status(result, said):
    with pytest.raises(ValueError) as e:
        validate_record({**finished_record(), "result": result})
    assert str(e.value) == said


def test_a_result_may_be_null_or_leave_out_all_but_its_status(tmp_path):
    rec = finished_record()
    for res in (None, {"status": "over"}, {"status": "unfinished"},
                *({k: v for k, v in rec["result"].items() if k != field}
                  for field in rec["result"] if field != "status"),
                {**rec["result"], "note": "readers ignore it"}):
        assert validate_record({**rec, "result": res})["result"] == res
        path = tmp_path / "r.json"
        path.write_text(json.dumps({**rec, "result": res}))
        assert final_game(read_record(path)).winner == 1
    without = {k: v for k, v in rec.items() if k != "result"}
    assert validate_record(without) == without


def test_read_record_names_the_file_and_the_field(tmp_path):
    rec = finished_record()
    rec["result"]["winner"] = "1"
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(rec))
    with pytest.raises(ValueError) as e:
        read_record(path)
    assert str(e.value) == f"{path}: {WINNER}'1'"
