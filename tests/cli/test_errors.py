"""How the `cuttle` command says an error: bad input (an option's value, what a file or
text holds) in one line ``cuttle COMMAND: error: MESSAGE``; a command line of the wrong
shape (an unknown option, a missing argument, options that do not go together) in that
line and a second pointing at the command's --help.  Never argparse's usage block (up to
13 lines of options above the one that mattered), nothing on stdout, no file written,
status 2."""

import json
import os

import pytest

import cuttle.cli
from cuttle.rules import FLAGS, Rules
from support.helpers import hidden_cards_record, run_cli

ILLEGAL = "illegal move 'points 9H': 9H is not in player 0's hand"

# One bad value for each command (its parser's name, the message), with an output file
# where the command takes one: none may be written.
VALUE_ERRORS = {
    "simulate": (["-n", "x", "--json", "out.json"],
                 "argument -n/--games: expected a positive whole number, not 'x'"),
    "compare": (["classic", "nosuch", "--csv", "out.csv"],
                f"unknown preset 'nosuch'; valid presets: {', '.join(Rules.presets)}"),
    "rules": (["--set", "four=x"], "flag 'four' takes one of 'choice', 'random', 'draw', "
                                   "not 'x'"),
    "play": (["--position", "hands: 2C 2C / 3D; points: - / -", "--record", "out.json"],
             "invalid position: card 2C is listed twice (in the hand of player 0)"),
    "replay": (["empty.json", "--html", "out.html"],
               "empty.json: not a cuttle game record ('format' should be "
               "'cuttle-game-record')"),
    "analyse": (["--record", "illegal.json", "--move", "3"], f"illegal.json: move 3: {ILLEGAL}"),
    "analyze": (["2C / 3D", "--rollouts", "0"],
                "argument --rollouts: the count must be at least 1, not 0"),
    "atlas": (["--target", "200", "--json", "out.json"],
              "argument --target: a target half-width must be more than 0 and at most 10 "
              "percentage points, not '200'"),
    "balance": (["--quick", "--flags", "jokr", "--json", "out.json"],
                f"unknown rule flag 'jokr'; valid flags: {', '.join(FLAGS)}"),
    "serve": (["--port", "x"], "argument --port: invalid int value: 'x'"),
    "review": (["illegal.json", "--json", "out.json"], f"illegal.json: move 3: {ILLEGAL}"),
}

# Command lines of the wrong shape: (command, arguments, message).
SHAPE_ERRORS = [
    ("simulate", ["--record", "r.json"],
     "--record saves the game of --record-game K: give it too"),
    ("simulate", ["--progress", "--no-progress"],
     "argument --no-progress: not allowed with argument --progress"),
    ("compare", ["classic", "--json", "out.json"],
     "compare needs at least two rule sets: give them as arguments (e.g. classic "
     "classic:four=random) or with --vary FLAG=V1,V2"),
    ("rules", ["classic", "quick"], "unrecognized arguments: 'quick'"),
    ("play", ["--bot"], "argument --bot: expected one argument"),
    ("replay", [], "the following arguments are required: FILE"),
    ("replay", ["--step", "--html", "out.html", "illegal.json"],
     "--step and --html do not go together"),
    ("analyse", ["--move", "3"], "--move K names a move of a game record: give --record FILE"),
    ("analyze", [], "give a POSITION (text, a file, or - for stdin), or --record FILE --move K"),
    ("atlas", ["--report-only", "--json", "out.json"],
     "--report-only reads the tables from a results file: give --results FILE"),
    ("balance", ["--report-only"],
     "--report-only reads the tables from a results file: give --results FILE"),
    ("serve", ["--host"], "argument --host: expected one argument"),
    ("review", [], "the following arguments are required: RECORD"),
]

# Each command with the arguments it needs before an unknown option (argparse hands a
# sub-command's unknown options up to the top level, which named the wrong command).
COMMANDS = {"simulate": [], "compare": ["classic"], "rules": [], "play": [],
            "replay": ["game.json"], "analyse": ["position"], "analyze": ["position"],
            "atlas": [], "balance": [], "serve": [], "review": ["game.json"]}


def test_every_command_is_in_the_tables():
    commands = set(cuttle.cli._commands(cuttle.cli.build_parser()))
    assert set(COMMANDS) == set(VALUE_ERRORS) == {c for c, *_ in SHAPE_ERRORS} == commands


