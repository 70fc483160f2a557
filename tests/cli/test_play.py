"""`cuttle play`, `cuttle replay` and `cuttle analyse` (cuttle.cli), driven in-process
with a scripted stdin, and once through a real pipe."""

import argparse
import io
import re
import json
import os
import subprocess
import sys

import pytest

import cuttle
from cuttle.cli import main
from cuttle.record import final_game as game_from_record, make_record, read_record, write_record
from cuttle.record import start_game as start_from_record
from cuttle.seeding import derive
from cuttle.unseen import DEALT_MARK, DEALT_NOTE

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(monkeypatch, capsys, argv, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def final_table(out):
    """The last table printed (from its 'Game over' header on)."""
    block = out[out.rindex("Game over:"):].splitlines()
    return "\n".join(block[:6])


def script(*lines, ones=1500):
    return "\n".join(lines + ("1",) * ones) + "\n"


# ---------------------------------------------------------------------------------------
# play

def test_a_hint_of_one_playout_a_move_says_no_move_is_clearly_best(monkeypatch, capsys):
    # (one playout gives each move 0% or 100% and no interval: the best is no better)
    code, out, err = run(monkeypatch, capsys, ["play", "--bot", "random", "--seed", "7"],
                         script("hint 1", "quit"))
    assert code == 0, err
    table = out[out.index("expert playouts from the player's view"):out.index("By the game")]
    counts = re.findall(r"^\S.*?\s(\d+)$", table, flags=re.M)
    assert counts and set(counts) == {"1"}                  # (each move's playouts shown)
    assert re.search(r"^Hint: [\w ]+ \(move \d+\), though no move is clearly best \(1 "
                     r"playout per move is too few for an interval\)$", out, flags=re.M)


def test_play_a_whole_game_and_replay_it(monkeypatch, capsys, tmp_path):
    rec_path = tmp_path / "game.json"
    first = cuttle.Game(seed=7)
    legal = list(first.legal_moves)
    assert str(legal[0]) == "draw" and len(legal) >= 2
    second = str(legal[1])                         # e.g. 'points 3C'
    stdin = script("help", "", "foo", "7Z", "99", "0", "points ZZ", "scuttle 7H 6H", "undo",
                   "2", "undo", "hint 20", "hint x", "moves", "board", "draw", "moves")
    code, out, err = run(monkeypatch, capsys,
                         ["play", "--bot", "random", "--seed", "7", "--record", str(rec_path),
                          "--hint-rollouts", "20"], stdin)
    assert code == 0, err
    assert err == ""
    # the first decision: the table from player 0's side and the numbered moves
    assert "P0 score 0/21" in out and "hand: 6 cards (hidden)" in out
    assert "  1. draw" in out and f"  2. {second}" in out
    # help, bad input, undo before any move, hint, history
    assert "Commands:" in out and "undo" in out
    assert "Type a move number (1 to" in out
    assert "Not a move or a command: 'foo' (unknown move verb 'foo'" in out
    assert "Not a move or a command: '7Z' (unknown card '7Z'" in out     # (a mistyped card)
    assert "There is no move 99: choose a number from 1 to" in out
    assert "There is no move 0" in out
    assert "unknown card 'ZZ'" in out
    assert "Not legal now: illegal move 'scuttle 7H 6H'" in out
    assert "Nothing to undo: you have not made a move yet." in out
    assert f"You play: {second}" in out
    # the undo takes back the human's move and everything after it (the bot's reply and
    # any forced move played for the human, like a lone 'resolve')
    assert re.search(rf"Took back [23] moves: {second}, ", out)
    assert "hint takes a number of playouts per move" in out
    assert "expert playouts from the player's view" in out and "Hint: " in out
    # (the review's engine, said: a player who follows the hint is judged alike after)
    assert "By the game review's engine: expert playouts from your view, 20 a move" in out
    # at 20 playouts a move, other moves are within the best one's interval: it says so,
    # each move with its number
    hint = re.search(r"Hint: (.*)", out).group(1)
    assert re.fullmatch(r"[\w ]+ \(move \d+\), (not clearly better than .*\(move \d+\) "
                        r"\(the intervals overlap\)|though no move is clearly best \(.*\))",
                        hint), hint
    assert "No moves yet." in out
    assert "   1. turn 1, P0 (you): draw" in out and "   2. turn 2, P1 (random): " in out
    assert "P1 (random) plays: " in out
    assert "Game over:" in out
    assert any(s in out for s in ("random wins (", "You win (", "The game is a draw ("))
    assert f"Game record saved to {rec_path}" in out

    rec = read_record(rec_path)
    assert rec["format"] == "cuttle-game-record" and rec["version"] == 1
    assert rec["rules"] == {"preset": "classic", "changed": {}}
    assert rec["seed"] == 7
    # an undo whose moves had shown the player a card dealt the hidden cards again: the
    # record starts from that deal (the player's hand as it was), else from the seed's
    if "were dealt again" in out:
        assert rec["position"].startswith(f"hands: {' '.join(first.hand(0))} / ")
    else:
        assert rec["position"] is None
    assert rec["players"] == ["human", "random"] and rec["human_seat"] == 0
    assert rec["moves"][0] == "draw"               # the undone move is gone
    assert rec["result"]["status"] == "over"
    final = game_from_record(rec)
    assert final.is_over and final.winner == rec["result"]["winner"]
    assert final.end_reason == rec["result"]["end_reason"]
    assert [str(m) for m in final.moves] == rec["moves"]
    assert final_table(out) == final.render().splitlines()[0] + "\n" + \
        "\n".join(final.render().splitlines()[1:6])

    code, rout, rerr = run(monkeypatch, capsys, ["replay", str(rec_path)])
    assert code == 0, rerr
    assert rout.startswith(f"Replaying {rec_path}: P0 human against P1 random; rules classic; "
                           f"seed 7; {len(rec['moves'])} moves")
    assert "Move 1 (turn 1), P0 (you): draw" in rout
    assert rout.count("\nMove ") == len(rec["moves"])
    assert final_table(rout) == final_table(out)
    assert f"Result: {rec['result']['text']}" in rout


def test_play_tells_what_each_move_did(monkeypatch, capsys, tmp_path):
    """The bot's random 4 made the player's forced resolve discard two cards, and a draw
    brought one: each is said, with the hand after a move the player did not choose
    (the hand changed without a word, the scrap shown sorted)."""
    code, out, err = run(monkeypatch, capsys,
                         ["play", "--bot", "ismcts:1000", "--bot-threads", "1", "--rules",
                          "cuttle.cards:four=random,hand_limit=7", "--seed", "7",
                          "--record", str(tmp_path / "g.json")], "2\n1\nmoves\nquit\n")
    assert code == 0, err
    assert ("You play: points 3C\nP1 (ismcts:1000) plays: oneoff 4C\n"
            "You play: resolve (the only legal move)\n"
            "  4C resolves: you discard TS and JD.\n  Your hand: 7H JH\n") in out
    drew = re.search(r"\nYou play: draw\n  You draw ([2-9TJQKA][CDHS])\.\n", out)
    assert drew and drew.group(1) not in ("7H", "JH")
    # the history says it too
    assert "   3. turn 2, P0 (you): resolve -- 4C resolves: you discard TS and JD." in out
    assert f"   4. turn 3, P0 (you): draw -- You draw {drew.group(1)}." in out


def test_replay_tells_what_each_move_did(monkeypatch, capsys, tmp_path):
    g = cuttle.Game.from_position("classic: four=random", deck=["KS"], rest="scrap",
                                  hands=(["4C", "9H"], ["3C", "7H", "JD"]), seed=1)
    for m in ("oneoff 4C", "resolve", "draw"):
        g.play(m)
    lost = sorted({"3C", "7H", "JD"} - set(g.hand(1)), key=lambda c: cuttle.Card(c).index)
    path = tmp_path / "r.json"
    write_record(make_record(g, players=["a", "b"]), path)
    code, out, err = run(monkeypatch, capsys, ["replay", str(path)])
    assert code == 0, err
    assert (f"Move 2 (turn 1), P1 (b): resolve\n4C resolves: P1 discards {lost[0]} and "
            f"{lost[1]}.\n") in out
    assert "Move 3 (turn 2), P1 (b): draw\nP1 draws KS.\n" in out     # every card shown


def test_an_undone_draw_deals_the_hidden_cards_again(monkeypatch, capsys, tmp_path):
    """Undo, then draw again, gave the same card: the player could peek at the deck.  Now
    an undo whose moves had shown cards hidden again deals the hidden cards anew (the
    deck and the bot's hand), says so, and does it from the seed: the same script and
    seed make the same game, and its record replays it."""
    rec_path = tmp_path / "game.json"
    argv = ["play", "--bot", "greedy", "--seed", "7", "--record", str(rec_path)]
    stdin = "draw\nundo\ndraw\nquit\n"
    code, out, err = run(monkeypatch, capsys, argv, stdin)
    assert code == 0 and err == ""
    first, again = re.findall(r"^  You draw (\w\w)\.$", out, flags=re.M)
    assert first != again
    assert ("  They had shown you 2 cards now hidden from you again, so the cards hidden "
            "from you were dealt again (the deck's order and greedy's hand): what you saw "
            "no longer tells where they are.") in out
    assert run(monkeypatch, capsys, argv, stdin)[1] == out        # (the seed's re-deal)
    rec = read_record(rec_path)
    assert rec["redealt"] == [0]        # (dealt again before move 1: the undo's draw)
    dealt = cuttle.Game(seed=7)
    assert rec["seed"] == 7 and rec["position"].startswith(
        f"hands: {' '.join(dealt.hand(0))} / ") and rec["moves"][0] == "draw"
    start = start_from_record(rec)
    assert start.hand(0) == dealt.hand(0) and start.hand(1) != dealt.hand(1)
    start.play("draw")
    assert again in start.hand(0) and first not in start.hand(0)
    assert game_from_record(rec).moves == rec["moves"]


def test_an_undo_that_showed_nothing_deals_nothing(monkeypatch, capsys, tmp_path):
    # P1 holds no card: its reply is a draw P0 does not see
    position = "hands: 7H 9C / -; points: - / -; deck: 5C 6C 8D; rest: scrap"
    rec_path = tmp_path / "game.json"
    code, out, _ = run(monkeypatch, capsys, ["play", "--bot", "greedy", "--seed", "3",
                                             "--position", position, "--record",
                                             str(rec_path)],
                       "points 7H\nundo\npoints 9C\nquit\n")
    assert code == 0 and "Took back 2 moves: points 7H, draw" in out
    assert "dealt again" not in out
    rec = read_record(rec_path)
    assert rec["position"] == cuttle.Game.from_text(position, seed=3).position_text(
        rules=False) and rec["moves"] == ["points 9C", "draw"]
    assert "redealt" not in rec


def test_an_undo_no_new_deal_agrees_with_is_refused(monkeypatch, capsys, tmp_path):
    import cuttle.redeal
    monkeypatch.setattr(cuttle.redeal, "redeal", lambda *a, **kw: None)
    rec_path = tmp_path / "game.json"
    code, out, _ = run(monkeypatch, capsys, ["play", "--bot", "greedy", "--seed", "7",
                                             "--record", str(rec_path)],
                       "draw\nundo\nquit\n")
    assert code == 0
    assert ("Cannot take that back: 2 cards you saw would be hidden from you again, and no "
            "new deal of the hidden cards agrees with everything you have seen in this "
            "game.") in out and "Took back" not in out
    assert read_record(rec_path)["moves"][:2] == ["draw", "points TC"]


def test_play_seat_1_with_rules_and_eof(monkeypatch, capsys, tmp_path):
    rec_path = tmp_path / "g.json"
    code, out, err = run(monkeypatch, capsys,
                         ["play", "--bot", "greedy", "--seat", "1", "--seed", "3",
                          "--rules", "cuttle.cards", "--set", "four=random",
                          "--set", "king_goals=25,14,10,5,0", "--record", str(rec_path)],
                         "1\n1\n")
    assert code == 0, err
    assert out.startswith("Cuttle: you are player 1 against greedy (player 0)")
    assert "P0 (greedy) plays: " in out
    assert "(end of input)" in out
    rec = json.loads(rec_path.read_text())
    # the table is drawn from player 1's side: the bot's hand hidden, the human's shown
    g = start_from_record(rec)
    g.play(rec["moves"][0])
    assert f"P0 score {g.score(0)}/25" in out
    assert f"hand: {len(g.hand(0))} cards (hidden)" in out
    assert f"hand: {' '.join(g.hand(1))}\n" in out
    assert " ".join(g.hand(0)) not in out
    # ... with the human's side (player 1) at the bottom of the table
    table = out[out.index("Turn 2:"):]
    assert table.index("P0 score") < table.index("P1 score")
    assert rec["rules"] == {"preset": "cuttle.cards",
                            "changed": {"four": "random", "king_goals": [25, 14, 10, 5, 0]}}
    assert rec["result"]["status"] == "eof" and rec["players"] == ["greedy", "human"]
    g = game_from_record(rec)
    assert not g.is_over and g.rules == cuttle.Rules("cuttle.cards", four="random",
                                                     king_goals=(25, 14, 10, 5, 0))
    assert [str(m) for m in g.moves] == rec["moves"] and len(rec["moves"]) >= 3
    code, rout, _ = run(monkeypatch, capsys, ["replay", str(rec_path)])
    assert code == 0 and "Result: unfinished: the input ended" in rout    # (the record's why)
    rout = run(monkeypatch, capsys, ["replay", str(rec_path), "--html",
                                     str(tmp_path / "r.html")])[1]
    assert "(result: unfinished: the input ended)" in rout


def test_resign_gives_the_bot_the_game_and_saves_it(monkeypatch, capsys, tmp_path):
    """'resign' (the whole word, as the browser's resign) ends the game as a result:
    the bot wins, every card is shown, the record says so, and the game-over menu
    follows; replay and its page name the winner."""
    rec_path = tmp_path / "g.json"
    code, out, err = run(monkeypatch, capsys,
                         ["play", "--bot", "greedy", "--seat", "1", "--seed", "5",
                          "--record", str(rec_path)], "help\nresign\nquit\n")
    assert code == 0, err
    assert "  resign       give up: greedy wins (the game record is saved)" in out
    assert "You resign: greedy wins." in out and "Game over. Type:" in out
    rec = read_record(rec_path)
    g = game_from_record(rec)
    assert not g.is_over and rec["human_seat"] == 1
    assert rec["result"]["status"] == "resigned" and rec["result"]["winner"] == 0
    assert f"hand: {' '.join(g.hand(0))}\n" in out        # the bot's hand, at the end
    code, rout, _ = run(monkeypatch, capsys, ["replay", str(rec_path)])
    assert code == 0 and "Result: player 0 wins (player 1 resigned)" in rout
    page = tmp_path / "r.html"
    rout = run(monkeypatch, capsys, ["replay", str(rec_path), "--html", str(page)])[1]
    assert "(result: player 0 wins (player 1 resigned))" in rout
    assert "player 0 wins (player 1 resigned)" in page.read_text()


def test_play_from_a_position_quit_and_default_record(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    pos = ("rules: cuttle.cards; hands: 2C 7H 9S / 4S 5D; points: 9D / TC[JC]; "
           "permanents: - / QS; deck: 8C; to_move: 0")
    code, out, err = run(monkeypatch, capsys,
                         ["play", "--bot", "random", "--position", pos, "--seed", "2",
                          "--set", "hand_limit=6"], "draw\nquit\n")
    assert code == 0, err
    assert "P0 score 9/21  points: 9D" in out and "hand: 2C 7H 9S" in out
    assert "TC[JC]" in out and "permanents: QS" in out
    assert "rules cuttle.cards: hand_limit=6" in out
    files = [f for f in os.listdir(tmp_path) if f.startswith("cuttle-game-")]
    assert len(files) == 1 and files[0].endswith(".json")
    assert f"Game record saved to {files[0]}" in out
    rec = read_record(tmp_path / files[0])
    assert rec["result"]["status"] == "quit" and rec["moves"][0] == "draw"
    assert rec["rules"] == {"preset": "cuttle.cards", "changed": {"hand_limit": 6}}
    start = cuttle.Game.from_position("cuttle.cards", hands=(["2C", "7H", "9S"], ["4S", "5D"]),
                                      points=(["9D"], ["TC[JC]"]),
                                      permanents=([], ["QS"]), deck=["8C"], seed=2)
    assert start.position_text(rules=False) == rec["position"]
    g = game_from_record(rec)
    assert "8C" in g.hand(0) and len(g.deck) == 42 and not g.is_over


def test_a_seed_chosen_at_random_is_shown_only_when_the_game_ends(monkeypatch, capsys,
                                                                 tmp_path):
    # The seed deals every card, so shown during the game it would give away the bot's
    # hand and the deck order; so would a hint's seed, which is derived from it (the
    # derivation can be inverted).  A seed the player gave is no secret to them.
    rec_path = tmp_path / "g.json"
    code, out, err = run(monkeypatch, capsys, ["play", "--bot", "greedy", "--record",
                                               str(rec_path), "--hint-rollouts", "3"],
                         "hint\nhint 2\nquit\n")
    assert code == 0, err
    seed = read_record(rec_path)["seed"]
    during, after = out.split("your move> quit")
    assert "Hint: " in during and during.count("expert playouts from the player's view") == 2
    secrets = {seed, derive(seed, 0, 3), derive(seed, 0, 2)}
    assert not {int(n) for n in re.findall(r"\d{6,}", during)} & secrets
    assert not re.search(r"seed \d", during) and "a random seed (shown at the end" in during
    assert f"seed {seed}" in after and f"--seed {seed}" in after
    # --seed (or a position's own seed) is the player's: shown at the start
    code, out, _ = run(monkeypatch, capsys, ["play", "--seed", "7", "--record",
                                             str(tmp_path / "h.json")], "quit\n")
    assert code == 0 and "rules classic; seed 7." in out.splitlines()[0]
    pos = "hands: 2C 9H / 4H 8D; seed: 11"
    code, out, _ = run(monkeypatch, capsys, ["play", "--position", pos, "--record",
                                             str(tmp_path / "i.json")], "quit\n")
    assert code == 0 and "rules classic; seed 11." in out.splitlines()[0]
    code, out, _ = run(monkeypatch, capsys, ["play", "--position", "hands: 2C 9H / 4H 8D",
                                             "--record", str(tmp_path / "j.json")], "quit\n")
    seed = read_record(tmp_path / "j.json")["seed"]
    first, rest = out.split("your move> quit")
    assert str(seed) not in first and f"seed {seed}" in rest


def test_play_position_from_a_file(monkeypatch, capsys, tmp_path):
    f = tmp_path / "pos.txt"
    f.write_text("hands: AC / 2D\npoints: 9D / -\nrest: scrap\n")
    code, out, _ = run(monkeypatch, capsys, ["play", "--bot", "random", "--position", str(f),
                                             "--record", str(tmp_path / "r.json")], "quit\n")
    assert code == 0 and "hand: AC" in out and "deck 0 cards" in out


@pytest.mark.parametrize("argv, message", [
    (["play", "--bot", "wizard"], "unknown policy 'wizard'; valid: random, greedy"),
    (["play", "--rules", "chess"], "unknown preset 'chess'; valid presets: classic"),
    (["play", "--set", "four"], "expected FLAG=VALUE"),
    (["play", "--set", "four=sometimes"], "flag 'four' takes one of 'choice', 'random'"),
    (["play", "--set", "colour=red"], "unknown rule flag 'colour'; valid flags:"),
    (["play", "--position", "hands: 2C / 2C"], "card 2C is listed twice"),
    (["play", "--position", "nonsense"], "is neither a file nor position text"),
    (["play", "--position", "-"], "cannot read standard input"),
    (["play", "--position", "points: TH 9H 8H / -"], "the position is already over"),
])
def test_play_bad_options(monkeypatch, capsys, tmp_path, argv, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(monkeypatch, capsys, argv, "quit\n")
    assert code == 2
    assert "cuttle play: error: " in err and message in err
    assert "Traceback" not in err and out == ""
    assert os.listdir(tmp_path) == []


def test_play_argparse_errors(monkeypatch, capsys):
    code, _, err = run(monkeypatch, capsys, ["play", "--seat", "2"])
    assert code == 2 and "invalid choice" in err
    code, _, err = run(monkeypatch, capsys, ["play", "--seed", "-1"])
    assert code == 2 and "--seed" in err
    code, _, err = run(monkeypatch, capsys, [])
    assert code == 2


def test_a_record_path_that_is_a_folder_is_refused_before_the_game(monkeypatch, capsys,
                                                                    tmp_path):
    """Issue 21, item 15: it used to play the whole game, then fail to save it."""
    target = tmp_path / "a_folder"          # the folder is writable, the path is a folder
    target.mkdir()
    code, out, err = run(monkeypatch, capsys, ["play", "--record", str(target)], "quit\n")
    assert code == 2 and "--record" in err and "is a folder" in err
    assert "your move" not in out and list(target.iterdir()) == []


def test_a_record_that_cannot_be_saved_after_the_game(monkeypatch, capsys, tmp_path):
    def full_disk(record, path):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr("cuttle.cli.play.write_record", full_disk)
    code, _, err = run(monkeypatch, capsys, ["play", "--record", str(tmp_path / "r.json")],
                       "quit\n")
    assert code == 1 and "cannot save the game record" in err and "No space left" in err


# ---------------------------------------------------------------------------------------
# replay

def record(tmp_path, monkeypatch, capsys, stdin="1\n" * 6):
    path = tmp_path / "r.json"
    code, _, _ = run(monkeypatch, capsys, ["play", "--bot", "random", "--seed", "5",
                                           "--record", str(path)], stdin)
    assert code == 0
    return path, json.loads(path.read_text())


def test_replay_step(monkeypatch, capsys, tmp_path):
    path, rec = record(tmp_path, monkeypatch, capsys)
    code, out, _ = run(monkeypatch, capsys, ["replay", str(path), "--step"], "\n\n")
    assert code == 0
    assert out.count("[Enter] next move") == 3 and out.count("\nMove ") == 2
    assert "(replay stopped)" in out
    code, out, _ = run(monkeypatch, capsys, ["replay", str(path), "--step"], "\nq\n")
    assert code == 0 and out.count("\nMove ") == 1 and "(replay stopped)" in out
    code, out, _ = run(monkeypatch, capsys, ["replay", str(path), "--step"],
                       "\n" * (len(rec["moves"]) + 1))
    assert code == 0 and out.count("\nMove ") == len(rec["moves"])
    assert "Result: unfinished" in out


@pytest.mark.parametrize("change, message", [
    (lambda r: r.update(format="chess-pgn"), "not a cuttle game record"),
    (lambda r: r.update(version=99), "unsupported record version 99"),
    (lambda r: r.update(seed=-1), "'seed' must be an int from 0 to 2**64-1"),
    (lambda r: r.update(seed="x"), "'seed' must be an int from 0 to 2**64-1"),
    (lambda r: r.pop("seed"), "bad record: no 'seed'"),
    (lambda r: [r.pop("rules"), r.pop("moves")], "bad record: no 'rules', 'moves'"),
    (lambda r: r.update(moves="draw"), "'moves' must be a list of move texts"),
    (lambda r: r.update(rules={"preset": "chess"}), "unknown preset 'chess'"),
    (lambda r: r.update(rules={"preset": "classic", "changed": {"four": "x"}}), "flag 'four'"),
    (lambda r: r.update(rules=None), "rules must be an object"),
    (lambda r: r.update(players=["a"]), "'players' must be a list of two names"),
    (lambda r: r.update(position="hands: ZZ /"), "bad starting position: field 'hands'"),
    # a position's own rules or seed that the record's contradict: neither is dropped
    (lambda r: r.update(position="rules: cuttle.cards; hands: 2C / 3D"),
     "bad starting position: its rules (cuttle.cards) are not the rules chosen (classic)"),
    (lambda r: r.update(position=f"seed: {r['seed'] ^ 1}; hands: 2C / 3D"),
     "bad starting position: its seed"),
    # (the move is named once: "move 12 ('points KS') cannot be played: illegal move
    # 'points KS'" named it twice)
    (lambda r: r["moves"].append("points KS"), ": illegal move 'points KS': "),
    (lambda r: r["moves"].insert(1, "jump"), "move 2 ('jump') cannot be played"),
])
def test_replay_bad_records(monkeypatch, capsys, tmp_path, change, message):
    path, rec = record(tmp_path, monkeypatch, capsys)
    change(rec)
    path.write_text(json.dumps(rec))
    code, _, err = run(monkeypatch, capsys, ["replay", str(path)])
    assert code == 2 and "cuttle replay: error: " in err
    assert message in err and "Traceback" not in err
    assert err.count("points KS") <= 1, err


def test_replay_unreadable_files(monkeypatch, capsys, tmp_path):
    code, _, err = run(monkeypatch, capsys, ["replay", str(tmp_path / "missing.json")])
    assert code == 2 and "cannot read" in err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, _, err = run(monkeypatch, capsys, ["replay", str(bad)])
    assert code == 2 and "not valid JSON" in err
    bad.write_text("[1, 2]")
    code, _, err = run(monkeypatch, capsys, ["replay", str(bad)])
    assert code == 2 and "a game record is a JSON object" in err


def test_replay_result_mismatch(monkeypatch, capsys, tmp_path):
    path, rec = record(tmp_path, monkeypatch, capsys)
    rec["result"] = {"status": "over", "winner": 0, "end_reason": "goal", "text": "made up"}
    path.write_text(json.dumps(rec))
    for argv in (["replay", str(path)], ["replay", str(path), "--html",
                                          str(tmp_path / "r.html")],
                 ["review", str(path), "--engine", "rollouts:5", "--seed", "1"]):
        code, out, err = run(monkeypatch, capsys, argv)
        assert code == 1 and "warning: the record says 'player 0 wins (goal)'" in err \
            and "but its moves end 'unfinished'" in err, argv
    assert "accuracy" in out            # (the review is still printed)


def test_a_record_of_a_capped_game_replays_without_a_warning(monkeypatch, capsys, tmp_path):
    # A record does not keep the cap (no rule): its moves stop where the cap fell.
    g = cuttle.Game(seed=1, max_moves=5)
    for _ in range(5):
        g.play("draw")
    path = tmp_path / "cap.json"
    write_record(make_record(g, players=["a", "b"]), path)
    assert json.loads(path.read_text())["result"]["end_reason"] == "move_cap"
    for argv in (["replay", str(path)], ["review", str(path), "--engine", "rollouts:5"]):
        code, out, err = run(monkeypatch, capsys, argv)
        assert code == 0 and "warning" not in err, (argv, err)
    assert "Result: draw (move_cap)" in run(monkeypatch, capsys, ["replay", str(path)])[1]
    assert game_from_record(read_record(path)).end_reason == "move_cap"


# ---------------------------------------------------------------------------------------
# analyse

POS = "hands: 2C 7H 9S / 4S 5D; points: 9D / TC; to_move: 0"


def test_analyse_table(monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys,
                         ["analyse", POS, "--rollouts", "300", "--seed", "1", "--threads", "2"])
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Player 0 to decide (main); random playouts")
    assert "win rate" in lines[1] and "95% interval" in lines[1]
    g = cuttle.Game.from_position(hands=(["2C", "7H", "9S"], ["4S", "5D"]),
                                  points=(["9D"], ["TC"]), seed=1)
    assert len(lines) == 2 + len(g.legal_moves) + 2
    assert lines[-1].startswith("Best: ")
    assert "rollouts in" in lines[-2]
    # the same seed gives the same table (the time aside)
    code, out2, _ = run(monkeypatch, capsys,
                        ["analyse", POS, "--rollouts", "300", "--seed", "1", "--threads", "1"])
    assert out2.splitlines()[:-2] == lines[:-2]


def test_analyse_json_options_and_stdin(monkeypatch, capsys, tmp_path):
    code, out, err = run(monkeypatch, capsys,
                         ["analyse", "-", "--rollouts", "1e2", "--seed", "3", "--json",
                          "--player", "1", "--policy", "greedy", "--adaptive",
                          "--rules", "cuttle.cards", "--set", "four=random"], POS)
    assert code == 0, err
    d = json.loads(out)
    assert d["player"] == 1 and d["policy"] == "greedy" and d["adaptive"] is True
    assert d["seed"] == 3 and d["phase"] == "main"
    assert d["rules"] == {"preset": "cuttle.cards", "changed": {"four": "random"}}
    assert d["best"] == d["moves"][0]["move"]
    assert {m["move"] for m in d["moves"]} >= {"draw", "points 4S", "points 5D"}
    assert "to_move: 1" in d["position"]
    assert max(m["rollouts"] for m in d["moves"]) == 100
    # every playout policy of the API, expert too
    code, out, err = run(monkeypatch, capsys,
                         ["analyse", POS, "--rollouts", "20", "--seed", "3", "--json",
                          "--policy", "expert"])
    assert code == 0, err
    assert json.loads(out)["policy"] == "expert"
    # a file; the position's own rules with --set on top
    f = tmp_path / "pos.txt"
    f.write_text("rules: quick\n" + POS.replace("; ", "\n"))
    code, out, err = run(monkeypatch, capsys,
                         ["analyse", str(f), "--rollouts", "50", "--json", "--set",
                          "hand_limit=8"])
    assert code == 0, err
    assert json.loads(out)["rules"] == {"preset": "quick", "changed": {"hand_limit": 8}}


@pytest.mark.parametrize("argv, message", [
    (["analyse", "hands: 2C / 2C"], "card 2C is listed twice"),
    (["analyse", "hands: 2C"], "field 'hands' lists both players' cards"),
    (["analyse", "no-such-file.txt"], "is neither a file nor position text"),
    (["analyse", POS, "--rules", "chess"], "unknown preset 'chess'"),
    (["analyse", POS, "--set", "four=sometimes"], "flag 'four' takes one of"),
    (["analyse", "points: TH 9H 8H / -"], "the position is already over"),
    (["analyse", "rules: classic; points: TH 9H 8H / TC 9C 8C"], "invalid position: both"),
])
def test_analyse_errors(monkeypatch, capsys, argv, message):
    code, out, err = run(monkeypatch, capsys, argv + ["--rollouts", "10"])
    assert code == 2 and out == ""
    assert "cuttle analyse: error: " in err and message in err
    assert "Traceback" not in err


def test_a_bad_position_file_is_named(monkeypatch, capsys, tmp_path):
    """Position text read from a file (or stdin) that is wrong: the error says which
    file; it said only "invalid position: ..."."""
    f = tmp_path / "pos.txt"
    f.write_text("hands: 2C / 2C\n")
    for argv in (["analyse", str(f)], ["play", "--position", str(f)]):
        code, out, err = run(monkeypatch, capsys, argv)
        assert code == 2 and f"error: {f}: invalid position: card 2C is listed twice" in err
    code, out, err = run(monkeypatch, capsys, ["analyse", "-"], stdin="hands: 2C / 2C")
    assert code == 2 and "error: stdin: invalid position: card 2C is listed twice" in err
    f.write_text("not a position")
    code, out, err = run(monkeypatch, capsys, ["analyse", str(f)])
    assert code == 2 and f"error: {f}: invalid position: expected 'field: value'" in err
    # text given as the argument is no file: said as before
    code, out, err = run(monkeypatch, capsys, ["analyse", "hands: 2C / 2C"])
    assert code == 2 and "error: invalid position: card 2C is listed twice" in err


@pytest.mark.parametrize("kind, says", [("folder", "it is a folder"),
                                        ("device", "it is a character device"),
                                        ("fifo", "it is a FIFO"),
                                        ("dangling link", "cannot read")])
def test_a_position_path_that_is_no_file_says_what_it_is(monkeypatch, capsys, tmp_path,
                                                       kind, says):
    """A folder, a device or a FIFO given as the position: refused saying what it is, as
    `cuttle replay` says it of a record; it said "'/tmp' is neither a file nor position
    text"."""
    path = {"folder": str(tmp_path), "device": os.devnull,
            "fifo": str(tmp_path / "pipe"), "dangling link": str(tmp_path / "link")}[kind]
    if kind == "fifo":
        os.mkfifo(path)         # (read without waiting for a writer)
    elif kind == "dangling link":
        os.symlink(tmp_path / "gone", path)
    for argv in (["analyse", path, "--rollouts", "10"], ["play", "--position", path]):
        code, out, err = run(monkeypatch, capsys, argv, "quit\n")
        assert code == 2 and out == ""
        assert f"error: {path}: {says}" in err or f"error: cannot read {path!r}" in err, err
        assert "neither a file nor position text" not in err and "Traceback" not in err
        if kind != "dangling link":
            assert err.rstrip().endswith(", not a position text file"), err


def test_analyse_argparse_errors(monkeypatch, capsys):
    for argv in (["analyse", POS, "--policy", "ismcts"], ["analyse", POS, "--rollouts", "0"],
                 ["analyse", POS, "--player", "3"], ["analyse", POS, "--threads", "5000"],
                 ["analyse"]):
        code, _, err = run(monkeypatch, capsys, argv)
        assert code == 2 and err


# ---------------------------------------------------------------------------------------
# wiring

def test_the_parser_wires_play_replay_and_analyse():
    from cuttle.cli import analyse, build_parser, play, replay
    parser = build_parser()
    args = parser.parse_args(["play", "--bot", "ismcts:10", "--set", "four=random"])
    assert args.bot == "ismcts:10" and args.set == ["four=random"] and args.seat == 0
    assert args.func is play.run
    assert parser.parse_args(["replay", "f.json", "--step"]).func is replay.run
    args = parser.parse_args(["analyze", "-", "--json"])
    assert args.func is analyse.run and args.json


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_play_through_a_pipe(tmp_path):
    rec = tmp_path / "pipe.json"
    p = subprocess.run([sys.executable, "-m", "cuttle", "play", "--bot", "random",
                        "--seed", "11", "--record", str(rec)],
                       input=script("hint 10", "undo"), capture_output=True, text=True,
                       env=_env(), cwd=tmp_path, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "Game over:" in p.stdout and f"Game record saved to {rec}" in p.stdout
    assert game_from_record(read_record(rec)).is_over


def test_the_cuttle_command_registers_play_replay_and_analyse():
    from cuttle import cli
    parser = cli.build_parser()
    choices = parser._subparsers._group_actions[0].choices
    assert {"play", "replay", "analyse", "analyze"} <= set(choices)


def test_an_unwritable_record_path_is_refused_before_the_game(monkeypatch, capsys, tmp_path):
    code, out, err = run(monkeypatch, capsys,
                         ["play", "--seed", "1", "--record", str(tmp_path / "no" / "g.json")],
                         stdin="1\n")
    assert code == 2 and "no folder" in err and "your move" not in out


def test_a_later_game_of_a_session_never_replaces_the_position_file(monkeypatch, capsys,
                                                                    tmp_path):
    # The second game's record is p-2.txt: the --position file here.
    pos = tmp_path / "p-2.txt"
    pos.write_text("rules: quick; hands: 7H / 4S; points: 9D / TC; to_move: 0\n")
    before = pos.read_bytes()
    code, out, err = run(monkeypatch, capsys,
                         ["play", "--position", str(pos), "--record", str(tmp_path / "p.txt")],
                         "points 7H\nagain\npoints 7H\nagain\nquit\nquit\n")
    assert code == 2 and "the file given as --position" in err, err
    assert pos.read_bytes() == before and (tmp_path / "p.txt").exists()


def test_an_illegal_move_is_explained_to_you_in_the_second_person(monkeypatch, capsys):
    # "KS is not in player 0's hand": the engine's words for a seat, not for the person
    # at it (the game page already said "your hand")
    assert "KS" not in map(str, cuttle.Game(seed=7).hand(0))
    code, out, err = run(monkeypatch, capsys, ["play", "--bot", "random", "--seed", "7"],
                         "points KS\nquit\n")
    assert code == 0, err
    assert "Not legal now: illegal move 'points KS': KS is not in your hand" in out
    assert "player 0's hand" not in out


# --------------------------------------------------------------------------- --rules, --set

SET_CONTRADICTS = ("--set 'joker=false' and {where} 'classic:joker=true' both set joker: "
                   "--set would replace its value there without a word; drop one")


@pytest.mark.parametrize("argv, where", [
    (["simulate", "--rules", "classic:joker=true", "-n", "100"], "--rules"),
    (["simulate", "--rules", "classic:joker=true", "--seed", "1", "--record-game", "0"],
     "--rules"),
    (["compare", "--rules", "classic:joker=true", "--vary", "four=choice,random", "-n", "100"],
     "--rules"),
    (["compare", "classic:joker=true", "classic", "-n", "100"], "the rule set"),
    (["rules", "classic:joker=true"], "the rules"),
    (["play", "--rules", "classic:joker=true"], "--rules"),
    (["play", "--rules", "classic:joker=true", "--position", POS], "--rules"),
    (["analyse", POS, "--rules", "classic:joker=true", "--rollouts", "10"], "--rules"),
])
def test_a_set_that_contradicts_the_rule_text_is_refused_alike_everywhere(
        monkeypatch, capsys, tmp_path, argv, where):
    """--set giving a flag another value than the rule text gives it: compare refused
    it, while simulate, rules, play and analyse played --set's value without a word."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(monkeypatch, capsys, argv + ["--set", "joker=false"], "quit\n")
    assert code == 2 and out == "", err
    assert SET_CONTRADICTS.format(where=where) in err and "Traceback" not in err
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("argv", [
    ["rules", "classic:joker=true", "--set", "joker=yes"],     # the same value
    ["rules", "classic:joker=true", "--set", "four=random"],   # another flag
    ["rules", "cuttle.cards", "--set", "four=random"],         # a preset's value
])
def test_a_set_that_agrees_with_the_rule_text_is_taken(monkeypatch, capsys, argv):
    code, out, err = run(monkeypatch, capsys, argv)
    assert code == 0, err
    assert out.splitlines()[0] == str(cuttle.Rules.parse(argv[1], [argv[3]]))


def test_a_preset_s_own_value_written_in_the_text_is_the_text_s(monkeypatch, capsys):
    # (classic's joker is false: --set joker=true replaced what the text wrote)
    code, out, err = run(monkeypatch, capsys, ["rules", "classic:joker=false", "--set",
                                               "joker=true"])
    assert code == 2 and "--set 'joker=true' and the rules 'classic:joker=false' both set " \
                         "joker" in err


POS_QUICK = "rules: quick; " + POS


@pytest.mark.parametrize("command", [["analyse", "{}", "--rollouts", "10"],
                                     ["play", "--position", "{}"]])
def test_rules_that_contradict_the_position_s_own_are_refused(monkeypatch, capsys,
                                                               tmp_path, command):
    """--rules against a position's own rules field: refused as the web app and a
    record's position refuse it (`cuttle.position.reconcile`); it played --rules."""
    f = tmp_path / "pos.txt"
    f.write_text(POS_QUICK)
    for position, source in ((POS_QUICK, "the position"), (str(f), str(f))):
        argv = [a.format(position) for a in command] + ["--rules", "classic"]
        code, out, err = run(monkeypatch, capsys, argv, "quit\n")
        assert code == 2 and out == "", err
        assert (f"error: {source}: its rules (quick) are not the rules chosen (classic): "
                f"choose its rules, or take the rules field out of the position") in err


POS_SEEDED = "seed: 5; " + POS


def test_a_seed_that_contradicts_the_position_s_own_is_refused_by_play(monkeypatch, capsys):
    """cuttle play's --seed (of the deal and the bot) against a position's own seed
    field: refused as --rules is (and as the web app and a record's position refuse it);
    it dealt the position from --seed."""
    code, out, err = run(monkeypatch, capsys, ["play", "--position", POS_SEEDED, "--seed",
                                               "7"], "quit\n")
    assert code == 2 and out == "", err
    assert ("error: the position: its seed (5) is not the seed given (7): give no seed, "
            "or take the seed field out of the position") in err
    for extra in (["--seed", "5"], []):          # its own, or none
        code, out, err = run(monkeypatch, capsys,
                             ["play", "--position", POS_SEEDED] + extra, "quit\n")
        assert code == 0 and "seed 5." in out, err


def test_analyse_deals_a_position_by_its_own_seed_and_plays_out_by_its_seed(monkeypatch,
                                                                           capsys):
    """cuttle analyse's --seed seeds the analysis; a position's own seed field deals it
    (--seed dealt it instead, changing the position without a word)."""
    def analysed(position, *seed):
        code, out, err = run(monkeypatch, capsys, ["analyse", position, "--rollouts", "10",
                                                   "--json", *seed])
        assert code == 0, err
        return json.loads(out)
    own = cuttle.Game.from_text(POS_SEEDED).position_text()
    for seed in ("7", "8"):
        got = analysed(POS_SEEDED, "--seed", seed)
        assert got["position"] == own and got["seed"] == int(seed)
    # without a seed field, --seed deals it too (as documented)
    assert analysed(POS, "--seed", "7")["position"] == \
        cuttle.Game.from_text("seed: 7; " + POS).position_text()


@pytest.mark.parametrize("rules, sets, want", [
    ("quick", [], "quick"),                                  # its own, repeated
    ("classic: king_goals=15,14,10,7,5", [], "classic: king_goals=(15,14,10,7,5)"),
    ("quick", ["hand_limit=8"], "quick: hand_limit=8"),      # --set on top
    (None, ["hand_limit=8"], "quick: hand_limit=8"),         # (as before)
    (None, ["king_goals=21,14,10,7,5"], "quick: king_goals=(21,14,10,7,5)"),
])
def test_rules_that_repeat_the_position_s_own_are_taken(monkeypatch, capsys, rules, sets,
                                                        want):
    argv = ["analyse", POS_QUICK, "--rollouts", "10", "--json"]
    argv += [] if rules is None else ["--rules", rules]
    for item in sets:
        argv += ["--set", item]
    code, out, err = run(monkeypatch, capsys, argv)
    assert code == 0, err
    assert cuttle.Rules.from_json(json.loads(out)["rules"]) == cuttle.Rules.parse(want)
    # a position without a rules field plays --rules
    code, out, err = run(monkeypatch, capsys, ["analyse", POS, "--rollouts", "10", "--json",
                                               "--rules", "quick"])
    assert code == 0 and json.loads(out)["rules"] == {"preset": "quick", "changed": {}}


def test_no_hint_reads_your_hand_where_the_seed_dealt_it_for_cards_not_seen(
        monkeypatch, capsys, tmp_path):
    # Your own hand's '?' are the seed's cards: a hint from them would analyse the seed's
    # deal, and is refused as every analysis refuses it; the game plays on.
    pos = "hands: ? ? ? / 4H 8D 9C; seed: 11"
    code, out, err = run(monkeypatch, capsys, ["play", "--position", pos, "--record",
                                               str(tmp_path / "g.json"), "--hint-rollouts",
                                               "3"], "hint\nquit\n")
    assert code == 0, err
    assert ("No hint: player 0 is to decide in this position, which does not give their "
            "view whole: in the position player 0 sees 3 cards that the position does not "
            "give (in their own hand)") in out
    assert "Hint: " not in out
    # the other's hand not seen: your hint reads only what you see
    pos = "hands: 2C 9H 4D / ? ? ?; seed: 11"
    code, out, err = run(monkeypatch, capsys, ["play", "--position", pos, "--record",
                                               str(tmp_path / "h.json"), "--hint-rollouts",
                                               "3"], "hint\nquit\n")
    assert code == 0, err
    assert "Hint: " in out and "No hint" not in out


def test_a_position_marks_the_seeds_cards_only_where_you_see_them(monkeypatch, capsys,
                                                                  tmp_path):
    # your hand's '?' are the seed's cards: shown to you marked, under the note
    note = f"The cards marked {DEALT_MARK} {DEALT_NOTE}."
    pos = "hands: ? ? ? / 4H 8D 9C; seed: 11"
    code, out, err = run(monkeypatch, capsys, ["play", "--position", pos, "--record",
                                               str(tmp_path / "g.json")], "quit\n")
    assert code == 0, err
    assert out.count(note) == 1
    mine = cuttle.Game.from_text(pos).hand(0)
    assert f"hand: {' '.join(c + DEALT_MARK for c in mine)}\n" in out
    # the other's hand '?': hidden from you as before, nothing of it shown nor marked
    pos = "hands: 2C 9H 4D / ? ? ?; seed: 11"
    code, out, err = run(monkeypatch, capsys, ["play", "--position", pos, "--record",
                                               str(tmp_path / "h.json")], "quit\n")
    assert code == 0, err
    assert "hand: 3 cards (hidden)\n" in out and "hand: 2C 4D 9H\n" in out
    assert not re.search(r"\w\w\*", out)
