"""The command line, run in-process through cli.main (and once as `python -m cuttle`)."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

import cuttle
from cuttle.cli import main
from cuttle.rules import FLAGS
from cuttle.render import csv as csv_renderer
from support.helpers import run_cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_table(capsys):
    code, out, err = run(capsys, "simulate", "-n", "2000", "--seed", "1", "--threads", "2",
                         "--players", "random,greedy", "--set", "four=random")
    assert code == 0
    for piece in ("2,000 games", "seed 1", "rules: classic: four=random",
                  "A = random, B = greedy", "A (random) wins", "B (greedy) wins", "draws",
                  "first-player advantage", "95% interval", "moves per game"):
        assert piece in out, piece
    assert err == ""          # no progress bar when stderr is not a terminal


def test_simulate_json_matches_library(capsys):
    code, out, _ = run(capsys, "simulate", "-n", "1500", "--seed", "5", "--json",
                       "--players", "greedy,random", "--rules", "cuttle.cards")
    assert code == 0
    d = json.loads(out)
    res = cuttle.simulate(1500, "cuttle.cards", ("greedy", "random"), seed=5, progress=False)
    lib = res.summary().as_dict()
    assert d["n_games"] == 1500 and d["seed"] == 5
    assert d["players"] == {"A": "greedy", "B": "random"}
    assert d["rules"]["preset"] == "cuttle.cards"
    for key in ("win_rate", "draw_rate", "win_rate_by_seat", "first_player_advantage",
                "mean_moves", "end"):
        assert d[key] == lib[key], key
    total = d["win_rate"]["A"]["count"] + d["win_rate"]["B"]["count"] + d["draw_rate"]["count"]
    assert total == 1500


def test_simulate_csv_and_files(capsys, tmp_path):
    code, out, _ = run(capsys, "simulate", "-n", "50", "--seed", "2", "--csv")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "statistic,value,low,high,count,n"
    rows = {line.split(",")[0]: line.split(",") for line in lines}
    res = cuttle.simulate(50, seed=2, progress=False)
    assert rows["win_rate_A"][1] == repr(res.win_rate("A").value)
    assert rows["win_rate_A"][5] == "50" and rows["draw_rate"][4] == str(res.summary().draws)
    j, c, g = tmp_path / "s.json", tmp_path / "s.csv", tmp_path / "g.csv"
    code, out, _ = run(capsys, "simulate", "-n", "50", "--seed", "2", "--json", str(j),
                       "--csv", str(c), "--games-csv", str(g))
    assert code == 0 and "50 games" in out           # the table still goes to stdout
    assert json.loads(j.read_text())["n_games"] == 50
    assert c.read_text().splitlines() == lines
    games = g.read_text().splitlines()
    assert games[0] == "game,winner,first,moves,turns,score_a,score_b,end"
    assert len(games) == 51 and games[1].startswith("0,")
    kept = cuttle.simulate(50, seed=2, progress=False, keep_games=True)
    assert [int(x.split(",")[3]) for x in games[1:]] == kept.moves.tolist()


def test_compare_games_csv(capsys, tmp_path):
    g = tmp_path / "g.csv"
    code, out, _ = run(capsys, "compare", "classic", "quick", "-n", "30", "--seed", "2",
                       "--games-csv", str(g), "--chunk-size", "7")
    assert code == 0
    rows = g.read_text().splitlines()
    assert rows[0] == "rule_set,game,winner,first,moves,turns,score_a,score_b,end"
    assert len(rows) == 61
    # by game, each game's rule sets in turn (not chunk by chunk, rule set by rule set)
    assert [r.split(",")[:2] for r in rows[1:]] == \
        [[str(k), str(i)] for i in range(30) for k in (1, 2)]


def test_output_files_that_cannot_be_written(capsys, tmp_path, monkeypatch):
    code, out, err = run(capsys, "simulate", "-n", "50", "--seed", "2", "--json",
                         str(tmp_path / "no" / "s.json"))
    assert code == 2 and "cannot write" in err and "Traceback" not in err
    # a CSV interrupted half-way is never left half-written: the earlier file stays whole
    c = tmp_path / "s.csv"
    c.write_text("old\n")

    def broken(*args, **kwargs):
        yield ["win_rate_A", "0.5"]
        raise KeyboardInterrupt

    monkeypatch.setattr(csv_renderer, "summary_rows", broken)
    code, out, err = run(capsys, "simulate", "-n", "50", "--seed", "2", "--csv", str(c))
    assert code == 130 and "interrupted" in err and "Traceback" not in err
    assert c.read_text() == "old\n" and os.listdir(tmp_path) == ["s.csv"]


def test_simulate_options(capsys):
    code, out, _ = run(capsys, "simulate", "-n", "1e3", "--seed", "3", "--no-swap",
                       "--set", "king_goals=15,14,10,7,5", "--set", "hand_limit=none",
                       "--set", "joker=yes", "--confidence", "0.99", "--json", "--players",
                       "greedy")
    assert code == 0
    d = json.loads(out)
    assert d["n_games"] == 1000 and d["confidence"] == 0.99 and d["swap_seats"] is False
    assert d["players"] == {"A": "greedy", "B": "greedy"}
    assert d["rules"]["changed"] == {"king_goals": [15, 14, 10, 7, 5], "joker": True}
    assert d["win_rate_by_seat"]["A"]["second"]["n"] == 0
    code, out, _ = run(capsys, "simulate", "-n", "300", "--seed", "3", "--match",
                       "best_of_3", "--players", "greedy,random")
    assert code == 0 and "300 matches" in out and "wins the match" in out


def test_progress_flag(capsys):
    code, out, err = run(capsys, "simulate", "-n", "500", "--seed", "1", "--progress")
    assert code == 0 and "simulate" in err
    code, out, err = run(capsys, "simulate", "-n", "500", "--seed", "1", "--no-progress")
    assert code == 0 and err == ""


# Every command that reads a file given to it: (argv with {f} for the file, its name).
INPUT_FILES = [(["review", "{f}"], "cuttle review"),
               (["replay", "{f}"], "cuttle replay"),
               (["analyse", "--record", "{f}", "--move", "1"], "cuttle analyse"),
               (["analyse", "{f}"], "cuttle analyse"),
               (["play", "--position", "{f}"], "cuttle play"),
               (["atlas", "--report-only", "--results", "{f}"], "cuttle atlas"),
               (["balance", "--report-only", "--results", "{f}"], "cuttle balance")]


@pytest.mark.parametrize("argv, prog", INPUT_FILES)
@pytest.mark.parametrize("name", ["missing.json", os.path.join("afile", "x.json")])
def test_an_input_file_that_cannot_be_read_is_a_usage_error(capsys, tmp_path, argv, prog,
                                                            name):
    # (a missing record exited with status 1 and no usage line, where every other bad
    # input is a usage error, status 2; a path through a file: "Not a directory")
    (tmp_path / "afile").write_text("")
    path = str(tmp_path / name)
    code, out, err = run(capsys, *(a.format(f=path) for a in argv))
    line, = err.splitlines()            # (one line, naming the file)
    assert (code, out) == (2, "") and line.startswith(f"{prog}: error: ") and \
        repr(path) in line, err


@pytest.mark.parametrize("argv, prog", INPUT_FILES)
def test_an_input_file_without_permission_is_a_usage_error(monkeypatch, capsys, tmp_path,
                                                          argv, prog):
    from cuttle.cli import options
    path = tmp_path / "locked.json"
    path.write_text('{"format": "cuttle-atlas", "version": 1}\n')

    def locked(opener):             # (a file chmod 000 to a user, which root could read)
        def open_(p, *args, **kw):
            if os.fspath(p) == str(path):
                raise PermissionError(13, "Permission denied", os.fspath(p))
            return opener(p, *args, **kw)
        return open_
    monkeypatch.setattr(os, "open", locked(os.open))                # (files.read_text)
    monkeypatch.setattr(options, "open", locked(open), raising=False)
    code, out, err = run(capsys, *(a.format(f=path) for a in argv))
    assert (code, out, err) == (2, "", f"{prog}: error: cannot read {str(path)!r}: "
                                       f"Permission denied\n")


@pytest.mark.parametrize("argv, message", [
    (["simulate", "-n", "0"], "at least 1"),
    (["simulate", "-n", "-5"], "at least 1"),
    (["simulate", "-n", "lots"], "positive whole number"),
    (["simulate", "-n", "2.5"], "positive whole number"),
    (["simulate", "--rules", "nope"], "unknown preset 'nope'; valid presets: classic"),
    (["simulate", "--set", "colour=red"], "unknown rule flag 'colour'; valid flags: king_goals"),
    (["simulate", "--set", "four=sometimes"], "flag 'four' takes one of 'choice', 'random'"),
    (["simulate", "--set", "joker=maybe"], "flag 'joker' takes true or false"),
    (["simulate", "--set", "hand_limit=many"], "hand_limit"),
    # (as `cuttle rules` spells its values: it said "takes None", which the text reads
    # as none)
    (["simulate", "--set", "hand_limit=99"],
     "flag 'hand_limit' takes none or int 0-53, not '99'"),
    (["simulate", "--rules", "cuttle.cards: hand_limit=54"], "takes none or int 0-53"),
    (["simulate", "--set", "king_goals=1,2"], "king_goals"),
    (["simulate", "--set", "four"], "FLAG=VALUE"),
    (["simulate", "--players", "random,smart"], "unknown policy 'smart'; valid: random, greedy"),
    (["simulate", "--players", "a,b,c"],
     "--players takes one or two players separated by a comma"),
    (["simulate", "--match", "best_of_9"], "invalid choice"),
    (["simulate", "--seed", "-1"], "seed"),
    (["simulate", "--threads", "0"], "threads"),
    (["simulate", "--json", "--csv"], "cannot both write to stdout"),
    (["simulate", "--confidence", "1.5"], "between 0 and 1"),
    (["simulate", "--confidence", "95"], "write 95%"),
    (["simulate", "--confidence", "0"], "between 0 and 1"),
    (["simulate", "--confidence", "nan"], "between 0 and 1"),
    (["simulate", "--confidence", "100%"], "between 0 and 1"),
    (["simulate", "--confidence", "lots"], "like 0.95 or 95%"),
    (["simulate", "--confidence", "0.9999999999999999"], "too close to 1"),
    (["simulate", "--confidence", "1.0"], "between 0 and 1"),
    (["atlas", "--confidence", "0.9999999999999999"], "too close to 1"),
    (["compare", "classic", "quick", "--confidence", "99.99999999999999%"], "too close to 1"),
    (["simulate", "--seed", "0x"], "whole number from 0 to 2**64-1"),
    (["simulate", "--seed", str(2 ** 64)],
     f"--seed: expected a whole number from 0 to 2**64-1, not '{2 ** 64}'"),
    (["replay", "r.json", "--html", os.sep], "is a folder"),
    (["simulate", "--html", os.path.join(os.sep, "no", "such", "p.html")], "no folder"),
    (["simulate", "--threads", "3000000000"], "at most 1,024"),
    (["simulate", "-n", "9" * 40], "at most 1,000,000,000,000,000"),
    (["simulate", "-n", "1e400"], "positive whole number"),
    # (it printed int(1e99), a hundred digits)
    (["simulate", "-n", "1e99"], "the count must be at most 1,000,000,000,000,000, not '1e99'"),
    (["atlas", "--max-games", "2.5e12"], "at most 1,000,000,000,000, not '2.5e12'"),
    (["simulate", "--max-moves", "3000000000"], "at most 2,147,483,647"),
    (["compare", "classic", "quick", "--threads", "99999"], "at most 1,024"),
    (["atlas", "--threads", "1025"], "at most 1,024"),
    (["analyse", "classic", "--threads", "5000"], "at most 1,024"),
    (["analyse", "classic", "--confidence", "1.5"], "between 0 and 1"),
    (["analyse", "classic", "--confidence", "95"], "write 95%"),
    (["play", "--bot-threads", "1025"], "at most 1,024"),
    (["simulate", "--scheduler", "local:0"], "local:N takes N from 1"),
    (["simulate", "--scheduler", "local:x"], "local:N takes N from 1"),
    (["simulate", "--scheduler", "myhost"], "tcp://HOST:8786"),
    (["simulate", "--frobnicate"], "unrecognized arguments"),
    (["compare", "classic"], "at least two rule sets"),
    # the same rules twice played the same games twice, without a word
    (["compare", "classic", "quick", "classic", "-n", "100"],
     "compare needs different rule sets, but 'classic' and 'classic' (rule sets 1 and 3 of "
     "the list) are the same rules (classic)"),
    (["compare", "classic", "classic:four=choice", "-n", "100"],
     "but 'classic' and 'classic:four=choice' (rule sets 1 and 2 of the list) are "
     "the same rules (classic)"),
    (["compare", "--vary", "four=random,random", "-n", "100"],
     "are the same rules (classic: four=random)"),
    (["compare", "classic", "classic:four=never"], "flag 'four'"),
    (["compare", "--vary", "four"], "FLAG=VALUE"),
    (["compare", "--vary", "king_goals=21,14,10,7,5"],
     "in a list of values a tuple is parenthesised: king_goals=(21,14,10,7,5),(...)"),
    (["compare", "--vary", "four=random,chess"], "flag 'four' takes one of"),
    # the last --vary was kept, and --rules ignored, without a word
    (["compare", "--vary", "four=choice,random", "--vary", "joker=true,false", "-n", "100"],
     "--vary is given twice ('joker=true,false' after 'four=choice,random')"),
    (["compare", "classic", "quick", "--rules", "cuttle.cards", "-n", "100"],
     "--rules is the base preset of --vary and has no effect without it"),
    # --vary replaced the value --set or --rules fixed, which no rule set then played
    (["compare", "--set", "four=random", "--vary", "four=choice,draw", "-n", "100"],
     "--vary four=choice,draw and --set four=random both set four"),
    (["compare", "--rules", "classic:four=random", "--vary", "four=choice,draw", "-n", "100"],
     "--vary four=choice,draw and --rules classic:four=random both set four"),
    # --set replaced a rule set's own value of the flag, which no rule set then played
    (["compare", "--set", "four=random", "classic:four=draw", "quick", "-n", "100"],
     "--set 'four=random' and the rule set 'classic:four=draw' both set four"),
    # (they said "must be the path of a file (a str or os.PathLike)")
    (["simulate", "--json", ""], "--json expects a file name, not ''"),
    (["compare", "classic", "quick", "--games-csv", " "], "--games-csv expects a file name"),
    (["simulate", "--html", ""], "argument --html: expected a file name, not ''"),
    (["atlas", "--csv", ""], "--csv expects a file name, not ''"),
    (["rules", "nope"], "unknown preset"),
    (["frobnicate"], "invalid choice"),
    ([], "COMMAND"),
])
def test_errors_exit_2_without_traceback(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err and "Traceback" not in out


@pytest.mark.parametrize("argv, once, says", [
    # (each used to say a thing twice: "player 'ismcts:0': bad iteration count in
    # 'ismcts:0'", "--seed: seed must be", "--confidence: confidence must be")
    (["simulate", "--players", "ismcts:0,expert"], ["'ismcts:0'"],
     "--players: bad iteration count in 'ismcts:0': use e.g. 'ismcts:1000'"),
    (["compare", "classic", "quick", "--players", "greedy:3"], ["'greedy:3'"],
     "--players: policy 'greedy' takes no parameter"),
    (["simulate", "--players", "random,smart"], ["'smart'"], "--players: unknown policy"),
    # (these named no option: which of --policy and --check was it?)
    (["play", "--bot", "ismcts:0"], ["'ismcts:0'"], "--bot: bad iteration count"),
    (["balance", "--policy", "smart"], ["'smart'"], "--policy: unknown policy 'smart'"),
    (["balance", "--check", "ismcts:0"], ["'ismcts:0'"], "--check: bad iteration count"),
    (["atlas", "--pairings", "random,ismcts:0"], ["'ismcts:0'"], "--pairings: bad iteration"),
    # (a comma where one name goes read as a bad count of 'ismcts:5,expert')
    (["play", "--bot", "ismcts:5,expert"], ["'ismcts:5,expert'"],
     "--bot takes one policy name, not 'ismcts:5,expert'"),
    (["balance", "--policy", "expert,greedy"], ["'expert,greedy'"],
     "--policy takes one policy name"),
    (["simulate", "--seed", "-1"], ["'-1'", "seed"], "--seed: expected a whole number from 0"),
    (["simulate", "--seed", str(2 ** 64)], [str(2 ** 64), "seed"], "--seed: expected"),
    (["simulate", "--confidence", "0"], ["'0'", "confidence"],
     "between 0 and 1 (exclusive) like 0.95, or a percent like 95%, not '0'"),
    # (the level as it was written, not as the fraction 1.0)
    (["simulate", "--confidence", "100%"], ["100%", "confidence"], "95%, not '100%'"),
    (["simulate", "--confidence", "0.9999999999999999"], ["0.9999999999999999", "confidence"],
     "too close to 1"),
    (["simulate", "--confidence", "95"], ["confidence"], "for 95 percent write 95%"),
])
def test_an_error_says_each_thing_once(capsys, argv, once, says):
    code, out, err = run(capsys, *argv)
    line, = err.splitlines()            # (one line: a value, not the command line's shape)
    assert code == 2 and out == "" and line.startswith(f"cuttle {argv[0]}: error: ")
    assert says in line, err
    for thing in once:
        assert line.count(thing) == 1, (thing, line)


@pytest.mark.parametrize("text, value", [("007", 7), ("0", 0), ("1_000", 1000),
                                         ("0x1F", 31), (" 42 ", 42),
                                         (str(2 ** 64 - 1), 2 ** 64 - 1)])
def test_seeds_are_numbers(capsys, text, value):
    code, out, _ = run(capsys, "simulate", "-n", "10", "--seed", text, "--json")
    assert code == 0 and json.loads(out)["seed"] == value


def test_a_bad_confidence_fails_before_any_work(capsys):
    # a billion games would take hours: the level is refused while parsing
    code, out, err = run(capsys, "simulate", "-n", "1e9", "--confidence",
                         "0.9999999999999999", "--progress")
    assert code == 2 and out == "" and "%" not in err and "games/s" not in err


def test_confidence_as_a_percent(capsys):
    code, out, _ = run(capsys, "simulate", "-n", "100", "--seed", "1", "--confidence", "99%",
                       "--json")
    assert code == 0 and json.loads(out)["confidence"] == 0.99
    code, out, _ = run(capsys, "simulate", "-n", "100", "--seed", "1", "--confidence", "0.9")
    assert code == 0 and "90% interval" in out


@pytest.mark.parametrize("given, label", [("0.999", "99.9%"), ("99.9%", "99.9%"),
                                          ("0.975", "97.5%"), ("0.9999", "99.99%"),
                                          ("95%", "95%"), ("1e-9", "0.0000001%")])
def test_the_interval_label_is_the_level_given(capsys, given, label):
    """Levels were labelled in whole percents: 0.999 as a "100% interval"."""
    code, out, _ = run(capsys, "simulate", "-n", "100", "--seed", "1", "--confidence", given)
    assert code == 0 and f" {label} interval" in out


def test_every_output_labels_the_level_given(capsys, tmp_path, monkeypatch):
    matplotlib = pytest.importorskip("matplotlib")
    from cuttle.render import plot as plot_renderer
    drawn = []
    monkeypatch.setattr(plot_renderer, "_save", lambda fig, path: drawn.append(
        " ".join(t.get_text() for t in fig.findobj(matplotlib.text.Text))))
    # (small runs to report on, a file each: a file without their games is refused)
    atlas_run = ["atlas", "--pairings", "random", "--bases", "classic", "--chunk-size",
                 "1000", "--max-games", "1000", "--interactions", "0", "--no-progress"]
    balance_run = ["balance", "--policy", "random", "-k", "1", "--flags", "joker",
                   "--chunk-size", "1000", "--screen-games", "1000", "--max-games", "1000",
                   "--confirm-games", "1000", "--candidates", "1", "--no-progress"]
    for argv, results in ((atlas_run, "a.jsonl"), (balance_run, "b.jsonl")):
        assert main([*argv, "--results", str(tmp_path / results)]) == 0
    capsys.readouterr()
    page = tmp_path / "p.html"
    for argv in (["simulate", "-n", "100", "--seed", "1", "--html", page, "--plot", "s.png"],
                 ["compare", "classic", "quick", "-n", "100", "--seed", "1", "--html", page,
                  "--plot", "c.png"],
                 [*atlas_run, "--results", tmp_path / "a.jsonl", "--report-only", "--plot",
                  tmp_path / "plots"],
                 [*balance_run, "--results", tmp_path / "b.jsonl", "--report-only", "--html", page,
                  "--markdown", "-", "--plot", "b.png"]):
        page.unlink(missing_ok=True)
        code, out, _ = run(capsys, *map(str, argv), "--confidence", "0.999")
        assert code == 0 and "99.9% interval" in out and "100%" not in out, argv[0]
        assert "99.9% " in drawn.pop() and not drawn
        if page.exists():
            assert "99.9% " in page.read_text() and "100% " not in page.read_text()


def test_a_bad_option_value_is_one_line_naming_the_command(capsys):
    code, out, err = run(capsys, "simulate", "--confidence", "1.5")
    assert (code, out) == (2, "") and err == (
        "cuttle simulate: error: argument --confidence: expected a level between 0 and 1 "
        "(e.g. 0.95) or a percent: for 1.5 percent write 1.5%\n")
    code, out, err = run(capsys, "compare", "classic", "quick", "--plot", str(os.sep))
    assert (code, out) == (2, "") and err.startswith("cuttle compare: error: --plot: ")
    assert "is a folder" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("extra, message", [
    (["--json", "{d}/no/such/folder/s.json"], "no folder"),
    (["--csv", "{d}/no/s.csv"], "no folder"),
    (["--games-csv", "{d}/no/g.csv"], "no folder"),
    (["--json", "{d}"], "is a folder"),
    (["--plot", "{d}"], "is a folder"),
    (["--plot", "{d}/plot.unknown"], "cannot tell the image format"),
    (["--plot", "{d}/plot"], "cannot tell the image format"),
    (["--json", "{d}/same", "--csv", "{d}/same"], "--json and --csv name the same file"),
    (["--json", "{d}/same", "--games-csv", "{d}/./same"], "name the same file"),
    (["--plot", "{d}/p.png", "--csv", "{d}/p.png"], "name the same file"),
])
def test_outputs_are_checked_before_playing(capsys, tmp_path, extra, message):
    """-n 10**15 would play for decades: only a check made up front returns at once."""
    if message == "cannot tell the image format":        # (matplotlib's formats)
        pytest.importorskip("matplotlib")
    extra = [x.format(d=tmp_path) for x in extra]
    for cmd in (["simulate"], ["compare", "classic", "quick"]):
        code, out, err = run(capsys, *cmd, "-n", "1000000000000000", "--seed", "1", *extra)
        assert code == 2 and message in err and "Traceback" not in err, (cmd, err)
        assert out == ""
    assert list(tmp_path.iterdir()) == []


def test_unwritable_folder(capsys, tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes anywhere")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    code, out, err = run(capsys, "simulate", "-n", "1e15", "--json", str(ro / "s.json"))
    assert code == 2 and "permission denied" in err


def test_simulate_plot(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    for name in ("s.png", "s.svg", "s.pdf"):
        path = tmp_path / name
        code, out, err = run(capsys, "simulate", "-n", "2000", "--seed", "1", "--plot",
                             str(path))
        assert code == 0 and f"plot saved to {path}" in err
        assert path.stat().st_size > 1000
    assert (tmp_path / "s.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "s.pdf").read_bytes()[:4] == b"%PDF"


def test_compare_plot_names_the_rule_sets_on_the_axis(tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    c = cuttle.compare(["classic", cuttle.Rules(four="draw"), "quick"], 300, seed=1,
                       progress=False)
    svg = tmp_path / "c.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):       # text stays text
        c.plot(str(svg))
    text = svg.read_text()
    for label in ("classic", "classic: four=draw", "quick"):
        assert f">{label}<" in text, label
    assert "[1]" not in text and "[2]" not in text


def test_rules_command(capsys):
    code, out, _ = run(capsys, "rules")
    assert code == 0 and out.strip() == cuttle.Rules.describe().strip()
    code, out, _ = run(capsys, "rules", "cuttle.cards", "--set", "hand_limit=7")
    assert code == 0 and "hand_limit" in out and "(changed)" in out
    # values as rule text writes them: what --rules and --set read back
    code, out, _ = run(capsys, "rules", "quick", "--set", "joker=true")
    lines = out.splitlines()
    assert lines[0] == "quick: joker=true" and cuttle.Rules.parse(lines[0]).joker
    values = dict(line.split()[:2] for line in lines[1:])
    assert values["king_goals"] == "15,14,10,7,5" and values["hand_limit"] == "none"
    assert values["five"] == "draw2" and values["deal"] == "5,6"
    assert cuttle.Rules.parse("quick " + " ".join(f"{k}={v}" for k, v in values.items())) \
        == cuttle.Rules("quick", joker=True)
    assert "'" not in out and "(" not in out.replace("(changed)", "")
    code, out, _ = run(capsys, "rules", "quick", "--json")
    assert json.loads(out)["flags"]["king_goals"] == [15, 14, 10, 7, 5]


def test_rules_json_without_a_preset_is_the_catalogue(capsys):
    # it printed classic's flags, where the text lists every preset and flag
    code, out, _ = run(capsys, "rules", "--json")
    cat = json.loads(out)
    assert code == 0 and cat == cuttle.Rules.catalogue()
    assert list(cat["presets"]) == ["classic", "cuttle.cards", "cuttle.cards-beta",
                                    "quick", "open"]
    for name, preset in cat["presets"].items():      # each preset's values read back
        assert cuttle.Rules.from_json({"preset": "classic", "changed": preset["flags"]}) \
            == cuttle.Rules(name)
    assert set(cat["flags"]) == set(cuttle.Rules().as_dict())
    assert cat["flags"]["nine"]["values"] == "return | freeze | topdeck"
    assert cat["flags"]["king_goals"]["cuttle.cards"] == [21, 14, 10, 5, 0]
    assert cat["presets"]["open"]["flags"]["open_hands"] is True
    # with --set it is one rule set's values, as before
    code, out, _ = run(capsys, "rules", "--set", "seven=top2", "--json")
    assert json.loads(out)["changed"] == {"seven": "top2"}


def test_help_and_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith(f"cuttle {cuttle.__version__} (native core: ")
    code, out, _ = run(capsys, "simulate", "--help")
    assert code == 0 and "--players" in out and "--set" in out


@pytest.mark.parametrize("command", ["simulate", "compare", "atlas", "balance"])
def test_the_threads_on_a_cluster_are_said(capsys, monkeypatch, command):
    """--threads said "default: all", which --scheduler makes 1 per chunk."""
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run(capsys, command, "--help")
    line = next(line for line in out.splitlines() if line.strip().startswith("--threads T"))
    assert code == 0 and "with --scheduler: per chunk, default 1" in line, line


@pytest.mark.parametrize("command", ["simulate", "compare", "rules", "atlas", "play",
                                     "replay", "analyse", "review", "balance", "serve"])
def test_help_is_wrapped(capsys, monkeypatch, command):
    # compare's description was one line of 173 characters
    monkeypatch.setenv("COLUMNS", "100")
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 100, out


def test_compare(capsys, tmp_path):
    code, out, _ = run(capsys, "compare", "classic", "classic:four=random",
                       "classic:king_goals=(15,14,10,7,5),joker=true", "-n", "1000",
                       "--seed", "4")
    assert code == 0
    for piece in ("3 rule sets", "[2] classic: four=random",
                  "[3] classic: king_goals=(15,14,10,7,5), joker=true", "vs [1]"):
        assert piece in out, piece
    code, out, _ = run(capsys, "compare", "--rules", "cuttle.cards", "--vary",
                       "four=choice,draw", "-n", "800", "--seed", "4", "--json")
    assert code == 0
    d = json.loads(out)
    assert [r["label"] for r in d["rule_sets"]] == ["cuttle.cards", "cuttle.cards: four=draw"]
    code, out, _ = run(capsys, "compare", "classic", "quick", "-n", "300", "--csv")
    assert code == 0 and out.startswith("rule_set,label,metric")


def test_compare_plot(capsys, tmp_path, monkeypatch):
    png = tmp_path / "c.png"
    monkeypatch.setitem(sys.modules, "matplotlib", None)      # as if not installed
    code, out, err = run(capsys, "compare", "classic", "quick", "-n", "200", "--plot", str(png))
    assert code == 2 and "matplotlib" in err and "Traceback" not in err
    assert not png.exists()
    monkeypatch.undo()
    pytest.importorskip("matplotlib")
    code, out, err = run(capsys, "compare", "classic", "quick", "-n", "500", "--seed", "1",
                         "--plot", str(png))
    assert code == 0 and png.read_bytes()[:4] == b"\x89PNG"


def test_value_parsing():
    assert FLAGS["joker"].parse("On") is True and FLAGS["joker"].parse("0") is False
    assert FLAGS["hand_limit"].parse("None") is None
    assert FLAGS["hand_limit"].parse("8") == 8
    assert FLAGS["king_goals"].parse("(21, 14, 10, 5, 0)") == (21, 14, 10, 5, 0)
    assert FLAGS["four"].parse("RANDOM") == "random"
    assert cuttle.Rules.parse("cuttle.cards:hand_limit=7", ["four=draw"]) == \
        cuttle.Rules("cuttle.cards", hand_limit=7, four="draw")


def _ctrl_c(argv, wait_for=r"[0-9kMG] ?games?/s", sig=signal.SIGINT, sigint_ignored=False):
    """Run `python -m cuttle argv`, press Ctrl-C (or send `sig`) once the progress bar
    matches `wait_for` (a rate: some games are done, with tqdm's bar or the plain one);
    (status, stdout, stderr).  `sigint_ignored`: started with SIGINT ignored, as a
    script's background job is."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    ignore = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if sigint_ignored else None
    p = subprocess.Popen([sys.executable, "-m", "cuttle", *argv], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env, preexec_fn=ignore)
    err = []
    reader = threading.Thread(target=lambda: err.append(p.stderr.read()), daemon=True)
    seen = bytearray()

    def read_until():
        while not re.search(wait_for, seen.decode(errors="replace")):
            chunk = os.read(p.stderr.fileno(), 4096)
            if not chunk:
                return
            seen.extend(chunk)

    waiter = threading.Thread(target=read_until, daemon=True)
    waiter.start()
    waiter.join(60)
    p.send_signal(sig)
    reader.start()
    out = p.stdout.read()
    p.wait(30)
    reader.join(30)
    return p.returncode, out.decode(), (bytes(seen) + b"".join(err)).decode()


def test_ctrl_c_keeps_the_finished_games(tmp_path):
    # (the files written say they hold a partial run)
    files = [str(tmp_path / f) for f in ("s.json", "s.html", "c.json", "c.html", "s.csv")]
    code, out, err = _ctrl_c(["simulate", "-n", "1e9", "--seed", "1", "--threads", "1",
                              "--progress", "--chunk-size", "5000", "--json", files[0],
                              "--html", files[1], "--csv", files[4]])
    assert code == 130, err
    m = re.search(r"interrupted after ([\d,]+) of 1,000,000,000 games", err)
    assert m and "Traceback" not in err
    n = int(m.group(1).replace(",", ""))
    assert n > 0 and n % 5000 == 0
    assert f"cuttle simulation: {n:,} games, seed 1" in out and "A (random) wins" in out
    d = json.load(open(files[0]))
    assert d["interrupted"] == {"done": n, "requested": 10**9, "unit": "game",
                                "units": "games"}
    assert f"interrupted after {n:,} of 1,000,000,000 games" in open(files[1]).read()
    assert open(files[4]).read().splitlines()[-1].endswith(f",,,{n},1000000000")
    code, out, err = _ctrl_c(["compare", "classic", "quick", "-n", "1e9", "--seed", "1",
                              "--threads", "1", "--progress", "--chunk-size", "5000",
                              "--json", files[2], "--html", files[3]])
    assert code == 130 and "interrupted after" in err and "2 rule sets" in out
    assert json.load(open(files[2]))["interrupted"]["requested"] == 10**9
    assert "a partial run" in open(files[3]).read()
    # a whole run's files have no such mark
    assert main(["simulate", "-n", "100", "--seed", "1", "--json", files[0],
                 "--no-progress"]) == 0
    assert "interrupted" not in json.load(open(files[0]))


@pytest.mark.parametrize("sigint_ignored", [False, True])
def test_sigterm_stops_a_run_as_ctrl_c_does(tmp_path, sigint_ignored):
    """A `kill` keeps the finished games and writes every output, rather than leaving a
    hidden half-written file beside the games CSV; status 143 (128 + SIGTERM).  Also in
    a script's background job (`cmd &`), which starts with SIGINT ignored."""
    rows, out_json = tmp_path / "g.csv", tmp_path / "s.json"
    code, out, err = _ctrl_c(["simulate", "-n", "1e9", "--seed", "1", "--threads", "1",
                              "--progress", "--chunk-size", "5000", "--games-csv",
                              str(rows), "--json", str(out_json)], sig=signal.SIGTERM,
                             sigint_ignored=sigint_ignored)
    assert code == 143 and "terminated" in err and "Traceback" not in err, err
    n = int(re.search(r"interrupted after ([\d,]+) of", err).group(1).replace(",", ""))
    assert n > 0 and json.load(open(out_json))["interrupted"]["done"] == n
    assert len(rows.read_text().splitlines()) == n + 1          # the header, a row a game
    assert sorted(os.listdir(tmp_path)) == ["g.csv", "s.json"]  # no temporary file left


def _main_thread(pid):
    """(state, CPU ticks) of process `pid`'s main thread: 'S' while it sleeps, as it
    does at the end of a parallel loop waiting for the other threads' items."""
    with open(f"/proc/{pid}/task/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return fields[0], int(fields[11]) + int(fields[12])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sigint_ignored", [True, False])
def test_sigterm_stops_the_other_threads_long_items(tmp_path, sigint_ignored):
    """A run whose polling thread, the main one, waits for another thread's long search
    game: a SIGTERM was seen by that thread alone, so the run stopped only when the
    other game ended (12 s later here, minutes with a bigger search), and that chunk's
    games were lost.  Now every thread stops at the signal, as at Ctrl-C, and the
    finished games are kept; also in a script's background job (SIGINT ignored).  Seed
    34's game 0 (9 moves) ends long before game 1 (104): the main thread, which takes
    the first game of a chunk, then sleeps."""
    rows, out_json = tmp_path / "g.csv", tmp_path / "s.json"
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.Popen([sys.executable, "-m", "cuttle", "simulate", "-n", "1e9", "--seed",
                          "34", "--no-swap", "--players", "ismcts:20000", "--threads", "2",
                          "--chunk-size", "2", "--no-progress", "--games-csv", str(rows),
                          "--json", str(out_json)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                         preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
                         if sigint_ignored else None)
    try:
        asleep, (_, ticks) = 0, _main_thread(p.pid)
        deadline = time.monotonic() + 240
        while asleep < 5:                   # half a second asleep, using no CPU
            assert time.monotonic() < deadline, "the main thread never waited"
            time.sleep(0.1)
            state, now = _main_thread(p.pid)
            asleep = asleep + 1 if state == "S" and now - ticks <= 1 else 0
            ticks = now
        start = time.monotonic()
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=300)
        took = time.monotonic() - start
    finally:
        p.kill()
    err = err.decode()
    assert p.returncode == 143 and "terminated" in err and "Traceback" not in err, err
    assert took < 2, (took, err)
    n = int(re.search(r"interrupted after ([\d,]+) of", err).group(1).replace(",", ""))
    assert n >= 1 and json.load(open(out_json))["interrupted"]["done"] == n
    assert len(rows.read_text().splitlines()) == n + 1          # the header, a row a game
    assert sorted(os.listdir(tmp_path)) == ["g.csv", "s.json"]


def test_sigterm_keeps_its_default_where_ctrl_c_is_not_python_s():
    from cuttle.interrupts import sigterm_as_ctrl_c
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("SIGINT has another handler here")
    before = signal.getsignal(signal.SIGTERM)
    with sigterm_as_ctrl_c() as terminated:
        assert signal.getsignal(signal.SIGTERM) is not before
    assert signal.getsignal(signal.SIGTERM) is before and not terminated
    old = signal.signal(signal.SIGINT, lambda signum, frame: None)
    try:
        with sigterm_as_ctrl_c():       # a program's own SIGINT: SIGTERM keeps its own
            assert signal.getsignal(signal.SIGTERM) is before
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        with sigterm_as_ctrl_c():       # SIGINT ignored (a background job): SIGTERM stops
            assert signal.getsignal(signal.SIGTERM) is not before
        assert signal.getsignal(signal.SIGTERM) is before
    finally:
        signal.signal(signal.SIGINT, old)


def test_where_sigint_is_ignored_one_sigterm_stops_and_is_held_while_writing():
    # The first SIGTERM raises KeyboardInterrupt (or, inside ctrl_c_deferred, when the
    # block ends); later ones are ignored, so the outputs are written whole.
    from cuttle.interrupts import ctrl_c_deferred, sigterm_as_ctrl_c
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with pytest.raises(KeyboardInterrupt):
            with sigterm_as_ctrl_c() as terminated:
                with ctrl_c_deferred():
                    signal.raise_signal(signal.SIGTERM)
                    written = True            # not cut short
        assert terminated and written
        with sigterm_as_ctrl_c() as terminated:
            with pytest.raises(KeyboardInterrupt):
                signal.raise_signal(signal.SIGTERM)
            with ctrl_c_deferred():
                signal.raise_signal(signal.SIGTERM)   # a second one: ignored
        assert terminated
    finally:
        signal.signal(signal.SIGINT, old)


def test_python_m_cuttle_subprocess():
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-m", "cuttle", "simulate", "-n", "2000", "--seed", "1"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "2,000 games" in p.stdout and "A (random) wins" in p.stdout
    p = subprocess.run([sys.executable, "-m", "cuttle", "simulate", "-n", "0"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 2 and "Traceback" not in p.stderr


def test_an_interrupted_analysis_says_so_in_its_json(monkeypatch, capsys):
    import cuttle.cli.analyse as cli_analyse
    real = cuttle.analyse

    def interrupted(game, rollouts, **kw):
        partial = real(game, rollouts=50, **kw)
        raise cuttle.Interrupted(partial, partial.total_rollouts, 10**9, "rollout")
    monkeypatch.setattr(cli_analyse, "analyse", interrupted)
    assert main(["analyse", "hands: 2C 9H 5S / 4H; rest: deck", "--seed", "1",
                 "--json"]) == 130
    out, err = capsys.readouterr()
    d = json.loads(out)
    assert d["interrupted"]["requested"] == 10**9 and d["interrupted"]["unit"] == "rollout"
    assert "interrupted after" in err and "rollouts" in err
    assert str(cuttle.Interrupted(None, 6, 10, "match")) == "interrupted after 6 of 10 matches"


def test_analyse_takes_a_confidence_level(capsys):
    pos = "hands: 2C 9H 5S / 4H; rest: deck"
    code, out, err = run(capsys, "analyse", pos, "--rollouts", "300", "--seed", "1",
                         "--threads", "1", "--confidence", "99%")
    assert code == 0 and err == ""
    want = cuttle.analyse(cuttle.Game.from_text(pos), rollouts=300, seed=1, threads=1,
                          confidence=0.99)
    assert out.startswith(str(want).split("\n")[0]) and "99% interval" in out
    best = want.rows[0]
    assert f"[{best.score_estimate.low:.1%}, {best.score_estimate.high:.1%}]" in out
    code, out, err = run(capsys, "analyse", pos, "--rollouts", "300", "--seed", "1",
                         "--threads", "1", "--confidence", "0.9", "--json")
    d = json.loads(out)
    assert code == 0 and d["confidence"] == 0.9
    assert d["moves"][0]["score_estimate"]["low"] == pytest.approx(
        cuttle.analyse(cuttle.Game.from_text(pos), rollouts=300, seed=1, threads=1,
                       confidence=0.9).rows[0].score_estimate.low)


@pytest.mark.parametrize("argv", [["simulate", "-n", "10", "--rules", " "],
                                  ["compare", "", "classic", "-n", "10"],
                                  ["balance", "--base", "", "--policy", "random"],
                                  ["analyse", "hands: 2C / 3D", "--rules", ""],
                                  ["rules", ""]])
def test_empty_rules_are_refused_not_read_as_classic(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and "empty rules: give a preset" in err and out == ""


def test_a_cluster_failing_mid_run_keeps_the_finished_games(monkeypatch, capsys, tmp_path):
    """A run whose cluster failed (ClusterError) after some chunks had finished: the
    command said so in one line and wrote nothing, although the error carries those
    chunks.  Its outputs now hold them, marked partial as after Ctrl-C, with status 1."""
    from cuttle.cli import simulate as command

    def failing(n, rules, players, **kw):
        e = cuttle.ClusterError("lost the connection to the dask scheduler at "
                                "tcp://10.0.0.9:8786 during the run")
        e.result = cuttle.simulate(300, rules, players, seed=kw["seed"], progress=False)
        e.done, e.total = 300, n
        raise e
    monkeypatch.setattr(command, "simulate", failing)
    path = tmp_path / "r.json"
    code, out, err = run_cli(monkeypatch, capsys, ["simulate", "-n", "1000", "--seed", "3",
                                                   "--json", path])
    assert code == 1
    assert err.strip() == ("cuttle simulate: lost the connection to the dask scheduler at "
                           "tcp://10.0.0.9:8786 during the run; the results below are "
                           "those of the finished 300 games of 1,000")
    data = json.loads(path.read_text())
    assert data["interrupted"] == {"done": 300, "requested": 1000, "unit": "game",
                                   "units": "games"}
    assert data["n_games"] == 300 and data["seed"] == 3
    assert out.startswith("interrupted after 300 of 1,000 games: a partial run\n\n"
                          "cuttle simulation: 300 games, seed 3")


def test_degenerate_rules_are_played_with_one_warning_line(capsys, tmp_path):
    # --set hand_limit=0 gave 100% draws without a word.
    code, out, err = run(capsys, "simulate", "-n", "30", "--seed", "1", "--no-progress",
                         "--set", "hand_limit=0")
    assert code == 0 and re.search(r"\ndraws +30/30 +100\.00%", out)
    assert err.splitlines() == [
        "cuttle simulate: warning: degenerate rules (classic: hand_limit=0): with "
        "hand_limit=0 each hand is discarded whole at the end of its owner's turn, so "
        "after their first move a player can only draw a card and discard it: games end "
        "in draws (every game, under the presets' goals)"]
    # once, with --record-game too (the run and the game it records each warned)
    code, _, again = run(capsys, "simulate", "-n", "30", "--seed", "1", "--no-progress",
                         "--set", "hand_limit=0", "--record-game", "0", "--record",
                         str(tmp_path / "game.json"))
    assert code == 0 and again.splitlines() == err.splitlines()
    code, out, err = run(capsys, "simulate", "-n", "30", "--seed", "1", "--no-progress",
                         "--set", "hand_limit=1")
    assert code == 0 and err == ""


@pytest.mark.parametrize("argv, values", [
    (["--vary", "joker=true"], "joker=false,true"),           # the base's value first
    (["--vary", "joker=false"], "joker=false,true"),          # the base's own: another
    (["--rules", "cuttle.cards", "--vary", "four=random"], "four=choice,random"),
    (["--vary", "hand_limit=none"], "hand_limit=none,8"),
    (["--vary", "deal=(5,6)"], "deal=(5,6),(6,6)"),
    (["--vary", "king_goals=(15,14,10,7,5)"], "king_goals=(21,14,10,7,5),(15,14,10,7,5)"),
])
def test_a_vary_of_one_value_names_the_values_to_list(capsys, argv, values):
    # It said only "compare needs at least two rule sets".
    code, _, err = run(capsys, "compare", *argv, "-n", "10")
    vary = argv[-1]
    assert code == 2 and err == (
        f"cuttle compare: error: compare needs at least two rule sets: --vary {vary} "
        f"gives one; list the values to compare, e.g. --vary {values}\n")
