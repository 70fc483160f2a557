"""`cuttle review`, `cuttle replay --review` and the game-over menu of `cuttle play`
(review, play again, quit), in-process with a scripted stdin and once through a real
Ctrl-C."""

import json
import re
import signal

import pytest

import cuttle
from cuttle.record import make_record, read_record, write_record
from cuttle.review import Review
from cli.test_cli import _ctrl_c
from support.helpers import recorded_bot_game, run_cli


run = run_cli


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    return recorded_bot_game(tmp_path_factory.mktemp("rec"), 14)


def test_review_prints_the_annotated_moves_and_the_figures(monkeypatch, capsys, record):
    path, g = record
    code, out, err = run(monkeypatch, capsys, ["review", path, "--engine", "rollouts:20",
                                               "--seed", "3", "--threads", "2"])
    assert code == 0 and err == ""
    r = cuttle.review(path, "rollouts:20", seed=3)
    lines = out.splitlines()
    assert lines[0] == r.headline                   # where the game was lost, first
    assert lines[1].startswith(f"Review of {path}: P0 ann against P1 bob; rules classic")
    for d in r.decisions:                  # the same figures as the API's
        line = next(x for x in lines if x.lstrip().startswith(f"{d.ply + 1}. "))
        assert f"{d.played} {d.annotation}".strip() in line
        assert d.label in line
    assert "accuracy" in out and f"{r.accuracy(1):.1f}%" in out
    assert "Result: " + ("draw" if g.winner is None else f"player {g.winner} wins") in out


def test_review_json_html_and_one_player(monkeypatch, capsys, record, tmp_path):
    path, g = record
    code, out, _ = run(monkeypatch, capsys, ["review", path, "--engine", "rollouts:20",
                                             "--seed", "3", "--json"])
    assert code == 0
    d = json.loads(out)
    assert d["decisions"] == cuttle.review(path, "rollouts:20", seed=3).as_dict()["decisions"]
    page, js = tmp_path / "r.html", tmp_path / "r.json"
    code, out, _ = run(monkeypatch, capsys, ["review", path, "--engine", "rollouts:20",
                                             "--seed", "3", "--player", "1", "--html", page,
                                             "--json", js, "--omniscient",
                                             "--thresholds", "good=0.02,mistake=0.3"])
    assert code == 0 and f"review page written to {page}" in out and "Review of" in out
    d = json.loads(js.read_text())
    assert {x["player"] for x in d["decisions"]} == {1} and d["reviewed_players"] == [1]
    assert d["thresholds"]["good"] == 0.02 and d["thresholds"]["mistake"] == 0.3
    assert len(d["omniscient"]) == g.ply + 1
    html = page.read_text()
    assert 'data-review="1"' in html and 'data-viewer="1"' in html
    assert html.count('class="pt ') == sum(x["label"] != "forced" for x in d["decisions"])
    assert "hindsight" in html


def test_review_with_the_inferring_engine(monkeypatch, capsys, record, tmp_path):
    path, g = record
    page = tmp_path / "r.html"
    code, out, err = run(monkeypatch, capsys, ["review", path, "--engine", "ismcts-infer:20",
                                               "--seed", "3", "--player", "0", "--json",
                                               "--html", page])
    assert code == 0, err
    d = json.loads(out)
    assert d["engine"] == "ismcts-infer:20" and "opponent's hand weighed" in d["method"]
    assert d["decisions"] == cuttle.review(path, "ismcts-infer:20", player=0,
                                           seed=3).as_dict()["decisions"]
    assert "Review by ismcts-infer:20" in page.read_text()
    code, out, err = run(monkeypatch, capsys, ["review", "--help"])
    assert code == 0 and "ismcts-infer[:N]" in out


