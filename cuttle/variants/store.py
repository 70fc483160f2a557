"""The results file of an atlas run: JSON lines, appended and flushed chunk by chunk,
so that a run can be stopped (Ctrl-C, a kill, a crash) and continued by running the same
command again.

The first line is a header, ``{"format": "cuttle-atlas", "version": 1}``.  Every other
line is one finished chunk of games under one rule set::

    {"base": "classic", "rules": "classic: four=random", "players": ["greedy", "greedy"],
     "seed": 1, "max_moves": 10000, "chunk_size": 20000, "chunk": 3,
     "games": [60000, 80000], "tally": {...}, "pair": {...}}

keyed by everything that decides its games (base preset, rule set in its text form,
players, seed, move cap, chunk size and chunk index), holding the chunk's exact
sufficient statistics: the `Tally` of its games and, for a variant, the `PairTally`
against the base on the same games (base first); "engine" fingerprints the engine and
policy that played it (a hash of a few fixed games of the group, see
`cuttle.variants.run`): a run refuses to continue a file whose chunks another version
played, since their games would differ from the new ones.  The targets, caps and confidence
level are not part of the key: they only decide which chunks a run needs, so a later
run with a tighter target reuses every chunk and plays only the missing ones.

Lines of other configurations (another seed, other players, ...) are kept and ignored:
one file may hold several runs.  A file whose first line is not the header is refused
(it is not ours to append to).  A half-written last line (a run killed while writing)
is dropped; a damaged line elsewhere, or two different records for the same chunk, make
the file refused with the line number.  One run at a time may write a file (a lock).
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core import END_NAMES
from ..simulation.tally import LENGTH_BINS, MOMENTS, PAIRED_METRICS, PairTally, Tally

try:
    import fcntl
except ImportError:           # not on Windows: no lock there
    fcntl = None

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import TypeAlias

    from ..rules import Rules

    # (base, rules text, players, seed, max_moves, chunk_size, chunk): see `chunk_key`
    ChunkKey: TypeAlias = tuple[str, str, tuple[str, ...], int, int, int, int]

__all__ = ["FORMAT", "VERSION", "ResultsFileError", "Store", "chunk_key", "pair_from_json",
           "pair_to_json", "tally_from_json", "tally_to_json"]

FORMAT, VERSION = "cuttle-atlas", 1
HEADER = json.dumps({"format": FORMAT, "version": VERSION}).encode() + b"\n"
KEY_FIELDS = ("base", "rules", "players", "seed", "max_moves", "chunk_size", "chunk")


class ResultsFileError(ValueError):
    """A results file that cannot be used (not an atlas file, damaged, in use)."""


def chunk_key(base: str, rules: Rules | str, players: Iterable[str], seed: int,
              max_moves: int, chunk_size: int,
              chunk: int) -> tuple[str, str, tuple[str, ...], int, int, int, int]:
    """The key of one chunk's record (strings and ints, hashable)."""
    return (str(base), str(rules), tuple(players), int(seed), int(max_moves),
            int(chunk_size), int(chunk))


# ---------------------------------------------------------------------------------------
# Tallies as JSON (exact ints; histograms without their trailing zeros)

def _trim(row):
    nz = np.flatnonzero(row)
    return row[:nz[-1] + 1 if nz.size else 0].tolist()


def tally_to_json(t: Tally) -> dict[str, Any]:
    """A Tally of single games as JSON (exact ints; histograms without trailing zeros)."""
    if t.match_counts is not None:
        raise ValueError("the atlas plays single games, not matches")
    return {"counts": t.counts.tolist(), "moments": {k: list(t.moments[k]) for k in MOMENTS},
            "lengths": [_trim(row) for row in t.lengths]}


def _ints(x, shape, what):
    a = np.array(x, dtype=object)
    if a.shape != shape or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                                   for v in a.ravel()):
        raise ValueError(f"{what} must be {shape} counts")
    return a.astype(np.int64)


def _pairs_of_ints(x, n, what, signed=False):
    if not (isinstance(x, list) and len(x) == n):
        raise ValueError(f"{what} must be {n} pairs of ints")
    out = []
    for p in x:
        if not (isinstance(p, list) and len(p) == 2 and
                all(isinstance(v, int) and not isinstance(v, bool) for v in p) and
                p[1] >= 0 and (signed or p[0] >= 0)):
            raise ValueError(f"{what} must be {n} pairs of ints")
        out.append((p[0], p[1]))
    return out


