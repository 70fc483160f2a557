"""A tampered atlas results file (issue 21, item 11): every loaded tally is checked for
consistency, not only for shape.  A chunk whose moments say 10**12 moves (cap 10,000)
used to be reported as a mean of 1e9 moves a game, and a pair's differences of -10**12
as a shift of +1e9 with a zero-width interval; now each is refused with its line
number.  Tallies of any games load (no false alarm); tests/variants/test_atlas_doc.py
loads the committed docs/atlas/results.jsonl whole."""

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

import cuttle
from cuttle._core import END_NAMES
from cuttle.cli import main
from cuttle.policies import policy_name
from cuttle.rules import no_degenerate_warning
from cuttle.simulation.api import MAX_CHUNK, MAX_MAX_MOVES, MAX_UNITS
from cuttle.simulation.tally import LENGTH_BINS, PairTally, Tally, tallies_from_rows
from cuttle.variants import Pairing, atlas
from cuttle.variants.records import (KEY_FIELDS, pair_from_json, pair_to_json, record_line,
                                     tally_from_json, tally_to_json)
from cuttle.variants.store import ResultsFileError, Store


@pytest.fixture(scope="module")
def lines(tmp_path_factory):
    """The header, a base record and a variant record (with its pair) of a small real
    atlas file: one chunk of 1,000 random self-play games a rule set."""
    path = tmp_path_factory.mktemp("atlas") / "r.jsonl"
    atlas([Pairing("random", target=0.1, max_games=1000, chunk_size=1000)], ["classic"],
          seed=5, results=str(path))
    all_lines = path.read_text().splitlines(keepends=True)
    base = next(x for x in all_lines[1:] if json.loads(x)["pair"] is None)
    variant = next(x for x in all_lines[1:] if json.loads(x)["pair"] is not None)
    return all_lines[0], base, variant


def tamper(lines, tmp_path, change, which=1):
    """The three lines with record `which` (1 base, 2 variant) changed by `change`."""
    recs = [json.loads(x) for x in lines]
    for rec in recs[1:]:
        rec.pop("check", None)      # (the consistency checks are what is tested)
    change(recs[which])
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return path


def _set(path, value):
    def change(rec):
        d = rec
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value(d[path[-1]]) if callable(value) else value
    return change


def _move_count(src, dst):
    """Move one game from counts cell src to dst (winner+1, first, end)."""
    def change(rec):
        c = rec["tally"]["counts"]
        i = next(f for f in range(2) if c[src[0]][f][src[1]])
        c[src[0]][i][src[1]] -= 1
        c[dst[0]][i][dst[1]] += 1
    return change


GOAL, PASSES, CAP = (END_NAMES.index(x) for x in ("goal", "passes", "move_cap"))

