"""A Python bot's file as a player of the command line, FILE.py:FUNCTION (`--players` of
simulate and compare, compare's `--opponent`, `--record-game`), loaded by
`cuttle.policy_files.load_policy` (bench_strength's --bot too), and `cuttle compare
--opponent B --players C1,C2,...`: players compared on the same deals and seats."""

import json
import os
import sys

import pytest

import cuttle
from cuttle.policy_files import FilePolicy, is_policy_file, load_policy
from cuttle.record import final_game, read_record
from support.helpers import run_cli

BOT = '''
import dataclasses
import helper                       # (a module beside the bot)


@dataclasses.dataclass
class Chooser:                      # (dataclasses look their module up as it loads)
    skip: int = 0


def first(game):
    return helper.first(game.legal_moves)


def lucky(game, rng):
    return rng.choice(list(game.legal_moves))


NOT_A_POLICY = 3
'''

BUGGY = '''
def _worse(moves):
    return moves[0] + 1             # (a bug of the bot's own: a Move plus an int)


def buggy(game, rng):
    if game.ply < 6:
        return rng.choice(list(game.legal_moves))
    return _worse(game.legal_moves)
'''


@pytest.fixture
def bot_dir(tmp_path):
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "mybot.py").write_text(BOT)
    (tmp_path / "bots" / "helper.py").write_text("def first(moves):\n    return moves[0]\n")
    (tmp_path / "bots" / "broken.py").write_text("import no_such_module_here\n")
    (tmp_path / "bots" / "buggy.py").write_text(BUGGY)
    (tmp_path / "bots" / "three.py").write_text("def f(game, rng, extra):\n    pass\n")
    return tmp_path


def test_a_file_s_policy_is_loaded_with_its_folder_on_the_path(bot_dir, monkeypatch):
    monkeypatch.chdir(bot_dir)
    path = list(sys.path)
    policy = load_policy("bots/mybot.py:lucky")
    assert isinstance(policy, FilePolicy) and policy.__name__ == "bots/mybot.py:lucky"
    assert (policy.path, policy.function) == ("bots/mybot.py", "lucky")
    assert sys.path == path and "helper" in sys.modules       # (the path as it was)
    first = load_policy(" bots/mybot.py : first ")            # (either form, as (game, rng))
    g = cuttle.Game(seed=3)
    assert first(g, None) == g.legal_moves[0]
    res = cuttle.simulate(30, players=(policy, "greedy"), seed=2, keep_games=True)
    again = cuttle.simulate(30, players=(load_policy("bots/mybot.py:lucky"), "greedy"),
                            seed=2, keep_games=True)
    assert (res.moves == again.moves).all() and res.players == ("bots/mybot.py:lucky",
                                                                "greedy")


@pytest.mark.parametrize("spec, says", [
    ("bots/nofile.py:f", "bots/nofile.py:f: no file 'bots/nofile.py'"),
    ("bots:f", "a policy in a Python file is named FILE.py:FUNCTION"),
    ("bots/mybot.py", "a policy in a Python file is named FILE.py:FUNCTION"),
    ("bots/mybot.py:", "a policy in a Python file is named FILE.py:FUNCTION"),
    ("bots/mybot.py:nope", "no function 'nope' in bots/mybot.py (it defines Chooser, "
                           "first, lucky)"),
    ("bots/mybot.py:NOT_A_POLICY", "'NOT_A_POLICY' in bots/mybot.py is not a function but "
                                   "3 (of type int)"),
    ("bots/broken.py:f", "loading bots/broken.py raised ModuleNotFoundError: No module "
                         "named 'no_such_module_here'"),
    ("bots/three.py:f", "bots/three.py:f must be a callable policy(game) -> move or "
                        "policy(game, rng) -> move"),
])
def test_a_bad_spec_is_a_clear_error(bot_dir, monkeypatch, spec, says):
    monkeypatch.chdir(bot_dir)
    path = list(sys.path)
    with pytest.raises(ValueError) as info:
        load_policy(spec)
    assert says in str(info.value)
    assert sys.path == path
    assert is_policy_file(spec) == (spec != "bots:f")


def test_simulate_plays_a_bot_file_and_records_its_game(bot_dir, monkeypatch, capsys):
    monkeypatch.chdir(bot_dir)
    code, out, err = run_cli(monkeypatch, capsys, ["simulate", "--players",
                                                   "bots/mybot.py:lucky,greedy", "-n", "40",
                                                   "--seed", "5", "--json", "-"])
    assert code == 0, err
    data = json.loads(out)
    assert data["players"] == {"A": "bots/mybot.py:lucky", "B": "greedy"}
    same = cuttle.simulate(40, players=(load_policy("bots/mybot.py:lucky"), "greedy"),
                           seed=5)
    assert data["n_games"] == 40
    assert data["win_rate"]["A"] == same.summary().as_dict()["win_rate"]["A"]
    code, out, err = run_cli(monkeypatch, capsys, [
        "simulate", "--players", "bots/mybot.py:lucky,greedy", "--seed", "5",
        "--record-game", "7", "--record", "g7.json"])
    assert code == 0, err
    rec = read_record(bot_dir / "g7.json")
    assert rec["simulation"]["players"] == ["bots/mybot.py:lucky", "greedy"]
    assert final_game(rec).is_over and "game 7 of seed 5: " in out


