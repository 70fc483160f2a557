"""Streaming statistics: the core's tallies, results without per-game rows, merging,
pickling, games streamed to CSV, scores past int8, and memory that does not grow."""

import hashlib
import io
import pickle
import tracemalloc

import numpy as np
import pytest

import cuttle
from cuttle._play import play_batch, play_units
from cuttle.policies import policy_code
from cuttle.simulation import GamesNotKept, Interrupted, PairTally, Tally
from cuttle.simulation.tally import tallies_from_rows

FIELDS = ("winner", "first", "moves", "turns", "scores", "end")


def rand(game, rng):
    moves = game.legal_moves
    return moves[rng.randrange(len(moves))]


def digest(d):
    h = hashlib.sha256()
    for k in FIELDS:
        h.update(np.ascontiguousarray(d[k], dtype=np.int64).tobytes())
    return h.hexdigest()[:16]


# Digests of games 5..20004 of seed 12345 (2 threads) from the core before streaming
# statistics: the games themselves (winners, moves, turns, scores, ends) must not change.
# Random self-play's two digests are those of GAME_REVISION 2 (a counter chain's 2s reach
# the scrap when it ends, so a 3 may take them: random players meet it in these 20,000
# games; revision 1 gave e67f08634f1f25cb and 9f73573863b9257b); the others are unchanged.
BEFORE = {("classic", "random", "random", True): "f964fc61d11d03c5",
          ("classic", "random", "random", False): "a8a5faa6deb4c1de",
          ("classic", "greedy", "random", True): "542feac4c0ed77b5",
          ("cuttle.cards", "greedy", "greedy", True): "e16136b7bd800bb2",
          ("quick", "greedy", "random", True): "6f5b7b74f9df21f4"}


@pytest.mark.parametrize("key", sorted(BEFORE))
def test_the_games_are_the_games_of_before(key):
    rules, a, b, swap = key
    d = play_batch(cuttle.Rules(rules), 5, 20000, 12345, policy_code(a), policy_code(b), swap, 2)
    assert digest(d) == BEFORE[key]


@pytest.mark.parametrize("need, slots", [(0, 1), (2, 7), (3, 12)])
def test_core_tallies_equal_tallies_of_the_rows(need, slots):
    rule_sets = [cuttle.Rules(), cuttle.Rules("quick"), cuttle.Rules(four="random")]
    raw = play_units(rule_sets, 3, 1500, 3, policy_code("random"), policy_code("greedy"),
                     True, 2, 10000, need, slots, True)
    ref = tallies_from_rows(raw["rows"], need)
    for a, b in zip(raw["tallies"], ref["tallies"]):
        assert Tally.from_core(a, need > 0) == Tally.from_core(b, need > 0)
    assert set(raw["pairs"]) == {(0, 1), (0, 2), (1, 2)}
    for k in raw["pairs"]:
        pair = PairTally.from_core(raw["pairs"][k])
        assert pair == PairTally.from_core(ref["pairs"][k])
        # a match run's pairs also hold their sums over matches (the games they played)
        assert (pair.match_sums is None) == (need == 0)
        if need:
            assert pair.match_units[0] == 1500
            assert pair.match_units[1:3] == tuple(raw["tallies"][i]["counts"].sum()
                                                  for i in k)
    # the tallies do not depend on the thread count or on the rows being kept
    one = play_units(rule_sets, 3, 1500, 3, policy_code("random"), policy_code("greedy"),
                     True, 1, 10000, need, slots, False)
    assert one["rows"] is None
    assert [Tally.from_core(t, need > 0) for t in one["tallies"]] == \
        [Tally.from_core(t, need > 0) for t in raw["tallies"]]
    assert {k: PairTally.from_core(p) for k, p in one["pairs"].items()} == \
        {k: PairTally.from_core(p) for k, p in raw["pairs"].items()}


def test_the_match_sums_multiply_past_64_bits():
    # a match's sum of moves may pass 2**32 (max_moves up to 2**31 - 1, 127 games), and
    # the square of it 2**64: the core's products are 128 bits wide
    import ctypes
    from cuttle import _play
    from support.native import c_function
    wide = ctypes.c_uint64 * 2                              # lo, hi
    add = c_function(_play, "add_product", None, ctypes.c_void_p, ctypes.c_uint64,
                     ctypes.c_uint64)
    w, total = wide(0, 0), 0
    for a, b in [(2 ** 38 - 1, 2 ** 38 - 3), (2 ** 64 - 1, 2 ** 64 - 1), (0, 5), (7, 9),
                 (2 ** 32, 2 ** 32), (123456789012, 98765432109)]:
        add(ctypes.addressof(w), a, b)
        total += a * b
        assert w[0] + (w[1] << 64) == total % 2 ** 128


