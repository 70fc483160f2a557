"""The native observation encoding equals its readable twin, Observation.to_array(), and
the compact action space is a bijection onto the moves some position makes legal."""

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import cuttle
from cuttle import _actions, _observe
from cuttle.moves import Move
from cuttle.observation import (CARD_SLOTS, JACK_HEIGHT_AT, JACK_ON_AT, JACKS, LATE_PLANES,
                                LATE_PLANES_AT, OBSERVATION_SIZE, PHASE_AT, PLANES, SCALARS,
                                SCALARS_AT, TARGET_AT, jack_places, plane)
from cuttle.rl.spaces import (ACTION_BLOCKS, ACTION_SPACE, OBSERVATION_HIGH, action_mask,
                              action_of, legal_actions, move_of)

from support.helpers import (jack_places_of, pending_target_of, placing_moves, placing_rules,
                             random_rules, targeting_moves, targeting_rules, walk)

SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def check_position(g):
    arrays = []
    for p in (0, 1):
        slow = g.observation(p).to_array()
        fast = g.observation_array(p)
        assert fast.dtype == np.float32 and fast.shape == (OBSERVATION_SIZE,)
        assert fast.tobytes() == slow.tobytes(), (g.rules, g.moves)
        assert (fast >= 0).all() and (fast <= OBSERVATION_HIGH).all()
        arrays.append(fast)
    # What is public reads the same from both seats.
    for mine, theirs in (("own_frozen", "opponent_frozen"),
                         ("own_frozen_next", "opponent_frozen_next")):
        for p in (0, 1):
            assert (plane(arrays[p], mine) == plane(arrays[1 - p], theirs)).all()
    assert (plane(arrays[0], "deck_depth") == plane(arrays[1], "deck_depth")).all()
    # Each Jack on the table: on its point card, at its height in that stack (the game's
    # own account of the stacks); the same from both seats.
    on, height = jack_places_of(g)
    for a in arrays:
        assert (jack_places(a)[0] == on).all() and (jack_places(a)[1] == height).all()
    # The card the move waiting on the stack targets (the moves' own account), marked
    # alone; the same from both seats.
    target = pending_target_of(g)
    for p, a in enumerate(arrays):
        assert g.observation(p).target == target
        assert set(np.flatnonzero(plane(a, "target"))) == ({target.index} if target else set())
    acts = legal_actions(g)
    assert acts == sorted(action_of(m) for m in g.legal_moves)
    assert [move_of(a) for a in acts] == sorted(g.legal_moves, key=action_of)
    mask = action_mask(g)
    assert mask.dtype == np.int8 and mask.sum() == len(g.legal_moves)
    assert mask[acts].all()


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_native_encoding_equals_to_array_under_random_rules(rules_seed, seed):
    rules = random_rules(random.Random(rules_seed), p_change=0.4)
    for g in walk(rules, seed):
        check_position(g)


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1),
       st.sampled_from(["freeze", "topdeck"]))
def test_native_encoding_equals_to_array_where_cards_are_frozen_or_placed(rules_seed, seed,
                                                                          nine):
    # 7s, own-side 9s, Jacks and 2s and 9s on Jacks played often: known deck cards,
    # freezes into the next turn, Jack stacks built and taken apart.
    for g in walk(placing_rules(rules_seed, nine), seed, placing_moves):
        check_position(g)


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_native_encoding_equals_to_array_where_moves_on_the_stack_target_cards(rules_seed,
                                                                               seed):
    # Targeted one-offs, scuttles a 10 may block and glasses an 8 may break played often.
    for g in walk(targeting_rules(rules_seed), seed, targeting_moves):
        check_position(g)


@pytest.mark.parametrize("preset", cuttle.Rules.presets)
def test_native_encoding_equals_to_array_where_one_offs_target_cards_in_every_preset(preset):
    for seed in range(6):
        for g in walk(preset, seed, targeting_moves):
            check_position(g)