def test_review_json_on_stdout_with_a_page_is_json_alone(monkeypatch, capsys, record,
                                                        tmp_path):
    # "review page written to ..." followed the JSON on stdout, which no longer parsed
    path, g = record
    page = tmp_path / "r.html"
    code, out, err = run(monkeypatch, capsys, ["review", path, "--engine", "rollouts:10",
                                               "--seed", "3", "--json", "--html", page])
    assert code == 0
    assert json.loads(out)["moves"] == [str(m) for m in g.moves]
    assert f"review page written to {page}" in err and 'data-review="1"' in page.read_text()


def test_review_markdown(monkeypatch, capsys, record, tmp_path):
    path, g = record
    want = cuttle.review(path, "rollouts:10", seed=3).markdown().splitlines()
    # on stdout, instead of the text (as balance's --markdown); the page's line on stderr
    page = tmp_path / "r.html"
    code, out, err = run(monkeypatch, capsys, ["review", path, "--engine", "rollouts:10",
                                               "--seed", "3", "--markdown", "--html", page])
    assert code == 0 and out.endswith("\n")
    lines = out.splitlines()
    assert lines[0].startswith("**P") and lines[:-1] == want[:-1]   # (the last: the time)
    assert f"review page written to {page}" in err and 'data-review="1"' in page.read_text()
    # to a file, with the JSON on stdout, alone
    md = tmp_path / "r.md"
    code, out, _ = run(monkeypatch, capsys, ["review", path, "--engine", "rollouts:10",
                                             "--seed", "3", "--markdown", md, "--json"])
    assert code == 0 and json.loads(out)["moves"] == [str(m) for m in g.moves]
    assert md.read_text().splitlines()[:-1] == want[:-1]
    # to a file, with the text printed
    code, out, _ = run(monkeypatch, capsys, ["review", path, "--engine", "rollouts:10",
                                             "--seed", "3", "--markdown", md])
    assert code == 0 and out.splitlines()[1].startswith(f"Review of {path}: ")
    assert md.read_text().splitlines()[:-1] == want[:-1]


def test_replay_with_review(monkeypatch, capsys, record, tmp_path):
    path, g = record
    page = tmp_path / "replay.html"
    code, out, err = run(monkeypatch, capsys, ["replay", path, "--html", page, "--review",
                                               "--engine", "rollouts:10", "--seed", "1"])
    assert code == 0, err
    assert "with the review" in out
    html = page.read_text()
    assert 'data-review="1"' in html and "review-graph" in html
    assert 'data-viewer="0"' in html                        # both reviewed: P0's view
    code, out, err = run(monkeypatch, capsys, ["replay", path, "--html", page])
    assert code == 0 and 'data-review' not in page.read_text()


def test_ctrl_c_while_the_review_is_written_still_writes_every_file(monkeypatch, capsys,
                                                                    record, tmp_path):
    # (a real SIGINT in the middle of the writing, Python's own handler in place)
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("SIGINT has another handler here")
    path, g = record
    real = Review.as_dict

    def pressed(self):
        signal.raise_signal(signal.SIGINT)
        return real(self)
    monkeypatch.setattr(Review, "as_dict", pressed)
    page, js = tmp_path / "r.html", tmp_path / "r.json"
    code, out, err = run(monkeypatch, capsys, ["review", path, "--engine", "rollouts:10",
                                               "--seed", "3", "--html", page, "--json", js])
    assert code == 130 and err.rstrip().endswith("cuttle review: interrupted")
    assert json.loads(js.read_text())["decisions"] and "Review of" in out
    assert 'data-review="1"' in page.read_text()


