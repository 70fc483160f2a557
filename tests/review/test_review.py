"""cuttle.review (cuttle/review/): the labels of moves whose value is known (a win on the
spot, the only move that avoids an immediate loss), the hidden-information guarantee
(figures never depend on cards the mover cannot see), the accuracy of a strong and a
random player, the JSON, Ctrl-C and cancel, seeds and threads.  Small budgets: these
tests check behaviour, not precision (docs/review.md measures the noise)."""

import dataclasses
import importlib
import json
import math
import os
import re
import threading

import numpy as np
import pytest

import cuttle
from cuttle.policies import Bot
from cuttle.record import make_record, write_record
from cuttle.review import (LABELS, PLAYER_FIGURES, Thresholds, judge, move_accuracy,
                           parse_engine, review)
from cuttle.render.markdown import one_line
from cuttle.review.figures import figure_rows
from cuttle.simulation import game_record
from cuttle.report.replay import record_page
from support.helpers import bot_game, deal_of, played, redealt, unpack

# P0 to move: `points TH` reaches 24 of 21 and wins at once; P1, at 18 with six cards,
# wins on its next turn if P0 does not.
WIN = dict(hands=(["TH", "2C", "3D"], ["4S", "5S", "6S", "7C", "8D", "9C"]),
           points=(["7S", "7H"], ["9H", "9D"]), rest="deck", seed=3)
# Open hands: P1 (20 of 21) holds 4S and 6S and wins next turn unless P0 scuttles its TC
# with the TS (9D: P1 needs 10, which no card of theirs gives at once, so that one is
# not a loss on the spot either; after the AD, or anything else, P1 plays the 4S).
SAVE = dict(hands=(["TS", "3H", "5D"], ["4S", "6S"]),
            points=(["5H", "4C"], ["TC", "9D", "AD"]), rest="deck", seed=5)
ENGINES = ("expert:16", "ismcts:100")
INFER = "ismcts-infer:100"      # (reads the game's history: its own tests below too)


@pytest.mark.parametrize("engine", ENGINES + ("rollouts:100", INFER))
def test_a_win_on_the_spot_is_best_and_missing_it_a_blunder(engine):
    g = cuttle.Game.from_position(**WIN)
    won = judge(g, "points TH", engine, seed=1)
    assert won.label == "best" and won.loss == 0 and won.played_score == 1.0
    assert won.best == cuttle.Move.parse("points TH")
    for miss in ("draw", "points 3D", "scuttle TH 9H"):
        d = judge(g, miss, engine, seed=1)
        assert d.best == cuttle.Move.parse("points TH") and d.best_score == 1.0
        assert d.label == "blunder" and d.annotation == "??" and d.loss > 0.5
        assert d.missed_win == cuttle.Move.parse("points TH")
    assert won.missed_win is None


@pytest.mark.parametrize("engine", ENGINES + (INFER,))
def test_the_only_move_that_avoids_an_immediate_loss(engine):
    g = cuttle.Game.from_position("open", **SAVE)
    saved = judge(g, "scuttle TS TC", engine, seed=2)
    assert saved.label == "best" and saved.best == saved.played and saved.loss == 0
    for miss in ("draw", "points TS", "scuttle TS AD"):
        d = judge(g, miss, engine, seed=2)
        assert d.best == cuttle.Move.parse("scuttle TS TC")
        assert d.label == "blunder" and d.annotation == "??" and d.loss > 0.2
    # The same through a whole review of a record that starts there.
    rec = make_record(g.copy(), players=["a", "b"], position=g.position_text(rules=False))
    rec["moves"] = ["draw"]
    r = review(rec, engine, player=0, seed=2)
    assert [d.label for d in r.decisions] == ["blunder"]
    assert str(r.decisions[0].best) == "scuttle TS TC"


def test_a_label_says_whether_the_bounds_of_its_loss_settle_it():
    """Each judged move carries the bounds of its loss (two standard errors of the
    paired samples either side) and whether its label holds over them: a label whose
    bounds span a threshold even at the budget's cap says so in the text, the JSON and
    the page (P0's "blunder" of docs/review.md's example was 15.6 points, 13.1 to 18.1:
    a mistake as much as a blunder, with nothing saying so)."""
    g = cuttle.Game.from_position(**WIN)
    miss = judge(g, "draw", "expert:16", seed=1)
    assert miss.label == "blunder" and miss.settled
    assert 0.15 < miss.loss_low <= miss.loss <= miss.loss_high <= 1
    won = judge(g, "points TH", "expert:16", seed=1)
    assert won.settled and won.loss_low == won.loss_high == 0
    r = review(bot_game(("greedy", "random"), 4), "rollouts:20", seed=3, threads=1)
    th, text, page = Thresholds(), str(r), r.page()
    unsettled = 0
    for d, x in zip(r.decisions, r.as_dict()["decisions"]):
        assert (x["loss_low"], x["loss_high"], x["settled"]) == \
            (d.loss_low, d.loss_high, d.settled)
        if not d.judged:
            assert d.loss_low is d.loss_high is d.settled is None
            continue
        assert 0 <= d.loss_low <= d.loss <= d.loss_high <= 1
        assert d.settled == (th.label(d.loss_low) == th.label(d.loss_high))
        line = next(t for t in text.splitlines() if t.startswith(f"{d.ply + 1:>5}. "))
        bounds = f"not settled: {100 * d.loss_low:.1f} to {100 * d.loss_high:.1f}"
        assert (bounds in line) == (not d.settled)
        if not d.settled:
            unsettled += 1
            assert bounds + " pp" in page
    assert unsettled >= 3, "20 playouts a move should leave some labels unsettled"
    assert "span a label's bound" in text
    # each player's figures count them, in the text, the JSON and the page's table
    # (the counts per label alone presented every label as sure)
    players = r.as_dict()["players"]
    for p in players:
        mine = [d for d in r.decisions if d.player == p["player"] and d.judged]
        assert p["not_settled"] == sum(not d.settled for d in mine)
    assert sum(p["not_settled"] for p in players) == unsettled
    row = next(t for t in text.splitlines() if t.startswith("labels not settled"))
    assert row.split()[3:] == [str(p["not_settled"]) for p in players]
    assert ">labels not settled<" in page