# (a bad player is one line; a player missing, or given with an option it does not go
# with, is the command line's shape: a second line points at the help)
@pytest.mark.parametrize("argv, says, shape", [
    (["simulate", "--players", "bots/mybot.py:nope,greedy"],
     "--players: bots/mybot.py:nope: no function 'nope' in bots/mybot.py", False),
    (["compare", "--opponent", "bots/nofile.py:f", "--players", "random,greedy"],
     "--opponent: bots/nofile.py:f: no file 'bots/nofile.py'", False),
    (["compare", "--opponent", "greedy"], "--opponent B compares the players of --players",
     True),
    (["compare", "--players", "random,greedy,expert"],
     "to compare these players, each against the same opponent, name it with --opponent "
     "(e.g. --opponent greedy --players random,greedy,expert)", False),
    (["compare", "--opponent", "greedy", "--players", "random"],
     "--players takes the players to compare, at least two", False),
    (["compare", "classic", "quick", "--opponent", "greedy", "--players", "random,greedy"],
     "--opponent compares players under one rule set, not 2 ('classic', 'quick')", True),
    (["compare", "--vary", "four=choice,random", "--opponent", "greedy", "--players",
      "random,greedy"], "--vary compares rule sets; --opponent compares the players", True),
    (["play", "--bot", "bots/mybot.py:first"],
     "--bot takes a policy name, not a Python file's policy", False),
])
def test_the_command_line_refuses_a_bad_player_before_any_game(bot_dir, monkeypatch,
                                                               capsys, argv, says, shape):
    monkeypatch.chdir(bot_dir)
    code, out, err = run_cli(monkeypatch, capsys, argv + ["-n", "10"] if argv[0] != "play"
                             else argv)
    prog = f"cuttle {argv[0]}"
    lines = err.splitlines()
    assert (code, out) == (2, "") and lines[0].startswith(f"{prog}: error: ")
    assert says in lines[0]
    assert lines[1:] == ([f"({prog} --help lists its options)"] if shape else []), err


def test_compare_players_on_the_command_line(bot_dir, monkeypatch, capsys):
    monkeypatch.chdir(bot_dir)
    argv = ["compare", "cuttle.cards", "--opponent", "greedy", "--players",
            "bots/mybot.py:first,bots/mybot.py:lucky,bots/mybot.py:lucky", "-n", "60",
            "--seed", "2"]
    code, out, err = run_cli(monkeypatch, capsys, argv)
    assert code == 0, err
    assert out.startswith("cuttle comparison: 3 players against greedy, 60 games each, "
                          "the same deals and seats (seed 2)\nrules: cuttle.cards; ")
    assert "  [1] bots/mybot.py:first  (baseline)\n  [2] bots/mybot.py:lucky\n" in out
    code, out, err = run_cli(monkeypatch, capsys, argv + ["--json", "-"])
    data = json.loads(out)
    lib = cuttle.compare_players([load_policy("bots/mybot.py:first"),
                                  load_policy("bots/mybot.py:lucky"),
                                  load_policy("bots/mybot.py:lucky")], 60, "greedy",
                                 "cuttle.cards", seed=2)
    assert data["compared"] == "players" and len(data["candidates"]) == 3
    for i in (1, 2):
        got = data["candidates"][i]["difference_vs_baseline"]["score_A"]
        want = lib.difference("score_A", i)
        assert (got["value"], got["low"], got["high"]) == pytest.approx(tuple(want))
    assert data["candidates"][2]["summary"] == data["candidates"][1]["summary"]
    assert os.getcwd() == str(bot_dir)


def test_a_bot_that_raises_is_one_error_line_under_its_own_frames(bot_dir, monkeypatch,
                                                                  capsys):
    """The command says what the bot raised, where, in one last line, under the frames
    of the bot's file only (cuttle's, which called it, help no one), and fails."""
    monkeypatch.chdir(bot_dir)
    code, out, err = run_cli(monkeypatch, capsys, [
        "simulate", "--players", "bots/buggy.py:buggy,greedy", "-n", "10", "--seed", "1"])
    lines = err.strip().splitlines()
    assert code == 1 and out == ""
    assert lines[-1].startswith("cuttle simulate: error: the policy of player A raised "
                                "TypeError in game 0, deciding move ")
    assert lines[0] == "Traceback of the policy (most recent call last):"
    files = [line for line in lines if line.lstrip().startswith("File ")]
    assert len(files) == 2 and all("buggy.py" in f for f in files)
    assert "in buggy" in files[0] and "in _worse" in files[1]
    assert "cuttle" + os.sep not in err.replace("cuttle simulate:", "")
