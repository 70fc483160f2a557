"""Each atlas record is stamped by its own games (`chunks.Stamps`): a file filled by a
run with fewer variants (before a flag was added) is extended, its records re-used and
only the new variants played, to the report a run from scratch gives; records another
version of the engine or a policy played are refused, naming the cause; and a file of
the earlier format (one stamp per group) is upgraded in place, or refused when its games
differ."""

import json
import os
import pickle
from types import SimpleNamespace

import pytest

from cuttle import Rules
from cuttle._weights import EXPERT_WEIGHTS, _set_expert_weights
from cuttle.render.data import atlas_data
from cuttle.simulation import compare
from cuttle.variants import AtlasInterrupted, Pairing, atlas, chunks, run
from cuttle.variants.chunks import FINGERPRINT_GAMES, Stamps, fingerprint
from cuttle.variants.errors import OtherFingerprint
from cuttle.variants.rulesets import variants
from cuttle.variants.store import Store


def stamp(monkeypatch, policy, revision):
    monkeypatch.setattr(chunks, "GAME_REVISION", revision)
    stamps = Stamps(policy, 1, 100)
    stamps._tallies = {Rules(): SimpleNamespace()}        # (no games played)
    monkeypatch.setattr(chunks, "tally_to_json", lambda t: {})
    return stamps(Rules(), Rules())


@pytest.mark.parametrize("policy", ["random", "expert", "ismcts:100"])
def test_a_new_revision_changes_the_stamp(monkeypatch, policy):
    assert stamp(monkeypatch, policy, 2) != stamp(monkeypatch, policy, 3)
    assert stamp(monkeypatch, policy, 3) == stamp(monkeypatch, policy, 3)


def test_primed_stamps_are_those_of_single_rule_sets():
    # `prime` plays many rule sets in one compare call: their first games are those a
    # rule set played alone gives (the balance designer's stamps, one by one, before).
    sets = [Rules(), *(v.rules for v in variants("classic")[:5])]
    together = Stamps("random", 7, 10000)
    together.prime(sets)
    for a in sets:
        alone = Stamps("random", 7, 10000)
        assert alone(sets[0], a) == together(sets[0], a)


# A tiny atlas (random self-play on classic, at most two chunks of 500 games) and the
# variants of a group before flags were added: the first four.
TINY = dict(pairings=[Pairing("random", target=0.05, max_games=1000, chunk_size=500)],
            bases=["classic"], seed=3, progress=False)
FEWER = variants("classic")[:4]


def filled(path, monkeypatch, group=None, **kw):
    """A results file of TINY's atlas, whose group is `group` (its variants) if given;
    returns the result."""
    with monkeypatch.context() as m:
        if group is not None:
            m.setattr(run, "variants", lambda base: group)
        return atlas(results=str(path), **{**TINY, "interactions": 0, **kw})


def played(monkeypatch):
    """The rule sets of every chunk played from now on (not the stamps' first games):
    a list of (first game, rule texts)."""
    out = []

    def spy(rule_sets, n, *a, **k):
        out.append((k["start"], sorted(map(str, rule_sets))))
        return compare(rule_sets, n, *a, **k)
    monkeypatch.setattr(chunks, "compare", lambda rs, n, *a, **k: spy(rs, n, *a, **k)
                        if "start" in k else compare(rs, n, *a, **k))
    return out


def stage_of(chunks_played):
    """The rule sets of each chunk played of the variants (not of the interactions)."""
    pairs = {str(ab) for _, _, ab in run.pairs_of(variants("classic"), Rules())}
    return [rules for _, rules in chunks_played if not pairs & set(rules)]


def report(res):
    """What an atlas reports, but the time it took and what this run played."""
    d = atlas_data(res)
    for k in ("elapsed_seconds", "played_records", "played_games"):
        d.pop(k, None)
    return d


