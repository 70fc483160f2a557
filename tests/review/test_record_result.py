"""A game record whose stated result its moves do not give (a winner, an ending, a
resignation or a stop in a game the rules ended): the moves are the game, so the review
follows them, and says so: `cuttle.review` with a `RecordResultWarning` and
`Review.record_mismatch` (in the text, the JSON and the page), `cuttle review` and
`cuttle replay` with one line on stderr and exit status 1.  The check has one home,
`cuttle.record.result_mismatch`, and never says two texts that read alike disagree.  A
result that is not one by the format (a winner "1", true or 1.0, a status not listed)
is refused with the record, naming the field: nothing is reviewed or replayed."""

import itertools
import json
import re
import warnings

import pytest

import cuttle
from cuttle.figures import END_REASONS
from cuttle.policies import Bot
from cuttle.record import (STATUSES, RecordResultWarning, check_result, final_game,
                           make_record, result_mismatch, validate_record, write_record)
from support.helpers import run_cli

# P0 to move could win at once with `points TH`; it draws, and P1 wins with `points 4S`.
WIN = dict(hands=(["TH", "2C", "3D"], ["4S", "5S", "6S", "7C", "8D", "9C"]),
           points=(["7S", "7H"], ["9H", "9D"]), rest="deck", seed=3)
ENGINE = "expert:16"


def thrown_away():
    """The record of P0's blunder and P1's win (P1 wins, goal), and of its first move
    alone (the game unfinished, quit)."""
    g = cuttle.Game.from_position(**WIN)
    g.play("draw")
    first = make_record(g, players=["ann", "bob"], status="quit")
    g.play("points 4S")
    assert g.is_over and g.winner == 1 and g.end_reason == "goal"
    return make_record(g, players=["ann", "bob"]), first


def restated(rec, **result):
    return {**rec, "result": {**rec["result"], **result}}


WON = "'player 1 wins (goal)'"
# (the result the record states, what the record says in words, where its moves end)
DENIED = [
    ("over", dict(winner=0), "'player 0 wins (goal)'", WON),
    ("over", dict(winner=None), "'draw (goal)'", WON),
    ("over", dict(end_reason="passes"), "'player 1 wins (passes)'", WON),
    ("over", dict(end_reason="move_cap"), "'player 1 wins (move_cap)'", WON),
    # (an ending not stated is not compared, nor printed as "(None)")
    ("over", dict(winner=0, end_reason=None), "'player 0 wins'", WON),
    ("resigned", dict(status="resigned", winner=0, end_reason=None),
     "'player 0 wins (player 1 resigned)'", WON),
    ("quit", dict(status="quit", winner=None, end_reason=None), "'unfinished: quit'", WON),
    ("eof", dict(status="eof", winner=None, end_reason=None),
     "'unfinished: the input ended'", WON),
]


@pytest.mark.parametrize("kind, result, said, ends", DENIED)
def test_result_mismatch_says_what_the_record_says_and_where_its_moves_end(kind, result,
                                                                          said, ends):
    rec, _ = thrown_away()
    bad = restated(rec, **result)
    words = f"the record says {said}, but its moves end {ends}"
    assert result_mismatch(bad, final_game(bad)) == words
    with pytest.warns(RecordResultWarning) as caught:
        assert check_result(bad, final_game(bad), "g.json") == words
    assert [str(w.message) for w in caught] == [f"g.json: {words}; the moves are followed"]


def test_a_finished_result_of_an_unfinished_game_is_denied_too():
    rec, first = thrown_away()
    bad = {**first, "result": rec["result"]}      # "player 1 wins (goal)" after one move
    assert result_mismatch(bad, final_game(bad)) == \
        f"the record says {WON}, but its moves end 'unfinished'"
    bare = {**first, "result": {"status": "over"}}
    assert result_mismatch(bare, final_game(bare)) == \
        "the record says 'game over', but its moves end 'unfinished'"