TAMPERED = {
    # the red team's two reproducers
    "moves of 10**12": (1, _set(["tally", "moments", "moves"], [10**12, 10**24])),
    "pair diffs of -10**12": (2, _set(["pair", "diffs", 0], [-10**12, 10**24])),
    # sums against sums of squares (Cauchy-Schwarz) and the parity of squares
    "squares too small": (1, _set(["tally", "moments", "moves"], lambda m: [m[0], m[0]])),
    "squares too large": (1, _set(["tally", "moments", "turns"],
                                  lambda m: [m[0], m[1] * 10**6])),
    "odd squares": (1, _set(["tally", "moments", "score_a"], lambda m: [m[0], m[1] + 1])),
    "diffs with zero spread": (2, _set(["pair", "diffs", 0], lambda d: [d[0] + 4000, 0])),
    # moments against the length histograms and the cap
    "a move more": (1, _set(["tally", "moments", "moves"],
                            lambda m: [m[0] + 1, m[1] + 2 * 50 + 1])),
    "a histogram past the cap": (1, lambda r: r.update(max_moves=100)),
    "scores above the deck": (1, lambda rec: rec["tally"]["moments"].update(
        score_b=[221 * 1000, 221 * 221 * 1000])),
    "negative scores": (1, _set(["tally", "moments", "score_b"], [-5, 25])),
    # counts against end reasons and the pair's table
    "a draw at the goal": (1, _move_count((1, GOAL), (0, GOAL))),
    "a win by passes": (1, _move_count((0, PASSES), (2, PASSES))),
    "an unfinished game": (1, _move_count((0, PASSES), (0, END_NAMES.index("none")))),
    "a cap and no game that long": (1, _move_count((0, PASSES), (0, CAP))),
    "the table against the tally": (2, _move_count((1, GOAL), (2, GOAL))),
    "a match row": (2, _set(["pair", "table", 4], [999, 1, 0, 0])),
    "the first side's wins": (2, _set(["pair", "table", 2], lambda t: [t[0] + 1, t[1],
                                                                       t[2] - 1, t[3]])),
    "diffs against the tally": (2, lambda rec: _diffs_below_zero(rec)),
    # numbers no run can hold: the huge counts used to stop the atlas and balance with
    # an OverflowError, the key fields past their bounds to load as chunks nothing asks
    # for; the negative, float and bool values were refused already (kept as a fence)
    "a length count of 2**64": (1, _set(["tally", "lengths", 0, 5], 2**64)),
    "a count of 2**63": (1, _set(["tally", "counts", 0, 0, 2], 2**63)),
    "a pair count of 2**63": (2, _set(["pair", "table", 0, 0], 2**63)),
    "counts summing past 2**63": (1, _set(["tally", "counts", 1, 0], [2**61] * 5)),
    "a negative count": (1, _set(["tally", "lengths", 1, 3], -1)),
    "a float count": (1, _set(["tally", "counts", 0, 0, 2], lambda c: float(c))),
    "a bool count": (2, _set(["pair", "table", 3, 0], lambda c: bool(c))),
    "a seed of 2**64": (1, _set(["seed"], 2**64)),
    "a negative seed": (1, _set(["seed"], -1)),
    "a float seed": (1, _set(["seed"], 5.0)),
    "a bool chunk": (1, _set(["chunk"], False)),
    "a move cap past the largest": (1, _set(["max_moves"], 2**31)),
    "a chunk size past the largest": (1, _set(["chunk_size"], 2**24 + 1)),
    "a chunk past the last game": (1, lambda rec: rec.update(
        chunk=10**12, games=[10**15, 10**15 + 1000])),
}


def _diffs_below_zero(rec):
    """Turn differences possible on their own, but making the first rule set's total
    turns negative given the second's (the variant's tally)."""
    n = rec["games"][1] - rec["games"][0]
    s = -rec["tally"]["moments"]["turns"][0] - 2
    q = s * s // n + 2
    rec["pair"]["diffs"][1] = [s, q + (q - s) % 2]


@pytest.mark.parametrize("name", sorted(TAMPERED))
def test_impossible_tallies_are_refused_with_their_line(lines, tmp_path, name):
    which, change = TAMPERED[name]
    path = tamper(lines, tmp_path, change, which)
    assert path.read_text() != "".join(lines)
    for write in (False, True):
        with pytest.raises(ResultsFileError, match=f"line {which + 1}: not a valid balance/atlas "
                                                   f"record"):
            Store(path, write=write).close()


def test_the_untampered_lines_load(lines, tmp_path):
    path = tamper(lines, tmp_path, lambda rec: None)
    with Store(path, write=False) as store:
        assert len(store) == 2
    # the largest values a run can play with
    path = tamper(lines, tmp_path, lambda rec: rec.update(
        seed=2**64 - 1, max_moves=2**31 - 1, chunk=10**12 - 1,
        games=[10**15 - 1000, 10**15]))
    with Store(path, write=False) as store:
        assert len(store) == 2


@pytest.mark.parametrize("version", ["true", "1.0", "2.0", "3", "0"])
def test_the_header_s_version_is_an_int(lines, tmp_path, version):
    path = tmp_path / "r.jsonl"
    path.write_text(lines[0].replace('"version": 2', f'"version": {version}') + lines[1])
    with pytest.raises(ResultsFileError, match="this cuttle reads versions 1 to 2"):
        Store(path, write=False)


def test_a_deeply_nested_line_is_refused_with_its_line(lines, tmp_path, capsys):
    """A line of 100,000 '[' raised a RecursionError out of the JSON decoder: the
    atlas and balance printed a traceback."""
    path = tmp_path / "deep.jsonl"
    path.write_text(lines[0] + lines[1] + "[" * 100_000 + "\n" + lines[2])
    for write in (False, True):
        with pytest.raises(ResultsFileError, match="line 3: not a valid balance/atlas record "
                                                   r"\(the JSON is nested too deeply\)"):
            Store(path, write=write).close()
    for args in (["atlas", "--pairings", "random", "--bases", "classic"], ["balance"]):
        assert main([*args, "--results", str(path), "--report-only"]) == 2
        assert "line 3: not a valid balance/atlas record" in capsys.readouterr().err
    # as a last line without its newline, a line a killed run half wrote: dropped
    path.write_text(lines[0] + lines[1] + "[" * 100_000)
    with Store(path) as store:
        assert len(store) == 1 and "last line (line 3) was incomplete" in store.notes[0]
    assert path.read_text() == lines[0] + lines[1]


