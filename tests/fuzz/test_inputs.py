"""Fuzzing every parser and loader: move text, cards, rules text, position text, game
records and command lines.  Each input is either accepted or refused with a clear
ValueError (a usage message and exit status 2 on the command line), never a crash or a
traceback."""

import io
import json
import os
import re
import sys
import tempfile

import pytest
from hypothesis import HealthCheck, event, example, given, settings, strategies as st

import cuttle
from cuttle.cli import main
from cuttle.position import parse_text
from cuttle.record import validate_record

CARD_TOKENS = [str(c) for c in cuttle.CARDS] + ["10h", "10", "1H", "ZZ", "JK", "7ſ", "ＡS",
                                              "TH[JC]", "TH[JC,JD]", "[JC]", "TH[", "-", ""]
POSITION_TOKENS = CARD_TOKENS + ["hands:", "points:", "permanents:", "scrap:", "deck:",
                                 "to_move:", "rest:", "rules:", "seed:", "/", ";", "\n", "#",
                                 "deck", "scrap", "0", "1", "P1", "²", "١", "classic",
                                 "cuttle.cards", "four=random", "joker=true", "king_goals=0",
                                 "hand_limit=8", "=", ":", "frozen:", "nine=freeze", "?",
                                 "? ?", "?[JC]", "??"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(POSITION_TOKENS), max_size=25).map(" ".join))
@example("hands: 2C 9H / ? ? ?; points: ? / -")
@example("permanents: ? / -; deck: ?")
def test_position_text_is_read_or_refused(text):
    try:
        g = cuttle.Game.from_text(text)
    except ValueError as e:
        # ('?' is a card not seen: where none may stand it is refused as such)
        assert "unknown card '?'" not in str(e)
        return
    assert g.phase in ("main", "over")
    if not g.is_over:
        assert cuttle.Game.from_text(g.position_text()).position_text() == g.position_text()


HAND = ["2C", "9H", "KD", "QS", "4H", "TC"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["cuttle.cards", "classic", "classic nine=freeze",
                        "cuttle.cards nine=topdeck", "classic joker=true nine=freeze"]),
       st.integers(0, 1), st.lists(st.sampled_from(HAND), max_size=4, unique=True),
       st.lists(st.sampled_from(HAND + ["JK", "AS", "ZZ", "TH[JC]", "1O", ""]), max_size=3),
       st.lists(st.sampled_from(HAND + ["JK", "8D"]), max_size=3), st.booleans(),
       st.lists(st.sampled_from(["9C", "9D", "3C"]), max_size=3, unique=True))
def test_frozen_cards_are_read_or_refused(rules, to_move, mine, frozen0, frozen1, slash,
                                          scrap):
    """A position's frozen cards are read when each is a card of its holder's hand, once,
    under nine=freeze, a card a 9 returns, no more than the 9s of the last two turns
    freeze (the other player's only by its own 9), and each with its 9 in the scrap but
    one its player's own 9 froze (the mover's one frozen card) that the other's 3 took
    back; refused with a ValueError naming the problem otherwise; what is read gives its
    text back."""
    theirs = [c for c in HAND if c not in mine]
    text = (f"rules: {rules}; hands: {' '.join(mine) or '-'} / {' '.join(theirs)}; "
            f"frozen: {' '.join(frozen0)} {'/' if slash else ''} {' '.join(frozen1)}; "
            f"scrap: {' '.join(scrap) or '-'}; to_move: {to_move}; seed: 3")
    frozen0, frozen1 = ([c for c in f if c] for f in (frozen0, frozen1))   # ('': none)
    cards = frozen0 + frozen1
    readable = slash and all(c in HAND + ["JK", "AS", "8D"] for c in cards)
    fits = (len(set(frozen0)) == len(frozen0) and len(set(frozen1)) == len(frozen1)
            and set(frozen0) <= set(mine) and set(frozen1) <= set(theirs)
            and (not cards or cuttle.Rules.parse(rules).nine == "freeze"))
    parsed = cuttle.Rules.parse(rules)
    own = parsed.targets_own_side
    nines, mover = sum(c[0] == "9" for c in scrap), (frozen0, frozen1)[to_move]
    taken = own and "3C" in scrap and len(mover) == len(cards) == 1
    fits = fits and (all(c != "JK" and (c[0] in "8JQK" or parsed.nine_targets_points)
                         for c in cards)
                     and len((frozen0, frozen1)[1 - to_move]) <= own
                     and len(cards) <= (2 if own else 1)
                     and len(cards) <= nines + taken)
    try:
        g = cuttle.Game.from_text(text)
    except ValueError as e:
        assert not (readable and fits), str(e)
        assert re.match(r"invalid position: .*frozen" if readable else "field 'frozen'",
                        str(e)), str(e)
        return
    assert readable and fits
    frozen = (frozen0, frozen1)
    assert set(g.frozen(to_move)) == set(frozen[to_move])
    assert set(g.observation(to_move).frozen_next[1 - to_move]) == set(frozen[1 - to_move])
    back = cuttle.Game.from_text(g.position_text())
    assert back.position_text() == g.position_text()
    assert list(back.legal_moves) == list(g.legal_moves)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12) | st.sampled_from(CARD_TOKENS))
