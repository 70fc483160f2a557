"""The PettingZoo and Gymnasium environments pass their libraries' own conformance
suites, observe exactly Game.observation(p).to_array(), and lose on illegal actions."""

import random

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the rl extra is not installed (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed (pip install -e '.[rl]')")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

import cuttle  # noqa: E402
from cuttle.rl import (ACTION_SPACE, GymEnv, action_mask, aec_env,  # noqa: E402
                       legal_actions, move_of)
from cuttle.rl.gym_env import ENV_ID  # noqa: E402

RULES = ["classic", "cuttle.cards", cuttle.Rules("quick", joker=True, nine="freeze")]


# -- PettingZoo --------------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore::UserWarning")      # dict observations are intended
@pytest.mark.parametrize("rules", RULES)
def test_pettingzoo_api_and_seed_tests(rules):
    api_test(aec_env(rules=rules), num_cycles=300)
    seed_test(lambda: aec_env(rules=rules), num_cycles=300)


def test_pettingzoo_render_test(capsys):
    render_test(lambda render_mode=None: aec_env(render_mode=render_mode))
    assert "hand" in capsys.readouterr().out               # 'human' prints the table


def test_pettingzoo_render_test_in_every_view(capsys):
    for view in ("player_1", "all"):
        render_test(lambda render_mode=None: aec_env(render_mode=render_mode,
                                                     render_view=view))
    assert "hand" in capsys.readouterr().out


def hand_line(text, p):
    """The hand line of player p's side in a rendered table."""
    lines = text.splitlines()
    side = next(i for i, line in enumerate(lines) if line.startswith(f"  P{p} score"))
    return lines[side + 1]


def test_aec_render_shows_the_agent_to_act_what_it_may_see():
    """The table showed every card, the hand hidden from the agent to act included (a
    person watching a seat saw the other's hand)."""
    env = aec_env(render_mode="ansi")
    env.reset(seed=1)
    rng = random.Random(2)
    seen = set()
    for _ in range(12):
        g, agent = env.game, env.agent_selection
        p = int(agent[-1])
        text = env.render()
        assert text.startswith(f"{agent}'s view:\n") and text.endswith(g.render(viewer=p))
        assert " ".join(g.hand(p)) in hand_line(text, p)
        hidden = hand_line(text, 1 - p)
        assert "(hidden)" in hidden and not set(g.hand(1 - p)) & set(hidden.split())
        seen.add(p)
        env.step(rng.choice(legal_actions(g)))
    assert seen == {0, 1}                                   # the view follows the agent
    # one seat's view throughout, or every card when asked for
    for view, viewer in (("player_1", 1), ("all", None)):
        env = aec_env(render_mode="ansi", render_view=view)
        env.reset(seed=1)
        assert env.agent_selection == "player_0"
        assert env.render().endswith(env.game.render(viewer=viewer))
    assert all(c in env.render() for p in (0, 1) for c in env.game.hand(p))
    for bad in ("player_2", None, 0, "ALL"):
        with pytest.raises(ValueError, match="render_view must be one of 'agent_selection'"):
            aec_env(render_view=bad)


def test_aec_render_shows_the_opponents_cards_the_agent_knows():
    """A card a 9 sent back to the opponent's hand is known: shown, the rest hidden."""
    env = aec_env(render_mode="ansi")
    env.reset(seed=1)
    env.game = cuttle.Game.from_position(
        "classic", hands=(["9C", "2D", "3D"], ["4H", "5S"]), points=(["TC"], ["7S"]),
        permanents=([], ["QS"]), seed=1)
    for move in ("oneoff 9C QS", "resolve"):
        env.game.play(move)
    env.game.play("draw")                                   # player 1's turn
    env.agent_selection = "player_0"
    assert hand_line(env.render(), 1).endswith("hand: 4 cards (hidden), known: QS")


def test_aec_agent_selection_follows_the_decider_and_observations_are_exact():
    env = aec_env(rules="cuttle.cards")
    rng = random.Random(1)
    env.reset(seed=7)
    assert env.game.hand(0) == cuttle.Game("cuttle.cards", seed=7).hand(0)
    non_alternating = 0
    for _ in range(3):                                   # three whole games
        last = None
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            p = int(agent[-1])
            g = env.game
            assert obs["observation"].tobytes() == g.observation(p).to_array().tobytes()
            if term or trunc:
                env.step(None)
                continue
            assert p == g.to_move
            assert np.array_equal(obs["action_mask"], action_mask(g))
            other = env.observe(f"player_{1 - p}")
            assert not other["action_mask"].any()
            non_alternating += last == p
            last = p
            env.step(rng.choice(legal_actions(g)))
        assert env.rewards == {} and env.agents == []
        final = env.game
        env.reset()                                       # the next game of the run
    assert non_alternating > 0                            # counters and choices
    assert final.is_over


def test_aec_help_describes_the_env():
    # (the class had no docstring: help() showed PettingZoo's generic AECEnv text)
    import pydoc
    from pettingzoo import AECEnv
    from cuttle.rl.aec import CuttleAECEnv
    assert CuttleAECEnv.__doc__ and CuttleAECEnv.__doc__ != AECEnv.__doc__
    text = pydoc.render_doc(aec_env(), renderer=pydoc.plaintext).replace("|", " ")
    text = " ".join(text.split())
    assert "player_0 (moves first) and player_1" in text.replace("`", "")
    assert "not legal now ends the game as a loss for the agent that chose it" in text


def test_aec_rewards_illegal_actions_and_truncation():
    env = aec_env()
    env.reset(seed=3)
    mask = env.observe("player_0")["action_mask"]
    before = env.game.position_text()
    env.step(int(np.flatnonzero(mask == 0)[0]))           # illegal: player_0 loses
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.truncations == {"player_0": False, "player_1": False}
    assert env.rewards == env._cumulative_rewards == {"player_0": -1, "player_1": 1}
    assert env.infos["player_0"] == {"illegal_action": True, "winner": 1,
                                     "end_reason": "illegal_action", "seat": 0}
    assert env.game.position_text() == before             # (as its docstring says)
    env.reset(seed=3)
    for bad in (-1, ACTION_SPACE, 1.5, None):
        with pytest.raises(ValueError):
            env.step(bad)
    short = aec_env(max_moves=3)
    short.reset(seed=1)
    for _ in range(3):
        short.step(legal_actions(short.game)[0])
    assert all(short.truncations.values()) and not any(short.terminations.values())
    assert short._cumulative_rewards == {"player_0": 0, "player_1": 0}


def test_aec_plays_to_a_win():
    env = aec_env(rules="quick")
    env.reset(seed=11)
    bots = [cuttle.Bot("greedy", seed=1), cuttle.Bot("random", seed=2)]
    totals = {"player_0": 0, "player_1": 0}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
        else:
            env.step(cuttle.rl.action_of(bots[int(agent[-1])].choose(env.game)))
    w = env.game.winner
    assert sorted(totals.values()) == [-1, 1] and totals[f"player_{w}"] == 1


# -- Gymnasium ---------------------------------------------------------------------------

@pytest.mark.filterwarnings("error")      # every warning of the checker fails the test
@pytest.mark.parametrize("opponent, seat", [("greedy", 0), ("random", 1), ("greedy", None),
                                            ("ismcts-infer:20", 1)])
def test_gymnasium_check_env(opponent, seat):
    # made by its registered id (a spec: the checker tries every render mode too), in
    # one go: gymnasium imports the module that registers it; checked unwrapped, as
    # docs/rl.md says (given make's wrappers, the checker warns that they differ)
    env = gymnasium.make("cuttle.rl.gym_env:cuttle/Cuttle-v0", opponent=opponent, seat=seat,
                         rules="cuttle.cards")
    assert env.spec.id == ENV_ID and env.unwrapped.rules == cuttle.Rules("cuttle.cards")
    check_env(env.unwrapped)
    assert gymnasium.make(ENV_ID, opponent="random").unwrapped.opponent == "random"


def test_gym_episode_against_a_policy():
    env = GymEnv(opponent="greedy", seat=1)
    obs, info = env.reset(seed=5)
    assert info["seat"] == 1 and env.game.to_move == 1 and env.game.ply >= 1
    rng = np.random.default_rng(0)
    done, steps, reward = False, 0, 0.0
    while not done:
        g = env.game
        assert obs.tobytes() == g.observation(1).to_array().tobytes()
        mask = env.action_masks()
        assert mask.dtype == bool and np.array_equal(mask, action_mask(g, bool))
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        done, steps = term or trunc, steps + 1
    assert reward in (-1.0, 0.0, 1.0) and env.game.is_over and "illegal_action" not in info
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError):
        env.step(0)                                     # the episode is over: reset first


