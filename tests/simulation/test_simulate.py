"""cuttle.simulate / cuttle.compare: arrays, determinism, summaries, matches, Python players."""

import csv
import io
import json
import math
import pickle
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cuttle
from cuttle._core import END_NAMES
from cuttle.errors import IllegalMoveError
from cuttle.simulation import (MATCH_FORMATS, SimulationResult, Summary, native_policy_code,
                               player_names)
from cuttle.stats import newcombe_interval, newcombe_paired_interval, wilson_interval
from cuttle.figures import SUMMARY, independent_difference
from support.samples import match_paired_difference, paired_length_shift

FIELDS = ("winner", "first", "moves", "turns", "scores", "end")


def same_games(r1, r2):
    return all(np.array_equal(getattr(r1, k), getattr(r2, k)) for k in FIELDS)


def first_games(short, long):
    """`short` is the first len(short) games of `long`."""
    return len(short) <= len(long) and \
        all(np.array_equal(getattr(short, k), getattr(long, k)[:len(short)]) for k in FIELDS)


@pytest.fixture(scope="module")
def run():
    return cuttle.simulate(3000, players=("random", "greedy"), seed=11, progress=False,
                           keep_games=True)


def test_arrays(run):
    n = 3000
    assert run.n_games == len(run) == n and run.seed == 11
    assert run.players == ("random", "greedy") and run.rules == cuttle.Rules()
    for name, dtype, shape in (("winner", np.int8, (n,)), ("first", np.int8, (n,)),
                               ("moves", np.int32, (n,)), ("turns", np.int32, (n,)),
                               ("scores", np.int16, (n, 2)), ("end", np.int8, (n,))):
        arr = getattr(run, name)
        assert arr.dtype == dtype and arr.shape == shape, name
    assert set(np.unique(run.winner)) <= {-1, 0, 1}
    # swap_seats: A moves first in even-numbered games
    assert np.array_equal(run.first, np.arange(n) % 2)
    assert (run.moves > 0).all() and (run.turns > 0).all() and (run.scores >= 0).all()
    ends = np.array(END_NAMES)[run.end]
    assert set(ends) <= {"goal", "passes", "sudden_death", "move_cap"}
    # a win is reached at the goal; a draw is never a "goal" ending
    assert ((run.winner >= 0) == (ends == "goal")).all()
    won = run.winner >= 0
    assert (run.scores[won, run.winner[won]] >= 5).all()
    # the greedy player beats the random one
    assert (run.winner == 1).mean() > 0.8


def test_no_swap_seats():
    r = cuttle.simulate(200, seed=2, swap_seats=False, progress=False, keep_games=True)
    assert (r.first == 0).all()
    assert math.isnan(r.summary().player_seat_win_rate("A", "second").value)


def test_a_rate_of_no_games_has_no_row_but_keeps_its_json_key():
    # With --no-swap the table printed "A wins moving second 0/0 n/a [0.00%, 100.00%]".
    s = cuttle.simulate(50, seed=2, swap_seats=False, progress=False).summary()
    text, page = str(s), s._repr_html_()
    for shown in ("A wins moving first", "B wins moving second", "first mover wins"):
        assert shown in text and shown in page
    for empty in ("A wins moving second", "B wins moving first"):
        assert empty not in text and empty not in page
    assert "0/0" not in text and "n/a" not in text
    d = s.as_dict()["win_rate_by_seat"]
    assert d["A"]["second"]["n"] == 0 == d["B"]["first"]["n"]
    both = str(cuttle.simulate(50, seed=2, progress=False).summary())
    assert "A wins moving second" in both and "B wins moving first" in both


def test_determinism_across_threads_and_chunks(run):
    for threads, chunk, n in ((1, 3000, 3000), (2, 97, 3000), (1, 1, 300), (2, 1 << 16, 3000)):
        r = cuttle.simulate(n, players=("random", "greedy"), seed=11, threads=threads,
                            chunk_size=chunk, progress=False, keep_games=True)
        assert len(r) == n and first_games(r, run), (threads, chunk)


def test_prefix_and_seed(run):
    short = cuttle.simulate(500, players=("random", "greedy"), seed=11, progress=False,
                            keep_games=True)
    assert len(short) == 500 and first_games(short, run)
    other = cuttle.simulate(500, players=("random", "greedy"), seed=12, progress=False,
                            keep_games=True)
    assert not np.array_equal(other.moves, short.moves)


def test_seed_none_is_recorded():
    r = cuttle.simulate(300, seed=None, progress=False, keep_games=True)
    assert isinstance(r.seed, int) and r.seed >= 0
    again = cuttle.simulate(300, seed=r.seed, progress=False, keep_games=True)
    assert same_games(r, again)


def test_rules_and_players_reach_the_core():
    base = cuttle.simulate(400, "classic", ("random", "random"), seed=5, progress=False,
                           keep_games=True)
    quick = cuttle.simulate(400, cuttle.Rules(king_goals=(15, 14, 10, 7, 5)), "random",
                            seed=5, progress=False, keep_games=True)
    assert quick.players == ("random", "random")
    assert quick.moves.mean() < base.moves.mean()
    cc = cuttle.simulate(400, "cuttle.cards", ("greedy", "greedy"), seed=5, progress=False,
                         keep_games=True)
    assert cc.rules == cuttle.Rules("cuttle.cards")


def test_player_lookup():
    assert set(player_names()) >= {"random", "greedy"}
    assert native_policy_code("greedy") == native_policy_code(" Greedy ")
    with pytest.raises(ValueError, match="unknown policy .smart.; valid: random, greedy, ismcts"):
        native_policy_code("smart")
    # the name said once ("player 'ismcts:0': bad iteration count in 'ismcts:0'" twice)
    for bad, says in (("ismcts:0", "bad iteration count in 'ismcts:0': use e.g."),
                      ("smart", "unknown policy 'smart'; valid")):
        with pytest.raises(ValueError) as e:
            cuttle.simulate(10, players=(bad, "expert"), progress=False)
        assert says in str(e.value) and str(e.value).count(bad) == 1, e.value
        assert "a callable policy(game) -> move" in str(e.value)


