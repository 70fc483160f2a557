"""Terminal escape injection (issue 21, item 8): text from outside (a record's player
names, file names, input quoted in error messages) reaches the terminal only through
cuttle.text.printable, so no control sequence of it is obeyed: no OSC 52 clipboard
write, no screen clearing, no line faked with a carriage return."""

import io
import json
import sys
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import cuttle
from cuttle.cli import main
from cuttle.record import make_record, write_record
from cuttle.text import printable

# What a hostile record puts in a name: OSC 52 (set the clipboard), clear the screen,
# a carriage return that overwrites the line, a C1 CSI, a bidi override, a lone surrogate.
HOSTILE = ["\x1b]52;c;cm0gLXJmIH4K\x07", "\x1b[2J\x1b[H", "ok\rYou win!", "\x9b31m",
           "\u202eevil", "a\u2028b", "\ud800", "bell\x07", "nul\x00", "del\x7f", "tab\tx"]


def unsafe(text):
    """The characters of `text` a terminal would obey (newlines aside)."""
    return [c for c in text if c != "\n" and (unicodedata.category(c) in ("Cc", "Cs")
                                              or c in "\u061c\u200e\u200f\u2028\u2029"
                                              or "\u202a" <= c <= "\u202e"
                                              or "\u2066" <= c <= "\u2069")]


@given(st.text())
def test_printable_leaves_nothing_a_terminal_obeys(text):
    out = printable(text)
    assert unsafe(out) == [] and "\n" not in out
    assert out == text or unsafe(text) or "\n" in text    # safe text is left as it is
    out.encode("utf-8")                         # (a lone surrogate would not encode)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Cf", "Zl", "Zp"))))
def test_ordinary_text_is_untouched(text):
    assert printable(text) == text


def test_escapes_are_visible_and_newlines_kept_on_request():
    assert printable("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert printable("\u202e") == "\\u202e" and printable("\x9b") == "\\x9b"
    assert printable("é 漢 🂡") == "é 漢 🂡"
    assert printable("two\nlines\r") == "two\\x0alines\\x0d"
    assert printable("two\nlines\r", newlines=True) == "two\nlines\\x0d"


def record_with_names(tmp_path, names, name="game.json"):
    g = cuttle.Game(seed=2)
    for _ in range(3):
        g.play(g.legal_moves[0])
    path = tmp_path / name
    write_record(make_record(g, players=list(names), status="quit"), path)
    return path


def run(monkeypatch, capsys, *argv, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", HOSTILE)
def test_replay_escapes_the_player_names(monkeypatch, capsys, tmp_path, name):
    path = record_with_names(tmp_path, [name, "greedy\x1b[31m"])
    code, out, err = run(monkeypatch, capsys, "replay", path)
    assert code == 0 and unsafe(out + err) == [], (out + err)[:300]
    assert printable(name) in out and "greedy\\x1b[31m" in out
    code, out, err = run(monkeypatch, capsys, "replay", path, "--step", stdin="\n" * 5)
    assert code == 0 and unsafe(out + err) == []


def test_a_hostile_file_name_is_escaped(monkeypatch, capsys, tmp_path):
    path = record_with_names(tmp_path, ["a", "b"], name="x\x1b]0;pwned\x07.json")
    code, out, err = run(monkeypatch, capsys, "replay", path)
    assert code == 0 and unsafe(out + err) == [] and "\\x1b]0;pwned\\x07" in out
    html = tmp_path / "page\x1b[2J.html"
    code, out, err = run(monkeypatch, capsys, "replay", path, "--html", html)
    assert code == 0 and unsafe(out + err) == [] and html.exists()
    code, out, err = run(monkeypatch, capsys, "replay", tmp_path / "missing\x1b[2J.json")
    assert code == 2 and unsafe(out + err) == [] and "missing\\x1b[2J" in err
    bad = tmp_path / "bad\x1b[2J.json"
    bad.write_text("{oops")
    code, out, err = run(monkeypatch, capsys, "replay", bad)
    assert code == 2 and unsafe(out + err) == [] and "bad\\x1b[2J" in err


@pytest.mark.parametrize("argv", [
    ["replay", "{d}/\x1b[2J"],
    ["analyse", "hands: 2C\x1b[2J / 3D; points: - / -"],
    ["analyse", "\x1b]52;c;eA==\x07: x"],
    ["simulate", "--players", "random,gr\x1b[2Jeedy", "-n", "5"],
    ["simulate", "--rules", "classic:four=\x9b2J", "-n", "5"],
    ["compare", "classic", "classic:\u202ejoker=true", "-n", "5"],
    ["simulate", "-n", "5", "--json", "{d}/no\x1b[2J/x.json"],
    ["play", "--bot", "ism\rcts", "--seed", "1"],
    ["play", "--position", "hands: \x1b[2J"],
])
def test_error_messages_quoting_input_are_escaped(monkeypatch, capsys, tmp_path, argv):
    code, out, err = run(monkeypatch, capsys, *[a.format(d=tmp_path) for a in argv],
                         stdin="quit\n")
    assert code in (1, 2) and unsafe(out + err) == [], err


def test_piped_moves_are_echoed_escaped(monkeypatch, capsys, tmp_path):
    code, out, err = run(monkeypatch, capsys, "play", "--seed", "1", "--record",
                         tmp_path / "r.json", stdin="\x1b[2Jdraw\nquit\n")
    assert code == 0 and unsafe(out + err) == [] and "\\x1b[2Jdraw" in out


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(max_size=12), min_size=2, max_size=2))
def test_any_names_replay_cleanly(monkeypatch, capsys, tmp_path, names):
    path = record_with_names(tmp_path, names)
    assert json.loads(path.read_text())["players"] == names
    code, out, err = run(monkeypatch, capsys, "replay", path)
    assert code == 0 and unsafe(out + err) == []


