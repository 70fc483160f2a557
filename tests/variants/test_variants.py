"""The atlas's rule sets come from the flag table: every flag, every value, generated."""

import dataclasses

import pytest

from cuttle import Rules
from cuttle.variants import rulesets as variants_module
from cuttle.variants.rulesets import BASES, flag_values, own_base, variants
from cuttle.rules import FLAGS, PRESETS


@pytest.mark.parametrize("base", BASES)
def test_every_flag_and_value_is_a_variant(base):
    vs = variants(base)
    base_rules = Rules(base)
    played = {(k, v) for var in vs for k, v in var.changes.items()}
    for name, flag in FLAGS.items():
        values = flag_values(flag, base_rules.flags[name])
        assert values, name                      # every flag has another value
        for value in values:
            assert (name, value) in played, (name, value)
    for var in vs:
        assert var.rules != base_rules           # the base's own value is no variant
        assert var.rules.preset == base_rules.preset
        assert {k for k, v in var.rules.flags.items() if base_rules.flags[k] != v} \
            == set(var.changes)
        assert len(var.changes) == 1 or "hand_limit_mode" in var.changes
    assert len({v.rules for v in vs}) == len(vs)             # no duplicates


def test_values_by_kind():
    assert flag_values(FLAGS["joker"], False) == [True]
    assert flag_values(FLAGS["nine"], "return") == ["freeze", "topdeck"]
    assert flag_values(FLAGS["hand_limit"], None) == [8, 7]
    assert flag_values(FLAGS["hand_limit"], 8) == [None, 7]
    goals = {flags["king_goals"] for flags, _ in PRESETS.values()}
    assert set(flag_values(FLAGS["king_goals"], (21, 14, 10, 7, 5))) == \
        goals - {(21, 14, 10, 7, 5)}
    assert (15, 14, 10, 7, 5) in flag_values(FLAGS["king_goals"], (21, 14, 10, 5, 0))


def test_a_value_needing_another_flag_comes_with_it():
    classic = {v.label: v for v in variants("classic")}
    v = classic["hand_limit_mode=no_draw + hand_limit=8"]
    assert v.rules == Rules("classic", hand_limit=8, hand_limit_mode="no_draw")
    cards = {v.label: v for v in variants("cuttle.cards")}
    assert cards["hand_limit_mode=no_draw"].changes == {"hand_limit_mode": "no_draw"}


def test_named_presets_on_their_own_base():
    assert own_base("quick") == "classic" and own_base("open") == "classic"
    assert own_base("cuttle.cards-beta") == "cuttle.cards"
    classic = {v.label for v in variants("classic")}
    cards = {v.label for v in variants("cuttle.cards")}
    assert "king_goals=15,14,10,7,5 (quick)" in classic
    assert "open_hands=true (open)" in classic
    assert "nine=topdeck (cuttle.cards-beta)" in cards
    assert not any("quick" in label for label in cards)
    # a preset combining several flags would be a variant of its own
    combined = dict(PRESETS["classic"][0], four="random", joker=True)
    monkey = dict(PRESETS, fancy=(combined, "test"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(variants_module, "PRESETS", monkey)
        mp.setattr("cuttle.rules.PRESETS", monkey)
        mp.setattr("cuttle.flags.PRESETS", monkey)
        fancy = [v for v in variants("classic") if v.presets == ("fancy",)]
    assert len(fancy) == 1 and fancy[0].changes == {"four": "random", "joker": True}


def test_the_list_follows_the_flag_table(monkeypatch):
    before = {v.label for v in variants("classic")}
    table = dict(FLAGS)
    table["hand_limit"] = dataclasses.replace(FLAGS["hand_limit"], published=(7, 6))
    del table["joker"]
    monkeypatch.setattr(variants_module, "FLAGS", table)
    after = {v.label for v in variants("classic")}
    assert after == (before | {"hand_limit=6"}) - {"joker=true"}


def test_bad_base():
    with pytest.raises(ValueError, match="preset"):
        variants("poker")
