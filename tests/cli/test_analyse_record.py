"""`cuttle analyse --record FILE --move K`: the position a record's move K was decided in,
analysed from its mover's view (never the opponent's hidden cards or the deck order), the
move played shown against the best, and every bad input refused before any playout."""

import json
import pathlib
import re
import shlex

import pytest

import cuttle
import cuttle.cli.analyse as cli_analyse
from cuttle.record import game_before, make_record, read_record, write_record
from support.helpers import hidden_cards_record, recorded_bot_game, run_cli

SEED = 5


run = run_cli


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    """A finished game between two bots (19 moves: move 3 is a forced 'resolve', move 4
    a discard of a 4 by P0, move 13 P0's pick of a 3) and its record file."""
    path, _ = recorded_bot_game(tmp_path_factory.mktemp("rec"), 3)
    return path, read_record(path)


def analyse_cli(monkeypatch, capsys, path, k, *extra):
    code, out, err = run(monkeypatch, capsys, ["analyse", "--record", path, "--move", k,
                                               "--rollouts", "200", "--seed", SEED,
                                               "--threads", "1", *extra])
    assert code == 0 and err == "", err
    return out


@pytest.mark.parametrize("k", [2, 4, 13])
def test_the_analysis_is_the_librarys_on_the_movers_view(monkeypatch, capsys, record, k):
    """The JSON of move K: cuttle.analyse of the Game move K was decided in, and of
    every game its mover could not tell from it (a determinization of their view),
    with the same seed; the move number and the move played, no position text (it
    would show the hidden cards)."""
    path, rec = record
    d = json.loads(analyse_cli(monkeypatch, capsys, path, k, "--json"))
    g = game_before(rec, k)
    lib = cuttle.analyse(g, rollouts=200, seed=SEED, threads=2).as_dict()
    assert d["moves"] == lib["moves"] and d["best"] == lib["moves"][0]["move"]
    view = g.determinize(g.to_move, seed=k)
    assert view.hand(1 - g.to_move) != g.hand(1 - g.to_move) or view.deck != g.deck
    assert cuttle.analyse(view, rollouts=200, seed=SEED, threads=1).as_dict()["moves"] \
        == d["moves"]
    assert (d["move"], d["played"], d["record"]) == (k, rec["moves"][k - 1], str(path))
    assert (d["player"], d["phase"], d["turn"]) == (g.to_move, g.phase, g.turn_number)
    assert d["seed"] == SEED and d["rules"] == rec["rules"] and "position" not in d
    # other options go to the analysis as they do for a position
    d = json.loads(analyse_cli(monkeypatch, capsys, path, k, "--json", "--adaptive",
                               "--policy", "greedy"))
    assert d["moves"] == cuttle.analyse(g, rollouts=200, seed=SEED, policy="greedy",
                                        adaptive=True).as_dict()["moves"]


def test_the_text_shows_the_movers_table_and_the_move_played(monkeypatch, capsys, record):
    path, rec = record
    k = 2
    out = analyse_cli(monkeypatch, capsys, path, k)
    g = game_before(rec, k)
    played = cuttle.Move.parse(rec["moves"][k - 1])
    a = cuttle.analyse(g, rollouts=200, seed=SEED)
    lines = out.splitlines()
    assert lines[0] == f"Move {k} of {path} (P0 ann against P1 bob): the table as P1 saw it"
    assert "\n".join(lines[1:]).startswith(g.render(viewer=1) + "\n\n" +
                                           str(a).split("\n")[0])
    shown = "\n".join(lines[1:7])                  # (P0's hand, as P1 saw it)
    assert f"hand: {len(g.hand(0))} cards (hidden)" in shown
    assert not any(str(c) in shown for c in g.hand(0))
    table = str(a).splitlines()
    assert lines[-2 - len(table):-3] == table[:-1]      # (the timing line aside)
    assert lines[-2] == f"Best: {a.best}"
    rank = [r.move for r in a.rows].index(played)
    assert lines[-1] == f"Played: {cli_analyse.played_text(a, played)}"
    if rank:
        assert lines[-1] == (f"Played: {played}, ranked {rank + 1} of {len(a.rows)} "
                             f"(score {100 * a[played].score:.1f}% against "
                             f"{100 * a.rows[0].score:.1f}%)")
    else:
        assert lines[-1].startswith(f"Played: {played}, the best move (score ")


