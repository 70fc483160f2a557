"""`python -m cuttle`: a Ctrl-C while the package imports (numpy and the native core, the
first half second) ends the command like any other Ctrl-C of it, without a traceback.

Python imports the package before any of its `__main__`, so the package's `__init__`
imports this module first of all, which holds Ctrl-C when the package is being imported
for `python -m cuttle`, as the `cuttle` command's entry point holds it (`_cuttle_entry`,
beside the package, says why); `cuttle.__main__` runs that entry point, which ends the
hold once the command line is imported.  Any other import of the package (a program's,
or another module run with -m) leaves Ctrl-C as it is.
"""

import sys


def run_as_command() -> bool:
    """Whether Python imports the package to run it, `python -m cuttle`: sys.argv[0] is
    "-m" while it imports the module's packages, and sys.orig_argv (3.10+) holds the
    module's name, just before the arguments of sys.argv[1:] ("cuttle" or "-mcuttle")."""
    argv, orig = getattr(sys, "argv", []), getattr(sys, "orig_argv", ())   # (embedded)
    if argv[:1] != ["-m"] or len(orig) < len(argv):
        return False
    name = orig[-len(argv)]
    return (name.partition("m")[2] if name.startswith("-") else name) == "cuttle"


if run_as_command():
    import _cuttle_entry
    _cuttle_entry.hold_ctrl_c()
