"""The atlas on a real LocalCluster (two worker processes): the same result as locally."""

import pytest

import cuttle
from cuttle.variants import Pairing, atlas
from cuttle.variants import chunks as atlas_chunks

distributed = pytest.importorskip("distributed")


def test_the_cluster_plays_the_same_atlas(tmp_path):
    kw = dict(pairings=[Pairing("greedy", target=0.01, max_games=3000, chunk_size=1000)],
              bases=["cuttle.cards"], seed=11)
    local = atlas(**kw)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0")
    try:
        with distributed.Client(cluster) as client:
            path = tmp_path / "r.jsonl"
            remote = atlas(client=client, results=str(path), **kw)
    finally:
        cluster.close()
    assert remote.markdown() == local.markdown()
    assert atlas(results=str(path), play=False, **kw).markdown() == local.markdown()


@pytest.mark.parametrize("rule_sets", [1, 2])
def test_a_chunk_on_a_cluster_is_played_in_index_order(monkeypatch, rule_sets):
    """So that Ctrl-C leaves the first games of the chunk it cuts short, without a gap,
    which the results file keeps as a part (out of order, they were lost)."""
    from cuttle.simulation import cluster
    seen = []
    name = "simulate" if rule_sets == 1 else "compare"
    real = getattr(atlas_chunks, name)

    def spy(*args, **kw):
        seen.append(cluster._IN_ORDER.get())
        return real(*args, **{**kw, "client": None})
    monkeypatch.setattr(atlas_chunks, name, spy)
    base, other = cuttle.Rules(), cuttle.Rules(four="random")
    wanted = [(base, base)] if rule_sets == 1 else [(base, other)]
    player = atlas_chunks.ChunkPlayer(None, ("random", "random"), 7, 10_000, 100,
                                      client=object())
    player.records(0, wanted)
    assert seen == [True] and not cluster._IN_ORDER.get()
