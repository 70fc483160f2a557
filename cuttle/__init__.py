"""cuttle: exact rules and native-speed simulation of the card game Cuttle."""

from .cards import CARDS, Card
from .errors import IllegalMoveError, InvalidMoveError
from .game import Game, LegalMoves
from .moves import Move
from .rules import Rules
from .simulate import compare, simulate
from .stats import wilson_interval

__version__ = "0.1.0"

__all__ = ["Card", "CARDS", "Game", "IllegalMoveError", "InvalidMoveError", "LegalMoves",
           "Move", "Rules", "__version__", "compare", "simulate",
           "wilson_interval"]