@pytest.mark.parametrize("kwargs, message", [
    ({"n_games": 0}, "n_games"), ({"n_games": -3}, "n_games"), ({"n_games": 2.5}, "n_games"),
    ({"n_games": True}, "n_games"), ({"players": ("random", "smart")}, "unknown policy"),
    ({"players": ("random", "greedy", "random")}, "pair"), ({"players": (1, 2)}, "player"),
    ({"rules": "nope"}, "unknown preset"), ({"seed": -1}, "seed"), ({"seed": "x"}, "seed"),
    ({"threads": 0}, "threads"), ({"match": "best_of_5"}, "match format"),
    ({"max_moves": 0}, "max_moves"), ({"chunk_size": 0}, "chunk_size"),
    ({"threads": 3_000_000_000},
     r"threads must be None \(all cores\) or an int from 1 to 1,024, not 3000000000"),
    ({"n_games": 10**16}, "n_games must be at most"), ({"max_moves": 2**31}, "max_moves"),
    ({"chunk_size": 2**25}, "chunk_size must be at most"),
    ({"keep_games": 1}, "keep_games"), ({"client": "tcp://x:1"}, "client"),
])
def test_bad_arguments(kwargs, message):
    args = {"n_games": 10, "progress": False}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        cuttle.simulate(**args)


def test_move_cap():
    cap = list(END_NAMES).index("move_cap")
    # natively and with a Python player: a game still running after 5 moves is a draw
    for players in (("random", "greedy"), (first_legal, "greedy")):
        r = cuttle.simulate(50, players=players, seed=1, max_moves=5, progress=False,
                            keep_games=True)
        capped = r.end == cap
        assert capped.any() and (r.winner[capped] == -1).all(), players
        assert (r.moves[capped] == 5).all() and (r.moves[~capped] <= 5).all(), players


# -- summary statistics on a hand-made result -------------------------------------------

def hand_made():
    winner = np.array([0, 0, 1, -1, 0, 1, 0, 0, 1, 0], np.int8)
    first = np.array([0, 1, 0, 1, 0, 1, 0, 1, 0, 1], np.int8)
    moves = np.array([10, 20, 30, 40, 10, 20, 30, 40, 10, 20], np.int32)
    turns = moves // 2
    scores = np.array([[21, 3], [22, 0], [5, 21], [10, 10], [21, 0], [0, 25], [24, 1],
                       [21, 7], [3, 21], [21, 2]], np.int16)
    end = np.array([1, 1, 1, 2, 1, 1, 1, 1, 1, 1], np.int8)
    arrays = dict(winner=winner, first=first, moves=moves, turns=turns, scores=scores, end=end)
    return SimulationResult.from_rows(arrays, players=("greedy", "random"),
                                      rules=cuttle.Rules(), seed=7, swap_seats=True,
                                      max_moves=100)


def test_summary_rates_by_hand():
    s = hand_made().summary()
    assert isinstance(s, Summary)
    # A won games 0 1 4 6 7 9 (6), B won 2 5 8 (3), game 3 drawn.
    assert s.win_rate("A") == wilson_interval(6, 10)
    assert s.win_rate(0) == s.win_rate("greedy") == s.win_rate("a")
    assert s.win_rate("B") == wilson_interval(3, 10)
    with pytest.warns(DeprecationWarning, match="loss_rate"):
        assert s.loss_rate("A") == s.win_rate("B")
    assert s.draw_rate() == wilson_interval(1, 10)
    assert s.win_rate("A").value == 0.6
    # A moved first in games 0 2 4 6 8 and won 0 4 6; moved second in 1 3 5 7 9, won 1 7 9.
    assert s.player_seat_win_rate("A", "first") == wilson_interval(3, 5)
    assert s.player_seat_win_rate("A", "second") == wilson_interval(3, 5)
    # B moved first in 1 3 5 7 9 and won 5; second in 0 2 4 6 8 and won 2 8.
    assert s.player_seat_win_rate("B", "first") == wilson_interval(1, 5)
    assert s.player_seat_win_rate("B", 1) == wilson_interval(2, 5)
    # first mover won games 0 4 6 5 (4), second mover 1 7 9 2 8 (5).
    assert s.seat_win_rate("first") == wilson_interval(4, 10)
    assert s.seat_win_rate("second") == wilson_interval(5, 10)
    assert s.first_player_advantage() == newcombe_paired_interval(0, 4, 5, 1)
    assert s.first_player_advantage().value == pytest.approx(-0.1)
    with pytest.warns(DeprecationWarning, match="decisive_first_share"):
        assert s.decisive_first_share() == wilson_interval(4, 9)
    assert s.end_rate("goal") == wilson_interval(9, 10)
    assert s.end_rate("passes") == wilson_interval(1, 10)
    m = s.mean_moves()
    sd = np.std([10, 20, 30, 40, 10, 20, 30, 40, 10, 20], ddof=1)
    assert m.value == 23.0
    assert m.high - m.value == pytest.approx(1.959963984540054 * sd / math.sqrt(10))
    assert s.mean_turns().value == 11.5
    assert s.mean_score("A").value == pytest.approx(14.8)
    with pytest.raises(ValueError):
        s.win_rate("C")
    with pytest.raises(ValueError):
        s.seat_win_rate("middle")
    with pytest.raises(ValueError):
        s.end_rate("boredom")
    with pytest.raises(ValueError, match="single games"):
        s.match_win_rate("A")
    # the result's own shortcuts
    r = hand_made()
    assert r.win_rate("B") == wilson_interval(3, 10) and r.draw_rate() == wilson_interval(1, 10)


def test_summary_output_forms():
    r = hand_made()
    s = r.summary()
    text = str(s)
    for piece in ("10 games", "seed 7", "A (greedy) wins", "6/10", "60.00%", "draws",
                  "first-player advantage", "-10.00 pp", "moves per game", "23.00",
                  "passes 10.00%"):
        assert piece in text, piece
    d = json.loads(json.dumps(s.as_dict()))
    assert d["n_games"] == 10 and d["seed"] == 7
    assert d["players"] == {"A": "greedy", "B": "random"}
    assert d["win_rate"]["A"]["count"] == 6 and d["win_rate"]["A"]["value"] == 0.6
    assert d["win_rate"]["B"]["low"] == pytest.approx(wilson_interval(3, 10).low)
    assert d["win_rate_by_seat"]["B"]["first"]["n"] == 5
    assert d["end"]["passes"] == {"count": 1, "rate": 0.1}
    assert d["rules"]["flags"]["king_goals"] == [21, 14, 10, 7, 5]
    assert r.summary(0.99).win_rate("A").low < s.win_rate("A").low


