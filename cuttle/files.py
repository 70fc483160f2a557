"""Files in and out: every file the library writes or reads whole goes through here.

Writing.  A regular file (or a new one) is written whole or not at all: under a
temporary name created in its folder with ``O_EXCL`` (`tempfile.mkstemp`: an unguessable
name, so a link planted in advance cannot redirect the write), renamed over the path
once complete.  An error or Ctrl-C leaves no half-written file and keeps any earlier
one; the new file keeps the old one's permissions.  A symbolic link is followed: its
target is written (atomically) and the link kept.  A character device or a FIFO
(``/dev/null``, ``/dev/stdout``, a named pipe) is written straight through: there is
nothing to replace, and replacing it would destroy it.  Anything else (a folder, a
block device, a socket) is refused.  Every `OSError` names the path as it was given.

Reading.  `read_text` reads a regular file, or a stream such as stdin, up to a size
limit, so that a device or an endless pipe (``/dev/zero``) cannot exhaust memory.

Files appended line by line (JSON lines: the atlas's and balance designer's results, a
benchmark's games).  `json_lines` reads them, each line's JSON or why it is not JSON;
the rule of their last line is here once: a last line without its newline that is not
JSON was cut off by an interrupted write (`cut_off`: dropped, with `cut_off_note`'s
words), and one that is JSON lacks only its newline, which `mend_tail` adds before
anything is appended (else the next line would be glued to it).
"""

from __future__ import annotations

import csv
import errno
import json
import os
import stat
import tempfile
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence
    from os import PathLike
    from typing import IO, BinaryIO, TextIO

__all__ = ["CsvFile", "JsonLine", "OutputFile", "check_output", "cut_off", "cut_off_note",
           "json_lines", "mend_tail", "read_text", "write_binary_file", "write_csv",
           "write_text", "write_text_file"]

_MAX_LINKS = 40                 # as the kernel's limit on links followed in one path


def _in_proc(folder: str) -> bool:
    # /dev/stdout and /dev/fd/N lead into /proc/PID/fd: a process's open file, which
    # has no name that could be replaced (and may be a pipe or a terminal).
    return folder == "/proc" or folder.startswith("/proc/")


def _resolve(path: str) -> str | None:
    """The path that `path` names once every symbolic link is followed (it may not
    exist yet), or None for a file descriptor of /proc (written straight through)."""
    p = os.path.abspath(path)
    for _ in range(_MAX_LINKS):
        folder = os.path.realpath(os.path.dirname(p))
        if _in_proc(folder):
            return None
        p = os.path.join(folder, os.path.basename(p))
        try:
            link = os.readlink(p)
        except OSError:             # not a link, or not there (yet)
            return p
        p = os.path.join(folder, link)      # (an absolute link replaces the folder)
    raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), path)


def _kind(mode: int) -> str:
    return ("folder" if stat.S_ISDIR(mode) else "block device" if stat.S_ISBLK(mode)
            else "socket" if stat.S_ISSOCK(mode) else "special file")


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


def _named(e: OSError, path: str, tmp: str | None = None) -> OSError:
    """`e` naming `path` (the name the caller gave) instead of no file or the
    temporary one."""
    if e.filename not in (None, tmp):
        return e
    if e.errno is None:
        return OSError(f"cannot write {path!r}: {e}")
    return OSError(e.errno, e.strerror or os.strerror(e.errno), path)   # (its subclass)


def _new_file_mode() -> int:
    """The permissions `open` would give a new file: 0o666 less the umask."""
    try:                                        # Linux: read the umask without setting it
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


class OutputFile:
    """An output file open for writing as `f` (text: UTF-8 with newlines as written;
    or binary).  ``close(ok=True)`` gives it its name; ``close(ok=False)`` drops it
    (a device or FIFO keeps what was written).  Any OSError names `path`."""

    def __init__(self, path: str | PathLike[str], binary: bool = False):
        self.path = os.fspath(path)
        self._tmp: str | None = None
        self._target: str | None = None
        how = dict(mode="wb") if binary else dict(mode="w", newline="", encoding="utf-8")
        try:
            target = _resolve(self.path)
            st = None if target is None else _stat(target)
            if st is None and target is not None:
                self.f: IO = self._temporary(target, None, how)
            elif st is None or stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
                self.f = open(self.path if target is None else target, **how)
            elif stat.S_ISREG(st.st_mode):
                self.f = self._temporary(target, st, how)
            elif stat.S_ISDIR(st.st_mode):
                raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", self.path)
            else:
                raise OSError(errno.EINVAL, f"a {_kind(st.st_mode)}, not a file", self.path)
        except OSError as e:
            raise _named(e, self.path, self._tmp) from None

    def _temporary(self, target, st, how):
        folder, name = os.path.split(target)
        fd, self._tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
        try:
            if st is not None and os.geteuid() == 0:
                try:                    # root rewriting someone's file leaves it theirs
                    os.fchown(fd, st.st_uid, st.st_gid)
                except OSError:
                    pass
            os.fchmod(fd, stat.S_IMODE(st.st_mode) & 0o777 if st is not None
                      else _new_file_mode())
            f = open(fd, **how)
        except BaseException:
            os.close(fd)
            self._drop()
            raise
        self._target = target
        return f

    def named(self, e: OSError) -> OSError:
        """`e` (raised while writing `f`) naming this file's path."""
        return _named(e, self.path, self._tmp)

    def _drop(self):
        if self._tmp is not None:
            try:
                os.remove(self._tmp)
            except FileNotFoundError:
                pass
            self._tmp = None

    def close(self, ok: bool = True) -> None:
        """Finish the file (ok) or drop it; later calls do nothing."""
        f, self.f = self.f, None
        if f is None:
            return
        try:
            try:
                if ok and self._tmp is not None:
                    f.flush()
                    os.fsync(f.fileno())
                f.close()
            except OSError:
                if ok:
                    raise
            if ok and self._tmp is not None:
                os.replace(self._tmp, self._target)
                self._tmp = None
        except OSError as e:
            raise _named(e, self.path, self._tmp) from None
        finally:
            self._drop()

    def __enter__(self):
        return self

    def __exit__(self, kind, *exc):
        self.close(kind is None)