def test_gym_illegal_action_ends_the_episode_as_a_loss():
    env = GymEnv(opponent="random")
    env.reset(seed=2)
    before = env.game.observation(0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    obs, reward, term, trunc, info = env.step(illegal)
    assert (reward, term, trunc, info) == (-1.0, True, False, {
        "illegal_action": True, "winner": 1, "end_reason": "illegal_action", "seat": 0})
    assert env.game.observation(0) == before              # the position is untouched
    env.reset(seed=2)
    for bad in (-1, ACTION_SPACE, "draw", np.array([0]), np.array(0.0), np.array(-1)):
        with pytest.raises(ValueError):
            env.step(bad)


def test_the_last_step_gives_the_outcome():
    # The last step's info was empty (save illegal_action): the winner and how the
    # game ended had to be read from env.game.
    rng = random.Random(2)
    seen = set()
    for seed in range(12):
        cap = (1000, 12)[seed % 2]
        env = GymEnv(opponent="random", seat=None, max_moves=cap)
        env.reset(seed=seed)
        while True:
            _, reward, term, trunc, info = env.step(rng.choice(legal_actions(env.game)))
            if term or trunc:
                break
            assert info == {}
        g = env.game
        want = ({"winner": g.winner, "end_reason": g.end_reason} if term else
                {"winner": -1, "end_reason": "move_cap"})
        if want["winner"] is None:
            want["winner"] = -1
        assert info == {**want, "seat": env.seat}
        assert reward == (0.0 if info["winner"] == -1 else
                          1.0 if info["winner"] == env.seat else -1.0)
        seen.add(info["end_reason"])
    assert {"goal", "move_cap"} <= seen
    # the PettingZoo env: both agents' infos, each with its own seat
    for cap in (1000, 9):
        env = aec_env(max_moves=cap)
        env.reset(seed=4)
        while not (any(env.terminations.values()) or any(env.truncations.values())):
            assert all(i == {} for i in env.infos.values())
            env.step(rng.choice(legal_actions(env.game)))
        g = env.game
        want = ({"winner": g.winner, "end_reason": g.end_reason} if g.is_over else
                {"winner": -1, "end_reason": "move_cap"})
        if want["winner"] is None:
            want["winner"] = -1
        assert env.infos == {a: {**want, "seat": k} for k, a in enumerate(env.agents)}


def test_gymnasium_vector_envs_batch_the_infos():
    # gymnasium.make_vec (docs/rl.md's way to Gymnasium's vector API) batches each info
    # key into a numpy array typed by the first env's value: a winner None beside an
    # int raised TypeError, a deal seed of 2**63 or more OverflowError in int64.
    envs = gymnasium.make_vec("cuttle.rl.gym_env:cuttle/Cuttle-v0", num_envs=6,
                              vectorization_mode="sync", opponent="random", seat=None,
                              max_moves=14)
    _, infos = envs.reset(seed=3)
    assert [int(x) for x in infos["seed"]] == list(envs.get_attr("seed"))
    rng = np.random.default_rng(0)
    ends = set()
    for _ in range(60):
        masks = np.stack(envs.call("action_masks"))
        # (an env that ended has no legal action: its next step resets it, action unread)
        _, _, term, trunc, infos = envs.step([rng.choice(np.flatnonzero(m)) if m.any()
                                              else 0 for m in masks])
        if "winner" in infos:
            ends.update(int(w) for w in infos["winner"][infos["_winner"]])
    assert -1 in ends and ends & {0, 1}
    envs.close()
    # and within one step: a win in env 0, the cap in env 1
    vec = gymnasium.vector.SyncVectorEnv([lambda: GymEnv("random")] * 2)
    over = GymEnv("random", seat=0)
    over.reset(seed=1)
    while True:
        *_, term, trunc, win = over.step(legal_actions(over.game)[0])
        if term or trunc:
            break
    capped = GymEnv("random", seat=0, max_moves=2)
    capped.reset(seed=1)
    *_, trunc, cap = capped.step(legal_actions(capped.game)[0])
    assert trunc and cap["winner"] == -1 and win["winner"] in (0, 1)
    batched = vec._add_info(vec._add_info({}, win, 0), cap, 1)
    assert list(batched["winner"]) == [win["winner"], -1]
    vec.close()


@pytest.mark.parametrize("make", ["gym", "aec"])
def test_a_zero_d_integer_array_is_an_action(make):
    # Gymnasium's Discrete space contains np.array(k), and some trainers step with one
    env = GymEnv(opponent="random") if make == "gym" else aec_env()
    env.reset(seed=2)
    game = env.game
    action = legal_actions(game)[0]
    if make == "gym":
        assert env.action_space.contains(np.array(action))
    played = len(game.moves)
    env.step(np.array(action, dtype=np.uint16))
    assert game.moves[played] == move_of(action)


def test_gym_callable_opponent_and_seeding():
    seen = []

    def first_move(game):
        seen.append(game.to_move)
        return game.legal_moves[0]

    env = GymEnv(opponent=first_move, seat=0)
    a, _ = env.reset(seed=9)
    b, _ = env.reset(seed=9)
    assert np.array_equal(a, b)
    env.step(legal_actions(env.game)[0])
    assert seen and set(seen) == {1}
    for bad in ("pass", "draw draw", 12345):               # not legal for the opponent
        with pytest.raises(ValueError, match="opponent"):
            GymEnv(opponent=lambda g, m=bad: m, seat=1).reset(seed=1)
    env = GymEnv(opponent=lambda g: g.play("draw"), seat=1)     # plays instead of returning
    with pytest.raises(ValueError, match="changed the game .* must return its move"):
        env.reset(seed=1)
    assert env.game.ply == 1                       # (it stopped at once, not 41 draws on)
    for kw in (dict(opponent="nobody"), dict(seat=2), dict(max_moves=0)):
        with pytest.raises(ValueError):
            GymEnv(**kw)


def test_gym_reset_exposes_the_seed_it_dealt_from():
    # After an unseeded reset, Gymnasium's np_random_seed is 128 bits and refused by
    # reset(seed=...): the deal seed was nowhere to be read.
    from cuttle.policies import Bot
    from cuttle.seeding import derive
    env = GymEnv(opponent="greedy", seat=None)
    assert env.seed is None
    _, info = env.reset(seed=7)
    d = int(np.random.default_rng(7).integers(0, 2**64, dtype=np.uint64))
    assert env.seed == info["seed"] == d
    dealt = cuttle.Game.from_run(env.rules, seed=d, index=0)
    assert dealt == cuttle.Game(env.rules, seed=d)
    for move in env.game.moves:                        # the opponent's, if it began
        dealt.play(move)
    assert dealt == env.game
    rng = random.Random(1)
    for _ in range(3):
        _, info = env.reset()                                # unseeded: a new deal seed
        assert info["seed"] == env.seed != d and 0 <= env.seed < 2**64
        d, seat, actions = env.seed, env.seat, []
        while True:
            actions.append(int(rng.choice(legal_actions(env.game))))
            _, _, term, trunc, _ = env.step(actions[-1])
            if term or trunc:
                break
        # the episode replayed from its seed alone (the bot asked only for a choice)
        g, bot = cuttle.Game(env.rules, seed=d), Bot("greedy", seed=derive(d, 1))
        while (p := g.next_decision(env.max_moves)) is not None:
            legal = g.legal_moves
            g.play(move_of(actions.pop(0)) if p == seat else
                   legal[0] if len(legal) == 1 else bot.choose(g))
        assert not actions and g.moves == env.game.moves


def test_a_two_argument_callable_opponent_gets_a_seeded_rng():
    # simulate's policy(game, rng) form raised TypeError inside reset.
    def play(seed):
        draws = []

        def pick(game, rng):
            assert isinstance(rng, random.Random)
            draws.append(rng.random())
            return rng.choice(game.legal_moves)

        env = GymEnv(opponent=pick, seat=None)
        trace = []
        for episode in range(3):
            env.reset(seed=seed) if episode == 0 else env.reset()
            while not (env.game.is_over or env.game.ply > 60):
                obs, _, term, trunc, _ = env.step(legal_actions(env.game)[-1])
                if term or trunc:
                    break
            trace.append(list(env.game.moves))
        return draws, trace

    draws, trace = play(5)
    assert len(draws) > 20 and play(5) == (draws, trace)      # reproducible per seed
    assert play(6)[0] != draws
    for bad in (lambda: None, lambda a, b, c: None):
        with pytest.raises(ValueError, match="opponent must be a callable "
                                             "policy\\(game\\).*policy\\(game, rng\\)"):
            GymEnv(opponent=bad)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_callable_opponents_rng_is_the_one_simulate_hands_its_seat(seat):
    """The opponent's rng is simulate's for the opponent's seat of game 0 of a run
    seeded by the deal seed (each seat has a stream of its own there)."""
    from cuttle.seeding import seat_seed
    first = []

    def pick(game, rng):
        first.append((game.to_move, rng.getrandbits(64)))
        return game.legal_moves[0]

    env = GymEnv(opponent=pick, seat=seat)
    env.reset(seed=3)
    while not first:
        env.step(legal_actions(env.game)[0])
    assert first[0] == (1 - seat, random.Random(seat_seed(env.seed, 0, 1 - seat))
                        .getrandbits(64))


def test_an_opponent_returning_an_action_index_is_told_it_was_read_as_a_move_code():
    # An int is a Move.code (the API's contract, unchanged); an RL user returns the
    # compact action index by habit, and the error said only "not a legal move".
    from cuttle.errors import IllegalMoveError
    hint = r"read as a Move\.code.*cuttle\.rl\.move_of\(action\)"
    for pick in (lambda g: legal_actions(g)[-1], lambda g: np.int64(legal_actions(g)[0])):
        with pytest.raises(ValueError, match=hint):
            GymEnv(opponent=pick, seat=1).reset(seed=1)
        with pytest.raises(cuttle.PolicyError, match="in game 0, deciding move 1, chose an "
                                                     "illegal move: .*" + hint) as e:
            cuttle.simulate(1, players=(pick, "random"), seed=1, progress=False)
        assert isinstance(e.value.__cause__, IllegalMoveError)
    # the adapter plays
    env = GymEnv(opponent=lambda g: move_of(legal_actions(g)[-1]), seat=1)
    env.reset(seed=1)
    assert env.game.to_move == 1
    for text in ("pass", "scuttle AS 2C"):                 # not ints: no such hint
        with pytest.raises(ValueError) as e:
            GymEnv(opponent=lambda g, m=text: m, seat=1).reset(seed=1)
        assert "Move.code" not in str(e.value)


def test_a_fair_callable_opponent_sees_its_view_reproducibly():
    # A callable opponent is handed the live game, the agent's hand included;
    # cuttle.policies.fair hands it a determinization of its own view instead, drawn
    # from the episode's rng.
    from cuttle.policies import fair

    def play(wrap):
        seen = []

        def spy(game):
            true = env.game
            seen.append((game.hand(0) == true.hand(0),
                         game.observation(1) == true.observation(1), game.ply))
            return game.legal_moves[0]

        env = GymEnv(opponent=wrap(spy), seat=0)
        env.reset(seed=3)
        for _ in range(12):
            if env.game.is_over:
                break
            env.step(legal_actions(env.game)[0])
        return seen, env.game.moves

    live, _ = play(lambda f: f)
    assert live and all(same and view for same, view, _ in live)
    seen, moves = play(lambda f: fair(f, seed=1))
    assert len(seen) > 3 and all(view and ply == 0 for _, view, ply in seen)
    assert not all(same for same, _, _ in seen)
    assert play(lambda f: fair(f, seed=1)) == (seen, moves)


def test_gym_methods_say_how_they_behave():
    # help(GymEnv.step) and help(GymEnv.reset) showed Gymnasium's generic text (their
    # own __doc__ was None), help(GymEnv.render) nothing.
    import inspect
    words = {"step": ("illegal_action", "truncated", "max_moves", "move_of", "reset()"),
             "reset": ("seed", "Game.from_run", "skipped", "seat"),
             "render": ("ansi", "human"),
             "action_masks": ("legal",)}
    for name, wanted in words.items():
        doc = getattr(GymEnv, name).__doc__
        assert doc and inspect.getdoc(getattr(GymEnv, name)) == inspect.cleandoc(doc)
        assert all(w in doc for w in wanted), (name, doc)


def test_gym_render_modes():
    env = GymEnv(opponent="random", render_mode="ansi")
    env.reset(seed=1)
    assert "hand" in env.render() and "(hidden)" in env.render()
    assert move_of(0).verb == "draw"


def test_gym_render_says_whose_view_it_shows(capsys):
    """The table came without a word of whose it was (the PettingZoo env's says): the
    agent's seat, as that env names it."""
    for seat in (0, 1, None):
        env = GymEnv(opponent="random", seat=seat, render_mode="ansi")
        env.reset(seed=3)
        rng = random.Random(4)
        for _ in range(5):
            g, p = env.game, env.seat
            text = env.render()
            assert text == f"player_{p}'s view:\n" + g.render(viewer=p)
            hidden = hand_line(text, 1 - p)
            assert "(hidden)" in hidden and not set(g.hand(1 - p)) & set(hidden.split())
            if env.step(rng.choice(legal_actions(g)))[2]:
                break
    assert GymEnv(render_mode="ansi").render() == "(no game: call reset)"
    env = GymEnv(opponent="random", seat=1, render_mode="human")
    env.reset(seed=3)
    assert capsys.readouterr().out == "player_1's view:\n" + env.game.render(viewer=1) + "\n"


# -- misuse (issue 21): clear errors, or PettingZoo's documented behaviour ---------------

def test_aec_before_reset_and_unknown_agents_are_clear_errors():
    env = aec_env()
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), lambda: env.last()):
        with pytest.raises(RuntimeError, match=r"reset\(\) needs to be called"):
            call()
    env.reset(seed=1)
    for call in (lambda: env.observe("player_2"), lambda: env.observation_space("x"),
                 lambda: env.action_space(None)):
        with pytest.raises(ValueError, match="unknown agent .* player_0, player_1"):
            call()