def test_to_csv(tmp_path):
    r = hand_made()
    buf = io.StringIO()
    r.to_csv(buf)
    lines = buf.getvalue().splitlines()
    assert lines[0] == "game,winner,first,moves,turns,score_a,score_b,end"
    assert lines[1] == "0,A,A,10,5,21,3,goal"
    assert lines[4] == "3,draw,B,40,20,10,10,passes"
    assert len(lines) == 11
    path = tmp_path / "games.csv"
    r.to_csv(str(path))
    assert path.read_text().splitlines() == lines
    # the summary's CSV: one row per estimate
    buf = io.StringIO()
    r.summary().to_csv(buf)
    rows = {row.split(",")[0]: row.split(",") for row in buf.getvalue().splitlines()}
    assert rows["statistic"] == ["statistic", "value", "low", "high", "count", "n"]
    assert rows["win_rate_A"][1] == "0.6" and rows["win_rate_A"][4:] == ["6", "10"]
    assert float(rows["mean_moves"][1]) == 23.0 and rows["end_passes"][4] == "1"


# -- matches ---------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", sorted(MATCH_FORMATS))
def test_matches(fmt):
    need, slots = MATCH_FORMATS[fmt].wins, MATCH_FORMATS[fmt].slots
    r = cuttle.simulate(400, players=("random", "random"), seed=3, match=fmt, progress=False,
                        keep_games=True)
    m = r.matches
    assert r.match == fmt and r.n_matches == len(m) == 400 and m.slots == slots
    assert m.games.sum() == r.n_games
    decided = m.winner >= 0
    assert (m.wins[decided, m.winner[decided]] == need).all()
    assert (m.wins.max(axis=1)[~decided] < need).all()
    assert ((m.games >= need) & (m.games <= slots)).all()
    # A starts even-numbered matches, and the first player alternates within a match
    assert np.array_equal(m.first, np.arange(400) % 2)
    match_of = r.game_index // slots
    slot = r.game_index % slots
    assert np.array_equal(r.first, (match_of + slot) % 2)
    # the games are the run's games at those indices (same deals as single games)
    plain = cuttle.simulate(400 * slots, players=("random", "random"), seed=3, progress=False,
                            keep_games=True)
    for k in FIELDS:
        assert np.array_equal(getattr(r, k), getattr(plain, k)[r.game_index]), k
    # per-match wins agree with the games
    a_wins = np.bincount(match_of, weights=(r.winner == 0), minlength=400)
    assert np.array_equal(a_wins.astype(int), m.wins[:, 0])
    # chunking does not matter
    again = cuttle.simulate(400, players=("random", "random"), seed=3, match=fmt,
                            chunk_size=50, threads=1, progress=False, keep_games=True)
    assert np.array_equal(again.matches.winner, m.winner) and same_games(again, r)
    s = r.summary()
    k = int((m.winner == 0).sum())
    assert s.match_win_rate("A") == wilson_interval(k, 400)
    assert "wins the match" in str(s)
    assert json.loads(json.dumps(s.as_dict()))["match"]["n_matches"] == 400


def test_matches_without_swap():
    r = cuttle.simulate(60, seed=4, match="best_of_3", swap_seats=False, progress=False,
                        keep_games=True)
    assert r.matches.slots == MATCH_FORMATS["best_of_3"].slots + 1
    assert (r.matches.first == 0).all()
    slot = r.game_index % r.matches.slots
    assert np.array_equal(r.first, slot % 2)


def test_greedy_wins_matches_more_often_than_games():
    r = cuttle.simulate(2000, players=("greedy", "random"), seed=9, match="best_of_3",
                        progress=False, keep_games=True)
    s = r.summary()
    assert s.match_win_rate("A").value > s.win_rate("A").value > 0.8


# -- Python players --------------------------------------------------------------------

def first_legal(game):
    return game.legal_moves[0]


def test_callable_players_are_reproducible():
    r1 = cuttle.simulate(12, players=(first_legal, "random"), seed=21, progress=False,
                         keep_games=True)
    r2 = cuttle.simulate(12, players=(first_legal, "random"), seed=21, chunk_size=5,
                         progress=False, keep_games=True)
    assert r1.players == ("first_legal", "random")
    assert same_games(r1, r2)
    assert np.array_equal(r1.first, np.arange(12) % 2)
    r3 = cuttle.simulate(12, players=(first_legal, "random"), seed=22, progress=False,
                         keep_games=True)
    assert not same_games(r1, r3)


def test_callable_with_rng_and_greedy_port():
    def rand(game, rng):
        moves = game.legal_moves
        return moves[rng.randrange(len(moves))]

    r1 = cuttle.simulate(6, players=(rand, "greedy"), seed=1, progress=False, keep_games=True)
    r2 = cuttle.simulate(6, players=(rand, "greedy"), seed=1, progress=False, keep_games=True)
    assert same_games(r1, r2)
    assert (r1.winner == 1).sum() >= 4
    assert ((r1.winner >= 0) | (r1.end != 1)).all()
    m = cuttle.simulate(5, players=(rand, first_legal), seed=2, match="best_of_3",
                        progress=False, keep_games=True)
    assert (m.matches.games >= 2).all() and m.n_games == m.matches.games.sum()


def test_python_matches_play_only_the_games_needed():
    def rand(game, rng):
        moves = game.legal_moves
        return moves[rng.randrange(len(moves))]

    fmt = MATCH_FORMATS["best_of_3"]
    r = cuttle.simulate(6, players=(rand, first_legal), seed=2, match="best_of_3",
                        chunk_size=10, progress=False, keep_games=True)
    m = r.matches
    assert m.n_matches == 6 and r.n_games == m.games.sum()
    # match j plays its slots j*K, j*K+1, ... in order and stops once it is decided
    starts = np.concatenate([[0], np.cumsum(m.games)[:-1]])
    for j in range(6):
        idx = r.game_index[starts[j]:starts[j] + m.games[j]]
        assert np.array_equal(idx, j * fmt.slots + np.arange(m.games[j]))
        w = r.winner[starts[j]:starts[j] + m.games[j]]
        wins = (int((w == 0).sum()), int((w == 1).sum()))
        assert wins == tuple(m.wins[j])
        if m.winner[j] >= 0:
            assert wins[m.winner[j]] == fmt.wins and w[-1] == m.winner[j]
        else:
            assert m.games[j] == fmt.slots and max(wins) < fmt.wins
    # each game is the game of that index in a single-game run
    plain = cuttle.simulate(6 * fmt.slots, players=(rand, first_legal), seed=2,
                            progress=False, keep_games=True)
    for k in FIELDS:
        assert np.array_equal(getattr(r, k), getattr(plain, k)[r.game_index]), k