@pytest.mark.parametrize("interactions", [0, 3])
def test_a_file_of_fewer_variants_is_extended(tmp_path, monkeypatch, interactions):
    path = tmp_path / "atlas.jsonl"
    small = filled(path, monkeypatch, FEWER, interactions=interactions)
    before = path.read_bytes()
    chunks_played = played(monkeypatch)
    more = atlas(results=str(path), interactions=interactions, **TINY)
    # the file's lines are kept as they are, its records re-used: every chunk of the
    # variants played holds new variants (and the base, on whose games they are
    # paired) only (a new interaction's pair plays its old variant on its games too)
    assert path.read_bytes().startswith(before)
    assert stage_of(chunks_played) and not any(
        {str(v.rules) for v in FEWER} & set(rules) for rules in stage_of(chunks_played))
    # (from scratch into a file: the interactions read back the variants' records)
    scratch = atlas(results=str(tmp_path / "scratch.jsonl"), interactions=interactions,
                    **TINY)
    assert small.played_records + more.played_records == scratch.played_records
    assert more.played_records < scratch.played_records
    assert report(more) == report(scratch) and str(more) == str(scratch)
    # and the same run again plays nothing
    again = atlas(results=str(path), interactions=interactions, **TINY)
    assert again.played_records == 0 and report(again) == report(scratch)


def test_extending_a_file_says_what_it_holds_and_counts_what_is_played(
        tmp_path, monkeypatch, capsys):
    # A run into a file of fewer variants plays only the new ones: it says so at the
    # group's start, and its status lines count the variants played, not those read.
    fewer = tmp_path / "fewer.jsonl"
    filled(fewer, monkeypatch, FEWER)
    path = tmp_path / "atlas.jsonl"
    path.write_bytes(fewer.read_bytes())
    n, new = len(variants("classic")), len(variants("classic")) - len(FEWER)
    seen = []
    atlas(results=str(path), interactions=0, **{**TINY, "progress": seen.append})
    first = [i for i in seen if i["chunk"] == 0]
    assert first and all((i["read"], i["played"]) == (len(FEWER), new) for i in first)
    assert any("done" in i for i in first)
    capsys.readouterr()
    head = "atlas, random self-play, classic"
    for file, held, chunk in ((tmp_path / "new.jsonl", 0, "done"),
                              (path, n, "read from the file"),
                              (fewer, 4, f"done ({new} played, 4 read from the file)")):
        atlas(results=str(file), interactions=0, **{**TINY, "progress": True})
        lines = capsys.readouterr().err.splitlines()
        assert lines[0] == (f"{head}: {held} of {n} variants already played in {file}, "
                            f"{n - held} to play")
        assert lines[1].startswith(f"{head}: chunk 0 {chunk}, ")


def test_another_version_is_refused_with_the_cause(tmp_path, monkeypatch):
    path = tmp_path / "atlas.jsonl"
    filled(path, monkeypatch, FEWER)
    text = path.read_text()
    monkeypatch.setattr(chunks, "GAME_REVISION", chunks.GAME_REVISION + 1)
    with pytest.raises(OtherFingerprint, match="another version of the engine or of the "
                                               "random policy") as e:
        atlas(results=str(path), interactions=0, **TINY)
    assert path.read_text() == text and e.value.key[:2] == ("classic", "classic")
    assert pickle.loads(pickle.dumps(e.value)).args == e.value.args


def test_a_changed_policy_is_refused(tmp_path, monkeypatch):
    # The expert's weights changed (a policy improved in place, no revision raised):
    # its games differ, so the file's records are refused, whichever variants it holds.
    path = tmp_path / "atlas.jsonl"
    expert = dict(TINY, pairings=[Pairing("expert", target=0.1, max_games=200,
                                          chunk_size=200)])
    filled(path, monkeypatch, FEWER[:2], **expert)
    text = path.read_text()
    try:
        _set_expert_weights({"win": 1.0, "king": 5.0})
        with pytest.raises(OtherFingerprint, match="another version of the engine or of "
                                                   "the expert policy"):
            atlas(results=str(path), interactions=0, **expert)
    finally:
        _set_expert_weights(EXPERT_WEIGHTS)
    assert path.read_text() == text
    res = atlas(results=str(path), interactions=0, **expert)    # as before: extended
    assert res.played_records and path.read_text().startswith(text)


