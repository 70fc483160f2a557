"""The benchmarks' --help: the whole description (their docstring, not its first line
cut mid-sentence) and a help text for every option."""

import ast
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BENCHMARKS = sorted((ROOT / "benchmarks").glob("bench_*.py"))


def option_lines(text):
    """The option entries of argparse's help, each as (first line, has a description)."""
    # ("optional arguments:" before Python 3.10)
    start = re.search(r"^(options|optional arguments):$", text, re.M).end()
    lines = text[start:].splitlines()[1:]
    entries = []
    for i, line in enumerate(lines):
        if line.startswith("  -"):
            described = "  " in line.strip() or (
                i + 1 < len(lines) and lines[i + 1].startswith(" " * 10))
            entries.append((line.strip(), described))
    return entries


def test_every_benchmark_is_on_the_map():
    # docs/architecture.md says what each benchmark measures (a new one is added there)
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert len(BENCHMARKS) >= 6
    missing = [p.name for p in BENCHMARKS if f"`{p.name}`" not in text]
    assert not missing, f"benchmarks not in docs/architecture.md: {missing}"


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda p: p.name)
def test_help_holds_the_whole_description_and_every_option_says_what_it_does(path):
    run = subprocess.run([sys.executable, str(path), "--help"], capture_output=True,
                         text=True, cwd=ROOT)
    if run.returncode and "pip install \"pycuttle[" in run.stderr:
        pytest.skip(run.stderr.strip().splitlines()[-1])   # (one needs an extra: bench_rl)
    assert run.returncode == 0, run.stderr
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert doc.strip() in run.stdout, "the description is not the whole docstring"
    undescribed = [line for line, described in option_lines(run.stdout) if not described]
    assert not undescribed, f"options without a help text: {undescribed}"


def test_a_match_report_reads_complete_pairs_and_claims_no_interval_it_lacks(capsys,
                                                                            monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import bench_search_match as match

    def report(scores):
        match.report([("m.jsonl", None, [{"game": i, "score": s, "cpu": [1e-3, 2e-3],
                                           "dec": [1, 1]} for i, s in enumerate(scores)])])
        return capsys.readouterr().out

    out = report([1.0, 0.0])                      # one pair: no variance
    assert "score 50.0% (no interval from one deal)" in out and "[" not in out
    # a sweep: no variance, but the library's score interval (its pseudo-pairs scoring 0
    # and 1) still has a width, 10 pairs of 10 won
    out = report([1.0] * 20)
    assert "score 100.0% [75.3%, 100.0%]" in out and "Elo +inf [+194, +inf]" in out
    # the interval stays within [0, 1]; the unfinished pair (game 6) counts nowhere
    out = report([1, 1, 1, 1, 1, 0, 1])
    assert "6 games in 3 paired deals" in out and "wins 5, draws 0, losses 1" in out
    assert "score 83.3% [30.8%, 100.0%]" in out and "Elo +280 [-141, +inf]" in out
    assert "ratio 0.50" in out


def test_a_ladder_reuses_the_pairings_of_an_earlier_run_but_those_it_must_replay(tmp_path):
    # --reuse takes an earlier run's pairings as they are (same rules, seed and game
    # counts), --replay plays a changed policy's again; another seed is refused.
    script = str(ROOT / "benchmarks" / "bench_strength.py")

    def ladder(*args):
        return subprocess.run([sys.executable, script, "--games", "40", "--bootstrap", "20",
                               *args], capture_output=True, text=True, cwd=tmp_path)
    first = ladder("--policies", "random,greedy,expert", "--json", "a.json")
    assert first.returncode == 0, first.stderr
    import json
    old = {(p["a"], p["b"]): p for p in json.loads((tmp_path / "a.json").read_text())["pairings"]}
    # Fake a different result for one pairing: a reused pairing must carry it over.
    data = json.loads((tmp_path / "a.json").read_text())
    for p in data["pairings"]:
        if (p["a"], p["b"]) == ("random", "greedy"):
            p["wins_a"], p["wins_b"], p["draws"] = 7, 33, 0
    (tmp_path / "a.json").write_text(json.dumps(data))
    second = ladder("--policies", "random,greedy,expert", "--reuse", "a.json",
                    "--replay", "expert", "--json", "b.json")
    assert second.returncode == 0, second.stderr
    new = {(p["a"], p["b"]): p for p in json.loads((tmp_path / "b.json").read_text())["pairings"]}
    assert (new[("random", "greedy")]["wins_a"], new[("random", "greedy")]["wins_b"]) == (7, 33)
    assert "(reused)" in second.stdout.splitlines()[1]
    for pair in (("random", "expert"), ("greedy", "expert")):      # played again: as before
        assert new[pair]["wins_a"] == old[pair]["wins_a"] and "(reused)" not in second.stdout \
            .split(f"{pair[0]} vs {pair[1]}")[1].splitlines()[0]
    bad = ladder("--policies", "random,greedy", "--reuse", "a.json", "--seed", "3")
    assert bad.returncode == 2 and "seed" in bad.stderr
    assert ladder("--policies", "random,greedy", "--replay", "greedy").returncode == 2


def test_a_ladder_refuses_an_unknown_policy_in_one_line():
    # A misspelt policy ended in a 20-line traceback from deep in simulate.
    script = str(ROOT / "benchmarks" / "bench_strength.py")
    for bad, said in (("random,grdy", "unknown policy 'grdy'; valid: random, greedy"),
                      ("random,openspiel-ismcts:x", "positive count of iterations")):
        run = subprocess.run([sys.executable, script, "--policies", bad],
                             capture_output=True, text=True)
        assert run.returncode == 2 and "Traceback" not in run.stderr
        last = run.stderr.strip().splitlines()[-1]
        assert last.startswith("bench_strength.py: error: --policies: ") and said in last


def test_playouts_times_the_analysis_rollouts_that_docs_analysis_md_publishes():
    # docs/analysis.md's rollouts/s named a position but no command that measures them.
    script = str(ROOT / "benchmarks" / "bench_playouts.py")
    run = subprocess.run([sys.executable, script, "--analyse", "--quick", "--rollouts", "40"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[1] == ("cuttle.analyse on cuttle.Game(seed=3): 8 legal moves, 4 random "
                        "and 1 greedy rollouts a move")
    rows = [re.fullmatch(r"analyse (\w+) rollouts +(\d+) thr +([\d,]+) rollouts/s", x)
            for x in lines[2:]]
    assert all(rows) and len(rows) in (2, 4), lines        # (1 thread and all cores)
    assert [m[1] for m in rows] == sorted(m[1] for m in rows)[::-1]  # random, then greedy
    assert all(int(m[3].replace(",", "")) > 0 for m in rows)
    bad = subprocess.run([sys.executable, script, "--analyse", "--rollouts", "3"],
                         capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "--rollouts: at least 40, not 3" in bad.stderr
