"""The search's inference of the opponent's hidden hand (cuttle._infer, a setting of the
search: `_search_config(0, infer=1)` with the expert's model of the opponent, `infer=2`
with the learned one): the models of the opponent's play, and a search that weighs its
deals by them yet never reads a hidden card and stays reproducible."""

import random

import pytest

import cuttle
from cuttle import _search
from cuttle._decide import move_features, move_likelihood, opponent_belief
from cuttle._infer import FEATURE_NAMES, LEARNED_WEIGHTS
from cuttle.policies import Bot

MODELS = (1, 2)                       # the expert's model, the learned one


@pytest.fixture(params=MODELS, ids=("expert-model", "learned-model"))
def inferring(request):
    """ismcts with the inference on, for one test: each model in turn (its number)."""
    before = _search._search_config(0)
    _search._search_config(0, infer=request.param)
    yield request.param
    _search._search_config(0, **before)


def one_off_to_answer(answerer_hand):
    """Player 0 must answer player 1's Ace (which scraps its 20 points)."""
    g = cuttle.Game.from_position(hands=(answerer_hand, ["AS", "4D"]),
                                  points=(["TH", "TD"], ["5C"]), deck=["6C", "7C"],
                                  to_move=1, rest="deck", seed=1)
    g.play("oneoff AS")
    return g


def code(g, text):
    return next(m for m in g.legal_moves if str(m) == text).code


@pytest.mark.parametrize("model", MODELS)
def test_a_non_counter_is_unlikely_with_a_two_in_hand(model):
    # A hand with a 2 would counter the Ace: letting it resolve is unlikely under the
    # model, so a deal holding a 2 is down-weighted once the opponent resolved.
    g = one_off_to_answer(["2H", "3C"])
    resolve, counter = code(g, "resolve"), code(g, "counter 2H")
    assert move_likelihood(g, resolve, model) < 0.25     # (the expert's model: 0.13)
    assert move_likelihood(g, counter, model) > 0.75
    assert move_likelihood(g, resolve, model) + move_likelihood(g, counter, model) == \
        pytest.approx(1.0)
    # Without a 2 the resolve is forced: no evidence either way.
    g = one_off_to_answer(["3H", "3C"])
    assert move_likelihood(g, code(g, "resolve"), model) == 1.0


@pytest.mark.parametrize("model", MODELS)
def test_each_model_is_a_distribution_over_the_legal_moves(model):
    rng = random.Random(7)
    for seed in range(6):
        g = cuttle.Game("classic", seed=seed)
        while not g.is_over:
            legal = list(g.legal_moves)
            total = sum(move_likelihood(g, m.code, model) for m in legal)
            assert total == pytest.approx(1.0 if len(legal) > 1 else len(legal))
            g.play(rng.choice(legal))


def test_the_learned_models_features_describe_each_legal_move():
    g = cuttle.Game.from_position(hands=(["5H", "QS", "2C", "9D"], ["TC"]),
                                  points=([], ["8H"]), rest="deck", seed=3)
    assert len(LEARNED_WEIGHTS) == len(FEATURE_NAMES)
    by_code = dict(move_features(g))
    assert [c for c, _ in move_features(g)] == [m.code for m in g.legal_moves]
    named = {str(m): dict(zip(FEATURE_NAMES, by_code[m.code])) for m in g.legal_moves}
    assert named["draw"]["draw"] == 1.0 and named["draw"]["points"] == 0.0
    assert named["oneoff 5H"]["oneoff 5"] == 1.0 and named["oneoff 5H"]["oneoff"] == 1.0
    assert named["royal QS"]["royal Q"] == 1.0
    assert named["points 9D"]["points rank"] == pytest.approx(0.9)
    assert named["scuttle 9D 8H"]["scuttle rank"] == pytest.approx(0.9)
    assert named["scuttle 9D 8H"]["scuttle target rank"] == pytest.approx(0.8)
    # The expert's value enters as the gap to the best move: exactly one best, gap 0.
    values = [f["value"] for f in named.values()]
    assert max(values) == 0.0 and all(v <= 0.0 for v in values)
    assert sum(f["top"] for f in named.values()) >= 1
    assert all(sum(f[v] for v in ("draw", "pass", "resolve", "points", "scuttle", "royal",
                                  "glasses", "jack", "oneoff", "counter", "take",
                                  "discard", "block")) == 1.0 for f in named.values())


