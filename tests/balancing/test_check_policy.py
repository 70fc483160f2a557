"""A check under the search's own policy (`check == policy`) plays the winners and the
base again under that policy and nothing else: the search is the search without the
check, and a results file of that search is read back with the check added.  The
search's chunk player was keyed by its policy, so the check's (chunks of 1,000 games)
took its place: the search played other chunks (another search), and a file of the
search without --check was "no games played with these options"."""

import json

import cuttle
from cuttle.cli import main

# Chunks of 2,000 games: not the check's 1,000, which hid the mix-up.
BUDGET = dict(chunk_size=2000, screen_games=4000, screen_target=0.01, pairs=2,
              interaction_games=4000, interaction_target=0.02, per_size=2,
              race_games=6000, race_target=0.02, confirm_games=6000, confirm_target=0.01)
KW = dict(k=1, flags="deal", deals=[(6, 6), (4, 6), (6, 7)], budget=BUDGET,
          check_games=2000, progress=False)


def search_part(d):
    """A result's JSON without the check and what depends on the run."""
    out = {k: v for k, v in d.items()
           if k not in ("elapsed_seconds", "played_records", "played_games", "settings",
                        "games")}
    out["base_games"] = {s: m for s, m in d["base_games"].items() if s != "check"}
    out["candidates"] = [{k: v for k, v in c.items() if k != "check"}
                         for c in d["candidates"]]
    return out


def test_a_check_under_the_search_policy_leaves_the_search_as_it_is():
    plain = cuttle.balance("classic", "random", **KW)
    checked = cuttle.balance("classic", "random", check="random", **KW)
    assert search_part(checked.as_dict()) == search_part(plain.as_dict())
    # the same games: every stage's base and every candidate's, and only the check more
    assert checked.n_games == plain.n_games + 2000 * (1 + len(plain.winners))
    assert {s: m.n for s, m in checked.base.items() if s != "check"} == \
        {s: m.n for s, m in plain.base.items()}
    assert checked.base["check"].n == 2000
    assert all(w.check.n == 2000 for w in checked.winners.values())
    # the check plays its own stage's games (from 3 * 10**12 on), under its policy
    for rules, m in [(checked.config.base, checked.base["check"])] + \
            [(w.rules, w.check) for w in checked.winners.values()]:
        direct = cuttle.simulate(2000, rules, ("random", "random"), seed=1, start=3 * 10**12,
                                 swap_seats=False, progress=False)
        assert m.tally == direct.tally


def test_a_results_file_of_the_search_is_checked_under_its_own_policy(tmp_path):
    path = tmp_path / "r.jsonl"
    plain = cuttle.balance("classic", "random", results=str(path), **KW)
    lines = path.read_text().splitlines()
    checked = cuttle.balance("classic", "random", check="random", results=str(path), **KW)
    new = [json.loads(x) for x in path.read_text().splitlines()[len(lines):]]
    # only the check was played: the base and each winner, 2 chunks of 1,000 games each
    assert checked.played_records == len(new) == 2 * (1 + len(plain.winners))
    assert all(r["chunk_size"] == 1000 for r in new)
    assert search_part(checked.as_dict()) == search_part(plain.as_dict())
    fresh = cuttle.balance("classic", "random", check="random", **KW)
    assert checked.as_dict()["candidates"] == fresh.as_dict()["candidates"]


def test_the_command_checks_a_file_of_its_search_under_the_same_policy(capsys, tmp_path):
    """The issue's commands: the search, then the same options with --check greedy on
    a greedy search (refused as "no games played with these options")."""
    results = str(tmp_path / "r.jsonl")
    args = ["balance", "--quick", "--policy", "greedy", "-k", "1", "--no-progress",
            "--results", results]
    assert main(args) == 0
    searched, _ = capsys.readouterr()
    assert main([*args, "--check", "greedy"]) == 0
    checked, err = capsys.readouterr()
    assert "first score, greedy" in checked and "error" not in err
    # the first table gains the check's columns; the rest is the search as it was
    table = searched.splitlines().index("The Pareto front: fairness, changes, length")
    assert checked.splitlines()[table:] == searched.splitlines()[table:]
    assert checked.splitlines()[:2] == searched.splitlines()[:2]
