"""The documentation is part of the API: every docstring example runs, every public name
is documented, and the repository's docs stand on their own."""

import doctest
import importlib
import inspect
import pathlib
import pkgutil
import re

import pytest

import cuttle

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODULES = sorted(m.name for m in pkgutil.walk_packages(cuttle.__path__, "cuttle.")
                 if not m.name.endswith("__main__"))
OPTIONAL = {"cuttle.openspiel": "pyspiel", "cuttle.rl": "gymnasium", "cuttle.web": "starlette"}


def load(name):
    for prefix, needs in OPTIONAL.items():
        if name.startswith(prefix):
            pytest.importorskip(needs)
    return importlib.import_module(name)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(load(name), report=True,
                             optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0


def public_members(module):
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


@pytest.mark.parametrize("name", [m for m in MODULES if not m.split(".")[-1].startswith("_")])
def test_every_public_name_has_a_docstring(name):
    module = load(name)
    assert module.__doc__, f"module {name} has no docstring"
    missing = [qual for qual, obj in public_members(module) if not inspect.getdoc(obj)]
    assert not missing, f"no docstring: {', '.join(missing)}"


def test_the_docs_stand_on_their_own():
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for path in docs:
        text = path.read_text(encoding="utf-8")
        assert "shared/" not in text, f"{path.name} points outside the repository"
        for link in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
            if "://" in link:
                continue
            assert (path.parent / link).exists(), f"{path.name}: broken link {link}"


def test_help_reads_like_a_manual():
    text = pydoc_text(cuttle.Game)
    for words in ("Vocabulary", "legal_moves", "from_position", "max_moves", "turn_number"):
        assert words in text


def pydoc_text(obj):
    import pydoc
    return pydoc.render_doc(obj, renderer=pydoc.plaintext)
