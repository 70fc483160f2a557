"""`cuttle.balance`: the search finds planted fair rule sets, resumes from its results
file to the same answer, keeps finished work on Ctrl-C, reads a file without playing,
refuses chunks another engine played, and checks its arguments."""

import csv
import io
import json
import os

import pytest

import cuttle
from cuttle import Rules
from cuttle.balancing import BalanceInterrupted, OtherSearchError
from cuttle.variants.records import record_line
from cuttle.variants.store import NothingToReport, ResultsFileError
from cuttle.variants import chunks

# Small budgets: chunks of 1,000 random self-play games.
SMALL = dict(chunk_size=1000, screen_games=4000, screen_target=0.01, pairs=3,
             interaction_games=4000, interaction_target=0.02, per_size=3,
             race_games=8000, race_target=0.015, confirm_games=8000, confirm_target=0.01)
DEALS = [(6, 6), (4, 6), (5, 7), (6, 5)]


def score(tally):
    return (int(tally.counts[1].sum()) + int(tally.counts[0].sum()) / 2) / tally.n_games


def stable(d):
    """The JSON form without what depends on the run (time, records and games played)."""
    return {k: v for k, v in d.items()
            if k not in ("elapsed_seconds", "played_records", "played_games")}


def test_a_planted_fair_deal_is_found():
    """Under random self-play the deal (6, 6) is nearer 50% than the other deals by
    about 3 points, measured directly; the search on those deals finds it, and its
    confirmed score agrees with an independent run on another seed."""
    sets = ["classic"] + [f"classic: deal={a},{b}" for a, b in DEALS]
    direct = cuttle.compare(sets, 40_000, ("random", "random"), seed=99, swap_seats=False,
                            progress=False)
    dist = {d: abs(score(r.tally) - 0.5) for d, r in zip(DEALS, direct.results[1:])}
    best = min(dist, key=dist.get)
    assert best == (6, 6) and sorted(dist.values())[1] - dist[best] > 0.02
    res = cuttle.balance("classic", "random", k=1, flags="deal", deals=DEALS, budget=SMALL,
                         progress=False)
    winner = res.best(1)
    assert winner.rules == Rules(deal=(6, 6)) and winner.stage == "confirmed"
    e = winner.estimate("first_score")
    again = cuttle.simulate(40_000, winner.rules, ("random", "random"), seed=7,
                            swap_seats=False, progress=False)
    half = (e.high - e.low) / 2 + 1.96 * 0.5 / 200
    assert abs(score(again.tally) - e.value) <= half
    assert res.generation[1]["space"] == len(DEALS)


def test_a_planted_fair_pair_is_found():
    """Two changes: every rule set of the small space measured directly; the search's
    fairest pair is as near 50% as the best of them, within the race's resolution."""
    base = Rules()
    kw = dict(flags=["deal", "joker", "king_goals"], deals=[(6, 7), (4, 5), (6, 6)])
    res = cuttle.balance(base, "random", k=2, budget=SMALL, progress=False, **kw)
    from cuttle.balancing.space import combinations_of, single_changes
    parts = single_changes(base, kw["flags"], kw["deals"])
    pairs = [c.rules for c in combinations_of(parts, base, 2)]
    direct = cuttle.compare(pairs, 40_000, ("random", "random"), seed=98, swap_seats=False,
                            progress=False)
    dist = {r: abs(score(x.tally) - 0.5) for r, x in zip(pairs, direct.results)}
    winner = res.best(2)
    assert winner is not None and winner.rules in dist
    assert dist[winner.rules] <= min(dist.values()) + 0.01


def run_to_dict(path, **kw):
    res = cuttle.balance("classic", "random", k=2, flags=["deal", "joker", "four"],
                         deals=[(6, 7), (6, 6)], budget=SMALL, results=path, **kw)
    return res


