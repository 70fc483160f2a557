"""The review's headline (`Review.where_lost()`, `Review.headline`): one sentence saying
where the game was lost, read from the review's own figures (the loser's largest loss, a
mistake or a blunder; else that no single move stands out, with the largest fall of their
chances between their moves), first in the text, the JSON and the page; draws, unfinished
games, reviews of one player and reviews cut short."""

import dataclasses
from html import escape

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import cuttle
from cuttle.record import make_record
from cuttle.review import review
from cuttle.review.figures import STANDS_OUT
from support.helpers import bot_game

# P0 to move could win at once with `points TH`; it draws, and P1 wins with `points 4S`.
WIN = dict(hands=(["TH", "2C", "3D"], ["4S", "5S", "6S", "7C", "8D", "9C"]),
           points=(["7S", "7H"], ["9H", "9D"]), rest="deck", seed=3)
ENGINE = "expert:16"


def thrown_away(moves=("draw", "points 4S")):
    g = cuttle.Game.from_position(**WIN)
    for m in moves:
        g.play(m)
    return g


def shown_everywhere(r):
    """The headline is the text's first line, the JSON's where_lost, and the page's
    first paragraph, above the replay."""
    text = r.headline
    assert text == r.where_lost()["text"] and text.endswith(".")
    assert str(r).splitlines()[0] == text
    assert r.as_dict()["where_lost"] == r.where_lost()
    page = r.page()
    head = f'<p class="review-headline">{escape(text)}</p>'
    assert head in page and page.index(head) < page.index('class="replay"')
    return text


def test_the_losers_blunder_is_where_the_game_was_lost():
    r = review(thrown_away(), ENGINE, seed=1, names=["ann", "bob"])
    d = r.decisions[0]
    assert d.label == "blunder" and d.best == cuttle.Move("points TH") and d.best_score == 1
    w = r.where_lost()
    assert (w["outcome"], w["winner"], w["loser"], w["move"], w["player"]) == \
        ("won", 1, 0, 1, 0)
    assert w["stands_out"] and w["between"] is None
    assert shown_everywhere(r) == (
        f"P0 ann lost this game at move 1, draw ?? (a blunder): their chances fell from "
        f"100.0% with the best move, points TH, to {d.played_score:.1%} "
        f"(-{d.loss_text()} pp), their only mistake or blunder.")
    # the same from the loser's view alone; from the winner's, the review cannot tell
    assert review(thrown_away(), ENGINE, seed=1, player=0,
                  names=["ann", "bob"]).headline == r.headline
    alone = review(thrown_away(), ENGINE, seed=1, player=1, names=["ann", "bob"])
    assert shown_everywhere(alone) == (
        "P1 (bob) won this game; P0 (ann) is not reviewed, so this review cannot say "
        "where they lost it.")
    # every label reads as the subject it is: no "P0 you's", "P1 them's"
    for names, winner, loser in ((["you", "them"], "P1 (them)", "P0 (you)"),
                                 (None, "P1", "P0")):
        said = review(thrown_away(), ENGINE, seed=1, player=1, names=names).headline
        assert said.startswith(f"{winner} won this game; {loser} is not reviewed, so ")
    assert alone.where_lost()["move"] is None and alone.where_lost()["loser"] == 0


def test_a_resigned_game_was_lost_by_the_resigner():
    g = thrown_away(("draw",))
    rec = make_record(g, players=["ann", "bob"], human_seat=0, status="resigned")
    r = review(rec, ENGINE, seed=1)
    w = r.where_lost()
    assert (w["outcome"], w["winner"], w["loser"], w["move"]) == ("won", 1, 0, 1)
    assert shown_everywhere(r).startswith("P0 ann lost this game at move 1, draw ??")


def test_a_game_resigned_before_a_move_was_lost_without_one():
    # "none of their moves was judged (each was forced)": they made none
    rec = make_record(thrown_away(()), players=["ann", "bob"], human_seat=0,
                      status="resigned")
    r = review(rec, ENGINE, seed=1)
    assert r.decisions == [] and r.where_lost()["loser"] == 0
    assert shown_everywhere(r) == "P0 ann lost this game without making a move."