def test_a_model_or_an_infer_setting_out_of_range_is_refused():
    g = cuttle.Game("classic", seed=1)
    move = next(iter(g.legal_moves)).code
    for bad in (0, 3, -1):
        with pytest.raises(ValueError, match="model"):
            move_likelihood(g, move, bad)
    before = _search._search_config(0)
    for bad in (3, -1):
        with pytest.raises(ValueError, match="infer"):
            _search._search_config(0, infer=bad)
    assert _search._search_config(0) == before


def games_alike_but_for_hidden_cards():
    """Two games whose public history and whose player 0's view are the same, while
    player 1's hidden cards differ (one holds a 2, the other a 5)."""
    out = []
    for hidden in ("2S", "5S"):
        out.append(cuttle.Game.from_position(
            hands=(["AH", "6D", "9C", "KD", "3H"], ["9S", "3S", "TC", hidden]),
            points=(["4H"], ["7H"]), rest="deck", seed=4))
    return out


@pytest.mark.parametrize("threads", [1, 2])
def test_what_the_search_saw_never_reveals_a_hidden_card(threads, inferring):
    # Player 1 plays the same public moves in both games (cards both hands hold);
    # player 0's searches weigh its deals by those decisions, and choose alike.
    a, b = games_alike_but_for_hidden_cards()
    assert a.hand(1) != b.hand(1)
    bots = [Bot("ismcts:150", seed=7, threads=threads) for _ in range(2)]
    for reply in ("points 9S", "points 3S", "points TC"):
        picks = [bots[k].choose(g) for k, g in enumerate((a, b))]
        assert picks[0] == picks[1]
        for g in (a, b):
            g.play(picks[0])
        if a.is_over or a.to_move != 1 or reply not in map(str, a.legal_moves):
            break
        for g in (a, b):
            g.play(reply)
        if a.is_over or a.to_move != 0:
            break


def test_a_game_of_inferring_searches_is_reproducible_whatever_the_threads(inferring):
    runs = [cuttle.simulate(6, players=("ismcts:80", "ismcts:80"), seed=12,
                            threads=threads, progress=False).summary()
            for threads in (1, 2, 1)]
    rates = [(s.win_rate(0).value, s.win_rate(1).value) for s in runs]
    assert rates[0] == rates[1] == rates[2]


def test_an_inferring_search_sees_only_the_searchers_view_of_the_history(inferring):
    # Two games whose whole histories player 0 cannot tell apart (OpenSpiel's resampler
    # deals the cards it never saw anew and replays every action): an inferring search
    # that follows either game, decision after decision (its trees and what it saw of
    # the opponent kept between them), chooses alike.
    pytest.importorskip("pyspiel")
    import pyspiel
    from cuttle.openspiel import game_string
    game = pyspiel.load_game(game_string("classic"))
    rng = random.Random(5)
    differed = 0
    for trial in range(5):
        s = game.new_initial_state()
        while not s.is_terminal() and len(s.history()) < 52 + rng.randint(25, 45):
            acts = ([a for a, _ in s.chance_outcomes()] if s.is_chance_node()
                    else s.legal_actions())
            s.apply_action(rng.choice(acts))
        if s.is_terminal():
            continue
        other = s.resample_from_infostate(0, rng.random)
        differed += other.history() != s.history()
        picks = []
        for history in (s.history(), other.history()):
            bot, replay, chosen = Bot("ismcts:60", seed=trial), game.new_initial_state(), []
            for a in history:
                g = replay.game
                if g is not None and not replay.is_chance_node() and g.to_move == 0:
                    chosen.append(str(bot.choose(g)))
                replay.apply_action(a)
            picks.append(chosen)
        assert picks[0] == picks[1]
    assert differed >= 3                  # the resampled deals did differ


