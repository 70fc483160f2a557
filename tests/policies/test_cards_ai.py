"""cuttle.cards-ai, the online game's "vs AI" opponent reproduced as a FULL-INFORMATION
reference (issue 25): its heuristic and its depth-2 minimax checked against a plain
Python reading of the issue's text, hand-built positions, reproducibility, the public
API.  It reads hidden cards by design: the hidden-information tests of the fair
policies (test_expert_and_search.py) do not apply, and one test here shows that it does
read them."""

import ctypes
import random

import pytest

import cuttle
from cuttle import _cardsai
from cuttle.policies import POLICY_NAMES, Bot

from support.helpers import random_rules
from support.native import c_function, c_state

NAME = "cuttle.cards-ai"
WIN = 1e6                                   # the AI's +infinity (_greedy's WIN_VALUE)
_P = ctypes.c_void_p
_heuristic = c_function(_cardsai, "cards_ai_heuristic", ctypes.c_int, _P, ctypes.c_int)
_values = c_function(_cardsai, "cards_ai_values", None, _P, _P, _P, ctypes.c_int,
                     ctypes.c_int, ctypes.POINTER(ctypes.c_double))


# -- the issue's text, in plain Python over the public Game API -------------------------

def heuristic(g, p):
    """Cards in hand, +2 per point card, +2 per royal or glasses; -2 per Queen beyond the
    second and per 8 beyond the first; -2 per point card beyond those p needs (no King:
    one if p's points are at most 10, else two; one King: one if its points are at
    least 4, else none); three Kings: -2 more."""
    perm = [c.rank for c in g.permanents(p)]
    kings, queens, eights = perm.count(13), perm.count(12), perm.count(8)
    cards, pts = len(g.points(p)), g.score(p)
    h = len(g.hand(p)) + 2 * cards + 2 * len(perm)
    h -= 2 * max(0, queens - 2) + 2 * max(0, eights - 1)
    if kings == 0:
        h -= 2 * max(0, cards - (1 if pts <= 10 else 2))
    elif kings == 1:
        h -= 2 * max(0, cards - (1 if pts >= 4 else 0))
    elif kings == 3:
        h -= 2
    return h


def leaf(g, me):
    if g.is_over:
        return 0.0 if g.winner is None else (WIN if g.winner == me else -WIN)
    v = heuristic(g, me) - heuristic(g, 1 - me)
    return v + 0.5 if g.turn == me else v - 0.5


def minimax(g, me, depth):
    """Plain minimax over the true game (no pruning): each decision by its decider."""
    if depth == 0 or g.is_over:
        return leaf(g, me)
    best = max if g.to_move == me else min
    out = []
    for m in list(g.legal_moves):
        g.play(m)
        out.append(minimax(g, me, depth - 1))
        g.undo()
    return best(out)


def reference_values(g):
    """Each legal move's value: the move, then two more decisions by minimax."""
    me = g.to_move
    vals = []
    for m in list(g.legal_moves):
        g.play(m)
        vals.append(minimax(g, me, 2))
        g.undo()
    return vals


def native_values(g):
    state, rules = c_state(g)
    moves = list(g.legal_moves)
    buf = (ctypes.c_uint32 * len(moves))(*[m.code for m in moves])
    out = (ctypes.c_double * len(moves))()
    _values(state, ctypes.byref(rules), buf, len(moves), 2, out)
    return list(out)