# P0 to move at 20 of 21: any of its point cards wins at once (and only those).
TIE = dict(hands=(["AH", "2C", "3D", "4S"], ["5S", "6S", "7C", "8D", "9C", "KD"]),
           points=(["TH", "TS"], ["9H", "9D"]), rest="deck", seed=3)


def test_moves_whose_samples_agree_are_not_certainly_equal():
    """Two moves whose samples agree on every common sample (both win at once) differ
    by nothing the samples show, not by nothing: their paired standard error has a
    pseudo-difference of a whole game either way, as the figures' score shifts
    (`stats.paired_shift_error`), so the bounds of a loss are not [0, 0] from finitely
    many samples (they were), and shrink as the samples grow (about 2.8 / n)."""
    E = importlib.import_module("cuttle.review.engines")
    for n in (16, 256, 2048):
        mv = E.MoveValues([1, 2, 3])
        for i in (0, 1):
            mv.add(i, 0, np.ones(n, np.float32))           # both always win
        mv.add(2, 0, np.zeros(n, np.float32))              # this one always loses
        high = 2 * math.sqrt(2 / (n + 1) / (n + 2))
        assert mv.paired(0, 1) == (0.0, pytest.approx(high / 2))
        assert mv.loss_bounds(1, 0) == (0.0, pytest.approx(high))
        assert mv.loss_bounds(0, 0) == (0.0, pytest.approx(high))
        low, up = mv.loss_bounds(2, 0)                     # a loss all samples carry
        assert 0.75 < low < 1 and up == 1
    # a search's sample is the mean of its N iterations' games: one game is 1/N of it
    assert parse_engine("expert").step == parse_engine("rollouts:50").step == 1.0
    assert parse_engine("ismcts:300").step == parse_engine("ismcts-infer:300").step == 1 / 300
    mv = E.MoveValues([1, 2], step=1 / 300)
    for i in (0, 1):
        mv.add(i, 0, np.ones(16, np.float32))
    assert mv.loss_bounds(1, 0)[1] == pytest.approx(2 * math.sqrt(2 / 17 / 18) / 300)
    # judged: every winning move is best, its loss 0 but its bounds not [0, 0]; the
    # budget refines such ties up to its cap, where the bounds may still span 1 point
    g = cuttle.Game.from_position(**TIE)
    for won in ("points AH", "points 4S"):
        d = judge(g, won, "expert:16", seed=1)
        assert d.label == "best" and d.loss == 0 and d.loss_low == 0
        assert 0 < d.loss_high < 0.03 and not d.settled
        assert all(c.samples == 128 for c in d.candidates if str(c.move).startswith("points"))
    d = judge(g, "points AH", "expert:256", seed=1)
    assert d.label == "best" and 0 < d.loss_high <= 0.01 and d.settled


def same_figures(a, b):
    da, db = a.as_dict(), b.as_dict()
    for d in (da, db):
        d.pop("ply"), d.pop("move")
    return da == db


@pytest.mark.parametrize("engine", ENGINES + ("rollouts:64",))
def test_figures_never_depend_on_cards_the_mover_cannot_see(engine):
    """At every decision of a game, the review of the move played is the same in
    every game the mover cannot tell apart (the opponent's hidden cards and the deck
    order swapped for others consistent with the mover's view, the random stream
    reseeded), for the same seed.  (The samples have no past: a mover would tell them
    from the game, which an engine reading the history sees; the next test swaps the
    hidden cards in the whole game.)"""
    g = bot_game(("expert", "greedy"), 21)
    h = g.copy()
    while h.ply:
        h.undo()
    checked = 0
    for i, move in enumerate(g.moves):
        if len(h.legal_moves) > 1 and i % 4 == 0:
            d = judge(h, move, engine, seed=100 + i, threads=2)
            for k in range(2):
                other = h.determinize(h.to_move, seed=1000 * i + k)
                assert other.hand(h.to_move) == h.hand(h.to_move)
                if k == 0:
                    assert (other.hand(1 - h.to_move), other.deck) != \
                        (h.hand(1 - h.to_move), h.deck) or not h.deck
                assert same_figures(judge(other, move, engine, seed=100 + i, threads=1), d)
            checked += 1
        h.play(move)
    assert checked >= 4


