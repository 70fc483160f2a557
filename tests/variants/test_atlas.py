"""cuttle.atlas: paired games, sequential stopping, the results file and resuming."""

import json

import pytest

import cuttle
from cuttle.variants import AtlasInterrupted, Pairing, ResultsFileError, atlas
from cuttle.variants import chunks as atlas_chunks
from cuttle.render.markdown import table_markdown
from cuttle.render.tables import ATLAS_COLUMNS, Table, atlas_rows
from cuttle.variants.records import pair_from_json, pair_to_json, record_line, \
    tally_from_json, tally_to_json
from cuttle.variants.store import NothingToReport, Store
from cuttle.simulation import PairTally

# A small atlas: random self-play on classic, chunks of 1,000 games.
SMALL = dict(pairings=[Pairing("random", target=0.012, max_games=4000, chunk_size=1000)],
             bases=["classic"], seed=7)


@pytest.fixture(scope="module")
def small():
    return cuttle.atlas(**SMALL)


def same(a, b):
    da, db = a.as_dict(), b.as_dict()
    for d in (da, db):
        d.pop("elapsed_seconds"), d.pop("played_records"), d.pop("played_games")
    return da == db and a.markdown() == b.markdown()


def test_pairing_is_exact(small):
    g = small.group("classic", "random")
    base = g.base_row
    assert base.n_games == 4000 == max(r.n_games for r in g.variants)
    for label in ("four=draw", "joker=true"):
        row = g.row(label)
        n = row.n_games
        cmp = cuttle.compare([cuttle.Rules(), row.rules], n, ("random", "random"), seed=7,
                             swap_seats=False, progress=False)
        assert row.tally == cmp[1].tally and row.pair == cmp.pairs[(0, 1)]
        assert row.base_tally == cmp[0].tally            # the base on the same games
        assert row.shift("first_mover_win_rate") == cmp.difference("first_mover_win_rate", 1)
        assert row.shift("mean_moves") == cmp.difference("mean_moves", 1)
        # A always moves first: the second mover's shift is B's
        assert row.shift("second_mover_win_rate") == cmp.difference("win_rate_B", 1)
        for m in ("draw_rate", "mean_turns"):
            assert row.estimate(m) == cmp.estimate(m, 1)
            assert row.shift(m) == cmp.difference(m, 1)
        assert row.estimate("end_goal") == cmp[1].summary().end_rate("goal")
    assert base.tally == cuttle.simulate(4000, "classic", "random", seed=7,
                                         swap_seats=False, progress=False).tally


def test_sequential_stopping_stops(small):
    g = small.group("classic", "random")
    statuses = {r.status for r in g.variants}
    assert statuses <= {"converged", "capped"} and "converged" in statuses
    assert len({r.n_games for r in g.variants}) > 1     # variants stop at different times
    for r in g.variants:
        assert r.n_games % 1000 == 0 and 1000 <= r.n_games <= 4000
        if r.status == "converged":
            assert r.half_width <= 0.012
            if r.n_games > 1000:     # it had not converged one chunk earlier
                cmp = cuttle.compare([cuttle.Rules(), r.rules], r.n_games - 1000,
                                     ("random", "random"), seed=7, swap_seats=False,
                                     progress=False)
                e = cmp.difference("first_mover_win_rate", 1)
                assert (e.high - e.low) / 2 > 0.012
        else:
            assert r.n_games == 4000 and r.half_width > 0.012
    # open hands change nothing a random player sees: its games are the base's
    assert g.row("open_hands=true (open)").shift("first_mover_win_rate").value == 0


