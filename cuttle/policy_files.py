"""Python policies named by their file, ``FILE.py:FUNCTION``: the one loader of a bot's
file, for every player the command line takes (``cuttle simulate --players
mybot.py:choose,greedy``, ``cuttle compare``) and benchmarks/bench_strength.py's
``--bot``; from Python, ``load_policy("mybot.py:choose")``.

The file is run as a module of its own, with its folder first on ``sys.path`` while it
runs (so that it imports the modules beside it, as ``python mybot.py`` would); the
function, a ``policy(game) -> move`` or ``policy(game, rng) -> move`` as `cuttle.simulate`
takes one, is returned as a `FilePolicy` named by the spec.  A missing file or function,
an object that is not a policy, or a file that raises while it loads is a ValueError
saying which, before any game.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from typing import TYPE_CHECKING

from .policies import with_rng

if TYPE_CHECKING:
    import random
    from collections.abc import Callable
    from types import ModuleType

    from .game import Game
    from .moves import Move

__all__ = ["FilePolicy", "is_policy_file", "load_policy"]

FORM = "FILE.py:FUNCTION"


def is_policy_file(spec: object) -> bool:
    """Whether `spec` names a Python file's policy (``FILE.py:FUNCTION``, or a bare
    ``FILE.py`` that forgot its function) rather than a policy name."""
    if not isinstance(spec, str):
        return False
    text = spec.strip().lower()
    return text.endswith(".py") or text.rpartition(":")[0].rstrip().endswith(".py")


class FilePolicy:
    """A policy loaded from a file: called as ``policy(game, rng)`` whatever the form of
    the function (`cuttle.policies.with_rng`); `__name__` is the spec as given (a
    player's label), `path` the file and `function` the name in it."""

    def __init__(self, func: Callable[..., Move | str | int], spec: str, path: str,
                 function: str):
        self.call = with_rng(func, spec)
        self.__name__, self.path, self.function = spec, path, function

    def __call__(self, game: Game, rng: random.Random) -> Move | str | int:
        return self.call(game, rng)

    def __repr__(self):
        return f"<FilePolicy {self.__name__}>"


def load_policy(spec: str) -> FilePolicy:
    """The policy that ``FILE.py:FUNCTION`` names (the path before the last colon,
    relative to the current folder): the file run as a module, its folder on
    ``sys.path`` meanwhile.  ValueError naming the spec for a spec of another form, a
    missing file, a file that raises as it loads (its error chained), a missing
    function or one that is not a policy of either form."""
    path, colon, name = spec.strip().rpartition(":")
    path, name = path.strip(), name.strip()
    if not (colon and path.lower().endswith(".py") and name):
        raise ValueError(f"a policy in a Python file is named {FORM} (e.g. "
                         f"mybot.py:choose), not {spec!r}")
    if not os.path.isfile(path):
        raise ValueError(f"{spec}: no file {path!r}"
                         + (" (a folder)" if os.path.isdir(path) else ""))
    module = _run(path, spec)
    if not hasattr(module, name):
        defined = sorted(k for k, v in vars(module).items()
                         if callable(v) and not k.startswith("_")
                         and getattr(v, "__module__", None) == module.__name__)
        raise ValueError(f"{spec}: no function {name!r} in {path}"
                         + (f" (it defines {', '.join(defined)})" if defined else ""))
    func = getattr(module, name)
    if not callable(func):
        shown = repr(func) if len(repr(func)) <= 40 else repr(func)[:37] + "..."
        raise ValueError(f"{spec}: {name!r} in {path} is not a function but {shown} (of "
                         f"type {type(func).__name__}); a policy is a function "
                         f"policy(game) -> move or policy(game, rng) -> move")
    return FilePolicy(func, spec.strip(), path, name)


def _run(path: str, spec: str) -> ModuleType:
    """The module of the file at `path`, run with its folder first on sys.path and
    itself in sys.modules (which dataclasses and the like look up) while it runs."""
    full = os.path.abspath(path)
    stem = "".join(c if c.isalnum() else "_" for c in os.path.splitext(os.path.basename(full))[0])
    name = f"cuttle_policy_file_{stem}"
    module_spec = importlib.util.spec_from_file_location(name, full)
    module = importlib.util.module_from_spec(module_spec)
    folder = os.path.dirname(full)
    before = sys.modules.get(name)
    sys.path.insert(0, folder)
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except Exception as e:              # (the bot's own error, in one line; its cause chained)
        hint = (f" (the file's folder {folder} is searched, as `python FILE.py` searches "
                f"it; a module elsewhere needs PYTHONPATH)"
                if isinstance(e, ModuleNotFoundError) else "")
        raise ValueError(f"{spec}: loading {path} raised {type(e).__name__}: {e}{hint}") \
            from e
    finally:
        _remove(sys.path, folder)
        # (out of sys.modules again: its functions pickle by value for a cluster)
        if before is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = before
    return module


def _remove(paths: list[str], folder: str) -> None:
    """Take `folder` off the front of sys.path where it was put (the file may have
    changed sys.path meanwhile)."""
    if folder in paths:
        paths.remove(folder)
