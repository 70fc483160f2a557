"""`cuttle.simulation.game_record`: game K of a seeded run as a game record, whose moves
replay to exactly the game the run tallied (its per-game row), whatever the threads and
for every kind of player (a Python one's record the run's game when it chooses from the
game and its rng alone); and `_play.play_logged`, the core's game with its moves."""

import json
import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cuttle
from cuttle._core import END_NAMES
from cuttle._play import play_batch, play_logged
from cuttle.formatting import quantity
from cuttle.policies import policy_code
from cuttle.record import final_game, read_record, validate_record, write_record
from cuttle.simulation import game_record

# players, rules, seed, the game indices recorded (odd and even: both seatings)
CASES = [
    (("random", "greedy"), "classic", 7, [0, 1, 2, 13, 38]),
    (("expert", "greedy"), "cuttle.cards", 11, [0, 3, 6, 17]),
    (("greedy", "cuttle.cards-ai"), "classic: four=random", 3, [1, 2, 9, 24]),
    (("expert", "random"), "cuttle.cards: four=random", 5, [0, 5, 12, 31]),
    (("ismcts:50", "expert"), "classic", 2, [0, 3, 4]),
    (("cuttle.cards-ai", "ismcts:50"), "cuttle.cards: four=random", 9, [1, 2]),
]


def outcome(game):
    """A finished game as the record replays it: by seat."""
    return (game.winner, game.ply, game.turn_number, game.end_reason,
            (game.score(0), game.score(1)))


def tallied(res, i):
    """Game i's per-game row of a run kept with keep_games, turned to seats."""
    a = int(res.first[i])                      # player A's seat (0 moves first)
    w = int(res.winner[i])
    scores = [int(s) for s in res.scores[i]]   # A, B
    return (None if w < 0 else w ^ a, int(res.moves[i]), int(res.turns[i]),
            END_NAMES[res.end[i]], (scores[a], scores[a ^ 1]))


@pytest.mark.parametrize("swap", [True, False])
@pytest.mark.parametrize("players, rules, seed, indices", CASES)
def test_the_record_replays_to_the_game_the_run_tallied(players, rules, seed, indices, swap):
    runs = [cuttle.simulate(max(indices) + 1, rules, players, seed=seed, threads=threads,
                            swap_seats=swap, keep_games=True, progress=False)
            for threads in (1, 2)]
    for i in indices:
        rec = game_record(players, rules, seed=seed, index=i, swap_seats=swap)
        game = final_game(rec)
        for res in runs:
            assert outcome(game) == tallied(res, i), (players, rules, i, swap)
        a = int(runs[0].first[i])
        assert rec["players"] == [players[0], players[1]][::-1 if a else 1]
        assert rec["simulation"] == {"players": list(players), "swap_seats": swap,
                                     "max_moves": cuttle.simulation.DEFAULT_MAX_MOVES}
        assert rec["human_seat"] is None and rec["bot"] is None
        assert (rec["version"], rec.get("deal")) == ((2, i) if i else (1, None))
        assert rec["result"]["status"] == "over"


def cards(game):
    """Where every card is, and the result."""
    return ([game.hand(p) for p in (0, 1)], [game.points(p) for p in (0, 1)], game.scrap,
            game.deck, outcome(game))


def test_a_random_four_draws_from_the_deal_s_stream():
    """Under four=random the victim's discards come from the game's own stream, which
    the deal index sets: the records replay such 4s as the run did, where the same
    start as position text (its stream that of game 0 of the seed) discards other
    cards, and the record read without its deal deals game 0."""
    other = 0
    for i in range(1, 30):
        rec = game_record(("expert", "random"), "classic: four=random", seed=5, index=i)
        end = final_game(rec)
        if not any(m.startswith("oneoff 4") for m in rec["moves"]):
            continue
        start = cuttle.Game.from_run("classic: four=random", seed=5, index=i)
        g = cuttle.Game.from_text(start.position_text(), seed=5)
        try:
            for m in rec["moves"]:
                g.play(m)
            other += cards(g) != cards(end)
        except ValueError:                      # (a move no longer legal)
            other += 1
        wrong = dict(rec, version=1)
        del wrong["deal"]
        with pytest.raises(ValueError):
            final_game(wrong)
    assert other >= 3


