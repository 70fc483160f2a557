"""Pickles from outside are validated whole: every reachable state loads, and a tampered
state, history or move list either loads as a sound game or is refused with a
ValueError -- never a crash, an IndexError or a corrupt game that plays on."""

import pickle
import random
import re
import struct

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import cuttle
from support.helpers import random_game, random_rules, same_position, zones

INTERESTING = [-(2**31), -2, -1, 0, 1, 2, 3, 4, 5, 9, 10, 11, 39, 40, 52, 53, 62, 63, 64,
               100, 127, 128, 255, 2**16, 10**8, 2**31 - 1]


STATE = 3       # the pickle argument holding (state bytes, history bytes, move bytes)


def parts(g):
    """(rebuild function, its arguments) of a pickled game."""
    fn, args = g.__reduce__()
    return fn, list(args)


def load(fn, args, st=None, hist=None, moves=None):
    state = list(args[STATE])
    for i, v in enumerate((st, hist, moves)):
        if v is not None:
            state[i] = v
    return fn(*args[:STATE], tuple(state), *args[STATE + 1:])


def exercise(g, rng):
    """Everything a user may do with a loaded game; must never crash."""
    assert len(zones(g)) == (53 if g.rules.joker else 52)
    assert len({c for c, _ in zones(g)}) == len(zones(g))
    str(g), repr(g), g.render(0), g.observation(0), g.observation(1), g.moves
    g.legal_move_mask()
    g.copy()
    if g.phase == "main":
        try:
            text = g.position_text()
        except ValueError as e:
            assert "position text cannot carry this position" in str(e)
        else:                            # written: read back as the same position
            same_position(cuttle.Game.from_text(text), g)
    if not g.is_over:
        cuttle.analyse(g, rollouts=2, seed=1, threads=1)
        cuttle.Bot("greedy", seed=1).choose(g)
        g.determinize(g.to_move, seed=3)
    while g.ply:
        g.undo()
    for _ in range(60):
        if g.is_over:
            break
        g.play(rng.choice(list(g.legal_moves)))
        pickle.loads(pickle.dumps(g))    # a sound game plays on into sound positions only


def test_every_reachable_state_round_trips():
    rng = random.Random(1)
    for i in range(150):
        g = cuttle.Game(random_rules(rng, p_change=0.4), seed=rng.getrandbits(32))
        while not g.is_over and g.ply < 300:
            g.play(rng.choice(list(g.legal_moves)))
            if g.ply % 7 == 0 or g.is_over:
                back = pickle.loads(pickle.dumps(g))
                assert back == g and back.moves == g.moves and str(back) == str(g)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.data())