def test_results_the_moves_give_or_no_result_are_not_warned_of():
    rec, first = thrown_away()
    agreeing = [rec, first, restated(rec, text="made up, not compared", turns=99),
                {k: v for k, v in rec.items() if k != "result"}, {**rec, "result": None},
                restated(first, status="resigned", winner=0),     # a stop of a game under way
                restated(first, status="interrupted"),
                restated(rec, end_reason=None),              # the winner alone, stated
                {**rec, "result": {"status": "over"}}]       # only that the game is over
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for r in agreeing:
            assert result_mismatch(r, final_game(r)) is None
            assert check_result(r, final_game(r)) is None
            review = cuttle.review(r, "rollouts:5", seed=1)
            assert review.record_mismatch is None and "Warning" not in str(review)
            assert review.as_dict()["record_mismatch"] is None


def test_the_review_follows_the_moves_and_says_so(tmp_path):
    """The record says P0 won; its moves give P1 the game: the review's result, headline
    and figures are the moves' (P0 threw the game away at move 1), and it says what the
    record says in a warning, its text, its JSON and its page."""
    rec, _ = thrown_away()
    bad = restated(rec, winner=0, text="player 0 wins (goal)")
    words = f"the record says 'player 0 wins (goal)', but its moves end {WON}"
    with pytest.warns(RecordResultWarning, match=r"the moves are followed$") as caught:
        r = cuttle.review(bad, ENGINE, seed=2)
    assert len(caught) == 1 and str(caught[0].message) == f"{words}; the moves are followed"
    assert caught[0].filename == __file__       # (it points at the caller's line)
    assert r.record_mismatch == words
    honest = cuttle.review(rec, ENGINE, seed=2)
    assert r.as_dict()["decisions"] == honest.as_dict()["decisions"]
    data = r.as_dict()
    assert data["record_mismatch"] == words and data["result"] == rec["result"]
    assert data["where_lost"] == honest.where_lost()
    assert r.where_lost()["loser"] == 0 and r.headline.startswith("P0 ann lost this game at "
                                                                   "move 1, draw ??")
    lines = str(r).splitlines()
    assert lines[:2] == [r.headline, f"Warning: {words}; this review follows the moves."]
    assert "Result: player 1 wins (goal)" in lines
    page = r.page()
    assert ('<p class="review-warning">Warning: the record says &#x27;player 0 wins '
            '(goal)&#x27;') in page
    assert page.index('class="review-warning"') < page.index('class="replay"')
    assert 'class="review-warning"' not in honest.page()
    # from its file, the warning names the file
    path = tmp_path / "told.json"
    write_record(bad, path)
    with pytest.warns(RecordResultWarning, match=f"^{path}: the record says"):
        cuttle.review(str(path), ENGINE, seed=2)


def test_an_interrupted_review_keeps_the_mismatch():
    rec, _ = thrown_away()
    bad = restated(rec, status="quit", winner=None, end_reason=None)
    with pytest.warns(RecordResultWarning):
        with pytest.raises(cuttle.Interrupted) as info:
            cuttle.review(bad, ENGINE, seed=2, cancel=lambda: True)
    assert info.value.result.record_mismatch == \
        f"the record says 'unfinished: quit', but its moves end {WON}"


@pytest.mark.parametrize("argv", [["review", "--engine", "rollouts:5", "--seed", "1"],
                                  ["review", "--engine", "rollouts:5", "--json"],
                                  ["replay"], ["replay", "--html", "PAGE"],
                                  ["replay", "--html", "PAGE", "--review", "--engine",
                                   "rollouts:5"]])
def test_the_commands_warn_once_on_stderr_and_exit_1(monkeypatch, capsys, tmp_path, argv):
    rec, _ = thrown_away()
    path = tmp_path / "told.json"
    write_record(restated(rec, status="resigned", winner=0, end_reason=None), path)
    argv = [argv[0], path] + [tmp_path / "r.html" if a == "PAGE" else a for a in argv[1:]]
    code, out, err = run_cli(monkeypatch, capsys, argv)
    words = ("the record says 'player 0 wins (player 1 resigned)', but its moves end "
             f"{WON}; the moves are followed")
    assert code == 1 and err.splitlines() == [f"cuttle {argv[0]}: warning: {words}"], err
    if "--json" in argv:
        assert json.loads(out)["record_mismatch"] == words.rpartition(";")[0]
    elif argv[0] == "review":
        assert "Warning: the record says" in out and "accuracy" in out     # still reviewed
    if "PAGE" in map(str, argv) or "--html" in map(str, argv):
        assert (tmp_path / "r.html").exists()
    write_record(rec, path)                 # the honest record: no word of it, status 0
    code, out, err = run_cli(monkeypatch, capsys, argv)
    assert code == 0 and "warning" not in err.lower() and "Warning" not in out


