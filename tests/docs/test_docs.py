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
