"""Rules text everywhere: every `rules` argument of the library takes the text the command
line takes and prints (`str(rules)`, `Rules.parse`), through one reader, `Rules.coerce`,
with the same clear errors."""

import json
import re

import pytest
from hypothesis import given, settings, strategies as st

import cuttle
import cuttle.rl
import cuttle.variants
from cuttle import Rules
import cuttle.flags as flags_module

# (any rule set is read back, a degenerate one too: its warning is not what is tested here)
pytestmark = pytest.mark.filterwarnings("ignore::cuttle.rules.DegenerateRulesWarning")
from cuttle.rules import FLAGS
from cuttle.record import start_game, validate_record


@st.composite
def rules_values(draw):
    """A preset with a few flags changed (values a flag takes, kept valid)."""
    preset = draw(st.sampled_from(Rules.presets))
    flags = {}
    for name in draw(st.lists(st.sampled_from(sorted(FLAGS)), max_size=4, unique=True)):
        f = FLAGS[name]
        if f.kind == "bool":
            flags[name] = draw(st.booleans())
        elif f.kind == "choice":
            flags[name] = draw(st.sampled_from(f.values))
        elif f.kind == "limit":
            flags[name] = draw(st.none() | st.integers(0, 53))
        elif f.kind == "deal":
            flags[name] = tuple(draw(st.lists(st.integers(1, 8), min_size=2, max_size=2)))
        else:
            flags[name] = tuple(draw(st.lists(st.integers(1, 30), min_size=5, max_size=5)))
    try:
        return Rules(preset, **flags)
    except ValueError:                                  # no_draw needs a hand limit
        return Rules(preset, **dict(flags, hand_limit_mode="discard"))


@settings(max_examples=200, deadline=None)
@given(rules_values())
def test_the_printed_text_reads_back_everywhere(rules):
    text = str(rules)
    assert Rules.coerce(text) == rules and Rules.coerce(text).preset == rules.preset
    assert Rules.coerce(text.replace(": ", ":").replace(", ", ",")) == rules
    assert Rules.from_json(text) == rules == Rules.from_json(rules.to_json())
    assert cuttle.Game(text, seed=3) == cuttle.Game(rules, seed=3)


@settings(max_examples=200, deadline=None)
@given(rules_values())
def test_the_flags_a_text_sets_are_the_ones_it_writes(rules):
    # (what a --set on top may not contradict)
    assert Rules.text_flags(str(rules)) == rules.changed()
    assert Rules.text_flags(f"{rules.preset}: joker=false") == {"joker": False}
    assert Rules.text_flags("king_goals=15,14,10,7,5 four=draw") == {
        "king_goals": (15, 14, 10, 7, 5), "four": "draw"}
    with pytest.raises(ValueError, match="unknown preset 'chess'"):
        Rules.text_flags("chess: joker=true")
    with pytest.raises(ValueError, match="flag 'joker' takes true or false"):
        Rules.text_flags("classic: joker=maybe")


SPACES = st.sampled_from(["", " ", "  ", "\t"])


@settings(max_examples=200, deadline=None)
@given(rules_values(), st.data())
def test_spaces_around_the_separators_are_read_as_written(rules, data):
    # Spaces around '=' read as a space between two changes: 'joker = true' was "not
    # 'joker'", 'joker= true' "not ',true'" (a comma never typed).
    def spaced(sep):
        return lambda m: data.draw(SPACES) + sep + data.draw(SPACES)
    text = re.sub(r"\s*=\s*", spaced("="), str(rules))
    text = re.sub(r"\s*:\s*", spaced(":"), text)
    text = re.sub(r"\s*,\s*", spaced(","), text)
    if "=" in text and not data.draw(st.booleans()):    # (tuples unbracketed too)
        text = text.replace("(", "").replace(")", "")
    assert Rules.parse(text) == rules, text