def test_statistics_only_by_default():
    r = cuttle.simulate(2000, seed=4, progress=False)
    kept = cuttle.simulate(2000, seed=4, progress=False, keep_games=True)
    assert not r.keeps_games and kept.keeps_games
    assert r.tally == kept.tally and len(r) == 2000
    a, b = r.summary().as_dict(), kept.summary().as_dict()
    a.pop("elapsed_seconds"), b.pop("elapsed_seconds")
    assert a == b
    assert r.summary().win_rate("A") == kept.summary().win_rate("A")
    assert r.tally.counts.sum() == 2000
    for name in FIELDS + ("game_index",):
        with pytest.raises(GamesNotKept, match="keep_games=True"):
            getattr(r, name)
    assert not hasattr(r, "winner")         # an AttributeError: getattr(r, x, None) works
    with pytest.raises(GamesNotKept, match="keep_games=True"):
        r.to_csv(io.StringIO())
    m = cuttle.simulate(30, seed=4, progress=False, match="best_of_3")
    assert m.matches.n_matches == 30 and m.matches.slots == 7
    with pytest.raises(GamesNotKept, match="per-match arrays"):
        m.matches.winner
    # the length histograms count every game
    h = r.summary().length_histogram("moves")
    assert h.sum() == 2000 and (h * np.arange(len(h))).sum() == kept.moves.sum()


def test_python_players_tally_like_their_rows():
    r = cuttle.simulate(12, players=(rand, "greedy"), seed=3, progress=False, keep_games=True)
    s = cuttle.simulate(12, players=(rand, "greedy"), seed=3, progress=False, chunk_size=5)
    assert r.tally == s.tally
    assert r.tally == Tally.from_core(tallies_from_rows([{k: getattr(r, k) for k in FIELDS}])
                                      ["tallies"][0], False)


def test_merge():
    whole = cuttle.simulate(3000, seed=6, progress=False, keep_games=True)
    parts = [cuttle.simulate(3000, seed=6, progress=False, keep_games=True, chunk_size=700)]
    assert parts[0].tally == whole.tally and parts[0].ranges == ((0, 3000),)
    from cuttle.simulation.runner import Plan, play_chunk
    from cuttle.simulation.players import resolve_players
    plan = Plan([cuttle.Rules()], resolve_players(("random", "greedy")), 6, True, 10000,
                None, 1, True)
    chunks = [play_chunk(plan, lo, hi - lo) for lo, hi in ((2000, 3000), (0, 999), (999, 2000))]
    merged = chunks[0].merge(chunks[1]).merge(chunks[2])
    assert merged.ranges == ((0, 3000),) and merged.tally == whole.tally
    for k in FIELDS + ("game_index",):
        assert np.array_equal(getattr(merged, k), getattr(whole, k)), k
    total = sum(chunks)
    assert total.tally == whole.tally and (chunks[0] + chunks[1]).ranges == ((0, 999),
                                                                             (2000, 3000))
    # rows are kept only if both sides kept them
    lean = chunks[1].merge(chunks[2].without_games())
    assert not lean.keeps_games and lean.n_games == 2000
    with pytest.raises(ValueError, match="overlap"):
        chunks[1].merge(chunks[1])
    other = cuttle.simulate(10, seed=7, progress=False)
    with pytest.raises(ValueError, match="differ in seed"):
        other.merge(cuttle.simulate(10, seed=8, progress=False))
    with pytest.raises(ValueError, match="differ in rules"):
        other.merge(cuttle.simulate(10, "quick", seed=7, progress=False))
    with pytest.raises(ValueError, match="differ in players"):
        other.merge(cuttle.simulate(10, players="greedy", seed=7, progress=False))
    with pytest.raises(TypeError):
        other.merge(3)


def test_start_plays_a_later_part_of_the_run():
    whole = cuttle.simulate(3000, seed=6, progress=False, keep_games=True)
    head = cuttle.simulate(1200, seed=6, progress=False)
    tail = cuttle.simulate(1800, seed=6, progress=False, keep_games=True, start=1200,
                           chunk_size=500)
    assert tail.ranges == ((1200, 3000),) and tail.game_index[0] == 1200
    assert np.array_equal(tail.moves, whole.moves[1200:])
    assert (head + tail).tally == whole.tally and (head + tail).ranges == ((0, 3000),)
    rule_sets = ["classic", cuttle.Rules(four="random")]
    c_whole = cuttle.compare(rule_sets, 3000, seed=6, progress=False)
    c_parts = (cuttle.compare(rule_sets, 1000, seed=6, progress=False, start=2000)
               + cuttle.compare(rule_sets, 2000, seed=6, progress=False))
    assert c_parts.pairs == c_whole.pairs and c_parts.ranges == ((0, 3000),)
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="start"):
            cuttle.simulate(10, seed=1, start=bad)
    with pytest.raises(ValueError, match="start"):
        cuttle.compare(rule_sets, 10, seed=1, start=cuttle.simulation.MAX_UNITS)


