"""Whole HTML pages: the report pages of results and the replay page of a game.

* `simulation_page`, `comparison_page`: self-contained report pages (tables, charts,
  the JSON of the run), written by ``cuttle simulate/compare --html``;
* `record_page`, `game_page`, `replay_page`: the replay page of a game, step by step,
  written by ``cuttle replay FILE --html``;
* `save_page(path, html)` writes a page whole or not at all;
* `summary_html`, `comparison_html`, `analysis_html`: the tables alone, as HTML
  fragments (`cuttle.render.html`, the results' ``_repr_html_``).

The table of a game itself is `cuttle.svg.table`; the charts of the pages are
`cuttle.report.charts`.  Every page is one file with inline CSS, SVG and JavaScript: it
fetches nothing and works offline.
"""

from __future__ import annotations

from ..render.html import analysis_html, comparison_html, summary_html
from .pages import comparison_page, page, save_page, simulation_page
from .replay import game_page, record_page, replay_page

__all__ = ["analysis_html", "comparison_html", "comparison_page", "game_page",
           "page", "record_page", "replay_page", "save_page",
           "simulation_page", "summary_html"]
