"""Test layout (mirrors cuttle/): rules/ (scenario tests of every rule, each run on the
native core and on the reference engine through the `engine` fixture), engine/
(cross-checks: differential, perft, golden playthroughs, properties, the reference
engine's own tests), api/ (Game, positions, hidden information, analysis, bots),
simulation/ (simulate, compare, statistics), cli/ (the cuttle command).  Shared helpers
live in support/."""

import os
import signal
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# A shell without job control starts background commands with Ctrl-C ignored, and an
# ignored signal stays ignored in every child process.  The Ctrl-C tests need the real
# thing, here and in the `python -m cuttle` processes they start, however pytest was
# launched.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

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
