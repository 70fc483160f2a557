"""cuttle.policies.fair: a Python policy that sees only its player's view, reproducibly."""

import pickle
import random

import numpy as np
import pytest

import cuttle
from cuttle.policies import fair, forced_move, takes_rng, with_rng

from support.helpers import random_rules, walk

FIELDS = ("winner", "first", "moves", "turns", "scores", "end")


def same_games(r1, r2):
    return all(np.array_equal(getattr(r1, k), getattr(r2, k)) for k in FIELDS)


def rand(game, rng):
    return rng.choice(game.legal_moves)


class Spy:
    """A policy keeping each game it is handed (picklable: a simulation's player)."""

    def __init__(self):
        self.games = []

    def __call__(self, game):
        self.games.append(game.copy())
        return game.legal_moves[0]


def test_a_fair_policy_sees_a_game_that_depends_only_on_its_players_view():
    # At every decision of random games: the game the policy is handed keeps the
    # decider's observation and legal moves, and is the same game whichever hidden cards
    # the true one holds (the true game, or another consistent with the view, gives the
    # same sample for the same rng): nothing of the hidden cards reaches the policy.
    hidden_differ = 0
    for seed in range(12):
        for i, g in enumerate(walk(random_rules(random.Random(seed)), seed)):
            if g.is_over or i % 3:
                continue
            p, spy = g.to_move, Spy()
            move = fair(spy)(g, random.Random(i))
            other = g.determinize(p, seed=i + 1000)          # other hidden cards
            fair(spy)(other, random.Random(i))
            seen, seen_other = spy.games
            assert seen == seen_other and seen.seed == seen_other.seed
            assert seen.observation(p) == g.observation(p)
            assert set(seen.legal_moves) == set(g.legal_moves) and move in g.legal_moves
            assert seen.moves == [] and seen.seed != g.seed     # no undo history, no deal
            assert seen.prior_moves == tuple(g.moves)           # but the moves so far
            hidden_differ += seen.hand(1 - p) != g.hand(1 - p) or seen.deck != g.deck
    assert hidden_differ > 100


def peek(game):
    """A policy that reads the opponent's hand (a live game's true one)."""
    moves = game.legal_moves
    return moves[sum(c.index for c in game.hand(1 - game.to_move)) % len(moves)]


def test_a_callable_sees_the_live_game_and_a_fair_one_its_players_view():
    live, hidden = Spy(), Spy()
    cuttle.simulate(1, players=(live, fair(hidden)), seed=9, progress=False)
    deal = cuttle.Game.from_run(seed=9, index=0)
    first = live.games[0]                    # A's first decision: the deal, every card
    assert first.ply == 0 and first.hand(1) == deal.hand(1) and first.deck == deal.deck
    # B's first decision, as the true game stood then (replayed from A's last view)
    true = deal.copy()
    for m in live.games[-1].moves:
        if true.to_move == 1 and len(true.legal_moves) > 1:
            break
        true.play(m)
    g = hidden.games[0]
    assert g.observation(1) == true.observation(1) and g.hand(1) == true.hand(1)
    assert g.hand(0) != true.hand(0) and g.moves == [] and g.seed != 9


def test_in_a_run_a_fair_policy_is_handed_the_true_games_moves():
    # The moves before each sample are the true game's, exactly: played from the run's
    # deal, they reach the position the sample was drawn from, its player to decide.
    for seed in range(4):
        live, hidden = Spy(), Spy()
        cuttle.simulate(1, players=(live, fair(hidden)), seed=seed, progress=False)
        histories = [tuple(g.moves) for g in live.games] + \
            [g.prior_moves for g in hidden.games]
        whole = max(histories, key=len)
        assert all(h == whole[:len(h)] for h in histories)
        deal = cuttle.Game.from_run(seed=seed, index=0)
        for seen in hidden.games:                   # B, seat 1 in game 0
            true = deal.copy()
            for m in seen.prior_moves:
                true.play(m)
            assert true.to_move == 1 and true.observation(1) == seen.observation(1)
            assert seen.moves == [] and set(seen.legal_moves) == set(true.legal_moves)