def test_resuming_gives_the_same_answer_and_ctrl_c_keeps_finished_chunks(tmp_path):
    whole = run_to_dict(str(tmp_path / "whole.jsonl"), progress=False)
    path = str(tmp_path / "cut.jsonl")
    calls = []

    def stop(info):
        calls.append(info)
        if info.get("stage") == "race" and info.get("done") is not None:
            raise KeyboardInterrupt
    with pytest.raises(BalanceInterrupted) as ex:
        run_to_dict(path, progress=stop)
    part = ex.value.result
    assert not part.complete and ex.value.done > 0 and ex.value.path == path
    assert all(s.measure.n for s in part.singles)           # the screening finished
    records = [json.loads(x) for x in open(path).read().splitlines()[1:]]
    full = [r["games"][1] - r["games"][0] == r["chunk_size"] for r in records]
    assert sum(full) == ex.value.done          # each record; the rest, parts of a chunk
    assert ex.value.games == part.played_games > 0
    assert f"after playing {part.played_games:,} games" in str(ex.value)
    # raised in Python, it says how Python continues (it said to run a command again)
    assert str(ex.value).endswith(f"every finished game is in {path}: call balance() again "
                                  f"with the same arguments and results file to continue")
    again = run_to_dict(path, progress=False)
    assert again.played_records < whole.played_records      # the finished part was read
    assert stable(again.as_dict()) == stable(whole.as_dict())
    # Reading the file only gives it again and plays nothing.
    read = run_to_dict(path, progress=False, play=False)
    assert read.played_records == 0 and stable(read.as_dict()) == stable(whole.as_dict())


def test_records_of_another_engine_are_refused(tmp_path):
    path = tmp_path / "r.jsonl"
    run_to_dict(str(path), progress=False)
    lines = path.read_text().splitlines()
    rec = json.loads(lines[1])
    rec["engine"] = "0" * 16
    del rec["check"]                # (written again for the edited record)
    path.write_text("\n".join([lines[0], record_line(rec).decode().strip()] + lines[2:])
                    + "\n")
    with pytest.raises(ResultsFileError, match="another version"):
        run_to_dict(str(path), progress=False)
    # ... but reading it without playing works.
    assert run_to_dict(str(path), progress=False, play=False).complete


def test_records_of_another_revision_of_the_games_are_refused(tmp_path, monkeypatch):
    # the same games, stamped under another GAME_REVISION (a rule or policy changed)
    path = str(tmp_path / "r.jsonl")
    run_to_dict(path, progress=False)
    monkeypatch.setattr(chunks, "GAME_REVISION", chunks.GAME_REVISION + 1)
    with pytest.raises(ResultsFileError, match="another version"):
        run_to_dict(path, progress=False)


def test_the_json_schema():
    res = cuttle.balance("classic", "random", k=2, flags=["deal", "joker"],
                         deals=[(6, 7), (6, 6)], budget=SMALL, progress=False)
    d = json.loads(json.dumps(res.as_dict()))
    assert (d["base"], d["policy"]) == ("classic", "random")
    assert d["candidates"]
    for c in d["candidates"]:
        assert Rules.parse(c["rules"]).changed() == {
            k: tuple(v) if isinstance(v, list) else v for k, v in c["changes"].items()}
        for key in ("first_score", "first_mover_win_rate", "draw_rate", "mean_moves"):
            assert set(c[key]) >= {"value", "low", "high"}
            assert c[key]["low"] <= c[key]["value"] <= c[key]["high"]
        assert isinstance(c["games"], int) and c["games"] > 0
    standing = [c for c in d["candidates"] if c["status"] not in ("eliminated",
                                                                  "infeasible")]
    winners = [c for c in d["candidates"] if c["winner"]]
    assert d["candidates"][:len(winners)] == winners          # best first
    dists = [abs(c["first_score"]["value"] - 0.5) for c in winners]
    assert dists == sorted(dists)
    assert d["candidates"][-1] in standing or d["candidates"][-1]["status"] in (
        "eliminated", "infeasible")
    assert set(d["winners"]) == {str(c["size"]) for c in winners}


# A search's results file and its --json, written before the JSON named the first
# player's wins and the draws `first_mover_win_rate` and `draw_rate` (as the CSV, and
# every other result, always did) rather than `first_wins` and `draws`: by
#   cuttle balance --policy random -k 1 --flags joker --chunk-size 1000 --screen-games 1000
#                  --candidates 1 --max-games 1000 --confirm-games 1000 --check greedy
#                  --check-games 1000 --results first_wins_keys.jsonl
#                  --json first_wins_keys.json
# (its first scores' intervals and the predictions read from them since rewritten to the
# score interval with a pseudo-game of 0 and one of 1, cuttle.stats.score_interval: no
# other number changed)
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
OLD_KEYS = dict(k=1, flags="joker", check="greedy", check_games=1000,
                budget=dict(chunk_size=1000, screen_games=1000, per_size=1, race_games=1000,
                            confirm_games=1000))
