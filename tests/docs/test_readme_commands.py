"""The README's command-line examples (`$ cuttle simulate|compare ...`) print what it
shows: each run of shown lines (between `...` lines) is a run of the real output's lines,
the timings aside."""

import os
import re
import shlex

import pytest

from cuttle.cli import main

README = os.path.join(os.path.dirname(__file__), "..", "..", "README.md")
TIMING = re.compile(r"\(\d[\d.,]* s, [\d,]+ games/s\)")


def _examples():
    text = open(README, encoding="utf-8").read()
    out = []
    for block in re.findall(r"^```\n(\$ cuttle (?:simulate|compare) .*?)^```", text,
                            flags=re.S | re.M):
        command, shown = None, []
        for line in block.splitlines():
            if line.startswith("$ cuttle "):
                if command:
                    out.append((command, shown))
                command, shown = line[len("$ cuttle "):], []
            else:
                shown.append(line)
        out.append((command, shown))
    return out


def _segments(lines):
    seg = []
    for line in lines + ["..."]:
        if line.strip() == "...":
            if seg:
                yield seg
            seg = []
        else:
            seg.append(TIMING.sub("(TIME)", line.rstrip()))


@pytest.mark.parametrize("command, shown", _examples(), ids=lambda x: str(x)[:30])
def test_a_readme_command_prints_what_the_readme_shows(capsys, tmp_path, monkeypatch,
                                                       command, shown):
    monkeypatch.chdir(tmp_path)             # (--plot cmp.png)
    if "--plot" in command:
        pytest.importorskip("matplotlib")
    assert main(shlex.split(command)) == 0
    real = [TIMING.sub("(TIME)", line.rstrip()) for line in capsys.readouterr().out.splitlines()]
    for seg in _segments(shown):
        assert any(real[i:i + len(seg)] == seg for i in range(len(real))), \
            "\n".join(["shown:", *seg, "printed:", *real])


def test_the_readme_has_command_examples():
    assert {c.split()[0] for c, _ in _examples()} == {"simulate", "compare"}