def test_cards_are_read_or_refused(text):
    try:
        card = cuttle.Card(text)
    except ValueError:
        return
    assert card in cuttle.CARDS and cuttle.Card(str(card)) is card and str(card).isascii()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["classic", "cuttle.cards", "quick", "CLASSIC", "four=random",
                                 "four=x", "king_goals=15,14,10,7,5", "king_goals=(0,0,0,0,0)",
                                 "hand_limit=none", "hand_limit=²", "joker=yes", ":", ",",
                                 "nine=freeze", "bogus=1", "=", "hand_limit_mode=no_draw",
                                 "joker", "true", "four", "king_goals", "(15, 14, 10, 7, 5)",
                                 "[6,", "6]", "= ", " =", "hand_limit", "none", "8"]),
                max_size=6).map(" ".join))
def test_rules_text_is_read_or_refused(text):
    try:
        rules = cuttle.Rules.parse(text)
    except ValueError as e:
        # what it refuses is quoted as typed (not rewritten: joined, lowercased, a tuple),
        # a long quote by its start and end (cuttle.text.quoted)
        for quoted in re.findall(r"(?:not|unknown rule flag|unknown preset|set twice \(|"
                                 r"brackets in) '([^']*)'", str(e)):
            assert all(part in text for part in quoted.split("...")), (text, str(e))
        with pytest.raises(ValueError):         # every rules= argument reads it alike
            cuttle.Game(text)
        return
    assert cuttle.Rules.parse(str(rules)) == rules == cuttle.Rules.coerce(text)
    assert cuttle.Game(text, seed=1).rules == rules


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list(cuttle.moves.VERBS) + ["DRAW", "Points", "ſcuttle",
                                                            "ta\u212ae", ""] + CARD_TOKENS),
                max_size=4).map(" ".join) | st.text(max_size=16))
def test_moves_are_read_or_refused(text):
    try:
        m = cuttle.Move(text)
    except ValueError:
        return
    assert cuttle.Move.parse(text) == m and cuttle.Move(str(m)) == m
    assert eval(repr(m), {"Move": cuttle.Move}) == m and str(m).isascii()
    assert m == str(m) and hash(m) == hash(str(m)) and (m == text) == (text == str(m))


def record_strategy():
    base = {"format": "cuttle-game-record", "version": 1,
            "rules": {"preset": "classic", "changed": {}}, "seed": 5, "deal": 0,
            "position": None, "players": ["human", "greedy"], "human_seat": 0,
            "moves": ["draw"]}
    values = st.recursive(st.none() | st.booleans() | st.integers(-2, 2**65) | st.text(max_size=8),
                          lambda kids: st.lists(kids, max_size=3)
                          | st.dictionaries(st.text(max_size=5), kids, max_size=3), max_leaves=6)
    return st.dictionaries(st.sampled_from(sorted(base)), values, max_size=3).map(
        lambda change: {**base, **change})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record_strategy())
