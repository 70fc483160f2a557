"""Writing output files whole or not at all: a file is written under a temporary name
and takes its real name only once complete, so an error or Ctrl-C leaves no
half-written file (and keeps any earlier file of that name).  `CsvFile` is the one CSV
writer (a file streamed row by row, removed if it cannot be completed)."""

from __future__ import annotations

import csv
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from os import PathLike
    from typing import BinaryIO, TextIO

__all__ = ["CsvFile", "write_binary_file", "write_csv", "write_text", "write_text_file"]


def write_text_file(path_or_file: str | PathLike[str] | TextIO,
                    write: Callable[[TextIO], object]) -> None:
    """Call ``write(f)`` on an open text file object as it is, or on `path_or_file`
    written through a temporary file that replaces it once `write` has returned."""
    if not isinstance(path_or_file, (str, os.PathLike)):
        write(path_or_file)
        return
    _whole(path_or_file, write, dict(mode="w", newline="", encoding="utf-8"))


def write_binary_file(path: str | PathLike[str], write: Callable[[BinaryIO], object]) -> None:
    """Call ``write(f)`` on `path` opened in binary mode, written whole or not at all."""
    _whole(path, write, dict(mode="wb"))


def _whole(path, write, how):
    tmp = f"{os.fspath(path)}.tmp-{os.getpid()}"
    try:
        with open(tmp, **how) as f:
            write(f)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def write_text(path: str | PathLike[str], text: str) -> None:
    """Write `text` to `path` whole or not at all."""
    write_text_file(path, lambda f: f.write(text))


class CsvFile:
    """The one CSV writer: a header row, then rows as they come.  On a path the file is
    created at once (so a bad path fails before any work); `close(ok=False)` removes a
    file that could not be completed."""

    def __init__(self, path_or_file: str | PathLike[str] | TextIO, header: Sequence[str]):
        self.path = None
        if isinstance(path_or_file, (str, os.PathLike)):
            self.path = path_or_file
            self.f: TextIO = open(path_or_file, "w", newline="", encoding="utf-8")
        else:
            self.f = path_or_file
        self.w = csv.writer(self.f, lineterminator="\n")
        self.w.writerow(header)

    def rows(self, rows: Iterable[Sequence[object]]) -> None:
        """Write rows."""
        self.w.writerows(rows)

    def close(self, ok: bool = True) -> None:
        """Finish the file (ok) or remove it; later calls do nothing."""
        if self.w is None:
            return
        self.w = None
        if self.path is None:
            self.f.flush()
            return
        self.f.close()
        if not ok and os.path.isfile(self.path):
            os.remove(self.path)


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
