"""The version of cuttle: its one home (pyproject.toml reads it from here; records, pages
and `cuttle --version` import it without importing the package's other modules)."""

__version__ = "0.1.0"

# The revision of the games the library plays: raised by every change that makes some
# seeded game go otherwise (a rule, a policy, the deal), with a line in CHANGELOG.md.
# Files of played results hash it (the atlas's fingerprint), so results of another
# revision are refused rather than mixed in.  2: a frozen 2 may counter and a counter
# chain's 2s reach the scrap when it ends (decisions 9 and 22).  It covers the games of
# named policies, the only ones a results file or the cluster's check holds: a change
# of the streams of games with a Python player (each seat its own, under revision 2)
# does not raise it.
GAME_REVISION = 2
