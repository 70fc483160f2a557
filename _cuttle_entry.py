"""The `cuttle` command's entry point (the command line itself is `cuttle.cli`).

It lives outside the package on purpose: importing `cuttle.cli` first runs the package's
`__init__`, which loads numpy and the native core (about half a second), and a Ctrl-C
then would interrupt the import itself, where no code of the package can catch it (numpy
even turns it into an ImportError).  So a Ctrl-C is held until the import is over, and
then ends the command as every other Ctrl-C of it does: one line and status 130.
"""

import signal
import sys


def main() -> int:
    pressed = []
    hold = signal.getsignal(signal.SIGINT) is signal.default_int_handler   # (not ignored)
    if hold:
        signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(signum))
    try:
        from cuttle.cli import main as run
    finally:
        if hold:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        if pressed:
            raise KeyboardInterrupt
        return run()
    except KeyboardInterrupt:          # (the command's own Ctrl-C is caught inside run)
        print("\ncuttle: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
