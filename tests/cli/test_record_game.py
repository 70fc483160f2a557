"""`cuttle simulate --record-game K`: game K of a run saved as a game record (its
--games-csv row's game), which `cuttle replay` and `cuttle review` read; the options
that mean nothing for one game refused before any game is played."""

import csv
import json
import os
import subprocess
import sys
import textwrap

import pytest

import cuttle
from cuttle.record import final_game, read_record
from cuttle.simulation import game_record
from support.helpers import run_cli

run = run_cli
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def csv_rows(path):
    with open(path, newline="") as f:
        return {int(r["game"]): r for r in csv.DictReader(f)}


def row_of(rec, a_seat):
    """The --games-csv row the record's game gives (A sat in seat a_seat)."""
    g = final_game(rec)
    label = {a_seat: "A", a_seat ^ 1: "B"}
    return {"winner": "draw" if g.winner is None else label[g.winner], "first": label[0],
            "moves": str(g.ply), "turns": str(g.turn_number),
            "score_a": str(g.score(a_seat)), "score_b": str(g.score(a_seat ^ 1)),
            "end": g.end_reason}


@pytest.mark.parametrize("players, rules, swap, threads", [
    ("ismcts:40,expert", "cuttle.cards: four=random", True, "2"),
    ("ismcts:40,expert", "cuttle.cards: four=random", False, "1"),
    ("greedy,cuttle.cards-ai", "classic: four=random", True, "1"),
    ("random,expert", "classic", False, "2"),
])
def test_each_record_is_its_games_csv_row(monkeypatch, capsys, tmp_path, players, rules,
                                          swap, threads):
    swap_opt = [] if swap else ["--no-swap"]
    run_opts = ["--players", players, "--seed", "7", "--rules", rules, *swap_opt]
    code, _, _ = run(monkeypatch, capsys, ["simulate", "-n", "12", *run_opts, "--threads",
                                           threads, "--games-csv", tmp_path / "g.csv",
                                           "--no-progress"])
    assert code == 0
    rows = csv_rows(tmp_path / "g.csv")
    for k in (0, 5, 8, 11):
        path = tmp_path / f"g{k}.json"
        code, out, err = run(monkeypatch, capsys, ["simulate", *run_opts, "-n", "12",
                                                   "--threads", threads,
                                                   "--record-game", k, "--record", path])
        assert code == 0 and err == "", err
        rec = read_record(path)
        a_seat = 1 if swap and k % 2 else 0
        row = {c: v for c, v in rows[k].items() if c != "game"}
        assert row_of(rec, a_seat) == row, (k, out)
        assert out.splitlines()[0] == (
            f"game {k} of seed 7: winner {row['winner']}, first {row['first']}, "
            f"{row['moves']} moves, {row['turns']} turns, score A {row['score_a']}, "
            f"B {row['score_b']}, end {row['end']} (A = {players.split(',')[0]} in seat "
            f"{a_seat}, B = {players.split(',')[1]})")
        assert f"record saved to {path}" in out
        assert rec["simulation"]["swap_seats"] is swap
        assert rec == {**game_record(players, rules, seed=7, index=k, swap_seats=swap),
                       "created": rec["created"]}


def test_replay_and_review_read_the_record(monkeypatch, capsys, tmp_path):
    path = tmp_path / "game.json"
    code, _, _ = run(monkeypatch, capsys, ["simulate", "--players", "ismcts:40,expert",
                                           "--seed", "7", "--record-game", "1234",
                                           "--record", path])
    assert code == 0
    rec = read_record(path)
    assert rec["version"] == 2 and rec["deal"] == 1234
    code, out, err = run(monkeypatch, capsys, ["replay", path])
    assert code == 0 and err == "", err
    assert out.splitlines()[0] == (f"Replaying {path}: P0 ismcts:40 against P1 expert; "
                                   f"rules classic; seed 7, game 1234; "
                                   f"{len(rec['moves'])} moves")
    assert f"Result: {rec['result']['text']}" in out
    code, out, err = run(monkeypatch, capsys, ["review", path, "--engine", "expert:4",
                                               "--seed", "1", "--threads", "1",
                                               "--json", tmp_path / "r.json"])
    assert code == 0, err
    assert "rules classic; seed 7, game 1234;" in out.splitlines()[1]     # (under the headline)
    r = json.loads((tmp_path / "r.json").read_text())
    assert (r["game_seed"], r["game_deal"], r["moves"]) == (7, 1234, rec["moves"])
    code, _, err = run(monkeypatch, capsys, ["replay", path, "--html", tmp_path / "r.html"])
    assert code == 0 and "seed 7, game 1234" in (tmp_path / "r.html").read_text()


