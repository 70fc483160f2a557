"""The optional dependencies: which extra of the `pycuttle` distribution brings each
optional module, and the error that says how to install it.

    try:
        import gymnasium
    except ImportError as e:
        raise missing(e, "cuttle.rl.GymEnv") from None

raises ``ModuleNotFoundError: cuttle.rl.GymEnv needs gymnasium, which is not installed;
install it with: pip install "pycuttle[rl]"``.  The command holds for every way of
installing (a checkout's editable install, an sdist or wheel, not only the package index,
where pycuttle is not yet published): pip takes the pycuttle already installed for the
name and installs the extra's packages beside it.  (tqdm is optional too, but nothing
needs it: progress bars fall back to a plain line without it.)
"""

from __future__ import annotations

__all__ = ["DISTRIBUTION", "EXTRAS", "install_command", "missing"]

DISTRIBUTION = "pycuttle"

# top-level module -> (the extra that installs it, its distribution's name)
EXTRAS = {
    "matplotlib": ("plot", "matplotlib"),
    "dask": ("dask", "dask"),
    "distributed": ("dask", "distributed"),
    "gymnasium": ("rl", "gymnasium"),
    "pettingzoo": ("rl", "pettingzoo"),
    "pyspiel": ("openspiel", "open_spiel"),
    "starlette": ("web", "starlette"),
    "uvicorn": ("web", "uvicorn"),
}


def install_command(extra: str) -> str:
    """The command that installs an extra: ``pip install "pycuttle[EXTRA]"``."""
    return f'pip install "{DISTRIBUTION}[{extra}]"'


def missing(error: ImportError, what: str) -> ImportError:
    """The error to raise when `what` failed to import an optional module: a
    ModuleNotFoundError naming the extra to install, or `error` itself when the module
    that is missing is not one of the optional ones (a broken installation is another
    problem, and its own message says more)."""
    name = (getattr(error, "name", None) or "").partition(".")[0]
    if name not in EXTRAS:
        return error
    extra, dist = EXTRAS[name]
    package = name if dist == name else f"{name} (the {dist} distribution)"
    return ModuleNotFoundError(f"{what} needs {package}, which is not installed; install "
                               f"it with: {install_command(extra)}", name=name)