# -- results that are not results ------------------------------------------------------------

# (what a user editing a saved record wrote: "1" was warned of as "the record says 'player
# 1 wins (goal)', but its moves end 'player 1 wins (goal)'", the others passed unread)
EDITED = [({"winner": "1"}, "the result's 'winner' must be 0 or 1"),
          ({"winner": True}, "the result's 'winner' must be 0 or 1"),
          ({"winner": 1.0}, "the result's 'winner' must be 0 or 1"),
          ({"winner": 0.0}, "the result's 'winner' must be 0 or 1"),
          ({"status": "weird"}, "the result's 'status' must be one of"),
          ({"status": 3}, "the result's 'status' must be one of"),
          ({"turns": "6"}, "the result's 'turns' must be a positive int"),
          ({"scores": "x"}, "the result's 'scores' must be both players' points"),
          ([1], "'result' must be an object"),
          ("over", "'result' must be an object")]


def edited(rec, change):
    return {**rec, "result": {**rec["result"], **change} if isinstance(change, dict)
            else change}


@pytest.mark.parametrize("change, said", EDITED)
def test_the_commands_refuse_a_result_that_is_none(monkeypatch, capsys, tmp_path, change,
                                                   said):
    rec, _ = thrown_away()
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(edited(rec, change)))
    for argv in (["replay", path], ["review", path, "--engine", "rollouts:5", "--seed", "1"]):
        code, out, err = run_cli(monkeypatch, capsys, argv)
        assert code == 2 and out == "", (argv, err)
        assert f"cuttle {argv[0]}: error: {path}: {said}" in err
        assert "warning" not in err and "Traceback" not in err
    with pytest.raises(ValueError, match=f"^{re.escape(said)}"):
        cuttle.review(edited(rec, change), "rollouts:5", seed=1)
    with pytest.raises(ValueError, match=f"^{re.escape(said)}"):
        result_mismatch(edited(rec, change), final_game(rec))


def ends():
    """Records of games that end each way: P0 wins, P1 wins (goal), a draw (passes),
    unfinished (6 moves of a game)."""
    out = []
    for seed, cut in ((0, None), (1, None), (11, None), (0, 6)):
        g, bot = cuttle.Game(seed=seed), Bot("random", seed=seed)
        while not g.is_over and g.ply != cut:
            g.play(bot.choose(g))
        out.append(make_record(g, players=["a", "b"], human_seat=0))
    assert [(r["result"]["winner"], r["result"]["end_reason"]) for r in out] == \
        [(0, "goal"), (1, "goal"), (None, "passes"), (None, None)]
    return out


ENDS = ends()
ABSENT = object()


def test_a_mismatch_never_reads_the_same_on_both_sides():
    """Whatever result a record may state (every status, winner and ending, stated or
    not, also those of the wrong type, which are refused), the words of what it says
    and of where its moves end differ whenever they are said to disagree."""
    mismatches = 0
    for rec, status, winner, reason, seat in itertools.product(
            ENDS, STATUSES, [ABSENT, None, 0, 1, "1", "0", True, 1.0, 0.0],
            [ABSENT, None, *END_REASONS], [0, None]):
        res = {"status": status, **{k: v for k, v in (("winner", winner),
                                                      ("end_reason", reason))
                                    if v is not ABSENT}}
        told = {**rec, "human_seat": seat, "result": res}
        try:
            validate_record(told)
        except ValueError:
            continue
        words = result_mismatch(told, final_game(told))
        if words is not None:
            said, ends_ = re.fullmatch(r"the record says '(.*)', but its moves end '(.*)'",
                                       words).groups()
            assert said != ends_, told
            mismatches += 1
    assert mismatches > 100
