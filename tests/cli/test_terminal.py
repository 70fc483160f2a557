"""`cuttle play` as a person meets it: in a real pseudo-terminal (line editing and
history through readline), forced moves played at once, no record for an empty game."""

import io
import os
import sys
import time

import pytest

import cuttle
from cuttle.cli import main
from cuttle.record import read_record

pexpect = pytest.importorskip("pexpect")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Player 1 (the bot, seeded so that it plays its Joker rather than pass) holds only the
# Joker, whose one-off player 0 cannot counter (no 2): the counter window's lone
# 'resolve' is a forced move.
FORCED = ("rules: classic joker=true; hands: 7H 8C / JK; points: - / TC; deck: -; "
          "to_move: 1; rest: scrap")


def run(monkeypatch, capsys, argv, stdin):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_forced_moves_are_played_at_once_unless_no_auto(monkeypatch, capsys, tmp_path):
    args = ["play", "--bot", "random", "--seed", "1", "--position", FORCED,
            "--record", str(tmp_path / "r.json")]
    code, out, _ = run(monkeypatch, capsys, args, "quit\n")
    assert code == 0 and "P1 (random) plays: oneoff JK" in out
    assert "You play: resolve (the only legal move)" in out
    code, out, _ = run(monkeypatch, capsys, args + ["--no-auto"], "quit\n")
    assert code == 0 and "P1 (random) plays: oneoff JK" in out
    assert "(the only legal move)" not in out and "  1. resolve" in out


def test_quitting_before_any_move_leaves_no_record(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(monkeypatch, capsys, ["play", "--seed", "1"], "quit\n")
    assert code == 0 and "no game record saved" in out and os.listdir(tmp_path) == []


def spawn(*args):
    env = dict(os.environ, PYTHONPATH=ROOT, TERM="xterm", COLUMNS="100")
    child = pexpect.spawn(sys.executable, ["-m", "cuttle", "play", *args], env=env,
                          encoding="utf-8", timeout=30, dimensions=(50, 100))
    return child


def test_line_editing_and_history_in_a_real_terminal(tmp_path):
    child = spawn("--bot", "random", "--seed", "1", "--record", str(tmp_path / "g.json"))
    child.expect("your move> ")
    # type 'drw', move the cursor left once, insert 'a': readline makes it 'draw'
    child.send("drw\x1b[Da\r")
    child.expect("You play: draw")
    child.expect("your move> ")
    child.send("undo\r")
    child.expect("Took back")
    child.expect("your move> ")
    # the up arrow brings back the previous line ('undo'), then the one before ('draw')
    child.send("\x1b[A\x1b[A\r")
    child.expect("You play: draw")
    child.expect("your move> ")
    child.send("quit\r")
    child.expect("Game record saved")
    child.expect(pexpect.EOF)


def test_seat_one_sees_its_hand_at_the_bottom_in_a_terminal(tmp_path):
    child = spawn("--bot", "greedy", "--seed", "3", "--seat", "1",
                  "--record", str(tmp_path / "g.json"))
    child.expect("your move> ")
    table = child.before[child.before.rindex("Turn "):]
    assert table.index("P0 score") < table.index("P1 score")      # the human's side last
    bot_side, own_side = table[table.index("P0 score"):].split("P1 score")
    assert "cards (hidden)" in bot_side and "(hidden)" not in own_side.split("Your legal")[0]
    child.send("quit\r")
    child.expect(pexpect.EOF)


def test_a_bare_card_offers_its_moves_or_plays_its_only_one(monkeypatch, capsys, tmp_path):
    # Seed 1: player 0 holds 3H 3S 7H TC QC; 7H has two moves, QC one (royal QC).
    args = ["play", "--bot", "random", "--seed", "1", "--record", str(tmp_path / "r.json")]
    code, out, _ = run(monkeypatch, capsys, args, "7h\nAS\nQC\nquit\n")
    assert code == 0 and "unknown move verb" not in out
    offer = out[out.index("7H can be played as:"):].splitlines()[:4]
    assert offer == ["7H can be played as:", "    6. points 7H", "    7. oneoff 7H",
                     "Type the move or its number."]
    assert "AS has no legal move now (it is not in your hand)." in out
    assert "You play: royal QC" in out
    game = cuttle.Game(seed=1)
    assert [str(m) for m in game.legal_moves][5:7] == ["points 7H", "oneoff 7H"]


# Player 1 (the random bot, seeded so that it plays its 4) makes player 0, who holds no 2,
# discard two of 3C 7D 9H in one move: discard 3C 7D, discard 3C 9H or discard 7D 9H.
FOUR = "hands: 3C 7D 9H / 4H; points: - / TC; deck: -; to_move: 1; rest: scrap"


def test_a_bare_card_offers_every_discard_pair_it_is_in(monkeypatch, capsys, tmp_path):
    # A 4's victim discards two cards in one move: a card alone stands for every pair
    # it belongs to, as the second card of the pair too; it is never played at once
    # while another pair holds it.
    args = ["play", "--bot", "random", "--seed", "1", "--position", FOUR,
            "--record", str(tmp_path / "r.json")]
    code, out, _ = run(monkeypatch, capsys, args, "9h\n7D\nquit\n")
    assert code == 0 and "P1 (random) plays: oneoff 4H" in out
    assert "has no legal move" not in out
    assert out.count("You play") == 1 and "You play: resolve (the only legal move)" in out
    offer = out[out.index("9H can be played as:"):].splitlines()[:4]
    assert offer == ["9H can be played as:", "    2. discard 3C 9H", "    3. discard 7D 9H",
                     "Type the move or its number."]
    offer = out[out.index("7D can be played as:"):].splitlines()[:4]
    assert offer == ["7D can be played as:", "    1. discard 3C 7D", "    3. discard 7D 9H",
                     "Type the move or its number."]
    assert read_record(tmp_path / "r.json")["moves"] == ["oneoff 4H", "resolve"]


def test_a_thinking_bot_is_shown_in_a_terminal_and_erased(tmp_path):
    child = spawn("--bot", "greedy", "--seed", "1", "--record", str(tmp_path / "g.json"))
    child.expect("your move> ")
    child.send("draw\r")
    child.expect("You play: draw")
    # the note, then a carriage return and erase-to-end-of-line before the bot's move
    child.expect_exact("P1 (greedy) is thinking...\r\x1b[KP1 (greedy) plays: ")
    child.expect("your move> ")
    child.send("quit\r")
    child.expect(pexpect.EOF)


def test_no_thinking_note_through_a_pipe(monkeypatch, capsys, tmp_path):
    args = ["play", "--bot", "greedy", "--seed", "1", "--record", str(tmp_path / "r.json")]
    code, out, _ = run(monkeypatch, capsys, args, "draw\nquit\n")
    assert code == 0 and "P1 (greedy) plays: " in out and "is thinking" not in out


def test_ctrl_c_during_a_hint_stops_the_hint_not_the_game(tmp_path):
    child = spawn("--bot", "random", "--seed", "1", "--record", str(tmp_path / "g.json"))
    child.expect("your move> ")
    child.send("hint 10000000\r")
    time.sleep(1.5)                      # (well into the hint's rollouts)
    child.sendintr()
    child.expect(r"\(hint stopped: interrupted after [\d,]+ of [\d,]+ rollouts\)")
    child.expect(r"Hint: ")
    child.expect("your move> ")          # the game goes on
    child.send("draw\r")
    child.expect("You play: draw")
    child.expect("your move> ")
    child.send("quit\r")
    child.expect("Game record saved")
    child.expect(pexpect.EOF)