def test_the_random_positions_mark_every_kind_of_target():
    # The equality tests see the target plane set by every targeted move that waits on
    # the stack, under the presets and the variants.
    hits = Counter()
    walks = [(preset, seed) for preset in ("classic", "cuttle.cards") for seed in range(30)]
    walks += [(targeting_rules(seed), seed) for seed in range(150)]
    for rules, seed in walks:
        for g in walk(rules, seed, targeting_moves):
            target = pending_target_of(g)
            if target is None:
                continue
            a = g.observation_array(g.to_move)
            assert np.flatnonzero(plane(a, "target")).tolist() == [target.index]
            card = g.stack[0]
            where = ("a Jack" if target.rank == 11 else "a permanent"
                     if any(target in g.permanents(s) for s in (0, 1)) else "a point card")
            kind = "scuttle" if g.phase == "block" else f"{card.rank}"
            hits[f"{kind} on {where}"] += 1
            hits[f"{kind} under {'a preset' if isinstance(rules, str) else 'variants'}"] += 1
    wanted = ["2 on a permanent", "2 on a Jack", "9 on a permanent", "9 on a Jack",
              "9 on a point card", "8 on a permanent", "scuttle on a point card",
              "2 under a preset", "9 under a preset", "2 under variants", "9 under variants"]
    assert all(hits[name] >= 5 for name in wanted), hits


def jacks_placed(g):
    """{Jack: (point card, height)} of the Jacks on the table, from the encoding."""
    on, height = jack_places(g.observation_array(0))
    return {j: (int(on[k].argmax()), float(height[k])) for k, j in enumerate(JACKS)
            if height[k]}


def test_the_random_positions_mark_every_late_plane_and_move_jacks():
    # The equality tests see the late planes set, not only zeros, and Jacks in every
    # situation: several on the table, stacked on one card, taken off by a 9 or a 2
    # (from a stack that keeps a Jack, too).
    hits = Counter()
    for seed in range(100):
        before = {}
        for g in walk(placing_rules(seed, ("freeze", "topdeck")[seed % 2]), seed, placing_moves):
            for p in (0, 1):
                a = g.observation_array(p)
                hits.update(name for name in LATE_PLANES if plane(a, name).any())
            placed = jacks_placed(g)
            hits["several Jacks"] += len(placed) >= 2
            hits["stacked"] += any(h > 0.25 for _, h in placed.values())
            oneoff = next((m for m in reversed(g.moves) if m.verb == "oneoff"), None)
            if g.moves and g.moves[-1].verb == "resolve" and len(oneoff.cards) == 2 and \
                    oneoff.cards[1] in before and oneoff.cards[1] not in placed:
                hits[f"Jack taken off by a {oneoff.cards[0].rank}"] += 1
                card = before[oneoff.cards[1]][0]
                hits["Jack taken off a stack"] += any(c == card for c, _ in placed.values())
            before = placed
    wanted = list(LATE_PLANES) + ["several Jacks", "stacked", "Jack taken off by a 2",
                                  "Jack taken off by a 9", "Jack taken off a stack"]
    assert all(hits[name] >= 5 for name in wanted), hits


def test_the_layout_fills_the_cores_size():
    assert SCALARS_AT == CARD_SLOTS * len(PLANES) == 742
    assert PHASE_AT == SCALARS_AT + len(SCALARS) and LATE_PLANES_AT == 762
    assert JACK_ON_AT == LATE_PLANES_AT + CARD_SLOTS * len(LATE_PLANES) == 974
    assert JACK_HEIGHT_AT == JACK_ON_AT + 4 * 40 and JACKS == ("JC", "JD", "JH", "JS")
    assert TARGET_AT == JACK_HEIGHT_AT + 4 == 1138
    assert OBSERVATION_SIZE == _observe.OBSERVATION_SIZE == TARGET_AT + CARD_SLOTS == 1191
    a = np.arange(OBSERVATION_SIZE)
    assert (plane(a, "own_hand") == np.arange(53)).all()
    assert (plane(a, "deck_depth") == np.arange(921, 974)).all()
    assert plane(np.zeros((3, OBSERVATION_SIZE)), "opponent_frozen").shape == (3, 53)
    on, height = jack_places(a)
    assert on.shape == (4, 40) and (on[1] == np.arange(1014, 1054)).all()
    assert (height == np.arange(1134, 1138)).all()
    assert (plane(a, "target") == np.arange(1138, 1191)).all()
    on, height = jack_places(np.zeros((3, OBSERVATION_SIZE)))
    assert on.shape == (3, 4, 40) and height.shape == (3, 4)
    with pytest.raises(ValueError, match="no plane 'frozen'"):
        plane(a, "frozen")
    # Another length (the old 762 or 1,138, OpenSpiel's public view) is refused, not
    # sliced.
    for bad in (np.zeros(762), np.zeros(1138), np.zeros((2, OBSERVATION_SIZE + 2)),
                np.float32(0.0)):
        with pytest.raises(ValueError, match="OBSERVATION_SIZE = 1191"):
            plane(bad, "deck_depth")
        with pytest.raises(ValueError, match="OBSERVATION_SIZE = 1191"):
            jack_places(bad)