RENAMED = {"first_wins": "first_mover_win_rate", "draws": "draw_rate"}


def renamed(x):
    """The JSON form `x` with the old keys of figures under their names."""
    if isinstance(x, dict):
        return {RENAMED.get(k, k): renamed(v) for k, v in x.items()}
    if isinstance(x, list):
        return [renamed(v) for v in x]
    return x


ADDED = {"draws_caveat": None, "all_draws": 0}      # keys added since, and their values here
ADDED_FIGURES = {"base_plus_shift"}                 # ... and those of a figure


def without_added(x):
    """The JSON form `x` without the keys added since (each with its value here)."""
    if isinstance(x, dict):
        for k, v in ADDED.items():
            assert x.get(k, v) == v, (k, x)
        return {k: without_added(v) for k, v in x.items()
                if k not in ADDED and k not in ADDED_FIGURES}
    if isinstance(x, list):
        return [without_added(v) for v in x]
    return x


def test_a_results_file_written_with_the_old_keys_reads_back():
    """The results file holds the games, not the figures: a search's file written
    before the rename reads back to the same search, whose JSON is the one written then
    with only the two keys renamed, and the same names as its CSV's statistics."""
    old = json.load(open(os.path.join(DATA, "first_wins_keys.json"), encoding="utf-8"))
    assert "first_wins" in old["candidates"][0]          # (the fixture is of the old form)
    res = cuttle.balance("classic", "random", results=os.path.join(DATA,
                                                                  "first_wins_keys.jsonl"),
                         play=False, progress=False, **OLD_KEYS)
    new = json.loads(json.dumps(res.as_dict()))
    expected = renamed(old)
    expected["caveat"], expected["settings"]["quick"] = None, False     # (added since)
    assert stable(without_added(new)) == stable(expected)
    for part in (new["candidates"][0], new["candidates"][0]["race"],
                 new["base_games"]["screen"], new["singles"][0]):
        assert {"first_mover_win_rate", "draw_rate"} <= set(part)
        assert not {"first_wins", "draws"} & set(part)
    out = io.StringIO()
    res.to_csv(out)
    statistics = {row["statistic"] for row in csv.DictReader(io.StringIO(out.getvalue()))}
    figures = {k for k, v in new["candidates"][0].items()
               if isinstance(v, dict) and "value" in v and k != "predicted"}
    assert statistics == figures


def test_the_json_form_answers_to_the_old_keys_for_a_release():
    """`as_dict()` (not the files written: they hold the new keys) still answers to
    `first_wins` and `draws`, with a DeprecationWarning."""
    res = cuttle.balance("classic", "random", results=os.path.join(DATA,
                                                                  "first_wins_keys.jsonl"),
                         play=False, progress=False, **OLD_KEYS)
    d = res.as_dict()
    for part in (d["candidates"][0], d["candidates"][0]["race"],
                 d["candidates"][0]["confirm"], d["candidates"][0]["check"],
                 d["base_games"]["screen"], d["singles"][0]):
        with pytest.warns(DeprecationWarning, match="'first_wins' is now called "
                                                    "'first_mover_win_rate'"):
            assert part["first_wins"] == part["first_mover_win_rate"]
        with pytest.warns(DeprecationWarning, match="'draws' is now called 'draw_rate'"):
            assert part["draws"] == part["draw_rate"]
        assert "first_wins" not in json.loads(json.dumps(part))


def test_constraints_remove_what_breaks_them():
    res = cuttle.balance("classic", "random", k=1, flags=["deal", "king_goals"],
                         deals=[(6, 6), (6, 7)], moves=(30, 60), budget=SMALL,
                         progress=False)
    # quick's goal of 15 makes random games far shorter than 30 moves (25)
    quick = (15, 14, 10, 7, 5)
    assert all(c.candidate.changes.get("king_goals") != quick or c.status == "infeasible"
               for c in res.candidates)
    assert res.generation[1]["infeasible"] + sum(
        c.status == "infeasible" for c in res.candidates) == 1
    assert all(c.estimate("mean_moves").value > 30 for c in res.winners.values())


EXPERT = dict(chunk_size=1000, screen_games=2000, screen_target=0.01, pairs=1,
              interaction_games=2000, interaction_target=0.02, per_size=3,
              race_games=2000, race_target=0.015, confirm_games=8000,
              confirm_target=0.001)


