"""Writing output files whole or not at all: a file is written under a temporary name
and takes its real name only once complete, so an error or Ctrl-C leaves no
half-written file (and keeps any earlier file of that name)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from os import PathLike
    from typing import BinaryIO, TextIO

__all__ = ["write_binary_file", "write_text", "write_text_file"]


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
