"""Ctrl-C and the files of the command line: every file of a partial run says it is one
(the JSON, the CSV's last row, the plot's line under its title, the page), in
`simulate`, `compare`, `atlas` and `balance`; a second Ctrl-C while the files are
written waits until they all are (`cuttle.interrupts`).  The runs are interrupted
in-process (the command's play raises the Interrupted of a run that finished part of
its work), so that what finished is known exactly, and the second Ctrl-C is a real
SIGINT raised in the middle of the writing; tests/cli/test_cli.py presses Ctrl-C on real
processes."""

import csv
import json
import signal
import threading

import pytest

import cuttle
import cuttle.cli.analyse as cli_analyse
import cuttle.cli.atlas as cli_atlas
import cuttle.cli.balance as cli_balance
import cuttle.cli.simulate as cli_simulate
from cuttle.balancing import balance
from cuttle.balancing.search import BalanceInterrupted
from cuttle.cli import main
from cuttle.formatting import quantity
from cuttle.interrupts import ctrl_c_deferred
from cuttle.render import csv as csv_renderer
from cuttle.render.csv import (ATLAS_COLUMNS, BALANCE_COLUMNS, COMPARISON_COLUMNS,
                               SUMMARY_COLUMNS)
from cuttle.simulation.compare import ComparisonResult
from cuttle.variants import Pairing, atlas
from cuttle.variants.run import AtlasInterrupted


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def svg_text():
    """Plots saved as SVG keep their text as text (`svg.fonttype`: none)."""
    matplotlib = pytest.importorskip("matplotlib")
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        yield


@pytest.fixture
def plot_texts(monkeypatch):
    """The texts of each figure saved, for the plots saved as PNG (the atlas's)."""
    pytest.importorskip("matplotlib")
    import cuttle.render.plot as plot
    saved, real = [], plot._save

    def save(fig, path):
        saved.append([t.get_text() for t in fig.texts])
        real(fig, path)
    monkeypatch.setattr(plot, "_save", save)
    return saved


def csv_rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def files(tmp_path, plot="p.svg"):
    """The --json, --csv and --plot options writing into tmp_path, and their paths."""
    paths = {x: str(tmp_path / name) for x, name in (("json", "p.json"), ("csv", "p.csv"),
                                                     ("plot", plot))}
    return [a for x, p in paths.items() for a in (f"--{x}", p)], paths


def interrupted_after(monkeypatch, module, name, done, total, unit="game"):
    """Make `module.name` (simulate or compare) play `done` units, then raise the
    Interrupted of a run of `total`."""
    real = getattr(module, name)

    def play(*args, **kw):
        at = 1 if name == "compare" else 0               # (the count's position)
        assert args[at] == total
        res = real(*args[:at], done, *args[at + 1:], **kw)
        raise cuttle.Interrupted(res, done, total, unit)
    monkeypatch.setattr(module, name, play)


def test_an_interrupted_simulation_says_so_in_its_csv_and_plot(monkeypatch, capsys,
                                                                 tmp_path, svg_text):
    argv, paths = files(tmp_path)
    whole = ["simulate", "-n", "1e6", "--seed", "1", "--no-progress", *argv]
    code, _, _ = run(capsys, *whole[:2], "300", *whole[3:])
    assert code == 0
    complete = csv_rows(paths["csv"])
    assert "interrupted" not in open(paths["plot"]).read()
    interrupted_after(monkeypatch, cli_simulate, "simulate", 300, 10**6)
    code, out, err = run(capsys, *whole)
    assert code == 130 and "interrupted after 300 of 1,000,000 games" in err, err
    rows = csv_rows(paths["csv"])
    # the same header and rows as a whole run of the finished games, and one more
    assert rows[0] == SUMMARY_COLUMNS and rows[:-1] == complete
    assert rows[-1] == ["interrupted", "0.0003", "", "", "300", "1000000"]
    assert "interrupted after 300 of 1,000,000 games: a partial run" in \
        open(paths["plot"]).read()
    assert json.load(open(paths["json"]))["interrupted"] == \
        {"done": 300, "requested": 10**6, "unit": "game", "units": "games"}
    # the table on stdout says it too, first and last (redirected, it looked whole)
    lines = out.strip().splitlines()
    assert lines[0] == lines[-1] == "interrupted after 300 of 1,000,000 games: a partial run"