# -- no false alarm: the tally of any games loads ------------------------------------------

@st.composite
def games(draw):
    """Per-game rows any engine could produce under a cap (moves up to the cap, turns
    at most one more, scores up to 220, a winner exactly when the goal was reached)."""
    cap = draw(st.sampled_from([1, 5, 100, 510, 511, 512, 600, 10_000]))
    n = draw(st.integers(0, 30))
    moves = np.array(draw(st.lists(st.integers(0, cap), min_size=n, max_size=n)), np.int64)
    turns = np.array([draw(st.integers(0, m + 1)) for m in moves], np.int64)
    end = np.array([draw(st.sampled_from([GOAL, PASSES, CAP, END_NAMES.index("sudden_death")]))
                    for _ in range(n)], np.int64)
    end[moves == cap] = np.where(end[moves == cap] == GOAL, GOAL, CAP)
    end[(end == CAP) & (moves != cap)] = PASSES
    winner = np.array([draw(st.integers(0, 1)) if e == GOAL else -1 for e in end], np.int64)
    rows = {"winner": winner, "first": np.array([draw(st.integers(0, 1)) for _ in range(n)],
                                                 np.int64),
            "end": end, "moves": moves, "turns": turns,
            "scores": np.array([[draw(st.integers(0, 220)), draw(st.integers(0, 220))]
                                for _ in range(n)], np.int64).reshape(n, 2)}
    return cap, rows


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.data())
def test_the_tally_of_any_games_loads(game_rows, data):
    cap, a = game_rows
    n = len(a["moves"])
    # the same games under another rule set: other lengths and outcomes
    b = {k: v.copy() for k, v in a.items()}
    b["moves"] = b["moves"][::-1].copy()
    b["turns"] = np.minimum(b["turns"], b["moves"] + 1)
    b["end"] = np.where(b["moves"] == cap, CAP, PASSES)
    b["winner"] = np.full(n, -1, np.int64)
    out = tallies_from_rows([a, b])
    ta, tb = (Tally.from_core(t, False) for t in out["tallies"])
    pair = PairTally.from_core(out["pairs"][(0, 1)])
    assert tally_from_json(json.loads(json.dumps(tally_to_json(ta))), n, cap) == ta
    back_b = tally_from_json(json.loads(json.dumps(tally_to_json(tb))), n, cap)
    assert pair_from_json(json.loads(json.dumps(pair_to_json(pair))), n, back_b, cap) == pair
    assert LENGTH_BINS == 512


# -- a damaged file: refused, or read as it was ------------------------------------------

def _damaged(data, how, at, byte):
    """`data` cut at `at`, or its byte at `at` replaced by `byte`, or removed."""
    at %= len(data)
    if how == "cut":
        return data[:at]
    if how == "replace":
        return data[:at] + bytes([byte]) + data[at + 1:]
    return data[:at] + data[at + 1:]


def _records(store):
    """{key: (Tally, pair) as JSON} of what a store read, whole records and parts."""
    out = {}
    for key in store.index:
        tally, pair = store.get(key, None)
        out[key] = (tally_to_json(tally), None if pair is None else pair_to_json(pair))
    for key in store.parts:
        got = store.get_part(key)
        if got is not None:
            out[key] = (tally_to_json(got[1]), None if got[2] is None else pair_to_json(got[2]))
    return out


