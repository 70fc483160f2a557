"""`cuttle analyse --engine ismcts:N`: a position's (or a record's move's) moves ranked by the
review's search engines, labelled as search results, seeded, the decider's view only,
every bad input refused before any search, and Ctrl-C."""

import functools
import json
import pathlib
import re
import shlex

import pytest

import cuttle
import cuttle.cli.analyse as cli_analyse
from cuttle.review import analyse_search
from cuttle.record import game_before, read_record
from cli.test_cli import _ctrl_c
from support.helpers import hidden_cards_record, recorded_bot_game, run_cli

POSITION = "hands: 2C 7H 9S / 4S 5D; points: 9D / TC; to_move: 0; seed: 3"
TIMING = re.compile(r"^[\d,]+ search(es)? in [\d.]+ s; ")


def run(monkeypatch, capsys, *argv):
    return run_cli(monkeypatch, capsys, ["analyse", *argv])


def stable(text):
    """The text without its timing line."""
    return [x for x in text.splitlines() if not TIMING.match(x)]


def without_time(d):
    return {k: v for k, v in d.items() if k != "seconds"}


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    path, _ = recorded_bot_game(tmp_path_factory.mktemp("rec"), 3)
    return path, read_record(path)


def test_a_position_ranked_by_searches_says_so(monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys, POSITION, "--engine", "ismcts:500",
                         "--seed", "4", "--threads", "1")
    assert code == 0
    assert err == ("cuttle analyse: valuing 5 moves by ismcts:500 searches (Ctrl-C stops "
                   "and shows what finished)\n")
    lib = analyse_search(cuttle.Game.from_text(POSITION), "ismcts:500", seed=4, threads=2)
    assert stable(out)[:-1] == stable(str(lib))
    assert out.splitlines()[0] == ("Player 0 to decide (main); ismcts:500 searches from "
                                   "the player's view, seed 4")
    assert "search results, not playout win rates" in out and "rollout" not in out
    assert out.splitlines()[-1] == (f"Best: {lib.best}, by the searches' values (the "
                                    f"ismcts:500 bot's own search would play "
                                    f"{lib.most_visited})")
    # the same seed, the same output; the JSON is the library's, with the position
    again = run(monkeypatch, capsys, POSITION, "--engine", "ismcts:500", "--seed", "4")[1]
    assert stable(again) == stable(out)
    code, js, _ = run(monkeypatch, capsys, POSITION, "--engine", "ismcts:500", "--seed", "4",
                      "--json")
    d = json.loads(js)
    # (the position: the deck below the listed cards shuffled by --seed, never read)
    assert d.pop("position").startswith("rules: classic; hands: 2C 7H 9S / 4S 5D; ")
    assert without_time(d) == without_time({**lib.as_dict(), "rules": cuttle.Rules().to_json(),
                                            "best": str(lib.best)})
    assert d["kind"] == "search" and d["engine"] == "ismcts:500"


def test_the_default_search_and_the_inferring_one(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, POSITION, "--engine", "ismcts", "--seed", "1",
                       "--json")
    assert code == 0 and json.loads(out)["engine"] == "ismcts:1000"
    code, out, _ = run(monkeypatch, capsys, POSITION, "--engine", "ISMCTS-infer:300",
                       "--seed", "1")
    assert code == 0 and "ismcts-infer:300 searches from the player's view" in out


@functools.lru_cache(maxsize=None)
def review_of(path, player):
    """`cuttle.review` of a record's player, ismcts-infer:300, seed 6 (once a player)."""
    return cuttle.review(path, "ismcts-infer:300", player=player, seed=6, threads=2)


@pytest.mark.parametrize("k", [2, 13])
def test_a_records_move_is_valued_as_the_review_values_it(monkeypatch, capsys, record, k):
    path, rec = record
    code, out, _ = run(monkeypatch, capsys, "--record", path, "--move", k, "--engine",
                       "ismcts-infer:300", "--seed", "6", "--json")
    assert code == 0
    d = json.loads(out)
    g = game_before(rec, k)
    played = cuttle.Move.parse(rec["moves"][k - 1])
    lib = analyse_search(g, "ismcts-infer:300", seed=6, played=played, decision=k - 1)
    assert d["moves"] == lib.as_dict()["moves"] and d["played"] == str(played)
    assert d["seed"] == 6                          # (the seed given, not the derived)
    # The review of the record with the same seed values that decision exactly so: its
    # searches are dealt from the seed the review gives decision k - 1 (they were dealt
    # from the seed itself: 6.6% against 12.6% where the review said 6.3% and 13.6%).
    decision = next(x for x in review_of(path, g.to_move).decisions if x.ply == k - 1)
    assert [(c.move, c.score, c.samples) for c in decision.candidates] == \
        [(r.move, r.value, r.searches) for r in lib.rows]
    assert (decision.loss, decision.loss_low, decision.loss_high) == \
        (lib[played].loss, lib[played].loss_low, lib[played].loss_high)
    assert (d["move"], d["record"], d["turn"]) == (k, str(path), g.turn_number)
    assert "position" not in d                     # (it would show the hidden cards)
    code, out, _ = run(monkeypatch, capsys, "--record", path, "--move", k, "--engine",
                       "ismcts-infer:300", "--seed", "6")
    last = out.splitlines()[-1]
    assert last == f"Played: {cli_analyse.played_text(lib, played)}"
    rank = [r.move for r in lib.rows].index(played)
    assert last.startswith(f"Played: {played}, the best move (value " if rank == 0 else
                           f"Played: {played}, ranked {rank + 1} of {len(lib.rows)} (value ")
    # every other move's line: its value against the best's, its loss and its bounds
    best = lib.rows[0]
    for r in lib.rows[1:]:
        assert cli_analyse.played_text(lib, r.move) == (
            f"{r.move}, ranked {lib.rows.index(r) + 1} of {len(lib.rows)} (value "
            f"{100 * r.value:.1f}% against {100 * best.value:.1f}%: {100 * r.loss:.1f} pp "
            f"below the best, {100 * r.loss_low:.1f} to {100 * r.loss_high:.1f})")