def test_an_interrupted_comparison_says_so_in_its_csv_and_plot(monkeypatch, capsys,
                                                                 tmp_path, svg_text):
    argv, paths = files(tmp_path)
    interrupted_after(monkeypatch, cli_simulate, "compare", 200, 10**6)
    code, out, err = run(capsys, "compare", "classic", "quick", "-n", "1e6", "--seed", "1",
                         "--no-progress", *argv)
    assert code == 130 and "interrupted after 200 of 1,000,000 games" in err
    rows = csv_rows(paths["csv"])
    assert rows[0] == COMPARISON_COLUMNS and all(len(r) == len(rows[0]) for r in rows)
    last = dict(zip(COMPARISON_COLUMNS, rows[-1]))
    assert last["statistic"] == last["metric"] == "interrupted"
    assert last["value"] == "0.0002" and last["rule_set"] == ""
    assert last["label"] == "interrupted after 200 of 1,000,000 games: a partial run"
    assert "interrupted" not in {r[-1] for r in rows[1:-1]}
    assert last["label"] in open(paths["plot"]).read()
    lines = out.strip().splitlines()
    assert lines[0] == lines[-1] == last["label"] and "cuttle comparison" in lines[2]
    # the JSON says its units alike at the top and in "interrupted": the plural in
    # "units" on both ("unit" as before: the top's plural, the marker's singular)
    d = json.load(open(paths["json"]))
    assert d["units"] == d["interrupted"]["units"] == d["unit"] == "games"
    assert d["interrupted"]["unit"] == "game"


def small_atlas(interrupt=False):
    """A small atlas (random self-play on classic, 2 chunks of 1,000 games per
    variant), or its AtlasInterrupted."""
    res = atlas([Pairing("random", 0.01, 2000, 1000)], ["classic"], seed=3, interactions=0,
                progress=False)
    if interrupt:
        raise AtlasInterrupted(res, None)
    return res


def small_balance(interrupt=False):
    """A small balance search (one change of two flags, random self-play), or its
    BalanceInterrupted."""
    res = balance("classic", "random", k=1, flags=["four", "joker"], progress=False,
                  budget=dict(chunk_size=1000, screen_games=2000, race_games=2000,
                              confirm_games=2000))
    if interrupt:
        raise BalanceInterrupted(res, None)
    return res


def chunked_note(records, games):
    """The words of a partial atlas or balance run: the games and the whole chunks."""
    return (f"interrupted after playing {games:,} games ({records:,} whole chunks of "
            f"games): a partial run")


def test_an_interrupted_atlas_says_so_in_its_files(monkeypatch, capsys, tmp_path,
                                                   plot_texts):
    monkeypatch.setattr(cli_atlas, "atlas", lambda *a, **kw: small_atlas(interrupt=True))
    argv, paths = files(tmp_path, plot="plots")
    code, out, err = run(capsys, "atlas", "--pairings", "random", "--bases", "classic",
                         "--no-progress", *argv)
    d = json.load(open(paths["json"]))
    records, games = d["played_records"], d["played_games"]
    assert records > 0 and games == 1000 * records      # (chunks of 1,000 games)
    note = chunked_note(records, games)
    assert code == 130 and f"cuttle atlas: {note.split(':')[0]}; the tables" in err, err
    assert d["interrupted"] == {"done": records, "requested": None, "unit": "chunk",
                                "units": "chunks", "games": games}
    rows = csv_rows(paths["csv"])
    assert rows[0] == ATLAS_COLUMNS and all(len(r) == len(rows[0]) for r in rows)
    last = dict(zip(ATLAS_COLUMNS, rows[-1]))
    assert last["statistic"] == "interrupted" and last["variant"] == note
    assert last["value"] == last["games"] == ""
    assert [note in texts for texts in plot_texts] == [True]     # (one group: one plot)
    assert out.strip().splitlines()[0] == out.strip().splitlines()[-1] == note


