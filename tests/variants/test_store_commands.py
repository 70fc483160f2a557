"""A results file holds the runs of one command, cuttle atlas or cuttle balance: the other
refuses it before anything is played or written.  Sharing one misled both: each named
the other's runs as its own ("give the options of the run that filled it"), balance's
--check called an atlas's runs other searches, and records of the same key stamped by
the other's fingerprint were refused as "played by another version" in mid-run."""

import json
import os

import pytest

import cuttle
from cuttle import Rules
from cuttle.cli import main
from cuttle.variants import Pairing
from cuttle.variants.chunks import Stamps
from cuttle.variants.rulesets import variants
from cuttle.variants.store import NothingToReport, ResultsFileError, Store

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Tiny runs of each command: random self-play, chunks of 1,000 games.  The atlas and the
# search share the players and the chunk size; their seeds differ, so the files of an
# earlier version that both filled hold two runs, as the tester's did.
ATLAS = dict(pairings=[Pairing("random", target=0.012, max_games=2000, chunk_size=1000)],
             bases=["classic"], seed=7, interactions=0, progress=False)
BUDGET = dict(chunk_size=1000, screen_games=2000, screen_target=0.01, per_size=2,
              race_games=2000, race_target=0.015, confirm_games=2000, confirm_target=0.01)
BALANCE = dict(k=1, flags="deal", deals=[(6, 6), (4, 6)], budget=BUDGET, progress=False)


def run_atlas(path, **kw):
    return cuttle.atlas(results=str(path), **ATLAS, **kw)


def run_balance(path, **kw):
    return cuttle.balance("classic", "random", results=str(path), **BALANCE, **kw)


def atlas_form(res):
    d = res.as_dict()
    for k in ("elapsed_seconds", "played_records", "played_games"):
        d.pop(k)
    return d, res.markdown()


def balance_form(res):
    return {k: v for k, v in res.as_dict().items()
            if k not in ("elapsed_seconds", "played_records", "played_games")}