def test_the_opponents_hidden_cards_are_never_read(monkeypatch, capsys, tmp_path):
    """Two records that differ only in what P0 cannot see at move 3 get the same search
    analysis of P0's move 3, for the search that reads the opponent's moves too."""
    a, ga = hidden_cards_record(tmp_path, ["3C", "4C", "5C", "6C", "8C", "TC"], ["AS", "2S"],
                                "a.json")
    b, gb = hidden_cards_record(tmp_path, ["AS", "2S", "3S", "4S", "5S", "6S"], ["TC", "8C"],
                                "b.json")
    assert ga.hand(1) != gb.hand(1) and ga.deck != gb.deck and ga.hand(0) == gb.hand(0)
    for engine in ("ismcts:300", "ismcts-infer:300"):
        outs = [run(monkeypatch, capsys, "--record", p, "--move", 3, "--engine", engine,
                    "--seed", "2", "--json")[1] for p in (a, b)]
        da, db = (json.loads(o) for o in outs)
        assert da["moves"] == db["moves"] and da["played"] == "points 7H"


@pytest.mark.parametrize("argv, message", [
    (["--engine", "expert"], "takes a search engine, ismcts[:N] or ismcts-infer[:N], not "
                             "'expert' (playouts are --policy"),
    (["--engine", "rollouts:100"], "takes a search engine"),
    (["--engine", "mcts"], "not 'mcts'"),
    (["--engine", "ismcts:0"], "bad count in engine 'ismcts:0'"),
    (["--engine", "ismcts:2000000"], "1 to 1,000,000"),
    (["--engine", "ismcts", "--rollouts", "100"],
     "--rollouts sets the playouts; --engine ismcts:1000 ranks the moves by searches "
     "instead: leave it out"),
    (["--engine", "ismcts", "--policy", "random"], "--policy sets the playouts"),
    (["--engine", "ismcts", "--adaptive", "--confidence", "0.9"],
     "--adaptive and --confidence set the playouts; --engine ismcts:1000 ranks the moves "
     "by searches instead: leave them out"),
])
def test_bad_options_are_refused_before_any_search(monkeypatch, capsys, argv, message):
    def never(*a, **kw):
        raise AssertionError("searched")
    monkeypatch.setattr(cli_analyse, "analyse_search", never)
    code, out, err = run(monkeypatch, capsys, POSITION, *argv)
    assert code == 2 and message in err and out == "" and "Traceback" not in err


def test_a_finished_position_and_a_forced_record_move_are_refused(monkeypatch, capsys,
                                                                  record):
    path, rec = record
    code, _, err = run(monkeypatch, capsys, "--record", path, "--move", 3, "--engine",
                       "ismcts")
    assert code == 2 and "is forced" in err
    code, _, err = run(monkeypatch, capsys, "--record", path, "--move", 999, "--engine",
                       "ismcts")
    assert code == 2 and "there is no move 999" in err


def test_the_help_names_the_engines(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, "--help")
    text = " ".join(out.split())
    assert code == 0
    assert "--engine ENGINE" in text and "ismcts[:N] or ismcts-infer[:N]" in text
    assert "not a playout win rate" in text


def test_an_interrupted_search_analysis_shows_what_finished(monkeypatch, capsys, record):
    path, rec = record
    real = analyse_search

    def interrupted(game, engine, **kw):
        calls = [0]

        def cancel():
            calls[0] += 1
            return calls[0] >= 3
        return real(game, engine, cancel=cancel, **kw)
    monkeypatch.setattr(cli_analyse, "analyse_search", interrupted)
    code, out, err = run(monkeypatch, capsys, "--record", path, "--move", 2, "--engine",
                         "ismcts:300", "--seed", "1", "--threads", "1")
    m = re.search(r"cuttle analyse: interrupted after (\d+) searches", err)
    assert code == 130 and m and int(m.group(1)) > 0
    assert "(so far)" in out.splitlines()[-2] and out.splitlines()[-1].endswith("(so far)")
    assert f"{m.group(1)} searches in" in out
    code, out, err = run(monkeypatch, capsys, "--record", path, "--move", 2, "--engine",
                         "ismcts:300", "--seed", "1", "--json")
    assert code == 130 and json.loads(out)["interrupted"]["unit"] == "search"


def test_ctrl_c_stops_a_long_search_analysis():
    """A real Ctrl-C: without it, this analysis would take many minutes."""
    code, out, err = _ctrl_c(["analyse", POSITION, "--engine", "ismcts:1000000",
                              "--threads", "1", "--seed", "1"], wait_for="valuing 5 moves")
    assert code == 130, err
    assert re.search(r"cuttle analyse: interrupted after \d+ search", err), err
    assert "Traceback" not in err


def test_the_example_of_docs_analysis_md_prints_what_it_shows(monkeypatch, capsys):
    root = pathlib.Path(__file__).resolve().parents[2]
    text = (root / "docs" / "analysis.md").read_text(encoding="utf-8")
    command, shown = re.search(r"```\n(cuttle analyse .*?--engine .*?)\n```\n\n```\n(.*?)```",
                               text, flags=re.S).groups()
    code, out, err = run_cli(monkeypatch, capsys, shlex.split(command)[1:])
    assert code == 0, err
    timing = re.compile(r"in [\d.]+ s;")
    assert [timing.sub("(TIME)", x) for x in out.splitlines()] == \
        [timing.sub("(TIME)", x) for x in shown.splitlines()]
