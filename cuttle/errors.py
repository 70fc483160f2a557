"""Exceptions of the public API: a bad move is a ValueError (as python-chess does it),
an undo with no move to take back an IndexError (`NoMoveToUndo`),
Ctrl-C's partial result an `Interrupted`; a run stopped by a failed dask cluster
(`ClusterError`) or a Python policy that failed (`PolicyError`) keeps its finished part
as Ctrl-C does (`PartialRunError`)."""

from __future__ import annotations

from typing import Any

from .formatting import plural, quantity


def _rebuild(cls: type[BaseException], args: tuple[Any, ...],
             state: dict[str, Any]) -> BaseException:
    e = cls.__new__(cls, *args)
    e.args = args
    e.__dict__.update(state)
    return e


class IllegalMoveError(ValueError):
    """A move that is not legal in the current position; the game is left unchanged."""


class InvalidMoveError(IllegalMoveError):
    """Move text that does not parse (unknown verb, bad card, wrong number of cards)."""


class NoMoveToUndo(IndexError):
    """`Game.undo` (`Game.pop`) of a game with no move played: an IndexError, as
    ``list.pop`` of an empty list (and python-chess's ``Board.pop``) raise, so that
    ``except IndexError`` catches it; the game is left unchanged."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped long work (a simulation, a comparison, an analysis): `result` is
    what had finished (a result of the same kind covering the finished part, or None),
    `done` and `total` count the finished and asked-for units; `requested` is `total`
    by the name the JSON of a partial result (`as_dict`) gives it.  `unit` is the
    singular, "game", "match" or "rollout" (as the JSON's "unit"), `units` its plural
    ("games", "matches"), as `ComparisonResult.unit` and `.units` say them."""

    # `result` is whichever result the interrupted work builds (or None): Any.
    def __init__(self, result: Any, done: int, total: int | None, unit: str = "game"):
        super().__init__()
        self.result, self.done, self.total, self.unit = result, done, total, unit

    def __reduce__(self):
        # Pickled with its attributes and rebuilt without calling __init__ (whose
        # arguments a subclass may change), so that it crosses process boundaries
        # (multiprocessing, dask) whole.
        return (_rebuild, (type(self), self.args, dict(self.__dict__)))

    @property
    def requested(self) -> int | None:
        """The units asked for: `total`, by the name `as_dict` gives it (read-only)."""
        return self.total

    @property
    def units(self) -> str:
        """The plural of `unit`: "games", "matches", "rollouts"."""
        return plural(self.unit)

    def as_dict(self) -> dict[str, Any]:
        """How far the work got, as the JSON of a partial result says it: done,
        requested (`total`), unit (singular, as it always said) and units (the plural,
        as a comparison's JSON says it beside: "units" is the plural on both)."""
        return {"done": self.done, "requested": self.total, "unit": self.unit,
                "units": self.units}

    @staticmethod
    def mark(data: dict[str, Any], interrupted: Interrupted | None) -> dict[str, Any]:
        """A result's JSON `data`, with "interrupted" (`as_dict`) when `interrupted` (an
        Interrupted, or None for a whole run) cut it short: the one shape of a partial
        result's JSON, in files, pages and on stdout."""
        return data if interrupted is None else {**data, "interrupted": interrupted.as_dict()}

    def note(self) -> str:
        """How a file of the partial result says it is one (a page's or a plot's
        subtitle, the label of a CSV's last row): "interrupted after 1,234 of 10,000
        games: a partial run" (the description alone, without a subclass's advice)."""
        return f"{Interrupted.__str__(self)}: a partial run"

    def __str__(self):
        # "after 1 of 10 games", "after 3 rollouts": the unit agrees with the last count
        if self.total is None:
            return f"interrupted after {quantity(self.done, self.unit)}"
        return f"interrupted after {self.done:,} of {quantity(self.total, self.unit)}"


class PartialRunError(RuntimeError):
    """A run stopped by a failure, not by its games' end or Ctrl-C; as at Ctrl-C, what
    had finished is kept: `result` is the merged result of the finished units (None if
    none had), `done` and `total` (also `requested`) count the finished and asked-for
    units (`unit`, singular; `units`, plural, as for `Interrupted`), and a games CSV
    keeps their rows.  (Class attributes: an error raised on a worker crosses to the
    client pickled with its message only.)"""

    result: Any = None
    done: int = 0
    total: int | None = None
    unit: str = "game"

    requested = Interrupted.requested
    units = Interrupted.units

    def partial(self) -> Interrupted:
        """The finished part as an `Interrupted`, the one shape a partial result's
        outputs (JSON, pages, plots, CSV labels) know."""
        return Interrupted(self.result, self.done, self.total, self.unit)


class ClusterError(PartialRunError):
    """The dask cluster failed a run, not its games: the connection to the scheduler
    was lost, the cluster cancelled the run's tasks (a restart, another client), workers
    kept dying on a chunk, or a worker cannot run this build.  What had finished is
    kept (`result`, `done`, `total`, as `PartialRunError` says)."""


class PolicyError(PartialRunError):
    """A Python policy (a callable player of `simulate` or `compare`) failed: it raised,
    returned no move or an illegal one, or changed the game it was given.  `game` is the
    index of the game it was deciding in, `player` its label ("A" or "B"); the message
    says what went wrong, and the `__cause__` is the exception it raised, the game's
    `IllegalMoveError` (an `InvalidMoveError` for text or a code that is no move; one
    saying it returned None for no move) or a RuntimeError for a changed game.  The
    games that had finished are kept (`result`, `done`, `total`, as `PartialRunError`
    says), as at Ctrl-C."""

    def __init__(self, message: str, game: int, player: str):
        super().__init__(message)
        self.game, self.player = game, player

    def __reduce__(self):
        # Across processes with its game and player (a dask worker's error); the finished
        # part of its chunk stays behind, as a cluster's unfinished chunks do.
        state = {k: v for k, v in self.__dict__.items() if k != "part"}
        return (_rebuild, (type(self), self.args, state))