def expert_search(**kw):
    return cuttle.balance("classic", "expert", k=1, flags="king_goals,joker,four,deal",
                          deals=[(6, 7), (4, 5)], budget=EXPERT, progress=False, **kw)


def test_a_winner_whose_confirmation_breaks_a_constraint_is_replaced():
    """The winner was the race's leader whatever its confirmation said: quick's goal
    won with games of 17.9 moves [17.6, 18.3] under --moves 18.3-60 (its race interval,
    1,000 games, had straddled 18.3)."""
    res = expert_search(moves=(18.3, 60))
    goal = next(c for c in res.candidates if "king_goals" in c.candidate.changes
                and c.candidate.changes["king_goals"][0] == 15)
    assert goal.confirm.n and goal.confirm.estimate("mean_moves").high < 18.3
    assert not goal.winner and goal.constraints == "broken: length" and not goal.pareto
    winner = res.best(1)
    assert winner.label == "four=draw" and winner.stage == "confirmed"
    assert winner.constraints == "met" and winner.estimate("mean_moves").low >= 18.3
    assert res.base["confirm"].n == max(c.confirm.n for c in res.candidates if c.confirm)
    assert all(not c.constraints.startswith("broken") for c in res.pareto)
    text = str(res)
    assert "constraints broken: length (in its confirmation)" in text
    assert "a winner whose confirmation lies outside one is no winner" in text
    assert res.as_dict()["candidates"][0]["constraints"] == "met"


def test_a_winner_that_drew_is_none_under_no_draws():
    """--max-draws 0: quick's goal drew no race game and won; its confirmation drew one
    game of 8,000, and it was still shown as the winner and on the Pareto front."""
    res = cuttle.balance("classic", "expert", k=1, flags="king_goals", max_draws=0,
                         budget=EXPERT, progress=False)
    (goal,) = res.candidates
    assert goal.race.draws == 0 and goal.confirm.draws > 0
    assert res.best(1) is None and not res.winners and not res.pareto
    assert goal.constraints == "broken: draws"
    assert "every raced candidate broke them (in the race or in its confirmation)" in \
        str(res)


def test_undecided_constraints_are_marked_on_the_winners_and_the_pareto_front():
    """Under --moves 18.2-60 quick's goal's confirmation, 17.9 moves [17.6, 18.3],
    straddles the limit: it wins, marked undecided in the winners' and the Pareto
    tables (the Pareto rows were unmarked)."""
    res = expert_search(moves=(18.2, 60))
    winner = res.best(1)
    assert winner.candidate.changes["king_goals"][0] == 15
    assert winner.constraints == "undecided: length" and winner.pareto
    md = res.markdown()
    pareto = md.split("#### The Pareto front")[1].split("####")[0]
    assert "| constraints |" in pareto and "| confirmed | undecided: length |" in pareto
    winners = md.split("#### The fairest")[1].split("####")[0]
    assert "| undecided: length |" in winners


def test_constraints_no_rule_set_meets_are_said():
    """The report's tables were empty, without a word of why, and the race's note gave
    a Bonferroni level over candidates that never raced."""
    res = cuttle.balance("classic", "random", k=1, flags=["deal"], deals=[(6, 6)],
                         moves=(500, 600), budget=SMALL, progress=False)
    assert not res.candidates and not res.winners
    for text in (str(res), res.markdown()):
        assert ("no rule set with changes meets the constraints (mean length 500.0 to "
                "600.0 moves): the model predicted none to meet them") in text
        assert "Bonferroni" not in text and "race: no candidate was raced" in text


