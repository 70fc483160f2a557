"""The public API as the docs tests see it: the modules of the cuttle package, and the
public names each one defines."""

import importlib
import inspect
import os
import pkgutil

import pytest

import cuttle



def _modules(path, prefix):
    """The modules under `path`, found without importing them (walk_packages imports
    each package, and skips those of an optional package that is not installed)."""
    for m in pkgutil.iter_modules(path, prefix):
        yield m.name
        if m.ispkg:
            yield from _modules([os.path.join(path[0], m.name.rsplit(".", 1)[-1])],
                                m.name + ".")


# Every module but __main__; the native ones (_core, _engine, ...) have underscore names.
MODULES = sorted(m for m in _modules(cuttle.__path__, "cuttle.") if not m.endswith("__main__"))
PUBLIC_MODULES = [m for m in MODULES if not m.split(".")[-1].startswith("_")]
# module -> the optional packages it imports
OPTIONAL = {"cuttle.openspiel": ("pyspiel",), "cuttle.openspiel.game": ("pyspiel",),
            "cuttle.openspiel.observers": ("pyspiel",),
            "cuttle.openspiel.players": ("pyspiel",),
            "cuttle.rl.aec": ("gymnasium", "pettingzoo"), "cuttle.rl.gym_env": ("gymnasium",),
            "cuttle.web": ("starlette",), "cuttle.web.routes": ("starlette",)}
OPTIONAL_PACKAGES = {p for packages in OPTIONAL.values() for p in packages}


def load(name):
    """Import module `name`, skipping the test (with the reason) without the optional
    package it needs."""
    for needs in OPTIONAL.get(name, ()):
        pytest.importorskip(needs, reason=f"{name} needs {needs}, which is not installed")
    try:
        return importlib.import_module(name)
    except ImportError as e:           # (a module of a package that needs one: cuttle.web)
        if e.name in OPTIONAL_PACKAGES:
            pytest.skip(f"{name} needs {e.name}, which is not installed")
        raise


def public_members(module):
    """(qualified name, object) of each public class and function that `module` defines
    (its `__all__`, else its names without a leading underscore), and of their public
    methods and properties; a name re-exported from elsewhere is left to its own module."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, v in vars(module).items() if not n.startswith("_")
                 and getattr(v, "__module__", None) == module.__name__]
    for n in names:
        try:
            obj = getattr(module, n)
        except ImportError as e:       # (loaded on first use from a module that needs an
            if e.name in OPTIONAL_PACKAGES:     # optional package: documented there)
                continue
            raise
        if getattr(obj, "__module__", module.__name__) != module.__name__:
            continue                         # documented where it is defined
        if inspect.isclass(obj) or inspect.isfunction(obj) or inspect.isbuiltin(obj):
            yield f"{module.__name__}.{n}", obj
        if inspect.isclass(obj):
            for an, av in vars(obj).items():
                if an.startswith("_"):
                    continue
                f = av if isinstance(av, property) else getattr(av, "__func__", av)
                if inspect.isfunction(f) or isinstance(f, property):
                    yield f"{module.__name__}.{n}.{an}", f
