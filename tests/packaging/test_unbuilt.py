"""The tests run against the build in their folder (many start `python -m cuttle` or a
benchmark there).  In a folder whose cuttle is not built, such as an unpacked sdist
tested against an installed wheel, they stop at once and say how to build it, instead of
failing one by one with an ImportError."""

import shutil
import subprocess
import sys

from support.packaging import ROOT


def test_an_unbuilt_folder_stops_the_tests_and_says_how_to_build(tmp_path):
    shutil.copytree(ROOT / "cuttle", tmp_path / "cuttle",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    shutil.copytree(ROOT / "tests" / "support", tmp_path / "tests" / "support",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "tests")
    (tmp_path / "tests" / "test_one.py").write_text("def test_one():\n    pass\n")
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                          "-p", "no:xdist", "tests"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    out = run.stdout + run.stderr
    assert run.returncode == 4, out
    assert "has no compiled core" in out and 'pip install -e ".[test]"' in out, out
    assert "ImportError" not in out and "ModuleNotFoundError" not in out, out
