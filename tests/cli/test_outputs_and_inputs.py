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
    assert code == 2 and "--json and --results name the same file" in err
    assert not f.exists()
