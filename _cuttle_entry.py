"""The `cuttle` command's entry point (the command line itself is `cuttle.cli`).

It lives outside the package on purpose: importing `cuttle.cli` first runs the package's
`__init__`, which loads numpy and the native core (about half a second), and a Ctrl-C
then would interrupt the import itself, where no code of the package can catch it (numpy
even turns it into an ImportError).  So a Ctrl-C is held until the import is over, and
then ends the command as every other Ctrl-C of it does: one line and status 130.

`python -m cuttle` runs the package's `__init__` before any of its `__main__`: the
`__init__` starts the same hold (`hold_ctrl_c`) as its first act when it is being
imported for that (`cuttle._python_m`), and `cuttle.__main__` runs `main` here, which
ends it.
"""

import signal
import sys

# The Ctrl-Cs pressed while held, or None when Ctrl-C is not held.
_pressed = None


def hold_ctrl_c() -> None:
    """Hold Ctrl-C (SIGINT) until `main` has imported the command line.  Only while
    Python's SIGINT handler is its default (not where SIGINT is ignored, as in a
    script's background job); holding again while held changes nothing."""
    global _pressed
    if _pressed is None and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        _pressed = []
        signal.signal(signal.SIGINT, lambda signum, frame: _pressed.append(signum))


def _release_ctrl_c() -> bool:
    """End the hold (Python's default SIGINT handler again); whether Ctrl-C was pressed
    while it held."""
    global _pressed
    if _pressed is None:
        return False
    signal.signal(signal.SIGINT, signal.default_int_handler)
    pressed, _pressed = bool(_pressed), None
    return pressed


def main() -> int:
    hold_ctrl_c()
    try:
        from cuttle.cli import main as run
    finally:
        pressed = _release_ctrl_c()
    try:
        if pressed:
            raise KeyboardInterrupt
        return run()
    except KeyboardInterrupt:          # (the command's own Ctrl-C is caught inside run)
        print("\ncuttle: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