@pytest.mark.parametrize("kw,message", [
    (dict(k=0), "k must be at least 1"),
    (dict(flags="jokers"), "unknown rule flag 'jokers'"),
    # (its ends said as taken: "between 0 and 1 (0 included)" was read as excluding 1)
    (dict(max_draws=2), "max_draws must be a number at least 0 \\(0: no draws\\) and less "
                        "than 1 \\(0.02 = 2% of the games\\), not 2"),
    (dict(max_draws=-0.01), "max_draws must be a number at least 0"),
    (dict(budget={"race_target": 0}), "race_target must be a number more than 0 and at "
     "most 0.1 \\(a fraction: 0.005 is 0.5 percentage points\\), not 0$"),
    (dict(moves=(40, 20)), "moves must be \\(low, high\\)"),
    # (one is a setting, not "settings")
    (dict(budget={"chunk": 5}), "unknown budget setting chunk; valid: chunk_size"),
    (dict(budget={"max_games": 100}), "^unknown budget setting max_games \\(max_games is "
     "the command line's --max-games; in Python: race_games\\); valid: "),
    # the command line's names, told their Python keys (not taken silently)
    (dict(budget={"target": 0.006, "max_games": 60000}),
     "unknown budget settings max_games, target \\(max_games is the command line's "
     "--max-games; in Python: race_games; target is the command line's --target; in "
     "Python: race_target\\); valid: "),
    (dict(budget={"candidates": 2}), "candidates is the command line's --candidates; in "
     "Python: per_size"),
    (dict(budget={"per_size": 0}), "per_size must be at least 1"),
    (dict(seed=None), "fixed seed"),
    (dict(check="chess"), "chess"),
    (dict(play=False), "play=False reports what a results file holds"),
    # the search plays whole chunks: a cap that is not one was exceeded
    (dict(quick=True, budget={"chunk_size": 7000}), "screen_games \\(the default\\) is "
     "4,000 games, not a whole number of chunks of 7,000 \\(chunk_size\\)"),
    (dict(quick=True, budget={"confirm_games": 1}), "confirm_games is 1 game, not a whole "
     "number of chunks of 2,000 \\(chunk_size, the default\\).*would play 2,000"),
    (dict(check="random", check_games=1500), "check_games must be a whole number of the "
     "check's chunks of 1,000 games"),
    (dict(check="ismcts:10", check_games=50), "check's chunks of 100 games"),
])
def test_bad_arguments(kw, message):
    with pytest.raises(ValueError, match=message):
        cuttle.balance("classic", "random", progress=False, **kw)


def test_the_check_plays_its_games_exactly_and_more_of_them_reads_the_first(tmp_path):
    """--check-games 15000 played 20,000 games (chunks of 10,000); and the check's chunk
    was its number of games below 10,000, so a run with more check games played them all
    again."""
    path = str(tmp_path / "r.jsonl")
    kw = dict(k=1, flags="deal", deals=[(6, 6), (4, 6)], budget=SMALL, results=path,
              check="random", progress=False)
    first = cuttle.balance("classic", "random", check_games=2000, **kw)
    assert first.base["check"].n == 2000 and first.best(1).check.n == 2000
    more = cuttle.balance("classic", "random", check_games=15000, **kw)
    assert more.base["check"].n == 15000 and more.best(1).check.n == 15000
    # only the check's 13 new chunks, of the base and the winner, were played
    assert more.played_records == 2 * 13


def test_the_check_refuses_a_file_of_another_search(tmp_path):
    """check= plays the winners of the search the arguments make, read back from the
    results file; on a file holding games of other searches only, it started this
    search anew beside them without a word (the command refused it, the library did
    not): refused, naming the runs the file holds, before anything is played."""
    path = tmp_path / "r.jsonl"
    kw = dict(k=1, flags="deal", deals=[(6, 6), (4, 6)], budget=SMALL, results=str(path),
              progress=False)
    cuttle.balance("classic", "random", **kw)
    before = path.read_bytes()
    for other in (dict(seed=9), dict(flags="joker", deals=None)):
        with pytest.raises(OtherSearchError) as ex:
            cuttle.balance("classic", "random", **dict(kw, check="greedy", **other))
        assert isinstance(ex.value, ValueError)
        assert (ex.value.path, ex.value.runs) == (str(path), [("classic", "random", 1, 1000)])
        assert str(ex.value).startswith(f"check: {path} holds no games of this search")
        assert "(it holds games of classic under random self-play, seed 1, chunks of 1,000 " \
            "games)" in str(ex.value)
        assert path.read_bytes() == before               # nothing played, nothing written
    # reading only finds nothing of this search: refused, naming what the file holds
    # (it reported 0 games, "unfinished: run the same command again", which played none)
    with pytest.raises(NothingToReport) as ex:
        cuttle.balance("classic", "random", **dict(kw, seed=9, check="greedy"), play=False)
    assert isinstance(ex.value, ValueError) and ex.value.runs == [("classic", "random", 1, 1000)]
    assert "it holds games of classic under random self-play, seed 1, chunks of 1,000 " \
        "games only" in str(ex.value)
    # without a check, another search beside them is no error
    assert cuttle.balance("classic", "random", **dict(kw, seed=9)).n_games > 0
    # the search of the file is checked, and so is a new file's search
    assert cuttle.balance("classic", "random", check="greedy", **kw).best(1).check.n
    fresh = dict(kw, results=str(tmp_path / "fresh.jsonl"))
    assert cuttle.balance("classic", "random", check="greedy", **fresh).best(1).check.n