@settings(max_examples=400, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(how=st.sampled_from(["cut", "replace", "remove"]), at=st.integers(0, 10 ** 6),
       byte=st.integers(0, 255), write=st.booleans())
def test_a_damaged_file_is_refused_or_read_as_it_was(lines, tmp_path, how, at, byte, write):
    """A line cut short or garbled anywhere: the file is refused (ResultsFileError,
    never another exception), or what it reads is what was written (a last line cut
    off is dropped; a byte changed where it changes nothing read, as a space)."""
    data = "".join(lines).encode()
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(_damaged(data, how, at, byte))
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(data)
    with Store(whole, write=False) as store:
        original = _records(store)
    try:
        store = Store(path, write=write, command="atlas")
    except ResultsFileError:
        return
    with store:
        got = _records(store)
        assert all(original.get(key) == value for key, value in got.items())
        stamps = dict(store.stamps())
    for key, stamp in stamps.items():
        assert stamp is None or (len(stamp) == 16 and set(stamp) <= set("0123456789abcdef"))


# -- key fields: junk is refused, another configuration is kept ----------------------

def rechecked(lines, tmp_path, which, field, value):
    """The lines with record `which` (1 base, 2 variant) given `value` as `field`, its
    check written again (what is tested is the key's own check, not the hash)."""
    recs = [json.loads(x) for x in lines]
    recs[which].pop("check")
    recs[which][field] = value
    path = tmp_path / "key.jsonl"
    path.write_text(lines[0] + "".join(record_line(r).decode() for r in recs[1:]))
    return path


def valid_key_value(field, value):
    """Whether `value` is one a run could write as `field` (independently of the
    records module: the library's own parsers)."""
    if field in ("base", "rules"):
        if not (isinstance(value, str) and value.strip()):
            return False
        try:
            with no_degenerate_warning():
                cuttle.Rules.parse(value)
        except ValueError:
            return False
        return True
    if field == "players":
        try:
            return isinstance(value, list) and len(value) == 2 and \
                all(isinstance(p, str) and policy_name(p) for p in value)
        except ValueError:
            return False
    low, top = {"seed": (0, 2 ** 64 - 1), "max_moves": (1, MAX_MAX_MOVES),
                "chunk_size": (1, MAX_CHUNK), "chunk": (0, MAX_UNITS)}[field]
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= top


@pytest.mark.parametrize("field,value", [
    ("players", ["x", "random"]), ("players", ["random", ""]), ("players", ["ismcts:0"] * 2),
    ("rules", "x"), ("rules", ""), ("rules", "classic: four=x"), ("base", ""),
    ("base", "x"), ("seed", 2 ** 64), ("seed", -1), ("seed", 1.5)])
def test_a_record_whose_key_is_junk_is_refused_with_its_line(lines, tmp_path, field, value):
    path = rechecked(lines, tmp_path, 2, field, value)
    with pytest.raises(ResultsFileError, match=r", line 3: not a valid .*damaged"):
        Store(str(path), write=False)


@pytest.mark.parametrize("field,value", [
    ("players", ["greedy", "expert"]), ("seed", 6), ("rules", "classic: joker=true"),
    ("rules", "cuttle.cards"), ("base", "cuttle.cards")])
def test_a_record_of_another_configuration_is_kept_and_ignored(lines, tmp_path, field, value):
    path = rechecked(lines, tmp_path, 2, field, value)
    with Store(str(path), write=False) as store:
        keys = list(store.index)
    assert len(keys) == 2
    at = KEY_FIELDS.index(field)
    assert [k[at] for k in keys].count(tuple(value) if field == "players" else value) == 1


JUNK = st.one_of(
    st.text(max_size=12), st.sampled_from(["classic", "cuttle.cards", "classic: joker=true",
                                           "random", "greedy", "ismcts:10", " ", "x"]),
    st.integers(-3, 2 ** 65), st.none(), st.booleans(), st.floats(allow_nan=False),
    st.lists(st.one_of(st.text(max_size=6), st.sampled_from(["random", "greedy", "expert"])),
             max_size=3))


@settings(max_examples=300, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(which=st.sampled_from([1, 2]), field=st.sampled_from(KEY_FIELDS), junk=JUNK)
@example(which=2, field="rules", junk="classic")     # (the first record's key: a clash)
def test_a_key_field_replaced_by_junk_is_refused_or_another_configuration(
        lines, tmp_path, which, field, junk):
    path = rechecked(lines, tmp_path, which, field, junk)
    try:
        with Store(str(path), write=False) as store:
            keys = [*store.index, *store.parts]     # (a chunk_size past its games: a part)
    except ResultsFileError as e:
        if f", line {which + 1}: not a valid " in str(e):
            return
        # a valid value may make the record the other's key: two results for one chunk
        assert valid_key_value(field, junk) and f"lines 2 and 3 hold different results " \
            f"for the same chunk" in str(e), (field, junk, str(e))
        return
    assert valid_key_value(field, junk), (field, junk)      # (junk is never read)
    assert len(keys) == 2