def test_game_records_are_read_or_refused(rec):
    try:
        validate_record(rec)
        g = cuttle.record.final_game(rec)
    except ValueError:
        return
    assert g.ply == len(rec["moves"])


def result_records():
    """Valid records whose results differ (as JSON reads them): a win by the goal, a
    draw by passes, a game quit and one resigned, with and without a human seat."""
    from cuttle.policies import Bot
    from cuttle.record import make_record
    out = []
    for seed, cut, status in ((0, None, None), (11, None, None), (0, 6, "quit"),
                              (1, 7, "resigned")):
        g, bot = cuttle.Game(seed=seed), Bot("random", seed=seed)
        while not g.is_over and g.ply != cut:
            g.play(bot.choose(g))
        rec = make_record(g, players=["a", "b"], human_seat=0, status=status)
        out += [json.loads(json.dumps(rec)), json.loads(json.dumps({**rec, "human_seat": None}))]
    assert [r["result"]["status"] for r in out[::2]] == ["over", "over", "quit", "resigned"]
    return out


RESULT_RECORDS = result_records()
RESULT_FIELDS = ("status", "winner", "end_reason", "turns", "scores", "text")
RESULT_VALUES = (st.none() | st.booleans() | st.integers(-2, 40) | st.integers()
                 | st.floats() | st.text(max_size=6)
                 | st.sampled_from(["1", "0", "6", "goal", "none", *cuttle.record.STATUSES,
                                    "move_cap", "sudden_death", "passes"])
                 | st.lists(st.integers(-2, 30) | st.booleans() | st.floats(allow_nan=False)
                            | st.text(max_size=2), max_size=3)
                 | st.dictionaries(st.sampled_from(RESULT_FIELDS), st.integers(0, 1), max_size=2))
DROP = object()


def result_faults(res, human_seat):
    """The fields docs/record.md's result table refuses in `res` (an independent reading
    of the table: an object or null; its status always, one of those listed; a winner
    0, 1 or null, null when the game stopped unfinished, and given, or a human seat,
    when resigned; an end_reason named, null unless the rules ended the game; turns an
    integer from 1; scores two integers from 0; text a string)."""
    def integer(v):
        return type(v) is int
    if res is None:
        return set()
    if type(res) is not dict:
        return {"result"}
    out = set()
    status, winner, reason = res.get("status"), res.get("winner"), res.get("end_reason")
    if type(status) is not str or status not in cuttle.record.STATUSES:
        out.add("status")
    if winner is not None and not (integer(winner) and winner in (0, 1)):
        out.add("winner")
    if reason is not None and reason not in ("goal", "passes", "sudden_death", "move_cap"):
        out.add("end_reason")
    if status != "over" and reason is not None:
        out |= {"end_reason", "status"}
    if status not in ("over", "resigned") and winner is not None:
        out |= {"winner", "status"}
    if status == "resigned" and winner is None and human_seat is None:
        out.add("winner")
    if "turns" in res and not (integer(res["turns"]) and res["turns"] >= 1):
        out.add("turns")
    scores = res.get("scores", [0, 0])
    if not (type(scores) is list and len(scores) == 2
            and all(integer(v) and v >= 0 for v in scores)):
        out.add("scores")
    if type(res.get("text", "")) is not str:
        out.add("text")
    return out


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(RESULT_RECORDS))),
       st.dictionaries(st.sampled_from(RESULT_FIELDS + ("other",)),
                       RESULT_VALUES | st.just(DROP), max_size=3),
       st.none() | RESULT_VALUES)