@pytest.mark.parametrize("preset", cuttle.Rules.presets)
def test_native_encoding_equals_to_array_for_every_preset(preset):
    for seed in range(8):
        for g in walk(preset, seed):
            check_position(g)


def test_batched_encoding_and_output_buffers():
    rng = random.Random(3)
    games = [g.copy() for g in walk("cuttle.cards", 5)][:60:3]
    players = [rng.randint(0, 1) for _ in games]
    out = np.full((len(games), OBSERVATION_SIZE), 7.0, np.float32)
    _observe.observe_many(games, players, out, 2)
    for row, g, p in zip(out, games, players):
        assert row.tobytes() == g.observation(p).to_array().tobytes()
    g = games[-1]
    buf = np.full(OBSERVATION_SIZE, 3.0, np.float32)
    assert g.observation_array(1, out=buf) is buf
    assert buf.tobytes() == g.observation(1).to_array().tobytes()
    read_only = np.zeros(OBSERVATION_SIZE, np.float32)
    read_only.flags.writeable = False
    for bad in (np.zeros(OBSERVATION_SIZE, np.float64), np.zeros(10, np.float32),
                np.zeros((2, OBSERVATION_SIZE), np.float32)[:, 0], [0.0] * OBSERVATION_SIZE,
                np.zeros((1, OBSERVATION_SIZE), np.float32), read_only,
                np.zeros(OBSERVATION_SIZE, ">f4" if np.little_endian else "<f4"),
                np.zeros(2 * OBSERVATION_SIZE, np.float32)[::2], "not an array"):
        before = bad.copy() if isinstance(bad, np.ndarray) else None
        with pytest.raises(ValueError, match="writable contiguous float32"):
            g.observation_array(0, out=bad)
        if before is not None:                      # nothing written
            assert np.array_equal(bad, before)
    with pytest.raises(ValueError):
        g.observation_array(2)
    with pytest.raises(ValueError):
        _observe.observe_many(games, players[:-1], out)
    # bools are not players, nor is a negative count threads (it meant every core);
    # a refusal writes nothing
    out[:] = 5.0
    for bad_players, threads in (([True] + players[1:], 1), (players[:-1] + [2], 1),
                                 (players, -1), (players, 1.0), (players, True)):
        with pytest.raises(ValueError, match="players|threads"):
            _observe.observe_many(games, bad_players, out, threads)
    assert (out == 5.0).all()
    for threads in (0, None, np.int64(1)):
        _observe.observe_many(games, players, out, threads)
        assert out[0].tobytes() == games[0].observation(players[0]).to_array().tobytes()


def test_the_action_space_is_a_bijection_onto_possible_moves():
    codes = np.array([_actions.code_of_action(a) for a in range(ACTION_SPACE)])
    assert len(set(codes.tolist())) == ACTION_SPACE
    back = np.full(1 << 16, -1)              # every move code's action, -1 for none
    for m in range(1 << 16):
        try:
            back[m] = _actions.action_of_code(m)
        except ValueError:
            pass
    assert (back >= 0).sum() == ACTION_SPACE
    assert (back[codes] == np.arange(ACTION_SPACE)).all()
    for a in range(ACTION_SPACE):
        m = Move.from_code(int(codes[a]))            # every action is a well-formed move
        assert action_of(m) == a and action_of(str(m)) == a and move_of(a) == m
    # The blocks tile the space in order.
    start = 0
    for name, first, size in ACTION_BLOCKS:
        assert first == start and size > 0, name
        verbs = {move_of(a).verb for a in range(first, first + size)}
        assert len(verbs) == 1, name
        start += size
    assert start == ACTION_SPACE


def test_codec_errors():
    for bad in (-1, ACTION_SPACE, 2.0, True, None, "3"):
        with pytest.raises(ValueError):
            move_of(bad)
    with pytest.raises(ValueError):
        action_of(0)                     # "draw" with card fields set: no move
    with pytest.raises(ValueError):
        action_of(1 << 16)


def test_every_move_a_game_offers_has_an_action_in_odd_phases():
    # A 4 against a big hand: the two-card discards are the largest legal lists.
    g = cuttle.Game.from_position(
        "classic", hands=(["4C", "AS"], ["2H", "3D", "5S", "6C", "7D", "8H", "9S", "TD",
                                         "JH", "QC", "KS"]), deck=["AD"], rest="scrap")
    g.play("oneoff 4C")
    g.play("resolve")
    assert g.phase == "four" and len(g.legal_moves) == 55
    check_position(g)
