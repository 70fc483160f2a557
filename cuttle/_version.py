"""The version of cuttle: its one home (pyproject.toml reads it from here; records, pages
and `cuttle --version` import it without importing the package's other modules)."""

__version__ = "0.1.0"