def earlier(path):
    """The file as an earlier version wrote it: its header names no command, of version
    1, its records without a check, an atlas's stamped by its group (the first games of
    the base and every variant), a search's each by its own games."""
    lines = path.read_text().splitlines(keepends=True)
    recs = [json.loads(x) for x in lines[1:]]
    group = Stamps("random", 7, 10000).of([Rules(), *(v.rules for v in variants("classic"))])
    for rec in recs:
        del rec["check"]
        if json.loads(lines[0])["command"] == "atlas":
            rec["engine"] = group
    path.write_text('{"format": "cuttle-atlas", "version": 1}\n'
                    + "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs))


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("files")
    a, b = d / "atlas.jsonl", d / "balance.jsonl"
    return a, run_atlas(a), b, run_balance(b)


def copy(src, dst):
    dst.write_bytes(src.read_bytes())
    return dst


def refused(path, holder, command):
    return (f"{path} holds the runs of cuttle {holder}; cuttle {command} keeps its runs in "
            f"a file of its own: give another results file")


def test_a_new_files_header_names_its_command(files):
    a, _, b, _ = files
    assert json.loads(a.read_text().splitlines()[0]) == \
        {"format": "cuttle-atlas", "version": 2, "command": "atlas"}
    assert json.loads(b.read_text().splitlines()[0])["command"] == "balance"


@pytest.mark.parametrize("earlier_version", [False, True])
def test_each_command_refuses_the_others_file_and_writes_nothing(files, tmp_path,
                                                                 earlier_version):
    a, _, b, _ = files
    a, b = copy(a, tmp_path / "a.jsonl"), copy(b, tmp_path / "b.jsonl")
    if earlier_version:
        earlier(a), earlier(b)
    for path, holder, command, go in ((a, "atlas", "balance", run_balance),
                                      (b, "balance", "atlas", run_atlas)):
        # (a cut-off last line is not dropped either: the file is not the command's)
        path.write_bytes(path.read_bytes() + b'{"base": "cl')
        before = path.read_bytes()
        for play in (True, False):
            with pytest.raises(ResultsFileError) as ex:
                go(path, play=play)
            assert isinstance(ex.value, ValueError)
            assert str(ex.value) == refused(path, holder, command)
            assert path.read_bytes() == before


def test_the_command_line_says_it_in_one_line(files, tmp_path, capsys):
    a, _, b, _ = files
    a = copy(a, tmp_path / "atlas.jsonl")
    before = a.read_bytes()
    code = main(["balance", "--quick", "--results", str(a), "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and a.read_bytes() == before
    assert err == f"cuttle balance: error: {refused(a, 'atlas', 'balance')}\n"
    b = copy(b, tmp_path / "bal.jsonl")
    code = main(["atlas", "--quick", "--report-only", "--results", str(b)])
    err = capsys.readouterr()[1]
    assert code == 2
    assert err == f"cuttle atlas: error: {refused(b, 'balance', 'atlas')}\n"


def locked(path, holder):
    return (f"{path} is being written by another {holder} run; wait for it or use another "
            f"file")


def test_the_lock_names_the_command_holding_it(files, tmp_path, capsys):
    """One run at a time writes a file: the others are told whose run holds it, from the
    header (it said "another atlas run" whoever held it)."""
    _, _, b, _ = files
    b = copy(b, tmp_path / "b.jsonl")
    before = b.read_bytes()
    with Store(b, command="balance"):       # as a balance search holds its file
        for go in (run_balance, run_atlas):
            with pytest.raises(ResultsFileError) as ex:
                go(b)
            assert str(ex.value) == locked(b, "cuttle balance")
        assert run_balance(b, play=False).complete      # (reading takes no lock)
        code = main(["atlas", "--quick", "--results", str(b)])
        assert code == 2
        assert capsys.readouterr() == ("", f"cuttle atlas: error: "
                                           f"{locked(b, 'cuttle balance')}\n")
    assert b.read_bytes() == before


def test_the_lock_of_a_file_whose_header_names_no_command(files, tmp_path):
    fcntl = pytest.importorskip("fcntl")
    a, _, _, _ = files
    a = copy(a, tmp_path / "a.jsonl")
    earlier(a)                              # an earlier version's file: either may hold it
    with Store(a, command="atlas"):
        with pytest.raises(ResultsFileError) as ex:
            run_atlas(a)
        assert str(ex.value) == locked(a, "cuttle atlas or balance")
    # a file just made, its header not written yet
    new = tmp_path / "new.jsonl"
    with open(new, "ab") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        with pytest.raises(ResultsFileError) as ex:
            run_balance(new)
        assert str(ex.value) == locked(new, "cuttle atlas or balance")
    assert new.read_bytes() == b""


def test_a_file_made_for_the_other_command_is_refused_before_its_first_run(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"format": "cuttle-atlas", "version": 1, "command": "balance"}\n')
    with pytest.raises(ResultsFileError) as ex:
        run_atlas(path)
    assert str(ex.value) == (f"{path} is the results file of cuttle balance; cuttle atlas "
                             f"keeps its runs in a file of its own: give another results "
                             f"file")
    path.write_text('{"format": "cuttle-atlas", "version": 1, "command": "elo"}\n')
    with pytest.raises(ResultsFileError, match="the results file of another command "
                                               "\\('elo'\\); this cuttle's are atlas and "
                                               "balance"):
        run_atlas(path)
    with pytest.raises(ValueError, match="command must be one of atlas, balance, not 'x'"):
        Store(path, command="x")


def test_files_of_earlier_versions_are_told_by_their_records(files, tmp_path):
    """A file whose header names no command is each command's own when its records say
    so: a search's reach beyond the first stage of games, or carry a fingerprint per
    pair of rule sets where an atlas stamps one on all of a base's records."""
    a, atlas_res, b, balance_res = files
    a, b = copy(a, tmp_path / "a.jsonl"), copy(b, tmp_path / "b.jsonl")
    earlier(a), earlier(b)
    assert atlas_form(run_atlas(a, play=False)) == atlas_form(atlas_res)
    assert balance_form(run_balance(b, play=False)) == balance_form(balance_res)
    # continued, they play nothing more: the search's stays as it was, the atlas's is
    # upgraded to this version (its records stamped each by its own games)
    before = b.read_bytes()
    assert run_atlas(a).played_records == run_balance(b).played_records == 0
    assert b.read_bytes() == before
    assert json.loads(a.read_text().splitlines()[0])["command"] == "atlas"
    assert atlas_form(run_atlas(a)) == atlas_form(atlas_res)
    # a search cut short in its screening has only first-stage records, each pair of rule
    # sets with its fingerprint: still a search's, continued to the same answer
    lines = b.read_text().splitlines(keepends=True)
    screen = [x for x in lines[1:] if json.loads(x)["chunk"] < 10 ** 12 // 1000]
    assert 1 < len(screen) < len(lines) - 1
    b.write_text(lines[0] + "".join(screen))
    with pytest.raises(ResultsFileError, match="holds the runs of cuttle balance"):
        run_atlas(b, play=False)
    assert not run_balance(b, play=False).complete
    assert balance_form(run_balance(b)) == balance_form(balance_res)
    # the committed files, which earlier versions wrote
    for name, command in (("atlas/results.jsonl", "atlas"),
                          ("balance/classic.jsonl", "balance")):
        with Store(os.path.join(ROOT, "docs", name), write=False) as store:
            assert store.owner is None and {store.whose(k) for k in store.index} == {command}


def test_a_file_both_filled_is_read_by_each_but_played_into_by_neither(files, tmp_path):
    """Earlier versions let both commands append to one file: each still reads its own
    runs from it, as from a file of its own, and names only those; neither plays into
    it (balance's --check called the atlas's runs other searches)."""
    a, atlas_res, b, balance_res = files
    both = copy(a, tmp_path / "both.jsonl")
    earlier(both)
    both.write_text(both.read_text() + "".join(b.read_text().splitlines(keepends=True)[1:]))
    before = both.read_bytes()
    assert atlas_form(run_atlas(both, play=False)) == atlas_form(atlas_res)
    assert balance_form(run_balance(both, play=False)) == balance_form(balance_res)
    with pytest.raises(NothingToReport) as ex:
        run_atlas(both, play=False, max_moves=500)
    assert ex.value.runs == [("classic", "random", 7, 1000)]
    with pytest.raises(NothingToReport) as ex:
        run_balance(both, play=False, seed=2)
    assert ex.value.runs == [("classic", "random", 1, 1000)]
    for go, command in ((run_atlas, "atlas"), (run_balance, "balance"),
                        (lambda p: run_balance(p, check="greedy"), "balance")):
        with pytest.raises(ResultsFileError) as ex:
            go(both)
        assert str(ex.value) == (
            f"{both} holds the runs of both cuttle atlas and cuttle balance (an earlier "
            f"version let them share a file): cuttle {command} reads its own without "
            f"playing (--report-only, play=False), but plays into a file of its own: give "
            f"another results file")
    assert both.read_bytes() == before