@pytest.mark.parametrize("text, rules", [
    ("classic: joker = true", Rules(joker=True)),
    ("classic: joker= true", Rules(joker=True)),
    ("classic: joker =true, four = draw", Rules(joker=True, four="draw")),
    ("joker = true four = draw", Rules(joker=True, four="draw")),
    ("quick : king_goals = 15, 14, 10, 7, 5 , joker = true",
     Rules("quick", king_goals=(15, 14, 10, 7, 5), joker=True)),
    ("classic: king_goals = ( 21, 14, 10, 5, 0 ), deal = [6, 6]",
     Rules(king_goals=(21, 14, 10, 5, 0), deal=(6, 6))),
    ("cuttle.cards hand_limit = none", Rules("cuttle.cards", hand_limit=None)),
])
def test_spaces_around_an_equals_sign(text, rules):
    assert Rules.parse(text) == rules
    assert Rules.parse(str(Rules.parse(text))) == rules


@pytest.mark.parametrize("text, message", [
    ("classic: joker= four=draw", "flag 'joker' takes true or false, not ''"),
    ("classic: joker = , four=draw", "flag 'joker' takes true or false, not ''"),
    ("classic: = true", "expected FLAG=VALUE (e.g. four=random), not '= true'"),
])
def test_a_missing_value_or_flag_is_still_named(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        Rules.parse(text)


@pytest.mark.parametrize("text, message", [
    # a value continued by a part without '=' (it read 'random,;', a comma never typed)
    ("four=random ;", "takes one of 'choice', 'random', 'draw', not 'random ;'"),
    ("classic: king_goals=15 14 x", "not '15 14 x'"),
    # not lowercased, nor read into a tuple first
    ("Four=RANDOMx", "not 'RANDOMx'"),
    ("hand_limit = 7 , four=Foo", "not 'Foo'"),
    ("king_goals=(15 14)", "takes a tuple of 5 ints from 0 to 1000 (goal with 0, 1, 2, 3, "
                           "4 Kings), not '(15 14)'"),
    ("king_goals = (0, 14, 10, 7, 5)", "must be at least 1 (with 0 every deal is won "
                                       "before the first move), not '(0, 14, 10, 7, 5)'"),
    ("classic: deal = [9, 9]", "not '[9, 9]'"),
    ("joker=Maybe", "takes true or false, not 'Maybe'"),
    ("hand_limit=Lots", "not 'Lots'"),
    # the spaces around '=' as typed
    ("four=random four = draw", "four is set twice ('four = draw' after four=random)"),
])
def test_an_error_quotes_the_text_as_written(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        Rules.parse(text)
    # (a value given as a value is quoted as it is)
    with pytest.raises(ValueError, match=re.escape("not (15, 14)")):
        Rules(king_goals=(15, 14))


@pytest.mark.parametrize("value", ["99", "54", "-1", "lots", "7.5"])
def test_a_bad_hand_limit_in_text_names_the_values_as_text_spells_them(value):
    # (it said "takes None", the Python spelling, where the text takes none)
    values = FLAGS["hand_limit"].values_text()              # as `cuttle rules` lists them
    assert values == "none or int 0-53"
    with pytest.raises(ValueError, match=re.escape(f"flag 'hand_limit' takes {values}, not "
                                                   f"{value!r}")):
        Rules.parse(f"classic: hand_limit={value}")
    # a keyword given its text reads it as text does, in the text's words; given a
    # number, in Python's
    with pytest.raises(ValueError, match=re.escape(f"takes {values}, not {value!r}")):
        Rules(hand_limit=value)
    if value.lstrip("-").isdigit():
        with pytest.raises(ValueError, match=re.escape("takes None or an int from 0 to 53")):
            Rules(hand_limit=int(value))


def test_the_issue_examples():
    assert cuttle.Game("classic:joker=true").rules == Rules(joker=True)
    assert len(cuttle.Game("classic:joker=true", seed=1).deck) == 53 - 11
    a = cuttle.simulate(200, rules="classic:four=random", seed=1, progress=False)
    b = cuttle.simulate(200, rules=Rules(four="random"), seed=1, progress=False)
    assert a.rules == Rules(four="random") and a.tally == b.tally
    cmp = cuttle.compare(["classic", "classic:joker=true"], 200, seed=1, progress=False)
    assert cmp.rules == [Rules(), Rules(joker=True)]
    assert cmp.labels == ["classic", "classic: joker=true"]
    ref = cuttle.compare([None, Rules(joker=True)], 200, seed=1, progress=False)
    assert [r.tally for r in cmp.results] == [r.tally for r in ref.results]


def test_a_flag_set_twice_is_refused_but_set_may_override_the_text():
    for text in ("classic: joker=true, joker=false", "four=random four=draw"):
        with pytest.raises(ValueError, match="set twice"):
            Rules.parse(text)
    with pytest.raises(ValueError, match="four is set twice"):
        Rules.parse("classic", ["four=random", "four=draw"])
    assert Rules.parse("classic: four=random", ["four=draw"]) == Rules(four="draw")


@pytest.mark.parametrize("call", [lambda: Rules.parse("classic", 5),
                                  lambda: Rules.parse_assignments(5),
                                  lambda: Rules.parse_assignments(b"four=random")])
def test_flag_changes_that_are_not_text_or_a_list_are_refused(call):
    # (were TypeError: 'int' object is not iterable)
    with pytest.raises(ValueError, match="flag changes must be FLAG=VALUE text or a list"):
        call()


@pytest.mark.parametrize("text", ["classic: king_goals=(21,14,10,7,5",
                                  "classic: king_goals=21,14,10,7,5)",
                                  "classic: deal=[5,6"])
def test_brackets_that_do_not_pair_up_are_refused(text):
    # (a tuple cut short read as the default: "classic")
    with pytest.raises(ValueError, match="unbalanced brackets"):
        Rules.parse(text)
    with pytest.raises(ValueError, match="unbalanced brackets"):
        Rules().variants("king_goals=(21,14,10,7,5),(15,14,10,7,5")


def test_flag_changes_take_text_a_list_or_none():
    assert Rules.parse_assignments("four=random") == {"four": "random"} == \
        Rules.parse_assignments(iter(["four=random"]))
    assert Rules.parse_assignments(None) == {} and Rules.parse("classic", None) == Rules()


BOOL_SPELLINGS = sorted(flags_module._TRUE | flags_module._FALSE)


@pytest.mark.parametrize("spelling", BOOL_SPELLINGS + [s.upper() for s in BOOL_SPELLINGS]
                         + [" Yes ", "On"])
def test_a_bool_keyword_takes_every_spelling_text_takes(spelling):
    # Rules(joker="yes") was refused ("takes True or False") though --set joker=yes and
    # Rules.parse read it: one reading of a bool's text, for both.
    for flag in (f.name for f in FLAGS.values() if f.kind == "bool"):
        from_text = Rules.parse(f"cuttle.cards {flag}={spelling.strip()}")
        from_keyword = Rules("cuttle.cards", **{flag: spelling})
        assert from_keyword == from_text
        assert getattr(from_keyword, flag) is (spelling.strip().lower() in flags_module._TRUE)
        assert from_keyword == Rules("cuttle.cards", **{flag: getattr(from_text, flag)})


CHOICE_FLAGS = [f for f in FLAGS.values() if f.kind == "choice"]


@st.composite
def choice_spellings(draw):
    """(flag, value, its spelling): a choice flag's value in a random casing, perhaps
    with spaces around it."""
    flag = draw(st.sampled_from(CHOICE_FLAGS))
    value = draw(st.sampled_from(flag.values))
    cased = "".join(c.upper() if draw(st.booleans()) else c for c in value)
    return flag, value, draw(SPACES) + cased + draw(SPACES)


@settings(max_examples=300, deadline=None)
@given(choice_spellings(), st.sampled_from(Rules.presets))
def test_a_choice_reads_alike_from_a_keyword_and_from_text(spelled, preset):
    # Rules(four="RANDOM") was refused though --set four=RANDOM and Rules.parse read it:
    # one reading of a choice's text, for both.
    flag, value, spelling = spelled
    if flag.name == "hand_limit_mode" and value == "no_draw":
        preset_flags = {"hand_limit": 7}            # (no_draw needs a hand limit)
    else:
        preset_flags = {}
    want = Rules(preset, **preset_flags, **{flag.name: value})
    assert Rules(preset, **preset_flags, **{flag.name: spelling}) == want
    assert getattr(Rules(preset, **preset_flags, **{flag.name: spelling}), flag.name) == value
    limit = "".join(f" {k}={v}" for k, v in preset_flags.items())
    assert Rules.parse(f"{preset}{limit} {flag.name}={spelling.strip()}") == want
    assert Rules.parse(preset, [f"{flag.name}={spelling}"] + [
        f"{k}={v}" for k, v in preset_flags.items()]) == want
    assert Rules.from_json({"preset": preset, "changed": dict(
        preset_flags, **{flag.name: spelling})}) == want


@pytest.mark.parametrize("value", ["randomly", "", 1, None, ("random",)])
def test_a_choice_keyword_still_refuses_what_names_no_value(value):
    with pytest.raises(ValueError, match=r"flag 'four' takes one of 'choice', 'random', "
                                         r"'draw', not " + re.escape(repr(value))):
        Rules(four=value)


@pytest.mark.parametrize("value, message", [
    ("maybe", r"flag 'joker' takes True or False \(or as text: true/false, yes/no, "
              r"on/off, 1/0\), not 'maybe'"),
    ("", r"flag 'joker' takes True or False .*, not ''"),
    (1, r"flag 'joker' takes True or False, not 1"),       # a number is not text
    (None, r"flag 'joker' takes True or False, not None"),
])
def test_a_bool_keyword_still_refuses_what_is_no_spelling(value, message):
    with pytest.raises(ValueError, match=message):
        Rules(joker=value)


@pytest.mark.parametrize("make", [
    lambda r: cuttle.Game(r, seed=1).rules,
    lambda r: cuttle.Game.from_run(r, seed=1, index=2).rules,
    lambda r: cuttle.Game.from_position(r, hands=(["2C"], ["3C"]), seed=1).rules,
    lambda r: cuttle.Game.from_text("hands: 2C / 3C", rules=r, seed=1).rules,
    lambda r: cuttle.simulate(4, r, seed=1, progress=False).rules,
    lambda r: cuttle.compare([r, "classic"], 4, seed=1, progress=False).rules[0],
    lambda r: cuttle.rl.VectorEnv(2, rules=r, threads=1).rules,
])
def test_every_rules_argument_takes_rule_text(make):
    assert make("cuttle.cards: four=random, joker=true") == \
        Rules("cuttle.cards", four="random", joker=True)
    assert make(" CUTTLE.CARDS ") == Rules("cuttle.cards")
    with pytest.raises(ValueError, match="flag 'joker' takes true or false, not 'maybe'"):
        make("classic:joker=maybe")
    with pytest.raises(ValueError, match="unknown preset 'chess'"):
        make("chess")
    with pytest.raises(ValueError, match="rules must be a Rules, rule text"):
        make(5)


def test_the_learning_envs_take_rule_text():
    pytest.importorskip("pettingzoo")
    from cuttle.rl.gym_env import GymEnv
    assert cuttle.rl.aec_env("classic: joker=true").rules == Rules(joker=True)
    assert GymEnv(rules="quick:four=draw").rules == Rules("quick", four="draw")
    with pytest.raises(ValueError, match="unknown rule flag 'colour'"):
        GymEnv(rules="classic: colour=red")


def test_openspiel_takes_rule_text():
    pyspiel = pytest.importorskip("pyspiel")
    import cuttle.openspiel as cos
    game = pyspiel.load_game("python_cuttle", {"rules": "classic: joker=true, four=random"})
    assert game.rules == Rules(joker=True, four="random")
    assert cos.rules_from_param("cuttle.cards:hand_limit=7;four:draw") == \
        Rules("cuttle.cards", hand_limit=7, four="draw")
    s = cos.game_string("classic:king_goals=15,14,10,7,5")
    assert pyspiel.load_game(s).rules == Rules(king_goals=(15, 14, 10, 7, 5))


def test_atlas_bases_are_presets_given_as_text_or_rules():
    run = cuttle.variants.run
    assert run._bases(["classic", Rules("cuttle.cards"), " Quick:"]) == \
        ("classic", "cuttle.cards", "quick")
    with pytest.raises(ValueError, match="a base is a preset .*'classic: joker=true'"):
        run._bases(["classic: joker=true"])
    with pytest.raises(ValueError, match="unknown preset 'chess'"):
        cuttle.atlas("random", bases="chess", seed=1)


def test_records_may_hold_rule_text():
    rec = {"format": "cuttle-game-record", "version": 1, "rules": "classic: four=random",
           "seed": 5, "position": None, "players": ["a", "b"], "moves": []}
    validate_record(json.loads(json.dumps(rec)))
    assert start_game(rec).rules == Rules(four="random")
    rec["rules"] = "classic: four=sometimes"
    with pytest.raises(ValueError, match="bad record: flag 'four'"):
        validate_record(rec)


def test_the_constructor_points_at_the_text_reader():
    # Rules() takes a preset and keyword flags; text is read by Rules.parse / coerce.
    with pytest.raises(ValueError, match="is read by Rules.parse"):
        Rules("classic:joker=true")
    with pytest.raises(ValueError) as e:
        Rules("chess")
    assert "Rules.parse" not in str(e.value)


@settings(max_examples=200, deadline=None)
@given(rules_values(), st.data())
def test_every_keyword_reads_a_string_as_rule_text_reads_it(rules, data):
    # Rules(joker="yes") and Rules(four="RANDOM") read text, Rules(hand_limit="8") and
    # Rules(king_goals="15,14,10,7,5") refused it: one reading for every kind of flag.
    changed = rules.changed()
    texts = {name: data.draw(SPACES) + FLAGS[name].format(v) + data.draw(SPACES)
             for name, v in changed.items()}
    assert Rules(rules.preset, **texts) == rules
    assert Rules.parse(str(rules)) == rules


@pytest.mark.parametrize("flag, value", [
    ("joker", 1), ("joker", 1.0), ("joker", None), ("hand_limit", 8.0), ("hand_limit", True),
    ("king_goals", [21.0, 14, 10, 7, 5]), ("deal", (6, True)),
    ("hand_limit", "8.0"), ("king_goals", "21,14"), ("deal", "6;6"), ("joker", "maybe"),
])
def test_a_value_that_is_not_text_must_be_of_the_flag_s_own_type(flag, value):
    # (a number is not text: joker=1 is refused as joker="1" is read)
    with pytest.raises(ValueError, match=f"flag '{flag}' takes"):
        Rules(**{flag: value})


def test_goals_that_rise_with_kings_are_a_rule_set_of_their_own():
    # (decision 21: any table, Kings raising the goal included, a handicap a designer
    # may want; a game under it plays, and a King raises its controller's goal)
    rules = Rules(king_goals=(5, 7, 10, 14, 21))
    assert Rules.parse(str(rules)) == rules and rules.degenerate() is None
    g = cuttle.Game.from_text("hands: KH 2C / 3D; points: 4C / -; rest: deck",
                              rules=rules, seed=1)
    assert g.goal(0) == 5
    g.play("royal KH")
    assert g.goal(0) == 7 and not g.is_over
