"""An output option that names a file the command reads is refused before any work: the
output would replace the input (an atlas's results file, a game record, a position)."""

import pytest

from cli.test_cli import run


@pytest.mark.parametrize("argv", [
    ["atlas", "--pairings", "random", "--results", "{f}", "--report-only", "--json", "{f}"],
    ["atlas", "--pairings", "random", "--results", "{f}", "--report-only", "--csv", "{d}/./f"],
    ["balance", "--policy", "random", "--results", "{f}", "--report-only", "--csv", "{f}"],
    ["balance", "--policy", "random", "--results", "{f}", "--report-only", "--html", "{f}"],
    ["balance", "--policy", "random", "--results", "{f}", "--report-only", "--markdown",
     "{f}"],
    ["review", "{f}", "--json", "{f}"],
    ["review", "{f}", "--html", "{f}"],
    ["replay", "{f}", "--html", "{f}"],
    ["replay", "{f}", "--html", "{f}", "--review"],
    ["play", "--position", "{f}", "--record", "{f}"],
])
def test_an_output_naming_an_input_is_refused_and_the_input_kept(capsys, tmp_path, argv):
    f = tmp_path / "f"
    f.write_bytes(b"the input, whatever it holds\n")
    code, out, err = run(capsys, *[a.format(f=f, d=tmp_path) for a in argv])
    assert code == 2 and "Traceback" not in err
    assert "the file given as" in err and "would replace that input" in err, err
    assert f.read_bytes() == b"the input, whatever it holds\n"
    assert [p.name for p in tmp_path.iterdir()] == ["f"]


def test_a_results_file_being_filled_is_an_output_too(capsys, tmp_path):
    # Without --report-only the results file is appended to: another output naming it
    # is two outputs in one file.
    f = tmp_path / "r.jsonl"
    code, out, err = run(capsys, "atlas", "--pairings", "random", "--results", str(f),
                         "--json", str(f))
    assert (code, out) == (2, "") and err == (
        f"cuttle atlas: error: --json and --results name the same file {str(f)!r}\n")
    assert not f.exists()


@pytest.mark.parametrize("argv", [
    ["simulate", "-n", "10", "--json", "{f}/out.json"],
    ["simulate", "-n", "10", "--html", "{f}/out.html"],
    ["simulate", "-n", "10", "--games-csv", "{f}/games.csv"],
    ["compare", "classic", "quick", "-n", "10", "--csv", "{f}/out.csv"],
    ["compare", "classic", "quick", "-n", "10", "--html", "{f}/out.html"],
    ["atlas", "--pairings", "random", "--results", "{f}/r.jsonl"],
    ["atlas", "--pairings", "random", "--json", "{f}/a.json"],
])
def test_an_output_path_through_a_file_is_a_usage_error(capsys, tmp_path, argv):
    # A file where the output's folder should be: exit status 2 with one line naming
    # it, before any game (it was an OSError after the run, or a traceback for --html).
    f = tmp_path / "f"
    f.write_text("x")
    code, out, err = run(capsys, argv[0],
                         *[a.format(f=f) for a in argv[1:]], "--threads", "1")
    line, = err.splitlines()
    assert code == 2 and line.startswith(f"cuttle {argv[0]}: error: "), err
    assert f"'{f}' is a file, not a folder" in line
    assert out == "" and [p.name for p in tmp_path.iterdir()] == ["f"]