def test_an_interrupted_balance_search_says_so_in_its_files(monkeypatch, capsys, tmp_path,
                                                            svg_text):
    monkeypatch.setattr(cli_balance, "balance",
                        lambda *a, **kw: small_balance(interrupt=True))
    argv, paths = files(tmp_path)
    code, out, err = run(capsys, "balance", "--policy", "random", "--no-progress", *argv)
    d = json.load(open(paths["json"]))
    records, games = d["played_records"], d["played_games"]
    assert records > 0 and games > 0
    assert d["interrupted"] == {"done": records, "requested": None, "unit": "chunk",
                                "units": "chunks", "games": games}
    note = chunked_note(records, games)
    assert code == 130 and f"cuttle balance: {note.split(':')[0]}; the tables" in err, err
    rows = csv_rows(paths["csv"])
    assert rows[0] == BALANCE_COLUMNS and all(len(r) == len(rows[0]) for r in rows)
    last = dict(zip(BALANCE_COLUMNS, rows[-1]))
    assert last["statistic"] == "interrupted" and last["changes"] == note
    assert note in open(paths["plot"]).read()
    assert out.strip().splitlines()[0] == out.strip().splitlines()[-1] == note


def test_a_chunked_run_says_its_games_not_chunk_records():
    """Its words name games and whole chunks of games, not the results file's "chunk
    records" (which a user does not know), in every file; the games of a chunk Ctrl-C
    cut short are said too, and a result of before the games were kept says its chunks."""
    class Played:
        played_records, played_games = 3, 12740
    e = AtlasInterrupted(Played(), "r.jsonl", cut=740)
    assert e.said(command_line=True) == (
        "interrupted after playing 12,740 games (3 whole chunks of games, and the first 740 "
        "games of each chunk it cut short); every finished game is in r.jsonl: run the "
        "same command again to continue")
    # (raised in Python, it told a script to run a command again)
    assert str(e) == ("interrupted after playing 12,740 games (3 whole chunks of games, "
                      "and the first 740 games of each chunk it cut short); every finished "
                      "game is in r.jsonl: call atlas() again with the same arguments and "
                      "results file to continue")
    assert e.note() == ("interrupted after playing 12,740 games (3 whole chunks of games, "
                        "and the first 740 games of each chunk it cut short): a partial run")
    assert e.as_dict() == {"done": 3, "requested": None, "unit": "chunk", "units": "chunks",
                           "games": 12740}
    for words in (str(e), e.note(), json.dumps(e.as_dict())):
        assert "record" not in words
    one = BalanceInterrupted(type("One", (), {"played_records": 1, "played_games": 4000})())
    assert one.note() == ("interrupted after playing 4,000 games (1 whole chunk of games): "
                          "a partial run")

    class Old:                              # (an atlas pickled before its games were kept)
        played_records = 2
    assert AtlasInterrupted(Old()).note() == \
        "interrupted after playing 2 whole chunks of games: a partial run"


def page_json(path):
    """The results as JSON that a report page holds."""
    import html
    import re
    text = open(path).read()
    return json.loads(html.unescape(re.search(r"<pre>(.*?)</pre>", text, re.S).group(1)))