def twos_share(hands):
    """The weight of the hands (mask, weight) that hold a 2."""
    from cuttle._core import n_cards, rank_and_suit
    twos = sum(1 << c for c in range(n_cards(False)) if rank_and_suit(c)[0] == 2)
    return sum(w for mask, w in hands if mask & twos)


def twos_shares(g, bot, model, always=None):
    """The share of a uniform deal's and of the inferred deal's weight on hands holding
    a 2, for the bot's next search in g under the model (means over candidates drawn
    from 8 streams); every candidate must hold the card `always`, if given."""
    must = 1 << cuttle.Card(always).index if always else 0
    shares = []
    for seed in range(8):
        weighted = opponent_belief(g, bot._trees, seed, model)
        assert weighted and sum(w for _, w in weighted) == pytest.approx(1.0)
        assert all(mask & must == must for mask, _ in weighted)
        uniform = [(mask, 1 / len(weighted)) for mask, _ in weighted]
        shares.append((twos_share(uniform), twos_share(weighted)))
    return tuple(sum(s) / len(shares) for s in zip(*shares))


def a_non_counter_then_a_draw(bot):
    """Player 1's Ace resolves (player 0 holds no 2), and player 0 draws; `bot` decided
    for player 1 at the start."""
    g = cuttle.Game.from_position(hands=(["3H", "3C", "5D", "6D"], ["AS", "4D", "9C"]),
                                  points=(["TH", "TD"], ["5C"]), to_move=1, seed=3)
    bot.choose(g)
    for move in ("oneoff AS", "resolve", "draw"):
        g.play(move)
    return g


def test_what_a_non_counter_told_outlives_the_opponents_next_draw(inferring):
    # Player 0 lets player 1's Ace resolve (it holds no 2), then draws a card player 1
    # cannot see.  Player 1's next search still deals it a 2 less often than a uniform
    # deal would: the draw is walked back out of each candidate hand, not a reason to
    # forget the non-counter.
    bot = Bot("ismcts:50", seed=1)
    g = a_non_counter_then_a_draw(bot)
    assert g.to_move == 1 and len(g.hand(0)) == 5
    uniform, weighted = twos_shares(g, bot, inferring)
    assert uniform > 0.25                         # the candidates do hold 2s
    assert weighted < 0.6 * uniform


def test_a_move_that_brings_a_seen_card_and_an_unseen_draw_is_walked_back_whole(inferring):
    # Player 0 lets player 1's Ace resolve (it holds no 2).  Later player 1's 7 (top two)
    # leaves the QD on the deck, seen by both, and player 0's 5 draws it together with a
    # card player 1 cannot see (the 2D).  Walking that move back must take out the QD as
    # the card seen and one other card as the unseen draw: were the QD taken as the
    # draw, the 2D would stay in player 0's past hand, where the non-counter says no 2 was.
    g = cuttle.Game.from_position(
        "classic seven=top2", hands=(["3H", "3C", "5D", "6D"], ["AS", "7D", "9C", "4C"]),
        points=(["TH", "TD"], ["5C"]), deck=["8H", "KS", "QD", "2D"], to_move=1, seed=3)
    bot = Bot("ismcts:50", seed=1)
    bot.choose(g)
    for move in ("oneoff AS", "resolve", "draw", "oneoff 7D", "resolve"):
        g.play(move)
    bot.choose(g)
    for move in ("royal KS", "oneoff 5D", "resolve"):
        g.play(move)
    assert g.to_move == 1 and {"QD", "2D"} <= set(map(str, g.hand(0)))
    uniform, weighted = twos_shares(g, bot, inferring, always="QD")     # (seen: in every deal)
    assert uniform > 0.25
    assert weighted < 0.6 * uniform


