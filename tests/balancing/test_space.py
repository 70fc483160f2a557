"""The search space (cuttle.balancing.space): the flags, the single changes (from the
flag table, as the atlas plays them, and the deals), their combinations."""

import pytest

from cuttle import Rules
from cuttle.balancing.space import (Candidate, changes_of, combinations_of, flag_names,
                                    single_changes, space_size)
from cuttle.rules import FLAGS
from cuttle.variants.rulesets import singles


def test_flag_names():
    assert flag_names() == list(FLAGS)
    assert flag_names("joker, Four") == ["four", "joker"]
    assert flag_names(None, ["joker", "deal"]) == [f for f in FLAGS if f not in ("joker", "deal")]
    with pytest.raises(ValueError, match="unknown rule flag 'jokers'"):
        flag_names("jokers")
    with pytest.raises(ValueError, match="leave none"):
        flag_names("joker", "joker")


def test_single_changes_are_the_atlas_values_and_the_given_deals():
    base = Rules("cuttle.cards")
    every = single_changes(base, list(FLAGS))
    assert [v.rules for v in every] == [v.rules for v in singles(base)]
    assert {v.changes["deal"] for v in every if "deal" in v.changes} == \
        set(FLAGS["deal"].explored)
    deals = single_changes(base, ["deal", "joker"], deals=[(7, 7), (5, 6), (7, 7), [3, 4]])
    assert [v.label for v in deals] == ["joker=true", "deal=7,7", "deal=3,4"]
    with pytest.raises(ValueError, match="flag 'deal' takes 2 ints"):
        single_changes(base, ["deal"], deals=[(9, 9)])
    # A value needing a companion brings it, if the companion's flag may change.
    classic = Rules()
    assert [v.changes for v in single_changes(classic, ["hand_limit", "hand_limit_mode"])
            if "hand_limit_mode" in v.changes] == [{"hand_limit_mode": "no_draw",
                                                    "hand_limit": 8}]
    assert all("hand_limit_mode" not in v.changes
               for v in single_changes(classic, ["hand_limit_mode", "joker"]))


def test_combinations_change_different_flags_within_k():
    base = Rules()
    parts = single_changes(base, ["joker", "four", "deal", "hand_limit", "hand_limit_mode"],
                           deals=[(6, 6)])
    pairs = combinations_of(parts, base, 2)
    assert all(c.size == 2 for c in pairs)
    assert not any({"four"} <= set(c.changes) and list(c.changes).count("four") > 1
                   for c in pairs)
    labels = {c.label for c in pairs}
    assert "four=draw + joker=true" in labels and "joker=true + deal=6,6" in labels
    assert not any("four=random + four=draw" in x for x in labels)
    # the companion change counts both its flags: only with k = 3 does it combine
    assert not any("hand_limit_mode" in c.changes for c in pairs)
    three = combinations_of(parts, base, 3)
    assert any(set(c.changes) == {"hand_limit_mode", "hand_limit", "joker"} for c in three)
    assert len({c.rules for c in three}) == len(three)           # no duplicates
    sizes = space_size(parts, base, 3)
    assert sizes[1] == sum(len(p.changes) == 1 for p in parts)
    assert sizes[2] == len([c for c in three if c.size == 2]) + 1   # + the companion single
    assert sizes[3] == len([c for c in three if c.size == 3])


def test_a_candidate():
    base = Rules()
    c = Candidate(base.replace(joker=True, deal=(6, 6)), [], base)
    assert c.size == 2 and c.label == "joker=true + deal=6,6"
    assert changes_of(c.rules, base) == {"joker": True, "deal": (6, 6)}
    assert Rules.parse(str(c.rules)) == c.rules
