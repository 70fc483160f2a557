"""The README's interactive examples (the `>>>` lines) must run as shown."""

import doctest
import os

README = os.path.join(os.path.dirname(__file__), "..", "..", "README.md")


def test_readme_examples_run_as_shown():
    result = doctest.testfile(README, module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 8
    assert result.failed == 0
