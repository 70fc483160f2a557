"""Test layout (mirrors cuttle/): rules/ (scenario tests of every rule, each run on the
native core and on the reference engine through the `engine` fixture), engine/
(cross-checks: differential, perft, golden playthroughs, properties, the reference
engine's own tests), api/ (Game, positions, hidden information, analysis, bots),
simulation/ (simulate, compare, statistics), cli/ (the cuttle command).  Shared helpers
live in support/."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from support.scenario import Engine  # noqa: E402


@pytest.fixture(params=["core", "reference"])
def engine(request):
    """The engine a rule scenario runs on: `engine.pos(rules, hands=..., ...)` lays the
    position out with Game.from_position and returns the native Game, or the same
    position in the pure-Python reference engine behind the Game API."""
    return Engine(request.param)


@pytest.fixture
def core():
    """The native core alone, for scenarios that read what only it tracks (observations,
    determinizations)."""
    return Engine("core")
