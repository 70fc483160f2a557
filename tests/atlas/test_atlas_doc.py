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
