"""The tests mirror the package: one folder per package or concern of cuttle/, named after
it, so that a change's tests are found from its path (docs/architecture.md has the map).

  rules/       the rules (rules.py and the engine's behaviour): a scenario for every card,
               flow and flag, each run on the native core and on the reference engine
               through the `engine` fixture
  engine/      the native core cross-checked: differential runs against the reference
               engine, perft counts, golden playthroughs, properties, the random sampler,
               and the reference engine's own tests
  game/        game.py, moves.py, cards.py, position.py, observation.py, record.py,
               narration.py: the Game API, errors, positions, observations,
               determinization, the positions of a game record and what a move did
  policies/    policies.py and the native players: bots, the expert, the search
  analysis/    analysis.py
  simulation/  simulation/, stats.py and progress.py
  variants/    variants/ (the atlas, its results file, chunks and interactions)
  balancing/   balancing/ and cli/balance.py (the balance designer)
  render/      render/, figures.py, formatting.py, display.py (the catalogue of statistics
               and every output format)
  report/      report/ and svg.py (HTML pages, SVG tables, headless Chromium)
  layout/      the layout as a map: no import cycle, no long function
  rl/          rl/ and openspiel/
  cli/         cli/ (the cuttle command)
  validation/  validation.py and the entry points applying its checks alike
  fuzz/        hostile input to every parser and loader (also run under ASan by .ci/asan)
  docs/        README, docs/, the API reference, the benchmarks' help and the public
               API's docstrings and annotations
  packaging/   pyproject.toml, the extras and the errors naming them (_optional.py);
               .ci/smoke.py checks the built sdist and wheel
  support/     shared helpers, the golden games, perft positions and the reference engine
               (support/reference.py, the independent pure-Python oracle)
"""

import importlib.machinery
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

# The tests run against the build in this folder: many start `python -m cuttle` or a
# benchmark here, which import this folder's cuttle, not an installed one.  An unpacked
# sdist (or a checkout) that was not built in place has no compiled core, and those tests
# would fail one by one with an ImportError.
_HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cuttle")
_BUILT = any(os.path.exists(os.path.join(_HERE, "_core" + suffix))
             for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def pytest_configure(config):
    if not _BUILT:
        raise pytest.UsageError(f"{_HERE} has no compiled core: the tests run against a "
                                "build in this folder; build it first with: "
                                "pip install -e \".[test]\"")


if _BUILT:
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


# The longest files (a minute or more each, most of it in one test) are collected first,
# so that `pytest -n auto --dist loadfile` hands them out at the start and the workers
# finish together instead of one waiting on the last long file.
LONGEST_FIRST = ("web/test_browser.py", "engine/test_differential_rules.py",
                 "engine/test_differential.py")


def pytest_collection_modifyitems(items):
    def rank(item):
        path = item.nodeid.split("::")[0]
        return next((k for k, f in enumerate(LONGEST_FIRST) if path.endswith(f)),
                    len(LONGEST_FIRST))
    items.sort(key=rank)            # (stable: the rest keep their order)