@pytest.mark.parametrize("argv, code, message", [
    (["review", "{tmp}/none.json"], 2, "cannot read"),
    (["review", "{tmp}/bad.json"], 2, "not a cuttle game record"),
    (["review", "{rec}", "--engine", "alphazero"], 2, "unknown engine 'alphazero'"),
    (["review", "{rec}", "--engine", "ismcts:0"], 2, "bad count in engine"),
    (["review", "{rec}", "--engine", "ismcts-infer:x"], 2,
     "bad count in engine 'ismcts-infer:x': use e.g. 'ismcts-infer:1000'"),
    (["replay", "{rec}", "--review", "--engine", "ismcts-infer:0", "--html", "{tmp}/x.html"],
     2, "bad count in engine 'ismcts-infer:0'"),
    (["review", "{rec}", "--player", "2"], 2, "--player: expected 0, 1 or both"),
    (["review", "{rec}", "--thresholds", "good=x"], 2, "--thresholds: expected LABEL=LOSS"),
    (["review", "{rec}", "--thresholds", "best=0.2"], 2, "must grow"),
    (["review", "{rec}", "--thresholds", "good=0.2,mistake=0.1"], 2,
     "not best=0.01, good=0.2, inaccuracy=0.1, mistake=0.1 (the ones not given are the "
     "defaults)"),
    (["review", "{rec}", "--thresholds", "nice=0.2"], 2, "unknown threshold 'nice'"),
    # (the value as typed: it was echoed as 2.0)
    (["review", "{rec}", "--thresholds", "good=2"], 2,
     "--thresholds: threshold 'good' must be a number from 0 to 1, not '2'"),
    (["review", "{rec}", "--thresholds", "mistake= 1e3"], 2,
     "--thresholds: threshold 'mistake' must be a number from 0 to 1, not '1e3'"),
    (["review", "{rec}", "--thresholds", "good=0.040,good=0.05"], 2,
     "--thresholds: good is set twice ('good=0.05' after good=0.040)"),
    (["review", "{rec}", "--thresholds", "good=0.04,Good=0.05"], 2,
     "--thresholds: good is set twice ('Good=0.05' after good=0.04)"),
    (["review", "{rec}", "--threads", "0"], 2, "must be at least 1"),
    (["review", "{rec}", "--html", "{tmp}/no/r.html"], 2, "no folder"),
    (["review", "{rec}", "--html", "{tmp}/x.html", "--json", "{tmp}/x.html"], 2,
     "name the same file"),
    (["review", "{rec}", "--markdown", "{tmp}/x.md", "--json", "{tmp}/x.md"], 2,
     "--json and --markdown name the same file"),
    (["review", "{rec}", "--json", "--markdown"], 2,
     "--json and --markdown cannot both write to stdout; give one a FILE"),
    (["review", "{rec}", "--markdown", "{rec}"], 2, "writing it would replace that input"),
    (["review", "{rec}", "--markdown", "{tmp}/no/r.md"], 2, "no folder"),
    (["review", "{tmp}/illegal.json"], 2, "move 2"),
    (["replay", "{rec}", "--review"], 2, "--review adds the review to the replay page"),
    (["replay", "{rec}", "--engine", "rollouts:100"], 2,
     "--engine sets how the review is made: add --review"),
    (["replay", "{rec}", "--seed", "3", "--html", "{tmp}/x.html"], 2,
     "--seed sets how the review is made"),
    (["replay", "{rec}", "--progress", "--html", "{tmp}/x.html"], 2,
     "--progress sets how the review is made"),
    (["replay", "{rec}", "--no-progress"], 2, "--no-progress sets how the review is made"),
    (["review"], 2, "required: RECORD"),
])
def test_review_errors(monkeypatch, capsys, record, tmp_path, argv, code, message):
    path, g = record
    (tmp_path / "bad.json").write_text('{"format": "pgn"}')
    rec = make_record(g, players=["a", "b"])
    rec["moves"][1] = "royal KS"
    write_record(rec, tmp_path / "illegal.json")
    argv = [a.format(tmp=tmp_path, rec=path) for a in argv]
    got, out, err = run(monkeypatch, capsys, argv)
    assert got == code and message in err and "Traceback" not in err, err


