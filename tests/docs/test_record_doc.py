"""docs/record.md is the record format: its examples are what the library writes and
reads (the Python block run, the JSON shown compared with the record it makes, and
replayed), and its tables name every field the library writes, every status and every
end reason, so that the page cannot go stale."""

import json
import pathlib
import re

import pytest

import cuttle
from cuttle._core import END_NAMES
from cuttle.record import (STATUSES, dealt_view, final_game, game_before, make_record,
                           redealt_words, result_of, start_game, validate_record,
                           write_record)
from cuttle.simulation import game_record

ROOT = pathlib.Path(__file__).resolve().parents[2]
TEXT = (ROOT / "docs" / "record.md").read_text(encoding="utf-8")
STAMPS = ("created", "cuttle_version")          # (when and by what: not the format)


def blocks(kind):
    return re.findall(rf"```{kind}\n(.*?)```", TEXT, flags=re.S)


def table(heading):
    """The first column of the table under `heading`: the names in backquotes."""
    part = TEXT[TEXT.index(heading):]
    rows = re.findall(r"^\| `([a-z_]+)` \|", part[:part.index("\n\n", part.index("|"))],
                      flags=re.M)
    assert rows
    return rows


def without_stamps(rec):
    return {k: v for k, v in rec.items() if k not in STAMPS}


def test_the_worked_example_is_what_the_library_writes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)                     # (it writes game.json)
    code = blocks("python")[0]
    scope = {}
    exec(code, scope)
    rec = scope["rec"]
    shown = json.loads(blocks("json")[0])
    assert list(shown) == list(rec)                 # the fields, in the order written
    assert without_stamps(shown) == without_stamps(rec)
    assert json.loads((tmp_path / "game.json").read_text()) == rec
    assert isinstance(shown["created"], str) and isinstance(shown["cuttle_version"], str)


def test_the_worked_example_replays_as_the_page_says():
    rec = validate_record(json.loads(blocks("json")[0]))
    end = final_game(rec)
    assert result_of(end) == rec["result"] and end.score(1) == 23 and end.goal(1) == 21
    before = game_before(rec, 3)
    assert rec["moves"][2] == "points 7H" and before.to_move == 0
    start = cuttle.Game.from_text(rec["position"], rules=cuttle.Rules.from_json(rec["rules"]),
                                  seed=rec["seed"])
    assert cuttle.record.start_game(rec) == start
    assert "four=random" in str(start.rules)


def test_the_simulated_game_is_what_the_run_records():
    shown = json.loads(blocks("json")[1])
    rec = game_record(("expert", "greedy"), seed=7, index=3)
    assert list(shown) == list(rec) and without_stamps(shown) == without_stamps(rec)
    assert "--players expert,greedy --seed 7 --record-game 3" in TEXT
    assert result_of(final_game(validate_record(shown))) == shown["result"]


def undo_example():
    """The scope of the undo's example, run."""
    scope = {}
    exec(next(b for b in blocks("python") if "Sightings" in b), scope)
    return scope


def test_the_undo_example_is_what_the_library_writes():
    scope = undo_example()
    rec, g = scope["rec"], scope["g"]
    assert rec["redealt"] == [2] and '`"redealt": [2]`' in TEXT
    assert redealt_words(rec) == blocks("text")[-1].strip()
    assert rec["version"] == 1 and rec["moves"][:2] == ["draw", "points TC"]
    # the new deal: ann's hand as dealt by the seed, greedy's not; the moves replay on it
    dealt, start = cuttle.Game(seed=7), start_game(rec)
    assert start.hand(0) == dealt.hand(0) and start.hand(1) != dealt.hand(1)
    assert final_game(validate_record(json.loads(json.dumps(rec)))) == g
    without = {k: v for k, v in rec.items() if k != "redealt"}    # (a reader ignoring it)
    assert final_game(without) == g and redealt_words(without) is None


def test_the_record_with_cards_not_seen_replays_and_is_reviewed_as_the_page_says():
    shown = validate_record(json.loads(blocks("json")[2]))
    assert shown["position"] == "hands: 2D 3C 6C 6D 9D / ? ? ? ? ? ?; deck: ? 4C ? TD"
    end = final_game(shown)
    assert end.winner == 0 and end.ply == 15 and [str(m) for m in end.moves] == shown["moves"]
    start = start_game(shown)
    assert [start.deck[i] for i in (1, 3)] == ["4C", "TD"]
    assert {"KH", "7S", "8D"} <= set(start.hand(1))
    again = make_record(end, players=shown["players"], human_seat=0,
                        position=shown["position"])
    assert again["position"] == shown["position"] and final_game(again) == end
    # the refusals shown are the library's: the first as with every card given
    errors = re.findall(r"```\n(move \d+.*?)\n```", TEXT)
    assert len(errors) == 2
    for error, (at, move) in zip(errors, [(4, "scuttle 6D 6C"), (6, "scuttle 8D 6C")]):
        bad = dict(shown, moves=list(shown["moves"]))
        bad["moves"][at - 1] = move
        with pytest.raises(ValueError) as e:
            final_game(bad)
        assert str(e.value) == error
    whole = dict(shown, moves=shown["moves"][:3] + ["scuttle 6D 6C"],
                 position="hands: 2D 3C 6C 6D 9D / 2C 7S 8D QD QH KH; deck: KD 4C 8H TD")
    with pytest.raises(ValueError) as e:
        final_game(whole)
    assert str(e.value) == errors[0]
    from cuttle.redeal import FIT_SEARCH
    assert f"The search stops after {FIT_SEARCH:,} deals" in " ".join(TEXT.split())
    # ann's view is the record's, player 1's is not, as quoted
    assert dealt_view(shown, 0) is None
    quoted = re.search(r"\(`(player 1 cannot be reviewed from this record, .*?): \.\.\.`\)",
                       TEXT, flags=re.S).group(1)
    with pytest.raises(ValueError) as e:
        cuttle.review(shown, "rollouts:8", player=1, seed=1, threads=1)
    assert str(e.value).startswith(" ".join(quoted.split()) + ":")
    r = cuttle.review(shown, "rollouts:8", seed=1, threads=1)
    assert r.players == (0,) and r.unseen == blocks("text")[0].strip()