def test_an_unfinished_game_and_a_draw_have_no_loser():
    g = thrown_away(("draw",))
    quit_ = review(make_record(g, players=["ann", "bob"], status="quit"), ENGINE, seed=1)
    d = quit_.decisions[0]
    assert shown_everywhere(quit_) == (
        f"The game is unfinished (quit), so nobody has lost it yet; the costliest move was "
        f"P0 ann's move 1, draw ?? (a blunder): their chances fell from 100.0% with the "
        f"best move, points TH, to {d.played_score:.1%} (-{d.loss_text()} pp).")
    w = quit_.where_lost()
    assert (w["outcome"], w["winner"], w["loser"], w["move"], w["player"]) == \
        ("unfinished", None, None, 1, 0)
    under_way = review(g, ENGINE, seed=1)           # a Game: no stop told
    assert under_way.headline.startswith("The game is unfinished, so nobody has lost it "
                                         "yet; the costliest move was P0 player 0's move 1")
    nothing = review(cuttle.Game(seed=3), ENGINE, seed=1)
    assert shown_everywhere(nothing) == ("The game is unfinished, so nobody has lost it "
                                         "yet; no move was judged.")
    capped = cuttle.Game(seed=1, max_moves=6)
    while not capped.is_over:
        capped.play("draw")
    drawn = review(capped, "rollouts:20", seed=4)
    text, w = shown_everywhere(drawn), drawn.where_lost()
    assert text.startswith("The game was drawn (move_cap), so nobody lost it; ")
    assert (w["outcome"], w["winner"], w["loser"]) == ("draw", None, None)
    judged = [d for d in drawn.decisions if d.judged]
    worst = max(judged, key=lambda d: d.loss)
    assert (w["move"], w["player"]) == (worst.ply + 1, worst.player)
    assert w["stands_out"] == (worst.label in STANDS_OUT)
    assert ("the costliest move was" in text) == w["stands_out"]
    assert ("no single move stands out" in text) == (not w["stands_out"])


def relabelled(r, i, label, loss, played):
    """`r` with decision i's figures replaced (as an engine would have valued it)."""
    d = r.decisions[i]
    r.decisions[i] = dataclasses.replace(d, label=label, loss=loss, played_score=played,
                                         best_score=played + loss)
    return r


def test_when_no_single_move_stands_out_it_says_so():
    """A loser whose costliest move is no mistake or blunder did not lose the game at
    one move: the headline says so, and where their chances fell most between their
    moves (the opponent's moves and the cards drawn), when that fall is larger."""
    r = relabelled(review(thrown_away(), ENGINE, seed=1, names=["ann", "bob"]), 0,
                   "inaccuracy", 0.07, 0.6)
    w = r.where_lost()
    assert not w["stands_out"] and (w["move"], w["player"]) == (1, 0)
    assert w["between"] == r.between()[0] and w["between"]["change"] == pytest.approx(-0.6)
    assert shown_everywhere(r) == (
        "P0 ann lost this game, but no single move of theirs stands out: their costliest, "
        "move 1, draw ?! (an inaccuracy), lost 7.0 pp; their chances fell most after move "
        "1, from 60.0% to 0.0% at the end (-60.0 pp), by the moves between and the cards "
        "drawn, which no label judges.")
    best = relabelled(r, 0, "best", 0.0, 0.02)
    assert best.where_lost()["between"]["change"] == pytest.approx(-0.02)
    assert best.headline.startswith(
        "P0 ann lost this game, but no single move of theirs stands out: each of their "
        "judged moves was the best or within 1 pp of it; their chances fell most")
    small = relabelled(r, 0, "good", 0.04, 0.03)   # (a fall smaller than the move's loss)
    assert small.where_lost()["between"] is None
    assert small.headline == ("P0 ann lost this game, but no single move of theirs stands "
                              "out: their costliest, move 1, draw (good), lost 4.0 pp.")


def test_lost_at_a_move_only_where_the_chances_fell_below_half():
    """The loser's costliest mistake "lost this game" only when it took their chances from
    50% or more to below 50%; one after which they were still at 50% or more (docs/
    review.md's example: P1's blunder from 77.5% to 56.9%, P1 still the favourite) or
    before which they were already below it is their costliest mistake."""
    base = review(thrown_away(), ENGINE, seed=1, names=["ann", "bob"])
    assert base.decisions[0].played_score < 0.5 and base.where_lost()["fell_below_half"]
    still = relabelled(base, 0, "blunder", 0.2, 0.6)
    w = still.where_lost()
    assert w["stands_out"] and not w["fell_below_half"] and w["move"] == 1
    assert shown_everywhere(still) == (
        "P0 ann lost this game; their costliest mistake was move 1, draw ?? (a blunder): "
        "their chances fell from 80.0% with the best move, points TH, to 60.0% (-20.0 pp), "
        "staying at 50% or more, their only mistake or blunder.")
    even = relabelled(base, 0, "mistake", 0.12, 0.5)         # (50%: not below it)
    assert not even.where_lost()["fell_below_half"]
    assert "staying at 50% or more" in even.headline
    behind = relabelled(base, 0, "blunder", 0.2, 0.2)
    assert not behind.where_lost()["fell_below_half"]
    assert behind.headline == (
        "P0 ann lost this game; their costliest mistake was move 1, draw ?? (a blunder): "
        "their chances fell from 40.0% with the best move, points TH, to 20.0% (-20.0 pp), "
        "already below 50%, their only mistake or blunder.")
    crossed = relabelled(base, 0, "blunder", 0.2, 0.4)
    assert crossed.where_lost()["fell_below_half"]
    assert crossed.headline.startswith("P0 ann lost this game at move 1, draw ?? (a "
                                       "blunder): their chances fell from 60.0% ")