def expert_against_greedy():
    """(deal, game): a game of expert against greedy from deal_of's deal."""
    deal = deal_of(cuttle.Game(seed=21))
    g = played(deal, [])
    bots = (Bot("expert", 21), Bot("greedy", 22))
    while not g.is_over:
        g.play(bots[g.to_move].choose(g))
    return deal, g


@pytest.mark.parametrize("engine", ENGINES + ("rollouts:64", INFER))
def test_figures_never_depend_on_cards_the_mover_never_saw_in_the_whole_game(engine):
    """At decisions of a game, the review of the move played is the same when the
    cards that its mover never saw up to there are dealt otherwise from the start, the
    same moves played: for every engine, the one that reads the opponent's decisions
    from the game's history included (that history is then the same as the mover saw
    it, its hidden cards not)."""
    deal, g = expert_against_greedy()
    checked = differed = 0
    for i, move in enumerate(g.moves):
        a = played(deal, g.moves[:i])
        if len(a.legal_moves) == 1 or i % 3:
            continue
        b = played(redealt(deal, g.moves[:i], seed=i), g.moves[:i])
        opp = 1 - a.to_move
        differed += (a.hand(opp), a.deck) != (b.hand(opp), b.deck)
        assert same_figures(judge(a, move, engine, seed=100 + i, threads=2),
                            judge(b, move, engine, seed=100 + i, threads=1))
        checked += 1
    assert checked >= 5 and differed >= checked - 1


def test_records_whose_deals_differ_in_cards_a_player_never_saw_review_it_alike():
    """Two records of the same moves whose deals differ in the cards that one player
    had not seen by a late decision: each of that player's decisions up to there gets
    the same review by the engine that reads the opponent's past decisions from the
    record, which it does there (its deals are weighed)."""
    from cuttle._review import forced_belief
    deal, g = expert_against_greedy()
    last = max(i for i in range(1, 20) if forced_belief(played(deal, g.moves[:i]), 1))
    me = played(deal, g.moves[:last]).to_move
    other = redealt(deal, g.moves[:last], seed=3)
    assert (other["hands"][1 - me], other["deck"]) != (deal["hands"][1 - me], deal["deck"])
    reviews = [review(make_record(played(d, g.moves[:last + 1]), players=["a", "b"],
                                  status="quit"), INFER, player=me, seed=4, threads=1)
               for d in (deal, other)]
    assert [x.ply for x in reviews[0].decisions][-1] == last
    assert sum(x.judged for x in reviews[0].decisions) >= 3
    assert reviews[0].as_dict()["decisions"] == reviews[1].as_dict()["decisions"]


def test_swapped_hidden_cards_in_a_record_change_nothing():
    """Two records that differ only in P1's hand and the deck order: P0's first
    decision gets the same review."""
    def record(p1_hand, deck):
        g = cuttle.Game.from_position(hands=(["7H", "9C", "KS", "2D", "QH"], p1_hand),
                                      deck=deck, rest="deck", seed=8)
        for m in ("points 9C",):
            g.play(m)
        return make_record(g, players=["a", "b"],
                           position=cuttle.Game.from_position(
                               hands=(["7H", "9C", "KS", "2D", "QH"], p1_hand), deck=deck,
                               rest="deck", seed=8).position_text(rules=False))
    a = review(record(["3C", "4C", "5C", "6C", "8C", "TC"], ["AS", "2S"]), "expert:32",
               player=0, seed=4)
    b = review(record(["AS", "2S", "3S", "4S", "5S", "6S"], ["TC", "8C"]), "expert:32",
               player=0, seed=4)
    assert a.decisions[0].as_dict() == b.decisions[0].as_dict()


def test_random_play_gets_a_far_lower_accuracy_than_the_expert():
    for seed, seats in ((5, ("expert", "random")), (6, ("random", "expert"))):
        g = bot_game(seats, seed)
        r = review(g, "expert:32", seed=1, threads=2)
        expert, rnd = seats.index("expert"), seats.index("random")
        assert r.accuracy(expert) > r.accuracy(rnd) + 20
        s = {x["player"]: x for x in r.summaries}
        assert s[rnd]["average_loss"] > 2 * s[expert]["average_loss"]
        assert s[rnd]["best"] / s[rnd]["judged"] < s[expert]["best"] / s[expert]["judged"]


