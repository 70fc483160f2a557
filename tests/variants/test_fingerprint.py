"""The atlas fingerprint refuses the chunks of another revision of the library's games
(GAME_REVISION: a rule, a policy or the search changed how some seeded game goes), for
every pairing, even where its few fingerprint games tally alike."""

import pickle
from types import SimpleNamespace

import pytest

from cuttle import Rules
from cuttle.variants import Pairing, atlas, chunks, run
from cuttle.variants.rulesets import variants
from cuttle.variants.store import OtherFingerprint


def fingerprint(monkeypatch, policy, revision):
    monkeypatch.setattr(run, "compare", lambda *a, **k: SimpleNamespace(results=[]))
    monkeypatch.setattr(chunks, "GAME_REVISION", revision)
    config = SimpleNamespace(seed=1, threads=1, max_moves=100)
    pairing = SimpleNamespace(policy=policy, players=(policy, policy))
    return run._GroupRun(config, pairing, "classic").fingerprint()


@pytest.mark.parametrize("policy", ["random", "expert", "ismcts:100"])
def test_a_new_revision_changes_the_fingerprint(monkeypatch, policy):
    assert fingerprint(monkeypatch, policy, 2) != fingerprint(monkeypatch, policy, 3)
    assert fingerprint(monkeypatch, policy, 3) == fingerprint(monkeypatch, policy, 3)


# A tiny atlas (random self-play on classic, two chunks of 500 games at most) and the
# variants of a group that lacks one, as a group had before a flag was added.
TINY = dict(pairings=[Pairing("random", target=0.05, max_games=1000, chunk_size=500)],
            bases=["classic"], seed=3, progress=False)
FEWER = [v for v in variants("classic") if v.label != "joker=true"]


def filled(path, monkeypatch, group=None, interactions=0):
    """A results file of TINY's atlas, whose group is `group` (its variants) if given."""
    with monkeypatch.context() as m:
        if group is not None:
            m.setattr(run, "variants", lambda base: group)
        atlas(results=str(path), interactions=interactions, **TINY)
    return path.read_text()


def test_a_group_with_a_new_variant_says_so(tmp_path, monkeypatch):
    # A flag added since the file was filled: the group's fingerprint, of the base and
    # every variant, is another; the run names the variant the file lacks, and finds
    # that the file's own variants still play as they did.
    path = tmp_path / "atlas.jsonl"
    text = filled(path, monkeypatch, FEWER)
    with pytest.raises(OtherFingerprint) as e:
        atlas(results=str(path), interactions=0, **TINY)
    said = str(e.value)
    assert "another version" not in said and path.read_text() == text
    assert "no games of 1 variant of the classic group under random self-play " \
           "(joker=true)" in said
    assert "the variants the file holds play as they did then" in said
    assert e.value.stamp != e.value.engine and e.value.key[:2] == ("classic", "classic")
    # and another version besides: said too
    monkeypatch.setattr(chunks, "GAME_REVISION", chunks.GAME_REVISION + 1)
    with pytest.raises(OtherFingerprint, match=r"\(joker=true\).*without the new ones the "
                                               r"games still differ from the file's"):
        atlas(results=str(path), interactions=0, **TINY)


def test_a_group_without_a_variant_of_the_file_says_so(tmp_path, monkeypatch):
    # A value taken from the rules since: the file has games of a rule set the group no
    # longer plays (the interactions' pairs, of variants it still plays, are not named).
    path = tmp_path / "atlas.jsonl"
    text = filled(path, monkeypatch, interactions=2)
    assert sum('"chunk":0' in line for line in text.splitlines()) > len(FEWER) + 2
    with monkeypatch.context() as m:
        m.setattr(run, "variants", lambda base: FEWER)
        with pytest.raises(OtherFingerprint) as e:
            atlas(results=str(path), interactions=0, **TINY)
    said = str(e.value)
    assert "the file has games of 1 rule set the group no longer plays (classic: joker=true)" \
        in said
    assert all(str(both) not in said for _, _, both in run.pairs_of(FEWER, Rules()))


def test_another_version_is_still_said_to_be_one(tmp_path, monkeypatch):
    path = tmp_path / "atlas.jsonl"
    filled(path, monkeypatch)
    monkeypatch.setattr(chunks, "GAME_REVISION", chunks.GAME_REVISION + 1)
    with pytest.raises(OtherFingerprint, match="another version of the engine or of the "
                                               "random policy") as e:
        atlas(results=str(path), interactions=0, **TINY)
    assert pickle.loads(pickle.dumps(e.value)).args == e.value.args
