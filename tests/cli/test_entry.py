"""The `cuttle` command's entry point (_cuttle_entry, outside the package): a Ctrl-C
while the package is being imported ends the command like any other Ctrl-C (one line,
status 130, nothing played), not with Python's traceback.  The Ctrl-C is pressed by the
process itself at a chosen import, so the test does not depend on timing."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PRESS_AT_IMPORT = r'''
import os, signal, sys
AT = sys.argv.pop(1)

class Press:                  # presses Ctrl-C as the import of one module begins
    def find_spec(self, name, path=None, target=None):
        if name == AT:
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, Press())
import _cuttle_entry
sys.exit(_cuttle_entry.main())
'''


def run_entry(*argv):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-c", PRESS_AT_IMPORT, *argv], capture_output=True,
                          text=True, env=env, timeout=120, cwd=ROOT)


@pytest.mark.parametrize("module", ["numpy", "cuttle._engine", "cuttle.cli.balance"])
def test_ctrl_c_while_the_package_imports_ends_quietly(module):
    # numpy turns a KeyboardInterrupt raised in its import into an ImportError, the
    # native core's import could not catch it at all: without the hold, both gave a
    # traceback (and numpy's status 1)
    p = run_entry(module, "simulate", "-n", "1000", "--seed", "1", "--no-progress")
    assert p.returncode == 130, p.stderr
    assert p.stderr == "\ncuttle: interrupted\n" and p.stdout == ""


def test_without_ctrl_c_the_command_runs():
    p = run_entry("no.such.module", "simulate", "-n", "1000", "--seed", "1", "--no-progress")
    assert p.returncode == 0, p.stderr
    assert "1,000 games, seed 1" in p.stdout
    p = run_entry("no.such.module", "simulate", "-n", "0")
    assert p.returncode == 2 and "Traceback" not in p.stderr