def test_a_run_stopped_and_resumed_is_one_run(small, tmp_path):
    path = tmp_path / "atlas.jsonl"
    seen = []

    def stop_after_three(info):
        seen.append(info)
        if sum(1 for i in seen if i.get("finished")) == 3:
            raise KeyboardInterrupt

    with pytest.raises(AtlasInterrupted) as e:
        atlas(results=str(path), progress=stop_after_three, **SMALL)
    assert isinstance(e.value, cuttle.Interrupted) and str(path) in str(e.value)
    part = e.value.result
    assert not part.complete and part.played_records == e.value.done > 0
    # (each whole chunk plays its 1,000 games under one rule set; none was cut short)
    assert e.value.games == part.played_games == 1000 * e.value.done
    assert f"after playing {part.played_games:,} games" in str(e.value)
    assert str(e.value).endswith("call atlas() again with the same arguments and results "
                                 "file to continue")
    assert len(path.read_text().splitlines()) == 1 + part.played_records
    resumed = atlas(results=str(path), **SMALL)
    assert same(resumed, small)
    again = atlas(results=str(path), **SMALL)
    assert again.played_records == 0 and same(again, small)
    lines = path.read_text().splitlines()
    keys = [tuple(json.loads(x)[k] for k in ("base", "rules", "chunk")) for x in lines[1:]]
    assert len(keys) == len(set(keys)) == part.played_records + resumed.played_records
    # read only: the same tables, and unfinished rows for a file that lacks chunks
    assert same(atlas(results=str(path), play=False, **SMALL), small)
    head = tmp_path / "head.jsonl"
    head.write_text("\n".join(lines[:20]) + "\n")
    partial = atlas(results=str(head), play=False, **SMALL)
    assert not partial.complete and head.read_text().count("\n") == 20
    # a variant whose later chunk is missing stops there; the others read on
    rows = [json.loads(x) for x in lines[1:]]
    last = max(r["chunk"] for r in rows if r["rules"] != r["base"])
    cut = next(r["rules"] for r in rows if r["chunk"] == last and r["rules"] != r["base"])
    others = {r["rules"] for r in rows if r["chunk"] == last} - {cut}
    gap = tmp_path / "gap.jsonl"
    gap.write_text("\n".join([lines[0]] + [x for x, r in zip(lines[1:], rows)
                                           if (r["rules"], r["chunk"]) != (cut, last)]) + "\n")
    full = small.group("classic", "random")
    read = atlas(results=str(gap), play=False, **SMALL).group("classic", "random")
    for a, b in zip(read.variants, full.variants):
        if str(a.rules) == cut:
            assert a.status == "unfinished" and a.n_games == b.n_games - 1000
        elif str(a.rules) in others:
            assert (a.status, a.n_games) == (b.status, b.n_games)
    group = partial.group("classic", "random")
    empty = [r for r in group.variants if not r.n_games]
    assert empty and {r.status for r in empty} == {"unfinished"}
    table = Table([], ATLAS_COLUMNS, atlas_rows(group))
    assert f"| {empty[0].label} | n/a |  | n/a | n/a |" in "\n".join(table_markdown(table))
    # nothing played yet: nothing to read, said (it read as an atlas of 0 games)
    head.write_text(lines[0] + "\n")
    with pytest.raises(NothingToReport, match="it holds no games at all"):
        atlas(results=str(head), play=False, **SMALL)


def line(rec):
    """The line of a record edited (its check written again: what is tested is what the
    file's other checks make of it)."""
    return record_line({k: v for k, v in rec.items() if k != "check"}).decode()