def test_the_python_of_a_record_with_cards_not_seen_does_what_its_comments_say(
        tmp_path, monkeypatch, capsys):
    code = next(b for b in blocks("python") if "missing_view" in b)
    write_record(validate_record(json.loads(blocks("json")[2])), tmp_path / "game.json")
    monkeypatch.chdir(tmp_path)
    exec(code.replace("rollouts=2000", "rollouts=20"), {})
    out = capsys.readouterr().out.splitlines()
    said = [c.strip() for c in re.findall(r"print\(.*#(.*)$", code, flags=re.M)]
    assert len(said) == 4 and len(out) > 4
    assert out[0].startswith("Player 0 to decide") and "ann" in said[0]   # analysed
    assert out[-3] == "None" and said[1].startswith("None")
    for line, words in zip(out[-2:], said[2:]):
        assert words.endswith(" ...") and line.startswith(words[:-len(" ...")])
    assert out[-1].startswith("move 12 is player 1's, whose view the record does not give "
                              "whole: at the start player 1 sees 6 cards")


def test_the_tables_name_every_field_status_and_end_reason():
    fields = table("## The fields")
    g = cuttle.Game(seed=1)
    g.play("draw")
    written = list(make_record(g, players=["a", "b"]))
    simulated = list(game_record(("random", "random"), seed=1, index=1))
    redealt = list(undo_example()["rec"])
    assert set(fields) == set(written) | set(simulated) | set(redealt)
    for rec in (simulated, redealt):                            # (in the order written)
        assert [f for f in fields if f in rec] == [f for f in rec if f in fields]
    assert table("### The result") == list(result_of(g, "quit"))
    status_row = re.search(r"^\| `status` \|(.*)$", TEXT, flags=re.M).group(1)
    assert set(re.findall(r"`(\w+)`", status_row)) == set(STATUSES)
    reason_row = re.search(r"^\| `end_reason` \|(.*)$", TEXT, flags=re.M).group(1)
    assert set(re.findall(r"`(\w+)`", reason_row)) - {"null"} == set(END_NAMES) - {"none"}


def row(field):
    """The text of the result table's row of `field`."""
    part = TEXT[TEXT.index("### The result"):]
    return re.search(rf"^\| `{field}` \|(.*)$", part, flags=re.M).group(1)


def test_the_result_table_is_what_validate_record_enforces():
    """Each row's values are taken and others refused, naming the field; the fields
    the page lets a record leave out may be left out; its quoted refusal is the
    library's."""
    g = cuttle.Game(seed=1)
    g.play("draw")
    rec = json.loads(json.dumps(make_record(g, players=["a", "b"], human_seat=0)))
    over = {"status": "over", "winner": 1, "end_reason": "goal", "turns": 3,
            "scores": [0, 0], "text": "player 1 wins (goal)"}

    def refused(field, **change):
        with pytest.raises(ValueError, match=rf"'{field}'"):
            validate_record({**rec, "result": {**over, **change}})

    def taken(**change):
        validate_record({**rec, "result": {**over, **change}})

    for status in STATUSES:
        taken(status=status, end_reason=None, winner=None)
    refused("status", status="weird")
    assert re.findall(r"`(\w+)`", row("winner"))[:3] == ["0", "1", "null"]
    for winner in (0, 1, None):
        taken(winner=winner)
    for winner in ("1", 1.0, True, 2):
        refused("winner", winner=winner)
    unfinished = set(re.findall(r"`(\w+)`", row("winner"))[3:])
    assert unfinished == set(STATUSES) - {"over", "resigned"}
    for status in unfinished:
        refused("winner", status=status, end_reason=None, winner=0)
    for reason in set(re.findall(r"`(\w+)`", row("end_reason"))) - {"null"}:
        taken(end_reason=reason)
        for status in set(STATUSES) - {"over"}:
            refused("end_reason", status=status, end_reason=reason, winner=None)
    first = int(re.search(r"an integer from (\d+)", row("turns")).group(1))
    taken(turns=first)
    for turns in (first - 1, "6", float(first)):
        refused("turns", turns=turns)
    low = int(re.search(r"a list of two integers from (\d+)", row("scores")).group(1))
    taken(scores=[low, low])
    for scores in ([low - 1, low], [low], [low, low, low], "x", [float(low), low]):
        refused("scores", scores=scores)
    assert "a string" in row("text")
    refused("text", text=1)
    # "It always gives its `status`; a record written by hand may leave out any other field"
    assert "It always gives its `status`" in TEXT
    for field in set(over) - {"status"}:
        validate_record({**rec, "result": {k: v for k, v in over.items() if k != field}})
    with pytest.raises(ValueError, match="'status'"):
        validate_record({**rec, "result": {k: v for k, v in over.items() if k != "status"}})
    for res in ("over", [1]):
        with pytest.raises(ValueError, match="'result' must be an object"):
            validate_record({**rec, "result": res})
    quoted = re.search(r"\(`(the result's 'winner' .*?)`\)", TEXT).group(1)
    with pytest.raises(ValueError) as e:
        validate_record({**rec, "result": {**over, "winner": "1"}})
    assert str(e.value) == quoted


def test_the_page_is_linked_from_the_index_the_readme_and_the_site():
    assert "(record.md)" in (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert "(docs/record.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "record.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
