"""Input of 100,000 characters at every entry point of the command line, the web app
and the review: the error says what was refused in a short message that gives its
length (`cuttle.text.quoted`), never the input whole."""

import argparse
import io
import re
import sys

import pytest
from hypothesis import given, strategies as st

import cuttle
from cuttle.cli import _commands, build_parser, main
from cuttle.record import make_record, write_record
from cuttle.text import printable, quoted

LONG = "x" * 100_000
SAID = re.compile(r"\([\d,]{5,} characters")     # "(100,000 characters" and the like
SHORT = 1000

# What each command needs besides the option tried, so that the option's value is what
# the command refuses.
BASE = {"compare": ["classic", "classic:joker=true"], "replay": ["{rec}"],
        "review": ["{rec}"], "analyse": ["hands: AS 2C / 3D; points: - / -"]}
# Options whose value is a file name (`printable` shows those, at most a path's length)
# or that first refuse to be given without another option.
NOT_QUOTED = {"--json", "--csv", "--games-csv", "--plot", "--html", "--record",
              "--results", "--markdown", "--engine@replay", "--rules@compare",
              "--set@compare", "--rules@analyse", "--set@analyse", "--opponent@compare"}


def record(tmp_path):
    g = cuttle.Game(seed=2)
    for _ in range(3):
        g.play(g.legal_moves[0])
    path = tmp_path / "game.json"
    write_record(make_record(g, players=["a", "b"], status="quit"), path)
    return path


def run(monkeypatch, capsys, argv, stdin="quit\n"):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:             # (argparse's own errors)
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def assert_short(code, text, codes=(1, 2)):
    assert code in codes, text[-500:]
    assert text.strip(), "nothing said"
    longest = max(text.splitlines(), key=len)
    assert len(longest) < SHORT, longest[:300]
    assert SAID.search(text), text[-500:]


def value_options():
    """(command, option) of every option that takes a value."""
    out = []
    for name, sub in _commands(build_parser()).items():
        if name == "analyze":           # (analyse's other name)
            continue
        for a in sub._actions:
            if a.option_strings and a.nargs != 0 and not isinstance(a, argparse._HelpAction):
                opt = a.option_strings[-1]
                if opt not in NOT_QUOTED and f"{opt}@{name}" not in NOT_QUOTED:
                    out.append((name, opt))
    return out


@pytest.mark.parametrize("command,option", value_options())
def test_every_option_quotes_long_input_briefly(monkeypatch, capsys, tmp_path, command,
                                                option):
    base = [a.format(rec=record(tmp_path)) for a in BASE.get(command, [])]
    code, out, err = run(monkeypatch, capsys, [command, *base, option, LONG])
    assert_short(code, out + err)


@pytest.mark.parametrize("argv", [
    [LONG],                                         # the command
    ["simulate", LONG],                             # an argument no command takes
    ["simulate", "-n", "5", "--players", "random," + LONG],
    ["simulate", "-n", "5", "--players", "a,b," + LONG],
    ["simulate", "-n", "5", "--players", "ismcts:" + LONG],
    ["simulate", "-n", "5", "--rules", "classic:" + LONG],
    ["simulate", "-n", "5", "--set", "four=" + LONG],
    ["compare", "classic", "-n", "5", "--vary", "four=choice," + LONG],
    ["compare", "classic", "classic:joker=true", "-n", "5", "--vary", LONG, "--vary",
     "joker=true,false"],
    ["play", "--position", "hands: " + LONG],
    ["analyse", LONG],
    ["analyse", "hands: AS / " + LONG],
    ["review", "{rec}", "--thresholds", "good=" + LONG],
    ["review", "{rec}", "--engine", "ismcts:" + LONG],
    ["serve", "--allow-host", "*", "--host", LONG],
])
def test_long_arguments_are_quoted_briefly(monkeypatch, capsys, tmp_path, argv):
    rec = record(tmp_path)
    code, out, err = run(monkeypatch, capsys, [a.format(rec=rec) if a.startswith("{")
                                               else a for a in argv])
    assert_short(code, out + err)


def test_a_typed_move_or_command_is_quoted_briefly(monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys, ["play", "--seed", "1"],
                         stdin=f"{LONG}\nhint {LONG}\nquit\n")
    assert code == 0
    said = [line for line in out.splitlines()      # (beside the echo of piped input)
            if "x" * 40 in line and not line.startswith("your move>")]
    assert len(said) == 2 and all(len(line) < SHORT and SAID.search(line) for line in said)


def test_review_arguments_quote_long_input_briefly(tmp_path):
    g = cuttle.Game(seed=2)
    for _ in range(3):
        g.play(g.legal_moves[0])
    rec = make_record(g, players=["a", "b"], status="quit")
    from cuttle.review import judge, review
    calls = [lambda: review(rec, LONG), lambda: review(rec, "ismcts:" + LONG),
             lambda: review(rec, player=LONG), lambda: review(rec, names=[LONG]),
             lambda: review(rec, thresholds={LONG: 0.1}),
             lambda: review(rec, thresholds={"good": LONG}),
             lambda: judge(g, LONG), lambda: judge(g, "scuttle " + LONG + " 8C")]
    for call in calls:
        with pytest.raises(ValueError) as e:
            call()
        said = str(e.value)
        assert len(said) < SHORT and SAID.search(said), said[:300]


def test_web_fields_are_quoted_briefly():
    pytest.importorskip("starlette")
    import cuttle.web
    from starlette.testclient import TestClient
    from web.conftest import BASE as URL, TOKEN, new_game, start_token
    from cuttle.web.sessions import MAX_TEXT
    fit = "x" * (MAX_TEXT - 10)             # (the most a text field takes)
    with TestClient(cuttle.web.app(max_sessions=5), base_url=URL) as client:
        token = {TOKEN: start_token(client.get("/").text)}
        bodies = [{"bot": fit}, {"bot": "ismcts:" + fit}, {"rules": "classic: " + fit},
                  {"position": "hands: " + fit}, {"seed": fit}, {"seat": [0] * 3000},
                  {"x" * 15_000: 1}, {"rules": LONG}]
        answers = [client.post("/api/games", json=b, headers=token) for b in bodies]
        url = "x" * 60_000                  # (the client's most in an address)
        answers.append(client.get("/api/rules", params={"text": url}))
        answers.append(client.get("/api/rules", params={url: "1"}))
        answers.append(client.get("/", headers={"host": LONG}))
        p = new_game(client)
        answers.append(p.post("/hint", {"policy": fit}))
        answers.append(p.post("/hint", {"rollouts": fit}))
        for r in answers:
            said = r.json()["error"]
            assert 400 <= r.status_code < 500 and len(said) < SHORT, said[:300]
            assert SAID.search(said) or re.search(r"[\d,]{5,} bytes", said), said


@given(st.text(), st.integers(min_value=10, max_value=200))
def test_a_quote_is_safe_on_a_terminal_as_it_is(text, limit):
    """One way: input is quoted by `quoted`, whose repr already escapes what a terminal
    obeys, and whole messages go through `printable`, which leaves a quote unchanged."""
    q = quoted(text, limit)
    assert printable(q) == q
    assert len(q) <= max(len(repr(text)), limit + 30)
