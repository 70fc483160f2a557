"""cuttle: exact rules and native-speed simulation of the card game Cuttle."""

from . import _python_m  # noqa: F401  (first of all: `python -m cuttle` holds Ctrl-C)
from . import threads as _threads  # noqa: F401  (before the core: it sets OpenMP's waits)
from ._version import __version__
from .analysis import Analysis, analyse, analyze
from .balancing import balance
from .cards import CARDS, Card
from .errors import (ClusterError, IllegalMoveError, Interrupted, InvalidMoveError,
                     NoMoveToUndo, PartialRunError, PolicyError)
from .game import Game, LegalMoves
from .moves import Move
from .observation import Observation
from .policies import Bot
from .review import Review, analyse_search, review
from .rules import Rules
from .simulation import compare, compare_players, simulate
from .stats import wilson_interval
from .variants import atlas
from . import render  # noqa: F401  (registers the renderers of every result: cuttle.display)


__all__ = ["Analysis", "Bot", "Card", "CARDS", "ClusterError", "Game", "IllegalMoveError",
           "InvalidMoveError", "Interrupted", "LegalMoves", "Move", "NoMoveToUndo",
           "Observation",
           "PartialRunError", "PolicyError", "Review",
           "Rules", "__version__",
           "analyse", "analyse_search", "analyze", "atlas", "balance", "review",
           "compare", "compare_players", "simulate", "wilson_interval"]