def tally_from_json(d: object, n_games: int | None = None) -> Tally:
    """A Tally from `tally_to_json`'s form; ValueError if anything is off (and if it does
    not hold `n_games` games)."""
    if not isinstance(d, dict):
        raise ValueError("tally must be an object")
    counts = _ints(d.get("counts"), (3, 2, len(END_NAMES)), "tally counts")
    m = d.get("moments")
    if not isinstance(m, dict) or set(m) != set(MOMENTS):
        raise ValueError(f"tally moments must name {', '.join(MOMENTS)}")
    moments = dict(zip(MOMENTS, _pairs_of_ints([m[k] for k in MOMENTS], len(MOMENTS),
                                               "tally moments")))
    rows = d.get("lengths")
    if not (isinstance(rows, list) and len(rows) == 2):
        raise ValueError("tally lengths must be two histograms")
    lengths = np.zeros((2, LENGTH_BINS), np.int64)
    n = int(counts.sum())
    for i, row in enumerate(rows):
        if not isinstance(row, list) or len(row) > LENGTH_BINS:
            raise ValueError("tally lengths must be two histograms")
        lengths[i, :len(row)] = _ints(row, (len(row),), "tally lengths")
        if lengths[i].sum() != n:
            raise ValueError("tally lengths do not count every game")
    if n_games is not None and n != n_games:
        raise ValueError(f"tally counts {n} games, not {n_games}")
    return Tally(counts, moments, lengths)


def pair_to_json(p: PairTally) -> dict[str, Any]:
    """A PairTally as JSON: its 2x2 tables and the sums of the length differences."""
    return {"table": p.table.tolist(), "diffs": [list(x) for x in p.diffs]}


def pair_from_json(d: object, n_games: int | None = None) -> PairTally:
    """A PairTally from `pair_to_json`'s form; ValueError if anything is off (and if its
    tables do not count `n_games` games)."""
    if not isinstance(d, dict):
        raise ValueError("pair must be an object")
    table = _ints(d.get("table"), (len(PAIRED_METRICS), 4), "pair table")
    diffs = tuple(_pairs_of_ints(d.get("diffs"), 2, "pair diffs", signed=True))
    games = range(PAIRED_METRICS.index("first_mover_win_rate") + 1)   # the rows of games
    if n_games is not None and not all(int(table[m].sum()) == n_games for m in games):
        raise ValueError(f"pair table does not count {n_games} games")
    return PairTally(table, diffs)


def _record_key(rec):
    if not isinstance(rec, dict) or not all(k in rec for k in KEY_FIELDS + ("games", "tally")):
        raise ValueError(f"a record needs {', '.join(KEY_FIELDS)}, games and tally")
    players = rec["players"]
    ok = (isinstance(rec["base"], str) and isinstance(rec["rules"], str) and
          isinstance(players, list) and len(players) == 2 and
          all(isinstance(p, str) for p in players) and
          all(isinstance(rec[k], int) and not isinstance(rec[k], bool) and rec[k] >= 0
              for k in ("seed", "max_moves", "chunk_size", "chunk")))
    if not ok:
        raise ValueError("bad key fields")
    key = chunk_key(*(rec[k] for k in KEY_FIELDS))
    lo, hi = key[-1] * key[-2], (key[-1] + 1) * key[-2]
    if rec["games"] != [lo, hi]:
        raise ValueError(f"games must be [{lo}, {hi}] for chunk {key[-1]}")
    return key


def _parse(line, lineno, path):
    """(key or None for the header, record) of one line; ResultsFileError if damaged."""
    try:
        rec = json.loads(line)
        if lineno == 1:
            if not (isinstance(rec, dict) and rec.get("format") == FORMAT):
                raise ValueError("no header")
            if rec.get("version") != VERSION:
                raise ResultsFileError(f"{path} is an atlas results file of version "
                                       f"{rec.get('version')!r}; this cuttle reads version "
                                       f"{VERSION}")
            return None, rec
        key = _record_key(rec)
        n = rec["games"][1] - rec["games"][0]
        tally_from_json(rec["tally"], n)
        if rec.get("pair") is not None:
            pair_from_json(rec["pair"], n)
        return key, rec
    except ResultsFileError:
        raise
    except (ValueError, TypeError, KeyError) as e:
        if lineno == 1:
            raise ResultsFileError(
                f"{path} is not an atlas results file (its first line is not the atlas "
                f"header); give the name of a new file, or of a file an atlas run "
                f"wrote") from None
        raise ResultsFileError(
            f"{path}, line {lineno}: not a valid atlas record ({e}); the file is damaged: "
            f"delete that line (its chunk will be played again) or use another "
            f"file") from None