def test_ctrl_c_inside_a_chunk_keeps_its_finished_games(small, tmp_path):
    # Chunks of 1,000 games played 64 or more at a time: Ctrl-C inside chunk 1 leaves
    # its finished games in the file as parts, and the next run plays only the rest.
    path = tmp_path / "atlas.jsonl"
    seen = []

    def stop_inside_chunk_1(info):
        seen.append(info)
        if info.get("chunk") == 1 and info.get("done"):
            raise KeyboardInterrupt

    with pytest.raises(AtlasInterrupted) as e:
        atlas(results=str(path), progress=stop_inside_chunk_1, **SMALL)
    rows = [json.loads(x) for x in path.read_text().splitlines()[1:]]
    parts = [r for r in rows if r["games"][1] - r["games"][0] < r["chunk_size"]]
    done = seen[-1]["done"]
    assert e.value.cut == done
    # the games: the whole chunks' and those of the chunk cut short, under each rule set
    games = 1000 * e.value.done + done * (1 + seen[-1]["playing"])
    assert e.value.games == e.value.result.played_games == games
    assert (f"after playing {games:,} games ({e.value.done} whole chunks of games, and the "
            f"first {done} games of each chunk it cut short)") in str(e.value)
    assert parts and {(r["chunk"], r["games"][1] - r["games"][0]) for r in parts} == {(1, done)}
    assert len(parts) == 1 + seen[-1]["playing"]        # the base and each variant playing
    played = []
    resumed = atlas(results=str(path), progress=played.append, **SMALL)
    assert same(resumed, small)
    first = next(i for i in played if i.get("chunk") == 1 and "count" in i)
    assert first["count"] == 1000 - done                # only the rest of chunk 1
    # A longer part of a chunk replaces a shorter one; a shorter or equal one is
    # skipped; the same games with other results are refused.
    store = Store(str(path), write=False)
    key = next(k for k in store.index if k[-1] == 1)
    assert store.get_part(key) is None                  # the whole chunk is there now
    store.close()
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    part_line = next(x for x in lines[1:] if json.loads(x)["games"][1] % 1000)
    rec = json.loads(part_line)
    m = rec["tally"]["moments"]
    m["score_a"], m["score_b"] = m["score_b"], m["score_a"]
    path.write_text(text + line(rec))
    with pytest.raises(ResultsFileError, match="same chunk .its first"):
        atlas(results=str(path), **SMALL)
    for games in ([1000, 1000], [999, 1500], [1000, 2001], [1000, "7"], [1000.0, 1064],
                  [1000, True]):
        path.write_text(text + line({**json.loads(part_line), "games": games}))
        with pytest.raises(ResultsFileError, match="games must be"):
            atlas(results=str(path), **SMALL)
    variant_part = next(json.loads(x) for x in lines[1:] if json.loads(x)["games"][1] % 1000
                        and json.loads(x)["pair"] is not None)
    path.write_text(text + line({**variant_part, "pair": None}))
    with pytest.raises(ResultsFileError, match="line .*holds their pair"):
        atlas(results=str(path), **SMALL)


def test_only_the_games_from_a_chunks_start_make_a_part(tmp_path, monkeypatch):
    # On a cluster a chunk's pieces finish in any order: an interrupted run whose
    # finished games have a gap (games 0-63 and 128-191) writes no part, since the next
    # run would play the rest from game 128 and count games 64-127 as played.
    rules = cuttle.Rules()
    gap = (cuttle.simulate(64, rules, ("random", "random"), seed=7, swap_seats=False,
                           progress=False) +
           cuttle.simulate(64, rules, ("random", "random"), seed=7, swap_seats=False,
                           progress=False, start=128))
    assert gap.ranges == ((0, 64), (128, 192))

    def interrupted(*args, **kw):
        raise cuttle.Interrupted(gap, 128, 1000)

    monkeypatch.setattr(atlas_chunks, "simulate", interrupted)
    with Store(str(tmp_path / "r.jsonl")) as store:
        player = atlas_chunks.ChunkPlayer(store, ("random", "random"), 7, 10_000, 1000)
        with pytest.raises(cuttle.Interrupted):
            player.records(0, [(rules, rules)])
        assert not store.parts and not store.index


def test_a_failed_cluster_keeps_the_finished_games_of_a_chunk(tmp_path, monkeypatch):
    # A ClusterError carries the finished games (the first of the chunk, the cluster
    # merging in index order): they are written as a part, as at Ctrl-C, and the
    # error goes on.  They were lost.
    rules = cuttle.Rules()
    first = cuttle.simulate(192, rules, ("random", "random"), seed=7, swap_seats=False,
                            progress=False)

    def failed(*args, **kw):
        e = cuttle.ClusterError("the dask workers kept dying on the run")
        e.result, e.done, e.total = first, 192, 1000
        raise e

    monkeypatch.setattr(atlas_chunks, "simulate", failed)
    with Store(str(tmp_path / "r.jsonl")) as store:
        player = atlas_chunks.ChunkPlayer(store, ("random", "random"), 7, 10_000, 1000)
        with pytest.raises(cuttle.ClusterError, match="kept dying"):
            player.records(0, [(rules, rules)])
        assert player.cut == 192 and not store.index
        (key,) = store.parts
        games, tally, pair = store.get_part(key)
    assert games == 192 and tally == first.tally and pair is None