def test_pickles_small():
    r = cuttle.simulate(100_000, seed=2, progress=False)
    blob = pickle.dumps(r)
    assert len(blob) < 20_000
    back = pickle.loads(blob)
    assert back.tally == r.tally and str(back.summary()) == str(r.summary())
    c = cuttle.compare(["classic", "quick"], 5000, seed=2, progress=False)
    cb = pickle.loads(pickle.dumps(c))
    assert cb.difference("win_rate_A", 1) == c.difference("win_rate_A", 1)


def test_compare_pairs_without_rows():
    lean = cuttle.compare(["classic", "quick", cuttle.Rules(four="random")], 3000, seed=5,
                          progress=False)
    kept = cuttle.compare(["classic", "quick", cuttle.Rules(four="random")], 3000, seed=5,
                          progress=False, keep_games=True, chunk_size=1000)
    for metric in lean.metrics:
        for i in (1, 2):
            for base in (0, 1, 2):
                assert lean.difference(metric, i, base) == kept.difference(metric, i, base)
    with pytest.raises(GamesNotKept):
        lean[1].moves
    # the difference of moves is the mean of the per-deal differences
    d = kept[2].moves.astype(np.int64) - kept[1].moves
    assert lean.difference("mean_moves", 2, 1).value == pytest.approx(d.mean())
    # a rule set against itself: no difference
    assert lean.difference("draw_rate", 1, 1).value == 0
    # comparisons of disjoint ranges merge into the comparison of both
    from cuttle.simulation.players import resolve_players
    from cuttle.simulation.runner import Plan, play_chunk
    plan = Plan(lean.rules, resolve_players(("random", "greedy")), 5, True, 10000, None, 1,
                False, labels=lean.labels)
    halves = [play_chunk(plan, 1700, 1300), play_chunk(plan, 0, 1700)]
    both = sum(halves)
    assert both.pairs == lean.pairs and both.ranges == ((0, 3000),)
    assert [r.tally for r in both.results] == [r.tally for r in lean.results]
    assert str(both).splitlines()[2:] == str(lean).splitlines()[2:]


def test_scores_past_int8():
    big = cuttle.Rules(king_goals=(200, 150, 100, 80, 60))
    r = cuttle.simulate(3000, big, ("greedy", "random"), seed=7, progress=False,
                        keep_games=True)
    assert r.scores.dtype == np.int16 and r.scores.max() > 127       # int8 wrapped
    assert r.tally.moments["score_a"][0] == int(r.scores[:, 0].astype(np.int64).sum())
    p = cuttle.simulate(2, big, (rand, "greedy"), seed=7, progress=False, keep_games=True)
    assert p.scores.dtype == np.int16


def test_games_csv_streams_the_rows(tmp_path):
    path = tmp_path / "g.csv"
    r = cuttle.simulate(3000, seed=9, progress=False, games_csv=str(path), chunk_size=512)
    assert not r.keeps_games
    kept = cuttle.simulate(3000, seed=9, progress=False, keep_games=True)
    buf = io.StringIO()
    kept.to_csv(buf)
    assert path.read_text() == buf.getvalue()
    # a comparison's file: each game's rule sets in turn, the same whatever the chunks
    # and threads (the rows came chunk by chunk, rule set by rule set)
    texts = set()
    for chunk_size, threads, match in [(None, None, None), (1, 1, None), (7, 2, None),
                                       (13, 1, None), (None, None, "best_of_3"),
                                       (2, 1, "best_of_3"), (5, 2, "best_of_3")]:
        c = tmp_path / f"c{chunk_size}{threads}{match}.csv"
        cuttle.compare(["classic", "quick", cuttle.Rules(four="random")], 40, seed=9,
                       progress=False, chunk_size=chunk_size, threads=threads,
                       match=match, games_csv=str(c))
        texts.add((match, c.read_text()))
    assert len(texts) == 2
    for match, text in texts:
        lines = text.splitlines()
        keys = [(int(line.split(",")[1]), int(line.split(",")[0])) for line in lines[1:]]
        assert keys == sorted(keys) and len(set(keys)) == len(keys)
        assert {k[1] for k in keys} == {1, 2, 3}
    m = tmp_path / "m.csv"
    cuttle.simulate(20, seed=9, progress=False, match="best_of_3", games_csv=str(m))
    lines = m.read_text().splitlines()
    assert lines[0].startswith("game,match,winner") and len(lines) > 20