def test_the_default_file_name(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(monkeypatch, capsys, ["simulate", "--seed", "3", "--record-game", "2"])
    assert code == 0 and "record saved to cuttle-seed3-game2.json" in out
    assert read_record(tmp_path / "cuttle-seed3-game2.json")["deal"] == 2


@pytest.mark.parametrize("extra, message", [
    (["--match", "best_of_3"], "--match does not go with it"),
    (["--scheduler", "local:1"], "--scheduler does not go with it"),
    (["--games-csv", "{d}/g.csv"], "--games-csv does not go with it"),
    (["--json"], "--json does not go with it"),
    (["--csv", "{d}/t.csv"], "--csv does not go with it"),
    (["--plot", "{d}/p.png"], "--plot does not go with it"),
    (["--html", "{d}/p.html"], "--html does not go with it"),
    (["-n", "5"], "--record-game 5: a run of -n 5 games has games 0 to 4"),
    (["--seed", None], "--record-game K needs the run's --seed"),
    (["--players", "random,chess"], "chess"),
    (["--record", "{d}/no/such/dir/r.json"], "no folder"),
])
def test_options_that_make_no_sense_are_refused_first(monkeypatch, capsys, tmp_path, extra,
                                                      message):
    argv = ["simulate", "--seed", "1", "--record-game", "5", "--record", f"{tmp_path}/r.json"]
    if extra[-1] is None:
        argv = [a for a in argv if a not in ("--seed", "1")]
        extra = []
    code, out, err = run(monkeypatch, capsys, argv + [x.format(d=tmp_path) for x in extra])
    assert code == 2 and message in err, err
    assert "Traceback" not in err and not (tmp_path / "r.json").exists()


@pytest.mark.parametrize("value", ["-1", "x", "1.5", "1e3", "1000000000000000"])
def test_a_bad_game_index(monkeypatch, capsys, value):
    code, _, err = run(monkeypatch, capsys, ["simulate", "--seed", "1",
                                             "--record-game", value])
    assert code == 2 and "--record-game" in err and "Traceback" not in err


def test_record_without_record_game(monkeypatch, capsys, tmp_path):
    code, _, err = run(monkeypatch, capsys, ["simulate", "-n", "5", "--seed", "1",
                                             "--record", tmp_path / "r.json"])
    assert code == 2 and "--record saves the game of --record-game K" in err


def test_no_swap_and_max_moves_are_the_run_s(monkeypatch, capsys, tmp_path):
    res = cuttle.simulate(4, players=("random", "expert"), seed=2, swap_seats=False,
                          max_moves=30, keep_games=True, progress=False)
    for k in range(4):
        path = tmp_path / f"{k}.json"
        code, _, _ = run(monkeypatch, capsys, ["simulate", "--players", "random,expert",
                                               "--seed", "2", "--no-swap", "--max-moves",
                                               "30", "--record-game", k, "--record", path])
        assert code == 0
        rec = read_record(path)
        g = final_game(rec)
        assert rec["players"] == ["random", "expert"]           # A always moves first
        assert (g.ply, g.end_reason) == (res.moves[k], cuttle._core.END_NAMES[res.end[k]])
        assert rec["simulation"] == {"players": ["random", "expert"], "swap_seats": False,
                                     "max_moves": 30}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals")
def test_ctrl_c_saves_the_unfinished_game(monkeypatch, capsys, tmp_path):
    """Ctrl-C a second into a game of minutes (a deep search's) stops it soon, with
    status 130, and saves the game so far: a record of an unfinished game (status
    interrupted, no winner) whose moves replay legally from game 3's deal, which
    `cuttle replay` reads.  (Game 3: the expert moves first, so some move is played.)"""
    path = tmp_path / "g3.json"
    code = textwrap.dedent(f"""
        import os, signal, sys, threading
        from cuttle.cli import main
        threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
        sys.exit(main(["simulate", "--players", "ismcts:200000,expert", "--seed", "7",
                       "--record-game", "3", "--record", {str(path)!r}]))
    """)
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=env, timeout=60)
    assert p.returncode == 130 and "Traceback" not in p.stderr, p.stderr
    rec = read_record(path)
    n = len(rec["moves"])
    assert p.stderr.strip() == (f"cuttle simulate: interrupted after {n} move{'s' * (n != 1)} of "
                                f"game 3; the unfinished game is saved to {path}")
    assert rec["result"] == {**rec["result"], "status": "interrupted", "winner": None,
                             "end_reason": None, "text": "unfinished: interrupted"}
    assert (rec["seed"], rec["deal"], rec["players"]) == (7, 3, ["expert", "ismcts:200000"])
    assert p.stdout.splitlines()[0].startswith(
        f"game 3 of seed 7: winner none, first B, {n} move")
    assert "unfinished: interrupted (A = ismcts:200000 in seat 1, B = expert)" in p.stdout
    assert f"record saved to {path}" in p.stdout
    game = cuttle.Game.from_run("classic", seed=7, index=3)
    for m in rec["moves"]:
        game.play(m)                    # legal from the deal
    assert n > 0 and not game.is_over and final_game(rec) == game
    code, out, err = run(monkeypatch, capsys, ["replay", path])
    assert code == 0 and err == "", err
    assert f"seed 7, game 3; {n} move" in out.splitlines()[0]
    assert "Result: unfinished: interrupted" in out
