"""benchmarks/bench_strength.py, the strength ladder: its options checked before the
first game, its intervals, a partial ladder, and bots of one's own on it."""

import functools
import importlib.util
import pathlib
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "benchmarks" / "bench_strength.py")


def ladder(*args, cwd=None):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          cwd=cwd)


@pytest.mark.parametrize("args, said", [
    (["--games", "0"], "argument --games: the count must be at least 1"),
    (["--anchor-games", "0"], "argument --anchor-games: the count must be at least 1"),
    (["--seed", "-1"], "argument --seed: expected a whole number"),
    (["--rules", "clasic"], "--rules: unknown preset 'clasic'; valid presets: classic"),
    (["--bootstrap", "0"], "argument --bootstrap: the count must be at least 1"),
    (["--search-budget", "0"], "argument --search-budget: the count must be at least 1"),
    (["--search-budget", "-5"], "argument --search-budget: the count must be at least 1"),
    (["--policies", "random,greedy,greedy"], "--policies names 'greedy' more than once"),
    (["--policies", "random"], "a ladder needs at least two policies, not 1"),
    (["--json", "/nonexistent/x.json"], "--json: cannot write '/nonexistent/x.json'"),
    (["--plot", "/nonexistent/x.png"], "--plot: cannot write '/nonexistent/x.png'"),
    (["--plot", "ladder.foo"], "--plot: cannot tell the image format of 'ladder.foo'"),
    (["--json", "a.json", "--plot", "a.json"], "--json and --plot name the same file"),
])
def test_a_bad_option_is_a_one_line_usage_error_before_any_game(args, said, tmp_path):
    # Each played the whole ladder, then failed (the results lost), or printed nan
    # ratings with status 0, or ended in a traceback.
    if "--plot" in args:
        pytest.importorskip("matplotlib")
    run = ladder("--policies", "random,greedy", "--games", "10", *args, cwd=tmp_path) \
        if "--policies" not in args else ladder("--games", "10", *args, cwd=tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("bench_strength.py: error: ") and said in last, last
    assert run.stdout == "" and not list(tmp_path.iterdir())      # no game, no file


@functools.lru_cache(maxsize=None)
def script():
    """The script as a module, loaded once (for the tests that draw many cases)."""
    spec = importlib.util.spec_from_file_location("bench_strength_loaded", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def strength_module(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import bench_strength
    return bench_strength


def test_a_sweep_still_has_an_interval_and_the_redraw_is_the_fits_rates(monkeypatch):
    # A pairing won 10 of 10 was redrawn from its observed rates (100%), so its
    # interval had zero width: greedy 529 [529, 529].
    import numpy as np
    ladder = strength_module(monkeypatch)
    names, results = ["random", "greedy"], {("random", "greedy"): (0, 10, 0, 10)}
    boot = ladder.bootstrap(names, results, 200, np.random.default_rng(1))
    lo, hi = np.percentile(boot[:, 1], [2.5, 97.5])
    assert hi - lo > 100
    # the fit and the redraw share one smoothing: (w + 0.5) / (n + 1)
    sa, sb, sd = ladder.smoothed(0, 10, 0)
    assert (sa, sb, sd) == (0.5, 10.5, 0)
    rating = ladder.fit_ratings(names, results)[1]
    assert abs(rating - 400 * np.log10(10.5 / 0.5)) < 1e-6
    with pytest.raises(TypeError, match="numpy Generator"):
        ladder.bootstrap(names, results, 2, 7)


def test_a_ladder_cut_short_says_so_on_stdout_first_and_last(monkeypatch, capsys):
    # After Ctrl-C, "interrupted: 2 of 3 pairings" went to stderr alone: a table
    # redirected to a file read as a whole ladder.
    import cuttle
    ladder = strength_module(monkeypatch)
    calls = []

    def play(a, b, n, *args):
        calls.append((a, b))
        if len(calls) == 2:
            e = cuttle.Interrupted(None, n // 2, n)
            e.pairing = (1, n // 2 - 1, 0, n // 2, 0.1)
            raise e
        return 2, n - 2, 0, n, 0.1
    monkeypatch.setattr(ladder, "play_pairing", play)
    with pytest.raises(SystemExit) as stop:
        ladder.main(["--policies", "random,greedy,expert", "--games", "10",
                     "--bootstrap", "5", "--no-progress"])
    assert stop.value.code == 130
    out, err = capsys.readouterr()
    table = out.split("\n\n", 1)[1].strip().splitlines()
    note = "interrupted after 2 of 3 pairings: a partial run"
    assert table[0] == note and table[-1] == note
    assert "interrupted: 2 of 3 pairings played (the last in part)" in err


def test_the_progress_line_counts_the_games_of_the_pairing_playing(tmp_path):
    run = ladder("--policies", "random,greedy", "--games", "10", "--bootstrap", "5",
                 "--progress", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "pairing 1 of 1, random vs greedy: 10 of 10 games" in run.stderr
    quiet = ladder("--policies", "random,greedy", "--games", "10", "--bootstrap", "5",
                   cwd=tmp_path)                  # (stderr is no terminal: no line)
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_quick_never_plays_more_than_games_and_the_lines_align(tmp_path):
    # --games 10 --quick played 20 games a pairing, a search bot's pairings at least 10
    # whatever --games; "1 threads"; a long name pushed its pairing line out of line.
    run = ladder("--policies", "random,greedy,ismcts-random:5", "--games", "5", "--quick",
                 "--threads", "1", "--bootstrap", "5", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].endswith(", 1 thread")
    pairings = lines[1:4]
    assert all(" 5 games: " in x for x in pairings), pairings
    assert len({x.index(" vs ") for x in pairings}) == 1
    assert len({x.index(" games: ") for x in pairings}) == 1
    rows = lines[lines.index("") + 1:][:4]
    assert len({x.index(" [") for x in rows[1:]}) == 1 and rows[0].startswith("policy  ")



@given(st.integers(1, 10**6).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(0, n).flatmap(lambda a: st.tuples(
        st.just(a), st.integers(0, n - a))))))
def test_a_pairings_rates_read_as_the_library_prints_a_rate(case):
    # One count read two ways: 1,385 wins of 2,000 (69.25%) printed by a format of the
    # script's own beside 69.3% in the docs.  Every rate of the line is the library's.
    from cuttle.formatting import pct
    n, (a, b) = case
    line = script().pairing_line("x", "y", 1, a, b, n - a - b, n, "(1 s)")
    assert line == (f"x vs y {n:6,} games: {pct(a / n, 1):>6} - {pct(b / n, 1):>6}, "
                    f"draws {pct((n - a - b) / n, 1):>5}  (1 s)")


def test_the_published_count_reads_as_the_library_reads_it():
    line = script().pairing_line("expert", "ismcts:1000", 11, 595, 1385, 20, 2000,
                                       "(reused)")
    assert line == "     expert vs ismcts:1000  2,000 games:  29.8% -  69.2%, draws  1.0%  (reused)"

BOT = '''
def first_move(game):
    return next(iter(game.legal_moves))


def lucky(game, rng):
    return rng.choice(list(game.legal_moves))


NOT_A_POLICY = 3
'''


def test_your_own_bot_is_rated_on_the_ladder_by_its_name(tmp_path):
    # --policies took only built-in names: nothing rated a Python bot.
    (tmp_path / "mybot.py").write_text(BOT)
    run = ladder("--policies", "random,greedy", "--bot", "first=mybot.py:first_move",
                 "--bot", "lucky=mybot.py:lucky", "--games", "6", "--bootstrap", "5",
                 "--json", "l.json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    import json
    data = json.loads((tmp_path / "l.json").read_text())
    assert data["policies"] == ["random", "greedy", "first", "lucky"]
    assert {(p["a"], p["b"]) for p in data["pairings"]} >= {("random", "first"),
                                                            ("first", "lucky")}
    assert data["ratings"]["lucky"]["seconds_per_move"] > 0
    assert any(x.startswith("first ") for x in run.stdout.splitlines())
    for bot, said in (("x=nofile.py:f", "no file 'nofile.py'"),
                      ("x=mybot.py:nope", "no function 'nope' in mybot.py"),
                      ("x=mybot.py:NOT_A_POLICY",
                       "'NOT_A_POLICY' in mybot.py is not a function"),
                      ("greedy=mybot.py:lucky", "the name 'greedy' must be new"),
                      ("x=mybot.py", "--bot takes NAME=FILE.py:FUNCTION")):
        bad = ladder("--policies", "random,greedy", "--bot", bot, cwd=tmp_path)
        assert bad.returncode == 2 and "Traceback" not in bad.stderr, bad.stderr
        assert said in bad.stderr.strip().splitlines()[-1]


def test_reuse_plays_an_edited_bot_again_and_keeps_an_unchanged_ones_pairings(tmp_path):
    # --reuse keyed a pairing by the bot's name alone: a bot edited since the run that
    # is reused kept the old bot's results under its name.
    (tmp_path / "mybot.py").write_text(BOT)
    common = ["--policies", "random,greedy", "--bot", "first=mybot.py:first_move",
              "--games", "6", "--bootstrap", "5"]
    assert ladder(*common, "--json", "a.json", cwd=tmp_path).returncode == 0
    import json
    bots = json.loads((tmp_path / "a.json").read_text())["bots"]
    assert bots["first"]["function"] == "first_move" and len(bots["first"]["sha256"]) == 64
    same = ladder(*common, "--reuse", "a.json", "--json", "b.json", cwd=tmp_path)
    assert same.returncode == 0, same.stderr
    assert sum(x.endswith("(reused)") for x in same.stdout.splitlines()) == 3
    (tmp_path / "mybot.py").write_text(BOT + "\n# edited\n")
    edited = ladder(*common, "--reuse", "b.json", cwd=tmp_path)
    assert edited.returncode == 0, edited.stderr
    lines = edited.stdout.splitlines()
    assert [x.split()[:3] for x in lines if x.endswith("(reused)")] == [["random", "vs", "greedy"]]
    assert "bot 'first' (mybot.py) is not the file that run loaded" in edited.stderr


def test_the_full_information_reference_is_marked_in_the_table(tmp_path):
    run = ladder("--policies", "random,cuttle.cards-ai", "--games", "6", "--bootstrap", "5",
                 cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    rows = run.stdout.splitlines()
    assert any(x.startswith("cuttle.cards-ai * ") for x in rows)
    assert not any(x.startswith("random *") for x in rows)
    assert "* a full-information reference: it reads both hands and the deck order" in rows


WRAP = "import helper\n\n\ndef bot(game):\n    return helper.heuristic(game)\n"
HELPER = "def heuristic(game):\n    return list(game.legal_moves)[{}]\n"
LAZY = "def bot(game):\n    import lazy\n    return lazy.pick(game)\n"


def test_reuse_plays_a_bot_again_when_a_module_of_its_own_changed(tmp_path):
    # Only the named file was hashed: a bot whose helper module changed kept the old
    # helper's rating (409 where a fresh run gave -221).  The helper beside the bot is
    # found without PYTHONPATH (it was "No module named 'helper'"), and a module the bot
    # imports only while it plays is fingerprinted too.
    import json
    (tmp_path / "wrap.py").write_text(WRAP)
    (tmp_path / "helper.py").write_text(HELPER.format(0))
    (tmp_path / "lazybot.py").write_text(LAZY)
    (tmp_path / "lazy.py").write_text("def pick(game):\n    return game.legal_moves[0]\n")
    common = ["--policies", "random,greedy", "--bot", "w=wrap.py:bot",
              "--bot", "z=lazybot.py:bot", "--games", "6", "--bootstrap", "5"]
    first = ladder(*common, "--json", "a.json", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    bots = json.loads((tmp_path / "a.json").read_text())["bots"]
    helper, lazy = str((tmp_path / "helper.py").resolve()), str((tmp_path / "lazy.py").resolve())
    assert set(bots["w"]["modules"]) == {helper, lazy} and bots["w"]["sees_all"] is False
    same = ladder(*common, "--reuse", "a.json", "--json", "b.json", cwd=tmp_path)
    assert same.returncode == 0 and same.stderr == "", same.stderr
    assert sum(x.endswith("(reused)") for x in same.stdout.splitlines()) == 6
    for module, text in (("helper.py", HELPER.format(-1)),
                         ("lazy.py", "def pick(game):\n    return game.legal_moves[-1]\n")):
        (tmp_path / module).write_text(text)
        again = ladder(*common, "--reuse", "b.json", "--json", "c.json", cwd=tmp_path)
        assert again.returncode == 0, again.stderr
        reused = [x.split()[:3] for x in again.stdout.splitlines() if x.endswith("(reused)")]
        assert reused == [["random", "vs", "greedy"]], again.stdout
        path = str((tmp_path / module).resolve())
        assert (f"bot 'w' (wrap.py) ran a module of yours that is not the one that run "
                f"loaded ({path}); its pairings are played again") in again.stderr
        (tmp_path / "c.json").replace(tmp_path / "b.json")


def test_a_module_the_bot_cannot_find_is_said_with_where_it_was_looked_for(tmp_path):
    (tmp_path / "wrap.py").write_text(WRAP.replace("helper", "nowhere"))
    run = ladder("--policies", "random,greedy", "--bot", "w=wrap.py:bot", cwd=tmp_path)
    last = run.stderr.strip().splitlines()[-1]
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "No module named 'nowhere' (the file's folder" in last and "PYTHONPATH" in last


def test_a_reused_bots_time_per_move_is_not_measured_as_zero(tmp_path):
    # Every pairing of the bot reused: it made no move, and its time read "0 ns" (JSON
    # 0.0), seconds over max(calls, 1).
    import json
    (tmp_path / "mybot.py").write_text(BOT)
    common = ["--policies", "random,greedy", "--bot", "first=mybot.py:first_move",
              "--games", "6", "--bootstrap", "5"]
    assert ladder(*common, "--json", "a.json", cwd=tmp_path).returncode == 0
    run = ladder(*common, "--reuse", "a.json", "--json", "b.json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    row = next(x for x in run.stdout.splitlines() if x.startswith("first "))
    assert row.split()[-1] == "n/a" and " ns" not in row
    assert ("time/move n/a: a Python player whose pairings were all reused made no move "
            "here to time") in run.stdout
    ratings = json.loads((tmp_path / "b.json").read_text())["ratings"]
    assert ratings["first"]["seconds_per_move"] is None
    assert ratings["greedy"]["seconds_per_move"] > 0          # (native: measured again)


@pytest.mark.parametrize("body, said", [
    ("    return None\n", "the policy of player B in game 0, deciding move 2, returned no move"),
    ("    raise RuntimeError('boom')\n", "raised RuntimeError in game 0, deciding move 2: boom"),
])
def test_a_bot_that_fails_stops_the_ladder_in_one_line_keeping_what_finished(
        tmp_path, body, said):
    # It ended in a full traceback, and wrote no --json though a pairing had finished.
    import json
    (tmp_path / "bad.py").write_text("def f(game):\n" + body)
    run = ladder("--policies", "random,greedy", "--bot", "b=bad.py:f", "--games", "6",
                 "--bootstrap", "5", "--json", "l.json", cwd=tmp_path)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    last = run.stderr.strip().splitlines()
    assert len(last) == 1 and last[0].startswith(
        "bench_strength.py: error: pairing 2 of 3, random vs b: ") and said in last[0]
    note = "stopped by a bot's error after 1 of 3 pairings: a partial run"
    table = run.stdout.split("\n\n", 1)[1].strip().splitlines()
    assert table[0] == note and table[-1] == note
    data = json.loads((tmp_path / "l.json").read_text())
    assert data["interrupted"] is True and said in data["error"]
    assert [(p["a"], p["b"]) for p in data["pairings"]] == [("random", "greedy")]


PEEK = ("import peekstore\n\n\ndef f(game):\n    peekstore.seen.append(game)\n"
        "    return game.legal_moves[0]\n")


def test_a_bot_is_handed_its_players_view_unless_it_may_see_all(tmp_path, monkeypatch):
    # A bot was called on the live game: one that read the hidden cards was rated
    # unmarked, where cuttle.cards-ai carries its '*'.
    import random
    import cuttle
    strength_module(monkeypatch)
    import ladder_bots
    monkeypatch.setattr(sys, "path", list(sys.path))     # (the bot's folder joins it)
    (tmp_path / "peek.py").write_text(PEEK)
    (tmp_path / "peekstore.py").write_text("seen = []\n")
    spec = f"x={tmp_path / 'peek.py'}:f"
    try:
        for sees_all in (False, True):
            bot = ladder_bots.load_bots([("--bot", spec, sees_all)], set())["x"]
            game = cuttle.Game(seed=1)
            assert bot(game, random.Random(3)) in game.legal_moves and bot.calls == 1
            seen = sys.modules["peekstore"].seen.pop()
            assert (seen is game) == sees_all
            assert seen.hand(0) == game.hand(0)            # (its own hand, always)
            assert (seen.hand(1) == game.hand(1)) == sees_all
    finally:
        sys.modules.pop("peekstore", None)
    (tmp_path / "mybot.py").write_text(BOT)
    run = ladder("--policies", "random,greedy", "--bot", "fair=mybot.py:first_move",
                 "--bot-sees-all", "all=mybot.py:first_move", "--games", "6",
                 "--bootstrap", "5", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    rows = run.stdout.splitlines()
    assert any(x.startswith("all * ") for x in rows)
    assert any(x.startswith("fair ") for x in rows)
    assert "* --bot-sees-all: handed the live game, it may read both hands and the deck " \
        "order" in rows


COUNTS = st.tuples(st.integers(0, 300), st.integers(0, 300), st.integers(0, 300)).filter(any)


@given(st.integers(2, 6).flatmap(lambda k: st.tuples(
    st.just(k), st.lists(COUNTS, min_size=k - 1, max_size=k * (k - 1) // 2))),
       st.integers(0, 2**32 - 1))
@settings(deadline=None)            # (a sweep's fits run every iteration: slow at times)
def test_the_bootstrap_refits_each_resample_as_a_fit_of_it_alone(case, seed):
    # The resamples were refitted one by one, 500 of them taking seconds after a Ctrl-C;
    # refitted at once, each must still be what a fit of that resample alone gives.
    import numpy as np
    ratings = script()
    k, counts = case
    names = ["random"] + [f"p{i}" for i in range(1, k)]
    pairs = [("random", x) for x in names[1:]] + \
        [(a, b) for i, a in enumerate(names[1:], 1) for b in names[i + 1:]]
    results = {p: (wa, wb, d, wa + wb + d) for p, (wa, wb, d) in zip(pairs, counts)}
    boot = ratings.bootstrap(names, results, 7, np.random.default_rng(seed))
    rng = np.random.default_rng(seed)
    for row in boot:
        fake = {}
        for key, (wa, wb, d, n) in results.items():
            p = np.array(ratings.smoothed(wa, wb, d), float)
            fake[key] = tuple(rng.multinomial(n, p / p.sum())) + (n,)
        assert np.array_equal(row, ratings.fit_ratings(names, fake))


def pressing_ctrl_c(tmp_path, *args):
    """The ladder random, greedy, ismcts:1000 (its second pairing slow), Ctrl-C pressed
    once the first pairing's line is out: (status, stdout, stderr)."""
    import signal
    p = subprocess.Popen([sys.executable, SCRIPT, "--policies", "random,greedy,ismcts:1000",
                          "--games", "400", "--search-budget", "400000", "--no-progress",
                          "--bootstrap", "5", *args],
                         cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                                    signal.SIG_DFL))
    try:
        out = [p.stdout.readline(), p.stdout.readline()]
        assert out[1].split()[:3] == ["random", "vs", "greedy"], out
        p.send_signal(signal.SIGINT)
        rest, more = p.communicate(timeout=300)
    finally:
        p.kill()
    return p.returncode, "".join(out) + rest, more


def finished_pairings(tmp_path, data):
    """The pairings a ladder stopped after its first wrote: the first whole, any other
    cut short; --reuse takes them."""
    first, *cut = data["pairings"]
    assert (first["a"], first["b"], first["games"], first["partial"]) == \
        ("random", "greedy", 400, False)
    assert all(p["partial"] and 0 < p["games"] < 400 for p in cut) and len(cut) <= 1
    assert data["interrupted"] is True
    again = ladder("--policies", "random,greedy", "--games", "400", "--bootstrap", "5",
                   "--reuse", "l.json", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[1].endswith("(reused)")
    return cut


def test_ctrl_c_keeps_the_finished_pairings_in_the_json(tmp_path):
    import json
    code, out, err = pressing_ctrl_c(tmp_path, "--json", "l.json")
    assert code == 130 and "Traceback" not in err, err
    data = json.loads((tmp_path / "l.json").read_text())
    cut = finished_pairings(tmp_path, data)
    assert set(data["ratings"]) == {"random", "greedy"} | {p["b"] for p in cut}
    assert "interrupted after" in out


def test_a_second_ctrl_c_while_the_pairings_are_rated_keeps_them_in_the_json(
        monkeypatch, capsys, tmp_path):
    # The ratings' bootstrap ran after Ctrl-C, seconds long, before anything was written:
    # a second Ctrl-C then ended in a traceback (status -2) and no --json, the pairings
    # played lost.  Now the pairings are written first, and --reuse takes them.  (Both
    # presses are made here where they must land: pressed from outside, the second
    # raced the bootstrap and lost on a busy machine.)
    import json
    import signal
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("SIGINT has another handler here")
    ladder_module = strength_module(monkeypatch)
    play, bootstrap, calls = ladder_module.play_pairing, ladder_module.bootstrap, []

    def press_before_the_second_pairing(*args):
        calls.append(args)
        if len(calls) == 2:
            signal.raise_signal(signal.SIGINT)
        return play(*args)

    def press_while_rated(*args):
        signal.raise_signal(signal.SIGINT)
        return bootstrap(*args)
    monkeypatch.setattr(ladder_module, "play_pairing", press_before_the_second_pairing)
    monkeypatch.setattr(ladder_module, "bootstrap", press_while_rated)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        ladder_module.main(["--policies", "random,greedy,ismcts:1000", "--games", "400",
                            "--search-budget", "400000", "--no-progress", "--bootstrap",
                            "5", "--json", "l.json"])
    assert stop.value.code == 130
    out, err = capsys.readouterr()
    data = json.loads((tmp_path / "l.json").read_text())
    assert data["ratings"] is None and finished_pairings(tmp_path, data) == []
    assert err.strip().splitlines() == [
        "interrupted: 1 of 3 pairings played; the ladder below rests on them",
        "bench_strength.py: interrupted: the ratings were not computed; the 1 pairing "
        "played is in l.json (--reuse takes it)"]


@pytest.mark.parametrize("played, said", [
    (1, "the 1 pairing played is in l.json (--reuse takes it)"),
    (3, "the 3 pairings played are in l.json (--reuse takes them)")])
def test_what_a_ctrl_c_while_rated_keeps_is_said_in_number(monkeypatch, played, said):
    import types
    ladder_module = strength_module(monkeypatch)
    run = ladder_module.Ladder(3)
    for k in range(played):
        run.add("random", f"bot{k}", (1, 1, 0, 2), 0.1)
    run.written = "pairings"
    args = types.SimpleNamespace(json="l.json")
    assert ladder_module.kept(args, run) == "the ratings were not computed; " + said


def test_a_ctrl_c_while_the_times_are_measured_keeps_the_ratings(monkeypatch, capsys,
                                                                  tmp_path):
    # A whole ladder's times per move take a while (the searches' self-play): a Ctrl-C
    # there ended in a traceback, its --json unwritten.
    import json
    import signal
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("SIGINT has another handler here")
    ladder = strength_module(monkeypatch)

    def press(*args):
        signal.raise_signal(signal.SIGINT)
    monkeypatch.setattr(ladder, "time_per_move", press)
    path = str(tmp_path / "l.json")
    with pytest.raises(SystemExit) as stop:
        ladder.main(["--policies", "random,greedy", "--games", "10", "--bootstrap", "5",
                     "--no-progress", "--json", path])
    assert stop.value.code == 130
    err = capsys.readouterr().err
    assert err == (f"bench_strength.py: interrupted: the times per move were not "
                   f"measured; the pairings and ratings are in {path}\n")
    data = json.load(open(path))
    assert data["interrupted"] is False and len(data["pairings"]) == 1
    assert data["ratings"]["greedy"]["elo"] > 0
    assert data["ratings"]["greedy"]["seconds_per_move"] is None


FLAKY = '''calls = [0]


def f(game):
    calls[0] += 1
    if calls[0] > 60:
        raise RuntimeError("tired")
    return game.legal_moves[0]
'''


def test_a_bot_failing_mid_pairing_keeps_its_games_and_reuse_plays_that_pairing_again(
        tmp_path):
    # The pairing a bot's error cut short lost its finished games, which Ctrl-C keeps.
    import json
    (tmp_path / "flaky.py").write_text(FLAKY)
    common = ["--policies", "random,greedy", "--bot", "b=flaky.py:f", "--games", "20",
              "--bootstrap", "5"]
    run = ladder(*common, "--json", "l.json", cwd=tmp_path)
    assert run.returncode == 1 and "raised RuntimeError" in run.stderr, run.stderr
    pairings = json.loads((tmp_path / "l.json").read_text())["pairings"]
    assert [(p["a"], p["b"], p["partial"]) for p in pairings] == [
        ("random", "greedy", False), ("random", "b", True)]
    assert 0 < pairings[1]["games"] < 20
    assert run.stdout.splitlines()[2].endswith("(stopped by the bot's error)")
    again = ladder(*common, "--reuse", "l.json", cwd=tmp_path)   # (it fails again)
    lines = again.stdout.splitlines()
    assert again.returncode == 1 and lines[1].endswith("(reused)")
    assert lines[2].startswith("random vs b") and not lines[2].endswith("(reused)")


def test_reuse_plays_a_pairing_cut_short_again_and_refuses_an_unmarked_partial_run(
        monkeypatch, capsys, tmp_path):
    # A pairing cut short holds some games of a run's: never taken as whole, whatever
    # --games now asks.  A partial run written before the mark cannot be read safely.
    import json
    ladder = strength_module(monkeypatch)
    played = []

    def play(a, b, n, *args):
        played.append((a, b))
        return 2, n - 2, 0, n, 0.1
    monkeypatch.setattr(ladder, "play_pairing", play)
    old = {"rules": "classic", "seed": 2026, "interrupted": True, "bots": {},
           "pairings": [{"a": "random", "b": "greedy", "wins_a": 1, "wins_b": 9,
                         "draws": 0, "games": 10, "seconds": 1.0, "partial": False},
                        {"a": "random", "b": "expert", "wins_a": 0, "wins_b": 10,
                         "draws": 0, "games": 10, "seconds": 1.0, "partial": True}]}
    (tmp_path / "a.json").write_text(json.dumps(old))
    ladder.main(["--policies", "random,greedy,expert", "--games", "10", "--bootstrap", "5",
                 "--no-progress", "--reuse", str(tmp_path / "a.json")])
    assert played == [("random", "expert"), ("greedy", "expert")]
    for p in old["pairings"]:
        del p["partial"]
    (tmp_path / "b.json").write_text(json.dumps(old))
    with pytest.raises(SystemExit) as stop:
        ladder.main(["--policies", "random,greedy", "--reuse", str(tmp_path / "b.json")])
    assert stop.value.code == 2
    assert "an interrupted run written before the pairing cut short was marked" in \
        capsys.readouterr().err