@pytest.mark.parametrize("engine", ["ismcts:5000", "ismcts-infer:5000"])
def test_ctrl_c_prints_the_finished_decisions(record, engine):
    path, _ = record
    # Ctrl-C once the progress bar shows a finished decision (k/N with k >= 1).
    code, out, err = _ctrl_c(["review", str(path), "--engine", engine, "--seed", "1",
                              "--threads", "1", "--progress"], wait_for=r"\b[1-9]\d*/\d+\b")
    assert code == 130, err
    m = re.search(r"interrupted after (\d+) of (\d+) decisions", err)
    assert m and int(m.group(1)) >= 1 and "Traceback" not in err
    assert f"review interrupted: {m.group(1)} of {m.group(2)} decisions reviewed" in out
    assert "accuracy" in out
    assert f"Review of {path}:" in out           # (as a whole review's header says)


def test_ctrl_c_of_a_replay_page_review_names_the_replay(record, tmp_path):
    path, _ = record
    code, out, err = _ctrl_c(["replay", str(path), "--html", str(tmp_path / "r.html"),
                              "--review", "--engine", "ismcts:5000", "--seed", "1",
                              "--threads", "1", "--progress"], wait_for=r"\b[1-9]\d*/\d+\b")
    assert code == 130 and "Traceback" not in err, err
    assert re.search(r"(^|\r)cuttle replay: interrupted after \d+ of \d+ decisions", err,
                     re.M), err
    assert "cuttle review" not in err and (tmp_path / "r.html").exists()


# ---------------------------------------------------------------------------------------
# cuttle play: the game-over menu

def decisions_of(argv, monkeypatch, capsys):
    """How many answers `cuttle play argv` reads before its game is over (with '1')."""
    code, out, _ = run(monkeypatch, capsys, argv, "1\n" * 2000)
    assert code == 0 and "Game over. Type:" in out
    return out[:out.index("Game over. Type:")].count("your move> ")


def test_play_offers_a_review_and_another_game(monkeypatch, capsys, tmp_path):
    rec = tmp_path / "g.json"
    argv = ["play", "--bot", "random", "--seed", "11", "--record", rec]
    k = decisions_of(argv, monkeypatch, capsys)
    stdin = "1\n" * k + "review rollouts:10\nreview chess\nwhat\nagain\nquit\n"
    code, out, err = run(monkeypatch, capsys, argv, stdin)
    assert code == 0, err
    assert f"Game record saved to {rec}" in out
    assert "Reviewing your moves with rollouts:10" in out and "accuracy" in out
    review_json, page = tmp_path / "g.review.json", tmp_path / "g.review.html"
    assert f"Review saved to {review_json} and {page}" in out
    d = json.loads(review_json.read_text())
    assert d["engine"] == "rollouts:10" and d["reviewed_players"] == [0]
    assert d["moves"] == read_record(rec)["moves"]
    assert 'data-review="1"' in page.read_text()
    assert "unknown engine 'chess'" in out and "Type review, again or quit." in out
    # 'again' dealt a new game (seeded from --seed), which 'quit' ended and saved
    second = tmp_path / "g-2.json"
    assert f"Game record saved to {second}" in out
    again = read_record(second)
    assert again["seed"] == cuttle.seeding.derive(11, 1) and again["result"]["status"] == "quit"
    assert out.count("Game over. Type:") == 1


def test_play_leaves_at_the_end_of_input_or_after_unclear_answers(monkeypatch, capsys,
                                                                 tmp_path):
    rec = tmp_path / "g.json"
    argv = ["play", "--bot", "random", "--seed", "12", "--record", rec]
    k = decisions_of(argv, monkeypatch, capsys)
    code, out, _ = run(monkeypatch, capsys, argv, "1\n" * k)
    assert code == 0 and out.rstrip().endswith("after the game>")
    code, out, _ = run(monkeypatch, capsys, argv, "1\n" * (k + 10))
    assert code == 0 and out.count("Type review, again or quit.") == 2
    assert out.rstrip().endswith("No command in 3 answers: leaving.")
    assert not (tmp_path / "g.review.json").exists()
    code, out, _ = run(monkeypatch, capsys, argv, "quit\n")      # no game over: no menu
    assert code == 0 and "Game over. Type:" not in out