def swap_wins(rec):
    """A record with the first player's and the second's wins exchanged, consistently
    within it (its tally, and its pair's tables: the first player always moves first,
    so his wins are the first mover's)."""
    c = rec["tally"]["counts"]
    c[1], c[2] = c[2], c[1]
    if rec["pair"] is not None:
        t = rec["pair"]["table"]
        t[0], t[1] = t[1], t[0]
        t[3] = list(t[0])
    return rec


@pytest.mark.parametrize("which", ["base", "variant"])
def test_records_that_disagree_with_each_other_are_refused(tmp_path, which):
    """A file whose wins were swapped in one record (consistently within it) was read:
    the search reported the swapped figures.  The same games under the same rule set in
    another record (the base's own record, the pair's side of the base in a variant's)
    give it away."""
    path = tmp_path / "r.jsonl"
    run_to_dict(str(path), progress=False)
    original = path.read_text()
    lines = original.splitlines()
    recs = [json.loads(x) for x in lines[1:]]
    i = next(i for i, r in enumerate(recs) if (r["rules"] == r["base"]) == (which == "base")
             and r["chunk"] == 0)
    del recs[i]["check"]            # (written again for the edited record)
    lines[i + 1] = record_line(swap_wins(recs[i])).decode().strip()
    path.write_text("\n".join(lines) + "\n")
    from cuttle.variants.store import Store
    with pytest.raises(ResultsFileError, match=rf"{path}, lines \d+ and \d+: their "
                       r"(tallies|wins, draws or lengths) of the same games \(rule set "):
        Store(str(path), write=False)
    with pytest.raises(ResultsFileError, match="disagree"):
        run_to_dict(str(path), progress=False, play=False)
    path.write_text(original)                   # (the untouched file loads)
    assert run_to_dict(str(path), progress=False, play=False).complete


@pytest.mark.parametrize("kw,message", [
    # deals were checked only when the deal flag was searched; the base's own deal was
    # dropped, leaving an empty search
    (dict(flags="joker", deals=[(9, 9)]), "flag 'deal' takes 2 ints from 1 to 8"),
    (dict(flags="joker", deals=[(6, 6)]), "deals are given, but the search does not "
                                          "change the deal flag"),
    (dict(flags="deal", deals=[(5, 6)]), "deals: 5,6 is the base's own deal \\(classic "
                                         "deals 5 cards to the first player"),
    (dict(flags="deal", deals=[]), "deals is empty"),
    (dict(flags="deal", deals=5), "deals must be a list of deals"),
    (dict(flags="joker", progress="yes"), "progress must be None"),
    (dict(flags="joker", play="no"), "play must be True or False, not 'no'"),
    (dict(flags="joker", quick=1), "quick must be True or False"),
])
def test_arguments_are_checked_before_anything_is_played(tmp_path, kw, message):
    path = tmp_path / "r.jsonl"
    kw = dict(dict(k=1, budget=SMALL, results=str(path)), **kw)
    with pytest.raises(ValueError, match=message):
        cuttle.balance("classic", "random", **kw)
    assert not path.exists()                    # nothing played, no file made


def test_numpy_bools_are_truth_values_for_quick_and_play(tmp_path):
    """quick and play take numpy bools as every bool argument does (cuttle.validation's
    truth-value rule): balance(play=np.False_) was refused as not True or False."""
    import numpy as np
    path = tmp_path / "r.jsonl"
    run_to_dict(str(path), progress=False)
    whole = run_to_dict(str(path), progress=False, play=False)
    read = run_to_dict(str(path), progress=False, play=np.False_, quick=np.False_)
    assert read.played_records == 0 and read.n_games == whole.n_games


