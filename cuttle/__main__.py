"""`python -m cuttle ...`: the command line (see `cuttle.cli`), through the `cuttle`
command's entry point, which ends the hold of a Ctrl-C pressed while the package was
imported (the package's `__init__` starts it)."""

import sys

if __name__ == "__main__":
    from _cuttle_entry import main
    sys.exit(main())
