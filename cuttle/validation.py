"""Argument checks: the one home of the rules that say which values the library takes.

Every public function and every command-line option checks its arguments here, so that
one kind of value is refused the same way everywhere, with a `ValueError` naming the
argument, what it takes and what it got (the command line turns it into a usage error
before any work).  The rules:

- **integers**: a Python int or a numpy integer (anything registered as
  `numbers.Integral`), never a bool or a float, returned as a plain int
  (`check_int`, `check_count`); a whole number a person gave (a seed on the command
  line, a web request's field) may also be its text (`read_whole`);
- **players**: 0 or 1, under the same integer rule (`check_player`; seats and viewers
  that may be None say what None means);
- **fractions and confidence levels**: a real number strictly between 0 and 1, bools
  refused (`check_fraction`); a confidence level must also leave a finite normal
  quantile, so 0.9999999999999999 is refused (`check_confidence`);
- **targets**: a half-width an atlas or a balance search plays to (and a balance
  budget's other percentage-point settings) is a fraction in Python (0.005 is 0.5
  percentage points) where the command line takes points: one above `MAX_TARGET` (10
  points) is refused, as surely meant in points (`check_target`);
- **move caps**: None (no cap) or an int from 1 to `MAX_MOVE_CAP` (`check_move_cap`:
  a game's ``max_moves``);
- **games**: a `cuttle.Game` where one is taken (`cuttle.game.check_game`, beside the
  class: position text or a record is not a game, and the message says how to make one);
- **output paths**: the file's folder exists and may be written, and the path is not a
  folder (`check_output_path`); a folder of outputs exists or can be made
  (`check_output_folder`).  The files themselves are written by `cuttle.files`.

Seeds have their own rule (`cuttle.seeding.check_seed`), thread counts theirs
(`cuttle.threads.check_threads`), rules are read by `Rules.coerce` and policy names by
`cuttle.policies.policy_code`; all of them build on the integer rule here.
"""

from __future__ import annotations

import numbers
import os
from typing import TYPE_CHECKING

import numpy as np

from .files import check_output, not_a_folder
from .text import quoted

if TYPE_CHECKING:
    from collections.abc import Callable
    from os import PathLike

__all__ = ["MAX_MOVE_CAP", "MAX_TARGET", "check_bool", "check_cancel", "check_confidence",
           "check_count", "check_fraction", "check_int", "check_move_cap",
           "check_output_folder", "check_output_path", "check_player", "check_target",
           "is_bool", "is_int", "read_whole", "whole_words"]

# The largest target half-width (a fraction): 10 percentage points.  The loosest the
# docs use are 6 points (the atlas's interactions under ISMCTS) and a search policy's
# budget's 5; a target of 0.5 (a half-width of 50 points) "converges" after one chunk,
# and is someone's 0.5 percentage points.
MAX_TARGET = 0.1
MAX_MOVE_CAP = 2 ** 63 - 1          # the largest move cap of a game (a Py_ssize_t's)


def is_int(value: object) -> bool:
    """Whether `value` passes the integer rule: an int or numpy integer, not a bool."""
    return type(value) is int or (isinstance(value, numbers.Integral)
                                  and not isinstance(value, bool))


def check_int(value: object, name: str, minimum: int | None = None,
              maximum: int | None = None, expected: str | None = None) -> int:
    """`value` as a plain int within [minimum, maximum] (either bound may be None);
    ValueError otherwise, saying what is wrong ("n_games must be at least 1, not 0").
    `expected` replaces the message's description of the values taken (e.g. "an int
    from 0 to 2**64-1")."""
    if is_int(value):
        if (minimum is None or value >= minimum) and (maximum is None or value <= maximum):
            return int(value)
        if expected is None:
            bound = f"at least {minimum:,}" if minimum is not None and value < minimum \
                else f"at most {maximum:,}"
            raise ValueError(f"{name} must be {bound}, not {value:,}")
    raise ValueError(f"{name} must be {expected or _int_range(minimum, maximum)}, "
                     f"not {quoted(value)}")