def test_play_logged_is_the_batch_s_game():
    """The core's logged game is play_units' game (its row), and its moves are the
    record's."""
    rules = cuttle.Rules.parse("cuttle.cards: four=random")
    a, b = policy_code("expert"), policy_code("ismcts:40")
    rows = play_batch(rules, 0, 6, 4, a, b, True, 2)
    for i in range(6):
        row, codes = play_logged(rules, 4, i, a, b)
        assert row == {"winner": rows["winner"][i], "first": rows["first"][i],
                       "moves": rows["moves"][i], "turns": rows["turns"][i],
                       "scores": tuple(rows["scores"][i]), "end": rows["end"][i]}
        assert codes.dtype == np.uint32 and len(codes) == row["moves"]
        rec = game_record(("expert", "ismcts:40"), rules, seed=4, index=i)
        assert [str(cuttle.Move.from_code(int(c))) for c in codes] == rec["moves"]


def test_a_game_its_cap_ended():
    res = cuttle.simulate(8, "classic", ("random", "random"), seed=1, max_moves=25,
                          keep_games=True, progress=False)
    ends = [END_NAMES[e] for e in res.end]
    assert "move_cap" in ends
    for i in range(8):
        rec = game_record("random", seed=1, index=i, max_moves=25)
        assert outcome(final_game(rec)) == tallied(res, i)
        assert rec["result"]["end_reason"] == ends[i]
        assert rec["simulation"]["max_moves"] == 25


def test_the_record_round_trips_through_a_file(tmp_path):
    rec = game_record(("ismcts:30", "greedy"), "cuttle.cards", seed=12, index=3)
    write_record(rec, tmp_path / "g.json")
    back = read_record(tmp_path / "g.json")
    assert back == rec and validate_record(back) is back
    assert outcome(final_game(back)) == outcome(final_game(rec))


@pytest.mark.parametrize("kwargs, message", [
    ({"players": "random,chess"}, "chess"),
    ({"players": ("random", lambda g, x, y: g.legal_moves[0])}, "player B must be"),
    ({"players": ("random", "greedy", "expert")}, "players must be a pair"),
    ({"index": -1}, "index must be an int from 0 to 2\\*\\*62-1, not -1"),
    ({"index": 2 ** 62}, "index must be an int from 0 to 2\\*\\*62-1"),
    ({"index": 1.0}, "index must be an int"),
    ({"index": True}, "index must be an int"),
    ({"index": "3"}, "index must be an int"),
    ({"seed": None}, "seed must be an int from 0 to 2\\*\\*64-1, not None"),
    ({"seed": "7"}, "seed must be an int"),
    ({"seed": -1}, "seed must be an int"),
    ({"seed": 2.0}, "seed must be an int"),
    ({"swap_seats": 1}, "swap_seats must be True or False"),
    ({"max_moves": 0}, "max_moves must be"),
    ({"max_moves": 2 ** 31}, "max_moves must be"),
    ({"rules": "classic: four=often"}, "four"),
])
def test_bad_arguments_are_refused(kwargs, message):
    args = {"players": ("random", "greedy"), "rules": None, "seed": 7, "index": 3, **kwargs}
    players = args.pop("players")
    rules = args.pop("rules")
    with pytest.raises(ValueError, match=message):
        game_record(players, rules, **args)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals")