def test_aec_steps_after_every_agent_is_done_are_ignored_with_a_warning(caplog):
    env = aec_env(max_moves=2)
    env.reset(seed=1)
    env.step(legal_actions(env.game)[0])
    env.step(legal_actions(env.game)[0])            # truncated by the cap
    while env.agents:
        env.step(None)
    state = env.game.position_text()
    env.step(None)                                  # a dead step too many: ignored
    env.step(3)
    assert env.game.position_text() == state and env.agents == []
    assert "step() called after all agents are terminated" in caplog.text
    assert not env.observe("player_0")["action_mask"].any()
    with pytest.raises(RuntimeError, match="call reset"):
        env.last()


@pytest.mark.parametrize("make", ["gym", "vector"])
def test_a_cap_before_the_agents_first_move_is_named(make):
    """seat=1, max_moves=1: the opponent's first move uses up the cap; this used to
    blame 'rules that let the first player win at once'."""
    if make == "gym":
        env = GymEnv(seat=1, max_moves=1)
    else:
        env = cuttle.rl.VectorEnv(2, opponent="random", seat=1, max_moves=1)
    with pytest.raises(RuntimeError, match=r"move cap \(max_moves=1\) ended the game "
                                           r"before the agent's first move"):
        env.reset(seed=1)
    rules = cuttle.Rules(king_goals=(1, 1, 1, 1, 1))  # the opponent's first points win
    env = GymEnv(rules=rules, seat=1) if make == "gym" else \
        cuttle.rl.VectorEnv(2, rules=rules, opponent="greedy", seat=1)
    with pytest.raises(RuntimeError, match="won at once under these rules"):
        env.reset(seed=1)