def test_bad_callables():
    """Each fault of a callable is a PolicyError, the fault its cause (in
    test_python_players.py, with the games kept)."""
    with pytest.raises(cuttle.PolicyError, match="illegal move") as info:
        cuttle.simulate(2, players=(lambda g: "scuttle AS 2C", "random"), seed=1,
                        progress=False, keep_games=True)
    assert isinstance(info.value.__cause__, IllegalMoveError)

    def cheat(game):
        game.play(game.legal_moves[0])
        return game.legal_moves[0]

    with pytest.raises(RuntimeError, match="changed the game"):
        cuttle.simulate(2, players=(cheat, "random"), seed=1, progress=False, keep_games=True)

    def rewrite_history(game):
        # undo the opponent's last move and make a different one: same ply, new position
        if game.ply:
            last = game.undo()
            others = [m for m in game.legal_moves if m != last]
            game.play(others[0] if others else last)
        return game.legal_moves[0]

    with pytest.raises(cuttle.PolicyError, match="changed the game"):
        cuttle.simulate(2, players=(rewrite_history, "random"), seed=1, progress=False)
    with pytest.raises(cuttle.PolicyError, match="player B in game 0, deciding move "
                                                 r"\d+, returned no move"):
        cuttle.simulate(2, players=("random", lambda g: None), seed=1, progress=False,
                        keep_games=True)


class FailsAt:
    """A seeded random policy that raises KeyError at its `n`-th call."""

    def __init__(self, n):
        self.n, self.calls = n, 0

    def __call__(self, game, rng):
        self.calls += 1
        if self.calls == self.n:
            raise KeyError("no such card")
        return rng.choice(list(game.legal_moves))


def test_a_policy_that_raises_names_its_game_and_keeps_the_games_before(tmp_path):
    """A Python policy's exception ended the run with the bare exception: no game, no
    player, and the finished games lost.  Now a PolicyError names both (the exception
    its cause), and carries the games before it, as Ctrl-C's Interrupted does; the
    games CSV keeps their rows."""
    path = tmp_path / "games.csv"
    with pytest.raises(cuttle.PolicyError) as info:
        cuttle.simulate(300, players=("greedy", FailsAt(700)), seed=3, progress=False,
                        games_csv=str(path))
    e = info.value
    assert isinstance(e.__cause__, KeyError) and e.player == "B"
    assert re.fullmatch(r"the policy of player B raised KeyError in game \d+, deciding "
                        r"move \d+: 'no such card'", str(e)), str(e)
    assert 0 < e.done == e.game < 300 and e.total == e.requested == 300 and e.unit == "game"
    assert e.result.n_games == e.done
    with open(path) as f:
        assert sum(1 for _ in f) == e.done + 1
    # the games kept are those a run of that many games plays
    whole = cuttle.simulate(e.done, players=("greedy", FailsAt(0)), seed=3, progress=False)
    assert e.result.tally == whole.tally
    assert e.partial().result is e.result


def test_a_policy_that_raises_in_a_comparison_or_a_match_run_keeps_its_units():
    with pytest.raises(cuttle.PolicyError) as info:
        cuttle.compare(["classic", "cuttle.cards"], 100, players=(FailsAt(900), "random"),
                       seed=5, progress=False)
    e = info.value
    assert e.player == "A" and 0 < e.done <= e.game and e.result.n_games == e.done
    assert type(e.result).__name__ == "ComparisonResult"
    with pytest.raises(cuttle.PolicyError) as info:
        cuttle.simulate(40, players=(FailsAt(300), "greedy"), match="best_of_3", seed=5,
                        progress=False)
    assert info.value.unit == "match" and 0 < info.value.done < 40