def test_ctrl_c_keeps_the_moves_of_a_long_search_game():
    """A game of a deep search against the expert (the search's moves take a few tenths
    of a second each) stops soon after Ctrl-C, with cuttle.Interrupted carrying the
    record of the game so far: its status interrupted, no winner, and its moves the
    first moves of the whole game (the move of the search Ctrl-C cut short, which the
    whole game may not play, is left out).  Game 1: the expert moves first, so some
    move is always played before the Ctrl-C."""
    players = ("ismcts:50000", "expert")
    code = textwrap.dedent(f"""
        import json, os, signal, threading, time
        import cuttle
        from cuttle.simulation import game_record
        threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
        t = time.monotonic()
        try:
            game_record({players!r}, seed=1, index=1)
            print(json.dumps("returned"))
        except cuttle.Interrupted as e:
            print(json.dumps({{"soon": time.monotonic() - t < 15, "done": e.done,
                              "unit": e.unit, "text": str(e), "record": e.result}}))
    """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert isinstance(out, dict), p.stdout + p.stderr
    rec = out["record"]
    assert out["soon"] and out["unit"] == "move" and out["done"] == len(rec["moves"]) > 0
    assert out["text"] == f"interrupted after {quantity(out['done'], 'move')}"
    assert validate_record(rec) is rec
    assert rec["result"] == {**rec["result"], "status": "interrupted", "winner": None,
                             "end_reason": None, "text": "unfinished: interrupted"}
    assert (rec["deal"], rec["players"]) == (1, ["expert", "ismcts:50000"])
    assert rec["simulation"] == {"players": list(players), "swap_seats": True,
                                 "max_moves": cuttle.simulation.DEFAULT_MAX_MOVES}
    game = final_game(rec)                      # the record loader replays its moves
    assert not game.is_over and game.ply == len(rec["moves"])
    dealt = cuttle.Game.from_run("classic", seed=1, index=1)
    for m in rec["moves"]:
        dealt.play(m)                           # legal from game 1's deal
    assert dealt == game
    whole = game_record(players, seed=1, index=1)["moves"]
    assert rec["moves"] == whole[:len(rec["moves"])] and len(rec["moves"]) < len(whole)



# -- a Python player's games ------------------------------------------------------------

class Logged:
    """A policy that draws from the run's rng and logs its choices (position, move)."""

    def __init__(self):
        self.__name__, self.log = "logged", []

    def __call__(self, game, rng):
        move = rng.choice(game.legal_moves)
        self.log.append((game.ply, str(move)))
        return move


def first_legal(game):
    return game.legal_moves[0]


@pytest.mark.parametrize("swap", [True, False])
@pytest.mark.parametrize("opponent", ["greedy", "expert", first_legal])
def test_the_record_is_the_game_the_run_played(opponent, swap):
    res = cuttle.simulate(9, "cuttle.cards", (Logged(), opponent), seed=6, swap_seats=swap,
                          keep_games=True, progress=False)
    for i in (0, 3, 8):
        # the run's choices of game i alone, then the record's
        alone = Logged()
        cuttle.simulate(1, "cuttle.cards", (alone, opponent), seed=6, swap_seats=swap,
                        start=i, progress=False)
        player = Logged()
        rec = game_record((player, opponent), "cuttle.cards", seed=6, index=i,
                          swap_seats=swap)
        assert player.log == alone.log and player.log
        moves = rec["moves"]
        assert all(moves[ply] == move for ply, move in player.log)
        assert validate_record(rec) is rec and rec["result"]["status"] == "over"
        assert outcome(final_game(rec)) == tallied(res, i)
        name = getattr(opponent, "__name__", opponent)
        a = int(res.first[i])
        assert rec["players"] == ["logged", name][::-1 if a else 1]
        assert rec["simulation"]["players"] == ["logged", name]


def test_a_policy_with_randomness_of_its_own_is_not_replayed():
    """A policy drawing from the random module plays other moves each time: its record
    replays (its moves are legal from the deal) but is not the run's game."""
    def own(game):
        return random.choice(game.legal_moves)
    random.seed(1)
    recs = [game_record((own, "random"), seed=2, index=5) for _ in range(4)]
    for rec in recs:
        game = final_game(rec)
        assert game.is_over and game.moves == [cuttle.Move(m) for m in rec["moves"]]
    assert len({tuple(r["moves"]) for r in recs}) > 1


def test_a_policy_fault_is_the_run_s_error():
    def bad(game, rng):
        return "draw" if game.ply < 6 else None
    with pytest.raises(cuttle.PolicyError, match="in game 4, .*returned no move"):
        game_record((bad, "greedy"), seed=1, index=4)


def test_ctrl_c_keeps_the_moves_so_far():
    calls = []

    def stops(game, rng):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return rng.choice(game.legal_moves)
    with pytest.raises(cuttle.Interrupted) as info:
        game_record((stops, "greedy"), seed=3, index=2)
    rec = info.value.result
    assert validate_record(rec) is rec and rec["result"]["status"] == "interrupted"
    assert info.value.done == len(rec["moves"]) > 0
    assert not final_game(rec).is_over