def old_format(path, group, revision=None):
    """`path` turned into a file of version 1: its header without a command (as the
    committed atlas file's), every record stamped with its group's fingerprint, the
    first games of the base and of every variant of `group` (as a run of version 1
    stamped them), computed under `revision`."""
    n = FINGERPRINT_GAMES[False]
    cmp = compare([Rules(), *(v.rules for v in group)], n, ("random", "random"), seed=3,
                  swap_seats=False, progress=False)
    old = chunks.GAME_REVISION
    chunks.GAME_REVISION = old if revision is None else revision
    try:
        stamp = fingerprint(r.tally for r in cmp.results)
    finally:
        chunks.GAME_REVISION = old
    lines = path.read_text().splitlines()
    recs = [dict(json.loads(x), engine=stamp) for x in lines[1:]]
    for rec in recs:
        del rec["check"]                    # (version 1 had none)
    path.write_text('{"format": "cuttle-atlas", "version": 1}\n'
                    + "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs))
    return path.read_text()


def test_a_file_of_the_old_format_is_upgraded_and_extended(tmp_path, monkeypatch):
    path = tmp_path / "atlas.jsonl"
    filled(path, monkeypatch, FEWER, interactions=2)
    text = old_format(path, FEWER)
    read = atlas(results=str(path), play=False, interactions=2, **TINY)     # as it is
    assert path.read_text() == text and read.n_games
    chunks_played = played(monkeypatch)
    more = atlas(results=str(path), interactions=2, **TINY)
    assert "upgraded to the format of this version" in "".join(more.notes)
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"format": "cuttle-atlas", "version": 2,
                                    "command": "atlas"}
    assert stage_of(chunks_played) and not any(
        {str(v.rules) for v in FEWER} & set(rules) for rules in stage_of(chunks_played))
    # each old record now carries its own stamp, as a new run writes it
    stamps = Stamps("random", 3, TINY.get("max_moves", 10000))
    for line in lines[1:len(text.splitlines())]:
        rec = json.loads(line)
        assert rec["engine"] == stamps(Rules.coerce(rec["base"]), Rules.coerce(rec["rules"]))
    assert report(more) == report(atlas(interactions=2, **TINY))
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".upgrading")]


def test_a_file_of_the_old_format_of_another_version_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "atlas.jsonl"
    filled(path, monkeypatch, FEWER)
    text = old_format(path, FEWER, revision=chunks.GAME_REVISION - 1)
    with pytest.raises(OtherFingerprint, match=r"another version of the engine or of the "
                                               r"random policy played this chunk's group "
                                               r"\(the classic group under random self-play, "
                                               r"seed 3; a file of an earlier format"):
        atlas(results=str(path), interactions=0, **TINY)
    assert path.read_text() == text                 # not rewritten: nothing checked
    assert atlas(results=str(path), play=False, interactions=0, **TINY).n_games


def test_an_upgrade_cut_short_leaves_the_file_whole(tmp_path, monkeypatch):
    path = tmp_path / "atlas.jsonl"
    filled(path, monkeypatch, FEWER)
    text = old_format(path, FEWER)
    calls = []

    def stop(self, reference, rules):
        calls.append(rules)
        if len(calls) > 2:
            raise KeyboardInterrupt
        return Stamps.of(self, (reference, rules))
    monkeypatch.setattr(Stamps, "__call__", stop)
    with pytest.raises(AtlasInterrupted):
        atlas(results=str(path), interactions=0, **TINY)
    assert path.read_text() == text and sorted(os.listdir(tmp_path)) == ["atlas.jsonl"]
    with Store(path, write=True, command="atlas") as store:     # not locked: closed
        assert store.legacy


def test_the_committed_file_of_the_old_format_upgrades_whole(tmp_path):
    # docs/atlas/results.jsonl is of version 1: every group of it still plays as it did
    # (ismcts:100 too), so a run into it re-uses it all.
    from cuttle.variants.upgrade import upgrade
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    path = tmp_path / "results.jsonl"
    path.write_bytes(open(os.path.join(root, "docs", "atlas", "results.jsonl"), "rb").read())
    with Store(path, write=True, command="atlas") as store:
        n = len(store)
        assert store.legacy
        upgrade(store)
        assert not store.causes and "8 groups checked" in store.notes[-1]
        assert not store.legacy and len(store) == n and store.owner == "atlas"