def test_tampered_state_bytes_are_refused_or_sound(seed, data):
    rng = random.Random(seed)
    g = random_game(rng, max_moves=rng.randint(0, 40))
    fn, args = parts(g)
    st_bytes = bytearray(args[STATE][0])
    for _ in range(data.draw(st.integers(1, 3))):
        if data.draw(st.booleans()):
            at = data.draw(st.integers(0, len(st_bytes) - 1))
            st_bytes[at] = data.draw(st.integers(0, 255))
        else:
            at = data.draw(st.integers(0, len(st_bytes) // 4 - 1)) * 4
            st_bytes[at:at + 4] = struct.pack("<i", data.draw(st.sampled_from(INTERESTING)))
    try:
        back = load(fn, args, st=bytes(st_bytes))
    except ValueError as e:
        assert "pickled game" in str(e)
        return
    exercise(back, rng)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.data())
def test_tampered_history_is_refused_or_sound(seed, data):
    rng = random.Random(seed)
    g = random_game(rng, max_moves=rng.randint(1, 30))
    fn, args = parts(g)
    _, hist, moves = args[STATE]
    if not moves:
        return
    which = data.draw(st.sampled_from(["hist", "moves", "truncate"]))
    if which == "truncate":
        k = data.draw(st.integers(0, len(moves) // 4 - 1))
        hist, moves = hist[:len(hist) // (len(moves) // 4) * k], moves[:4 * k]
        kw = {"hist": hist, "moves": moves}
    else:
        buf = bytearray(hist if which == "hist" else moves)
        at = data.draw(st.integers(0, len(buf) - 1))
        buf[at] = data.draw(st.integers(0, 255))
        kw = {which: bytes(buf)}
    try:
        back = load(fn, args, **kw)
    except ValueError as e:
        assert "pickled game" in str(e)
        return
    exercise(back, rng)


@pytest.mark.parametrize("field, value", [("st", b""), ("st", b"\0" * 7), ("hist", b"x"),
                                           ("moves", b"abc")])
def test_wrong_sizes_are_refused(field, value):
    fn, args = parts(cuttle.Game(seed=1))
    with pytest.raises(ValueError, match="pickled game"):
        load(fn, args, **{field: value})


def test_a_zeroed_state_is_refused():
    fn, args = parts(cuttle.Game(seed=1))
    with pytest.raises(ValueError, match="corrupt pickled game: a card is missing"):
        load(fn, args, st=bytes(len(args[STATE][0])))


@pytest.mark.parametrize("call", [
    lambda g: g._core_hand(10**6), lambda g: g._core_hand(-1), lambda g: g._core_points(2),
    lambda g: g._core_permanents(10**18), lambda g: g._core_frozen(5), lambda g: g._core_score(9),
    lambda g: g._core_goal(-3), lambda g: g._core_known_hand(2), lambda g: g._core_hand_public(7),
    lambda g: g._core_determinize(3, 1),
    lambda g: g._core_deal(-1), lambda g: g._core_play(-5), lambda g: g._core_play(2**40),
])
def test_the_native_game_checks_every_index(call):
    """Nothing reachable from Python indexes out of bounds (issue: _core_hand(10**6)
    used to crash the process)."""
    g = cuttle.Game(seed=1)
    before = g._core_state_bytes()
    with pytest.raises((ValueError, OverflowError, TypeError)):
        call(g)
    assert g._core_state_bytes() == before
    assert g._core_jacks(10**9) == [] and g._core_jacks(-1) == []


def test_loading_a_bad_layout_leaves_the_game_untouched():
    from cuttle.position import layout
    g = cuttle.Game(seed=1)
    before = g._core_state_bytes()
    good = layout(hands=(["AC"], []), seed=1)
    for bad in (good.__class__(**{**good.__dict__, "deck": tuple(range(60))}),
                good.__class__(**{**good.__dict__, "hands": ((99,), ())}),
                good.__class__(**{**good.__dict__, "stacks": {3: (40, 41, 42, 43, 40)}}),
                good.__class__(**{**good.__dict__, "scrap": good.scrap + (0,)}),
                good.__class__(**{**good.__dict__, "frozen": ((1,), ())}),   # not in hand
                good.__class__(**{**good.__dict__, "frozen": ((0,), ())}),   # classic rules
                good.__class__(**{**good.__dict__, "frozen": ((0,),)}),
                good.__class__(**{**good.__dict__, "frozen": ((99,), ())})):
        with pytest.raises(ValueError):
            g._core_load(bad)
        assert g._core_state_bytes() == before


def test_rollouts_refuse_moves_that_are_not_legal():
    from cuttle._rollouts import rollouts
    g = cuttle.Game(seed=1)
    legal = [m.code for m in g.legal_moves]
    assert rollouts(g, legal[:2], 0, 3, 1, 0, 1).shape == (2, 3)
    for bad in ([65535], [legal[0], 2**31], [cuttle.Move.parse("points KS").code]):
        with pytest.raises((ValueError, OverflowError)):
            rollouts(g, bad, 0, 3, 1, 0, 1)


def test_a_game_past_its_goal_that_is_not_over_is_refused():
    # A running game with 19 points pickled with rules whose goal is 5 loaded as a
    # game that plays on.  (A game with a history is also caught by the replay of its
    # moves; this one has none.)
    g = cuttle.Game.from_position(hands=(["2C"], ["3D"]), points=(["TC", "9C"], []),
                                  seed=1)
    fn, args = parts(g)
    args[1] = cuttle.Rules(king_goals=(5, 5, 5, 5, 5))
    with pytest.raises(ValueError, match="corrupt pickled game"):
        fn(*args)
    assert fn(*parts(g)[1]) == g


def test_a_game_longer_than_its_move_cap_is_refused():
    g = cuttle.Game(seed=1)
    for _ in range(10):
        g.play(list(g.legal_moves)[0])
    fn, args = parts(g)
    for cap in (3, 9, 10):
        args[4] = cap
        with pytest.raises(ValueError, match=f"10 moves played, yet its move cap is {cap}"):
            fn(*args)
    args[4] = 11
    assert fn(*args).max_moves == 11


@pytest.mark.parametrize("seed", ["abc", -1, 2**70, 1.5, None, True])
def test_a_pickled_games_seed_is_checked(seed):
    fn, args = parts(cuttle.Game(seed=1))
    args[2] = seed
    with pytest.raises(ValueError, match="seed must be an int"):
        fn(*args)


@pytest.mark.parametrize("cap", ["x", 0, True, 2.5])
def test_a_pickled_games_move_cap_is_checked_as_a_corrupt_pickle(cap):
    # (refused with the constructor's words alone, not saying it was the pickle)
    fn, args = parts(cuttle.Game(seed=1))
    args[4] = cap
    with pytest.raises(ValueError, match="^corrupt pickled game: max_moves must be None"):
        fn(*args)


@pytest.mark.parametrize("rules", ["classic", None, 3])
def test_a_pickled_games_rules_are_rules(rules):
    fn, args = parts(cuttle.Game(seed=1))
    args[1] = rules
    with pytest.raises(ValueError, match="its rules are"):
        fn(*args)


@pytest.mark.parametrize("state", [
    lambda st: tuple(bytearray(b) for b in st), lambda st: st[:2], lambda st: st + (b"",),
    lambda st: None, lambda st: 5, lambda st: (1, 2, 3), lambda st: list(st)])
def test_a_pickled_games_state_is_a_tuple_of_three_bytes(state):
    # (they raised TypeError from the native code)
    fn, args = parts(cuttle.Game(seed=1))
    args[STATE] = state(args[STATE])
    with pytest.raises(ValueError, match="corrupt pickled game: its state must be a tuple"):
        fn(*args)


@pytest.mark.parametrize("cls", [int, object, cuttle.Rules, None, "Game"])
def test_a_pickled_games_class_is_a_game(cls):
    # (AttributeError: _attach)
    fn, args = parts(cuttle.Game(seed=1))
    args[0] = cls
    with pytest.raises(ValueError, match="corrupt pickled game: its class is"):
        fn(*args)


def test_a_pickled_game_of_a_subclass_loads_as_it():
    class Mine(cuttle.Game):
        pass
    fn, args = parts(cuttle.Game(seed=1))
    args[0] = Mine
    assert type(fn(*args)) is Mine


def test_a_pickled_games_prior_moves_round_trip_and_are_checked():
    # A determinization's prior moves (the moves of the game it was drawn from) are
    # pickled as their codes, each checked to be a move of the rules' cards.
    g = random_game(random.Random(3), max_moves=30, rules=cuttle.Rules())
    d = g.determinize(g.to_move, seed=4)
    fn, args = parts(d)
    assert len(args) == 9 and args[8] == [m.code for m in g.moves] and len(g.moves) == 30
    back = fn(*args)
    assert back == d and back.prior_moves == tuple(g.moves) and back.moves == []
    assert fn(*args[:8]).prior_moves == () and len(parts(g)[1]) == 5    # none: not written
    joker, draw = cuttle.Move("points JK").code, cuttle.Move("draw").code
    for bad, said in ((5, "a list of move codes, not int"),
                      ("draw", "a list of move codes, not str"),
                      ([1.5], "move 0 is float, not a move code"),
                      ([draw, True], "move 1 is bool"),
                      ([draw, 70000], "move 1: move code 70000 is no move"),
                      ([15], "move 0: move code 15 is no move"),
                      ([draw, joker], "move 1, points JK, names JK, not a card of its rules' "
                                   "deck of 52 cards")):
        args[8] = bad
        with pytest.raises(ValueError, match=r"^corrupt pickled game: its prior moves: " +
                           re.escape(said)):
            fn(*args)
    args[8] = tuple(m.code for m in g.moves)            # a tuple too
    assert fn(*args) == d


@pytest.mark.parametrize("changed", [[("four", "random")], {1: 2}, None, "four=random"])
def test_pickled_rules_changes_are_a_dict_of_flag_names(changed):
    fn, args = cuttle.Rules("classic", four="random").__reduce__()
    assert fn(*args) == cuttle.Rules("classic", four="random")
    with pytest.raises(ValueError, match="corrupt pickled rules: the changed flags must"):
        fn(args[0], changed)


@pytest.mark.parametrize("name, threads", [("greedy", None), ("ismcts", None),
                                           ("ismcts:40", 2)])
def test_bots_pickle_as_their_arguments_and_decision_count(name, threads):
    g = cuttle.Game(seed=2)
    bot = cuttle.Bot(name, seed=5, threads=threads)
    bot.choose(g)
    copy = pickle.loads(pickle.dumps(bot))
    assert (copy.name, copy.seed, copy.threads, copy._calls) == (bot.name, 5, bot.threads, 1)
    # Its next decision draws from the seed of the original's next one: without trees
    # kept, that is the original's choice too when the original keeps none either.
    again = pickle.loads(pickle.dumps(bot))
    assert copy.choose(g) == again.choose(g)
    with pytest.raises(ValueError, match="count of decisions"):
        fn, args = bot.__reduce__()
        fn(*args[:3], -1)


@given(given_=st.none() | st.booleans() | st.integers() | st.text(max_size=3)
       | st.lists(st.booleans() | st.integers(0, 1) | st.none(), max_size=3)
       | st.tuples(st.booleans(), st.booleans()) | st.tuples(st.integers(), st.text()),
       threads=st.sampled_from([1, 2]))
def test_a_pickled_bot_s_given_is_two_bools_its_threads_agree_with(given_, threads):
    # None raised "'NoneType' object is not subscriptable"; (1, 2, 3) and ('a', 'b')
    # loaded as (True, True), a repr naming a seed and threads never given.
    from cuttle.policies import _unpickle_bot
    ok = isinstance(given_, tuple) and len(given_) == 2 \
        and all(type(x) is bool for x in given_) and (given_[1] or threads == 1)
    if ok:
        bot = _unpickle_bot("ismcts:100", 3, threads, 0, given_)
        assert pickle.loads(pickle.dumps(bot)).__reduce__()[1] == ("ismcts:100", 3, threads,
                                                                  0, given_)
    else:
        with pytest.raises(ValueError, match="^corrupt pickled bot: "):
            _unpickle_bot("ismcts:100", 3, threads, 0, given_)


def test_a_vector_env_refuses_to_pickle_clearly():
    from cuttle.rl import VectorEnv
    with pytest.raises(TypeError, match="a VectorEnv cannot be pickled"):
        pickle.dumps(VectorEnv(2, threads=1))


def _exception_classes():
    """Every exception class defined in cuttle (modules of optional extras that are not
    installed are skipped)."""
    import importlib
    import pkgutil
    found = {}
    for info in pkgutil.walk_packages(cuttle.__path__, "cuttle."):
        try:
            module = importlib.import_module(info.name)
        except ImportError:
            continue
        for obj in vars(module).values():
            if isinstance(obj, type) and issubclass(obj, BaseException) \
                    and obj.__module__.startswith("cuttle"):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return found


class _Result:
    """A stand-in for an interrupted run's partial result."""
    played_records = 3

    def __eq__(self, other):
        return type(other) is _Result


# Constructor arguments of the classes that take more than a message.
_ARGS = {"cuttle.errors.Interrupted": (_Result(), 5, 10, "match"),
         "cuttle.variants.run.AtlasInterrupted": (_Result(), "r.jsonl"),
         "cuttle.simulation.results.GamesNotKept": ("per-game rows",),
         "cuttle._play.BatchInterrupted": (2, []),
         "cuttle.simulation.runner.ChunkInterrupted": (3, _Result()),
         "cuttle.web.sessions.WebError": (404, "no such game"),
         "cuttle.deal_search._AtMove": ("move 2 ('draw'): ...", 2),
         "cuttle.deal_search.NoFit": ("move 4 ('points 7H'): no deal ...", 4),
         "cuttle.deal_search.FitCutOff": ("move 9 ('draw'): the search ... was cut off ...", 9),
         "cuttle.errors.PolicyError": ("the policy of player A raised KeyError", 7, "A"),
         "cuttle.balancing.search.OtherSearchError": ("r.jsonl",
                                                      [("classic", "expert", 1, 10000)]),
         "cuttle.variants.errors.NothingToReport": ("r.jsonl", [("classic", "expert", 1, 2000)],
                                                   ["r.jsonl: its last line is incomplete"],
                                                   ["four=draw"],
                                                   [("classic", "expert", 1, 2000)]),
         "cuttle.variants.errors.OtherFingerprint": (
             "r.jsonl", 2, ("classic", "classic", ("random", "random"), 1, 10000, 1000, 0),
             "0123456789abcdef", "fedcba9876543210", "a run whose group had other variants")}


@pytest.mark.parametrize("name", sorted(_exception_classes()))
def test_every_exception_round_trips_through_pickle(name):
    """Issue 21: cuttle.Interrupted pickled but did not unpickle, which breaks
    multiprocessing and dask (an exception crosses processes as a pickle)."""
    cls = _exception_classes()[name]
    e = cls(*_ARGS.get(name, ("a message",)))
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(e, protocol))
        assert type(back) is cls and str(back) == str(e) and back.args == e.args
        assert vars(back) == vars(e)


def test_the_exceptions_found_include_the_public_ones():
    names = set(_exception_classes())
    assert {"cuttle.errors.Interrupted", "cuttle.errors.IllegalMoveError",
            "cuttle.errors.InvalidMoveError", "cuttle.variants.errors.ResultsFileError",
            "cuttle.variants.run.AtlasInterrupted", "cuttle.cli.options.UsageError"} <= names


def test_interrupted_without_a_total_has_a_message():
    assert str(cuttle.Interrupted(None, 3, None, "rollout")) == "interrupted after 3 rollouts"


# -- states each field of which is in range, but that no game can reach ----------------

def tampered_state(g, **fields):
    """g's State bytes with fields set ({name: value}, or {name: (index, value)} for an
    array's element)."""
    from cuttle._core import _state_layout
    layout = _state_layout()
    b = bytearray(parts(g)[1][STATE][0])
    for name, value in fields.items():
        at, fmt = layout[name]
        i, v = value if isinstance(value, tuple) else (0, value)
        struct.pack_into(fmt, b, at + i * struct.calcsize(fmt), v)
    return bytes(b)


def tampered(g, **fields):
    """g's pickle with State fields set (`tampered_state`), loaded the way pickle.loads
    loads it."""
    fn, args = parts(g)
    return load(fn, args, st=tampered_state(g, **fields))


def field(g, name, i=0):
    from cuttle._core import _state_layout
    at, fmt = _state_layout()[name]
    return struct.unpack_from(fmt, parts(g)[1][STATE][0], at + i * struct.calcsize(fmt))[0]


def pending(hands, card, phase, actor, to_move, rules="classic", target=None):
    """A position whose `card` (taken from the actor's hand) is on the stack in
    `phase`; `target`: a glasses-8 of the other player's, the one-off's target."""
    from cuttle._core import PHASE_NAMES
    glasses = ([], [target]) if actor == 0 else ([target], [])
    g = cuttle.Game.from_position(rules, hands=hands, seed=3,
                                  permanents=glasses if target else ([], []))
    c = cuttle.Card(card).index
    return g, dict(hand=(actor, field(g, "hand", actor) & ~(1 << c)),
                   known_hand=(1 - actor, field(g, "known_hand", 1 - actor) & ~(1 << c)),
                   phase=PHASE_NAMES.index(phase), stack_len=1, stack=c, actor=actor,
                   to_move=to_move, target=cuttle.Card(target).index if target else -1)


def test_garbage_above_a_jack_stack_is_refused():
    # (it was OR-ed into the next Jack pushed: JD vanished and JS was in two places)
    g = cuttle.Game.from_position(hands=(["5C"], ["JD", "4H"]), points=(["TH[JC]"], []),
                                  deck=["JS"], to_move=1, seed=3)
    th = cuttle.Card("TH").index
    with pytest.raises(ValueError, match="Jack stack is malformed"):
        tampered(g, jack_stacks=(th, field(g, "jack_stacks", th) | 3 << 5))


@pytest.mark.parametrize("hands, card, phase, actor, to_move, rules", [
    ((["KC", "5H"], ["4D"]), "KC", "counter", 0, 1, "classic"),     # a King: no one-off
    ((["8C", "5H"], ["4D"]), "8C", "counter", 0, 1, "glasses"),     # 8s break no glasses
    ((["TC", "5H"], ["4D"]), "TC", "counter", 0, 1, "classic"),     # 10s discard nothing
    ((["5H"], ["4C", "4D"]), "4C", "counter", 1, 0, "classic"),     # not the turn's player
    ((["4C", "5H"], ["4D", "9S"]), "4C", "four", 0, 0, "classic"),  # the caster discards
    ((["4C", "5H"], ["4D", "9S"]), "4C", "four", 0, 1,
     "classic: four=random"),                                       # a random 4 asks nobody
    ((["5C", "5H"], ["4D"]), "5C", "three", 0, 0, "classic"),      # a 5 in the 3's phase
    ((["5C", "5H"], ["4D"]), "5C", "five", 0, 0, "classic"),       # the 5 draws two
    ((["TC", "5H"], ["4D"]), "TC", "ten", 0, 1, "classic"),        # no 10 one-offs
])
def test_a_pending_choice_the_rules_cannot_have_is_refused(hands, card, phase, actor,
                                                          to_move, rules):
    target = "8D" if rules == "glasses" else None
    g, fields = pending(hands, card, phase, actor, to_move,
                        "classic" if target else rules, target)
    with pytest.raises(ValueError, match="corrupt pickled game: a phase, a card on the "
                                         "stack|corrupt pickled game: the phase"):
        tampered(g, **fields)


def test_the_same_choices_load_where_the_rules_have_them():
    # (the refusals above are about the rules, not about tampering as such)
    g, fields = pending((["4C", "5H"], ["4D", "9S"]), "4C", "four", 0, 1)
    back = tampered(g, **fields)
    assert back.phase == "four" and back.to_move == 1 and back.legal_moves
    g, fields = pending((["TC", "5H"], ["4D"]), "TC", "counter", 0, 1,
                        "classic: ten_discards=true")
    assert tampered(g, **fields).phase == "counter"
    g, fields = pending((["8C", "5H"], ["4D"]), "8C", "counter", 0, 1,
                        "classic: eight_breaks_glasses=true", target="8D")
    assert tampered(g, **fields).phase == "counter"


def test_a_pending_choice_with_nothing_to_choose_is_refused():
    # a 3 with an empty scrap: no legal move in a game not over (bots then failed)
    g, fields = pending((["3C", "5H"], ["4D"]), "3C", "three", 0, 0)
    with pytest.raises(ValueError, match="no legal move"):
        tampered(g, **fields)


@pytest.mark.parametrize("fields, rules", [
    (dict(last_turn=0), "classic"),                          # no sudden death here
    (dict(frozen=(0, 0)), "classic"),                        # filled in below
    (dict(passes=3), "classic"),                             # the third pass ends it
    (dict(turn_number=2**31 - 1), "classic"),                # would overflow
    (dict(phase=9, end_reason=1, winner=1), "classic"),      # a win with no points
    (dict(phase=9, end_reason=1, winner=-1), "classic"),     # a "goal" without a winner
    (dict(phase=9, end_reason=3, winner=-1), "classic"),     # sudden death, not a rule
    (dict(phase=9, end_reason=2, winner=-1), "classic"),     # passes, without three
    (dict(phase=6), "classic"),                              # no hand limit
])
def test_fields_the_rules_or_the_game_contradict_are_refused(fields, rules):
    g = cuttle.Game(rules, seed=1)
    if "frozen" in fields:
        fields = dict(frozen=(0, field(g, "hand", 0) & -field(g, "hand", 0)))
    with pytest.raises(ValueError, match="corrupt pickled game"):
        tampered(g, **fields)


def test_a_freeze_its_opponent_does_not_know_is_refused():
    # a 9's return is public: a determinization from the opponent's view kept the
    # frozen card where it is only because the opponent knows it
    g = cuttle.Game.from_position("cuttle.cards", hands=(["2C", "9H"], ["4H"]),
                                  permanents=([], ["KD"]), seed=3)
    g.play("oneoff 9H KD")
    g.play("resolve")
    assert g.frozen(1) == ["KD"] and g.observation(0).opponent_known == ("KD",)
    assert pickle.loads(pickle.dumps(g)) == g
    with pytest.raises(ValueError, match="a frozen card is not known to the opponent"):
        tampered(g, known_hand=(0, 0))


def test_what_position_text_cannot_carry_of_a_loaded_state_is_refused():
    """A state no game reaches but the checks allow: position text refuses it rather
    than write another position.  (Freezes no 9 made are refused when loaded: below.)"""
    g = cuttle.Game.from_position("cuttle.cards: sudden_death=true", hands=(["2C"], ["3D"]),
                                  seed=3)
    with pytest.raises(ValueError, match="the sudden-death countdown runs while the deck "
                                         "holds cards"):
        tampered(g, last_turn=1).position_text()


# -- freezes: which ones a 9 makes (_checks.check_freezes, for pickles and positions) -----

def frozen_bits(*cards):
    return sum(1 << cuttle.Card(c).index for c in cards)


def with_freezes(raw, frozen=((), ()), frozen_next=((), ())):
    """State bytes `raw` (its first State: a game's, or a history's first) with these
    cards frozen, per player (frozen_next: from the holder's turn after next, as its own
    9 leaves them), each known to the other player, as a 9's return is."""
    from cuttle._core import _state_layout
    layout, out = _state_layout(), bytearray(raw)

    def put(name, i, value):
        offset, fmt = layout[name]
        struct.pack_into(fmt, out, offset + i * struct.calcsize(fmt), value)

    def get(name, i):
        offset, fmt = layout[name]
        return struct.unpack_from(fmt, out, offset + i * struct.calcsize(fmt))[0]

    for name, pair in (("frozen", frozen), ("frozen_next", frozen_next)):
        for p in (0, 1):
            bits = frozen_bits(*pair[p])
            put(name, p, bits)
            put("known_hand", 1 - p, get("known_hand", 1 - p) | bits)
    return bytes(out)


def freeze(g, frozen=((), ()), frozen_next=((), ())):
    """g's pickle with these cards frozen (`with_freezes`), loaded: the game, or the
    ValueError."""
    fn, args = parts(g)
    return load(fn, args, st=with_freezes(args[STATE][0], frozen, frozen_next))


_RULES_FREEZE = "classic: nine=freeze, joker=true"      # targets_own_side, no point cards


@pytest.mark.parametrize("rules, hands, frozen, frozen_next, message", [
    # frozen with no freeze in the rules
    ("classic", (["KC", "5H"], ["3D"]), (["KC"], []), ((), ()),
     r"frozen card KC: only the rule nine=freeze freezes cards \(these rules have "
     r"nine=return\)"),
    ("cuttle.cards: nine=topdeck", (["KC", "5H"], ["3D"]), ((), ()), ([], ["3D"]),
     r"frozen card 3D: only the rule nine=freeze .*nine=topdeck\)"),
    # cards no 9 returns to a hand
    (_RULES_FREEZE, (["JK", "5H"], ["3D"]), (["JK"], []), ((), ()),
     r"frozen card JK of player 0: no 9 returns the joker to a hand \(it is only ever "
     r"played as a one-off\), so it is never frozen"),
    (_RULES_FREEZE, (["KC", "5H"], ["3D"]), (["5H"], []), ((), ()),
     r"frozen card 5H of player 0: a 9 returns only Kings, Queens, glasses-8s and Jacks to "
     r"a hand when it may not target point cards \(these rules have "
     r"nine_targets_points=false\), so it is never frozen"),
    # the other player's, by its own 9 only, with targets_own_side
    ("cuttle.cards", (["2C", "5H"], ["3D"]), ((), ()), ([], ["3D"]),
     r"frozen card 3D of player 1, not to move: only its own 9 of its last turn could have "
     r"frozen it, and these rules' 9 targets only the other player's cards "
     r"\(targets_own_side=false\)"),
    (_RULES_FREEZE, (["KC"], ["KD", "QD"]), ((), ()), ([], ["KD", "QD"]),
     r"frozen cards QD KD of player 1, not to move: only its own 9 of its last turn could "
     r"have frozen them, and a 9 returns one card"),
    # one card for each 9 of the last two turns
    ("cuttle.cards", (["2C", "5H"], ["3D"]), (["2C", "5H"], []), ((), ()),
     r"2 frozen cards \(2C 5H\): a 9 returns one card, and only the last turn's 9 "
     r"\(targets_own_side=false\) can have frozen a card still frozen, so at most 1"),
    (_RULES_FREEZE, (["KC", "QC"], ["KD"]), (["KC", "QC"], []), ((), ["KD"]),
     r"3 frozen cards \(QC KC KD\): a 9 returns one card, and only the 9s of the last two "
     r"turns can have frozen a card still frozen, so at most 2"),
    # frozen by a 9 of this turn, which has not taken effect at the start of the turn
    ("cuttle.cards", (["2C", "5H"], ["3D"]), ((), ()), (["5H"], []),
     r"frozen card 5H of player 0, to move: only a 9 of this turn could have frozen it, "
     r"and none has taken effect this turn"),
    ("cuttle.cards", (["2C", "5H"], ["3D"]), ([], ["3D"]), ((), ()),
     r"frozen card 3D of player 1, not to move: only a 9 of this turn could have frozen "
     r"it, and none has taken effect this turn"),
])
def test_a_freeze_no_nine_made_is_refused(rules, hands, frozen, frozen_next, message):
    """Issue: a pickle loaded these (the core checked where frozen cards are, not
    which), and only position text refused them; a position is refused alike."""
    g = cuttle.Game.from_position(rules, hands=hands, rest="scrap", seed=3)
    with pytest.raises(ValueError, match="corrupt pickled game: " + message):
        freeze(g, frozen, frozen_next)
    if not (frozen[1] or frozen_next[0]):
        # the same freezes as a position, P0 to move: its cards frozen this turn, P1's
        # in its next turn (the freezes at the start of a turn, all a position holds)
        text = (f"rules: {rules}; hands: {' '.join(hands[0])} / {' '.join(hands[1])}; "
                f"frozen: {' '.join(frozen[0]) or '-'} / {' '.join(frozen_next[1]) or '-'}; "
                f"rest: scrap")
        with pytest.raises(ValueError, match="invalid position: " + message):
            cuttle.Game.from_text(text)


def test_a_refused_freeze_leaves_the_game_untouched():
    g = cuttle.Game.from_position(_RULES_FREEZE, hands=(["JK", "5H"], ["3D"]), seed=3)
    bad = with_freezes(parts(g)[1][STATE][0], (["JK"], []))
    other = cuttle.Game(_RULES_FREEZE, seed=8)
    other.play(list(other.legal_moves)[0])
    before, moves = other._core_get_state(), other.moves
    with pytest.raises(ValueError, match="corrupt pickled game: the joker is frozen"):
        other._core_set_state(bad, b"", b"")
    assert other._core_get_state() == before and other.moves == moves


def test_a_freeze_no_nine_made_in_the_history_is_refused():
    g = cuttle.Game.from_position(_RULES_FREEZE, hands=(["JK", "5H"], ["3D"]), seed=3)
    g.play("draw")
    fn, args = parts(g)
    # (its history: one state, the game before its one move)
    with pytest.raises(ValueError, match=r"corrupt pickled game \(history 0\): frozen card "
                                         r"JK of player 0: no 9 returns the joker"):
        load(fn, args, hist=with_freezes(args[STATE][1], (["JK"], [])))


def test_the_freezes_a_nine_makes_load():
    # the refusals above are about which 9 froze a card, not about freezing as such
    g = cuttle.Game.from_position(_RULES_FREEZE, hands=(["KC", "QC"], ["KD", "5H"]),
                                  scrap=["9C", "9D"], seed=3)       # (the 9s that froze)
    assert sorted(freeze(g, (["KC", "QC"], [])).frozen(0)) == ["KC", "QC"]
    back = freeze(g, (["KC"], []), ((), ["KD"]))
    assert back.frozen(0) == ["KC"] and back.observation(0).frozen_next == ((), ("KD",))
    g = cuttle.Game.from_position("cuttle.cards", hands=(["2C", "5H"], ["3D"]),
                                  scrap=["9C"], seed=3)
    assert freeze(g, (["5H"], [])).frozen(0) == ["5H"]


def _freeze_rules(rng):
    """Random rules that freeze more often than not, under each rule a freeze reads (and
    often the hand limit and sudden death, which show this turn's freezes)."""
    rules = random_rules(rng, p_change=0.3).replace(
        nine=rng.choice(["freeze", "freeze", "freeze", "return", "topdeck"]),
        targets_own_side=rng.random() < 0.5, nine_targets_points=rng.random() < 0.5,
        joker=rng.random() < 0.3)
    if rng.random() < 0.3:
        rules = rules.replace(hand_limit=rng.choice([3, 4, 5]), hand_limit_mode="discard")
    return rules.replace(sudden_death=True) if rng.random() < 0.3 else rules


def _freezing(g, m):
    # a 9 or a 7 (which may reveal one) played as a one-off, and letting a one-off resolve
    return m.verb == "resolve" or (m.verb == "oneoff" and m.cards[0].rank in (7, 9))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_every_freeze_a_game_makes_loads(seed):
    """Under random rules (nine's variants, targets_own_side, nine_targets_points, the
    joker) with 9s favoured, every state a game reaches passes the core's check: the
    pickle of the game, whose every state of the history is checked, loads."""
    rng = random.Random(seed)
    rules = _freeze_rules(rng)
    g = cuttle.Game(rules, seed=rng.getrandbits(32))
    while not g.is_over and g.ply < 300:
        moves = list(g.legal_moves)
        liked = [m for m in moves if _freezing(g, m)]
        g.play(rng.choice(liked if liked and rng.random() < 0.6 else moves))
    assert pickle.loads(pickle.dumps(g)) == g


_OWN = "classic: nine=freeze"      # a 9 may target its own side's cards
_HANDS = (["9H", "2C", "3C"], ["9S", "4D", "5D"])


@pytest.mark.parametrize("rules, hands, permanents, deck, moves, phase, frozen, frozen_next", [
    # the mover's two: its own 9's of its last turn, the other's 9's of the last turn
    (_OWN, _HANDS, (["KC", "QC"], ["KD"]), ["6D", "7D"],
     ["oneoff 9H KC", "resolve", "oneoff 9S QC", "resolve"], "main", (["KC", "QC"], []),
     ((), ())),
    # one each: the mover's by its own 9 of its last turn, the other's by its own 9
    (_OWN, _HANDS, (["KC", "QC"], ["KD"]), ["6D", "7D"],
     ["oneoff 9H KC", "resolve", "oneoff 9S KD", "resolve"], "main", (["KC"], []),
     ((), ["KD"])),
    # this turn's 9, which has taken effect: the discard phase, on either side
    ("classic: nine=freeze, hand_limit=3", (["9H", "2C", "3C", "4C", "5C"], ["4D"]),
     (["KC"], ["KD"]), ["6D"], ["oneoff 9H KD", "resolve"], "discard", ((), ["KD"]), ((), ())),
    ("classic: nine=freeze, hand_limit=3", (["9H", "2C", "3C", "4C"], ["4D"]),
     (["KC"], ["KD"]), ["6D"], ["oneoff 9H KC", "resolve"], "discard", ((), ()), (["KC"], [])),
    # and the end of sudden death's last turn, which the 9 played
    ("classic: nine=freeze, sudden_death=true", (["2C"], ["9S", "4D"]), (["KC"], ["KD"]), [],
     ["points 2C", "oneoff 9S KC", "resolve"], "over", (["KC"], []), ((), ())),
    ("classic: nine=freeze, sudden_death=true", (["2C"], ["9S", "4D"]), (["KC"], ["KD"]), [],
     ["points 2C", "oneoff 9S KD", "resolve"], "over", ((), ()), ((), ["KD"])),
])
def test_the_freezes_games_make_load(rules, hands, permanents, deck, moves, phase, frozen,
                                     frozen_next):
    """Each kind of freeze the check tells apart, made by a game: its pickle, whose
    states the check reads one by one, loads."""
    from support.helpers import rule_state
    g = cuttle.Game.from_position(rules, hands=hands, permanents=permanents, deck=deck,
                                  rest="scrap", seed=3)
    for m in moves:
        g.play(m)
    state = rule_state(g)
    assert g.phase == phase
    assert state["frozen"] == tuple(frozen_bits(*c) for c in frozen)
    assert state["frozen_next"] == tuple(frozen_bits(*c) for c in frozen_next)
    back = pickle.loads(pickle.dumps(g))
    assert back == g and back.moves == g.moves


# -- a 9 that left the scrap: only a 3 takes one back (check_freezes' last part) --------

@pytest.mark.parametrize("rules, hands, permanents, points, rest, moves, phase, frozen", [
    # this turn's 3 took the last turn's 9 back: the turn ends in the hand-limit discard
    ("classic: nine=freeze, hand_limit=3", (["9H", "2C"], ["3D", "4D", "5D"]), ([], ["KD"]),
     ([], []), "deck", ["oneoff 9H KD", "resolve", "oneoff 3D", "resolve", "take 9H"],
     "discard", ([], ["KD"])),
    # or the game, at the end of sudden death's last turn (the other 9s on the table)
    ("classic: nine=freeze, sudden_death=true", (["9H", "2C"], ["3D", "4D"]), ([], ["KD"]),
     (["9C", "9D"], ["9S"]), "scrap",
     ["oneoff 9H KD", "resolve", "oneoff 3D", "resolve", "take 9H"], "over", ([], ["KD"])),
    # the last turn's 3 took the 9 with which the mover froze its own card the turn before
    ("classic: nine=freeze", (["9H", "2C"], ["3D", "4D"]), (["KC"], []), ([], []), "deck",
     ["oneoff 9H KC", "resolve", "oneoff 3D", "resolve", "take 9H"], "main", (["KC"], [])),
    # and the 9 of the other's own freeze, taken in this turn, which the next one starts with
    ("classic: nine=freeze", (["3C", "2C"], ["9S", "4D"]), ([], ["QD"]), ([], []), "deck",
     ["draw", "oneoff 9S QD", "resolve", "oneoff 3C", "resolve", "take 9S"], "main",
     ([], ["QD"])),
])
def test_a_freeze_whose_nine_a_three_took_back_loads(rules, hands, permanents, points, rest,
                                                     moves, phase, frozen):
    """The freezes whose 9 is missing from the scrap that games make: the pickle loads,
    and, at a turn's start, the position text reads back."""
    from support.helpers import rule_state
    g = cuttle.Game.from_position(rules, hands=hands, permanents=permanents, points=points,
                                  rest=rest, seed=3)
    for m in moves:
        g.play(m)
    state = rule_state(g)
    assert g.phase == phase and not any(c.rank == 9 for c in g.scrap)
    assert tuple(a | b for a, b in zip(state["frozen"], state["frozen_next"])) == \
        tuple(frozen_bits(*c) for c in frozen)
    assert pickle.loads(pickle.dumps(g)) == g
    if phase == "main":
        same_position(cuttle.Game.from_text(g.position_text()), g)


_ONE_NINE = "the 9 that froze it went to the scrap, which holds no 9; a 9 leaves the scrap " \
            "only when a 3 takes it, and "
_NO_TAKE = r"no 3 can have taken (it|one of them) back since: this turn's only once it has " \
           r"taken effect \(in the hand-limit discard, or at the end\), and the last turn's " \
           r"only if that turn froze nothing and the player to move's own 9 froze its one " \
           r"frozen card the turn before"


@pytest.mark.parametrize("rules, scrap, frozen, frozen_next, message", [
    # no 9 in the scrap, nor a 3 that took it back
    ("classic: nine=freeze", [], (["KC"], []), ((), ()),
     r"frozen card KC of player 0, to move: " + _ONE_NINE + r"no 3 is in the scrap, where a "
     r"3 that took it back would be"),
    # a 3 there, which can have taken none: the other's 9 of the last turn froze it
    ("cuttle.cards", ["3C"], (["KC"], []), ((), ()),
     r"frozen card KC of player 0, to move: " + _ONE_NINE + _NO_TAKE + r", which these "
     r"rules' 9 cannot \(targets_own_side=false\)"),
    # or the last turn's 9 froze the other's card, so that it played no 3
    ("classic: nine=freeze", ["3C", "9C"], (["KC"], []), ((), ["KD"]),
     r"2 frozen cards \(KC KD\): each was frozen by a 9 of its own, which went to the "
     r"scrap, and the scrap holds only 9C; a 9 leaves the scrap only when a 3 takes it, "
     r"and " + _NO_TAKE + "$"),
    # two 9s gone, which one 3 cannot have taken both of
    ("classic: nine=freeze", ["3C", "3D"], (["KC", "QC"], []), ((), ()),
     r"2 frozen cards \(QC KC\): each was frozen by a 9 of its own, which went to the "
     r"scrap, and the scrap holds no 9; a 9 leaves the scrap only when a 3 takes it, and "
     r"at most one 3 can have taken one of those 9s back since"),
])
def test_a_freeze_whose_nine_is_gone_is_refused(rules, scrap, frozen, frozen_next, message):
    """Issue: a freeze no 9 explains (none in the scrap) loaded.  Refused in a pickle and
    as a position, with the card and what is missing; with the 9s back in the scrap the
    same freezes load."""
    hands = (["KC", "QC", "5H"], ["KD", "4D"])

    def text(scrap):
        return (f"rules: {rules}; hands: {' '.join(hands[0])} / {' '.join(hands[1])}; "
                f"frozen: {' '.join(frozen[0]) or '-'} / {' '.join(frozen_next[1]) or '-'}; "
                f"scrap: {' '.join(scrap) or '-'}")

    g = cuttle.Game.from_position(rules, hands=hands, scrap=scrap, seed=3)
    with pytest.raises(ValueError, match="corrupt pickled game: " + message):
        freeze(g, frozen, frozen_next)
    with pytest.raises(ValueError, match="invalid position: " + message):
        cuttle.Game.from_text(text(scrap))
    scrap = scrap + ["9S", "9H"]
    g = cuttle.Game.from_position(rules, hands=hands, scrap=scrap, seed=3)
    back = freeze(g, frozen, frozen_next)
    loaded = cuttle.Game.from_text(text(scrap))
    assert set(back.frozen(0)) == set(loaded.frozen(0)) == set(frozen[0])


def test_a_freeze_beside_this_turns_own_is_refused_without_its_nine():
    """A turn whose action was a 9 (its card frozen, in the hand-limit discard) played no
    3: the last turn's 9 of the mover's other frozen card must be in the scrap too,
    unless, with targets_own_side, the mover's own 9 froze it the turn before and the
    last turn's 3 took it back."""
    for own, loads in ((False, False), (True, True)):
        rules = cuttle.Rules("cuttle.cards", hand_limit=3, targets_own_side=own)
        g = cuttle.Game.from_position(rules, hands=(["9H", "KC", "3C", "4C", "5C"], ["4D"]),
                                      permanents=([], ["KD"]), scrap=["3S"], seed=3)
        g.play("oneoff 9H KD")
        g.play("resolve")
        assert g.phase == "discard" and g.frozen(0) == [] and \
            g.observation(0).frozen_next == ((), ("KD",))
        fn, args = parts(g)
        raw = with_freezes(args[STATE][0], (["KC"], ["KD"]))
        if loads:
            assert load(fn, args, st=raw, hist=b"", moves=b"").frozen(0) == ["KC"]
            continue
        with pytest.raises(ValueError, match=r"corrupt pickled game: 2 frozen cards \(KC KD\)"
                                             r": .*the scrap holds only 9H; .*" + _NO_TAKE):
            load(fn, args, st=raw, hist=b"", moves=b"")


def test_a_refusal_for_a_missing_nine_leaves_the_game_untouched():
    g = cuttle.Game.from_position("classic: nine=freeze", hands=(["KC", "5H"], ["3D"]), seed=3)
    bad = with_freezes(parts(g)[1][STATE][0], (["KC"], []))
    other = cuttle.Game("classic: nine=freeze", seed=8)
    other.play(list(other.legal_moves)[0])
    before, moves = other._core_get_state(), other.moves
    with pytest.raises(ValueError, match="corrupt pickled game: a card is frozen whose 9 is "
                                         "not in the scrap, and no 3 can have taken it "
                                         "back since"):
        other._core_set_state(bad, b"", b"")
    assert other._core_get_state() == before and other.moves == moves


# -- a hand above the limit at a turn's start: only the deal's (check_state) ------------

def test_a_hand_above_the_limit_not_to_move_is_refused_but_the_deals():
    """At a turn's start the player not to move has ended its own turn at the limit: a
    pickle holding more is refused, whatever it is loaded into, unless no turn has
    passed (the second player dealt more than the limit)."""
    g = cuttle.Game("classic: hand_limit=5", seed=1)
    assert (g.ply, g.to_move, len(g.hand(1))) == (0, 0, 6)
    assert pickle.loads(pickle.dumps(g)) == g
    other = cuttle.Game("classic: hand_limit=5", seed=8)
    other.play("draw")
    before = other._core_get_state()
    for turn_number in (2, 10):
        with pytest.raises(ValueError, match=r"corrupt pickled game: the player not to move "
                                             r"holds more cards than the hand limit at the "
                                             r"start of a turn, .*; player 1 holds 6 cards, "
                                             r"the limit is 5$"):
            tampered(g, turn_number=turn_number)
        with pytest.raises(ValueError, match="the player not to move holds more cards"):
            other._core_set_state(tampered_state(g, turn_number=turn_number), b"", b"")
        assert other._core_get_state() == before
    # no_draw: nothing brings a hand down to the limit
    g = cuttle.Game("classic: hand_limit=5, hand_limit_mode=no_draw", seed=1)
    assert tampered(g, turn_number=2).turn_number == 3        # (counted from 1)