def test_a_record_s_result_is_checked_field_by_field(k, change, whole):
    """A valid record's result with some of its fields changed (types, values) or left
    out, or replaced whole: refused exactly where the format's table refuses it, with a
    ValueError naming a field at fault; else the record replays, and where its stated
    result is not where its moves end, the two read otherwise."""
    rec = RESULT_RECORDS[k]
    res = {f: v for f, v in {**rec["result"], **change}.items() if v is not DROP}
    if whole is not None and not change:
        res = whole                                 # (a result that is not an object)
    told = {**rec, "result": res}
    faults = result_faults(res, rec["human_seat"])
    try:
        validate_record(told)
    except ValueError as e:
        named = re.findall(r"'(\w+)'", str(e))
        event(f"refused: {sorted(faults)}")
        assert faults and faults & set(named), (faults, str(e))
        return
    event("accepted")
    assert not faults, (faults, res)
    end = cuttle.record.final_game(told)
    assert end.ply == len(rec["moves"])
    words = cuttle.record.result_mismatch(told, end)
    if words is not None:
        said, ends = re.fullmatch(r"the record says '(.*)', but its moves end '(.*)'",
                                  words).groups()
        assert said != ends
    assert isinstance(cuttle.record.ending_text(end, told), str)


UNSEEN_CARDS = ["7S", "9D", "KH", "8D", "8H", "AC", "2C", "2S", "5D", "6S", "JC", "4C", "7C",
                "3H", "?", "?", "?", "??", "10h"]
UNSEEN_MOVES = ["draw", "draw", "draw", "pass", "resolve", "points 7S", "points 9D",
                "royal KH", "glasses 8D", "scuttle 8H 7S", "oneoff AC", "oneoff 2C KH",
                "counter 2S", "discard 5D 6S", "jack JC 9D", "take 7S", "points 11H",
                "oneoff 7C", "points 4C", "points 3H", "oneoff 5D"]


def unseen_position():
    """Position text with '?' in its hands and deck, its cards mostly listed once (a
    card listed twice, '??' or a '?' where none may go is refused)."""
    def text(parts):
        *lists, twice, tail = parts
        seen, out = set(), []
        for cards in lists:
            kept = ["?" if c in seen and c != "?" and not twice else c for c in cards]
            seen |= set(cards)
            out.append(" ".join(kept) or "-")
        return f"hands: {out[0]} / {out[1]}; deck: {out[2]}{tail}"
    cards = st.lists(st.sampled_from(UNSEEN_CARDS), max_size=7)
    return st.tuples(cards, cards, cards, st.booleans(),
                     st.sampled_from(["", "", "", "; rest: scrap", "; to_move: 1",
                                      "; scrap: ?", "; points: ? / -"])).map(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(unseen_position(), st.lists(st.sampled_from(UNSEEN_MOVES), max_size=8),
       st.integers(0, 3))
def test_records_with_cards_not_seen_are_read_or_refused(position, moves, seed):
    """A record's position with '?' in its hands and deck (and where '?' is refused) and
    any moves: replayed with a deal of the cards not seen that its moves allow, every
    card listed where it is listed, or refused with a ValueError."""
    rec = {"format": "cuttle-game-record", "version": 1, "rules": "classic", "seed": seed,
           "position": position, "moves": moves}
    try:
        g = cuttle.record.final_game(validate_record(rec))
    except ValueError as e:
        assert str(e) and "unknown card '?'" not in str(e)
        return
    assert g.ply == len(moves)
    if not cuttle.record.has_unseen(rec):
        return
    event("replayed with cards not seen")
    start = cuttle.record.start_game(rec)
    kw = parse_text(position)
    for p in (0, 1):
        assert {c for c in kw["hands"][p] if c != "?"} <= set(start.hand(p))
        assert len(kw["hands"][p]) == len(start.hand(p))
    assert all(c in ("?", start.deck[k]) for k, c in enumerate(kw["deck"]))
    for p in (0, 1):
        said = cuttle.record.dealt_view(rec, p)
        assert said is None or f"player {p} sees" in said


def test_a_deeply_nested_record_is_refused(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100000 + "]" * 100000)
    assert main(["replay", str(path)]) == 2
    assert "nested too deeply" in capsys.readouterr().err


ARGS = ["simulate", "compare", "rules", "analyse", "replay", "-n", "10", "1e12", "0", "-5",
        "--players", "random,greedy", "ismcts:١٠", "ismcts:5", "--seed", "²", "1", "--threads",
        "3000000000", "--confidence", "1.5", "95%", "0.9", "--rules", "CLASSIC", "--set",
        "four=random", "joker=true", "--json", "--csv", "--match", "best_of_3", "--vary",
        "four=choice,random", "hands: JK / -", "--rollouts", "3", "--no-progress", "classic",
        "cuttle.cards", "--max-moves", "50", "--policy", "greedy", "--frobnicate"]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(ARGS), max_size=7))
