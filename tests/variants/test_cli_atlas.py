"""`cuttle atlas`: tables, outputs, errors, and runs killed mid-way then resumed."""

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from cuttle.variants import Pairing, atlas
from cuttle.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# random self-play on classic, chunks of 1,000 games, up to 12 chunks
ARGS = ["atlas", "--pairings", "random", "--bases", "classic", "--chunk-size", "1000",
        "--target", "0.06", "--max-games", "12000", "--seed", "3", "--no-progress"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def reference():
    """The tables of one uninterrupted run of ARGS."""
    return atlas([Pairing("random", 0.0006, 12000, 1000)], ["classic"], seed=3).markdown()


def test_tables_and_files(capsys, tmp_path, reference):
    pytest.importorskip("matplotlib")
    results = tmp_path / "r.jsonl"
    code, out, err = run(capsys, *ARGS, "--results", str(results), "--json",
                         str(tmp_path / "a.json"), "--csv", str(tmp_path / "a.csv"),
                         "--plot", str(tmp_path / "plots"))
    assert code == 0 and out.strip() == reference
    assert "| **classic (base)** |" in out and "| four=draw |" in out
    assert err.strip() == f"1 plot saved in {tmp_path / 'plots'}"
    d = json.loads((tmp_path / "a.json").read_text())
    assert d["atlas"]["seed"] == 3 and d["groups"][0]["pairing"]["target"] == 0.0006
    assert (tmp_path / "a.csv").read_text().startswith("base,policy,variant")
    assert (tmp_path / "plots" / "classic-random.png").is_file()
    # nothing left to play: the same tables at once, also without playing at all
    code, out2, _ = run(capsys, *ARGS, "--results", str(results))
    assert code == 0 and out2 == out
    code, out3, err = run(capsys, *ARGS, "--results", str(results), "--report-only")
    assert code == 0 and out3 == out and not err
    # (which plays nothing, so no cluster is started or reached: it failed on this one)
    code, out3, err = run(capsys, *ARGS, "--results", str(results), "--report-only",
                          "--scheduler", "tcp://127.0.0.1:1")
    assert code == 0 and out3 == out and not err
    # other options find none of the file's games, and say so
    other = [a if a != "3" else "4" for a in ARGS]                       # (the seed)
    code, none, err = run(capsys, *other, "--results", str(results), "--report-only")
    assert code == 2 and not none and "holds no games played with these options" in err
    assert "it holds games of classic under random self-play, seed 3, chunks of 1,000 " \
           "games" in err
    code, js, _ = run(capsys, *ARGS, "--json")
    assert code == 0 and json.loads(js)["groups"][0]["base"] == "classic"
    # a file whose only record was cut off while written: said so, and how it is taken
    cut = tmp_path / "cut.jsonl"
    text = results.read_text()
    cut.write_text(text.splitlines(keepends=True)[0] + text.splitlines()[1][:200])
    code, none, err = run(capsys, *ARGS, "--results", str(cut), "--report-only")
    assert code == 2 and not none and "it holds no games at all" in err
    assert "its last line (line 2) is incomplete (cut off by an interrupted write?) and " \
           "is ignored; a run that plays (not --report-only) drops it" in err
    assert "play=False" not in err


def test_no_end_share_reads_100_percent_beside_another(capsys):
    # The base's 1 draw of 2,000, by passes, read "goal 100.0%, passes 0.1%" (one decimal,
    # which summed to 100.1% and said that every game ended by goal).
    code, out, err = run(capsys, "atlas", "--pairings", "greedy", "--bases", "classic",
                         "--max-games", "4000", "--chunk-size", "2000", "--target", "3",
                         "--interactions", "2", "--no-progress")
    assert code == 0 and not err
    assert "| **classic (base)** | 43.75% |  | 0.05% | 15.8 |  | goal 99.95%, passes 0.05% " \
           "| 2,000 |" in out
    cells = re.findall(r"\| ([0-9.]+%(?: \([^)]*\))?) \|[^|]*\|[^|]*\| "
                       r"((?:goal|passes|sudden death|move cap) [^|]*%) \|", out)
    assert len(cells) == 33                                 # the base and 32 variants
    for draws, ends in cells:
        shares = {k: float(v) for k, v in re.findall(r"([a-z][a-z ]*) ([0-9.]+)%", ends)}
        assert abs(sum(shares.values()) - 100) <= 0.005 * len(shares) + 1e-9, ends
        # a share reads 100% only beside shares of 0%, and the draws as the ends say
        assert 100 not in shares.values() or set(shares.values()) <= {0.0, 100.0}, ends
        drawn = float(draws.split("%")[0])
        assert (drawn == 0) == (shares["goal"] == 100), (draws, ends)


def test_quick(capsys):
    code, out, _ = run(capsys, "atlas", "--quick", "--pairings", "random", "--max-games",
                       "10000", "--chunk-size", "5000")
    assert code == 0
    assert "±0.50 pp" in out and "chunks of 5,000 games" in out
    assert out.count("\n### ") + out.startswith("### ") == 2     # classic and cuttle.cards


def test_report_only_says_whether_quick_is_the_option_missing(capsys, tmp_path):
    # A file of a --quick run read without --quick (or a full run's read with it):
    # the same run but for the chunk size --quick changes, so the error says which.
    small = ["atlas", "--pairings", "random", "--bases", "classic", "--max-games",
             "20000", "--target", "10", "--interactions", "0", "--no-progress"]
    quick, full = str(tmp_path / "quick.jsonl"), str(tmp_path / "full.jsonl")
    for path, extra in ((quick, ["--quick"]), (full, [])):
        assert run(capsys, *small, *extra, "--results", path)[0] == 0
    for path, extra, hint in (
            (quick, [], "its chunks of 10,000 games are what --quick plays: add --quick"),
            (full, ["--quick"], "its chunks of 20,000 games are what these options play "
                                "without --quick: drop --quick")):
        code, out, err = run(capsys, *small, *extra, "--results", path, "--report-only")
        assert code == 2 and not out
        assert err.rstrip().endswith(hint) and "holds no games played" in err
        # with the option mended it reads the file
        mended = [x for x in small + extra if x != "--quick"] + (["--quick"] * (not extra))
        assert run(capsys, *mended, "--results", path, "--report-only")[0] == 0
    # another run besides the chunk size (here its move cap): no such word
    code, _, err = run(capsys, *small, "--results", quick, "--report-only",
                       "--max-moves", "500")
    assert code == 2 and "holds no games played" in err
    assert "add --quick" not in err and "drop --quick" not in err


def test_a_cap_below_the_quick_chunk_takes_chunks_of_the_cap(capsys):
    code, out, _ = run(capsys, "atlas", "--quick", "--pairings", "random", "--bases",
                       "classic", "--max-games", "1000", "--interactions", "0", "--json")
    assert code == 0
    assert json.loads(out)["groups"][0]["pairing"]["chunk_size"] == 1000


def test_settings_per_pairing(capsys):
    code, out, _ = run(capsys, "atlas", "--pairings", "random,greedy", "--bases", "classic",
                       "--target", "2", "--target", "greedy=3", "--max-games", "2000",
                       "--chunk-size", "1000", "--json")
    assert code == 0
    targets = {g["policy"]: g["pairing"]["target"] for g in json.loads(out)["groups"]}
    assert targets == {"random": 0.02, "greedy": 0.03}


@pytest.mark.parametrize("argv, message", [
    (["--pairings", "chess"], "unknown policy"),
    (["--pairings", "random,"], "names separated by commas"),
    (["--bases", "poker"], "unknown preset"),
    (["--target", "0"], "must be more than 0 and at most 10 percentage points, not '0'"),
    (["--target", "abc"], "percentage points"),
    (["--target", "greedy=1", "--pairings", "random"], "not one of the pairings"),
    (["--max-games", "0"], "at least 1"),
    # whole chunks: 5,000 games were played "at the cap of 1,000"
    (["--max-games", "1000", "--chunk-size", "5000"],
     "--chunk-size 5,000 is larger than --max-games 1,000 for"),
    (["--quick", "--chunk-size", "300000"],
     "--chunk-size 300,000 is larger than --max-games 200,000 for random"),
    (["--report-only"], "give --results FILE"),
    (["--report-only", "--results", "missing.jsonl"], "no file"),
    (["--json", "--csv"], "cannot both write to stdout"),
    # an empty --plot was taken for no --plot: the whole default atlas, without plots
    (["--plot", "", "--pairings", "random", "--bases", "classic", "--max-games", "500"],
     "--plot expects a folder name, not ''"),
    (["--scheduler", "nowhere"], "scheduler address"),
    # the last of two values was kept without a word
    (["--target", "1", "--target", "2"], "--target (every pairing) is given twice"),
    (["--pairings", "random", "--max-games", "random=10", "--max-games", "random=20"],
     "--max-games random=... is given twice"),
])
def test_errors(capsys, argv, message):
    code, out, err = run(capsys, "atlas", *argv)
    line, *more = err.splitlines()
    assert (code, out) == (2, "") and line.startswith("cuttle atlas: error: ")
    assert message in line
    # (one line, but for --report-only without its file: a second points at the help)
    assert more == (["(cuttle atlas --help lists its options)"]
                    if argv == ["--report-only"] else []), err


@pytest.mark.parametrize("option", ["--pairings", "--bases"])
def test_an_empty_list_is_refused(capsys, tmp_path, option):
    """An empty --pairings meant the default pairings (hours of play without --quick)."""
    results = tmp_path / "r.jsonl"
    results.write_text('{"format": "cuttle-atlas", "version": 1}\n')
    code, _, err = run(capsys, "atlas", option, "", "--results", str(results),
                       "--report-only")
    assert code == 2 and f"{option} takes names separated by commas, not ''" in err


def test_file_errors(capsys, tmp_path):
    foreign = tmp_path / "notes.txt"
    foreign.write_text("my notes\n")
    code, _, err = run(capsys, *ARGS, "--results", str(foreign))
    assert code == 2 and "not a balance/atlas results file" in err
    # (the file, not the options, is at fault: one line)
    assert err.startswith("cuttle atlas: error: ") and len(err.splitlines()) == 1
    assert foreign.read_text() == "my notes\n"
    (tmp_path / "f").write_text("")
    pytest.importorskip("matplotlib")
    code, _, err = run(capsys, *ARGS, "--plot", str(tmp_path / "f"))
    assert code == 2 and "--plot" in err and "is a file" in err
    code, _, err = run(capsys, *ARGS, "--results", str(tmp_path), "--no-progress")
    assert code == 2 and "folder" in err


@pytest.mark.parametrize("option", ["--json", "--csv", "--results"])
def test_the_plot_folder_and_an_output_file_cannot_share_a_name(capsys, tmp_path, option):
    # The file was written under the name, then the plots failed: status 1 after the run.
    pytest.importorskip("matplotlib")
    path = str(tmp_path / "out")
    code, out, err = run(capsys, *ARGS, "--plot", path, option, path)
    assert code == 2 and err == (f"cuttle atlas: error: --plot and {option} name the same "
                                 f"path {path!r} (--plot names a folder of plots)\n")
    assert out == "" and os.listdir(tmp_path) == []


def _start(results, *extra):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.Popen([sys.executable, "-m", "cuttle", *ARGS, "--results",
                             str(results), *extra], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def _wait_for_lines(path, n, p, timeout=60):
    t = time.monotonic()
    while time.monotonic() - t < timeout and p.poll() is None:
        if path.exists() and path.read_bytes().count(b"\n") >= n:
            return
        time.sleep(0.005)
    pytest.fail("the run finished before it could be stopped")


def test_killed_mid_run_then_resumed_gives_the_same_tables(tmp_path, reference):
    results = tmp_path / "k.jsonl"
    p = _start(results)
    _wait_for_lines(results, 30, p)                # past the first chunk
    p.kill()
    p.communicate()
    assert p.returncode == -signal.SIGKILL
    kept = results.read_bytes().count(b"\n")
    with open(results, "ab") as f:                 # as if killed while writing a line
        f.write(b'{"base":"classic","rules":"classic: jok')
    p = _start(results)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0 and out.strip() == reference
    assert "last line (line" in err and "was incomplete (cut off by an interrupted " \
        "write?) and is dropped; its chunk will be played again" in err
    total = results.read_bytes().count(b"\n")
    assert kept < total and not results.read_bytes().endswith(b"jok")


def test_ctrl_c_stops_at_once_and_keeps_the_finished_chunks(tmp_path, reference):
    results = tmp_path / "c.jsonl"
    p = _start(results)
    _wait_for_lines(results, 30, p)
    t = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    # It stops in milliseconds; the bound is loose so that a loaded machine cannot fail
    # it (what matters is that the run stopped unfinished and kept its chunks).
    assert time.monotonic() - t < 10
    assert p.returncode == 130 and "run the same command again to continue" in err
    assert "unfinished" in out                      # the tables of the finished chunks
    kept = results.read_bytes().count(b"\n")
    assert kept >= 30
    p = _start(results)
    out, _ = p.communicate(timeout=120)
    assert p.returncode == 0 and out.strip() == reference