def test_a_bot_joining_a_game_under_way_reads_what_the_opponent_did_from_the_record(
        inferring):
    # The non-counter of the test above, seen by a bot that had not decided before: it
    # reads the opponent's decisions back from the game's record, and deals exactly as
    # the bot that followed the game since its first decision.
    followed = Bot("ismcts:50", seed=1)
    g = a_non_counter_then_a_draw(followed)
    joined = Bot("ismcts:50", seed=1)
    for bot in (followed, joined):
        bot.choose(g)
    for seed in range(4):
        assert opponent_belief(g, joined._trees, seed, inferring) == \
            opponent_belief(g, followed._trees, seed, inferring)
    uniform, weighted = twos_shares(g, joined, inferring)
    assert weighted < 0.6 * uniform


def test_a_joining_bot_sees_what_a_following_one_saw_in_whole_games(inferring):
    # Random games: at each of player 1's later decisions with a choice, a fresh bot's
    # belief equals that of the bot deciding for player 1 since its first decision.
    rng = random.Random(11)
    checked = informed = 0
    for seed in range(3):
        g = cuttle.Game("classic", seed=seed)
        followed = Bot("ismcts:20", seed=seed)
        while not g.is_over:
            moves = g.legal_moves
            if g.to_move == 1 and len(moves) > 1:
                followed.choose(g)
                if rng.random() < 0.3:
                    joined = Bot("ismcts:20", seed=seed)
                    joined.choose(g)
                    belief = opponent_belief(g, joined._trees, seed, inferring)
                    assert belief == opponent_belief(g, followed._trees, seed, inferring)
                    checked += 1
                    informed += belief != []
            g.play(rng.choice(moves))
    assert checked >= 5 and informed >= 3      # (beliefs that are not uniform among them)


def test_a_bot_shared_by_two_games_that_reach_one_position_reads_each_ones_record(
        inferring):
    # Two lines to one position: the bot that last searched game A must not take A's
    # record of the opponent for game B's (the position alone matches).
    def start():
        return cuttle.Game.from_position(hands=(["5H", "6H", "9C", "KD", "3S"],
                                                ["AS", "4D", "9D"]), to_move=0, seed=4)
    a, b = start(), start()
    shared, following = Bot("ismcts:30", seed=1), Bot("ismcts:30", seed=1)
    for g, bot, first, second in ((a, shared, "5H", "6H"), (b, following, "6H", "5H")):
        g.play(f"points {first}")
        bot.choose(g)
        g.play("draw")
        g.play(f"points {second}")
    shared.choose(a)
    assert a._core_get_state()[0] == b._core_get_state()[0]       # the same position
    for bot in (following, shared):
        bot.choose(b)
    for seed in range(3):
        assert opponent_belief(b, shared._trees, seed, inferring) == \
            opponent_belief(b, following._trees, seed, inferring)


def test_a_decision_without_kept_trees_reads_the_record_too():
    # decide() without trees (a native seat in a game played from Python: simulate with
    # a callable player) builds fresh trees: ismcts-infer still reads what the
    # opponent did, so it plays otherwise than with the inference switched off.
    from cuttle._decide import decide
    from cuttle.policies import policy_code
    code = policy_code("ismcts-infer:100")
    rng = random.Random(2)
    positions = []
    for seed in range(3):
        g = cuttle.Game("classic", seed=seed)
        while not g.is_over:
            if g.ply > 8 and len(g.legal_moves) > 1 and rng.random() < 0.3:
                positions.append(g.copy())
            g.play(rng.choice(g.legal_moves))
    informed = [decide(g, code, 7) for g in positions]
    before = _search._search_config(2)
    try:
        _search._search_config(2, infer=0)
        blind = [decide(g, code, 7) for g in positions]
    finally:
        _search._search_config(2, **before)
    assert informed != blind


def test_the_oracle_measurement_is_off_by_default_and_does_read_the_hidden_hand():
    # `oracle` (a bound for docs/strength.md, never a fair player) deals the opponent its
    # true hand; the same check that keeps the fair search blind catches it.
    assert _search._search_config(0)["oracle"] == 0
    assert _search._search_config(1)["oracle"] == 0
    before = _search._search_config(0)
    _search._search_config(0, oracle=1)
    try:
        with pytest.raises(AssertionError):
            test_an_inferring_search_sees_only_the_searchers_view_of_the_history(None)
    finally:
        _search._search_config(0, **before)


