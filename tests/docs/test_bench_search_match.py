"""benchmarks/bench_search_match.py: its options and the other checkout checked before
a worker starts or a file is made, a worker's failure a failure of the match, and its
results file saying which match it holds (a rerun resumes only that match; the report
and the pooling read the labels from the files), every line of it checked (a cut-off
last line dropped, as the library's results files do)."""

import json
import math
import pathlib
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
    assert len((tmp_path / "m.jsonl").read_text().splitlines()) == 3   # the match, 2 games


def row(game, score):
    """A game's line of a results file."""
    return (f'{{"game": {game}, "seat": {game % 2}, "score": {score}, "moves": 10, '
            f'"cpu": [0.01, 0.02], "dec": [5, 5]}}\n')


def report(*args, cwd):
    return subprocess.run([sys.executable, SCRIPT, "--report", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300)


def test_report_pools_runs_each_files_deals_their_own(tmp_path):
    # Two seeds' runs number their games from 0 alike: pooled by game number they
    # would merge the deals of one into the other's pairs.
    (tmp_path / "a.jsonl").write_text(row(0, 1.0) + row(1, 1.0) + row(2, 0.0) + row(3, 0.5))
    (tmp_path / "b.jsonl").write_text(row(0, 0.0) + row(1, 0.0) + row(2, 1.0))
    run = subprocess.run([sys.executable, SCRIPT, "--other", str(ROOT), "--out", "a.jsonl",
                          "--pool", "b.jsonl", "--report"], capture_output=True, text=True,
                         cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    # b's game 2 has no partner: 3 complete deals, 6 games, 2.5 points of them a's
    assert "2 runs pooled (a.jsonl, b.jsonl): 6 games in 3 paired deals" in run.stdout
    # (files of an older version: each run said to record no options)
    assert "  a.jsonl: (options not recorded)\n  b.jsonl: (options not recorded)" in run.stdout
    assert "wins 2, draws 1, losses 3" in run.stdout
    assert "score 41.7% [" in run.stdout
    assert "(ratio 0.50)" in run.stdout
    for args, said in ((["--pool", "b.jsonl"], "--pool needs --report"),
                       (["--pool", "c.jsonl", "--report"], "no file 'c.jsonl'")):
        bad = subprocess.run([sys.executable, SCRIPT, "--other", str(ROOT), "--out",
                              "a.jsonl", *args], capture_output=True, text=True, cwd=tmp_path)
        assert bad.returncode == 2 and said in bad.stderr, bad.stderr


def first_run(tmp_path):
    """A match of 2 games, random (this checkout) against greedy: (its file's lines, the
    match its first line records)."""
    run = match("--other", str(ROOT), "--mine", "random", "--theirs", "greedy", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    lines = (tmp_path / "m.jsonl").read_text().splitlines()
    return lines, json.loads(lines[0])["match"]


def test_the_file_records_its_match_and_the_report_reads_it_not_the_command_line(tmp_path):
    # A seed-2035 ismcts-infer:1700 file reported with other options on the command line
    # was labelled with them ("ismcts:100 ... rules cuttle.cards, seed 9999").
    lines, m = first_run(tmp_path)
    assert len(lines) == 3 and [json.loads(x)["game"] for x in lines[1:]] == [0, 1]
    assert (m["mine"], m["theirs"], m["rules"], m["seed"], m["mine_config"]) == \
        ("random", "greedy", "classic", 2026, {})
    assert m["other"] == str(ROOT) and m["mine_source"] == m["other_source"]
    assert len(m["mine_source"]) == 64          # (one checkout on both sides)
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=7", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    if head:                                    # (a git checkout: its commit is said)
        assert m["mine_commit"].startswith(head) and m["other_commit"] == m["mine_commit"]
    run = report("--out", "m.jsonl", "--mine", "ismcts:100", "--rules", "cuttle.cards",
                 "--seed", "9999", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    first = run.stdout.splitlines()[0]
    assert first.startswith(f"random (this checkout, {m['mine_commit']}) vs greedy "
                            f"({ROOT}, {m['other_commit']}), rules classic, seed 2026: "
                            f"2 games in 1 paired deals"), first
    assert "9999" not in run.stdout and "ismcts" not in run.stdout


@pytest.mark.parametrize("args, said", [
    (["--seed", "9999"], "--seed 2026 in the file, 9999 now"),
    (["--mine", "greedy"], '--mine "random" in the file, "greedy" now'),
    (["--theirs", "random"], '--theirs "greedy" in the file, "random" now'),
    (["--rules", "cuttle.cards"], '--rules "classic" in the file, "cuttle.cards" now'),
    (["--mine-config", '{"depth": 2}'], '--mine-config {} in the file, {"depth": 2} now'),
])
def test_a_rerun_with_other_options_is_refused_naming_them(args, said, tmp_path):
    # A rerun skipped every game index already in the file whatever its options: it
    # played nothing and reported the old games under the new options.
    lines, _ = first_run(tmp_path)
    run = match("--other", str(ROOT), "--mine", "random", "--theirs", "greedy", *args,
                cwd=tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    last = run.stderr.strip().splitlines()[-1]
    assert "--out m.jsonl holds another match" in last and said in last, last
    assert (tmp_path / "m.jsonl").read_text().splitlines() == lines


def test_a_rerun_of_the_same_match_resumes_it(tmp_path):
    lines, _ = first_run(tmp_path)
    # the same rules however written, and more games: only the new ones played
    run = match("--other", str(ROOT), "--mine", "random", "--theirs", "greedy",
                "--rules", "Classic", "--games", "4", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    now = (tmp_path / "m.jsonl").read_text().splitlines()
    assert now[:3] == lines and sorted(json.loads(x)["game"] for x in now[3:]) == [2, 3]
    assert "seed 2026: 4 games in 2 paired deals" in run.stdout


def test_a_rerun_by_another_build_is_refused(tmp_path):
    # (the file's games as if played by another state of this checkout's sources)
    lines, m = first_run(tmp_path)
    m2 = dict(m, mine_source="0" * 64, mine_commit="1234567")
    (tmp_path / "m.jsonl").write_text("\n".join([json.dumps({"match": m2})] + lines[1:]) + "\n")
    run = match("--other", str(ROOT), "--mine", "random", "--theirs", "greedy", cwd=tmp_path)
    assert run.returncode == 2, run.stderr
    assert "this checkout's cuttle/ sources those of 1234567 (000000000000) in the file, " \
           f"those of {m['mine_commit']} ({m['mine_source'][:12]}) now" in run.stderr


def test_an_old_file_reports_without_options_and_cannot_be_resumed(tmp_path):
    # (the published rows came from files without the match's line)
    (tmp_path / "m.jsonl").write_text(row(0, 1.0) + row(1, 0.5))
    run = report("--out", "m.jsonl", "--mine", "ismcts:100", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("m.jsonl (options not recorded): 2 games in 1 paired deals")
    run = match("--other", str(ROOT), "--mine", "random", cwd=tmp_path)
    assert run.returncode == 2 and "its 2 games record no options" in run.stderr, run.stderr
    assert (tmp_path / "m.jsonl").read_text() == row(0, 1.0) + row(1, 0.5)


def test_pooling_takes_one_match_under_other_seeds_and_refuses_the_rest(tmp_path):
    _, m = first_run(tmp_path)

    def write(name, **changes):
        (tmp_path / name).write_text(json.dumps({"match": dict(m, **changes)}) + "\n"
                                     + row(0, 1.0) + row(1, 0.5))
    write("a.jsonl")
    write("b.jsonl", seed=2027)
    write("c.jsonl", mine="expert")
    write("d.jsonl", seed=2026)
    run = report("--out", "a.jsonl", "--pool", "b.jsonl", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "rules classic, seeds 2026, 2027, 2 runs pooled (a.jsonl, b.jsonl): 4 games " \
           "in 2 paired deals" in run.stdout
    for other, said in (("c.jsonl", '--pool c.jsonl: another match than a.jsonl\'s (--mine '
                                     '"expert" in c.jsonl, "random" in a.jsonl)'),
                        ("d.jsonl", "--pool d.jsonl: seed 2026 twice")):
        run = report("--out", "a.jsonl", "--pool", "b.jsonl", "--pool", other, cwd=tmp_path)
        assert run.returncode == 2 and said in run.stderr, run.stderr
    # a file without the match's line: pooled, each run labelled
    (tmp_path / "old.jsonl").write_text(row(0, 0.0) + row(1, 0.0))
    run = report("--out", "a.jsonl", "--pool", "old.jsonl", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert f"  a.jsonl: random (this checkout, {m['mine_commit']}) vs greedy" in run.stdout
    assert "rules classic, seed 2026\n  old.jsonl: (options not recorded)\n" in run.stdout


def test_pooled_runs_of_nearby_seeds_count_a_shared_deal_once(tmp_path):
    # Seed 2026's pairs deal 2026 and 2027, seed 2027's deals 2027: three pairs on two
    # deals.  Counted as three independent pairs, the repeated deal narrowed the interval.
    _, m = first_run(tmp_path)
    for name, seed, rows in (("a.jsonl", 2026, row(0, 1.0) + row(1, 1.0) + row(2, 0.0)
                              + row(3, 0.0)),
                             ("b.jsonl", 2027, row(0, 1.0) + row(1, 0.0))):
        (tmp_path / name).write_text(json.dumps({"match": dict(m, seed=seed)}) + "\n"
                                     + rows)
    run = report("--out", "a.jsonl", "--pool", "b.jsonl", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert ": 6 games in 2 paired deals (3 pairs: runs of nearby seeds share deals)" \
        in run.stdout
    # deal 2026 scored 1, deal 2027 the mean of its pairs 0 and 0.5: (1 + 0.25) / 2
    assert "score 62.5% [" in run.stdout


@pytest.fixture
def bench(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import bench_search_match
    return bench_search_match


MATCH = {"format": 2, "mine": "random", "mine_config": {}, "theirs": "greedy",
         "rules": "classic", "seed": 2026, "move_guard": 3000, "mine_commit": None,
         "mine_source": "0" * 64, "other": "/o", "other_commit": "abc1234",
         "other_source": "1" * 64}


def match_file(path, rows, match=MATCH):
    path.write_text(json.dumps({"match": match}) + "\n" + "".join(rows))
    return str(path)


@pytest.mark.parametrize("edit, said", [
    (('"score": 1.0', '"score": 51.0'), 'line 2: score 51.0: a game scores 0, 0.5'),
    (('"score": 1.0', '"score": -1'), "line 2: score -1:"),
    (('"score": 1.0', '"score": 0.3'), "line 2: score 0.3:"),
    (('"score": 1.0', '"score": "1"'), 'line 2: score "1":'),
    (('"score": 1.0', '"score": true'), "line 2: score true:"),
    (('"seat": 0', '"seat": 5'), "line 2: seat 5: game 0 puts this checkout in seat 0"),
    (('"seat": 0', '"seat": 1'), "line 2: seat 1: game 0 puts this checkout in seat 0"),
    (('"moves": 10', '"moves": -5'), "line 2: moves -5:"),
    (('"moves": 10', '"moves": 3001'), "at most the move guard, 3000"),
    (('"cpu": [0.01, 0.02]', '"cpu": [-1, Infinity]'), "line 2: cpu [-1, Infinity]:"),
    (('"cpu": [0.01, 0.02]', '"cpu": [0.01, NaN]'), "line 2: cpu [0.01, NaN]:"),
    (('"dec": [5, 5]', '"dec": [-1, 0]'), "line 2: dec [-1, 0]:"),
    (('"dec": [5, 5]', '"dec": [6, 5]'), "at most its 10 moves"),
    (('"game": 0', '"game": -2'), "line 2: game -2:"),
    (('"game": 0', '"gme": 0'), "has the fields game, seat"),
    (('"game": 0,', '"game": 0, "x": 1,'), "(not so: 'x')"),
])
def test_every_game_line_is_checked_naming_its_line(bench, tmp_path, edit, said):
    # An edited score moved the report's score (51.0 read as 51 points); a string score
    # ended in a TypeError's traceback; seats, counts and CPU times out of range passed.
    path = match_file(tmp_path / "m.jsonl", [row(0, 1.0).replace(*edit), row(1, 0.0)])
    with pytest.raises(ValueError, match=re.escape(said)) as e:
        bench.scan(path)
    assert str(e.value).startswith(f"{path}, line ")


@pytest.mark.parametrize("change, said", [
    (dict(seed=-5), "line 1: the match's 'seed' is -5, not a whole number of at least 0"),
    (dict(seed=1.5), "'seed' is 1.5"),
    (dict(move_guard=0), "'move_guard' is 0"),
    (dict(mine=None), "the match's 'mine' is null, not a str"),
    (dict(mine_config=[]), "'mine_config' is [], not a dict"),
    (dict(other_commit=5), "'other_commit' is not a commit's name"),
    (dict(format=1), "a match file of format 1"),
])
def test_the_match_line_is_checked(bench, tmp_path, change, said):
    path = match_file(tmp_path / "m.jsonl", [row(0, 1.0)], dict(MATCH, **change))
    with pytest.raises(ValueError, match=re.escape(said)):
        bench.scan(path)


def test_a_game_twice_is_refused_naming_both_lines(bench, tmp_path):
    # A duplicated line (or two games numbered 5) made a pair of three games, which the
    # report dropped without a word with its partner ("98 games in 49 paired deals").
    path = match_file(tmp_path / "m.jsonl", [row(0, 1.0), row(1, 0.0), row(1, 0.0)])
    with pytest.raises(ValueError, match="line 4: game 1 again \\(also on line 3\\)"):
        bench.scan(path)
    run = report("--out", "m.jsonl", cwd=tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert "--report: m.jsonl, line 4: game 1 again" in run.stderr


def test_a_string_score_is_a_usage_error_not_a_traceback(tmp_path):
    match_file(tmp_path / "m.jsonl", [row(0, '"1"'), row(1, 0.0)])
    run = report("--out", "m.jsonl", cwd=tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.strip().splitlines()[-1].endswith(
        'error: --report: m.jsonl, line 2: score "1": a game scores 0, 0.5 (a draw) or 1')


VALUES = st.recursive(st.none() | st.booleans() | st.integers(-5, 5000)
                      | st.floats(allow_nan=True) | st.text(max_size=3) | st.sampled_from(
                          [0, 1, 0.5, 1.0, 0.0, [0, 0], [0.0, 1.5], [1, 2]]),
                      lambda x: st.lists(x, max_size=3), max_leaves=4)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(field=st.sampled_from(["game", "seat", "score", "moves", "cpu", "dec"]),
       value=VALUES)
def test_any_field_s_value_is_refused_or_within_the_report_s_ranges(bench, tmp_path,
                                                                   field, value):
    game = json.loads(row(2, 0.5))
    game[field] = value
    path = match_file(tmp_path / "m.jsonl", [row(0, 1.0), row(1, 0.0),
                                             json.dumps(game) + "\n"])
    try:
        _, rows, _ = bench.scan(path)
    except ValueError as e:
        assert str(e).startswith(f"{path}, line 4: "), e
        return
    r = rows[-1]                # (what the report's sums and pairs take for granted)
    assert type(r["game"]) is int and r["game"] >= 0 and r["seat"] == r["game"] % 2
    assert r["score"] in (0, 0.5, 1) and not isinstance(r["score"], bool)
    assert type(r["moves"]) is int and 0 <= r["moves"] <= MATCH["move_guard"]
    assert all(type(x) is int and x >= 0 for x in r["dec"]) and sum(r["dec"]) <= r["moves"]
    assert all(not isinstance(x, bool) and 0 <= x < math.inf for x in r["cpu"])


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(cut=st.integers(1, len(row(3, 0.5)) - 2))
def test_a_cut_off_last_line_is_ignored_and_one_in_the_middle_refused(bench, tmp_path,
                                                                       capsys, cut):
    # A file whose last line an interrupted write cut off was refused whole, at the
    # JSON parser's position ("line 2 column 1") rather than the file's line.
    rows = [row(0, 1.0), row(1, 0.0), row(2, 0.5)]
    path = match_file(tmp_path / "m.jsonl", rows + [row(3, 0.5)[:cut]])
    match, got, _ = bench.scan(path)
    assert [r["game"] for r in got] == [0, 1, 2] and match == MATCH
    assert bench.read(path)[1] == got
    assert f"{path}: its last line (line 5) is incomplete (cut off by an interrupted " \
           f"write?) and is ignored" in capsys.readouterr().err
    match_file(tmp_path / "m.jsonl", rows[:2] + [row(3, 0.5)[:cut] + "\n"] + rows[2:])
    with pytest.raises(ValueError, match=f"{re.escape(path)}, line 4: not JSON: .* at "
                                         f"column \\d+; the file is damaged"):
        bench.scan(path)


def test_a_rerun_drops_a_cut_off_last_line_and_plays_its_game_again(tmp_path):
    lines, _ = first_run(tmp_path)
    out = tmp_path / "m.jsonl"
    out.write_text("\n".join(lines[:2] + [lines[2][:-5]]))       # game 1 cut off
    run = match("--other", str(ROOT), "--mine", "random", "--theirs", "greedy",
                cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "m.jsonl: its last line (line 3) was incomplete (cut off by an interrupted " \
           "write?) and is dropped; its game will be played again" in run.stderr
    now = out.read_text().splitlines()
    assert now[:2] == lines[:2] and len(now) == 3
    again = json.loads(now[2])
    assert again["game"] == 1 and again["score"] == json.loads(lines[2])["score"]
    # a whole last line without its newline: given one before the next game's
    out.write_text("\n".join(now))
    run = match("--other", str(ROOT), "--mine", "random", "--theirs", "greedy",
                "--games", "4", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "4 games in 2 paired deals" in run.stdout
    assert [json.loads(x)["game"] for x in out.read_text().splitlines()[1:]] == [0, 1, 2, 3]
