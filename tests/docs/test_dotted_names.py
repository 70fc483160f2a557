"""Every dotted name the docs hand a reader -- ``cuttle.x.y`` in the README, docs/*.md
and the package's docstrings and messages -- is one Python resolves as written: each
part that is a module imported, then every part reached by attribute access from
`cuttle`, as ``cuttle.x.y`` in a reader's code is.  A module path is not enough:
`cuttle.review` is the review function, which hides the package of that name from
attribute access (its names are ``from cuttle.review import ...``), so
``cuttle.review.analyse_search`` was documented and could not be called.  A
``from cuttle.x import a, b`` in the docs is checked as the import it is."""

import ast
import importlib
import inspect
import io
import pathlib
import re
import tokenize

import pytest

import cuttle
from support.public import OPTIONAL_PACKAGES

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "cuttle"
# a dotted name, not part of a path, a file name (docs/balance/cuttle.cards.jsonl) or a
# policy name (cuttle.cards-ai)
NAME = re.compile(r"(?<![\w./-])cuttle(?:\.[A-Za-z_]\w*)+(?!\.?[\w-])")
FROM_IMPORT = re.compile(r"\bfrom\s+(cuttle(?:\.\w+)*)\s+import\s+(\w+(?:\s*,\s*\w+)*)")


class Optional(Exception):
    """A name behind an optional package that is not installed."""


def doc_texts():
    """(where, text) of the README and the guides."""
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")


def source_strings():
    """(where, text) of every string of the package's source: its docstrings and
    messages (the Python modules' by their syntax tree, implicit concatenations and
    f-strings' text joined; the native modules' string tokens)."""
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                yield where, node.value
    strings = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
    for path in sorted(PACKAGE.glob("*.pyx")):
        where = path.relative_to(ROOT).as_posix()
        read = io.StringIO(path.read_text(encoding="utf-8")).readline
        for tok in tokenize.generate_tokens(read):
            if tok.type in strings:
                yield where, tok.string


def names(texts):
    """{(where, dotted name)} of `texts`, leaving out the module of a ``from X import``
    (an import statement's path, checked by `test_every_documented_import_works`)."""
    found = set()
    for where, text in texts:
        for m in NAME.finditer(text):
            if not text[:m.start()].endswith("from "):
                found.add((where, m.group(0)))
    return found


def sets_attribute(cls, name):
    """Whether instances of `cls` carry `name` though the class does not: annotated in
    a class body, or assigned as ``self.name`` in its methods."""
    for klass in cls.__mro__:
        if name in vars(klass).get("__annotations__", {}):
            return True
        try:
            source = inspect.getsource(klass)
        except (OSError, TypeError):
            continue
        if re.search(rf"\bself\.{name}\s*(?::[^=\n]+)?=(?!=)", source):
            return True
    return False


def resolve(name):
    """The object `name` (``cuttle.x.y``) gives as a reader writes it: its module parts
    imported, then attribute by attribute from `cuttle` (an instance attribute of a
    class counts); AttributeError or ImportError where it does not resolve, Optional
    where an optional package it needs is not installed."""
    parts = name.split(".")
    for i in range(2, len(parts) + 1):
        module = ".".join(parts[:i])
        try:
            importlib.import_module(module)
        except ImportError as e:
            if e.name == module:        # (not a module: attributes from here on)
                break
            if e.name in OPTIONAL_PACKAGES:
                raise Optional(e.name) from None
            raise
    obj = cuttle
    for k, part in enumerate(parts[1:], 2):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            if k == len(parts) and inspect.isclass(obj) and sets_attribute(obj, part):
                return None
            raise
    return obj


def unresolved(found):
    """'where: name: why' for each name of `found` that does not resolve."""
    bad = []
    for where, name in sorted(found):
        try:
            resolve(name)
        except Optional:
            pass
        except (AttributeError, ImportError) as e:
            bad.append(f"{where}: {name}: {type(e).__name__}: {e}")
    return bad


def test_the_check_refuses_what_python_refuses():
    resolve("cuttle.record.game_before")
    resolve("cuttle.Game.from_text")
    resolve("cuttle.redeal.Sightings.redealt")          # (set in __init__)
    for name in ("cuttle.Game.from_txt", "cuttle.no_such_module.f", "cuttle.record.nothing",
                 "cuttle.redeal.Sightings.nothing",
                 # the function cuttle.review hides the package: this is what was documented
                 "cuttle.review.analyse_search", "cuttle.review.engines.evaluate"):
        with pytest.raises((AttributeError, ImportError)):
            resolve(name)
    assert unresolved({("x", "cuttle.review.Thresholds")})


def test_the_scan_reads_docs_docstrings_and_messages():
    docs, source = names(doc_texts()), names(source_strings())
    assert len(docs) > 100 and len(source) > 100
    assert ("README.md", "cuttle.Game.from_text") in docs
    assert ("docs/analysis.md", "cuttle.analyse_search") in docs
    # a docstring and an error message (cuttle.analysis's refusal of a search policy)
    message = [t for w, t in source_strings() if w == "cuttle/analysis.py"
               and "ranks the moves by the search" in t]
    assert message and ("cuttle/analysis.py", "cuttle.analyse_search") in source
    assert any(where.endswith(".pyx") for where, _ in source)
    # an import's module is a path, checked as the import it is, not by attribute
    assert not names([("x", "from cuttle.review import judge")])


def test_every_dotted_name_in_the_docs_resolves():
    bad = unresolved(names(doc_texts()))
    assert not bad, "names that do not resolve as written:\n" + "\n".join(bad)


def test_every_dotted_name_in_docstrings_and_messages_resolves():
    bad = unresolved(names(source_strings()))
    assert not bad, "names that do not resolve as written:\n" + "\n".join(bad)


def test_every_documented_import_works():
    bad = []
    found = 0
    for where, text in [*doc_texts(), *source_strings()]:
        for m in FROM_IMPORT.finditer(text):
            found += 1
            try:
                module = importlib.import_module(m.group(1))
            except ImportError as e:
                if e.name not in OPTIONAL_PACKAGES:
                    bad.append(f"{where}: {m.group(0)}: {e}")
                continue
            missing = [n.strip() for n in m.group(2).split(",")
                       if not hasattr(module, n.strip())]
            if missing:
                bad.append(f"{where}: {m.group(0)}: no {', '.join(missing)}")
    assert found > 5
    assert not bad, "imports that fail:\n" + "\n".join(bad)