def test_command_lines_never_crash(argv):
    # Only cheap runs: cap the games and rollouts a random argv may ask for.
    if any(a in argv for a in ("1e12", "3000000000")) or "play" in argv:
        argv = [a for a in argv if a not in ("1e12", "3000000000")]
    argv = argv + ["-n", "20"] if argv[:1] in (["simulate"], ["compare"]) else argv
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr, sys.stdin
    here = os.getcwd()
    sys.stdout, sys.stderr, sys.stdin = out, err, io.StringIO("")
    # (in a folder of its own: `--json four=random` writes a file named so)
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            code = main(argv)
        except SystemExit as e:           # argparse inside a sub-parser
            code = e.code
        finally:
            sys.stdout, sys.stderr, sys.stdin = old
            os.chdir(here)
    assert code in (0, 1, 2), (argv, code)
    assert "Traceback" not in err.getvalue() + out.getvalue(), argv


@pytest.mark.parametrize("make", [
    lambda: cuttle.Rules(king_goals=(0, 0, 0, 0, 0)),
    lambda: cuttle.Rules(king_goals={21, 14, 10, 7, 5}),
    lambda: cuttle.Game(seed=1).render(viewer=5),
    lambda: cuttle.Game.from_position(to_move=True),
    lambda: parse_text(""),
    lambda: cuttle.Move.parse("points 7ſ"),
    lambda: cuttle.Move.from_code(-1),
    lambda: cuttle.Move.from_code(65536 + 65520),
    lambda: cuttle.Game(seed=2**70),
    lambda: cuttle.Game(seed=-5),
    lambda: cuttle.analyse(cuttle.Game(seed=1), rollouts=1, seed=-5),
    lambda: cuttle.Bot("greedy", seed="abc"),
    lambda: cuttle.Game(seed=1).determinize(0, seed=1.5),
])
def test_sharp_inputs_are_refused_with_a_value_error(make):
    with pytest.raises(ValueError):
        make()


def test_moves_are_immutable_values():
    g = cuttle.Game(seed=1)
    m = g.legal_moves[0]
    with pytest.raises(AttributeError):
        m.verb = "pass"
    assert cuttle.Game(seed=1).legal_moves[0] == m and str(m) == "draw"
    assert cuttle.Move.from_code(m.code) is cuttle.Move.from_code(m.code)


def test_a_code_that_packs_no_move_says_what_it_packs():
    # (code 0 used to read "'draw' takes 0 card(s): draw")
    with pytest.raises(cuttle.InvalidMoveError, match=r"packs 'draw' with the card "
                                                      r"field\(s\) AC and AC"):
        cuttle.Move.from_code(0)


# ---------------------------------------------------------------------------------------
# Endless and oversized inputs (issue 21, item 12): a file the command needs must be a
# regular file, and what is read is capped, so /dev/zero or a FIFO cannot exhaust memory
# or block; a results file is checked before any game is played.

def test_replay_refuses_devices_fifos_and_huge_files(capsys, tmp_path):
    from cuttle.record import MAX_RECORD_BYTES
    os.mkfifo(tmp_path / "fifo")
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:                 # sparse: no disk space used
        f.truncate(MAX_RECORD_BYTES + 1)
    for path, message in (("/dev/zero", "character device"), (tmp_path / "fifo", "FIFO"),
                          (huge, "larger than the limit"), (tmp_path, "folder")):
        assert main(["replay", str(path)]) == 2, path
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, err
        assert err.count(str(path)) == 1, err           # (named once, first)
    with pytest.raises(ValueError, match="^/dev/zero: it is a character device"):
        cuttle.record.read_record("/dev/zero")
    with pytest.raises(ValueError, match=f"^{huge}: it is larger than the limit"):
        cuttle.review(huge)