def test_forced_moves_are_listed_not_judged():
    g = bot_game(("greedy", "greedy"), 3)
    r = review(g, "rollouts:20", seed=1)
    h = g.copy()
    while h.ply:
        h.undo()
    forced = []
    for m in g.moves:
        if len(h.legal_moves) == 1:
            forced.append(h.ply)
        h.play(m)
    assert forced, "the game should have a forced move"
    assert [d.ply for d in r.decisions] == list(range(g.ply))
    for d in r.decisions:
        assert (d.label == "forced") == (d.ply in forced)
        assert d.judged == (d.loss is not None) == (d.ply not in forced)
    s = r.summary(0)
    assert s["forced"] + s["judged"] == sum(d.player == 0 for d in r.decisions)


def test_one_player_and_labels_by_threshold():
    g = bot_game(("greedy", "random"), 4)
    r = review(g, "rollouts:40", player=1, seed=3)
    assert {d.player for d in r.decisions} == {1} and r.players == (1,)
    # every decision of player 1's, each numbered by its place in the game, not in the
    # list (docs/review.md: with player=0, decisions[3] is not move 4)
    start = g.copy()
    while start.ply:
        start.undo()
    plies = []
    for m in g.moves:
        plies += [start.ply] if start.to_move == 1 else []
        start.play(m)
    listed = r.as_dict()["decisions"]
    assert [x["ply"] for x in listed] == [d.ply for d in r.decisions] == plies
    assert all(x["move"] == x["ply"] + 1 for x in listed)
    assert [x["move"] for x in listed] != list(range(1, len(listed) + 1))
    strict = review(g, "rollouts:40", player=1, seed=3,
                    thresholds={"best": 0, "good": 0, "inaccuracy": 0, "mistake": 0})
    for a, b in zip(r.decisions, strict.decisions):
        assert a.loss == b.loss                      # thresholds only relabel
        if b.judged:
            assert b.label == ("best" if b.loss == 0 else "blunder")
            assert a.label == Thresholds().label(a.loss, a.best == a.played)
            assert a.accuracy == pytest.approx(move_accuracy(a.loss))


def test_the_json_schema():
    g = bot_game(("expert", "greedy"), 7)
    r = review(g, "rollouts:30", seed=9, omniscient=True)
    d = json.loads(json.dumps(r.as_dict()))
    text = str(r)
    assert d["format"] == "cuttle-review" and d["engine"] == "rollouts:30" and d["seed"] == 9
    assert d["complete"] and d["reviewed"] == d["total"] == g.ply == len(d["decisions"])
    assert d["moves"] == [str(m) for m in g.moves]
    for i, x in enumerate(d["decisions"]):
        assert x["ply"] == i and x["player"] in (0, 1) and x["played"] == str(g.moves[i])
        assert x["move"] == i + 1                   # as the text numbers the move:
        assert re.search(rf"^ +{i + 1}\. P{x['player']} ", text, re.M)
        assert x["label"] in LABELS + ("forced",)
        if x["label"] == "forced":
            assert x["best"] is None and x["loss"] is None and x["legal_moves"] == 1
            continue
        assert x["loss"] == pytest.approx(x["best_score"] - x["played_score"], abs=1e-12)
        assert 0 <= x["loss"] <= 1
        assert x["label"] == Thresholds().label(x["loss"], x["best"] == x["played"])
        moves = {c["move"]: c for c in x["candidates"]}
        assert len(moves) == x["legal_moves"] and x["played"] in moves and x["best"] in moves
        assert x["candidates"][0]["score"] == x["best_score"] == moves[x["best"]]["score"]
        assert x["samples"] == sum(c["samples"] for c in x["candidates"])
        assert all(c["samples"] >= 30 for c in x["candidates"])
    assert [p["player"] for p in d["players"]] == [0, 1]
    for p in d["players"]:
        assert set(p) == {"player", "name"} | {f.key for f in PLAYER_FIGURES}
        mine = [x for x in d["decisions"] if x["player"] == p["player"]]
        assert p["judged"] + p["forced"] == len(mine)
        assert sum(p[lab.replace(" ", "_")] for lab in LABELS) == p["judged"]
    omni = d["omniscient"]
    assert len(omni) == g.ply + 1 and all(0 <= v <= 1 for v in omni)
    assert omni[-1] == (0.5 if g.winner is None else float(g.winner == 0))


def writable(g):
    """g's position text, or None where g holds rule state the text cannot carry (a
    pass just played)."""
    try:
        return g.position_text(rules=False)
    except ValueError:
        return None


@pytest.mark.parametrize("rules", [
    "classic", "cuttle.cards", "cuttle.cards joker=true four=random",
    "classic seven=top2 nine=freeze hand_limit=7 strict_scuttle=true",
    "cuttle.cards ten_blocks_scuttle=true ten_discards=true hand_limit=5"])
