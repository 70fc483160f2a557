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


def test_there_are_five_benchmarks():
    assert len(BENCHMARKS) == 5


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda p: p.name)
def test_help_holds_the_whole_description_and_every_option_says_what_it_does(path):
    run = subprocess.run([sys.executable, str(path), "--help"], capture_output=True,
                         text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert doc.strip() in run.stdout, "the description is not the whole docstring"
    undescribed = [line for line, described in option_lines(run.stdout) if not described]
    assert not undescribed, f"options without a help text: {undescribed}"