class Crash(Exception):
    pass


@pytest.mark.parametrize("when", ["reset", "step"])
def test_an_opponent_that_fails_ends_the_episode(when):
    """An opponent that raises while it moves (a callable's bug, Ctrl-C in a search)
    used to leave the episode running with the opponent to decide: the agent's next
    step played the opponent's move, and action_masks() showed the opponent's legal
    actions (its hand)."""
    armed = []

    def flaky(game):
        if armed:
            raise Crash
        return game.legal_moves[0]

    env = GymEnv(opponent=flaky, seat=1)
    env.reset(seed=1)                                   # an episode under way
    env.step(legal_actions(env.game)[0])
    armed.append(True)
    with pytest.raises(Crash):
        if when == "reset":
            env.reset(seed=2)
        else:
            for _ in range(100):
                env.step(legal_actions(env.game)[0])
    assert env.game.to_move != env.seat                 # the opponent was to decide
    assert not env.action_masks().any()                 # nothing is the agent's
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    armed.clear()
    env.reset(seed=2)                                   # a reset starts afresh
    assert env.action_masks().any() and env.game.to_move == env.seat


def test_gym_action_masks_before_reset_raise_as_step_does():
    # action_masks() before reset() returned an all-False mask, where step() raised.
    env = GymEnv(opponent="random")
    for call in (lambda: env.step(0), env.action_masks):
        with pytest.raises(RuntimeError, match=r"^call reset\(\) before .*: no episode "
                                               r"has started"):
            call()
    env.reset(seed=1)
    assert env.action_masks().any()


CLOSED = r"^the env is closed: reset\(\) starts it again"


@pytest.mark.parametrize("make", ["gym", "gym-infer", "aec"])
def test_after_close_the_env_refuses_to_play_until_reset(make):
    """close() in the middle of an episode left GymEnv and the PettingZoo env playing on
    (VectorEnv refused): now every env refuses its per-episode calls, the position
    kept, until a reset starts a new episode."""
    if make == "aec":
        env = aec_env()
    else:
        env = GymEnv(opponent="ismcts-infer:20" if make == "gym-infer" else "greedy")
    env.reset(seed=1)
    env.step(legal_actions(env.game)[0])
    if make == "aec":
        calls = (lambda: env.step(legal_actions(env.game)[0]),
                 lambda: env.observe(env.agent_selection), env.last)
    else:
        calls = (lambda: env.step(legal_actions(env.game)[0]), env.action_masks)
    before = list(env.game.moves)
    env.close()
    for _ in range(2):
        for call in calls:
            with pytest.raises(RuntimeError, match=CLOSED):
                call()
        env.close()                                 # (closing twice is allowed)
    assert list(env.game.moves) == before             # nothing was played
    env.reset(seed=1)
    assert env.game.ply == 0                        # a new episode
    for call in calls:
        call()