@pytest.mark.parametrize("policy", [rand, peek])
def test_fair_runs_are_reproducible_whatever_the_chunks(policy):
    def run(n, seed, **kw):             # a new wrapper each run: the run's rng seeds it
        return cuttle.simulate(n, players=(fair(policy), "greedy"), seed=seed,
                               progress=False, keep_games=True, **kw)

    a = run(30, 4)
    assert a.players == (f"fair({policy.__name__})", "greedy")
    assert same_games(a, run(30, 4, chunk_size=7))
    b = run(10, 4, start=20)
    assert all(np.array_equal(getattr(b, k), getattr(a, k)[20:]) for k in FIELDS)
    assert not same_games(a, run(30, 5))
    # the samples, not the true hands, decide peek's moves: unfair, it plays otherwise
    if policy is peek:
        unfair = cuttle.simulate(30, players=(peek, "greedy"), seed=4, progress=False,
                                 keep_games=True)
        assert not same_games(a, unfair)


def test_fair_plays_legal_moves_under_every_rule_set():
    # (an illegal move raises IllegalMoveError: the joker, glasses, 7s, 9s, counters...)
    for seed in range(6):
        rules = random_rules(random.Random(seed), p_change=0.4)
        r = cuttle.simulate(6, rules, players=(fair(rand), fair(rand)), seed=seed,
                            progress=False, keep_games=True)
        assert r.n_games == 6
    c = cuttle.compare(["classic", "classic: joker=true"], 6, players=(fair(rand), "expert"),
                       seed=1, progress=False)
    assert c.n_games == 6


def test_the_game_only_form_draws_from_its_own_seeded_stream():
    g = cuttle.Game(seed=3)
    a, b, c = Spy(), Spy(), Spy()
    for spy, seed in ((a, 1), (b, 1), (c, 2)):
        f = fair(spy, seed=seed)
        f(g), f(g)
    assert a.games == b.games and a.games[0] != a.games[1] and a.games != c.games


def test_fair_pickles_and_refuses_what_is_not_a_python_policy():
    f = pickle.loads(pickle.dumps(fair(rand, seed=1)))
    assert repr(f) == "fair(rand)" and f(cuttle.Game(seed=1)) in cuttle.Game(seed=1).legal_moves
    forms = r"must be a callable policy\(game\) -> move or policy\(game, rng\) -> move"
    for bad, message in (("expert", "plays from its player's view already"),
                         (3, f"fair\\(\\)'s policy {forms}, not 3"),
                         (lambda: 0, f"fair\\(\\)'s policy {forms}: .*\\(signature \\(\\)\\)"),
                         (lambda a, b, c: 0, "neither one argument nor two")):
        with pytest.raises(ValueError, match=message):
            fair(bad)
    g = cuttle.Game(seed=1)
    while not g.is_over:
        g.play(g.legal_moves[0])
    with pytest.raises(ValueError, match="the game is over"):
        fair(rand)(g, random.Random(1))
    with pytest.raises(ValueError, match="must be a cuttle.Game"):
        fair(rand)("hands: AS / 2C", random.Random(1))


def test_with_rng_calls_either_form_with_the_rng():
    r = random.Random(1)
    assert with_rng(rand) is rand
    assert with_rng(len)([1, 2], r) == 2
    assert with_rng(lambda game: game)("g", r) == "g"
    # and refuses a callable of neither form at once, not when it is first called
    for bad in (lambda: 0, lambda a, b, c: 0, None):
        with pytest.raises(ValueError, match="^player A must be a callable policy"):
            with_rng(bad, "player A")


def test_a_policy_that_can_take_the_rng_is_handed_it():
    # takes_rng said False for policy(game, rng=None), which with_rng (simulate) hands
    # the rng: cuttle.rl.GymEnv, deciding by takes_rng, called it without.
    def required(game, rng):
        return rng

    def optional(game, rng=None):
        return rng

    class Method:
        def __call__(self, game, rng=None):
            return rng

    r = random.Random(1)
    for policy in (required, optional, Method(), lambda *args: args[-1]):
        assert takes_rng(policy) and with_rng(policy) is policy
        assert with_rng(policy)("g", r) is r
    for policy in (lambda game: None, len, lambda game, *, rng=None: rng):
        assert not takes_rng(policy)
        assert with_rng(policy)([1], r) != r


def test_a_forced_move_is_the_lone_legal_move():
    seen = {True: 0, False: 0}
    for seed in range(6):
        for game in walk(random_rules(random.Random(seed)), seed):
            legal = game.legal_moves
            move = forced_move(game)
            assert move == (legal[0] if len(legal) == 1 else None)
            seen[move is None] += 1
    assert seen[True] and seen[False]          # (choices, and forced moves, were met)
