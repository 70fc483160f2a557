"""`python -m cuttle ...`: the command line (see `cuttle.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