def test_the_played_move_when_best_or_not_yet_played_out():
    g = cuttle.Game(seed=3)
    a = cuttle.analyse(g, rollouts=50, seed=1)
    assert cli_analyse.played_text(a, a.best).startswith(f"{a.best}, the best move (score ")
    worst = a.rows[-1].move
    assert f", ranked {len(a.rows)} of {len(a.rows)} (score " in \
        cli_analyse.played_text(a, worst)
    a.rows[-1] = cuttle.analysis.MoveStats(worst, 0, 0, 0)
    assert cli_analyse.played_text(a, worst) == f"{worst}, not played out yet"


def test_the_numbers_are_the_replays(monkeypatch, capsys, record):
    """The number copied from `cuttle replay` (or the review: tests/game/test_record.py)
    names the same move, played by the same player."""
    path, rec = record
    code, out, _ = run(monkeypatch, capsys, ["replay", path])
    assert code == 0
    for k in (2, 13):
        line = next(x for x in out.splitlines() if x.startswith(f"Move {k} "))
        d = json.loads(analyse_cli(monkeypatch, capsys, path, k, "--json"))
        assert line.endswith(f", P{d['player']} ({['ann', 'bob'][d['player']]}): "
                             f"{d['played']}"), line


def test_the_opponents_hidden_cards_are_never_read(monkeypatch, capsys, tmp_path):
    """Two records that differ only in what P0 cannot see at move 3 (P1's hand, the
    card P1 drew, the deck order) get the same analysis of P0's move 3."""
    a, ga = hidden_cards_record(tmp_path, ["3C", "4C", "5C", "6C", "8C", "TC"], ["AS", "2S"],
                                "a.json")
    b, gb = hidden_cards_record(tmp_path, ["AS", "2S", "3S", "4S", "5S", "6S"], ["TC", "8C"],
                                "b.json")
    assert ga.hand(1) != gb.hand(1) and ga.deck != gb.deck and ga.hand(0) == gb.hand(0)
    da = json.loads(analyse_cli(monkeypatch, capsys, a, 3, "--json"))
    db = json.loads(analyse_cli(monkeypatch, capsys, b, 3, "--json"))
    assert da["moves"] == db["moves"] and da["played"] == db["played"] == "points 7H"
    ta, tb = (analyse_cli(monkeypatch, capsys, p, 3).splitlines() for p in (a, b))
    assert [x for x in ta if "rollouts in" not in x] == \
        [x.replace("b.json", "a.json") for x in tb if "rollouts in" not in x]


def test_an_interrupted_analysis_still_shows_the_move_played(monkeypatch, capsys, record):
    path, rec = record
    real = cuttle.analyse

    def interrupted(game, rollouts, **kw):
        partial = real(game, rollouts=20, **kw)
        raise cuttle.Interrupted(partial, partial.total_rollouts, 10**6, "rollout")
    monkeypatch.setattr(cli_analyse, "analyse", interrupted)
    code, out, err = run(monkeypatch, capsys, ["analyse", "--record", path, "--move", 2])
    assert code == 130 and "interrupted after" in err
    assert out.splitlines()[-1].startswith(f"Played: {rec['moves'][1]}, ")
    assert out.splitlines()[-1].endswith(" (so far)")


def test_the_records_own_rules_and_mover_may_be_repeated(monkeypatch, capsys, record):
    path, rec = record
    g = game_before(rec, 2)
    d = json.loads(analyse_cli(monkeypatch, capsys, path, 2, "--json", "--rules", "classic",
                               "--set", "four=choice", "--player", g.to_move))
    assert d["player"] == g.to_move and d["move"] == 2


def _bad_records(tmp_path, rec):
    bad = dict(rec, moves=["draw", "jump", "draw", "draw"])
    empty = dict(rec, moves=[])
    for name, r in (("bad.json", bad), ("empty.json", empty)):
        (tmp_path / name).write_text(json.dumps(r))
    (tmp_path / "notjson.json").write_text("{not json")


