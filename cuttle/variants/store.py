"""The results file of an atlas run or a balance search: JSON lines, appended and
flushed chunk by chunk, so that a run can be stopped (Ctrl-C, a kill, a crash) and
continued by running the same command again.

The first line is a header naming the command whose runs the file holds,
``{"format": "cuttle-atlas", "version": 2, "command": "atlas"}`` (or ``"balance"``).  Both
commands write these records, with the same keys (a balance search screens its changes
on an atlas's games), but each keeps its runs in files of its own: in a shared file each
named the other's runs as its own in its messages, and a record both key alike, stamped
with the other's fingerprint, was refused mid-run as another version's.  So the other
command's file is refused before anything is written.  A file of an earlier version,
whose header names no command, is told by its records (`Store.whose`); one that both
commands filled is read by each (its own runs) and played into by neither.

Every other line is one finished chunk of games under one rule set, a record (its
fields, its tallies as JSON and their checks: `cuttle.variants.records`)::

    {"base": "classic", "rules": "classic: four=random", "players": ["greedy", "greedy"],
     "seed": 1, "max_moves": 10000, "chunk_size": 20000, "chunk": 3,
     "games": [60000, 80000], "tally": {...}, "pair": {...}, "engine": "...",
     "check": "..."}

keyed by everything that decides its games (base preset, rule set in its text form,
players, seed, move cap, chunk size and chunk index), holding the chunk's exact
sufficient statistics: the `Tally` of its games and, for a variant, the `PairTally`
against the base on the same games (base first); "engine" fingerprints the engine and
policy that played it (a hash of a few fixed games under its own two rule sets,
`cuttle.variants.chunks.Stamps`): a run refuses a record another version played, since
its games would differ from the new ones, and re-uses every other (a run with more
rule sets than the file's plays only the new ones); "check" hashes the rest of the
line (a line changed anywhere is refused).  In version 1 an atlas stamped a group's
records with one fingerprint of the whole group (`legacy`: `cuttle.variants.upgrade`
upgrades such a file when a run plays into it).  The targets, caps and confidence
level are not part of the key: they only decide which chunks a run needs, so a later
run with a tighter target reuses every chunk and plays only the missing ones.

A record whose "games" stop short of the chunk's end (``[60000, 60740]``) is a *part*:
the first games of a chunk that Ctrl-C cut short.  A run continuing the file plays only
the chunk's other games, and writes the whole record once it has them; of several parts
of a chunk the longest counts, and a whole record makes them moot.

Lines of other configurations (another seed, other players, ...) are kept and ignored:
one file may hold several runs of its command; a line whose key is no configuration
(rule text that does not parse, a player that is no policy) is damaged.  A file whose
first line is not the header is refused (it is not ours to append to).  A half-written
last line (a run killed while writing) is dropped (`cuttle.files.json_lines`' rule of a
last line); a damaged line elsewhere, or two different records for the same games, make
the file refused with the line number.  One run at a time may write a file (a lock:
another is refused, told whose run holds it, cuttle atlas or balance, by the header).

Every loaded record is checked for consistency (`cuttle.variants.records`): one that no
set of games could have produced is refused with its line number.  Records are also
checked against each other: the games of one chunk under one rule set are the same games
whichever record holds them, so every whole record of that rule set and chunk (its own
tally, or the reference's side of another's pair: the wins of each player, the draws,
the first mover's wins and the total length) must agree; a file whose records disagree
(counts edited or swapped in one of them) is refused with both line numbers.  The file
must be a regular file (not a device or a FIFO) and a line is at most `MAX_LINE_BYTES`
(1 MiB; a record takes a few KiB).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from typing import TYPE_CHECKING

from ..files import cut_off, cut_off_note, json_lines, mend_tail
from ..validation import is_int
from .errors import (READ_ONLY, NothingToReport, OtherFingerprint, ResultsFileError,
                     check_results, held_runs)
from .records import (KEY_FIELDS, _GAME_ROWS, _games, _record_key, _tallies, first_chunk,
                      pair_to_json, record_line, tally_to_json)

try:
    import fcntl
except ImportError:           # not on Windows: no lock there
    fcntl = None

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from ..simulation.tally import PairTally, Tally
    from .records import ChunkKey

__all__ = ["COMMANDS", "FORMAT", "MAX_LINE_BYTES", "NothingToReport", "OtherFingerprint",
           "VERSION", "ResultsFileError", "Store", "check_results", "header", "held_runs"]

# Version 2: every record stamped by its own games (module docstring); 1 is read too.
FORMAT, VERSION = "cuttle-atlas", 2
VERSIONS = (1, 2)                   # the versions read
# The commands that keep their runs in this format, each in files of its own: a new
# file's header names its command (module docstring).
COMMANDS = ("atlas", "balance")
# What errors call a file and a line: the format is both commands', so an error names both.
FILE_KIND, RECORD_KIND = "balance/atlas results file", "balance/atlas record"
MAX_LINE_BYTES = 1 << 20
MAX_HEADER_BYTES = 256      # (a header line is under 80 bytes)


def header(command: str | None = None, version: int = VERSION) -> bytes:
    """The first line of a results file of `command` (one of COMMANDS; None: the header
    of a file an earlier version wrote, which names no command)."""
    head = {"format": FORMAT, "version": version}
    if command is not None:
        head["command"] = command
    return json.dumps(head).encode() + b"\n"


HEADER = header()
HEADERS = tuple(header(c, v) for v in VERSIONS for c in (None, *COMMANDS))


def _parse(line, path):
    """(key or None for the header, record, its (Tally, PairTally or None) or None for
    the header) of a line (`cuttle.files.JsonLine`); ResultsFileError if damaged."""
    lineno = line.lineno
    try:
        if line.error is not None:
            raise ValueError(line.error)
        rec = line.value
        if lineno == 1:
            if not (isinstance(rec, dict) and rec.get("format") == FORMAT):
                raise ValueError("no header")
            # an int: true and 1.0 equal 1 in Python
            if not (is_int(rec.get("version")) and rec["version"] in VERSIONS):
                raise ResultsFileError(f"{path} is a {FILE_KIND} of version "
                                       f"{rec.get('version')!r}; this cuttle reads versions "
                                       f"{VERSIONS[0]} to {VERSIONS[-1]}")
            if rec.get("command", COMMANDS[0]) not in COMMANDS:
                raise ResultsFileError(f"{path} is the results file of another command "
                                       f"({rec['command']!r}); this cuttle's are "
                                       f"{' and '.join(COMMANDS)}")
            return None, rec, None
        key = _record_key(rec)
        return key, rec, _tallies(rec)
    except ResultsFileError:
        raise
    except (ValueError, TypeError, KeyError) as e:
        if lineno == 1:
            raise ResultsFileError(
                f"{path} is not a {FILE_KIND} (its first line is not the header of the "
                f"format cuttle balance and cuttle atlas share); give the name of a new "
                f"file, or of a file a balance or atlas run wrote") from None
        raise ResultsFileError(
            f"{path}, line {lineno}: not a valid {RECORD_KIND} ({e}); the file is damaged: "
            f"delete that line (its chunk will be played again) or use another "
            f"file") from None


class Store:
    """A results file, open for reading and appending (`write`) or only reading.
    `get(key)` is the (Tally, PairTally or None) of a chunk if the file has it; `put`
    appends records and flushes them to disk.  Only the keys and line offsets are held
    in memory, never the records.  `notes`: what opening the file had to repair.

    `command` (one of COMMANDS, or None: any) is the command opening it: a file of the
    other command's runs is refused (ResultsFileError) before anything is written, and
    a new file's header names it; `owner` is the command the header names (None in a
    file of an earlier version: `whose` tells its runs apart by their records)."""

    def __init__(self, path: str | os.PathLike[str], write: bool = True,
                 command: str | None = None):
        if command is not None and command not in COMMANDS:
            raise ValueError(f"command must be one of {', '.join(COMMANDS)}, not {command!r}")
        self.path = os.fspath(path)
        self.write, self.command = write, command
        self.notes: list[str] = []
        # Why records of a fingerprint are refused, when it is known (else: another
        # version of the engine or policy): fingerprint -> cause (`OtherFingerprint`).
        self.causes: dict[str, str] = {}
        self._clear()
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
            if write:
                self._lock()
            tail = self._scan()
            self._check_command()
            self._mend(tail)
            if self.lines == 0 and self.write:
                self._append(header(self.command), 0)
                self.lines = 1
        except BaseException:
            self.f.close()
            raise

    def _clear(self):
        """What reading the file finds, before reading it."""
        self.owner: str | None = None
        self.version = VERSION                              # (the header's, once read)
        self.index: dict[ChunkKey, tuple[int, int]] = {}     # key -> (offset, line number)
        # A chunk cut short: key -> (offset, line number, games) of its longest part.
        self.parts: dict[ChunkKey, tuple[int, int, int]] = {}
        self.lines = 0
        # What the whole records say of each rule set's games in each chunk, for the
        # checks between records (`_agree`): (players, seed, max_moves, chunk_size, chunk,
        # rules text) -> (summary, line number, whose); its own tally's digest -> line.
        self._sides: dict[tuple, tuple[tuple, int, str]] = {}
        self._owns: dict[tuple, tuple[str, int]] = {}
        # Per run (players, seed, max_moves, chunk_size): what tells whose it is in a
        # file without an owner (`whose`): [bases of its records of a rule set alone,
        # the fingerprints on its records, whether one lies beyond the first stage].
        self._runs: dict[tuple, list] = {}

    def _lock(self):
        """Hold the file's lock (a file open for writing), or ResultsFileError; a file
        replaced since it was opened (an upgrade's, `rewrite`) is refused too."""
        if fcntl is None:
            return
        try:
            fcntl.flock(self.f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise ResultsFileError(f"{self.path} is being written by another "
                                   f"{self._holder()} run; wait for it or use "
                                   f"another file") from None
        try:
            same = os.path.samestat(os.fstat(self.f.fileno()), os.stat(self.path))
        except OSError:
            same = False
        if not same:
            raise ResultsFileError(f"{self.path} was replaced while it was opened (by "
                                   f"another run upgrading it?); run again")

    def _holder(self) -> str:
        """Who holds the lock, in words: "cuttle balance" when the file's header names
        the command writing it, else (a file an earlier version began, a header not
        written yet) "cuttle atlas or balance"."""
        self.f.seek(0)
        try:
            head = json.loads(self.f.readline(MAX_HEADER_BYTES))
        except ValueError:                  # (a UnicodeDecodeError is one)
            head = None
        command = head.get("command") if isinstance(head, dict) else None
        return f"cuttle {command}" if command in COMMANDS else "cuttle atlas or balance"

    def _error(self, e: OSError) -> OSError:
        """An I/O error on the file, naming it."""
        return e if e.filename is not None or e.errno is None else \
            OSError(e.errno, e.strerror, self.path)

    def _append(self, data: bytes, offset: int) -> None:
        """Append `data` at `offset` (the end), flushed to disk; on failure (a full
        disk) the file is cut back to `offset` and the OSError names the file."""
        fd = self.f.fileno()
        try:
            # (unbuffered: a failed write left in a buffer failed again at close)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except OSError as e:
            with contextlib.suppress(OSError, ValueError):
                os.ftruncate(fd, offset)
            raise self._error(e) from None

    def _scan(self):
        """Read the file's lines; returns its last line (a `JsonLine`, None in an empty
        file) for `_mend`, done once the file is known to be the command's."""
        last = None
        for line in json_lines(self.f, MAX_LINE_BYTES):
            last = line
            if len(line.raw) > MAX_LINE_BYTES and line.lineno > 1:
                raise ResultsFileError(f"{self.path}, line {line.lineno}: longer than "
                                       f"{MAX_LINE_BYTES:,} bytes, not a {RECORD_KIND}; the "
                                       f"file is damaged")
            if line.lineno == 1 and not line.ended and \
                    not any(h.startswith(line.raw) for h in HEADERS):
                _parse(line._replace(error="no header"), self.path)   # foreign: refused
            if cut_off(line):
                break
            key, rec, tallies = _parse(line, self.path)
            if key is not None:
                self._add(key, line.offset, line.lineno, _games(rec))
                self._note(key, rec.get("engine"))
                if _games(rec) == key[-2]:
                    self._agree(key, *tallies, line.lineno)
            else:
                self.owner, self.version = rec.get("command"), rec["version"]
            self.lines = line.lineno
        return last

    def _mend(self, last):
        """The last line as `_scan` found it: complete but unterminated (ended when
        writing: its newline added), or cut off (dropped), `cuttle.files`' rule."""
        if last is None or last.ended:
            return
        if cut_off(last):
            self.notes.append(cut_off_note(
                self.path, last.lineno, self.write, "its chunk will be played again"
                if self.write else f"a run that plays (not {READ_ONLY}) drops it and "
                                   f"plays its chunk again"))
        if self.write:
            try:
                mend_tail(self.f, last)
            except OSError as e:
                raise self._error(e) from None

    def _note(self, key, engine):
        run = self._runs.setdefault(key[2:6], [set(), set(), False])
        if key[0] == key[1]:
            run[0].add(key[0])
        run[1].add(None if engine is None else str(engine))
        run[2] = run[2] or key[-1] >= first_chunk(1, key[-2])

    def whose(self, key: ChunkKey) -> str:
        """The command (of COMMANDS) whose run the record `key` belongs to: the header's,
        or in a file of an earlier version (whose header names none) read from the
        run's records (those of its players, seed, move cap and chunk size): a balance
        search's if one of them lies beyond the first stage of games (`first_chunk`),
        or in version 1 if they carry more fingerprints than the run has bases (an atlas
        stamped all of a base's records with one); an atlas's otherwise."""
        return self._whose(key[2:6])

    def _whose(self, run):
        if self.owner is not None:
            return self.owner
        bases, engines, later = self._runs[run]
        # (only in version 1 did an atlas stamp all of a base's records with one)
        many = self.version == 1 and len(engines) > max(1, len(bases))
        return "balance" if later or many else "atlas"

    def _check_command(self):
        """A file holds the runs of one command: one holding the other's is refused, and
        one an earlier version let both fill is read but not played into."""
        if self.command is None:
            return
        held = {self.owner} if self.owner is not None else set(map(self._whose, self._runs))
        if not held - {self.command}:
            return
        other = next(c for c in COMMANDS if c != self.command)
        if self.command not in held:
            holds = "holds the runs of" if self._runs else "is the results file of"
            raise ResultsFileError(
                f"{self.path} {holds} cuttle {other}; cuttle {self.command} keeps its runs "
                f"in a file of its own: give another results file")
        if self.write:
            raise ResultsFileError(
                f"{self.path} holds the runs of both cuttle atlas and cuttle balance (an "
                f"earlier version let them share a file): cuttle {self.command} reads its "
                f"own without playing (--report-only, play=False), but plays into a file of "
                f"its own: give another results file")

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

    def runs(self, max_moves: int | None = None) -> list[tuple[str, str, int, int]]:
        """(base, policy, seed, chunk size) of each run the file holds whole chunks of
        the base's own games of (an atlas group's, a balance search's; with a `command`,
        only that command's: `whose`; with `max_moves`, only those of that move cap), in
        the file's order; [] for a file without a record."""
        return list(dict.fromkeys((k[0], k[2][0], k[3], k[5]) for k in self.index
                                  if k[0] == k[1] and max_moves in (None, k[4])
                                  and self.command in (None, self.whose(k))))

    def rule_sets(self, base: str, players: Iterable[str], seed: int, max_moves: int,
                  chunk_size: int, chunk: int) -> set[str]:
        """The rule texts of the records (whole or parts) the file holds of chunk
        `chunk` of a run (`base`, the reference's text, `players`, ...)."""
        run = (base, tuple(players), seed, max_moves, chunk_size, chunk)
        return {k[1] for k in (*self.index, *self.parts) if (k[0], *k[2:]) == run}

    @property
    def legacy(self) -> bool:
        """Whether the records are an atlas's of version 1, stamped by their group, not
        each by its own games (`cuttle.variants.upgrade`)."""
        return self.version == 1 and len(self.index) + len(self.parts) > 0 and \
            self.command == "atlas"

    def stamps(self) -> Iterator[tuple[ChunkKey, str | None]]:
        """(key, fingerprint or None) of every record, whole or part, read one by one."""
        for key, (offset, *_) in (*self.index.items(), *self.parts.items()):
            yield key, self._read(offset).get("engine")

    def rewrite(self, stamp_of: Callable[[ChunkKey, str | None], str | None]) -> None:
        """Write the file again, with the header of this version and each record's
        fingerprint replaced by ``stamp_of(key, stamp)`` (None: kept): a file of an
        earlier format upgraded in place (`cuttle.variants.upgrade`).  The new file is
        written beside it, locked, flushed and only then renamed over it, line by line
        (memory does not grow with the file), so an interruption or a failure leaves
        the old file as it was."""
        if not self.write:
            raise ValueError("this results file was opened for reading only")
        tmp = f"{self.path}.upgrading"
        new = open(os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600),
                   "a+b")
        try:
            os.chmod(tmp, stat.S_IMODE(os.fstat(self.f.fileno()).st_mode))
            if fcntl is not None:
                fcntl.flock(new.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            new.write(header(self.command))
            self.f.seek(0)
            self.f.readline(MAX_HEADER_BYTES)
            while raw := self.f.readline(MAX_LINE_BYTES + 1):
                rec = json.loads(raw.decode("utf-8"))
                key, old = _record_key(rec), rec.pop("engine", None)
                rec.pop("check", None)
                stamp = stamp_of(key, old)
                if (old if stamp is None else stamp) is not None:
                    rec["engine"] = old if stamp is None else stamp
                new.write(record_line(rec))
            new.flush()
            os.fsync(new.fileno())
            os.replace(tmp, self.path)
        except BaseException as e:
            with contextlib.suppress(OSError):
                new.close()
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            if isinstance(e, OSError):
                raise self._error(e) from None
            raise
        old, self.f = self.f, new
        old.close()
        self._clear()
        self._scan()

    def get(self, key: ChunkKey,
            engine: str | None = None) -> tuple[Tally, PairTally | None] | None:
        """(Tally, PairTally or None) of the chunk `key`, or None if not in the file;
        with `engine` (a fingerprint), `OtherFingerprint` (a ResultsFileError) if the
        record carries another."""
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
            stamp = rec.get("engine")
            raise OtherFingerprint(self.path, lineno, key, stamp, engine,
                                   self.causes.get(stamp))
        try:
            return _tallies(rec)
        except ValueError as e:     # (changed since the file was opened)
            raise ResultsFileError(f"{self.path}, line {lineno}: not a valid {RECORD_KIND} "
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
            out.append(record_line(rec))
            new.append((key, games))
        if not out:
            return
        self.f.seek(0, os.SEEK_END)
        offset = self.f.tell()
        self._append(b"".join(out), offset)
        for (key, games), line in zip(new, out):
            self.lines += 1
            self._add(key, offset, self.lines, games)
            self._note(key, engine)
            offset += len(line)

    def close(self) -> None:
        """Close the file (and release the lock)."""
        if not self.f.closed:
            self.f.close()          # (releases the lock)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