def test_of_several_mistakes_the_largest_is_named():
    g = bot_game(("random", "expert"), 5)
    assert g.winner == 1
    r = review(g, "rollouts:20", seed=2, player=0)
    mine = [d for d in r.decisions if d.judged]
    costly = [d for d in mine if d.label in STANDS_OUT]
    assert len(costly) >= 2, "random play should make several mistakes"
    worst = max(mine, key=lambda d: d.loss)
    assert r.where_lost()["move"] == worst.ply + 1
    assert shown_everywhere(r).startswith(f"P0 player 0 lost this game at move "
                                          f"{worst.ply + 1}, {worst.played} ")
    assert r.headline.endswith(f", the largest of their {len(costly)} mistakes and "
                               f"blunders.")


def test_a_review_cut_short_says_so():
    g = bot_game(("greedy", "greedy"), 11)
    assert g.ply > 5
    stop = []
    with pytest.raises(cuttle.Interrupted) as info:
        review(g, "rollouts:10", seed=1, progress=lambda done, total: stop.append(done),
               cancel=lambda: len(stop) >= 5)
    part = info.value.result
    assert not part.complete and len(part.decisions) == 5
    assert shown_everywhere(part).endswith(
        f" (the review was stopped after 5 of {g.ply} decisions).")


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), seats=st.sampled_from([("expert", "random"),
                                                           ("random", "greedy"),
                                                           ("greedy", "expert")]),
       player=st.sampled_from([0, 1, None]))
@example(seed=1162, seats=("greedy", "expert"), player=1)   # a fall between, no move named
@example(seed=2, seats=("expert", "random"), player=1)   # costliest: still 50% or more after
@example(seed=3, seats=("random", "greedy"), player=0)   # costliest: already below 50%
def test_the_headline_names_the_losers_largest_loss(seed, seats, player):
    """Whatever the game and whoever is reviewed: a decided game whose loser is
    reviewed names their largest loss exactly when it is a mistake or a blunder, as
    where they lost it only when it took their chances below 50%; otherwise no move is named for a loser not reviewed, and a draw names
    the largest loss of any reviewed player."""
    g = bot_game(seats, seed)
    r = review(g, "rollouts:8", seed=seed, player=player, threads=1)
    text, w = shown_everywhere(r), r.where_lost()
    assert w["winner"] == g.winner and w["outcome"] == ("draw" if g.winner is None else "won")
    pool = [d for d in r.decisions if d.judged and (w["loser"] is None
                                                    or d.player == w["loser"])]
    if w["loser"] is not None and w["loser"] not in r.players:
        assert w["move"] is None and "cannot say where they lost it" in text
        return
    if not pool:
        assert w["move"] is None
        return
    worst = max(pool, key=lambda d: (d.loss, -d.ply))
    assert (w["move"], w["player"]) == (worst.ply + 1, worst.player)
    assert w["stands_out"] == (worst.label in STANDS_OUT)
    # "lost this game at move N" only where the chances fell from 50% or more to below
    below = w["stands_out"] and worst.best_score >= 0.5 > worst.played_score
    assert w["fell_below_half"] == below
    assert ("lost this game at move" in text) == (below and w["loser"] is not None)
    if w["stands_out"] and not below and w["loser"] is not None:
        assert f"their costliest mistake was move {worst.ply + 1}, {worst.played}" in text
        assert ("staying at 50% or more" in text) == (worst.played_score >= 0.5)
        assert ("already below 50%" in text) == (worst.best_score < 0.5)
    if w["between"] is not None:            # (then the fall between is named instead)
        assert not w["stands_out"] and w["between"]["change"] < -worst.loss
        assert w["between"] in r.between()
        assert f"fell most after move {w['between']['from_move']}" in text
    else:
        assert f"move {worst.ply + 1}, {worst.played}" in text