def test_every_record_the_library_writes(tmp_path, rules):
    """A record of each rule set, through its file, unfinished (status quit), from a
    position and of a simulated game (its deal's, capped): every move reviewed in order,
    each judged move's best among its moves."""
    g = cuttle.Game(rules, seed=12)
    bots = (Bot("random", 1), Bot("random", 2))
    while g.ply < 12 or g.phase != "main" or (pos := writable(g)) is None:
        g.play(bots[g.to_move].choose(g))
    h = cuttle.Game.from_text(pos, rules=g.rules, seed=g.seed)     # the same position
    while not g.is_over and g.ply < 30:
        g.play(bots[g.to_move].choose(g))
        h.play(g.moves[-1])
    for rec in (make_record(g, players=["x", "y"], status="over" if g.is_over else "quit"),
                make_record(h, players=["x", "y"], status="quit", position=pos),
                game_record(("random", "expert"), rules, seed=12, index=5, max_moves=30)):
        path = tmp_path / "game.json"
        write_record(rec, path)
        r = review(str(path), "expert:16", seed=3, threads=1)
        assert r.complete and r.total == len(rec["moves"]) == len(r.decisions)
        assert [d.ply for d in r.decisions] == list(range(len(rec["moves"])))
        assert [str(d.played) for d in r.decisions] == rec["moves"]
        for d in r.decisions:
            assert d.label in LABELS + ("forced",)


def test_a_seed_gives_the_same_review_whatever_the_threads():
    g = bot_game(("greedy", "expert"), 8, plies=14)
    a = review(g, "expert:8", seed=5, threads=1, omniscient=True)
    b = review(g, "expert:8", seed=5, threads=2, omniscient=True)
    c = review(g, "expert:8", seed=6, threads=2)
    assert a.as_dict()["decisions"] == b.as_dict()["decisions"]
    assert a.omniscient == b.omniscient
    assert a.as_dict()["decisions"] != c.as_dict()["decisions"]
    s = review(g, "ismcts:30", seed=5, threads=1)
    t = review(g, "ismcts:30", seed=5, threads=2)
    assert s.as_dict()["decisions"] == t.as_dict()["decisions"]


def test_a_large_search_splits_its_moves_over_calls_with_the_same_review(monkeypatch):
    # One call held a search for every move still refined, however large the search
    # (ismcts:300000: 44 s before a cancel was seen); now a call holds at most
    # call_size() searches, and the samples, drawn per (sample, move), are the same.
    from cuttle.review import engines
    g = bot_game(("greedy", "expert"), 8, plies=10)
    whole = review(g, "ismcts:40", seed=5, threads=1)
    real, sizes = engines._forced_searches, []

    def counted(game, batch, lo, count, *rest):
        sizes.append(len(batch) * count)
        return real(game, batch, lo, count, *rest)

    monkeypatch.setattr(engines, "_forced_searches", counted)
    monkeypatch.setattr(engines, "CALL_ITERATIONS", 40)     # 2 searches a call
    split = review(g, "ismcts:40", seed=5, threads=1)
    assert max(sizes) == 2 and len(sizes) > len(g.moves)
    assert split.as_dict()["decisions"] == whole.as_dict()["decisions"]


def test_the_budget_adapts():
    """Every move gets the base; only the close contenders and the move played get
    more, never beyond the cap."""
    g = cuttle.Game.from_position(**WIN)
    d = judge(g, "draw", "expert:16", seed=1)
    n = {str(c.move): c.samples for c in d.candidates}
    assert min(n.values()) == 16 and max(n.values()) <= 128
    g = bot_game(("expert", "expert"), 9, plies=16)
    r = review(g, "expert:16", seed=2)
    spent = [c.samples for x in r.decisions for c in x.candidates]
    assert min(spent) == 16 and max(spent) == 128 and 16 < sum(spent) / len(spent) < 128


def test_ctrl_c_keeps_the_finished_decisions(monkeypatch):
    from cuttle.review import engines
    real, calls = engines._rollouts, []

    def flaky(*args):
        calls.append(1)
        if len(calls) == 25:
            raise KeyboardInterrupt
        return real(*args)

    g = bot_game(("greedy", "greedy"), 10)
    monkeypatch.setattr(engines, "_rollouts", flaky)
    with pytest.raises(cuttle.Interrupted) as info:
        review(g, "rollouts:10", seed=3, threads=1)
    part = info.value.result
    assert isinstance(part, cuttle.Review) and not part.complete
    assert info.value.unit == "decision" and info.value.total == g.ply
    assert 0 < info.value.done == len(part.decisions) < g.ply
    monkeypatch.setattr(engines, "_rollouts", real)
    whole = review(g, "rollouts:10", seed=3, threads=2)
    assert [x.as_dict() for x in part.decisions] == \
        [x.as_dict() for x in whole.decisions[:len(part.decisions)]]
    assert "interrupted" in str(part) and part.as_dict()["complete"] is False
    # the one shape of a partial result's JSON, as simulate's, the atlas's, balance's
    assert part.as_dict()["interrupted"] == {"done": len(part.decisions),
                                             "requested": g.ply, "unit": "decision",
                                             "units": "decisions"}
    assert "interrupted" not in whole.as_dict()