def not_a_folder(path: str) -> str | None:
    """The first of `path`'s folders (outermost first) that exists but is not a
    folder, or None."""
    folder = os.path.dirname(os.path.abspath(path))
    parts = []
    while folder and folder != os.path.dirname(folder):
        parts.append(folder)
        folder = os.path.dirname(folder)
    for folder in reversed(parts):
        if not os.path.isdir(folder):
            return folder if os.path.exists(folder) else None
    return None


def check_output(path: str | PathLike[str]) -> None:
    """Refuse at once, with a ValueError saying why, a path the writers here could
    not write: a folder, a missing or read-only folder, a read-only file, or a kind of
    file that is neither regular, a character device nor a FIFO."""
    path = os.fspath(path)
    try:
        target = _resolve(path)
    except OSError as e:
        raise ValueError(f"cannot write {path!r}: {e.strerror}") from None
    try:
        st = None if target is None else _stat(target)
    except NotADirectoryError:          # a file where a folder of the path should be
        raise ValueError(f"cannot write {path!r}: {not_a_folder(target)!r} is a file, "
                         f"not a folder") from None
    except OSError as e:
        raise ValueError(f"cannot write {path!r}: {e.strerror}") from None
    if target is None or (st is not None and (stat.S_ISCHR(st.st_mode)
                                              or stat.S_ISFIFO(st.st_mode))):
        if not os.access(path, os.W_OK):
            raise ValueError(f"cannot write {path!r}: permission denied")
        return
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise ValueError(f"{path!r} is a folder, not a file")
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise ValueError(f"cannot write {path!r}: a {_kind(st.st_mode)}, not a file")
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise ValueError(f"cannot write {path!r}: no folder {folder!r}")
    if not os.access(folder, os.W_OK) or (st is not None and not os.access(target, os.W_OK)):
        raise ValueError(f"cannot write {path!r}: permission denied")


def write_text_file(path_or_file: str | PathLike[str] | TextIO,
                    write: Callable[[TextIO], object]) -> None:
    """Call ``write(f)`` on an open text file object as it is, or on `path_or_file`
    opened as an `OutputFile` (written whole or not at all)."""
    if not isinstance(path_or_file, (str, os.PathLike)):
        write(path_or_file)
        return
    _whole(path_or_file, write, False)


def write_binary_file(path: str | PathLike[str], write: Callable[[BinaryIO], object]) -> None:
    """Call ``write(f)`` on `path` opened in binary mode, written whole or not at all."""
    _whole(path, write, True)


def _whole(path, write, binary):
    out = OutputFile(path, binary)
    ok = False
    try:
        write(out.f)
        ok = True
    except OSError as e:
        raise out.named(e) from None
    finally:
        out.close(ok)


def write_text(path: str | PathLike[str], text: str) -> None:
    """Write `text` to `path` whole or not at all."""
    write_text_file(path, lambda f: f.write(text))


def read_text(source: str | PathLike[str] | TextIO, limit: int, what: str = "file") -> str:
    """The text of `source`: a path (a regular file, UTF-8, with or without a byte-order
    mark) or an open text stream such as ``sys.stdin``.  ValueError if the path is not a
    regular file (a device, a FIFO, a folder), or if there is more than `limit` bytes
    (characters, from a stream) or the bytes are not UTF-8; OSError if it cannot be read.
    `what` names the content in the messages ("game record", ...), which do not name
    the path: the caller puts it first, as for its own errors of the content
    ("game.json: it is a FIFO, ...")."""
    if not isinstance(source, (str, os.PathLike)):
        try:
            text = source.read(limit + 1)
        except UnicodeDecodeError as e:
            raise ValueError(f"the {what} is not text: {e}") from None
        if len(text) > limit:
            raise ValueError(f"the {what} is longer than the limit of {limit:,} characters")
        return text.removeprefix("\ufeff")
    path = os.fspath(source)
    # O_NONBLOCK: opening a FIFO must not wait for a writer before it is refused.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
    except BaseException:
        os.close(fd)
        raise
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = ("character device" if stat.S_ISCHR(mode) else "FIFO"
                if stat.S_ISFIFO(mode) else _kind(mode))
        raise ValueError(f"it is a {kind}, not a {what} file")
    with open(fd, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"it is larger than the limit of {limit:,} bytes for a {what}")
    try:
        return data.decode("utf-8-sig")     # (a byte-order mark, as editors save, is no text)
    except UnicodeDecodeError as e:
        raise ValueError(f"it is not a text file: {e}") from None