class ThreeArguments:
    """A callable player of neither form, policy(game) nor policy(game, rng): it takes
    three arguments, and counts its calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, game, rng, extra):
        self.calls += 1
        return game.legal_moves[0]


FORMS = r"a callable policy\(game\) -> move or policy\(game, rng\) -> move"


@pytest.mark.parametrize("run_with", ["simulate", "compare"])
@pytest.mark.parametrize("seat", [0, 1])
def test_a_callable_player_of_neither_form_is_refused_before_any_game(tmp_path, run_with,
                                                                      seat):
    """A callable taking no argument, or three, or no callable at all, is refused up
    front, naming the player and the two forms (it was found only when first called,
    inside the first game, as a TypeError of its own arguments); nothing is played or
    written."""
    three = ThreeArguments()
    for bad, says in ((lambda: 0, "signature ()"), (lambda a, b, c: 0, "signature (a, b, c)"),
                      (three, "signature (game, rng, extra)"), (object(), "not <object")):
        players = [bad, "random"] if seat == 0 else ["random", bad]
        games_csv = tmp_path / "games.csv"
        kw = dict(players=players, seed=1, progress=False, games_csv=str(games_csv))
        with pytest.raises(ValueError) as e:
            if run_with == "simulate":
                cuttle.simulate(4, **kw)
            else:
                cuttle.compare(["classic", "quick"], 4, **kw)
        message = str(e.value)
        assert message.startswith(f"player {'AB'[seat]} must be ") and says in message
        assert re.search(FORMS, message), message
        assert not games_csv.exists()
    assert three.calls == 0


# -- progress ---------------------------------------------------------------------------

def test_progress_callback_and_bars(capsys, monkeypatch):
    calls = []
    cuttle.simulate(1000, seed=1, chunk_size=300, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(300, 1000), (600, 1000), (900, 1000), (1000, 1000)]
    cuttle.simulate(100, seed=1, progress=False, keep_games=True)
    assert capsys.readouterr().err == ""
    monkeypatch.setitem(sys.modules, "tqdm", None)          # the plain fallback bar
    cuttle.simulate(100, seed=1, progress=True)
    err = capsys.readouterr().err
    assert "simulate |" in err and "100/100" in err and "games/s" in err and "ETA 0:00" in err


# -- compare ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def comparison():
    return cuttle.compare(["classic", cuttle.Rules(four="draw"), "quick"], 2000,
                          players=("random", "greedy"), seed=8, progress=False, keep_games=True)


def with_repeats(rule_sets, n, seed, match=None, start=0):
    """The comparison of `rule_sets`, which repeat one (classic compared with itself), as
    `compare` would play it but refuses to (it plays the same games twice), built by its
    runner: the differences of games that do not differ.  Random against greedy, the
    games kept."""
    from cuttle.simulation.names import DEFAULT_MAX_MOVES
    from cuttle.simulation.players import resolve_players
    from cuttle.simulation.runner import Plan, play_chunk
    rule_sets = [cuttle.Rules.coerce(r) for r in rule_sets]
    plan = Plan(rule_sets, resolve_players(("random", "greedy")), seed, True,
                DEFAULT_MAX_MOVES, match, 0, True, labels=[str(r) for r in rule_sets])
    return play_chunk(plan, start, n)


def test_compare_uses_common_random_numbers(comparison):
    c = comparison
    assert len(c) == 3 and c.seed == 8 and c.n_games == 2000
    assert c.labels == ["classic", "classic: four=draw", "quick"]
    base = cuttle.simulate(2000, players=("random", "greedy"), seed=8, progress=False,
                           keep_games=True)
    assert same_games(c[0], base)
    # the same rules on the same deals: no difference at all, and yet an interval of
    # some width (2,000 games do not make a shift certain: it was [0, 0] for lengths)
    twice = with_repeats(["classic", "classic"], 2000, 8)
    assert same_games(twice[0], base) and same_games(twice[1], base)
    for metric in twice.metrics:
        d = twice.difference(metric, 1)
        assert d.value == 0 and d.low < 0 < d.high
        assert d.high - d.low < (0.01 if SUMMARY[metric].kind == "rate" else 0.2)
    # a real difference: four=draw changes the games
    assert not np.array_equal(c[1].moves, c[0].moves)


def test_compare_difference_by_hand(comparison):
    c = comparison
    x1, x0 = c[1].winner == 0, c[0].winner == 0
    both = int((x1 & x0).sum())
    only1, only0 = int(x1.sum()) - both, int(x0.sum()) - both
    expected = newcombe_paired_interval(both, only1, only0, 2000 - both - only1 - only0)
    assert c.difference("win_rate_A", 1) == expected
    assert c.estimate("win_rate_A", 1) == wilson_interval(int(x1.sum()), 2000)
    d = c.difference("mean_moves", 1)
    assert d.value == pytest.approx(c[1].moves.mean() - c[0].moves.mean())
    p = paired_length_shift(c[1].moves, c[0].moves)                    # per-deal differences
    assert d == pytest.approx(p, rel=1e-12)
    assert c.difference("win_rate_A", 0, baseline=1).value == pytest.approx(-expected.value)
    with pytest.raises(ValueError, match="unknown metric"):
        c.difference("elo", 1)


def test_compare_outputs(comparison, tmp_path):
    c = comparison
    text = str(c)
    for piece in ("3 rule sets", "2,000 games each", "[2] classic: four=draw", "vs [1]",
                  "A (random) wins", "first mover wins", "moves per game"):
        assert piece in text, piece
    d = json.loads(json.dumps(c.as_dict()))
    assert d["seed"] == 8 and len(d["rule_sets"]) == 3
    assert d["rule_sets"][0]["difference_vs_baseline"] is None
    assert d["rule_sets"][1]["changed"] == {"four": "draw"}
    assert d["schema_version"] == 2
    assert set(d["rule_sets"][1]["difference_vs_baseline"]) == set(c.metrics)
    # the intervals of the differences are named, as the text's note names them
    assert d["interval_methods"]["rate differences"] == "newcombe (paired)"
    assert d["interval_methods"]["mean differences"].startswith(
        "normal, paired differences, a pseudo-difference")
    buf = io.StringIO()
    c.to_csv(buf)
    rows = buf.getvalue().splitlines()
    assert rows[0] == "rule_set,label,metric,value,low,high,diff,diff_low,diff_high,statistic"
    assert len(rows) == 1 + 3 * len(c.metrics)
    pytest.importorskip("matplotlib")
    png = tmp_path / "cmp.png"
    c.plot(str(png))
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_one_vocabulary_and_the_old_names(comparison, tmp_path):
    c = comparison
    s = c[1].summary()
    # the comparison's metrics are the summary's figures, by the same names
    assert c.metrics == ("win_rate_A", "win_rate_B", "draw_rate", "first_mover_win_rate",
                         "first_player_advantage", "first_score", "score_A", "score_B",
                         "mean_moves", "mean_turns")
    for m in c.metrics:
        assert c.estimate(m, 1) == s.estimate(m)
    # the old names still work where they are passed, with a warning, for one release
    for old, new in (("win_A", "win_rate_A"), ("first_mover", "first_mover_win_rate"),
                     ("moves", "mean_moves"), ("draw", "draw_rate")):
        with pytest.warns(DeprecationWarning, match=f"now called '{new}'"):
            assert c.difference(old, 1) == c.difference(new, 1)
        with pytest.warns(DeprecationWarning):
            assert c.estimate(old, 1) == c.estimate(new, 1)
        with pytest.warns(DeprecationWarning):
            assert c.metric_label(old) == c.metric_label(new)
        with pytest.warns(DeprecationWarning):           # and as keys of the JSON form
            assert c.as_dict()["rule_sets"][1]["difference_vs_baseline"][old] == \
                c.difference(new, 1).as_dict()
    with pytest.warns(DeprecationWarning):
        assert s.estimate("first_mover") == s.seat_win_rate("first")
    with pytest.warns(DeprecationWarning):
        assert c.pairs[(0, 1)].cells("win_A") == c.pairs[(0, 1)].cells("win_rate_A")
    # `metrics` is a property; calling it, as a method, warns and gives the old names
    with pytest.warns(DeprecationWarning, match="property"):
        assert c.metrics() == ("win_A", "win_B", "draw", "first_mover", "moves", "turns")
    # the CSV keeps the old names in "metric" and adds the new ones in "statistic" (a
    # figure compared since, the first-player advantage, has its name in both)
    path = tmp_path / "c.csv"
    c.to_csv(path)
    rows = list(csv.DictReader(open(path)))
    assert [(r["metric"], r["statistic"]) for r in rows[::3]] == list(
        zip(("win_A", "win_B", "draw", "first_mover", "first_player_advantage",
             "first_score", "score_A", "score_B", "moves", "turns"), c.metrics))
    # a JSON file holds the new names only
    keys = json.loads(json.dumps(c.as_dict()))["rule_sets"][1]["difference_vs_baseline"]
    assert list(keys) == list(c.metrics)


def test_the_first_players_score_is_in_summaries_and_comparisons():
    # The balance designer's measure (the first player's wins plus half the draws) is the
    # summary's and the comparison's figure of the same name, one figure, and its shift
    # between rule sets is the mean of the per-game shifts of that score.
    from cuttle.figures import BALANCE
    from cuttle.stats import score_shift_interval
    assert BALANCE["first_score"] is SUMMARY["first_score"]
    c = cuttle.compare(["classic", "quick"], 1500, ("random", "random"), seed=3,
                       progress=False, keep_games=True)
    scores = []
    for r in c.results:
        won = (r.winner == r.first).astype(float)
        per_game = won + (r.winner == -1) / 2
        scores.append(per_game)
        s = r.summary()
        assert "first_score" in s.figures
        assert s.estimate("first_score").value == pytest.approx(per_game.mean())
        assert s.as_dict()["first_score"]["value"] == pytest.approx(per_game.mean())
        assert "first player's score" in str(s)
    d = scores[1] - scores[0]
    expected = score_shift_interval(len(d), d.sum(), (d * d).sum())
    assert c.difference("first_score", 1) == pytest.approx(expected)
    assert c.difference("first_score", 1).value == pytest.approx(
        c.difference("first_player_advantage", 1).value / 2)
    assert "first player's score" in str(c)
    assert c.as_dict()["rule_sets"][1]["difference_vs_baseline"]["first_score"] == \
        c.difference("first_score", 1).as_dict()
    assert c.difference("first_score", 0).value == 0


def test_comparison_repr(comparison):
    r = repr(comparison)
    assert r == ("<ComparisonResult 3 rule sets, 2,000 games each on the same deals, "
                 "A=random B=greedy, seed=8: classic | classic: four=draw | quick>")


def test_a_joker_rule_set_shares_no_deal_and_the_comparison_says_so(capsys):
    # Game i is dealt from one stream of the seed: rule sets shuffling as many cards
    # share it (the deal flag cuts it at other hand sizes), but the joker's 53 cards
    # are shuffled otherwise, so its deals share nothing with a 52-card rule set's and
    # its pairing by game index gains nothing; the text (and the command) says so.
    def deal(rules, i):
        g = cuttle.Game.from_run(rules, seed=3, index=i)
        return set(g.hand(0)), set(g.hand(1)), list(g.deck)

    base, joker = cuttle.Rules(), cuttle.Rules(joker=True)
    assert (base.n_cards, joker.n_cards) == (52, 53)
    for i in range(20):
        b = deal(base, i)
        assert deal(cuttle.Rules("cuttle.cards", hand_limit=7, four="random"), i) == b
        six = deal(base.replace(deal=(6, 6)), i)       # the same shuffle, cut elsewhere
        assert six[0] > b[0] and six[0] - b[0] <= b[1] and six[2] == b[2][1:]
        j = deal(joker, i)
        assert j[2] != b[2][:len(j[2])] and j[0] != b[0]
    c = cuttle.compare(["classic", "cuttle.cards", "classic: joker=true"], 3000,
                       players="greedy", seed=1, progress=False, keep_games=True)
    assert c.other_deals == (2,)
    agree = [float((c[i].winner == c[0].winner).mean()) for i in (1, 2)]
    assert agree[0] > 0.9 and agree[1] < 0.6           # 0.5 by chance
    text = str(c)
    assert "the same seed and game indices (seed 1)" in text and "same deals" not in text
    note = ("note: [3] deals from 53 cards (joker), [1] from 52: no deal in common, "
            "paired by game index only")
    assert text.splitlines()[5] == note and text.count("note:") == 1
    assert "the same seed and game indices" in repr(c)
    from cuttle.cli import main
    assert main(["compare", "classic", "classic:joker=true", "-n", "100",
                 "--players", "greedy", "--seed", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "note: [2] deals from 53 cards (joker), [1] from 52" in out
    assert "no deal in common" not in str(cuttle.compare(["classic", "classic: deal=6,6"],
                                                         100, seed=1, progress=False))
    c = cuttle.compare(["classic: joker=true", "classic", "quick"], 100, seed=1,
                       progress=False)
    assert c.other_deals == (1, 2) and \
        "note: [2], [3] deal from 52 cards (no joker), [1] from 53" in str(c)


def test_a_rule_set_of_other_hand_sizes_is_partly_paired_and_the_comparison_says_so(capsys):
    # deal= cuts the same shuffles elsewhere: the title said "the same deals" and no note
    # said otherwise, where the joker's no deal in common had its note.
    from cuttle.cli import main
    from cuttle.report import comparison_page
    assert main(["compare", "--vary", "deal=(6,6),(5,5)", "-n", "200", "--players",
                 "greedy", "--seed", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    cut = ("note: [2] cuts the same shuffles as [1] at other hand sizes: the hands differ, "
           "the deck below the cut is alike; partly paired")
    assert out.splitlines()[0] == ("cuttle comparison: 2 rule sets, 200 games each, the "
                                   "same shuffles (seed 1)")
    assert out.splitlines()[4] == cut and out.count("note:") == 1
    assert "same deals" not in out and "per-deal" not in out and "(same game indices)" in out
    c = cuttle.compare(["classic", "classic: deal=6,6", "classic: joker=true",
                        "classic: four=random", "classic: deal=6,5"], 100, seed=1,
                       progress=False)
    assert c.deal_relations == ("same", "cut", "other", "same", "cut") and c.deals == "other"
    assert (c.cut_deals, c.other_deals) == ((1, 4), (2,))
    lines = str(c).splitlines()
    assert lines[7:9] == [
        "note: [3] deals from 53 cards (joker), [1] from 52: no deal in common, paired by "
        "game index only",
        "note: [2], [5] cut the same shuffles as [1] at other hand sizes: the hands differ, "
        "the deck below the cut is alike; partly paired"]
    for shown in (c._repr_html_(), comparison_page(c)):
        assert "[2], [5] cut the same shuffles as [1]" in shown and "[3] deals from 53" in shown
    d = json.loads(json.dumps(c.as_dict()))
    assert d["deals"] == "other" and \
        [r["deals_vs_baseline"] for r in d["rule_sets"]] == [None, "cut", "other", "same", "cut"]
    # on a joker baseline another joker deal is cut from the same 53-card shuffles
    c = cuttle.compare(["classic: joker=true", "classic: joker=true, deal=4,4"], 100,
                       seed=1, progress=False)
    assert c.deals == "cut" and "the same shuffles (seed 1)" in str(c) and \
        "on the same shuffles" in repr(c) and "the same shuffles" in comparison_page(c)
    assert c.as_dict()["deals"] == "cut"
    c = cuttle.compare(["classic", "cuttle.cards"], 100, seed=1, progress=False)
    assert c.deals == "same" and "note:" not in str(c) and "the same deals (seed 1)" in str(c)
    assert [r["deals_vs_baseline"] for r in c.as_dict()["rule_sets"]] == [None, "same"]


def test_an_end_share_reads_0_or_100_percent_only_when_it_is():
    # 1 game of 40,000 ended by passes: "goal 100.00%, passes 0.00%" said that none did.
    from cuttle.report import simulation_page
    s = cuttle.simulate(40_000, players="greedy", seed=5, progress=False).summary()
    assert dict(zip(END_NAMES, s.end_counts.tolist())) == \
        {"none": 0, "goal": 39_999, "passes": 1, "sudden_death": 0, "move_cap": 0}
    line = "games ended by: goal 99.997%, passes 0.003%"
    assert line in str(s).splitlines() and line in s._repr_html_()
    page = simulation_page(s)
    assert "goal: 99.997%</title>" in page and ">passes 0.003%</text>" in page


def test_compare_matches():
    c = cuttle.compare(["classic", "quick"], 200, seed=4, match="first_to_3", progress=False,
                       keep_games=True)
    assert c.n_games == c.n_matches == 200 and "match_win_rate_A" in c.metrics
    assert (c.unit, c.units) == ("match", "matches")
    # (each rule set's games: at least 3 a match of first to 3)
    assert len(list(c)) == 2 and all(r.n_games >= 3 * c.n_matches for r in c)
    assert "200 matches each" in str(c) and "wins the match" in str(c)
    assert json.loads(json.dumps(c.as_dict()))["unit"] == "matches"
    # match outcomes pair up by match index ...
    x1, x0 = c[1].matches.winner == 0, c[0].matches.winner == 0
    both = int((x1 & x0).sum())
    only1, only0 = int(x1.sum()) - both, int(x0.sum()) - both
    assert c.difference("match_win_rate_A", 1) == \
        newcombe_paired_interval(both, only1, only0, 200 - both - only1 - only0)
    # ... the games played differ, but match k is played on the same deals under both,
    # so game-level differences take the match as the unit (they treated the games as
    # independent samples)
    assert c[0].n_games != c[1].n_games
    slots = MATCH_FORMATS["first_to_3"].slots
    m1, m0 = c[1].game_index // slots, c[0].game_index // slots
    g1, g0 = c[1].winner == 0, c[0].winner == 0
    assert c.difference("win_rate_A", 1) == pytest.approx(
        match_paired_difference(g1, m1, g0, m0, 200, 1), rel=1e-9)
    assert c.difference("win_rate_A", 1) != newcombe_interval(int(g1.sum()), len(g1),
                                                              int(g0.sum()), len(g0))
    step = math.sqrt(c[1].moves.var(ddof=1) + c[0].moves.var(ddof=1))
    assert c.difference("mean_moves", 1) == pytest.approx(
        match_paired_difference(c[1].moves, m1, c[0].moves, m0, 200, step), rel=1e-9)
    first = [r.winner == r.first for r in (c[1], c[0])]
    assert c.difference("first_mover_win_rate", 0, baseline=1) == pytest.approx(
        match_paired_difference(first[1], m0, first[0], m1, 200, 1), rel=1e-9)


def test_compare_errors():
    with pytest.raises(ValueError, match="at least two"):
        cuttle.compare(["classic"], 10)
    with pytest.raises(ValueError):
        cuttle.compare("classic", 10)
    with pytest.raises(ValueError, match="unknown preset"):
        cuttle.compare(["classic", "nope"], 10)
    with pytest.raises(ValueError, match="labels"):
        cuttle.compare(["classic", "quick"], 10, labels=["x"])
    with pytest.raises(ValueError, match="n_games"):
        cuttle.compare(["classic", "quick"], 0)


def test_exports():
    assert cuttle.simulate is not None and cuttle.compare is not None
    for name in ("simulate", "compare", "wilson_interval", "Game", "Rules"):
        assert name in cuttle.__all__


def test_a_callable_plays_against_a_native_policy_on_native_deals():
    def rand(game, rng):
        moves = game.legal_moves
        return moves[rng.randrange(len(moves))]

    r = cuttle.simulate(20, players=(rand, "greedy"), seed=6, progress=False, keep_games=True)
    assert (r.winner == 1).sum() >= 14
    again = cuttle.simulate(20, players=(rand, "greedy"), seed=6, progress=False, keep_games=True)
    assert same_games(r, again)


def test_python_games_are_dealt_like_native_games():
    from cuttle._play import play_batch
    from support.native import random_playout
    seen = []

    def first_move(game):
        if not seen or seen[-1][0] is not game:
            seen.append((game, list(game.hand(game.to_move))))
        return game.legal_moves[0]

    cuttle.simulate(1, players=(first_move, first_move), seed=9, progress=False, keep_games=True)
    deal = cuttle.Game.from_run(seed=9, index=0)
    assert cuttle.Game.from_run(seed=9, index=5).hand(0) != deal.hand(0)
    assert seen[0][1] == deal.hand(0)
    # Native game 0 of seed 9 is that deal played with the random policy on stream 1:
    # replaying its draws on a Game, move by move, gives the very same game.
    d = play_batch(cuttle.Rules(), 0, 1, 9, 0, 0, False, 1)
    n = random_playout(deal, 9)
    assert n == d["moves"][0] and deal.winner == d["winner"][0]
    assert (deal.score(0), deal.score(1)) == tuple(d["scores"][0])


def test_adaptive_chunks_do_not_change_results(run):
    calls = []
    r = cuttle.simulate(3000, players=("random", "greedy"), seed=11, keep_games=True,
                        progress=lambda d, t: calls.append(d))
    assert same_games(r, run)
    assert calls[0] == 64 and calls[-1] == 3000 and len(calls) > 3


def test_one_progress_line(capsys, monkeypatch):
    # the one hand-written progress line (cuttle.progress.Line) of simulations and the
    # atlas: rewritten in place on a terminal, else only its final texts, one a line
    from cuttle.progress import Line
    line = Line(inplace=True, every=3600)
    line.show("first")
    line.show("second")                       # too soon: not drawn
    line.show("third, longer", final=True)
    line.show("x", final=True)
    line.clear()
    assert capsys.readouterr().err == ("\rfirst\rthird, longer\rx" + " " * 12
                                       + "\r" + " " * 13 + "\r")
    line = Line(inplace=False)
    line.show("not shown")
    line.show(lambda: "made only when shown", final=True)
    assert capsys.readouterr().err == "made only when shown\n"


def test_a_note_goes_on_a_line_of_its_own_above_the_progress_line(capsys):
    # What a run says while its progress stands still (a cluster without workers):
    # a line of its own, the progress line in place wiped first and drawn again at its
    # next update; and with no progress line showing, the note alone.
    from cuttle.progress import Line, note
    line = Line(inplace=True, every=0)
    line.show("simulate 10%")
    note("cuttle: waiting")
    line.show("simulate 20%")
    line.clear()
    note("cuttle: again")
    assert capsys.readouterr().err == ("\rsimulate 10%\r" + " " * 12 + "\rcuttle: waiting\n"
                                       "\rsimulate 20%\r" + " " * 12 + "\rcuttle: again\n")


def test_a_note_goes_above_a_tqdm_bar(capsys):
    pytest.importorskip("tqdm")
    from cuttle.progress import Progress, note
    bar = Progress(100, True, "simulate")
    bar.update(10)
    note("cuttle: waiting")
    bar.close()
    before, _, after = capsys.readouterr().err.partition("cuttle: waiting\n")
    assert before.endswith(" \r") and "simulate:  10%" in after      # (wiped, drawn again)


@pytest.mark.parametrize("players", [("random", "greedy"), ("random", lambda g: g.legal_moves[0])])
@pytest.mark.parametrize("cap", [1, 2, 3])
def test_a_capped_game_counts_the_turns_it_played(players, cap):
    # A turn with no move yet (the cap fell as it began) is not a turn played: one move
    # is one turn, two moves are one or two turns, and so on.
    r = cuttle.simulate(400, players=players, seed=5, max_moves=cap, progress=False,
                        keep_games=True, threads=1)
    capped = r.end == END_NAMES.index("move_cap")
    assert capped.all() or cap > 1
    assert (r.turns[capped] >= 1).all() and (r.turns[capped] <= r.moves[capped]).all()
    if cap == 1:
        assert (r.turns == 1).all()


def test_a_game_capped_by_its_max_moves_counts_the_turns_it_played():
    g = cuttle.Game(seed=1, max_moves=5)
    for _ in range(5):
        g.play("draw")
    assert g.is_over and g.end_reason == "move_cap" and g.turn_number == 5
    # a cap falling inside a turn (the one-off's counter window): that turn counts
    g = cuttle.Game(seed=3, max_moves=2)
    g.play("draw")
    g.play(next(m for m in g.legal_moves if m.verb == "oneoff"))
    assert g.is_over and g.turn_number == 2


def test_a_match_comparison_names_its_game_intervals():
    # With matches the games played differ between rule sets; their differences take
    # the match as the unit, and the JSON says so
    c = cuttle.compare(["classic", "quick"], 30, ("random", "greedy"), seed=3,
                       match="best_of_3", progress=False)
    methods = json.loads(json.dumps(c.as_dict()))["interval_methods"]
    assert methods["match rate differences"] == "newcombe (paired)"
    assert methods["rate differences"].startswith("normal, paired by match")
    assert methods["mean differences"].startswith("normal, paired by match")
    assert "the match as the unit" in str(c)


def test_a_match_comparison_pairs_the_games_of_the_same_deals():
    # The same rules twice: every match plays the same games, and the game-level
    # differences are 0 with a narrow interval (the independent-samples interval was
    # as wide as two unrelated runs'), yet not [0, 0]
    c = with_repeats(["classic", "classic", "quick"], 400, 5, match="best_of_3")
    for metric in ("win_rate_A", "draw_rate", "first_mover_win_rate", "mean_moves"):
        f = SUMMARY[metric]
        d = c.difference(metric, 1)
        apart = independent_difference(f, c[1].summary(), c[0].summary())
        assert d.value == 0 and d.low < 0 < d.high
        # (draws are rare: both widths are then about the rule of three's)
        assert d.high - d.low < (0.8 if metric == "draw_rate" else 0.3) * \
            (apart.high - apart.low), metric
    # a comparison pickled before the match sums were tallied reads as it did
    old = pickle.loads(pickle.dumps(c))
    for pair in old.pairs.values():
        pair.__setstate__(pair.__getstate__()[:2])
    assert old.difference("win_rate_A", 2) == independent_difference(
        SUMMARY["win_rate_A"], c[2].summary(), c[0].summary())
    assert c.difference("win_rate_A", 2) != old.difference("win_rate_A", 2)
    # merged halves pair up as the whole run
    halves = with_repeats(["classic", "classic", "quick"], 200, 5, match="best_of_3") + \
        with_repeats(["classic", "classic", "quick"], 200, 5, match="best_of_3", start=200)
    assert halves.difference("mean_moves", 2) == pytest.approx(c.difference("mean_moves", 2))
    assert halves.difference("draw_rate", 0, 2) == pytest.approx(c.difference("draw_rate", 0, 2))


def test_the_progress_line_names_a_match_run_in_the_plural(monkeypatch):
    # (it said "matchs/s")
    import cuttle.progress
    monkeypatch.setitem(sys.modules, "tqdm", None)         # the hand-written line
    bar = cuttle.progress.Progress(10, True, desc="simulate", unit="match")
    bar.done = 4
    text = bar._text()
    assert "4/10 matches" in text and " matches/s" in text and "matchs" not in text


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals")
@pytest.mark.parametrize("sigint", ["default", "ignored"])
def test_a_script_inside_sigterm_as_ctrl_c_keeps_its_finished_games_at_sigterm(sigint):
    # As the README and cuttle.interrupts.sigterm_as_ctrl_c say for a library call under
    # a job scheduler (also in a script's background job, where SIGINT is ignored): the
    # run stops, and the call raises Interrupted with the games that finished.
    code = textwrap.dedent(f"""
        import os, signal, threading
        import cuttle
        from cuttle.interrupts import sigterm_as_ctrl_c
        if {sigint!r} == "ignored":
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGTERM)).start()
        with sigterm_as_ctrl_c() as terminated:
            try:
                cuttle.simulate(10**9, players=("expert", "greedy"), seed=1, threads=1)
            except cuttle.Interrupted as e:
                print("interrupted", e.result.n_games > 0, bool(terminated))
    """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0 and p.stdout.split() == ["interrupted", "True", "True"], \
        p.stdout + p.stderr
