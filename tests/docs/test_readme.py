"""The interactive examples (the `>>>` lines) of the README and of the pages of docs/ must
run as shown."""

import doctest
import os

import pytest

README = os.path.join(os.path.dirname(__file__), "..", "..", "README.md")


def test_readme_examples_run_as_shown():
    result = doctest.testfile(README, module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 8
    assert result.failed == 0


DOCS = os.path.join(os.path.dirname(__file__), "..", "..", "docs")
# (docs/index.md's block ended its last example on the closing fence, which doctest read
# as the output expected of it: a blank line must end each block)
EXAMPLES = sorted(os.path.relpath(os.path.join(folder, f), DOCS)
                  for folder, _, files in os.walk(DOCS) for f in files
                  if f.endswith(".md") and any(line.startswith(">>> ") for line in
                                               open(os.path.join(folder, f),
                                                    encoding="utf-8")))


def test_the_pages_with_examples_are_found():
    assert "index.md" in EXAMPLES


@pytest.mark.parametrize("page", EXAMPLES)
def test_the_docs_examples_run_as_shown(page):
    result = doctest.testfile(os.path.join(DOCS, page), module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted and result.failed == 0
