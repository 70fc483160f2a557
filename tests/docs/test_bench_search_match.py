"""benchmarks/bench_search_match.py: its options and the other checkout checked before
a worker starts or a file is made, and a worker's failure a failure of the match."""

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "benchmarks" / "bench_search_match.py")


def match(*args, cwd):
    return subprocess.run([sys.executable, SCRIPT, "--games", "2", "--workers", "1",
                           "--out", "m.jsonl", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


@pytest.mark.parametrize("args, said", [
    (["--other", str(ROOT), "--mine", "grredy"], "--mine: unknown policy 'grredy'"),
    (["--other", str(ROOT), "--theirs", "grredy"], "--theirs: unknown policy 'grredy'"),
    (["--other", "/nonexistent"], "--other /nonexistent: no such folder"),
    (["--other", "."], "no cuttle checkout there"),
    (["--other", str(ROOT), "--games", "0"], "argument --games: must be at least 1"),
    (["--other", str(ROOT), "--mine-config", "[1]"], "--mine-config takes a JSON object"),
])
def test_a_bad_option_or_checkout_is_a_usage_error_and_makes_no_file(args, said, tmp_path):
    # A misspelt policy or a missing checkout ended in a worker's traceback, "no
    # complete pair yet", status 0 and an empty --out file.
    run = match(*args, cwd=tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("bench_search_match.py: error: ") and said in last, last
    assert not (tmp_path / "m.jsonl").exists()


def test_a_worker_that_fails_fails_the_match(tmp_path):
    # (a search setting the search does not know: the worker fails before any game)
    run = match("--other", str(ROOT), "--mine", "random", "--theirs", "random",
                "--mine-config", '{"no_such_setting": 1}', cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    assert "1 of 1 workers failed (worker 0: exit status 1; its error is above): the " \
           "match is incomplete; no game finished" in run.stderr
    assert not (tmp_path / "m.jsonl").exists()


def test_a_match_plays_and_reports(tmp_path):
    run = match("--other", str(ROOT), "--mine", "random", "--theirs", "greedy",
                cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "2 games in 1 paired deals" in run.stdout
    assert len((tmp_path / "m.jsonl").read_text().splitlines()) == 2


def test_report_pools_runs_each_files_deals_their_own(tmp_path):
    # Two seeds' runs number their games from 0 alike: pooled by game number they
    # would merge the deals of one into the other's pairs.
    def row(game, score):
        return (f'{{"game": {game}, "seat": {game % 2}, "score": {score}, "moves": 10, '
                f'"cpu": [0.01, 0.02], "dec": [5, 5]}}\n')
    (tmp_path / "a.jsonl").write_text(row(0, 1.0) + row(1, 1.0) + row(2, 0.0) + row(3, 0.5))
    (tmp_path / "b.jsonl").write_text(row(0, 0.0) + row(1, 0.0) + row(2, 1.0))
    run = subprocess.run([sys.executable, SCRIPT, "--other", str(ROOT), "--out", "a.jsonl",
                          "--pool", "b.jsonl", "--report"], capture_output=True, text=True,
                         cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    # b's game 2 has no partner: 3 complete deals, 6 games, 2.5 points of them a's
    assert "2 runs pooled (a.jsonl, b.jsonl): 6 games in 3 paired deals" in run.stdout
    assert "wins 2, draws 1, losses 3" in run.stdout
    assert "score 41.7% [" in run.stdout
    assert "(ratio 0.50)" in run.stdout
    for args, said in ((["--pool", "b.jsonl"], "--pool needs --report"),
                       (["--pool", "c.jsonl", "--report"], "no file 'c.jsonl'")):
        bad = subprocess.run([sys.executable, SCRIPT, "--other", str(ROOT), "--out",
                              "a.jsonl", *args], capture_output=True, text=True, cwd=tmp_path)
        assert bad.returncode == 2 and said in bad.stderr, bad.stderr
