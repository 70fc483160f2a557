"""The documentation is part of the API: every docstring example runs, every public name
is documented, and the repository's docs stand on their own."""

import doctest
import inspect
import pathlib
import re

import pytest

import cuttle
from support.public import MODULES, PUBLIC_MODULES, load, public_members

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(load(name), report=True,
                             optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_every_public_name_has_a_docstring(name):
    module = load(name)
    assert module.__doc__, f"module {name} has no docstring"
    missing = [qual for qual, obj in public_members(module) if not inspect.getdoc(obj)]
    assert not missing, f"no docstring: {', '.join(missing)}"


OUTSIDE = re.compile(r"(?<![\w/.])(?:\.\./|shared/)\S*")    # a path out of the repository


def test_the_docs_stand_on_their_own():
    docs = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for path in docs:
        name = path.relative_to(ROOT)
        text = path.read_text(encoding="utf-8")
        assert "shared/" not in text, f"{name} points outside the repository"
        for link in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
            if "://" in link:
                continue
            target = (path.parent / link).resolve()
            assert target.exists(), f"{name}: broken link {link}"
            assert ROOT in target.parents, f"{name}: {link} is outside the repository"


def prose(text):
    """The comments and the triple-quoted strings (docstrings) of a source file."""
    quoted = re.findall(r'"""(.*?)"""', text, re.S) + re.findall(r"'''(.*?)'''", text, re.S)
    return "\n".join(quoted + re.findall(r"#(.*)$", text, re.M))


def test_the_code_names_no_file_outside_the_repository():
    # The comments and docstrings of the package, the tests, the benchmarks and the
    # scripts: a file they name by its path (a doc, the rulebook) is the repository's.
    md_names = {p.name for p in [*ROOT.glob("*.md"), *(ROOT / "docs").rglob("*.md")]}
    sources = [*ROOT.glob("*.py"), *(ROOT / ".ci").glob("*.py")] + [
        p for folder in ("cuttle", "tests", "benchmarks", "examples")
        for ext in ("py", "pyx", "pxd") for p in sorted((ROOT / folder).rglob(f"*.{ext}"))]
    assert len(sources) > 100
    bad = []
    for path in sources:
        text = prose(path.read_text(encoding="utf-8"))
        bad += [(path.name, m) for m in OUTSIDE.findall(text)]
        for doc in re.findall(r"[\w./-]*\w\.md\b", text):
            if not ((ROOT / doc).exists() or (ROOT / "docs" / doc).exists()
                    or ("/" not in doc and doc in md_names)):
                bad.append((path.name, doc))
    assert not bad, f"named but not in the repository: {bad}"


def test_help_reads_like_a_manual():
    text = pydoc_text(cuttle.Game)
    for words in ("Vocabulary", "legal_moves", "from_position", "max_moves", "turn_number"):
        assert words in text


def pydoc_text(obj):
    import pydoc
    return pydoc.render_doc(obj, renderer=pydoc.plaintext)