def test_analyse_reads_at_most_a_position_from_stdin(monkeypatch, capsys, tmp_path):
    from cuttle.cli.positions import MAX_POSITION_BYTES
    with open("/dev/zero", encoding="utf-8") as zero:
        monkeypatch.setattr(sys, "stdin", zero)
        assert main(["analyse", "-", "--rollouts", "1"]) == 2
    err = capsys.readouterr().err
    assert "longer than the limit" in err and f"{MAX_POSITION_BYTES:,}" in err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"hands: \xff"),
                                                       encoding="utf-8"))
    assert main(["analyse", "-", "--rollouts", "1"]) == 2
    assert "not text" in capsys.readouterr().err
    big = tmp_path / "pos.txt"
    big.write_text("hands: 2C / 3D; points: - / -\n" + "#" * MAX_POSITION_BYTES)
    assert main(["analyse", str(big), "--rollouts", "1"]) == 2
    assert "larger than the limit" in capsys.readouterr().err


def test_a_byte_order_mark_is_no_part_of_the_text(monkeypatch, capsys, tmp_path):
    # Some editors (Notepad) begin a UTF-8 file with one: a position or a record saved so
    # reads as without it, from a file or from stdin.
    pos = tmp_path / "pos.txt"
    pos.write_bytes(b"\xef\xbb\xbfhands: 2C 7H / 4S; points: 9D / TC; to_move: 0\n")
    assert main(["analyse", str(pos), "--rollouts", "10", "--seed", "1", "--json"]) == 0
    assert "hands: 2C 7H / 4S" in json.loads(capsys.readouterr().out)["position"]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(pos.read_bytes()),
                                                       encoding="utf-8"))
    assert main(["analyse", "-", "--rollouts", "10", "--seed", "1"]) == 0
    g = cuttle.Game(seed=3)
    for _ in range(6):
        g.play(g.legal_moves[0])
    rec = tmp_path / "g.json"
    cuttle.record.write_record(cuttle.record.make_record(g, players=["a", "b"]), rec)
    rec.write_bytes(b"\xef\xbb\xbf" + rec.read_bytes())
    assert cuttle.record.read_record(rec)["moves"] == [str(m) for m in g.moves]
    assert main(["replay", str(rec)]) == 0


@pytest.mark.parametrize("special", ["/dev/null", "/dev/zero", "fifo"])
def test_a_results_file_must_be_regular_and_is_checked_before_playing(
        monkeypatch, capsys, tmp_path, special):
    from cuttle.variants import run as atlas_run
    from cuttle.variants.store import ResultsFileError, Store
    if special == "fifo":
        special = str(tmp_path / "fifo")
        os.mkfifo(special)

    def played(*a, **k):
        raise AssertionError("a game was played")
    monkeypatch.setattr(atlas_run._GroupRun, "run", played)
    code = main(["atlas", "--quick", "--pairings", "random", "--bases", "classic",
                 "--no-progress", "--results", special])
    err = capsys.readouterr().err
    assert code == 2 and special in err and "not a results file" in err, err
    for write in (True, False):
        with pytest.raises(ResultsFileError, match="not a results file"):
            Store(special, write=write)


def test_a_results_line_is_capped(tmp_path):
    from cuttle.variants.store import HEADER, MAX_LINE_BYTES, ResultsFileError, Store
    path = tmp_path / "r.jsonl"
    path.write_bytes(HEADER + b"{" + b" " * MAX_LINE_BYTES + b"}\n")
    with pytest.raises(ResultsFileError, match="line 2: longer than"):
        Store(path, write=False)
    path.write_bytes(b"x" * (MAX_LINE_BYTES + 5))
    with pytest.raises(ResultsFileError, match="not a balance/atlas results file"):
        Store(path, write=False)