def test_damaged_and_foreign_files(small, tmp_path, monkeypatch):
    path = tmp_path / "a.jsonl"
    atlas(results=str(path), **SMALL)
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    # killed while writing: a half-written last line is dropped and played again
    path.write_text(text + lines[5][:40])
    read = atlas(results=str(path), play=False, **SMALL)     # (its notes were dropped)
    assert same(read, small) and "is incomplete (cut off by an interrupted write?) and is " \
        "ignored; a run that plays (not play=False) drops it" in read.notes[0]
    assert "--report-only" not in read.notes[0]     # (the command's option, the command's)
    res = atlas(results=str(path), **SMALL)
    assert same(res, small) and res.played_records == 0 and "incomplete" in res.notes[0]
    assert path.read_text() == text
    path.write_text("".join(lines[:-1]) + lines[-1][:-30])
    res = atlas(results=str(path), **SMALL)
    assert same(res, small) and res.played_records == 1 and path.read_text() == text
    # a complete last line without its newline is kept
    path.write_text(text[:-1])
    assert atlas(results=str(path), **SMALL).played_records == 0
    assert path.read_text() == text
    # a line of the same chunk twice: fine if equal, refused if not
    path.write_text(text + lines[3])
    assert same(atlas(results=str(path), **SMALL), small)
    rec = json.loads(lines[3])
    m = rec["tally"]["moments"]     # (a consistent record, only not the same)
    assert m["score_a"] != m["score_b"]
    m["score_a"], m["score_b"] = m["score_b"], m["score_a"]
    path.write_text(text + line(rec))
    with pytest.raises(ResultsFileError, match="different results for the same chunk"):
        atlas(results=str(path), **SMALL)
    # damage in the middle: refused, naming the line
    path.write_text("".join(lines[:4]) + "{oops\n" + "".join(lines[4:]))
    with pytest.raises(ResultsFileError, match="line 5"):
        atlas(results=str(path), **SMALL)
    assert path.read_text().count("{oops") == 1         # never rewritten
    # somebody else's file
    foreign = tmp_path / "notes.txt"
    for content in ("dear diary\n", "x", '{"format": "other"}\n'):
        foreign.write_text(content)
        with pytest.raises(ResultsFileError, match="not a balance/atlas results file"):
            atlas(results=str(foreign), **SMALL)
        assert foreign.read_text() == content
    # another configuration's lines are ignored (one file holds several runs)
    path.write_text(text)
    other = dict(SMALL, seed=8)
    a8 = atlas(results=str(path), **other)
    assert a8.played_records > 0 and not same(a8, small)
    assert atlas(results=str(path), **SMALL).played_records == 0
    # chunks another engine or policy version played are never mixed in
    path.write_text(lines[0] + "".join(line({**json.loads(x), "engine": "0" * 16})
                                       for x in lines[1:]))
    with pytest.raises(ResultsFileError, match="another version"):
        atlas(results=str(path), **SMALL)
    assert same(atlas(results=str(path), play=False, **SMALL), small)
    # the same games under another revision of the library's games
    path.write_text(text)
    monkeypatch.setattr(atlas_chunks, "GAME_REVISION", atlas_chunks.GAME_REVISION + 1)
    with pytest.raises(ResultsFileError, match="another version"):
        atlas(results=str(path), **SMALL)
    monkeypatch.undo()
    path.write_text(text)
    # one writer at a time
    with Store(str(path)):
        with pytest.raises(ResultsFileError, match="another cuttle atlas run;"):
            atlas(results=str(path), **SMALL)


def test_tallies_round_trip_exactly(small):
    row = small.group("classic", "random").row("four=draw")
    d = json.loads(json.dumps(tally_to_json(row.tally)))
    assert tally_from_json(d, row.n_games) == row.tally
    p = json.loads(json.dumps(pair_to_json(row.pair)))
    assert pair_from_json(p, row.n_games) == row.pair
    with pytest.raises(ValueError):
        tally_from_json(d, row.n_games + 1)
    d["lengths"][0][3] += 1
    with pytest.raises(ValueError):
        tally_from_json(d)
    assert isinstance(pair_from_json(p), PairTally)