@pytest.mark.parametrize("argv, status, message", [
    (["--move", 3], 2, "--move K names a move of a game record: give --record FILE"),
    ([], 2, "give a POSITION (text, a file, or - for stdin), or --record FILE --move K"),
    (["hands: 2C / 3D", "--record", "{path}", "--move", 2], 2,
     "argument --record: not allowed with argument POSITION"),
    (["--record", "{path}"], 2, "{path} has 19 moves (1 to 19)"),
    (["--record", "{path}", "--move", 0], 2,
     "{path}: there is no move 0: the record's moves are 1 to 19"),
    (["--record", "{path}", "--move", 20], 2, "there is no move 20: the record's moves are "
                                              "1 to 19"),
    (["--record", "{path}", "--move", -3], 2, "there is no move -3"),
    (["--record", "{path}", "--move", "two"], 2, "argument --move: expected a move number"),
    (["--record", "{path}", "--move", 3], 2, "move 3 of {path} is forced: 'resolve' was "
                                             "player 0's only legal move, there is nothing "
                                             "to compare"),
    (["--record", "{path}", "--move", 2, "--player", 0], 2,
     "player 1 decides at move 2 of {path}, not player 0: leave out --player"),
    (["--record", "{path}", "--move", 2, "--rules", "cuttle.cards"], 2,
     "the record carries its own rules (classic), not the rules chosen (cuttle.cards)"),
    (["--record", "{path}", "--move", 2, "--set", "four=random"], 2,
     "not the rules chosen (classic: four=random): leave out --rules and --set"),
    (["--record", "{path}", "--move", 2, "--rules", "chess"], 2, "unknown preset 'chess'"),
    (["--record", "{dir}/bad.json", "--move", 3], 2,
     "bad.json: move 2 ('jump') cannot be played"),
    (["--record", "{dir}/bad.json", "--move", 2], 2, "bad.json: move 2 ('jump') cannot be "
                                                      "played"),
    (["--record", "{dir}/empty.json", "--move", 1], 2, "empty.json: the record has no "
                                                       "moves"),
    (["--record", "{dir}/empty.json"], 2, "empty.json has 0 moves"),
    (["--record", "{dir}/notjson.json", "--move", 1], 2, "notjson.json: not valid JSON"),
    (["--record", "{dir}/missing.json", "--move", 1], 2, "cannot read"),
])
def test_bad_inputs_are_refused_before_any_playout(monkeypatch, capsys, record, tmp_path,
                                                   argv, status, message):
    path, rec = record
    _bad_records(tmp_path, rec)

    def no_work(*a, **kw):
        raise AssertionError("an analysis ran")
    monkeypatch.setattr(cli_analyse, "analyse", no_work)
    fill = {"path": path, "dir": tmp_path}
    code, out, err = run(monkeypatch, capsys,
                         ["analyse", *(str(a).format(**fill) for a in argv)])
    assert code == status and out == ""
    assert "cuttle analyse: error: " in err and message.format(**fill) in err, err
    assert "Traceback" not in err


def test_the_records_names_and_path_are_printed_escaped(monkeypatch, capsys, tmp_path):
    g = cuttle.Game(seed=4)
    g.play("draw")
    path = tmp_path / "g\x1b[2J.json"
    write_record(make_record(g, players=["a\x1b]52;c;eA==\x07", "b\x9b2J"]), path)
    out = analyse_cli(monkeypatch, capsys, path, 1)
    assert not any(c in out for c in "\x1b\x07\x9b")
    assert out.startswith("Move 1 of ") and "g\\x1b[2J.json" in out


def test_the_example_of_docs_review_md_prints_what_it_shows(monkeypatch, capsys):
    root = pathlib.Path(__file__).resolve().parents[2]
    text = (root / "docs" / "review.md").read_text(encoding="utf-8")
    command, shown = re.search(r"```\n(cuttle analyse --record .*?)\n```\n\n```\n(.*?)```",
                               text, flags=re.S).groups()
    monkeypatch.chdir(root)
    code, out, err = run(monkeypatch, capsys, shlex.split(command)[1:])
    assert code == 0, err
    timing = re.compile(r"in [\d.]+ s \([\d,]+/s\)")
    assert [timing.sub("(TIME)", x) for x in out.splitlines()] == \
        [timing.sub("(TIME)", x) for x in shown.splitlines()]


def test_a_record_with_cards_not_seen_is_analysed_where_it_gives_the_movers_view(
        monkeypatch, capsys, tmp_path):
    """A record whose position has '?' (a game played elsewhere): ann's move is analysed
    alike whatever the deal of the cards she did not see (another seed deals them
    otherwise); a move of the opponent, whose cards it does not give, is refused."""
    from game.test_unseen_record import record as unseen_record
    outs = []
    for seed in (3, 4):
        path = tmp_path / f"ann{seed}.json"
        write_record(unseen_record(seed=seed), path)
        d = json.loads(analyse_cli(monkeypatch, capsys, path, 11, "--json"))
        assert d["player"] == 0 and d["played"] == "points 4C"
        outs.append(d["moves"])
    assert outs[0] == outs[1]
    assert game_before(unseen_record(seed=3), 11).hand(1) != \
        game_before(unseen_record(seed=4), 11).hand(1)
    code, out, err = run(monkeypatch, capsys, ["analyse", "--record", path, "--move", 12])
    assert code == 2 and out == ""
    assert (f"{path}: move 12 is player 1's, whose view the record does not give whole: "
            f"at the start player 1 sees 6 cards that the record does not give") in err
    assert "a decision analysed from a player's view needs every card" in err
    assert "reviewed" not in err
