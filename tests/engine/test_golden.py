"""Whole seeded games must replay exactly as recorded in tests/support/golden/ (see support/golden.py)."""

import pytest

from support.golden import GAMES, path, playthrough


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough(name):
    with open(path(name)) as f:
        expected = f.read()
    actual = playthrough(name)
    if actual != expected:
        exp, act = expected.splitlines(), actual.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(exp, act)) if a != b), min(len(exp), len(act)))
        pytest.fail(f"{name} differs from line {first + 1}:\n"
                    f"expected: {exp[first] if first < len(exp) else '<end>'}\n"
                    f"actual:   {act[first] if first < len(act) else '<end>'}\n"
                    f"(regenerate with `python tests/support/golden.py` if the change is intended)")
