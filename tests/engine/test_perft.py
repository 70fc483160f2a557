"""Perft counts of the native core from fixed positions (tests/support/perft.json)."""

import json

import pytest

from support.perft import PERFT_FILE, build, perft

EXPECTED = json.load(open(PERFT_FILE))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_core_perft(name):
    g, depth = build(name)
    assert perft(g, depth) == EXPECTED[name]


def test_perft_leaves_the_game_unchanged():
    g, depth = build("classic-midgame")
    before = g._core_state_bytes()
    perft(g, 3)
    assert g._core_state_bytes() == before
