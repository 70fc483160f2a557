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

A record whose "games" stop short of the chunk's end (``[60000, 60740]``) is a *part*:
the first games of a chunk that Ctrl-C cut short.  A run continuing the file plays only
the chunk's other games, and writes the whole record once it has them; of several parts
of a chunk the longest counts, and a whole record makes them moot.

Lines of other configurations (another seed, other players, ...) are kept and ignored:
one file may hold several runs.  A file whose first line is not the header is refused
(it is not ours to append to).  A half-written last line (a run killed while writing)
is dropped; a damaged line elsewhere, or two different records for the same games, make
the file refused with the line number.  One run at a time may write a file (a lock).

Every loaded tally is checked for consistency, not only for shape: its end reasons
against its winners, its moments against the move cap and its own length histograms
(each game's moves lie in its histogram bin, so the sums are bounded; the sums of
squares against the squared sums, by Cauchy-Schwarz), and a variant's paired table and
differences against its tally; its key fields and counts must be values a run can play
with (a seed below 2**64, games numbered below `MAX_UNITS`); a record that no set of
games could have produced is refused with its line number.  Records are also checked
against each other: the games of one chunk under one rule set are the same games
whichever record holds them, so every whole record of that rule set and chunk (its own
tally, or the reference's side of another's pair: the wins of each player, the draws,
the first mover's wins and the total length) must agree; a file whose records disagree
(counts edited or swapped in one of them) is refused with both line numbers.  The file
must be a regular file (not a device or a FIFO) and a line is at most `MAX_LINE_BYTES`
(1 MiB; a record takes a few KiB).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core import END_NAMES
from ..seeding import check_seed
from ..simulation.api import MAX_CHUNK, MAX_MAX_MOVES, MAX_UNITS
from ..simulation.tally import LENGTH_BINS, MOMENTS, PAIRED_METRICS, PairTally, Tally
from ..validation import check_int, is_int

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

__all__ = ["FORMAT", "MAX_LINE_BYTES", "VERSION", "ResultsFileError", "Store", "chunk_key",
           "pair_from_json", "pair_to_json", "tally_from_json", "tally_to_json"]

FORMAT, VERSION = "cuttle-atlas", 1
HEADER = json.dumps({"format": FORMAT, "version": VERSION}).encode() + b"\n"
KEY_FIELDS = ("base", "rules", "players", "seed", "max_moves", "chunk_size", "chunk")
MAX_LINE_BYTES = 1 << 20
# A score is the sum of a player's point cards, A to 10 counting 1 to 10: at most the
# whole deck's 4 * 55.
MAX_SCORE = 4 * sum(range(1, 11))
# A pair table's rows of single games (win A, win B, draw, first mover), before those
# of matches.
_GAME_ROWS = sum(not m.startswith("match") for m in PAIRED_METRICS)


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
    # Bounded before the int64 arrays are made, so that neither a count nor a sum of
    # them overflows: no run plays more than MAX_UNITS games.
    if a.shape != shape or not all(is_int(v) and 0 <= v <= MAX_UNITS for v in a.ravel()):
        raise ValueError(f"{what} must be {shape} counts (ints from 0 to {MAX_UNITS:,})")
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


def _check_moments(s, q, n, lo, hi, what):
    """ValueError unless (s, q) can be the sum and the sum of squares of n integers,
    each from lo to hi."""
    if n == 0:
        ok = s == q == 0
    else:
        ok = (lo * n <= s <= hi * n
              and s * s <= q * n                        # Cauchy-Schwarz
              and q <= (lo + hi) * s - n * lo * hi      # sum of (x - lo)(hi - x) >= 0
              and (q - s) % 2 == 0)                     # x^2 - x is even
    if not ok:
        raise ValueError(f"{what} ({s}, {q}) cannot be the sum and the sum of squares of "
                         f"{n} values from {lo} to {hi}")


def _check_lengths(moments, hist, cap, what):
    """The moments of moves or turns against their histogram (bins 0..LENGTH_BINS-2
    exact, the last one every longer game) and the cap on their values."""
    top = LENGTH_BINS - 1
    if cap < top and hist[cap + 1:].any():
        raise ValueError(f"tally {what} histogram counts games longer than {cap}")
    b = np.arange(top, dtype=object)
    exact = hist[:top].astype(object)
    s, q = moments
    _check_moments(s - int((b * exact).sum()), q - int((b * b * exact).sum()),
                   int(hist[top]), top, max(cap, top), f"tally {what} beyond the histogram's "
                   f"exact bins")


def _check_tally(t, max_moves):
    """ValueError unless `t` can be the tally of single games under the move cap."""
    counts, n = t.counts, t.n_games
    goal, cap_end = END_NAMES.index("goal"), END_NAMES.index("move_cap")
    # A game ends (never "none"); at the goal it has a winner, any other way it is a draw.
    if counts[:, :, END_NAMES.index("none")].any() or counts[0, :, goal].any() or \
            np.delete(counts[1:], goal, axis=2).any():
        raise ValueError("tally counts do not match their end reasons (a game at its "
                         "goal has a winner, any other end is a draw)")
    hist = t.lengths
    _check_lengths(t.moments["moves"], hist[0], max_moves, "moves")
    _check_lengths(t.moments["turns"], hist[1], max_moves + 1, "turns")
    # A game stopped by the cap played max_moves moves.
    capped = int(counts[:, :, cap_end].sum())
    at_cap = int(hist[0][min(max_moves, LENGTH_BINS - 1)])
    if capped > at_cap:
        raise ValueError(f"tally counts {capped} games stopped at the move cap, but only "
                         f"{at_cap} that long")
    for k in ("score_a", "score_b"):
        _check_moments(*t.moments[k], n, 0, MAX_SCORE, f"tally {k}")


def tally_from_json(d: object, n_games: int | None = None,
                    max_moves: int | None = None) -> Tally:
    """A Tally from `tally_to_json`'s form; ValueError if anything is off: its shape,
    its consistency (module docstring) under the move cap `max_moves` (default the
    largest allowed), and the number of games, if `n_games` is given."""
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
    t = Tally(counts, moments, lengths)
    _check_tally(t, MAX_MAX_MOVES if max_moves is None else max_moves)
    return t


def pair_to_json(p: PairTally) -> dict[str, Any]:
    """A PairTally as JSON: its 2x2 tables and the sums of the length differences."""
    return {"table": p.table.tolist(), "diffs": [list(x) for x in p.diffs]}


def pair_from_json(d: object, n_games: int | None = None, tally: Tally | None = None,
                   max_moves: int | None = None) -> PairTally:
    """A PairTally of single games from `pair_to_json`'s form; ValueError if anything
    is off: its shape, its tables against `n_games` games, its second side against
    `tally` (the second rule set's own tally, if given), and its differences against the
    move cap `max_moves` (default the largest allowed)."""
    if not isinstance(d, dict):
        raise ValueError("pair must be an object")
    table = _ints(d.get("table"), (len(PAIRED_METRICS), 4), "pair table")
    diffs = tuple(_pairs_of_ints(d.get("diffs"), 2, "pair diffs", signed=True))
    single = _GAME_ROWS
    n = int(table[0].sum())
    if any(int(table[m].sum()) != n for m in range(single)) or table[single:].any() or \
            (n_games is not None and n != n_games):
        raise ValueError(f"pair table does not count {n if n_games is None else n_games} "
                         f"single games")
    both, only_i, only_j = table[:single, 3], table[:single, 2], table[:single, 1]
    for side in (both + only_i, both + only_j):     # win_A, win_B, draw, first_mover
        if side[0] + side[1] + side[2] != n or side[3] > side[0] + side[1]:
            raise ValueError("pair table: wins and draws do not add up to the games")
    if tally is not None:
        c = tally.counts
        own = [c[1].sum(), c[2].sum(), c[0].sum(), c[1, 0].sum() + c[2, 1].sum()]
        if list(both + only_j) != [int(x) for x in own]:
            raise ValueError("pair table does not match the rule set's own tally")
    cap = MAX_MAX_MOVES if max_moves is None else max_moves
    for k, (what, top) in enumerate((("moves", cap), ("turns", cap + 1))):
        s, q = diffs[k]
        _check_moments(s, q, n, -top, top, f"pair {what} differences")
        if tally is not None and not 0 <= s + tally.moments[what][0] <= top * n:
            raise ValueError(f"pair {what} differences do not match the rule set's tally")
    return PairTally(table, diffs)


def _record_key(rec):
    if not isinstance(rec, dict) or not all(k in rec for k in KEY_FIELDS + ("games", "tally")):
        raise ValueError(f"a record needs {', '.join(KEY_FIELDS)}, games and tally")
    players = rec["players"]
    ok = (isinstance(rec["base"], str) and isinstance(rec["rules"], str) and
          isinstance(players, list) and len(players) == 2 and
          all(isinstance(p, str) for p in players))
    if not ok:
        raise ValueError("bad key fields")
    # The values a run can play with: its games are numbered below MAX_UNITS.
    check_seed(rec["seed"])
    check_int(rec["max_moves"], "max_moves", 1, MAX_MAX_MOVES)
    size = check_int(rec["chunk_size"], "chunk_size", 1, MAX_CHUNK)
    check_int(rec["chunk"], "chunk", 0, MAX_UNITS // size - 1)
    key = chunk_key(*(rec[k] for k in KEY_FIELDS))
    lo, hi = key[-1] * key[-2], (key[-1] + 1) * key[-2]
    games = rec["games"]
    if not (isinstance(games, list) and len(games) == 2 and
            all(isinstance(g, int) and not isinstance(g, bool) for g in games) and
            games[0] == lo and lo < games[1] <= hi):
        raise ValueError(f"games must be [{lo}, {hi}] for chunk {key[-1]} (or [{lo}, n], "
                         f"n below {hi}, for the first games of a chunk cut short)")
    return key


def _games(rec):
    """How many games a valid record holds."""
    return rec["games"][1] - rec["games"][0]


def _tallies(rec):
    """(Tally, PairTally or None) of a record whose key fields are valid; ValueError
    if they are damaged or inconsistent."""
    n, cap = rec["games"][1] - rec["games"][0], rec["max_moves"]
    tally = tally_from_json(rec["tally"], n, cap)
    pair = rec.get("pair")
    if pair is None and rec["base"] != rec["rules"]:
        raise ValueError("a rule set's record against another holds their pair")
    return tally, None if pair is None else pair_from_json(pair, n, tally, cap)


def _parse(line, lineno, path):
    """(key or None for the header, record, its (Tally, PairTally or None) or None for
    the header) of one line; ResultsFileError if damaged."""
    try:
        try:
            rec = json.loads(line)
        except RecursionError:      # (a line of 100,000 '[')
            raise ValueError("the JSON is nested too deeply") from None
        if lineno == 1:
            if not (isinstance(rec, dict) and rec.get("format") == FORMAT):
                raise ValueError("no header")
            # an int: true and 1.0 equal 1 in Python
            if not (is_int(rec.get("version")) and rec["version"] == VERSION):
                raise ResultsFileError(f"{path} is an atlas results file of version "
                                       f"{rec.get('version')!r}; this cuttle reads version "
                                       f"{VERSION}")
            return None, rec, None
        key = _record_key(rec)
        return key, rec, _tallies(rec)
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
        # A chunk cut short: key -> (offset, line number, games) of its longest part.
        self.parts: dict[ChunkKey, tuple[int, int, int]] = {}
        self.lines = 0
        # What the whole records say of each rule set's games in each chunk, for the
        # checks between records (`_agree`): (players, seed, max_moves, chunk_size, chunk,
        # rules text) -> (summary, line number, whose); its own tally's digest -> line.
        self._sides: dict[tuple, tuple[tuple, int, str]] = {}
        self._owns: dict[tuple, tuple[str, int]] = {}
        if not write and not os.path.exists(self.path):
            raise ResultsFileError(f"no results file {self.path!r}")
        # O_NONBLOCK: a FIFO must not block the open before it is refused.
        flags = (os.O_RDWR | os.O_CREAT | os.O_APPEND if write else os.O_RDONLY) | \
            getattr(os, "O_NONBLOCK", 0)
        try:
            fd = os.open(self.path, flags, 0o666)
        except IsADirectoryError:
            raise ResultsFileError(f"{self.path!r} is a folder, not a results file") from None
        except OSError as e:
            raise self._error(e) from None
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            os.close(fd)
            kind = "folder" if stat.S_ISDIR(mode) else "device, FIFO or socket"
            raise ResultsFileError(f"{self.path!r} is a {kind}, not a results file (it "
                                   f"must be a regular file)")
        self.f = open(fd, "a+b" if write else "rb")
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

    def _error(self, e: OSError) -> OSError:
        """An I/O error on the file, naming it."""
        return e if e.filename is not None or e.errno is None else \
            OSError(e.errno, e.strerror, self.path)

    def _append(self, data: bytes, offset: int) -> None:
        """Append `data` at `offset` (the end), flushed to disk; on failure (a full
        disk) the file is cut back to `offset` and the OSError names the file."""
        f = self.f
        try:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        except OSError as e:
            try:
                f.truncate(offset)
            except (OSError, ValueError):
                pass
            raise self._error(e) from None

    def _scan(self):
        f = self.f
        f.seek(0)
        offset = 0
        lineno = 0
        while raw := f.readline(MAX_LINE_BYTES + 1):
            lineno += 1
            if len(raw) > MAX_LINE_BYTES:
                if lineno == 1:
                    _parse("", 1, self.path)            # not an atlas file: refused
                raise ResultsFileError(f"{self.path}, line {lineno}: longer than "
                                       f"{MAX_LINE_BYTES:,} bytes, not an atlas record; the "
                                       f"file is damaged")
            if not raw.endswith(b"\n"):
                if lineno == 1 and not HEADER.startswith(raw):
                    _parse(raw.decode("utf-8", "replace"), 1, self.path)   # foreign: refused
                try:
                    key, rec, tallies = _parse(raw.decode("utf-8"), lineno, self.path)
                except (ResultsFileError, UnicodeDecodeError):
                    self._drop_tail(offset, lineno)
                    break
                if self.write:              # complete but unterminated: end it
                    self._append(b"\n", offset + len(raw))
                    raw += b"\n"
            else:
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    text = "\ufffd"
                key, rec, tallies = _parse(text, lineno, self.path)
            offset += len(raw)
            if key is not None:
                self._add(key, offset - len(raw), lineno, _games(rec))
                if _games(rec) == key[-2]:
                    self._agree(key, *tallies, lineno)
                f.seek(offset)
            self.lines = lineno
        if self.lines == 0 and self.write:
            self._append(HEADER, 0)
            self.lines = 1

    def _agree(self, key, tally, pair, lineno):
        """A whole record's games against those of the other records of the same
        chunk: its rule set's own tally (whole) and, with a pair, the reference's side
        (module docstring); ResultsFileError naming both lines if they disagree."""
        group = key[2:]
        # (a digest, not the text: what is held grows by 20 bytes a record)
        own = hashlib.sha1(json.dumps(tally_to_json(tally), sort_keys=True).encode()).digest()
        seen = self._owns.setdefault(group + (key[1],), (own, lineno))
        if seen[0] != own:
            self._disagree(key[1], key[-1], seen[1], lineno, "tallies")
        c = tally.counts
        self._side(group, key[1], lineno, (
            int(c[1].sum()), int(c[2].sum()), int(c[0].sum()),
            int(c[1, 0].sum() + c[2, 1].sum()), tally.moments["moves"][0],
            tally.moments["turns"][0]), "tally")
        if pair is not None:
            t = pair.table
            first = t[:_GAME_ROWS, 3] + t[:_GAME_ROWS, 2]
            self._side(group, key[0], lineno, (
                *(int(x) for x in first),
                pair.diffs[0][0] + tally.moments["moves"][0],
                pair.diffs[1][0] + tally.moments["turns"][0]), "pair")

    def _side(self, group, rules, lineno, summary, whose):
        seen = self._sides.setdefault(group + (rules,), (summary, lineno, whose))
        if seen[0] != summary:
            what = "tallies" if whose == seen[2] == "tally" else "wins, draws or lengths"
            self._disagree(rules, group[-1], seen[1], lineno, what)

    def _disagree(self, rules, chunk, lineno, again, what):
        raise ResultsFileError(
            f"{self.path}, lines {lineno} and {again}: their {what} of the same games "
            f"(rule set {rules!r}, chunk {chunk}) disagree, as no run could have written "
            f"them (a count edited or swapped); the file is damaged: delete the wrong line "
            f"(its chunk will be played again) or use another file")

    def _drop_tail(self, offset, lineno):
        self.notes.append(f"{self.path}: dropped a half-written last line (line {lineno}); "
                          f"its chunk will be played again")
        if self.write:
            try:
                self.f.truncate(offset)
                self.f.flush()
            except OSError as e:
                raise self._error(e) from None

    def _add(self, key, offset, lineno, games):
        if games < key[-2]:                 # a part: the longest one counts
            seen = self.parts.get(key)
            if seen is not None and seen[2] == games:
                self._same(seen[0], seen[1], offset, lineno, f" (its first {games:,} games)")
            if seen is None or seen[2] < games:
                self.parts[key] = (offset, lineno, games)
            return
        if key in self.index:
            self._same(*self.index[key], offset, lineno)
            return
        self.index[key] = (offset, lineno)

    def _same(self, offset, lineno, again, again_lineno, which=""):
        """Two lines for the same games must hold the same results."""
        if self._read(offset) != self._read(again):
            raise ResultsFileError(f"{self.path}: lines {lineno} and {again_lineno} hold "
                                   f"different results for the same chunk{which}; the file "
                                   f"is damaged")

    def _read(self, offset):
        self.f.seek(offset)
        return json.loads(self.f.readline(MAX_LINE_BYTES + 1).decode("utf-8"))

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
        return self._record_tallies(key, *self.index[key], engine)

    def get_part(self, key: ChunkKey, engine: str | None = None
                 ) -> tuple[int, Tally, PairTally | None] | None:
        """(games, Tally, PairTally or None) of the longest part of chunk `key` the file
        holds (its first `games` games: a run cut short by Ctrl-C left them), or None
        (none, or the whole chunk is there); `engine` as for `get`."""
        if key in self.index or key not in self.parts:
            return None
        offset, lineno, games = self.parts[key]
        return (games, *self._record_tallies(key, offset, lineno, engine))

    def _record_tallies(self, key, offset, lineno, engine):
        rec = self._read(offset)
        if engine is not None and rec.get("engine") != engine:
            raise ResultsFileError(
                f"{self.path}, line {lineno}: this chunk was played by another version of "
                f"the engine or of the {key[2][0]} policy (the games it fingerprints differ "
                f"from this cuttle's); give a new results file to play again, or report "
                f"what this one holds without playing (--report-only, play=False)")
        try:
            return _tallies(rec)
        except ValueError as e:     # (changed since the file was opened)
            raise ResultsFileError(f"{self.path}, line {lineno}: not a valid atlas record "
                                   f"({e})") from None

    def put(self, records: Iterable[tuple[ChunkKey, Tally, PairTally | None]],
            engine: str | None = None) -> None:
        """Append records (key, Tally, PairTally or None) as one write, flushed to disk,
        with the `engine` fingerprint that played them; records already in the file are
        skipped."""
        self.put_parts([(key, key[-2], tally, pair) for key, tally, pair in records], engine)

    def put_parts(self, records: Iterable[tuple[ChunkKey, int, Tally, PairTally | None]],
                  engine: str | None = None) -> None:
        """`put` for records (key, games, Tally, PairTally or None) of a chunk's first
        `games` games (all of them: a whole record); records the file already holds as
        many games of, or more, are skipped."""
        if not self.write:
            raise ValueError("this results file was opened for reading only")
        out, new = [], []
        for key, games, tally, pair in records:
            if key in self.index or games <= self.parts.get(key, (0, 0, 0))[2]:
                continue
            rec = dict(zip(KEY_FIELDS, (key[0], key[1], list(key[2]), *key[3:])))
            rec["games"] = [key[-1] * key[-2], key[-1] * key[-2] + games]
            rec["tally"] = tally_to_json(tally)
            rec["pair"] = None if pair is None else pair_to_json(pair)
            if engine is not None:
                rec["engine"] = engine
            out.append(json.dumps(rec, separators=(",", ":")).encode() + b"\n")
            new.append((key, games))
        if not out:
            return
        self.f.seek(0, os.SEEK_END)
        offset = self.f.tell()
        self._append(b"".join(out), offset)
        for (key, games), line in zip(new, out):
            self.lines += 1
            self._add(key, offset, self.lines, games)
            offset += len(line)

    def close(self) -> None:
        """Close the file (and release the lock)."""
        if not self.f.closed:
            self.f.close()          # (releases the lock)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
