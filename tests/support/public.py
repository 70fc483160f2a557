"""The public API as the docs tests see it: the modules of the cuttle package, and the
public names each one defines."""

import importlib
import inspect
import pkgutil

import pytest

import cuttle

# Every module but __main__; the native ones (_core, _engine, ...) have underscore names.
MODULES = sorted(m.name for m in pkgutil.walk_packages(cuttle.__path__, "cuttle.")
                 if not m.name.endswith("__main__"))
PUBLIC_MODULES = [m for m in MODULES if not m.split(".")[-1].startswith("_")]
# module -> the optional packages it imports
OPTIONAL = {"cuttle.openspiel": ("pyspiel",), "cuttle.openspiel.game": ("pyspiel",),
            "cuttle.openspiel.observers": ("pyspiel",),
            "cuttle.openspiel.players": ("pyspiel",),
            "cuttle.rl.aec": ("gymnasium", "pettingzoo"), "cuttle.rl.gym_env": ("gymnasium",),
            "cuttle.web": ("starlette",), "cuttle.web.routes": ("starlette",)}


def load(name):
    """Import module `name`, skipping the test (with the reason) without the optional
    package it needs."""
    for needs in OPTIONAL.get(name, ()):
        pytest.importorskip(needs, reason=f"{name} needs {needs}, which is not installed")
    return importlib.import_module(name)


def public_members(module):
    """(qualified name, object) of each public class and function that `module` defines
    (its `__all__`, else its names without a leading underscore), and of their public
    methods and properties; a name re-exported from elsewhere is left to its own module."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, v in vars(module).items() if not n.startswith("_")
                 and getattr(v, "__module__", None) == module.__name__]
    for n in names:
        obj = getattr(module, n)
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