def test_cancel_from_another_thread_and_progress():
    g = bot_game(("greedy", "greedy"), 11)
    stop = threading.Event()
    seen = []

    def progress(done, total):
        seen.append((done, total))
        if done == 3:
            stop.set()                  # as a web app's cancel button would

    with pytest.raises(cuttle.Interrupted) as info:
        review(g, "rollouts:10", seed=1, progress=progress, cancel=stop)
    assert len(info.value.result.decisions) == 3
    assert seen == [(k, g.ply) for k in (1, 2, 3)]
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("r", review(g, "rollouts:10", seed=1)))
    t.start()
    t.join(120)
    assert out["r"].complete and len(out["r"].decisions) == g.ply
    with pytest.raises(cuttle.Interrupted):
        review(g, "rollouts:10", seed=1, cancel=lambda: True)


def test_bad_arguments():
    g = bot_game(("greedy", "greedy"), 12)
    for engine in ("foo", "expert:0", "ismcts:x", "rollouts:-3", 7):
        with pytest.raises(ValueError):
            review(g, engine)
    for kw in (dict(player=2), dict(player=True), dict(seed=-1), dict(threads=0),
               dict(thresholds={"good": 2}), dict(thresholds={"best": 0.2, "good": 0.1}),
               dict(thresholds={"great": 0.1}), dict(cancel=3)):
        with pytest.raises(ValueError):
            review(g, "rollouts:5", **kw)
    with pytest.raises(ValueError, match="review takes a Game"):
        review(42)
    with pytest.raises(ValueError, match="not a cuttle game record"):
        review({"format": "pgn"})
    rec = make_record(g, players=["a", "b"])
    rec["moves"][3] = "scuttle KH 2C"
    with pytest.raises(ValueError, match="move 4"):
        review(rec, "rollouts:5")
    with pytest.raises(cuttle.IllegalMoveError):
        judge(cuttle.Game(seed=1), "points KS", "rollouts:5")
    over = cuttle.Game.from_position(points=(["TH", "9H", "2H"], []), rest="deck", seed=1)
    with pytest.raises(ValueError, match="over"):
        judge(over, "draw")
    for bad in ("g5.json", None, {}):       # (AttributeError: no is_over)
        with pytest.raises(ValueError, match="game must be a cuttle.Game"):
            judge(bad, "draw")
    assert parse_engine("ismcts").name == "ismcts:1000"
    assert parse_engine("rollouts").name == "rollouts:1000"
    assert parse_engine(" Expert ").name == "expert" and parse_engine("expert:9").base == 9


@pytest.mark.parametrize("spec, message", [
    ("ismcts:", "bad count in engine 'ismcts:'"), ("expert:", "bad count"),
    ("rollouts:0", "bad count"), ("ismcts:1e3", "bad count"),
    ("random", "unknown engine 'random'; valid: expert[:N], rollouts[:N], ismcts[:N]"),
    ("greedy", "unknown engine"), (3, "an engine is a name")])
def test_an_engine_is_one_of_the_names_the_help_lists(spec, message):
    # Every accepted name is a form the help and the errors list (a colon with no count
    # is a typo, not the default).
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_engine(spec)


def test_the_docs_say_how_many_playouts_the_hindsight_line_takes():
    """docs/review.md said 64 for every engine; rollouts:N plays 256 random playouts."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "docs", "review.md")
    text = " ".join(open(path, encoding="utf-8").read().split())
    expert, rollouts, search = (parse_engine(e) for e in ("expert", "rollouts", "ismcts"))
    assert expert.hindsight_samples == search.hindsight_samples
    assert (f"by the expert policy in {expert.hindsight_samples} playouts (for "
            f"`rollouts:N`, {rollouts.hindsight_samples} random playouts)") in text


def test_the_text_review():
    g = bot_game(("expert", "random"), 13)
    r = review(g, "rollouts:20", seed=2, omniscient=True)
    text = str(r)
    assert "Engine rollouts:20" in text and "hindsight" in text.lower()
    for d in r.decisions:
        if d.annotation:
            assert f"{d.ply + 1:>5}. P{d.player}" in text and f"{d.played} {d.annotation}" in text
    for f in PLAYER_FIGURES:
        assert f.label in text
    assert repr(r).startswith("<Review rollouts:20")


def test_a_one_move_game_is_1_move():
    g = cuttle.Game(seed=3)
    g.play(g.legal_moves[0])
    r = review(g, "rollouts:20", seed=2, threads=1)
    assert str(r).splitlines()[1].endswith("; 1 move")     # (under the headline)
    assert "1 move" in r.page() and "1 moves" not in r.page()


def test_a_resigned_game_says_so_in_its_review():
    """A record of a game resigned before its end (in the browser or the terminal) says
    who won in the review's text, JSON and page, as does a record of a resignation
    written before they had a winner; a record of a game quit says why it stopped; a
    Game's unfinished review says nothing."""
    g = cuttle.Game(seed=3)
    for _ in range(6):
        g.play(g.legal_moves[0])
    rec = make_record(g, players=["human", "greedy"], human_seat=0, status="resigned")
    old = {**rec, "result": {**rec["result"], "winner": None, "text": "unfinished: resigned"}}
    for record in (rec, old):
        r = cuttle.review(record, "rollouts:5", seed=1)
        assert "Result: player 1 wins (player 0 resigned)" in str(r).splitlines()
        assert r.as_dict()["result"] == rec["result"]
        page = r.page()
        assert "player 1 wins (player 0 resigned)" in page and "unfinished" not in page
        # its last table too (as `cuttle replay --html`'s): the result, not who decides
        for html in (page, record_page(record)):
            pictures, steps = unpack(html)
            for k in steps[-1]:
                assert "Game over: P1 wins (P0 resigned)" in pictures[k]
                assert "to decide" not in pictures[k]
            assert all("Game over" not in pictures[k] for k in steps[-2])
    quit_ = make_record(g, players=["human", "greedy"], human_seat=0, status="quit")
    assert "Result: unfinished: quit" in str(cuttle.review(quit_, "rollouts:5", seed=1))
    plain = cuttle.review(g, "rollouts:5", seed=1)
    assert plain.as_dict()["result"] is None and "Result:" not in str(plain)