def test_ismcts_infer_is_ismcts_with_the_learned_model_and_the_fitted_leaf():
    # The policy `ismcts-infer:N` is the search with `infer=2` and the fitted leaf value
    # (playouts of 2 moves scored by LEAF_FITTED at its scale; its own settings, so
    # tuning ismcts leaves it alone), stopping once its choice is settled, its priors
    # the learned model's (prior=2): the same games, in a simulation and from a Bot.
    from cuttle import _weights
    from cuttle.policies import is_search
    assert is_search("ismcts-infer:10") and is_search("ISMCTS-infer")
    infer, plain_config = _search._search_config(2), _search._search_config(0)
    assert (infer["infer"], infer["leaf"], infer["depth"], infer["scale"], infer["settle"],
            infer["prior"]) == (2, _weights.LEAF_SETS.index("fitted"), 2, _weights.LEAF_SCALE,
                                0.5, 2.0)
    assert (plain_config["infer"], plain_config["leaf"], plain_config["depth"],
            plain_config["settle"], plain_config["prior"]) == (0, 0, 6, 0.0, 0.0)
    assert _weights._leaf_weights(1) == dict(_weights._expert_weights(), **_weights.LEAF_WEIGHTS)
    inferring = cuttle.simulate(8, players=("ismcts-infer:60", "greedy"), seed=5,
                                progress=False, keep_games=True)
    before = _search._search_config(0)
    _search._search_config(0, infer=2, leaf=1, depth=2, scale=_weights.LEAF_SCALE, settle=0.5,
                           prior=2.0)
    try:
        plain = cuttle.simulate(8, players=("ismcts:60", "greedy"), seed=5,
                                progress=False, keep_games=True)
        g = cuttle.Game("classic", seed=9)
        for _ in range(6):
            picks = [str(Bot(name, seed=3).choose(g)) for name in ("ismcts:80",
                                                                  "ismcts-infer:80")]
            assert picks[0] == picks[1]
            g.play(picks[0])
    finally:
        _search._search_config(0, **before)
    uniform = cuttle.simulate(8, players=("ismcts:60", "greedy"), seed=5, progress=False,
                              keep_games=True)
    rows = [(list(r.moves), list(r.winner)) for r in (inferring, plain, uniform)]
    assert rows[0] == rows[1] != rows[2]


def test_the_kept_history_forgets_its_oldest_decisions_when_the_changes_overflow():
    # The opponent's kept decisions (at most MAX_SEEN) and every change of its hand
    # since the oldest (at most MAX_CHANGES = 64): a change that would overflow drops
    # the oldest decisions with their changes, and one that finds no decision left is
    # not kept (nothing would weigh it).  No real game makes 64 changes in 12 of the
    # opponent's decisions, so the hook plays the events directly.
    from cuttle._infer import _kept
    assert _kept([None, 1, 2, None, 3]) == (2, [0, 2], [1, 2, 3])
    n, first, draws = _kept([None] + [0] * 30 + [None] + [1] * 30 + [None] + [2] * 10)
    assert (n, first, draws) == (2, [0, 30], [1] * 30 + [2] * 10)
    full = _kept([None] + [1] * 64)
    assert full == (1, [0], [1] * 64)                      # exactly full: all kept
    assert _kept([None] + [1] * 64 + [2]) == (0, [], [])   # one more: the decision goes
    # An oldest decision with no change of its own is dropped too (the loop goes on).
    assert _kept([None, None] + [1] * 64 + [2]) == (0, [], [])
    assert _kept([None, 3, None] + [1] * 63 + [2]) == (1, [0], [1] * 63 + [2])
    assert _kept([None] * 13) == (12, [0] * 12, [])
    assert _kept([4]) == (0, [], [])                        # no decision: nothing kept
    for bad in (-1, 63, "x"):
        with pytest.raises((ValueError, TypeError)):
            _kept([None, bad])