def test_an_unfinished_search_labels_its_leaders_provisional(tmp_path):
    """Stopped in the race, the report called the race's leaders "winner" and their race
    figures games "on fresh deals, after the race chose the winners"."""
    def stop(info):
        if info.get("stage") == "race" and info["chunk"] >= 1 and \
                info.get("done") is not None:
            raise KeyboardInterrupt
    with pytest.raises(BalanceInterrupted) as ex:
        run_to_dict(str(tmp_path / "r.jsonl"), progress=stop)
    part = ex.value.result
    assert part.winners and all(w.stage == "raced" for w in part.winners.values())
    for text in (str(part), part.markdown()):
        assert "The fairest rule set of each size (provisional: the search is unfinished)" \
            in text
        assert "the race's leaders so far, not its winners" in text
        assert "leader (provisional)" in text and ", winner" not in text
        assert "after the race chose the winners" not in text
    whole = run_to_dict(str(tmp_path / "r.jsonl"), progress=False)
    text = whole.markdown()
    assert "provisional" not in text and ", winner" in text
    # the Pareto front says which stage each row's figures come from
    assert "a winner's confirmation games on fresh deals, the others' race games" in text
    assert "Pareto: on the front by its reported figures" in text


def test_best_of_size_0_is_the_base_and_a_size_above_k_is_refused():
    # best(0) was None though the tables label the base "0 changes"; best(4) with k=3
    # was None as if no rule set of four changes had won.
    res = cuttle.balance("classic", "random", k=1, flags="deal", deals=[(6, 6)],
                         budget=SMALL, progress=False)
    base = res.best(0)
    assert base.rules == Rules() and base.size == 0 and base.label == "(base)"
    assert base.status == "base" and not base.candidate.changes
    assert base.measure is res.base["confirm"] and base.stage == "confirmed"
    assert base.estimate("first_score") == res.base["confirm"].estimate("first_score")
    row = next(x for x in str(res).splitlines() if "(base)" in x)
    assert f"{100 * base.estimate('first_score').value:.2f}%" in row
    assert res.best(1) is res.winners[1]
    for size in (2, 4, -1, 1.5, "1"):
        with pytest.raises(ValueError, match=r"the search tried rule sets of 0 \(the base\) "
                                             r"to 1 changes \(k=1\), not "):
            res.best(size)


def test_the_game_counts_say_what_each_counts(tmp_path):
    """A quick search said "126,000 games" on its progress line, "110,000 games" above
    its tables, and its file's records added up to 134,000: the title says what each
    counts (the tables', this run's, the file's) and the first two are the result's."""
    path = tmp_path / "r.jsonl"
    seen = []
    res = cuttle.balance("classic", "random", k=2, flags="deal,joker,four",
                         deals=[(6, 7), (6, 6)], budget=SMALL, results=str(path),
                         progress=seen.append)
    played = [d["games"] for d in seen if "games" in d][-1]
    records = [json.loads(x) for x in path.read_text().splitlines()[1:]]
    saved = sum(r["games"][1] - r["games"][0] for r in records)
    assert res.interactions and res.played_games == played
    assert saved > played > res.n_games       # (pairings saved apart; interactions once)
    line = str(res).splitlines()[2]
    assert line.startswith(f"{res.n_games:,} games in these tables (an interaction's games "
                           f"once, not once for each of its four rule sets")
    assert f"this run played {played:,} games (every rule set's) in " in line
    assert (f"saved them to {path} in {len(records)} chunks (each a rule set's games paired "
            f"with another's: games paired with several rule sets are saved with each, so "
            f"the chunks add up to more)") in line
    assert "record" not in line
    assert res.as_dict()["played_games"] == played


def test_an_unfinished_search_without_a_results_file_does_not_promise_to_continue(tmp_path):
    """Stopped with no results file, the report said "run the same command again to
    continue", and a rerun started from nothing."""
    def stop(info):
        if info.get("stage") == "race" and info["chunk"] >= 1:
            raise KeyboardInterrupt
    with pytest.raises(BalanceInterrupted) as ex:
        run_to_dict(None, progress=stop)
    text = str(ex.value.result)
    assert "run the same command again" not in text
    assert "(unfinished; with no results file, nothing is kept to continue from: give " \
           "one, --results FILE or results=, to keep a run's games)" in text
    with pytest.raises(BalanceInterrupted) as ex:
        run_to_dict(str(tmp_path / "r.jsonl"), progress=stop)
    assert ("(unfinished: run the same command again, or call balance() again with the "
            "same arguments and results file, to continue)") in str(ex.value.result)
