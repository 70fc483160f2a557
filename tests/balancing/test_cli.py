"""`cuttle balance`: --quick end to end, every output, the results file, Ctrl-C in a
real process, and errors."""

import html
import json
import os
import signal
import subprocess
import sys
import time
import warnings

import pytest

from cuttle import balance
from cuttle.cli import main
from cuttle.variants.store import NothingToReport

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# random self-play, two changes of three flags, chunks of 1,000 games
ARGS = ["balance", "--policy", "random", "-k", "2", "--flags", "deal,joker,four",
        "--deal", "6,7", "--deal", "6,6", "--chunk-size", "1000", "--screen-games", "4000",
        "--pairs", "2", "--candidates", "2", "--target", "1.5", "--max-games", "8000",
        "--confirm-games", "6000", "--no-progress"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_quick_end_to_end(capsys, tmp_path):
    """The issue's --quick (expert self-play, a few flags): every output."""
    pytest.importorskip("matplotlib")
    files = {x: str(tmp_path / f"q.{x}") for x in ("json", "csv", "html", "md", "png")}
    code, out, err = run(capsys, "balance", "--quick", "--no-progress", "--json",
                         files["json"], "--csv", files["csv"], "--html", files["html"],
                         "--markdown", files["md"], "--plot", files["png"])
    assert code == 0, err
    assert out.startswith("cuttle balance: classic under expert self-play, at most 3 changes")
    assert "The fairest rule set of each size" in out and "The race" in out
    # a quick search says what it is, above its tables and in its files (it named
    # another winner than the docs' full run, without a word)
    caveat = ("a low-precision demonstration (a few flags, small caps, wide intervals) "
              "whose winners may differ from a full run's")
    assert out.splitlines()[3].startswith("A quick search (--quick") and caveat in out
    assert caveat in open(files["md"]).read()
    assert caveat in html.unescape(open(files["html"]).read())
    d = json.loads(open(files["json"]).read())
    assert caveat in d["caveat"] and d["settings"]["quick"] is True
    assert d["base"] == "classic" and d["policy"] == "expert" and d["candidates"]
    assert d["settings"]["flags"] == ["king_goals", "four", "strict_scuttle", "joker",
                                      "sudden_death", "deal"]
    assert open(files["csv"]).readline().startswith("rank,rules,changes,size,status")
    page = open(files["html"]).read()
    assert page.startswith("<!DOCTYPE html>") and "Nearest an even game" in page
    assert "#### The fairest rule set of each size" in open(files["md"]).read()
    assert os.path.getsize(files["png"]) > 1000
    assert err.strip().splitlines() == [f"page saved to {files['html']}",
                                        f"plot saved to {files['png']}"]


def test_the_plot_of_no_candidates_warns_of_nothing(capsys, tmp_path):
    """matplotlib warned "No artists with labels found to put in legend" (with a path
    of its source) for a plot without candidates: an empty file, an early Ctrl-C."""
    pytest.importorskip("matplotlib")
    from cuttle.balancing.config import make_config
    from cuttle.balancing.search import _Run, _Status
    from cuttle.variants.store import Store
    results = tmp_path / "r.jsonl"
    results.write_text('{"format": "cuttle-atlas", "version": 1}\n')
    png = tmp_path / "b.png"
    # (reading an empty file is refused now: the search as read from it, with nothing)
    config = make_config("classic", "expert", 3, None, None, None, None, None, None, None,
                         2000, 1, 10000, 0.95, None, False)
    with Store(results, write=False) as store:
        search = _Run(config, store, None, _Status(False, ""), False)
        search.run()
        res = search.result()
    assert not res.candidates
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res.plot(str(png))
    assert os.path.getsize(png) > 1000


def test_results_file_and_report_only(capsys, tmp_path):
    results = str(tmp_path / "r.jsonl")
    code, out, _ = run(capsys, *ARGS, "--results", results)
    assert code == 0
    code, again, _ = run(capsys, *ARGS, "--results", results)
    assert code == 0 and again.splitlines()[3:] == out.splitlines()[3:]   # (time line)
    code, read, err = run(capsys, *ARGS, "--results", results, "--report-only")
    assert code == 0 and read.splitlines()[3:] == out.splitlines()[3:] and not err
    # (which plays nothing, so no cluster is started or reached: it failed on this one)
    code, read, err = run(capsys, *ARGS, "--results", results, "--report-only",
                          "--scheduler", "tcp://127.0.0.1:1")
    assert code == 0 and read.splitlines()[3:] == out.splitlines()[3:] and not err
    # other options find none of the file's games: an error naming the runs it holds,
    # with no table advising to run again (the same command would play nothing)
    code, out9, err = run(capsys, *ARGS, "--seed", "9", "--results", results, "--report-only")
    assert code == 2 and not out9
    assert "holds no games played with these options" in err
    assert "it holds games of classic under random self-play, seed 1, chunks of 1,000 " \
           "games" in err and "run the same command again" not in err
    # (the library's error, which names the runs it holds)
    with pytest.raises(NothingToReport, match="seed 1, chunks of 1,000 games only"):
        balance(policy="random", seed=9, results=results, play=False)
    # the same search over a space with a flag more (as after a flag is added to the
    # rules): the file is of this run, and the error says the space differs, naming the
    # changes it has not screened (it held "no games played with these options")
    wider = [a.replace("deal,joker,four", "deal,joker,four,strict_scuttle") for a in ARGS]
    code, out, err = run(capsys, *wider, "--results", results, "--report-only")
    assert code == 2 and not out and "no games played with these options" not in err
    assert ("holds no games of this search: it holds the base's games of the first chunk "
            "the search screens, but not those of 1 single change it screens "
            "(strict_scuttle=true): the search space differs") in err
    assert "or play the new changes into the file (the same command without " \
           "--report-only)" in err
    with pytest.raises(NothingToReport, match=r"\(strict_scuttle=true\): the search space "
                                              r"differs") as e:
        balance(policy="random", k=2, flags="deal,joker,four,strict_scuttle",
                deals=[(6, 7), (6, 6)], results=results, play=False,
                budget=dict(chunk_size=1000))
    assert e.value.unscreened == ["strict_scuttle=true"]
    # part of the search: unfinished, and playing (not reading again) would continue it
    part = str(tmp_path / "part.jsonl")
    with open(results) as f:
        lines = f.readlines()
    with open(part, "w") as f:
        f.writelines(lines[:len(lines) // 2])
    code, read, err = run(capsys, *ARGS, "--results", part, "--report-only")
    assert code == 0 and "(unfinished: the results file holds part of this search; run " \
        "the command without --report-only to play the rest)" in read
    code, md, _ = run(capsys, *ARGS, "--results", results, "--report-only", "--markdown")
    assert code == 0 and md.startswith("**cuttle balance:") and "| --- " not in md
    code, js, _ = run(capsys, *ARGS, "--results", results, "--report-only", "--json")
    assert code == 0 and json.loads(js)["policy"] == "random"
    assert json.loads(js)["caveat"] is None and "quick search" not in out     # (not quick)


def test_report_only_says_whether_quick_is_the_option_missing(capsys, tmp_path):
    # A --quick search's file read without --quick (a full one's read with it): the
    # same search but for the chunk size --quick changes, so the error says which; a
    # file of another seed is no such search.
    small = ["balance", "--policy", "random", "-k", "1", "--flags", "joker,four",
             "--screen-games", "10000", "--max-games", "10000", "--confirm-games", "10000",
             "--pairs", "1", "--candidates", "1", "--no-progress"]
    quick, full = str(tmp_path / "quick.jsonl"), str(tmp_path / "full.jsonl")
    for path, extra in ((quick, ["--quick"]), (full, [])):
        assert run(capsys, *small, *extra, "--results", path)[0] == 0
    for path, extra, hint in (
            (quick, [], "its chunks of 2,000 games are what --quick plays: add --quick"),
            (full, ["--quick"], "its chunks of 10,000 games are what these options play "
                                "without --quick: drop --quick")):
        code, out, err = run(capsys, *small, *extra, "--results", path, "--report-only")
        assert code == 2 and not out
        assert err.rstrip().endswith(hint) and "holds no games played" in err
        mended = small + (["--quick"] if not extra else [])
        assert run(capsys, *mended, "--results", path, "--report-only")[0] == 0
    code, _, err = run(capsys, *small, "--seed", "4", "--results", quick, "--report-only")
    assert code == 2 and "holds no games played" in err
    assert "add --quick" not in err and "drop --quick" not in err


CHECK = ["--check", "greedy", "--check-games", "1000"]


def test_check_plays_the_winners_of_the_search_the_file_holds(capsys, tmp_path):
    """The documented use: a search, then its options with --check added, which reads
    the search back and plays only the check; on a new file (or one an interrupted run
    left without a record) --check searches first."""
    results = tmp_path / "r.jsonl"
    code, out, _ = run(capsys, *ARGS, "--results", str(results))
    assert code == 0
    lines = results.read_text().count("\n")
    code, checked, err = run(capsys, *ARGS, *CHECK, "--results", str(results))
    assert code == 0 and "first score, greedy" in checked, err
    new = results.read_text().splitlines()[lines:]
    assert new and all('"players":["greedy","greedy"]' in line for line in new)
    fresh = tmp_path / "fresh.jsonl"
    empty = tmp_path / "empty.jsonl"
    empty.write_text('{"format": "cuttle-atlas", "version": 1}\n')
    for path in (fresh, empty):
        code, again, err = run(capsys, *ARGS, *CHECK, "--results", str(path))
        assert code == 0 and again.splitlines()[3:] == checked.splitlines()[3:], err


def test_check_refuses_a_file_of_another_search(capsys, tmp_path):
    """docs/balance.md's check (`--results balance.jsonl --check ismcts:1000`, without
    the search's options) started a new search, classic with every flag, beside the one
    in the file, without a word: it is refused, saying what the file holds."""
    results = tmp_path / "r.jsonl"
    code, _, _ = run(capsys, *ARGS, "--results", str(results))
    assert code == 0
    before = results.read_bytes()
    # (another policy, another seed: small searches, so the old code soon ended)
    greedy = [("greedy" if a == "random" else a) for a in ARGS]
    for other in (greedy, [*ARGS, "--seed", "9"]):
        code, out, err = run(capsys, *other, *CHECK, "--results", str(results))
        assert code == 2 and out == "" and len(err.splitlines()) == 1
        assert err.startswith("cuttle balance: error: ")
        assert (f"--check: {results} holds no games played with these options: give the "
                f"options of the run that filled it, with --check added (it holds games of "
                f"classic under random self-play, seed 1, chunks of 1,000 games)") in err
        assert "for a new search, give a new --results file" in err
    assert results.read_bytes() == before            # nothing played, nothing written


def _start(results):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.Popen([sys.executable, "-m", "cuttle", *ARGS, "--results",
                             str(results)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)


def test_ctrl_c_stops_and_keeps_the_finished_chunks(capsys, tmp_path):
    whole = tmp_path / "w.jsonl"
    code, reference, _ = run(capsys, *ARGS, "--results", str(whole))
    assert code == 0
    results = tmp_path / "c.jsonl"
    p = _start(results)
    t = time.monotonic()
    while time.monotonic() - t < 60 and p.poll() is None:
        if results.exists() and results.read_bytes().count(b"\n") >= 12:
            break
        time.sleep(0.005)
    else:
        pytest.fail("the run finished before it could be stopped")
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130 and "run the same command again to continue" in err
    assert "unfinished" in out
    kept = results.read_bytes().count(b"\n")
    assert kept >= 12
    p = _start(results)
    out, _ = p.communicate(timeout=120)
    assert p.returncode == 0 and out.splitlines()[3:] == reference.splitlines()[3:]


@pytest.mark.parametrize("argv, message", [
    (["--policy", "chess"], "unknown policy"),
    (["--flags", "jokers"], "unknown rule flag 'jokers'"),
    (["--base", "poker"], "unknown preset"),
    (["-k", "0"], "at least 1"),
    (["--deal", "9,9"], "flag 'deal' takes 2 ints from 1 to 8"),
    (["--moves", "40-20"], "LOW <= HIGH"),
    (["--moves", "many"], "range of moves"),
    # (each range says which ends it takes: "between 0 and 100, not '0'" read as a
    # contradiction)
    (["--max-draws", "150"], "argument --max-draws: must be at least 0 (0: none) and less "
                             "than 100 percentage points, not '150'"),
    (["--max-draws", "-1"], "must be at least 0 (0: none) and less than 100 percentage "
                            "points, not '-1'"),
    (["--target", "0"], "argument --target: a target half-width must be more than 0 and at "
                        "most 10 percentage points, not '0'"),
    (["--screen-target", "0"], "argument --screen-target: a target half-width must be more "
                               "than 0 and at most 10 percentage points, not '0'"),
    (["--confirm-target", "-1"], "argument --confirm-target: a target half-width must be "
                                 "more than 0 and at most 10 percentage points, not '-1'"),
    (["--negligible", "nan"], "argument --negligible: a target half-width must be more "
                              "than 0 and at most 10 percentage points, not 'nan'"),
    (["--report-only"], "give --results FILE"),
    (["--report-only", "--results", "missing.jsonl"], "no file"),
    (["--json", "--csv"], "cannot both write to stdout"),
    (["--plot", "out.nothing"], "image format"),
    (["--check", "chess"], "unknown policy"),
    (["--scheduler", "nowhere"], "scheduler address"),
    (["--flags", "deal", "--deal", "5,6"], "5,6 is the base's own deal"),
    (["--flags", "joker", "--deal", "6,6"], "the search does not change the deal flag"),
    (["--quick", "--confirm-games", "1"], "--confirm-games is 1 game, not a whole number of "
                                         "chunks of 2,000 (--chunk-size, the default)"),
    (["--quick", "--chunk-size", "7000"], "--screen-games (the default) is 4,000 games"),
    (["--check", "random", "--check-games", "15500"], "--check-games must be a whole "
                                                      "number of the check's chunks of "
                                                      "1,000 games"),
])
def test_errors(capsys, argv, message):
    if "--plot" in argv:
        pytest.importorskip("matplotlib")
    code, out, err = run(capsys, "balance", *argv)
    line, *more = err.splitlines()
    assert (code, out) == (2, "") and line.startswith("cuttle balance: error: ")
    assert message in line
    # (one line, but for --report-only without its file: a second points at the help)
    assert more == (["(cuttle balance --help lists its options)"]
                    if argv == ["--report-only"] else []), err


def test_no_draws_at_all_is_a_constraint(capsys):
    """--max-draws 0 was refused as not "between 0 and 100"."""
    code, out, err = run(capsys, *ARGS, "--max-draws", "0", "--json")
    assert code == 0, err
    assert json.loads(out)["settings"]["max_draws"] == 0
    # random self-play draws: what was raced broke it, and the report says so
    code, out, err = run(capsys, *ARGS, "--max-draws", "0")
    assert code == 0 and ("no rule set with changes meets the constraints (draws at most "
                          "0.00%): every raced candidate broke them") in out


def test_an_atlas_file_is_not_a_balance_file(capsys, tmp_path):
    foreign = tmp_path / "notes.txt"
    foreign.write_text("my notes\n")
    code, _, err = run(capsys, *ARGS, "--results", str(foreign))
    # (balance and atlas share the format: it said "not an atlas results file")
    assert code == 2 and ("notes.txt is not a balance/atlas results file (its first line is "
                          "not the header of the format cuttle balance and cuttle atlas "
                          "share); give the name of a new file, or of a file a balance or "
                          "atlas run wrote") in err
    assert foreign.read_text() == "my notes\n"


@pytest.mark.parametrize("games", ["2000", "15500"])
def test_check_games_without_check_is_a_line_of_the_wrong_shape(capsys, tmp_path, games):
    """--check-games without --check was ignored, even a value --check refuses (15,500
    is no whole number of the check's chunks): a command line of the wrong shape, said
    with the pointer to the help, before anything is played or written."""
    results = tmp_path / "r.jsonl"
    code, out, err = run(capsys, *ARGS, "--check-games", games, "--results", str(results))
    assert (code, out) == (2, "") and not results.exists()
    assert err.splitlines() == [
        "cuttle balance: error: --check-games counts the games of each rule set under "
        "--check POLICY and means nothing without it: give --check too (e.g. --check "
        "ismcts:1000), or leave --check-games out",
        "(cuttle balance --help lists its options)"]


def test_a_search_stopped_before_a_chunk_finished_says_so(monkeypatch, capsys, tmp_path):
    """Stopped before its first chunk finished: the interrupt line named no command
    ("cuttle: interrupted ...") and said the tables below held the finished chunks,
    none; the first table was its header alone; the plot empty axes.  Now the line
    names the command and says that none finished, every table says nothing was
    measured yet, and the plot is a figure that says so, as its line says."""
    pytest.importorskip("matplotlib")
    import importlib
    command = importlib.import_module("cuttle.cli.balance")

    def stop(info):
        raise KeyboardInterrupt

    def stopped(*args, **kwargs):
        return balance(*args, **dict(kwargs, progress=stop))
    monkeypatch.setattr(command, "balance", stopped)
    png = tmp_path / "b.png"
    code, out, err = run(capsys, *ARGS, "--plot", str(png))
    lines = [line for line in err.splitlines() if line]
    assert code == 130 and len(lines) == 2, err
    assert lines[0].startswith("cuttle balance: interrupted after playing ")
    assert lines[0].endswith(" (0 whole chunks of games); none of its chunks finished, so "
                             "the tables below hold no games")
    assert lines[1] == f"plot saved to {png}: nothing measured yet, so it says only that"
    assert png.read_bytes()[:4] == b"\x89PNG"
    first = out.split("The fairest rule set of each size")[1].split("The Pareto")[0]
    assert "nothing measured here yet" in first and "changes  rule set" not in first


def test_the_interrupt_line_says_what_the_tables_hold():
    """With no whole chunk of its own, a run that continued a results file shows that
    file's chunks, and says so; with chunks of its own, the finished chunks."""
    from types import SimpleNamespace

    from cuttle.cli.simulate import _tables_hold
    from cuttle.variants.chunks import RunInterrupted

    def said(records, games_in_tables):
        return _tables_hold(RunInterrupted(SimpleNamespace(
            played_records=records, played_games=5 * records + 3, n_games=games_in_tables)))
    assert said(2, 10) == "the tables below hold the finished chunks"
    assert said(0, 4000) == ("none of its chunks finished: the tables below hold those "
                             "the results file held before")
    assert said(0, 0) == "none of its chunks finished, so the tables below hold no games"
