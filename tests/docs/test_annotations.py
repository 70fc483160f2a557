"""Type annotations are part of the API (issue 14): every public function and method of
cuttle's Python modules annotates each of its parameters and its return, as
test_docs.py checks their docstrings.  The annotations are never evaluated (every
module has ``from __future__ import annotations``), so only their presence is checked
here; whether they agree with the code is mypy's job (see the issue)."""

import inspect
import types

import pytest

from support.public import PUBLIC_MODULES, load


def public_functions(module):
    """(qualified name, function, is __init__) of every public function and method
    defined in `module`: module functions, and the methods, static and class methods,
    property getters and __init__ of its public classes."""
    here = module.__name__
    for name, obj in vars(module).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != here:
            continue
        if inspect.isfunction(obj):
            yield name, obj, False
        elif inspect.isclass(obj):
            for an, av in vars(obj).items():
                if an.startswith("_") and an != "__init__":
                    continue
                f = av.fget if isinstance(av, property) else getattr(av, "__func__", av)
                if inspect.isfunction(f) and f.__module__ == here:
                    yield f"{name}.{an}", f, an == "__init__"


def missing_annotations(f, is_init):
    """What `f` leaves unannotated: its parameters (but self, cls, *args, **kwargs) and,
    unless it is an __init__, its return ("->")."""
    sig = inspect.signature(f)
    out = [p.name for p in sig.parameters.values()
           if p.annotation is p.empty and p.name not in ("self", "cls")
           and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    if not is_init and sig.return_annotation is sig.empty:
        out.append("->")
    return out


def unannotated(module):
    """{qualified name: what it leaves unannotated} over `module`'s public functions."""
    out = {}
    for qual, f, is_init in public_functions(module):
        gaps = missing_annotations(f, is_init)
        if gaps:
            out[qual] = gaps
    return out


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_every_public_function_is_annotated(name):
    found = unannotated(load(name))
    missing = [f"{q}({', '.join(g)})" for q, g in sorted(found.items())]
    assert not missing, f"{name}: not annotated: {'; '.join(missing)}"


def test_the_check_finds_what_is_missing():
    """The checker on a module made here: each kind of gap is found, nothing else."""
    src = '''
from __future__ import annotations

def good(a: int, *args: int, b: str = "", **kw: object) -> int: ...
def bare(a, *args, b="", **kw): ...
def no_return(a: int): ...

class Thing:
    def __init__(self, x, y: int): ...
    def method(self, z) -> None: ...
    @classmethod
    def make(cls, w) -> Thing: ...
    @staticmethod
    def helper(v: int): ...
    @property
    def size(self): ...
    @property
    def name(self) -> str: ...
    def _private(self, q): ...

class _Hidden:
    def method(self, q): ...
'''
    module = types.ModuleType("cuttle_fake_module")
    exec(compile(src, "<fake>", "exec"), module.__dict__)
    assert unannotated(module) == {
        "bare": ["a", "b", "->"], "no_return": ["->"], "Thing.__init__": ["x"],
        "Thing.method": ["z"], "Thing.make": ["w"], "Thing.helper": ["->"],
        "Thing.size": ["->"]}