class CsvFile:
    """The one CSV writer: a header row, then rows as they come.  On a path the file is
    opened at once (so a bad path fails before any work) as a `cuttle.files.OutputFile`:
    `close()` gives it its name, `close(ok=False)` drops a file that could not be
    completed."""

    def __init__(self, path_or_file: str | PathLike[str] | TextIO, header: Sequence[str]):
        self.out = None
        if isinstance(path_or_file, (str, os.PathLike)):
            self.out = OutputFile(path_or_file)
            self.f: TextIO = self.out.f
        else:
            self.f = path_or_file
        self.w = csv.writer(self.f, lineterminator="\n")
        self.w.writerow(header)

    def rows(self, rows: Iterable[Sequence[object]]) -> None:
        """Write rows."""
        try:
            self.w.writerows(rows)
        except OSError as e:
            raise e if self.out is None else self.out.named(e) from None

    def close(self, ok: bool = True) -> None:
        """Finish the file (ok) or remove it; later calls do nothing."""
        if self.w is None:
            return
        self.w = None
        if self.out is None:
            self.f.flush()
            return
        self.out.close(ok)


def write_csv(path_or_file: str | PathLike[str] | TextIO, header: Sequence[str],
              rows: Iterable[Sequence[object]]) -> None:
    """A whole CSV file: the header, then `rows` (an iterable of sequences)."""
    f = CsvFile(path_or_file, header)
    ok = False
    try:
        f.rows(rows)
        ok = True
    finally:
        f.close(ok)


class JsonLine(NamedTuple):
    """One line of a JSON-lines file: its number (from 1), where it starts, its bytes
    (newline included), its JSON value (None with `error`), why it is not JSON (not
    UTF-8, not JSON, nested too deeply, too long; None if it is) and whether it ends
    with a newline."""
    lineno: int
    offset: int
    raw: bytes
    value: object
    error: str | None
    ended: bool


def _json_of(raw: bytes) -> tuple[object, str | None]:
    try:
        return json.loads(raw.decode("utf-8")), None
    except UnicodeDecodeError as e:
        return None, f"not UTF-8 text: {e.reason} at byte {e.start}"
    except json.JSONDecodeError as e:   # (its line is always 1: the column says where)
        return None, f"not JSON: {e.msg} at column {e.colno}"
    except RecursionError:              # (a line of 100,000 '[')
        return None, "the JSON is nested too deeply"
    except ValueError as e:             # (an integer of more digits than Python reads)
        return None, f"not JSON: {e}"


def json_lines(f: BinaryIO, limit: int) -> Iterator[JsonLine]:
    """The lines of a file open in binary mode, from the start (the caller may seek
    between lines); a line longer than `limit` bytes is the last given (its `error`
    says so: where the next starts is not read)."""
    offset = lineno = 0
    while True:
        f.seek(offset)
        raw = f.readline(limit + 1)
        if not raw:
            return
        lineno += 1
        if len(raw) > limit:
            yield JsonLine(lineno, offset, raw, None, f"longer than {limit:,} bytes", True)
            return
        yield JsonLine(lineno, offset, raw, *_json_of(raw), raw.endswith(b"\n"))
        offset += len(raw)


def cut_off(line: JsonLine) -> bool:
    """Whether `line` is a last line cut off by an interrupted write: no newline, and
    not JSON (every start of a JSON object short of its end is not JSON)."""
    return not line.ended and line.error is not None


def cut_off_note(path: str, lineno: int, dropped: bool, then: str) -> str:
    """The words of a cut-off last line: `dropped` (from the file, before appending)
    or ignored by a reading only; `then`: what follows ("its game will be played
    again")."""
    return (f"{path}: its last line (line {lineno}) "
            + (f"was incomplete (cut off by an interrupted write?) and is dropped; {then}"
               if dropped else
               f"is incomplete (cut off by an interrupted write?) and is ignored; {then}"))


def mend_tail(f: BinaryIO, last: JsonLine) -> None:
    """Make the file whose last line is `last` ready to be appended to (`f` open for
    writing): a cut-off line removed, a whole one given its newline, flushed to disk."""
    if last.ended:
        return
    if cut_off(last):
        f.truncate(last.offset)
    else:
        f.seek(0, os.SEEK_END)
        f.write(b"\n")
    f.flush()
    os.fsync(f.fileno())