@pytest.mark.parametrize("command", ["simulate", "compare", "balance"])
def test_an_interrupted_runs_page_says_so_in_its_json_too(monkeypatch, capsys, tmp_path,
                                                          command):
    out = str(tmp_path / "p.html")
    if command == "balance":
        monkeypatch.setattr(cli_balance, "balance",
                            lambda *a, **kw: small_balance(interrupt=True))
        argv = ["balance", "--policy", "random"]
    else:
        interrupted_after(monkeypatch, cli_simulate, command, 200, 10**6)
        argv = [command, *(["classic", "quick"] if command == "compare" else []),
                "-n", "1e6", "--seed", "1"]
    code, _, err = run(capsys, *argv, "--no-progress", "--html", out)
    assert code == 130 and "interrupted after" in err
    mark = page_json(out)["interrupted"]
    assert mark["done"] >= 0 and mark["unit"] in ("game", "chunk")
    note = (" whole chunks of games): a partial run" if command == "balance" else
            "interrupted after 200 of 1,000,000 games: a partial run")
    assert note in open(out).read()


# -- a second Ctrl-C while the files are written -----------------------------------------

def press_ctrl_c_in(monkeypatch, owner, name):
    """Make `owner.name` press Ctrl-C (a real SIGINT, handled at once) when called, then
    do its work."""
    real = getattr(owner, name)

    def pressed(*args, **kw):
        signal.raise_signal(signal.SIGINT)
        return real(*args, **kw)
    monkeypatch.setattr(owner, name, pressed)


