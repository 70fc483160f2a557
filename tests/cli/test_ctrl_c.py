"""Ctrl-C and the files of the command line: every file of a partial run says it is one
(the JSON, the CSV's last row, the plot's line under its title, the page), in
`simulate`, `compare`, `atlas` and `balance`.  The runs are interrupted in-process (the
command's play raises the Interrupted of a run that finished part of its work), so that
what finished is known exactly; tests/cli/test_cli.py presses Ctrl-C on real processes."""

import csv
import json

import pytest

import cuttle
import cuttle.cli.atlas as cli_atlas
import cuttle.cli.balance as cli_balance
import cuttle.cli.simulate as cli_simulate
from cuttle.balancing import balance
from cuttle.balancing.search import BalanceInterrupted
from cuttle.cli import main
from cuttle.render.csv import (ATLAS_COLUMNS, BALANCE_COLUMNS, COMPARISON_COLUMNS,
                               SUMMARY_COLUMNS)
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
        {"done": 300, "requested": 10**6, "unit": "game"}


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


def test_an_interrupted_atlas_says_so_in_its_files(monkeypatch, capsys, tmp_path,
                                                   plot_texts):
    def interrupted(*args, **kw):
        res = atlas([Pairing("random", 0.01, 2000, 1000)], ["classic"], seed=3,
                    interactions=0, progress=False)
        raise AtlasInterrupted(res, None)
    monkeypatch.setattr(cli_atlas, "atlas", interrupted)
    argv, paths = files(tmp_path, plot="plots")
    code, out, err = run(capsys, "atlas", "--pairings", "random", "--bases", "classic",
                         "--no-progress", *argv)
    assert code == 130 and "interrupted after playing" in err
    d = json.load(open(paths["json"]))
    records = d["played_records"]
    assert records > 0
    assert d["interrupted"] == {"done": records, "requested": None, "unit": "chunk record"}
    note = f"interrupted after {records} chunk records: a partial run"
    rows = csv_rows(paths["csv"])
    assert rows[0] == ATLAS_COLUMNS and all(len(r) == len(rows[0]) for r in rows)
    last = dict(zip(ATLAS_COLUMNS, rows[-1]))
    assert last["statistic"] == "interrupted" and last["variant"] == note
    assert last["value"] == last["games"] == ""
    assert [note in texts for texts in plot_texts] == [True]     # (one group: one plot)


def test_an_interrupted_balance_search_says_so_in_its_files(monkeypatch, capsys, tmp_path,
                                                            svg_text):
    def interrupted(*args, **kw):
        res = balance("classic", "random", k=1, flags=["four", "joker"], progress=False,
                      budget=dict(chunk_size=1000, screen_games=2000, race_games=2000,
                                  confirm_games=2000))
        raise BalanceInterrupted(res, None)
    monkeypatch.setattr(cli_balance, "balance", interrupted)
    argv, paths = files(tmp_path)
    code, out, err = run(capsys, "balance", "--policy", "random", "--no-progress", *argv)
    assert code == 130 and "interrupted after playing" in err
    records = json.load(open(paths["json"]))["interrupted"]["done"]
    note = f"interrupted after {records} chunk records: a partial run"
    rows = csv_rows(paths["csv"])
    assert rows[0] == BALANCE_COLUMNS and all(len(r) == len(rows[0]) for r in rows)
    last = dict(zip(BALANCE_COLUMNS, rows[-1]))
    assert last["statistic"] == "interrupted" and last["changes"] == note
    assert note in open(paths["plot"]).read()