def read_whole(value: object, name: str, minimum: int | None = None,
               maximum: int | None = None, expected: str | None = None,
               spell: Callable[[object], str] = quoted) -> int:
    """A whole number a person gave: an int by the integer rule, or its text (decimal,
    leading zeros and underscores allowed, or 0x hex, 0o, 0b; the spaces around it
    stripped), from `minimum` to `maximum` (either may be None).  ValueError "NAME must
    be EXPECTED, not VALUE" otherwise, one wording whatever was wrong; `expected`
    defaults to `whole_words`, VALUE is `spell(value)` (a web request's: JSON's
    spelling)."""
    n = value
    if isinstance(value, str):
        t = value.strip().replace("_", "")
        try:
            n = int(t, 0 if t[:2].lower() in ("0x", "0o", "0b") else 10) \
                if t.isascii() else None
        except ValueError:
            n = None
    if is_int(n) and (minimum is None or n >= minimum) and (maximum is None or n <= maximum):
        return int(n)
    raise ValueError(f"{name} must be {expected or whole_words(minimum, maximum)}, "
                     f"not {spell(value)}")


def whole_words(minimum: int | None, maximum: int | None) -> str:
    """The whole numbers from `minimum` to `maximum` (either may be None), to a person."""
    if minimum is not None and maximum is not None:
        return f"a whole number from {minimum:,} to {maximum:,}"
    if minimum is not None:
        return f"a whole number, {minimum:,} or more"
    return "a whole number" + ("" if maximum is None else f", at most {maximum:,}")


def _int_range(minimum, maximum):
    if minimum is None and maximum is None:
        return "an int"
    if maximum is None:
        return "a positive int" if minimum == 1 else f"an int >= {minimum:,}"
    if minimum is None:
        return f"an int <= {maximum:,}"
    return f"an int from {minimum:,} to {maximum:,}"


def check_count(value: object, name: str, maximum: int | None = None) -> int:
    """A positive int (at most `maximum`): a number of games, rollouts, envs, moves."""
    return check_int(value, name, 1, maximum)


def is_bool(value: object) -> bool:
    """Whether `value` passes the truth-value rule: True or False, numpy bools too."""
    return isinstance(value, (bool, np.bool_))


def check_bool(value: object, name: str) -> bool:
    """`value` if it is True or False (numpy bools too); ValueError otherwise."""
    if is_bool(value):
        return bool(value)
    raise ValueError(f"{name} must be True or False, not {quoted(value)}")


def check_cancel(cancel: object) -> Callable[[], bool] | None:
    """The test of a `cancel` argument of long work (`analyse`, `review`): None (none),
    an object with ``is_set()`` (a threading.Event) or a callable returning True to
    stop; ValueError otherwise.  The work checks it between its native calls."""
    if cancel is None:
        return None
    test = getattr(cancel, "is_set", cancel)
    if not callable(test):
        raise ValueError(f"cancel must be a threading.Event-like object or a callable, "
                         f"not {quoted(cancel)}")
    return test


def check_player(value: object, name: str = "player", none: str | None = None) -> int | None:
    """A player index, 0 or 1, as an int.  With `none` (what None means, e.g. "a random
    seat"), None is accepted and returned; ValueError otherwise."""
    if value is None and none is not None:
        return None
    if is_int(value) and value in (0, 1):
        return int(value)
    also = f" or None ({none})" if none is not None else ""
    raise ValueError(f"{name} must be 0 or 1{also}, not {quoted(value)}")


def check_move_cap(value: object, name: str = "max_moves") -> int | None:
    """A game's move cap: None (no cap) or an int >= 1 (at most `MAX_MOVE_CAP`, the
    core's cap being a Py_ssize_t); ValueError otherwise."""
    if value is None:
        return None
    return check_int(value, name, 1, MAX_MOVE_CAP, "None (no cap) or an int >= 1")