@pytest.fixture
def default_handler():
    """Python's own SIGINT handler (KeyboardInterrupt), as in the `cuttle` command."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("SIGINT has another handler here")


def test_ctrl_c_deferred_holds_ctrl_c_until_the_block_is_done(default_handler):
    done = []
    with pytest.raises(KeyboardInterrupt):
        with ctrl_c_deferred():
            signal.raise_signal(signal.SIGINT)
            signal.raise_signal(signal.SIGINT)
            done.append(1)
    assert done == [1] and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with ctrl_c_deferred():                         # no Ctrl-C: nothing raised
        pass
    with pytest.raises(OSError):                    # the block's own error goes on
        with ctrl_c_deferred():
            signal.raise_signal(signal.SIGINT)
            raise OSError("disk full")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    # a program's own handler is left alone, and so is a thread (which signals skip)
    seen = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: seen.append(signum))
    try:
        with ctrl_c_deferred():
            signal.raise_signal(signal.SIGINT)
        assert seen == [signal.SIGINT]
    finally:
        signal.signal(signal.SIGINT, old)
    errors = []

    def in_a_thread():
        try:
            with ctrl_c_deferred():
                done.append(2)
        except Exception as e:      # (signal.signal raises ValueError outside the main thread)
            errors.append(e)
    t = threading.Thread(target=in_a_thread)
    t.start()
    t.join()
    assert done == [1, 2] and not errors


def test_a_second_ctrl_c_still_writes_every_file_of_an_interrupted_simulation(
        monkeypatch, capsys, tmp_path, default_handler, svg_text):
    argv, paths = files(tmp_path)
    html = str(tmp_path / "p.html")
    interrupted_after(monkeypatch, cli_simulate, "simulate", 300, 10**6)
    press_ctrl_c_in(monkeypatch, csv_renderer, "summary_rows")     # (the second file)
    code, out, err = run(capsys, "simulate", "-n", "1e6", "--seed", "1", "--no-progress",
                         *argv, "--html", html)
    assert code == 130 and "Traceback" not in err
    assert err.count("interrupted") == 2
    assert err.rstrip().endswith("cuttle simulate: interrupted")
    assert json.load(open(paths["json"]))["interrupted"]["done"] == 300
    assert csv_rows(paths["csv"])[-1][0] == "interrupted"
    assert "a partial run" in open(paths["plot"]).read()
    assert "a partial run" in open(html).read()


def test_ctrl_c_while_a_finished_comparison_is_written_still_writes_every_file(
        monkeypatch, capsys, tmp_path, default_handler):
    pytest.importorskip("matplotlib")
    argv, paths = files(tmp_path, plot="p.png")
    press_ctrl_c_in(monkeypatch, ComparisonResult, "as_dict")      # (the first file)
    code, out, err = run(capsys, "compare", "classic", "quick", "-n", "100", "--seed", "1",
                         "--no-progress", *argv)
    assert code == 130 and err.rstrip().endswith("cuttle compare: interrupted")
    assert "2 rule sets" in out and f"plot saved to {paths['plot']}" in err
    assert "interrupted" not in json.load(open(paths["json"]))     # (the run was whole)
    assert csv_rows(paths["csv"])[-1][-1] != "interrupted"


@pytest.mark.parametrize("command", ["atlas", "balance"])
def test_a_second_ctrl_c_still_writes_every_file_of_an_interrupted_chunked_run(
        monkeypatch, capsys, tmp_path, default_handler, command):
    pytest.importorskip("matplotlib")
    if command == "atlas":
        monkeypatch.setattr(cli_atlas, "atlas", lambda *a, **kw: small_atlas(interrupt=True))
        press_ctrl_c_in(monkeypatch, csv_renderer, "atlas_rows")
        argv, paths = files(tmp_path, plot="plots")
    else:
        monkeypatch.setattr(cli_balance, "balance",
                            lambda *a, **kw: small_balance(interrupt=True))
        press_ctrl_c_in(monkeypatch, csv_renderer, "balance_rows")
        argv, paths = files(tmp_path, plot="p.png")
    code, out, err = run(capsys, command, "--no-progress", *argv)
    assert code == 130 and err.rstrip().endswith(f"cuttle {command}: interrupted")
    assert f"cuttle {command}: interrupted after playing" in err
    assert json.load(open(paths["json"]))["interrupted"]["unit"] == "chunk"
    assert csv_rows(paths["csv"])[-1][-1 if command == "atlas" else 9] == "interrupted"
    plot = paths["plot"] + ("/classic-random.png" if command == "atlas" else "")
    assert open(plot, "rb").read(4) == b"\x89PNG"


def test_a_second_ctrl_c_still_prints_an_interrupted_analysis(monkeypatch, capsys,
                                                              default_handler):
    real = cuttle.analyse

    def interrupted(game, rollouts, **kw):
        partial = real(game, rollouts=50, **kw)
        raise cuttle.Interrupted(partial, partial.total_rollouts, 10**9, "rollout")
    monkeypatch.setattr(cli_analyse, "analyse", interrupted)
    press_ctrl_c_in(monkeypatch, cuttle.Analysis, "as_dict")
    code, out, err = run(capsys, "analyse", "hands: 2C 9H 5S / 4H; rest: deck", "--seed",
                         "1", "--json")
    assert code == 130 and err.rstrip().endswith("cuttle analyse: interrupted")
    assert json.loads(out)["interrupted"]["requested"] == 10**9


def test_the_files_are_written_before_the_cluster_closes(monkeypatch, capsys, tmp_path,
                                                         default_handler):
    # Closing a --scheduler cluster takes about a second: a Ctrl-C then finds the files
    # written (it ends the closing, status 130).
    pytest.importorskip("matplotlib")
    argv, paths = files(tmp_path, plot="p.png")
    interrupted_after(monkeypatch, cli_simulate, "simulate", 300, 10**6)
    press_ctrl_c_in(monkeypatch, cli_simulate.Cluster, "__exit__")
    code, out, err = run(capsys, "simulate", "-n", "1e6", "--seed", "1", "--no-progress",
                         *argv)
    assert code == 130 and err.rstrip().endswith("cuttle simulate: interrupted")
    assert json.load(open(paths["json"]))["interrupted"]["done"] == 300
    assert csv_rows(paths["csv"])[-1][0] == "interrupted"
    assert open(paths["plot"], "rb").read(4) == b"\x89PNG"
