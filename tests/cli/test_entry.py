"""The `cuttle` command's entry point (_cuttle_entry, outside the package): a Ctrl-C
while the package is being imported ends the command like any other Ctrl-C (one line,
status 130, nothing played), not with Python's traceback; so does `python -m cuttle`'s.
The Ctrl-C is pressed by the process itself at a chosen import, so the test does not
depend on timing."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Presses Ctrl-C as the import of one module (PRESS_AT_IMPORT) begins.
PRESS = r'''
import os, signal, sys

class Press:
    def find_spec(self, name, path=None, target=None):
        if name == os.environ["PRESS_AT_IMPORT"]:
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, Press())
'''

# `python -m cuttle` imports the package before any code of the test could run: the
# finder is installed by the module of a warning category named by -W, which Python
# imports at startup, before it looks for the -m module (no sitecustomize needed).
PRESS_MODULE = PRESS + """
class Category(Warning):
    pass
"""


def run_python(tmp_path, at, *python_args):
    (tmp_path / "press_at_import.py").write_text(PRESS_MODULE)
    path = os.pathsep.join([str(tmp_path), ROOT, os.environ.get("PYTHONPATH", "")])
    env = dict(os.environ, PYTHONPATH=path, PRESS_AT_IMPORT=at)
    return subprocess.run([sys.executable, "-W", "default::press_at_import.Category",
                           *python_args], capture_output=True, text=True, env=env,
                          timeout=120, cwd=ROOT)


def run_entry(tmp_path, at, *argv):
    return run_python(tmp_path, at, "-c",
                      "import sys, _cuttle_entry; sys.exit(_cuttle_entry.main())", *argv)


@pytest.mark.parametrize("module", ["numpy", "cuttle._engine", "cuttle.cli.balance"])
def test_ctrl_c_while_the_package_imports_ends_quietly(tmp_path, module):
    # numpy turns a KeyboardInterrupt raised in its import into an ImportError, the
    # native core's import could not catch it at all: without the hold, both gave a
    # traceback (and numpy's status 1)
    p = run_entry(tmp_path, module, "simulate", "-n", "1000", "--seed", "1", "--no-progress")
    assert p.returncode == 130, p.stderr
    assert p.stderr == "\ncuttle: interrupted\n" and p.stdout == ""


# Every entry point says an error as `cuttle` does (tests/cli/test_errors.py): a bad
# value in one line, a command line of the wrong shape in two.
SAID_OF_N_0 = ("cuttle simulate: error: argument -n/--games: the count must be at least 1, "
               "not 0\n")
SAID_OF_AN_UNKNOWN_OPTION = ("cuttle simulate: error: unrecognized arguments: "
                             "'--no-such-option'\n(cuttle simulate --help lists its options)\n")


def test_without_ctrl_c_the_command_runs(tmp_path):
    p = run_entry(tmp_path, "no.such.module", "simulate", "-n", "1000", "--seed", "1",
                  "--no-progress")
    assert p.returncode == 0, p.stderr
    assert "1,000 games, seed 1" in p.stdout
    p = run_entry(tmp_path, "no.such.module", "simulate", "-n", "0")
    assert (p.returncode, p.stdout, p.stderr) == (2, "", SAID_OF_N_0)
    p = run_entry(tmp_path, "no.such.module", "simulate", "--no-such-option")
    assert (p.returncode, p.stdout, p.stderr) == (2, "", SAID_OF_AN_UNKNOWN_OPTION)


needs_orig_argv = pytest.mark.skipif(sys.version_info < (3, 10),
                                     reason="python -m cuttle is known by sys.orig_argv (3.10+)")


@needs_orig_argv
@pytest.mark.parametrize("module", ["numpy", "cuttle._engine", "cuttle.cli.balance"])
@pytest.mark.parametrize("python_args", [("-m", "cuttle"), ("-mcuttle",), ("-Bm", "cuttle")])
def test_ctrl_c_while_python_m_cuttle_imports_ends_quietly(tmp_path, module, python_args):
    # (python -m imports the package itself, before cuttle.__main__: without the hold
    # that the package's __init__ starts, a traceback and status 1)
    p = run_python(tmp_path, module, *python_args, "simulate", "-n", "1000", "--seed", "1",
                   "--no-progress")
    assert p.returncode == 130, p.stderr
    assert p.stderr == "\ncuttle: interrupted\n" and p.stdout == ""


def test_without_ctrl_c_python_m_cuttle_runs(tmp_path):
    p = run_python(tmp_path, "no.such.module", "-m", "cuttle", "simulate", "-n", "1000",
                   "--seed", "1", "--no-progress")
    assert p.returncode == 0, p.stderr
    assert "1,000 games, seed 1" in p.stdout
    p = run_python(tmp_path, "no.such.module", "-m", "cuttle", "simulate", "-n", "0")
    assert (p.returncode, p.stdout, p.stderr) == (2, "", SAID_OF_N_0)
    p = run_python(tmp_path, "no.such.module", "-m", "cuttle", "simulate", "--no-such-option")
    assert (p.returncode, p.stdout, p.stderr) == (2, "", SAID_OF_AN_UNKNOWN_OPTION)


@needs_orig_argv
def test_importing_the_package_holds_no_ctrl_c(tmp_path):
    # only `python -m cuttle` holds it: a program that imports the package, even one run
    # with -m (whose package is imported as the package is), keeps Python's Ctrl-C
    (tmp_path / "uses_cuttle").mkdir()
    (tmp_path / "uses_cuttle" / "__init__.py").write_text(
        "import signal, cuttle\n"
        "assert signal.getsignal(signal.SIGINT) is signal.default_int_handler\n")
    (tmp_path / "uses_cuttle" / "run.py").write_text("print('ran')\n")
    for python_args in [("-m", "uses_cuttle.run"), ("-c", "import uses_cuttle; print('ran')")]:
        p = run_python(tmp_path, "no.such.module", *python_args)
        assert p.returncode == 0 and p.stdout == "ran\n", p.stderr