def test_a_printed_loss_carries_its_label():
    from cuttle.formatting import loss_points
    t = Thresholds()
    bounds = t.as_dict()
    # 5.047 pp is an inaccuracy: "5.0" would read as a good move's loss.
    assert loss_points(0.05047, bounds) == "5.05" and t.label(0.05047) == "inaccuracy"
    assert loss_points(0.05, bounds) == "5.0" and loss_points(0.0723, bounds) == "7.2"
    moved = Thresholds.coerce({"inaccuracy": 0.0999}).as_dict()
    assert loss_points(0.0999, moved) == "9.99"     # not "10.0" (a mistake)
    assert loss_points(0.05047, list(bounds.values())) == "5.05"    # bare bounds too
    assert loss_points(0.05047, {}) == "5.0" and loss_points(None, bounds) == "n/a"
    # Every judged line of a real review: the number shown has the label shown.
    r = review(bot_game(("greedy", "greedy"), 3), "rollouts:40", seed=2)
    lines = re.findall(r"(\d+\.\d+) pp  (best|near best|good|inaccuracy|mistake|blunder)\b",
                       str(r))
    assert len(lines) >= 5 and len({label for _, label in lines}) >= 3
    for shown, label in lines:
        assert t.label(float(shown) / 100, label == "best") == label, (shown, label)


def test_the_page_prints_a_loss_as_the_text_does():
    """The page's tooltip printed a loss with one decimal where the text prints the
    digits its label needs: a 5.047 pp inaccuracy read "loss 5.0 points" there."""
    r = review(bot_game(("greedy", "greedy"), 3), "rollouts:40", seed=2)
    tips = re.findall(r'title="[a-z]+: expected score [^"]*, loss ([0-9.]+) pp', r.page())
    shown = re.findall(r"(\d+\.\d+) pp  (?:best|good|inaccuracy|mistake|blunder)\b", str(r))
    assert len(tips) >= 5 and tips == shown
    i, d = next((i, d) for i, d in enumerate(r.decisions)
                if d.label in ("good", "inaccuracy", "mistake") and d.played_score < 0.9)
    r.decisions[i] = dataclasses.replace(d, label="inaccuracy", loss=0.05047,
                                         best_score=d.played_score + 0.05047)
    assert "5.05 pp  inaccuracy" in str(r)
    assert "inaccuracy: expected score" in r.page() and "loss 5.05 pp" in r.page()
    assert "loss 5.0 points" not in r.page()


def test_a_judged_decision_prints_readably():
    """`judge()`'s Decision printed as a raw dataclass (every field, every candidate's
    MoveScore); it prints as the review's other results do: one line for repr, the
    decision with every legal move's value, best first, for str."""
    g = cuttle.Game.from_position(**WIN)
    d = judge(g, "draw", "expert:16", seed=1)
    assert repr(d) == (f"<Decision move 1, P0 draw ??: blunder, {d.loss_text()} pp below "
                       f"points TH; missed a win: points TH won at once (of 7 legal moves)>")
    lines = str(d).splitlines()
    assert lines[:2] == ["Move 1 (turn 1): P0 to decide (main), 7 legal moves",
                         f"Played draw ??: blunder, {d.loss_text()} pp below points TH; "
                         f"missed a win: points TH won at once"]
    assert lines[2].split() == ["move", "score", "samples"]
    rows = lines[3:3 + d.legal]
    assert [r.split("  ")[0].strip() for r in rows] == [str(c.move) for c in d.candidates]
    for row, c in zip(rows, d.candidates):
        assert f"{c.score:.1%}" in row and f"{c.samples:,}" in row
        assert row.endswith("best") == (c.move == d.best)
        assert row.endswith("played") == (c.move == d.played)
    assert lines[-1].endswith(f"accuracy {d.accuracy:.1f}%") and "Decision(" not in str(d)
    won = judge(g, "points TH", "expert:16", seed=1)
    assert repr(won) == "<Decision move 1, P0 points TH: best (of 7 legal moves)>"
    assert str(won).splitlines()[3].endswith("best, played")
    # a loss prints with the digits its label needs, under the decision's own thresholds
    e = judge(g, "draw", "expert:16", seed=1, thresholds={"mistake": 0.5})
    assert e.thresholds == Thresholds(mistake=0.5) and e.label == "blunder"
    fine = dataclasses.replace(e, loss=0.05047, label="inaccuracy")
    assert "inaccuracy, 5.05 pp below" in repr(fine) and "5.05 pp" in str(fine)
    # unsettled bounds are said; a forced move has no table
    r = review(bot_game(("greedy", "greedy"), 3), "rollouts:20", seed=2)
    loose = next(x for x in r.decisions if x.judged and not x.settled)
    assert (f"not settled: the loss's bounds, {100 * loose.loss_low:.1f} to "
            f"{100 * loose.loss_high:.1f} pp") in str(loose)
    forced = next(x for x in r.decisions if not x.judged)
    assert repr(forced) == (f"<Decision move {forced.ply + 1}, P{forced.player} "
                            f"{forced.played}: forced (the only legal move)>")
    assert str(forced).splitlines() == [
        f"Move {forced.ply + 1} (turn {forced.turn}): P{forced.player} to decide "
        f"({forced.phase}), 1 legal move",
        f"Played {forced.played}: forced (the only legal move)"]


