"""The atlas fingerprint refuses the chunks of another search: a search pairing's
fingerprint holds the search's version from version 2 on."""

from types import SimpleNamespace

from cuttle.variants import run


def fingerprint(monkeypatch, policy, version):
    monkeypatch.setattr(run, "compare", lambda *a, **k: SimpleNamespace(results=[]))
    monkeypatch.setattr(run, "SEARCH_VERSION", version)
    config = SimpleNamespace(seed=1, threads=1, max_moves=100)
    pairing = SimpleNamespace(policy=policy, players=(policy, policy))
    return run._GroupRun(config, pairing, "classic").fingerprint()


def test_a_new_search_version_changes_only_search_fingerprints(monkeypatch):
    assert fingerprint(monkeypatch, "ismcts:100", 1) != fingerprint(monkeypatch, "ismcts:100", 2)
    assert fingerprint(monkeypatch, "ismcts:100", 2) != fingerprint(monkeypatch, "ismcts:100", 3)
    assert fingerprint(monkeypatch, "expert", 1) == fingerprint(monkeypatch, "expert", 2)
