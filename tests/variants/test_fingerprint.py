"""The atlas fingerprint refuses the chunks of another revision of the library's games
(GAME_REVISION: a rule, a policy or the search changed how some seeded game goes), for
every pairing, even where its few fingerprint games tally alike."""

from types import SimpleNamespace

import pytest

from cuttle.variants import chunks, run


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