def small_positions(seed, count, budget=4000):
    """Positions of random games under random rules whose full minimax is cheap."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        g = cuttle.Game(random_rules(rng, p_change=0.4), seed=rng.getrandbits(32))
        for _ in range(rng.randint(0, 80)):
            if g.is_over:
                break
            g.play(rng.choice(list(g.legal_moves)))
        if not g.is_over and 1 < len(g.legal_moves) and len(g.legal_moves) ** 3 <= budget:
            out.append(g)
    return out


# -- the heuristic and the minimax against the reading above ------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_the_heuristic_matches_the_issues_text(seed):
    rng = random.Random(seed)
    for _ in range(25):
        g = cuttle.Game(random_rules(rng, p_change=0.4), seed=rng.getrandbits(32))
        for _ in range(rng.randint(0, 120)):
            if g.is_over:
                break
            g.play(rng.choice(list(g.legal_moves)))
        state, _ = c_state(g)
        assert [_heuristic(state, p) for p in (0, 1)] == [heuristic(g, p) for p in (0, 1)]


def test_the_heuristic_on_known_positions():
    g = cuttle.Game.from_position(                  # no King, 10 points: one card needed
        hands=(["AS", "2C"], ["3D"]), points=(["7D", "3C"], []),
        permanents=(["QH", "QS", "QD", "8C", "8D"], []), rest="deck", seed=1)
    # 2 in hand + 2*2 points + 2*5 royals - 2 (third Queen) - 2 (second 8) - 2 (one extra)
    assert heuristic(g, 0) == 2 + 4 + 10 - 2 - 2 - 2 == 10
    assert heuristic(g, 1) == 1
    g = cuttle.Game.from_position(                  # one King, 3 points: none needed
        hands=([], ["3D"]), points=(["AD", "2D"], ["9C", "8H"]),
        permanents=(["KC"], ["KD", "KH", "KS"]), rest="deck", seed=1)
    assert heuristic(g, 0) == 0 + 4 + 2 - 4 == 2
    assert heuristic(g, 1) == 1 + 4 + 6 - 2 == 9      # three Kings: -2, no card penalty
    g = cuttle.Game.from_position(                  # no King, 11 points: two needed
        hands=([], []), points=(["9C", "AD", "AH"], []), rest="deck", seed=1)
    assert heuristic(g, 0) == 6 - 2
    for g in (g,):
        state, _ = c_state(g)
        assert _heuristic(state, 0) == heuristic(g, 0)


@pytest.mark.parametrize("seed", range(3))
def test_the_minimax_matches_a_plain_one(seed):
    # Native values are exact for the best moves and an upper bound strictly below the
    # best for the others (alpha-beta); the best moves are the same.
    for g in small_positions(seed, 8):
        ref, nat = reference_values(g), native_values(g)
        best = max(ref)
        assert max(nat) == best
        for r, n in zip(ref, nat):
            if r == best:
                assert n == r
            else:
                assert r <= n < best
        choices = {str(Bot(NAME, seed=k).choose(g)) for k in range(12)}
        tops = {str(m) for m, r in zip(g.legal_moves, ref) if r == best}
        assert choices <= tops
        if len(tops) > 1:
            assert len(choices) > 1           # ties are broken at random


# -- hand-built positions -----------------------------------------------------------------

def test_it_finds_the_winning_move():
    # 14 points with a King: the 5 wins at once; nothing else does within the horizon.
    g = cuttle.Game.from_position(
        hands=(["5H", "3C", "AD"], ["TS", "2S", "3S"]), points=(["9D"], ["7D"]),
        permanents=(["KC"], []), deck=["4C", "6C", "8C", "JC"], rest="deck", seed=2)
    for seed in range(5):
        assert Bot(NAME, seed=seed).choose(g) == "points 5H"


def test_it_avoids_a_move_that_lets_the_opponent_win_at_once():
    # P1 holds a Jack and needs 9 more: playing the 9 for points lets P1 steal it and
    # win; the AI sees it (P1's hand is hidden from P0, not from it).
    g = cuttle.Game.from_position(
        hands=(["9H", "4C"], ["JS", "3D"]), points=(["AD"], ["TC", "2C"]),
        deck=["5C", "6C", "7C", "8C"], rest="scrap", seed=3)
    assert "points 9H" in g.legal_moves
    g.play("points 9H")
    assert "jack JS 9H" in g.legal_moves
    g.play("jack JS 9H")
    assert g.winner == 1
    g.undo(), g.undo()
    for seed in range(5):
        assert Bot(NAME, seed=seed).choose(g) != "points 9H"
    assert reference_values(g)[list(g.legal_moves).index("points 9H")] == -WIN
    assert native_values(g)[list(g.legal_moves).index("points 9H")] < max(native_values(g))


def test_it_answers_a_counter_decision_too():
    # P0 at 20 points (no King): P1's Ace would scrap every point card; P0 counters.
    g = cuttle.Game.from_position(hands=(["2H", "3C"], ["AS", "4D"]),
                                  points=(["TH", "TD"], ["5C"]), deck=["6C", "7C"],
                                  to_move=1, rest="deck", seed=1)
    g.play("oneoff AS")
    assert Bot(NAME, seed=1).choose(g) == "counter 2H"


def test_it_reads_hidden_cards():
    # Exempt from the hidden-information tests, by design: its choice changes with the
    # opponent's hidden hand (a fair policy's would not).
    g = cuttle.Game.from_position(
        hands=(["9H", "4C"], ["JS", "3D"]), points=(["AD"], ["TC", "2C"]),
        deck=["5C", "6C", "7C", "8C"], rest="scrap", seed=3)
    h = cuttle.Game.from_position(
        hands=(["9H", "4C"], ["5C", "3D"]), points=(["AD"], ["TC", "2C"]),
        deck=["JS", "6C", "7C", "8C"], rest="scrap", seed=3)
    assert g.observation(0) == h.observation(0)
    assert native_values(g) != native_values(h)


# -- reproducibility and the public API ---------------------------------------------------

def run(seed, threads):
    r = cuttle.simulate(24, "cuttle.cards", players=(NAME, "greedy"), seed=seed,
                        threads=threads, keep_games=True, progress=False)
    return [r.winner.tolist(), r.moves.tolist(), r.scores.tolist(), r.end.tolist()]


def test_games_are_reproducible_and_thread_count_independent():
    assert run(9, 1) == run(9, 2) == run(9, 1)
    assert run(9, 1) != run(10, 1)


def test_a_bot_replays_a_run_decision_by_decision():
    g, h = cuttle.Game(seed=3), cuttle.Game(seed=3)
    a, b = Bot(NAME, seed=5), Bot(NAME, seed=5)
    while not g.is_over and len(g.moves) < 300:
        m = a.choose(g)
        assert b.choose(h) == m
        g.play(m), h.play(m)


def test_public_api():
    assert NAME in POLICY_NAMES
    g = cuttle.Game("classic", seed=4)
    bot = Bot(NAME, seed=3)
    assert bot.name == NAME and repr(bot) == f"Bot({NAME!r}, seed=3)"
    while not g.is_over and len(g.moves) < 400:
        g.play(bot.choose(g))                  # legal moves for either seat
    assert Bot("Cuttle.Cards-AI").code == Bot(NAME).code
    with pytest.raises(ValueError, match="takes no parameter"):
        Bot(NAME + ":10")
    r = cuttle.compare(["classic", "cuttle.cards"], 10, (NAME, "expert"), seed=5,
                       progress=False)
    assert r is not None


def test_a_run_with_the_reference_says_it_reads_hidden_cards():
    """A run with cuttle.cards-ai as a player named it like any other player (its text,
    JSON and page): nothing said it sees both hands and the deck.  Now the line under
    the players says which read hidden cards, and the JSON lists them."""
    from cuttle.display import render
    note = ("note: B (cuttle.cards-ai) reads hidden cards (both hands and the deck order): "
            "a full-information reference, not a fair player")
    r = cuttle.simulate(20, players=("greedy", "cuttle.cards-ai"), seed=1, progress=False)
    assert render("text", r.summary()).splitlines()[3] == note
    assert render("data", r.summary())["full_information"] == ["B"]
    fair = cuttle.simulate(20, players=("greedy", "expert"), seed=1, progress=False)
    assert "hidden cards" not in render("text", fair.summary())
    assert render("data", fair.summary())["full_information"] == []
    c = cuttle.compare(["classic", "quick"], 10, players=("cuttle.cards-ai",) * 2, seed=1,
                       progress=False)
    text = render("text", c)
    assert ("note: A (cuttle.cards-ai) and B (cuttle.cards-ai) read hidden cards (both "
            "hands and the deck order): full-information references, not fair players") in text
    assert render("data", c)["full_information"] == ["A", "B"]