class Store:
    """An atlas results file, open for reading and appending (`write`) or only reading.
    `get(key)` is the (Tally, PairTally or None) of a chunk if the file has it; `put`
    appends records and flushes them to disk.  Only the keys and line offsets are held
    in memory, never the records.  `notes`: what opening the file had to repair."""

    def __init__(self, path: str | os.PathLike[str], write: bool = True):
        self.path = os.fspath(path)
        self.write = write
        self.notes: list[str] = []
        self.index: dict[ChunkKey, tuple[int, int]] = {}     # key -> (offset, line number)
        self.lines = 0
        if not write and not os.path.isfile(self.path):
            raise ResultsFileError(f"no results file {self.path!r}")
        if os.path.isdir(self.path):
            raise ResultsFileError(f"{self.path!r} is a folder, not a results file")
        self.f = open(self.path, "a+b" if write else "rb")
        try:
            if write and fcntl is not None:
                try:
                    fcntl.flock(self.f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    raise ResultsFileError(f"{self.path} is being written by another atlas "
                                           f"run; wait for it or use another file") from None
            self._scan()
        except BaseException:
            self.f.close()
            raise

    def _scan(self):
        f = self.f
        f.seek(0)
        offset = 0
        lineno = 0
        for raw in iter(f.readline, b""):
            lineno += 1
            if not raw.endswith(b"\n"):
                if lineno == 1 and not HEADER.startswith(raw):
                    _parse(raw.decode("utf-8", "replace"), 1, self.path)   # foreign: refused
                try:
                    key, _ = _parse(raw.decode("utf-8"), lineno, self.path)
                except (ResultsFileError, UnicodeDecodeError):
                    self._drop_tail(offset, lineno)
                    break
                if self.write:              # complete but unterminated: end it
                    f.write(b"\n")
                    f.flush()
                    raw += b"\n"
            else:
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    text = "\ufffd"
                key, _ = _parse(text, lineno, self.path)
            offset += len(raw)
            if key is not None:
                self._add(key, offset - len(raw), lineno)
                f.seek(offset)
            self.lines = lineno
        if self.lines == 0 and self.write:
            f.write(HEADER)
            f.flush()
            os.fsync(f.fileno())
            self.lines = 1

    def _drop_tail(self, offset, lineno):
        self.notes.append(f"{self.path}: dropped a half-written last line (line {lineno}); "
                          f"its chunk will be played again")
        if self.write:
            self.f.truncate(offset)
            self.f.flush()

    def _add(self, key, offset, lineno):
        if key in self.index:
            first = self._read(self.index[key][0])
            again = self._read(offset)
            if first != again:
                raise ResultsFileError(f"{self.path}: lines {self.index[key][1]} and {lineno} "
                                       f"hold different results for the same chunk; the file "
                                       f"is damaged")
            return
        self.index[key] = (offset, lineno)

    def _read(self, offset):
        self.f.seek(offset)
        return json.loads(self.f.readline().decode("utf-8"))

    def __contains__(self, key):
        return key in self.index

    def __len__(self):
        return len(self.index)

    def get(self, key: ChunkKey,
            engine: str | None = None) -> tuple[Tally, PairTally | None] | None:
        """(Tally, PairTally or None) of the chunk `key`, or None if not in the file;
        with `engine` (a fingerprint), ResultsFileError if the record was played by
        another engine."""
        if key not in self.index:
            return None
        offset, lineno = self.index[key]
        rec = self._read(offset)
        if engine is not None and rec.get("engine") != engine:
            raise ResultsFileError(
                f"{self.path}, line {lineno}: this chunk was played by another version of "
                f"the engine or of the {key[2][0]} policy (the games it fingerprints differ "
                f"from this cuttle's); give a new results file to play again, or report "
                f"what this one holds without playing (--report-only, play=False)")
        n = rec["games"][1] - rec["games"][0]
        pair = rec.get("pair")
        return tally_from_json(rec["tally"], n), (None if pair is None else
                                                  pair_from_json(pair, n))

    def put(self, records: Iterable[tuple[ChunkKey, Tally, PairTally | None]],
            engine: str | None = None) -> None:
        """Append records (key, Tally, PairTally or None) as one write, flushed to disk,
        with the `engine` fingerprint that played them; records already in the file are
        skipped."""
        if not self.write:
            raise ValueError("this results file was opened for reading only")
        out, new = [], []
        for key, tally, pair in records:
            if key in self.index:
                continue
            rec = dict(zip(KEY_FIELDS, (key[0], key[1], list(key[2]), *key[3:])))
            rec["games"] = [key[-1] * key[-2], (key[-1] + 1) * key[-2]]
            rec["tally"] = tally_to_json(tally)
            rec["pair"] = None if pair is None else pair_to_json(pair)
            if engine is not None:
                rec["engine"] = engine
            out.append(json.dumps(rec, separators=(",", ":")).encode() + b"\n")
            new.append(key)
        if not out:
            return
        self.f.seek(0, os.SEEK_END)
        offset = self.f.tell()
        self.f.write(b"".join(out))
        self.f.flush()
        os.fsync(self.f.fileno())
        for key, line in zip(new, out):
            self.lines += 1
            self.index[key] = (offset, self.lines)
            offset += len(line)

    def close(self) -> None:
        """Close the file (and release the lock)."""
        if not self.f.closed:
            self.f.close()          # (releases the lock)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
