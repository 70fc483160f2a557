"""docs/atlas.md's tables are what its command gives from the committed results file."""

import os
import re
import shlex

from cuttle.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "atlas.md")


def test_the_doc_tables_come_from_the_results_file(capsys, monkeypatch):
    text = open(DOC, encoding="utf-8").read()
    command = re.search(r"```\n(cuttle atlas .*?)\n```", text, re.S).group(1)
    argv = [a for a in shlex.split(command.replace("\\\n", " "))[1:] if a != "--progress"]
    tables = re.search(r"<!-- atlas tables: begin -->\n(.*?)\n<!-- atlas tables: end -->",
                       text, re.S).group(1)
    monkeypatch.chdir(ROOT)
    assert main(argv + ["--report-only", "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == tables.strip() and not err
    for png in re.findall(r"\]\((img/atlas/[^)]+\.png)\)", text):
        assert os.path.getsize(os.path.join(ROOT, "docs", png)) < 60_000, png


def test_each_rows_end_shares_add_up_to_one():
    # A variant's share of an end reason is the base's plus a paired shift, clipped at 0:
    # without rescaling, a 500-game ISMCTS row read "goal 96.0%, passes 0.0%, sudden
    # death 5.2%".
    text = open(DOC, encoding="utf-8").read()
    cells = re.findall(r"\| ((?:goal|passes|sudden death|move cap) [^|]*%) \|", text)
    assert len(cells) == 8 * 33            # every row of the eight tables
    for cell in cells:
        shares = [float(x) for x in re.findall(r"([0-9.]+)%", cell)]
        assert abs(sum(shares) - 100) <= 0.005 * len(shares) + 1e-9, cell   # (2 decimals)
        # (a base row read "goal 100.0%, passes 0.1%": no share reads 100% beside another)
        assert 100 not in shares or set(shares) <= {0, 100}, cell


def test_the_committed_results_file_loads_whole():
    """Every record passes the store's consistency checks (issue 21, item 11)."""
    from cuttle.variants.store import Store
    path = os.path.join(ROOT, "docs", "atlas", "results.jsonl")
    with open(path, encoding="utf-8") as f:
        records = sum(1 for _ in f) - 1
    with Store(path, write=False) as store:
        assert len(store) == records
        for key in list(store.index):
            tally, _ = store.get(key)
            assert tally.n_games == key[-2]