def test_ctrl_c_while_a_chunks_rows_are_written_keeps_file_and_counts_alike(tmp_path,
                                                                          monkeypatch):
    # A real SIGINT in the middle of a compare chunk's rows, after half of them (chunk
    # 3's 100th row of 200): the file used to keep those rows, and the result did not
    # count the chunk.
    import os
    import signal

    from cuttle.files import CsvFile

    rows = CsvFile.rows
    calls = []

    def rows_then_ctrl_c(self, batch):
        calls.append(1)

        def pressed_midway():
            for k, row in enumerate(batch):
                if len(calls) == 3 and k == 100:
                    os.kill(os.getpid(), signal.SIGINT)     # while the rows go out
                yield row
        rows(self, pressed_midway())

    monkeypatch.setattr(CsvFile, "rows", rows_then_ctrl_c)
    path = tmp_path / "g.csv"
    with pytest.raises(Interrupted) as info:
        cuttle.compare(["classic", "quick"], 10**6, seed=3, progress=False, chunk_size=100,
                       threads=1, games_csv=str(path))
    counted = info.value.result.n_games
    sets = [line.split(",")[0] for line in path.read_text().splitlines()[1:]]
    assert counted == 300 and sets.count("1") == sets.count("2") == counted


def test_a_billion_games_reserve_nothing_up_front():
    def stop(done, total):
        raise KeyboardInterrupt

    tracemalloc.start()
    try:
        with pytest.raises(Interrupted) as info:
            cuttle.simulate(10**9, seed=1, progress=stop, threads=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4_000_000
    res = info.value.result
    assert res.n_games == 64 and res.ranges == ((0, 64),)
    assert info.value.total == 10**9 and "interrupted after 64 of 1,000,000,000 games" \
        in str(info.value)


def test_compare_interrupted_keeps_the_finished_chunks():
    calls = []

    def stop(done, total):
        calls.append(done)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as info:
        cuttle.compare(["classic", "quick"], 10**6, seed=3, progress=stop, chunk_size=100)
    part = info.value.result
    assert isinstance(part, cuttle.simulation.ComparisonResult)
    assert part.n_games == 300 == info.value.done and part.ranges == ((0, 300),)
    full = cuttle.compare(["classic", "quick"], 300, seed=3, progress=False)
    assert part.pairs == full.pairs
    assert isinstance(info.value, KeyboardInterrupt)


def test_python_players_interrupted():
    def slow_stop(game):
        raise KeyboardInterrupt

    with pytest.raises(Interrupted) as info:
        cuttle.simulate(10, players=(slow_stop, "random"), seed=1, progress=False)
    assert info.value.result is None and info.value.done == 0
    assert "interrupted after 0 of 10 games" in str(info.value)


@pytest.mark.parametrize("match", [None, "best_of_3"])
@pytest.mark.parametrize("cut", ["classic", "quick"])
def test_python_players_interrupted_inside_a_chunk_keep_the_finished_units(match, cut):
    # Ctrl-C while the 7th unit of one chunk of 50 plays under the first or the second
    # rule set (a unit plays under every rule set before the next): the first 6 units,
    # under both rule sets, are kept, and are those units exactly.
    calls = {"n": 0, "stop": None}

    def player(game, rng):
        calls["n"] += 1
        if calls["n"] == calls["stop"]:
            raise KeyboardInterrupt
        return rand(game, rng)

    def decisions(rules, n):
        calls["n"] = 0
        cuttle.simulate(n, rules, players=(player, "random"), seed=2, progress=False,
                        match=match)
        return calls["n"]

    six = decisions("classic", 6) + decisions("quick", 6)
    seventh_classic = decisions("classic", 7) - decisions("classic", 6)
    calls["stop"] = six + 1 + (seventh_classic if cut == "quick" else 0)
    calls["n"] = 0
    with pytest.raises(Interrupted) as info:
        cuttle.compare(["classic", "quick"], 50, players=(player, "random"), seed=2,
                       progress=False, chunk_size=10_000, match=match)
    part = info.value.result
    assert info.value.done == 6 and part.ranges == ((0, 6),)
    calls["stop"] = None
    first = cuttle.compare(["classic", "quick"], 6, players=(player, "random"), seed=2,
                           progress=False, match=match)
    assert part.pairs == first.pairs
    assert [r.tally for r in part.results] == [r.tally for r in first.results]


def test_a_search_players_first_chunk_is_small_so_ctrl_c_keeps_its_games():
    # A game of a search takes a tenth of a second or more: the adaptive chunks start at
    # 2 games per thread (not 64, the start for the other policies), so an interrupted
    # run keeps what the first moments played.
    calls = []

    def stop(done, total):
        calls.append(done)
        raise KeyboardInterrupt

    with pytest.raises(Interrupted) as info:
        cuttle.simulate(1000, players=("ismcts:30", "greedy"), seed=3, threads=1,
                        progress=stop)
    assert calls == [2] and info.value.result.n_games == 2
    calls.clear()
    with pytest.raises(Interrupted):
        cuttle.simulate(1000, players=("random", "greedy"), seed=3, threads=1, progress=stop)
    assert calls == [64]