def check_fraction(value: object, name: str, hint: str = "") -> float:
    """A real number strictly between 0 and 1 (numpy floats too; bools, NaN refused), as
    a float; `hint` is added to the error message (e.g. what 0.01 means)."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool) \
            and 0 < value < 1:                # (NaN fails the comparison)
        return float(value)
    raise ValueError(f"{name} must be a number more than 0 and less than 1{hint}, not "
                     f"{quoted(value)}")


def check_target(value: object, name: str = "target") -> float:
    """A target half-width as a fraction (0.005 = 0.5 percentage points), at most
    `MAX_TARGET`: a larger one is refused, naming both readings of it (Python takes
    fractions where the command line takes points)."""
    if not (isinstance(value, numbers.Real) and not isinstance(value, bool)
            and 0 < value < 1):                 # (NaN fails the comparison)
        raise ValueError(f"{name} must be a number more than 0 and at most {MAX_TARGET:g} "
                         f"(a fraction: 0.005 is 0.5 percentage points), not "
                         f"{quoted(value)}")
    v = float(value)
    if v > MAX_TARGET:
        raise ValueError(f"{name}={quoted(value)} is a half-width of {100 * v:g} percentage points "
                         f"(targets are fractions here: 0.005 is 0.5 pp); a {name} above "
                         f"{MAX_TARGET:g} ({100 * MAX_TARGET:g} pp) is refused")
    return v


def check_confidence(value: object, name: str = "confidence") -> float:
    """A confidence level for two-sided intervals, as a float: strictly between 0 and 1,
    and far enough from 1 that its normal quantile is finite (0.9999999999999999 rounds
    the quantile's probability to 1); ValueError otherwise."""
    c = check_fraction(value, name, ", e.g. 0.95")
    if not 0.5 + c / 2.0 < 1.0:
        raise ValueError(f"{name} must be a number more than 0 and less than 1, e.g. 0.95, "
                         f"not {quoted(value)}, which is too close to 1 for a finite interval")
    return c


def check_output_path(path: str | PathLike[str], name: str | None = None) -> str:
    """`path` as a str if `cuttle.files` can write a file there (a regular file in an
    existing writable folder, through any symbolic link, or a character device or a
    FIFO such as ``/dev/null`` or ``/dev/stdout``; not a folder); ValueError otherwise
    (prefixed by `name`, the argument or option).  Call it before long work, so that a
    bad path fails at once."""
    path = _fspath(path, name, "file")
    try:
        check_output(path)          # the writer's own knowledge of what it can write
    except ValueError as e:
        raise ValueError(f"{name}: {e}" if name else str(e)) from None
    return path


def check_output_folder(folder: str | PathLike[str], name: str | None = None) -> str:
    """`folder` as a str if files can be written into it: an existing writable folder,
    or a path whose parent is one (the folder is made when the files are written);
    ValueError otherwise (prefixed by `name`)."""
    folder = _fspath(folder, name, "folder")
    at = f"{name}: " if name else ""
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise ValueError(f"{at}{folder!r} is a file, not a folder")
    if os.path.isdir(folder):
        if not os.access(folder, os.W_OK):
            raise ValueError(f"{at}cannot write into {folder!r}: permission denied")
        return folder
    parent = os.path.dirname(os.path.abspath(folder))
    blocked = not_a_folder(folder)
    if blocked is not None:
        raise ValueError(f"{at}cannot make the folder {folder!r}: {blocked!r} is a file, "
                         f"not a folder")
    if not os.path.isdir(parent):
        raise ValueError(f"{at}cannot make the folder {folder!r}: no folder {parent!r}")
    if not os.access(parent, os.W_OK):
        raise ValueError(f"{at}cannot make the folder {folder!r}: permission denied")
    return folder


def _fspath(given, name, what):
    try:
        path = os.fspath(given)
    except TypeError:
        path = None
    if not isinstance(path, str) or not path:
        raise ValueError(f"{name or 'the path'} must be the path of a {what} (a str or "
                         f"os.PathLike), not {quoted(given)}")
    if "\0" in path:
        raise ValueError(f"{name or 'the path'} cannot contain a NUL character")
    return path