def test_outputs(small, tmp_path):
    g = small.group("classic", "random")
    text = small.markdown(command="cuttle atlas ...")
    assert text.startswith("Command: `cuttle atlas ...`")
    assert "### classic, random self-play" in text and "| **classic (base)** |" in text
    inter = len(g.interactions)
    assert inter                                      # its interactions' table, too
    # header, separator, rows; the same for the interactions
    assert text.count("\n|") == 2 + len(g.rows) + 2 + inter
    html = small._repr_html_()
    assert html.count("<tr") == 1 + len(g.rows) + 1 + inter
    assert "classic, random self-play" in html
    assert 'class="pos"' in html and 'class="neg"' in html   # clear shifts stand out
    d = small.as_dict()
    rows = d["groups"][0]["rows"]
    assert rows[0]["base"] and rows[0]["shifts"] is None and len(rows) == len(g.rows)
    r = next(x for x in rows if x["label"] == "four=draw")
    assert r["changes"] == {"four": "draw"} and r["games"] == g.row("four=draw").n_games
    shift = g.row("four=draw").shift("first_mover_win_rate")
    assert r["shifts"]["first_mover_win_rate"]["value"] == shift.value
    assert d["schema_version"] == 2
    with pytest.warns(DeprecationWarning, match="now called 'first_mover_win_rate'"):
        assert r["shifts"]["first"] == r["shifts"]["first_mover_win_rate"]
    with pytest.warns(DeprecationWarning):
        assert g.row("four=draw").shift("first") == shift
    small.to_csv(str(tmp_path / "a.csv"))
    lines = (tmp_path / "a.csv").read_text().splitlines()
    assert lines[0] == ("base,policy,variant,rules,status,games,metric,value,low,high,shift,"
                        "shift_low,shift_high,statistic")
    assert lines[1].split(",")[6] == "first" and lines[1].endswith(",first_mover_win_rate")
    assert len(lines) == 1 + len(g.rows) * 9 + len(g.interactions) * 5
    assert lines[-1].endswith(",interaction") and "+" in lines[-1]
    pytest.importorskip("matplotlib")
    paths = small.plot(str(tmp_path))
    assert [p.rsplit("/", 1)[-1] for p in paths] == ["classic-random.png"]
    assert (tmp_path / "classic-random.png").stat().st_size > 10_000


def test_quick_atlas_runs_small():
    res = atlas(quick=True, max_games=10_000, chunk_size=5_000)
    assert [(g.policy, g.base) for g in res.groups] == [
        ("random", "classic"), ("random", "cuttle.cards"),
        ("greedy", "classic"), ("greedy", "cuttle.cards")]
    assert all(g.pairing.target == 0.005 for g in res.groups)
    assert max(r.n_games for g in res.groups for r in g.rows) == 10_000


def test_bad_arguments(tmp_path):
    for kw, message in (({"pairings": ["chess"]}, "unknown policy"),
                        ({"pairings": ["random,greedy"]}, "self-play"),
                        ({"pairings": ["random", "random"]}, "twice"),
                        ({"pairings": []}, "at least one pairing"),
                        ({"bases": ["poker"]}, "preset"),
                        ({"target": 0}, "target"),
                        ({"target": {"greedy": 0.01}, "pairings": ["random"]}, "greedy"),
                        ({"max_games": 0}, "max_games"),
                        ({"chunk_size": 1.5}, "chunk_size"),
                        ({"seed": None}, "seed"),
                        ({"confidence": 2}, "confidence"),
                        ({"play": False}, "results"),
                        # (any object was read for its truth: play="no" played)
                        ({"play": "no"}, "play"),
                        ({"quick": "yes"}, "quick"),
                        ({"client": object()}, "client")):
        with pytest.raises(ValueError, match=message):
            atlas(**kw)
    with pytest.raises(ResultsFileError, match="no results file"):
        atlas(results=str(tmp_path / "none.jsonl"), play=False)
    assert not (tmp_path / "none.jsonl").exists()
    p = Pairing("ismcts:50")
    assert (p.target, p.max_games, p.chunk_size) == (0.015, 20_000, 200)
    # games are played in whole chunks: a chunk larger than the cap would pass it
    with pytest.raises(ValueError, match="chunk_size 5,000 is larger than max_games 1,000"):
        Pairing("greedy", max_games=1000, chunk_size=5000)
    with pytest.raises(ValueError, match="chunk_size 300,000 is larger than max_games"):
        atlas(quick=True, chunk_size=300_000)
    assert Pairing("greedy", max_games=1000).chunk_size == 1000
    assert Pairing("greedy").target == 0.0025