def markdown_table(lines, title):
    """The rows (lists of cells, '\\|' unescaped) of the markdown table under `title`."""
    at = lines.index(title) + 2
    end = lines.index("", at)
    rows = [[c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            for line in lines[at:end]]
    assert set("".join(rows[1])) <= set("-:")         # the alignment row
    return rows[0], rows[2:]


@pytest.mark.parametrize("player, omniscient, stop", [(None, False, None), (0, True, None),
                                                     (1, False, 12)])
def test_the_markdown_review(player, omniscient, stop):
    g = bot_game(("expert", "random"), 17)
    names = ("ann | co", "bob\nby")           # (a name cannot break its table)
    calls = [0]

    def cancel():
        calls[0] += 1
        return stop is not None and calls[0] > stop
    try:
        r = review(g, "rollouts:20", seed=4, player=player, omniscient=omniscient,
                   threads=1, names=names, cancel=cancel)
    except cuttle.Interrupted as e:
        r = e.result
    assert r.complete == (stop is None) and r.decisions
    md = r.markdown()
    lines = md.splitlines()
    # the headline first, then the text's own lines on what was reviewed and how (a line
    # break in a name, a space: it cannot end a paragraph or a row)
    assert lines[0] == f"**{one_line(r.headline)}**" and lines[1] == ""
    assert lines[2].startswith("Review: P0 ann | co against P1 bob by; ")
    at = 2
    for line in r.intro():
        assert lines[at:at + 2] == [one_line(line), ""]
        at += 2
    assert lines[at] == "### Moves"
    header, rows = markdown_table(lines, "### Moves")
    assert header[:9] == ["move", "turn", "player", "played", "score", "best",
                          "best score", "loss (pp)", "label"]
    assert header[9:] == (["hindsight P0"] if omniscient else []) + ["notes"]
    assert len(rows) == len(r.moves) and all(len(row) == len(header) for row in rows)
    by_ply = {d.ply: d for d in r.decisions}
    game = r.start.copy()
    for i, (m, row) in enumerate(zip(r.moves, rows)):
        cell = dict(zip(header, row))
        p, d = game.to_move, by_ply.get(i)
        assert cell["move"] == str(i + 1) and cell["turn"] == str(game.turn_number)
        assert cell["player"] == f"P{p} {' '.join(names[p].splitlines())}"
        assert cell["played"] == (f"{m} {d.annotation}".rstrip() if d else str(m))
        if d is None:
            assert cell["label"] == ("not valued" if p not in r.players else "not reached")
        elif not d.judged:
            assert cell["label"] == "forced" and cell["score"] == ""
        else:
            assert cell["label"] == d.label and cell["loss (pp)"] == d.loss_text()
            assert cell["score"] == f"{d.played_score:.1%}"
            assert cell["best"] == ("" if d.label == "best" else str(d.best))
            assert ("not settled" in cell["notes"]) == (not d.settled)
        if omniscient:
            assert cell["hindsight P0"] == f"{r.omniscient[i + 1]:.0%}"
        game.play(m)
    assert (r.players != (0, 1)) == any("chances:" in row[-1] for row in rows)
    # the text's closing lines, then the per-player figures and what the review spent
    at = lines.index("", lines.index("### Moves") + 2) + 1
    for line in r.closing():
        assert lines[at:at + 2] == [one_line(line), ""]
        at += 2
    assert (stop is not None) == any(x.startswith("(review interrupted:") for x in r.closing())
    assert lines[at] == "### Per player"
    header, rows = markdown_table(lines, "### Per player")
    assert header == [""] + [f"P{p} {' '.join(names[p].splitlines())}" for p in r.players]
    assert rows == [[label, *values] for label, values in figure_rows(r.summaries)]
    assert lines[-1] == r.spent() and md.endswith("\n")
