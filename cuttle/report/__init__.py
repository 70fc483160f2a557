"""Pictures and pages: results as HTML tables, report pages and replay pages.

* `summary_html`, `comparison_html`, `analysis_html`: the tables of the text output as
  HTML fragments (the results' ``_repr_html_``, so notebooks show them as tables);
* `simulation_page`, `comparison_page`: self-contained report pages (tables, charts,
  the JSON of the run), written by ``cuttle simulate/compare --html``;
* `record_page`, `game_page`, `replay_page`: the replay page of a game, step by step,
  written by ``cuttle replay FILE --html``;
* `save_page(path, html)` writes a page whole or not at all.

The table of a game itself is `cuttle.svg.table`.  Every page is one file with inline
CSS, SVG and JavaScript: it fetches nothing and works offline.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .pages import comparison_page, page, save_page, simulation_page
from .replay import game_page, record_page, replay_page
from .tables import analysis_table, comparison_table, summary_table, wrap

if TYPE_CHECKING:
    from ..analysis import Analysis
    from ..simulation.compare import ComparisonResult
    from ..simulation.summary import Summary

__all__ = ["analysis_html", "comparison_html", "comparison_page", "game_page",
           "page", "record_page", "replay_page", "save_page",
           "simulation_page", "summary_html"]


def summary_html(summary: Summary) -> str:
    """A simulation summary's table as an HTML fragment (for notebooks)."""
    return wrap(summary_table(summary))


def comparison_html(comparison: ComparisonResult) -> str:
    """A comparison's table as an HTML fragment (for notebooks)."""
    return wrap(comparison_table(comparison))


def analysis_html(analysis: Analysis) -> str:
    """A move analysis's table as an HTML fragment (for notebooks)."""
    return wrap(analysis_table(analysis))
