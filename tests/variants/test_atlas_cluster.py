"""The atlas on a real LocalCluster (two worker processes): the same result as locally."""

import pytest

from cuttle.variants import Pairing, atlas

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