@pytest.fixture
def inputs(tmp_path, monkeypatch):
    """A folder to run in, holding a record whose move 3 is illegal and a JSON file that
    is no record: the names of the files it holds."""
    path, _ = hidden_cards_record(tmp_path, ["3C", "4C", "5C", "6C", "8C", "TC"],
                                  ["AS", "2S"], "illegal.json")
    record = json.loads(path.read_text())
    record["moves"][2] = "points 9H"
    path.write_text(json.dumps(record))
    (tmp_path / "empty.json").write_text("{}")
    monkeypatch.chdir(tmp_path)
    return sorted(os.listdir(tmp_path))


def _name(command):
    return "analyse" if command == "analyze" else command       # (an alias of analyse)


@pytest.mark.parametrize("command", VALUE_ERRORS)
def test_a_bad_value_is_one_line(monkeypatch, capsys, inputs, command):
    argv, message = VALUE_ERRORS[command]
    code, out, err = run_cli(monkeypatch, capsys, [command, *argv])
    assert (code, out, err) == (2, "", f"cuttle {_name(command)}: error: {message}\n")
    assert sorted(os.listdir()) == inputs


@pytest.mark.parametrize("command, argv, message", SHAPE_ERRORS)
def test_a_command_line_of_the_wrong_shape_is_two_lines(monkeypatch, capsys, inputs,
                                                        command, argv, message):
    code, out, err = run_cli(monkeypatch, capsys, [command, *argv])
    name = _name(command)
    assert (code, out) == (2, "")
    assert err == (f"cuttle {name}: error: {message}\n"
                   f"(cuttle {name} --help lists its options)\n")
    assert sorted(os.listdir()) == inputs


@pytest.mark.parametrize("command", COMMANDS)
def test_an_unknown_option_names_the_command_and_its_help(monkeypatch, capsys, inputs,
                                                          command):
    code, out, err = run_cli(monkeypatch, capsys,
                             [command, *COMMANDS[command], "--no-such-option"])
    name = _name(command)
    assert (code, out) == (2, "")
    assert err == (f"cuttle {name}: error: unrecognized arguments: '--no-such-option'\n"
                   f"(cuttle {name} --help lists its options)\n")
    assert sorted(os.listdir()) == inputs


@pytest.mark.parametrize("argv, message", [
    (["--no-such-option", "simulate"], "unrecognized arguments: '--no-such-option'"),
    (["simulat"], "argument COMMAND: invalid choice: 'simulat' (choose from "),
])
def test_a_command_line_of_the_wrong_shape_before_a_command_points_at_the_commands(
        monkeypatch, capsys, argv, message):
    code, out, err = run_cli(monkeypatch, capsys, argv)
    assert (code, out) == (2, "")
    line, hint = err.splitlines()      # (the choices are written as the Python writes them)
    assert line.startswith(f"cuttle: error: {message}") and "'simulat'" not in line[-80:]
    assert hint == "(cuttle --help lists its commands)"


def test_no_command_lists_the_commands(monkeypatch, capsys):
    code, out, err = run_cli(monkeypatch, capsys, [])
    assert (code, out) == (2, "") and err.startswith("usage: cuttle [-h] [--version] COMMAND")
    assert "\n    balance  " in err and "Run 'cuttle COMMAND --help'" in err


def test_help_still_shows_the_usage(monkeypatch, capsys):
    code, out, err = run_cli(monkeypatch, capsys, ["simulate", "--help"])
    assert (code, err) == (0, "") and out.startswith("usage: cuttle simulate [-h]")


def test_a_value_refused_is_one_line_wherever_it_is_checked(monkeypatch, capsys, inputs):
    # by argparse (a type, a choice), by a command's own check, by the library
    for argv, message in [
            (["simulate", "--match", "x"], "argument --match: invalid choice: 'x'"),
            (["simulate", "--players", "random,nosuch"], "--players: unknown policy"),
            (["compare", "classic", "quick", "--vary", "four=x"], "--vary: "),
            (["analyse", "hands: ZZ / 3D; points: - / -"], "invalid position: ")]:
        code, out, err = run_cli(monkeypatch, capsys, argv)
        assert (code, out) == (2, "") and len(err.splitlines()) == 1, err
        assert err.startswith(f"cuttle {argv[0]}: error: {message}"), err
    assert sorted(os.listdir()) == inputs