def test_record_field_types_are_exact():
    """1.0 and true are equal to 1 in Python, not in a record (human_seat 1.0 used to
    pass and crash `cuttle replay` with a TypeError)."""
    base = {"format": "cuttle-game-record", "version": 1,
            "rules": {"preset": "classic", "changed": {}}, "seed": 5, "position": None,
            "players": ["human", "greedy"], "human_seat": 0, "moves": ["draw"]}
    validate_record(dict(base))
    for field, value in (("human_seat", 1.0), ("human_seat", True), ("human_seat", 2),
                         ("version", True), ("version", 1.0), ("seed", True)):
        with pytest.raises(ValueError):
            validate_record({**base, field: value})


def test_replay_of_a_float_seat_is_a_clear_error(capsys, tmp_path):
    g = cuttle.Game(seed=5)
    g.play("draw")
    rec = cuttle.record.make_record(g, players=["human", "greedy"], human_seat=1,
                                    status="quit")
    rec["human_seat"] = 1.0
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "'human_seat' must be 0" in err and "Traceback" not in err


def test_make_record_writes_only_records_that_replay():
    # A game from a position records that position itself (it used to write none, and
    # the record could not be replayed); arguments a record cannot hold are refused.
    from cuttle.policies import Bot
    from cuttle.record import final_game, make_record
    g = cuttle.Game.from_position("cuttle.cards", hands=(["2C", "9H"], ["4H", "8D", "QS"]),
                                  points=(["TC", "AD"], ["7S[JC]"]), permanents=([], ["KD"]),
                                  deck=["6D", "2S"], rest="deck", seed=1)
    bot = Bot("expert", seed=1)
    while not g.is_over:
        g.play(bot.choose(g))
    rec = make_record(g, players=["expert", "expert"])
    assert rec["position"] and final_game(json.loads(json.dumps(rec))) == g
    assert make_record(cuttle.Game(seed=3), players=["a", "b"])["position"] is None
    other = cuttle.Game.from_position(hands=(["2C"], ["4H"]), seed=1).position_text()
    unfinished = cuttle.Game(seed=2)
    unfinished.play("draw")
    assert make_record(unfinished, players=["a", "b"])["result"]["status"] == "unfinished"
    for kwargs, match in ((dict(players=["a"]), "two names"),
                          (dict(players=["a", "b"], human_seat=5), "human_seat"),
                          (dict(players=["a", "b"], status="bogus"), "status 'bogus'"),
                          (dict(players=["a", "b"], status="over"), "not over"),
                          (dict(players=["a", "b"], position=other), "does not give")):
        with pytest.raises(ValueError, match=match):
            make_record(unfinished, **kwargs)
    with pytest.raises(ValueError, match="must be a cuttle.Game, not str"):
        make_record("draw", players=["a", "b"])


def test_replay_names_the_result_field_that_differs(capsys, tmp_path):
    from cuttle.policies import Bot
    g, bot = cuttle.Game(seed=5), Bot("greedy", seed=5)
    while not g.is_over:
        g.play(bot.choose(g))
    assert g.winner is not None
    rec = cuttle.record.make_record(g, players=["a", "b"])
    rec["result"]["winner"] = 1 - g.winner
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"player {1 - g.winner} wins" in err and f"player {g.winner} wins" in err


def test_what_takes_a_game_says_so_and_how_to_make_one():
    from cuttle.policies import Bot
    for call in (lambda x: cuttle.analyse(x, rollouts=10), lambda x: Bot("greedy").choose(x)):
        with pytest.raises(ValueError, match=r"must be a cuttle.Game, not str \(position "
                                             r"text: cuttle.Game.from_text"):
            call("hands: 2C 9H / 4H; rest: deck")
        with pytest.raises(ValueError, match="must be a cuttle.Game, not int"):
            call(5)
    with pytest.raises(ValueError, match="this is JSON, not position text"):
        cuttle.Game.from_text('{"format": "cuttle-game-record"}')