@settings(max_examples=60, deadline=None)
@given(filler=st.text(alphabet="7ZQx/;:[]=, \u202e", min_size=200, max_size=30_000))
def test_an_error_quotes_long_input_by_its_start_and_end(filler):
    """`g.play('points ' + '7' * 100000)` made a message of 100,118 characters, position
    text, rule text, card names and records alike: each parser quotes input through
    `cuttle.text.quoted`, at most MAX_QUOTED characters of it."""
    from cuttle.record import final_game, validate_record
    g = cuttle.Game(seed=1)
    rec = make_record(g, players=["ann", "bob"])
    calls = [lambda: g.play("points " + filler), lambda: g.play(filler),
             lambda: cuttle.Game.from_text(filler),
             lambda: cuttle.Game.from_text("hands: " + filler + " / AS"),
             lambda: cuttle.Game.from_text("hands: AS / 2S; rest: " + filler),
             lambda: cuttle.Game.from_text("hands: AS / 2S; seed: 1" + "0" * len(filler)),
             lambda: cuttle.Card(filler), lambda: cuttle.Move(filler),
             lambda: cuttle.Move("scuttle " + filler + " 8C"),
             lambda: cuttle.Rules(filler), lambda: cuttle.Rules(four=filler),
             lambda: cuttle.Rules.parse("classic: " + filler),
             lambda: cuttle.Rules.parse("classic: four=" + filler),
             lambda: final_game({**rec, "moves": [filler]}),
             lambda: validate_record({**rec, "result": {"status": filler}})]
    for call in calls:
        with pytest.raises(ValueError) as e:
            call()
        said = str(e.value)
        assert len(said) < 700, said[:300]
    assert g == cuttle.Game(seed=1)


def test_quoted_keeps_short_input_as_its_repr_and_cuts_long_input():
    from cuttle.text import MAX_QUOTED, quoted
    for value in ("AS", "x" * (MAX_QUOTED - 2), 7, None, ["AS"], "it's"):
        assert quoted(value) == repr(value)
    long = "points " + "7" * 100_000
    said = quoted(long)
    assert said == "'points " + "7" * 49 + "..." + "7" * 19 + "' (100,007 characters)"
    assert len(said) < MAX_QUOTED + 30
