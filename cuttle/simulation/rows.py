"""Per-game rows of a run (kept with ``keep_games=True``, or streamed with
``games_csv=``): `GameRows`, the parts a result was merged from joined in game-index
order, and their CSV form (one row per game: game, [match,] winner, first, moves,
turns, score_a, score_b, end)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._core import END_NAMES
from .names import FIELDS

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping
    from typing import TypeAlias

    # One part of the per-game rows: (game indices, per-game arrays by name, per-match
    # arrays by name or None).
    RowsPart: TypeAlias = tuple[np.ndarray, dict[str, np.ndarray], dict[str, np.ndarray] | None]

__all__ = ["GameRows", "MATCH_FIELDS", "game_columns", "game_rows"]

MATCH_FIELDS = ("winner", "first", "games", "wins")


class GameRows:
    """Per-game rows of a result, kept as the parts it was merged from and joined (in
    game-index order) on first access."""

    def __init__(self, parts: Iterable[RowsPart]):
        self._parts = sorted(parts, key=lambda p: (len(p[0]) == 0, p[0][:1].tolist()))
        self._joined: RowsPart | None = None

    @classmethod
    def from_core(cls, rows: Mapping[str, np.ndarray], start: int, slots: int) -> GameRows:
        """Rows of units start.. as play_units returns them (match slots not played,
        winner -2, are dropped)."""
        n = len(rows["winner"])
        index = np.arange(start * slots, start * slots + n, dtype=np.int64)
        arrays = {k: rows[k] for k in FIELDS}
        matches = None
        if "m_winner" in rows:
            played = rows["winner"] >= -1
            index = index[played]
            arrays = {k: v[played] for k, v in arrays.items()}
            matches = {k: rows["m_" + k] for k in MATCH_FIELDS}
        return cls([(index, arrays, matches)])

    def __add__(self, other):
        return GameRows(self._parts + other._parts)

    def __getstate__(self):
        return self._parts

    def __setstate__(self, parts):
        self._parts, self._joined = parts, None

    def _join(self):
        if self._joined is None:
            parts = self._parts
            index = np.concatenate([p[0] for p in parts])
            arrays = {k: np.concatenate([p[1][k] for p in parts]) for k in FIELDS}
            matches = None
            if parts[0][2] is not None:
                matches = {k: np.concatenate([p[2][k] for p in parts]) for k in MATCH_FIELDS}
            self._joined = (index, arrays, matches)
            self._parts = [self._joined]
        return self._joined

    @property
    def index(self) -> np.ndarray:
        """The game index of each row."""
        return self._join()[0]

    @property
    def arrays(self) -> dict[str, np.ndarray]:
        """The per-game arrays, by name."""
        return self._join()[1]

    @property
    def matches(self) -> dict[str, np.ndarray] | None:
        """The per-match arrays, by name (None without matches)."""
        return self._join()[2]


def game_columns(match: bool) -> list[str]:
    """The column names of per-game CSV rows."""
    return (["game"] + (["match"] if match else []) +
            ["winner", "first", "moves", "turns", "score_a", "score_b", "end"])


_LABELS = np.array(["draw", "A", "B"])
_ENDS = np.array(END_NAMES)


def game_rows(arrays: Mapping[str, np.ndarray], game_index: np.ndarray,
              slots: int | None = None, step: int = 100_000) -> Iterator[tuple[Any, ...]]:
    """CSV rows of per-game arrays (winner, first, moves, turns, scores, end), in
    blocks of `step` games; with `slots` (a match run) each row names its match."""
    winner, first, moves, turns, scores, end = (arrays[k] for k in FIELDS)
    for lo in range(0, len(winner), step):
        hi = min(len(winner), lo + step)
        cols = [game_index[lo:hi].tolist()]
        if slots is not None:
            cols.append((game_index[lo:hi] // slots).tolist())
        cols += [_LABELS[winner[lo:hi] + 1].tolist(), _LABELS[first[lo:hi] + 1].tolist(),
                 moves[lo:hi].tolist(), turns[lo:hi].tolist(), scores[lo:hi, 0].tolist(),
                 scores[lo:hi, 1].tolist(), _ENDS[end[lo:hi]].tolist()]
        yield from zip(*cols)
